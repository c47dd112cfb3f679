import CSystem
import ShflCore

/// The `StatusLight` port as a trace file: one line "MILLISECONDS on|off" per change, the
/// milliseconds on the monotonic clock. The LED of end-to-end tests and of machines without
/// GPIO; `tail -f` shows it live.
public final class TraceFileStatusLight: StatusLight {
    private let file: FileDescriptor
    private let clock: any MonotonicClock
    private var lit: Bool?

    /// Creates or truncates `path`.
    public init(path: String, clock: any MonotonicClock) throws(DeviceError) {
        do {
            file = try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, mode: 0o644)
        } catch {
            throw error.deviceError("LED trace " + path)
        }
        self.clock = clock
    }

    deinit {
        file.close()
    }

    public func setLit(_ lit: Bool) throws(DeviceError) {
        guard lit != self.lit else { return }
        self.lit = lit
        let line = String(clock.now.nanoseconds / 1_000_000) + (lit ? " on\n" : " off\n")
        do {
            try file.writeAll(Array(line.utf8))
        } catch {
            throw error.deviceError("LED trace")
        }
    }
}
