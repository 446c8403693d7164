#!/usr/bin/env bash
# Gateway overhead on loopback, side by side in one run: wrk against a fast nginx upstream that
# returns a fixed chat completion — directly, through Switchyard (headless), and through HAProxy
# (1 thread, keep-alive to the upstream). Rounds are interleaved so machine noise hits all targets
# alike; the summary gives medians over rounds with the spread (min–max) and the per-round ratios
# to HAProxy. Needs nginx, haproxy and wrk (Debian packages; installed here when missing).
#
# Usage: bench/perf/bench-gateway.sh [build-dir]
# Environment: ROUNDS (5), SECONDS_PER_RUN (4), COMPARE_BIN=/path/to/another/switchyard adds a
# fourth target "before" (e.g. the binary of an earlier commit) measured in the same rounds.
# PINNED=1 compares per core: every gateway (Switchyard with one worker thread, HAProxy with nbthread 1)
# runs on CPU 0, and the upstream and wrk on CPU 1, so each proxy has one core to itself in turn.
# CORE_SHARE=50 (with PINNED=1) also caps each gateway at that percentage of its core (a cgroup's CPU
# quota): the gateway is then the bottleneck and the load side has room to spare, so requests/s compare
# the proxies' throughput on equal CPU, which a load side at its own ceiling cannot show.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
rounds="${ROUNDS:-5}"
secs="${SECONDS_PER_RUN:-4}"
source "$root/bench/perf/fixedupstream.sh"
need_tools nginx haproxy wrk
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

UP=18401 SW=18402 HA=18403 BE=18404
gw_cpus="" load_cpus="" workers=0
if [ -n "${PINNED:-}" ]; then
  gw_cpus=0 load_cpus=1 workers=1
fi
UPSTREAM_CPUS=$load_cpus start_fixed_upstream $UP
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
on_cpus "$gw_cpus" haproxy -f "$work/haproxy.cfg" &
pids+=($!)
declare -A pid=([haproxy]=$!)
gateway_config $SW $UP $workers >"$work/switchyard.json"
on_cpus "$gw_cpus" "$build/app/switchyard" --headless --config "$work/switchyard.json" >"$work/sw.out" 2>/dev/null &
pids+=($!)
pid[switchyard]=$!
targets=(direct switchyard haproxy)
declare -A port=([direct]=$UP [switchyard]=$SW [haproxy]=$HA [before]=$BE)
if [ -n "${COMPARE_BIN:-}" ]; then
  gateway_config $BE $UP $workers >"$work/before.json"
  on_cpus "$gw_cpus" "$COMPARE_BIN" --headless --config "$work/before.json" >"$work/be.out" 2>/dev/null &
  pids+=($!)
  pid[before]=$!
  targets+=(before)
fi
# A CPU quota for each gateway process (all its threads), in its own cgroup (v2, or v1's cpu controller).
capped=()
cap_cpu() { # name pid percent
  local g
  if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
    g=/sys/fs/cgroup/switchyard-bench-$1
    grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control || echo +cpu >/sys/fs/cgroup/cgroup.subtree_control
    mkdir -p "$g" && echo "$(($3 * 1000)) 100000" >"$g/cpu.max"
  else
    g=/sys/fs/cgroup/cpu/switchyard-bench-$1
    mkdir -p "$g" && echo 100000 >"$g/cpu.cfs_period_us" && echo "$(($3 * 1000))" >"$g/cpu.cfs_quota_us"
  fi
  echo "$2" >"$g/cgroup.procs"
  capped+=("$g")
}
uncap() { for g in "${capped[@]}"; do rmdir "$g" 2>/dev/null || true; done; }
trap 'cleanup; uncap' EXIT
if [ -n "${CORE_SHARE:-}" ]; then
  for t in switchyard haproxy before; do [ -n "${pid[$t]:-}" ] && cap_cpu "$t" "${pid[$t]}" "$CORE_SHARE"; done
fi
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

declare -A rps p50 p99 cpu
# A process's CPU time so far (user + system, all threads), in clock ticks.
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
run() { # name connections round
  local out rate l50 l99 errs before_ticks=0
  if [ -n "${pid[$1]:-}" ]; then before_ticks=$(ticks "${pid[$1]}"); fi
  out=$(${load_cpus:+taskset -c $load_cpus} wrk -t1 -c"$2" -d"${secs}s" -s "$work/post.lua" "http://127.0.0.1:${port[$1]}/v1/chat/completions" | grep RESULT)
  read -r _ rate l50 l99 errs <<<"$out"
  rps[$1,$2,$3]=$rate; p50[$1,$2,$3]=$l50; p99[$1,$2,$3]=$l99
  # The proxy's own CPU per request: what throughput per core comes to when the load generator's core,
  # not the proxy's, is what runs out first (direct tells: it is the ceiling of the load side).
  if [ -n "${pid[$1]:-}" ]; then
    cpu[$1,$2,$3]=$(awk -v t="$(($(ticks "${pid[$1]}") - before_ticks))" -v hz="$hz" -v r="$rate" -v s="$secs" \
      'BEGIN {printf "%.2f", t / hz * 1e6 / (r * s)}')
  fi
  [ "$errs" = 0 ] || echo "warning: $1 at $2 connections had $errs errors" >&2
}
# Warm-up: connections to the upstream, page faults, caches.
for t in "${targets[@]}"; do ${load_cpus:+taskset -c $load_cpus} wrk -t1 -c32 -d1s -s "$work/post.lua" "http://127.0.0.1:${port[$t]}/v1/chat/completions" >/dev/null; done
for conns in 32 1; do
  for ((r = 0; r < rounds; r++)); do
    for t in "${targets[@]}"; do run "$t" "$conns" "$r"; done
  done
done

# "median (min–max)" of the arguments.
stat() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "%.0f (%.0f–%.0f)", a[int((NR+1)/2)], a[1], a[NR]}'; }
statf() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {printf "%.2f (%.2f–%.2f)", a[int((NR+1)/2)], a[1], a[NR]}'; }
echo "wrk, ${rounds} interleaved rounds of ${secs} s; median (min–max) over rounds"
[ -n "$gw_cpus" ] && echo "pinned: the gateways on CPU $gw_cpus (Switchyard 1 worker thread, HAProxy nbthread 1), nginx and wrk on CPU $load_cpus"
[ -n "${CORE_SHARE:-}" ] && echo "each gateway capped at ${CORE_SHARE} % of its core (cgroup CPU quota)"
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
# Ratios per round (each round's targets ran back to back), then their median and spread.
for t in "${targets[@]}"; do
  [ "$t" = direct ] || [ "$t" = haproxy ] && continue
  thr=(); add=(); addh=()
  for ((r = 0; r < rounds; r++)); do
    thr+=("$(awk -v s="${rps[$t,32,$r]}" -v h="${rps[haproxy,32,$r]}" 'BEGIN {print s / h}')")
    add+=("$(awk -v s="${p50[$t,1,$r]}" -v d="${p50[direct,1,$r]}" 'BEGIN {print s - d}')")
    addh+=("$(awk -v s="${p50[haproxy,1,$r]}" -v d="${p50[direct,1,$r]}" 'BEGIN {print s - d}')")
  done
  echo "$t: throughput at 32 connections / haproxy = $(statf "${thr[@]}")   (target ≥ 1.0 pinned)"
  cs=(); ch=(); cr=()
  for ((r = 0; r < rounds; r++)); do
    cs+=("${cpu[$t,32,$r]}"); ch+=("${cpu[haproxy,32,$r]}")
    cr+=("$(awk -v s="${cpu[$t,32,$r]}" -v h="${cpu[haproxy,32,$r]}" 'BEGIN {print h / s}')")
  done
  echo "$t: CPU per request at 32 connections = $(statf "${cs[@]}") µs, haproxy's = $(statf "${ch[@]}") µs; requests per CPU-second / haproxy's = $(statf "${cr[@]}")"
  # A per-round ratio is meaningless when HAProxy's added latency is near zero in a noisy round: the
  # ratio is of the medians over rounds.
  ma=$(printf '%s\n' "${add[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  mh=$(printf '%s\n' "${addh[@]}" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
  echo "$t: added median latency at 1 connection = $(stat "${add[@]}") µs, haproxy's = $(stat "${addh[@]}") µs, ratio of the medians $(awk -v a="$ma" -v h="$mh" 'BEGIN {printf "%.2f", a / (h > 1 ? h : 1)}')   (target ≤ 1.0)"
done
