#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/sanitizers/build.sh asan: clang, ASan + UBSan, engine only) and runs each from
# the repository's corpus (tests/fuzz/corpus) and the seeds (seed_corpus.sh): every corpus input once, then
# fuzz_ci_runs mutations from seed 1 (targets.sh), so the same commit gets the same verdict; SECONDS_PER_TARGET only
# caps a slow machine, and an input may take 120 s (the campaigns' 20 s would call a loaded machine's pause a hang).
# Usage: tests/fuzz/run.sh [SECONDS_PER_TARGET]   (default 60). Exits non-zero on any crash.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/fuzz/targets.sh"
seconds="${1:-60}"
build="$root/build-asan"
"$root/tests/sanitizers/build.sh" asan "${fuzz_targets[@]/#/fuzz_}"
seeds="$build/seeds"
rm -rf "$seeds"
"$root/tests/fuzz/seed_corpus.sh" "$seeds"
status=0
for target in "${fuzz_targets[@]}"; do
  work="$build/corpus/$target"
  rm -rf "$work"  # this run's finds only: the same inputs every time
  mkdir -p "$work" "$build/crashes" "$root/tests/fuzz/corpus/$target"
  runs="${fuzz_ci_runs[$target]}"
  echo "fuzz: $target, $runs mutations from seed 1"
  if ! "$build/tests/fuzz/fuzz_$target" "$work" "$root/tests/fuzz/corpus/$target" "$seeds/$target" \
      "${fuzz_options[@]}" -timeout=120 -seed=1 -runs="$runs" -max_total_time="$seconds" \
      -artifact_prefix="$build/crashes/$target-" \
      -print_final_stats=1 >"$build/fuzz_$target.log" 2>&1; then
    echo "fuzz: $target FAILED; see $build/fuzz_$target.log and $build/crashes/"
    tail -40 "$build/fuzz_$target.log"
    status=1
  else
    grep -E "stat::number_of_executed_units|cov:" "$build/fuzz_$target.log" | tail -2
  fi
done
[ $status -eq 0 ] && echo "fuzz: ${#fuzz_targets[@]} targets ran their corpus and mutations without a crash"
exit $status
