#!/usr/bin/env python3
"""`make image-test`, host side: boots the SD-card image itself on QEMU and checks the player
under systemd (image/README.md, "The image test").

Usage: image_test.py IMAGE WORK GUEST ARECORD STICK [virt|raspi3b|all]
  IMAGE    out/image/shfl-<version>-raspi-arm64.img (its .partitions file beside it)
  WORK     a scratch folder (.build-image/test): the disk copies, the run's logs
  GUEST    the virtual board's guest folder (board/vboard/build-guest.sh): mpg123/ for references
  ARECORD  Debian's arm64 arecord (the capture runs in the guest; the image does not ship it)
  STICK    board/vboard/make-stick.sh's folder (stick.img, tracks/)

virt (QEMU's arm64 virt board, cortex-a57, TCG): the image's kernel, initramfs and root from the
image file (a virtio disk), systemd as PID 1, the packaged unit unmodified, a test shfl.ini on
the boot partition (audio to snd-aloop, the virt pin map). The test's own pieces come in through
an extra initramfs archive appended to the image's: an agent that runs the host's commands and
the journal streamed to the host, both on virtio ports, put in /run at boot. The image's files
are untouched (the root partition's sha256 is compared).
raspi3b: the same kernel with the Pi 3 B device tree from the boot partition; board recognised
as pi-3, LED heartbeat on GPIO24, a USB stick on the dwc2 controller.

Prints "ok"/"FAIL" lines (product checks), "RIG ERROR" for a failure of the test's own machinery,
and the figures; exits 1 on any FAIL or RIG ERROR.
"""
import hashlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "board", "vboard"))
from rig import (QEMU, QEMU_VERSION, RATE, Failure, Serial, SocketLines, QMP, Qtest, Capture, CaptureClock, Checks,  # noqa: E402
                 LedTrace, find_pl061, reference, first_sound, matching, is_silent, seconds, now, log)

PLAY, SKIP, VOLUME_UP, VOLUME_DOWN = 0, 1, 2, 4     # board/virt.ini
BUTTONS = (PLAY, SKIP, VOLUME_UP, VOLUME_DOWN)
PI3_LED = 24                                        # board/pi-3.ini
SAVE_INTERVAL_MS = 3000                             # the test's shfl.ini
WATCHDOG_S = 10                                     # board/shfl.service WatchdogSec=
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))

VIRT_INI = f"""# image-test: QEMU virt, audio to snd-aloop (the capture is the loopback's other end)
[board]
name = virt
[audio]
device = hw:Loopback,0,0
# 1024-frame periods in a 4096-frame buffer: smaller periods overrun under emulation.
period-time = 23220us
buffer-time = 92880us
[volume]
initial = 100
[player]
save-interval = {SAVE_INTERVAL_MS // 1000}s
"""
# QEMU's raspi3b has no sound device: ALSA's null PCM.
PI3_INI = """# image-test: QEMU raspi3b (no sound device), the board recognised by its device tree
[audio]
device = null
"""


class RigError(Exception):
    """The test's machinery failed (QEMU, a socket, a tool), not the product."""


RIG_ERRORS = []


def rig_error(message):
    """A failure of the test's own machinery that lets the run go on (checks depending on it skipped)."""
    RIG_ERRORS.append(message)
    print(f"RIG ERROR image-test: {message}", flush=True)


def run(*command, **kw):
    return subprocess.run(command, check=True, capture_output=True, text=kw.pop("text", True), **kw)


class Disk:
    """A working copy of the image, its partitions (byte offsets) and the files on its FAT."""

    def __init__(self, image, path, size=None):
        self.path = path
        self.parts = {}
        with open(os.path.splitext(image)[0] + ".partitions") as f:
            for line in f:
                name, offset, length = line.split()
                self.parts[name] = (int(offset), int(length))
        run("cp", "--sparse=always", image, path)
        if size:
            os.truncate(path, size)

    def fat(self):
        return f"{self.path}@@{self.parts['boot'][0]}"

    def read_file(self, name, dest):
        run("mcopy", "-o", "-n", "-i", self.fat(), f"::{name}", dest, env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        return dest

    def write_file(self, name, text):
        with tempfile.NamedTemporaryFile("w", suffix=".ini", delete=False) as f:
            f.write(text)
        run("mcopy", "-o", "-i", self.fat(), f.name, f"::{name}", env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
        os.unlink(f.name)

    def sha256(self, part):
        offset, length = self.parts[part]
        digest = hashlib.sha256()
        with open(self.path, "rb") as f:
            f.seek(offset)
            left = length
            while left:
                chunk = f.read(min(left, 1 << 20))
                digest.update(chunk)
                left -= len(chunk)
        return digest.hexdigest()

    def extract(self, part, dest):
        offset, length = self.parts[part]
        run("dd", f"if={self.path}", f"of={dest}", "bs=1M", f"skip={offset >> 20}", f"count={length >> 20}",
            "status=none")
        return dest


def test_initrd(disk, work):
    """The image's initramfs with the test's archive appended: its init-bottom script puts the
    test's units into /run (shfltest= on the kernel command line says which)."""
    image_initrd = disk.read_file("initrd.img", os.path.join(work, "initrd.img"))
    order = subprocess.run(f"zstd -dc {image_initrd} | cpio -i --quiet --to-stdout scripts/init-bottom/ORDER",
                           shell=True, capture_output=True, check=True).stdout.decode()
    if "init-bottom" not in order:
        raise RigError("the image's initramfs has no scripts/init-bottom/ORDER")
    tree = os.path.join(work, "initrd-test")
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(os.path.join(tree, "scripts", "init-bottom"))
    with open(os.path.join(tree, "scripts", "init-bottom", "ORDER"), "w") as f:
        f.write(order.rstrip("\n") + '\n/scripts/init-bottom/shfl-test "$@"\n[ -e /conf/param.conf ] && . /conf/param.conf\n')
    shutil.copy(os.path.join(HERE, "guest", "init-bottom"), os.path.join(tree, "scripts", "init-bottom", "shfl-test"))
    os.chmod(os.path.join(tree, "scripts", "init-bottom", "shfl-test"), 0o755)
    shutil.copytree(os.path.join(HERE, "guest"), os.path.join(tree, "shfl-test"))
    os.remove(os.path.join(tree, "shfl-test", "init-bottom"))
    archive = subprocess.run("find . | LC_ALL=C sort | cpio -o -H newc --quiet", shell=True, cwd=tree,
                             capture_output=True, check=True).stdout
    combined = os.path.join(work, "initrd-test.img")
    with open(combined, "wb") as out, open(image_initrd, "rb") as base:
        out.write(base.read())
        out.write(b"\0" * (-out.tell() % 4))
        out.write(archive)
    return combined


def journal_time(line):
    """The guest's monotonic time (s since the kernel started) of a short-monotonic journal line."""
    match = re.match(r"\s*\[\s*(\d+\.\d+)\]", line or "")
    return float(match.group(1)) if match else None


class Agent:
    """The guest's agent (image/test/guest/agent.sh) on its virtio port."""

    def __init__(self, lines):
        self.lines, self.next = lines, 1

    def run(self, command, timeout=60, check=True):
        ident = self.next
        self.next += 1
        since = len(self.lines.lines)
        self.lines.send(f"{ident} {command}")
        line, index = self.lines.wait(rf"^END {ident} (\d+)$", timeout, since)
        status = int(line.split()[2])
        output = "\n".join(l[len(f"OUT {ident} "):] for l in self.lines.lines[since:index]
                           if l and l.startswith(f"OUT {ident} "))
        if check and status != 0:
            raise Failure(f"guest command {command!r} exited with {status}: {output}")
        return status, output


class VirtBoard:
    """One boot of the image on QEMU's virt board."""

    def __init__(self, disk, kernel, initrd, cmdline, share, out, stick=None, plugged=False):
        self.out, self.stick = out, stick
        os.makedirs(out, exist_ok=True)
        self.run = tempfile.mkdtemp(prefix="imgtest-")
        q = lambda name: os.path.join(self.run, name)      # noqa: E731
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(q("qtest"))
        listener.listen(1)
        command = [
            QEMU, "-M", "virt", "-cpu", "cortex-a57", "-smp", "2", "-accel", "tcg", "-m", "512",
            "-nographic", "-nic", "none", "-S",
            "-kernel", kernel, "-initrd", initrd, "-append", cmdline,
            "-drive", f"file={disk.path},format=raw,if=none,id=sd", "-device", "virtio-blk-pci,drive=sd",
            "-device", "virtio-serial-pci",
            "-chardev", f"socket,id=agent,path={q('agent')},server=on,wait=off",
            "-device", "virtserialport,chardev=agent,name=org.shfl.agent",
            "-chardev", f"socket,id=journal,path={q('journal')},server=on,wait=off",
            "-device", "virtserialport,chardev=journal,name=org.shfl.journal",
            "-virtfs", f"local,path={share},mount_tag=host,security_model=none",
            "-device", "qemu-xhci,id=xhci",
            "-qmp", f"unix:{q('qmp')},server=on,wait=off", "-qtest", f"unix:{q('qtest')}", "-qtest-log", "/dev/null",
        ]
        if plugged:
            command += ["-drive", f"file={os.path.join(stick, 'stick.img')},format=raw,if=none,id=stick,readonly=on",
                        "-device", "usb-storage,bus=xhci.0,drive=stick,id=stick-usb,removable=on"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT)
        self.serial = Serial(self.process, os.path.join(out, "serial.log"))
        try:
            self.qtest = Qtest(listener)
            self.qmp = QMP(q("qmp"))
            self.journal = SocketLines(q("journal"), os.path.join(out, "journal.txt"))
            self.agent_lines = SocketLines(q("agent"), os.path.join(out, "agent.txt"))
        except Failure as failure:
            raise RigError(f"QEMU's sockets: {failure}")
        self.agent = Agent(self.agent_lines)
        self.gpio = find_pl061(self.qmp)
        self.qtest.command(f"irq_intercept_out {self.gpio}")
        for line in BUTTONS:
            self.set_line(line, 1)
        self.qmp.execute("cont")
        self.started = now()

    def set_line(self, line, level):
        self.qtest.set_input(self.gpio, line, level)

    def press(self, line, hold=0.1):
        """A press and release; the host time of the press edge."""
        return self.qtest.press(self.gpio, line, hold)[0]

    def plug(self):
        image = os.path.join(self.stick, "stick.img")
        self.qmp.execute("blockdev-add", **{"node-name": "stick", "driver": "raw", "read-only": True,
                                           "file": {"driver": "file", "filename": image, "read-only": True}})
        self.qmp.execute("device_add", driver="usb-storage", bus="xhci.0", drive="stick", id="stick-usb",
                         removable=True)
        return now()

    def wait_exit(self, timeout):
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        """The power cut: QEMU killed, no shutdown of any kind."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)
        return now()

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        shutil.rmtree(self.run, ignore_errors=True)


def print_figure(name, value):
    print(f"  figure: {name}: {value}", flush=True)


def first_boot(board, checks, disk, share_out, guest, tracks):
    """Boot 1: READY, the sandbox, the control socket, then the stick, PLAY, SKIP, and the power cut."""
    at = {}
    j = board.journal
    j.wait(r"Started shfl\.service", 240)
    board.agent_lines.wait(r"^READY agent", 60)
    _, out = board.agent.run("systemctl show -p ActiveEnterTimestampMonotonic -p ExecMainStartTimestampMonotonic "
                             "-p MainPID -p StatusText -p DropInPaths -p FragmentPath -p NRestarts shfl")
    props = dict(l.split("=", 1) for l in out.splitlines() if "=" in l)
    ready_us = int(props.get("ActiveEnterTimestampMonotonic", "0"))
    start_us = int(props.get("ExecMainStartTimestampMonotonic", "0"))
    print_figure("kernel start -> shfl READY (boot 1, no stick)", f"{ready_us / 1e6:.2f} s "
                 f"(started at {start_us / 1e6:.2f} s, READY {(ready_us - start_us) / 1e6:.2f} s later)")
    status, text = board.agent.run("systemctl status shfl --no-pager -l -n 0", check=False)
    checks.check(status == 0 and "active (running)" in text, "systemctl status shfl: active (running) after READY (Type=notify)",
                 text.replace("\n", "\n     "))
    print("  " + "\n  ".join(text.splitlines()[:6]), flush=True)
    checks.check(props.get("FragmentPath") in ("/lib/systemd/system/shfl.service", "/usr/lib/systemd/system/shfl.service")
                 and not props.get("DropInPaths"), "the packaged unit runs unmodified (no drop-ins)",
                 f"FragmentPath={props.get('FragmentPath')} DropInPaths={props.get('DropInPaths')}")
    _, unit_sum = board.agent.run(f"sha256sum {props.get('FragmentPath')}")
    with open(os.path.join(REPO, "board", "shfl.service"), "rb") as f:
        repo_sum = hashlib.sha256(f.read()).hexdigest()
    checks.check(unit_sum.split()[0] == repo_sum, "the installed unit is board/shfl.service byte for byte")
    checks.check(bool(props.get("StatusText")), "sd_notify STATUS= reaches systemd", f"StatusText={props.get('StatusText')!r}")
    pid = props.get("MainPID")
    _, proc = board.agent.run(f"grep -E '^(Seccomp|NoNewPrivs|CapEff|CapBnd):' /proc/{pid}/status; "
                              f"readlink /proc/1/ns/net /proc/{pid}/ns/net /proc/1/ns/mnt /proc/{pid}/ns/mnt")
    fields = dict(re.findall(r"^(\w+):\s+(\S+)", proc, re.M))
    ns = [l for l in proc.splitlines() if ":[" in l]
    checks.check(fields.get("Seccomp") == "2" and fields.get("NoNewPrivs") == "1"
                 and fields.get("CapEff") == "0000000000200000" and len(ns) == 4 and ns[0] != ns[1] and ns[2] != ns[3],
                 "the daemon runs in its sandbox: seccomp filter, no new privileges, CAP_SYS_ADMIN only, "
                 "its own network and mount namespaces", proc.replace("\n", "; "))
    gpio = j.find(r"buttons and LED on (.*)")
    checks.check(gpio and "board virt" in gpio[0][1], "the daemon uses the virt pin map named in shfl.ini",
                 gpio[0][1] if gpio else "no 'buttons and LED on' line in the journal")
    status, text = board.agent.run("gid=$(getent group shfl | cut -d: -f3); "
                                   "setpriv --reuid=65534 --regid=65534 --groups=$gid shfl status", check=False)
    checks.check(status == 0 and "state:" in text, "shfl status over the control socket as nobody in group shfl",
                 text.replace("\n", "; "))
    status, text = board.agent.run("setpriv --reuid=65534 --regid=65534 --clear-groups shfl status", check=False)
    checks.check(status != 0, "... and refused to nobody outside group shfl", f"exit {status}: {text}")
    _, text = board.agent.run("cat /proc/net/tcp /proc/net/tcp6 /proc/net/udp /proc/net/udp6 /proc/net/raw "
                              "/proc/net/raw6 2>/dev/null | grep -v local_address | wc -l; ls /sys/class/net")
    checks.check(text.split()[0] == "0", "nothing listens on a network (no TCP, UDP or raw sockets)", text.replace("\n", "; "))
    _, text = board.agent.run("systemctl list-units --type=service --state=running --no-legend --plain | cut -d' ' -f1")
    print(f"  running services: {' '.join(text.split())}", flush=True)
    _, text = board.agent.run("systemctl --failed --no-legend --plain")
    checks.check(not text.strip(), "no failed units", text.replace("\n", "; "))
    _, text = board.agent.run("findmnt -no OPTIONS /; findmnt -no FSTYPE,OPTIONS /var/lib/shfl; findmnt -no FSTYPE /var/log/journal /run/log/journal 2>&1 | head -2; ls /var/log/journal 2>&1 | head -1")
    checks.check(text.splitlines()[0].startswith("ro,"), "the root is mounted read-only; /var/lib/shfl is its own ext4",
                 text.replace("\n", "; "))
    for command in ("systemd-analyze time", "systemd-analyze blame --no-pager | head -5", "free -m"):
        _, text = board.agent.run(command, check=False)
        print(f"  figure: {command} (boot 1, TCG):\n    " + "\n    ".join(text.splitlines()), flush=True)

    # The capture: arecord in the guest (Debian's, from the host's folder) on the loopback's other end.
    capture = Capture(os.path.join(share_out, "capture.raw"))
    # A 1 s capture buffer at real-time priority: the capture must not overrun under emulation
    # (an overrun is a failure of the rig, reported as such).
    board.agent.run("setsid -f chrt -f 60 /run/shfl-test/host/arecord -q -D hw:Loopback,1,0 -f S16_LE -c 2 -r 44100 "
                    "--period-size=1024 --buffer-size=44032 -t raw /run/shfl-test/host/out/capture.raw "
                    "2>/run/shfl-test/host/out/arecord.log")
    clock = CaptureClock(capture)
    deadline = time.monotonic() + 20
    while capture.frames() < RATE // 2:
        if time.monotonic() > deadline:
            raise RigError("the capture (arecord in the guest) does not grow; see arecord.log")
        time.sleep(0.05)

    since = len(j.lines)
    at["plug"] = board.plug()
    line, _ = j.wait(r"empty -> loading\((.*)\)", 30, since)
    first = re.search(r"empty -> loading\((.*)\)", line).group(1)
    j.wait(r"loading -> playing\(", 15, since)
    at["playing"] = now()
    clock.wait_frames(clock.frame_at(at["playing"]) + 2 * RATE, 30, "2 s of the first track")
    since = len(j.lines)
    at["pause press"] = board.press(PLAY)
    j.wait(r"playing -> paused", 20, since)
    at["paused"] = now()
    clock.wait_frames(clock.frame_at(at["paused"]) + 3 * RATE // 2, 30, "1.5 s paused")
    since = len(j.lines)
    at["resume press"] = board.press(PLAY)
    j.wait(r"paused -> playing", 20, since)
    at["resumed"] = now()
    clock.wait_frames(clock.frame_at(at["resumed"]) + 3 * RATE // 2, 30, "1.5 s after the resume")
    since = len(j.lines)
    at["skip press"] = board.press(SKIP)
    line, _ = j.wait(r"playing -> loading\((.*)\)", 20, since)
    at["skipped"] = now()
    second = re.search(r"playing -> loading\((.*)\)", line).group(1)
    line, _ = j.wait(r"loading -> playing\(", 20, since)
    second_playing = journal_time(line)
    at["second playing"] = now()
    clock.wait_frames(clock.frame_at(at["second playing"]) + (SAVE_INTERVAL_MS // 1000) * RATE + 5 * RATE // 2, 30,
                      "the save interval and 2.5 s of the track after SKIP")
    # 3. The power cut: the guest's clock read just before, to know where the track was.
    _, uptime = board.agent.run("cat /proc/uptime")
    at["cut"] = board.kill()
    cut_ms = int((float(uptime.split()[0]) - second_playing) * 1000)
    clock.on = False
    log("QEMU killed while playing (power cut)")

    with open(os.path.join(share_out, "arecord.log"), errors="replace") as f:
        arecord_log = f.read().strip()
    if "overrun" in arecord_log or "xrun" in arecord_log.lower():
        rig_error(f"the capture (arecord in the guest) overran: {arecord_log!r}; the audio checks of boot 1 "
                  "would judge the rig, not the player, and are skipped")
        return {"track": second, "cut_ms": cut_ms}
    samples = capture.samples()
    F = clock.frame_at
    refs = {name: reference(guest, os.path.join(tracks, name)) for name in {first, second}}
    ref1, ref2 = refs[first], refs[second]
    start, ref_start = first_sound(samples, F(at["plug"])), first_sound(ref1, 0)
    if not checks.check(start is not None, f"audio of the first track ({first}) is captured after the stick is plugged"):
        return None
    print_figure("device_add (stick plugged) -> first audio", f"{seconds(start - F(at['plug'])):.2f} s (capture clock)")
    n = matching(samples, start, ref1, ref_start)
    pause_frame = start + n
    # F(t), the capture's size when the host saw an event, can only lag the guest's audio:
    # the checks against it are one-sided (as in vboard.py).
    checks.check(n > RATE and pause_frame >= F(at["pause press"]) - RATE // 10,
                 f"the first track is bit-exact with arm64 mpg123 -s until PLAY pauses it ({seconds(n):.2f} s)",
                 f"matched {seconds(n):.3f} s; PLAY pressed at capture {seconds(F(at['pause press'])):.2f} s or later")
    back = first_sound(samples, pause_frame)
    checks.check(back is not None and back >= F(at["resume press"]) - RATE // 10 and is_silent(samples, pause_frame, back),
                 "paused: silence until PLAY again")
    if back is None:
        return None
    n2 = matching(samples, back, ref1, ref_start + n)
    skip_frame = back + n2
    checks.check(n2 > RATE and skip_frame >= F(at["skip press"]) - RATE // 10,
                 f"PLAY resumes exactly at the next sample, bit-exact until SKIP ({seconds(n2):.2f} s)")
    b_start, b_ref = first_sound(samples, skip_frame), first_sound(ref2, 0)
    if not checks.check(b_start is not None, f"SKIP: the next track ({second}) is captured"):
        return None
    n3 = matching(samples, b_start, ref2, b_ref)
    checks.check(n3 > RATE, f"SKIP: {second} is bit-exact from its start ({seconds(n3):.2f} s until the power cut)")
    return {"track": second, "cut_ms": cut_ms}


def check_state_after_cut(disk, work, checks):
    """The state partition as the power cut left it: its journal replayed on a copy, then fsck -n."""
    copy = disk.extract("state", os.path.join(work, "state-after-cut.fs"))
    info = run("dumpe2fs", "-h", copy).stdout
    needs_recovery = "needs_recovery" in info
    replay = subprocess.run(["e2fsck", "-E", "journal_only", "-y", copy], capture_output=True, text=True)
    result = subprocess.run(["e2fsck", "-fn", copy], capture_output=True, text=True)
    checks.check(result.returncode == 0, "after the power cut, the state partition is clean (e2fsck -fn"
                 + (", after replaying its journal" if needs_recovery else "") + ")",
                 (replay.stdout + result.stdout + result.stderr).replace("\n", "; "))


def second_boot(board, checks, cut):
    """Boot 2 with the stick present: resume, figures, the watchdog, then the power-off hold."""
    j = board.journal
    line, _ = j.wait(r"Started shfl\.service", 240)
    ready_s = journal_time(line)
    line, _ = j.wait(r"resuming at (.*) (\d+)ms", 60)
    m = re.search(r"resuming at (.*) (\d+)ms", line)
    track, ms = m.group(1), int(m.group(2))
    line, _ = j.wait(r"loading -> playing\(", 30)
    playing_s = journal_time(line)
    gap = cut["cut_ms"] - ms
    checks.check(track == cut["track"] and -300 <= gap <= SAVE_INTERVAL_MS + 300,
                 f"after the power cut, the stick resumes {track} at {ms} ms, {gap} ms before where the cut "
                 f"found it (save interval {SAVE_INTERVAL_MS} ms)",
                 f"the cut was in {cut['track']} at about {cut['cut_ms']} ms (the guest's clock)")
    print_figure("kernel start -> READY (boot 2, stick present)", f"{ready_s:.2f} s")
    print_figure("READY -> music (boot 2: the stick's track playing)", f"{playing_s - ready_s:.2f} s; kernel start -> music {playing_s:.2f} s")
    board.agent_lines.wait(r"^READY agent", 60)
    for command in ("systemd-analyze time", "systemd-analyze blame --no-pager | head -5", "free -m"):
        _, text = board.agent.run(command, check=False)
        print(f"  figure: {command} (boot 2, stick present, TCG):\n    " + "\n    ".join(text.splitlines()), flush=True)

    # 4. The watchdog: the daemon stopped, killed and restarted by systemd.
    since = len(j.lines)
    board.agent.run("logger -t image-test SIGSTOP; systemctl kill -s SIGSTOP --kill-whom=main shfl")
    line, _ = j.wait(r"image-test.*SIGSTOP", 10, since)
    stopped = journal_time(line)
    line, _ = j.wait(r"shfl\.service: Watchdog timeout", WATCHDOG_S + 10, since)
    fired = journal_time(line)
    line, _ = j.wait(r"Started shfl\.service", 30, since)
    restarted = journal_time(line)
    checks.check(fired - stopped <= WATCHDOG_S + 0.5 and restarted > fired,
                 f"watchdog: SIGSTOP -> systemd's watchdog timeout {fired - stopped:.1f} s (WatchdogSec={WATCHDOG_S}s), "
                 f"READY again {restarted - stopped:.1f} s after the SIGSTOP")
    j.wait(r"-> playing\(", 30, since)
    checks.check(True, "after the watchdog's restart the stick plays again")

    # 5. The power-off hold: PLAY held until the daemon exits with 100, the system powers off.
    since = len(j.lines)
    board.set_line(PLAY, 0)
    pressed = now()
    try:
        j.wait(r"shfl\.service: .*(status=100|Deactivated successfully)", 15, since)
    finally:
        board.set_line(PLAY, 1)
    held = now() - pressed
    status = board.wait_exit(90)
    checks.check(status is not None, f"the power-off hold (PLAY {held:.1f} s) powers the guest off (QEMU exited {status})")
    requested = j.find(r"power-off requested by the PLAY hold", since)
    stopped = j.find(r"shfl\.service: Deactivated successfully", since)
    powered = j.find(r"(Finished systemd-poweroff\.service|Reached target poweroff\.target)", since)
    down = [l for l in board.serial.lines if l and "reboot: Power down" in l]
    # The journal's stream to the host may end before systemd's last lines (journald and the
    # stream stop during the shutdown): poweroff.target is reported, the kernel's last words
    # on the console are what the check needs.
    checks.check(bool(requested and stopped and down),
                 "... the daemon exits with status 100 (a clean stop), then ExecStopPost='s systemctl poweroff runs",
                 f"daemon: {requested[0][1] if requested else 'no power-off request in the journal'}; "
                 f"unit: {stopped[0][1] if stopped else 'not stopped cleanly'}; "
                 f"systemd: {powered[0][1] if powered else 'poweroff.target not streamed before the end'}; "
                 f"kernel: {down[0] if down else 'no reboot: Power down'}")


def diagnose(board, out):
    """After a failed check, while the guest still runs: what the daemon and the system say."""
    if board.process.poll() is not None:
        return
    try:
        _, text = board.agent.run("shfl status; systemctl status shfl --no-pager -l; ls -l /dev/sd* /dev/disk/by-uuid; "
                                  "pid=$(systemctl show -p MainPID --value shfl); cat /proc/$pid/mountinfo | tail -3; "
                                  "for t in /proc/$pid/task/*; do echo $t $(cat $t/comm) $(cat $t/wchan); done", timeout=30,
                                  check=False)
        with open(os.path.join(out, "diagnosis.txt"), "w") as f:
            f.write(text + "\n")
        print(f"  diagnosis in {os.path.join(out, 'diagnosis.txt')}", flush=True)
    except Failure as failure:
        print(f"  no diagnosis: {failure}", flush=True)


def virt(args, checks):
    image, work, guest, arecord, stick = args
    out = os.path.join(work, "virt")
    shutil.rmtree(out, ignore_errors=True)
    share = os.path.join(work, "share")
    shutil.rmtree(share, ignore_errors=True)
    os.makedirs(os.path.join(share, "out"))
    shutil.copy(arecord, os.path.join(share, "arecord"))
    disk = Disk(image, os.path.join(work, "virt.img"))
    disk.write_file("shfl.ini", VIRT_INI)
    root_before = disk.sha256("root")
    kernel = disk.read_file("vmlinuz", os.path.join(work, "vmlinuz"))
    initrd = test_initrd(disk, work)
    cmdline = open(disk.read_file("cmdline.txt", os.path.join(work, "cmdline.txt"))).read().split()
    cmdline = [w for w in cmdline if not w.startswith("console=")]
    cmdline = " ".join(["console=ttyAMA0"] + cmdline + ["modules-load=snd_aloop", "shfltest=virt"])
    print(f"  kernel command line: {cmdline}", flush=True)
    tracks = os.path.join(stick, "tracks")
    board = None
    try:
        log("boot 1 (virt): no stick")
        board = VirtBoard(disk, kernel, initrd, cmdline, share, os.path.join(out, "boot1"), stick)
        try:
            cut = first_boot(board, checks, disk, os.path.join(share, "out"), guest, tracks)
        except Failure:
            diagnose(board, os.path.join(out, "boot1"))
            raise
        board.close()
        shutil.copy(os.path.join(share, "out", "capture.raw"), os.path.join(out, "boot1", "capture.raw"))
        check_state_after_cut(disk, work, checks)
        if cut:
            log("boot 2 (virt): the stick present at power-on")
            board = VirtBoard(disk, kernel, initrd, cmdline, share, os.path.join(out, "boot2"), stick, plugged=True)
            try:
                second_boot(board, checks, cut)
            except Failure:
                diagnose(board, os.path.join(out, "boot2"))
                raise
            board.close()
            state = disk.extract("state", os.path.join(work, "state-final.fs"))
            result = subprocess.run(["e2fsck", "-fn", state], capture_output=True, text=True)
            checks.check(result.returncode == 0, "after the power-off, e2fsck -fn of the state partition is clean",
                         result.stdout.replace("\n", "; "))
        checks.check(disk.sha256("root") == root_before,
                     "the root partition's bytes are identical before the first and after the last boot (sha256)")
    finally:
        if board:
            board.close()


def raspi3b(args, checks):
    image, work, guest, arecord, stick = args
    out = os.path.join(work, "raspi3b")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    size = os.path.getsize(image)
    pow2 = 1 << (size - 1).bit_length()
    disk = Disk(image, os.path.join(work, "raspi3b.img"), size=pow2)
    disk.write_file("shfl.ini", PI3_INI)
    kernel = disk.read_file("vmlinuz", os.path.join(work, "vmlinuz"))
    dtb = disk.read_file("bcm2837-rpi-3-b.dtb", os.path.join(work, "bcm2837-rpi-3-b.dtb"))
    initrd = test_initrd(disk, work)
    cmdline = open(disk.read_file("cmdline.txt", os.path.join(work, "cmdline.txt"))).read().split()
    cmdline = " ".join(cmdline + ["shfltest=console"])
    run_dir = tempfile.mkdtemp(prefix="imgtest-")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(os.path.join(run_dir, "qtest"))
    listener.listen(1)
    command = [QEMU, "-M", "raspi3b", "-accel", "tcg", "-kernel", kernel, "-initrd", initrd, "-dtb", dtb,
               "-append", cmdline, "-drive", f"file={disk.path},format=raw,if=sd",
               "-display", "none", "-monitor", "none", "-serial", "null", "-serial", "stdio", "-S",
               "-qmp", f"unix:{os.path.join(run_dir, 'qmp')},server=on,wait=off",
               "-qtest", f"unix:{os.path.join(run_dir, 'qtest')}", "-qtest-log", "/dev/null"]
    log(f"raspi3b: {pow2 >> 20} MiB SD card (the image, {size >> 20} MiB, rounded up to a power of two)")
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        serial = Serial(process, os.path.join(out, "serial.log"))
        qtest = Qtest(listener)
        qmp = QMP(os.path.join(run_dir, "qmp"))
        gpio = None
        for path in ("/machine/soc/peripherals", "/machine/unattached"):
            try:
                for prop in qmp.execute("qom-list", path=path):
                    if prop["type"] == "child<bcm2835_gpio>":
                        gpio = f"{path}/{prop['name']}"
            except Failure:
                pass
        if not gpio:
            raise RigError("no bcm2835_gpio device in QEMU's raspi3b (QMP qom-list)")
        qtest.command(f"irq_intercept_out {gpio}")
        qmp.execute("cont")
        line, _ = serial.wait(r"TESTJOURNAL .*buttons and LED on (.*)", 600)
        checks.check("pi-3" in line and "pinctrl-bcm2835" in line,
                     "raspi3b: the daemon recognises the board as pi-3 (device tree, pinctrl-bcm2835)", line)
        started = now()
        deadline = time.monotonic() + 30
        while len([t for t, line, lit in list(qtest.changes) if line == PI3_LED and lit and t >= started]) < 3:
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        led = LedTrace(qtest.changes, PI3_LED)
        checks.check(led.heartbeat(started, now()), "raspi3b: the LED heartbeat on GPIO24 (qtest on the GPIO controller's outputs)",
                     "GPIO24: " + led.describe(started, now()))
        # The stick on the dwc2 controller's bus, hot-plugged.
        try:
            qmp.execute("blockdev-add", **{"node-name": "stick", "driver": "raw", "read-only": True,
                                           "file": {"driver": "file", "filename": os.path.join(stick, "stick.img"),
                                                    "read-only": True}})
            qmp.execute("device_add", driver="usb-storage", drive="stick", id="stick-usb", removable=True)
            bus = "hot-plugged"
        except Failure as failure:
            bus = f"hot-plug refused ({failure})"
        line, _ = serial.wait(r"TESTJOURNAL .*empty -> loading\(", 120)
        checks.check(True, f"raspi3b: a USB stick on the dwc2 controller ({bus}) is loaded", line)
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)
        shutil.rmtree(run_dir, ignore_errors=True)


def main():
    args = [os.path.abspath(a) for a in sys.argv[1:6]]
    which = sys.argv[6] if len(sys.argv) > 6 else "all"
    version = subprocess.run([QEMU, "--version"], capture_output=True, text=True).stdout
    if f"version {QEMU_VERSION}" not in version:
        print(f"image-test: RIG ERROR: this test speaks QEMU {QEMU_VERSION}x's qtest protocol; found {version[:40]!r}")
        return 2
    os.makedirs(args[1], exist_ok=True)
    checks = Checks("image-test")
    rig_errors = RIG_ERRORS
    for name, part in (("virt", virt), ("raspi3b", raspi3b)):
        if which not in (name, "all"):
            continue
        started = now()
        try:
            part(args, checks)
        except RigError as error:
            rig_error(f"{name}: {error}")
        except Failure as failure:
            checks.check(False, f"{name}: the scenario ran to its end", str(failure))
        except subprocess.CalledProcessError as error:
            rig_error(f"{name}: {error}: {error.stderr}")
        print(f"  figure: {name} part took {now() - started:.0f} s", flush=True)
    print(f"image-test: {checks.passed} passed, {checks.failed} failed, {len(rig_errors)} rig errors; logs in {args[1]}")
    return 1 if checks.failed or rig_errors else 0


if __name__ == "__main__":
    sys.exit(main())
