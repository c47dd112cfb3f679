#!/usr/bin/env bash
# Daemon benchmarks (issue "The daemon"), printed, not asserted:
#  - stick inserted -> first PCM frame, for a stick of 120 tracks chosen among 5,000 files
#    (target <= 300 ms here; a real Pi adds about 1 s of USB enumeration);
#  - `shfl run` start -> running (ready) (target <= 20 ms);
#  - stick pulled mid-track -> empty state (target <= 100 ms);
#  - peak RSS while playing (target <= 4 MB, firmware build), and over the whole run (the scan
#    included), with the resident file-backed (code) and anonymous (heap, stacks) parts, and
#    the pages really touched in 4 s of playback (the working set);
#  - `shfl scan` of a stick with a photo backup beside its music (issue #11): 100,000 pictures
#    in DCIM/ (200 folders, met first) and 300 MP3 files in Music/; all 300 must be found.
# The stick is a folder moved into the watched folder; audio goes through alsa-lib's file
# plugin, paced to real time. Usage: bench/daemon.sh [SHFL]   (default: the x86_64 firmware)
set -euo pipefail
cd "$(dirname "$0")/.."
shfl="$(realpath "${1:-out/firmware/x86_64/shfl}")"
fixtures=.build-fixtures/audio
tests/fixtures/make-audio-fixtures.sh "$fixtures"
work="$(mktemp -d)"; daemon=""
trap '[ -n "$daemon" ] && kill -9 "$daemon" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/sticks" "$work/state" "$work/outside/BENC-5000"
# 5,000 files in 50 folders: hard links to one small MP3 (the scan sees 5,000 files).
for folder in $(seq -w 1 50); do
  mkdir -p "$work/outside/BENC-5000/Folder $folder"
  for track in $(seq -w 1 100); do ln "$fixtures/stereo48.mp3" "$work/outside/BENC-5000/Folder $folder/Track $track.mp3"; done
done
now_ns() { date +%s%N; }
# Its own control socket: a daemon running elsewhere on the machine must not be in the way.
start_daemon() {
  "$shfl" run --media "$work/sticks" --device "file:'$work/capture.raw',raw" --state-dir "$work/state" \
    --led-trace "$work/led" --control "$work/control" --pace --no-rt --volume 100 >"$work/log" 2>&1 &
  daemon=$!
}
# Fails (instead of waiting for ever) when the daemon has ended.
alive() { kill -0 "$daemon" 2>/dev/null || { echo "bench/daemon.sh: shfl run ended:" >&2; tail -5 "$work/log" >&2; exit 1; }; }
# Start -> running: median of 5 starts.
for run in 1 2 3 4 5; do
  : >"$work/log"; started=$(now_ns); start_daemon
  until grep -q "running" "$work/log"; do alive; sleep 0.001; done
  echo $(( ($(now_ns) - started) / 1000 ))
  kill -TERM "$daemon"; wait "$daemon" || true; daemon=""
done | sort -n | sed -n 3p >"$work/ready_us"
# Insert -> first PCM frame, and pull mid-track -> empty state (the log's "-> empty"): medians
# of 3 insertions and pulls.
: >"$work/log"; start_daemon
until grep -q "running" "$work/log"; do alive; sleep 0.001; done
for run in 1 2 3; do
  # The daemon keeps the capture open across sticks: wait for it to grow.
  before=$(stat -c %s "$work/capture.raw" 2>/dev/null || echo 0)
  inserted=$(now_ns); mv "$work/outside/BENC-5000" "$work/sticks/"
  until [ "$(stat -c %s "$work/capture.raw" 2>/dev/null || echo 0)" -gt "$before" ]; do alive; sleep 0.0005; done
  echo $(( ($(now_ns) - inserted) / 1000 )) >>"$work/insert_runs"
  sleep 1
  emptied=$(grep -c -- "-> empty" "$work/log" || true)
  pulled=$(now_ns); mv "$work/sticks/BENC-5000" "$work/outside/"
  until [ "$(grep -c -- "-> empty" "$work/log" || true)" -gt "$emptied" ]; do alive; sleep 0.0005; done
  echo $(( ($(now_ns) - pulled) / 1000 )) >>"$work/pull_runs"
  sleep 0.3
done
sort -n "$work/insert_runs" | sed -n 2p >"$work/insert_us"
sort -n "$work/pull_runs" | sed -n 2p >"$work/pull_us"
kill -TERM "$daemon"; wait "$daemon" || true; daemon=""
# Peak RSS: the whole run (start, the scan of 5,000 files, 4 s of playback), and while playing
# only: the kernel's high-water mark (VmHWM) is reset once the first track plays
# (`echo 5 > /proc/PID/clear_refs`), then read after the 4 s.
rm -f "$work/capture.raw"; : >"$work/log"; start_daemon
until grep -q "running" "$work/log"; do alive; sleep 0.001; done
mv "$work/outside/BENC-5000" "$work/sticks/"
until [ "$(stat -c %s "$work/capture.raw" 2>/dev/null || echo 0)" -gt 0 ]; do alive; sleep 0.001; done
sleep 0.2
awk '/^VmHWM/ { print $2 }' "/proc/$daemon/status" >"$work/rss_all"
echo 5 >"/proc/$daemon/clear_refs"
# And the pages the process really touches while playing (the rest of its resident code was
# mapped by the kernel around the faults): referenced bits cleared, then summed after the 4 s.
echo 1 >"/proc/$daemon/clear_refs"
sleep 4; alive
awk '/^VmHWM/ { print $2 }' "/proc/$daemon/status" >"$work/rss_playing"
awk '/^(Rss(Anon|File)):/ { printf "%s %d kB  ", $1, $2 }' "/proc/$daemon/status" >"$work/rss_parts"
awk -v binary="$shfl" '/^[0-9a-f]+-/ { name = $6 } /^Referenced:/ { all += $2; if (name == binary) own += $2 }
  END { printf "%.1f MB (of which the shfl binary %d kB)", all / 1024, own }' "/proc/$daemon/smaps" >"$work/working_set"
kill -TERM "$daemon"; wait "$daemon" || true; daemon=""
# The junk stick, made after the daemon's runs so its writes do not disturb them; the scan's
# own time (its summary line), median of 3.
for camera in $(seq 100 119); do for burst in $(seq 0 9); do
  mkdir -p "$work/junk/DCIM/${camera}APPLE/Burst $burst"
  (cd "$work/junk/DCIM/${camera}APPLE/Burst $burst" && seq -f 'IMG_%04g.JPG' 0 499 | xargs touch)
done; done
for artist in $(seq 0 9); do for album in 0 1 2; do
  mkdir -p "$work/junk/Music/Artist $artist/Album $album"
  (cd "$work/junk/Music/Artist $artist/Album $album" && touch cover.jpg && seq -f 'Song %g.mp3' 0 9 | xargs touch)
done; done
for run in 1 2 3; do "$shfl" scan "$work/junk" | sed -n '1s/.* \([0-9]*\) MP3, \([0-9.]*\)ms;.*/\2 \1/p'; done | sort -n | sed -n 2p >"$work/junk_scan"
printf 'start -> running:            %6.1f ms   (target <= 20 ms)\n' "$(awk -v v="$(cat "$work/ready_us")" 'BEGIN{print v/1000}')"
printf 'stick inserted -> first PCM: %6.1f ms   (target <= 300 ms; 120 of 5000 files)\n' "$(awk -v v="$(cat "$work/insert_us")" 'BEGIN{print v/1000}')"
printf 'stick pulled -> empty state: %6.1f ms   (target <= 100 ms)\n' "$(awk -v v="$(cat "$work/pull_us")" 'BEGIN{print v/1000}')"
printf 'peak RSS, start and scan:    %6.1f MB\n' "$(awk -v v="$(cat "$work/rss_all")" 'BEGIN{print v/1024}')"
printf 'peak RSS while playing:      %6.1f MB   (target <= 4 MB; now %s)\n' "$(awk -v v="$(cat "$work/rss_playing")" 'BEGIN{print v/1024}')" "$(cat "$work/rss_parts")"
printf 'pages touched in 4 s playing: %s\n' "$(cat "$work/working_set")"
grep -m1 "scanned" "$work/log" 2>/dev/null | sed 's/^<[0-9]>/scan: /' || true
read -r junk_ms junk_found <"$work/junk_scan"
printf 'scan of 100,000 junk entries + 300 tracks: %.1f ms, found %s/300\n' "$junk_ms" "$junk_found"
