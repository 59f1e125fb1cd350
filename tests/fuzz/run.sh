#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (engine only, no Qt) in build-fuzz/ and runs each for a fixed time.
# Usage: tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 20). Exits non-zero if any target finds a crash.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
seconds="${1:-20}"
build="$root/build-fuzz"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DFLOWSCOPE_BUILD_UI=OFF -DFLOWSCOPE_BUILD_TESTS=OFF -DFLOWSCOPE_FUZZ=ON -DFLOWSCOPE_VULKAN=OFF \
  -DFLOWSCOPE_PYTHON=OFF \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link,address,undefined" >/dev/null
cmake --build "$build" -j"$(nproc)" --target fuzz_graphdef_binary fuzz_graphdef_text fuzz_metagraph fuzz_savedmodel \
  fuzz_tfjs fuzz_onnx fuzz_profile_xplane fuzz_profile_tfevents fuzz_profile_ort fuzz_profile_chrome_trace
seeds="$build/seeds"
rm -rf "$seeds"
"$root/tests/fuzz/seed_corpus.sh" "$seeds"
status=0
targets="graphdef_binary graphdef_text metagraph savedmodel tfjs onnx profile_xplane profile_tfevents profile_ort
  profile_chrome_trace"
for target in $targets; do
  work="$build/corpus/$target"
  mkdir -p "$work" "$build/crashes"
  echo "fuzz: $target for ${seconds}s"
  if ! ASAN_OPTIONS=detect_leaks=0 "$build/tests/fuzz/fuzz_$target" "$work" "$seeds/$target" \
      -max_total_time="$seconds" -max_len=4194304 -rss_limit_mb=3072 -timeout=20 \
      -artifact_prefix="$build/crashes/$target-" -print_final_stats=1 >"$build/fuzz_$target.log" 2>&1; then
    echo "fuzz: $target FAILED; see $build/fuzz_$target.log and $build/crashes/"
    tail -40 "$build/fuzz_$target.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$target.log" | tail -2
  fi
done
[ $status -eq 0 ] && echo "fuzz: $(echo $targets | wc -w) targets ran ${seconds}s each without a crash"
exit $status
