#!/usr/bin/env bash
# Builds the Debian package of the app: the window (`sheetkeeper-app`), the CLI
# (`sheetkeeper`), a desktop entry and the icons, with its runtime dependencies read from the
# binaries. Prints the package's path (target/debian/sheetkeeper_<version>-1_<arch>.deb).
#   bash scripts/package.sh                     build the package (the release build)
#   bash scripts/package.sh --test              also install it in a clean Debian 12 root and start it
#   bash scripts/package.sh --test --debug-build
#       the same test on a package of the debug build the tests have just made (what
#       scripts/test.sh does): what the package holds, how apt installs it and how it starts
#       do not depend on the build's profile, while a release build of the app takes about
#       24 minutes on a two-core machine. Never ship such a package.
set -euo pipefail
cd "$(dirname "$0")/.."
test=false
profile=release
for arg in "$@"; do
  case "$arg" in
    --test) test=true ;;
    --debug-build) profile=dev ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done
bash scripts/setup.sh --package
export PATH="$HOME/.cargo/bin:$PATH"
if [[ "$profile" == release ]]; then
  cargo build --locked --release -p sheetkeeper -p sheetkeeper-app
  from=()
else
  # The binaries must be there already (cargo test builds both); cargo-deb warns that a dev
  # profile is not for releases, which this is not.
  [[ -x target/debug/sheetkeeper-app && -x target/debug/sheetkeeper ]] || {
    echo "no debug build of sheetkeeper and sheetkeeper-app: run the tests (or cargo build) first" >&2; exit 1; }
  from=(--profile dev --strip)
fi
rm -f target/debian/sheetkeeper_*.deb
cargo deb --locked --no-build "${from[@]}" -p sheetkeeper-app --output target/debian/ >/dev/null
deb="$(ls target/debian/sheetkeeper_*.deb)"
echo "$deb"
if [[ "$test" == true ]]; then
  bash tests/package/install.sh "$deb"
fi
