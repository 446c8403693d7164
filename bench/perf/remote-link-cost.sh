#!/usr/bin/env bash
# What one attached remote panel costs a headless gateway: the management traffic of one
# RemoteGatewayLink at its default poll rate (bytes/s each way, counted by a TCP relay between link and
# gateway; status polls/s) and the gateway's CPU (utime+stime from /proc/PID/stat) over SECONDS idle
# without the link and SECONDS with it. Real processes: two switchyard-simnode nodes and
# `switchyard --headless` with the default health checks (every 5 s). Results: docs/PERFORMANCE.md,
# "A remote panel's cost".
#
# Usage: bench/perf/remote-link-cost.sh [BUILD_DIR]      Environment: SECONDS_EACH (30)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
ninja -C "$build" tst_remotegatewaylink switchyard switchyard-simnode >/dev/null
SWITCHYARD_MEASURE_LINK_SECONDS="${SECONDS_EACH:-30}" QT_QPA_PLATFORM=offscreen \
  "$build/tests/tst_remotegatewaylink" measureTheCostOfOneLink 2>&1 | grep -E "link cost|PASS|FAIL|SKIP"
