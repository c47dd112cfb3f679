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
import array
import json
import os
import queue
import re
import select
import shutil
import socket
import subprocess
import sys
import threading
import time

QEMU = "qemu-system-aarch64"
QEMU_VERSION = "7.2."        # qtest is QEMU's internal interface: the version this script speaks
RATE = 44100
FRAME = 4                    # S16_LE stereo
PLAY, SKIP, VOLUME_UP, VOLUME_DOWN, LED = 0, 1, 2, 4, 5    # board/virt.ini
BUTTONS = (PLAY, SKIP, VOLUME_UP, VOLUME_DOWN)
START = time.monotonic()


def now():
    return time.monotonic() - START


def log(message):
    print(f"[{now():6.2f}] {message}", flush=True)


class Failure(Exception):
    pass


class Serial:
    """The guest's console (QEMU's stdio): lines kept in a log file, markers waited for."""

    def __init__(self, process, path):
        self.process, self.lines, self.lock = process, [], threading.Condition()
        self.file = open(path, "w", buffering=1)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        pending = b""
        while True:
            chunk = os.read(self.process.stdout.fileno(), 4096)
            if not chunk:
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for raw in complete:
                line = raw.decode("utf-8", "replace").rstrip("\r")
                self.file.write(f"[{now():7.3f}] {line}\n")
                with self.lock:
                    self.lines.append(line)
                    self.lock.notify_all()
        with self.lock:
            self.lines.append(None)
            self.lock.notify_all()

    def wait(self, pattern, timeout, since=0):
        """The first console line from index `since` matching `pattern`, and its index."""
        deadline = time.monotonic() + timeout
        with self.lock:
            index = since
            while True:
                while index < len(self.lines):
                    line = self.lines[index]
                    if line is None:
                        raise Failure(f"the guest stopped (QEMU exited) while waiting for {pattern!r}")
                    if re.search(pattern, line):
                        return line, index
                    index += 1
                left = deadline - time.monotonic()
                if left <= 0:
                    raise Failure(f"no console line matching {pattern!r} within {timeout} s")
                self.lock.wait(left)

    def send(self, text):
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()


class QMP:
    """QEMU's machine protocol: commands and their replies, events kept for waiting."""

    def __init__(self, path, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise Failure(f"cannot connect to QMP at {path}")
                time.sleep(0.05)
        self.file = self.sock.makefile("rwb")
        self.events = []
        self._message()                                  # the greeting
        self.execute("qmp_capabilities")

    def _message(self):
        line = self.file.readline()
        if not line:
            raise Failure("QMP connection closed")
        return json.loads(line)

    def execute(self, command, **arguments):
        self.file.write(json.dumps({"execute": command, "arguments": arguments}).encode() + b"\n")
        self.file.flush()
        while True:
            message = self._message()
            if "event" in message:
                self.events.append(message)
            elif "error" in message:
                raise Failure(f"QMP {command} {arguments}: {message['error']}")
            elif "return" in message:
                return message["return"]

    def wait_event(self, name, timeout):
        deadline = time.monotonic() + timeout
        while True:
            for event in self.events:
                if event["event"] == name:
                    self.events.remove(event)
                    return event
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failure(f"no QMP event {name} within {timeout} s")
            ready, _, _ = select.select([self.sock], [], [], left)
            if ready:
                message = self._message()
                if "event" in message:
                    self.events.append(message)


class Qtest:
    """QEMU's qtest socket (QEMU connects to us): GPIO input levels set, output changes seen.
    Replies ("OK ...") and the asynchronous "IRQ raise|lower N" lines share the socket."""

    def __init__(self, listener, timeout=30):
        listener.settimeout(timeout)
        try:
            self.sock, _ = listener.accept()
        except socket.timeout:
            raise Failure("QEMU did not connect to the qtest socket")
        self.replies = queue.Queue()
        self.changes = []                                # (host time, line, level)
        self.levels = {}
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.sock.makefile("rb"):
            line = raw.decode().strip()
            match = re.match(r"IRQ (raise|lower) (\d+)$", line)
            if match:
                level = match.group(1) == "raise"
                self.changes.append((now(), int(match.group(2)), level))
                self.levels[int(match.group(2))] = level
            else:
                self.replies.put(line)
        self.replies.put(None)

    def command(self, line):
        self.sock.sendall(line.encode() + b"\n")
        reply = self.replies.get(timeout=10)
        if reply is None or not reply.startswith("OK"):
            raise Failure(f"qtest {line!r}: {reply!r}")
        return reply


class Capture:
    """The loopback capture the guest writes to the shared folder (frames of two int16)."""

    def __init__(self, path):
        self.path = path

    def frames(self):
        try:
            return os.path.getsize(self.path) // FRAME
        except OSError:
            return 0

    def samples(self):
        data = array.array("h")
        with open(self.path, "rb") as f:
            raw = f.read()
        data.frombytes(raw[: len(raw) // FRAME * FRAME])
        return data


class DaemonLog:
    """The firmware's log in the shared folder; each line stamped with when the host saw it."""

    def __init__(self, path):
        self.path, self.lines, self.offset = path, [], 0

    def poll(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return
        complete = data[: data.rfind(b"\n") + 1]
        self.offset += len(complete)
        for line in complete.decode("utf-8", "replace").splitlines():
            self.lines.append((now(), line))

    def wait(self, pattern, timeout, since=0):
        """The first line from index `since` matching `pattern`: (index, host time, match)."""
        deadline = time.monotonic() + timeout
        while True:
            self.poll()
            for index in range(since, len(self.lines)):
                match = re.search(pattern, self.lines[index][1])
                if match:
                    return index, self.lines[index][0], match
            if time.monotonic() > deadline:
                raise Failure(f"no daemon log line matching {pattern!r} within {timeout} s")
            time.sleep(0.005)

    def find(self, pattern, since=0):
        self.poll()
        return [(i, t, m) for i in range(since, len(self.lines)) for m in [re.search(pattern, self.lines[i][1])] if m]


def find_pl061(qmp):
    """The QOM path of the board's PL061 (a child<pl061> under /machine/unattached)."""
    for prop in qmp.execute("qom-list", path="/machine/unattached"):
        if prop["type"] == "child<pl061>":
            return "/machine/unattached/" + prop["name"]
    raise Failure("no pl061 device under /machine/unattached (QMP qom-list)")


class Board:
    """One run of QEMU with the guest, and the test's handles on it."""

    def __init__(self, guest, share, stick):
        self.guest, self.share, self.stick = guest, share, stick
        self.out = os.path.join(share, "out")
        self.run = os.path.join(share, "run")           # sockets (short paths: 108-byte limit)
        for folder in (self.out, self.run):
            shutil.rmtree(folder, ignore_errors=True)
            os.makedirs(folder)
        shutil.copy(os.path.join(os.path.dirname(os.path.abspath(__file__)), "guest.sh"), share)
        self.capture = Capture(os.path.join(self.out, "capture.raw"))
        self.daemon = DaemonLog(os.path.join(self.out, "shfl.log"))
        self.process = None
        self.plugged = False

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
        ]
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
        self.qtest.command(f"set_irq_in {self.gpio} unnamed-gpio-in {line} {level}")

    def press(self, line, hold=0.1):
        """A press and release; the host times of both edges."""
        self.set_line(line, 0)
        pressed = now()
        time.sleep(hold)
        self.set_line(line, 1)
        return pressed, now()

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


def main():
    guest, share, stick = sys.argv[1:4]
    version = subprocess.run([QEMU, "--version"], capture_output=True, text=True).stdout
    if f"version {QEMU_VERSION}" not in version:
        print(f"vboard: this test speaks QEMU {QEMU_VERSION}x's qtest protocol (Debian 12); found: "
              f"{version.splitlines()[0] if version else 'no ' + QEMU}", file=sys.stderr)
        return 2
    board = Board(os.path.abspath(guest), os.path.abspath(share), os.path.abspath(stick))
    try:
        board.start()
        board.serial.wait(r"^VBOARD booted", 60)
        log("booted")
        board.daemon.wait(r"running", 30)
        log("daemon running")
        time.sleep(4.5)
        plugged = board.plug()
        log("plugged")
        _, t, m = board.daemon.wait(r"-> playing\(", 20)
        log(f"playing {m.group(0)} after {t - plugged:.2f} s")
        time.sleep(2)
        p, r = board.press(PLAY)
        _, t, _ = board.daemon.wait(r"playing -> paused", 5)
        log(f"paused {t - p:.3f} s after the press, {t - r:.3f} s after the release")
        time.sleep(1.5)
        p, r = board.press(PLAY)
        _, t, _ = board.daemon.wait(r"paused -> playing", 5)
        log(f"resumed {t - p:.3f} s after the press")
        time.sleep(1.5)
        p, r = board.press(SKIP)
        _, t, _ = board.daemon.wait(r"playing -> loading", 5)
        log(f"skipped {t - p:.3f} s after the press")
        time.sleep(2.5)
        pulled = board.unplug()
        _, t, _ = board.daemon.wait(r"-> empty", 5)
        log(f"empty {t - pulled:.3f} s after device_del")
        time.sleep(3)
        plugged = board.plug()
        _, t, m = board.daemon.wait(r"resuming at", 20)
        log(f"{m.string} {t - plugged:.3f} s after device_add")
        time.sleep(1.5)
        board.serial.send("vboard-diag")
        board.serial.wait("VBOARD diagnosed", 10)
        time.sleep(1)
    finally:
        board.stop()
    for t, line in board.daemon.lines:
        print(f"  [{t:6.2f}] {line}")
    for change in board.qtest.changes:
        print("  led", change)
    return 0


if __name__ == "__main__":
    sys.exit(main())
