import ShflCore
import Testing

@Suite struct PlayerSessionTests {
    let released: [Button: ButtonLevel] = [.play: .released, .skip: .released]

    func press(_ button: Button, at start: Instant, for length: Duration) -> [ButtonEdge] {
        // A bouncy press: three edges down, three up.
        let up = start + length
        return [
            ButtonEdge(button: button, level: .pressed, time: start),
            ButtonEdge(button: button, level: .released, time: start + .milliseconds(1)),
            ButtonEdge(button: button, level: .pressed, time: start + .milliseconds(2)),
            ButtonEdge(button: button, level: .released, time: up),
            ButtonEdge(button: button, level: .pressed, time: up + .milliseconds(1)),
            ButtonEdge(button: button, level: .released, time: up + .milliseconds(2)),
        ]
    }

    func loadedSession() -> PlayerSession {
        var session = PlayerSession(player: PlayerSettings(autoplay: false), initialLevels: released, now: .zero)
        _ = session.handle(.stickLoaded(PlayerFixture.loaded(12)), now: .milliseconds(10))
        return session
    }

    @Test func aBouncyPlayPressStartsPlaybackAndIsAcknowledgedWhenItSettles() {
        var session = loadedSession()
        #expect(session.player.state == .stopped)
        let start = Instant.milliseconds(1_000)
        var effects = session.handle(edges: press(.play, at: start, for: .milliseconds(120)), now: start + .milliseconds(200))
        effects += session.advance(to: start + .milliseconds(200))
        #expect(session.player.state.name == "loading")
        #expect(effects.contains { if case .player(.startTrack) = $0 { true } else { false } })
        // Stopped blinks slowly starting dark at 10 ms (dark until 1010 ms): the press settles
        // at 1022 ms (last down edge 1002 + 20 ms) and flips the LED at once.
        #expect(session.isLit(at: .milliseconds(1_021)) == session.isLit(at: .milliseconds(1_005)))
        #expect(session.isLit(at: .milliseconds(1_023)) != session.isLit(at: .milliseconds(1_021)))
    }

    @Test func holdingPlayShowsTheCapacityInsteadOfPausing() {
        var session = loadedSession()
        let start = Instant.milliseconds(1_000)
        _ = session.handle(edges: [ButtonEdge(button: .play, level: .pressed, time: start)], now: start)
        var effects: [SessionEffect] = []
        var now = start
        while let deadline = session.nextDeadline(after: now), deadline <= start + .milliseconds(2_500) {
            now = deadline
            effects += session.advance(to: now)
        }
        effects += session.handle(edges: [ButtonEdge(button: .play, level: .released, time: start + .milliseconds(2_500))], now: start + .milliseconds(2_600))
        effects += session.advance(to: start + .milliseconds(2_600))
        #expect(session.player.state == .stopped)
        #expect(!effects.contains { if case .player(.startTrack) = $0 { true } else { false } })
        #expect(session.light.announcementEnd != nil)
        // 12 tracks: one long blink and two short ones in the code.
        let code = session.light.timeline(from: start + .milliseconds(2_600), until: start + .milliseconds(12_000))
        #expect(code.filter { $0.lit }.count >= 3)
    }

    @Test func thePowerOffHoldAsksForPowerOff() {
        var session = loadedSession()
        let start = Instant.milliseconds(1_000)
        _ = session.handle(edges: [ButtonEdge(button: .play, level: .pressed, time: start)], now: start)
        let effects = session.advance(to: start + .milliseconds(6_100))
        #expect(effects.contains(.powerOff))
    }

    @Test func theLEDFollowsTheStateAndTheNextDeadlineIsExact() {
        var session = loadedSession()
        _ = session.handle(.playPause, now: .milliseconds(500))
        let ticket = session.player.ticket
        _ = session.handle(.audioStarted(ticket: ticket), now: .milliseconds(520))
        #expect(session.player.state.name == "playing")
        #expect(session.isLit(at: .milliseconds(600)))
        #expect(session.nextDeadline(after: .milliseconds(600)) == nil)  // steady on, no button pending
        _ = session.handle(.stickRemoved, now: .milliseconds(700))
        // Empty: the heartbeat, a short blink every two seconds from the change.
        #expect(session.isLit(at: .milliseconds(750)))
        #expect(!session.isLit(at: .milliseconds(900)))
        #expect(session.nextDeadline(after: .milliseconds(750)) == .milliseconds(800))
    }

    @Test func skipAndVolumeButtonsDriveThePlayer() {
        var session = PlayerSession(initialLevels: [.play: .released, .skip: .released, .volumeUp: .released], now: .zero)
        _ = session.handle(.stickLoaded(PlayerFixture.loaded(5)), now: .milliseconds(10))
        _ = session.handle(.audioStarted(ticket: session.player.ticket), now: .milliseconds(20))
        let first = session.player.currentTrack
        var effects = session.handle(edges: press(.skip, at: .milliseconds(100), for: .milliseconds(80)), now: .milliseconds(300))
        effects += session.handle(edges: press(.volumeUp, at: .milliseconds(400), for: .milliseconds(80)), now: .milliseconds(600))
        #expect(session.player.currentTrack != first)
        #expect(effects.contains(.player(.setVolume(55))))
    }
}
