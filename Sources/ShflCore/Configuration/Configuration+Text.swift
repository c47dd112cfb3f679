extension Configuration {
    /// The sample configuration file, board/shfl.ini, made from the key table: every key with
    /// its doc, what it takes, and its default. Reading it back gives `Configuration.defaults`
    /// with no problem (a test checks this, and that board/shfl.ini is this text).
    public static var sampleText: String {
        var text = """
            # Shfl configuration: copy to /boot/firmware/shfl.ini (the SD card's boot partition,
            # editable from any PC) and change what you need. Every key is listed with its default;
            # a key left out, or a line deleted, keeps the default.
            #
            # A bad value, an unknown key or a line that is not "key = value" is reported with its
            # line (run "shfl config" to check the file; the player logs the same at start), and
            # that key keeps its default. A key given twice: the later line counts.
            # Comments start with # or ; at the start of a line, or with " ;" after a value.
            # Durations need a unit: 200000us, 20ms, 2s, 1.5s. Names ignore case; values may be
            # "quoted".

            """
        for section in sections {
            text += "\n[" + section + "]\n"
            for key in keys where key.section == section {
                text += "# " + key.doc + "\n"
                text += "# Takes " + key.expected + ".\n"
                text += key.name + " = " + key.defaultValue + "\n"
            }
        }
        return text
    }

    /// The configuration as a file that would give it, one `key = value` per key under its
    /// section, each value as the file spells it: "buffer-time = 200ms". `lineOf` marks the
    /// keys set by a file with " ; line N" (read back, the mark is a comment).
    public func text(lineOf: (ConfigurationKey) -> Int? = { _ in nil }) -> String {
        var text = ""
        for section in Configuration.sections {
            text += (text.isEmpty ? "" : "\n") + "[" + section + "]\n"
            for key in Configuration.keys where key.section == section {
                text += key.name + " = " + key.value(in: self)
                if let line = lineOf(key) { text += " ; line " + String(line) }
                text += "\n"
            }
        }
        return text
    }
}
