#!/usr/bin/python3
"""The peers of tests/bench/flowscope_bench, measured in the same run: PyTorch (eager, torch.jit.trace,
jit.freeze + optimize_for_inference) and NumPy, on the same workloads. Prints one JSON object.
Run with Debian's /usr/bin/python3 (python3-torch, python3-numpy). Usage: peers.py [--threads N] [--quick]"""
import json
import sys
import time

import numpy as np
import torch

threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
quick = "--quick" in sys.argv
torch.set_num_threads(threads)
torch.manual_seed(0)


def median_seconds(repeats, body):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        body()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def power_torch(x, y: int):
    result = torch.eye(10, dtype=torch.int32)
    for _ in range(y):
        result = torch.matmul(result, x)
    return result


def bench_power(calls):
    x = torch.randint(-1, 2, (10, 10), dtype=torch.int32)
    eager = median_seconds(3, lambda: [power_torch(x, 100) for _ in range(calls)])
    traced = torch.jit.trace(lambda t: power_torch(t, 100), (x,))
    traced(x)
    trace_s = median_seconds(3, lambda: [traced(x) for _ in range(calls)])
    xn = x.numpy()

    def power_numpy():
        result = np.eye(10, dtype=np.int32)
        for _ in range(100):
            result = result @ xn
        return result

    numpy_s = median_seconds(3, lambda: [power_numpy() for _ in range(calls)])
    return {"calls": calls, "torch_eager_s": eager, "torch_jit_trace_s": trace_s, "numpy_s": numpy_s}


def bench_add(ops):
    a = torch.ones(1)
    b = torch.ones(1)
    t = median_seconds(3, lambda: [torch.add(a, b) for _ in range(ops)])
    an, bn = np.ones(1, dtype=np.float32), np.ones(1, dtype=np.float32)
    n = median_seconds(3, lambda: [np.add(an, bn) for _ in range(ops)])
    return {"ops": ops, "torch_ns_per_op": t / ops * 1e9, "numpy_ns_per_op": n / ops * 1e9}


def modes(model, example, runs):
    model.eval()
    out = {}
    with torch.no_grad():
        model(example)
        out["torch_eager_us"] = median_seconds(5, lambda: [model(example) for _ in range(runs)]) / runs * 1e6
        traced = torch.jit.trace(model, (example,))
        traced(example)
        out["torch_jit_trace_us"] = median_seconds(5, lambda: [traced(example) for _ in range(runs)]) / runs * 1e6
        frozen = torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.script(model)))
        for _ in range(3):
            frozen(example)
        frozen_s = median_seconds(5, lambda: [frozen(example) for _ in range(runs)])
        out["torch_frozen_optimized_us"] = frozen_s / runs * 1e6
    out["torch_best_us"] = min(out.values())
    return out


def bench_mlp(batch, runs):
    model = torch.nn.Sequential(torch.nn.Linear(784, 512), torch.nn.ReLU(), torch.nn.Linear(512, 512), torch.nn.ReLU(),
                                torch.nn.Linear(512, 10))
    return dict(batch=batch, runs=runs, **modes(model, torch.randn(batch, 784), runs))


def bench_convnet(runs):
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.Conv2d(32, 32, 3, padding=1), torch.nn.ReLU(),
                                torch.nn.Conv2d(32, 32, 3, padding=1), torch.nn.ReLU())
    return dict(runs=runs, **modes(model, torch.randn(1, 3, 56, 56), runs))


print(json.dumps({
    "threads": threads,
    "torch_version": torch.__version__,
    "power": bench_power(100 if quick else 1000),
    "add": bench_add(100000 if quick else 1000000),
    "mlp_b1": bench_mlp(1, 50 if quick else 500),
    "mlp_b64": bench_mlp(64, 10 if quick else 100),
    "convnet": bench_convnet(10 if quick else 100),
}, indent=2))
