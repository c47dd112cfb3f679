import ShflCore
import ShflSimulated
import Testing

/// The `StatusLight` port's contract, checked on any adapter: the simulated one here, and the
/// GPIO one in its adapter tests (where `observe` reads the line back, e.g. through gpio-sim).
///
/// - `observe` returns the level the LED really has (`true`: lit), read independently of the
///   adapter's own bookkeeping where the technology allows.
public func checkStatusLightContract(_ light: some StatusLight, observe: () -> Bool) throws {
    // `true` means light, `false` dark, whatever the wiring.
    try light.setLit(true)
    #expect(observe(), "setLit(true) must light the LED")
    try light.setLit(false)
    #expect(!observe(), "setLit(false) must darken the LED")

    // Setting the level the LED already has is harmless, both ways.
    try light.setLit(false)
    #expect(!observe())
    try light.setLit(true)
    try light.setLit(true)
    #expect(observe())

    // Switches at once: a burst of changes (as fast as a flicker over a fast blink can ask)
    // always leaves the last level asked for.
    for index in 0..<100 {
        let lit = index % 3 != 0
        try light.setLit(lit)
        #expect(observe() == lit, "after setLit(\(lit)) number \(index)")
    }
    try light.setLit(false)
    #expect(!observe())
}
