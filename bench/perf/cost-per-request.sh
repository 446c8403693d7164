#!/usr/bin/env bash
# What one proxied request costs the gateway, in measures that do not depend on the machine's load:
# instructions executed (valgrind --tool=callgrind, user space) and system calls (strace -c), each
# over exactly COUNT non-streamed requests on CONNS keep-alive connections beyond a warm-up, against a
# fast nginx upstream. Give several binaries to compare them (e.g. before/after a change).
#
# Usage: bench/perf/cost-per-request.sh SWITCHYARD_BINARY...      Environment: COUNT (2000),
# CONNS (4; with more, one wake-up of a worker serves several requests),
# KEEP_STRACE=/path/prefix keeps each binary's strace -c table (which system calls) beside the summary.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
count="${COUNT:-2000}"
source "$root/bench/perf/fixedupstream.sh"
need_tools nginx valgrind strace
UP=18431 SW=18432
start_fixed_upstream $UP
gateway_config $SW $UP >"$work/sw.json"
client() { python3 "$root/bench/perf/ssebench.py" requests "http://127.0.0.1:$SW" --count "$1" --conns "${CONNS:-4}" >/dev/null; }
wait_listening() { for _ in $(seq 400); do grep -q listening "$1" 2>/dev/null && return 0; sleep 0.2; done; echo "gateway did not start" >&2; return 1; }

echo "| binary | instructions per request (user space) | system calls per request |"
echo "| --- | --- | --- |"
for bin in "$@"; do
  bin="$(realpath "$bin")" # the runs below start in a scratch folder
  # Instructions: two runs under callgrind, with 200 and with 200 + COUNT requests, each ended by
  # SIGTERM; the difference is COUNT requests' worth (start-up and shutdown cancel out).
  # Valgrind runs one thread at a time and does not let go while one waits in io_uring_enter(2), so a
  # worker waiting in its ring would stall the rest: under callgrind the workers use system calls
  # (SWITCHYARD_IO_URING=0). The system calls below are counted the way the gateway runs.
  irs=()
  for n in 200 $((200 + count)); do
    (cd "$work" && SWITCHYARD_IO_URING=0 exec valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$bin" --headless \
      --config "$work/sw.json" >"$work/vg.out" 2>"$work/vg.err") &
    vg=$!
    wait_listening "$work/vg.out"
    client "$n"
    kill -TERM "$vg"
    wait "$vg" 2>/dev/null || true
    irs+=("$(grep -h '^summary:' "$work"/cg.out* | awk '{s += $2} END {print s}')")
    rm -f "$work"/cg.out* "$work/vg.out"
  done
  ir=$(awk -v a="${irs[0]}" -v b="${irs[1]}" 'BEGIN {print b - a}')
  # System calls: strace attached to every thread for the counted requests only.
  "$bin" --headless --config "$work/sw.json" >"$work/sw.out" 2>/dev/null &
  gw=$!
  wait_listening "$work/sw.out"
  client 200
  strace -c -f -p "$gw" -o "$work/strace.txt" 2>/dev/null &
  st=$!
  sleep 1
  client "$count"
  kill -INT "$st"
  wait "$st" 2>/dev/null || true
  kill "$gw"
  wait "$gw" 2>/dev/null || true
  [ -n "${KEEP_STRACE:-}" ] && cp "$work/strace.txt" "$KEEP_STRACE.$(basename "$(dirname "$(dirname "$bin")")").txt"
  calls=$(awk '$NF == "total" {print $(NF-2)}' "$work/strace.txt")
  awk -v b="$(basename "$(dirname "$(dirname "$bin")")")" -v ir="$ir" -v c="$calls" -v n="$count" \
    'BEGIN {printf "| %s | %.0f | %.1f |\n", b, ir / n, c / n}'
done
