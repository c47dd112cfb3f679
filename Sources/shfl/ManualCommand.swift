import ShflCore
import ShflSystem

/// `shfl man shfl.1|shfl.ini.5 [--date DATE]`: prints a man page in roff, made from the same
/// tables as the usage text (`ShflCommand.commands`) and the sample configuration
/// (`Configuration.keys`), so the pages cannot drift from the program. `make deb` installs
/// them (scripts/build-deb.sh passes the Debian changelog's date). Not in the usage: a
/// packaging aid.
enum ManualCommand {
    static let usage = "usage: shfl man shfl.1|shfl.ini.5 [--date YYYY-MM-DD]"

    static func run(_ arguments: [String]) -> Int32 {
        let options: CommandOptions
        do {
            options = try CommandOptions.parse(arguments[...], valued: ["--date"], flags: [], positionals: true)
        } catch {
            return usageError(error.message)
        }
        guard options.positionals.count == 1 else { return usageError("name one page") }
        let date = options.value("--date") ?? ""
        var text: String
        switch options.positionals[0] {
        case "shfl.1", "shfl":
            text = commandPage(date: date)
        case "shfl.ini.5", "shfl.ini":
            text = Configuration.manualPage(version: ShflCommand.version, date: date)
        default:
            return usageError("no page '" + options.positionals[0] + "'")
        }
        if text.hasSuffix("\n") { text.removeLast() }
        StandardStreams.writeLine(text)
        return 0
    }

    /// shfl(1): every command of the usage text, with its own usage where it has one.
    static func commandPage(date: String) -> String {
        var page = ManualPage(name: "shfl", section: "1", date: date, source: "shfl " + ShflCommand.version, manual: "User Commands")
        page.section("name")
        page.paragraph("shfl - screenless shuffle MP3 player for the Raspberry Pi")
        page.section("synopsis")
        page.paragraph("shfl COMMAND [ARGUMENTS]")
        page.section("description")
        page.paragraph(
            "Shfl turns a Raspberry Pi into a shuffle player: plug in a USB stick with up to 120 MP3 files, press"
                + " PLAY, and let the shuffle decide. Two buttons (PLAY and SKIP, optionally VOL+ and VOL-), one"
                + " status LED, no screen. shfl run is the player daemon, started at boot by shfl.service; the other"
                + " commands talk to it, check the configuration and the wiring, or try the audio path.")
        page.section("commands")
        for command in ShflCommand.commands {
            // A one-line usage is filled like text; one with a table of options keeps its lines.
            let oneLine = command.usage.map { !$0.contains("\n") } ?? false
            var text = [command.summary]
            if oneLine, let usage = command.usage { text.append(usage) }
            page.tagged(command.name, command.arguments.isEmpty ? "" : " " + command.arguments, text)
            if !oneLine, let usage = command.usage { page.preformatted(usage) }
        }
        page.section("environment")
        page.tagged("SHFL_BOARD_DIR", "", ["A folder searched first for the pin maps (NAME.ini) named by --board or the configuration."])
        page.section("files")
        page.tagged(Configuration.defaultFile, "", ["The configuration (see shfl.ini(5)); the defaults apply when it is missing."])
        page.tagged("/etc/shfl/board/", "", ["The owner's own pin maps, searched before the package's."])
        page.tagged("/usr/share/shfl/board/", "", ["The pin maps of the supported boards (pi-zero-2-w, pi-3, pi-4, pi-5, virt)."])
        page.tagged("/var/lib/shfl/", "", ["The state of each stick: its shuffle, position and history."])
        page.tagged("/run/shfl/control", "", ["The control socket; members of the shfl group may use it."])
        page.tagged("/lib/systemd/system/shfl.service", "", ["The systemd unit that runs shfl run."])
        page.section("exit status")
        page.paragraph(
            "0 on success, 1 when the command failed (a daemon's error reply, a file that cannot be read), 2 for a"
                + " usage error or a daemon that cannot be reached. shfl run exits with 100 after the power-off hold,"
                + " which shfl.service turns into a power-off.")
        page.section("see also")
        page.paragraph("shfl.ini(5), systemctl(1), journalctl(1)")
        return page.text
    }

    private static func usageError(_ message: String) -> Int32 {
        StandardStreams.writeLine("shfl man: " + message, toError: true)
        StandardStreams.writeLine(usage, toError: true)
        return 2
    }
}
