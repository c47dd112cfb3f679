import CSystem

/// The process's command-line arguments, from `argv` as the C runtime passed it (Embedded
/// Swift has no `CommandLine`). Arguments that are not valid UTF-8 have U+FFFD in place.
public enum ProcessArguments {
    /// All arguments, the program name first.
    public static var all: [String] {
        let count = Int(shfl_argc())
        guard count > 0, let vector = shfl_argv() else { return [] }
        var arguments: [String] = []
        arguments.reserveCapacity(count)
        for index in 0..<count {
            guard let argument = vector[index] else { break }
            arguments.append(String(cString: argument))
        }
        return arguments
    }
}
