extension Configuration {
    /// Applies one `key = value` line of `file`: sets the key and returns nil, or returns the
    /// problem and leaves the configuration as it was (so the key keeps its default, or the
    /// value an earlier line gave it). Section and key names ignore ASCII case and take "_"
    /// for "-"; the value loses surrounding spaces and one pair of double quotes.
    ///
    /// Duplicate keys are not seen here (this is one line): `ConfigurationBuilder` notes them.
    public mutating func apply(section: String, key: String, value: String, line: Int, file: String) -> ConfigurationProblem? {
        let sectionName = ConfigurationSpelling.name(section)
        let keyName = ConfigurationSpelling.name(key)
        guard let entry = Configuration.key(section: sectionName, name: keyName) else {
            return Configuration.unknown(section: sectionName, key: keyName, line: line, file: file)
        }
        let text = ConfigurationSpelling.value(value)
        if entry.assign(text, to: &self) { return nil }
        let current = entry.value(in: self)
        let fallback = current == entry.defaultValue ? "using the default " + current : "keeping " + current
        let given = text.isEmpty ? "not an empty value" : "not '" + text + "'"
        return ConfigurationProblem(
            .badValue, file: file, line: line, key: entry.description,
            entry.description + ": expected " + entry.expected + ", " + given + "; " + fallback)
    }

    /// The problem for a key that is not in the table, with a likely correction.
    static func unknown(section: String, key: String, line: Int, file: String) -> ConfigurationProblem {
        if key.isEmpty {
            return ConfigurationProblem(.unknownKey, file: file, line: line, "a value without a key; ignored")
        }
        var sameName: ConfigurationKey?
        for candidate in keys where candidate.name == key { sameName = sameName ?? candidate }
        if section.isEmpty {
            var message = "'" + key + "' is outside any section"
            if let sameName { message += " (did you mean " + sameName.description + "?)" }
            return ConfigurationProblem(.unknownKey, file: file, line: line, key: key, message + "; ignored")
        }
        if !sections.contains(section) {
            var message = "unknown section [" + section + "]"
            if let guess = ConfigurationSpelling.closest(to: section, among: sections) {
                message += " (did you mean [" + guess + "]?)"
            }
            return ConfigurationProblem(.unknownSection, file: file, line: line, key: "[" + section + "]", message + "; its keys are ignored")
        }
        var names: [String] = []
        for candidate in keys where candidate.section == section { names.append(candidate.name) }
        var message = "unknown key '" + key + "' in [" + section + "]"
        if let guess = ConfigurationSpelling.closest(to: key, among: names) {
            message += " (did you mean " + guess + "?)"
        } else if let sameName {
            message += " (it belongs in [" + sameName.section + "])"
        }
        return ConfigurationProblem(.unknownKey, file: file, line: line, key: "[" + section + "] " + key, message + "; ignored")
    }
}
