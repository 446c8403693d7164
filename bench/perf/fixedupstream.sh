# Sourced by the end-to-end benchmarks of bench/perf/: what they all set up the same way.
#  - need_tools TOOL...        installs the Debian packages of the same names when a tool is missing;
#  - a scratch folder ($work) and the list of processes to stop ($pids), both cleaned up on exit;
#  - start_fixed_upstream PORT an nginx on 127.0.0.1:PORT answering every request with one fixed chat
#                              completion (as fast as an upstream can be: what is measured is the rest);
#  - gateway_config GW UP [N]  a Switchyard config listening on GW with one node at UP (on stdout), with
#                              N worker threads (default: one per core it may run on).
#  - on_cpus CPUS CMD... &     runs CMD pinned to CPUS (taskset -c) when CPUS is set, else as is; it
#                              execs, so start it in the background and $! is CMD's own pid.

need_tools() {
  local missing=()
  for p in "$@"; do command -v "$p" >/dev/null || missing+=("$p"); done
  if ((${#missing[@]})); then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@],,}" >/dev/null
  fi
}

work="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

fixed_completion='{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m1","choices":[{"index":0,"message":{"role":"assistant","content":"ok"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}'

start_fixed_upstream() { # port
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
    listen 127.0.0.1:$1;
    location / { default_type application/json; return 200 '$fixed_completion'; }
  }
}
NGX
  on_cpus "${UPSTREAM_CPUS:-}" nginx -c "$work/nginx.conf" -g 'daemon off;' &
  pids+=($!)
}

gateway_config() { # gateway port, upstream port, [worker threads]
  cat <<CFG
{"providers":{"up":{"keys":[{"name":"k","value":"","models":["m1"],"weight":1}],
  "network_config":{"base_url":"http://127.0.0.1:$2"},
  "custom_provider_config":{"base_provider_type":"openai"}}},
 "switchyard":{"listen":"127.0.0.1:$1","health_check_interval_ms":60000,"worker_threads":${3:-0}}}
CFG
}

on_cpus() { # cpus, command...
  local cpus="$1"
  shift
  if [ -n "$cpus" ]; then exec taskset -c "$cpus" "$@"; else exec "$@"; fi
}
