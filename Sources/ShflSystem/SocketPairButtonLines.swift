import CSystem
import ShflCore

/// The `ButtonLines` port fed through a file descriptor: simulated buttons that the event loop
/// polls exactly like the real GPIO lines. Whoever plays the fingers (the demo's keyboard
/// thread, the control socket's `press`/`release`, a test) sends edges through a `Sender`;
/// each edge is one message on a `MessageChannel` (an `AF_UNIX` `SOCK_SEQPACKET` pair), so
/// `pollDescriptor` is readable exactly while edges wait.
///
/// - Edges carry their own timestamps (take them from the same `MonotonicClock` the loop uses,
///   as the kernel stamps real edges). Edges of buttons that are not wired are dropped, as no
///   line reports them; so are malformed messages (counted in `droppedMessageCount`).
/// - `level(of:)` is the level after the last edge sent so far (pending or read), or the
///   initial level: it takes waiting messages off the channel into an internal queue, which
///   `readEdges(into:)` hands out first.
/// - The lines own both ends of the channel, so `pollDescriptor` never reports a hang-up;
///   `Sender`s hold the sending end's number only and must not be used after `close()`.
public final class SocketPairButtonLines: ButtonLines {
    public let buttons: [Button]
    /// Messages dropped: malformed, or for a button that is not wired.
    public private(set) var droppedMessageCount = 0

    private let channel: MessageChannel
    /// Level after the last edge taken off the channel, per wired button.
    private var levels: [Button: ButtonLevel]
    /// Edges taken off the channel by `level(of:)` and not handed out yet.
    private var taken: [ButtonEdge] = []
    private var isClosed = false

    /// Lines for `buttons` (duplicates dropped) at `levels` (released when not given).
    public init(buttons: [Button] = [.play, .skip], levels: [Button: ButtonLevel] = [:]) throws(DeviceError) {
        (self.buttons, self.levels) = Button.wiring(buttons, levels: levels)
        do {
            channel = try MessageChannel()
        } catch {
            throw error.deviceError("simulated button lines: socketpair")
        }
    }

    deinit {
        close()
    }

    public var pollDescriptor: Int32 { channel.receivingEnd.rawValue }

    /// Sends edges into these lines; a copyable value that any thread may use.
    public var sender: Sender { Sender(channel: channel) }

    public func level(of button: Button) throws(DeviceError) -> ButtonLevel {
        guard levels[button] != nil else {
            throw DeviceError("simulated button lines: " + button.description + " is not wired")
        }
        try takeWaiting()
        return levels[button] ?? .released
    }

    public func readEdges(into edges: inout [ButtonEdge]) throws(DeviceError) {
        try takeWaiting()
        edges.append(contentsOf: taken)
        taken.removeAll()
    }

    /// Closes both ends of the channel (idempotent).
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        channel.close()
    }

    /// Moves every waiting message into `taken`.
    private func takeWaiting() throws(DeviceError) {
        guard !isClosed else { throw DeviceError("simulated button lines: closed") }
        var buffer = [UInt8](repeating: 0, count: Sender.messageSize + 1)
        while true {
            let result = buffer.withUnsafeMutableBytes { bytes in
                Result { () throws(Errno) in try channel.receive(into: bytes) }
            }
            let received: Int?
            switch result {
            case .success(let count): received = count
            case .failure(let error): throw error.deviceError("simulated button lines: recv")
            }
            guard let count = received else { return }
            guard count == Sender.messageSize, let edge = Sender.decode(buffer), levels[edge.button] != nil else {
                droppedMessageCount += 1
                continue
            }
            taken.append(edge)
            levels[edge.button] = edge.level
        }
    }

    /// The sending side: one 16-byte message per edge (button, level, 6 bytes of zero, the
    /// instant's nanoseconds little-endian).
    public struct Sender: Sendable {
        static let messageSize = 16
        let channel: MessageChannel

        /// Sends one edge. Never blocks: a full channel throws `DeviceError` with EAGAIN's code
        /// (about 270 unread edges with Linux's default socket buffer; a sender feeding bursts
        /// from another thread retries after the loop has read).
        public func send(_ edge: ButtonEdge) throws(DeviceError) {
            var message = [UInt8](repeating: 0, count: Sender.messageSize)
            message[0] = edge.button.rawValue
            message[1] = edge.level == .pressed ? 1 : 0
            var nanoseconds = UInt64(bitPattern: edge.time.nanoseconds)
            for index in 8..<16 {
                message[index] = UInt8(truncatingIfNeeded: nanoseconds)
                nanoseconds >>= 8
            }
            do {
                try channel.send(message)
            } catch {
                throw error.deviceError("simulated button lines: sending " + edge.description)
            }
        }

        /// Sends a clean press of `button` at `time`.
        public func press(_ button: Button, at time: Instant) throws(DeviceError) {
            try send(ButtonEdge(button: button, level: .pressed, time: time))
        }

        /// Sends a clean release of `button` at `time`.
        public func release(_ button: Button, at time: Instant) throws(DeviceError) {
            try send(ButtonEdge(button: button, level: .released, time: time))
        }

        static func decode(_ message: [UInt8]) -> ButtonEdge? {
            guard message.count >= messageSize, let button = Button(rawValue: message[0]), message[1] <= 1 else {
                return nil
            }
            var nanoseconds: UInt64 = 0
            for index in (8..<16).reversed() {
                nanoseconds = nanoseconds << 8 | UInt64(message[index])
            }
            return ButtonEdge(
                button: button, level: message[1] == 1 ? .pressed : .released,
                time: Instant(nanoseconds: Int64(bitPattern: nanoseconds)))
        }
    }
}
