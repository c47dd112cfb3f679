import ShflCore

/// Turns hot-plug events into player inputs: mounts an arriving stick, scans it, loads what
/// the store remembers of it and selects its tracks; lets go of it when it leaves (SPEC §1,
/// §2, §8). One stick at a time: a stick arriving while another is loaded waits, with a log
/// line, and is loaded when the first one leaves.
///
/// Loading is two steps, so the scan (bounded by `ScanLimits`, up to seconds on a slow stick)
/// can run off the event loop: `handle(_:seed:)` mounts an arriving stick and asks for a scan of
/// its root (`Outcome.scanRoot`); whoever scans it (`StickScanThread`, or the caller itself)
/// hands the result to `finishLoading(_:)`, which selects the tracks. Meanwhile events keep
/// coming: a stick pulled while it is scanned is let go of when the scan ends.
///
/// A mount or scan failure is logged with the device and reason and returned as `failure`
/// (the event loop shows the LED's error pattern); it is not retried: the device must leave
/// and come back. Event-loop thread only (the scan itself may run anywhere).
public final class StickLoader {
    /// What the event loop does after `handle(_:seed:)` or `finishLoading(_:)`.
    public struct Outcome: Sendable {
        /// For `Player.handle(_:)`, in order.
        public var inputs: [PlayerInput] = []
        /// For the log, in order.
        public var logs: [LogMessage] = []
        /// Set when a stick could not be loaded: why, naming the device.
        public var failure: String?
        /// A stick was mounted here: scan this folder and hand the result to `finishLoading(_:)`.
        public var scanRoot: FilePath?

        public init() {}
    }

    /// The stick being scanned: mounted, not yet selected.
    private struct Loading {
        var stick: StickInfo
        var mounted: MountedStick
        var seed: UInt64
        /// Pulled while scanning: unmounted and forgotten when the scan ends.
        var left = false
    }

    public let policy: SelectionPolicy
    /// The stick loaded now, if any.
    public private(set) var current: MountedStick?
    /// Sticks that arrived while another was loaded, oldest first.
    public private(set) var waiting: [StickInfo] = []
    /// The last stick that could not be used (the player shows the error until it leaves).
    public private(set) var failed: StickInfo?
    private var loading: Loading?
    /// A scan was asked for and its result is not in yet.
    public var isScanning: Bool { loading != nil }
    /// The stick being loaded (mounted by `mount`, maybe not yet by `finishMount`), while it is.
    public var loadingStick: MountedStick? { loading?.mounted }
    private let mounter: any MediaMounter
    private let store: any StateStore

    public init(mounter: any MediaMounter, store: any StateStore, policy: SelectionPolicy = .default) {
        self.mounter = mounter
        self.store = store
        self.policy = policy
    }

    /// Reacts to one event. `seed` is used for a new shuffle and the `random` policy.
    public func handle(_ event: MediaEvent, seed: UInt64) -> Outcome {
        var outcome = Outcome()
        switch event {
        case .arrived(let stick):
            let busy = current?.stick ?? loading.flatMap { $0.left ? nil : $0.stick }
            let busyState = current != nil ? "loaded" : "loading"
            if let busy, busy.source == stick.source {
                outcome.logs.append(LogMessage(.info, "stick " + stick.description + " is already " + busyState))
            } else if busy != nil || loading != nil {
                // One stick at a time; a stick pulled while scanned still holds its place until
                // its scan ends.
                waiting.removeAll { $0.source == stick.source }
                waiting.append(stick)
                if let busy {
                    outcome.logs.append(LogMessage(.notice, "stick " + stick.description + " ignored: one stick at a time, and "
                        + busy.description + " is " + busyState + "; it loads when that one is removed"))
                }
            } else {
                mount(stick, seed: seed, into: &outcome)
            }
        case .left(let source):
            if let pending = loading, pending.stick.source == source, !pending.left {
                loading?.left = true
                outcome.logs.append(LogMessage(.notice, "stick " + pending.stick.description + " removed while it was scanned"))
                outcome.inputs.append(.stickRemoved)
            } else if let current, current.stick.source == source {
                self.current = nil
                do {
                    try mounter.unmount(current)
                } catch {
                    outcome.logs.append(LogMessage(.warning, "stick " + current.stick.description + " removed; " + error.description))
                }
                outcome.logs.append(LogMessage(.notice, "stick " + current.stick.description + " removed"))
                outcome.inputs.append(.stickRemoved)
                if !waiting.isEmpty {
                    mount(waiting.removeFirst(), seed: seed, into: &outcome)
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

    /// The second step: the scan of `Outcome.scanRoot` ended. Selects the tracks and loads the
    /// stick, or, if it was pulled meanwhile, lets go of it and mounts the next one waiting.
    public func finishLoading(_ result: Result<StickScan, DeviceError>) -> Outcome {
        var outcome = Outcome()
        guard let pending = loading else { return outcome }
        loading = nil
        let stick = pending.stick
        if pending.left {
            try? mounter.unmount(pending.mounted)
            if !waiting.isEmpty { mount(waiting.removeFirst(), seed: pending.seed, into: &outcome) }
            return outcome
        }
        let scan: StickScan
        switch result {
        case .success(let scanned):
            scan = scanned
        case .failure(let error):
            try? mounter.unmount(pending.mounted)
            fail(stick, "stick " + stick.description + ": " + error.description, into: &outcome)
            return outcome
        }
        let seed = pending.seed
        current = pending.mounted
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
        return outcome
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

    /// The first step: mounts the stick and asks for its scan.
    private func mount(_ stick: StickInfo, seed: UInt64, into outcome: inout Outcome) {
        failed = nil
        do {
            let mounted = try mounter.mount(stick)
            loading = Loading(stick: stick, mounted: mounted, seed: seed)
            outcome.scanRoot = mounted.root
        } catch {
            fail(stick, "stick " + stick.description + ": " + error.description, into: &outcome)
        }
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
