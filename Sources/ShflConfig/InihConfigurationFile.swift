import CInih
import CSystem
import ShflCore
import ShflSystem

/// Reads the configuration file (SPEC §8) with libinih: each `key = value` line goes to a
/// `ConfigurationBuilder`, which applies it or reports it; the result is every setting
/// (defaults where the file is silent or wrong) and every problem, naming file, line and key.
/// Never fails: a missing file gives the defaults and one notice, an unreadable one the
/// defaults and a warning saying why.
///
/// The syntax is inih's, as Debian builds it: `[section]` headings, `key = value` (or
/// `key: value`), comments starting with `#` or `;` at the start of a line or with " ;" after
/// a value, a UTF-8 byte order mark allowed, CRLF line ends fine. Two choices of ours, made in
/// the line reader (`InihLineReader`) that feeds inih through `ini_parse_stream`:
/// - line numbers are counted by the reader, so they do not depend on how the library was
///   built (`INI_HANDLER_LINENO`) — see Sources/CInih/shim.h;
/// - leading spaces are dropped, so an indented line is an ordinary line (inih would make it a
///   continuation of the previous value), and a line longer than inih's buffer (200 bytes) is
///   reported and skipped as a whole (inih would cut it in two and read the tail as a line of
///   its own).
/// inih reports only the first syntax error of a parse; the reader restarts after each one
/// to report up to `maximumSyntaxErrors` of them.
public enum InihConfigurationFile {
    /// Configuration files are small; a longer one is refused rather than read.
    public static let maximumFileSize = 64 * 1_024
    /// The most syntax errors reported one by one.
    public static let maximumSyntaxErrors = 20

    /// Reads and applies the file at `path` (`Configuration.defaultFile` unless the command
    /// line says otherwise). Problems name the file as `path`.
    public static func load(path: String) -> LoadedConfiguration {
        var builder = ConfigurationBuilder(file: path)
        switch read(path) {
        case .success(let contents):
            parse(contents, into: &builder)
        case .failure(let problem):
            builder.report(problem.problem)
        }
        return builder.finish()
    }

    /// Parses `contents` as the text of a file named `file` (tests, and `load`).
    public static func parse(_ contents: [UInt8], file: String) -> LoadedConfiguration {
        var builder = ConfigurationBuilder(file: file)
        parse(contents, into: &builder)
        return builder.finish()
    }

    /// Feeds every line of `contents` to `builder`, then the syntax errors.
    static func parse(_ contents: [UInt8], into builder: inout ConfigurationBuilder) {
        let reader = InihLineReader(contents, builder: builder)
        let handler: ini_handler = { user, section, name, value, _ in
            guard let user else { return 0 }
            let reader = Unmanaged<InihLineReader>.fromOpaque(user).takeUnretainedValue()
            reader.entry(
                section: section.map { String(cString: $0) } ?? "", key: name.map { String(cString: $0) } ?? "",
                value: value.map { String(cString: $0) } ?? "")
            return 1
        }
        let nextLine: ini_reader = { buffer, size, stream in
            guard let buffer, let stream else { return nil }
            let reader = Unmanaged<InihLineReader>.fromOpaque(stream).takeUnretainedValue()
            return reader.nextLine(into: buffer, capacity: Int(size))
        }
        withExtendedLifetime(reader) {
            let context = Unmanaged.passUnretained(reader).toOpaque()
            // The first pass applies every `key = value` line; inih returns the first line it
            // could not read. Later passes start after that line, only to find the next one.
            var result = ini_parse_stream(nextLine, context, handler, context)
            reader.isFirstPass = false
            var reported = 0
            while result != 0 {
                if result < 0 {
                    reader.report(nil, "the INI parser failed (ini_parse_stream returned " + String(result) + ")")
                    break
                }
                let line = reader.passStart + Int(result)
                guard reported < maximumSyntaxErrors else {
                    reader.report(line, "more lines that cannot be read follow; not listed one by one")
                    break
                }
                reader.reportSyntaxError(line: line)
                reported += 1
                reader.restart(atLine: line + 1)
                result = ini_parse_stream(nextLine, context, handler, context)
            }
        }
        builder = reader.builder
    }

    private struct ReadProblem: Error {
        var problem: ConfigurationProblem
    }

    /// The file's bytes, or the problem that says why there are none. Opened non-blocking so
    /// that a FIFO cannot hang the daemon; only a regular file is read.
    private static func read(_ path: String) -> Result<[UInt8], ReadProblem> {
        func failure(_ level: LogLevel, _ message: String) -> Result<[UInt8], ReadProblem> {
            .failure(ReadProblem(problem: ConfigurationProblem(.file, level, file: path, line: nil, message)))
        }
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        } catch {
            if error == .noEntry { return failure(.notice, "no such file; every key has its default") }
            return failure(.warning, "cannot be opened: " + error.description + "; every key has its default")
        }
        defer { file.close() }
        do {
            let status = try file.status()
            switch status.kind {
            case .regular: break
            case .directory: return failure(.warning, "is a directory; every key has its default")
            default: return failure(.warning, "is not a regular file; every key has its default")
            }
            let (bytes, isComplete) = try file.readAll(limit: maximumFileSize)
            guard isComplete else {
                return failure(.warning, "is longer than " + String(maximumFileSize) + " bytes, too long for a configuration file; every key has its default")
            }
            return .success(bytes)
        } catch {
            return failure(.warning, "cannot be read: " + error.description + "; every key has its default")
        }
    }
}
