#!/usr/bin/env bash
# Starts the headless demo gateway, runs the OpenAI Node SDK against it, and curl for good measure.
# Needs Node.js and the npm registry (for `npm install openai`); not part of the CTest suite.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:-$here/../../build/app/switchyard}"
work="$(mktemp -d)"
trap 'kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
(cd "$work" && npm init -y >/dev/null && npm install --silent openai@4 >/dev/null)
cp "$here/openai-sdk-check.mjs" "$work/"
"$bin" --headless --demo --listen 127.0.0.1:18089 >"$work/out" 2>"$work/err" &
pid=$!
for _ in $(seq 50); do grep -q listening "$work/out" 2>/dev/null && break; sleep 0.1; done
node "$work/openai-sdk-check.mjs" http://127.0.0.1:18089
echo "curl:"
curl -sS -D - http://127.0.0.1:18089/v1/chat/completions -H 'Content-Type: application/json' \
  -d '{"model":"vllm-server1/nemotron-3-super","messages":[{"role":"user","content":"Hello"}],"max_tokens":30}' | head -8
kill -TERM "$pid"; wait "$pid"; echo "gateway exit code: $?"
