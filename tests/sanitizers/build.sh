#!/usr/bin/env bash
# Configures and builds one sanitizer tree with clang (no Python module).
# Usage: tests/sanitizers/build.sh asan|tsan [TARGET...]   (default: every target of the tree)
#   FLOWSCOPE_JOBS=N builds with N jobs (default: every core), e.g. 1 beside a running fuzzer.
#   asan: AddressSanitizer + UndefinedBehaviorSanitizer (any UB aborts) over the engine and its tests, with libFuzzer's
#         coverage instrumentation so the same objects also link the fuzz targets (tests/fuzz); tree build-asan/.
#   tsan: ThreadSanitizer over the engine and the UI (the engine worker's thread); tree build-tsan/.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
mode="${1:?usage: build.sh asan|tsan [TARGET...]}"
shift
case "$mode" in
  asan) flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fsanitize=fuzzer-no-link"
        extra=(-DFLOWSCOPE_FUZZ=ON -DFLOWSCOPE_BUILD_UI=OFF) ;;
  tsan) flags="-fsanitize=thread"
        extra=(-DFLOWSCOPE_FUZZ=OFF -DFLOWSCOPE_BUILD_UI=ON) ;;
  *) echo "build.sh: unknown mode '$mode' (asan or tsan)" >&2; exit 2 ;;
esac
build="$root/build-$mode"
# -O1 and line tables only, as the sanitizers' documentation advises: reports still name every frame's line, and a
# kernel compiles in two thirds of -O3 -g's time (reduction_ops: 38.6 s against 55.8); most files here are header
# parsing, so the ASan tree as a whole gains less. Build type None: these flags alone.
flags="$flags -O1 -gline-tables-only -DNDEBUG -fno-omit-frame-pointer"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None \
  -DFLOWSCOPE_BUILD_TESTS=ON -DFLOWSCOPE_PYTHON=OFF -DFLOWSCOPE_VULKAN=ON "${extra[@]}" \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" >/dev/null
if [ $# -gt 0 ]; then
  cmake --build "$build" -j"${FLOWSCOPE_JOBS:-$(nproc)}" --target "$@"
else
  cmake --build "$build" -j"${FLOWSCOPE_JOBS:-$(nproc)}"
fi
