/// One kind of configuration value: how its text is read, how it is written back (the
/// canonical spelling the sample file and `shfl config` print, which reads back to the same
/// value), and what a message says was expected. The kinds are in
/// `ConfigurationValue+Kinds.swift`.
public struct ConfigurationValue<Value>: Sendable {
    /// What the value must look like, for messages and the sample: "a whole number from 0 to 100".
    public let expected: String
    /// The value of a text (already trimmed and unquoted), or nil when it is not one.
    let read: @Sendable (String) -> Value?
    let write: @Sendable (Value) -> String

    public init(expected: String, read: @escaping @Sendable (String) -> Value?, write: @escaping @Sendable (Value) -> String) {
        self.expected = expected
        self.read = read
        self.write = write
    }

    /// The same value, or `off` for nil: `realtime-priority = off`, `power-off-hold = off`.
    /// `text` read as the configuration file would read it (nil when it is not valid), for
    /// command-line options that take the same values as a key.
    public func parse(_ text: String) -> Value? {
        read(text)
    }

    public func orOff() -> ConfigurationValue<Value?> {
        let base = self
        return ConfigurationValue<Value?>(
            expected: base.expected + ", or off",
            read: { text in
                if ConfigurationSpelling.folded(text) == "off" { return .some(nil) }
                guard let value = base.read(text) else { return nil }
                return .some(value)
            },
            write: { value in
                guard let value else { return "off" }
                return base.write(value)
            })
    }
}
