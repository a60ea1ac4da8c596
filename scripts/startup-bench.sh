#!/usr/bin/env bash
# Start-up probe: builds the release app and starts it with a throwaway database holding the
# backup golden file's data (home shows its games and characters), printing each `ready_ms`
# (process start → home screen rendered with its data, reported by the page itself).
#   bash scripts/startup-bench.sh                      RUNS starts (default 9), their median
#   BARE=path/to/spike-app bash scripts/startup-bench.sh
#       the yardstick of DESIGN.md's budget: Sheetkeeper and the bare Tauri window (built from
#       the shared bench's bare-tauri, see its README) interleaved A B A B … in one Xvfb and one
#       session bus, and the median of the per-pair ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-9}"
bash scripts/setup.sh --tests
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --locked --release -p sheetkeeper-app -p sheetkeeper
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SHEETKEEPER_DB="$tmp/startup.db"
target/release/sheetkeeper import tests/fixtures/backup.sheetkeeper.json >/dev/null
export APP="$PWD/target/release/sheetkeeper-app" RUNS="$runs" BARE="${BARE:-}"
[[ -z "$BARE" ]] || BARE="$(realpath "$BARE")"

# One display and one bus for every run, so each start pays the same.
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" bash -euo pipefail <<'RUNS'
probe() { # prints ready_ms of one start of $1
  local line
  line="$(SHEETKEEPER_EXIT_AFTER_READY=1 "$1" 2>/dev/null | grep '^ready_ms=' || true)"
  [[ -n "$line" ]] || { echo "$1 did not report ready" >&2; exit 1; }
  echo "${line#ready_ms=}"
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
probe "$APP" >/dev/null # a first start warms the file cache; not counted
apps=() ratios=()
for i in $(seq "$RUNS"); do
  a="$(probe "$APP")"
  apps+=("$a")
  if [[ -n "$BARE" ]]; then
    b="$(probe "$BARE")"
    r="$(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a / b}')"
    ratios+=("$r")
    echo "pair $i: sheetkeeper ${a} ms, bare ${b} ms, ratio $r"
  else
    echo "run $i: ready_ms=$a"
  fi
done
echo "median ready_ms=$(printf '%s\n' "${apps[@]}" | median) over $RUNS runs"
[[ -z "$BARE" ]] || echo "median ratio=$(printf '%s\n' "${ratios[@]}" | median) over $RUNS pairs"
RUNS
