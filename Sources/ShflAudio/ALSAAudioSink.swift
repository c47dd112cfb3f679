import CALSA
import CSystem
import ShflCore

/// The `AudioSink` port on alsa-lib: one PCM opened by name (`default`, `hw:0`, `plughw:1`,
/// `null`, `file:'/tmp/x.raw',raw`) or given as a PCM definition in alsa-lib's configuration
/// syntax (`{ type plug slave { ... } }`, see `wavFile(path:)`), interleaved signed 16-bit at
/// the track's rate.
///
/// - `configure` with the format already set keeps the stream running (gapless); another
///   format drains what is queued, then sets the new hardware parameters on the same PCM (as
///   aplay does between files; a `file` output keeps its file), reopening it only if that fails.
/// - Underruns (`-EPIPE`) are recovered with `snd_pcm_prepare` and counted; a suspended device
///   (`-ESTRPIPE`) is resumed (`snd_pcm_resume`, else prepared). Any other failure closes the
///   PCM and is thrown as a `DeviceError` naming it; the caller's next `configure` (after its
///   back-off) opens it again.
/// - Pause uses `snd_pcm_pause` when the device can; otherwise it drops the queue and returns
///   how many frames were dropped, so the caller replays them (no sample is lost).
/// - The PCM is non-blocking (`snd_pcm_nonblock`): `write` takes what fits (`snd_pcm_writei`,
///   `-EAGAIN` when full) and `waitUntilWritable` polls the PCM's descriptors
///   (`snd_pcm_poll_descriptors`, read back with `snd_pcm_poll_descriptors_revents`) together
///   with the caller's interrupt descriptor, as MPD does. The wake-up comes when a period is
///   free (`avail_min`). A device that takes nothing for 2 s is treated as failed (closed).
///   `drain` switches to blocking for the time it takes (a non-blocking drain only starts it).
public final class ALSAAudioSink: AudioSink {
    public let deviceName: String
    /// Requested ring buffer and period lengths, in microseconds.
    public let bufferTime: UInt32
    public let periodTime: UInt32
    public private(set) var underruns = 0

    /// `snd_pcm_delay`: the frames written that the listener has not heard yet (0 when closed
    /// or unknown).
    public var queuedFrames: Int {
        guard let pcm else { return 0 }
        var delay: snd_pcm_sframes_t = 0
        return snd_pcm_delay(pcm, &delay) >= 0 ? max(Int(delay), 0) : 0
    }
    /// The format set on the device, nil before the first `configure`.
    public private(set) var format: AudioFormat?
    /// The buffer and period the device granted, in frames.
    public private(set) var bufferFrames = 0
    public private(set) var periodFrames = 0
    private var pcm: OpaquePointer?
    /// The parsed definition when `deviceName` is one (`{ ... }`), kept for reopening.
    private var definition: OpaquePointer?
    private var canPause = false
    private var isPaused = false
    /// The PCM's poll descriptors, then one slot for the caller's interrupt descriptor; filled
    /// at `configure`, so waiting allocates nothing.
    private var pollEntries: UnsafeMutablePointer<pollfd>?
    private var pollCount = 0
    /// How long `waitUntilWritable` waits for a device that takes nothing before failing it.
    private let stallTimeoutMilliseconds: Int32 = 2_000

    /// Does not open the device yet: the first `configure` does (`snd_pcm_open`).
    public init(device: String, bufferTime: UInt32 = 200_000, periodTime: UInt32 = 20_000) {
        self.deviceName = device
        self.bufferTime = bufferTime
        self.periodTime = periodTime
    }

    deinit {
        close()
        if let definition { _ = snd_config_delete(definition) }
    }

    public func configure(_ format: AudioFormat) throws(DeviceError) {
        if format == self.format, pcm != nil { return }
        if let pcm {
            _ = drainBlocking(pcm)
            do {
                try setParameters(format, on: pcm)
                try preparePolling(pcm)
                self.format = format
                isPaused = false
                return
            } catch {
                close()  // and open it afresh below
            }
        }
        let opened = try open()
        pcm = opened
        do {
            try setParameters(format, on: opened)
            try preparePolling(opened)
        } catch {
            close()
            throw error
        }
        self.format = format
        isPaused = false
    }

    public func write(_ samples: UnsafeBufferPointer<Int16>) throws(DeviceError) -> Int {
        guard let pcm, let format, let start = samples.baseAddress else {
            if samples.isEmpty, pcm != nil { return 0 }
            throw DeviceError("ALSA " + deviceName + ": write before configure")
        }
        let frames = samples.count / format.channels
        var taken = 0
        while taken < frames {
            let written = snd_pcm_writei(pcm, start + taken * format.channels, snd_pcm_uframes_t(frames - taken))
            if written > 0 {
                taken += written
                continue
            }
            if written == 0 || written == -snd_pcm_sframes_t(EAGAIN) { break }
            try recover(from: Int32(written), pcm: pcm)
        }
        return taken
    }

    public func waitUntilWritable(orReadable interrupt: Int32) throws(DeviceError) -> AudioSinkWakeUp {
        guard let pcm, let entries = pollEntries else {
            throw DeviceError("ALSA " + deviceName + ": wait before configure")
        }
        let interruptEntry = entries + pollCount
        while true {
            interruptEntry.pointee = pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)
            for index in 0..<pollCount { entries[index].revents = 0 }
            let ready = poll(entries, nfds_t(pollCount + 1), stallTimeoutMilliseconds)
            if ready < 0 { return .writable }  // EINTR: a spurious wake-up
            if interruptEntry.pointee.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 { return .interrupted }
            guard ready > 0 else {
                let thrown = failure("took no audio for " + String(stallTimeoutMilliseconds) + " ms", -EIO)
                close()
                throw thrown
            }
            var events: UInt16 = 0
            let result = snd_pcm_poll_descriptors_revents(pcm, entries, UInt32(pollCount), &events)
            if result < 0 {
                let thrown = failure("poll failed", result)
                close()
                throw thrown
            }
            // POLLOUT: room; POLLERR: an underrun or a suspend, which the next write recovers.
            // Anything else was the plugin's own business (its descriptors need not mean room).
            if events & UInt16(POLLOUT | POLLERR | POLLHUP | POLLNVAL) != 0 { return .writable }
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
        let drained = drainBlocking(pcm)
        if drained < 0 && drained != -EPIPE { throw failure("cannot drain", drained) }
        let prepared = snd_pcm_prepare(pcm)
        guard prepared >= 0 else { throw failure("cannot prepare after drain", prepared) }
    }

    /// Lets the queue play out without blocking commands: polls the interrupt descriptor for
    /// as long as `snd_pcm_delay` says is left (at most 50 ms a wait), starts a PCM holding
    /// less than its start threshold (`snd_pcm_start`), and once nothing is left stops it
    /// (`snd_pcm_drop`, `snd_pcm_prepare`), ready for the next `write` or `configure`. Not
    /// `snd_pcm_drain`: a draining PCM takes no more writes, so a track coming during it would
    /// start after a gap.
    public func playOut(orReadable interrupt: Int32) throws(DeviceError) -> Bool {
        guard let pcm, let format else { return true }
        while true {
            let state = snd_pcm_state(pcm)
            var delay: snd_pcm_sframes_t = 0
            let known = snd_pcm_delay(pcm, &delay) >= 0
            let started = state == SND_PCM_STATE_PREPARED && known && delay > 0 && snd_pcm_start(pcm) >= 0
            if !started && (state != SND_PCM_STATE_RUNNING || !known || delay <= 0) {
                _ = snd_pcm_drop(pcm)
                let prepared = snd_pcm_prepare(pcm)
                guard prepared >= 0 else { throw failure("cannot prepare after playing out", prepared) }
                isPaused = false
                return true
            }
            let left = Int(delay) * 1_000 / max(format.sampleRate, 1) + 1
            var entry = pollfd(fd: interrupt, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, Int32(min(left, 50))) > 0 && entry.revents & Int16(POLLIN | POLLERR | POLLHUP) != 0 {
                return false
            }
        }
    }

    /// A device writing a WAV file at `path` (the demo without a sound card) in one format,
    /// 44.1 kHz stereo 16-bit: alsa-lib's `plug` converts each track's format to it, so the
    /// file's header holds for all of it, and the `file` plugin (over `null`) stays open across
    /// tracks of other formats instead of starting the file again.
    public static func wavFile(path: String) -> String {
        var quoted = ""
        for character in path {
            if character == "\\" || character == "\"" { quoted += "\\" }
            quoted.append(character)
        }
        return "{ type plug slave { pcm { type file file \"" + quoted + "\" format wav slave.pcm { type null } } "
            + "format S16_LE rate 44100 channels 2 } }"
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
        pollEntries?.deallocate()
        pollEntries = nil
        pollCount = 0
    }

    // MARK: - Helpers

    /// `snd_pcm_open` by name, or `snd_pcm_open_lconf` on the parsed definition
    /// (`snd_config_load_string` of `pcm.shfl { ... }`).
    private func open() throws(DeviceError) -> OpaquePointer {
        var opened: OpaquePointer?
        let result: Int32
        if deviceName.hasPrefix("{") {
            if definition == nil {
                let text = "pcm.shfl " + deviceName
                var parsed: OpaquePointer?
                let loaded = snd_config_load_string(&parsed, text, 0)
                guard loaded >= 0, let parsed else { throw failure("is not a PCM definition", loaded) }
                definition = parsed
            }
            result = snd_pcm_open_lconf(&opened, "shfl", SND_PCM_STREAM_PLAYBACK, 0, definition)
        } else {
            result = snd_pcm_open(&opened, deviceName, SND_PCM_STREAM_PLAYBACK, 0)
        }
        guard result >= 0, let opened else { throw failure("cannot open", result) }
        return opened
    }

    /// `snd_pcm_drain` in blocking mode (non-blocking, it returns -EAGAIN at once and leaves the
    /// PCM draining), then back to non-blocking.
    private func drainBlocking(_ pcm: OpaquePointer) -> Int32 {
        _ = snd_pcm_nonblock(pcm, 0)
        let drained = snd_pcm_drain(pcm)
        _ = snd_pcm_nonblock(pcm, 1)
        return drained
    }

    /// Makes the PCM non-blocking and keeps its poll descriptors, plus a slot for the
    /// interrupt descriptor, for `waitUntilWritable`.
    private func preparePolling(_ pcm: OpaquePointer) throws(DeviceError) {
        var result = snd_pcm_nonblock(pcm, 1)
        guard result >= 0 else { throw failure("cannot be made non-blocking", result) }
        let count = Int(snd_pcm_poll_descriptors_count(pcm))
        guard count >= 0 else { throw failure("has no poll descriptors", Int32(count)) }
        pollEntries?.deallocate()
        let entries = UnsafeMutablePointer<pollfd>.allocate(capacity: count + 1)
        entries.initialize(repeating: pollfd(fd: -1, events: 0, revents: 0), count: count + 1)
        pollEntries = entries
        pollCount = 0
        result = snd_pcm_poll_descriptors(pcm, entries, UInt32(count))
        guard result >= 0 else { throw failure("has no poll descriptors", result) }
        pollCount = Int(result)
    }

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
