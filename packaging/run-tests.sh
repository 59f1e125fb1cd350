#!/usr/bin/env bash
# Quick start 2: install what is missing, check the format, build, and run every test (ctest), then the fuzz targets
# briefly.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/packaging/setup.sh" build test
"$root/packaging/check-format.sh"
"$root/packaging/build.sh" -DFLOWSCOPE_BUILD_TESTS=ON
(cd "$root/build" && QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j2)
"$root/tests/fuzz/run.sh" "${FLOWSCOPE_FUZZ_SECONDS:-20}"
