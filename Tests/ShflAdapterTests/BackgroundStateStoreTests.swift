import Foundation
import ShflCore
import ShflMedia
import ShflSimulated
import ShflSystem
import ShflTestKit
import Testing

/// A `StateStore` whose saves block while `stalled` (an SD card taking seconds to fsync):
/// deterministic, the test releases it. Records what reached it, in order.
final class StallingStateStore: StateStore, @unchecked Sendable {
    let inner = InMemoryStateStore()
    private let lock = NSLock()
    private var _saved: [StickState] = []
    private var stallNext = false
    let began = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)

    var saved: [StickState] { lock.withLock { _saved } }

    /// The next save blocks until `release` is signalled.
    func stallNextSave() { lock.withLock { stallNext = true } }

    private var _loads = 0
    var loads: Int { lock.withLock { _loads } }

    func load(_ stick: StickID) throws(StoreError) -> StickState? {
        lock.lock()
        _loads += 1
        defer { lock.unlock() }
        return try inner.load(stick)
    }

    func save(_ state: StickState) throws(StoreError) {
        let stall = lock.withLock { () -> Bool in
            defer { stallNext = false }
            return stallNext
        }
        if stall {
            began.signal()
            release.wait()
        }
        lock.lock()
        defer { lock.unlock() }
        try inner.save(state)
        _saved.append(state)
    }
}

@Suite struct BackgroundStateStoreTests {
    let stick = StickID(uuid: "STALL-0001")

    func state(position seconds: Int64) -> StickState {
        var state = ConformanceSamples.state(stick, tracks: 5, history: 3, seed: 7)
        state.position = .seconds(seconds)
        return state
    }

    @Test func meetsTheStateStoreContract() throws {
        // Saves are handed over; `load` sees them at once, as the contract asks.
        checkStateStoreContract(makeStore: { try! BackgroundStateStore(InMemoryStateStore()) })
    }

    @Test func aSaveDuringAStalledWriteReturnsAtOnceAndTheNewestStateWins() throws {
        let card = StallingStateStore()
        let store = try BackgroundStateStore(card)
        card.stallNextSave()
        try store.save(state(position: 1))
        #expect(card.began.wait(timeout: .now() + 10) == .success, "the writer never started the first save")
        // The card is stalled in the first save: the event loop's saves still return at once
        // (a lock and an append; 50 ms is a whole loop turn's margin on a loaded machine).
        let clock = ContinuousClock()
        let second = try clock.measure { try store.save(state(position: 2)) }
        let third = try clock.measure { try store.save(state(position: 3)) }
        #expect(second < .milliseconds(50) && third < .milliseconds(50), "saves took \(second) and \(third) during the stall")
        #expect(try store.load(stick)?.position == .seconds(3), "load gives the newest state, written or not")
        #expect(card.saved.isEmpty)
        card.release.signal()
        store.flush()
        // The stall cost one more write, not a backlog: the state of second 2 was never written.
        #expect(card.saved.map { $0.position } == [.seconds(1), .seconds(3)])
        #expect(try card.load(stick)?.position == .seconds(3))
        store.stop()
    }

    @Test func aFailedWriteIsReportedThroughTheDescriptor() throws {
        let card = InMemoryStateStore()
        let store = try BackgroundStateStore(card)
        card.failNextSave("no space left")
        try store.save(state(position: 1))
        // As the event loop does: wait on the descriptor, then take the failures.
        var poller = Poller()
        poller.watch(store.descriptor)
        var failures: [String] = []
        let deadline = ContinuousClock.now + .seconds(10)
        while failures.isEmpty && ContinuousClock.now < deadline {
            _ = try poller.wait(timeoutMilliseconds: 1_000)
            failures = store.takeFailures()
        }
        #expect(failures.count == 1 && failures[0].contains("STALL-0001") && failures[0].contains("no space left"), "\(failures)")
        store.stop()
    }

    @Test func aPrefetchedStateIsLoadedWithoutStorage() throws {
        let card = StallingStateStore()
        try card.save(state(position: 4))
        let store = try BackgroundStateStore(card)
        store.prefetch(stick)  // the loading thread
        #expect(card.loads == 1)
        #expect(try store.load(stick)?.position == .seconds(4))  // the event loop
        #expect(card.loads == 1, "the event loop's load went to storage")
        store.stop()
    }

    @Test func aDeferredMountTouchesNothingUntilFinished() throws {
        let mounter = DeferredMediaMounter(SystemMediaMounter(runtimeDirectory: NSTemporaryDirectory() + "shfl-deferred-\(getpid())"))
        let disc = StickInfo(source: "/dev/sr0", filesystem: "iso9660", id: StickID(uuid: "X-1"), label: "")
        let mounted = try mounter.mount(disc)
        #expect(mounted.root == mounter.inner.mountPoint(for: disc))
        #expect(!FileManager.default.fileExists(atPath: mounted.root.description), "mount(_:) created the mount point")
        #expect(throws: DeviceError.self) { try mounter.finishMount(mounted) }
    }

    @Test func anInvalidStateIsRefusedAtOnce() throws {
        let store = try BackgroundStateStore(InMemoryStateStore())
        var broken = state(position: 1)
        broken.cursor = 99
        #expect(throws: StoreError.self) { try store.save(broken) }
        store.stop()
    }
}
