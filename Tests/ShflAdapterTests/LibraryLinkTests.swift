import ShflAudio
import ShflCore
import ShflGPIO
import ShflMedia
import ShflSystem
import Testing

/// The C libraries are really linked and callable (the firmware build links them by hand).
@Suite struct LibraryLinkTests {
    @Test func librariesReportTheirVersions() {
        #expect(AudioLibraries.alsaVersion.hasPrefix("1."))
        #expect(AudioLibraries.mpg123APIVersion >= 44)
        #expect(GPIODLibrary.version.hasPrefix("1.6"))
        #expect(UdevLibrary.isUsable)
    }

    @Test func systemClockIsMonotonic() {
        let clock = SystemMonotonicClock()
        var previous = clock.now
        for _ in 0..<1_000 {
            let now = clock.now
            #expect(now >= previous)
            previous = now
        }
    }
}
