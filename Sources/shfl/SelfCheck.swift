import ShflCore
import ShflSimulated

/// `shfl self-check`: exercises the core and the simulated ports inside whichever build runs it
/// (host, or Embedded firmware under x86_64 or qemu-aarch64) and prints one line per part with
/// a checksum. Every build must print the same lines; any broken invariant prints "FAIL" and
/// makes the command exit 1.
struct SelfCheck {
    // Internal, not private: parts of the check live in SelfCheck+<Part>.swift files.
    var lines: [String] = []
    private(set) var failures = 0

    static func run() -> Int32 {
        var check = SelfCheck()
        check.checkShuffle()
        check.checkPlayer()
        check.checkAudioPath()
        check.checkSelection()
        check.checkGestures()
        check.checkLight()
        check.checkStateCodec()
        check.checkBoard()
        for line in check.lines { print(line) }
        print(check.failures == 0 ? "self-check: ok" : "self-check: FAIL (" + String(check.failures) + " problems)")
        return check.failures == 0 ? 0 : 1
    }

    mutating func expect(_ condition: Bool, _ what: String) {
        if !condition {
            failures += 1
            lines.append("FAIL: " + what)
        }
    }

    /// 120 tracks, 5 cycles: each cycle a permutation, no repeat across a boundary.
    mutating func checkShuffle() {
        var shuffle = ShuffleOrder(trackCount: 120, generator: SeededGenerator(seed: 2026))
        var checksum = Checksum()
        var previousLast = -1
        for cycle in 0..<5 {
            var seen = [Bool](repeating: false, count: 120)
            for position in 0..<120 {
                guard let track = shuffle.current else { break }
                if position == 0 { expect(track != previousLast, "shuffle cycle " + String(cycle) + " repeats the last track") }
                expect(!seen[track], "shuffle cycle " + String(cycle) + " repeats track " + String(track))
                seen[track] = true
                checksum.add(track)
                previousLast = track
                shuffle.advance()
            }
            expect(seen.allSatisfy { $0 }, "shuffle cycle " + String(cycle) + " misses a track")
        }
        lines.append("shuffle: 120 tracks x 5 cycles, checksum " + checksum.hex)
    }

    /// A stick of 120 tracks, some broken, played through: skips, pauses, failures, removal
    /// and a resume from the saved state.
    mutating func checkPlayer() {
        let stick = StickID(uuid: "5E1F-C4EC")
        let tracks = (0..<120).map { TrackPath("Album " + String($0 / 12) + "/Track " + String($0) + ".mp3") }
        let broken = Set(tracks.enumerated().filter { $0.offset % 17 == 3 }.map { $0.element })
        var player = Player()
        var checksum = Checksum()
        var started = 0
        var skippedBroken = 0
        var effects = player.handle(.stickLoaded(LoadedStick(id: stick, tracks: tracks, seed: 77)))
        var saved: StickState?
        for step in 0..<600 {
            for effect in effects {
                switch effect {
                case .startTrack(let track, _, _):
                    started += 1
                    checksum.add(track.bytes)
                case .save(let state):
                    saved = state
                default:
                    break
                }
            }
            let input: PlayerInput
            if let track = player.state.track, case .loading = player.state {
                if broken.contains(track) {
                    skippedBroken += 1
                    input = .trackFailed(ticket: player.ticket, reason: "broken")
                } else {
                    input = .audioStarted(ticket: player.ticket)
                }
            } else if step % 7 == 0 {
                input = .playPause
            } else if step % 5 == 0 {
                input = .skip
            } else if player.state.name == "playing" {
                input = .trackFinished(ticket: player.ticket)
            } else {
                input = .playPause
            }
            effects = player.handle(input)
        }
        let before = player.currentTrack
        for effect in player.handle(.stickRemoved) {
            if case .save(let state) = effect { saved = state }
        }
        expect(player.state == .empty, "player not empty after removal")
        _ = player.handle(.stickLoaded(LoadedStick(id: stick, tracks: tracks, saved: saved, seed: 1)))
        expect(player.currentTrack == before, "player did not resume the same track")
        let plays = player.history.values.reduce(0) { $0 + $1.playCount }
        checksum.add(plays)
        lines.append("player: " + String(started) + " tracks started, " + String(skippedBroken) + " broken skipped, " + String(plays) + " plays, checksum " + checksum.hex)
    }

    /// Decodes tracks through the ports into the simulated sink, with a pause and a skip.
    mutating func checkAudioPath() {
        let decoder = SimulatedTrackDecoder()
        let sink = SimulatedAudioSink()
        let formats = [AudioFormat(sampleRate: 44_100, channels: 2), AudioFormat(sampleRate: 48_000, channels: 2), AudioFormat(sampleRate: 22_050, channels: 1)]
        var buffer = [Int16](repeating: 0, count: 2_048)
        var checksum = Checksum()
        for index in 0..<6 {
            let path = FilePath("/stick/" + String(index) + ".mp3")
            decoder.add(path, .init(format: formats[index % 3], frames: 20_000 + index * 3_333, seed: index))
            let (frames, problem) = SelfCheck.playThrough(path, decoder: decoder, sink: sink, buffer: &buffer)
            if let problem { expect(false, "audio track " + String(index) + ": " + problem) }
            expect(frames == 20_000 + index * 3_333, "audio track " + String(index) + " decoded " + String(frames) + " frames")
        }
        for sample in sink.samples { checksum.add(Int(sample)) }
        lines.append("audio: 6 tracks, " + String(sink.samples.count) + " samples, checksum " + checksum.hex)
    }
}

extension SelfCheck {
    /// 5,000 files on a stick: each policy picks exactly 120; a playlist picks its entries.
    mutating func checkSelection() {
        var candidates: [LibraryCandidate] = []
        var history: [TrackPath: PlayRecord] = [:]
        var generator = SeededGenerator(seed: 5_000)
        for index in 0..<5_000 {
            let path = TrackPath("Artist " + String(index % 97) + "/Album " + String(index % 13) + "/" + String(index) + ".mp3")
            candidates.append(LibraryCandidate(path: path, modified: 1_700_000_000 + Int64(generator.next(below: 1_000_000))))
            if index % 3 == 0 {
                history[path] = PlayRecord(playCount: generator.next(below: 40), lastPlayed: Int64(generator.next(below: 100_000)))
            }
        }
        var checksum = Checksum()
        for policy in SelectionPolicy.allCases {
            let selection = Library.select(from: candidates, policy: policy, history: history, seed: 9)
            expect(selection.tracks.count == 120, "selection by " + policy.configName + " chose " + String(selection.tracks.count))
            for track in selection.tracks { checksum.add(track.bytes) }
        }
        let m3u = Array("\u{FEFF}#EXTM3U\r\n#EXTINF:1,x\r\nArtist 1\\Album 1\\1.mp3\r\n./Artist 2/Album 2/2.mp3\r\nmissing.mp3\r\nhttp://x/y.mp3\r\n".utf8)
        let listed = Library.select(playlist: Playlist(name: "shfl.m3u", contents: m3u), from: candidates)
        expect(listed.tracks == [TrackPath("Artist 1/Album 1/1.mp3"), TrackPath("Artist 2/Album 2/2.mp3")], "playlist chose " + String(listed.tracks.count) + " tracks")
        expect(listed.notes.count == 2, "playlist gave " + String(listed.notes.count) + " notes")
        lines.append("selection: 5000 files, 5 policies x 120, playlist " + listed.capacityDescription + ", checksum " + checksum.hex)
    }

    /// 1,000 bouncy presses of PLAY give exactly 1,000 play/pause gestures; a 6 s hold gives
    /// the capacity and power-off gestures.
    mutating func checkGestures() {
        var generator = SeededGenerator(seed: 1_000)
        var input = ButtonInput(settings: .standard, initialLevels: [.play: .released, .skip: .released], now: .zero)
        var now = Instant.milliseconds(100)
        var gestures: [RecognizedGesture] = []
        var checksum = Checksum()
        func bounce(to level: ButtonLevel, at start: Instant, _ generator: inout SeededGenerator) -> [ButtonEdge] {
            let count = 1 + 2 * generator.next(below: 10)  // odd: ends at `level`
            var edges: [ButtonEdge] = []
            var time = start
            for edge in 0..<count {
                let toward = edge % 2 == 0 ? level : (level == .pressed ? .released : .pressed)
                edges.append(ButtonEdge(button: .play, level: toward, time: time))
                time = time + .microseconds(Int64(1 + generator.next(below: 1_400)))
            }
            return edges
        }
        for _ in 0..<1_000 {
            let down = bounce(to: .pressed, at: now, &generator)
            now = now + .milliseconds(Int64(50 + generator.next(below: 400)))
            let up = bounce(to: .released, at: now, &generator)
            now = now + .milliseconds(Int64(60 + generator.next(below: 400)))
            gestures += input.handle(down + up, now: now)
            gestures += input.advance(to: now)
        }
        gestures += input.handle([ButtonEdge(button: .play, level: .pressed, time: now)], now: now)
        gestures += input.advance(to: now + .seconds(7))
        for gesture in gestures { checksum.add(Int(gesture.time.nanoseconds)) }
        let presses = gestures.filter { $0.gesture == .playPause }.count
        expect(presses == 1_000, "1000 bouncy presses gave " + String(presses) + " play/pause")
        expect(gestures.suffix(2).map { $0.gesture } == [.announceCapacity, .powerOff], "a 7 s hold did not give capacity then power-off")
        lines.append("gestures: 1000 bouncy presses -> " + String(presses) + " play/pause, hold -> capacity, power-off, checksum " + checksum.hex)
    }

    /// Ten seconds of every state's LED pattern, a press flicker and the capacity code for 47.
    mutating func checkLight() {
        let states: [PlaybackState] = [.empty, .stopped, .loading(TrackPath("a.mp3")), .playing(TrackPath("a.mp3")), .paused(TrackPath("a.mp3")), .error(.allTracksFailed(count: 3))]
        var checksum = Checksum()
        var changes = 0
        for state in states {
            var schedule = LightSchedule(showing: LightPatterns.pattern(for: state), from: .zero)
            schedule.acknowledge(at: .milliseconds(1_234))
            for change in schedule.timeline(from: .zero, until: .milliseconds(10_000)) {
                checksum.add(Int(change.instant.nanoseconds))
                checksum.add(change.lit ? 1 : 0)
                changes += 1
            }
        }
        var schedule = LightSchedule(showing: LightPatterns.pattern(for: .playing(TrackPath("a.mp3"))), from: .zero)
        schedule.announce(count: 47, at: .zero)
        let code = schedule.timeline(from: .zero, until: .milliseconds(20_000))
        let blinks = code.filter { $0.lit }.count
        expect(blinks == 4 + 7 + 1, "capacity code for 47 lit " + String(blinks) + " times")
        for change in code { checksum.add(Int(change.instant.nanoseconds)) }
        lines.append("light: 6 patterns x 10 s, " + String(changes) + " changes, capacity 47 -> " + String(blinks - 1) + " blinks, checksum " + checksum.hex)
    }

    /// A stick's state survives encoding; a damaged or cut copy is refused.
    mutating func checkStateCodec() {
        var history: [TrackPath: PlayRecord] = [:]
        let order = (0..<120).map { TrackPath("Música/" + String($0) + " ü%\n.mp3") }
        for (index, track) in order.enumerated() { history[track] = PlayRecord(playCount: index, lastPlayed: Int64(index * 3)) }
        let state = StickState(stick: StickID(uuid: "5E1F-C4EC"), order: order, cursor: 17, position: .milliseconds(83_250), cycle: 4, generatorState: 0xDEAD_BEEF_F00D, volume: 65, history: history, playSerial: 360)
        let bytes = StickStateCodec.encode(state)
        do {
            let decoded = try StickStateCodec.decode(bytes)
            expect(decoded == state, "state changed in a round trip")
        } catch {
            expect(false, "state round trip: " + error.description)
        }
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0x20
        let refusedDamage = (try? StickStateCodec.decode(damaged)) == nil
        let refusedCut = (try? StickStateCodec.decode(Array(bytes.dropLast(3)))) == nil
        expect(refusedDamage && refusedCut, "a damaged or truncated state was accepted")
        var checksum = Checksum()
        checksum.add(bytes)
        lines.append("state: 120 tracks, " + String(bytes.count) + " bytes, round trip ok, damage refused, checksum " + checksum.hex)
    }

    /// Plays one track from the decoder into the sink; returns the frames written and, if it
    /// stopped early, why.
    static func playThrough(_ path: FilePath, decoder: some TrackDecoder, sink: some AudioSink, buffer: inout [Int16]) -> (frames: Int, problem: String?) {
        var frames = 0
        var format: AudioFormat
        do {
            format = try decoder.open(path).format
        } catch {
            return (0, error.description)
        }
        do {
            try sink.configure(format)
        } catch {
            return (0, error.description)
        }
        while true {
            let result: DecodeResult
            do {
                result = try buffer.withUnsafeMutableBufferPointer { (pointer) throws(DecodeError) -> DecodeResult in try decoder.decode(into: pointer) }
            } catch {
                return (frames, error.description)
            }
            switch result {
            case .decoded(let count):
                do {
                    try buffer.withUnsafeBufferPointer { (pointer) throws(DeviceError) in
                        try sink.writeAll(UnsafeBufferPointer(rebasing: pointer[0..<(count * format.channels)]), channels: format.channels)
                    }
                } catch {
                    return (frames, error.description)
                }
                frames += count
            case .formatChanged(let changed):
                format = changed
                do {
                    try sink.configure(format)
                } catch {
                    return (frames, error.description)
                }
            case .endOfTrack:
                return (frames, nil)
            }
        }
    }
}

/// A stable fingerprint of what the self-check saw: the core's FNV-1a over bytes, and over
/// numbers as their 8 little-endian bytes.
struct Checksum {
    private var hasher = FNV1a64()

    mutating func add(_ bytes: [UInt8]) {
        hasher.add(bytes)
    }

    mutating func add(_ number: Int) {
        var remaining = UInt64(bitPattern: Int64(number))
        var bytes: [UInt8] = []
        for _ in 0..<8 {
            bytes.append(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        }
        hasher.add(bytes)
    }

    var hex: String {
        Hexadecimal.string(hasher.value, digits: 16, .lowercase)
    }
}
