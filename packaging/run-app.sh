#!/usr/bin/env bash
# Quick start 1: install what is missing, build, and open the app on the bundled example graph.
# Without a display (SSH, CI) the app runs under Xvfb, saves build/app-window.png and exits.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/packaging/setup.sh" build
"$root/packaging/build.sh"
example="${1:-$root/resources/examples/mnist_cnn.pb}"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec "$root/build/app/flowscope" "$example"
fi
echo "run-app: no display here; running the app under Xvfb and saving its window to build/app-window.png"
FLOWSCOPE_SCREENSHOT="$root/build/app-window.png" xvfb-run -a -s "-screen 0 1280x800x24" \
  "$root/build/app/flowscope" "$example"
echo "run-app: saved $root/build/app-window.png"
