#!/usr/bin/env bash
# Quick start 2: install what is missing, check the format, build, and run every test (ctest) and the GUI soak over
# ../shared; then the engine's tests under ASan + UBSan, the fuzz targets briefly (same tree), and the threading tests
# under TSan (tests/sanitizers).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/packaging/setup.sh" build test
"$root/packaging/check-format.sh"
"$root/packaging/build.sh" -DFLOWSCOPE_BUILD_TESTS=ON
(cd "$root/build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j2)
if [ -d "$root/../shared/graphs" ]; then "$root/tests/soak/run.sh" | tail -25; fi
"$root/tests/sanitizers/run.sh" asan
"$root/tests/fuzz/run.sh" "${FLOWSCOPE_FUZZ_SECONDS:-60}"
"$root/tests/sanitizers/run.sh" tsan
