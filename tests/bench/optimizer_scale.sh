#!/usr/bin/env bash
# The optimizer's default pipeline at scale: synthesizes the 100k-node graph (`flowscope synth`) into build/bench,
# runs `flowscope optimize --json` on it N times and prints the median pipeline time (PassManager::run: the passes,
# the verification after each pass that changed the graph, and the hashing; not loading or writing) and the median
# time of each pass in the pipeline, slowest first. A program, not a test: tests never assert wall-clock times.
# Usage: tests/bench/optimizer_scale.sh [--runs N] [--nodes N] [--top K] [--bin PATH]
#   (defaults: 5 runs, 100000 nodes, top 10, build/app/flowscope; --bin times another build, e.g. a before/after pair)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
bin="$root/build/app/flowscope"
runs=5; nodes=100000; top=10
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift ;;
    --nodes) nodes="$2"; shift ;;
    --top) top="$2"; shift ;;
    --bin) bin="$2"; shift ;;
    *) echo "usage: optimizer_scale.sh [--runs N] [--nodes N] [--top K] [--bin PATH]" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$bin" ] || { echo "build first: cmake --build build --target flowscope" >&2; exit 1; }
out="$root/build/bench/optimizer_scale"
mkdir -p "$out"
graph="$out/synth_${nodes}.pb"
"$bin" synth --nodes "$nodes" --out "$graph" --force >/dev/null
for i in $(seq 1 "$runs"); do
  "$bin" optimize "$graph" --json >"$out/run_$i.json"
done
python3 - "$out" "$runs" "$top" <<'EOF'
import json, statistics, sys
out, runs, top = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
reports = [json.load(open(f"{out}/run_{i}.json")) for i in range(1, runs + 1)]
totals = [r["seconds"] * 1e3 for r in reports]
first = reports[0]
print(f"{first['file']}: {first['nodes_before']} -> {first['nodes_after']} nodes, {runs} runs")
print(f"pipeline median {statistics.median(totals):.1f} ms (min {min(totals):.1f}, max {max(totals):.1f})")
rows = []
for k, p in enumerate(first["passes"]):
    times = [r["passes"][k]["seconds"] * 1e3 for r in reports]
    rows.append((statistics.median(times), k + 1, p["pass"], p["iteration"], p["changed"]))
print(f"{'#':>3} {'pass':<28} {'iter':>4} {'changed':>7} {'median ms':>10}")
for ms, k, name, iteration, changed in sorted(rows, reverse=True)[:top]:
    print(f"{k:>3} {name:<28} {iteration:>4} {'yes' if changed else 'no':>7} {ms:>10.2f}")
EOF
