#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks to build and test Switchyard. Idempotent and quick
# when everything is already there.
set -euo pipefail

packages=(
  cmake ninja-build g++ pkg-config
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev libxkbcommon-dev
  qt6-tools-dev qt6-l10n-tools          # lupdate/lrelease: the zh_CN translation is compiled and embedded
  nlohmann-json3-dev
  libqt6sql6-sqlite                     # the gateway keeps its request history and virtual keys in SQLite (Qt SQL)
  libsqlite3-dev                        # …and writes each request's row through SQLite's own API
  libhiredis-dev                        # gateway replicas share the virtual keys' limits through Redis
  liburing-dev                          # the gateway's workers do their socket reads and writes through io_uring
  qtkeychain-qt6-dev                    # the panel keeps admin keys of remote gateways in the desktop's secret store
  openssl                               # the tests make self-signed certificates for the TLS listener
  xvfb xauth
)
# For the tests only: promtool lints the gateway's /metrics (tst_health). `install-deps.sh --test`.
if [[ "${1:-}" == "--test" ]]; then
  packages+=(prometheus redis-server)  # redis-server: tst_sharedlimits starts its own on loopback
fi
# Not needed to build or test: fonts-noto-cjk (Chinese glyphs in the panel) and qt6-translations-l10n
# (Qt's own zh_CN strings) are Recommends of the .deb; scripts/package.sh installs its own tools.

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# For the tests only: the official OpenAI and Anthropic SDKs the SDK checks drive the gateway with
# (tests/e2e/sdk/), installed exactly as the committed package-lock.json says. Needs Node.js 20 or
# later (Debian 12's own nodejs is 18: take Node from nodejs.org or NodeSource).
if [[ "${1:-}" == "--test" ]]; then
  if command -v npm >/dev/null && (( $(node -p 'process.versions.node.split(".")[0]') >= 20 )); then
    (cd "$(dirname "$0")/../tests/e2e/sdk" && npm ci --no-audit --no-fund --loglevel=error)
  else
    echo "note: Node.js 20 or later with npm is missing; the SDK checks (tst_sdkchecks) will fail until it is installed" >&2
  fi
fi
