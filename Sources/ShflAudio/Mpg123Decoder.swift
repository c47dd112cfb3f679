// `poll`, `pollfd` and errno constants come from headers Clang attributes to CALSA in this module
// (alsa-lib's header includes them first); Embedded Swift wants the owning module imported.
import CALSA
import CMpg123
import CSystem
import ShflCore
import ShflSystem

/// The `TrackDecoder` port on libmpg123 (1.31 on Debian 12).
///
/// - The file is never touched by the audio thread: a `ReadAheadStream` reads it on a thread of
///   its own, seconds ahead (SPEC §14), and libmpg123 reads from that memory through replaced
///   I/O (`mpg123_replace_reader_handle`, `mpg123_open_handle`). The file is opened by us
///   (`SystemTrackFile`: non-blocking, then `fstat`: only regular files), so a FIFO or a device
///   named ".mp3" cannot hang anything, and the errors are ours to name.
/// - `interruptReads()` (any thread) ends a wait on a stalled file at once: the event loop calls
///   it before it sends a cut, so a dead stick never holds a skip or a stop.
/// - Gapless decoding is switched on with `MPG123_ADD_FLAGS` (never `MPG123_FLAGS`, which would
///   replace the library's defaults and silently turn gapless off). Output is signed 16-bit at
///   the track's native rate; mono stays mono unless `forceStereo` (`MPG123_FORCE_STEREO`).
/// - Tags are copied into Swift strings at once (libmpg123 reuses its buffers); ID3v1 text is
///   Latin-1, ID3v2 text comes as UTF-8; invalid bytes are replaced.
/// - A stream that ends well before the length its LAME/Xing header announced is reported as
///   truncated (the audio before the cut has been delivered).
public final class Mpg123Decoder: TrackDecoder {
    private let handle: OpaquePointer
    private let stream: ReadAheadStream
    private var isOpen = false
    private var path = FilePath("")
    private var format: AudioFormat?
    private var announcedFrames: Int?
    private var decodedFrames = 0

    /// Creates a decoder (`mpg123_new`). `forceStereo` duplicates mono to both channels, for
    /// devices that only take stereo.
    /// The compressed stream is read ahead by `readAheadBytes` (`ReadAheadStream`) from `file`.
    public init(forceStereo: Bool = false, file: any TrackFile = SystemTrackFile(),
                readAheadBytes: Int = ReadAheadStream.defaultCapacity) throws(DeviceError) {
        do {
            stream = try ReadAheadStream(file: file, capacity: readAheadBytes)
            try stream.start()
        } catch {
            throw error.deviceError("read-ahead thread")
        }
        var error: Int32 = 0
        guard let handle = mpg123_new(nil, &error) else {
            throw DeviceError("libmpg123: cannot create a decoder: " + Mpg123Decoder.message(for: error), code: error)
        }
        self.handle = handle
        var flags = Int(MPG123_GAPLESS.rawValue | MPG123_QUIET.rawValue)
        if forceStereo { flags |= Int(MPG123_FORCE_STEREO.rawValue) }
        var added = mpg123_param2(handle, Int32(MPG123_ADD_FLAGS.rawValue), flags, 0)
        if added == MPG123_OK.rawValue {
            added = mpg123_param2(handle, Int32(MPG123_PREFRAMES.rawValue), Mpg123Decoder.seekPrimingFrames, 0)
        }
        // Only signed 16-bit output, at every rate the library supports, mono or stereo.
        var rates: UnsafePointer<Int>?
        var rateCount = 0
        mpg123_rates(&rates, &rateCount)
        var formatResult = mpg123_format_none(handle)
        if let rates {
            for index in 0..<rateCount where formatResult == MPG123_OK.rawValue {
                formatResult = mpg123_format(handle, rates[index], Int32(MPG123_MONO.rawValue | MPG123_STEREO.rawValue), Int32(MPG123_ENC_SIGNED_16.rawValue))
            }
        }
        if added == MPG123_OK.rawValue {
            added = mpg123_replace_reader_handle(handle, Mpg123Decoder.readCallback, Mpg123Decoder.seekCallback, nil)
        }
        guard added == MPG123_OK.rawValue, formatResult == MPG123_OK.rawValue else {
            mpg123_delete(handle)
            throw DeviceError("libmpg123: cannot configure the decoder", code: added != MPG123_OK.rawValue ? added : formatResult)
        }
    }

    /// Layer III frames decoded (and discarded) before a seek target, so the bit reservoir and
    /// the overlap state are filled and the audio after a resume is the same as if played
    /// through. A frame's main data can start up to 511 bytes back (several frames at low
    /// bitrates).
    static let seekPrimingFrames = 12

    deinit {
        close()
        mpg123_delete(handle)
    }

    public func open(_ path: FilePath) throws(DecodeError) -> TrackInfo {
        close()
        self.path = path
        do {
            _ = try stream.open(path)
        } catch {
            if error == .noEntry { throw .fileNotFound(path) }
            if error == Errno(EINVAL) { throw .unreadable(path, reason: "not a regular file") }
            throw .unreadable(path, reason: error.description)
        }
        guard mpg123_open_handle(handle, Unmanaged.passUnretained(stream).toOpaque()) == MPG123_OK.rawValue else {
            let reason = lastError
            stream.close()
            throw .unsupportedFormat(path, reason: reason)
        }
        isOpen = true

        var rate = 0
        var channels: Int32 = 0
        var encoding: Int32 = 0
        guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue else {
            let reason = lastError
            close()
            throw .unsupportedFormat(path, reason: reason)
        }
        let opened = AudioFormat(sampleRate: rate, channels: Int(channels))
        format = opened
        let length = mpg123_length(handle)
        announcedFrames = length > 0 ? length : nil
        decodedFrames = 0
        var info = TrackInfo(format: opened, frameCount: announcedFrames)
        readTags(into: &info)
        return info
    }

    public func decode(into buffer: UnsafeMutableBufferPointer<Int16>) throws(DecodeError) -> DecodeResult {
        guard let format, isOpen, let base = buffer.baseAddress else { return .endOfTrack }
        let frameBytes = 2 * format.channels
        let wanted = (buffer.count * 2 / frameBytes) * frameBytes
        var done = 0
        let result = mpg123_read(handle, UnsafeMutableRawPointer(base), wanted, &done)
        if done > 0 {
            let frames = done / frameBytes
            decodedFrames += frames
            return .decoded(frames: frames)
        }
        switch result {
        case MPG123_OK.rawValue:
            return .decoded(frames: 0)
        case MPG123_NEW_FORMAT.rawValue:
            var rate = 0
            var channels: Int32 = 0
            var encoding: Int32 = 0
            guard mpg123_getformat(handle, &rate, &channels, &encoding) == MPG123_OK.rawValue else {
                throw .decodingFailed(path, reason: lastError)
            }
            let changed = AudioFormat(sampleRate: rate, channels: Int(channels))
            if changed == format { return .decoded(frames: 0) }
            self.format = changed
            return .formatChanged(changed)
        case MPG123_DONE.rawValue:
            if let announced = announcedFrames, isTruncated(decoded: decodedFrames, announced: announced, rate: format.sampleRate) {
                throw .decodingFailed(path, reason: "truncated: ended after " + String(decodedFrames) + " of " + String(announced) + " frames")
            }
            return .endOfTrack
        default:
            throw .decodingFailed(path, reason: lastError)
        }
    }

    public func seek(toFrame frame: Int) throws(DecodeError) {
        guard isOpen else { return }
        let result = mpg123_seek(handle, max(frame, 0), SEEK_SET)
        if result < 0 { throw .decodingFailed(path, reason: "seek to frame " + String(frame) + ": " + lastError) }
        decodedFrames = result
    }

    public func close() {
        guard isOpen else { return }
        mpg123_close(handle)
        stream.close()
        isOpen = false
        format = nil
    }

    public func interruptReads() -> Int {
        stream.interrupt()
    }

    public func resumeReads(through serial: Int) {
        stream.resume(through: serial)
    }

    // MARK: - Replaced I/O: libmpg123 reads the read-ahead stream

    /// `read(2)` for libmpg123: bytes from the ring; -1 (errno set) when the file failed or the
    /// wait was interrupted.
    private static let readCallback: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int = { context, buffer, count in
        guard let context, let buffer else { return -1 }
        let stream = Unmanaged<ReadAheadStream>.fromOpaque(context).takeUnretainedValue()
        do throws(Errno) {
            return try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        } catch {
            shfl_set_errno(error.code)
            return -1
        }
    }

    /// `lseek(2)` for libmpg123 (it seeks to read the ID3v1 tag at the end, and to resume).
    private static let seekCallback: @convention(c) (UnsafeMutableRawPointer?, off_t, Int32) -> off_t = { context, offset, whence in
        guard let context else { return -1 }
        let stream = Unmanaged<ReadAheadStream>.fromOpaque(context).takeUnretainedValue()
        let target: Int
        switch whence {
        case SEEK_SET: target = Int(offset)
        case SEEK_CUR: target = stream.position + Int(offset)
        case SEEK_END: target = stream.size + Int(offset)
        default: return -1
        }
        do throws(Errno) {
            try stream.seek(to: target)
        } catch {
            shfl_set_errno(error.code)
            return -1
        }
        return off_t(target)
    }

    // MARK: - Helpers

    /// Lengths from a LAME/Xing header are exact; from a bare stream they are estimates, so only
    /// a shortfall of over a quarter second counts as truncation.
    private func isTruncated(decoded: Int, announced: Int, rate: Int) -> Bool {
        announced - decoded > rate / 4
    }

    private var lastError: String {
        String(cString: mpg123_strerror(handle))
    }

    static func message(for code: Int32) -> String {
        mpg123_plain_strerror(code).map { String(cString: $0) } ?? ("error " + String(code))
    }

    private func readTags(into info: inout TrackInfo) {
        var version1: UnsafeMutablePointer<mpg123_id3v1>?
        var version2: UnsafeMutablePointer<mpg123_id3v2>?
        guard mpg123_meta_check(handle) & MPG123_ID3 != 0,
              mpg123_id3(handle, &version1, &version2) == MPG123_OK.rawValue else { return }
        if let tag = version2?.pointee {
            info.title = Mpg123Decoder.text(tag.title)
            info.artist = Mpg123Decoder.text(tag.artist)
            info.album = Mpg123Decoder.text(tag.album)
        }
        if let tag = version1?.pointee {
            var tag = tag
            if info.title == nil { info.title = withUnsafeBytes(of: &tag.title) { Mpg123Decoder.latin1($0) } }
            if info.artist == nil { info.artist = withUnsafeBytes(of: &tag.artist) { Mpg123Decoder.latin1($0) } }
            if info.album == nil { info.album = withUnsafeBytes(of: &tag.album) { Mpg123Decoder.latin1($0) } }
        }
    }

    /// A copy of an `mpg123_string` (UTF-8, `fill` counts the terminating zero); nil if empty.
    static func text(_ string: UnsafeMutablePointer<mpg123_string>?) -> String? {
        guard let string = string?.pointee, let bytes = string.p, string.fill > 1 else { return nil }
        let buffer = UnsafeRawBufferPointer(start: bytes, count: string.fill - 1)
        let text = String(decoding: buffer, as: UTF8.self)
        return trimmed(text)
    }

    /// An ID3v1 field: Latin-1, zero- or space-padded; nil if empty.
    static func latin1(_ field: UnsafeRawBufferPointer) -> String? {
        var text = ""
        for byte in field {
            if byte == 0 { break }
            text.unicodeScalars.append(Unicode.Scalar(byte))
        }
        return trimmed(text)
    }

    private static func trimmed(_ text: String) -> String? {
        var scalars = Substring(text).unicodeScalars
        while let last = scalars.last, last == " " || last == "\0" { scalars.removeLast() }
        let result = String(scalars)
        return result.isEmpty ? nil : result
    }
}
