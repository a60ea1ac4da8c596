#!/usr/bin/env bash
# Installs what is missing, builds the app (release) and opens it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PATH"
exec cargo run --locked --release -p sheetkeeper-app
