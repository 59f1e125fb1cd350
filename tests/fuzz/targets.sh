# The fuzz targets (sourced by run.sh and campaign.sh): one per loader, the .npy reader, one per profile importer.
fuzz_targets=(graphdef_binary graphdef_text metagraph savedmodel tfjs onnx npy profile_xplane profile_tfevents
  profile_ort profile_chrome_trace)
# libFuzzer's options for every run: inputs up to 4 MiB, 3 GiB of memory, 20 s per input; UB aborts (the build
# makes every sanitizer report fatal); leaks are not checked (the loaders' caches live for the process).
fuzz_options=(-max_len=4194304 -rss_limit_mb=3072 -timeout=20)
export ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
