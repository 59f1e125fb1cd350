#!/usr/bin/env bash
# Flowscope against ONNX Runtime on issue 15's vision models, torchvision's ResNet-18 and MobileNetV2 (weights=None,
# seeded, opset 17), and on the corpus's Silero VAD (onnx_models.py writes them), run by `flowscope profile`
# (optimized, as users run it) and by ORT's CPU provider (npm onnxruntime-node, ort_peer.mjs) at 1 thread and at all
# physical cores, in the same run. Checks Flowscope's outputs against ORT's (relative error, target 1e-4) and prints
# medians and FS/ORT (target 0.8) with onnx_report.py. On a shared machine the medians move with the load, so the two
# alternate for --rounds rounds, each cell keeps its best median, and the report prints each engine's spread over the
# rounds, marking a ratio unsettled where either spread passes 10%. Then onnx_paired.py runs the two in turns, --pairs
# bursts of 6 runs each per cell, and prints the median of the per-pair ratios: the figure a busy host moves least.
# Usage: tests/bench/onnx_peers.sh [--runs N] [--rounds R] [--pairs P] [--node-modules DIR]   (DIR holds
# onnxruntime-node; default: npm installs it once under build/bench/onnx/node; --pairs 0 skips the paired runs)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
runs=30; rounds=3; pairs=20; modules=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --rounds) rounds="$2"; shift ;;
    --pairs) pairs="$2"; shift ;;
    --node-modules) modules="$2"; shift ;;
    *) echo "usage: onnx_peers.sh [--runs N] [--rounds R] [--pairs P] [--node-modules DIR]" >&2; exit 2 ;;
  esac
  shift
done
"$root/packaging/setup.sh" bench  # PyTorch and torchvision for the export, ONNX
command -v npm >/dev/null || "$root/packaging/setup.sh" bench-node  # Debian's nodejs and npm, if no Node is here
flowscope="$root/build/app/flowscope"
[ -x "$flowscope" ] || { echo "build flowscope first (cmake --build build --target flowscope)" >&2; exit 2; }
out="$root/build/bench/onnx"
mkdir -p "$out/models" "$out/node"
graphs="$root/../shared/graphs"
grep -q silero_vad "$out/models/manifest.json" 2>/dev/null ||
  /usr/bin/python3 "$root/tests/bench/onnx_models.py" "$out/models" "$graphs"
if [ -n "$modules" ]; then
  ln -sfn "$(cd "$modules" && pwd)" "$out/node/node_modules"
elif [ ! -d "$out/node/node_modules/onnxruntime-node" ]; then  # the npm tarball carries the library
  (cd "$out/node" && ONNXRUNTIME_NODE_INSTALL=skip npm install --silent --no-audit --no-fund onnxruntime-node@1.30.0)
fi
cp "$root/tests/bench/ort_peer.mjs" "$root/tests/bench/ort_model.mjs" "$root/tests/bench/ort_lockstep.mjs" "$out/node/"
cores=$(lscpu -p=Core,Socket | grep -v '^#' | sort -u | wc -l)
names="resnet18 mobilenet_v2 silero_vad"
output() { /usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]["output"])' \
  "$out/models/manifest.json" "$1"; }
for name in $names; do
  rm -rf "$out/flowscope_$name"
  mapfile -t inputs < "$out/models/$name.args"
  "$flowscope" run "$out/models/$name.onnx" "${inputs[@]}" --fetch "$(output "$name")" --output "$out/flowscope_$name" \
    > /dev/null
done
rm -f "$out"/flowscope_*_t*_r*.json "$out"/ort_t*_r*.json
for ((r = 1; r <= rounds; ++r)); do
  for t in $(echo 1 "$cores" | tr ' ' '\n' | sort -un); do
    echo "round $r, threads $t" >&2
    for name in $names; do
      mapfile -t inputs < "$out/models/$name.args"
      "$flowscope" profile "$out/models/$name.onnx" --json --runs "$runs" "${inputs[@]}" --threads "$t" \
        > "$out/flowscope_${name}_t${t}_r$r.json"
    done
    (cd "$out/node" && node ort_peer.mjs "$out/models" "$t" "$runs" --save) > "$out/ort_t${t}_r$r.json"
  done
done
/usr/bin/python3 "$root/tests/bench/onnx_report.py" "$out" $names
lockstep="$root/build/tests/bench/onnx_lockstep"
if [ "$pairs" -gt 0 ] && [ ! -x "$lockstep" ]; then
  echo "paired runs skipped: build tests/bench's onnx_lockstep first (a build with -DFLOWSCOPE_BUILD_TESTS=ON)" >&2
elif [ "$pairs" -gt 0 ]; then
  echo
  /usr/bin/python3 "$root/tests/bench/onnx_paired.py" "$out" "$lockstep" "$pairs" 6 "$(echo 1 "$cores" |
    tr ' ' '\n' | sort -un | paste -sd,)" $names
fi
