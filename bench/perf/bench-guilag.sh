#!/usr/bin/env bash
# The panel's GUI event-loop lag while its gateway serves at full load: the panel (a real window
# under Xvfb) runs with a config pointing at a fast nginx upstream, wrk drives 32 connections
# through it, and the panel's lag probe (ui/eventlooplag, SWITCHYARD_LAG_REPORT=1) prints the
# lateness of its 50 ms timer over the run when the panel quits (SIGTERM).
#
# Usage: bench/perf/bench-guilag.sh [build-dir]     Environment: LOAD_SECONDS (15)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
secs="${LOAD_SECONDS:-15}"
source "$root/bench/perf/fixedupstream.sh"
need_tools nginx wrk
command -v Xvfb >/dev/null || need_tools xvfb

UP=18421 SW=18422 DISP=:87
start_fixed_upstream $UP
gateway_config $SW $UP >"$work/switchyard.json"
Xvfb $DISP -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
sleep 1
cat >"$work/post.lua" <<'LUA'
wrk.method = "POST"
wrk.body = '{"model":"m1","messages":[{"role":"user","content":"Hello"}],"max_tokens":1}'
wrk.headers["Content-Type"] = "application/json"
LUA
# One panel run: idle (the machine's own noise: other processes, the X server) or under wrk's load.
run_panel() { # idle|load
  # A private settings directory: the panel remembers the last config file it opened.
  DISPLAY=$DISP XDG_CONFIG_HOME="$work/xdg" SWITCHYARD_LAG_REPORT=1 \
    "$build/app/switchyard" --config "$work/switchyard.json" >"$work/panel.out" 2>"$work/panel.err" &
  local panel=$!
  pids+=($panel)
  for _ in $(seq 50); do grep -q listening "$work/panel.out" 2>/dev/null && break; sleep 0.2; done
  grep -q listening "$work/panel.out" || { echo "the panel did not start"; cat "$work/panel.err"; exit 1; }
  local what t0 t1
  # The GUI thread's own CPU time (its task in /proc has the process's id): how busy it is itself.
  t0=$(awk '{print $14 + $15}' "/proc/$panel/task/$panel/stat")
  if [ "$1" = load ]; then
    local rate
    rate=$(wrk -t1 -c32 -d"${secs}s" -s "$work/post.lua" "http://127.0.0.1:$SW/v1/chat/completions" | awk '/Requests\/sec/ {print $2}')
    what="serving ${rate} requests/s (wrk, 32 connections)"
  else
    sleep "$secs"
    what="idle"
  fi
  t1=$(awk '{print $14 + $15}' "/proc/$panel/task/$panel/stat")
  kill -TERM "$panel"
  for _ in $(seq 50); do kill -0 "$panel" 2>/dev/null || break; sleep 0.2; done
  local lag
  lag=$(grep '^LAG' "$work/panel.err" || echo "LAG (no report)")
  local busy
  busy=$(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" -v s="$secs" 'BEGIN {printf "%.1f", (b - a) / hz / s * 100}')
  echo "gui ($1): panel under Xvfb, ${what}, ${secs} s; GUI thread busy ${busy}%; ${lag#LAG }"
}
run_panel idle
run_panel load
echo "(target at full load: p99_ms ≤ 50; the idle run shows what the machine alone adds)"
