#!/usr/bin/python3
"""PyTorch (and NumPy where it applies) on the CPU benchmark's graphs (tests/bench/make_graphs.py): the same weights
and input, the same layers (MatMul; Linear+ReLU stacks; 3x3 conv+bias+ReLU in NCHW), inference mode, T threads.
Prints one JSON object: per graph the median microseconds of timed runs.
Usage: torch_peer.py DIR THREADS [RUNS]   (Debian's /usr/bin/python3 with python3-torch and python3-numpy; set
OPENBLAS_NUM_THREADS=THREADS for NumPy before starting it)"""
import json
import os
import sys
import time

import numpy as np
import torch
import torch.nn.functional as F

directory, threads = sys.argv[1], int(sys.argv[2])
max_runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
torch.set_num_threads(threads)


def median_us(body, budget_s=20.0):
    for _ in range(3):
        body()  # warm-up
    times, deadline = [], time.perf_counter() + budget_s
    while len(times) < max_runs and (len(times) < 5 or time.perf_counter() < deadline):
        start = time.perf_counter()
        body()
        times.append((time.perf_counter() - start) * 1e6)
    times.sort()
    return times[len(times) // 2]


def torch_case(kind, w, x):
    t = {k: torch.from_numpy(v) for k, v in w.items()}
    if kind == "matmul":
        return lambda: torch.matmul(x, t["w"])
    if kind == "mlp":
        layers = len(w) // 2

        def mlp():
            h = x
            for i in range(1, layers + 1):
                h = torch.relu(torch.addmm(t[f"b{i}"], h, t[f"w{i}"]))
            return h
        return mlp
    layers = len(w) // 2

    def conv():
        h = x
        for i in range(layers):
            h = F.relu(F.conv2d(h, t[f"w{i}"], t[f"b{i}"], padding=1))
        return h
    return conv


def numpy_case(kind, w, x):
    if kind == "matmul":
        return lambda: x @ w["w"]
    if kind == "mlp":
        layers = len(w) // 2

        def mlp():
            h = x
            for i in range(1, layers + 1):
                h = np.maximum(h @ w[f"w{i}"] + w[f"b{i}"], 0)
            return h
        return mlp
    return None  # NumPy has no convolution worth measuring


manifest = json.load(open(os.path.join(directory, "manifest.json")))
result = {"torch": torch.__version__, "numpy": np.__version__, "threads": threads, "torch_us": {}, "numpy_us": {}}
with torch.inference_mode():
    for name, info in manifest.items():
        weights = dict(np.load(os.path.join(directory, name + ".weights.npz")))
        x = np.fromfile(os.path.join(directory, name + ".onnx_input.bin"), dtype=np.float32).reshape(info["onnx_input"])
        result["torch_us"][name] = median_us(torch_case(info["kind"], weights, torch.from_numpy(x)))
        body = numpy_case(info["kind"], weights, x)
        if body is not None:
            result["numpy_us"][name] = median_us(body)
print(json.dumps(result))
