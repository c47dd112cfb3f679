/// Why a stick's state could not be loaded or saved.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The saved state exists but does not parse; the store set it aside (renamed) first.
    case corrupt(StickID, reason: String)
    /// Reading or writing failed (the message names the file and the errno).
    case io(String)
    /// `save` refused a state it could not load back (e.g. a cursor outside the order); the
    /// previously saved state is kept.
    case invalid(StickID, reason: String)

    public var description: String {
        switch self {
        case .corrupt(let stick, let reason): "state of stick " + stick.uuid + " is corrupt: " + reason
        case .io(let message): message
        case .invalid(let stick, let reason): "state of stick " + stick.uuid + " not saved: " + reason
        }
    }
}

/// Port: remembers each stick's `StickState` across stick removals and power cuts.
///
/// Contract:
/// - `load(_:)` returns the last state saved for the stick, or nil if there is none.
/// - `save(_:)` is atomic and durable: once it returns, `load` gives the new state even after a
///   power cut; a power cut during a save leaves the old or the new state, never a mix.
/// - `save` refuses (`.invalid`) a state that would not load back, keeping the old one.
/// - A corrupt saved state is reported once as `.corrupt` and set aside, so the next `load`
///   returns nil (the stick starts fresh) instead of failing forever.
/// Called from the event-loop thread only.
/// Adapters: `FileStateStore` (files under /var/lib/shfl), `InMemoryStateStore`.
public protocol StateStore: AnyObject {
    func load(_ stick: StickID) throws(StoreError) -> StickState?
    func save(_ state: StickState) throws(StoreError)
}
