#!/usr/bin/env bash
# What virtual keys and the lasting history cost, side by side in one run: four headless Switchyard
# gateways in front of the same fixed nginx upstream — "plain" (no keys, no history), "keyonly" (every
# request with a virtual key that has all four limits set high: admitted and charged), "shared" (the
# same, with switchyard.redis_url: the key's counts shared through a redis-server 5 times a second) and
# "keyed" (keyonly, and switchyard.history on: each request also written to SQLite). wrk, interleaved
# rounds; medians with spread and the per-round ratio to plain (docs/PERFORMANCE.md, "Keys and
# history"). Needs nginx, wrk and redis-server.
#
# Usage: bench/perf/bench-keys-history.sh [build-dir]      Environment: ROUNDS (5), SECONDS_PER_RUN (4)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
rounds="${ROUNDS:-5}"
secs="${SECONDS_PER_RUN:-4}"
source "$root/bench/perf/fixedupstream.sh"
need_tools nginx wrk curl redis-server
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

UP=18411 PLAIN=18412 KEYED=18413 KEYONLY=18414 SHARED=18415 REDIS=18416
start_fixed_upstream $UP
redis-server --port $REDIS --bind 127.0.0.1 --save '' --appendonly no --logfile "$work/redis.log" &
pids+=($!)
gateway_config $PLAIN $UP >"$work/plain.json"
gateway_config $KEYONLY $UP >"$work/keyonly.json"
gateway_config $SHARED $UP | sed "s|\"health_check_interval_ms\":60000|&,\"redis_url\":\"redis://127.0.0.1:$REDIS\"|" >"$work/shared.json"
gateway_config $KEYED $UP | sed "s|\"health_check_interval_ms\":60000|&,\"history\":{\"path\":\"$work/history.db\"}|" >"$work/keyed.json"
"$build/app/switchyard" --headless --config "$work/plain.json" >"$work/plain.out" 2>/dev/null &
pids+=($!)
"$build/app/switchyard" --headless --config "$work/keyed.json" >"$work/keyed.out" 2>/dev/null &
pids+=($!)
"$build/app/switchyard" --headless --config "$work/keyonly.json" >"$work/keyonly.out" 2>/dev/null &
pids+=($!)
"$build/app/switchyard" --headless --config "$work/shared.json" >"$work/shared.out" 2>/dev/null &
pids+=($!)
for p in $PLAIN $KEYED $KEYONLY $SHARED; do
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$p/health" >/dev/null && break; sleep 0.1; done
done
make_key() { # port
  curl -sf -d '{"name":"bench","requests_per_minute":1000000000,"tokens_per_minute":1000000000,"tokens_per_day":1000000000,"max_concurrent":100000}' \
    "http://127.0.0.1:$1/api/keys" | sed -E 's/.*"secret": *"([^"]+)".*/\1/'
}
secret=$(make_key $KEYED)
secret2=$(make_key $KEYONLY)
secret3=$(make_key $SHARED)
[ -n "$secret" ] && [ -n "$secret2" ] && [ -n "$secret3" ] || { echo "could not make a key"; exit 1; }
curl -sf "http://127.0.0.1:$SHARED/api/status" | grep -q '"redis_problem": *null' || { echo "shared: Redis not reached"; exit 1; }

lua() { # file, extra header line
  cat >"$1" <<LUA
wrk.method = "POST"
wrk.body = '{"model":"m1","messages":[{"role":"user","content":"Hello"}],"max_tokens":1}'
wrk.headers["Content-Type"] = "application/json"
$2
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.1f %.1f %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.timeout))
end
LUA
}
lua "$work/plain.lua" ""
lua "$work/keyed.lua" "wrk.headers[\"Authorization\"] = \"Bearer $secret\""
lua "$work/keyonly.lua" "wrk.headers[\"Authorization\"] = \"Bearer $secret2\""
lua "$work/shared.lua" "wrk.headers[\"Authorization\"] = \"Bearer $secret3\""
targets=(plain keyonly shared keyed)
declare -A port=([plain]=$PLAIN [keyed]=$KEYED [keyonly]=$KEYONLY [shared]=$SHARED)
declare -A rps p50 p99
run() { # name connections round
  local out rate l50 l99 errs
  out=$(wrk -t1 -c"$2" -d"${secs}s" -s "$work/$1.lua" "http://127.0.0.1:${port[$1]}/v1/chat/completions" | grep RESULT)
  read -r _ rate l50 l99 errs <<<"$out"
  rps[$1,$2,$3]=$rate; p50[$1,$2,$3]=$l50; p99[$1,$2,$3]=$l99
  [ "$errs" = 0 ] || echo "warning: $1 at $2 connections had $errs errors" >&2
}
for t in "${targets[@]}"; do wrk -t1 -c32 -d1s -s "$work/$t.lua" "http://127.0.0.1:${port[$t]}/v1/chat/completions" >/dev/null; done
for conns in 32 1; do
  for ((r = 0; r < rounds; r++)); do
    for t in "${targets[@]}"; do run "$t" "$conns" "$r"; done
  done
done

stat() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "%.0f (%.0f–%.0f)", a[int((NR+1)/2)], a[1], a[NR]}'; }
statf() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "%.2f (%.2f–%.2f)", a[int((NR+1)/2)], a[1], a[NR]}'; }
echo "wrk, ${rounds} interleaved rounds of ${secs} s; median (min–max) over rounds"
echo
echo "| target | connections | requests/s | p50 µs | p99 µs |"
echo "| --- | --- | --- | --- | --- |"
for conns in 32 1; do
  for t in "${targets[@]}"; do
    rr=(); ll=(); nn=()
    for ((r = 0; r < rounds; r++)); do rr+=("${rps[$t,$conns,$r]}"); ll+=("${p50[$t,$conns,$r]}"); nn+=("${p99[$t,$conns,$r]}"); done
    echo "| $t | $conns | $(stat "${rr[@]}") | $(stat "${ll[@]}") | $(stat "${nn[@]}") |"
  done
done
echo
for t in keyonly shared keyed; do
  thr=(); lat=()
  for ((r = 0; r < rounds; r++)); do
    thr+=("$(awk -v k="${rps[$t,32,$r]}" -v p="${rps[plain,32,$r]}" 'BEGIN {print k / p}')")
    lat+=("$(awk -v k="${p50[$t,1,$r]}" -v p="${p50[plain,1,$r]}" 'BEGIN {print k - p}')")
  done
  echo "$t / plain throughput at 32 connections: $(statf "${thr[@]}")   (target ≥ 0.90); added median latency at 1 connection: $(stat "${lat[@]}") µs"
done
written=$(curl -sf "http://127.0.0.1:$KEYED/api/history/rollups?bucket_minutes=60" | awk -F: '/"requests"/ {gsub(/[ ,]/, "", $2); s += $2} END {print s + 0}')
echo "requests in keyed's history (per-minute sums, the last writes may still be queued): $written"
# What the sharing asked of Redis over the whole run (a few commands per round, whatever the load).
echo "commands Redis processed for the shared gateway: $(redis-cli -p $REDIS info stats | awk -F: '/^total_commands_processed/ {print $2}' | tr -d '\r')"
