import Foundation
import ShflConfig
import ShflCore
import Testing

/// The configuration file read by the real libinih: the INI syntax a user may write (comments,
/// spaces, CRLF, a byte order mark), line numbers, syntax errors, the file itself, the sample
/// board/shfl.ini and `shfl config`.
@Suite struct InihConfigurationFileTests {
    static let sampleFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("board/shfl.ini")

    func parse(_ text: String, file: String = "test.ini") -> LoadedConfiguration {
        InihConfigurationFile.parse(Array(text.utf8), file: file)
    }

    func descriptions(_ loaded: LoadedConfiguration) -> [String] {
        loaded.problems.map { $0.description }
    }

    // MARK: The sample file

    @Test func theSampleFileIsGeneratedFromTheKeyTable() throws {
        let sample = try String(contentsOf: Self.sampleFile, encoding: .utf8)
        #expect(sample == Configuration.sampleText, "regenerate it: swift run shfl config --sample > board/shfl.ini")
    }

    @Test func theSampleFileReadsBackAsExactlyTheDefaultsAndSetsEveryKey() throws {
        let loaded = InihConfigurationFile.load(path: Self.sampleFile.path)
        #expect(loaded.problems.isEmpty, "\(descriptions(loaded))")
        #expect(loaded.configuration == Configuration.defaults)
        let lines = try String(contentsOf: Self.sampleFile, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        for key in Configuration.keys {
            let line = try #require(loaded.line(of: key), "\(key) is not in the sample")
            #expect(lines[line - 1] == key.name + " = " + key.defaultValue)
            #expect(lines[line - 2] == "# Takes " + key.expected + ".")
            #expect(lines[line - 3] == "# " + key.doc)
        }
    }

    @Test func theEffectiveTextReadsBackToTheSameConfiguration() {
        let loaded = parse("""
            [board]
            name = /etc/shfl/board/mine.ini
            led-active = low
            [audio]
            device = file:'/tmp/x.raw',raw
            mixer = software
            buffer-time = 1.5s
            period-time = 2500us
            realtime-priority = off
            [volume]
            initial = 70
            [player]
            selection = most-played
            [buttons]
            power-off-hold = off
            volume-repeat = off
            [media]
            source = directory:/tmp/sticks
            filesystems = ext4
            scan-time = 100ms
            """)
        #expect(loaded.problems.isEmpty, "\(descriptions(loaded))")
        let text = loaded.configuration.text(lineOf: { loaded.line(of: $0) })
        let again = parse(text)
        #expect(again.problems.isEmpty, "\(descriptions(again))")
        #expect(again.configuration == loaded.configuration)
        #expect(again.configuration != Configuration())
    }

    // MARK: Syntax

    @Test func commentsSpacesAndLineNumbers() {
        let loaded = parse("""
            # a comment
            ; another comment

            [audio]
              device = hw:1,0     ; where the sound goes
            \tbuffer-time=100ms
            [ volume ]
            initial : 30
            # step = 99
            step = 10 # not a comment after a value

            [player]
            selection = random ;; twice
            """)
        #expect(loaded.configuration.audio.device == "hw:1,0")
        #expect(loaded.configuration.audio.bufferTime == .milliseconds(100))
        #expect(loaded.configuration.player.volume.initial == 30)
        #expect(loaded.configuration.player.volume.step == 5)
        #expect(loaded.configuration.selectionPolicy == .random)
        #expect(descriptions(loaded) == [
            "test.ini:10: [volume] step: expected a whole number from 1 to 100, not '10 # not a comment after a value'; using the default 5",
        ])
        #expect(loaded.line(of: Configuration.key(section: "audio", name: "device")!) == 5)
        #expect(loaded.line(of: Configuration.key(section: "player", name: "selection")!) == 13)
    }

    @Test func crlfLinesAndAByteOrderMarkAsWindowsEditorsWriteThem() {
        let text = "\u{FEFF}[audio]\r\ndevice = hw:2\r\nperiod-time = 10ms\r\n\r\n[volume]\r\nstep = 7\r\nbogus = 1\r\n"
        let loaded = parse(text)
        #expect(loaded.configuration.audio.device == "hw:2")
        #expect(loaded.configuration.audio.periodTime == .milliseconds(10))
        #expect(loaded.configuration.player.volume.step == 7)
        #expect(descriptions(loaded) == ["test.ini:7: unknown key 'bogus' in [volume]; ignored"])
        // The same file with LF only is the same configuration.
        let unix = parse(text.replacingOccurrences(of: "\r\n", with: "\n"))
        #expect(unix.configuration == loaded.configuration)
    }

    @Test func everySyntaxErrorIsReportedWithItsLineAndTheRestStillApplies() {
        let loaded = parse("""
            [audio]
            device
            period-time = 10ms
            device hw:1
            [volume
            step = 3
            just words
            [player]
            autoplay = false
            """)
        #expect(descriptions(loaded) == [
            "test.ini:2: expected key = value, a [section] heading or a # comment, not 'device'; ignored",
            // inih also takes "key: value", so this is key "device hw" with value "1".
            "test.ini:4: unknown key 'device hw' in [audio] (did you mean device?); ignored",
            "test.ini:5: a section heading needs its closing ]: '[volume'; the keys after it stay in the section before",
            "test.ini:6: unknown key 'step' in [audio] (it belongs in [volume]); ignored",
            "test.ini:7: expected key = value, a [section] heading or a # comment, not 'just words'; ignored",
        ])
        #expect(loaded.problems.allSatisfy { $0.level == .warning })
        #expect(loaded.configuration.audio.periodTime == .milliseconds(10))
        #expect(loaded.configuration.player.autoplay == false)
    }

    @Test func anUnknownSectionIsReportedOnceAtItsHeading() {
        let loaded = parse("[audio]\nmixer = software\n\n[speaker]\n# its keys:\ndevice = hw:1\nmixer = auto\n[Speaker]\nx = 1\n")
        #expect(descriptions(loaded) == ["test.ini:4: unknown section [speaker]; its keys are ignored"])
        #expect(loaded.configuration.audio.mixer == .software)
        #expect(loaded.configuration.audio.device == "default")
    }

    @Test func syntaxErrorsAreListedUpToALimit() {
        var text = "[audio]\n"
        for _ in 0..<30 { text += "nonsense\n" }
        text += "device = hw:5\n"
        let loaded = parse(text)
        #expect(loaded.problems.count == InihConfigurationFile.maximumSyntaxErrors + 1)
        #expect(loaded.problems.last?.description == "test.ini:22: more lines that cannot be read follow; not listed one by one")
        #expect(loaded.configuration.audio.device == "hw:5")
    }

    @Test func aLongLineIsSkippedWholeAndLaterLinesKeepTheirNumbers() {
        let long = "device = " + String(repeating: "x", count: 250) + " = evil"
        let loaded = parse("[audio]\n" + long + "\nperiod-time = 5ms\nmixer =\n")
        #expect(descriptions(loaded) == [
            "test.ini:2: line is longer than 198 characters; ignored",
            "test.ini:4: [audio] mixer: expected auto, software or an ALSA card such as hw:0, not an empty value; using the default auto",
        ])
        #expect(loaded.configuration.audio.device == "default")
        #expect(loaded.configuration.audio.periodTime == .milliseconds(5))
    }

    @Test func aNulByteSpoilsOnlyItsLine() {
        let loaded = InihConfigurationFile.parse(Array("[audio]\ndevice = hw:1\0junk\nmixer = software\n".utf8), file: "nul.ini")
        #expect(descriptions(loaded) == ["nul.ini:2: line holds a NUL byte; ignored"])
        #expect(loaded.configuration.audio.device == "default")
        #expect(loaded.configuration.audio.mixer == .software)
    }

    @Test func anEmptyFileAndAFileWithoutANewlineAtTheEnd() {
        #expect(parse("").configuration == Configuration())
        #expect(parse("").problems.isEmpty)
        #expect(parse("[audio]\ndevice = hw:9").configuration.audio.device == "hw:9")
    }

    // MARK: The file

    @Test func aMissingFileGivesTheDefaultsAndOneNotice() {
        let loaded = InihConfigurationFile.load(path: "/nonexistent/shfl.ini")
        #expect(loaded.configuration == Configuration())
        #expect(descriptions(loaded) == ["/nonexistent/shfl.ini: no such file; every key has its default"])
        #expect(loaded.problems[0].level == .notice)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.logMessages.map { $0.description } == ["<5>config: /nonexistent/shfl.ini: no such file; every key has its default"])
    }

    @Test func anUnreadableFileSaysWhy() throws {
        let directory = try MediaTestSupport.temporaryDirectory("config")
        defer { MediaTestSupport.remove(directory) }
        #expect(descriptions(InihConfigurationFile.load(path: directory)) == [directory + ": is a directory; every key has its default"])

        let fifo = directory + "/fifo.ini"
        #expect(mkfifo(fifo, 0o644) == 0)
        #expect(descriptions(InihConfigurationFile.load(path: fifo)) == [fifo + ": is not a regular file; every key has its default"])

        let big = directory + "/big.ini"
        try MediaTestSupport.makeFile(big, String(repeating: "# padding\n", count: 7_000))
        #expect(descriptions(InihConfigurationFile.load(path: big)) == [big + ": is longer than 65536 bytes, too long for a configuration file; every key has its default"])

        let file = directory + "/shfl.ini"
        try MediaTestSupport.makeFile(file, "[player]\nautoplay = false\n")
        #expect(InihConfigurationFile.load(path: file).configuration.player.autoplay == false)
        if MediaTestSupport.isRoot {
            #expect(chmod(file, 0) == 0)
            let (status, output) = try MediaTestSupport.run(
                "setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", MediaTestSupport.shflBinary, "config", "--config", file],
                check: false)
            #expect(status == 1)
            #expect(output.contains(file + ": cannot be opened: EACCES (Permission denied); every key has its default"))
            #expect(output.contains("autoplay = true\n"))
        }
    }

    // MARK: shfl config

    @Test func shflConfigPrintsProblemsAndTheEffectiveConfiguration() throws {
        let directory = try MediaTestSupport.temporaryDirectory("config")
        defer { MediaTestSupport.remove(directory) }
        let file = directory + "/shfl.ini"
        try MediaTestSupport.makeFile(file, "[audio]\ndevice = hw:1\nbuffer-time = 200\n[volume]\nstep = 2\n")
        let (status, output) = try MediaTestSupport.run(MediaTestSupport.shflBinary, ["config", "--config", file], check: false)
        #expect(status == 1)
        #expect(output.contains(file + ":3: [audio] buffer-time: expected a duration from 10ms to 2s with its unit (us, ms or s), not '200'; using the default 200ms\n"))
        #expect(output.contains("[audio]\ndevice = hw:1 ; line 2\nmixer = auto\nbuffer-time = 200ms\n"))
        #expect(output.contains("step = 2 ; line 5\n"))

        let good = try MediaTestSupport.run(MediaTestSupport.shflBinary, ["config", "--config", Self.sampleFile.path], check: false)
        #expect(good.status == 0)
        let sample = try MediaTestSupport.run(MediaTestSupport.shflBinary, ["config", "--sample"], check: false)
        #expect(sample.output == Configuration.sampleText)
        #expect(try MediaTestSupport.run(MediaTestSupport.shflBinary, ["config", "--bogus"], check: false).status == 2)
    }
}
