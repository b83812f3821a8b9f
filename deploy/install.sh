#!/usr/bin/env bash
# Install (or update) the Godfather companion on a Raspberry Pi as a boot-time service.
#
#   sudo deploy/install.sh                    # from a checkout: install to /opt, start at boot
#   sudo deploy/install.sh --hostname godfather   # also rename the Pi: http://godfather.local:8000
#   sudo deploy/install.sh --update           # git pull in the checkout first, then the same
#   deploy/install.sh --dry-run --root DIR    # write the files under DIR, run nothing (tests)
#
# Safe to run again: it only changes what differs, and restarts the service at the end.
set -euo pipefail

SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/godfather-companion
SERVICE_USER=companion
PORT=8000
HOSTNAME_WANTED=""
UPDATE=0
DRY=0
ROOT=""

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) PREFIX=$2; shift 2 ;;
    --user) SERVICE_USER=$2; shift 2 ;;
    --port) PORT=$2; shift 2 ;;
    --hostname) HOSTNAME_WANTED=$2; shift 2 ;;
    --update) UPDATE=1; shift ;;
    --dry-run) DRY=1; shift ;;
    --root) ROOT=$2; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

run() {  # print, and run unless --dry-run
  echo "+ $*"
  if [ "$DRY" = 0 ]; then "$@"; fi
}

if [ "$DRY" = 0 ] && [ "$(id -u)" != 0 ]; then
  echo "install.sh: run it with sudo (it installs a system service)" >&2
  exit 1
fi

if [ "$UPDATE" = 1 ] && [ -d "$SRC/.git" ]; then
  run git -C "$SRC" pull --ff-only
fi

# 1. System packages: Python, Bluetooth, mDNS (.local names for phones), the camera stack.
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
  python3 python3-venv python3-dev git rsync avahi-daemon bluez
# The camera tools (rpicam-hello, to check the camera) exist on Raspberry Pi OS only.
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rpicam-apps-lite \
  || echo "note: rpicam-apps-lite not available here (not Raspberry Pi OS?); camera tools skipped"

# 2. The service user, in the groups for serial dice, the camera and Bluetooth.
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
  run useradd --system --home-dir /var/lib/godfather-companion --shell /usr/sbin/nologin \
    "$SERVICE_USER"
fi
for group in dialout video bluetooth; do
  if getent group "$group" >/dev/null; then
    run usermod -aG "$group" "$SERVICE_USER"
  fi
done

# 3. The code, copied out of the checkout (so a git pull cannot break a running service), and
#    its virtual environment, made by the same script ./start and ./test use.
run mkdir -p "$ROOT$PREFIX"
run rsync -a --delete --exclude .venv --exclude data --exclude .git --exclude firmware/build \
  "$SRC/" "$ROOT$PREFIX/"
run "$ROOT$PREFIX/scripts/bootstrap"

# 4. The systemd unit, with this installation's paths.
unit_dir="$ROOT/etc/systemd/system"
mkdir -p "$unit_dir"
sed -e "s|@PREFIX@|$PREFIX|g" -e "s|@USER@|$SERVICE_USER|g" -e "s|@PORT@|$PORT|g" \
  "$SRC/deploy/godfather-companion.service" > "$unit_dir/godfather-companion.service"
echo "wrote $unit_dir/godfather-companion.service"

# 5. A name phones can type: <hostname>.local, announced by avahi.
if [ -n "$HOSTNAME_WANTED" ]; then
  run hostnamectl set-hostname "$HOSTNAME_WANTED"
  run sed -i "s/^127\.0\.1\.1.*/127.0.1.1\t$HOSTNAME_WANTED/" /etc/hosts
fi
run systemctl enable --now avahi-daemon bluetooth

# 6. Start now and at every boot; restart so an update takes effect.
run systemctl daemon-reload
run systemctl enable godfather-companion.service
run systemctl restart godfather-companion.service

name=${HOSTNAME_WANTED:-$(hostname)}
echo
echo "Installed. Phones on the same network: http://$name.local:$PORT"
echo "Status: systemctl status godfather-companion   Logs: journalctl -u godfather-companion -f"
