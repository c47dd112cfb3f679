import Foundation
import ShflCore
import Testing

/// The audio fixtures made by tests/fixtures/make-audio-fixtures.sh (sox + lame), with their
/// bit-exact references from `mpg123 -s`. Generated on first use into .build-fixtures/audio.
enum AudioFixtures {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let directory = repository.appendingPathComponent(".build-fixtures/audio")

    private static let generated: Result<Void, GenerationError> = {
        let script = repository.appendingPathComponent("tests/fixtures/make-audio-fixtures.sh").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script, directory.path]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            return .failure(GenerationError(message: "cannot run " + script + ": \(error)"))
        }
        return process.terminationStatus == 0 ? .success(()) : .failure(GenerationError(message: script + " failed (needs sox, lame, mpg123: make deps)"))
    }()

    struct GenerationError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    static func path(_ name: String) throws -> FilePath {
        try generated.get()
        return FilePath(directory.appendingPathComponent(name).path)
    }

    /// The reference PCM (`mpg123 -s NAME.mp3`) as samples.
    static func reference(_ name: String) throws -> [Int16] {
        try generated.get()
        let data = try Data(contentsOf: directory.appendingPathComponent(name + ".raw"))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }
}
