#!/usr/bin/env bash
# Builds the libFuzzer targets (build-fuzz/, clang++, ASan+UBSan) and runs each for a bounded time.
#   scripts/fuzz.sh [seconds-per-fuzzer] [fuzzer-name...]      default: 60 s each, all fuzzers
# The seed corpus is tests/fuzz/corpus/<name>/ (read only); what a run discovers goes to
# build-fuzz/corpus/<name>/ so repeated runs build on it. A crash leaves crash-*/leak-*/timeout-* in
# build-fuzz/findings/<name>/ and makes the script exit non-zero. Logs: build-fuzz/logs/<name>.log.
# FUZZ_JOBS=2 runs two fuzzers at a time (default 1: the machine is shared).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
all=(requestparser chunkeddecoder responseparser prometheustext config requestbody streamusage multipartform)
[[ $# -gt 0 ]] && fuzzers=("$@") || fuzzers=("${all[@]}")
jobs="${FUZZ_JOBS:-1}"

cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    -DSWITCHYARD_FUZZ=ON >/dev/null
targets=()
for f in "${fuzzers[@]}"; do targets+=("fuzz_$f"); done
cmake --build build-fuzz -j"${BUILD_JOBS:-2}" --target "${targets[@]}"

run_one() {
    local f="$1"
    mkdir -p "build-fuzz/corpus/$f" "build-fuzz/findings/$f" build-fuzz/logs
    # -rss_limit_mb bounds memory; -max_len keeps inputs near real message sizes (heads up to the limits
    # the targets use); -timeout flags a hang (one input taking > 10 s) as a finding.
    local rc=0
    "build-fuzz/tests/fuzz/fuzz_$f" "build-fuzz/corpus/$f" "tests/fuzz/corpus/$f" \
        -max_total_time="$seconds" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="build-fuzz/findings/$f/" -print_final_stats=1 \
        >"build-fuzz/logs/$f.log" 2>&1 || rc=$?
    local execs cov
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "build-fuzz/logs/$f.log" | grep -o '[0-9]*$' || echo '?')
    cov=$(grep -o 'cov: [0-9]*' "build-fuzz/logs/$f.log" | tail -1 | grep -o '[0-9]*' || echo '?')
    printf '%-16s rc=%d execs=%s cov=%s corpus=%s findings=%s\n' "$f" "$rc" "$execs" "$cov" \
        "$(ls "build-fuzz/corpus/$f" | wc -l)" "$(ls "build-fuzz/findings/$f" | wc -l)"
    return $rc
}

status=0
pids=()
for f in "${fuzzers[@]}"; do
    run_one "$f" &
    pids+=($!)
    if ((${#pids[@]} >= jobs)); then
        wait "${pids[0]}" || status=1
        pids=("${pids[@]:1}")
    fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
