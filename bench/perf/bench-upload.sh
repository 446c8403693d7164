#!/usr/bin/env bash
# What forwarding an audio upload while it arrives saves (docs/GATEWAY.md, "How an upload travels"): one
# switchyard --headless over one fast simulated node, curl uploading the same 25 MB form at a fixed rate
# (--limit-rate, a client on a ~400 Mbit/s link) with a Content-Length (forwarded as it arrives) and
# chunked (read whole before a node is chosen), interleaved rounds. Reported: the time from the upload's
# end to the whole answer, i.e. total minus the upload's own time, median and spread per way, and their
# ratio (docs/PERFORMANCE.md, "Audio uploads").
#
# Usage: bench/perf/bench-upload.sh [build-dir]     Environment: ROUNDS (5), MBYTES (25), RATE (50M)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-$root/build}"
rounds="${ROUNDS:-5}"
mbytes="${MBYTES:-25}"
rate="${RATE:-50M}"
source "$root/bench/perf/fixedupstream.sh"
need_tools curl

NODE=18521 GW=18522
head -c "$((mbytes * 1000000))" /dev/urandom >"$work/speech.wav"
"$build/app/switchyard-simnode" --listen "127.0.0.1:$NODE" --model m1 --tokens-per-second 100000 --ttft-ms 1 \
  >"$work/node.log" 2>&1 &
pids+=($!)
cat >"$work/gw.json" <<JSON
{"providers":{"a":{"keys":[{"name":"k","value":"dummy","models":["m1"],"weight":1}],
  "network_config":{"base_url":"http://127.0.0.1:$NODE"},"custom_provider_config":{"base_provider_type":"openai"}}},
 "switchyard":{"listen":"127.0.0.1:$GW","max_request_body_bytes":$(((mbytes + 2) * 1000000))}}
JSON
"$build/app/switchyard" --headless --config "$work/gw.json" >"$work/gw.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$GW/health" >/dev/null && break; sleep 0.1; done

# The upload's own time at the limited rate is the same for both ways; what follows it is the gateway's.
one() { # extra curl args…
  curl -s -o /dev/null "$@" --limit-rate "$rate" -w "%{time_total} %{size_upload} %{http_code}\n" \
    -F model=m1 -F "file=@$work/speech.wav" "http://127.0.0.1:$GW/v1/audio/transcriptions"
}
rate_bytes=$(numfmt --from=iec "$rate")
streamed=() chunked=()
for r in $(seq "$rounds"); do
  read -r t size code < <(one)
  [ "$code" = 200 ] || { echo "streamed upload: HTTP $code"; exit 1; }
  streamed+=("$(awk -v t="$t" -v s="$size" -v b="$rate_bytes" 'BEGIN { printf "%.1f", (t - s / b) * 1000 }')")
  read -r t size code < <(one -H "Transfer-Encoding: chunked")
  [ "$code" = 200 ] || { echo "chunked upload: HTTP $code"; exit 1; }
  chunked+=("$(awk -v t="$t" -v s="$size" -v b="$rate_bytes" 'BEGIN { printf "%.1f", (t - s / b) * 1000 }')")
  echo "round $r: after the upload's end, streamed ${streamed[-1]} ms, chunked ${chunked[-1]} ms"
done
median() { printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] " (" a[1] "-" a[NR] ")" }'; }
echo "${mbytes} MB at $rate/s, $rounds rounds: time from the upload's end to the whole answer"
echo "  forwarded as it arrives (Content-Length): $(median "${streamed[@]}") ms"
echo "  read whole first (chunked):               $(median "${chunked[@]}") ms"
