#!/bin/bash
# Takes the panel's screenshots for docs/screenshots/ from the real app: `switchyard --demo` under Xvfb,
# curl traffic through the gateway, a simulated fault switched on over the demo node's /control/fault,
# views switched with the app's own shortcuts (xdotool). Needs xvfb, xdotool, imagemagick, curl;
# trayer (an XEmbed system tray) for the tray icon's picture, skipped without it. Writes nodes, nodes-fault,
# charts, requests, config, start-failure and tray .png; chat.png and benchmark.png come from their views'
# own screenshot programs (tools/screenshots/), config-form.png and config-json.png from
# build/tools/screenshots/configeditor_screenshot docs/screenshots/config-form.png docs/screenshots/config-json.png.
# connect-dialog.png and gateways-view.png (two in-process gateways with drift and a faulted node) from
# build/tools/screenshots/fleet_screenshot docs/screenshots/connect-dialog.png docs/screenshots/gateways-view.png.
# keys.png and keys-secret.png (the Keys tab, four keys with usage; a new key's secret shown once) from
# build/tools/screenshots/keys_screenshot docs/screenshots/keys.png docs/screenshots/keys-secret.png.
#   tools/screenshots/take_screenshots.sh [path/to/switchyard] [output dir]
set -euo pipefail
BIN=$(realpath "${1:-build/app/switchyard}")
OUT=$(realpath -m "${2:-docs/screenshots}")
PORT=${PORT:-18090}
mkdir -p "$OUT"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cat > "$WORK/inner.sh" <<'INNER'
set -euo pipefail
BIN=$1; OUT=$2; PORT=$3; WORK=$4
export XDG_CONFIG_HOME=$WORK/config   # fresh settings: default geometry, first tab
TRAY=
if command -v trayer >/dev/null; then
  trayer --edge bottom --align right --widthtype request --height 32 --transparent false --tint 0x333333 &
  TRAY=$!
  sleep 1
fi
"$BIN" --demo --listen 127.0.0.1:$PORT >"$WORK/app.out" 2>"$WORK/app.err" &
APP=$!
for _ in $(seq 50); do grep -q listening "$WORK/app.out" 2>/dev/null && break; sleep 0.2; done
URL=$(sed -n 's/^listening on //p' "$WORK/app.out")
NODE2=$(sed -n 's/^demo node vllm-server2 at //p' "$WORK/app.err")
echo "gateway $URL, vllm-server2 at $NODE2"
WIN=$(xdotool search --all --sync --onlyvisible --pid $APP --name '^Switchyard' | head -1)
xdotool windowmove "$WIN" 0 0 windowsize "$WIN" 1400 860 windowfocus "$WIN"

traffic() { # $1 = max_tokens, $2 = stream
  while true; do
    curl -s -o /dev/null "$URL/v1/chat/completions" -H 'Content-Type: application/json' \
      -d "{\"model\":\"nemotron-3-super\",\"max_tokens\":$1,\"stream\":$2,\"messages\":[{\"role\":\"user\",\"content\":\"Tell me about switchyards.\"}]}" || true
  done
}
traffic 40 false & T1=$!
traffic 60 true & T2=$!
traffic 24 false & T3=$!
traffic 80 true & T4=$!
shot() { sleep 1; import -window "$WIN" "$OUT/$1.png"; echo "wrote $OUT/$1.png"; }
view() { xdotool windowfocus --sync "$WIN"; xdotool key --window "$WIN" --clearmodifiers "ctrl+$1"; }
click() { xdotool mousemove --window "$WIN" "$1" "$2" click 1; } # x y inside the window

sleep 45
view 3; click 400 180; shot requests
view 1; shot nodes
# A fault on one node: the gateway notices, routes around it, and the panel says why.
if [ -n "$TRAY" ]; then import -window root -crop 440x120+1000+780 "$WORK/tray-on.png"; fi
curl -s -X POST "$NODE2/control/fault" -d '{"mode":"refuse"}' >/dev/null
sleep 7
if [ -n "$TRAY" ]; then
  import -window root -crop 440x120+1000+780 "$WORK/tray-down.png"
  convert "$WORK/tray-on.png" "$WORK/tray-down.png" +append "$OUT/tray.png"; echo "wrote $OUT/tray.png"
fi
sleep 8
view 1; click 400 152; shot nodes-fault
view 2; shot charts
view 5; shot config
kill $T1 $T2 $T3 $T4 2>/dev/null || true

# A start that fails: a second panel on the same port.
XDG_CONFIG_HOME=$WORK/config2 "$BIN" --demo --listen 127.0.0.1:$PORT >"$WORK/app2.out" 2>"$WORK/app2.err" &
APP2=$!
WIN2=$(xdotool search --all --sync --onlyvisible --pid $APP2 --name '^Switchyard' | head -1)
xdotool windowmove "$WIN2" 0 0 windowsize "$WIN2" 1100 560
sleep 3
import -window "$WIN2" "$OUT/start-failure.png"; echo "wrote $OUT/start-failure.png"
kill $APP2 $APP ${TRAY}
wait $APP2 $APP 2>/dev/null || true
INNER
xvfb-run -a -s "-screen 0 1440x900x24" bash "$WORK/inner.sh" "$BIN" "$OUT" "$PORT" "$WORK"
