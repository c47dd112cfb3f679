import CSystem
import ShflCore
import ShflGPIO
import ShflSystem

/// Finds and reads the board pin maps (board/*.ini, installed under /usr/share/shfl/board).
///
/// `--board NAME` reads NAME.ini from the first directory that has it: `$SHFL_BOARD_DIR`,
/// /etc/shfl/board (the owner's own), /usr/share/shfl/board (the package's). A value with a
/// "/" or ending in ".ini" is a file path. Without `--board`, `detect()` recognises the board.
enum BoardFiles {
    /// Pin map files are tiny; a longer file is refused rather than read.
    static let maximumFileSize = 64 * 1_024

    /// Where board files are looked for, in order.
    static var directories: [String] {
        var directories: [String] = []
        if let override = getenv("SHFL_BOARD_DIR") {
            let path = String(cString: override)
            if !path.isEmpty { directories.append(path) }
        }
        directories.append("/etc/shfl/board")
        directories.append("/usr/share/shfl/board")
        return directories
    }

    /// The pin map named by `--board` (a name or a path).
    static func load(_ board: String) throws(BoardFileError) -> BoardPinMap {
        if board.contains("/") || board.hasSuffix(".ini") {
            var name = board
            if let slash = name.lastIndex(of: "/") { name = String(name[name.index(after: slash)...]) }
            if name.hasSuffix(".ini") { name.removeLast(4) }
            return try read(board, name: name)
        }
        for directory in directories {
            let path = directory + "/" + board + ".ini"
            do {
                return try read(path, name: board)
            } catch .missing {
                continue
            }
        }
        throw .notFound(board + ".ini", searched: directories)
    }

    /// Recognises the board: the shipped pin map whose `model` starts
    /// /proc/device-tree/model, else the first whose chip label is present.
    static func detect() throws(BoardFileError) -> BoardPinMap {
        var candidates: [BoardPinMap] = []
        for name in BoardPinMap.shippedNames {
            do {
                candidates.append(try load(name))
            } catch .notFound {
                continue
            }
        }
        guard !candidates.isEmpty else { throw .notFound("board files", searched: directories) }
        let model = deviceTreeModel()
        if let model {
            for board in candidates {
                if let prefix = board.model, model.hasPrefix(prefix) { return board }
            }
        }
        let chips: [GPIODChip.Info]
        do {
            chips = try GPIODChip.available()
        } catch {
            throw .undetected(model: model, reason: error.description)
        }
        for board in candidates where chips.contains(where: { $0.label == board.chipLabel }) {
            return board
        }
        var labels: [String] = []
        for board in candidates where !labels.contains(board.chipLabel) { labels.append(board.chipLabel) }
        throw .undetected(model: model, reason: GPIODChip.noChipMessage(labels: labels, available: chips))
    }

    /// The board's model from the device tree ("Raspberry Pi 4 Model B Rev 1.4"), nil where
    /// there is none (a PC).
    static func deviceTreeModel() -> String? {
        guard var bytes = try? readFile("/proc/device-tree/model").bytes else { return nil }
        while bytes.last == 0 { bytes.removeLast() }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    private static func read(_ path: String, name: String) throws(BoardFileError) -> BoardPinMap {
        let bytes: [UInt8]
        let isComplete: Bool
        do {
            (bytes, isComplete) = try readFile(path)
        } catch {
            if error == .noEntry { throw .missing(path) }
            throw .unreadable(path, error.description)
        }
        guard isComplete else {
            throw .unreadable(path, "longer than " + String(maximumFileSize) + " bytes")
        }
        do {
            return try BoardPinMap.parse(bytes, name: name, file: path)
        } catch {
            throw .invalid(error)
        }
    }

    /// The file's bytes, at most `maximumFileSize`, and whether that was all of it.
    private static func readFile(_ path: String) throws(Errno) -> (bytes: [UInt8], isComplete: Bool) {
        let file = try FileDescriptor.open(path, O_RDONLY)
        defer { file.close() }
        return try file.readAll(limit: maximumFileSize)
    }
}

/// Why no pin map could be had.
enum BoardFileError: Error, CustomStringConvertible {
    /// The file does not exist (one directory of several; not reported on its own).
    case missing(String)
    case notFound(String, searched: [String])
    case unreadable(String, String)
    case invalid(BoardPinMapError)
    case undetected(model: String?, reason: String)

    var description: String {
        switch self {
        case .missing(let path):
            return path + ": no such file"
        case .notFound(let file, let searched):
            var text = "no " + file + " in "
            for (index, directory) in searched.enumerated() { text += (index == 0 ? "" : ", ") + directory }
            return text + " (set SHFL_BOARD_DIR, or pass --board FILE.ini)"
        case .unreadable(let path, let reason):
            return path + ": " + reason
        case .invalid(let error):
            return error.description
        case .undetected(let model, let reason):
            let seen = model.map { "the device tree says '" + $0 + "'" } ?? "no /proc/device-tree/model"
            return "cannot tell which board this is (" + seen + "): " + reason + "; pass --board NAME"
        }
    }
}
