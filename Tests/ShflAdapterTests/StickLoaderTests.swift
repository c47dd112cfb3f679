import Foundation
import ShflCore
import ShflMedia
import ShflSimulated
import ShflSystem
import Testing

/// The way from hot-plug events to the player, with directories standing in for sticks and the
/// real file store: per-stick resume (SPEC §1.4, §8), one stick at a time, failures.
final class StickRig {
    let mounter = DirectoryMediaMounter()
    let store: FileStateStore
    let loader: StickLoader
    var player = Player()
    var logs: [LogMessage] = []
    var failures: [String] = []

    init(stateDirectory: String, policy: SelectionPolicy = .alphabetical, mounter: (any MediaMounter)? = nil) throws {
        store = try FileStateStore(directory: stateDirectory)
        loader = StickLoader(mounter: mounter ?? self.mounter, store: store, policy: policy)
    }

    let scanner = StickScanner(clock: SystemMonotonicClock())

    /// Hands a hot-plug event to the loader and its inputs to the player; with `scanning`, the
    /// scan the loader asks for runs at once, here (`finishLoading` is called), and the
    /// outcomes are merged.
    @discardableResult
    func send(_ event: MediaEvent, seed: UInt64 = 7, scanning: Bool = true) -> StickLoader.Outcome {
        var outcome = take(loader.handle(event, seed: seed))
        while scanning, let root = outcome.scanRoot {
            let scanned = take(loader.finishLoading(Result { () throws(DeviceError) in try scanner.scan(root) }))
            outcome.logs += scanned.logs
            outcome.inputs += scanned.inputs
            outcome.failure = outcome.failure ?? scanned.failure
            outcome.scanRoot = scanned.scanRoot
        }
        return outcome
    }

    /// The second step by hand (after `send(_:scanning: false)`).
    @discardableResult
    func finishScan() -> StickLoader.Outcome {
        guard let root = pendingRoot else { return StickLoader.Outcome() }
        return take(loader.finishLoading(Result { () throws(DeviceError) in try scanner.scan(root) }))
    }

    private var pendingRoot: FilePath?

    private func take(_ outcome: StickLoader.Outcome) -> StickLoader.Outcome {
        logs += outcome.logs
        if let failure = outcome.failure { failures.append(failure) }
        for input in outcome.inputs { play(input) }
        pendingRoot = outcome.scanRoot ?? (loader.isScanning ? pendingRoot : nil)
        return outcome
    }

    /// Feeds the player and carries out its saves and logs.
    func play(_ input: PlayerInput) {
        for effect in player.handle(input) {
            switch effect {
            case .save(let state):
                do { try store.save(state) } catch { Issue.record("save: \(error)") }
            case .log(let message):
                logs.append(message)
            default:
                break
            }
        }
    }

    /// The audio thread's reports for the current track: started, then `seconds` of progress.
    func listen(seconds: Int64) {
        play(.audioStarted(ticket: player.ticket))
        for second in stride(from: 1, through: seconds, by: 1) {
            play(.progress(ticket: player.ticket, position: .seconds(second)))
        }
    }

    func finishTrack() {
        play(.trackFinished(ticket: player.ticket))
    }
}

@Suite struct StickLoaderTests {
    static func stickFolder(_ label: String, tracks: Int) throws -> String {
        let folder = try MediaTestSupport.temporaryDirectory(label)
        for index in 0..<tracks {
            try MediaTestSupport.makeDirectory(folder + "/Album \(index % 3)")
            try MediaTestSupport.makeFile(folder + "/Album \(index % 3)/Track \(index).mp3", "x")
        }
        return folder
    }

    static func info(_ folder: String, uuid: String = "AAAA-0001") -> StickInfo {
        StickInfo(source: folder, filesystem: "vfat", id: StickID(uuid: uuid), label: "TEST")
    }

    @Test func theSameStickResumesTheSameShuffleAtTheSameTrackAndPosition() throws {
        let stick = try Self.stickFolder("resume", tracks: 10)
        let state = try MediaTestSupport.temporaryDirectory("resume-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }

        let rig = try StickRig(stateDirectory: state)
        rig.send(.arrived(Self.info(stick)))
        #expect(rig.player.tracks.count == 10)
        for _ in 0..<3 {
            rig.listen(seconds: 3)
            rig.finishTrack()
        }
        rig.listen(seconds: 31)
        let order = rig.player.shuffle.order
        let track = rig.player.currentTrack
        #expect(track != nil)

        // Pulled and plugged back: exactly where it was.
        rig.send(.left(source: stick))
        #expect(rig.player.state == .empty)
        #expect(rig.mounter.journal == ["mount " + stick, "unmount " + stick])
        rig.send(.arrived(Self.info(stick)), seed: 999)
        #expect(rig.player.shuffle.order == order)
        #expect(rig.player.currentTrack == track)
        #expect(rig.player.position == .seconds(31))
        #expect(rig.player.history.count == 4)

        // Power cut (no save at removal): a new player resumes within 10 s of the position.
        rig.listen(seconds: 47)
        let rebooted = try StickRig(stateDirectory: state)
        rebooted.send(.arrived(Self.info(stick)), seed: 12345)
        #expect(rebooted.player.shuffle.order == order)
        #expect(rebooted.player.currentTrack == track)
        #expect(rebooted.player.position <= .seconds(47) && rebooted.player.position >= .seconds(37))
    }

    @Test func aChangedStickKeepsTheHistoryOfTracksStillThereAndReshuffles() throws {
        let stick = try Self.stickFolder("changed", tracks: 8)
        let state = try MediaTestSupport.temporaryDirectory("changed-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }

        let rig = try StickRig(stateDirectory: state)
        rig.send(.arrived(Self.info(stick)))
        for _ in 0..<8 {
            rig.listen(seconds: 1)
            rig.finishTrack()
        }
        let history = rig.player.history
        #expect(history.count == 8)
        rig.send(.left(source: stick))

        // On a PC: one track deleted, two added.
        let removed = TrackPath("Album 0/Track 0.mp3")
        try FileManager.default.removeItem(atPath: stick + "/" + removed.description)
        try MediaTestSupport.makeFile(stick + "/New 1.mp3", "x")
        try MediaTestSupport.makeFile(stick + "/New 2.mp3", "x")
        rig.send(.arrived(Self.info(stick)))
        #expect(rig.player.tracks.count == 9)
        #expect(Set(rig.player.shuffle.order.map { rig.player.tracks[$0] }) == Set(rig.player.tracks))
        var kept = history
        kept[removed] = nil
        #expect(rig.player.history == kept)
        #expect(rig.player.position == .zero)
        #expect(rig.logs.contains { $0.text.contains("tracks changed since last time (8 then, 9 now, 7 in common); reshuffled, history kept") })
    }

    @Test func theHistoryFeedsThePolicyThatChoosesThe120() throws {
        let stick = try Self.stickFolder("popular", tracks: 130)
        let state = try MediaTestSupport.temporaryDirectory("popular-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }
        let favourite = TrackPath("Album 2/Track 98.mp3")  // the last in path order
        let store = try FileStateStore(directory: state)
        let saved = StickState(stick: StickID(uuid: "AAAA-0001"), history: [favourite: PlayRecord(playCount: 9, lastPlayed: 3)], playSerial: 3)
        try store.save(saved)

        let alphabetical = try StickRig(stateDirectory: state)
        alphabetical.send(.arrived(Self.info(stick)))
        #expect(alphabetical.player.tracks.count == 120 && !alphabetical.player.tracks.contains(favourite))
        // A track the policy left out keeps its history: it is still on the stick.
        #expect(alphabetical.player.history[favourite] == PlayRecord(playCount: 9, lastPlayed: 3))
        alphabetical.send(.left(source: Self.info(stick).source))
        let popular = try StickRig(stateDirectory: state, policy: .mostPlayed)
        popular.send(.arrived(Self.info(stick)))
        #expect(popular.player.tracks.count == 120 && popular.player.tracks.contains(favourite))
        #expect(popular.logs.contains { $0.text.hasSuffix("130 MP3 files on the stick, 10 not loaded: at most 120 are loaded, chosen by policy most-played (list the tracks you want in shfl.m3u to choose yourself)") })
    }

    @Test func theLoadedStickCarriesTheTracksAndTheFilesWithAHistoryNotEveryFileOnTheStick() throws {
        // The scan's list of every MP3 file (5,000 on a big stick) is freed once the stick is
        // loaded: the player only needs the files whose saved history it keeps.
        let stick = try Self.stickFolder("bounded", tracks: 130)
        let state = try MediaTestSupport.temporaryDirectory("bounded-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }
        let leftOut = TrackPath("Album 2/Track 98.mp3")  // the last in path order
        let gone = TrackPath("Album 9/Gone.mp3")
        let record = PlayRecord(playCount: 2, lastPlayed: 1)
        let store = try FileStateStore(directory: state)
        try store.save(StickState(stick: StickID(uuid: "AAAA-0001"), history: [leftOut: record, gone: record], playSerial: 1))

        let rig = try StickRig(stateDirectory: state)
        let outcome = rig.send(.arrived(Self.info(stick)))
        guard case .stickLoaded(let loaded)? = outcome.inputs.first else {
            Issue.record("no stick loaded: \(outcome.inputs)")
            return
        }
        #expect(loaded.tracks.count == 120)
        #expect(loaded.filesOnStick == [leftOut])
        #expect(rig.player.history == [leftOut: record])
    }

    @Test func aSecondStickWaitsUntilTheFirstLeaves() throws {
        let first = try Self.stickFolder("first", tracks: 3)
        let second = try Self.stickFolder("second", tracks: 5)
        let state = try MediaTestSupport.temporaryDirectory("two-state")
        defer { [first, second, state].forEach(MediaTestSupport.remove) }

        let rig = try StickRig(stateDirectory: state)
        rig.send(.arrived(Self.info(first)))
        let ignored = rig.send(.arrived(Self.info(second, uuid: "BBBB-0002")))
        #expect(ignored.inputs.isEmpty)
        #expect(ignored.logs.map { $0.description } == ["<5>stick TEST (BBBB-0002) on " + second + " [vfat] ignored: one stick at a time, and TEST (AAAA-0001) on " + first + " [vfat] is loaded; it loads when that one is removed"])
        #expect(rig.player.tracks.count == 3)
        #expect(rig.mounter.mounted.count == 1)

        let swap = rig.send(.left(source: first))
        #expect(swap.inputs.count == 2)
        #expect(rig.player.stick == StickID(uuid: "BBBB-0002") && rig.player.tracks.count == 5)

        // A waiting stick that leaves is forgotten.
        rig.send(.arrived(Self.info(first)))
        rig.send(.left(source: first))
        rig.send(.left(source: second))
        #expect(rig.player.state == .empty && rig.loader.current == nil && rig.loader.waiting.isEmpty)
    }

    @Test func aMountFailureIsReportedOnceAndNotRetried() throws {
        let stick = try Self.stickFolder("failing", tracks: 3)
        let state = try MediaTestSupport.temporaryDirectory("failing-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }

        let rig = try StickRig(stateDirectory: state)
        rig.mounter.failMount(of: stick, reason: "I/O error reading the stick")
        let outcome = rig.send(.arrived(Self.info(stick)))
        let message = "stick TEST (AAAA-0001) on " + stick + " [vfat]: cannot mount " + stick + ": I/O error reading the stick"
        #expect(outcome.inputs == [.stickFailed(reason: message)])
        #expect(outcome.failure == message)
        #expect(outcome.logs.map { $0.level } == [.error])
        #expect(rig.mounter.journal.isEmpty)
        // The LED shows the error (SPEC: a mount failure is shown as error) until it is pulled.
        #expect(rig.player.state == .error(.stickUnusable(reason: message)))
        // Nothing retries; pulling the stick clears the error.
        #expect(rig.send(.left(source: stick)).inputs == [.stickRemoved])
        #expect(rig.player.state == .empty)
        rig.mounter.clearFailure(of: stick)
        rig.send(.arrived(Self.info(stick)))
        #expect(rig.player.tracks.count == 3)
    }

    @Test func aCorruptStateIsSetAsideAndTheStickStartsAfresh() throws {
        let stick = try Self.stickFolder("corrupt", tracks: 4)
        let state = try MediaTestSupport.temporaryDirectory("corrupt-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }
        try MediaTestSupport.makeFile(state + "/stick-AAAA-0001.state", "shfl-stick-state 1\nstick AAAA-0001\nvol")

        let rig = try StickRig(stateDirectory: state)
        rig.send(.arrived(Self.info(stick)))
        #expect(rig.player.tracks.count == 4)
        #expect(rig.logs.contains { $0.level == .warning && $0.text.hasPrefix("state of stick AAAA-0001 is corrupt: " + state + "/stick-AAAA-0001.state: line 3: truncated") && $0.text.hasSuffix("; set aside as stick-AAAA-0001.state.corrupt-1; the stick starts afresh") })
        #expect(FileManager.default.fileExists(atPath: state + "/stick-AAAA-0001.state.corrupt-1"))
    }

    @Test func aStickWithoutTracksLoadsNothingAndSaysSo() throws {
        let stick = try Self.stickFolder("silent", tracks: 0)
        let state = try MediaTestSupport.temporaryDirectory("silent-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }
        let rig = try StickRig(stateDirectory: state)
        rig.send(.arrived(Self.info(stick)))
        #expect(rig.player.state == .empty)
        #expect(rig.logs.contains { $0.text == "stick AAAA-0001 has no playable tracks" })
        #expect(rig.logs.contains { $0.text.hasSuffix(": 0/120 tracks by policy alphabetical from 0 MP3 files on the stick, 0 notes") })
    }

    // MARK: - Loading in two steps (the scan runs off the event loop)

    @Test func aStickPulledWhileItIsScannedIsLetGoWhenTheScanEnds() throws {
        let stick = try Self.stickFolder("pulled-scan", tracks: 4)
        let state = try MediaTestSupport.temporaryDirectory("pulled-scan-state")
        defer { [stick, state].forEach(MediaTestSupport.remove) }
        let rig = try StickRig(stateDirectory: state)

        let mounted = rig.send(.arrived(Self.info(stick)), scanning: false)
        #expect(mounted.scanRoot != nil && rig.loader.isScanning)
        #expect(rig.player.state == .empty && rig.mounter.mounted.count == 1)

        let pulled = rig.send(.left(source: stick))
        #expect(pulled.inputs == [.stickRemoved])
        #expect(pulled.logs.contains { $0.text.hasSuffix("removed while it was scanned") })
        #expect(rig.mounter.mounted.count == 1)  // the scan may still be reading it

        let ended = rig.finishScan()
        #expect(ended.inputs.isEmpty && ended.scanRoot == nil)
        #expect(!rig.loader.isScanning && rig.loader.current == nil && rig.player.state == .empty)
        #expect(rig.mounter.journal == ["mount " + stick, "unmount " + stick])
    }

    @Test func aStickArrivingWhileAnotherIsScannedWaitsForIt() throws {
        let first = try Self.stickFolder("scanned-first", tracks: 3)
        let second = try Self.stickFolder("scanned-second", tracks: 5)
        let state = try MediaTestSupport.temporaryDirectory("scanned-two-state")
        defer { [first, second, state].forEach(MediaTestSupport.remove) }
        let rig = try StickRig(stateDirectory: state)

        rig.send(.arrived(Self.info(first)), scanning: false)
        let ignored = rig.send(.arrived(Self.info(second, uuid: "BBBB-0002")), scanning: false)
        #expect(ignored.scanRoot == nil && ignored.inputs.isEmpty)
        #expect(ignored.logs.first?.text.hasSuffix("is loading; it loads when that one is removed") == true)
        #expect(rig.loader.waiting.count == 1)
        rig.finishScan()
        #expect(rig.player.tracks.count == 3)

        // The first leaves: the waiting second is mounted and scanned next.
        rig.send(.left(source: first))
        #expect(rig.player.stick == StickID(uuid: "BBBB-0002") && rig.player.tracks.count == 5)
    }

    @Test func aStickWaitingBehindAPulledScanLoadsWhenThatScanEnds() throws {
        let first = try Self.stickFolder("behind-first", tracks: 3)
        let second = try Self.stickFolder("behind-second", tracks: 5)
        let state = try MediaTestSupport.temporaryDirectory("behind-state")
        defer { [first, second, state].forEach(MediaTestSupport.remove) }
        let rig = try StickRig(stateDirectory: state)

        rig.send(.arrived(Self.info(first)), scanning: false)
        rig.send(.left(source: first))
        let queued = rig.send(.arrived(Self.info(second, uuid: "BBBB-0002")), scanning: false)
        #expect(queued.scanRoot == nil && rig.loader.waiting.count == 1)

        let next = rig.finishScan()
        #expect(next.scanRoot != nil && rig.loader.isScanning)
        #expect(rig.mounter.journal == ["mount " + first, "unmount " + first, "mount " + second])
        rig.finishScan()
        #expect(rig.player.stick == StickID(uuid: "BBBB-0002") && rig.player.tracks.count == 5)
    }

    @Test func theScanThreadScansAndSignalsItsEnd() throws {
        let stick = try Self.stickFolder("scan-thread", tracks: 7)
        defer { MediaTestSupport.remove(stick) }
        let scan = try StickScanThread(scanner: StickScanner(clock: SystemMonotonicClock()), root: FilePath(stick))
        var poller = Poller()
        let index = poller.watch(scan.descriptor)
        _ = try poller.wait(timeoutMilliseconds: 30_000)  // a hang guard
        #expect(poller.isReady(index))
        let result = scan.result()
        #expect((try? result.get())?.candidates.count == 7)
    }
}
