import ShflCore

/// The `TrackDecoder` port for tests and the demo: "files" are registered in memory and decode
/// to a deterministic ramp (`sample(seed:frame:channel:)`), so a test can tell exactly which
/// frames of which track reached the sink.
public final class SimulatedTrackDecoder: TrackDecoder {
    /// A simulated file.
    public struct Track: Hashable, Sendable {
        public var info: TrackInfo
        /// Frames the track decodes to.
        public var frames: Int
        /// Distinguishes the samples of one track from another's.
        public var seed: Int
        /// Fails `open` with this error (a broken file).
        public var openFailure: DecodeError?
        /// After this many frames, `decode` fails with `.decodingFailed` (a truncated file).
        public var failsAfterFrame: Int?

        public init(format: AudioFormat = AudioFormat(sampleRate: 44_100, channels: 2), frames: Int, seed: Int, title: String? = nil, artist: String? = nil, openFailure: DecodeError? = nil, failsAfterFrame: Int? = nil) {
            self.info = TrackInfo(format: format, frameCount: frames, title: title, artist: artist)
            self.frames = frames
            self.seed = seed
            self.openFailure = openFailure
            self.failsAfterFrame = failsAfterFrame
        }
    }

    private var files: [FilePath: Track] = [:]
    private var openPath: FilePath?
    private var openTrack: Track?
    private var nextFrame = 0

    /// Paths opened, in order.
    public private(set) var openedPaths: [FilePath] = []

    public init() {}

    /// Makes `path` a decodable file.
    public func add(_ path: FilePath, _ track: Track) {
        files[path] = track
    }

    /// The sample a simulated track has at `frame`, `channel`.
    public static func sample(seed: Int, frame: Int, channel: Int) -> Int16 {
        Int16(truncatingIfNeeded: seed &* 7919 &+ frame &* 2 &+ channel)
    }

    public func open(_ path: FilePath) throws(DecodeError) -> TrackInfo {
        close()
        openedPaths.append(path)
        guard let track = files[path] else { throw .fileNotFound(path) }
        if let failure = track.openFailure { throw failure }
        openPath = path
        openTrack = track
        nextFrame = 0
        return track.info
    }

    public func decode(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecodeError) -> DecodeResult {
        guard let track = openTrack, let path = openPath else { return .endOfTrack }
        let channels = track.info.format.channels
        if let failure = track.failsAfterFrame, nextFrame >= failure {
            throw .decodingFailed(path, reason: "simulated corruption at frame " + String(failure))
        }
        var end = track.frames
        if let failure = track.failsAfterFrame { end = min(end, failure) }
        let frames = min(buffer.count / channels, end - nextFrame)
        guard frames > 0 else {
            return nextFrame >= track.frames ? .endOfTrack : .decoded(frames: 0)
        }
        for frame in 0..<frames {
            for channel in 0..<channels {
                buffer[frame * channels + channel] = Self.sample(seed: track.seed, frame: nextFrame + frame, channel: channel)
            }
        }
        nextFrame += frames
        return .decoded(frames: frames)
    }

    public func seek(toFrame frame: Int) throws(DecodeError) {
        guard let track = openTrack else { return }
        nextFrame = min(max(frame, 0), track.frames)
    }

    public func close() {
        openPath = nil
        openTrack = nil
        nextFrame = 0
    }
}
