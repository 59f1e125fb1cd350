#!/usr/bin/env bash
# The CPU engine across thread counts on a many-core machine (issue 15; gpu_device_check.sh runs it on the lent
# machine's 16 cores): torchvision's MobileNetV2, exported here by onnx_models.py, profiled at 1, 4 and every CPU with
# omp_team_probe.so preloaded, which counts how often the OpenMP team grew (each growth creates threads); then, where
# python3 has onnxruntime, onnx_python_peers.py against ONNX Runtime at 1 thread and at every CPU.
# Usage: tests/bench/cpu_threads_check.sh FLOWSCOPE PROBE_SO GRAPHS_DIR   (PYTHON: the python3 with torchvision)
set -euo pipefail
[[ $# -eq 3 ]] || { echo "usage: cpu_threads_check.sh FLOWSCOPE PROBE_SO GRAPHS_DIR" >&2; exit 2; }
flowscope=$1 probe=$2 graphs=$3
python=${PYTHON:-python3}
root="$(cd "$(dirname "$0")/../.." && pwd)"
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT
"$python" "$root/tests/bench/onnx_models.py" "$models" "$graphs"
cpus=$(nproc)
for threads in $(echo 1 4 "$cpus" | tr ' ' '\n' | sort -nu); do
  echo "== MobileNetV2 at $threads threads"
  LD_PRELOAD="$probe" "$flowscope" profile "$models/mobilenet_v2.onnx" --input "x=$models/mobilenet_v2.x.npy" \
    --threads "$threads" --runs 30 2>&1 | grep -E "median|omp_team_probe|threads, asked by"
done
if "$python" -c "import onnxruntime" 2>/dev/null; then
  "$python" "$root/tests/bench/onnx_python_peers.py" "$flowscope" "$models" --threads "1,$cpus" --rounds 3
else
  echo "no onnxruntime for $python: no ONNX Runtime comparison"
fi
