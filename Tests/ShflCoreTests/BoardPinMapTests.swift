import Foundation
import ShflCore
import Testing

/// The pin map files under board/ and their parser.
@Suite struct BoardPinMapTests {
    static let boardDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("board")

    static func shippedFile(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: boardDirectory.appendingPathComponent(name + ".ini")))
    }

    func parse(_ text: String, file: String = "test.ini") throws(BoardPinMapError) -> BoardPinMap {
        try BoardPinMap.parse(Array(text.utf8), name: "test", file: file)
    }

    func error(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error.description
        }
    }

    static let minimal = """
        [board]
        chip = pinctrl-bcm2711
        header = raspberry-pi-40
        [play]
        line = 17
        [skip]
        line = 27
        [led]
        line = 24
        """

    // MARK: The shipped files

    @Test func theShippedListMatchesTheFilesInBoard() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.boardDirectory.path)
            .filter { $0.hasSuffix(".ini") && $0 != "shfl.ini" }.map { String($0.dropLast(4)) }  // shfl.ini: the sample configuration
        #expect(Set(files) == Set(BoardPinMap.shippedNames))
        #expect(files.count == BoardPinMap.shippedNames.count)
    }

    @Test(arguments: ["pi-zero-2-w", "pi-3", "pi-4", "pi-5"])
    func everyRaspberryPiFileHasTheDefaultWiring(name: String) throws {
        let map = try BoardPinMap.parse(try Self.shippedFile(name), name: name, file: "board/" + name + ".ini")
        #expect(map.name == name)
        #expect(map.header == .raspberryPi40)
        #expect(map.buttons == [
            .play: BoardPin(line: 17, headerPin: 11), .skip: BoardPin(line: 27, headerPin: 13),
            .volumeUp: BoardPin(line: 22, headerPin: 15), .volumeDown: BoardPin(line: 23, headerPin: 16),
        ])
        #expect(map.led == BoardPin(line: 24, headerPin: 18))
        #expect(map.ledPolarity == .activeHigh)
        #expect(map.model?.hasPrefix("Raspberry Pi") == true)
        #expect(map.wiredButtons == Button.allCases)
    }

    /// Labels as the kernels report them (gpiodetect on each board): pinctrl-bcm2835 on the
    /// BCM2837 of the Zero 2 W and 3, pinctrl-bcm2711 on the Pi 4, pinctrl-rp1 on the Pi 5,
    /// and the pl061 driver's device name on QEMU's virt board ("gpiochip0 [9030000.pl061]
    /// (8 lines)").
    @Test func chipLabelsAndModels() throws {
        var labels: [String: String] = [:]
        var models: [String: String] = [:]
        for name in BoardPinMap.shippedNames {
            let map = try BoardPinMap.parse(try Self.shippedFile(name), name: name, file: name + ".ini")
            labels[name] = map.chipLabel
            models[name] = map.model
        }
        #expect(labels == [
            "pi-zero-2-w": "pinctrl-bcm2835", "pi-3": "pinctrl-bcm2835", "pi-4": "pinctrl-bcm2711",
            "pi-5": "pinctrl-rp1", "virt": "9030000.pl061",
        ])
        // Each model string starts only its own board's device-tree model.
        let deviceTrees = [
            "pi-zero-2-w": "Raspberry Pi Zero 2 W Rev 1.0", "pi-3": "Raspberry Pi 3 Model B Plus Rev 1.3",
            "pi-4": "Raspberry Pi 4 Model B Rev 1.4", "pi-5": "Raspberry Pi 5 Model B Rev 1.0", "virt": "linux,dummy-virt",
        ]
        for (board, tree) in deviceTrees {
            let matching = BoardPinMap.shippedNames.filter { models[$0].map { tree.hasPrefix($0) } ?? false }
            #expect(matching == [board], "\(tree)")
        }
    }

    @Test func theVirtBoardLeavesLineThreeToGpioKeys() throws {
        let map = try BoardPinMap.parse(try Self.shippedFile("virt"), name: "virt", file: "virt.ini")
        let lines = map.wiredButtons.compactMap { map.buttons[$0]?.line } + [map.led.line]
        #expect(lines.sorted() == [0, 1, 2, 4, 5])
        #expect(lines.allSatisfy { $0 < 8 })
        #expect(map.header == BoardHeader.none)
        #expect(map.description == "board virt (QEMU arm64 virt (emulated)), chip 9030000.pl061: PLAY on line 0, SKIP on line 1, VOL+ on line 2, VOL- on line 4, LED on line 5")
    }

    @Test func descriptionNamesEveryPart() throws {
        let map = try BoardPinMap.parse(try Self.shippedFile("pi-4"), name: "pi-4", file: "pi-4.ini")
        #expect(map.description == "board pi-4 (Raspberry Pi 4 / 400), chip pinctrl-bcm2711: PLAY on GPIO17 (pin 11), SKIP on GPIO27 (pin 13), VOL+ on GPIO22 (pin 15), VOL- on GPIO23 (pin 16), LED on GPIO24 (pin 18)")
    }

    // MARK: The format

    @Test func minimalFileDerivesPinsAndDefaults() throws {
        let map = try parse(Self.minimal)
        #expect(map.title == "test")
        #expect(map.model == nil)
        #expect(map.buttons == [.play: BoardPin(line: 17, headerPin: 11), .skip: BoardPin(line: 27, headerPin: 13)])
        #expect(map.wiredButtons == [.play, .skip])
        #expect(map.placeDescription(of: .button(.volumeUp)) == "VOL+ (not wired)")
        #expect(map.led == BoardPin(line: 24, headerPin: 18))
        #expect(map.ledPolarity == .activeHigh)
    }

    @Test func byteOrderMarkCRLFCommentsAndLetterCase() throws {
        let text = "\u{FEFF}; a comment\r\n[Board]  # trailing\r\nCHIP = my-chip#1   ; the label\r\nHeader = NONE\r\n\r\n"
            + "[PLAY]\r\nline=3\r\n[vol+]\r\nline = 4\r\n[skip]\r\n\tline\t=\t5\t\r\n[led]\r\nline = 6\r\nactive = Low\r\n"
        let map = try parse(text)
        #expect(map.chipLabel == "my-chip#1")
        #expect(map.header == BoardHeader.none)
        #expect(map.buttons == [.play: BoardPin(line: 3), .volumeUp: BoardPin(line: 4), .skip: BoardPin(line: 5)])
        #expect(map.ledPolarity == .activeLow)
        #expect(map.description.hasSuffix("LED on line 6 (active low)"))
    }

    @Test func polarityGivesTheLineValue() {
        #expect(LinePolarity.activeHigh.lineValue(lit: true) == 1)
        #expect(LinePolarity.activeHigh.lineValue(lit: false) == 0)
        #expect(LinePolarity.activeLow.lineValue(lit: true) == 0)
        #expect(LinePolarity.activeLow.lineValue(lit: false) == 1)
    }

    /// Broken files and the error each must give.
    static let brokenFiles: [(text: String, expected: String)] = [
        // Unknown key, with the keys that section takes.
        (Self.minimal.replacingOccurrences(of: "line = 27", with: "lne = 27"),
         "board/x.ini:7: unknown key 'lne' in [skip] (expected line or pin)"),
        (Self.minimal + "\ncolour = red", "board/x.ini:10: unknown key 'colour' in [led] (expected line, pin or active)"),
        // A key given twice.
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line = 17\nline = 18"),
         "board/x.ini:6: duplicate key 'line' in [play] (first at line 5)"),
        // A section given twice.
        (Self.minimal + "\n[play]\nline = 5", "board/x.ini:10: duplicate section [play] (first at line 4)"),
        // One line for two parts.
        (Self.minimal.replacingOccurrences(of: "line = 24", with: "line = 17"),
         "board/x.ini:9: GPIO17 is already used by PLAY (line 5)"),
        // Missing parts.
        (Self.minimal.replacingOccurrences(of: "[led]\nline = 24", with: ""),
         "board/x.ini:7: missing [led] section: the LED's line is required"),
        (Self.minimal.replacingOccurrences(of: "[skip]\nline = 27\n", with: ""),
         "board/x.ini:7: missing [skip] section: SKIP is required"),
        (Self.minimal.replacingOccurrences(of: "line = 27", with: "pin = 13"),
         "board/x.ini:6: [skip] has no 'line' (the chip's line number for SKIP)"),
        (Self.minimal.replacingOccurrences(of: "chip = pinctrl-bcm2711\n", with: ""),
         "board/x.ini:1: [board] has no 'chip' (the GPIO chip's label, e.g. chip = pinctrl-bcm2711)"),
        ("[play]\nline = 1", "board/x.ini:2: missing [board] section (with the GPIO chip's label: chip = ...)"),
        // Header pins that do not carry the line.
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line = 17\npin = 12"),
         "board/x.ini:6: pin 12 is GPIO18, not GPIO17"),
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line = 17\npin = 9"),
         "board/x.ini:6: pin 9 is GND, not GPIO17"),
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line = 17\npin = 41"),
         "board/x.ini:6: pin 41 is not on the 40-pin header (1 to 40)"),
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line = 30"),
         "board/x.ini:5: GPIO30 is not on the 40-pin header"),
        (Self.minimal.replacingOccurrences(of: "header = raspberry-pi-40", with: "header = none")
            .replacingOccurrences(of: "line = 17", with: "line = 17\npin = 11"),
         "board/x.ini:6: 'pin' needs a header, and [board] has header = none"),
        // Values.
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line = seventeen"),
         "board/x.ini:5: line must be a whole number, not 'seventeen'"),
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line = -1"),
         "board/x.ini:5: line must be a whole number, not '-1'"),
        (Self.minimal + "\nactive = bright", "board/x.ini:10: active must be high or low, not 'bright'"),
        (Self.minimal.replacingOccurrences(of: "raspberry-pi-40", with: "pi"),
         "board/x.ini:3: header must be raspberry-pi-40 or none, not 'pi'"),
        (Self.minimal.replacingOccurrences(of: "line = 17", with: "line ="), "board/x.ini:5: 'line' has no value"),
        // Syntax.
        (Self.minimal + "\n[lamp]", "board/x.ini:10: unknown section [lamp] (expected [board], [play], [skip], [volume-up], [volume-down] or [led])"),
        (Self.minimal + "\n[led", "board/x.ini:10: a section header must end with ']': '[led'"),
        (Self.minimal + "\nline 5", "board/x.ini:10: expected 'key = value', '[section]' or a comment: 'line 5'"),
        ("chip = x\n[board]", "board/x.ini:1: 'chip' is outside a section: put it under [board], [play], [skip], [volume-up], [volume-down] or [led]"),
        (Self.minimal + "\n= 5", "board/x.ini:10: a key is missing before '='"),
    ]

    /// Each broken file gives one error naming the file and the line to fix.
    @Test(arguments: brokenFiles)
    func brokenFilesNameFileAndLine(text: String, expected: String) {
        do {
            _ = try parse(text, file: "board/x.ini")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.description == expected)
            #expect(error.file == "board/x.ini")
        }
    }

    @Test func anEmptyFileLacksTheBoardSection() {
        #expect(error("") == "test.ini:1: missing [board] section (with the GPIO chip's label: chip = ...)")
    }

    // MARK: The header

    @Test func theFortyPinHeader() {
        var gpios: [Int] = []
        var grounds = 0
        var power = 0
        for pin in 1...40 {
            switch RaspberryPiHeader.function(ofPin: pin) {
            case .gpio(let line)?: gpios.append(line)
            case .ground?: grounds += 1
            case .power3V3?, .power5V?: power += 1
            case nil: Issue.record("pin \(pin) has no function")
            }
        }
        #expect(gpios.sorted() == Array(0...27))
        #expect(grounds == 8 && power == 4)
        #expect(RaspberryPiHeader.function(ofPin: 0) == nil && RaspberryPiHeader.function(ofPin: 41) == nil)
        // The wiring in README.md: lines and their pins, and the ground pins beside them.
        #expect([17, 27, 22, 23, 24].map { RaspberryPiHeader.pin(ofGPIO: $0) } == [11, 13, 15, 16, 18])
        #expect([9, 14, 20, 25, 30].allSatisfy { RaspberryPiHeader.function(ofPin: $0) == .ground })
        #expect(RaspberryPiHeader.pin(ofGPIO: 28) == nil)
    }
}
