extension TrackPath {
    /// The same path re-encoded from Windows-1252 (a superset of Latin-1) to UTF-8, or nil when
    /// the bytes already are valid UTF-8.
    ///
    /// Old Windows tools (Winamp, Windows Media Player) write `.m3u` files in the PC's code
    /// page, while Linux shows a FAT stick's names in UTF-8; this lets such a playlist still
    /// find "Café.mp3" or "Don’t.mp3". Only a fallback: a valid UTF-8 entry is never re-read.
    public var windows1252AsUTF8: TrackPath? {
        if Array(String(decoding: bytes, as: UTF8.self).utf8) == bytes { return nil }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            let scalar: UInt32
            if byte >= 0x80 && byte <= 0x9F {
                scalar = UInt32(TrackPath.windows1252C1[Int(byte - 0x80)])
            } else {
                scalar = UInt32(byte)
            }
            if scalar < 0x80 {
                utf8.append(UInt8(scalar))
            } else if scalar < 0x800 {
                utf8.append(UInt8(0xC0 | (scalar >> 6)))
                utf8.append(UInt8(0x80 | (scalar & 0x3F)))
            } else {
                utf8.append(UInt8(0xE0 | (scalar >> 12)))
                utf8.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
                utf8.append(UInt8(0x80 | (scalar & 0x3F)))
            }
        }
        return TrackPath(bytes: utf8)
    }

    /// Unicode scalars of Windows-1252 bytes 0x80...0x9F (the five unassigned bytes map to the
    /// C1 controls of the same value, as Windows itself does); all other bytes equal Latin-1.
    static let windows1252C1: [UInt16] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
