import CALSA
import CSystem
import ShflCore

/// The `AudioSink` port on alsa-lib: one PCM opened by name (`default`, `hw:0`, `plughw:1`,
/// `null`, `file:'/tmp/x.raw',raw`), interleaved signed 16-bit at the track's rate.
///
/// - `configure` with the format already set keeps the stream running (gapless); another
///   format drains what is queued, then sets the new hardware parameters.
/// - Underruns (`-EPIPE`) are recovered with `snd_pcm_prepare` and counted; a suspended device
///   (`-ESTRPIPE`) is resumed (`snd_pcm_resume`, else prepared). Any other failure closes the
///   PCM and is thrown as a `DeviceError` naming it; the caller's next `configure` (after its
///   back-off) opens it again.
/// - Pause uses `snd_pcm_pause` when the device can; otherwise it drops the queue and returns
///   how many frames were dropped, so the caller replays them (no sample is lost).
public final class ALSAAudioSink: AudioSink {
    public let deviceName: String
    /// Requested ring buffer and period lengths, in microseconds.
    public let bufferTime: UInt32
    public let periodTime: UInt32
    public private(set) var underruns = 0
    /// The format set on the device, nil before the first `configure`.
    public private(set) var format: AudioFormat?
    /// The buffer and period the device granted, in frames.
    public private(set) var bufferFrames = 0
    public private(set) var periodFrames = 0
    private var pcm: OpaquePointer?
    private var canPause = false
    private var isPaused = false

    /// Does not open the device yet: the first `configure` does (`snd_pcm_open`).
    public init(device: String, bufferTime: UInt32 = 200_000, periodTime: UInt32 = 20_000) {
        self.deviceName = device
        self.bufferTime = bufferTime
        self.periodTime = periodTime
    }

    deinit {
        close()
    }

    public func configure(_ format: AudioFormat) throws(DeviceError) {
        if format == self.format, pcm != nil { return }
        if let pcm {
            _ = snd_pcm_drain(pcm)
            close()
        }
        var opened: OpaquePointer?
        let result = snd_pcm_open(&opened, deviceName, SND_PCM_STREAM_PLAYBACK, 0)
        guard result >= 0, let opened else { throw failure("cannot open", result) }
        pcm = opened
        do {
            try setParameters(format, on: opened)
        } catch {
            close()
            throw error
        }
        self.format = format
        isPaused = false
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) {
        guard let pcm, let format, var next = samples.baseAddress else {
            throw DeviceError("ALSA " + deviceName + ": write before configure")
        }
        var frames = samples.count / format.channels
        while frames > 0 {
            let written = snd_pcm_writei(pcm, next, snd_pcm_uframes_t(frames))
            if written >= 0 {
                frames -= written
                next += written * format.channels
                continue
            }
            try recover(from: Int32(written), pcm: pcm)
        }
    }

    @discardableResult
    public func setPaused(_ paused: Bool) throws(DeviceError) -> Int {
        guard let pcm, paused != isPaused else { return 0 }
        isPaused = paused
        if canPause {
            let result = snd_pcm_pause(pcm, paused ? 1 : 0)
            guard result < 0 else { return 0 }
            // Some plugins advertise pause but refuse it: fall back to dropping below.
            if !paused { return 0 }
        }
        guard paused else { return 0 }
        var delay: snd_pcm_sframes_t = 0
        let dropped = snd_pcm_delay(pcm, &delay) >= 0 ? max(delay, 0) : 0
        _ = snd_pcm_drop(pcm)
        let prepared = snd_pcm_prepare(pcm)
        guard prepared >= 0 else { throw failure("cannot prepare after pause", prepared) }
        return dropped
    }

    public func discard() throws(DeviceError) {
        guard let pcm else { return }
        _ = snd_pcm_drop(pcm)
        let result = snd_pcm_prepare(pcm)
        guard result >= 0 else { throw failure("cannot prepare after discard", result) }
        isPaused = false
    }

    public func drain() throws(DeviceError) {
        guard let pcm else { return }
        let drained = snd_pcm_drain(pcm)
        if drained < 0 && drained != -EPIPE { throw failure("cannot drain", drained) }
        let prepared = snd_pcm_prepare(pcm)
        guard prepared >= 0 else { throw failure("cannot prepare after drain", prepared) }
    }

    /// Whether `device` can be opened for playback now (`snd_pcm_open` non-blocking, then
    /// closed): false on a machine without a sound card for `default`.
    public static func canOpen(device: String) -> Bool {
        var probe: OpaquePointer?
        shfl_alsa_set_quiet(1)
        defer { shfl_alsa_set_quiet(0) }
        guard snd_pcm_open(&probe, device, SND_PCM_STREAM_PLAYBACK, Int32(SND_PCM_NONBLOCK)) >= 0, let probe else { return false }
        _ = snd_pcm_close(probe)
        return true
    }

    /// Closes the device (`snd_pcm_close`); the next `configure` opens it again.
    public func close() {
        if let pcm { _ = snd_pcm_close(pcm) }
        pcm = nil
        format = nil
    }

    // MARK: - Helpers

    private func recover(from error: Int32, pcm: OpaquePointer) throws(DeviceError) {
        switch error {
        case -EPIPE:
            underruns += 1
            let result = snd_pcm_prepare(pcm)
            guard result >= 0 else {
                let thrown = failure("cannot recover from an underrun", result)
                close()
                throw thrown
            }
        case -ESTRPIPE:
            var result = snd_pcm_resume(pcm)
            var attempts = 0
            while result == -EAGAIN && attempts < 100 {
                usleep(10_000)
                attempts += 1
                result = snd_pcm_resume(pcm)
            }
            if result < 0 {
                result = snd_pcm_prepare(pcm)
                guard result >= 0 else {
                    let thrown = failure("cannot resume after suspend", result)
                    close()
                    throw thrown
                }
            }
        case -EAGAIN, -EINTR:
            return
        default:
            // The device is gone or broken (-ENODEV, -EBADFD, -EIO): close it, so that the
            // caller's next `configure` (after its back-off) opens it afresh.
            let thrown = failure("write failed", error)
            close()
            throw thrown
        }
    }

    private func setParameters(_ format: AudioFormat, on pcm: OpaquePointer) throws(DeviceError) {
        var hardware: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hardware) >= 0, let hardware else { throw DeviceError("ALSA: out of memory") }
        defer { snd_pcm_hw_params_free(hardware) }
        var rate = UInt32(format.sampleRate)
        var bufferTime = self.bufferTime
        var periodTime = self.periodTime
        var direction: Int32 = 0
        var result = snd_pcm_hw_params_any(pcm, hardware)
        if result >= 0 { result = snd_pcm_hw_params_set_rate_resample(pcm, hardware, 1) }
        if result >= 0 { result = snd_pcm_hw_params_set_access(pcm, hardware, SND_PCM_ACCESS_RW_INTERLEAVED) }
        if result >= 0 { result = snd_pcm_hw_params_set_format(pcm, hardware, SND_PCM_FORMAT_S16_LE) }
        guard result >= 0 else { throw failure("does not take interleaved 16-bit samples", result) }
        result = snd_pcm_hw_params_set_channels(pcm, hardware, UInt32(format.channels))
        guard result >= 0 else { throw failure("cannot play " + String(format.channels) + " channels", result) }
        result = snd_pcm_hw_params_set_rate_near(pcm, hardware, &rate, &direction)
        guard result >= 0, rate == UInt32(format.sampleRate) else {
            throw failure("cannot play at " + String(format.sampleRate) + " Hz", result < 0 ? result : -EINVAL)
        }
        result = snd_pcm_hw_params_set_buffer_time_near(pcm, hardware, &bufferTime, &direction)
        if result >= 0 { result = snd_pcm_hw_params_set_period_time_near(pcm, hardware, &periodTime, &direction) }
        if result >= 0 { result = snd_pcm_hw_params(pcm, hardware) }
        guard result >= 0 else { throw failure("rejects buffer " + String(self.bufferTime) + " us / period " + String(self.periodTime) + " us", result) }
        var bufferSize: snd_pcm_uframes_t = 0
        var periodSize: snd_pcm_uframes_t = 0
        _ = snd_pcm_hw_params_get_buffer_size(hardware, &bufferSize)
        _ = snd_pcm_hw_params_get_period_size(hardware, &periodSize, &direction)
        bufferFrames = Int(bufferSize)
        periodFrames = Int(periodSize)
        canPause = snd_pcm_hw_params_can_pause(hardware) != 0

        var software: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&software) >= 0, let software else { throw DeviceError("ALSA: out of memory") }
        defer { snd_pcm_sw_params_free(software) }
        result = snd_pcm_sw_params_current(pcm, software)
        // Start as soon as one period is queued: a skip or a resume is heard within a period.
        if result >= 0 { result = snd_pcm_sw_params_set_start_threshold(pcm, software, periodSize) }
        if result >= 0 { result = snd_pcm_sw_params_set_avail_min(pcm, software, periodSize) }
        if result >= 0 { result = snd_pcm_sw_params(pcm, software) }
        guard result >= 0 else { throw failure("rejects its software parameters", result) }
    }

    private func failure(_ what: String, _ code: Int32) -> DeviceError {
        DeviceError("ALSA " + deviceName + ": " + what + ": " + String(cString: snd_strerror(code)), code: code)
    }
}
