#!/usr/bin/env bash
# Builds a sanitizer tree (build.sh) and runs its tests; any sanitizer report fails the test that made it.
# Usage: tests/sanitizers/run.sh asan|tsan
#   asan: every test of the engine tree (ctest in build-asan/) under ASan + UBSan with leak checking.
#   tsan: the threading tests (the executor's inter-op and intra-op threads, the thread pool, the UI's engine worker
#         and its settings saver, the banded convolution + max pool kernel's threads, a row chain's threads pulling
#         rows from one producer).
# Suppressions (*.supp here) name third-party code only, each with its reason.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mode="${1:?usage: run.sh asan|tsan}"
tsan_tests=(tst_threads tst_executor tst_engine_worker tst_settings_store tst_conv_max_pool tst_row_chain)
case "$mode" in
  asan) "$here/build.sh" asan
        export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
        export LSAN_OPTIONS="suppressions=$here/lsan.supp:print_suppressions=0"
        export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
        select=() ;;
  tsan) "$here/build.sh" tsan "${tsan_tests[@]}"
        # Third-party libraries (Qt, oneDNN, libomp, Mesa) are not built with TSan: accesses inside them are not
        # checked, and LLVM's Archer tells TSan what OpenMP's barriers and tasks synchronize.
        export TSAN_OPTIONS="suppressions=$here/tsan.supp:halt_on_error=1:second_deadlock_stack=1:print_suppressions=0\
:ignore_noninstrumented_modules=1"
        archer="$(ls /usr/lib/llvm-*/lib/libarcher.so 2>/dev/null | head -1)"
        [ -n "$archer" ] && export OMP_TOOL_LIBRARIES="$archer"
        select=(-R "^($(IFS='|'; echo "${tsan_tests[*]}"))\$") ;;
  *) echo "run.sh: unknown mode '$mode' (asan or tsan)" >&2; exit 2 ;;
esac
cd "$root/build-$mode"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure -j"$(nproc)" "${select[@]}"
echo "sanitizers: $mode passed with no report"
