#!/usr/bin/env python3
"""Reads an LED trace ("MILLISECONDS on|off" per change, the daemon's monotonic clock) and
judges it as a person watching the LED would: the durations come from the trace's own times,
and the tolerances are what the eye cannot tell apart (a 100 ms pulse that lasts 160 ms is
still a short blink), not what a fast machine achieves.

Usage:
  led-trace.py now                           the monotonic clock in ms (the trace's clock)
  led-trace.py last TRACE                    the time of the trace's last change (0 if none)
  led-trace.py rises TRACE FROM              how many times the LED lit at or after FROM
  led-trace.py heartbeat TRACE FROM TO       "no stick": short pulses every 2 s within [FROM, TO]
  led-trace.py steady TRACE FROM TO          lit, and no change, all through [FROM, TO]
  led-trace.py triple TRACE FROM TO          "error": groups of three blinks, repeating
Judgements exit 0 or print what was seen and exit 1.
"""
import sys
import time

# The patterns (Sources/ShflCore/Light/LightPatterns.swift) and what still reads as each.
HEARTBEAT_WIDTH = (50, 250)          # planned 100 ms on
HEARTBEAT_PERIOD = (1800, 2300)      # planned 2000 ms from pulse to pulse
TRIPLE_WIDTH = (100, 350)            # planned 200 ms on, 200 off, three times, then 1200 off
TRIPLE_PERIOD = (1900, 2600)         # planned 2200 ms from group to group


def read(path):
    changes = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 2:
                changes.append((int(parts[0]), parts[1] == "on"))
    return changes


def pulses(changes, start, end):
    """(rise, fall) of each pulse that rises within [start, end] and falls by `end`."""
    result, rise = [], None
    for t, lit in changes:
        if lit and rise is None:
            rise = t
        elif not lit and rise is not None:
            if start <= rise and t <= end:
                result.append((rise, t))
            rise = None
    return result


def describe(changes, start, end):
    shown = [f"{t - start:+d}:{'on' if lit else 'off'}" for t, lit in changes if start - 2500 <= t <= end]
    return f"changes (ms from {start}): " + (" ".join(shown) or "none")


def within(value, bounds):
    return bounds[0] <= value <= bounds[1]


def main(argv):
    what = argv[1]
    if what == "now":
        print(int(time.monotonic() * 1000))
        return 0
    changes = read(argv[2])
    if what == "last":
        print(changes[-1][0] if changes else 0)
        return 0
    if what == "rises":
        print(sum(1 for t, lit in changes if lit and t >= int(argv[3])))
        return 0
    start, end = int(argv[3]), int(argv[4])
    if what == "heartbeat":
        # With three or more pulses the first is left out: it may have begun with the state.
        seen = pulses(changes, start, end)
        if len(seen) > 2:
            seen = seen[1:]
        widths = [fall - rise for rise, fall in seen]
        periods = [b[0] - a[0] for a, b in zip(seen, seen[1:])]
        # A process stalled past a pulse's whole 100 ms wakes with the pulse over: that beat is
        # skipped and the next is on the beat. One skipped beat is allowed; the phase is kept.
        beats = [max(1, round(p / 2000)) for p in periods]
        good = len(seen) >= 2 and all(within(w, HEARTBEAT_WIDTH) for w in widths) \
            and all(within(p / k, HEARTBEAT_PERIOD) for p, k in zip(periods, beats)) \
            and 1 in beats and sum(k - 1 for k in beats) <= 1
        if not good:
            print(f"wanted a heartbeat (pulses of {HEARTBEAT_WIDTH} ms every {HEARTBEAT_PERIOD} ms); "
                  f"pulses {widths} ms, {periods} ms apart; " + describe(changes, start, end))
        return 0 if good else 1
    if what == "steady":
        before = [lit for t, lit in changes if t <= start]
        inside = [(t, lit) for t, lit in changes if start < t <= end]
        good = bool(before) and before[-1] and not inside
        if not good:
            print(f"wanted the LED lit without a change for {end - start} ms; " + describe(changes, start, end))
        return 0 if good else 1
    if what == "triple":
        seen = pulses(changes, start, end)
        groups, group = [], []
        for rise, fall in seen:
            if group and rise - group[-1][1] > 600:
                groups.append(group)
                group = []
            group.append((rise, fall))
        if group:
            groups.append(group)
        # The first group may have begun before the window and is left out. On a loaded
        # machine one change can come late and stretch a blink (the schedule is absolute: the
        # next is on time), so two clean groups a pattern's period apart are asked for, and
        # none of another shape.
        inner = groups[1:]
        clean = [g for g in inner if len(g) == 3 and all(within(fall - rise, TRIPLE_WIDTH) for rise, fall in g)]
        periods = [b[0][0] - a[0][0] for a, b in zip(clean, clean[1:])]
        good = len(clean) >= 2 and all(len(g) <= 3 for g in groups) \
            and any(within(p / max(1, round(p / 2200)), TRIPLE_PERIOD) for p in periods)
        if not good:
            print(f"wanted the error's triple blink, repeating; groups of {[len(g) for g in groups]} pulses, "
                  f"{len(clean)} clean inside the window, clean groups {periods} ms apart; " + describe(changes, start, end))
        return 0 if good else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
