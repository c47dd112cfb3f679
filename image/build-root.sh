#!/usr/bin/env bash
# The image's arm64 Debian 12 root, built by mmdebstrap (maintainer scripts run under
# qemu-aarch64 through binfmt_misc: scripts/install-deps.sh image registers it).
# Usage: image/build-root.sh CACHE [PACKAGE...]
#   CACHE    .build-image: debs/ (every .deb downloaded, reused by later builds), root-<key>/
#   PACKAGE  packages besides the base list below (the Shfl package's dependencies)
# Prints the root's path. The root is cached under a key made of the package list, the suites,
# this script and the files it copies in (image/setup/, image/dpkg-excludes.cfg): with the same
# key, nothing runs and nothing is downloaded. A new key reuses the downloaded .debs (only the
# archive's index files are fetched again).
set -euo pipefail
cache="$(realpath -m "$1")"; shift
here="$(cd "$(dirname "$0")" && pwd)"

MIRROR=http://deb.debian.org/debian
SECURITY=http://deb.debian.org/debian-security
# non-free-firmware: raspi-firmware (the Pi's boot firmware, start*.elf and bootcode.bin).
COMPONENTS="main non-free-firmware"
packages=(
  # systemd as init, udev for devices, kmod for modules
  systemd systemd-sysv udev kmod
  # The kernel for every 64-bit Pi (and QEMU's virt board), its initramfs (zstd-compressed),
  # and the Pi's boot firmware, which also copies the kernel, initramfs and device trees to
  # /boot/firmware and writes config.txt and cmdline.txt there.
  linux-image-arm64 initramfs-tools zstd raspi-firmware
  # fsck.vfat for the boot partition, e2fsck for the state partition (e2fsprogs is required)
  dosfstools
  # free, ps: what someone on the serial console reaches for first
  procps
  "$@"
)
mapfile -t packages < <(printf '%s\n' "${packages[@]}" | LC_ALL=C sort -u)

key="$( {
  printf '%s\n' "${packages[@]}" "$MIRROR" "$SECURITY" "$COMPONENTS"
  cat "$0" "$here/dpkg-excludes.cfg"
  (cd "$here/setup" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
} | sha256sum | cut -c1-16)"
root="$cache/root-$key"
if [ -f "$root.done" ]; then echo "$root"; exit 0; fi

mkdir -p "$cache/debs"
rm -rf "$root" "$root.tmp"
include="$(IFS=,; echo "${packages[*]}")"
echo "image: building the arm64 root with mmdebstrap (key $key): ${packages[*]}" >&2
# merged-usr: /usr merged the way debootstrap does it, with usr-is-merged, instead of the usrmerge
# package, which would bring perl (about 40 MB) into the image for a one-time conversion.
# The .debs: synced into the chroot's apt cache before, out of it after (mmdebstrap's documented
# caching hooks), then removed from the root.
mmdebstrap --mode=root --arch=arm64 --variant=minbase --components="$COMPONENTS" \
  --include="$include" \
  --hook-dir=/usr/share/mmdebstrap/hooks/merged-usr \
  --dpkgopt="$here/dpkg-excludes.cfg" \
  --aptopt='Acquire::Languages "none"' \
  --skip=download/empty --skip=essential/unlink \
  --setup-hook='mkdir -p "$1"/var/cache/apt/archives' \
  --setup-hook="sync-in '$cache/debs' /var/cache/apt/archives" \
  --setup-hook="copy-in '$here/setup/etc' '$here/setup/usr' /" \
  --customize-hook="sync-out /var/cache/apt/archives '$cache/debs'" \
  --customize-hook='rm -f "$1"/var/cache/apt/archives/*.deb' \
  bookworm "$root.tmp" \
  "deb $MIRROR bookworm main non-free-firmware" \
  "deb $MIRROR bookworm-updates main non-free-firmware" \
  "deb $SECURITY bookworm-security main non-free-firmware" >&2
rm -f "$cache/debs/lock"; rm -rf "$cache/debs/partial"
mv "$root.tmp" "$root"
# Older roots (other keys) are dropped: each is a few hundred MB.
for old in "$cache"/root-*; do
  case "$old" in "$root"|"$root.done") ;; *) rm -rf "$old" ;; esac
done
touch "$root.done"
echo "$root"
