#!/usr/bin/env python3
"""The virtual board's test, host side: QEMU's arm64 "virt" board running the aarch64 firmware
as on a Pi, with a USB stick hot-plugged through QMP, buttons pressed on the board's PL061 GPIO
through QEMU's qtest socket, the LED read from the same GPIO controller's output line, and audio
captured from the snd-aloop card the firmware plays to.

Usage: vboard.py GUEST SHARE STICK
  GUEST  folder with vmlinuz, initramfs.cpio and mpg123/ (board/vboard/build-guest.sh)
  SHARE  the folder shared with the guest over 9p (its out/ keeps the run's logs and capture)
  STICK  folder with stick.img and tracks/ (board/vboard/make-stick.sh)
Prints one line per assertion ("ok ..." or "FAIL ...", with what was expected and seen) and
the measured times; exits 1 if anything failed.
"""
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from rig import (QEMU, QEMU_VERSION, RATE, Failure, Serial, QMP, Qtest, Capture, CaptureClock, DaemonLog, Checks,
                 LedTrace, find_pl061, reference, first_sound, matching, is_silent, seconds, now, log)

PLAY, SKIP, VOLUME_UP, VOLUME_DOWN, LED = 0, 1, 2, 4, 5    # board/virt.ini
BUTTONS = (PLAY, SKIP, VOLUME_UP, VOLUME_DOWN)


class Board:
    """One run of QEMU with the guest, and the test's handles on it."""

    def __init__(self, guest, share, stick):
        self.guest, self.share, self.stick = guest, share, stick
        self.out = os.path.join(share, "out")
        self.run = tempfile.mkdtemp(prefix="vboard-")    # sockets: short paths (108-byte limit)
        shutil.rmtree(self.out, ignore_errors=True)
        os.makedirs(self.out)
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "guest.sh"), share)
        self.capture = Capture(os.path.join(self.out, "capture.raw"))
        self.clock = CaptureClock(self.capture)
        self.frame_at, self.wait_frames = self.clock.frame_at, self.clock.wait_frames
        self.daemon = DaemonLog(os.path.join(self.out, "shfl.log"))
        self.process = None
        self.plugged = False
        self.sampling = True
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self):
        """Every 5 ms: new daemon log lines, stamped with the host's time."""
        while self.sampling:
            self.daemon.poll()
            time.sleep(0.005)

    def wait_pulses(self, count, since, timeout, what):
        """Waits until the LED has lit `count` times after host time `since`."""
        deadline = time.monotonic() + timeout
        while len([t for t, line, lit in list(self.qtest.changes) if line == LED and lit and t >= since]) < count:
            if time.monotonic() > deadline:
                raise Failure(f"the LED did not light {count} times ({what}) within {timeout} s")
            time.sleep(0.02)

    def start(self):
        qtest_path, qmp_path = os.path.join(self.run, "qtest"), os.path.join(self.run, "qmp")
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(qtest_path)
        listener.listen(1)
        command = [
            QEMU, "-M", "virt", "-cpu", "cortex-a57", "-accel", "tcg", "-m", "512", "-nographic",
            "-nic", "none", "-S",
            "-kernel", os.path.join(self.guest, "vmlinuz"), "-initrd", os.path.join(self.guest, "initramfs.cpio"),
            "-append", "console=ttyAMA0 quiet usb_storage.delay_use=0",
            "-virtfs", f"local,path={self.share},mount_tag=host,security_model=none",
            "-device", "qemu-xhci,id=xhci",
            "-qmp", f"unix:{qmp_path},server=on,wait=off",
            "-qtest", f"unix:{qtest_path}",
        ] + getattr(self, "extra_arguments", [])
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        self.serial = Serial(self.process, os.path.join(self.out, "serial.log"))
        self.qtest = Qtest(listener)
        self.qmp = QMP(qmp_path)
        self.gpio = find_pl061(self.qmp)
        # The LED: the PL061's output lines reported as they change (QEMU still drives them).
        self.qtest.command(f"irq_intercept_out {self.gpio}")
        # Buttons pull their lines to ground when pressed: idle is high.
        for line in BUTTONS:
            self.set_line(line, 1)
        self.qmp.execute("cont")

    def set_line(self, line, level):
        self.qtest.set_input(self.gpio, line, level)

    def press(self, line, hold=0.1):
        """A press and release; the host times of both edges."""
        return self.qtest.press(self.gpio, line, hold)

    def plug(self):
        image = os.path.join(self.stick, "stick.img")
        self.qmp.execute("blockdev-add", **{"node-name": "stick", "driver": "raw", "read-only": True,
                                           "file": {"driver": "file", "filename": image, "read-only": True}})
        self.qmp.execute("device_add", driver="usb-storage", bus="xhci.0", drive="stick", id="stick-usb",
                         removable=True)
        self.plugged = True
        return now()

    def unplug(self):
        self.qmp.execute("device_del", id="stick-usb")
        pulled = now()
        self.qmp.wait_event("DEVICE_DELETED", 10)
        self.qmp.execute("blockdev-del", **{"node-name": "stick"})
        self.plugged = False
        return pulled

    def stop(self):
        """Asks the guest to stop the firmware and the capture, then ends QEMU."""
        if self.process is None:
            return
        try:
            if self.process.poll() is None:
                self.serial.send("vboard-stop")
                self.serial.wait(r"^VBOARD stopped", 20)
        except Failure as failure:
            log(f"stopping: {failure}")
        finally:
            if self.process.poll() is None:
                try:
                    self.qmp.execute("quit")
                except Exception:
                    self.process.kill()
            self.process.wait(timeout=10)
            time.sleep(0.05)
            self.sampling = self.clock.on = False
            shutil.rmtree(self.run, ignore_errors=True)


def run_scenario(board, checks, guest, tracks):
    at = {}
    board.start()
    board.serial.wait(r"^VBOARD booted", 90)
    at["booted"] = now()
    board.serial.wait(r"^VBOARD started shfl", 30)
    _, at["running"], _ = board.daemon.wait(r"shfl .* running", 30)
    gpio = board.daemon.find(r"buttons and LED on (.*)")
    checks.check(gpio and "9030000.pl061" in gpio[0][2].group(1) and "board virt" in gpio[0][2].group(1),
                 "the firmware finds the board's GPIO chip by its device tree model (board virt)",
                 f"its log says: {gpio[0][2].group(0) if gpio else 'nothing about buttons and LED'}")
    log(f"booted in {at['booted']:.1f} s; the daemon runs")

    # 1. No stick: the heartbeat (two full periods seen after the first pulse, which may be
    # cut short while the daemon starts under emulation).
    board.wait_pulses(4, at["running"], 30, "the heartbeat without a stick")
    led = LedTrace(board.qtest.changes, LED)
    checks.check(led.heartbeat(at["running"] + 0.5, now()), "no stick: the LED shows the heartbeat (100 ms on every 2 s)",
                 "LED from the daemon's start: " + led.describe(at["running"], now()))

    # 2. Plug the stick: loading, then the first shuffled track plays by itself.
    at["plug"] = board.plug()
    _, at["loading"], m = board.daemon.wait(r"empty -> loading\((.*)\)", 30)
    first = m.group(1)
    _, at["playing"], _ = board.daemon.wait(r"loading -> playing\(", 20)
    log(f"stick plugged; playing {first} {at['playing'] - at['plug']:.2f} s after device_add")
    board.wait_frames(board.frame_at(at["playing"]) + 2 * RATE, 30, "2 s of the first track")

    # 3. PLAY pauses, PLAY resumes.
    at["pause press"], at["pause release"] = board.press(PLAY)
    _, at["paused"], _ = board.daemon.wait(r"playing -> paused", 20)
    board.wait_frames(board.frame_at(at["paused"]) + 3 * RATE // 2, 30, "1.5 s paused")
    at["resume press"], at["resume release"] = board.press(PLAY)
    _, at["resumed"], _ = board.daemon.wait(r"paused -> playing", 20)
    board.wait_frames(board.frame_at(at["resumed"]) + 3 * RATE // 2, 30, "1.5 s after the resume")

    # 4. SKIP: the next track.
    at["skip press"], at["skip release"] = board.press(SKIP)
    skip_line, at["skipped"], m = board.daemon.wait(r"playing -> loading\((.*)\)", 20)
    second = m.group(1)
    _, at["second playing"], _ = board.daemon.wait(r"loading -> playing\(", 20, since=skip_line)
    board.wait_frames(board.frame_at(at["second playing"]) + 5 * RATE // 2, 30, "2.5 s of the track after SKIP")

    # 5. Unplug mid-track: empty, "no stick" on the LED, no crash.
    at["unplug"] = board.unplug()
    _, at["empty"], _ = board.daemon.wait(r"playing -> empty", 20)
    board.wait_pulses(3, at["empty"], 20, "the heartbeat after the unplug")
    at["after unplug"] = now()

    # 6. Re-plug: the same track resumes where it was.
    at["replug"] = board.plug()
    _, at["resuming"], m = board.daemon.wait(r"resuming at (.*) (\d+)ms", 30)
    resumed_track, resumed_ms = m.group(1), int(m.group(2))
    _, at["replayed"], _ = board.daemon.wait(r"loading -> playing\(", 20, since=board.daemon.find(r"resuming at")[-1][0])
    board.wait_frames(board.frame_at(at["replayed"]) + 5 * RATE // 2, 30, "2.5 s after the re-plug")
    at["end"] = now()
    crashed = [line for line in board.serial.lines if line and line.startswith("VBOARD shfl exited")]
    checks.check(not crashed, "the firmware ran the whole scenario without exiting", "; ".join(crashed))
    board.stop()

    # The checks on what was recorded. First the instrument: did the capture lose samples?
    try:
        with open(os.path.join(board.out, "arecord.log"), errors="replace") as f:
            recorder = f.read()
    except OSError:
        recorder = ""
    overruns = [line.strip() for line in recorder.splitlines() if "overrun" in line]
    buffer = re.search(r"buffer_size\s*:\s*(\d+)", recorder)
    checks.rig(not overruns, "the capture lost no samples (arecord reported no overrun)",
               "; ".join(overruns[:3]) + (f" (capture buffer {buffer.group(1)} frames)" if buffer else ""))
    underruns = board.daemon.find(r"audio underrun")
    checks.check(not underruns, "the player ran without an underrun",
                 f"the log says: {underruns[-1][2].string.strip() if underruns else ''} (the emulated CPU fell behind "
                 f"real time for longer than the player's 0.5 s buffer: a host far too busy, or a player far too slow)")
    capture = board.capture.samples()
    refs = {name: reference(guest, os.path.join(tracks, name)) for name in {first, second}}
    led = LedTrace(board.qtest.changes, LED)
    F = board.frame_at
    print(f"  tracks: first {first}, after SKIP {second}; capture {seconds(len(capture) // 2):.1f} s", flush=True)

    # LED while loading: the fast blink starts lit when the stick arrives; the loading lasts about
    # 100-200 ms here, so at least that first pulse, which the heartbeat's beat does not explain.
    # (A stick arriving within 30 ms of a heartbeat pulse's start hides it: reported, not failed.)
    steady = [t for t, lit in led.between(at["playing"] - 0.05, at["playing"] + 0.3) if lit]
    steady_rise = steady[-1] if steady else at["playing"]
    beats = [rise for rise, _ in led.pulses(at["running"], at["plug"])]
    def on_beat(rise):
        if not beats:
            return False
        phase = (rise - beats[-1]) % 2.0
        return min(phase, 2.0 - phase) <= 0.030
    pulses = [(r, f) for r, f in led.pulses(at["plug"], steady_rise) if r < steady_rise - 0.001]
    evident = [(r, f) for r, f in pulses if not on_beat(r) or (f is not None and f - r > 0.140)]
    hidden = [(r, f) for r, f in pulses if on_beat(r) and (f is None or f >= steady_rise - 0.25)]
    checks.check(evident or hidden, "plugged: the LED shows loading (the fast blink's pulse, off the heartbeat's beat)",
                 ("the loading pulse fell on a heartbeat pulse; " if hidden and not evident else "")
                 + "LED from device_add: " + led.describe(at["plug"], at["playing"] + 0.3))
    lit_changes = led.between(steady_rise + 0.001, at["pause press"] - 0.01)
    checks.check(led.level_at(steady_rise) and not lit_changes, "playing: the LED is steady on",
                 "LED from playing: " + led.describe(at["playing"], at["pause press"]))

    # Audio of the first track from its first sample: bit-exact with mpg123 -s.
    ref1 = refs[first]
    start = first_sound(capture, F(at["plug"]))
    ref_start = first_sound(ref1, 0)
    if not checks.check(start is not None, f"audio of the first track ({first}) is captured after device_add"):
        return at
    print(f"  device_add to first audio: {seconds(start - F(at['plug'])):.2f} s (capture clock); "
          f"device_add to the playing state: {at['playing'] - at['plug']:.2f} s", flush=True)
    before_pause = matching(capture, start, ref1, ref_start)
    pause_frame = start + before_pause
    # F(t) (the capture's size when the host saw an event) can only lag the guest's audio:
    # the checks against it are one-sided, and the capture's own frames say the rest.
    checks.check(before_pause > RATE and pause_frame >= F(at["pause press"]) - RATE // 10,
                 f"the first track's audio is bit-exact with mpg123 -s until the pause ({seconds(before_pause):.2f} s)",
                 f"{seconds(before_pause):.3f} s matched from the first sample; PLAY was pressed at capture "
                 f"{seconds(F(at['pause press'])):.2f} s or later, the match ended at {seconds(pause_frame):.2f} s")

    # Paused: silence until the second PLAY; then the track goes on from the very next sample.
    back = first_sound(capture, pause_frame)
    checks.check(back is not None and back >= F(at["resume press"]) - 0.1 * RATE and is_silent(capture, pause_frame, back),
                 f"paused: no audio until PLAY again ({seconds((back or pause_frame) - pause_frame):.2f} s of silence)",
                 f"sound came back at capture {seconds(back or 0):.2f} s; PLAY was pressed at {seconds(F(at['resume press'])):.2f} s")
    if back is None:
        return at
    resumed = matching(capture, back, ref1, ref_start + before_pause)
    skip_frame = back + resumed
    checks.check(resumed > RATE and skip_frame >= F(at["skip press"]) - RATE // 10,
                 f"PLAY resumes exactly: the next sample after the pause, bit-exact until SKIP ({seconds(resumed):.2f} s)",
                 f"{seconds(resumed):.3f} s matched from the sample after the pause; SKIP was pressed at capture "
                 f"{seconds(F(at['skip press'])):.2f} s or later, the match ended at {seconds(skip_frame):.2f} s")

    # SKIP: the next track's audio from its start.
    ref2 = refs[second]
    b_start, b_ref_start = first_sound(capture, skip_frame), first_sound(ref2, 0)
    if not checks.check(b_start is not None, f"audio of the track after SKIP ({second}) is captured"):
        return at
    b_played = matching(capture, b_start, ref2, b_ref_start)
    unplug_frame = b_start + b_played
    checks.check(b_played > RATE and unplug_frame >= F(at["unplug"]) - RATE // 10 and b_start - skip_frame < RATE // 2,
                 f"SKIP: the next track ({second}) is bit-exact with mpg123 -s from its start until the unplug ({seconds(b_played):.2f} s)",
                 f"{seconds(b_played):.3f} s matched, starting {seconds(b_start - skip_frame) * 1000:.1f} ms after "
                 f"the first track stopped; unplugged at capture {seconds(F(at['unplug'])):.2f} s")

    # Unplugged mid-track: silence, empty state, "no stick" on the LED.
    replug_sound = first_sound(capture, unplug_frame)
    checks.check(replug_sound is None or replug_sound >= F(at["replug"]),
                 "unplugged: no audio until the stick is back",
                 f"sound at capture {seconds(replug_sound or 0):.2f} s, re-plugged at {seconds(F(at['replug'])):.2f} s")
    print(f"  device_del to the empty state: {at['empty'] - at['unplug']:.3f} s", flush=True)
    checks.check(led.heartbeat(at["empty"], at["after unplug"]), "unplugged: the LED shows the heartbeat again",
                 "LED after the unplug: " + led.describe(at["empty"], at["after unplug"]))

    # Re-plugged: the same track resumes at its saved position (arm64 libmpg123: within 1 LSB
    # after a seek), bit-exact to the end except snd-aloop's last half second.
    played_ms = b_played * 1000 // RATE
    # The saved position is the last progress report of what was heard (written less what the
    # device still held): never past where the stick went, so nothing is skipped on resume.
    checks.check(resumed_track == second and resumed_ms <= played_ms and played_ms - resumed_ms <= 10_000,
                 f"re-plugged: it resumes {second} at {resumed_ms} ms (pulled at {played_ms} ms)",
                 f"the log says: resuming at {resumed_track} {resumed_ms}ms")
    again = first_sound(capture, max(unplug_frame, F(at["replug"])))
    if not checks.check(again is not None, "re-plugged: audio again"):
        return at
    at_frame = resumed_ms * RATE // 1000
    tail = matching(capture, again, ref2, at_frame, tolerance=1)
    last_sound = max(f for f in range(again, len(capture) // 2) if capture[2 * f] or capture[2 * f + 1])
    checks.check(tail > RATE and again + tail >= last_sound - RATE // 2,
                 f"re-plugged: the audio continues from the saved position (within 1 LSB, {seconds(tail):.2f} s)",
                 f"{seconds(tail):.3f} s matched from frame {at_frame} of {second}; the audio went on "
                 f"{seconds(last_sound - again - tail):.3f} s after the match ended")
    checks.check(led.level_at(at["end"] - 0.01) and not led.between(at["resuming"] + 0.3, at["end"] - 0.01),
                 "re-plugged: the LED is steady on while playing",
                 "LED after the re-plug: " + led.describe(at["replug"], at["end"]))

    for name, press, release, state in [("PLAY (pause)", "pause press", "pause release", "paused"),
                                        ("PLAY (resume)", "resume press", "resume release", "resumed"),
                                        ("SKIP", "skip press", "skip release", "skipped")]:
        print(f"  {name}: press edge to the state change {(at[state] - at[press]) * 1000:.0f} ms, "
              f"release edge to it {(at[state] - at[release]) * 1000:.0f} ms", flush=True)
    return at


class StallBoard(Board):
    """The board with the state directory on a drive of its own (virtio-blk, FAT, 8 MiB), so that
    it can be throttled like a slow SD card, as the stick can (QMP block_set_io_throttle)."""

    def __init__(self, guest, share, stick):
        super().__init__(guest, share, stick)
        self.state_image = os.path.join(self.run, "state.img")
        subprocess.run(["mkfs.vfat", "-C", self.state_image, "8192"], check=True, capture_output=True)
        with open(os.path.join(share, "state-drive"), "w") as f:
            f.write("the guest mounts /dev/vda at /var/lib/shfl\n")
        self.extra_arguments = ["-drive", f"if=none,id=state,format=raw,file={self.state_image}",
                                "-device", "virtio-blk-pci,drive=state,id=state-disk"]

    def block_device(self, node=None, backend=None):
        """The QOM path of the device a block node (`node`) or a named backend (`backend`, from
        -drive id=) is attached to: usb-storage attaches the stick to a SCSI disk of its own,
        virtio-blk-pci its drive to a virtio-blk device of its own."""
        for device in self.qmp.execute("query-block"):
            if (node and device.get("inserted", {}).get("node-name") == node) or (backend and device.get("device") == backend):
                return device["qdev"]
        raise Failure(f"query-block lists no device on {node or backend}")

    def throttle(self, device, read=0, write=0):
        """Limits the device's reads or writes to `read`/`write` bytes per second (0: no limit;
        all 0: throttling off, the queued requests go on)."""
        self.qmp.execute("block_set_io_throttle", id=device, bps=0, bps_rd=read, bps_wr=write,
                         iops=0, iops_rd=0, iops_wr=0)


def run_stall_scenario(board, checks, guest, tracks):
    """Issue #14: the stick's reads stall for 2.5 s mid-track, then the state drive's writes stall
    while PLAY, PLAY and SKIP are pressed: the audio has no gap, the buttons no delay."""
    at = {}
    board.start()
    board.serial.wait(r"^VBOARD booted", 90)
    board.serial.wait(r"^VBOARD state on /dev/vda", 30)
    board.serial.wait(r"^VBOARD started shfl", 30)
    _, at["running"], _ = board.daemon.wait(r"shfl .* running", 30)
    at["plug"] = board.plug()
    _, at["loading"], m = board.daemon.wait(r"empty -> loading\((.*)\)", 30)
    first = m.group(1)
    _, at["playing"], _ = board.daemon.wait(r"loading -> playing\(", 10)
    # Past the 128 KiB the kernel may have read ahead before its read-ahead was turned off.
    time.sleep(5.0)

    # 1. The stick: one byte a second for 2.5 s (a weak sector retried), mid-track.
    stick = board.block_device(node="stick")
    board.throttle(stick, read=1)
    at["stick stalled"] = now()
    time.sleep(2.5)
    board.throttle(stick)
    at["stick restored"] = now()
    log(f"stick reads throttled to 1 B/s for {at['stick restored'] - at['stick stalled']:.1f} s ({stick})")
    time.sleep(1.5)

    # 2. The state drive: one byte a second for writes, while PLAY (a save), PLAY and SKIP.
    card = board.block_device(backend="state")
    board.throttle(card, write=1)
    at["card stalled"] = now()
    at["pause press"], at["pause release"] = board.press(PLAY)
    _, at["paused"], _ = board.daemon.wait(r"playing -> paused", 5)
    # Paused 2.3 s while its save waits on the drive: the slow blink's schedule must keep time.
    time.sleep(2.3)
    at["resume press"], at["resume release"] = board.press(PLAY)
    _, at["resumed"], _ = board.daemon.wait(r"paused -> playing", 5)
    time.sleep(1.0)
    at["skip press"], at["skip release"] = board.press(SKIP)
    _, at["skipped"], m = board.daemon.wait(r"playing -> loading\((.*)\)", 5)
    board.daemon.wait(r"loading -> playing\(", 10)
    time.sleep(1.0)
    board.throttle(card)
    at["card restored"] = now()
    log(f"state drive writes throttled to 1 B/s for {at['card restored'] - at['card stalled']:.1f} s")
    time.sleep(1.0)

    # 3. The stick stalls as a track opens (SKIP), then is pulled: the empty state comes at once,
    # and a stick plugged again plays (no thread is left hanging on the dead file).
    stick = board.block_device(node="stick")
    board.throttle(stick, read=1)
    at["open press"], at["open release"] = board.press(SKIP)
    since = len(board.daemon.lines)
    _, at["opening"], _ = board.daemon.wait(r"playing -> loading\(", 5, since=since)
    time.sleep(1.0)
    at["pull"] = board.unplug()
    _, at["pulled empty"], _ = board.daemon.wait(r"-> empty", 10, since=since)
    at["replug"] = board.plug()
    replayed = True
    try:
        board.daemon.wait(r"loading -> playing\(", 15, since=board.daemon.find(r"-> empty", since)[-1][0])
    except Failure:
        replayed = False
    time.sleep(1.0)
    crashed = [line for line in board.serial.lines if line and line.startswith("VBOARD shfl exited")]
    checks.check(not crashed, "the firmware ran the whole stall scenario without exiting", "; ".join(crashed))
    board.stop()

    capture = board.capture.samples()
    ref1 = reference(guest, os.path.join(tracks, first))
    F = board.frame_at
    start = first_sound(capture, F(at["plug"]))
    if not checks.check(start is not None, f"audio of the first track ({first}) is captured after device_add"):
        return at
    played = matching(capture, start, ref1, first_sound(ref1, 0))
    end = start + played
    checks.check(end >= F(at["stick restored"]) + RATE // 2 and abs(end - F(at["paused"])) < 0.5 * RATE,
                 f"the stick's reads stalled 2.5 s mid-track: the audio is bit-exact with mpg123 -s, without a gap, "
                 f"until the pause ({seconds(played):.2f} s)",
                 f"{seconds(played):.3f} s matched from the first sample: to capture {seconds(end):.2f} s; the stall was "
                 f"{seconds(F(at['stick stalled'])):.2f}-{seconds(F(at['stick restored'])):.2f} s, the pause at "
                 f"{seconds(F(at['paused'])):.2f} s")
    underruns = board.daemon.find(r"underrun")
    try:
        with open(os.path.join(board.out, "arecord.log"), errors="replace") as f:
            overruns = [line.strip() for line in f if "overrun" in line]
    except OSError:
        overruns = []
    checks.check(not underruns, "the daemon logs no underrun", "" if not underruns else
                 f"{len(underruns)} logged at host {', '.join(f'{t:.2f}' for _, t, _ in underruns[:3])} s; the stall was "
                 f"{at['stick stalled']:.2f}-{at['stick restored']:.2f} s"
                 + (f"; arecord overran too ({'; '.join(overruns[:2])}): the host starved the emulator" if overruns else ""))
    for name, release, state in [("PLAY (pause)", "pause release", "paused"),
                                 ("PLAY (resume)", "resume release", "resumed"), ("SKIP", "skip release", "skipped")]:
        latency = (at[state] - at[release]) * 1000
        checks.check(latency <= 50, f"state drive stalled: {name}'s release edge reaches its state change in "
                     f"{latency:.0f} ms (<= 50 ms)")
    pulled = (at["pulled empty"] - at["pull"]) * 1000
    removed = [t for _, t, _ in board.daemon.find(r"removed") if t >= at["pull"]]
    event = (at["pulled empty"] - removed[0]) * 1000 if removed else float("nan")
    checks.check(pulled <= 500 and event <= 100,
                 f"the stick pulled while a track's open stalled: the empty state {event:.0f} ms after the daemon's "
                 f"removal event (<= 100 ms), {pulled:.0f} ms after device_del (the guest kernel's disconnect and "
                 f"udev take the rest; unstalled: about 100 ms)")
    checks.check(replayed, "plugged again after that pull, it plays (nothing hangs on the dead file)")
    # The paused pattern (dark 1000 ms, lit 1000 ms) while the pause's save is stalled.
    led = LedTrace(board.qtest.changes, LED)
    # (From the state change: the press and release before it show their own feedback.)
    blink = led.between(at["paused"] - 0.05, at["resume press"] - 0.01)
    kept = any([lit for _, lit in blink[i:i + 3]] == [False, True, False]
               and abs(blink[i][0] - at["paused"]) <= 0.100
               and abs(blink[i + 1][0] - blink[i][0] - 1.000) <= 0.030
               and abs(blink[i + 2][0] - blink[i + 1][0] - 1.000) <= 0.030 for i in range(len(blink) - 2))
    checks.check(kept, "state drive stalled: the paused LED pattern keeps time (dark 1000 ms, lit 1000 ms, within 30 ms)",
                 "LED from the pause: " + led.describe(at["paused"] - 0.05, at["resume press"]))
    failures = board.daemon.find(r"saving stick")
    checks.check(not failures, "the saves delayed by the stall are written once it ends, without an error",
                 "; ".join(m.group(0) for _, _, m in failures[:3]))
    return at


def main():
    guest, share, stick = (os.path.abspath(path) for path in sys.argv[1:4])
    version = subprocess.run([QEMU, "--version"], capture_output=True, text=True).stdout
    if f"version {QEMU_VERSION}" not in version:
        print(f"vboard: this test speaks QEMU {QEMU_VERSION}x's qtest protocol (Debian 12); found: "
              f"{version.splitlines()[0] if version else 'no ' + QEMU}", file=sys.stderr)
        return 2
    # VBOARD_SCENARIO=stall: the stalls of issue #14 (the stick, the state drive) instead.
    stall = os.environ.get("VBOARD_SCENARIO") == "stall"
    board, checks = (StallBoard if stall else Board)(guest, share, stick), Checks()
    try:
        (run_stall_scenario if stall else run_scenario)(board, checks, guest, os.path.join(stick, "tracks"))
    except Exception as failure:                        # Failure, or a broken socket or tool
        checks.check(False, "the scenario ran to its end", f"{type(failure).__name__}: {failure}")
    finally:
        board.stop()
        with open(os.path.join(board.out, "led.txt"), "w") as f:
            for t, line, lit in board.qtest.changes if hasattr(board, "qtest") else []:
                f.write(f"{t:.4f} line {line} {'on' if lit else 'off'}\n")
        with open(os.path.join(board.out, "daemon.log"), "w") as f:
            for t, line in board.daemon.lines:
                f.write(f"[{t:7.3f}] {line}\n")
    took = now()
    print(f"  the whole run took {took:.1f} s", flush=True)
    print(f"vboard: {checks.passed} passed, {checks.failed} failed; logs in {board.out}")
    if checks.failed:
        for name in ("daemon.log", "serial.log"):
            print(f"--- the end of {name}:")
            with open(os.path.join(board.out, name), errors="replace") as f:
                print("".join(f.readlines()[-25:]), end="")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
