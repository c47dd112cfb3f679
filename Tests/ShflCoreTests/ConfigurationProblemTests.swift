import ShflCore
import Testing

/// What a user sees for a wrong configuration: one problem naming file, line and key, saying
/// what was expected, and the key at its default while the other keys still apply.
@Suite struct ConfigurationProblemTests {
    static func load(_ lines: [(String, String, String)]) -> LoadedConfiguration {
        ConfigurationTests.load(lines, file: "/boot/firmware/shfl.ini")
    }

    @Test(arguments: [
        // (section, key, bad value, expected message after "FILE:2: ")
        ("volume", "initial", "loud", "[volume] initial: expected a whole number from 0 to 100, not 'loud'; using the default 50"),
        ("volume", "maximum", "150", "[volume] maximum: expected a whole number from 0 to 100, not '150'; using the default 100"),
        ("audio", "realtime-priority", "100", "[audio] realtime-priority: expected a whole number from 1 to 99, or off, not '100'; using the default 50"),
        ("player", "selection", "loudest", "[player] selection: expected alphabetical, recently-added, most-played, recently-played or random, not 'loudest'; using the default alphabetical"),
        ("player", "autoplay", "maybe", "[player] autoplay: expected true or false, not 'maybe'; using the default true"),
        ("audio", "buffer-time", "200", "[audio] buffer-time: expected a duration from 10ms to 2s with its unit (us, ms or s), not '200'; using the default 200ms"),
        ("audio", "period-time", "3s", "[audio] period-time: expected a duration from 1ms to 1s with its unit (us, ms or s), not '3s'; using the default 20ms"),
        ("buttons", "power-off-hold", "never", "[buttons] power-off-hold: expected a duration from 1s to 60s with its unit (us, ms or s), or off, not 'never'; using the default 6s"),
        ("buttons", "volume-repeat", "500ms", "[buttons] volume-repeat: expected off, or the first repeat's delay (100ms to 5s) and the interval (10ms to 2s) separated by a comma, not '500ms'; using the default 500ms, 250ms"),
        ("media", "filesystems", "vfat, btrfs", "[media] filesystems: expected a list of file systems from vfat, exfat, ext2, ext3, ext4, ntfs, separated by commas, not 'vfat, btrfs'; using the default vfat, exfat, ext4, ntfs"),
        ("media", "filesystems", "vfat, vfat", "[media] filesystems: expected a list of file systems from vfat, exfat, ext2, ext3, ext4, ntfs, separated by commas, not 'vfat, vfat'; using the default vfat, exfat, ext4, ntfs"),
        ("media", "source", "directory:sticks", "[media] source: expected udev, kernel or directory:PATH with an absolute PATH, not 'directory:sticks'; using the default udev"),
        ("system", "state-directory", "var/lib/shfl", "[system] state-directory: expected an absolute path (starting with /), not 'var/lib/shfl'; using the default /var/lib/shfl"),
        ("audio", "mixer", "", "[audio] mixer: expected auto, software or an ALSA card such as hw:0, not an empty value; using the default auto"),
        ("board", "led-active", "inverted", "[board] led-active: expected auto, high or low, not 'inverted'; using the default auto"),
    ])
    func aBadValueNamesFileLineAndKeyAndKeepsTheDefault(section: String, key: String, value: String, message: String) throws {
        let loaded = Self.load([("audio", "device", "hw:2"), (section, key, value), ("player", "autoplay", "false")])
        try #require(loaded.problems.count == 1)
        let problem = loaded.problems[0]
        #expect(problem.description == "/boot/firmware/shfl.ini:2: " + message)
        #expect(problem.kind == .badValue && problem.level == .warning && problem.line == 2)
        #expect(problem.key == "[" + section + "] " + key)
        #expect(problem.logMessage.description == "<4>config: " + problem.description)
        // The bad key has its default; the lines before and after still apply.
        var expected = Configuration()
        expected.audio.device = "hw:2"
        expected.player.autoplay = false
        #expect(loaded.configuration == expected)
        #expect(loaded.warnings.count == 1)
    }

    @Test func aBadValueAfterAGoodOneKeepsTheGoodOne() {
        let loaded = Self.load([("audio", "device", "hw:2"), ("audio", "device", "")])
        #expect(loaded.configuration.audio.device == "hw:2")
        #expect(loaded.problems.map { $0.description } == [
            "/boot/firmware/shfl.ini:2: [audio] device: expected an ALSA device name such as default, hw:1,0 or plughw:CARD=Headphones, not an empty value; keeping hw:2",
        ])
    }

    @Test func unknownKeysAndSectionsSuggestTheClosestName() {
        let loaded = Self.load([
            ("audio", "bufer-time", "100ms"),
            ("audio", "initial", "20"),
            ("audio", "colour", "red"),
            ("adio", "device", "hw:1"),
            ("adio", "mixer", "software"),
            ("", "device", "hw:1"),
            ("", "nothing", "1"),
            ("speakers", "device", "hw:1"),
            ("audio", "", "x"),
            ("audio", "period-time", "10ms"),
        ])
        #expect(loaded.problems.map { $0.description } == [
            "/boot/firmware/shfl.ini:1: unknown key 'bufer-time' in [audio] (did you mean buffer-time?); ignored",
            "/boot/firmware/shfl.ini:2: unknown key 'initial' in [audio] (it belongs in [volume]); ignored",
            "/boot/firmware/shfl.ini:3: unknown key 'colour' in [audio]; ignored",
            "/boot/firmware/shfl.ini:4: unknown section [adio] (did you mean [audio]?); its keys are ignored",
            "/boot/firmware/shfl.ini:6: 'device' is outside any section (did you mean [audio] device?); ignored",
            "/boot/firmware/shfl.ini:7: 'nothing' is outside any section; ignored",
            "/boot/firmware/shfl.ini:8: unknown section [speakers]; its keys are ignored",
            "/boot/firmware/shfl.ini:9: a value without a key; ignored",
        ])
        #expect(loaded.problems[0].kind == .unknownKey && loaded.problems[0].key == "[audio] bufer-time")
        #expect(loaded.problems[3].kind == .unknownSection)
        var expected = Configuration()
        expected.audio.periodTime = .milliseconds(10)
        #expect(loaded.configuration == expected)
    }

    @Test func aDuplicateKeyIsANoticeAndTheLaterLineCounts() {
        let loaded = Self.load([("audio", "device", "hw:1"), ("volume", "step", "2"), ("Audio", "Device", "hw:3")])
        #expect(loaded.configuration.audio.device == "hw:3")
        #expect(loaded.configuration.player.volume.step == 2)
        #expect(loaded.problems.map { $0.description } == [
            "/boot/firmware/shfl.ini:3: [audio] device is set again (first on line 1); this line counts",
        ])
        #expect(loaded.problems[0].level == .notice && loaded.problems[0].kind == .duplicateKey)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.line(of: Configuration.key(section: "audio", name: "device")!) == 3)
    }

    @Test func keysThatMustFitTogether() {
        let volume = Self.load([("volume", "maximum", "40"), ("volume", "minimum", "60"), ("volume", "initial", "30")])
        #expect(volume.configuration.player.volume == VolumeSettings(initial: 60, minimum: 60, maximum: 60, step: 5))
        #expect(volume.problems.map { $0.description } == [
            "/boot/firmware/shfl.ini:2: [volume] maximum 40 is below minimum 60; using 60",
            "/boot/firmware/shfl.ini:3: [volume] initial 30 is outside minimum 60 to maximum 60; using 60",
        ])
        #expect(volume.problems.allSatisfy { $0.kind == .conflict })

        let period = Self.load([("audio", "period-time", "150ms"), ("audio", "buffer-time", "200ms")])
        #expect(period.configuration.audio.periodTime == .milliseconds(20))
        #expect(period.problems.map { $0.description } == [
            "/boot/firmware/shfl.ini:2: [audio] period-time 150ms is more than half of buffer-time 200ms; using 20ms",
        ])
        let short = Self.load([("audio", "buffer-time", "30ms")])
        #expect(short.configuration.audio.periodTime == .microseconds(7_500))

        let hold = Self.load([("buttons", "power-off-hold", "2s")])
        #expect(hold.configuration.gestures.powerOffHold == .seconds(2))
        #expect(hold.problems.map { $0.description } == [
            "/boot/firmware/shfl.ini:1: [buttons] power-off-hold 2s is not longer than capacity-hold 2s: holding PLAY for the capacity powers the player off",
        ])
        #expect(Self.load([("buttons", "power-off-hold", "off"), ("buttons", "capacity-hold", "10s")]).problems.isEmpty)
    }

    @Test func problemsComeInLineOrderWithFileProblemsFirst() {
        var builder = ConfigurationBuilder(file: "x.ini")
        builder.add(section: "audio", key: "device", value: "", line: 5)
        builder.report(ConfigurationProblem(.syntax, file: "x.ini", line: 2, "expected key = value"))
        builder.report(ConfigurationProblem(.file, .notice, file: "x.ini", line: nil, "whole file"))
        #expect(builder.finish().problems.map { $0.line } == [nil, 2, 5])
    }
}
