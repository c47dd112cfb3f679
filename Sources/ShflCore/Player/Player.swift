/// The player (SPEC §3, §4): the playback state machine around the shuffle of the loaded
/// stick, its play history and its volume. Pure: `handle(_:)` takes an input and returns the
/// effects for the shell to carry out; all transitions are in that one function.
public struct Player: Sendable {
    public let settings: PlayerSettings
    public private(set) var state: PlaybackState = .empty
    /// The loaded stick, nil in `.empty`.
    public private(set) var stick: StickID?
    /// The loaded tracks, in path order; the shuffle's indices point into this list.
    public private(set) var tracks: [TrackPath] = []
    public private(set) var shuffle = ShuffleOrder(trackCount: 0, generator: SeededGenerator(seed: 0))
    /// Where the current track is (or will start from).
    public private(set) var position: Duration = .zero
    public private(set) var volume: Int
    /// Play history of the loaded stick's tracks.
    public private(set) var history: [TrackPath: PlayRecord] = [:]
    public private(set) var playSerial: Int64 = 0

    /// Identifies the track most recently handed to the audio thread (`startTrack`); audio
    /// reports with another ticket are stale and ignored.
    public private(set) var ticket = 0
    /// Tracks that failed in a row; reaching the track count means every track failed. A
    /// failure is a track that ends in a decode or read error, however long it played first (a
    /// truncated file starts, then fails). The count starts again only at a track that did not
    /// fail: one that reached its end, or one the listener left while it played (SKIP,
    /// reshuffle). A track merely starting says nothing about how it ends.
    private var consecutiveFailures = 0
    private var lastSavedPosition: Duration = .zero

    public init(settings: PlayerSettings = PlayerSettings()) {
        self.settings = settings
        self.volume = settings.volume.initial
    }

    /// The current track of the shuffle, nil without tracks.
    public var currentTrack: TrackPath? {
        shuffle.current.map { tracks[$0] }
    }

    /// The track that will follow the current one.
    public var upcomingTrack: TrackPath? {
        shuffle.upcoming.map { tracks[$0] }
    }

    /// "47/120": how full the stick's library is.
    public var capacityDescription: String {
        String(tracks.count) + "/" + String(Library.capacity)
    }

    /// Everything to persist about the loaded stick, nil when none is loaded.
    public var stickState: StickState? {
        guard let stick else { return nil }
        return StickState(
            stick: stick,
            order: shuffle.order.map { tracks[$0] },
            cursor: shuffle.cursor,
            position: position,
            cycle: shuffle.cycle,
            generatorState: shuffle.generator.state,
            volume: volume,
            history: history,
            playSerial: playSerial
        )
    }

    // MARK: - The transitions

    public mutating func handle(_ input: PlayerInput) -> [PlayerEffect] {
        var effects: [PlayerEffect] = []
        let before = state

        switch (state, input) {
        // A stick arrives.
        case (.empty, .stickLoaded(let loaded)):
            load(loaded, into: &effects)
        case (.error, .stickLoaded(let loaded)) where stick == nil:
            // The error was an unusable stick, not a loaded one: a good stick replaces it.
            load(loaded, into: &effects)
        case (.stopped, .stickLoaded(let loaded)), (.loading, .stickLoaded(let loaded)),
             (.playing, .stickLoaded(let loaded)), (.paused, .stickLoaded(let loaded)),
             (.error, .stickLoaded(let loaded)):
            effects.append(.log(LogMessage(.notice, "stick " + loaded.id.uuid + " ignored: stick " + stickName + " is already loaded (one stick at a time)")))

        // A stick that cannot be used: the LED shows the error until it is pulled. Nothing
        // retries by itself (a broken stick stays broken).
        case (.empty, .stickFailed(let reason)):
            state = .error(.stickUnusable(reason: reason))
        case (.error, .stickFailed(let reason)) where stick == nil:
            state = .error(.stickUnusable(reason: reason))
        case (.stopped, .stickFailed(let reason)), (.loading, .stickFailed(let reason)), (.playing, .stickFailed(let reason)),
             (.paused, .stickFailed(let reason)), (.error, .stickFailed(let reason)):
            effects.append(.log(LogMessage(.notice, "another stick failed while stick " + stickName + " is loaded: " + reason)))

        // The stick goes: from anywhere to empty.
        case (.empty, .stickRemoved):
            ignore(input, &effects)
        case (.stopped, .stickRemoved), (.error, .stickRemoved):
            unload(stopAudio: false, into: &effects)
        case (.loading, .stickRemoved), (.playing, .stickRemoved), (.paused, .stickRemoved):
            unload(stopAudio: true, into: &effects)

        // PLAY.
        case (.stopped, .playPause):
            startCurrent(from: position, into: &effects)
        case (.playing(let track), .playPause):
            state = .paused(track)
            effects.append(.pauseAudio)
        case (.paused(let track), .playPause):
            state = .playing(track)
            effects.append(.resumeAudio)
        case (.error, .playPause):
            // Retry: every track gets another chance, starting with the next one.
            consecutiveFailures = 0
            shuffle.advance()
            startCurrent(from: .zero, into: &effects)
        case (.empty, .playPause), (.loading, .playPause):
            ignore(input, &effects)

        // SKIP: forward only. From pause it plays the next track: the user asked for music.
        case (.loading, .skip):
            shuffle.advance()
            startCurrent(from: .zero, into: &effects)
        case (.playing, .skip), (.paused, .skip):
            consecutiveFailures = 0
            shuffle.advance()
            startCurrent(from: .zero, into: &effects)
        case (.empty, .skip), (.stopped, .skip), (.error, .skip):
            ignore(input, &effects)

        // Reshuffle: a new order now; keeps playing if it was.
        case (.stopped, .reshuffle):
            shuffle.reshuffle()
            position = .zero
            logReshuffle(&effects)
            saveIfLoaded(&effects)
        case (.loading, .reshuffle):
            shuffle.reshuffle()
            logReshuffle(&effects)
            startCurrent(from: .zero, into: &effects)
        case (.playing, .reshuffle), (.paused, .reshuffle):
            consecutiveFailures = 0
            shuffle.reshuffle()
            logReshuffle(&effects)
            startCurrent(from: .zero, into: &effects)
        case (.empty, .reshuffle), (.error, .reshuffle):
            ignore(input, &effects)

        // Volume works in every state.
        case (_, .volume(let change)):
            let level = settings.volume.apply(change, to: volume)
            if level != volume {
                volume = level
                effects.append(.setVolume(level))
                saveIfLoaded(&effects)
            }

        // Reports from the audio thread about the track it was given last.
        case (.loading(let track), .audioStarted(let reported)) where reported == ticket:
            state = .playing(track)
            if position == .zero { recordPlay(of: track) }
        case (.loading(let track), .trackFailed(let reported, let reason)) where reported == ticket,
             (.playing(let track), .trackFailed(let reported, let reason)) where reported == ticket:
            skipFailed(track, reason: reason, into: &effects)
        case (.playing, .trackFinished(let reported)) where reported == ticket:
            consecutiveFailures = 0
            shuffle.advance()
            startCurrent(from: .zero, into: &effects)
        case (.playing, .progress(let reported, let reached)) where reported == ticket,
             (.paused, .progress(let reported, let reached)) where reported == ticket:
            position = reached
            if reached - lastSavedPosition >= settings.saveInterval || reached < lastSavedPosition {
                saveIfLoaded(&effects)
            }
        case (.paused(let track), .trackFinished(let reported)) where reported == ticket,
             (.paused(let track), .trackFailed(let reported, _)) where reported == ticket:
            // The track ended just as PLAY paused it: stop on the next track, as paused.
            effects.append(.log(LogMessage(.info, "stick " + stickName + ": " + track.description + " ended while pausing")))
            effects.append(.stopAudio)
            ticket += 1
            shuffle.advance()
            position = .zero
            state = .stopped
        case (_, .audioStarted), (_, .trackFailed), (_, .trackFinished), (_, .progress):
            // Late reports about a track already left behind, or in a state without audio.
            ignore(input, &effects)
        }

        if state != before {
            effects.append(.log(LogMessage(.info, "stick " + stickName + ": " + before.name + " -> " + state.description)))
            if stick != nil { saveIfLoaded(&effects) }
        }
        return effects
    }

    // MARK: - Steps shared by several transitions

    private var stickName: String {
        stick?.uuid ?? "-"
    }

    private func ignore(_ input: PlayerInput, _ effects: inout [PlayerEffect]) {
        effects.append(.log(LogMessage(.debug, "ignored " + input.caseName + " in state " + state.name)))
    }

    private mutating func load(_ loaded: LoadedStick, into effects: inout [PlayerEffect]) {
        guard !loaded.tracks.isEmpty else {
            effects.append(.log(LogMessage(.notice, "stick " + loaded.id.uuid + " has no playable tracks")))
            return
        }
        stick = loaded.id
        tracks = loaded.tracks
        consecutiveFailures = 0
        var resumed = false
        if let saved = loaded.saved {
            resumed = resume(from: saved, filesOnStick: loaded.filesOnStick, into: &effects)
        }
        if !resumed {
            shuffle = ShuffleOrder(trackCount: tracks.count, generator: SeededGenerator(seed: loaded.seed))
            position = .zero
        }
        lastSavedPosition = position
        state = .stopped
        effects.append(.setVolume(volume))
        effects.append(.log(LogMessage(.notice, "stick " + loaded.id.uuid + ": " + capacityDescription + " tracks" + (resumed ? ", resuming at " + (currentTrack?.description ?? "-") + " " + position.millisecondsDescription : ", new shuffle"))))
        if settings.autoplay {
            startCurrent(from: position, into: &effects)
        }
    }

    /// Takes over what was saved for this stick. The history of every file still on the stick
    /// is kept (loaded or not). The shuffle resumes only if the stick still has exactly the
    /// tracks of the saved order; otherwise the tracks are reshuffled (returns false).
    private mutating func resume(from saved: StickState, filesOnStick: [TrackPath], into effects: inout [PlayerEffect]) -> Bool {
        volume = settings.volume.apply(.set(saved.volume), to: saved.volume)
        playSerial = saved.playSerial
        var onStick = Set(filesOnStick)
        for track in tracks { onStick.insert(track) }
        history = [:]
        for (track, record) in saved.history where onStick.contains(track) {
            history[track] = record
        }
        var present: [TrackPath: Int] = [:]
        for (index, track) in tracks.enumerated() { present[track] = index }
        let indices = saved.order.compactMap { present[$0] }
        if indices.count == saved.order.count, indices.count == tracks.count,
           let restored = ShuffleOrder(order: indices, cursor: saved.cursor, cycle: saved.cycle, generator: SeededGenerator(seed: saved.generatorState)) {
            shuffle = restored
            position = saved.position
            return true
        }
        effects.append(.log(LogMessage(.notice, "stick " + saved.stick.uuid + ": tracks changed since last time (" + String(saved.order.count) + " then, " + String(tracks.count) + " now, " + String(indices.count) + " in common); reshuffled, history kept")))
        return false
    }

    private mutating func unload(stopAudio: Bool, into effects: inout [PlayerEffect]) {
        if stopAudio { effects.append(.stopAudio) }
        ticket += 1
        if let saved = stickState { effects.append(.save(saved)) }
        stick = nil
        tracks = []
        shuffle = ShuffleOrder(trackCount: 0, generator: SeededGenerator(seed: 0))
        history = [:]
        position = .zero
        state = .empty
    }

    private mutating func startCurrent(from start: Duration, into effects: inout [PlayerEffect]) {
        guard let track = currentTrack else { return }
        ticket += 1
        position = start
        lastSavedPosition = start
        state = .loading(track)
        effects.append(.startTrack(track, from: start, ticket: ticket))
    }

    private mutating func skipFailed(_ track: TrackPath, reason: String, into effects: inout [PlayerEffect]) {
        consecutiveFailures += 1
        effects.append(.log(LogMessage(.warning, "stick " + stickName + ": skipping " + track.description + ": " + reason)))
        if consecutiveFailures >= tracks.count {
            effects.append(.stopAudio)
            ticket += 1
            position = .zero
            state = .error(.allTracksFailed(count: tracks.count))
            effects.append(.log(LogMessage(.error, "stick " + stickName + ": all " + String(tracks.count) + " tracks failed to play; press PLAY to retry")))
            return
        }
        shuffle.advance()
        startCurrent(from: .zero, into: &effects)
    }

    private mutating func recordPlay(of track: TrackPath) {
        playSerial += 1
        var record = history[track] ?? PlayRecord()
        record.playCount += 1
        record.lastPlayed = playSerial
        history[track] = record
    }

    private mutating func logReshuffle(_ effects: inout [PlayerEffect]) {
        effects.append(.log(LogMessage(.info, "stick " + stickName + ": reshuffled")))
    }

    private mutating func saveIfLoaded(_ effects: inout [PlayerEffect]) {
        guard let saved = stickState else { return }
        // One save per handle() is enough: drop an earlier one from this same call.
        effects.removeAll { if case .save = $0 { true } else { false } }
        lastSavedPosition = position
        effects.append(.save(saved))
    }
}
