#!/usr/bin/env python3
"""Shared pieces of the rigs that run Shfl on QEMU's emulated arm64 boards (Python, standard
library only): the guest's console, QEMU's machine protocol (QMP), QEMU's qtest socket (GPIO
input levels set, output changes seen), the loopback capture and its comparison with arm64
`mpg123 -s`, the LED trace, and the checks' output. Used by board/vboard/vboard.py (the
firmware on a busybox guest) and image/test/image_test.py (the SD-card image under systemd).
"""
import array
import json
import os
import queue
import re
import select
import socket
import subprocess
import threading
import time


QEMU = "qemu-system-aarch64"
QEMU_VERSION = "7.2."        # qtest is QEMU's internal interface: the version this script speaks
RATE = 44100
FRAME = 4                    # S16_LE stereo

START = time.monotonic()


def now():
    return time.monotonic() - START


def log(message):
    print(f"[{now():6.2f}] {message}", flush=True)


class Failure(Exception):
    pass


class LineLog:
    """Lines from a stream the guest writes (its console, a virtio port), each kept in a log file
    stamped with the host's time, and waited for. `_pump(read)` runs on a thread of its own;
    `read()` returns the next chunk, b"" at the end."""

    def __init__(self, path):
        self.lines, self.lock = [], threading.Condition()
        self.file = open(path, "w", buffering=1)

    def _pump(self, read):
        pending = b""
        while True:
            chunk = read()
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
        """The first line from index `since` matching `pattern`, and its index."""
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


class Serial(LineLog):
    """The guest's console (QEMU's stdio): lines kept in a log file, markers waited for."""

    def __init__(self, process, path):
        super().__init__(path)
        self.process = process
        threading.Thread(target=self._pump, args=(lambda: os.read(process.stdout.fileno(), 4096),),
                         daemon=True).start()

    def send(self, text):
        self.process.stdin.write(text.encode() + b"\n")
        self.process.stdin.flush()


class SocketLines(LineLog):
    """Lines from a stream socket QEMU serves (a chardev: a virtio port's host end), kept in a
    log file and waited for, like Serial."""

    def __init__(self, path, log_path, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(path)
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise Failure(f"cannot connect to {path}")
                time.sleep(0.05)
        super().__init__(log_path)
        threading.Thread(target=self._pump, args=(self._receive,), daemon=True).start()

    def _receive(self):
        try:
            return self.sock.recv(65536)
        except OSError:
            return b""

    def find(self, pattern, since=0):
        with self.lock:
            return [(i, line) for i, line in enumerate(self.lines[since:], since) if line and re.search(pattern, line)]

    def send(self, text):
        self.sock.sendall(text.encode() + b"\n")


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

    def set_input(self, device, line, level):
        """Drives input `line` of the GPIO controller at QOM path `device` to `level`."""
        self.command(f"set_irq_in {device} unnamed-gpio-in {line} {level}")

    def press(self, device, line, hold=0.1):
        """A button press on an active-low input: low for `hold` s, then high again; the host
        times of both edges."""
        self.set_input(device, line, 0)
        pressed = now()
        time.sleep(hold)
        self.set_input(device, line, 1)
        return pressed, now()


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


class CaptureClock:
    """The capture's size sampled every 5 ms, so host times map to capture frames (the guest's
    audio clock), and waits on that clock."""

    def __init__(self, capture):
        self.capture, self.sizes, self.on = capture, [], True
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self):
        while self.on:
            self.sizes.append((now(), self.capture.frames()))
            time.sleep(0.005)

    def wait_frames(self, frames, timeout, what):
        """Waits until the capture holds `frames` frames: the guest's audio clock paces the
        scenario, whatever the host's load; `timeout` only guards a hang."""
        deadline = time.monotonic() + timeout
        while self.capture.frames() < frames:
            if time.monotonic() > deadline:
                raise Failure(f"the capture did not reach {seconds(frames):.2f} s ({what}) within {timeout} s; "
                              f"it holds {seconds(self.capture.frames()):.2f} s")
            time.sleep(0.02)

    def frame_at(self, when):
        """The capture's size (frames) at host time `when`, as last sampled before it: it can
        only lag the guest's audio."""
        frames = 0
        for t, size in list(self.sizes):
            if t > when:
                break
            frames = size
        return frames


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
            for index in range(since, len(self.lines)):
                match = re.search(pattern, self.lines[index][1])
                if match:
                    return index, self.lines[index][0], match
            if time.monotonic() > deadline:
                raise Failure(f"no daemon log line matching {pattern!r} within {timeout} s")
            time.sleep(0.005)

    def find(self, pattern, since=0):
        return [(i, self.lines[i][0], m) for i in range(since, len(self.lines)) for m in [re.search(pattern, self.lines[i][1])] if m]


def find_pl061(qmp):
    """The QOM path of the board's PL061 (a child<pl061> under /machine/unattached)."""
    for prop in qmp.execute("qom-list", path="/machine/unattached"):
        if prop["type"] == "child<pl061>":
            return "/machine/unattached/" + prop["name"]
    raise Failure("no pl061 device under /machine/unattached (QMP qom-list)")




class Checks:
    """Prints one line per check: "ok   NAME: what (detail)" or "FAIL NAME: what" and the detail."""

    def __init__(self, name="vboard"):
        self.name, self.passed, self.failed = name, 0, 0

    def rig(self, condition, what, detail=""):
        """A check of the test rig itself (the capture): when it fails, the product's audio
        checks below it cannot be trusted, and the report says so in other words."""
        if condition:
            self.passed += 1
            print(f"ok   {self.name} rig: {what}" + (f" ({detail})" if detail else ""), flush=True)
        else:
            self.failed += 1
            print(f"FAIL {self.name} RIG (not the product): {what}" + (f"\n     {detail}" if detail else "")
                  + "\n     the capture is the test's instrument: audio checks of this run cannot judge the firmware",
                  flush=True)
        return condition

    def check(self, condition, what, detail=""):
        if condition:
            self.passed += 1
            print(f"ok   {self.name}: {what}" + (f" ({detail})" if detail else ""), flush=True)
        else:
            self.failed += 1
            print(f"FAIL {self.name}: {what}" + (f"\n     {detail}" if detail else ""), flush=True)
        return condition


def reference(guest, track):
    """The track decoded by arm64 mpg123 -s (qemu-aarch64-static): what the board must play."""
    result = subprocess.run(["qemu-aarch64-static", "-L", os.path.join(guest, "mpg123"),
                             os.path.join(guest, "mpg123", "usr", "bin", "mpg123.bin"), "-q", "-s", track],
                            capture_output=True, check=True)
    samples = array.array("h")
    samples.frombytes(result.stdout)
    return samples


def first_sound(samples, start, tolerance=0):
    """The first frame from `start` that is not silence (|sample| > tolerance), or None."""
    for frame in range(start, len(samples) // 2):
        if abs(samples[2 * frame]) > tolerance or abs(samples[2 * frame + 1]) > tolerance:
            return frame
    return None


def matching(capture, at, ref, ref_at, tolerance=0):
    """How many frames of `capture` from `at` equal `ref` from `ref_at` (within `tolerance`)."""
    count = min(len(capture) // 2 - at, len(ref) // 2 - ref_at)
    for k in range(count):
        i, j = 2 * (at + k), 2 * (ref_at + k)
        if abs(capture[i] - ref[j]) > tolerance or abs(capture[i + 1] - ref[j + 1]) > tolerance:
            return k
    return count


def is_silent(samples, start, end):
    return not any(samples[2 * start: 2 * end])


def seconds(frames):
    return frames / RATE


class LedTrace:
    """One output line's changes (the LED) as (host time, lit), from qtest's intercepted outputs."""

    def __init__(self, changes, led):
        self.changes = [(t, lit) for t, line, lit in changes if line == led]

    def between(self, start, end):
        return [(t, lit) for t, lit in self.changes if start <= t <= end]

    def level_at(self, when):
        lit = None
        for t, level in self.changes:
            if t > when:
                break
            lit = level
        return lit

    def pulses(self, start, end):
        """(rise, fall) of each on-pulse that starts within [start, end] (fall None: still lit)."""
        result, rise = [], None
        for t, lit in self.changes:
            if lit and rise is None:
                rise = t
            elif not lit and rise is not None:
                if start <= rise <= end:
                    result.append((rise, t))
                rise = None
        if rise is not None and start <= rise <= end:
            result.append((rise, None))
        return result

    def describe(self, start, end):
        return " ".join(f"{t - start:+.3f}s:{'on' if lit else 'off'}" for t, lit in self.between(start, end)) or "no change"

    def heartbeat(self, start, end):
        """Whether [start, end] shows the "no stick" heartbeat: short pulses (100 ms planned)
        every 2 s. Measured on the host's clock as qtest reports the line, so with what the eye
        cannot tell apart as tolerance (tests/led-trace.py uses the same): 50-250 ms pulses,
        1.8-2.3 s apart (or twice that once: a skipped beat)."""
        pulses = [p for p in self.pulses(start, end) if p[1] is not None and p[1] <= end]
        if len(pulses) < 2:
            return False
        widths_ok = all(0.050 <= fall - rise <= 0.250 for rise, fall in pulses)
        # A guest stalled past a pulse's whole 100 ms (a busy host stops the emulated CPU) wakes
        # with the pulse over: that beat is skipped, the next is on the beat. So the pulses keep
        # the 2 s phase (one beat at most missing), and at least one period is whole.
        periods = [b[0] - a[0] for a, b in zip(pulses, pulses[1:])]
        beats = [max(1, round(p / 2.0)) for p in periods]
        periods_ok = all(1.800 <= p / k <= 2.300 for p, k in zip(periods, beats)) and 1 in beats \
            and sum(k - 1 for k in beats) <= 1
        return widths_ok and periods_ok
