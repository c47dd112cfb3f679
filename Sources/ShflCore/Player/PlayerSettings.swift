/// The player's behaviour that the configuration file controls.
public struct PlayerSettings: Hashable, Sendable {
    /// Start playing as soon as a stick is loaded (otherwise wait for PLAY).
    public var autoplay: Bool
    /// Volume limits and step, and the level for a stick never seen before.
    public var volume: VolumeSettings
    /// While playing, save the position at least this often (SPEC §8: a power cut loses at
    /// most this much of the position).
    public var saveInterval: Duration

    public init(autoplay: Bool = true, volume: VolumeSettings = VolumeSettings(), saveInterval: Duration = .seconds(10)) {
        self.autoplay = autoplay
        self.volume = volume
        self.saveInterval = saveInterval
    }
}

/// Volume limits (0...100 scale) and step.
public struct VolumeSettings: Hashable, Sendable {
    public var initial: Int
    public var minimum: Int
    public var maximum: Int
    public var step: Int

    /// Values are put in order and range: 0 <= minimum <= initial <= maximum <= 100, step >= 1.
    public init(initial: Int = 50, minimum: Int = 0, maximum: Int = 100, step: Int = 5) {
        let low = min(max(minimum, 0), 100)
        let high = min(max(maximum, low), 100)
        self.minimum = low
        self.maximum = high
        self.initial = min(max(initial, low), high)
        self.step = max(step, 1)
    }

    /// `level` changed by `change`, kept within the limits.
    public func apply(_ change: VolumeChange, to level: Int) -> Int {
        let wanted: Int
        switch change {
        case .up: wanted = level + step
        case .down: wanted = level - step
        case .set(let value): wanted = value
        }
        return min(max(wanted, minimum), maximum)
    }
}
