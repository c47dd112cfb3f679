import ShflCore
import Testing

/// Builds players in a given state, the way the event loop would drive them there.
struct PlayerFixture {
    static let stickA = StickID(uuid: "AAAA-0001")
    static let stickB = StickID(uuid: "BBBB-0002")

    static func tracks(_ count: Int) -> [TrackPath] {
        (0..<count).map { TrackPath("Music/track" + String($0) + ".mp3") }
    }

    static func loaded(_ count: Int = 5, stick: StickID = stickA, saved: StickState? = nil, seed: UInt64 = 42) -> LoadedStick {
        LoadedStick(id: stick, tracks: tracks(count), saved: saved, seed: seed)
    }

    /// A player (autoplay off, so every state is reachable step by step) in `stateName`.
    static func player(in stateName: String, trackCount: Int = 5) -> Player {
        var player = Player(settings: PlayerSettings(autoplay: false))
        if stateName == "empty" { return player }
        _ = player.handle(.stickLoaded(loaded(trackCount)))
        if stateName == "stopped" { return player }
        if stateName == "error" {
            _ = player.handle(.playPause)
            for _ in 0..<trackCount {
                _ = player.handle(.trackFailed(ticket: player.ticket, reason: "broken"))
            }
            return player
        }
        _ = player.handle(.playPause)
        if stateName == "loading" { return player }
        _ = player.handle(.audioStarted(ticket: player.ticket))
        if stateName == "playing" { return player }
        _ = player.handle(.playPause)
        return player
    }

    static let stateNames = ["empty", "stopped", "loading", "playing", "paused", "error"]
}

extension [PlayerEffect] {
    var startedTracks: [TrackPath] {
        compactMap { if case .startTrack(let track, _, _) = $0 { track } else { nil } }
    }

    var saves: [StickState] {
        compactMap { if case .save(let state) = $0 { state } else { nil } }
    }

    func contains(_ level: LogLevel, _ text: String) -> Bool {
        contains { if case .log(let message) = $0 { message.level == level && message.text.contains(text) } else { false } }
    }
}

@Suite struct PlayerTransitionTableTests {
    /// Every state × every input (SPEC §4): the state name after the input. Audio reports carry
    /// the current ticket here; stale tickets are covered below.
    static let table: [String: [String: String]] = [
        "empty": ["stickFailed": "error", "stickLoaded": "stopped", "stickRemoved": "empty", "playPause": "empty", "skip": "empty", "reshuffle": "empty", "volume": "empty", "audioStarted": "empty", "trackFailed": "empty", "trackFinished": "empty", "progress": "empty"],
        "stopped": ["stickFailed": "stopped", "stickLoaded": "stopped", "stickRemoved": "empty", "playPause": "loading", "skip": "stopped", "reshuffle": "stopped", "volume": "stopped", "audioStarted": "stopped", "trackFailed": "stopped", "trackFinished": "stopped", "progress": "stopped"],
        "loading": ["stickFailed": "loading", "stickLoaded": "loading", "stickRemoved": "empty", "playPause": "loading", "skip": "loading", "reshuffle": "loading", "volume": "loading", "audioStarted": "playing", "trackFailed": "loading", "trackFinished": "loading", "progress": "loading"],
        "playing": ["stickFailed": "playing", "stickLoaded": "playing", "stickRemoved": "empty", "playPause": "paused", "skip": "loading", "reshuffle": "loading", "volume": "playing", "audioStarted": "playing", "trackFailed": "loading", "trackFinished": "loading", "progress": "playing"],
        "paused": ["stickFailed": "paused", "stickLoaded": "paused", "stickRemoved": "empty", "playPause": "playing", "skip": "loading", "reshuffle": "loading", "volume": "paused", "audioStarted": "paused", "trackFailed": "stopped", "trackFinished": "stopped", "progress": "paused"],
        "error": ["stickFailed": "error", "stickLoaded": "error", "stickRemoved": "empty", "playPause": "loading", "skip": "error", "reshuffle": "error", "volume": "error", "audioStarted": "error", "trackFailed": "error", "trackFinished": "error", "progress": "error"],
    ]

    static func inputs(ticket: Int) -> [(String, PlayerInput)] {
        [
            ("stickLoaded", .stickLoaded(PlayerFixture.loaded(3, stick: PlayerFixture.stickB))),
            ("stickFailed", .stickFailed(reason: "/dev/sdb1: unknown filesystem")),
            ("stickRemoved", .stickRemoved),
            ("playPause", .playPause),
            ("skip", .skip),
            ("reshuffle", .reshuffle),
            ("volume", .volume(.down)),
            ("audioStarted", .audioStarted(ticket: ticket)),
            ("trackFailed", .trackFailed(ticket: ticket, reason: "decoding failed")),
            ("trackFinished", .trackFinished(ticket: ticket)),
            ("progress", .progress(ticket: ticket, position: .seconds(3))),
        ]
    }

    @Test(arguments: PlayerFixture.stateNames)
    func everyInputInEveryState(stateName: String) throws {
        let start = PlayerFixture.player(in: stateName)
        #expect(start.state.name == stateName)
        let expected = try #require(Self.table[stateName])
        for (inputName, input) in Self.inputs(ticket: start.ticket) {
            var player = start
            _ = player.handle(input)
            #expect(player.state.name == expected[inputName], "\(stateName) + \(inputName) gave \(player.state.name)")
        }
        #expect(expected.count == Self.inputs(ticket: 0).count, "table row \(stateName) is incomplete")
    }

    @Test(arguments: PlayerFixture.stateNames)
    func staleAudioReportsChangeNothing(stateName: String) {
        let start = PlayerFixture.player(in: stateName)
        let stale = start.ticket - 1
        for input in [PlayerInput.audioStarted(ticket: stale), .trackFailed(ticket: stale, reason: "x"), .trackFinished(ticket: stale), .progress(ticket: stale, position: .seconds(99))] {
            var player = start
            let effects = player.handle(input)
            #expect(player.state == start.state)
            #expect(player.position == start.position)
            #expect(effects.startedTracks.isEmpty)
            #expect(effects.contains(.debug, "ignored"))
        }
    }
}

@Suite struct PlayerBehaviourTests {
    @Test func autoplayStartsTheFirstShuffledTrackOnInsert() {
        var player = Player()
        let effects = player.handle(.stickLoaded(PlayerFixture.loaded(5)))
        #expect(player.state == .loading(player.currentTrack ?? TrackPath("")))
        #expect(effects.startedTracks == [player.currentTrack].compactMap { $0 })
        #expect(effects.contains { $0 == .setVolume(50) })
        #expect(effects.saves.count == 1)
    }

    @Test func aStickWithoutTracksStaysEmptyAndSaysSo() {
        var player = Player()
        let effects = player.handle(.stickLoaded(PlayerFixture.loaded(0)))
        #expect(player.state == .empty)
        #expect(effects.contains(.notice, "no playable tracks"))
    }

    @Test func skipNeverGoesBackAndEveryTrackPlaysOncePerCycle() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(6)))
        var played: [TrackPath] = []
        for step in 0..<18 {
            _ = player.handle(.audioStarted(ticket: player.ticket))
            if let track = player.state.track { played.append(track) }
            _ = player.handle(step % 2 == 0 ? .skip : .trackFinished(ticket: player.ticket))
        }
        for cycle in 0..<3 {
            let slice = played[(cycle * 6)..<(cycle * 6 + 6)]
            #expect(Set(slice).count == 6, "cycle \(cycle) repeated a track: \(slice)")
        }
        #expect(played[5] != played[6] && played[11] != played[12])
    }

    @Test func failedTracksAreSkippedWithTheReasonLogged() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(3)))
        let broken = player.currentTrack
        let effects = player.handle(.trackFailed(ticket: player.ticket, reason: "unsupported format"))
        #expect(effects.contains(.warning, "skipping " + (broken?.description ?? "") + ": unsupported format"))
        #expect(player.state.name == "loading")
        #expect(player.currentTrack != broken)
        _ = player.handle(.audioStarted(ticket: player.ticket))
        #expect(player.state.name == "playing")
    }

    @Test func whenEveryTrackFailsThePlayerStopsInErrorAndPlayRetries() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(4)))
        var effects: [PlayerEffect] = []
        for _ in 0..<4 {
            effects = player.handle(.trackFailed(ticket: player.ticket, reason: "broken"))
        }
        #expect(player.state == .error(.allTracksFailed(count: 4)))
        #expect(effects.contains { $0 == .stopAudio })
        #expect(effects.contains(.error, "all 4 tracks failed"))
        // No spinning: nothing more happens until PLAY.
        #expect(player.handle(.skip).startedTracks.isEmpty)
        let retry = player.handle(.playPause)
        #expect(retry.startedTracks.count == 1)
        #expect(player.state.name == "loading")
    }

    @Test func aGoodTrackResetsTheFailureCount() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(3)))
        for _ in 0..<10 {
            _ = player.handle(.trackFailed(ticket: player.ticket, reason: "broken"))
            _ = player.handle(.trackFailed(ticket: player.ticket, reason: "broken"))
            _ = player.handle(.audioStarted(ticket: player.ticket))
            #expect(player.state.name == "playing")
            _ = player.handle(.trackFinished(ticket: player.ticket))
        }
    }

    /// Truncated files start, play a moment, then fail to decode: a failure however long the
    /// track played, so such a stick ends in the error state instead of starting tracks for ever.
    @Test func tracksThatStartAndThenFailStillEndInError() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(4)))
        var logLines = 0
        var steps = 0
        while player.state.name != "error" && steps < 100 {
            for effects in [player.handle(.audioStarted(ticket: player.ticket)),
                            player.handle(.progress(ticket: player.ticket, position: .milliseconds(250))),
                            player.handle(.trackFailed(ticket: player.ticket, reason: "decoding failed at 0.3 s"))] {
                logLines += effects.filter { if case .log = $0 { true } else { false } }.count
            }
            steps += 1
        }
        #expect(player.state == .error(.allTracksFailed(count: 4)))
        #expect(steps == 4)
        #expect(logLines <= 4 * 3 + 1)
        // Quiet until PLAY, which retries the whole cycle once more.
        #expect(player.handle(.skip).startedTracks.isEmpty)
        #expect(player.handle(.playPause).startedTracks.count == 1)
        for _ in 0..<4 {
            _ = player.handle(.audioStarted(ticket: player.ticket))
            _ = player.handle(.trackFailed(ticket: player.ticket, reason: "decoding failed"))
        }
        #expect(player.state == .error(.allTracksFailed(count: 4)))
        _ = player.handle(.stickRemoved)
        #expect(player.state == .empty)
    }

    /// A track the listener leaves while it plays (SKIP, reshuffle) did not fail: it resets the
    /// count as a track that reaches its end does, so one good track keeps a stick out of error.
    @Test func leavingAPlayingTrackResetsTheFailureCount() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(3)))
        for _ in 0..<10 {
            _ = player.handle(.trackFailed(ticket: player.ticket, reason: "broken"))
            _ = player.handle(.trackFailed(ticket: player.ticket, reason: "broken"))
            _ = player.handle(.audioStarted(ticket: player.ticket))
            _ = player.handle(.skip)
            #expect(player.state.name == "loading")
        }
    }

    @Test func pauseAndResumeKeepTheTrack() {
        var player = PlayerFixture.player(in: "playing")
        let track = player.state.track
        #expect(player.handle(.playPause) == [.pauseAudio, .log(LogMessage(.info, "stick AAAA-0001: playing -> paused(" + (track?.description ?? "") + ")")), .save(player.stickState ?? StickState(stick: PlayerFixture.stickA))])
        #expect(player.state == .paused(track ?? TrackPath("")))
        let effects = player.handle(.playPause)
        #expect(effects.first == .resumeAudio)
        #expect(player.state == .playing(track ?? TrackPath("")))
    }

    @Test func removingTheStickStopsAudioAndSavesWhereItWas() {
        var player = PlayerFixture.player(in: "playing")
        _ = player.handle(.progress(ticket: player.ticket, position: .milliseconds(12_345)))
        let track = player.currentTrack
        let effects = player.handle(.stickRemoved)
        #expect(player.state == .empty)
        #expect(effects.first == .stopAudio)
        #expect(effects.saves.count == 1)
        #expect(effects.saves.first?.position == .milliseconds(12_345))
        #expect(effects.saves.first.map { $0.order[$0.cursor] } == track)
        #expect(player.stickState == nil)
    }

    @Test func reinsertingTheSameStickResumesTheSameShuffleTrackAndPosition() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(8)))
        _ = player.handle(.audioStarted(ticket: player.ticket))
        _ = player.handle(.skip)
        _ = player.handle(.audioStarted(ticket: player.ticket))
        _ = player.handle(.volume(.up))
        _ = player.handle(.progress(ticket: player.ticket, position: .seconds(42)))
        let orderBefore = player.stickState?.order
        let track = player.currentTrack
        let saved = player.handle(.stickRemoved).saves.last

        let effects = player.handle(.stickLoaded(PlayerFixture.loaded(8, saved: saved, seed: 999)))
        #expect(player.stickState?.order == orderBefore)
        #expect(player.currentTrack == track)
        #expect(effects.contains { $0 == .startTrack(track ?? TrackPath(""), from: .seconds(42), ticket: player.ticket) })
        #expect(player.volume == 55)
        #expect(player.history.count == 2)
        // Resuming mid-track is not a new play.
        _ = player.handle(.audioStarted(ticket: player.ticket))
        #expect(player.history[track ?? TrackPath("")]?.playCount == 1)
    }

    @Test func aChangedStickKeepsHistoryOfTracksStillThereAndReshuffles() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(6)))
        for _ in 0..<6 {
            _ = player.handle(.audioStarted(ticket: player.ticket))
            _ = player.handle(.trackFinished(ticket: player.ticket))
        }
        let saved = player.handle(.stickRemoved).saves.last
        // Tracks 0...3 remain, 4 and 5 are gone, two new ones arrive.
        var tracks = Array(PlayerFixture.tracks(4))
        tracks.append(TrackPath("New/a.mp3"))
        tracks.append(TrackPath("New/b.mp3"))
        let effects = player.handle(.stickLoaded(LoadedStick(id: PlayerFixture.stickA, tracks: tracks, saved: saved, seed: 7)))
        #expect(effects.contains(.notice, "tracks changed"))
        #expect(Set(player.history.keys) == Set(PlayerFixture.tracks(4)))
        #expect(player.history.values.allSatisfy { $0.playCount == 1 })
        #expect(player.position == .zero)
        #expect(player.playSerial == saved?.playSerial)
    }

    @Test func positionIsSavedAtLeastEveryTenSecondsWhilePlaying() {
        var player = PlayerFixture.player(in: "playing")
        var saves: [Duration] = []
        for second in 1...35 {
            let effects = player.handle(.progress(ticket: player.ticket, position: .seconds(second)))
            saves += effects.saves.map(\.position)
        }
        #expect(saves == [.seconds(10), .seconds(20), .seconds(30)])
    }

    @Test func reportsForAnAbandonedTrackAreIgnoredAfterSkip() {
        var player = PlayerFixture.player(in: "playing")
        let oldTicket = player.ticket
        _ = player.handle(.skip)
        let next = player.currentTrack
        _ = player.handle(.trackFinished(ticket: oldTicket))
        #expect(player.currentTrack == next)
        #expect(player.state.name == "loading")
    }

    @Test func aTrackEndingAsItIsPausedStopsOnTheNextTrack() {
        var player = PlayerFixture.player(in: "paused")
        let upcoming = player.upcomingTrack
        let effects = player.handle(.trackFinished(ticket: player.ticket))
        #expect(player.state == .stopped)
        #expect(player.currentTrack == upcoming)
        #expect(effects.first { $0 == .stopAudio } != nil)
        #expect(player.handle(.playPause).startedTracks == [upcoming].compactMap { $0 })
    }

    @Test func volumeStaysWithinTheConfiguredLimits() {
        var player = Player(settings: PlayerSettings(volume: VolumeSettings(initial: 90, minimum: 20, maximum: 95, step: 10)))
        #expect(player.handle(.volume(.up)) == [.setVolume(95)])
        #expect(player.handle(.volume(.up)).isEmpty)
        _ = player.handle(.volume(.set(0)))
        #expect(player.volume == 20)
        #expect(VolumeSettings(initial: 500, minimum: 80, maximum: 10, step: 0) == VolumeSettings(initial: 80, minimum: 80, maximum: 80, step: 1))
    }

    @Test func aSecondStickIsIgnoredWhileOneIsLoaded() {
        var player = PlayerFixture.player(in: "playing")
        let effects = player.handle(.stickLoaded(PlayerFixture.loaded(2, stick: PlayerFixture.stickB)))
        #expect(player.stick == PlayerFixture.stickA)
        #expect(effects.contains(.notice, "one stick at a time"))
    }

    @Test func capacityIsReported() {
        var player = Player()
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(47)))
        #expect(player.capacityDescription == "47/120")
    }
}

@Suite struct PlayerStickFailureTests {
    @Test func anUnusableStickShowsAsErrorUntilPulled() {
        var player = Player()
        _ = player.handle(.stickFailed(reason: "/dev/sda1: mount failed: EIO"))
        #expect(player.state == .error(.stickUnusable(reason: "/dev/sda1: mount failed: EIO")))
        #expect(player.handle(.playPause).startedTracks.isEmpty)
        #expect(player.state.name == "error")
        _ = player.handle(.stickRemoved)
        #expect(player.state == .empty)
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(3)))
        #expect(player.state.name == "loading")
    }

    @Test func aGoodStickReplacesTheErrorOfAnUnusableOne() {
        var player = Player()
        _ = player.handle(.stickFailed(reason: "/dev/sda1: unknown filesystem"))
        _ = player.handle(.stickLoaded(PlayerFixture.loaded(3)))
        #expect(player.state.name == "loading")
        #expect(player.stick == PlayerFixture.stickA)
    }
}

@Suite struct PlayerHistoryTests {
    @Test func historyOfFilesOnTheStickButNotLoadedIsKept() {
        let loaded = PlayerFixture.tracks(3)
        let leftOut = TrackPath("Music/not loaded.mp3")
        let gone = TrackPath("Music/deleted.mp3")
        let saved = StickState(stick: PlayerFixture.stickA, history: [leftOut: PlayRecord(playCount: 7, lastPlayed: 2), gone: PlayRecord(playCount: 1, lastPlayed: 1)], playSerial: 2)
        var player = Player(settings: PlayerSettings(autoplay: false))
        _ = player.handle(.stickLoaded(LoadedStick(id: PlayerFixture.stickA, tracks: loaded, filesOnStick: loaded + [leftOut], saved: saved, seed: 1)))
        #expect(player.history[leftOut] == PlayRecord(playCount: 7, lastPlayed: 2))
        #expect(player.history[gone] == nil)
        #expect(player.stickState?.history[leftOut] != nil)
    }
}
