/// Port: the status LED.
///
/// Contract:
/// - `setLit(_:)` switches the LED on or off at once and never blocks; setting the level it
///   already has is harmless.
/// - Timing is the caller's business: the event loop calls it at the instants
///   `LightSchedule` computes (never from the audio thread, never by sleeping).
/// - Active-high or active-low wiring is the adapter's business: `true` means light.
/// Adapters: `GPIODStatusLight` (libgpiod), `SimulatedStatusLight` (records a trace).
public protocol StatusLight: AnyObject {
    func setLit(_ lit: Bool) throws(DeviceError)
}
