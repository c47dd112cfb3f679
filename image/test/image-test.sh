#!/usr/bin/env bash
# `make image-test`: boots the SD-card image on QEMU (virt, then raspi3b) and checks the player
# under systemd. See image/README.md, "The image test".
# Usage: image/test/image-test.sh IMAGE [virt|raspi3b|all]
#   IMAGE  out/image/shfl-<version>-raspi-arm64.img (built by `make image`)
# Reuses the virtual board's pieces: its arm64 downloads (Debian's arecord for the capture,
# mpg123 for the references), cached in .build-vboard/ by board/vboard/build-guest.sh, and its
# stick (board/vboard/make-stick.sh).
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
image="$(realpath "$1")"; which="${2:-all}"
cd "$(dirname "$0")/../.."
work=.build-image/test
mkdir -p "$work"
# build-guest.sh wants a firmware binary for its initramfs (unused here): the image's own,
# read from the root partition with debugfs (nothing mounted).
shfl="$work/shfl"
read -r offset length < <(awk '$1 == "root" {print $2, $3}' "${image%.img}.partitions")
dd if="$image" of="$work/root.fs" bs=1M skip=$(( offset >> 20 )) count=$(( length >> 20 )) status=none
rm -f "$shfl"; debugfs -R "dump /usr/bin/shfl $shfl" "$work/root.fs" >/dev/null 2>&1
rm -f "$work/root.fs"
[ -s "$shfl" ] || { echo "image-test: no /usr/bin/shfl in the image's root partition" >&2; exit 1; }
board/vboard/build-guest.sh "$shfl" .build-vboard >&2
board/vboard/make-stick.sh .build-vboard/stick
python3 image/test/image_test.py "$image" "$work" .build-vboard/guest .build-vboard/root/usr/bin/arecord \
  .build-vboard/stick "$which"
