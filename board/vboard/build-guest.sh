#!/usr/bin/env bash
# Builds the virtual board's guest: Debian's arm64 kernel and a small initramfs (busybox, the
# kernel modules the board needs, systemd-udevd, arecord, the firmware and its libraries).
# Usage: board/vboard/build-guest.sh SHFL CACHE
#   SHFL   the aarch64 firmware (out/firmware/aarch64/shfl)
#   CACHE  the cache folder (.build-vboard): debs/ downloaded .debs, root/ their extracted files,
#          guest/ the result: vmlinuz, initramfs.cpio, and mpg123/ (arm64 mpg123 for references)
# Downloads only what the cache lacks (.debs are named by version); the initramfs is rebuilt
# each time (about a second), so a new firmware is always the one tested.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"        # depmod
shfl="$(realpath "$1")"; cache="$(realpath -m "$2")"
here="$(cd "$(dirname "$0")" && pwd)"; repo="$(cd "$here/../.." && pwd)"
debs="$cache/debs"; root="$cache/root"; guest="$cache/guest"
mkdir -p "$debs" "$guest"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# The kernel's ABI: what Debian's linux-image-arm64 points at today.
kernel_package() { apt-cache depends "linux-image-arm64:arm64" 2>/dev/null | sed -nE 's/^ *Depends: (linux-image-[0-9.]+-[0-9]+-arm64)(:arm64)?$/\1/p' | head -1; }
kpkg="$(kernel_package)"
if [ -z "$kpkg" ]; then
  echo "vboard: apt does not know linux-image-arm64:arm64; updating the package lists" >&2
  as_root apt-get update -qq
  kpkg="$(kernel_package)"
fi
[ -n "$kpkg" ] || { echo "vboard: cannot find Debian's arm64 kernel package (is arm64 a dpkg foreign architecture? scripts/install-deps.sh firmware adds it)" >&2; exit 1; }
kver="${kpkg#linux-image-}"

packages=(
  "$kpkg" busybox-static
  # systemd-udevd and udevadm (one binary), kmod for modprobe (the kernel's autoload and udevd)
  udev kmod libkmod2 libacl1 libblkid1 libcap2 libselinux1 libpcre2-8-0 libzstd1 liblzma5 libssl3
  # arecord, alsa-lib's configuration (/usr/share/alsa)
  alsa-utils libasound2 libasound2-data:all
  # the firmware's libraries
  libc6 libgcc-s1 libmpg123-0 libgpiod2 libudev1 libinih1
  # the references: arm64 mpg123 -s, run on the host by qemu-aarch64-static
  mpg123 libout123-0 libsyn123-0
)

# Which .debs the cache lacks: a package's file is named by its version (one apt-cache call).
names=(); for p in "${packages[@]}"; do case "$p" in *:*) names+=("$p") ;; *) names+=("$p:arm64") ;; esac; done
declare -A version=() arch=()
while IFS='|' read -r p v a; do version[$p]="$v"; arch[$p]="$a"; done < <(
  apt-cache show --no-all-versions "${names[@]}" 2>/dev/null |
    awk -F': ' '/^Package:/{p=$2} /^Version:/{v=$2} /^Architecture:/{a=$2} /^$/{if (p) print p "|" v "|" a; p=""}')
wanted=(); missing=()
for p in "${packages[@]}"; do
  p="${p%%:*}"
  [ -n "${version[$p]:-}" ] || { echo "vboard: apt knows no $p for arm64 (is arm64 a dpkg foreign architecture? scripts/install-deps.sh firmware adds it)" >&2; exit 1; }
  file="${p}_${version[$p]//:/%3a}_${arch[$p]}.deb"
  wanted+=("$file")
  qualified="$p:arm64"; [ "${arch[$p]}" = all ] && qualified="$p"
  [ -s "$debs/$file" ] || missing+=("$qualified=${version[$p]}")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "vboard: downloading ${#missing[@]} arm64 packages: ${missing[*]}"
  (cd "$debs" && apt-get download -q "${missing[@]}" >"$cache/download.log" 2>&1) ||
    { cat "$cache/download.log" >&2; echo "vboard: download failed (apt-get update may help)" >&2; exit 1; }
fi
for f in "${wanted[@]}"; do [ -s "$debs/$f" ] || { echo "vboard: $f did not arrive in $debs" >&2; exit 1; }; done

# Extracted once per set of .debs (the kernel's modules are 300 MB: not extracted again).
stamp="$(printf '%s\n' "${wanted[@]}")"
if [ ! -f "$root/.debs" ] || [ "$(cat "$root/.debs")" != "$stamp" ]; then
  echo "vboard: extracting ${#wanted[@]} packages into $root"
  rm -rf "$root"; mkdir -p "$root"
  for f in "${wanted[@]}"; do dpkg-deb -x "$debs/$f" "$root"; done
  depmod -b "$root" "$kver"
  printf '%s\n' "$stamp" >"$root/.debs"
fi

# The initramfs: a merged /usr (/bin, /sbin, /lib are links), built from scratch.
tree="$guest/initramfs"
rm -rf "$tree"; mkdir -p "$tree"/usr/{bin,sbin,lib/aarch64-linux-gnu,lib/systemd,share} "$tree"/{proc,sys,dev,run,tmp,host,etc,var/lib}
ln -s usr/bin "$tree/bin"; ln -s usr/sbin "$tree/sbin"; ln -s usr/lib "$tree/lib"
cp "$root/bin/busybox" "$tree/usr/bin/busybox"
cp "$root/bin/udevadm" "$tree/usr/bin/udevadm"
ln -s /usr/bin/udevadm "$tree/usr/lib/systemd/systemd-udevd"
cp "$root/bin/kmod" "$tree/usr/bin/kmod"
for tool in modprobe insmod rmmod lsmod modinfo depmod; do ln -s /usr/bin/kmod "$tree/usr/sbin/$tool"; done
cp "$root/usr/bin/arecord" "$tree/usr/bin/arecord"
cp "$shfl" "$tree/usr/bin/shfl"
mkdir -p "$tree/usr/lib/udev"
cp -a "$root/lib/udev/rules.d" "$tree/usr/lib/udev/"
for helper in ata_id scsi_id cdrom_id; do cp "$root/lib/udev/$helper" "$tree/usr/lib/udev/"; done
cp -a "$root/usr/share/alsa" "$tree/usr/share/"
# The shipped pin maps, where a package installs them: the board is recognised by its model.
mkdir -p "$tree/usr/share/shfl/board"; cp "$repo"/board/*.ini "$tree/usr/share/shfl/board/"
rm -f "$tree/usr/share/shfl/board/shfl.ini"
cp "$here/init" "$tree/init"; chmod +x "$tree/init"
printf 'root:x:0:0:root:/:/bin/sh\n' >"$tree/etc/passwd"
printf 'root:x:0:\ndisk:x:6:\nkmem:x:15:\ntty:x:5:\naudio:x:29:\ninput:x:101:\nkvm:x:102:\nrender:x:103:\nsgx:x:104:\nvideo:x:44:\ndialout:x:20:\ncdrom:x:24:\ntape:x:26:\nlp:x:7:\nfloppy:x:25:\n' >"$tree/etc/group"

# Shared libraries: the closure of what the binaries need, found in the extracted packages.
libdirs=("$root/lib/aarch64-linux-gnu" "$root/usr/lib/aarch64-linux-gnu" "$root/lib")
declare -A have=()
need_libs() { # need_libs FILE...: copies the libraries FILE needs, recursively
  local f lib dir found
  for f in "$@"; do
    for lib in $(readelf -d "$f" 2>/dev/null | sed -nE 's/.*\(NEEDED\).*\[(.*)\]/\1/p'); do
      [ -n "${have[$lib]:-}" ] && continue
      found=""
      for dir in "${libdirs[@]}"; do
        if [ -e "$dir/$lib" ]; then found="$dir/$lib"; break; fi
      done
      [ -n "$found" ] || { echo "vboard: $f needs $lib, which no downloaded package has (add its package to $0)" >&2; exit 1; }
      have[$lib]=1
      cp -L "$found" "$tree/usr/lib/aarch64-linux-gnu/$lib"
      need_libs "$tree/usr/lib/aarch64-linux-gnu/$lib"
    done
  done
}
need_libs "$tree"/usr/bin/* "$tree"/usr/lib/udev/*_id
# alsa-lib opens its plugins' libraries by name; the hw and file PCMs are built in.
ln -sf aarch64-linux-gnu/ld-linux-aarch64.so.1 "$tree/usr/lib/ld-linux-aarch64.so.1"

# Kernel modules: what the board's drivers need, with their dependencies, in load order.
modules=(xhci_pci usb_storage uas sd_mod vfat nls_cp437 nls_iso8859_1 nls_utf8 nls_ascii snd_aloop
  9p 9pnet_virtio virtio_pci gpio_keys evdev virtio_blk)
moddir="/lib/modules/$kver"
mkdir -p "$tree/usr$moddir"
: >"$tree/etc/modules-load"
for m in "${modules[@]}"; do
  modprobe -d "$root" -S "$kver" --show-depends "$m" | while read -r verb path _; do
    [ "$verb" = insmod ] || continue
    relative="${path#"$root"}"
    if [ ! -e "$tree/usr$relative" ]; then
      mkdir -p "$(dirname "$tree/usr$relative")"; cp "$path" "$tree/usr$relative"
      echo "$relative" >>"$tree/etc/modules-load"
    fi
  done
done
cp "$root$moddir"/modules.{order,builtin,builtin.modinfo} "$tree/usr$moddir/"
depmod -b "$tree" "$kver"

(cd "$tree" && find . | LC_ALL=C sort | cpio -o -H newc --quiet) >"$guest/initramfs.cpio"
cp "$root/boot/vmlinuz-$kver" "$guest/vmlinuz"
# mpg123 for the references, with its libraries (run by qemu-aarch64-static -L).
rm -rf "$guest/mpg123"; mkdir -p "$guest/mpg123/usr/bin" "$guest/mpg123/lib/aarch64-linux-gnu"
cp "$root/usr/bin/mpg123.bin" "$guest/mpg123/usr/bin/"
for lib in libmpg123.so.0 libout123.so.0 libsyn123.so.0 libm.so.6 libc.so.6 ld-linux-aarch64.so.1; do
  for dir in "${libdirs[@]}"; do [ -e "$dir/$lib" ] && { cp -L "$dir/$lib" "$guest/mpg123/lib/aarch64-linux-gnu/"; break; }; done
done
ln -sf aarch64-linux-gnu/ld-linux-aarch64.so.1 "$guest/mpg123/lib/ld-linux-aarch64.so.1"
echo "vboard: guest kernel $kver, initramfs $(( $(stat -c %s "$guest/initramfs.cpio") / 1024 )) KiB"
