#!/usr/bin/env bash
# Builds the Debian package of Shfl for one architecture from the stripped Embedded firmware:
#   out/deb/shfl_<version>_<arch>.deb   (arch: arm64 from out/firmware/aarch64, amd64 from x86_64)
# with Debian's own tools: dpkg-shlibdeps computes Depends: from the binary (against the arm64
# or amd64 libraries' symbols files in the dpkg database), dpkg-gencontrol writes the control
# file from debian/control and debian/changelog, dpkg-deb builds the archive. `make deb` runs it
# for both architectures after `make firmware`. DEVELOPERS.md, "The Debian package", says why
# this is dpkg-deb and not debhelper, and what lintian says.
# Usage: scripts/build-deb.sh arm64|amd64 [FIRMWARE_DIR (default out/firmware)] [OUT_DIR (default out/deb)]
set -euo pipefail
cd "$(dirname "$0")/.."

arch="${1:?usage: $0 arm64|amd64 [FIRMWARE_DIR] [OUT_DIR]}"
firmware="${2:-out/firmware}"
out="${3:-out/deb}"
case "$arch" in
  arm64) binary="$firmware/aarch64/shfl.stripped"; strip=aarch64-linux-gnu-strip; cc=aarch64-linux-gnu-gcc ;;
  amd64) binary="$firmware/x86_64/shfl.stripped"; strip=strip; cc=gcc ;;
  *) echo "$0: unknown architecture '$arch' (arm64 or amd64)" >&2; exit 2 ;;
esac
# The man pages come from the program's own tables; any build can print them, so the one
# that runs natively here does (they are the same text for both architectures).
native="$firmware/x86_64/shfl"
for file in "$binary" "$native"; do
  [ -x "$file" ] || { echo "$0: no $file (run make firmware first)" >&2; exit 1; }
done

version="$(dpkg-parsechangelog -l debian/changelog -SVersion)"
timestamp="$(dpkg-parsechangelog -l debian/changelog -STimestamp)"
date="$(date -u -d "@$timestamp" +%Y-%m-%d)"
# The package's version is the program's: `shfl version` must say the changelog's.
program_version="$("$native" version | sed -n '1s/^shfl \([^ ]*\) .*/\1/p')"
if [ "$program_version" != "${version%%-*}" ]; then
  echo "$0: debian/changelog says $version but shfl version says $program_version (ShflCommand.version)" >&2
  exit 1
fi

# A debhelper-like staging folder: debian/control and debian/changelog (the tools read them
# there), the package's root in debian/shfl.
stage=".build-deb/stage-$arch"
rm -rf "$stage"
mkdir -p "$stage/debian"
cp debian/control debian/changelog "$stage/debian/"
root="$stage/debian/shfl"

install -D -m 0755 "$binary" "$root/usr/bin/shfl"
# As dh_strip does: also drop the compilers' .comment and .note sections.
"$strip" --remove-section=.comment --remove-section=.note "$root/usr/bin/shfl"
# Bookworm's debhelper and lintian put units in /lib/systemd/system (the /usr-merge moratorium).
install -D -m 0644 board/shfl.service "$root/lib/systemd/system/shfl.service"
install -D -m 0644 board/shfl.sysusers "$root/usr/lib/sysusers.d/shfl.conf"
# The unit's DeviceAllow=block-sd needs the SCSI disk driver loaded before it starts.
install -D -m 0644 board/shfl.modules-load "$root/usr/lib/modules-load.d/shfl.conf"
for map in board/*.ini; do
  [ "$(basename "$map")" = shfl.ini ] && continue
  install -D -m 0644 "$map" "$root/usr/share/shfl/board/$(basename "$map")"
done
# The sample configuration: postinst copies it to /boot/firmware/shfl.ini (not a conffile).
install -D -m 0644 board/shfl.ini "$root/usr/share/shfl/shfl.ini"
install -D -m 0644 debian/copyright "$root/usr/share/doc/shfl/copyright"
install -D -m 0644 board/WIRING.md "$root/usr/share/doc/shfl/WIRING.md"
# A native package's changelog is changelog.gz.
gzip -9n <debian/changelog >"$stage/changelog.gz"
install -D -m 0644 "$stage/changelog.gz" "$root/usr/share/doc/shfl/changelog.gz"
mkdir -p "$root/usr/share/man/man1" "$root/usr/share/man/man5"
"$native" man shfl.1 --date "$date" | gzip -9n >"$root/usr/share/man/man1/shfl.1.gz"
"$native" man shfl.ini.5 --date "$date" | gzip -9n >"$root/usr/share/man/man5/shfl.ini.5.gz"
chmod 0644 "$root/usr/share/man/man1/shfl.1.gz" "$root/usr/share/man/man5/shfl.ini.5.gz"

install -d -m 0755 "$root/DEBIAN"
for script in postinst prerm postrm; do
  install -m 0755 "debian/shfl.$script" "$root/DEBIAN/$script"
done

# Depends: from the binary. dpkg-architecture -a sets DEB_HOST_ARCH and DEB_HOST_MULTIARCH,
# so dpkg-shlibdeps looks in /usr/lib/aarch64-linux-gnu (the :arm64 -dev packages of
# scripts/install-deps.sh firmware) and reads those packages' symbols files.
(
  cd "$stage"
  # (CC only keeps dpkg-architecture from warning that gcc is not an aarch64 compiler.)
  export CC="$cc"
  dpkg-architecture -a "$arch" -c dpkg-shlibdeps -Tdebian/shfl.substvars debian/shfl/usr/bin/shfl
  # Installed-Size and the file list are read from the tree; md5sums for dpkg --verify.
  (cd debian/shfl && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >debian/shfl/DEBIAN/md5sums
  chmod 0644 debian/shfl/DEBIAN/md5sums
  dpkg-architecture -a "$arch" -c dpkg-gencontrol -pshfl -Tdebian/shfl.substvars -Pdebian/shfl -Vmisc:Depends=
)
# Reproducible: every file dated by the changelog (dpkg-deb dates the archive members by
# SOURCE_DATE_EPOCH).
find "$root" -exec touch --no-dereference -d "@$timestamp" {} +
mkdir -p "$out"
deb="$out/shfl_${version}_$arch.deb"
SOURCE_DATE_EPOCH="$timestamp" dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "built $deb ($(stat -c %s "$deb") bytes): $(dpkg-deb -f "$deb" Depends)"
