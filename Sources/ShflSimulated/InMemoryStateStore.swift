import ShflCore

/// The `StateStore` port in memory, for tests and the demo. It keeps each stick's state as the
/// bytes `StickStateCodec` writes, so every save and load goes through the real format, and
/// lets a test damage those bytes or make the next save fail.
///
/// Follows the port's contract:
/// - `load` decodes the stored bytes; a corrupt entry (bytes that do not decode, or that hold
///   another stick's state) is reported once as `.corrupt` and moved to `setAside`, so the
///   next `load` returns nil.
/// - `save` replaces the entry only when it succeeds. It refuses, with `.io`, a state that
///   `StickStateCodec.validate` rejects (it could not be loaded back, and would destroy the
///   last good state), and the failure armed by `failNextSave`.
public final class InMemoryStateStore: StateStore {
    private var entries: [StickID: [UInt8]] = [:]
    private var pendingSaveFailure: String?

    /// Entries that failed to decode, oldest first per stick, kept for inspection as a real
    /// store keeps the renamed file.
    public private(set) var setAside: [StickID: [[UInt8]]] = [:]
    /// Number of saves that succeeded, for tests that check how often the player saves.
    public private(set) var saveCount = 0

    public init() {}

    public func load(_ stick: StickID) throws(StoreError) -> StickState? {
        guard let bytes = entries[stick] else { return nil }
        let state: StickState
        do {
            state = try StickStateCodec.decode(bytes)
        } catch {
            throw setAsideCorrupt(stick, bytes, reason: error.description)
        }
        guard state.stick == stick else {
            throw setAsideCorrupt(stick, bytes, reason: "it holds the state of stick " + state.stick.uuid)
        }
        return state
    }

    public func save(_ state: StickState) throws(StoreError) {
        if let message = pendingSaveFailure {
            pendingSaveFailure = nil
            throw .io(message)
        }
        do {
            try StickStateCodec.validate(state)
        } catch {
            throw .invalid(state.stick, reason: error.description)
        }
        entries[state.stick] = StickStateCodec.encode(state)
        saveCount += 1
    }

    private func setAsideCorrupt(_ stick: StickID, _ bytes: [UInt8], reason: String) -> StoreError {
        entries[stick] = nil
        setAside[stick, default: []].append(bytes)
        return .corrupt(stick, reason: reason)
    }

    // MARK: Test hooks

    /// The bytes stored for `stick`, or nil if there are none.
    public func storedBytes(of stick: StickID) -> [UInt8]? {
        entries[stick]
    }

    /// Replaces the bytes stored for `stick` (nil removes them), as if the medium held them.
    public func setStoredBytes(_ bytes: [UInt8]?, of stick: StickID) {
        entries[stick] = bytes
    }

    /// Flips every bit of the stored byte at `offset`. Returns false, changing nothing, when
    /// there is no entry or `offset` is outside it.
    @discardableResult
    public func corruptByte(at offset: Int, of stick: StickID) -> Bool {
        guard var bytes = entries[stick], bytes.indices.contains(offset) else { return false }
        bytes[offset] ^= 0xFF
        entries[stick] = bytes
        return true
    }

    /// Keeps only the first `count` stored bytes, as a write cut short would. Returns false,
    /// changing nothing, when there is no entry or it is not longer than `count`.
    @discardableResult
    public func truncate(_ stick: StickID, toCount count: Int) -> Bool {
        guard let bytes = entries[stick], count >= 0, count < bytes.count else { return false }
        entries[stick] = Array(bytes[..<count])
        return true
    }

    /// Makes the next `save` (of any stick) throw `.io(message)` and store nothing.
    public func failNextSave(_ message: String = "simulated write failure") {
        pendingSaveFailure = message
    }
}
