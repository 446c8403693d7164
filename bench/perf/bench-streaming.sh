#!/usr/bin/env bash
# Streaming through the gateway on loopback: per-event added delay and time to first byte (direct vs
# through Switchyard vs through HAProxy, interleaved rounds), then memory per open stream with 1,000
# streams in flight at the node at once. The upstream and clients are bench/perf/ssebench.py: each
# SSE event carries the upstream's monotonic send time, so the client measures each event's delay.
#
# Usage: bench/perf/bench-streaming.sh [build-dir]
# Environment: ROUNDS (9; a round's p99 is its 10th-worst event, and this VM stalls a wake-up for a
# millisecond now and then, so a few rounds say little), STREAMS (10 concurrent streams per latency
# round), CHUNKS (100 events per stream), INTERVAL_MS (10), OPEN_STREAMS (1000), WORKERS (the gateway's
# worker threads; 0 = one per core), HA_THREADS (HAProxy's nbthread, 1).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
rounds="${ROUNDS:-9}"
streams="${STREAMS:-10}"
chunks="${CHUNKS:-100}"
interval="${INTERVAL_MS:-10}"
open_streams="${OPEN_STREAMS:-1000}"
source "$root/bench/perf/fixedupstream.sh" # need_tools, $work and $pids (its upstream is ssebench.py's)
need_tools haproxy
# Every open stream holds three descriptors across the processes here: raise the soft limit.
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

UP=18411 SW=18412 HA=18413
python3 "$root/bench/perf/ssebench.py" serve $UP >"$work/up.out" 2>&1 &
pids+=($!)
cat >"$work/switchyard.json" <<CFG
{"providers":{"up":{"keys":[{"name":"k","value":"","models":["m1"],"weight":1}],
  "network_config":{"base_url":"http://127.0.0.1:$UP"},
  "custom_provider_config":{"base_provider_type":"openai"}}},
 "switchyard":{"listen":"127.0.0.1:$SW","health_check_interval_ms":60000,"worker_threads":${WORKERS:-0}}}
CFG
"$build/app/switchyard" --headless --config "$work/switchyard.json" >"$work/sw.out" 2>/dev/null &
swpid=$!
pids+=($swpid)
cat >"$work/haproxy.cfg" <<HAP
global
  nbthread ${HA_THREADS:-1}
  maxconn 4000
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  option http-keep-alive
  # Without it HAProxy holds small writes back (MSG_MORE) for tens of milliseconds: fair to streams.
  option http-no-delay
frontend f
  bind 127.0.0.1:$HA
  default_backend b
backend b
  http-reuse always
  server s1 127.0.0.1:$UP
HAP
haproxy -f "$work/haproxy.cfg" &
pids+=($!)
sleep 1
grep -q listening "$work/sw.out" || { echo "switchyard did not start"; exit 1; }

declare -A port=([direct]=$UP [switchyard]=$SW [haproxy]=$HA)
declare -A d50 d99 t50
targets=(direct switchyard haproxy)
for ((r = 0; r < rounds; r++)); do
  for t in "${targets[@]}"; do
    line=$(python3 "$root/bench/perf/ssebench.py" latency "http://127.0.0.1:${port[$t]}" --streams "$streams" \
      --chunks "$chunks" --interval-ms "$interval" --label "$t" --dump "$work/delays.$t" | grep RESULT)
    d50[$t,$r]=$(sed -E 's/.*delay_p50_us=([0-9.]+).*/\1/' <<<"$line")
    d99[$t,$r]=$(sed -E 's/.*delay_p99_us=([0-9.]+).*/\1/' <<<"$line")
    t50[$t,$r]=$(sed -E 's/.*ttfb_p50_us=([0-9.]+).*/\1/' <<<"$line")
  done
done
stat() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "%.0f (%.0f–%.0f)", a[int((NR+1)/2)], a[1], a[NR]}'; }
echo "streaming: ${rounds} interleaved rounds, each ${streams} concurrent streams × ${chunks} events every ${interval} ms"
echo "per-event delay = kernel receive time at the client − the upstream's send time (CLOCK_REALTIME); µs, median (min–max) over rounds"
echo
echo "| target | event delay p50 | event delay p99 | time to first event p50 (request written → first event) |"
echo "| --- | --- | --- | --- |"
for t in "${targets[@]}"; do
  a=(); b=(); c=()
  for ((r = 0; r < rounds; r++)); do a+=("${d50[$t,$r]}"); b+=("${d99[$t,$r]}"); c+=("${t50[$t,$r]}"); done
  echo "| $t | $(stat "${a[@]}") | $(stat "${b[@]}") | $(stat "${c[@]}") |"
done
echo
for t in switchyard haproxy; do
  a=(); b=(); c=()
  for ((r = 0; r < rounds; r++)); do
    a+=("$(awk -v s="${d50[$t,$r]}" -v d="${d50[direct,$r]}" 'BEGIN {print s - d}')")
    b+=("$(awk -v s="${d99[$t,$r]}" -v d="${d99[direct,$r]}" 'BEGIN {print s - d}')")
    c+=("$(awk -v s="${t50[$t,$r]}" -v d="${t50[direct,$r]}" 'BEGIN {print s - d}')")
  done
  echo "$t: added per-event delay p50 $(stat "${a[@]}") µs, p99 $(stat "${b[@]}") µs (target p99 ≤ 1000); added time to first event p50 $(stat "${c[@]}") µs"
done
echo
python3 "$root/bench/perf/ssebench.py" pooled "$work"
echo
python3 "$root/bench/perf/ssebench.py" concurrency "http://127.0.0.1:$SW" --pid "$swpid" --streams "$open_streams" |
  grep RESULT | sed -E 's/^RESULT concurrency //' |
  awk '{print "concurrency: " $0 "   (target per_stream_kib < 64)"}'
