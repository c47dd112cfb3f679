import ShflCore
import Testing

/// What `shfl status` prints and what `systemctl status shfl` shows (issue 6).
@Suite struct StatusReportTests {
    static let playing = StatusReport(
        state: .playing(TrackPath("Jazz/blue.mp3")), track: TrackPath("Jazz/blue.mp3"), title: "Blue in Green",
        artist: "Miles Davis", trackNumber: 12, trackCount: 47, position: .seconds(83), volume: 40, underruns: 2,
        stick: StickID(uuid: "1A2B-3C4D"), stickLabel: "MUSIC"
    )

    @Test func statusWhilePlayingNamesEverything() {
        #expect(StatusReportTests.playing.reply.text == """
            state: playing
            track: Blue in Green \u{2014} Miles Davis
            position: 1:23
            shuffle: 12/47
            tracks: 47/120
            stick: MUSIC (1A2B-3C4D)
            volume: 40
            underruns: 2
            ok

            """)
        #expect(StatusReportTests.playing.systemdStatus == "Playing 12/47: Blue in Green \u{2014} Miles Davis")
    }

    @Test func theTrackIsItsTitleOrElseItsFileName() {
        var report = StatusReportTests.playing
        report.artist = nil
        #expect(report.trackName == "Blue in Green")
        report.title = "  "
        #expect(report.trackName == "blue.mp3")
        report.title = nil
        report.artist = "Miles Davis"
        #expect(report.trackName == "blue.mp3")
        report.track = nil
        #expect(report.trackName == nil)
        report.stickLabel = nil
        #expect(report.stickDescription == "1A2B-3C4D")
    }

    @Test func everyStateHasItsSystemdStatus() {
        var report = StatusReportTests.playing
        report.state = .paused(TrackPath("Jazz/blue.mp3"))
        #expect(report.systemdStatus == "Paused 12/47: Blue in Green \u{2014} Miles Davis")
        report.state = .loading(TrackPath("Jazz/blue.mp3"))
        #expect(report.systemdStatus == "Loading 12/47: Blue in Green \u{2014} Miles Davis")
        report.state = .stopped
        #expect(report.systemdStatus == "Stopped 12/47: Blue in Green \u{2014} Miles Davis")
        report.state = .error(.allTracksFailed(count: 47))
        #expect(report.systemdStatus == "Error: all 47 tracks failed")
        #expect(StatusReport(state: .empty, volume: 50).systemdStatus == "No stick")
        #expect(StatusReport(state: .error(.stickUnusable(reason: "sda1: vfat not supported")), volume: 50).systemdStatus
            == "Error: stick unusable: sda1: vfat not supported")
    }

    @Test func theSystemdStatusIsOneShortLine() {
        var report = StatusReportTests.playing
        report.title = "Line one\nREADY=1 " + String(repeating: "long ", count: 100)
        let status = report.systemdStatus
        #expect(!status.contains("\n"))
        #expect(status.hasPrefix("Playing 12/47: Line one?READY=1 long"))
        #expect(status.utf8.count <= StatusReport.maximumSystemdStatusBytes)
    }

    @Test func positionsAreMinutesAndSeconds() {
        #expect(StatusReport.minutesAndSeconds(.zero) == "0:00")
        #expect(StatusReport.minutesAndSeconds(.milliseconds(59_999)) == "0:59")
        #expect(StatusReport.minutesAndSeconds(.seconds(83)) == "1:23")
        #expect(StatusReport.minutesAndSeconds(.seconds(75 * 60 + 2)) == "75:02")
        #expect(StatusReport.minutesAndSeconds(.seconds(-3)) == "0:00")
    }

    @Test func theReportOfAPlayerComesFromItsState() {
        let empty = StatusReport(player: PlayerFixture.player(in: "empty"), underruns: 1)
        #expect(empty.reply.text == "state: empty\nstick: none\nvolume: 50\nunderruns: 1\nok\n")
        #expect(empty.capacityReply.text == "stick: none\nok\n")

        let player = PlayerFixture.player(in: "playing")
        let report = StatusReport(player: player, title: "Tone", artist: "Sox", stickLabel: "SHFL")
        #expect(report.track == player.currentTrack)
        #expect(report.trackNumber == 1)
        #expect(report.trackCount == 5)
        #expect(report.reply.text == """
            state: playing
            track: Tone \u{2014} Sox
            position: 0:00
            shuffle: 1/5
            tracks: 5/120
            stick: SHFL (AAAA-0001)
            volume: 50
            underruns: 0
            ok

            """)
        #expect(report.capacityReply.text == "tracks: 5/120\nstick: SHFL (AAAA-0001)\nok\n")

        // Stopped: the track PLAY would start is shown; in error, the reason instead.
        let stopped = StatusReport(player: PlayerFixture.player(in: "stopped"))
        #expect(stopped.trackName != nil)
        #expect(stopped.systemdStatus.hasPrefix("Stopped 1/5: track"))
        let failed = StatusReport(player: PlayerFixture.player(in: "error"), title: "ignored")
        #expect(failed.reply.text == """
            state: error
            reason: all 5 tracks failed
            tracks: 5/120
            stick: AAAA-0001
            volume: 50
            underruns: 0
            ok

            """)
    }
}
