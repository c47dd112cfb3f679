/// Port: the button inputs, as raw timestamped edges.
///
/// Contract:
/// - `buttons` lists the wired buttons; it does not change after creation.
/// - `pollDescriptor` becomes readable (POLLIN) whenever edges are pending, so the event loop
///   can wait on it in `poll()`; it stays valid for the lifetime of the object.
/// - `readEdges(into:)` never blocks: it appends every pending edge (possibly none), in the
///   order they happened per button, with the kernel's timestamps, and returns.
/// - `level(of:)` samples a line's current logical level (pressed = pulled to ground); the core
///   uses it once at start-up so that a button held at boot does not fire.
/// - Errors name the chip, line and board.
/// Called from the event-loop thread only.
/// Adapters: `GPIODButtonLines` (libgpiod), `SimulatedButtonLines`.
public protocol ButtonLines: AnyObject {
    var buttons: [Button] { get }
    var pollDescriptor: Int32 { get }
    func level(of button: Button) throws(DeviceError) -> ButtonLevel
    func readEdges(into edges: inout [ButtonEdge]) throws(DeviceError)
}
