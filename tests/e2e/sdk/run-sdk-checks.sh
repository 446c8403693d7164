#!/usr/bin/env bash
# Drives a real gateway with the official client libraries: starts two simulated nodes (a and b, model
# m1) and `switchyard --headless` in front of them on loopback, then runs every *.mjs check in this
# folder with Node. Each check gets the addresses in its environment:
#   SWITCHYARD_URL (the gateway), SIMNODE_A_URL, SIMNODE_B_URL (for /control/fault).
# The packages come from the committed package-lock.json: `scripts/install-deps.sh --test` runs
# `npm ci` here. Without Node.js (20 or later) or the installed packages the test fails and says what
# it needs; SWITCHYARD_SKIP_SDK_CHECKS=1 makes it skip instead (exit 77, CTest's SKIP_RETURN_CODE).
# Usage: run-sdk-checks.sh <switchyard binary> <switchyard-simnode binary>
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
switchyard="${1:?usage: run-sdk-checks.sh <switchyard> <switchyard-simnode>}"
simnode="${2:?usage: run-sdk-checks.sh <switchyard> <switchyard-simnode>}"

missing() {
  if [[ "${SWITCHYARD_SKIP_SDK_CHECKS:-}" == 1 ]]; then
    echo "SKIP: $1 (SWITCHYARD_SKIP_SDK_CHECKS=1)"
    exit 77
  fi
  echo "FAIL: $1" >&2
  echo "      The SDK checks need Node.js 20 or later and the packages of tests/e2e/sdk/package-lock.json:" >&2
  echo "      run scripts/install-deps.sh --test (it runs npm ci there), or set SWITCHYARD_SKIP_SDK_CHECKS=1 to skip." >&2
  exit 1
}
command -v node >/dev/null || missing "node is not on PATH"
major="$(node -p 'process.versions.node.split(".")[0]')"
((major >= 20)) || missing "node $(node --version) is older than 20"
[[ -d "$here/node_modules/openai" && -d "$here/node_modules/@anthropic-ai/sdk" ]] ||
  missing "the openai and @anthropic-ai/sdk packages are not installed in $here/node_modules"

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# Starts a process whose first lines name its address after marker; sets $started to that address.
# (Not in a $(…) subshell: the process must stay this shell's child, to be stopped at the end.)
started=""
start() {
  local log="$1" marker="$2"
  shift 2
  "$@" >"$work/$log.out" 2>"$work/$log.err" &
  pids+=("$!")
  for _ in $(seq 200); do
    if url="$(grep -o "${marker}[0-9]*" "$work/$log.out" 2>/dev/null | head -1)" && [[ -n "$url" ]]; then
      started="${url#*listening on }"
      return 0
    fi
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "FAIL: $log did not start:" >&2
  cat "$work/$log.err" >&2
  return 1
}

node_args=(--listen 127.0.0.1:0 --model m1 --tokens-per-second 2000 --ttft-ms 5 --seed 1)
start simnode-a "http://127.0.0.1:" "$simnode" "${node_args[@]}" --name a
a_url="$started"
start simnode-b "http://127.0.0.1:" "$simnode" "${node_args[@]}" --name b
b_url="$started"
cat >"$work/config.json" <<JSON
{
  "providers": {
    "a": {"keys": [{"name": "a-key", "value": "dummy", "models": ["m1"], "weight": 1}],
          "network_config": {"base_url": "$a_url", "default_request_timeout_in_seconds": 10},
          "custom_provider_config": {"base_provider_type": "openai"}},
    "b": {"keys": [{"name": "b-key", "value": "dummy", "models": ["m1"], "weight": 1}],
          "network_config": {"base_url": "$b_url", "default_request_timeout_in_seconds": 10},
          "custom_provider_config": {"base_provider_type": "openai"}}
  },
  "switchyard": {"worker_threads": 2, "health_check_interval_ms": 200}
}
JSON
start gateway "listening on http://127.0.0.1:" "$switchyard" --headless --config "$work/config.json" \
  --listen 127.0.0.1:0
gateway_url="$started"

failed=0
shopt -s nullglob
checks=("$here"/*.mjs)
((${#checks[@]})) || { echo "FAIL: no *.mjs checks in $here" >&2; exit 1; }
for check in "${checks[@]}"; do
  echo "== $(basename "$check")"
  if ! SWITCHYARD_URL="$gateway_url" SIMNODE_A_URL="$a_url" SIMNODE_B_URL="$b_url" \
    node "$check"; then
    failed=1
  fi
  # Each check starts with healthy nodes, whatever the one before did.
  node -e 'for (const u of process.argv.slice(1))
             fetch(`${u}/control/fault`, { method: "POST", body: "{\"mode\":\"healthy\"}" });' "$a_url" "$b_url"
done
exit "$failed"
