import ShflCore
import Testing

/// A power cut or a bad SD card must never turn into a silently wrong resume: damaged bytes
/// are rejected, whatever was damaged.
@Suite struct StickStateCodecDamageTests {
    /// A state with every kind of line and escape, small enough to try every prefix.
    static var sample: StickState {
        var state = StickStateSamples.full(historyCount: 60)
        for (index, path) in StickStateSamples.nastyPaths.enumerated() where path.bytes.count < 300 {
            state.history[path] = PlayRecord(playCount: index, lastPlayed: 7)
        }
        return state
    }

    /// The kind of error decoding `bytes` gives, or nil when they decode (a short result on
    /// purpose: printing a whole decoded state would drown a failure report).
    func decodeKind(_ bytes: [UInt8]) -> StickStateCodecError.Kind? {
        do {
            _ = try StickStateCodec.decode(bytes)
            return nil
        } catch {
            return error.kind
        }
    }

    @Test func everyStrictPrefixIsRejected() {
        let bytes = StickStateCodec.encode(Self.sample)
        // Cut inside a line or at a line boundary, a prefix is reported as a truncation.
        var notTruncations: [Int] = []
        for length in 0..<bytes.count where decodeKind(Array(bytes[..<length])) != .truncated {
            notTruncations.append(length)
        }
        #expect(notTruncations.isEmpty, "prefix lengths accepted or misreported: \(notTruncations.prefix(10))")
        #expect(bytes.count > 5_000)
    }

    @Test func everyStrictPrefixOfTheEmptyStateIsRejected() {
        let bytes = StickStateCodec.encode(StickState(stick: StickStateSamples.stick))
        for length in 0..<bytes.count {
            #expect(decodeKind(Array(bytes[..<length])) == .truncated, "prefix of \(length) bytes")
        }
    }

    @Test func singleByteChangesAreRejected() {
        let state = Self.sample
        let bytes = StickStateCodec.encode(state)
        var generator = SeededGenerator(seed: 2024)
        // Every byte of the first and last lines (version and checksum), then a seeded sample.
        let firstLineEnd = bytes.firstIndex(of: 0x0A) ?? 0
        let lastLineStart = bytes[..<(bytes.count - 1)].lastIndex(of: 0x0A) ?? 0
        var offsets = Array(0...firstLineEnd) + Array(lastLineStart..<bytes.count)
        for _ in 0..<3_000 { offsets.append(generator.next(below: bytes.count)) }
        // Values a damaged or hand-edited file is likely to hold, and random ones.
        let likely: [UInt8] = [0x0A, 0x0D, 0x20, 0x25, 0x30, 0x31, 0x39, 0x2D, 0x41, 0x61, 0x00, 0xFF]

        var tried = 0
        var acceptedChanges: [String] = []  // kept short: a failure must not print the state
        for (number, offset) in offsets.enumerated() {
            let original = bytes[offset]
            let candidates = [
                likely[number % likely.count],
                UInt8(truncatingIfNeeded: generator.next()),
                original ^ 0x20,  // letter case
                original ^ 0x01,
            ]
            for value in candidates where value != original {
                var damaged = bytes
                damaged[offset] = value
                tried += 1
                // Rejected, or (never with a checksum, but harmless) the very same state.
                if let decoded = try? StickStateCodec.decode(damaged), decoded != state {
                    acceptedChanges.append("byte " + String(offset) + " = " + String(value))
                }
            }
        }
        #expect(acceptedChanges.isEmpty, "\(acceptedChanges.count) changes decoded to another state, e.g. \(acceptedChanges.prefix(5))")
        #expect(tried > 10_000)
    }

    @Test func damageToALargeStateIsRejected() {
        let bytes = StickStateCodec.encode(StickStateSamples.full())
        var generator = SeededGenerator(seed: 5)
        var acceptedOffsets: [Int] = []
        for _ in 0..<200 {
            var damaged = bytes
            let offset = generator.next(below: bytes.count)
            damaged[offset] ^= UInt8(truncatingIfNeeded: generator.next(below: 255) + 1)
            if (try? StickStateCodec.decode(damaged)) != nil { acceptedOffsets.append(offset) }
        }
        #expect(acceptedOffsets.isEmpty, "damaged bytes accepted at offsets \(acceptedOffsets.prefix(5))")
    }

    @Test func swappedLinesAreRejected() throws {
        // Lines reordered by a broken copy: the checksum covers the order of the bytes.
        let bytes = StickStateCodec.encode(Self.sample)
        var lines = StickStateSamples.bodyLines(bytes)
        lines.swapAt(10, 11)
        var text = lines.map { $0 + "\n" }.joined()
        text += String(decoding: bytes[(bytes.count - 34)...], as: UTF8.self)  // original checksum line
        #expect(decodeKind(Array(text.utf8)) == .checksumMismatch)
    }
}
