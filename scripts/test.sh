#!/usr/bin/env bash
# Installs what is missing, checks formatting and lints (rustfmt, clippy with warnings as
# errors), then runs every test: unit, integration, CLI, crash, benches in test mode, and the
# real-window tests (the app in WebKitGTK under Xvfb, driven through tauri-driver). One build
# serves them all. Last, the Debian package is built (release) and installed in a clean root.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
export PATH="$HOME/.cargo/bin:$PATH"
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
# A session bus: without one WebKitGTK waits ~25 s for the desktop portal at start.
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" \
  cargo test --locked --workspace --all-targets
bash scripts/package.sh --test
