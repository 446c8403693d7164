#!/usr/bin/env bash
# Builds everything and runs the whole test suite (CTest; widget tests run offscreen).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
bash scripts/build.sh
cd build
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 300 -j1
