#!/usr/bin/env bash
# Installs what Sheetkeeper needs on Debian/Ubuntu, skipping whatever is already there.
#   bash scripts/setup.sh           build and run the app
#   bash scripts/setup.sh --tests   also the real-window test tools (Xvfb, WebKitWebDriver, tauri-driver, poppler-utils for the PDFs, axe-core)
#   bash scripts/setup.sh --package also the Debian packaging tools (cargo-deb, dpkg-dev) and debootstrap for the package test
set -euo pipefail

# rollup bundles the page's modules when the app is built (src-tauri/page_bundle.rs).
packages=(build-essential pkg-config libwebkit2gtk-4.1-dev libgtk-3-dev librsvg2-dev libsoup-3.0-dev
  libayatana-appindicator3-dev rollup)
if [[ "${1:-}" == "--tests" ]]; then
  packages+=(xvfb xauth webkit2gtk-driver dbus-x11 xdotool poppler-utils)
fi
if [[ "${1:-}" == "--package" ]]; then
  packages+=(dpkg-dev debootstrap)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [[ "$(id -u)" == 0 ]] || sudo="sudo"
  echo "Installing: ${missing[*]}"
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
  [[ -x "$HOME/.cargo/bin/cargo" ]] || {
    echo "Installing the Rust toolchain (rustup)"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
  }
  export PATH="$HOME/.cargo/bin:$PATH"
fi

if [[ "${1:-}" == "--tests" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
  if ! tauri-driver --help >/dev/null 2>&1; then
    echo "Installing tauri-driver"
    cargo install --locked tauri-driver@2.1.0
  fi
fi

if [[ "${1:-}" == "--tests" ]]; then
  # axe-core, pinned by tests/window/axe/package-lock.json, for the window tests' accessibility check.
  if ! command -v npm >/dev/null 2>&1; then
    echo "Installing: npm"
    sudo=""
    [[ "$(id -u)" == 0 ]] || sudo="sudo"
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends npm
  fi
  axe="$(dirname "$0")/../tests/window/axe"
  if ! grep -qs '"version": "4.14.1"' "$axe/node_modules/axe-core/package.json"; then
    echo "Installing axe-core for the window tests"
    npm ci --prefix "$axe" --no-audit --no-fund --ignore-scripts
  fi
fi

if [[ "${1:-}" == "--package" ]]; then
  export PATH="$HOME/.cargo/bin:$PATH"
  if ! cargo deb --version >/dev/null 2>&1; then
    echo "Installing cargo-deb"
    cargo install --locked cargo-deb@3.8.0
  fi
fi
