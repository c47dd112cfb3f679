import CSystem
import ShflAudio
import ShflCore
import ShflMedia
import ShflService
import ShflSystem

/// `shfl run`: the composition root and its event loop (SPEC §9). One thread waits in
/// `poll()` on: the signals (SIGTERM/SIGINT end the loop cleanly), the button lines, the stick
/// source, the audio thread's reports, the end of a stick's loading, the state writer's
/// failures and one timer (button settling and holds, LED changes). All player state lives in
/// `session`, on this thread. Every effect the core decides is carried out here, in `apply`.
///
/// Which thread does which I/O (SPEC §14: nothing on the event loop waits on storage):
/// - the event loop: `poll()` is its only blocking call. It reads and writes descriptors that
///   never block (GPIO line events, the udev monitor's socket, the control socket, eventfds,
///   the timerfd, the signalfd), the LED line and stderr, and the lazy unmount of a pulled
///   stick (`MNT_DETACH`, which does not wait for the stick).
/// - the audio thread (`AudioEngine`): the sound device, and libmpg123 decoding from memory.
///   It never touches a file.
/// - the read-ahead thread (`ReadAheadStream`, in `Mpg123Decoder`): open, read and seek of the
///   track playing, up to 13 s ahead; the only thread a stalled or dead stick can hold.
/// - a loading thread per stick arriving (`StickScanThread`): its mount(2)
///   (`DeferredMediaMounter.finishMount`), the scan of its folders, and the read of its saved
///   state (`BackgroundStateStore.prefetch`).
/// - the state writer (`BackgroundStateStore`): every save (temporary file, fsync, rename,
///   directory fsync), the newest state per stick winning while the SD card stalls.
/// At start-up (before the loop) and at shutdown (after it), the loop's thread opens the state
/// directory and waits for the last save (`flush`).
final class Daemon {
    private let options: DaemonOptions
    private let clock = SystemMonotonicClock()
    private var session: PlayerSession
    private let lines: any ButtonLines
    private let light: any StatusLight
    private let monitor: any MediaMonitor
    private let loader: StickLoader
    private let mounter: any MediaMounter
    private let scanner: StickScanner
    /// The scan of the stick being loaded, while it runs.
    private var scan: StickScanThread?
    /// Saves on its writer thread: the loop hands states over and never waits on the SD card.
    private let store: BackgroundStateStore
    private let sink: PacedAudioSink<ALSAAudioSink>
    private let engine: AudioEngine<Mpg123Decoder, PacedAudioSink<ALSAAudioSink>>
    private let volume: any OutputVolume
    private let timer: TimerDescriptor
    private let signals: SignalDescriptor
    private let control: UnixControlServer?
    private let notifier: SystemdNotifier
    private var running = true
    /// SIGHUP: after the clean stop, start again (re-reading the configuration).
    private var restartRequested = false
    /// The power-off hold: after the clean stop, exit with `powerOffExitStatus`.
    private var powerOffRequested = false
    private var underruns = 0
    /// Tags of the track now playing (from the audio thread's `started` report).
    private var playingInfo: TrackInfo?
    private var stickLabel: String?
    private var lastSystemdStatus = ""
    private var nextWatchdog: Instant?

    init(options: DaemonOptions, lines: any ButtonLines, light: any StatusLight, monitor: any MediaMonitor,
         mounter: any MediaMounter, store: any StateStore, signals: SignalDescriptor,
         control: UnixControlServer?, notifier: SystemdNotifier) throws(DaemonError) {
        self.options = options
        self.control = control
        self.notifier = notifier
        self.lines = lines
        self.light = light
        self.monitor = monitor
        self.mounter = mounter
        do {
            self.store = try BackgroundStateStore(store)
        } catch {
            throw DaemonError("state writer thread: " + error.description)
        }
        self.signals = signals
        loader = StickLoader(mounter: mounter, store: self.store, policy: options.policy)
        scanner = StickScanner(limits: options.scanLimits, clock: clock)
        var levels: [Button: ButtonLevel] = [:]
        for button in lines.buttons {
            do {
                levels[button] = try lines.level(of: button)
            } catch {
                throw DaemonError(error.description)
            }
        }
        session = PlayerSession(player: options.player, gestures: options.gestures, initialLevels: levels, now: clock.now)
        // Outputs without a clock of their own (null, file) are paced to real time.
        let device = ALSAAudioSink(device: options.audioDevice, bufferTime: options.bufferTime, periodTime: options.periodTime)
        let clockless = options.audioDevice == "null" || options.audioDevice.hasPrefix("file:")
        sink = PacedAudioSink(device, pacing: options.paceAudio || clockless)
        let decoder: Mpg123Decoder
        do {
            decoder = try Mpg123Decoder()
        } catch {
            throw DaemonError("audio: " + error.description)
        }
        do {
            engine = try AudioEngine(decoder: decoder, sink: sink)
        } catch {
            throw DaemonError("audio thread: " + error.description)
        }
        if let mixer = Daemon.cardName(options).flatMap({ ALSAMixerVolume(card: $0) }) {
            volume = mixer
            Daemon.log(LogMessage(.info, "volume: ALSA mixer control '" + mixer.controlName + "' of " + mixer.card))
        } else {
            volume = SoftwareVolume(engine: engine)
            Daemon.log(LogMessage(.info, "volume: software gain (" + (options.audioDeviceLabel ?? options.audioDevice) + " has no mixer control)"))
        }
        do {
            timer = try TimerDescriptor()
        } catch {
            throw DaemonError("timer: " + error.description)
        }
    }

    /// The exit status after the power-off hold, once the state is saved, the audio stopped and
    /// the LED dark. The daemon does not power the machine off itself: board/shfl.service counts
    /// this status as a clean stop and powers off in `ExecStopPost=` (outside the sandbox).
    static let powerOffExitStatus: Int32 = 100

    /// Runs until SIGTERM or SIGINT (0), or the power-off hold (`powerOffExitStatus`); returns
    /// the exit status.
    func run() -> Int32 {
        do {
            try engine.start(realTimePriority: options.realTimePriority, lockMemory: options.lockMemory)
        } catch {
            Daemon.log(LogMessage(.error, "cannot start the audio thread: " + error.description))
            return 1
        }
        Daemon.log(LogMessage(.notice, "shfl " + ShflCommand.version + " running: audio " + (options.audioDeviceLabel ?? options.audioDevice) + ", state in " + options.stateDirectory))
        // The LED's pattern starts now, and is shown now, not when the session was made: opening
        // the decoder, starting the audio thread (mlockall) and listing the sticks present take
        // long enough on a slow board to cut the first heartbeat short.
        session.showState(at: clock.now)
        refreshLightAndTimer()
        do {
            for stick in try monitor.present() { mediaEvent(.arrived(stick)) }
        } catch {
            Daemon.log(LogMessage(.error, "listing sticks: " + error.description))
        }

        do {
            try notifier.ready(status: StatusReport(player: session.player).systemdStatus)
        } catch {
            Daemon.log(LogMessage(.warning, "systemd notify: " + error.description))
        }
        if let interval = notifier.watchdogPingInterval { nextWatchdog = clock.now + interval }

        while running {
            refreshLightAndTimer()
            // Rebuilt each turn: control connections come and go.
            var poller = Poller()
            let signalIndex = poller.watch(signals.descriptor)
            let linesIndex = lines.pollDescriptor >= 0 ? poller.watch(FileDescriptor(rawValue: lines.pollDescriptor)) : -1
            let monitorIndex = monitor.pollDescriptor >= 0 ? poller.watch(FileDescriptor(rawValue: monitor.pollDescriptor)) : -1
            let audioIndex = poller.watch(engine.reportDescriptor)
            let storeIndex = poller.watch(store.descriptor)
            let scanIndex = scan.map { poller.watch($0.descriptor) } ?? -1
            let timerIndex = poller.watch(timer.descriptor)
            let controlDescriptors = control?.descriptors ?? []
            var controlIndices: [Int] = []
            for descriptor in controlDescriptors { controlIndices.append(poller.watch(descriptor)) }
            do {
                _ = try poller.wait()
            } catch {
                Daemon.log(LogMessage(.error, "poll: " + error.description))
                break
            }
            if poller.isReady(signalIndex) { handleSignals() }
            if linesIndex >= 0 && poller.isReady(linesIndex) { readButtons() }
            if monitorIndex >= 0 && poller.isReady(monitorIndex) { readMedia() }
            if poller.isReady(audioIndex) { readAudioReports() }
            if poller.isReady(storeIndex) {
                for failure in store.takeFailures() { Daemon.log(LogMessage(.error, failure)) }
            }
            if scanIndex >= 0 && poller.isReady(scanIndex) { scanEnded() }
            for (offset, index) in controlIndices.enumerated() where poller.isReady(index) {
                serveControl(controlDescriptors[offset])
            }
            if poller.isReady(timerIndex) {
                timer.acknowledge()
                apply(session.advance(to: clock.now))
            }
            pingWatchdogIfDue()
            publishStatus()
        }
        shutDown()
        if restartRequested {
            let error = SelfExecution.restart()
            Daemon.log(LogMessage(.error, "cannot start again after SIGHUP: " + error.description))
            return 1
        }
        return powerOffRequested ? Daemon.powerOffExitStatus : 0
    }

    // MARK: - Sources

    private func handleSignals() {
        while let signal = signals.next() {
            switch signal {
            case SIGTERM, SIGINT:
                Daemon.log(LogMessage(.notice, "stopping (signal " + String(signal) + ")"))
                running = false
            case SIGHUP:
                Daemon.log(LogMessage(.notice, "reloading the configuration: saving, then starting again"))
                try? notifier.reloading(status: "Reloading the configuration")
                restartRequested = true
                running = false
            default:
                Daemon.log(LogMessage(.info, "signal " + String(signal) + " ignored"))
            }
        }
    }

    private func readButtons() {
        var edges: [ButtonEdge] = []
        do {
            try lines.readEdges(into: &edges)
        } catch {
            Daemon.log(LogMessage(.error, "buttons: " + error.description))
        }
        if !edges.isEmpty { apply(session.handle(edges: edges, now: clock.now)) }
    }

    private func readMedia() {
        var events: [MediaEvent] = []
        do {
            try monitor.readEvents(into: &events)
        } catch {
            Daemon.log(LogMessage(.error, "sticks: " + error.description))
        }
        for event in events { mediaEvent(event) }
    }

    private func mediaEvent(_ event: MediaEvent) {
        // Mounting and scanning take up to the scan time limit: "loading" meanwhile.
        if case .arrived = event { session.showLoading(at: clock.now) }
        carryOut(loader.handle(event, seed: SystemEntropy.seed()))
    }

    /// Logs and plays what the loader decided; starts the scan it asks for.
    private func carryOut(_ outcome: StickLoader.Outcome) {
        for message in outcome.logs { Daemon.log(message) }
        for input in outcome.inputs { apply(session.handle(input, now: clock.now)) }
        if let root = outcome.scanRoot { startScan(root) }
        if !loader.isScanning { session.showState(at: clock.now) }
        stickLabel = loader.current.map { $0.stick.label.isEmpty ? $0.stick.id.uuid : $0.stick.label }
    }

    /// Loads the stick on a thread of its own: mounts it (`finishMount`: the mount(2) a
    /// `DeferredMediaMounter` left), scans it and reads its saved state ahead (`prefetch`), so
    /// the loop's `finishLoading` needs nothing from storage. If no thread can be started, here
    /// (the loop waits for it).
    private func startScan(_ root: FilePath) {
        let mounted = loader.loadingStick
        let mounter = mounter
        let scanner = scanner
        let store = store
        let load = { () -> Result<StickScan, DeviceError> in
            Result { () throws(DeviceError) -> StickScan in
                if let mounted { try mounter.finishMount(mounted) }
                let scanned = try scanner.scan(root)
                if let mounted { store.prefetch(mounted.stick.id) }
                return scanned
            }
        }
        do {
            scan = try StickScanThread(root: root, load: load)
        } catch {
            Daemon.log(LogMessage(.warning, "scan thread: " + error.description + "; loading " + root.description + " on the event loop"))
            finishLoading(load())
        }
    }

    private func scanEnded() {
        guard let finished = scan else { return }
        scan = nil
        finishLoading(finished.result())
    }

    private func finishLoading(_ scanned: Result<StickScan, DeviceError>) {
        carryOut(loader.finishLoading(scanned))
        // The scan's list of every file (5,000 paths on a big stick) is gone: give its pages
        // back, so the player's resident memory while playing does not keep the scan's peak.
        ProcessHeap.releaseFreeMemory()
    }

    private func readAudioReports() {
        for report in engine.takeReports() {
            let now = clock.now
            switch report {
            case .started(let ticket, let info):
                playingInfo = info
                apply(session.handle(.audioStarted(ticket: ticket), now: now))
            case .progress(let ticket, let position):
                apply(session.handle(.progress(ticket: ticket, position: position), now: now))
            case .finished(let ticket):
                apply(session.handle(.trackFinished(ticket: ticket), now: now))
            case .failed(let ticket, let reason):
                apply(session.handle(.trackFailed(ticket: ticket, reason: reason), now: now))
            case .deviceFailed(let message):
                Daemon.log(LogMessage(.warning, message))
            case .underruns(let count):
                underruns = count
                Daemon.log(LogMessage(.warning, "audio underrun (" + String(count) + " so far)"))
            }
        }
    }

    private func serveControl(_ descriptor: FileDescriptor) {
        guard let control else { return }
        for message in control.handle(readable: descriptor) {
            switch message.request {
            case .failure(let error):
                control.reply(ControlReply(error: error), to: message.client)
            case .success(let request):
                let now = clock.now
                switch request.action(in: session.player.state) {
                case .input(let input):
                    apply(session.handle(input, now: now))
                    control.reply(statusReport.reply, to: message.client)
                case .button(let button, let level):
                    guard lines.buttons.contains(button) else {
                        control.reply(ControlReply(error: button.description + " is not wired"), to: message.client)
                        continue
                    }
                    // A clean edge, as the wiring would give: gestures come from the timing.
                    apply(session.handle(edges: [ButtonEdge(button: button, level: level, time: now)], now: now))
                    control.reply(ControlReply(), to: message.client)
                case .report, .nothing:
                    control.reply(statusReport.reply, to: message.client)
                case .capacity:
                    session.announceCapacity(at: now)
                    control.reply(statusReport.capacityReply, to: message.client)
                }
            }
        }
        for note in control.takeNotes() { Daemon.log(note) }
    }

    private var statusReport: StatusReport {
        let tags = session.player.state.track != nil ? playingInfo : nil
        return StatusReport(player: session.player, title: tags?.title, artist: tags?.artist, underruns: underruns, stickLabel: stickLabel)
    }

    /// STATUS= for systemd whenever the line changes ("Playing 12/120: Title — Artist").
    private func publishStatus() {
        let status = statusReport.systemdStatus
        guard status != lastSystemdStatus else { return }
        lastSystemdStatus = status
        do {
            try notifier.status(status)
        } catch {
            Daemon.log(LogMessage(.warning, "systemd notify: " + error.description))
        }
    }

    /// WATCHDOG=1 from the event loop itself: if the loop hangs, systemd restarts us.
    private func pingWatchdogIfDue() {
        guard let due = nextWatchdog, let interval = notifier.watchdogPingInterval, clock.now >= due else { return }
        nextWatchdog = clock.now + interval
        do {
            try notifier.watchdog()
        } catch {
            Daemon.log(LogMessage(.warning, "systemd watchdog: " + error.description))
        }
    }

    // MARK: - Effects

    private func apply(_ effects: [SessionEffect]) {
        for effect in effects {
            switch effect {
            case .player(let effect):
                apply(effect)
            case .powerOff:
                Daemon.log(LogMessage(.notice, "power-off requested by the PLAY hold: saving, then exiting with status " + String(Daemon.powerOffExitStatus) + " for the system to power off"))
                powerOffRequested = true
                running = false
            }
        }
    }

    private func apply(_ effect: PlayerEffect) {
        switch effect {
        case .startTrack(let track, let position, let ticket):
            guard let root = loader.current?.root else { return }
            engine.send(.play(root.appending(track), from: position, ticket: ticket))
        case .pauseAudio:
            engine.send(.pause)
        case .resumeAudio:
            engine.send(.resume)
        case .stopAudio:
            engine.send(.stop)
        case .setVolume(let level):
            do {
                try volume.setLevel(level)
            } catch {
                Daemon.log(LogMessage(.warning, error.description))
            }
        case .save(let state):
            do {
                try store.save(state)
            } catch {
                Daemon.log(LogMessage(.error, "saving stick " + state.stick.uuid + ": " + error.description))
            }
        case .log(let message):
            if message.level != .debug || options.verbose { Daemon.log(message) }
        }
    }

    private func refreshLightAndTimer() {
        let now = clock.now
        do {
            try light.setLit(session.isLit(at: now))
        } catch {
            Daemon.log(LogMessage(.warning, "LED: " + error.description))
        }
        var deadline = session.nextDeadline(after: now)
        if let watchdog = nextWatchdog { deadline = deadline.map { min($0, watchdog) } ?? watchdog }
        do {
            try timer.arm(at: deadline)
        } catch {
            Daemon.log(LogMessage(.error, "timer: " + error.description))
        }
    }

    /// Saves where the stick is, stops the audio and darkens the LED.
    private func shutDown() {
        if let state = session.player.stickState {
            apply(.save(state))
        }
        // The one wait on storage the loop makes, once it has stopped: the last state written.
        store.flush()
        store.stop()
        for failure in store.takeFailures() { Daemon.log(LogMessage(.error, failure)) }
        if !restartRequested { try? notifier.stopping(status: powerOffRequested ? "Powering off" : nil) }
        engine.send(.stop)
        engine.stopThread()
        _ = scan?.result()
        control?.close()
        sink.inner.close()
        try? light.setLit(false)
        Daemon.log(LogMessage(.notice, "stopped"))
    }

    /// The card whose mixer to use: the one configured, or the card a `hw:`/`plughw:`/`default`
    /// device plays on; nil for software gain, and for plugins without a card (null, file),
    /// which would only make alsa-lib complain.
    static func cardName(_ options: DaemonOptions) -> String? {
        switch options.mixer {
        case .software: return nil
        case .card(let card): return card
        case .automatic: break
        }
        let device = options.audioDevice
        if device == "default" || device == "sysdefault" { return "default" }
        for prefix in ["hw:", "plughw:"] where device.hasPrefix(prefix) {
            let card = device.dropFirst(prefix.count).split(separator: ",").first.map { String($0) } ?? "0"
            return "hw:" + card
        }
        return nil
    }

    static func log(_ message: LogMessage) {
        StandardStreams.log(message)
    }
}

/// Why the daemon could not start.
struct DaemonError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
