import ShflCore
import ShflSimulated

extension SelfCheck {
    /// A pin map parsed and a broken one refused with its line; a board check run on simulated
    /// lines and manual time, through the debouncer, with one button never pressed.
    mutating func checkBoard() {
        let text = "\u{FEFF}# test\r\n[board]\r\nchip = pinctrl-bcm2711 ; label\r\nheader = Raspberry-Pi-40\r\n"
            + "[play]\r\nline = 17\r\npin = 11\r\n[SKIP]\r\nline = 27\r\n[vol+]\r\nline = 22\r\n[led]\r\nline = 24\r\nactive = low\r\n"
        var checksum = Checksum()
        let pinMap: BoardPinMap
        do {
            pinMap = try BoardPinMap.parse(Array(text.utf8), name: "test", file: "test.ini")
        } catch {
            expect(false, "board pin map refused: " + error.description)
            return
        }
        checksum.add(Array(pinMap.description.utf8))
        expect(pinMap.buttons[.skip] == BoardPin(line: 27, headerPin: 13), "board pin map: SKIP is not GPIO27 (pin 13)")
        var refused = ""
        do {
            _ = try BoardPinMap.parse(Array((text + "[play]\nline = 5\n").utf8), name: "test", file: "test.ini")
        } catch {
            refused = error.description
        }
        expect(refused == "test.ini:15: duplicate section [play] (first at line 5)", "board pin map: wrong error '" + refused + "'")

        let buttons = SimulatedButtonLines(buttons: [.play, .skip, .volumeUp])
        buttons.bounce(.play, to: .pressed, at: .milliseconds(3_000), edges: 7)
        buttons.bounce(.play, to: .released, at: .milliseconds(3_400), edges: 3)
        buttons.press(.skip, at: .milliseconds(3_700))
        buttons.release(.skip, at: .milliseconds(3_800))
        var edges: [ButtonEdge] = []
        do {
            try buttons.readEdges(into: &edges)
        } catch {
            expect(false, "board check: " + error.description)
        }
        let levels: [Button: ButtonLevel] = [.play: .released, .skip: .released, .volumeUp: .released]
        var input = ButtonInput(settings: .standard, initialLevels: levels, now: .zero)
        var check = BoardCheck(buttons: [.play, .skip, .volumeUp], timeout: .seconds(5), start: .zero)
        var events = check.begin(levels: levels)
        var pending = edges[...]
        var now = Instant.zero
        while !check.isFinished {
            let candidates = [pending.first?.time, input.nextDeadline, check.nextDeadline]
            var due: Instant?
            for case let candidate? in candidates where due.map({ candidate < $0 }) ?? true { due = candidate }
            guard let due else { break }
            now = due
            var delivered: [ButtonEdge] = []
            while let edge = pending.first, edge.time <= now {
                delivered.append(edge)
                pending.removeFirst()
            }
            var changes: [SettledLevelChange] = []
            _ = input.handle(delivered, now: now, levelChanges: &changes)
            events += check.handle(changes, now: now)
        }
        for event in events { checksum.add(Array(event.message(on: pinMap).utf8)) }
        for change in check.light.timeline(from: .zero, until: .milliseconds(4_000)) {
            checksum.add(Int(change.instant.nanoseconds))
        }
        expect(check.failures == [.notPressed(.volumeUp)], "board check: failures are not just VOL+")
        lines.append("board: pin map " + String(pinMap.wiredButtons.count) + " buttons + LED, broken file refused, check "
            + String(events.count) + " events, ends at " + now.description + ", checksum " + checksum.hex)
    }
}
