#!/usr/bin/env bash
# Issue 18's checks on a lent GPU machine (../shared/tools/gpu/README.md says what it has and lacks): it has the GPU,
# its Vulkan driver and PyTorch, but none of our build's libraries, so those travel as one bundle.
# Usage, in the checkout's root there: tests/bench/gpu_device_check.sh CARRY OUT [gpu_bench.sh options]
# CARRY (tests/bench/gpu_carry.sh packs it) holds
#   bundle.tar.xz         stripped flowscope and tst_vulkan with their libraries;
#   graph_descriptors.pb  protoc's descriptor set of our GraphDef (that machine has no protoc);
#   corpus.tar.xz         optional: the corpus files tst_vulkan and the benchmark read, as shared/graphs/...;
#   source_root           optional: the source folder the bundle was built in, whose compiled-in test data paths
#                         (SOURCE/tests/data, SOURCE/../shared) are recreated there as links.
# OUT gets devices.txt (the GPU and what Vulkan reports), tst_vulkan.txt (parity against the CPU backend on the GPU),
# gpu_bench.txt (tests/bench/gpu_bench.sh, PyTorch CUDA as the peer) and, where python3 has torchvision,
# cpu_threads.txt (tests/bench/cpu_threads_check.sh: the CPU engine at 1, 4 and every CPU against ONNX Runtime).
set -uo pipefail
[[ $# -ge 2 ]] || { echo "usage: gpu_device_check.sh CARRY OUT [gpu_bench.sh options]" >&2; exit 2; }
carry=$(cd "$1" && pwd) out=$2
shift 2
root="$(cd "$(dirname "$0")/../.." && pwd)"
unpacked=/tmp/flowscope-bundle
mkdir -p "$out" "$unpacked/shared"
tar -xJf "$carry/bundle.tar.xz" -C "$unpacked" || exit 1
[[ -f "$carry/corpus.tar.xz" ]] && tar -xJf "$carry/corpus.tar.xz" -C "$unpacked"
export LD_LIBRARY_PATH="$unpacked/lib" QT_PLUGIN_PATH="$unpacked/plugins" QT_QPA_PLATFORM=offscreen
icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json  # where the lent machines mount the driver's manifest
if [[ ! -e /usr/share/vulkan/icd.d/nvidia_icd.json && -e $icd ]]; then
  export VK_DRIVER_FILES=$icd VK_ICD_FILENAMES=$icd
fi
if [[ -f "$carry/source_root" ]]; then
  source_root=$(cat "$carry/source_root")
  mkdir -p "$(dirname "$source_root")"
  [[ -e $source_root ]] || ln -s "$root" "$source_root"
  [[ -e $(dirname "$source_root")/shared ]] || ln -s "$unpacked/shared" "$(dirname "$source_root")/shared"
fi
{
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv
  "$unpacked/bin/flowscope" devices
} 2>&1 | tee "$out/devices.txt"
timeout 120 "$unpacked/bin/tst_vulkan" >"$out/tst_vulkan.txt" 2>&1
tests=$?
echo "tst_vulkan: exit $tests"
grep -E "^(FAIL|Totals)" "$out/tst_vulkan.txt"
mkdir -p "$root/build/bench/gpu"
cp "$carry/graph_descriptors.pb" "$root/build/bench/gpu/"
FLOWSCOPE="$unpacked/bin/flowscope" PYTHON="$(command -v python3)" SHARED="$unpacked/shared" \
  "$root/tests/bench/gpu_bench.sh" "$@" 2>&1 | tee "$out/gpu_bench.txt"
bench=$?
if python3 -c "import torchvision" 2>/dev/null; then  # the CPU engine on that machine's many cores (issue 15)
  PYTHON=python3 "$root/tests/bench/cpu_threads_check.sh" "$unpacked/bin/flowscope" "$unpacked/lib/omp_team_probe.so" \
    "$unpacked/shared/graphs" 2>&1 | tee "$out/cpu_threads.txt"
fi
exit $((tests != 0 || bench != 0))  # a failed parity run fails the check, whatever the benchmark says
