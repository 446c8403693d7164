#!/usr/bin/env bash
# What CI runs. Stage 1 builds everything and runs the whole test suite (CTest; widget tests offscreen).
# Stage 2 builds a gateway-only tree with ASan+UBSan (build-asan/, no UI) and runs its suites there:
# parsers, config, simulated node, gateway, health, faults, hostile clients, fuzz-corpus replays, bench.
# SWITCHYARD_SKIP_SANITIZERS=1 skips stage 2 (local quick runs).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh --test
bash scripts/build.sh
(cd build && QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 300 -j1)
if [[ "${SWITCHYARD_SKIP_SANITIZERS:-0}" != 1 ]]; then
    start=$(date +%s)
    bash scripts/test-sanitizers.sh asan
    echo "ASan+UBSan stage: $(($(date +%s) - start)) s"
fi
