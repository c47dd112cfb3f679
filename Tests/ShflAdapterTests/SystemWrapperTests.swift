import CSystem
import ShflCore
import ShflSystem
import Synchronization
import Testing

@Suite struct SystemWrapperTests {
    @Test func errnoNamesTheError() {
        #expect(Errno.noEntry.description == "ENOENT (No such file or directory)")
        #expect(Errno(9999).description.hasPrefix("errno 9999") || Errno(9999).description.contains("9999"))
        #expect(Errno.noEntry.deviceError("opening /x").description == "opening /x: ENOENT (No such file or directory) (code 2)")
    }

    @Test func openingAMissingFileThrowsENOENT() {
        #expect(throws: Errno.noEntry) { try FileDescriptor.open("/nonexistent/shfl/file", O_RDONLY) }
    }

    @Test func writeSyncAndReadBackAFile() throws {
        let path = "/tmp/shfl-fd-test-" + String(getpid())
        let file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o600)
        try file.writeAll(Array("hello, stick\n".utf8))
        try file.sync()
        file.close()
        let again = try FileDescriptor.open(path, O_RDONLY)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = try buffer.withUnsafeMutableBytes { try again.read(into: $0) }
        again.close()
        unlink(path)
        #expect(String(decoding: buffer[0..<count], as: UTF8.self) == "hello, stick\n")
    }

    @Test func anotherThreadWakesThePollerThroughTheNotifier() throws {
        let notifier = try EventNotifier()
        defer { notifier.close() }
        var poller = Poller()
        let index = poller.watch(notifier.descriptor)
        #expect(try poller.wait(timeoutMilliseconds: 0) == 0)
        let thread = try SystemThread {
            notifier.notify()
            notifier.notify()
        }
        thread.join()
        #expect(try poller.wait(timeoutMilliseconds: 1_000) == 1)
        #expect(poller.isReady(index))
        #expect(notifier.drain() == 2)
        #expect(notifier.drain() == 0)
    }

    @Test func timerFiresAtItsInstantAndCanBeDisarmed() throws {
        let clock = SystemMonotonicClock()
        let timer = try TimerDescriptor()
        defer { timer.close() }
        var poller = Poller()
        let index = poller.watch(timer.descriptor)
        try timer.arm(at: clock.now + .seconds(3_600))
        #expect(try poller.wait(timeoutMilliseconds: 0) == 0)
        try timer.arm(at: clock.now - .milliseconds(1))
        #expect(try poller.wait(timeoutMilliseconds: 1_000) == 1)
        #expect(poller.isReady(index))
        #expect(timer.acknowledge())
        try timer.arm(at: nil)
        #expect(try poller.wait(timeoutMilliseconds: 0) == 0)
    }

    @Test func threadRunsItsBodyOnce() throws {
        let runs = Atomic<Int>(0)
        let thread = try SystemThread { runs.add(1, ordering: .relaxed) }
        thread.join()
        thread.join()
        #expect(runs.load(ordering: .relaxed) == 1)
    }

    @Test func aThreadHasTheSmallStackNotGlibcsEightMegabytes() throws {
        // With mlockall(MCL_FUTURE) every page of a thread's stack becomes resident.
        let size = Atomic<Int>(0)
        let thread = try SystemThread { size.store(shfl_current_thread_stack_size(), ordering: .relaxed) }
        thread.join()
        #expect(size.load(ordering: .relaxed) == SystemThread.stackBytes)
        #expect(SystemThread.stackBytes <= 512 * 1024)
    }
}
