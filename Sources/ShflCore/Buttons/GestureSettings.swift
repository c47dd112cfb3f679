/// How button lines become gestures (SPEC §5): the debounce settle time and what each button
/// does when pressed or held. Plain data with the specification's defaults; the configuration
/// file overrides single fields, and `binding(for:)` turns them into `ButtonBinding`s.
///
/// Defaults: settle 20 ms; PLAY press = play/pause, PLAY hold 2 s = announce capacity, PLAY hold
/// 6 s = power off; SKIP press = skip, SKIP hold 2 s = reshuffle; VOL+/VOL- press = one volume
/// step, repeated while held (first after 500 ms, then every 250 ms).
public struct GestureSettings: Hashable, Sendable {
    /// After an edge, a line is sampled once it has seen no edge for this long. Also the
    /// shortest press that counts: the line must stay down this long after its last bounce.
    public var settleTime: Duration
    /// PLAY held this long announces the capacity on the LED.
    public var capacityHold: Duration
    /// SKIP held this long reshuffles.
    public var reshuffleHold: Duration
    /// PLAY held this long powers the device off safely; nil disables it.
    public var powerOffHold: Duration?
    /// Repeat timing of VOL+ and VOL- while held; nil means one step per press.
    public var volumeRepeat: ButtonBinding.Repeat?

    public init(
        settleTime: Duration = .milliseconds(20),
        capacityHold: Duration = .seconds(2),
        reshuffleHold: Duration = .seconds(2),
        powerOffHold: Duration? = .seconds(6),
        volumeRepeat: ButtonBinding.Repeat? = ButtonBinding.Repeat(
            delay: .milliseconds(500), interval: .milliseconds(250))
    ) {
        self.settleTime = settleTime
        self.capacityHold = capacityHold
        self.reshuffleHold = reshuffleHold
        self.powerOffHold = powerOffHold
        self.volumeRepeat = volumeRepeat
    }

    /// The defaults of SPEC §5.
    public static let standard = GestureSettings()

    /// What `button` does under these settings.
    public func binding(for button: Button) -> ButtonBinding {
        switch button {
        case .play:
            var holds = [ButtonBinding.Hold(after: capacityHold, gesture: .announceCapacity)]
            if let powerOffHold {
                holds.append(ButtonBinding.Hold(after: powerOffHold, gesture: .powerOff))
            }
            return .pressOrHold(press: .playPause, holds: holds)
        case .skip:
            return .pressOrHold(
                press: .skip, holds: [ButtonBinding.Hold(after: reshuffleHold, gesture: .reshuffle)])
        case .volumeUp:
            return .press(.volumeUp, repeating: volumeRepeat)
        case .volumeDown:
            return .press(.volumeDown, repeating: volumeRepeat)
        }
    }
}
