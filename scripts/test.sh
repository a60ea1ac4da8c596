#!/usr/bin/env bash
# Installs what is missing, checks formatting and lints (rustfmt, clippy with warnings as
# errors), then runs every test: unit, integration, CLI, crash, benches in test mode, and the
# real-window tests (the app in WebKitGTK under Xvfb, driven through tauri-driver). One build
# serves them all. Last, that build is packaged for Debian and installed in a clean root (a
# release build would take longer than all the tests: `bash scripts/package.sh` makes one).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each phase says when it starts and how long the run has taken, so a slow one shows.
phase() { echo "== $(date -u +%H:%M:%S) (+${SECONDS}s) $*"; }
phase "setup"
bash scripts/setup.sh --tests
export PATH="$HOME/.cargo/bin:$PATH"
if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
  rustup component add rustfmt clippy
fi
phase "rustfmt, clippy"
cargo fmt --all --check
cargo clippy --locked --workspace --all-targets -- -D warnings
phase "tests"
# A session bus: without one WebKitGTK waits ~25 s for the desktop portal at start.
dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" \
  cargo test --locked --workspace --all-targets
phase "package"
bash scripts/package.sh --test --debug-build
phase "done"
