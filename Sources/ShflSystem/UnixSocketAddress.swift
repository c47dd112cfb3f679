import CSystem

/// An `AF_UNIX` socket address: a file-system path ("/run/shfl/control") or, written with a
/// leading "@", a name in the abstract namespace ("@shfl-test": `sun_path` starts with a NUL
/// and the name is the bytes after it, not NUL-terminated), as `NOTIFY_SOCKET` writes them.
public struct UnixSocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The address as written, "@" first for an abstract one.
    public let bytes: [UInt8]

    /// nil when the address is empty or does not fit `sun_path` (108 bytes with the
    /// terminating NUL of a path, 107 bytes after the "@" of an abstract name).
    public init?(_ bytes: [UInt8]) {
        guard !bytes.isEmpty, !bytes.contains(0) else { return nil }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        if bytes[0] == UInt8(ascii: "@") {
            guard bytes.count >= 2, bytes.count - 1 <= capacity - 1 else { return nil }
        } else {
            guard bytes.count <= capacity - 1 else { return nil }
        }
        self.bytes = bytes
    }

    public init?(_ text: String) {
        self.init(Array(text.utf8))
    }

    public var isAbstract: Bool { bytes[0] == UInt8(ascii: "@") }

    public var description: String { String(decoding: bytes, as: UTF8.self) }

    /// Calls `body` with the C address and its length (for an abstract name, the length
    /// counts exactly the name's bytes after the leading NUL).
    func withSocketAddress<Value>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Value) -> Value {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathOffset = Int(shfl_sockaddr_un_path_offset())
        let name = isAbstract ? Array(bytes.dropFirst()) : bytes
        let start = isAbstract ? 1 : 0
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in name.enumerated() { path[start + index] = byte }
        }
        // A path counts its terminating NUL (the rest of sun_path is zero); an abstract name
        // counts its leading NUL and not one byte more.
        let length = pathOffset + start + name.count + (isAbstract ? 0 : 1)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(length)) }
        }
    }
}
