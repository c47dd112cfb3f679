#!/usr/bin/env python3
"""Button -> audible change (issue "The daemon"): the firmware's `shfl run` plays a stick through
alsa-lib's file plugin with a 10 ms period; SKIP is pressed and released through the control
socket (the simulated lines), and the capture is watched until the next track's first samples
are written. Printed: the processing time from the accepted press (release + 20 ms settle) to
that write; on a device, the new samples are heard one period (10 ms) after they are written
(the start threshold), so the audible latency is that plus 10 ms. Target: <= 1 period + 2 ms.
Usage: bench/button-latency.py SHFL FIXTURES_DIR"""
import os, shutil, signal, socket, subprocess, sys, tempfile, time

shfl, fixtures = sys.argv[1], sys.argv[2]
settle = 0.020
work = tempfile.mkdtemp()
sticks, outside = os.path.join(work, "sticks"), os.path.join(work, "outside")
os.makedirs(os.path.join(outside, "BTN-0001"))
os.makedirs(sticks)
for name in ("a", "b"):
    shutil.copy(os.path.join(fixtures, "bench10.mp3"), os.path.join(outside, "BTN-0001", name + ".mp3"))
reference = subprocess.run(["mpg123", "-q", "-s", os.path.join(fixtures, "bench10.mp3")], capture_output=True).stdout
start = reference[4096:8192]  # the track's beginning, past its quiet first frames
capture, control, log = (os.path.join(work, n) for n in ("capture.raw", "control", "log"))
daemon = subprocess.Popen([shfl, "run", "--media", sticks, "--device", f"file:'{capture}',raw",
                           "--period-time", "10000", "--buffer-time", "20000", "--state-dir", os.path.join(work, "state"),
                           "--led-trace", os.path.join(work, "led"), "--control", control, "--volume", "100", "--no-rt"],
                          stdout=open(log, "w"), stderr=subprocess.STDOUT)

def request(line):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(control)
        s.sendall(line.encode() + b"\n")
        reply = b""
        while not reply.endswith(b"ok\n") and b"error" not in reply:
            chunk = s.recv(4096)
            if not chunk:
                break
            reply += chunk

try:
    while not os.path.exists(control):
        time.sleep(0.01)
    os.rename(os.path.join(outside, "BTN-0001"), os.path.join(sticks, "BTN-0001"))
    time.sleep(1.5)
    results = []
    for trial in range(7):
        time.sleep(0.7)
        request("press SKIP")
        time.sleep(0.06)
        before = os.path.getsize(capture)
        released = time.monotonic()
        request("release SKIP")
        seen = None
        while time.monotonic() - released < 2:
            with open(capture, "rb") as f:
                f.seek(max(before - 65536, 0))
                if start in f.read():
                    seen = time.monotonic()
                    break
            time.sleep(0.0002)
        if seen is not None:
            results.append((seen - released - settle) * 1000)
    results.sort()
    median = results[len(results) // 2] if results else float("nan")
    print(f"button -> new track written: {median:.1f} ms after the accepted press (median of {len(results)}); "
          f"audible after one more 10 ms period: {median + 10:.1f} ms (target <= 12 ms)")
finally:
    daemon.send_signal(signal.SIGTERM)
    daemon.wait(timeout=10)
    shutil.rmtree(work, ignore_errors=True)
