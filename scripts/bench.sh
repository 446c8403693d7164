#!/usr/bin/env bash
# The whole performance suite in one command (docs/PERFORMANCE.md): microbenchmarks of the hot paths,
# then on loopback — throughput and added latency vs direct and HAProxy, streaming delay and memory per
# open stream, the panel's GUI event-loop lag at full load, and what virtual keys, the history and shared
# limits cost. Prints the tables and each target.
#
# Usage: scripts/bench.sh [build-dir]      (builds what it needs into build-dir, default ./build)
# Environment: QUICK=1 for a short run (fewer, shorter rounds); ROUNDS, SECONDS_PER_RUN and the other
# knobs of bench/perf/*.sh pass through.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
need=()
for p in nginx haproxy wrk Xvfb valgrind strace redis-server; do command -v "$p" >/dev/null || need+=("$p"); done
[ -f /usr/include/benchmark/benchmark.h ] || need+=(libbenchmark-dev)
if ((${#need[@]})); then
  pkgs=()
  for p in "${need[@]}"; do [ "$p" = Xvfb ] && pkgs+=(xvfb) || pkgs+=("$p"); done
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake -S "$root" -B "$build" -DSWITCHYARD_BUILD_MICROBENCH=ON >/dev/null
cmake --build "$build" -j"$(nproc)" --target switchyard switchyard_microbench >/dev/null
if [ -n "${QUICK:-}" ]; then
  export ROUNDS="${ROUNDS:-3}" SECONDS_PER_RUN="${SECONDS_PER_RUN:-2}" LOAD_SECONDS="${LOAD_SECONDS:-6}"
fi
echo "# Switchyard performance suite — $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "## Microbenchmarks (ns per operation)"
"$build/bench/micro/switchyard_microbench" --benchmark_min_time=0.2 2>/dev/null |
  awk '/^BM_/ {printf "  %-36s %10s ns CPU\n", $1, $4}'
echo
echo "## Non-streaming throughput and latency"
bash "$root/bench/perf/bench-gateway.sh" "$build"
echo
echo "## Non-streaming, per core (the gateways on one pinned core, upstream and load on the other)"
PINNED=1 bash "$root/bench/perf/bench-gateway.sh" "$build"
echo
echo "## Cost per request (instructions and system calls; independent of the machine's load)"
COUNT="${COUNT:-1000}" bash "$root/bench/perf/cost-per-request.sh" "$build/app/switchyard"
echo
echo "## Streaming"
bash "$root/bench/perf/bench-streaming.sh" "$build"
echo
echo "## GUI responsiveness"
bash "$root/bench/perf/bench-guilag.sh" "$build"
echo
echo "## Virtual keys, lasting history and limits shared through Redis"
bash "$root/bench/perf/bench-keys-history.sh" "$build"
