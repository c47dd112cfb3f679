import CSystem
import ShflCore
import ShflSystem
import ShflTestKit
import Testing

/// The fd-backed simulated buttons: a real socket pair, polled like the GPIO lines.
@Suite struct SocketPairButtonLinesTests {
    /// Whether `lines.pollDescriptor` is readable within `milliseconds`.
    func isReadable(_ lines: SocketPairButtonLines, within milliseconds: Int32 = 0) throws -> Bool {
        var poller = Poller()
        let index = poller.watch(FileDescriptor(rawValue: lines.pollDescriptor))
        _ = try poller.wait(timeoutMilliseconds: milliseconds)
        return poller.isReady(index)
    }

    @Test(arguments: [[Button.play, .skip], Button.allCases, [.volumeDown]])
    func meetsTheButtonLinesContract(buttons: [Button]) throws {
        let clock = SystemMonotonicClock()
        let lines = try SocketPairButtonLines(buttons: buttons)
        let sender = lines.sender
        try checkButtonLinesContract(lines) { button, level in
            #expect(throws: Never.self) { try sender.send(ButtonEdge(button: button, level: level, time: clock.now)) }
        }
    }

    @Test func theDescriptorIsReadableExactlyWhileEdgesWait() throws {
        let lines = try SocketPairButtonLines()
        #expect(try !isReadable(lines))
        try lines.sender.press(.play, at: .milliseconds(10))
        try lines.sender.release(.play, at: .milliseconds(90))
        #expect(try isReadable(lines))
        // Sampling the level takes the edges off the socket, but keeps them for readEdges.
        #expect(try lines.level(of: .play) == .released)
        #expect(try !isReadable(lines))
        var edges: [ButtonEdge] = []
        try lines.readEdges(into: &edges)
        #expect(edges == [
            ButtonEdge(button: .play, level: .pressed, time: .milliseconds(10)),
            ButtonEdge(button: .play, level: .released, time: .milliseconds(90)),
        ])
        edges = []
        try lines.readEdges(into: &edges)
        #expect(edges.isEmpty)
    }

    @Test func edgesKeepTheirTimestampsAndUnwiredButtonsAreDropped() throws {
        let lines = try SocketPairButtonLines(buttons: [.skip], levels: [.skip: .pressed])
        #expect(try lines.level(of: .skip) == .pressed)
        #expect(throws: DeviceError.self) { try lines.level(of: .play) }
        let extreme = Instant(nanoseconds: .min)
        try lines.sender.press(.play, at: .zero)
        try lines.sender.release(.skip, at: extreme)
        var edges: [ButtonEdge] = []
        try lines.readEdges(into: &edges)
        #expect(edges == [ButtonEdge(button: .skip, level: .released, time: extreme)])
        #expect(lines.droppedMessageCount == 1)
    }

    @Test func anotherThreadFeedsTheLinesWhileTheLoopPolls() throws {
        let lines = try SocketPairButtonLines(buttons: [.play])
        let sender = lines.sender
        let count = 2_000
        let feeder = try SystemThread {
            var index = 0
            while index < count {
                let edge = ButtonEdge(button: .play, level: index % 2 == 0 ? .pressed : .released, time: .milliseconds(Int64(index)))
                do {
                    try sender.send(edge)
                    index += 1
                } catch {
                    sched_yield()  // the socket is full until the loop reads: try again
                }
            }
        }
        var edges: [ButtonEdge] = []
        while edges.count < count {
            #expect(try isReadable(lines, within: 5_000))
            try lines.readEdges(into: &edges)
        }
        feeder.join()
        #expect(edges.map(\.time) == (0..<count).map { Instant.milliseconds(Int64($0)) })
        #expect(try lines.level(of: .play) == .released)
    }

    /// The bounce storms of the core's tests, through the socket and `poll()`: the same
    /// gestures come out as when the edges are handed over directly.
    @Test func bounceStormsThroughTheDescriptorGiveTheSameGestures() throws {
        var generator = SeededGenerator(seed: 0x50C_4E7)
        var script: [ButtonEdge] = []
        var time = Instant.milliseconds(100)
        for _ in 0..<300 {
            let button: Button = generator.next(below: 2) == 0 ? .play : .skip
            for level in [ButtonLevel.pressed, .released] {
                let edges = 1 + generator.next(below: 20)
                var at = time
                for index in 0..<edges {
                    let towards = (edges - 1 - index) % 2 == 0 ? level : (level == .pressed ? .released : .pressed)
                    script.append(ButtonEdge(button: button, level: towards, time: at))
                    at = at + .microseconds(Int64(generator.next(below: 15_000 / edges + 1)))
                }
                time = at + .milliseconds(Int64(30 + generator.next(below: 300)))
            }
        }
        let initial: [Button: ButtonLevel] = [.play: .released, .skip: .released]
        var direct = ButtonInput(settings: .standard, initialLevels: initial, now: .zero)
        let expected = direct.handle(script, now: time + .seconds(1))
        #expect(expected.count == 300)

        let lines = try SocketPairButtonLines()
        var input = ButtonInput(settings: .standard, initialLevels: initial, now: .zero)
        var recognized: [RecognizedGesture] = []
        for chunk in stride(from: 0, to: script.count, by: 7) {
            for edge in script[chunk..<min(chunk + 7, script.count)] { try lines.sender.send(edge) }
            #expect(try isReadable(lines, within: 1_000))
            var edges: [ButtonEdge] = []
            try lines.readEdges(into: &edges)
            recognized += input.handle(edges, now: edges.last?.time ?? .zero)
        }
        recognized += input.advance(to: time + .seconds(1))
        #expect(recognized == expected)
    }

    @Test func aClosedLineSetThrows() throws {
        let lines = try SocketPairButtonLines()
        lines.close()
        lines.close()
        var edges: [ButtonEdge] = []
        #expect(throws: DeviceError.self) { try lines.readEdges(into: &edges) }
    }
}
