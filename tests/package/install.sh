#!/usr/bin/env bash
# The package test: makes a clean Debian 12 root (debootstrap), installs the Debian package
# there with apt as a user would, starts the installed app under Xvfb with the ready probe
# (as root and as a fresh user, through the desktop entry's own command), checks the CLI is on
# the PATH, then removes the package and checks the user's database is still there.
#   bash tests/package/install.sh target/debian/sheetkeeper_*.deb
# Needs root, debootstrap, and the Debian package archive (nothing else from the network).
set -euo pipefail
deb="$(realpath "$1")"
[[ -f "$deb" ]] || { echo "no package at $1" >&2; exit 1; }
[[ "$(id -u)" == 0 ]] || { echo "the package test needs root (debootstrap, chroot)" >&2; exit 1; }

root="$(mktemp -d)"
chmod 755 "$root" # mktemp makes it private: the root of a system must be open to its users
cleanup() {
  # The mounts live in the test's own mount namespace and end with it; never delete a tree
  # that still has something mounted under it.
  if findmnt -rno TARGET | grep -q "^$root"; then
    echo "still mounted under $root; left in place" >&2
  else
    rm -rf "$root"
  fi
}
trap cleanup EXIT

# The same archive the host's apt uses (debootstrap's default when none is configured).
mirror="$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)"
[[ -n "$mirror" ]] || mirror="$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)"
echo "package test: making a clean Debian 12 root"
debootstrap --variant=minbase bookworm "$root" ${mirror:+"$mirror"} >"$root.debootstrap.log" 2>&1 || {
  tail -20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
  cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
  rm -f "$root/etc/apt/sources.list"
fi
cp "$deb" "$root/root/"
name="$(basename "$deb")"

unshare --mount --fork bash -euo pipefail -s "$root" "$name" <<'INSIDE'
root="$1"; name="$2"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --rbind /dev "$root/dev"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
  HOME=/root DEBIAN_FRONTEND=noninteractive "$@"; }

echo "package test: apt install ./$name"
in_root apt-get update -q >/dev/null
in_root apt-get install -y -q --no-install-recommends "/root/$name" >/dev/null
# Only the test's own tools: a display and a session bus to start the window in.
in_root apt-get install -y -q --no-install-recommends xvfb xauth dbus >/dev/null

echo "package test: the CLI is on the PATH"
in_root sh -c 'command -v sheetkeeper && sheetkeeper --version'

echo "package test: the desktop entry"
entry="$root/usr/share/applications/sheetkeeper.desktop"
[[ -f "$entry" ]] || { echo "no desktop entry" >&2; exit 1; }
# The entry hands a sheetkeeper:// link (a host's QR code) to the app as its argument (%u).
grep -qx 'MimeType=x-scheme-handler/sheetkeeper;' "$entry" || { echo "the entry does not open sheetkeeper:// links" >&2; exit 1; }
exec_line="$(sed -n 's/^Exec=//p' "$entry" | sed 's/ %[uUfF]$//')"
icon="$(sed -n 's/^Icon=//p' "$entry")"
[[ -f "$root/usr/share/icons/hicolor/128x128/apps/$icon.png" ]] || { echo "no icon $icon" >&2; exit 1; }

echo "package test: a player starts the app from the menu"
in_root useradd -m player
out="$(in_root su - player -c "SHEETKEEPER_EXIT_AFTER_READY=1 dbus-run-session -- xvfb-run -a $exec_line" 2>&1)" || {
  echo "$out" >&2; exit 1; }
grep -q '^ready_ms=' <<<"$out" || { echo "the app did not report ready:" >&2; echo "$out" >&2; exit 1; }
echo "first start (it makes the database): $(grep '^ready_ms=' <<<"$out")"
# A second start, as every later one: the first also pays for making the database and for the
# system's first font and library reads.
out="$(in_root su - player -c "SHEETKEEPER_EXIT_AFTER_READY=1 dbus-run-session -- xvfb-run -a $exec_line" 2>&1)" || {
  echo "$out" >&2; exit 1; }
echo "second start: $(grep '^ready_ms=' <<<"$out")"
db="$root/home/player/.local/share/app.sheetkeeper/sheetkeeper.db"
[[ -s "$db" ]] || { echo "the app made no database at ~/.local/share/app.sheetkeeper" >&2; exit 1; }
in_root su - player -c 'sheetkeeper list' >/dev/null

echo "package test: removing the package keeps the player's data"
in_root apt-get purge -y -q sheetkeeper >/dev/null
[[ ! -e "$root/usr/bin/sheetkeeper-app" && ! -e "$root/usr/bin/sheetkeeper" ]] || {
  echo "the binaries are still there after purge" >&2; exit 1; }
[[ -s "$db" ]] || { echo "the player's database went with the package" >&2; exit 1; }
echo "package test: passed"
INSIDE
