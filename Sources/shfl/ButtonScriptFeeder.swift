import CSystem
import ShflCore
import ShflSystem

/// Plays the fingers for `--simulated` runs of `board-check` and `gpio-monitor`: a thread
/// reads a script from standard input and sends its edges into `SocketPairButtonLines`, which
/// the command's event loop polls exactly as it polls the GPIO lines. So the same loop, timers
/// and LED driving run on a PC, in CI and in the firmware under qemu. One command per line:
///
///     press PLAY        a clean edge to pressed, stamped now (button names as Button(name:))
///     release PLAY      a clean edge to released
///     bounce PLAY 5     5 edges 1 ms apart from now, alternating, ending pressed
///     unbounce PLAY 5   the same, ending released
///     wait 250          pause the script for 250 ms (the only sleeping: a script, not the loop)
///
/// Blank lines and lines starting with "#" are skipped; a line it cannot read is reported on
/// standard error and skipped. With `stopAtEnd`, the end of the input sends SIGTERM to the
/// process, which the loop's signal descriptor turns into a clean stop (create that descriptor
/// first, so that this thread inherits the blocked signals).
enum ButtonScriptFeeder {
    static func start(sending sender: SocketPairButtonLines.Sender, stopAtEnd: Bool) throws(Errno) -> SystemThread {
        try SystemThread {
            let clock = SystemMonotonicClock()
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 512)
            let input = FileDescriptor(rawValue: 0)
            while true {
                let result = buffer.withUnsafeMutableBytes { raw in
                    Result { () throws(Errno) in try input.read(into: raw) }
                }
                guard case .success(let count) = result, count > 0 else { break }
                pending.append(contentsOf: buffer[0..<count])
                while let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    perform(String(decoding: pending[0..<end], as: UTF8.self), sender: sender, clock: clock)
                    pending.removeSubrange(0...end)
                }
            }
            if !pending.isEmpty { perform(String(decoding: pending, as: UTF8.self), sender: sender, clock: clock) }
            if stopAtEnd { _ = kill(getpid(), SIGTERM) }
        }
    }

    static func perform(_ line: String, sender: SocketPairButtonLines.Sender, clock: SystemMonotonicClock) {
        let words = line.split(separator: " ").map { String($0) }
        guard let command = words.first, !command.hasPrefix("#") else { return }
        let button = words.count > 1 ? Button(name: words[1]) : nil
        let number = words.count > 2 ? Int(words[2]) : (command == "wait" && words.count == 2 ? Int(words[1]) : nil)
        do throws(DeviceError) {
            switch (command, button, number) {
            case ("press", let button?, nil):
                try sender.press(button, at: clock.now)
            case ("release", let button?, nil):
                try sender.release(button, at: clock.now)
            case ("bounce", let button?, let count?), ("unbounce", let button?, let count?):
                let level: ButtonLevel = command == "bounce" ? .pressed : .released
                let other: ButtonLevel = level == .pressed ? .released : .pressed
                let start = clock.now
                let edges = max(1, min(count, 100))
                for index in 0..<edges {
                    let towards = (edges - 1 - index) % 2 == 0 ? level : other
                    try sender.send(ButtonEdge(button: button, level: towards, time: start + .milliseconds(Int64(index))))
                }
            case ("wait", nil, let milliseconds?) where milliseconds >= 0:
                var request = timespec()
                request.tv_sec = milliseconds / 1_000
                request.tv_nsec = (milliseconds % 1_000) * 1_000_000
                var remaining = timespec()
                while nanosleep(&request, &remaining) != 0 && shfl_errno() == EINTR { request = remaining }
            default:
                StandardStreams.writeLine("simulated buttons: cannot read '" + line + "'", toError: true)
            }
        } catch {
            StandardStreams.writeLine("simulated buttons: " + error.description, toError: true)
        }
    }
}
