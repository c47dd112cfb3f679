# image-test only: the boot's journal (monotonic timestamps: seconds since the kernel started)
# written to DEVICE as it grows, each line prefixed with PREFIX if given, only UNIT's if given
# (the console of QEMU's raspi3b is too slow for the whole journal).
device="$1"; prefix="${2:-}"; unit="${3:-}"
for _ in $(seq 300); do [ -e "$device" ] && break; sleep 0.1; done
set -- journalctl -b --follow --no-tail -o short-monotonic --no-hostname
[ -n "$unit" ] && set -- "$@" -u "$unit"
if [ -n "$prefix" ]; then
  "$@" | sed -u "s/^/$prefix /" >"$device"
else
  exec "$@" >"$device"
fi
