extension StickStateCodec {
    /// Checks the rules every saved state follows; `decode` enforces the same rules, so a state
    /// that passes encodes to bytes that decode. A store calls this before replacing a good
    /// saved state, so a bad state never destroys the last good one. The rules:
    /// - `cursor` is an index of `order`, or 0 when `order` is empty;
    /// - `order` holds no track twice;
    /// - `position`, `cycle`, `playSerial`, and every history `playCount` and `lastPlayed` are
    ///   not negative; `volume` is in 0...100.
    /// Deliberately not checked: that `lastPlayed` is at most `playSerial`, and that history
    /// tracks are in the order. Rejecting those would throw away a stick's whole history for
    /// an inconsistency the player can live with.
    /// The error has no line (`line == nil`); the first broken rule in the list above is
    /// reported, for history the offending track first in path order.
    public static func validate(_ state: StickState) throws(StickStateCodecError) {
        try check(state, lines: nil)
    }

    /// `validate`, with errors naming the lines in `lines` when the state was decoded.
    static func check(_ state: StickState, lines: FieldLines?) throws(StickStateCodecError) {
        func error(_ key: Key, _ message: String) -> StickStateCodecError {
            StickStateCodecError(line: lines?.scalars[key], kind: .outOfRange, message: message)
        }
        let count = state.order.count
        if count == 0 {
            guard state.cursor == 0 else {
                throw error(.cursor, "cursor " + String(state.cursor) + " with an empty order (must be 0)")
            }
        } else {
            guard state.cursor >= 0 && state.cursor < count else {
                throw error(
                    .cursor,
                    "cursor " + String(state.cursor) + " is out of range for an order of " + String(count)
                        + " tracks (0..." + String(count - 1) + ")")
            }
        }
        guard state.position >= .zero else {
            throw error(
                .positionMilliseconds, "position " + state.position.millisecondsDescription + " is negative")
        }
        guard state.cycle >= 0 else {
            throw error(.cycle, "cycle " + String(state.cycle) + " is negative")
        }
        guard state.volume >= 0 && state.volume <= 100 else {
            throw error(.volume, "volume " + String(state.volume) + " is outside 0...100")
        }
        guard state.playSerial >= 0 else {
            throw error(.playSerial, "play serial " + String(state.playSerial) + " is negative")
        }
        try checkOrderHasNoDuplicates(state.order, lines: lines)
        try checkHistory(state.history, lines: lines)
    }

    private static func checkOrderHasNoDuplicates(
        _ order: [TrackPath], lines: FieldLines?
    ) throws(StickStateCodecError) {
        var firstIndex: [TrackPath: Int] = [:]
        for (index, path) in order.enumerated() {
            guard let first = firstIndex[path] else {
                firstIndex[path] = index
                continue
            }
            let message: String
            if let lines {
                message = "track " + quoted(path) + " is in the order twice (first on line "
                    + String(lines.order[first]) + ")"
            } else {
                message = "track " + quoted(path) + " is in the order twice (at indices " + String(first)
                    + " and " + String(index) + ")"
            }
            throw StickStateCodecError(line: lines?.order[index], kind: .duplicateTrack, message: message)
        }
    }

    private static func checkHistory(
        _ history: [TrackPath: PlayRecord], lines: FieldLines?
    ) throws(StickStateCodecError) {
        // The dictionary's order is arbitrary: report the offending track first in path order,
        // so the same state always gives the same error.
        var worst: (path: TrackPath, record: PlayRecord)?
        for (path, record) in history where record.playCount < 0 || record.lastPlayed < 0 {
            if let found = worst, found.path < path { continue }
            worst = (path, record)
        }
        guard let (path, record) = worst else { return }
        let message =
            record.playCount < 0
            ? "play count " + String(record.playCount) + " of track " + quoted(path) + " is negative"
            : "last play serial " + String(record.lastPlayed) + " of track " + quoted(path) + " is negative"
        throw StickStateCodecError(line: lines?.history[path], kind: .outOfRange, message: message)
    }
}
