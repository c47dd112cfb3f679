# image-test only: the boot's journal (monotonic timestamps: seconds since the kernel started)
# written to DEVICE as it grows, each line prefixed with PREFIX if given.
device="$1"; prefix="${2:-}"
for _ in $(seq 300); do [ -e "$device" ] && break; sleep 0.1; done
if [ -n "$prefix" ]; then
  journalctl -b --follow --no-tail -o short-monotonic --no-hostname | sed -u "s/^/$prefix /" >"$device"
else
  exec journalctl -b --follow --no-tail -o short-monotonic --no-hostname >"$device"
fi
