#!/usr/bin/env bash
# Firmware checks, run by `make test` after `make firmware`:
# the Embedded Swift builds run (x86_64 natively, aarch64 under qemu-user), print the same
# self-check as the host build, and are what they claim to be. Usage: tests/firmware.sh OUTDIR
set -uo pipefail

out="${1:-out/firmware}"
host_shfl="$(swift build --show-bin-path)/shfl"
passed=0
failed=0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

check() { # check NAME COMMAND...: runs COMMAND, counts and reports the result
  local name="$1"; shift
  if "$@" >"$work/output" 2>&1; then
    passed=$((passed + 1)); echo "ok   $name"
  else
    failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' "$work/output"
  fi
}

self_check() { # self_check NAME COMMAND... : the self-check passes and is saved as NAME.txt
  local name="$1"; shift
  "$@" self-check >"$work/$name.txt" 2>&1
}

check "host self-check passes" self_check host "$host_shfl"
check "x86_64 firmware self-check passes" self_check x86_64 "$out/x86_64/shfl"
check "aarch64 firmware self-check passes under qemu-aarch64-static" self_check aarch64 qemu-aarch64-static "$out/aarch64/shfl"
check "x86_64 firmware prints the same self-check as the host" diff -u "$work/host.txt" "$work/x86_64.txt"
check "aarch64 firmware prints the same self-check as x86_64" diff -u "$work/x86_64.txt" "$work/aarch64.txt"
check "aarch64 firmware is an ARM aarch64 executable" bash -c "file '$out/aarch64/shfl' | grep -q 'ARM aarch64'"
check "x86_64 firmware is an x86-64 executable" bash -c "file '$out/x86_64/shfl' | grep -q 'x86-64'"
check "firmware links no Swift runtime library" bash -c "! qemu-aarch64-static /lib/ld-linux-aarch64.so.1 --list '$out/aarch64/shfl' | grep -qi swift && ! ldd '$out/x86_64/shfl' | grep -qi swift"
# Embedded Swift names outlined constant arrays by their order inside a function ("...Tv0_r")
# as weak symbols, and a client module that inlines the function may number them differently:
# the linker then keeps one module's arrays under the other's names (LED patterns came out
# swapped). The toolsets disable the object-outliner pass; no such symbol may appear.
check "firmware objects define no order-numbered constant arrays (see DEVELOPERS.md)" \
  bash -c "! find .build-firmware-x86_64 .build-firmware-aarch64 -name '*.o' -exec nm {} + 2>/dev/null | grep -E ' [VvWw] .*Tv[0-9]*_r\$'"
# Audio end to end: each firmware plays fixtures through libmpg123 and alsa-lib's file plugin;
# the capture must be bit-exact with mpg123 -s of the same architecture (arm64 libmpg123 rounds
# differently from amd64's in about 0.1% of samples, by 1 LSB: compare like with like).
fixtures=.build-fixtures/audio
tests/fixtures/make-audio-fixtures.sh "$fixtures"
arm64_mpg123=.build-fixtures/mpg123-arm64
tests/fixtures/get-arm64-mpg123.sh "$arm64_mpg123"
plays_bit_exact() { # plays_bit_exact ARCH FILE
  local capture="$work/$1-$2.raw" reference="$work/$1-$2.ref"
  if [ "$1" = aarch64 ]; then
    qemu-aarch64-static "$out/aarch64/shfl" play-file "$fixtures/$2.mp3" --device "file:'$capture',raw" >/dev/null &&
      qemu-aarch64-static "$arm64_mpg123/usr/bin/mpg123.bin" -q -s "$fixtures/$2.mp3" >"$reference"
  else
    "$out/x86_64/shfl" play-file "$fixtures/$2.mp3" --device "file:'$capture',raw" >/dev/null &&
      cp "$fixtures/$2.raw" "$reference"
  fi && cmp "$capture" "$reference"
}
for track in stereo44 mono22 vbr; do
  check "x86_64 firmware plays $track.mp3 bit-exactly through ALSA" plays_bit_exact x86_64 $track
  check "aarch64 firmware plays $track.mp3 bit-exactly through ALSA (qemu)" plays_bit_exact aarch64 $track
done
skips_broken_file() { # the broken file is named with its reason, and the exit status is 1
  local status=0
  "$out/x86_64/shfl" play-file "$fixtures/random.mp3" --device null 2>"$work/broken.err" >/dev/null || status=$?
  cat "$work/broken.err"
  [ "$status" -eq 1 ] && grep -q "random.mp3: unsupported format" "$work/broken.err"
}
check "firmware play-file skips a broken file with its reason and exits 1" skips_broken_file
# GPIO (issue 4). The pin map parser and the "no chip" path on every shipped board, the same
# in all three builds; then board-check and gpio-monitor end to end on simulated buttons fed
# from standard input, through the same event loop (poll, timerfd, signalfd) as on a Pi.
board_check() { # board_check NAME BUILD COMMAND...: board-check must fail cleanly (exit 1)
  local board="$1" build="$2"; shift 2
  "$@" board-check --board "board/$board.ini" >"$work/board-$board-$build.txt" 2>&1
  [ $? -eq 1 ] || { echo "exit status was not 1"; cat "$work/board-$board-$build.txt"; return 1; }
  if ! ls /dev/gpiochip* >/dev/null 2>&1; then
    grep -q "no GPIO chip with label '.*' (available: none)" "$work/board-$board-$build.txt" ||
      { cat "$work/board-$board-$build.txt"; return 1; }
  fi
}
for board in pi-zero-2-w pi-3 pi-4 pi-5 virt; do
  check "board-check --board $board fails cleanly without its chip (host)" board_check "$board" host "$host_shfl"
  check "board-check --board $board: x86_64 firmware prints the same as the host" \
    bash -c "board_out=\$('$out/x86_64/shfl' board-check --board board/$board.ini 2>&1); diff -u '$work/board-$board-host.txt' <(printf '%s\n' \"\$board_out\")"
  check "board-check --board $board: aarch64 firmware prints the same as the host" \
    bash -c "board_out=\$(qemu-aarch64-static '$out/aarch64/shfl' board-check --board board/$board.ini 2>&1); diff -u '$work/board-$board-host.txt' <(printf '%s\n' \"\$board_out\")"
done

simulated_check() { # simulated_check COMMAND...: every button seen, three blinks on time
  printf 'wait 2300\nbounce play 5\nwait 150\nunbounce play 3\nwait 200\npress skip\nwait 100\nrelease skip\n' |
    "$@" board-check --board board/pi-4.ini --buttons play,skip --timeout 3 --simulated >"$work/simulated.txt" 2>&1 ||
    { cat "$work/simulated.txt"; return 1; }
  grep -q "^PLAY pressed: 5 edges over 4ms of contact bounce, accepted 24ms after the first$" "$work/simulated.txt" &&
    grep -q "; SKIP ok$" "$work/simulated.txt" && grep -q "^board-check: every button works" "$work/simulated.txt" ||
    { cat "$work/simulated.txt"; return 1; }
  # The LED's first seven changes: off, then three blinks of 300 ms on and 300 ms off. What a
  # person watching sees is three distinct blinks: each on and each off between the changes
  # lasts 150-450 ms (read from the trace's own times), and they do not drift (the third blink
  # ends 1500 ms +- 150 after the first began). A loaded machine may make one change late; the
  # schedule is absolute, so the next is on time again.
  grep "^simulated LED:" "$work/simulated.txt" | tr ' ' '\n' | grep @ | head -7 | awk -F'[@m]' '
    { lit = (NR % 2 == 0) ? "on" : "off"
      if ($1 != lit) { print "LED change " NR ": " $0 " (wanted " lit ")"; bad = 1 }
      if (NR > 2 && ($2 - last < 150 || $2 - last > 450)) { print "LED change " NR ": " $0 ", " $2 - last "ms after the one before (wanted 150-450)"; bad = 1 }
      if (NR == 7 && ($2 - first < 1350 || $2 - first > 1650)) { print "LED change 7 at " $2 - first "ms after the first blink began (wanted 1500 +- 150)"; bad = 1 }
      if (NR == 2) first = $2
      last = $2 }
    END { exit bad || NR != 7 }' || { cat "$work/simulated.txt"; return 1; }
}
simulated_failure() { # simulated_failure COMMAND...: SKIP never pressed: exit 1, naming it
  printf 'wait 2200\npress play\nwait 100\nrelease play\n' |
    "$@" board-check --board board/pi-4.ini --buttons play,skip --timeout 1 --simulated >"$work/failure.txt" 2>&1
  [ $? -eq 1 ] && grep -q "^board-check: FAILED: SKIP on GPIO27 (pin 13) not seen$" "$work/failure.txt" ||
    { cat "$work/failure.txt"; return 1; }
}
simulated_monitor() { # simulated_monitor COMMAND...: gestures from a bouncy press and a hold
  printf 'wait 100\nbounce play 3\nwait 100\nrelease play\nwait 50\npress vol+\nwait 800\nrelease vol+\nwait 100\n' |
    "$@" gpio-monitor --board board/pi-4.ini --simulated >"$work/monitor.txt" 2>&1 || { cat "$work/monitor.txt"; return 1; }
  [ "$(grep -c ' gesture play/pause (PLAY)$' "$work/monitor.txt")" = 1 ] &&
    [ "$(grep -c ' gesture volume up (VOL+)$' "$work/monitor.txt")" = 3 ] &&
    grep -q " PLAY pressed (3 edges over 2ms)$" "$work/monitor.txt" || { cat "$work/monitor.txt"; return 1; }
}
usage_error() { # usage_error COMMAND...: a wrong option exits 2 with the usage
  "$@" board-check --buttons nose >"$work/usage.txt" 2>&1
  [ $? -eq 2 ] && grep -q "unknown button 'nose'" "$work/usage.txt" && grep -q "^usage: shfl board-check" "$work/usage.txt"
}
run_help() { # run_help COMMAND...: `shfl help` says "see shfl run --help": it prints the options, exit 0
  "$@" run --help >"$work/run-help.txt" 2>&1 && grep -q "^usage: shfl run .*--config FILE" "$work/run-help.txt"
}
for build in x86_64 aarch64; do
  runner=("$out/$build/shfl")
  [ "$build" = aarch64 ] && runner=(qemu-aarch64-static "$out/aarch64/shfl")
  check "$build firmware: board-check on simulated buttons passes, LED blinks three times on time" simulated_check "${runner[@]}"
  check "$build firmware: board-check names the button not seen and exits 1" simulated_failure "${runner[@]}"
  check "$build firmware: gpio-monitor prints debounced gestures from simulated buttons" simulated_monitor "${runner[@]}"
  check "$build firmware: a wrong option exits 2 with the usage" usage_error "${runner[@]}"
  check "$build firmware: shfl run --help prints the daemon's options" run_help "${runner[@]}"
done

# Sources/CSystem/shfl_embedded_runtime.c replaces the Embedded runtime's
# swift_bridgeObjectRetain, which corrupted small strings; the weak runtime copy must lose.
check "firmware links the corrected swift_bridgeObjectRetain (see shfl_embedded_runtime.c)" \
  bash -c "aarch64-linux-gnu-nm '$out/aarch64/shfl' | grep -q ' T swift_bridgeObjectRetain\$' && nm '$out/x86_64/shfl' | grep -q ' T swift_bridgeObjectRetain\$'"
check "aarch64 firmware reports its linked C libraries" bash -c "qemu-aarch64-static '$out/aarch64/shfl' version | grep -q 'libgpiod 1.6'"

# The stick scanner and the state store in the firmware: `shfl scan` of a hostile little tree
# (links, a FIFO named .mp3, invalid UTF-8, a playlist) prints what the host prints (the time
# taken aside), and `shfl state-writer` writes the bytes the host writes.
stick="$work/stick"
mkdir -p "$stick/Album/.hidden" "$stick/Deep/1/2/3/4/5/6/7/8/9"
touch "$stick/Album/a.mp3" "$stick/Album/B.MP3" "$stick/Album/cover.jpg" "$stick/Deep/1/2/3/4/5/6/7/8/9/deep.mp3" \
  "$stick/$(printf 'bad\377name.mp3')" "$stick/$(printf 'new\nline.mp3')"
ln -s /etc "$stick/etc"; ln -s /etc/passwd "$stick/passwd.mp3"; mkfifo "$stick/pipe.mp3"
printf '#EXTM3U\r\nAlbum\\b.mp3\r\nmissing.mp3\r\n' > "$stick/shfl.m3u"
scan_of() { # scan_of NAME COMMAND...: `shfl scan` of the tree, saved as NAME.scan without the time taken
  local name="$1"; shift
  "$@" scan "$stick" >"$work/$name.raw" 2>&1 || return 1
  sed '1s/, [0-9.]*ms;/;/' "$work/$name.raw" >"$work/$name.scan"
}
same_scan() { # same_scan NAME COMMAND...: the scan by COMMAND equals the host's
  scan_of "$@" && diff -u "$work/host.scan" "$work/$1.scan"
}
states_of() { # states_of NAME COMMAND...: three saves by `shfl state-writer`, kept as NAME.state
  local name="$1"; shift
  rm -rf "$work/states"
  "$@" state-writer "$work/states" 40 3 >/dev/null && cp "$work/states/stick-C0FF-EE00.state" "$work/$name.state"
}
same_states() {
  states_of host "$host_shfl" && states_of x86_64 "$out/x86_64/shfl" && states_of aarch64 qemu-aarch64-static "$out/aarch64/shfl" &&
    cmp "$work/host.state" "$work/x86_64.state" && cmp "$work/host.state" "$work/aarch64.state"
}
scan_of host "$host_shfl"
check "host shfl scan of a hostile tree finds what it should" \
  grep -qx '1/120 tracks, chosen by playlist shfl.m3u from 4 MP3 files' "$work/host.scan"
check "x86_64 firmware shfl scan prints the same as the host" same_scan x86_64 "$out/x86_64/shfl"
check "aarch64 firmware shfl scan prints the same as the host" same_scan aarch64 qemu-aarch64-static "$out/aarch64/shfl"
check "x86_64 and aarch64 firmware write the state file the host writes" same_states

# The control socket and sd_notify in the firmware: `shfl control-echo` (a test aid) serves the
# socket with the Embedded server in a poll() loop and answers each request with its own line;
# the firmware's client commands ask it, a raw client sends a malformed line, and a datagram
# socket standing in for systemd's (abstract, as NOTIFY_SOCKET may be) collects READY=1.
control_round_trip() { # control_round_trip NAME COMMAND...
  local name="$1"; shift
  local socket="$work/$name-ctl/control" notify="@shfl-firmware-$$-$name" server status=0
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind("\0" + sys.argv[1][1:]); s.settimeout(30)
print(s.recv(4096).decode()); print(s.recv(4096).decode())' "$notify" >"$work/$name.notify" &
  local receiver=$!
  for _ in $(seq 200); do grep -q " @${notify#@}\$" /proc/net/unix && break; sleep 0.05; done
  NOTIFY_SOCKET="$notify" "$@" control-echo "$socket" 4 &
  server=$!
  for _ in $(seq 200); do [ -S "$socket" ] && break; sleep 0.05; done
  [ "$(stat -c %a "$socket")" = 660 ] || { echo "socket mode $(stat -c %a "$socket")"; status=1; }
  "$@" status --socket "$socket" | grep -qx "request: status" || status=1
  "$@" volume 42 --socket "$socket" | grep -qx "request: volume 42" || status=1
  "$@" press vol- --socket "$socket" | grep -qx "request: press VOL-" || status=1
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.connect(sys.argv[1]); s.sendall(b"volume 101\n"); s.settimeout(10)
print(s.recv(4096).decode(), end="")' "$socket" | grep -qx "error: bad volume .101. (expected +, - or a number from 0 to 100)" || status=1
  wait "$server" || status=1
  wait "$receiver" || status=1
  cat "$work/$name.notify"
  grep -qx "READY=1" "$work/$name.notify" && grep -qx "STOPPING=1" "$work/$name.notify" || status=1
  [ ! -e "$socket" ] || { echo "socket left behind"; status=1; }
  return "$status"
}
check "x86_64 firmware serves the control socket, its client asks, READY=1 reaches NOTIFY_SOCKET" control_round_trip x86_64 "$out/x86_64/shfl"
check "aarch64 firmware serves the control socket, its client asks, READY=1 reaches NOTIFY_SOCKET (qemu)" control_round_trip aarch64 qemu-aarch64-static "$out/aarch64/shfl"
not_running() { # the client says the daemon is not running, exit status 2
  local status=0
  "$@" status --socket "$work/none/control" 2>"$work/none.err" || status=$?
  [ "$status" -eq 2 ] && grep -qx "shfl status: shfl is not running (no control socket at $work/none/control)" "$work/none.err"
}
check "firmware shfl status without a daemon exits 2 and says so" not_running "$out/x86_64/shfl"

# The configuration file, read by libinih in the firmware: `shfl config` prints what the host
# prints, for the sample (every default, no problem, exit 0) and for a broken file with CRLF
# lines, whose problems name the file, the line and the key (exit 1).
printf '[audio]\r\nbuffer-time = 200\r\n  device = hw:1 ; indented\r\n[adio]\r\nmixer = software\r\nnot a key line\r\n[volume]\r\nmaximum = 40\r\nminimum = 60\r\nstepp = 2\r\n' >"$work/broken.ini"
config_of() { # config_of NAME STATUS FILE COMMAND...: `shfl config --config FILE` exits STATUS; output kept as NAME.config
  local name="$1" status="$2" file="$3"; shift 3
  "$@" config --config "$file" >"$work/$name.config" 2>&1
  [ $? -eq "$status" ] || { cat "$work/$name.config"; return 1; }
}
same_config() { # same_config NAME STATUS FILE COMMAND...: as config_of, and the output equals the host's
  config_of "$@" && diff -u "$work/host-$(basename "$3").config" "$work/$1.config"
}
broken_config_named() { # every problem of the broken file names file, line and key
  config_of host-broken.ini 1 "$work/broken.ini" "$host_shfl" &&
    grep -qxF "$work/broken.ini:2: [audio] buffer-time: expected a duration from 10ms to 2s with its unit (us, ms or s), not '200'; using the default 200ms" "$work/host-broken.ini.config" &&
    grep -qxF "$work/broken.ini:4: unknown section [adio] (did you mean [audio]?); its keys are ignored" "$work/host-broken.ini.config" &&
    grep -qxF "$work/broken.ini:6: expected key = value, a [section] heading or a # comment, not 'not a key line'; ignored" "$work/host-broken.ini.config" &&
    grep -qxF "$work/broken.ini:9: [volume] maximum 40 is below minimum 60; using 60" "$work/host-broken.ini.config" &&
    grep -qxF "$work/broken.ini:10: unknown key 'stepp' in [volume] (did you mean step?); ignored" "$work/host-broken.ini.config" &&
    grep -qxF "device = hw:1 ; line 3" "$work/host-broken.ini.config" || { cat "$work/host-broken.ini.config"; return 1; }
}
check "host shfl config of board/shfl.ini: every default, no problem" config_of host-shfl.ini 0 board/shfl.ini "$host_shfl"
check "host shfl config of a broken file names file, line and key of each problem" broken_config_named
for build in x86_64 aarch64; do
  runner=("$out/$build/shfl")
  [ "$build" = aarch64 ] && runner=(qemu-aarch64-static "$out/aarch64/shfl")
  check "$build firmware: shfl config of board/shfl.ini prints the same as the host" same_config "$build-sample" 0 board/shfl.ini "${runner[@]}"
  check "$build firmware: shfl config of a broken file prints the same problems as the host" same_config "$build-broken" 1 "$work/broken.ini" "${runner[@]}"
done

echo
echo "self-check (aarch64):"
sed 's/^/  /' "$work/aarch64.txt"
for arch in aarch64 x86_64; do
  echo "firmware $arch: $(stat -c %s "$out/$arch/shfl.stripped") bytes stripped ($(stat -c %s "$out/$arch/shfl") unstripped)"
done
echo "firmware: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
