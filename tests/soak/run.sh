#!/usr/bin/env bash
# The GUI soak: builds gui_soak and runs it offscreen over ../shared/graphs and ../shared/profiles (relative to the
# repository). Extra arguments go to the program: --runs N (profile runs, default 1), --repeat N (passes over the
# corpus), --timeout S (per step), --keep DIR (keep the PNG and SVG exports), --only TEXT (files whose path has it).
# Prints one line per document (RSS after closing it, its worst UI-thread block), then the summary; exits non-zero
# when the app crashed or a step failed unexpectedly. Usage: tests/soak/run.sh [--keep /tmp/soak-exports] ...
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${FLOWSCOPE_BUILD_DIR:-$root/build}"
shared="$(cd "$root/../shared" && pwd)"
flock /tmp/build.lock nice cmake --build "$build" -j2 --target gui_soak
QT_QPA_PLATFORM=offscreen exec "$build/tests/soak/gui_soak" "$@" "$shared/graphs" "$shared/profiles"
