import Foundation
import ShflAudio
import ShflCore
import ShflTestKit
import Testing

/// Decodes a whole file; returns its info and all samples.
func decodeAll(_ decoder: some TrackDecoder, _ path: FilePath) throws -> (TrackInfo, [Int16]) {
    let info = try decoder.open(path)
    var samples: [Int16] = []
    var buffer = [Int16](repeating: 0, count: 4_608)
    var channels = info.format.channels
    while true {
        let result = try buffer.withUnsafeMutableBufferPointer { try decoder.decode(into: $0) }
        switch result {
        case .decoded(let frames): samples += buffer[0..<(frames * channels)]
        case .formatChanged(let format): channels = format.channels
        case .endOfTrack: return (info, samples)
        }
    }
}

@Suite struct Mpg123DecoderTests {
    @Test func meetsTheTrackDecoderContract() throws {
        let decoder = try Mpg123Decoder()
        let samples = try checkTrackDecoderContract(decoder, good: try AudioFixtures.path("stereo44.mp3"), expectedFrames: 132_300, missing: try AudioFixtures.path("missing.mp3"))
        #expect(samples.elementsEqual(try AudioFixtures.reference("stereo44")), "not bit-exact with mpg123 -s")
    }

    @Test(arguments: [
        ("stereo44", 44_100, 2), ("stereo48", 48_000, 2), ("mono22", 22_050, 1), ("vbr", 44_100, 2),
        ("id3v1", 44_100, 2), ("id3v24", 44_100, 2), ("big-id3", 44_100, 2),
    ])
    func decodesBitExactlyAtTheNativeRate(name: String, rate: Int, channels: Int) throws {
        let decoder = try Mpg123Decoder()
        let (info, samples) = try decodeAll(decoder, try AudioFixtures.path(name + ".mp3"))
        #expect(info.format == AudioFormat(sampleRate: rate, channels: channels))
        let reference = try AudioFixtures.reference(name)
        #expect(samples.count == reference.count)
        let firstDifference = zip(samples, reference).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "\(name): sample \(firstDifference ?? -1) differs from mpg123 -s")
    }

    @Test func theXingHeaderGivesTheExactLength() throws {
        let decoder = try Mpg123Decoder()
        let info = try decoder.open(try AudioFixtures.path("vbr.mp3"))
        #expect(info.frameCount == 176_400)
    }

    @Test func monoCanBeDuplicatedToStereo() throws {
        let decoder = try Mpg123Decoder(forceStereo: true)
        let (info, samples) = try decodeAll(decoder, try AudioFixtures.path("mono22.mp3"))
        #expect(info.format == AudioFormat(sampleRate: 22_050, channels: 2))
        let mono = try AudioFixtures.reference("mono22")
        #expect(samples.count == 2 * mono.count)
        var duplicated = true
        for index in mono.indices where samples[2 * index] != mono[index] || samples[2 * index + 1] != mono[index] {
            duplicated = false
        }
        #expect(duplicated)
    }

    @Test func tagsAreCopiedAsUnicode() throws {
        let decoder = try Mpg123Decoder()
        let v24 = try decoder.open(try AudioFixtures.path("id3v24.mp3"))
        #expect(v24.title == "Ünïcödé Title ✓")
        #expect(v24.artist == "Ärtist — Ø")
        #expect(v24.album == "Albüm 日本")
        let v1 = try decoder.open(try AudioFixtures.path("id3v1.mp3"))
        #expect(v1.title == "Café v1")
        #expect(v1.artist == "Artist v1")
        #expect(v1.album == "Album v1")
        let none = try decoder.open(try AudioFixtures.path("stereo44.mp3"))
        #expect(none.title == nil)
    }

    @Test func seekingResumesAtTheExactFrame() throws {
        let decoder = try Mpg123Decoder()
        let reference = try AudioFixtures.reference("vbr")
        _ = try decoder.open(try AudioFixtures.path("vbr.mp3"))
        try decoder.seek(toFrame: 100_000)
        var buffer = [Int16](repeating: 0, count: 2_000)
        guard case .decoded(let frames) = try buffer.withUnsafeMutableBufferPointer({ try decoder.decode(into: $0) }) else {
            Issue.record("no audio after seeking")
            return
        }
        let decoded = Array(buffer[0..<(2 * frames)])
        let expected = Array(reference[200_000..<(200_000 + 2 * frames)])
        let firstDifference = zip(decoded, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(firstDifference == nil, "after seeking, sample \(firstDifference ?? -1) of \(decoded.count) differs from mpg123 -s")
    }

    /// Bad files give their typed error at once (never a hang: the 100 ms target is measured by
    /// bench, not asserted here), and the decoder plays the next file.
    @Test(arguments: ["truncated", "zeros", "random", "wav-renamed", "not-a-file", "missing"])
    func badInputFailsFastWithItsErrorAndTheNextTrackPlays(name: String) throws {
        let decoder = try Mpg123Decoder()
        let path = try AudioFixtures.path(name + ".mp3")
        let start = Date()
        var failure: DecodeError?
        do {
            _ = try decodeAll(decoder, path)
        } catch let error as DecodeError {
            failure = error
        }
        let elapsed = Date().timeIntervalSince(start)
        // A hang guard only: generous, so a busy machine never trips it.
        #expect(elapsed < 20, "\(name) took \(elapsed) s: a hang")
        let error = try #require(failure, "\(name) decoded without an error")
        #expect(error.description.contains(path.description))
        switch (name, error) {
        case ("missing", .fileNotFound), ("not-a-file", .unreadable), ("truncated", .decodingFailed),
             ("zeros", .unsupportedFormat), ("random", .unsupportedFormat), ("wav-renamed", .unsupportedFormat):
            break
        default:
            Issue.record("\(name): unexpected error \(error)")
        }
        let (_, samples) = try decodeAll(decoder, try AudioFixtures.path("stereo44.mp3"))
        #expect(samples.elementsEqual(try AudioFixtures.reference("stereo44")), "the next track did not decode bit-exactly")
    }

    @Test func aFIFONamedLikeATrackDoesNotBlock() throws {
        let path = NSTemporaryDirectory() + "shfl-fifo-\(getpid()).mp3"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        let decoder = try Mpg123Decoder()
        #expect(throws: DecodeError.unreadable(FilePath(path), reason: "not a regular file")) { try decoder.open(FilePath(path)) }
    }
}
