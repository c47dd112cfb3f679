import ShflCore
import ShflSimulated
import Testing

/// What the in-memory store offers beyond the port contract: real encoded bytes, the
/// set-aside entries, and injected failures for the player's error paths.
@Suite struct InMemoryStateStoreTests {
    let stick = StickID(uuid: "1A2B-3C4D")

    var state: StickState {
        StickState(
            stick: stick, order: [TrackPath("a.mp3"), TrackPath("b.mp3")], cursor: 1,
            position: .milliseconds(2_500), volume: 40,
            history: [TrackPath("a.mp3"): PlayRecord(playCount: 1, lastPlayed: 1)], playSerial: 1)
    }

    @Test func storesTheCodecBytes() throws {
        let store = InMemoryStateStore()
        try store.save(state)
        #expect(store.storedBytes(of: stick) == StickStateCodec.encode(state))
        #expect(store.saveCount == 1)
    }

    @Test func corruptEntryIsSetAsideAndStaysInspectable() throws {
        let store = InMemoryStateStore()
        try store.save(state)
        let bytes = try #require(store.storedBytes(of: stick))
        #expect(store.truncate(stick, toCount: 10))

        let error = try #require(throws: StoreError.self) { try store.load(stick) }
        #expect(error == .corrupt(stick, reason: "line 1: truncated in the first line"))
        #expect(error.description == "state of stick 1A2B-3C4D is corrupt: line 1: truncated in the first line")
        #expect(store.setAside[stick] == [Array(bytes[..<10])])
        #expect(store.storedBytes(of: stick) == nil)
        #expect(try store.load(stick) == nil)
        #expect(store.setAside[stick]?.count == 1)
    }

    @Test func stateOfAnotherStickIsCorrupt() throws {
        let store = InMemoryStateStore()
        let other = StickID(uuid: "FFFF-0000")
        try store.save(state)
        store.setStoredBytes(store.storedBytes(of: stick), of: other)
        #expect(throws: StoreError.corrupt(other, reason: "it holds the state of stick 1A2B-3C4D")) {
            try store.load(other)
        }
        #expect(try store.load(stick) == state)
    }

    @Test func failedSaveKeepsTheOldStateAndFailsOnce() throws {
        let store = InMemoryStateStore()
        try store.save(state)
        var newer = state
        newer.cursor = 0
        store.failNextSave("write /var/lib/shfl/1A2B-3C4D.tmp: ENOSPC")
        #expect(throws: StoreError.io("write /var/lib/shfl/1A2B-3C4D.tmp: ENOSPC")) { try store.save(newer) }
        #expect(try store.load(stick) == state)
        try store.save(newer)
        #expect(try store.load(stick) == newer)
        #expect(store.saveCount == 2)
    }

    @Test func invalidStateIsRefusedAndTheGoodOneKept() throws {
        let store = InMemoryStateStore()
        try store.save(state)
        var broken = state
        broken.cursor = 2
        let error = try #require(throws: StoreError.self) { try store.save(broken) }
        #expect(
            error == .invalid(StickID(uuid: "1A2B-3C4D"), reason: "cursor 2 is out of range for an order of 2 tracks (0...1)"))
        #expect(try store.load(stick) == state)
    }

    @Test func hooksReportWhenThereIsNothingToDamage() throws {
        let store = InMemoryStateStore()
        #expect(!store.corruptByte(at: 0, of: stick))
        #expect(!store.truncate(stick, toCount: 0))
        try store.save(state)
        let count = store.storedBytes(of: stick)?.count ?? 0
        #expect(!store.corruptByte(at: count, of: stick))
        #expect(!store.truncate(stick, toCount: count))
        #expect(try store.load(stick) == state)
    }
}
