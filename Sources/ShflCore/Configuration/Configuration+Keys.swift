extension Configuration {
    /// THE table of configuration keys, in the order of the sample file: section, key, doc,
    /// the kind of value (its parser, its canonical spelling and what a message says was
    /// expected), and the part of `Configuration` it sets. The defaults are those of
    /// `Configuration()`. Parsing (`apply`), the sample file (`sampleText`, board/shfl.ini)
    /// and `shfl config` all come from here; tests check the sample against it.
    public static let keys: [ConfigurationKey] = [
        // [board]
        ConfigurationKey(
            "board", "name", "Which pin map: auto recognises the board (Pi Zero 2 W, 3, 4, 5, QEMU virt).",
            .automaticOr("a pin map's name (pi-4) or a pin map file's path"),
            get: { $0.board.pinMap }, set: { $0.board.pinMap = $1 }),
        ConfigurationKey(
            "board", "led-active", "The LED's polarity: auto keeps the pin map's, high or low overrides it.",
            .polarity,
            get: { $0.board.ledPolarity }, set: { $0.board.ledPolarity = $1 }),

        // [audio]
        ConfigurationKey(
            "audio", "device", "The ALSA output device (aplay -L lists them).",
            .text("an ALSA device name such as default, hw:1,0 or plughw:CARD=Headphones"),
            get: { $0.audio.device }, set: { $0.audio.device = $1 }),
        ConfigurationKey(
            "audio", "mixer", "Volume control: auto uses the card's mixer if it has one, else software gain.",
            .mixer,
            get: { $0.audio.mixer }, set: { $0.audio.mixer = $1 }),
        ConfigurationKey(
            "audio", "buffer-time", "ALSA buffer: longer rides out load spikes, shorter starts sooner.",
            .duration(.milliseconds(10)...(.seconds(2))),
            get: { $0.audio.bufferTime }, set: { $0.audio.bufferTime = $1 }),
        ConfigurationKey(
            "audio", "period-time", "ALSA period: audio is written this much at a time; SKIP is heard within it.",
            .duration(.milliseconds(1)...(.seconds(1))),
            get: { $0.audio.periodTime }, set: { $0.audio.periodTime = $1 }),
        ConfigurationKey(
            "audio", "realtime-priority", "SCHED_FIFO priority of the audio thread, or off (shfl.service's LimitRTPRIO= allows up to 50).",
            ConfigurationValue<Int>.integer(1...99).orOff(),
            get: { $0.audio.realTimePriority }, set: { $0.audio.realTimePriority = $1 }),
        ConfigurationKey(
            "audio", "lock-memory", "Lock the player in RAM (mlockall) so audio never waits for the SD card.",
            .boolean,
            get: { $0.audio.lockMemory }, set: { $0.audio.lockMemory = $1 }),

        // [volume]
        ConfigurationKey(
            "volume", "initial", "Volume of a stick played for the first time (0 to 100).",
            .integer(0...100),
            get: { $0.player.volume.initial }, set: { $0.player.volume.initial = $1 }),
        ConfigurationKey(
            "volume", "minimum", "Lowest volume VOL- and the control socket can set.",
            .integer(0...100),
            get: { $0.player.volume.minimum }, set: { $0.player.volume.minimum = $1 }),
        ConfigurationKey(
            "volume", "maximum", "Highest volume VOL+ and the control socket can set.",
            .integer(0...100),
            get: { $0.player.volume.maximum }, set: { $0.player.volume.maximum = $1 }),
        ConfigurationKey(
            "volume", "step", "How much one VOL+ or VOL- press changes the volume.",
            .integer(1...100),
            get: { $0.player.volume.step }, set: { $0.player.volume.step = $1 }),

        // [player]
        ConfigurationKey(
            "player", "autoplay", "Start playing as soon as a stick is loaded (false: wait for PLAY).",
            .boolean,
            get: { $0.player.autoplay }, set: { $0.player.autoplay = $1 }),
        ConfigurationKey(
            "player", "selection", "Which 120 tracks a bigger stick without shfl.m3u loads.",
            .policy,
            get: { $0.selectionPolicy }, set: { $0.selectionPolicy = $1 }),
        ConfigurationKey(
            "player", "save-interval", "While playing, save the position this often (a power cut loses at most this).",
            .duration(.seconds(1)...(.seconds(600))),
            get: { $0.player.saveInterval }, set: { $0.player.saveInterval = $1 }),

        // [buttons]
        ConfigurationKey(
            "buttons", "settle-time", "Debounce: a button counts once its line has been still this long.",
            .duration(.milliseconds(1)...(.milliseconds(500))),
            get: { $0.gestures.settleTime }, set: { $0.gestures.settleTime = $1 }),
        ConfigurationKey(
            "buttons", "capacity-hold", "Hold PLAY this long to blink the number of tracks loaded.",
            .duration(.milliseconds(300)...(.seconds(30))),
            get: { $0.gestures.capacityHold }, set: { $0.gestures.capacityHold = $1 }),
        ConfigurationKey(
            "buttons", "reshuffle-hold", "Hold SKIP this long to reshuffle.",
            .duration(.milliseconds(300)...(.seconds(30))),
            get: { $0.gestures.reshuffleHold }, set: { $0.gestures.reshuffleHold = $1 }),
        ConfigurationKey(
            "buttons", "power-off-hold", "Hold PLAY this long to power off safely; off disables it.",
            ConfigurationValue<Duration>.duration(.seconds(1)...(.seconds(60))).orOff(),
            get: { $0.gestures.powerOffHold }, set: { $0.gestures.powerOffHold = $1 }),
        ConfigurationKey(
            "buttons", "volume-repeat", "VOL+/VOL- held: first repeat after, then every; off is one step per press.",
            .repeating(delay: .milliseconds(100)...(.seconds(5)), interval: .milliseconds(10)...(.seconds(2))),
            get: { $0.gestures.volumeRepeat }, set: { $0.gestures.volumeRepeat = $1 }),

        // [media]
        ConfigurationKey(
            "media", "source", "Where sticks come from: udev (USB), or directory:PATH whose folders act as sticks.",
            .mediaSource,
            get: { $0.media.source }, set: { $0.media.source = $1 }),
        ConfigurationKey(
            "media", "filesystems", "File systems accepted on a stick (ntfs needs the kernel's ntfs3 driver).",
            .filesystems,
            get: { $0.media.filesystems }, set: { $0.media.filesystems = $1 }),
        ConfigurationKey(
            "media", "scan-depth", "Scanning: the most folders above a track; deeper folders are not entered.",
            .integer(0...64),
            get: { $0.media.scanDepth }, set: { $0.media.scanDepth = $1 }),
        ConfigurationKey(
            "media", "scan-entries", "Scanning: the most names looked at, junk included (the work: a name not MP3 is only compared).",
            .integer(1...10_000_000),
            get: { $0.media.scanEntries }, set: { $0.media.scanEntries = $1 }),
        ConfigurationKey(
            "media", "scan-folders", "Scanning: the most folders entered, shallowest first (the paths waiting in memory, and the opens).",
            .integer(1...1_000_000),
            get: { $0.media.scanFolders }, set: { $0.media.scanFolders = $1 }),
        ConfigurationKey(
            "media", "scan-tracks", "Scanning: the most MP3 files kept to choose from, the first in path order (memory: a path each).",
            .integer(120...1_000_000),
            get: { $0.media.scanTracks }, set: { $0.media.scanTracks = $1 }),
        ConfigurationKey(
            "media", "scan-time", "Scanning: the longest a scan may take (a slow or failing stick).",
            .duration(.milliseconds(100)...(.seconds(60))),
            get: { $0.media.scanTime }, set: { $0.media.scanTime = $1 }),

        // [system]
        ConfigurationKey(
            "system", "state-directory", "Where each stick's shuffle, position and history are saved (in shfl.service's ReadWritePaths=).",
            .absolutePath,
            get: { $0.system.stateDirectory }, set: { $0.system.stateDirectory = $1 }),
        ConfigurationKey(
            "system", "runtime-directory", "Runtime files: stick mount points under RUNTIME/media (in shfl.service's ReadWritePaths=).",
            .absolutePath,
            get: { $0.system.runtimeDirectory }, set: { $0.system.runtimeDirectory = $1 }),
        ConfigurationKey(
            "system", "control-socket", "The socket shfl status, shfl press and friends talk to.",
            .absolutePath,
            get: { $0.system.controlSocket }, set: { $0.system.controlSocket = $1 }),
    ]

    /// The sections in table order: "board", "audio", ...
    public static var sections: [String] {
        var sections: [String] = []
        for key in keys where !sections.contains(key.section) { sections.append(key.section) }
        return sections
    }

    /// The key `[section] name`; names are compared ignoring ASCII case, with "_" as "-".
    public static func key(section: String, name: String) -> ConfigurationKey? {
        let section = ConfigurationSpelling.name(section)
        let name = ConfigurationSpelling.name(name)
        for key in keys where key.section == section && key.name == name { return key }
        return nil
    }
}
