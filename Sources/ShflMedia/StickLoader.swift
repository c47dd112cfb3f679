import ShflCore
import ShflSystem

/// Turns hot-plug events into player inputs: mounts an arriving stick, scans it, loads what
/// the store remembers of it and selects its tracks; lets go of it when it leaves (SPEC §1,
/// §2, §8). One stick at a time: a stick arriving while another is loaded waits, with a log
/// line, and is loaded when the first one leaves.
///
/// A mount or scan failure is logged with the device and reason and returned as `failure`
/// (the event loop shows the LED's error pattern); it is not retried: the device must leave
/// and come back. Scanning is synchronous and bounded by the scanner's `ScanLimits`; the scan's
/// list of every file is freed once the stick is loaded, and the heap pages it used are given
/// back to the kernel (`ProcessHeap`), so a big stick does not keep the player's RSS up.
/// Event-loop thread only.
public final class StickLoader {
    /// What the event loop does after `handle(_:seed:)`.
    public struct Outcome: Sendable {
        /// For `Player.handle(_:)`, in order.
        public var inputs: [PlayerInput] = []
        /// For the log, in order.
        public var logs: [LogMessage] = []
        /// Set when a stick could not be loaded: why, naming the device.
        public var failure: String?

        public init() {}
    }

    public let policy: SelectionPolicy
    public private(set) var scanner: StickScanner
    /// The stick loaded now, if any.
    public private(set) var current: MountedStick?
    /// Sticks that arrived while another was loaded, oldest first.
    public private(set) var waiting: [StickInfo] = []
    /// The last stick that could not be used (the player shows the error until it leaves).
    public private(set) var failed: StickInfo?
    private let mounter: any MediaMounter
    private let store: any StateStore

    public init(mounter: any MediaMounter, store: any StateStore, scanner: StickScanner, policy: SelectionPolicy = .default) {
        self.mounter = mounter
        self.store = store
        self.scanner = scanner
        self.policy = policy
    }

    /// Reacts to one event. `seed` is used for a new shuffle and the `random` policy.
    public func handle(_ event: MediaEvent, seed: UInt64) -> Outcome {
        var outcome = Outcome()
        switch event {
        case .arrived(let stick):
            if let current, current.stick.source == stick.source {
                outcome.logs.append(LogMessage(.info, "stick " + stick.description + " is already loaded"))
            } else if let current {
                waiting.removeAll { $0.source == stick.source }
                waiting.append(stick)
                outcome.logs.append(LogMessage(.notice, "stick " + stick.description + " ignored: one stick at a time, and "
                    + current.stick.description + " is loaded; it loads when that one is removed"))
            } else {
                load(stick, seed: seed, into: &outcome)
                ProcessHeap.releaseFreeMemory()
            }
        case .left(let source):
            if let current, current.stick.source == source {
                self.current = nil
                do {
                    try mounter.unmount(current)
                } catch {
                    outcome.logs.append(LogMessage(.warning, "stick " + current.stick.description + " removed; " + error.description))
                }
                outcome.logs.append(LogMessage(.notice, "stick " + current.stick.description + " removed"))
                outcome.inputs.append(.stickRemoved)
                if !waiting.isEmpty {
                    load(waiting.removeFirst(), seed: seed, into: &outcome)
                    ProcessHeap.releaseFreeMemory()
                }
            } else if let broken = failed, broken.source == source {
                failed = nil
                outcome.logs.append(LogMessage(.notice, "stick " + broken.description + " removed (it could not be used)"))
                if current == nil { outcome.inputs.append(.stickRemoved) }
            } else if let index = waiting.firstIndex(where: { $0.source == source }) {
                outcome.logs.append(LogMessage(.info, "stick " + waiting[index].description + " removed (it was not loaded)"))
                waiting.remove(at: index)
            }
        }
        return outcome
    }

    private func load(_ stick: StickInfo, seed: UInt64, into outcome: inout Outcome) {
        failed = nil
        let mounted: MountedStick
        do {
            mounted = try mounter.mount(stick)
        } catch {
            fail(stick, "stick " + stick.description + ": " + error.description, into: &outcome)
            return
        }
        let scan: StickScan
        do {
            scan = try scanner.scan(mounted.root)
        } catch {
            try? mounter.unmount(mounted)
            fail(stick, "stick " + stick.description + ": " + error.description, into: &outcome)
            return
        }
        current = mounted
        let saved = loadState(of: stick, into: &outcome)
        let selection = scan.selection(policy: policy, history: saved?.history ?? [:], seed: seed)
        outcome.logs.append(LogMessage(.info, "stick " + stick.description + " scanned: " + scan.summary))
        if let stop = scan.stop {
            outcome.logs.append(LogMessage(.warning, "stick " + stick.description + ": scan " + stop.description))
        }
        for note in scan.notes {
            let level: LogLevel = note.skip == .unreadable || note.skip == .playlist ? .warning : .notice
            outcome.logs.append(LogMessage(level, "stick " + stick.description + ": skipped " + note.description))
        }
        if scan.unlistedNotes > 0 {
            outcome.logs.append(LogMessage(.notice, "stick " + stick.description + ": " + String(scan.unlistedNotes) + " more skipped entries not listed"))
        }
        for note in selection.notes {
            outcome.logs.append(LogMessage(note.level, "stick " + stick.description + ": " + note.description))
        }
        outcome.logs.append(LogMessage(.notice, "stick " + stick.description + ": " + selection.description))
        outcome.inputs.append(.stickLoaded(LoadedStick(id: stick.id, tracks: selection.tracks, filesOnStick: Self.filesWithHistory(scan.candidates, saved), saved: saved, seed: seed)))
    }

    /// The files found on the stick that `saved` has a history for: all the player needs of
    /// the scan's list (it keeps the history of those, loaded or not). Passing only these, not
    /// every file (5,000 paths on a big stick), lets that list go as soon as the stick is loaded.
    static func filesWithHistory(_ candidates: [LibraryCandidate], _ saved: StickState?) -> [TrackPath] {
        guard let history = saved?.history, !history.isEmpty else { return [] }
        var found: [TrackPath] = []
        for candidate in candidates where history[candidate.path] != nil {
            found.append(candidate.path)
        }
        return found
    }

    /// What the store remembers; nil (a fresh start, logged) when it has nothing usable.
    private func loadState(of stick: StickInfo, into outcome: inout Outcome) -> StickState? {
        do {
            return try store.load(stick.id)
        } catch {
            switch error {
            case .corrupt:
                outcome.logs.append(LogMessage(.warning, error.description + "; the stick starts afresh"))
            case .io, .invalid:
                outcome.logs.append(LogMessage(.error, "stick " + stick.description + ": " + error.description + "; the stick starts afresh"))
            }
            return nil
        }
    }

    private func fail(_ stick: StickInfo, _ message: String, into outcome: inout Outcome) {
        failed = stick
        outcome.logs.append(LogMessage(.error, message))
        outcome.failure = message
        outcome.inputs.append(.stickFailed(reason: message))
    }
}
