#!/usr/bin/env bash
# Gateway overhead on loopback, side by side in one run: wrk against a fast nginx upstream that
# returns a fixed chat completion — directly, through Switchyard, and through HAProxy (1 thread,
# keep-alive to the upstream). Rounds are interleaved so machine noise hits all three alike; the
# summary gives medians over rounds and the ratios to HAProxy. Needs nginx, haproxy and wrk
# (Debian packages; installed here when missing). Usage: tests/perf/bench-gateway.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
rounds="${ROUNDS:-3}"
secs="${SECONDS_PER_RUN:-5}"
for p in nginx haproxy wrk; do
  command -v "$p" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$p" >/dev/null; }
done
work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

UP=18401 SW=18402 HA=18403
body='{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m1","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}'
cat >"$work/nginx.conf" <<NGX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $work;
  keepalive_requests 1000000;
  server {
    listen 127.0.0.1:$UP;
    location / { default_type application/json; return 200 '$body'; }
  }
}
NGX
nginx -c "$work/nginx.conf" -g 'daemon off;' &
pids+=($!)
cat >"$work/haproxy.cfg" <<HAP
global
  nbthread 1
  maxconn 4000
defaults
  mode http
  timeout connect 5s
  timeout client 60s
  timeout server 60s
  option http-keep-alive
frontend f
  bind 127.0.0.1:$HA
  default_backend b
backend b
  http-reuse always
  server s1 127.0.0.1:$UP
HAP
haproxy -f "$work/haproxy.cfg" &
pids+=($!)
cat >"$work/switchyard.json" <<CFG
{"providers":{"up":{"keys":[{"name":"k","value":"","models":["m1"],"weight":1}],
  "network_config":{"base_url":"http://127.0.0.1:$UP"},
  "custom_provider_config":{"base_provider_type":"openai"}}},
 "switchyard":{"listen":"127.0.0.1:$SW","health_check_interval_ms":60000}}
CFG
"$build/app/switchyard" --headless --config "$work/switchyard.json" >"$work/sw.out" 2>/dev/null &
pids+=($!)
sleep 1
grep -q listening "$work/sw.out" || { echo "switchyard did not start"; exit 1; }

cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"m1","messages":[{"role":"user","content":"Hello"}],"max_tokens":1}'
wrk.headers["Content-Type"] = "application/json"
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.1f %.1f %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50), latency:percentile(99), summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.timeout))
end
LUA

declare -A rps p50 p99
run() { # name port connections round
  local out rate l50 l99 errs
  out=$(wrk -t1 -c"$3" -d"${secs}s" -s "$work/post.lua" "http://127.0.0.1:$2/v1/chat/completions" | grep RESULT)
  read -r _ rate l50 l99 errs <<<"$out"
  rps[$1,$3,$4]=$rate; p50[$1,$3,$4]=$l50; p99[$1,$3,$4]=$l99
  [ "$errs" = 0 ] || echo "warning: $1 at $3 connections had $errs errors" >&2
}
for conns in 32 1; do
  for ((r = 0; r < rounds; r++)); do
    run direct $UP "$conns" "$r"; run switchyard $SW "$conns" "$r"; run haproxy $HA "$conns" "$r"
  done
done
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "| target | connections | requests/s | p50 µs | p99 µs |"
echo "| --- | --- | --- | --- | --- |"
declare -A med_rps med_p50
for conns in 32 1; do
  for t in direct switchyard haproxy; do
    rr=(); ll=(); nn=()
    for ((r = 0; r < rounds; r++)); do rr+=("${rps[$t,$conns,$r]}"); ll+=("${p50[$t,$conns,$r]}"); nn+=("${p99[$t,$conns,$r]}"); done
    med_rps[$t,$conns]=$(median "${rr[@]}"); med_p50[$t,$conns]=$(median "${ll[@]}")
    echo "| $t | $conns | ${med_rps[$t,$conns]} (${rr[*]}) | ${med_p50[$t,$conns]} | $(median "${nn[@]}") |"
  done
done
awk -v s="${med_rps[switchyard,32]}" -v h="${med_rps[haproxy,32]}" -v d="${med_rps[direct,32]}" \
    -v sl="${med_p50[switchyard,1]}" -v hl="${med_p50[haproxy,1]}" -v dl="${med_p50[direct,1]}" 'BEGIN {
  printf "\nthroughput at 32 connections: switchyard/haproxy = %.2f, switchyard/direct = %.2f\n", s / h, s / d;
  printf "added median latency at 1 connection: switchyard %.0f µs, haproxy %.0f µs (ratio %.2f)\n", sl - dl, hl - dl, (sl - dl) / (hl - dl);
}'
