/// The player as the event loop drives it: the `Player` state machine, the buttons'
/// debounce and gestures (`ButtonInput`) and the LED (`LightSchedule`) kept in step, pure.
///
/// - Gestures become player inputs (PLAY → play/pause, SKIP → skip, SKIP hold → reshuffle,
///   VOL± → volume); PLAY hold shows the capacity code; the power-off hold becomes `.powerOff`.
/// - Every press is acknowledged on the LED the moment it settles (SPEC §5), before the
///   gesture it may become is known.
/// - Each state change shows that state's pattern from that instant; pulling the stick cuts a
///   capacity code short.
/// The event loop arms one timer at `nextDeadline(after:)` and sets the LED to `isLit(at:)`.
public struct PlayerSession: Sendable {
    public private(set) var player: Player
    public private(set) var buttons: ButtonInput
    public private(set) var light: LightSchedule

    public init(player: PlayerSettings = PlayerSettings(), gestures: GestureSettings = .standard, initialLevels: [Button: ButtonLevel], now: Instant) {
        self.player = Player(settings: player)
        self.buttons = ButtonInput(settings: gestures, initialLevels: initialLevels, now: now)
        self.light = LightSchedule(showing: LightPatterns.pattern(for: .empty), from: now)
    }

    /// An input from anywhere but the buttons (hot-plug, audio thread, control socket).
    public mutating func handle(_ input: PlayerInput, now: Instant) -> [SessionEffect] {
        let before = player.state
        let effects = player.handle(input).map { SessionEffect.player($0) }
        if case .stickRemoved = input, light.announcementEnd != nil {
            light.cancelAnnouncement(at: now)
        }
        if player.state != before {
            light.show(LightPatterns.pattern(for: player.state), from: now)
        }
        return effects
    }

    /// Shows the loading pattern (a stick is being mounted and scanned) until `showState(at:)`
    /// or the next state change.
    public mutating func showLoading(at now: Instant) {
        light.show(LightPatterns.fastBlink, from: now)
    }

    /// Shows the pattern of the current state (after `showLoading(at:)`, when the scan ended
    /// without a state change, e.g. a stick without tracks).
    public mutating func showState(at now: Instant) {
        light.show(LightPatterns.pattern(for: player.state), from: now)
    }

    /// Shows the capacity code now (the `capacity` control request; the PLAY hold does the same).
    public mutating func announceCapacity(at now: Instant) {
        light.announce(count: player.tracks.count, at: now)
    }

    /// Raw edges from the button lines (possibly delivered late).
    public mutating func handle(edges: [ButtonEdge], now: Instant) -> [SessionEffect] {
        var changes: [SettledLevelChange] = []
        let gestures = buttons.handle(edges, now: now, levelChanges: &changes)
        return react(to: gestures, changes: changes, now: now)
    }

    /// Timer expiry: settles, holds and repeats that became due.
    public mutating func advance(to now: Instant) -> [SessionEffect] {
        handle(edges: [], now: now)
    }

    /// The next instant something happens without input: a button settles, a hold or repeat
    /// fires, or the LED changes.
    public func nextDeadline(after now: Instant) -> Instant? {
        switch (buttons.nextDeadline, light.nextChange(after: now)) {
        case (let button?, let led?): min(button, led)
        case (let button?, nil): button
        case (nil, let led?): led
        case (nil, nil): nil
        }
    }

    public func isLit(at instant: Instant) -> Bool {
        light.isLit(at: instant)
    }

    private mutating func react(to gestures: [RecognizedGesture], changes: [SettledLevelChange], now: Instant) -> [SessionEffect] {
        for change in changes where change.level == .pressed {
            light.acknowledge(at: change.time)
        }
        var effects: [SessionEffect] = []
        for recognized in gestures {
            switch recognized.gesture {
            case .playPause: effects += handle(.playPause, now: now)
            case .skip: effects += handle(.skip, now: now)
            case .reshuffle: effects += handle(.reshuffle, now: now)
            case .volumeUp: effects += handle(.volume(.up), now: now)
            case .volumeDown: effects += handle(.volume(.down), now: now)
            case .announceCapacity: light.announce(count: player.tracks.count, at: recognized.time)
            case .powerOff: effects.append(.powerOff)
            }
        }
        return effects
    }
}
