#!/usr/bin/env bash
# GPU benchmark (a program, not a test): each model's median run on the CPU backend and on the Vulkan backend
# (`flowscope profile --json`, same process settings, same inputs), and PyTorch on the same GPU (CUDA) for the
# gallery's MLP and conv net traced to graphs, when python3-torch sees one. On lavapipe (no GPU) the Vulkan numbers
# are a CPU emulating a GPU: report correctness only (tests/engine/tst_vulkan.cpp), not these times.
# Usage: tests/bench/gpu_bench.sh [--runs N] [MODEL ...]   (defaults: the example, the gallery graphs, corpus models)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
flowscope="$root/build/app/flowscope"
runs=20
if [[ "${1:-}" == "--runs" ]]; then runs="$2"; shift 2; fi
[[ -x "$flowscope" ]] || { echo "build first: packaging/build.sh" >&2; exit 1; }
"$flowscope" devices
out="$root/build/bench"
mkdir -p "$out"
"$flowscope" trace mlp --out "$out/mlp.pbtxt" --force >/dev/null
"$flowscope" trace small_convnet --out "$out/small_convnet.pbtxt" --force >/dev/null
models=("$@")
if [[ ${#models[@]} -eq 0 ]]; then
  models=("$root/resources/examples/mnist_cnn.pb" "$out/mlp.pbtxt" "$out/small_convnet.pbtxt")
  shared="$root/../shared/graphs"
  for m in pose-estimation-for-mobile/release/cpm_model/model.pb; do [[ -f "$shared/$m" ]] && models+=("$shared/$m"); done
fi
median() { /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["median_run_us"])'; }
printf "%-40s %14s %14s %8s\n" model "cpu us/run" "vulkan us/run" "cpu/vk"
for m in "${models[@]}"; do
  cpu=$("$flowscope" profile "$m" --runs "$runs" --json 2>/dev/null | median)
  vk=$("$flowscope" profile "$m" --runs "$runs" --device vulkan --json 2>/dev/null | median)
  printf "%-40s %14.1f %14.1f %8.2f\n" "$(basename "$(dirname "$m")")/$(basename "$m")" "$cpu" "$vk" \
    "$(/usr/bin/python3 -c "print($cpu / $vk)")"
done
# PyTorch on the same GPU, for the gallery graphs' shapes (CUDA only; prints why it is skipped otherwise).
/usr/bin/python3 - "$runs" <<'PY'
import sys, time
runs = int(sys.argv[1])
try:
    import torch
except ImportError:
    sys.exit("pytorch: python3-torch is not installed")
if not torch.cuda.is_available():
    sys.exit("pytorch: no CUDA GPU visible to PyTorch; no GPU peer figures on this machine")
dev = torch.device("cuda")
def timed(model, x):
    with torch.no_grad():
        for _ in range(3): model(x)
        torch.cuda.synchronize()
        t = []
        for _ in range(runs):
            s = time.perf_counter(); model(x); torch.cuda.synchronize(); t.append(time.perf_counter() - s)
    return sorted(t)[len(t) // 2] * 1e6
mlp = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 10), torch.nn.Softmax(-1)).to(dev)
conv = torch.nn.Sequential(torch.nn.Conv2d(1, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2), torch.nn.Flatten(),
                           torch.nn.Linear(14 * 14 * 8, 10), torch.nn.Softmax(-1)).to(dev)
print(f"pytorch {torch.__version__} on {torch.cuda.get_device_name()}: mlp {timed(mlp, torch.randn(8, 64, device=dev)):.1f} us/run, "
      f"small_convnet {timed(conv, torch.randn(1, 1, 28, 28, device=dev)):.1f} us/run")
PY
