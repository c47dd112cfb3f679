/// One key of the configuration file: where it is (`[section] name`), its one-line doc, the
/// kind of value it takes, and how it reads and writes its part of a `Configuration`.
/// `Configuration.keys` lists them all; its default is what the key writes for
/// `Configuration.defaults`, so there is no second list of defaults to keep in step.
public struct ConfigurationKey: Sendable, CustomStringConvertible {
    /// The section, lower case: "audio".
    public let section: String
    /// The key, lower case with "-": "buffer-time".
    public let name: String
    /// One line for people: what the setting does.
    public let doc: String
    /// What a value must look like: "a duration from 10ms to 2s with its unit (us, ms or s)".
    public let expected: String
    private let assign: @Sendable (inout Configuration, String) -> Bool
    private let render: @Sendable (Configuration) -> String

    /// A key whose value of kind `value` is `get`'s part of a configuration.
    public init<Value>(
        _ section: String, _ name: String, _ doc: String, _ value: ConfigurationValue<Value>,
        get: @escaping @Sendable (Configuration) -> Value,
        set: @escaping @Sendable (inout Configuration, Value) -> Void
    ) {
        self.section = section
        self.name = name
        self.doc = doc
        self.expected = value.expected
        assign = { configuration, text in
            guard let parsed = value.read(text) else { return false }
            set(&configuration, parsed)
            return true
        }
        render = { configuration in value.write(get(configuration)) }
    }

    /// "[audio] buffer-time".
    public var description: String {
        "[" + section + "] " + name
    }

    /// The key's value in `configuration`, spelled as the file spells it: "200ms".
    public func value(in configuration: Configuration) -> String {
        render(configuration)
    }

    /// The documented default: the value in `Configuration.defaults`.
    public var defaultValue: String {
        render(Configuration.defaults)
    }

    /// Sets the key in `configuration` from `text` (trimmed, unquoted); false, and
    /// `configuration` unchanged, when `text` is not a valid value.
    public func assign(_ text: String, to configuration: inout Configuration) -> Bool {
        assign(&configuration, text)
    }
}
