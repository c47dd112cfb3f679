import ShflCore
import ShflMedia
import ShflSystem

/// `shfl scan PATH [--policy NAME] [--seed N] [--max-depth N] [--max-entries N]
/// [--max-folders N] [--max-tracks N] [--time-limit-ms N]`: scans a mounted stick (or any folder) as the player would, and prints
/// what was skipped and why, the tracks chosen, "N/120" and the policy or playlist that chose.
/// Exit status 0, 1 when PATH cannot be scanned, 2 for a usage error.
enum ScanCommand {
    static let usage = "usage: shfl scan PATH [--policy alphabetical|recently-added|most-played|recently-played|random] [--seed N] [--max-depth N] [--max-entries N] [--max-folders N] [--max-tracks N] [--time-limit-ms N]"

    static func run(_ arguments: [String]) -> Int32 {
        let numbers = ["--seed", "--max-depth", "--max-entries", "--max-folders", "--max-tracks", "--time-limit-ms"]
        let options: CommandOptions
        do {
            options = try CommandOptions.parse(arguments[...], valued: ["--policy"] + numbers, flags: [], positionals: true)
        } catch {
            return usageError(error.message)
        }
        guard let path = options.positionals.first else { return usageError("PATH is missing") }
        guard options.positionals.count == 1 else { return usageError("unexpected argument '" + options.positionals[1] + "'") }
        var policy = SelectionPolicy.default
        if let name = options.value("--policy") {
            guard let parsed = SelectionPolicy(configName: name) else {
                return usageError("--policy needs one of alphabetical, recently-added, most-played, recently-played, random")
            }
            policy = parsed
        }
        var seed: UInt64 = 0
        var limits = ScanLimits.standard
        for name in numbers {
            guard let text = options.value(name) else { continue }
            guard let number = Int(text), number >= 0 else { return usageError(name + " needs a number >= 0") }
            switch name {
            case "--seed": seed = UInt64(number)
            case "--max-depth": limits.maximumDepth = number
            case "--max-entries": limits.maximumEntries = number
            case "--max-folders": limits.maximumFolders = number
            case "--max-tracks": limits.maximumTracks = number
            default: limits.timeLimit = .milliseconds(Int64(number))
            }
        }

        let scanner = StickScanner(limits: limits, clock: SystemMonotonicClock())
        let scan: StickScan
        do {
            scan = try scanner.scan(FilePath(path))
        } catch {
            StandardStreams.writeLine("shfl scan: " + error.description, toError: true)
            return 1
        }
        let selection = scan.selection(policy: policy, seed: seed)
        StandardStreams.writeLine(scan.root.description + ": " + scan.summary)
        StandardStreams.writeLine("limits: " + limits.description)
        if let stop = scan.stop { StandardStreams.writeLine("scan " + stop.description) }
        for note in scan.notes { StandardStreams.writeLine("skipped " + note.description) }
        if scan.unlistedNotes > 0 {
            StandardStreams.writeLine(String(scan.unlistedNotes) + " more skipped entries not listed one by one")
        }
        for note in selection.notes { StandardStreams.writeLine(note.description) }
        StandardStreams.writeLine("tracks:")
        for track in selection.tracks { StandardStreams.writeLine("  " + track.description) }
        StandardStreams.writeLine(selection.capacityDescription + " tracks, chosen by " + selection.source.description
            + " from " + String(selection.candidateCount) + " MP3 files")
        return 0
    }

    private static func usageError(_ message: String) -> Int32 {
        StandardStreams.writeLine("shfl scan: " + message, toError: true)
        StandardStreams.writeLine(usage, toError: true)
        return 2
    }
}
