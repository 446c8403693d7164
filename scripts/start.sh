#!/usr/bin/env bash
# Builds Switchyard and starts the panel. Without arguments it opens on the built-in demo (two
# simulated vLLM nodes behind the gateway); pass --config FILE for your own nodes, or --headless.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
if [ "$#" -eq 0 ]; then
  set -- --demo
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [[ " $* " != *" --headless "* ]]; then
  echo "No display found: starting the panel under Xvfb (use --headless for a server)." >&2
  exec xvfb-run -a -s "-screen 0 1600x1000x24" ./build/app/switchyard "$@"
fi
exec ./build/app/switchyard "$@"
