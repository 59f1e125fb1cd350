#!/usr/bin/python3
"""Prints the CPU peers table from tests/bench/cpu_peers.sh's JSON: per graph and thread count the medians of
Flowscope, ONNX Runtime, PyTorch and NumPy, Flowscope's time over ORT's (target <= 0.8), scaling with threads (no
graph slower with more threads; cpm_model >= 3x at 16 threads), facemesh's Pad share (< 5%) and the guide's
power(x, 100) against the C++ loop (<= 1.3x). Usage: cpu_report.py DIR THREADS..."""
import json
import os
import sys

out, counts = sys.argv[1], [int(t) for t in sys.argv[2:]]


def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None


def ms(us):
    return "-" if us is None else f"{us / 1000:9.2f}"


def verdict(ok):
    return "met" if ok else "NOT met"


manifest = load("graphs/manifest.json")
ours = {(n, t): load(f"flowscope_{n}_t{t}.json") for n in list(manifest) + ["cpm_model", "facemesh"] for t in counts}
ort = {t: load(f"ort_t{t}.json") for t in counts}
torch = {t: load(f"torch_t{t}.json") for t in counts}
first = next(v for v in torch.values() if v)
print(f"Flowscope vs ONNX Runtime {next(v for v in ort.values() if v)['ort']} (CPU provider), "
      f"PyTorch {first['torch']}, NumPy {first['numpy']}: medians in ms; FS/ORT is our time over ORT's\n")
print(f"{'graph':<20} {'threads':>7} {'flowscope':>9} {'ORT':>9} {'PyTorch':>9} {'NumPy':>9} {'FS/ORT':>7}"
      "  target <= 0.80")
for name in manifest:
    for t in counts:
        f = ours[(name, t)]["median_run_us"]
        o = ort[t]["cases"].get(name)
        p, n = torch[t]["torch_us"].get(name), torch[t]["numpy_us"].get(name)
        ratio = f / o if o else float("nan")
        print(f"{name:<20} {t:>7} {ms(f)} {ms(o)} {ms(p)} {ms(n)} {ratio:7.2f}  {verdict(ratio <= 0.8)}")

print("\nscaling (Flowscope's median at each thread count; target: never slower with more threads)")
for name in list(manifest) + ["cpm_model", "facemesh"]:
    times = [ours[(name, t)]["median_run_us"] for t in counts]
    slower = [counts[i + 1] for i in range(len(times) - 1) if times[i + 1] > times[i] * 1.05]
    cells = "  ".join(f"{t}t {ms(v).strip()}" for t, v in zip(counts, times))
    print(f"  {name:<20} {cells}   {'slower at ' + str(slower) + ' threads' if slower else 'ok'}")

cpm = [ours[("cpm_model", t)]["median_run_us"] for t in counts]
print(f"\ncpm_model: {cpm[0] / cpm[-1]:.2f}x faster at {counts[-1]} threads than at 1 (target >= 3x at 16 threads"
      f"{'' if counts[-1] >= 16 else '; this machine has ' + str(counts[-1]) + ' cores'})")
for t in counts:
    pad = next((op["share"] for op in ours[("facemesh", t)]["ops"] if op["op"] == "Pad"), 0.0)
    print(f"facemesh at {t} thread(s): Pad {100 * pad:.1f}% of the run (target < 5%: {verdict(pad < 0.05)})")
power = load("power_t1.json")
if power:
    p = power["power"]
    ratio = p["graph_s"] / p["cpp_loop_s"]
    print(f"power(x, 100) as a graph: {p['graph_s'] / p['calls'] * 1e6:.1f} us per call, C++ loop "
          f"{p['cpp_loop_s'] / p['calls'] * 1e6:.1f} us: {ratio:.2f}x (target <= 1.3x: {verdict(ratio <= 1.3)})")
