/// Why a pin map file was refused: the file, the line (1-based, as an editor numbers it) and
/// what is wrong there, e.g. "board/pi-4.ini:12: unknown key 'lne' in [play] (expected line, pin)".
public struct BoardPinMapError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var message: String

    public init(file: String, line: Int, _ message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String {
        file + ":" + String(line) + ": " + message
    }
}
