#!/usr/bin/env bash
# The Debian packages, installed as a Pi owner installs them (`make test-deb`, part of `make test`):
# for arm64 (under qemu-user, through binfmt_misc) and amd64 (natively), in a Debian 12 root made
# by mmdebstrap from Debian's archive alone, `apt-get install ./shfl_*.deb` must resolve every
# dependency from Debian; then the installed files are used as a user would (shfl version, the
# group, the enabled unit, board-check with the installed pin map, shfl config reading
# /boot/firmware/shfl.ini, the daemon starting without a boot partition), an upgrade must keep
# an edited shfl.ini, remove must keep the state and purge must leave nothing of Shfl behind.
# lintian reviews both packages (no error allowed; its output is printed) and the man pages
# must render without warnings and name every command and every configuration key.
#
# Caches (a second run downloads nothing): .build-deb/roots/bookworm-ARCH-KEY.tar, the root as
# mmdebstrap made it (with its apt lists), KEY a hash of everything that shapes it; and
# .build-deb/apt-archives/ARCH, apt's package cache, shared by every run's root. Delete them to
# follow Debian's updates. Each run unpacks a fresh root from the tarball under .build-deb/.
#
# There is no systemd running in the roots: deb-systemd-helper records the enablement (the
# multi-user.target.wants link, checked), while starting and stopping the unit (deb-systemd-invoke)
# is skipped by the maintainer scripts, as on any system without a running systemd (an image
# being built, a container). The unit itself is checked by tests/systemd-unit.sh.
#
# Usage: tests/deb.sh [DEB_DIR (default out/deb)] [ARCH...]   (default: arm64 amd64)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = --in-root ]; then in_root=1; shift; else in_root=0; fi
debs="${1:-out/deb}"
shift || true
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(arm64 amd64)

cache=.build-deb
suite=bookworm
mirror=http://deb.debian.org/debian
security=http://deb.debian.org/debian-security
# A Debian 12 system as a Pi owner has one: apt, and systemd as init. Everything shfl needs
# beyond that must come from apt resolving the package's Depends:.
root_packages=systemd
bootstrap=(mmdebstrap --variant=apt --include="$root_packages" --skip=cleanup/apt/lists
  --aptopt='Acquire::Languages "none"' --dpkgopt='path-exclude=/usr/share/locale/*')
sources=("deb $mirror $suite main" "deb $mirror $suite-updates main" "deb $security $suite-security main")

failures=0
ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION COMMAND...: ok when COMMAND succeeds
  local description="$1"; shift
  if "$@"; then ok "$description"; else fail "$description"; fi
}

# ---------------------------------------------------------------------------------------------
# Inside one root, in a private mount namespace (tests/deb.sh --in-root DEB_DIR ARCH ROOT): the
# mounts die with the process, whatever happens.
in_root() {
  local arch="$1" root="$2"
  local deb version
  deb="$(ls "$debs"/shfl_*_"$arch".deb)"
  version="$(dpkg-deb -f "$deb" Version)"
  mount -t proc proc "$root/proc"
  mkdir -p "$cache/apt-archives/$arch/partial"
  mount --bind "$cache/apt-archives/$arch" "$root/var/cache/apt/archives"
  inroot() { chroot "$root" "$@"; }
  export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8
  unset SHFL_BOARD_DIR

  # A Pi's boot partition (an empty folder here; FAT on a Pi).
  mkdir -p "$root/boot/firmware"
  cp "$deb" "$root/tmp/"
  local log="$cache/$arch-install.log"
  if inroot apt-get install -y --no-install-recommends "./tmp/$(basename "$deb")" >"$log" 2>&1; then
    ok "$arch: apt-get install ./$(basename "$deb") ($(grep -E '^(Need to get|After this operation)' "$log" | tr '\n' ' '))"
  else
    fail "$arch: apt-get install ./$(basename "$deb"):"; sed 's/^/     /' "$log"; return
  fi
  # Every library dependency came from Debian's archive (the root's only source) through apt.
  local depends missing=""
  depends="$(dpkg-deb -f "$deb" Depends)"
  for lib in libc6 libmpg123-0 libasound2 libgpiod2 libudev1 libinih1; do
    grep -qE "(^|, )$lib( |,|$)" <<<"$depends" || missing+=" $lib (not in Depends)"
    [ "$(inroot dpkg-query -W -f '${Status}' "$lib" 2>/dev/null)" = "install ok installed" ] || missing+=" $lib (not installed)"
  done
  check "$arch: Depends: $depends; each library installed from Debian${missing:+ — missing:$missing}" test -z "$missing"

  local out
  out="$(inroot shfl version 2>&1)" || true
  check "$arch: shfl version runs: $(head -1 <<<"$out")" grep -qx "shfl ${version%%+*} (firmware)" <<<"$out"
  check "$arch: the group exists: $(inroot getent group shfl || echo none)" bash -c "chroot '$root' getent group shfl >/dev/null"
  # Enabled: systemd's link, what systemctl says (it works without a running systemd), and
  # deb-systemd-helper's record (its is-enabled only answers maintainer scripts).
  local wants="$root/etc/systemd/system/multi-user.target.wants/shfl.service"
  local recorded="$root/var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/shfl.service"
  check "$arch: the unit is enabled: $(readlink "$wants" || echo 'no link'), systemctl is-enabled says $(inroot systemctl is-enabled shfl.service 2>&1 || true), deb-systemd-helper recorded it" \
    bash -c "[ \"\$(readlink '$wants')\" = /lib/systemd/system/shfl.service ] && chroot '$root' systemctl is-enabled --quiet shfl.service && [ -e '$recorded' ]"
  check "$arch: the unit's ExecStart= is the installed binary" grep -qx 'ExecStart=/usr/bin/shfl run --udev-source kernel' "$root/lib/systemd/system/shfl.service"
  check "$arch: sd_mod is loaded at boot (/usr/lib/modules-load.d/shfl.conf): the unit's DeviceAllow=block-sd needs the sd major" \
    grep -qx sd_mod "$root/usr/lib/modules-load.d/shfl.conf"

  # board-check with the installed pin map: the whole check on simulated buttons (no GPIO here).
  out="$(printf 'wait 2300\npress play\nwait 100\nrelease play\nwait 100\npress skip\nwait 100\nrelease skip\n' |
    inroot shfl board-check --board pi-4 --buttons play,skip --timeout 3 --simulated 2>&1)" || true
  check "$arch: shfl board-check --board pi-4 finds /usr/share/shfl/board/pi-4.ini: $(head -1 <<<"$out" | cut -c1-70)..." \
    bash -c 'grep -q "^board pi-4 (Raspberry Pi 4 / 400), chip pinctrl-bcm2711: PLAY on GPIO17" <<<"$1" && grep -q "^board-check: every button works" <<<"$1"' _ "$out"

  # The configuration on the boot partition: the sample, copied by postinst, read by shfl config.
  check "$arch: postinst copied the sample to /boot/firmware/shfl.ini" cmp -s "$root/usr/share/shfl/shfl.ini" "$root/boot/firmware/shfl.ini"
  sed -i 's/^initial = 50$/initial = 30/' "$root/boot/firmware/shfl.ini"
  out="$(inroot shfl config 2>&1)" || true
  check "$arch: shfl config reads /boot/firmware/shfl.ini (the edited key: $(grep '^initial' <<<"$out" || echo none))" \
    bash -c 'grep -qx "# shfl config: the configuration read from /boot/firmware/shfl.ini" <<<"$1" && grep -qE "^initial = 30 ; line [0-9]+$" <<<"$1"' _ "$out"
  local edited
  edited="$(sha256sum <"$root/boot/firmware/shfl.ini")"
  mkdir -p "$root/var/lib/shfl" && echo state >"$root/var/lib/shfl/test-stick.state"

  # Upgrade to a rebuilt package (same files, a higher version): the edited file stays.
  local work; work="$(mktemp -d -p "$cache")"
  dpkg-deb -R "$deb" "$work/pkg"
  sed -i "s/^Version: .*/Version: $version+rebuild1/" "$work/pkg/DEBIAN/control"
  dpkg-deb --root-owner-group -Zxz -b "$work/pkg" "$root/tmp/shfl_${version}+rebuild1_$arch.deb" >/dev/null
  rm -rf "$work"
  if inroot apt-get install -y "./tmp/shfl_${version}+rebuild1_$arch.deb" >"$log" 2>&1; then
    check "$arch: upgraded to $version+rebuild1" grep -qx "$version+rebuild1" <<<"$(inroot dpkg-query -W -f '${Version}' shfl)"
  else
    fail "$arch: upgrade to $version+rebuild1:"; sed 's/^/     /' "$log"
  fi
  check "$arch: the upgrade kept the edited /boot/firmware/shfl.ini" test "$(sha256sum <"$root/boot/firmware/shfl.ini")" = "$edited"
  check "$arch: the upgrade kept the unit enabled" test -L "$wants"

  # Without a boot partition (a PC, a container): the daemon starts on its defaults and says
  # where it looked. It runs until its control socket answers (it has no GPIO, no sound card).
  rm -rf "$root/boot/firmware"
  mkdir -p "$root/run/shfl-test"
  inroot shfl run --control /run/shfl-test/control >"$root/run/shfl-test/log" 2>&1 &
  local daemon=$!
  local status="" tries=0
  while [ $tries -lt 300 ] && kill -0 "$daemon" 2>/dev/null; do # up to 30 s: qemu is slow
    if status="$(inroot shfl status --socket /run/shfl-test/control 2>/dev/null)"; then break; fi
    tries=$((tries + 1)); sleep 0.1
  done
  kill "$daemon" 2>/dev/null || true; wait "$daemon" 2>/dev/null || true
  check "$arch: shfl run without /boot/firmware starts on its defaults and says: $(grep -m1 'shfl.ini' "$root/run/shfl-test/log" || echo nothing)" \
    bash -c 'grep -qx "<5>config: /boot/firmware/shfl.ini: no such file; every key has its default" "$1" && [ -n "$2" ]' _ "$root/run/shfl-test/log" "$status"
  [ -n "$status" ] || sed 's/^/     /' "$root/run/shfl-test/log"
  # Its runtime folder (/run/shfl: the LED trace, mount points) goes as systemd's
  # RuntimeDirectory= would remove it when the unit stops; /run is a tmpfs on a real system.
  rm -rf "$root/run/shfl-test" "$root/run/shfl"
  mkdir -p "$root/boot/firmware" && echo "[volume]" >"$root/boot/firmware/shfl.ini"

  # Remove keeps the state; purge removes it and everything else of Shfl.
  inroot apt-get remove -y shfl >"$log" 2>&1 || { fail "$arch: apt-get remove shfl"; sed 's/^/     /' "$log"; }
  check "$arch: apt-get remove keeps the state (/var/lib/shfl) and removes /usr/bin/shfl" \
    bash -c "[ -f '$root/var/lib/shfl/test-stick.state' ] && [ ! -e '$root/usr/bin/shfl' ]"
  inroot apt-get purge -y shfl >"$log" 2>&1 || { fail "$arch: apt-get purge shfl"; sed 's/^/     /' "$log"; }
  local left=""
  for path in /usr/bin/shfl /lib/systemd/system/shfl.service /usr/lib/sysusers.d/shfl.conf /usr/lib/modules-load.d/shfl.conf /usr/share/shfl \
    /usr/share/doc/shfl /usr/share/man/man1/shfl.1.gz /usr/share/man/man5/shfl.ini.5.gz /var/lib/shfl \
    /etc/systemd/system/shfl.service /etc/systemd/system/multi-user.target.wants/shfl.service \
    /var/lib/systemd/deb-systemd-helper-enabled/shfl.service.dsh-also \
    /var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/shfl.service \
    /var/lib/systemd/deb-systemd-helper-masked/shfl.service; do
    [ -e "$root$path" ] || [ -L "$root$path" ] && left+=" $path"
  done
  inroot dpkg-query -W shfl >/dev/null 2>&1 && left+=" (dpkg still knows shfl: $(inroot dpkg-query -W -f '${Status}' shfl))"
  inroot getent group shfl >/dev/null && left+=" (group shfl)"
  # Anything else named after Shfl, anywhere in the root, but the user's /boot/firmware/shfl.ini
  # (kept on purpose: the user's file) and the packages copied to /tmp by this test.
  local found
  found="$(cd "$root" && find . -xdev \( -path ./tmp -o -path ./proc -o -path ./var/cache/apt/archives \) -prune -o -iname '*shfl*' -print |
    grep -vx './boot/firmware/shfl.ini' || true)"
  [ -z "$found" ] || left+=" $(tr '\n' ' ' <<<"$found")"
  check "$arch: apt-get purge leaves nothing of Shfl behind (checked: the package's files, /var/lib/shfl, the unit's enablement and mask links, deb-systemd-helper's state, the dpkg record, the group, any '*shfl*' path in the root; kept: the user's /boot/firmware/shfl.ini)${left:+ — left:$left}" \
    test -z "$left"
  check "$arch: purge left the user's /boot/firmware/shfl.ini alone" test -f "$root/boot/firmware/shfl.ini"

  # A PC (amd64 only, it is quick): no boot partition, and postinst makes none.
  if [ "$arch" = amd64 ]; then
    rm -rf "$root/boot/firmware"
    if inroot apt-get install -y "./tmp/$(basename "$deb")" >"$log" 2>&1; then
      check "$arch: installed without /boot/firmware, postinst made none" test ! -e "$root/boot/firmware"
    else
      fail "$arch: apt-get install without /boot/firmware:"; sed 's/^/     /' "$log"
    fi
    inroot apt-get purge -y shfl >"$log" 2>&1 || { fail "$arch: apt-get purge shfl (again)"; sed 's/^/     /' "$log"; }
  fi
  exit "$failures"
}

# The root's tarball for ARCH in $tarball, bootstrapped when it is not in the cache.
root_tarball() {
  local arch="$1" key
  key="$(printf '%s\n' "$suite" "$arch" "${bootstrap[@]}" "${sources[@]}" | sha256sum | cut -c1-16)"
  tarball="$cache/roots/$suite-$arch-$key.tar"
  mkdir -p "$cache/roots"
  if [ -f "$tarball" ]; then
    echo "     $arch: Debian 12 root from the cache, $tarball (nothing downloaded)"
  else
    echo "     $arch: bootstrapping a Debian 12 root with mmdebstrap (downloads; cached as $tarball)"
    # mmdebstrap picks its output format by the name's extension: keep ".tar".
    local partial="$cache/roots/partial-$(basename "$tarball")"
    rm -rf "$partial"
    "${bootstrap[@]}" --architectures="$arch" "$suite" "$partial" "${sources[@]}" >"$cache/$arch-mmdebstrap.log" 2>&1 ||
      { echo "FAIL $arch: mmdebstrap (see $cache/$arch-mmdebstrap.log):"; tail -20 "$cache/$arch-mmdebstrap.log"; exit 1; }
    mv "$partial" "$tarball"
  fi
}

if [ "$in_root" = 1 ]; then
  in_root "${arches[0]}" "${arches[1]}"
fi
# tests/deb.sh --roots-only [ARCH...]: only fill the cache of roots.
if [ "$debs" = --roots-only ]; then
  for arch in "${arches[@]}"; do root_tarball "$arch"; done
  exit 0
fi

# ---------------------------------------------------------------------------------------------
for arch in "${arches[@]}"; do
  ls "$debs"/shfl_*_"$arch".deb >/dev/null 2>&1 || { echo "FAIL no $debs/shfl_*_$arch.deb (make deb)"; exit 1; }
done
for tool in mmdebstrap lintian dpkg-deb man; do
  command -v "$tool" >/dev/null || { echo "FAIL $tool is missing (scripts/install-deps.sh deb)"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "FAIL tests/deb.sh needs root (chroot, mount)"; exit 1; }
mkdir -p "$cache/roots"

# The man pages: no warning from man, every command of the usage and every key of the sample.
native="$(ls "$debs"/shfl_*_amd64.deb | head -1)"
if [ -n "$native" ]; then
  work="$(mktemp -d -p "$cache")"
  dpkg-deb -x "$native" "$work"
  for page in usr/share/man/man1/shfl.1.gz usr/share/man/man5/shfl.ini.5.gz; do
    warnings="$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$work/$page" 2>&1 >"$work/$(basename "$page").txt")"
    check "$(basename "$page" .gz) renders without warnings${warnings:+: $warnings}" test -z "$warnings"
  done
  missing=""
  # The commands: the words of the usage's left column that look like one (play-file, press, ...).
  for word in $("$work/usr/bin/shfl" help | tail -n +2 | sed -E 's/^  //; s/  .*//' | tr ' |,' '\n\n\n' | grep -xE '[a-z][a-z-]+'); do
    grep -qE -- "(^|[^a-z-])$word([^a-z-]|\$)" "$work/shfl.1.gz.txt" || missing+=" $word"
  done
  check "shfl(1) names every command of shfl help${missing:+ — missing:$missing}" test -z "$missing"
  missing=""
  section=""
  while read -r line; do
    case "$line" in
      "["*"]") section="$line"; grep -qF "$section" "$work/shfl.ini.5.gz.txt" || missing+=" $section" ;;
      *" = "*) grep -qE "^ +${line%% = *} = ${line#* = }\$" "$work/shfl.ini.5.gz.txt" || missing+=" $section ${line%% = *}" ;;
    esac
  done < <("$work/usr/bin/shfl" config --sample | grep -v '^#')
  check "shfl.ini(5) names every key of shfl config --sample with its default${missing:+ — missing:$missing}" test -z "$missing"
  rm -rf "$work"
fi

# lintian, the reviewer: no error; its output is printed (DEVELOPERS.md gives each warning's reason).
for arch in "${arches[@]}"; do
  deb="$(ls "$debs"/shfl_*_"$arch".deb)"
  # As nobody where it can read the package (lintian advises against root).
  as=(); runuser -u nobody -- test -r "$deb" 2>/dev/null && as=(runuser -u nobody --)
  lint="$("${as[@]}" lintian --no-cfg --display-info --tag-display-limit 0 "$deb" 2>&1)" || true
  sed 's/^/     lintian: /' <<<"$lint"
  check "lintian $(basename "$deb"): no error ($(grep -c '^E:' <<<"$lint" || true) errors, $(grep -c '^W:' <<<"$lint" || true) warnings, $(grep -c '^I:' <<<"$lint" || true) infos)" \
    bash -c '! grep -q "^E:" <<<"$1"' _ "$lint"
done

# arm64 binaries run through binfmt_misc (qemu-user-static, registered by binfmt-support).
if printf '%s\n' "${arches[@]}" | grep -qx arm64 && ! arch-test arm64 >/dev/null 2>&1; then
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  update-binfmts --enable qemu-aarch64 || true
  arch-test arm64 >/dev/null || { echo "FAIL this machine cannot run arm64 binaries (binfmt_misc, qemu-user-static)"; exit 1; }
  echo "     registered qemu-aarch64 with binfmt_misc"
fi

for arch in "${arches[@]}"; do
  started=$SECONDS
  root_tarball "$arch"
  root="$cache/root-$arch"
  rm -rf "$root" && mkdir -p "$root"
  tar -C "$root" -xf "$tarball"
  status=0
  unshare --mount --propagation private "$0" --in-root "$debs" "$arch" "$root" || status=$?
  failures=$((failures + status))
  rm -rf "$root"
  echo "     $arch: $((SECONDS - started)) s"
done

if [ "$failures" -ne 0 ]; then echo "tests/deb.sh: $failures failed"; exit 1; fi
echo "tests/deb.sh: all passed"
