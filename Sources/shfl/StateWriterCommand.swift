import ShflCore
import ShflMedia
import ShflSimulated
import ShflSystem

/// `shfl state-writer DIR FIRST [COUNT]` (not in the usage text: a test aid): saves
/// `SampleStickStates.numbered(FIRST)`, `FIRST + 1`, ... through a `FileStateStore` in DIR,
/// one after the other, and prints "saved N" after each save returned. The power-cut test
/// kills it with SIGKILL at random instants and checks what survived. Stops after COUNT saves
/// (default 1,000,000) or at the first error (exit status 1).
enum StateWriterCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 2 || arguments.count == 3, let first = Int64(arguments[1]), first >= 0,
              let count = arguments.count == 3 ? Int64(arguments[2]) : 1_000_000
        else {
            StandardStreams.writeLine("usage: shfl state-writer DIR FIRST [COUNT]", toError: true)
            return 2
        }
        do {
            let store = try FileStateStore(directory: arguments[0])
            var serial = first
            while serial < first + count {
                try store.save(SampleStickStates.numbered(serial))
                StandardStreams.writeLine("saved " + String(serial))
                serial += 1
            }
        } catch {
            StandardStreams.writeLine("shfl state-writer: " + error.description, toError: true)
            return 1
        }
        return 0
    }
}
