#!/usr/bin/env bash
# Installs the Debian 12 packages Shfl needs, only those missing.
# Usage: scripts/install-deps.sh [host|firmware|bench|vboard|deb|image|all]   (default: all)
# Uses sudo when not root. Idempotent: a second run installs nothing. "image" also registers
# qemu-aarch64 with the kernel's binfmt_misc (mmdebstrap runs the arm64 root's maintainer scripts).
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
# stress-ng keeps a core busy while the timing-dependent tests run (DEVELOPERS.md, "Checks under load").
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
# The SD-card image (image/): mmdebstrap builds the arm64 root from Debian's archive, its
# maintainer scripts run under qemu-user (binfmt_misc); sfdisk, mke2fs -d, mkfs.vfat and mtools
# assemble the card without loop mounts; xz compresses it. The test boots it with QEMU (virt and
# raspi3b) and checks the state partition with e2fsck.
image_packages=(mmdebstrap qemu-user-static qemu-system-arm arch-test fdisk dosfstools mtools e2fsprogs xz-utils python3 debian-archive-keyring cpio zstd)

# The Debian packages (`make deb`, tests/deb.sh): dpkg-dev (dpkg-shlibdeps, dpkg-gencontrol,
# dpkg-architecture), lintian, mmdebstrap for the Debian 12 roots the test installs into, and
# qemu-user-static with binfmt-support (update-binfmts) so that dpkg and apt run inside the
# arm64 root; arch-test tells whether this machine can run arm64 binaries; man-db renders the
# man pages with warnings on.
deb_packages=(dpkg-dev lintian mmdebstrap qemu-user-static binfmt-support arch-test man-db)

case "$what" in
  host) wanted=("${host_packages[@]}") ;;
  firmware) wanted=("${firmware_packages[@]}") ;;
  bench) wanted=("${bench_packages[@]}") ;;
  vboard) wanted=("${vboard_packages[@]}") ;;
  deb) wanted=("${deb_packages[@]}") ;;
  image) wanted=("${image_packages[@]}") ;;
  all) wanted=("${host_packages[@]}" "${firmware_packages[@]}" "${bench_packages[@]}" "${vboard_packages[@]}" "${deb_packages[@]}" "${image_packages[@]}") ;;
  *) echo "usage: $0 [host|firmware|bench|vboard|deb|image|all]" >&2; exit 2 ;;
esac

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# qemu-aarch64 registered with binfmt_misc, as systemd-binfmt would do at boot (a container or a
# CI machine without systemd as init never does): the kernel then runs arm64 programs, such as
# an arm64 root's maintainer scripts, through qemu-aarch64-static.
register_binfmt() {
  local conf=/usr/lib/binfmt.d/qemu-aarch64.conf dir=/proc/sys/fs/binfmt_misc
  [ -e "$dir/qemu-aarch64" ] && return 0
  [ -f "$conf" ] || { echo "install-deps: $conf missing (qemu-user-static)" >&2; return 1; }
  if [ ! -e "$dir/register" ]; then as_root mount -t binfmt_misc binfmt_misc "$dir"; fi
  [ -e "$dir/qemu-aarch64" ] || grep -v '^#' "$conf" | as_root tee "$dir/register" >/dev/null
  echo "install-deps: qemu-aarch64 registered with binfmt_misc"
}

missing=()
for p in "${wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
binfmt_wanted=false
case "$what" in image|all) binfmt_wanted=true ;; esac
if [ ${#missing[@]} -eq 0 ]; then
  if $binfmt_wanted; then register_binfmt; fi
  exit 0
fi

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
# Another apt or dpkg may hold the lock for a while (other builds on this machine): apt waits for it.
lock_wait=(-o DPkg::Lock::Timeout=600)
as_root apt-get "${lock_wait[@]}" update -qq
as_root apt-get "${lock_wait[@]}" install -y -qq --no-install-recommends "${missing[@]}"
if $binfmt_wanted; then register_binfmt; fi
