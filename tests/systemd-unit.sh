#!/usr/bin/env bash
# Checks board/shfl.service, run by `make test`: `systemd-analyze verify` must find nothing to
# say, and `systemd-analyze security --offline=yes` must rate its exposure 2.5 or lower (the
# issue's target; printed, with what is left exposed). Needs no running systemd and installs
# nothing: the unit is checked as a copy whose ExecStart points at the built binary (verify
# insists that the program exists), in a temporary folder.
# Usage: tests/systemd-unit.sh [SHFL_BINARY]   (default: the host build's shfl)
set -euo pipefail
cd "$(dirname "$0")/.."

unit=board/shfl.service
binary="${1:-$(swift build --show-bin-path)/shfl}"
[ -x "$binary" ] || { echo "FAIL $unit: no shfl binary at $binary (build it first)"; exit 1; }
command -v systemd-analyze >/dev/null || { echo "FAIL $unit: systemd-analyze is missing (scripts/install-deps.sh host)"; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
sed "s|^ExecStart=/usr/bin/shfl |ExecStart=$(realpath "$binary") |" "$unit" >"$work/shfl.service"
grep -qE "^ExecStart=$(realpath "$binary") run( |$)" "$work/shfl.service" || { echo "FAIL $unit: no 'ExecStart=/usr/bin/shfl run' line"; exit 1; }

failed=0
if systemd-analyze verify --man=no "$work/shfl.service" >"$work/verify.txt" 2>&1 && [ ! -s "$work/verify.txt" ]; then
  echo "ok   $unit passes systemd-analyze verify"
else
  echo "FAIL $unit: systemd-analyze verify says:"; sed 's/^/     /' "$work/verify.txt"; failed=1
fi

# --threshold counts in tenths: 25 is an exposure of 2.5.
status=0
systemd-analyze security --offline=yes --threshold=25 --no-pager "$work/shfl.service" >"$work/security.txt" 2>&1 || status=$?
score_line="$(grep -F 'Overall exposure level' "$work/security.txt" || true)"
if [ "$status" -eq 0 ] && [ -n "$score_line" ]; then
  echo "ok   $unit exposure is at most 2.5 (systemd-analyze security --offline=yes):"
else
  echo "FAIL $unit exposure is above 2.5, or systemd-analyze security failed:"; failed=1
fi
grep -E '^✗' "$work/security.txt" | sed -E 's/^✗ +/     exposed: /; s/ {2,}/  /g' || true
echo "     ${score_line:-$(cat "$work/security.txt")}"
# The control socket's group (Group=) is the one board/shfl.sysusers creates.
group="$(sed -n 's/^Group=//p' "$unit")"
mkdir -p "$work/root/etc"
if [ -n "$group" ] && systemd-sysusers --root="$work/root" "$PWD/board/shfl.sysusers" >/dev/null 2>&1 && grep -q "^$group:" "$work/root/etc/group"; then
  echo "ok   $unit runs with Group=$group, which board/shfl.sysusers creates"
else
  echo "FAIL $unit: Group=${group:-(none)} is not a group board/shfl.sysusers creates"; failed=1
fi

# The power-off hold: shfl exits with status 100 and ExecStopPost= powers the system off; any
# other exit leaves it on. The unit's own command line is run (systemd's "$$" is a "$") with a
# stand-in systemctl on PATH that records what it was asked.
stop_post="$(sed -n 's/^ExecStopPost=+//p' "$unit" | sed 's/\$\$/$/g')"
mkdir -p "$work/bin"
printf '#!/bin/sh\necho "$*" >>"%s/systemctl.calls"\n' "$work" >"$work/bin/systemctl"; chmod +x "$work/bin/systemctl"
for status in 0 1 15 100; do
  (eval "set -- $stop_post"; EXIT_STATUS=$status PATH="$work/bin:$PATH" "$@")
done
if [ -n "$stop_post" ] && [ "$(cat "$work/systemctl.calls" 2>/dev/null)" = "--no-block poweroff" ] && grep -qx 'SuccessExitStatus=100' "$unit"; then
  echo "ok   $unit powers off after exit status 100 (the power-off hold) and only then"
else
  echo "FAIL $unit: ExecStopPost= should run 'systemctl --no-block poweroff' for EXIT_STATUS=100 only (it ran: $(cat "$work/systemctl.calls" 2>/dev/null || echo nothing))"; failed=1
fi
exit "$failed"
