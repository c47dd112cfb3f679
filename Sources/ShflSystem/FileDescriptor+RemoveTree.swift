import CSystem

extension FileDescriptor {
    /// `rm -r` of the entry `name` in this directory: a file or symbolic link is unlinked (a
    /// link is never followed); a directory is emptied depth first, then removed. A missing
    /// entry is fine. For folders a command made for itself (the demo's runtime folder).
    public func removeTree(_ name: [UInt8]) throws(Errno) {
        do {
            try removeEntry(name)
            return
        } catch {
            if error == Errno(ENOENT) { return }
            guard error == Errno(EISDIR) else { throw error }
        }
        let stream = try DirectoryStream(taking: try openSubdirectory(name))
        do {
            while let entry = try stream.next() {
                try stream.descriptor.removeTree(entry.name)
            }
        } catch {
            stream.close()
            throw error
        }
        stream.close()
        try removeEntry(name, directory: true)
    }
}
