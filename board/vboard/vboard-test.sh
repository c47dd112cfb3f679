#!/usr/bin/env bash
# The virtual board's test (`make vboard-test`): the aarch64 firmware on QEMU's emulated arm64
# board with the real kernel's GPIO, USB hot-plug and ALSA. See board/vboard/README.md.
# Usage: board/vboard/vboard-test.sh SHFL     (SHFL: the aarch64 firmware, out/firmware/aarch64/shfl)
# Caches downloads and builds in .build-vboard/; each run's logs stay in .build-vboard/share/out/.
set -euo pipefail
shfl="$(realpath "$1")"
cd "$(dirname "$0")/../.."
cache=.build-vboard
board/vboard/build-guest.sh "$shfl" "$cache"
board/vboard/make-stick.sh "$cache/stick"
mkdir -p "$cache/share"
python3 board/vboard/vboard.py "$cache/guest" "$cache/share" "$cache/stick"
# Issue #14: the stick and the state drive throttled (QMP block_set_io_throttle) mid-track.
mkdir -p "$cache/share-stall"
VBOARD_SCENARIO=stall python3 board/vboard/vboard.py "$cache/guest" "$cache/share-stall" "$cache/stick"
