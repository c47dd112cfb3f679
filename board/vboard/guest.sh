# The virtual board's test, guest side (run by /init from the host's folder, mounted at /host).
# Starts the capture of the loopback card and the firmware as the product runs it (udev
# sticks, the board's GPIO recognised from the device tree, audio to the card), then waits
# for the host's "vboard-stop" line on the console. Everything it writes goes to /host/out.
out=/host/out
cat >/tmp/shfl.ini <<'INI'
[audio]
device = hw:Loopback,0,0
# 1024-frame periods (smaller ones overrun under emulation) in a 0.5 s buffer: the emulated
# CPU stops whenever the host is busy with other work (a Pi's does not), and a buffer shorter
# than such a stall underruns. The player's underruns are still checked: none is expected.
period-time = 23220us
buffer-time = 500ms
[volume]
initial = 100
INI
# The stall scenario (vboard.py, VBOARD_SCENARIO=stall) gives the state directory a drive of its
# own (virtio, FAT), which the host throttles as a slow SD card.
if [ -f /host/state-drive ]; then
  for _ in $(seq 50); do [ -b /dev/vda ] && break; sleep 0.1; done
  mkdir -p /var/lib/shfl && mount -t vfat /dev/vda /var/lib/shfl && echo "VBOARD state on /dev/vda"
  # No kernel read-ahead on the stick, so a throttled stick stalls the firmware's own reads (the
  # page cache would otherwise hold 128 KiB ahead: over 5 s of these 192 kbps tracks).
  (for _ in $(seq 600); do
    [ -e /sys/block/sda/queue/read_ahead_kb ] && { echo 0 >/sys/block/sda/queue/read_ahead_kb; break; }
    sleep 0.05
  done) &
fi
# The capture: what the firmware plays comes out of the loopback's other end (silence when
# nothing plays), at the tracks' format. It is the test's instrument, so it must not lose
# samples when the emulated CPU is late (a host busy with other work stalls the whole guest):
# a 2 s buffer read in 93 ms periods (the player's own buffer is 93 ms), and real-time
# priority above the player's audio thread (SCHED_FIFO 50). If it overruns all the same,
# arecord says "overrun!!!" in arecord.log and the host reports a failure of the rig, not of
# the product.
recorder_priority=""
if chrt -f 60 true 2>/dev/null; then recorder_priority="chrt -f 60"; fi
$recorder_priority arecord -q -v -D hw:Loopback,1,0 -f S16_LE -c 2 -r 44100 --period-size=4096 --buffer-size=88200 -t raw \
  "$out/capture.raw" 2>"$out/arecord.log" &
recorder=$!
[ -n "$recorder_priority" ] || echo "VBOARD note: no chrt, the capture runs at normal priority"
(
  shfl run --config /tmp/shfl.ini >"$out/shfl.log" 2>&1 &
  echo $! >/tmp/shfl.pid
  wait $!
  echo "VBOARD shfl exited with $?"
) &
sleep 0.2
echo "VBOARD started shfl $(cat /tmp/shfl.pid) and arecord $recorder"
# The host's requests on the console: "vboard-diag" records where each of the firmware's threads
# waits (for a hang's diagnosis), "vboard-stop" ends the test.
diagnose() {
  pid=$(cat /tmp/shfl.pid)
  for task in /proc/"$pid"/task/*; do
    echo "== thread $(basename "$task") $(cat "$task/comm") wchan=$(cat "$task/wchan") syscall: $(cat "$task/syscall")"
    cat "$task/stack" 2>/dev/null
  done
  ls -l /proc/"$pid"/fd
  echo "== shfl status"; shfl status --socket /run/shfl/control
  echo "== the log's end, as the guest sees it"; tail -4 "$out/shfl.log"
}
while read -r line; do
  case "$line" in
    *vboard-stop*) break ;;
    *vboard-diag*) diagnose >>"$out/diag.txt" 2>&1; echo "VBOARD diagnosed" ;;
  esac
done
kill -TERM "$(cat /tmp/shfl.pid)"
for _ in $(seq 50); do kill -0 "$(cat /tmp/shfl.pid)" 2>/dev/null || break; sleep 0.1; done
kill -INT "$recorder"; wait "$recorder"
cp -r /var/lib/shfl "$out/state" 2>/dev/null
dmesg >"$out/dmesg.txt"
sync
echo "VBOARD stopped"
