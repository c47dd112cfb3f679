import CSystem
import ShflCore
import ShflSystem

/// The `StateStore` port on files: one file per stick under a state directory (default
/// /var/lib/shfl), holding the bytes of `StickStateCodec` (SPEC §8).
///
/// - `save` validates first (`.invalid`, the old file untouched), writes
///   `<file>.tmp`, fsyncs it, renames it over the file, and fsyncs the directory: a power cut
///   at any instant leaves the old or the new state, and once `save` returns the new one
///   survives.
/// - `load` reads the file (at most `maximumFileSize` bytes). One that does not decode, holds
///   another stick's state, or is not a regular file is renamed to `<file>.corrupt-<N>` (the
///   first free N, at most `maximumSetAside`, then the last is replaced) and reported once as
///   `.corrupt`, naming the file and the reason; the next `load` returns nil.
/// - Errors name the file and the errno.
///
/// File names: "stick-<UUID>.state", where bytes other than ASCII letters, digits, "-" and
/// "_" are written `%XX`, so different UUIDs never share a file and none escapes the
/// directory. One store per directory. It keeps no state of its own beyond the directory's
/// descriptor, so a save on one thread and a load on another (`BackgroundStateStore`: the writer
/// thread saves, a stick's loading thread loads) are safe: the rename is atomic, a load reads the
/// old file or the new one. In the daemon, no thread but those two calls it.
public final class FileStateStore: StateStore {
    public static let defaultDirectory = "/var/lib/shfl"
    /// Larger files are not states Shfl wrote (120 tracks and a long history take ~100 kB).
    public static let maximumFileSize = 16 << 20
    public static let maximumSetAside = 9

    public let directory: String
    private let descriptor: FileDescriptor

    /// Opens the state directory, creating it (and its parents) if needed.
    public init(directory: String = FileStateStore.defaultDirectory) throws(StoreError) {
        self.directory = directory
        do {
            try FileDescriptor.makeDirectories(Array(directory.utf8), mode: 0o755)
            descriptor = try FileDescriptor.open(directory, O_RDONLY | O_DIRECTORY)
        } catch {
            throw .io("cannot open the state directory " + directory + ": " + error.description)
        }
    }

    deinit {
        descriptor.close()
    }

    /// The name of the stick's state file in `directory`.
    public func fileName(for stick: StickID) -> String {
        var name = "stick-"
        var escaped: [UInt8] = []
        for byte in stick.uuid.utf8 {
            let plain = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            if plain {
                escaped.append(byte)
            } else {
                escaped.append(UInt8(ascii: "%"))
                escaped.append(contentsOf: Hexadecimal.string(UInt64(byte), digits: 2, .uppercase).utf8)
            }
        }
        if escaped.count > 200 {
            // Still one name per UUID: a prefix and the hash of the whole.
            let hash = FNV1a64.hash(stick.uuid.utf8)
            escaped = Array(escaped[..<160]) + Array(("~" + Hexadecimal.string(hash, digits: 16, .uppercase)).utf8)
        }
        name += String(decoding: escaped, as: UTF8.self)
        return name + ".state"
    }

    /// The full path of the stick's state file, for messages and tests.
    public func path(for stick: StickID) -> String {
        directory + "/" + fileName(for: stick)
    }

    public func load(_ stick: StickID) throws(StoreError) -> StickState? {
        let name = fileName(for: stick)
        let file: FileDescriptor
        do {
            file = try descriptor.openEntry(Array(name.utf8), O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch {
            if error == .noEntry { return nil }
            if error == Errno(ELOOP) {
                throw try setAside(stick, name, reason: "it is a symbolic link")
            }
            throw .io("cannot read the state of stick " + stick.uuid + " from " + path(for: stick) + ": " + error.description)
        }
        // What the file holds, or why it is not a state (set aside below).
        let bytes: [UInt8]
        var notAState: String?
        do throws(Errno) {
            defer { file.close() }
            let status = try file.status()
            if status.kind != .regular {
                notAState = "it is a " + status.kind.description
                bytes = []
            } else {
                let (read, complete) = try file.readAll(limit: FileStateStore.maximumFileSize)
                if !complete { notAState = "it is larger than " + String(FileStateStore.maximumFileSize) + " bytes" }
                bytes = read
            }
        } catch {
            throw .io("cannot read the state of stick " + stick.uuid + " from " + path(for: stick) + ": " + error.description)
        }
        if let notAState { throw try setAside(stick, name, reason: notAState) }
        let state: StickState
        do {
            state = try StickStateCodec.decode(bytes)
        } catch {
            throw try setAside(stick, name, reason: error.description)
        }
        guard state.stick == stick else {
            throw try setAside(stick, name, reason: "it holds the state of stick " + state.stick.uuid)
        }
        return state
    }

    public func save(_ state: StickState) throws(StoreError) {
        do {
            try StickStateCodec.validate(state)
        } catch {
            throw .invalid(state.stick, reason: error.description)
        }
        let bytes = StickStateCodec.encode(state)
        let name = Array(fileName(for: state.stick).utf8)
        let temporary = name + Array(".tmp".utf8)
        var step = "creating " + directory + "/" + String(decoding: temporary, as: UTF8.self)
        do throws(Errno) {
            let file = try descriptor.openEntry(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, mode: 0o644)
            do {
                defer { file.close() }
                step = "writing " + directory + "/" + String(decoding: temporary, as: UTF8.self)
                try file.writeAll(bytes)
                step = "syncing " + directory + "/" + String(decoding: temporary, as: UTF8.self)
                try file.sync()
            }
            step = "renaming it to " + path(for: state.stick)
            try descriptor.renameEntry(temporary, to: name)
        } catch {
            try? descriptor.removeEntry(temporary)
            throw .io("cannot save the state of stick " + state.stick.uuid + ": " + step + ": " + error.description)
        }
        do {
            try descriptor.sync()
        } catch {
            throw .io("cannot save the state of stick " + state.stick.uuid + ": syncing the directory " + directory + ": " + error.description)
        }
    }

    /// Renames a corrupt state file out of the way and returns the `.corrupt` error to throw;
    /// throws `.io` when it can neither rename nor remove it (it would be reported forever).
    private func setAside(_ stick: StickID, _ name: String, reason: String) throws(StoreError) -> StoreError {
        let source = Array(name.utf8)
        var target = Array((name + ".corrupt-" + String(FileStateStore.maximumSetAside)).utf8)
        for number in 1...FileStateStore.maximumSetAside {
            let candidate = Array((name + ".corrupt-" + String(number)).utf8)
            do {
                _ = try descriptor.statusOfEntry(candidate)
            } catch {
                if error == .noEntry {
                    target = candidate
                    break
                }
            }
        }
        let shown = directory + "/" + name
        do {
            try descriptor.renameEntry(source, to: target)
            try? descriptor.sync()
        } catch {
            do {
                try descriptor.removeEntry(source)
            } catch {
                throw .io("state of stick " + stick.uuid + " in " + shown + " is corrupt (" + reason + ") and cannot be set aside: " + error.description)
            }
            return .corrupt(stick, reason: shown + ": " + reason + "; removed (it could not be renamed)")
        }
        return .corrupt(stick, reason: shown + ": " + reason + "; set aside as " + String(decoding: target, as: UTF8.self))
    }
}
