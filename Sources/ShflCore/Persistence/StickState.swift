/// What Shfl remembers about one stick (SPEC §8), as plain values. The `StateStore` port
/// saves and loads it; `StickStateCodec` turns it into bytes and back.
public struct StickState: Hashable, Sendable {
    /// Format version of this model; bump when fields change meaning.
    public static let formatVersion = 1

    public var stick: StickID
    /// The current shuffle cycle, in play order.
    public var order: [TrackPath]
    /// Index in `order` of the current track.
    public var cursor: Int
    /// Position in the current track.
    public var position: Duration
    /// Completed shuffle cycles in this stick's life.
    public var cycle: Int
    /// State of the seeded generator that makes the next shuffle, so a resumed stick
    /// continues the same sequence.
    public var generatorState: UInt64
    /// Output volume, 0...100.
    public var volume: Int
    /// Play history per track still relevant to the stick.
    public var history: [TrackPath: PlayRecord]
    /// Serial number of the most recent play on this stick (a counter, not a clock: the
    /// device may have no real-time clock). `PlayRecord.lastPlayed` holds these numbers.
    public var playSerial: Int64

    public init(
        stick: StickID,
        order: [TrackPath] = [],
        cursor: Int = 0,
        position: Duration = .zero,
        cycle: Int = 0,
        generatorState: UInt64 = 0,
        volume: Int = 50,
        history: [TrackPath: PlayRecord] = [:],
        playSerial: Int64 = 0
    ) {
        self.stick = stick
        self.order = order
        self.cursor = cursor
        self.position = position
        self.cycle = cycle
        self.generatorState = generatorState
        self.volume = volume
        self.history = history
        self.playSerial = playSerial
    }
}

/// How often and how recently a track was played.
public struct PlayRecord: Hashable, Sendable {
    public var playCount: Int
    /// `StickState.playSerial` of the last play; 0 = never played.
    public var lastPlayed: Int64

    public init(playCount: Int = 0, lastPlayed: Int64 = 0) {
        self.playCount = playCount
        self.lastPlayed = lastPlayed
    }
}
