import ShflCore
import Testing

/// The configuration model: its documented defaults, the key table, and every key read from
/// a good value. (Problems: ConfigurationProblemTests; the INI file: InihConfigurationFileTests.)
@Suite struct ConfigurationTests {
    /// Feeds `lines` (section, key, value) to a builder as lines 1, 2, 3, ...
    static func load(_ lines: [(String, String, String)], file: String = "test.ini") -> LoadedConfiguration {
        var builder = ConfigurationBuilder(file: file)
        for (index, line) in lines.enumerated() {
            builder.add(section: line.0, key: line.1, value: line.2, line: index + 1)
        }
        return builder.finish()
    }

    @Test func theDefaultsAreTheDocumentedOnes() {
        let c = Configuration()
        #expect(c.board.pinMap == nil)
        #expect(c.board.ledPolarity == nil)
        #expect(c.audio.device == "default")
        #expect(c.audio.mixer == .automatic)
        #expect(c.audio.bufferMicroseconds == 200_000)
        #expect(c.audio.periodMicroseconds == 20_000)
        #expect(c.audio.realTimePriority == 50)
        #expect(c.audio.lockMemory == false)
        #expect(c.player == PlayerSettings())
        #expect(c.player.autoplay == true)
        #expect(c.player.volume == VolumeSettings(initial: 50, minimum: 0, maximum: 100, step: 5))
        #expect(c.selectionPolicy == .alphabetical)
        #expect(c.gestures == GestureSettings.standard)
        #expect(c.gestures.powerOffHold == .seconds(6))
        #expect(c.media.source == .udev)
        #expect(c.media.filesystems == ["vfat", "exfat", "ext4", "ntfs"])
        #expect(c.media.scanDepth == 8)
        #expect(c.media.scanEntries == 500_000)
        #expect(c.media.scanFolders == 10_000)
        #expect(c.media.scanTracks == 20_000)
        #expect(c.media.scanTime == .milliseconds(2_000))
        #expect(c.system.stateDirectory == "/var/lib/shfl")
        #expect(c.system.runtimeDirectory == "/run/shfl")
        #expect(c.system.controlSocket == "/run/shfl/control")
        #expect(Configuration.defaultFile == "/boot/firmware/shfl.ini")
    }

    @Test func theTableWritesTheDefaultsAsTheSampleShowsThem() {
        var defaults: [String: String] = [:]
        for key in Configuration.keys { defaults[key.description] = key.defaultValue }
        #expect(defaults == [
            "[board] name": "auto", "[board] led-active": "auto",
            "[audio] device": "default", "[audio] mixer": "auto", "[audio] buffer-time": "200ms",
            "[audio] period-time": "20ms", "[audio] realtime-priority": "50", "[audio] lock-memory": "false",
            "[volume] initial": "50", "[volume] minimum": "0", "[volume] maximum": "100", "[volume] step": "5",
            "[player] autoplay": "true", "[player] selection": "alphabetical", "[player] save-interval": "10s",
            "[buttons] settle-time": "20ms", "[buttons] capacity-hold": "2s", "[buttons] reshuffle-hold": "2s",
            "[buttons] power-off-hold": "6s", "[buttons] volume-repeat": "500ms, 250ms",
            "[media] source": "udev", "[media] filesystems": "vfat, exfat, ext4, ntfs", "[media] scan-depth": "8",
            "[media] scan-entries": "500000", "[media] scan-folders": "10000", "[media] scan-tracks": "20000",
            "[media] scan-time": "2s",
            "[system] state-directory": "/var/lib/shfl", "[system] runtime-directory": "/run/shfl",
            "[system] control-socket": "/run/shfl/control",
        ])
        #expect(Configuration.sections == ["board", "audio", "volume", "player", "buttons", "media", "system"])
    }

    @Test func keysAreUniqueAndEveryDefaultReadsBack() {
        var seen: [String] = []
        for key in Configuration.keys {
            #expect(!seen.contains(key.description), "\(key) twice")
            seen.append(key.description)
            var configuration = Configuration()
            #expect(key.assign(key.defaultValue, to: &configuration), "\(key)")
            #expect(configuration == Configuration(), "\(key)")
            #expect(!key.doc.isEmpty && !key.expected.isEmpty)
        }
    }

    /// One good, non-default value for every key, and what it sets.
    static let goodValues: [(section: String, key: String, value: String, check: @Sendable (Configuration) -> Bool)] = [
        ("board", "name", "pi-4", { $0.board.pinMap == "pi-4" }),
        ("board", "led-active", "low", { $0.board.ledPolarity == .activeLow }),
        ("audio", "device", "plughw:CARD=Headphones,DEV=0", { $0.audio.device == "plughw:CARD=Headphones,DEV=0" }),
        ("audio", "mixer", "hw:1", { $0.audio.mixer == .card("hw:1") }),
        ("audio", "buffer-time", "150000us", { $0.audio.bufferMicroseconds == 150_000 }),
        ("audio", "period-time", "12.5ms", { $0.audio.periodMicroseconds == 12_500 }),
        ("audio", "realtime-priority", "off", { $0.audio.realTimePriority == nil }),
        ("audio", "lock-memory", "yes", { $0.audio.lockMemory }),
        ("volume", "initial", "30", { $0.player.volume.initial == 30 }),
        ("volume", "minimum", "10", { $0.player.volume.minimum == 10 }),
        ("volume", "maximum", "90", { $0.player.volume.maximum == 90 }),
        ("volume", "step", "10", { $0.player.volume.step == 10 }),
        ("player", "autoplay", "false", { !$0.player.autoplay }),
        ("player", "selection", "Recently-Played", { $0.selectionPolicy == .recentlyPlayed }),
        ("player", "save-interval", "1.5s", { $0.player.saveInterval == .milliseconds(1_500) }),
        ("buttons", "settle-time", "30ms", { $0.gestures.settleTime == .milliseconds(30) }),
        ("buttons", "capacity-hold", "3s", { $0.gestures.capacityHold == .seconds(3) }),
        ("buttons", "reshuffle-hold", "1500ms", { $0.gestures.reshuffleHold == .milliseconds(1_500) }),
        ("buttons", "power-off-hold", "OFF", { $0.gestures.powerOffHold == nil }),
        ("buttons", "volume-repeat", "400ms,100ms", {
            $0.gestures.volumeRepeat == ButtonBinding.Repeat(delay: .milliseconds(400), interval: .milliseconds(100))
        }),
        ("media", "source", "directory:/tmp/sticks/", { $0.media.source == .directory("/tmp/sticks") }),
        ("media", "filesystems", "vfat ext4,ntfs3", { $0.media.filesystems == ["vfat", "ext4", "ntfs"] }),
        ("media", "scan-depth", "3", { $0.media.scanDepth == 3 }),
        ("media", "scan-entries", "500", { $0.media.scanEntries == 500 }),
        ("media", "scan-folders", "50", { $0.media.scanFolders == 50 }),
        ("media", "scan-tracks", "120", { $0.media.scanTracks == 120 }),
        ("media", "scan-time", "500 ms", { $0.media.scanTime == .milliseconds(500) }),
        ("system", "state-directory", "/data/shfl", { $0.system.stateDirectory == "/data/shfl" }),
        ("system", "runtime-directory", "/tmp/shfl-run", { $0.system.runtimeDirectory == "/tmp/shfl-run" }),
        ("system", "control-socket", "/tmp/shfl-run/control", { $0.system.controlSocket == "/tmp/shfl-run/control" }),
    ]

    @Test func everyKeyReadsAGoodValue() {
        var covered: [String] = []
        for entry in Self.goodValues {
            let loaded = Self.load([(entry.section, entry.key, entry.value)])
            #expect(loaded.problems.isEmpty, "\(entry.section).\(entry.key): \(loaded.problems)")
            #expect(entry.check(loaded.configuration), "\(entry.section).\(entry.key) = \(entry.value)")
            #expect(loaded.configuration != Configuration(), "\(entry.section).\(entry.key) = \(entry.value) is the default")
            covered.append("[" + entry.section + "] " + entry.key)
        }
        #expect(covered == Configuration.keys.map { $0.description }, "one good value per key, in table order")
    }

    @Test func allGoodValuesTogetherAndTheirLines() {
        var lines: [(String, String, String)] = []
        for entry in Self.goodValues { lines.append((entry.section, entry.key, entry.value)) }
        let loaded = Self.load(lines)
        #expect(loaded.problems.isEmpty)
        for entry in Self.goodValues { #expect(entry.check(loaded.configuration), "\(entry.key)") }
        for (index, key) in Configuration.keys.enumerated() { #expect(loaded.line(of: key) == index + 1) }
        // The effective text gives the same configuration back, each key marked with its line.
        var again = ConfigurationBuilder(file: "again.ini")
        var section = ""
        for (index, line) in loaded.configuration.text().split(separator: "\n").enumerated() {
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()); continue }
            let parts = line.split(separator: "=", maxSplits: 1)
            again.add(section: section, key: String(parts[0]), value: String(parts[1]), line: index + 1)
        }
        #expect(again.finish().configuration == loaded.configuration)
        #expect(loaded.configuration.text(lineOf: { loaded.line(of: $0) }).contains("buffer-time = 150ms ; line 5\n"))
    }

    @Test func namesIgnoreCaseAndUnderscoresValuesLoseQuotesAndSpaces() {
        let loaded = Self.load([
            ("AUDIO", "Buffer_Time", "  100ms ", ), (" audio ", "device", "\"hw:1,0\""), ("Player", "AUTOPLAY", "No"),
        ])
        #expect(loaded.problems.isEmpty)
        #expect(loaded.configuration.audio.bufferTime == .milliseconds(100))
        #expect(loaded.configuration.audio.device == "hw:1,0")
        #expect(loaded.configuration.player.autoplay == false)
    }

    @Test func durationsNeedAUnitAndAreExact() {
        let duration = ConfigurationValue<Duration>.duration(.microseconds(1)...(.seconds(100)))
        var configuration = Configuration()
        let key = ConfigurationKey("t", "d", "test", duration, get: { $0.audio.bufferTime }, set: { $0.audio.bufferTime = $1 })
        for (text, expected) in [
            ("2s", Duration.seconds(2)), ("2 s", .seconds(2)), ("0.25s", .milliseconds(250)), ("1.000001s", .microseconds(1_000_001)),
            ("20MS", .milliseconds(20)), ("20000us", .milliseconds(20)), ("7µs", .microseconds(7)), ("99.5ms", .microseconds(99_500)),
        ] {
            #expect(key.assign(text, to: &configuration), "\(text)")
            #expect(configuration.audio.bufferTime == expected, "\(text)")
        }
        for text in ["200", "2", "s", "1.s", ".5s", "-1s", "1e3ms", "1.0000001s", "0.5us", "2 sec", "2m", "1000000000s", "5s5"] {
            #expect(!key.assign(text, to: &configuration), "\(text) should be refused")
        }
        #expect(ConfigurationValue<Duration>.durationText(.milliseconds(1_500)) == "1500ms")
        #expect(ConfigurationValue<Duration>.durationText(.microseconds(12_345)) == "12345us")
        #expect(ConfigurationValue<Duration>.durationText(.seconds(6)) == "6s")
    }

    @Test func theSampleTextListsEveryKeyWithItsDocAndDefault() {
        let sample = Configuration.sampleText
        for key in Configuration.keys {
            #expect(sample.contains("# " + key.doc + "\n# Takes " + key.expected + ".\n" + key.name + " = " + key.defaultValue + "\n"), "\(key)")
        }
        for line in sample.split(separator: "\n") { #expect(line.utf8.count <= 120, "\(line)") }
    }
}
