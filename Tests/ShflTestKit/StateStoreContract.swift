import ShflCore
import Testing

/// Checks that `Store` keeps the `StateStore` contract (see the port's doc comment). Every
/// adapter's tests call it: the in-memory store below, the file store with a temporary folder.
///
/// - Parameters:
///   - makeStore: a new, empty store each time it is called.
///   - reopen: a new store over the same medium as the given one (files: the same folder), to
///     show that saved states outlive the instance; the default uses the same instance.
///   - corrupt: damages the saved state of a stick in the store, as a failing medium would;
///     nil when the store offers no way to, which skips the corruption checks.
public func checkStateStoreContract<Store: StateStore>(
    makeStore: () -> Store,
    reopen: (Store) -> Store = { $0 },
    corrupt: ((Store, StickID) -> Void)? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let a = StickID(uuid: "AAAA-0001")
    let b = StickID(uuid: "BBBB-0002")

    func load(_ store: Store, _ stick: StickID) -> StickState? {
        do {
            return try store.load(stick)
        } catch {
            Issue.record("load of stick \(stick) failed: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
    func save(_ store: Store, _ state: StickState) {
        do {
            try store.save(state)
        } catch {
            Issue.record("save of stick \(state.stick) failed: \(error)", sourceLocation: sourceLocation)
        }
    }

    // An unknown stick has no state.
    var store = makeStore()
    #expect(load(store, a) == nil, "unknown stick", sourceLocation: sourceLocation)

    // Save then load gives the same state, in this instance and in a reopened one.
    let first = ConformanceSamples.state(a, tracks: 120, history: 500, seed: 1)
    save(store, first)
    #expect(load(store, a) == first, "save then load", sourceLocation: sourceLocation)
    store = reopen(store)
    #expect(load(store, a) == first, "load after reopen", sourceLocation: sourceLocation)
    #expect(load(store, b) == nil, "other stick still unknown", sourceLocation: sourceLocation)

    // A save overwrites.
    let second = ConformanceSamples.state(a, tracks: 3, history: 0, seed: 2)
    save(store, second)
    #expect(load(reopen(store), a) == second, "overwrite", sourceLocation: sourceLocation)

    // Sticks are independent.
    let other = ConformanceSamples.nasty(b)
    save(store, other)
    #expect(load(store, a) == second, "a after saving b", sourceLocation: sourceLocation)
    #expect(load(store, b) == other, "b exactly, nasty paths and all", sourceLocation: sourceLocation)
    let third = ConformanceSamples.state(a, tracks: 0, history: 0, seed: 3)
    save(store, third)
    #expect(load(store, a) == third, "empty state", sourceLocation: sourceLocation)
    #expect(load(store, b) == other, "b after overwriting a", sourceLocation: sourceLocation)

    // A corrupt state is reported once, then set aside: the stick starts fresh.
    guard let corrupt else { return }
    store = reopen(store)
    corrupt(store, a)
    do {
        let loaded = try store.load(a)
        Issue.record("corrupt state loaded (nil: \(loaded == nil))", sourceLocation: sourceLocation)
    } catch {
        if case .corrupt(let stick, let reason) = error {
            #expect(stick == a && !reason.isEmpty, sourceLocation: sourceLocation)
        } else {
            Issue.record("expected .corrupt, got \(error)", sourceLocation: sourceLocation)
        }
    }
    #expect(load(store, a) == nil, "second load after corruption", sourceLocation: sourceLocation)
    #expect(load(reopen(store), a) == nil, "load after reopen", sourceLocation: sourceLocation)
    #expect(load(store, b) == other, "other stick untouched", sourceLocation: sourceLocation)
    save(store, first)
    #expect(load(store, a) == first, "save after corruption", sourceLocation: sourceLocation)
}

/// States for the contract check, with whole-millisecond positions (the format's precision).
public enum ConformanceSamples {
    public static func state(_ stick: StickID, tracks: Int, history: Int, seed: UInt64) -> StickState {
        var generator = SeededGenerator(seed: seed)
        var order = (0..<tracks).map { TrackPath("Album " + String($0 % 9) + "/" + String($0) + ".mp3") }
        order.shuffle(using: &generator)
        var records: [TrackPath: PlayRecord] = [:]
        for index in 0..<history {
            records[TrackPath("h/" + String(index) + ".mp3")] = PlayRecord(
                playCount: generator.next(below: 50), lastPlayed: Int64(generator.next(below: 9_999)))
        }
        return StickState(
            stick: stick,
            order: order,
            cursor: tracks == 0 ? 0 : generator.next(below: tracks),
            position: .milliseconds(Int64(generator.next(below: 600_000))),
            cycle: Int(seed),
            generatorState: generator.next(),
            volume: generator.next(below: 101),
            history: records,
            playSerial: 10_000
        )
    }

    /// Paths that trip a naive text format, and extreme scalars.
    public static func nasty(_ stick: StickID) -> StickState {
        let paths = [
            TrackPath("new\nline.mp3"), TrackPath(" both ends "), TrackPath("50%.mp3"),
            TrackPath(bytes: [0xFF, 0x0D, 0x09, 0x00]), TrackPath(bytes: Array(repeating: 0xC3, count: 4096)),
        ]
        return StickState(
            stick: stick, order: paths, cursor: 4, position: .milliseconds(12), cycle: 1,
            generatorState: UInt64.max, volume: 100,
            history: [paths[0]: PlayRecord(playCount: 2, lastPlayed: 9)], playSerial: Int64.max)
    }
}
