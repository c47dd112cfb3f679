import ShflCore
import ShflService
import ShflSystem

/// `shfl control-echo SOCKET [COUNT]`, a test aid (not in the usage): serves the control
/// socket at SOCKET with the real server in a poll() loop, as `shfl run` will, and answers
/// each request with its own canonical line ("request: volume 42") or its error, until COUNT
/// (default 1) requests have been answered. Tells systemd (NOTIFY_SOCKET) READY=1 once
/// listening and STOPPING=1 at the end. Exit status 0, or 1 when nothing came for 10 s or the
/// socket cannot be made. `tests/firmware.sh` runs it in both firmware builds.
enum ControlEchoCommand {
    static func run(_ arguments: [String]) -> Int32 {
        guard let path = arguments.first, arguments.count <= 2 else {
            StandardStreams.writeLine("usage: shfl control-echo SOCKET [COUNT]", toError: true)
            return 2
        }
        let count = arguments.count == 2 ? max(Int(arguments[1]) ?? 1, 1) : 1
        let notifier: SystemdNotifier
        let server: UnixControlServer
        do {
            notifier = try SystemdNotifier.fromEnvironment()
            server = try UnixControlServer(path: path)
        } catch {
            StandardStreams.writeLine("shfl control-echo: " + error.description, toError: true)
            return 1
        }
        defer { server.close() }
        try? notifier.ready(status: "Answering " + String(count) + " requests on " + path)

        var answered = 0
        while answered < count {
            var poller = Poller()
            let descriptors = server.descriptors
            for descriptor in descriptors { poller.watch(descriptor) }
            do {
                guard try poller.wait(timeoutMilliseconds: 10_000) > 0 else {
                    StandardStreams.writeLine("shfl control-echo: no request for 10 s", toError: true)
                    return 1
                }
            } catch {
                StandardStreams.writeLine("shfl control-echo: poll: " + error.description, toError: true)
                return 1
            }
            for (index, descriptor) in descriptors.enumerated() where poller.isReady(index) {
                for message in server.handle(readable: descriptor) {
                    switch message.request {
                    case .success(let request):
                        server.reply(ControlReply(fields: [ControlReply.Field("request", request.line)]), to: message.client)
                    case .failure(let error):
                        server.reply(ControlReply(error: error), to: message.client)
                    }
                    answered += 1
                }
            }
            for note in server.takeNotes() { StandardStreams.log(note) }
        }
        try? notifier.stopping()
        return 0
    }
}
