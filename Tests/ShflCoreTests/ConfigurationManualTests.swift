import Foundation
import ShflCore
import Testing

/// shfl.ini(5), the man page made from the key table (`shfl man shfl.ini.5`, installed by the
/// Debian package), and the roff builder behind it.
@Suite struct ConfigurationManualTests {
    let page = Configuration.manualPage(version: "9.9.9", date: "2026-11-24")

    @Test func everyKeyIsDocumentedWithItsDefaultUnderItsSection() {
        let lines = page.split(separator: "\n").map(String.init)
        for section in Configuration.sections {
            let heading = lines.firstIndex(of: ".SS \"[" + section + "]\"")
            #expect(heading != nil, "no subsection for [\(section)]")
            guard let heading else { continue }
            for key in Configuration.keys where key.section == section {
                // The roff spelling of "name = default": "-" is written "\-".
                let tag = "\\fB" + key.name.replacingOccurrences(of: "-", with: "\\-") + "\\fR = "
                    + key.defaultValue.replacingOccurrences(of: "-", with: "\\-")
                let at = lines.firstIndex(of: tag)
                #expect(at != nil, "no entry for \(key)")
                if let at {
                    #expect(at > heading, "\(key) is not under [\(section)]")
                    #expect(lines[at - 1] == ".TP")
                }
            }
        }
    }

    @Test func theTitleLineNamesPageVersionAndDate() {
        #expect(page.hasPrefix(".TH \"SHFL.INI\" 5 \"2026\\-11\\-24\" \"shfl 9.9.9\" \"File Formats\"\n"))
    }

    @Test func textThatRoffWouldReadAsARequestOrEscapeIsProtected() {
        var manual = ManualPage(name: "t", section: "1", date: "", source: "", manual: "")
        manual.paragraph(".not a request")
        manual.paragraph("'neither")
        manual.paragraph("a \\ backslash and --option")
        manual.preformatted("line one\n.two")
        #expect(manual.text == """
            .TH "T" 1 "" "" ""
            .nh
            .ad l
            .PP
            \\&.not a request
            .PP
            \\&'neither
            .PP
            a \\e backslash and \\-\\-option
            .RS
            .nf
            line one
            \\&.two
            .fi
            .RE

            """)
    }
}
