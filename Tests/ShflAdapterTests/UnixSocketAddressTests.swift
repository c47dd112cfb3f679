import CSystem
import ShflSystem
import Testing

/// `sun_path` limits, checked against the kernel: the longest path and the longest abstract
/// name bind, and are what a peer connects to.
@Suite struct UnixSocketAddressTests {
    @Test func theLongestAddressesFitAndLongerOnesAreRefused() {
        #expect(UnixSocketAddress("/" + String(repeating: "x", count: 106)) != nil)
        #expect(UnixSocketAddress("/" + String(repeating: "x", count: 107)) == nil)
        #expect(UnixSocketAddress("@" + String(repeating: "x", count: 107)) != nil)
        #expect(UnixSocketAddress("@" + String(repeating: "x", count: 108)) == nil)
        #expect(UnixSocketAddress("") == nil)
        #expect(UnixSocketAddress("@") == nil)
        #expect(UnixSocketAddress([0x2F, 0x00, 0x61]) == nil)
        #expect(UnixSocketAddress("@name")?.isAbstract == true)
        #expect(UnixSocketAddress("/run/shfl/control")?.isAbstract == false)
    }

    @Test func theLongestPathAndAbstractNameBindAndConnect() throws {
        let folder = try MediaTestSupport.temporaryDirectory("addr")
        defer { MediaTestSupport.remove(folder) }
        let path = folder + "/" + String(repeating: "p", count: 107 - folder.utf8.count - 1)
        let unique = "@shfl-" + String(getpid()) + "-" + String(UInt32.random(in: 0...UInt32.max)) + "-"
        let abstract = unique + String(repeating: "a", count: 108 - unique.utf8.count)
        #expect(abstract.utf8.count == 108)
        for text in [path, abstract] {
            let address = try #require(UnixSocketAddress(text))
            let listener = try FileDescriptor.socket(.stream)
            defer { listener.close() }
            try listener.bind(to: address)
            try listener.listen(backlog: 1)
            let client = try FileDescriptor.socket(.stream)
            defer { client.close() }
            try client.connect(to: address)
            // A name one byte shorter is another address: nobody listens there.
            let shorter = try #require(UnixSocketAddress(String(text.dropLast())))
            let other = try FileDescriptor.socket(.stream)
            defer { other.close() }
            #expect(throws: text.hasPrefix("@") ? Errno(ECONNREFUSED) : Errno.noEntry) { try other.connect(to: shorter) }
        }
        var status = stat()
        #expect(lstat(path, &status) == 0 && path.utf8.count == 107)
    }
}
