#!/usr/bin/env bash
# Installs the Debian 12 packages Shfl needs, only those missing.
# Usage: scripts/install-deps.sh [host|firmware|bench|vboard|all]   (default: all)
# Uses sudo when not root. Idempotent: a second run installs nothing.
set -euo pipefail

what="${1:-all}"

host_packages=(
  pkg-config file binutils
  libmpg123-dev libasound2-dev libgpiod-dev libudev-dev libinih-dev
  # audio fixtures and references (tests/fixtures/make-audio-fixtures.sh)
  sox lame mpg123 python3
  # The media adapter tests: a real systemd-udevd (started by the test), FAT, exFAT and ext4 images
  # on loop devices (losetup and mount come with util-linux and mount).
  udev dosfstools exfatprogs e2fsprogs
  # systemd-analyze (verify and security of board/shfl.service) and systemd-notify (the sd_notify test)
  systemd
)
# Benchmarks (bench/): instruction counts, peak RSS, and the peers measured in the same run.
bench_packages=(valgrind time mpd mpg123 stress-ng)
# The aarch64 firmware links against Debian's arm64 libraries (multiarch) and
# runs under qemu-user in the tests.
firmware_packages=(
  gcc-aarch64-linux-gnu qemu-user-static
  libc6:arm64 libc6-dev:arm64 libmpg123-dev:arm64 libasound2-dev:arm64 libgpiod-dev:arm64 libudev-dev:arm64 libinih-dev:arm64
)

# The virtual board (board/vboard/): QEMU's emulated arm64 board (7.2, pinned by its qtest use),
# the USB stick's image (sfdisk, mkfs.vfat, mcopy), the guest's initramfs (cpio, and kmod for
# depmod and modprobe --show-depends on the arm64 kernel's modules).
vboard_packages=(qemu-system-arm fdisk dosfstools mtools cpio kmod python3)

case "$what" in
  host) wanted=("${host_packages[@]}") ;;
  firmware) wanted=("${firmware_packages[@]}") ;;
  bench) wanted=("${bench_packages[@]}") ;;
  vboard) wanted=("${vboard_packages[@]}") ;;
  all) wanted=("${host_packages[@]}" "${firmware_packages[@]}" "${bench_packages[@]}" "${vboard_packages[@]}") ;;
  *) echo "usage: $0 [host|firmware|bench|vboard|all]" >&2; exit 2 ;;
esac

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for p in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "installing: ${missing[*]}"
for p in "${missing[@]}"; do
  case "$p" in
    *:arm64)
      if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        as_root dpkg --add-architecture arm64
      fi ;;
  esac
done
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -qq
as_root apt-get install -y -qq --no-install-recommends "${missing[@]}"
