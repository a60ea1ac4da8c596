#!/usr/bin/env bash
# Startup probe: builds the release app, starts it RUNS times (default 7) with a throwaway
# database holding one game with 20 characters, and prints each `ready_ms` (process start →
# home screen rendered with its data) and the median.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${RUNS:-7}"
bash scripts/setup.sh --tests
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --locked --release -p sheetkeeper-app -p sheetkeeper
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
export SHEETKEEPER_DB="$tmp/startup.db"
# Seed the database through the CLI: one game with 20 characters.
cat > "$tmp/seed.json" <<JSON
$(python3 - <<'PY'
import json, uuid
g = str(uuid.uuid4()); t = "2026-11-01T12:00:00.000Z"
chars = [{"id": str(uuid.uuid4()), "name": f"Character {i}", "created_at": t, "updated_at": t, "revision": 1} for i in range(20)]
print(json.dumps({"format": "sheetkeeper", "format_version": 1, "kind": "game", "system": "nsu", "app_version": "bench",
  "exported_at": t, "data": {"games": [{"id": g, "name": "Startup table", "system": "nsu", "created_at": t, "updated_at": t,
  "table_settings": {"negative_collateral_adds_tick": 1}, "characters": chars}]}}))
PY
)
JSON
target/release/sheetkeeper import "$tmp/seed.json" >/dev/null
results=()
for i in $(seq "$runs"); do
  line="$(SHEETKEEPER_EXIT_AFTER_READY=1 dbus-run-session -- xvfb-run -a target/release/sheetkeeper-app 2>/dev/null | grep '^ready_ms=' || true)"
  ms="${line#ready_ms=}"
  [[ -n "$ms" ]] || { echo "run $i: the app did not report ready" >&2; exit 1; }
  echo "run $i: ready_ms=$ms"
  results+=("$ms")
done
median="$(printf '%s\n' "${results[@]}" | sort -n | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}')"
echo "median ready_ms=$median over $runs runs"
