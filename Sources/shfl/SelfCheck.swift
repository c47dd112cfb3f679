import ShflCore
import ShflSimulated

/// `shfl self-check`: exercises the core and the simulated ports inside whichever build runs it
/// (host, or Embedded firmware under x86_64 or qemu-aarch64) and prints one line per part with
/// a checksum. Every build must print the same lines; any broken invariant prints "FAIL" and
/// makes the command exit 1.
struct SelfCheck {
    private(set) var lines: [String] = []
    private(set) var failures = 0

    static func run() -> Int32 {
        var check = SelfCheck()
        check.checkShuffle()
        check.checkPlayer()
        check.checkAudioPath()
        for line in check.lines { print(line) }
        print(check.failures == 0 ? "self-check: ok" : "self-check: FAIL (" + String(check.failures) + " problems)")
        return check.failures == 0 ? 0 : 1
    }

    private mutating func expect(_ condition: Bool, _ what: String) {
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
                        try sink.write(UnsafeBufferPointer(rebasing: pointer[0..<(count * format.channels)]))
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

/// FNV-1a, 64 bits: a stable fingerprint of what the self-check saw.
struct Checksum {
    private(set) var value: UInt64 = 0xCBF2_9CE4_8422_2325

    mutating func add(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes { add(byte) }
    }

    mutating func add(_ number: Int) {
        var remaining = UInt64(bitPattern: Int64(number))
        for _ in 0..<8 {
            add(UInt8(truncatingIfNeeded: remaining))
            remaining >>= 8
        }
    }

    var hex: String {
        var digits = String(value, radix: 16)
        while digits.count < 16 { digits = "0" + digits }
        return digits
    }
}
