#!/usr/bin/env bash
# Builds the Debian package of the app: the window (`sheetkeeper-app`), the CLI
# (`sheetkeeper`), a desktop entry and the icons, with its runtime dependencies read from the
# binaries. Prints the package's path (target/debian/sheetkeeper_<version>-1_<arch>.deb).
#   bash scripts/package.sh            build the package
#   bash scripts/package.sh --test     also install it in a clean Debian 12 root and start it
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --package
export PATH="$HOME/.cargo/bin:$PATH"
cargo build --locked --release -p sheetkeeper -p sheetkeeper-app
rm -f target/debian/sheetkeeper_*.deb
cargo deb --locked --no-build -p sheetkeeper-app --output target/debian/ >/dev/null
deb="$(ls target/debian/sheetkeeper_*.deb)"
echo "$deb"
if [[ "${1:-}" == "--test" ]]; then
  bash tests/package/install.sh "$deb"
fi
