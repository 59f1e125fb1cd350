#!/usr/bin/python3
"""Prints the benchmark table from build/bench/*.json: medians, ratios against the peers, and the targets."""
import json
import sys

out = sys.argv[1]


def load(name):
    with open(f"{out}/{name}") as f:
        return json.load(f)


def row(label, ours, peer, target=None, higher_is_better=True):
    ratio = peer / ours if ours > 0 else float("inf")
    met = "" if target is None else ("  target >= %.1fx: %s" % (target, "met" if ratio >= target else "NOT met"))
    print(f"  {label:<58} {ratio:7.2f}x{met}")


for t in (1, 2):
    fs, pe = load(f"flowscope_t{t}.json"), load(f"peers_t{t}.json")
    print(f"\n== {t} thread(s), PyTorch {pe['torch_version']} ==")
    p, pp = fs["power"], pe["power"]
    calls = p["calls"]
    print(f"power(x, 100), {calls} calls: flowscope graph {p['graph_s']:.4f}s, eager {p['eager_s']:.4f}s, "
          f"C++ loop {p['cpp_loop_s']:.4f}s; torch eager {pp['torch_eager_s']:.4f}s, "
          f"jit.trace {pp['torch_jit_trace_s']:.4f}s, numpy {pp['numpy_s']:.4f}s")
    row("graph vs torch.jit.trace (speedup)", p["graph_s"], pp["torch_jit_trace_s"], 8)
    row("graph vs the C++ loop (loop time / graph time; 0.5 = within 2x)", p["graph_s"], p["cpp_loop_s"], 0.5)
    row("eager vs torch eager (speedup)", p["eager_s"], pp["torch_eager_s"], 3)
    row("graph vs our eager (speedup)", p["graph_s"], p["eager_s"], 3)
    row("graph vs numpy (speedup)", p["graph_s"], pp["numpy_s"])
    a, pa = fs["add"], pe["add"]
    print(f"1-element add, eager: flowscope {a['ns_per_op']:.0f} ns/op (target <= 200), "
          f"torch {pa['torch_ns_per_op']:.0f}, numpy {pa['numpy_ns_per_op']:.0f}")
    row("add vs torch (speedup)", a["ns_per_op"], pa["torch_ns_per_op"])
    for key, label in (("mlp_b1", "MLP 784-512-512-10, batch 1"), ("mlp_b64", "MLP 784-512-512-10, batch 64"),
                       ("convnet", "conv net 3x(3x3 conv+ReLU) 56x56, batch 1")):
        ours, peer = fs[key]["us_per_run"], pe[key]
        print(f"{label}: flowscope {ours:.1f} us; torch eager {peer['torch_eager_us']:.1f}, "
              f"jit.trace {peer['torch_jit_trace_us']:.1f}, "
              f"frozen+optimized {peer['torch_frozen_optimized_us']:.1f} us")
        row(f"{label} vs PyTorch's best mode (speedup)", ours, peer["torch_best_us"], 1.0)
