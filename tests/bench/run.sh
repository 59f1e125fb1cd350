#!/usr/bin/env bash
# Runs Flowscope's benchmark and its peers (PyTorch eager / jit.trace / frozen+optimized, NumPy, a plain C++
# loop) in the same run, at 1 and 2 threads, and prints medians and ratios. Usage: tests/bench/run.sh [--quick]
# Needs python3-torch and python3-numpy (packaging/setup.sh bench installs them).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
"$root/packaging/setup.sh" build bench
"$root/packaging/build.sh" -DFLOWSCOPE_BUILD_TESTS=ON >/dev/null
out="$root/build/bench"
mkdir -p "$out"
for t in 1 2; do
  "$root/build/tests/bench/flowscope_bench" --threads "$t" "$@" > "$out/flowscope_t$t.json"
  # Debian's OpenBLAS workaround variables slow current NumPy; the peers run without them (tests never do).
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE /usr/bin/python3 "$root/tests/bench/peers.py" --threads "$t" "$@" \
    > "$out/peers_t$t.json"
done
/usr/bin/python3 "$root/tests/bench/report.py" "$out"
