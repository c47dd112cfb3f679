/// Port: the time source of the event loop.
///
/// Contract:
/// - `now` never goes backwards and keeps counting while the system runs; it has no relation
///   to wall-clock time.
/// - Cheap and non-blocking; callable from any thread.
/// Adapters: `SystemMonotonicClock` (`clock_gettime(CLOCK_MONOTONIC)`), `ManualClock` (tests).
public protocol MonotonicClock: AnyObject {
    var now: Instant { get }
}
