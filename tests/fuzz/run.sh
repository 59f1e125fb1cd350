#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/sanitizers/build.sh asan: clang, ASan + UBSan, engine only) and runs each for a
# fixed time from the repository's corpus (tests/fuzz/corpus) and the seeds (seed_corpus.sh).
# Usage: tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 20). Exits non-zero if any target finds a crash.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/fuzz/targets.sh"
seconds="${1:-20}"
build="$root/build-asan"
"$root/tests/sanitizers/build.sh" asan "${fuzz_targets[@]/#/fuzz_}"
seeds="$build/seeds"
rm -rf "$seeds"
"$root/tests/fuzz/seed_corpus.sh" "$seeds"
status=0
for target in "${fuzz_targets[@]}"; do
  work="$build/corpus/$target"
  mkdir -p "$work" "$build/crashes" "$root/tests/fuzz/corpus/$target"
  echo "fuzz: $target for ${seconds}s"
  if ! "$build/tests/fuzz/fuzz_$target" "$work" "$root/tests/fuzz/corpus/$target" "$seeds/$target" \
      "${fuzz_options[@]}" -max_total_time="$seconds" -artifact_prefix="$build/crashes/$target-" \
      -print_final_stats=1 >"$build/fuzz_$target.log" 2>&1; then
    echo "fuzz: $target FAILED; see $build/fuzz_$target.log and $build/crashes/"
    tail -40 "$build/fuzz_$target.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$target.log" | tail -2
  fi
done
[ $status -eq 0 ] && echo "fuzz: ${#fuzz_targets[@]} targets ran ${seconds}s each without a crash"
exit $status
