# The fuzz targets (sourced by run.sh and campaign.sh): one per loader, the .npy reader, one per profile importer.
fuzz_targets=(graphdef_binary graphdef_text metagraph savedmodel tfjs onnx npy profile_xplane profile_tfevents
  profile_ort profile_chrome_trace)
# libFuzzer's options for every run: inputs up to 4 MiB, 3 GiB of memory, 20 s per input; UB aborts (the build
# makes every sanitizer report fatal); leaks are not checked (the loaders' caches live for the process).
fuzz_options=(-max_len=4194304 -rss_limit_mb=3072 -timeout=20)
# CI's short run per target: this many mutations from a fixed seed, so a run repeats exactly and a crash it finds
# is the commit's, not chance's. About 20 s each under ASan at -O1 on a 2-core machine (190-1600 runs a second
# there), well inside run.sh's cap of 60 s, so the count ends a run, not the clock; discovery is the campaigns' job
# (campaign.sh).
declare -A fuzz_ci_runs=([graphdef_binary]=5000 [graphdef_text]=6000 [metagraph]=16000 [savedmodel]=3500
  [tfjs]=2500 [onnx]=7000 [npy]=6000 [profile_xplane]=30000 [profile_tfevents]=30000 [profile_ort]=8000
  [profile_chrome_trace]=3000)
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
