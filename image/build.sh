#!/usr/bin/env bash
# Builds Shfl's SD-card image (`make image`; image/README.md says what it holds and why):
#   OUT/shfl-<version>-raspi-arm64.img.xz, its .sha256, and OUT/shfl-<version>-raspi-arm64.json
#   (a Raspberry Pi Imager os-list entry). OUT/shfl-<version>-raspi-arm64.img stays beside it,
#   uncompressed, for `make image-test`.
# Usage: image/build.sh SHFL_DEB OUT [CACHE]   (CACHE: .build-image)
# Steps: the cached arm64 root (image/build-root.sh, mmdebstrap) → a copy with the Shfl package
# installed (dpkg in a chroot, under qemu-user) and the image's settings (image/root/) → three
# file systems built from folders without mounting anything (mkfs.vfat + mcopy, mke2fs -d) →
# one MBR disk (sfdisk, dd) → xz.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"
deb="$(realpath "$1")"; out="$(realpath -m "$2")"; cache="$(realpath -m "${3:-.build-image}")"
here="$(cd "$(dirname "$0")" && pwd)"
started=$(date +%s)
say() { echo "image: $*" >&2; }

package="$(dpkg-deb -f "$deb" Package)"; version="$(dpkg-deb -f "$deb" Version)"
[ "$package" = shfl ] && [ "$(dpkg-deb -f "$deb" Architecture)" = arm64 ] ||
  { say "$deb is not the arm64 shfl package"; exit 1; }
# The package's dependencies go into the cached root (dpkg -i below then finds them there): the
# first alternative of each, without versions.
mapfile -t depends < <(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed -E 's/\|.*//; s/\(.*\)//; s/:any//; s/^ +//; s/ +$//' | grep -v '^$')
base="$("$here/build-root.sh" "$cache" "${depends[@]}")"

name="shfl-$version-raspi-arm64"
work="$cache/work"; root="$work/root"
rm -rf "$work"; mkdir -p "$work" "$out"
cp -a "$base" "$root"
say "installing $(basename "$deb") into a copy of $(basename "$base")"
# The disk's identity: fixed, so cmdline.txt and fstab name the partitions by PARTUUID
# (the kernel resolves root=PARTUUID= itself; the Pi's firmware and QEMU's virt see the same).
disk_id=5348464c                     # "SHFL"
# On the Pi, the firmware names the console serial0 in its own device tree; Debian's kernel
# calls the mini UART (GPIO14/15, Pi 3, Zero 2 W and 4 with Bluetooth on the PL011) ttyS1.
cmdline="console=ttyS1,115200 root=PARTUUID=$disk_id-02 rootfstype=ext4 ro rootwait fsck.repair=yes quiet usb_storage.delay_use=0"
# raspi-firmware regenerates config.txt and cmdline.txt when a kernel is installed (after a
# remount rw and an apt upgrade): its settings give the same boot as ours below.
sed -i -E "s|^#?ROOTPART=.*|ROOTPART=PARTUUID=$disk_id-02|; s|^#?CONSOLES=.*|CONSOLES=\"ttyS1,115200\"|" \
  "$root/etc/default/raspi-firmware"
echo "quiet usb_storage.delay_use=0" >"$root/etc/default/raspi-extra-cmdline"
printf 'disable_splash=1\nboot_delay=0\n' >"$root/etc/default/raspi-firmware-custom"

# The Shfl package, as apt would install it (its postinst creates the group, enables the unit
# and copies the sample configuration to /boot/firmware/shfl.ini).
cp "$deb" "$root/tmp/shfl.deb"
chroot "$root" dpkg -i /tmp/shfl.deb >&2
rm -f "$root/tmp/shfl.deb"
[ -L "$root/etc/systemd/system/multi-user.target.wants/shfl.service" ] || { say "the package did not enable shfl.service"; exit 1; }

# The image's own settings (image/root/: journald in memory, hostname), then what is generated.
cp -a "$here/root/." "$root/"
cat >"$root/etc/fstab" <<EOF
# Shfl's SD card (image/README.md). The root is read-only; the only place written while the
# player runs is /var/lib/shfl, a small ext4 partition of its own (fsck'd at boot, journalled).
# The boot partition is read-only too and not checked at boot (seconds saved; only a PC
# writes it).
PARTUUID=$disk_id-02  /               ext4   ro,noatime                                   0 0
PARTUUID=$disk_id-01  /boot/firmware  vfat   ro,noatime,nosuid,nodev,noexec,umask=0022    0 0
PARTUUID=$disk_id-03  /var/lib/shfl   ext4   rw,noatime,nosuid,nodev,noexec               0 2
tmpfs                 /tmp            tmpfs  nosuid,nodev,size=16M,mode=1777               0 0
tmpfs                 /var/tmp        tmpfs  nosuid,nodev,size=8M,mode=1777                0 0
EOF
# No machine ID in the image: systemd makes one in /run at each boot (read-only root).
: >"$root/etc/machine-id"
rm -f "$root/var/lib/dbus/machine-id"
# The serial console logs in as root without a password (Debian's raspi images do the same;
# there is no network service to reach it from elsewhere).
chroot "$root" passwd -d root >/dev/null
# Units that would write to the read-only root or need what the image leaves out (dbus); the
# only console is the serial one (no getty on tty1: no keyboard or screen).
# multi-user.target, not graphical.target: nothing graphical is installed.
ln -sf /lib/systemd/system/multi-user.target "$root/etc/systemd/system/default.target"
for unit in getty-static.service systemd-random-seed.service systemd-update-utmp.service systemd-update-utmp-runlevel.service \
            systemd-logind.service getty@tty1.service apt-daily.timer apt-daily-upgrade.timer \
            e2scrub_all.timer e2scrub_reap.service fstrim.timer; do
  ln -sf /dev/null "$root/etc/systemd/system/$unit"
done

# The boot partition's files: the firmware, kernel, initramfs and device trees that
# raspi-firmware's hooks copied, our config.txt and cmdline.txt, the README for a PC.
boot="$work/boot"
mkdir -p "$boot"
cp -a "$root/boot/firmware/." "$boot/"
find "$root/boot/firmware" -mindepth 1 -delete
# Plain names (the version is in the root's /boot): config.txt, the test and README.txt name them.
mv "$boot"/vmlinuz-* "$boot/vmlinuz"; mv "$boot"/initrd.img-* "$boot/initrd.img"
printf '%s\n' "$cmdline" >"$boot/cmdline.txt"
cp "$here/boot/config.txt" "$boot/config.txt"
cp "$here/boot/README.txt" "$boot/README.txt"
[ -f "$boot/shfl.ini" ] || { say "the package did not install /boot/firmware/shfl.ini"; exit 1; }

# Kernel modules no Pi player uses (image/modules-left-out.txt) and the modules that need them
# (by Debian's modules.dep, until none is left needing a missing one); then the index again,
# and every module a player needs must still load with all it needs. (No ntfs3: Debian 12
# builds its kernel without it, so NTFS sticks do not mount on this image.)
kver="$(basename "$(ls -d "$root"/usr/lib/modules/*)")"
moddir="$root/usr/lib/modules/$kver"
grep -v '^#' "$here/modules-left-out.txt" | while read -r folder; do
  [ -n "$folder" ] && rm -rf "$moddir/kernel/$folder"
done
while :; do
  dependents="$(awk -F': *' -v d="$moddir/" '{ n = split($2, deps, " "); for (i = 1; i <= n; i++)
      if (system("test -e " d deps[i]) != 0) { print $1; break } }' "$moddir/modules.dep")"
  [ -z "$dependents" ] && break
  for module in $dependents; do rm -f "$moddir/$module"; done
  grep -vFf <(printf '%s:\n' $dependents) "$moddir/modules.dep" >"$work/modules.dep" || true
  cp "$work/modules.dep" "$moddir/modules.dep"
done
depmod -b "$root" "$kver"
for module in usb_storage uas sd_mod vfat exfat ext4 nls_cp437 nls_iso8859_1 nls_utf8 snd_usb_audio \
              snd_bcm2835 vc4 snd_soc_hdmi_codec dwc2 sdhci_iproc bcm2835 snd_aloop 9p 9pnet_virtio virtio_console; do
  modprobe -d "$root" -S "$kver" --show-depends "$module" >/dev/null 2>&1 ||
    { say "kernel module $module is missing after leaving out image/modules-left-out.txt"; exit 1; }
done
say "kernel modules: $(du -sm "$moddir" | cut -f1) MiB after leaving out image/modules-left-out.txt"

# What the image does not need at run time.
rm -rf "$root"/var/cache/apt/* "$root"/var/lib/apt/lists/* "$root"/var/log/* \
       "$root"/var/cache/debconf/*-old "$root"/var/lib/dpkg/*-old "$root"/boot/initrd.img-*
find "$root/var/lib/shfl" -mindepth 1 -delete 2>/dev/null || true
mkdir -p "$root/var/lib/shfl"

# The file systems, from folders: nothing is mounted, nothing needs a loop device.
mib() { echo $(( ($1 + 1048575) / 1048576 )); }
boot_mib=128
root_used=$(du -sxb "$root" | cut -f1)
root_mib=$(( $(mib "$root_used") * 115 / 100 + 32 ))        # 15 % and 32 MiB spare
state_mib=16
say "root file system: $(mib "$root_used") MiB of files in $root_mib MiB"
rm -f "$work"/*.fs
mkfs.vfat -C -F 32 -n SHFL-BOOT -i "$disk_id" "$work/boot.fs" $(( boot_mib * 1024 )) >/dev/null
MTOOLS_SKIP_CHECK=1 mcopy -s -p -m -i "$work/boot.fs" "$boot"/* ::/
# The root has no journal: it is never written (ro), so there is nothing to replay.
mke2fs -q -t ext4 -O ^has_journal -L shfl-root -U 5348464c-0000-4000-8000-000000000002 \
  -d "$root" "$work/root.fs" "${root_mib}M"
state="$work/state"; mkdir -p "$state"
mke2fs -q -t ext4 -J size=1 -L shfl-state -U 5348464c-0000-4000-8000-000000000003 \
  -E root_owner=0:0 -d "$state" "$work/state.fs" "${state_mib}M"

# The disk: MBR (every Pi's firmware reads it), the boot partition at 4 MiB.
img="$out/$name.img"
rm -f "$out"/shfl-*-raspi-arm64.*            # an older version's image, if any
start1=4; start2=$(( start1 + boot_mib )); start3=$(( start2 + root_mib ))
total=$(( start3 + state_mib ))
rm -f "$img" "$img.xz"
truncate -s "${total}M" "$img"
sfdisk -q "$img" <<EOF
label: dos
label-id: 0x$disk_id
start=${start1}MiB, size=${boot_mib}MiB, type=c, bootable
start=${start2}MiB, size=${root_mib}MiB, type=83
start=${start3}MiB, size=${state_mib}MiB, type=83
EOF
for part in boot:$start1 root:$start2 state:$start3; do
  dd if="$work/${part%%:*}.fs" of="$img" bs=1M seek="${part##*:}" conv=notrunc,sparse status=none
done
# Where the partitions lie, for image-test (offsets in bytes).
printf 'boot %d %d\nroot %d %d\nstate %d %d\n' \
  $(( start1 << 20 )) $(( boot_mib << 20 )) $(( start2 << 20 )) $(( root_mib << 20 )) \
  $(( start3 << 20 )) $(( state_mib << 20 )) >"$out/$name.partitions"

if [ -n "${IMAGE_SKIP_XZ:-}" ]; then          # while working on the image: no .xz, no JSON
  say "$img: $(mib "$(stat -c %s "$img")") MiB; IMAGE_SKIP_XZ set: not compressed"; exit 0
fi
# xz -3: about 40 % faster than -6 here (measured: 206 s against 370 s), about 20 MB larger, far below
# the 250 MB target.
say "compressing $(mib "$(stat -c %s "$img")") MiB with xz"
xz -T2 -3 -k -c "$img" >"$img.xz.tmp" && mv "$img.xz.tmp" "$img.xz"
(cd "$out" && sha256sum "$name.img.xz" >"$name.img.xz.sha256")
img_sha=$(sha256sum "$img" | cut -d' ' -f1)
xz_sha=$(cut -d' ' -f1 "$out/$name.img.xz.sha256")
# Raspberry Pi Imager's "Use custom" / os_list entry (os_list_imagingutility_v3.json format).
cat >"$out/$name.json" <<EOF
{
  "os_list": [
    {
      "name": "Shfl $version",
      "description": "A screenless shuffle MP3 player: a USB stick, two buttons, one LED. Debian 12, read-only system.",
      "url": "https://example.invalid/shfl/$name.img.xz",
      "icon": "https://example.invalid/shfl/icon.png",
      "release_date": "$(date -u -d "@$(stat -c %Y "$deb")" +%Y-%m-%d)",
      "extract_size": $(stat -c %s "$img"),
      "extract_sha256": "$img_sha",
      "image_download_size": $(stat -c %s "$img.xz"),
      "image_download_sha256": "$xz_sha",
      "devices": ["pi4-64bit", "pi3-64bit"]
    }
  ]
}
EOF
python3 -m json.tool "$out/$name.json" >/dev/null
say "$img.xz: $(( $(stat -c %s "$img.xz") / 1048576 )) MiB compressed, $(( $(stat -c %s "$img") / 1048576 )) MiB uncompressed; built in $(( $(date +%s) - started )) s"
