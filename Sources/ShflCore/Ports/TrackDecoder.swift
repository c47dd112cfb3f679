/// The PCM format of decoded audio: interleaved signed 16-bit native-endian samples.
public struct AudioFormat: Hashable, Sendable, CustomStringConvertible {
    public var sampleRate: Int
    public var channels: Int

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    public var description: String {
        String(sampleRate) + " Hz " + (channels == 1 ? "mono" : channels == 2 ? "stereo" : String(channels) + " ch")
    }
}

/// What an opened track is.
public struct TrackInfo: Hashable, Sendable {
    public var format: AudioFormat
    /// Length in frames, when known without decoding the whole file.
    public var frameCount: Int?
    public var title: String?
    public var artist: String?
    public var album: String?

    public init(format: AudioFormat, frameCount: Int? = nil, title: String? = nil, artist: String? = nil, album: String? = nil) {
        self.format = format
        self.frameCount = frameCount
        self.title = title
        self.artist = artist
        self.album = album
    }
}

/// Why a track cannot be (further) decoded. Each names the file.
public enum DecodeError: Error, Hashable, Sendable, CustomStringConvertible {
    case fileNotFound(FilePath)
    case unreadable(FilePath, reason: String)
    case unsupportedFormat(FilePath, reason: String)
    case decodingFailed(FilePath, reason: String)

    public var description: String {
        switch self {
        case .fileNotFound(let path): path.description + ": file not found"
        case .unreadable(let path, let reason): path.description + ": unreadable: " + reason
        case .unsupportedFormat(let path, let reason): path.description + ": unsupported format: " + reason
        case .decodingFailed(let path, let reason): path.description + ": decoding failed: " + reason
        }
    }
}

/// The outcome of one `TrackDecoder.decode(into:)` call.
public enum DecodeResult: Hashable, Sendable {
    /// `frames` frames were written at the start of the buffer, in the current format.
    case decoded(frames: Int)
    /// The stream changed format; nothing was written. Following frames are in `format`.
    case formatChanged(AudioFormat)
    /// The track is over; nothing was written.
    case endOfTrack
}

/// Port: turns a track file into PCM.
///
/// Contract:
/// - `open(_:)` closes any open track, opens `path` and reports its format and tags; tags are
///   copied Swift strings (invalid UTF-8 replaced), never pointers into the library.
/// - `decode(into:)` fills the caller's buffer with whole frames and never allocates on the
///   audio path; gapless trimming (encoder delay and padding) is applied.
/// - `seek(toFrame:)` positions the next `decode` at a frame (for resume).
/// - Errors are `DecodeError` and name the file; a broken file never hangs or crashes.
/// - `interruptReads()` may be called from any thread (the event loop, before it sends a cut):
///   an `open`, `decode` or `seek` waiting on a stalled file gives up at once with an error, and
///   so do the following ones, until the audio thread calls `resumeReads(through:)` with the
///   serial it returned (when the cut arrives). Decoders that never wait need not implement them.
/// Used by the audio thread only (but `interruptReads`); one instance is never shared between
/// threads.
/// Adapters: `Mpg123Decoder` (libmpg123), `SimulatedTrackDecoder`.
public protocol TrackDecoder: AnyObject {
    func open(_ path: FilePath) throws(DecodeError) -> TrackInfo
    func decode(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecodeError) -> DecodeResult
    func seek(toFrame frame: Int) throws(DecodeError)
    func close()
    func interruptReads() -> Int
    func resumeReads(through serial: Int)
}

extension TrackDecoder {
    public func interruptReads() -> Int { 0 }
    public func resumeReads(through serial: Int) {}
}
