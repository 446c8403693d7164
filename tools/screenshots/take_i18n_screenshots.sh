#!/bin/bash
# Screenshots of the panel in Chinese and of the first run, from the real app under Xvfb:
#   panel-zh_CN.png      `switchyard --demo` with LANG=zh_CN.UTF-8 and traffic through the gateway
#   first-run.png        `switchyard` with fresh settings: the welcome dialog (English)
#   first-run-nodes.png  its "Add my nodes" form, filled in
#   first-run-zh_CN.png  the welcome in Chinese
#   remote-nodes-zh_CN.png `switchyard --connect` in Chinese, watching a headless gateway in front of two
#                        simulated nodes, with traffic
# Needs xvfb, xdotool, imagemagick, curl and fonts-noto-cjk (else the Chinese glyphs are boxes).
#   tools/screenshots/take_i18n_screenshots.sh [path/to/switchyard] [output dir]
set -euo pipefail
BIN=$(realpath "${1:-build/app/switchyard}")
SIMNODE=$(dirname "$BIN")/switchyard-simnode
OUT=$(realpath -m "${2:-docs/screenshots}")
PORT=${PORT:-18190}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
fc-list :lang=zh | grep -q . || echo "warning: no Chinese font (apt install fonts-noto-cjk)" >&2

cat > "$WORK/inner.sh" <<'INNER'
set -euo pipefail
BIN=$1; OUT=$2; PORT=$3; WORK=$4; SIMNODE=$5
window() { xdotool search --all --sync --onlyvisible --pid "$1" --name "$2" | head -1; }

# The panel in Chinese, on the demo, with traffic.
XDG_CONFIG_HOME=$WORK/zh LANG=zh_CN.UTF-8 "$BIN" --demo --listen 127.0.0.1:$PORT >"$WORK/zh.out" 2>"$WORK/zh.err" &
APP=$!
for _ in $(seq 50); do grep -q listening "$WORK/zh.out" 2>/dev/null && break; sleep 0.2; done
WIN=$(window $APP '^Switchyard')
xdotool windowmove "$WIN" 0 0 windowsize "$WIN" 1400 860
traffic() {
  while true; do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/chat/completions" -H 'Content-Type: application/json' \
      -d "{\"model\":\"nemotron-3-super\",\"max_tokens\":$1,\"stream\":$2,\"messages\":[{\"role\":\"user\",\"content\":\"你好\"}]}" || true
  done
}
traffic 40 false & T1=$!
traffic 60 true & T2=$!
sleep 25
xdotool mousemove --window "$WIN" 400 152 click 1
sleep 1
import -window "$WIN" "$OUT/panel-zh_CN.png"; echo "wrote $OUT/panel-zh_CN.png"
kill $T1 $T2 $APP; wait $APP 2>/dev/null || true

# A workstation watching a headless gateway: `switchyard --connect` in Chinese, the key from the environment.
"$SIMNODE" --listen 127.0.0.1:$((PORT + 1)) --model nemotron-3-super --name vllm-server1 >/dev/null 2>&1 & N1=$!
"$SIMNODE" --listen 127.0.0.1:$((PORT + 2)) --model nemotron-3-super --name vllm-server2 >/dev/null 2>&1 & N2=$!
cat > "$WORK/server.json" <<JSON
{"providers": {
  "vllm-server1": {"keys": [{"name": "k1", "value": "dummy", "models": ["nemotron-3-super"], "weight": 1}],
    "network_config": {"base_url": "http://127.0.0.1:$((PORT + 1))"}, "custom_provider_config": {"base_provider_type": "openai"}},
  "vllm-server2": {"keys": [{"name": "k2", "value": "dummy", "models": ["nemotron-3-super"], "weight": 1}],
    "network_config": {"base_url": "http://127.0.0.1:$((PORT + 2))"}, "custom_provider_config": {"base_provider_type": "openai"}}},
 "switchyard": {"listen": "127.0.0.1:$PORT", "api_keys": ["screenshot-client-key"], "admin_keys": ["screenshot-admin-key"]}}
JSON
"$BIN" --headless --config "$WORK/server.json" >"$WORK/headless.out" 2>&1 & GW=$!
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/health" >/dev/null && break; sleep 0.2; done
keyed_traffic() {
  while true; do
    curl -s -o /dev/null "http://127.0.0.1:$PORT/v1/chat/completions" -H 'Content-Type: application/json' \
      -H 'Authorization: Bearer screenshot-client-key' \
      -d "{\"model\":\"nemotron-3-super\",\"max_tokens\":$1,\"stream\":$2,\"messages\":[{\"role\":\"user\",\"content\":\"你好\"}]}" || true
  done
}
keyed_traffic 40 false & T1=$!
keyed_traffic 60 true & T2=$!
XDG_CONFIG_HOME=$WORK/remote HOME=$WORK/remote LANG=zh_CN.UTF-8 LANGUAGE=zh_CN SWITCHYARD_ADMIN_KEY=screenshot-admin-key \
  "$BIN" --connect "http://127.0.0.1:$PORT" >"$WORK/remote.out" 2>&1 & APP=$!
WIN=$(window $APP '^Switchyard')
xdotool windowmove "$WIN" 0 0 windowsize "$WIN" 1280 800
sleep 15
import -window "$WIN" "$OUT/remote-nodes-zh_CN.png"; echo "wrote $OUT/remote-nodes-zh_CN.png"
kill $T1 $T2 $APP; wait $APP 2>/dev/null || true
kill $GW $N1 $N2; wait $GW $N1 $N2 2>/dev/null || true

# The first run: no settings, no config.
for lang in en zh_CN; do
  mkdir -p "$WORK/home-$lang"
  HOME=$WORK/home-$lang LANG=$([ $lang = en ] && echo C.UTF-8 || echo zh_CN.UTF-8) "$BIN" \
    --listen 127.0.0.1:$PORT >"$WORK/first.out" 2>"$WORK/first.err" &
  APP=$!
  MAIN=$(window $APP '^Switchyard')
  xdotool windowmove "$MAIN" 0 0 windowsize "$MAIN" 1200 760
  sleep 2
  name=first-run; [ $lang = en ] || name=first-run-$lang
  DLG=$(xdotool search --all --onlyvisible --pid $APP --name . | grep -v "^$MAIN$" | tail -1)
  import -window "$DLG" "$OUT/$name.png"; echo "wrote $OUT/$name.png"
  if [ $lang = en ]; then # the "Add my nodes" form, filled in
    xdotool mousemove --window "$DLG" 120 245 click 1; sleep 1
    xdotool type --window "$DLG" --delay 20 http://192.168.200.101:8030; xdotool key --window "$DLG" Return
    xdotool type --window "$DLG" --delay 20 http://192.168.200.102:8030
    xdotool key --window "$DLG" Tab; xdotool type --window "$DLG" --delay 20 nemotron-3-super; sleep 1
    import -window "$DLG" "$OUT/first-run-nodes.png"; echo "wrote $OUT/first-run-nodes.png"
  fi
  kill $APP; wait $APP 2>/dev/null || true
done
INNER
xvfb-run -a -s "-screen 0 1440x900x24" bash "$WORK/inner.sh" "$BIN" "$OUT" "$PORT" "$WORK" "$SIMNODE"
