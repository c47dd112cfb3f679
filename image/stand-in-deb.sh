#!/usr/bin/env bash
# A STAND-IN for the Shfl Debian package, used by `make image` only until `make deb` (branch
# "deb": dpkg-shlibdeps, man pages, prerm/postrm, lintian) is merged; then `make image` installs
# that package and this file goes. It lays out what the image needs the same way: the firmware
# as /usr/bin/shfl, the unit in /lib/systemd/system, the sysusers file, the pin maps in
# /usr/share/shfl/board, the sample configuration, and a postinst that creates the group,
# enables the unit with deb-systemd-helper and copies the sample to /boot/firmware/shfl.ini.
# Usage: image/stand-in-deb.sh SHFL OUT     (SHFL: out/firmware/aarch64/shfl.stripped)
set -euo pipefail
shfl="$(realpath "$1")"; out="$(realpath -m "$2")"
cd "$(dirname "$0")/.."
stage="$(mktemp -d)"; trap 'rm -rf "$stage"' EXIT
root="$stage/shfl"
install -D -m 0755 "$shfl" "$root/usr/bin/shfl"
install -D -m 0644 board/shfl.service "$root/lib/systemd/system/shfl.service"
install -D -m 0644 board/shfl.sysusers "$root/usr/lib/sysusers.d/shfl.conf"
for map in board/*.ini; do
  [ "$(basename "$map")" = shfl.ini ] || install -D -m 0644 "$map" "$root/usr/share/shfl/board/$(basename "$map")"
done
install -D -m 0644 board/shfl.ini "$root/usr/share/shfl/shfl.ini"
mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<CONTROL
Package: shfl
Version: 0.1.0~standin
Architecture: arm64
Maintainer: Shfl maintainers <maintainers@example.invalid>
Depends: libc6 (>= 2.34), libmpg123-0 (>= 1.13.7), libasound2 (>= 1.0.16), libgpiod2 (>= 1.5), libudev1 (>= 183), libinih1 (>= 53), systemd
Description: screenless shuffle MP3 player (stand-in package for the SD-card image)
CONTROL
cat >"$root/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
if [ "$1" = configure ]; then
	systemd-sysusers shfl.conf
	if [ -z "$2" ] && [ -d /boot/firmware ] && [ ! -e /boot/firmware/shfl.ini ]; then
		cp /usr/share/shfl/shfl.ini /boot/firmware/shfl.ini
	fi
	deb-systemd-helper unmask shfl.service >/dev/null || true
	if deb-systemd-helper --quiet was-enabled shfl.service; then
		deb-systemd-helper enable shfl.service >/dev/null || true
	fi
fi
POSTINST
chmod 0755 "$root/DEBIAN/postinst"
mkdir -p "$out"
dpkg-deb --root-owner-group -Zxz -b "$root" "$out/shfl_0.1.0~standin_arm64.deb" >/dev/null
echo "$out/shfl_0.1.0~standin_arm64.deb"
