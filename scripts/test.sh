#!/usr/bin/env bash
# Installs what is missing, then runs every test: unit, integration, CLI, crash, benches in
# test mode, and the real-window tests (the app in WebKitGTK under Xvfb, driven through
# tauri-driver). One build serves them all.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
export PATH="$HOME/.cargo/bin:$PATH"
# A session bus: without one WebKitGTK waits ~25 s for the desktop portal at start.
exec dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" \
  cargo test --locked --workspace --all-targets
