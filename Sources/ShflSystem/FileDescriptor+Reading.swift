import CSystem

extension FileDescriptor {
    /// Reads with `read(2)` until the end of the file or `limit` bytes, whichever comes first.
    /// `isComplete` is false when the file had more than `limit` bytes (one more byte is read
    /// to tell). Meant for regular files, where `O_NONBLOCK` has no effect.
    public func readAll(limit: Int) throws(Errno) -> (bytes: [UInt8], isComplete: Bool) {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while bytes.count <= limit {
            let wanted = min(chunk.count, limit + 1 - bytes.count)
            let count = try chunk.withUnsafeMutableBytes { buffer in
                Swift.Result { () throws(Errno) -> Int in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<wanted]))
                }
            }.get()
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        if bytes.count > limit {
            bytes.removeLast(bytes.count - limit)
            return (bytes, false)
        }
        return (bytes, true)
    }
}
