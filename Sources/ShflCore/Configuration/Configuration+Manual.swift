extension Configuration {
    /// The shfl.ini(5) man page, made from the key table as the sample file is (`shfl man
    /// shfl.ini.5` prints it; the Debian package installs it): every section and key with its
    /// doc, what it takes and its default. `date` and `version` go in the page's title line.
    public static func manualPage(version: String, date: String) -> String {
        var page = ManualPage(name: "shfl.ini", section: "5", date: date, source: "shfl " + version, manual: "File Formats")
        page.section("name")
        page.paragraph("shfl.ini - configuration of the Shfl shuffle player")
        page.section("synopsis")
        page.paragraph(defaultFile)
        page.section("description")
        page.paragraph(
            "shfl run, the player daemon, reads its settings from " + defaultFile
                + " at start, on the Raspberry Pi's boot partition, so that any PC can edit it. Another file can be"
                + " named with shfl run --config PATH. The Debian package copies the sample, /usr/share/shfl/shfl.ini,"
                + " there on installation when the boot partition exists and holds none, and never overwrites it.")
        page.paragraph(
            "Every key is optional: a key left out, or a file missing, keeps the default (the daemon logs where it"
                + " looked). A bad value, an unknown key or a line that is not key = value is reported with its line,"
                + " and that key keeps its default; shfl config checks a file the same way before a reboot.")
        page.section("syntax")
        page.paragraph(
            "An INI file: [section] headings, then key = value lines (key: value also works). A key given twice: the"
                + " later line counts. Comments start with # or ; at the start of a line, or with \" ;\" after a value."
                + " Leading spaces are ignored; lines longer than 200 bytes are skipped. Section and key names ignore"
                + " case, and \"_\" counts as \"-\". Values may be \"quoted\". Durations need a unit: 200000us, 20ms, 2s, 1.5s."
                + " The file may have a UTF-8 byte order mark and CRLF line ends.")
        page.section("keys")
        page.paragraph("Each key with its default, what it does and what it takes, section by section.")
        for section in sections {
            page.subsection("[" + section + "]")
            for key in keys where key.section == section {
                page.tagged(key.name, " = " + key.defaultValue, [key.doc, "Takes " + key.expected + "."])
            }
        }
        page.section("files")
        page.tagged(defaultFile, "", ["The configuration read by shfl run and shfl config."])
        page.tagged("/usr/share/shfl/shfl.ini", "", ["The sample: every key with its doc and default (shfl config --sample prints it)."])
        page.section("see also")
        page.paragraph("shfl(1)")
        return page.text
    }
}
