#!/usr/bin/env bash
# Plays TRACK once with mpd to ALSA null, under callgrind and under GNU time, and writes the
# instruction count to WORK/mpd.ir and the peak RSS (kB) to WORK/mpd.rss. Used by bench/audio.sh.
# Usage: bench/mpd-play.sh TRACK WORK
set -euo pipefail
track="$(realpath "$1")"; work="$2"
music="$work/mpd-music"; mkdir -p "$music"; ln -sf "$track" "$music/track.mp3"
cat > "$work/mpd.conf" <<CONF
music_directory "$music"
db_file "$work/mpd.db"
bind_to_address "$work/mpd.socket"
audio_output {
    type "alsa"
    name "null"
    device "null"
}
CONF
client() { # client COMMAND...: sends commands to mpd, prints the replies
  python3 - "$work/mpd.socket" "$@" <<'PY'
import socket, sys, time
path, commands = sys.argv[1], sys.argv[2:]
for attempt in range(600):
    try:
        s = socket.socket(socket.AF_UNIX); s.connect(path); break
    except OSError:
        time.sleep(0.1)
f = s.makefile("rw"); f.readline()
for command in commands:
    f.write(command + "\n"); f.flush()
    while True:
        line = f.readline()
        if not line or line.startswith("OK") or line.startswith("ACK"): break
        print(line.strip())
PY
}
run_once() { # run_once WRAPPER...: starts mpd under WRAPPER, plays the track to its end, stops mpd
  rm -f "$work/mpd.db" "$work/mpd.socket"
  "$@" mpd --no-daemon --stderr "$work/mpd.conf" >/dev/null 2>&1 &
  local pid=$!
  client "update" >/dev/null
  while client "status" | grep -q "^updating_db"; do sleep 0.2; done
  client "clear" "add track.mp3" "play" >/dev/null
  sleep 1
  while client "status" | grep -q "^state: play"; do sleep 0.2; done
  client "kill" >/dev/null || true
  wait "$pid" || true
}
run_once valgrind --tool=callgrind --callgrind-out-file="$work/mpd.callgrind" --log-file="$work/mpd.valgrind"
grep -E "Collected : [0-9]+" "$work/mpd.valgrind" | awk '{print $NF}' > "$work/mpd.ir"
run_once /usr/bin/time -v -o "$work/mpd.time"
awk -F': ' '/Maximum resident set size/ {print $2}' "$work/mpd.time" > "$work/mpd.rss"
