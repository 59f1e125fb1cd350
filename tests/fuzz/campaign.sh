#!/usr/bin/env bash
# A fuzzing campaign for one target: runs it for HOURS (a decimal is fine) from the repository's corpus
# (tests/fuzz/corpus/TARGET) and the seeds, restarting after each crash (kept in build-asan/crashes/), then merges
# what it found back into the repository's corpus, minimized: only inputs that add coverage, each cut to 16 KiB
# (the corpus stays small; the seeds, made from real files each run, bring the big inputs).
# Prints executions, coverage (libFuzzer's cov: edges and ft: features) before and after, and the crashes.
# Usage: tests/fuzz/campaign.sh TARGET HOURS     (TARGET: one of tests/fuzz/targets.sh; "list" prints them)
# FLOWSCOPE_FUZZER=PATH runs that prebuilt fuzzer binary instead of building build-asan's.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
source "$root/tests/fuzz/targets.sh"
target="${1:?usage: campaign.sh TARGET HOURS}"
if [ "$target" = list ]; then printf '%s\n' "${fuzz_targets[@]}"; exit 0; fi
[[ " ${fuzz_targets[*]} " == *" $target "* ]] || { echo "campaign: unknown target '$target'" >&2; exit 2; }
hours="${2:?usage: campaign.sh TARGET HOURS}"
seconds=$(python3 -c "print(max(1, int(float('$hours') * 3600)))")
build="$root/build-asan"
fuzzer="${FLOWSCOPE_FUZZER:-$build/tests/fuzz/fuzz_$target}"
[ -n "${FLOWSCOPE_FUZZER:-}" ] || "$root/tests/sanitizers/build.sh" asan "fuzz_$target" >/dev/null
"$root/tests/fuzz/seed_corpus.sh" "$build/seeds" >/dev/null
kept="$root/tests/fuzz/corpus/$target"
work="$build/campaign/$target"
mkdir -p "$kept" "$work" "$build/crashes"
log="$build/campaign/$target.log"
: > "$log"
deadline=$(( $(date +%s) + seconds ))
runs=0
while [ "$(date +%s)" -lt "$deadline" ]; do
  left=$(( deadline - $(date +%s) ))
  runs=$((runs + 1))
  "$fuzzer" "$work" "$kept" "$build/seeds/$target" "${fuzz_options[@]}" -max_total_time="$left" \
    -artifact_prefix="$build/crashes/$target-" -print_final_stats=1 >>"$log" 2>&1 || true
done
before=$(grep -m1 -E "INITED cov:" "$log" | grep -oE "cov: [0-9]+ ft: [0-9]+" || echo "cov: ? ft: ?")
after=$(grep -E "^#[0-9]+.*cov:" "$log" | tail -1 | grep -oE "cov: [0-9]+ ft: [0-9]+" || echo "$before")
executions=$(grep -E "stat::number_of_executed_units" "$log" | awk '{s += $2} END {print s + 0}')
# Crashes, leaks, timeouts and out-of-memory inputs fail; a slow unit (over 10 s, worth a look) is listed apart.
artifactsIn() { grep -oE "Test unit written to .*/$target-($1)-[0-9a-f]+" "$log" | sort -u | wc -l || true; }
crashes=$(artifactsIn "crash|leak|timeout|oom")
slow=$(artifactsIn "slow-unit")
# Minimize: an empty directory merged from the kept corpus and this campaign's finds keeps what adds coverage.
fresh="$build/campaign/$target.merged"
rm -rf "$fresh" && mkdir -p "$fresh"
"$fuzzer" -merge=1 -max_len=16384 -rss_limit_mb=3072 -timeout=20 "$fresh" "$kept" "$work" >>"$log.merge" 2>&1
rm -rf "$kept" && mv "$fresh" "$kept"
echo "campaign $target: ${hours} h ($seconds s), $runs run(s), $executions executions"
echo "  coverage at start: $before; at the end: $after"
artifacts=$(ls "$build/crashes" | grep -c "^$target-" || true)
echo "  crashes: $crashes, slow inputs: $slow (artifacts: $artifacts in $build/crashes)"
echo "  repository corpus: $(ls "$kept" | wc -l) files, $(du -sh "$kept" | cut -f1) (tests/fuzz/corpus/$target)"
echo "  log: $log"
