extension StickStateCodec {
    /// The lines each field of a decoded state came from, so `check` can name them.
    struct FieldLines {
        var scalars: [Key: Int] = [:]
        /// The line of each `order` entry, by index in the order.
        var order: [Int] = []
        var history: [TrackPath: Int] = [:]
    }

    /// The fields read so far from the lines between the first line and the checksum line.
    struct ParsedState {
        var lines = FieldLines()
        var stick: StickID?
        var volume = 0
        var playSerial: Int64 = 0
        var generator: UInt64 = 0
        var cycle = 0
        var cursor = 0
        var positionMilliseconds: Int64 = 0
        var order: [TrackPath] = []
        var history: [TrackPath: PlayRecord] = [:]

        /// Reads one line (without its "\n"); `line` is its 1-based number.
        mutating func read(_ text: ArraySlice<UInt8>, line: Int) throws(StickStateCodecError) {
            let parts = StickStateCodec.fields(text)
            guard StickStateCodec.isWellFormedKey(parts[0]) else {
                let message = text.isEmpty ? "empty line" : "bad key " + StickStateCodec.quoted(parts[0])
                throw StickStateCodecError(line: line, kind: .malformedLine, message: message)
            }
            guard let key = Key.named(parts[0]) else { return }  // unknown keys are ignored

            switch key {
            case .checksum:
                throw StickStateCodecError(
                    line: line, kind: .malformedLine, message: "checksum line before the end of the state")
            case .order:
                try expectFields(2, parts, key: key, line: line)
                let path = TrackPath(bytes: try StickStateCodec.unescape(parts[1], what: "track path", line: line))
                order.append(path)
                lines.order.append(line)
            case .history:
                try expectFields(4, parts, key: key, line: line)
                let playCount = try StickStateCodec.parseInt(parts[1], what: "play count", line: line)
                let lastPlayed = try StickStateCodec.parseInt64(parts[2], what: "last play serial", line: line)
                let path = TrackPath(bytes: try StickStateCodec.unescape(parts[3], what: "track path", line: line))
                if let first = lines.history[path] {
                    throw StickStateCodecError(
                        line: line, kind: .duplicateTrack,
                        message: "second history line for track " + StickStateCodec.quoted(path)
                            + " (first on line " + String(first) + ")")
                }
                history[path] = PlayRecord(playCount: playCount, lastPlayed: lastPlayed)
                lines.history[path] = line
            case .stick, .volume, .playSerial, .generator, .cycle, .cursor, .positionMilliseconds:
                try expectFields(2, parts, key: key, line: line)
                if let first = lines.scalars[key] {
                    throw StickStateCodecError(
                        line: line, kind: .duplicateKey,
                        message: "duplicate key \"" + key.name + "\" (first on line " + String(first) + ")")
                }
                try readScalar(key, parts[1], line: line)
                lines.scalars[key] = line
            }
        }

        private mutating func readScalar(
            _ key: Key, _ value: ArraySlice<UInt8>, line: Int
        ) throws(StickStateCodecError) {
            switch key {
            case .stick:
                let bytes = try StickStateCodec.unescape(value, what: "stick id", line: line)
                let uuid = String(decoding: bytes, as: UTF8.self)
                guard uuid.utf8.elementsEqual(bytes) else {
                    throw StickStateCodecError(
                        line: line, kind: .badValue,
                        message: "stick id " + StickStateCodec.quoted(value) + " is not valid UTF-8")
                }
                stick = StickID(uuid: uuid)
            case .volume:
                volume = try StickStateCodec.parseInt(value, what: key.name, line: line)
            case .playSerial:
                playSerial = try StickStateCodec.parseInt64(value, what: key.name, line: line)
            case .generator:
                guard let state = StickStateCodec.parseUnsigned(value) else {
                    throw StickStateCodec.badValue(key.name, value, line: line)
                }
                generator = state
            case .cycle:
                cycle = try StickStateCodec.parseInt(value, what: key.name, line: line)
            case .cursor:
                cursor = try StickStateCodec.parseInt(value, what: key.name, line: line)
            case .positionMilliseconds:
                positionMilliseconds = try StickStateCodec.parseInt64(value, what: key.name, line: line)
            case .order, .history, .checksum:
                break  // not scalars; handled by `read`
            }
        }

        private func expectFields(
            _ count: Int, _ parts: [ArraySlice<UInt8>], key: Key, line: Int
        ) throws(StickStateCodecError) {
            guard parts.count != count else { return }
            let shape =
                switch key {
                case .history: "history <play count> <last play serial> <path>"
                case .order: "order <path>"
                default: key.name + " <value>"
                }
            throw StickStateCodecError(
                line: line, kind: .malformedLine,
                message: "expected \"" + shape + "\" (fields separated by one space), found "
                    + String(parts.count) + " fields")
        }

        /// The state read, once every line is in; `endLine` (the checksum line) is where a
        /// missing key is reported.
        func state(endLine: Int) throws(StickStateCodecError) -> StickState {
            for key in Key.scalars where lines.scalars[key] == nil {
                throw StickStateCodecError(
                    line: endLine, kind: .missingKey,
                    message: "missing key \"" + key.name + "\" (the state ends here without it)")
            }
            guard let stick else {
                throw StickStateCodecError(line: endLine, kind: .missingKey, message: "missing key \"stick\"")
            }
            return StickState(
                stick: stick,
                order: order,
                cursor: cursor,
                position: .milliseconds(positionMilliseconds),
                cycle: cycle,
                generatorState: generator,
                volume: volume,
                history: history,
                playSerial: playSerial
            )
        }
    }
}
