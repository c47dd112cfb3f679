#!/usr/bin/env bash
# Audio cost benchmark (issue "Audio engine"). Measures in one run, with valgrind's callgrind
# (instruction counts repeat exactly on a noisy machine) and GNU time (peak RSS), players
# decoding a 320 kbps 44.1 kHz MP3 to ALSA null: shfl play-file (firmware and host builds),
# mpg123 -o alsa -a null, mpg123 -t (the decode floor), and mpd 0.23 when installed.
# Each player plays a 10 s and a 60 s file: (I60 - I10) / 50 is its cost per second of audio,
# without start-up (which is printed apart); peak RSS is the median of 9 runs on the 60 s file.
# Usage: bench/audio.sh [FIRMWARE_SHFL] [HOST_SHFL]      (BENCH_MPD=0 skips mpd)
set -euo pipefail
cd "$(dirname "$0")/.."
firmware="${1:-out/firmware/x86_64/shfl.stripped}"   # what ships (valgrind cannot read the Embedded debug info)
host="${2:-$(swift build --show-bin-path)/shfl}"
fixtures=.build-fixtures/audio
tests/fixtures/make-audio-fixtures.sh "$fixtures"
work="$(mktemp -d)"
trap 'pkill -f "$work/mpd.conf" 2>/dev/null || true; rm -rf "$work"' EXIT

instructions() { # instructions COMMAND...: total instructions executed, all threads
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.out" "$@" >/dev/null 2>"$work/callgrind.err" || true
  grep -E "Collected : [0-9]+" "$work/callgrind.err" | awk '{print $NF}'
}
peak_rss_kb() { # peak_rss_kb COMMAND...: median of 9 runs' maximum resident set size, in kB
  for run in 1 2 3 4 5 6 7 8 9; do
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time.err" || true
    awk -F': ' '/Maximum resident set size/ {print $2}' "$work/time.err"
  done | sort -n | sed -n 5p
}

names=(); declare -A short long rss
measure() { # measure NAME COMMAND... (the track is appended)
  local name="$1"; shift
  names+=("$name")
  short[$name]=$(instructions "$@" "$fixtures/bench10.mp3")
  long[$name]=$(instructions "$@" "$fixtures/bench60.mp3")
  rss[$name]=$(peak_rss_kb "$@" "$fixtures/bench60.mp3")
}
measure "shfl firmware" "$firmware" play-file --device null
measure "shfl host" "$host" play-file --device null
measure "mpg123 -o alsa -a null" mpg123 -q -o alsa -a null
measure "mpg123 -t" mpg123 -q -t
if [ "${BENCH_MPD:-1}" = 1 ] && command -v mpd >/dev/null; then
  names+=("mpd")
  for length in 10 60; do
    mkdir -p "$work/mpd$length"
    bench/mpd-play.sh "$fixtures/bench$length.mp3" "$work/mpd$length" >/dev/null 2>&1 || true
  done
  short[mpd]=$(cat "$work/mpd10/mpd.ir" 2>/dev/null || echo 0)
  long[mpd]=$(cat "$work/mpd60/mpd.ir" 2>/dev/null || echo 0)
  rss[mpd]=$(cat "$work/mpd60/mpd.rss" 2>/dev/null || echo 0)
fi

per_second() { awk -v a="${long[$1]}" -v b="${short[$1]}" 'BEGIN { printf "%.0f", (a - b) / 50 }'; }
reference=$(per_second "mpg123 -o alsa -a null")
printf '%-24s %14s %12s %10s %16s\n' "player" "instr/audio s" "start-up" "peak RSS" "vs mpg123 alsa"
for name in "${names[@]}"; do
  each=$(per_second "$name")
  startup=$(awk -v s="${short[$name]}" -v e="$each" 'BEGIN { printf "%.1f", (s - 10 * e) / 1e6 }')
  printf '%-24s %12.2f M %10s M %7.1f MB %15.3fx\n' "$name" "$(awk -v v="$each" 'BEGIN{print v/1e6}')" "$startup" \
    "$(awk -v v="${rss[$name]}" 'BEGIN{print v/1024}')" "$(awk -v a="$each" -v b="$reference" 'BEGIN{print a/b}')"
done
firmware_ratio=$(awk -v a="$(per_second "shfl firmware")" -v b="$reference" 'BEGIN { printf "%.3f", a / b }')
rss_ratio=$(awk -v a="${rss["shfl firmware"]}" -v b="${rss["mpg123 -o alsa -a null"]}" 'BEGIN { printf "%.2f", a / b }')
echo "firmware shfl: ${firmware_ratio}x mpg123's instructions per audio second (target <= 1.01), ${rss_ratio}x its peak RSS (target <= 1)"
