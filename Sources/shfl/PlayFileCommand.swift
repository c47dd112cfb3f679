import ShflAudio
import ShflCore
import ShflSystem

/// `shfl play-file FILE... [--device PCM] [--buffer-time US] [--period-time US] [--volume N]
/// [--rt-priority N] [--start MS]`: plays files (the first from MS milliseconds in) through the real decoder, audio thread and ALSA sink, one
/// after the other (gaplessly when their formats match) — the tool to try the audio adapters
/// by hand, like MPD's test/run_output. Exit status 1 if any file failed.
enum PlayFileCommand {
    static let usage = "usage: shfl play-file FILE... [--device PCM] [--buffer-time US] [--period-time US] [--volume 0-100] [--rt-priority N] [--start MS]"

    static func run(_ arguments: [String]) -> Int32 {
        let command: CommandOptions
        do {
            command = try CommandOptions.parse(
                arguments[...], valued: ["--device", "--buffer-time", "--period-time", "--volume", "--rt-priority", "--start"],
                flags: [], positionals: true)
        } catch {
            return fail(error.message)
        }
        let files = command.positionals
        let device = command.value("--device") ?? "default"
        var bufferTime: UInt32 = 200_000
        var periodTime: UInt32 = 20_000
        var volume = 100
        var priority: Int32?
        var start = Duration.zero
        if let value = command.value("--buffer-time") {
            guard let number = UInt32(value) else { return fail("bad --buffer-time '" + value + "'") }
            bufferTime = number
        }
        if let value = command.value("--period-time") {
            guard let number = UInt32(value) else { return fail("bad --period-time '" + value + "'") }
            periodTime = number
        }
        if let value = command.value("--start") {
            guard let number = Int64(value), number >= 0 else { return fail("bad --start '" + value + "' (milliseconds)") }
            start = .milliseconds(number)
        }
        if let value = command.value("--volume") {
            guard let number = Int(value), (0...100).contains(number) else { return fail("bad --volume '" + value + "' (0-100)") }
            volume = number
        }
        if let value = command.value("--rt-priority") {
            guard let number = Int32(value) else { return fail("bad --rt-priority '" + value + "'") }
            priority = number
        }
        guard !files.isEmpty else { return fail("no file given") }

        let sink = ALSAAudioSink(device: device, bufferTime: bufferTime, periodTime: periodTime)
        let decoder: Mpg123Decoder
        let engine: AudioEngine<Mpg123Decoder, ALSAAudioSink>
        do {
            decoder = try Mpg123Decoder()
        } catch {
            StandardStreams.writeLine("shfl play-file: " + error.description, toError: true)
            return 1
        }
        do {
            engine = try AudioEngine(decoder: decoder, sink: sink)
            try engine.start(realTimePriority: priority)
        } catch {
            StandardStreams.writeLine("shfl play-file: cannot start the audio thread: " + error.description, toError: true)
            return 1
        }
        engine.send(.setVolume(volume))
        var failures = 0
        var poller = Poller()
        poller.watch(engine.reportDescriptor)
        for (number, file) in files.enumerated() {
            let ticket = number + 1
            engine.send(.play(FilePath(file), from: number == 0 ? start : .zero, ticket: ticket))
            var done = false
            while !done {
                do {
                    _ = try poller.wait()
                } catch {
                    StandardStreams.writeLine("shfl play-file: poll: " + error.description, toError: true)
                    return 1
                }
                for report in engine.takeReports() {
                    switch report {
                    case .started(ticket, let info):
                        StandardStreams.writeLine("playing " + file + ": " + describe(info))
                    case .finished(ticket):
                        done = true
                    case .failed(ticket, let reason):
                        StandardStreams.writeLine("<4>skipped: " + reason, toError: true)
                        failures += 1
                        done = true
                    case .deviceFailed(let message):
                        StandardStreams.writeLine("<3>" + message, toError: true)
                    case .underruns(let count):
                        StandardStreams.writeLine("<4>underruns: " + String(count), toError: true)
                    default:
                        break
                    }
                }
            }
        }
        engine.stopThread()
        do {
            try sink.drain()
        } catch {
            StandardStreams.writeLine("<3>" + error.description, toError: true)
        }
        sink.close()
        return failures == 0 ? 0 : 1
    }

    static func describe(_ info: TrackInfo) -> String {
        var text = info.format.description
        if let frames = info.frameCount, info.format.sampleRate > 0 {
            text += ", " + Duration.milliseconds(Int64(frames) * 1_000 / Int64(info.format.sampleRate)).millisecondsDescription
        }
        if let title = info.title { text += ", \"" + title + "\"" }
        if let artist = info.artist { text += " by " + artist }
        return text
    }

    private static func fail(_ message: String) -> Int32 {
        StandardStreams.writeLine("shfl play-file: " + message, toError: true)
        StandardStreams.writeLine(usage, toError: true)
        return 2
    }
}
