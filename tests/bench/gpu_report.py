#!/usr/bin/python3
"""The GPU benchmark's runs and table (tests/bench/gpu_bench.sh runs it). For each graph: Flowscope on the CPU, and on
the Vulkan device at fp32 and fp16 (`flowscope profile --json`): the whole run (median_run_us), the GPU time (the
backend's timestamp queries, summed over the nodes that ran on Vulkan), the fixed cost per run (whole minus GPU
time) and TFLOP/s from the GPU time, with the share of the device's peak when --peak gives it; then PyTorch on the
same GPU (CUDA events, the same weights and input), fp32 with TF32 off, TF32, and fp16, where python3-torch sees CUDA.

Usage: gpu_report.py FLOWSCOPE GRAPH_DIR RUNS [--peak FP32_TFLOPS,FP16_TFLOPS] [MODEL ...]
GRAPH_DIR holds make_graphs.py's output (NAME.pb, NAME.input.npy, NAME.weights.npz, manifest.json); MODELs are other
graph files run on random inputs, each optionally followed by #NAME=SPEC inputs (`flowscope run --input`'s), e.g.
DS_CNN_S.pb#Mfcc=random to start past its audio decoding. The fixed cost is the median whole run minus the mean GPU
time per run, so it can come out slightly negative where the two are close."""
import json
import os
import subprocess
import sys


def profile(flowscope, path, runs, inputs, device=None, precision=None):
    command = [flowscope, "profile", path, "--runs", str(runs), "--json"] + inputs
    if device:
        command += ["--device", device]
    if precision:
        command += ["--precision", precision]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    report = json.loads(done.stdout)
    gpu_ops = [op for op in report["ops"] if op.get("backend") == "vulkan"]
    gpu_us = sum(op["total_us"] for op in gpu_ops)
    return {"whole_us": report["median_run_us"], "gpu_us": gpu_us, "flops": sum(op["flops"] for op in gpu_ops),
            "device": report["device"], "precision": report.get("precision_summary", "")}


def torch_peers(graph_dir, manifest, runs):
    try:
        import numpy as np
        import torch
        import torch.nn.functional as F
    except ImportError:
        return {}, "pytorch: python3-torch is not installed"
    if not torch.cuda.is_available():
        return {}, "pytorch: no CUDA device visible to PyTorch: no GPU peer on this machine"
    cuda = torch.device("cuda")

    def forward(kind, w, x):
        if kind == "matmul":
            return lambda: x @ w["w"]
        layers = len(w) // 2
        if kind == "mlp":
            return lambda: _chain(x, [lambda h, i=i: torch.relu(torch.addmm(w[f"b{i}"], h, w[f"w{i}"]))
                                      for i in range(1, layers + 1)])
        return lambda: _chain(x, [lambda h, i=i: F.relu(F.conv2d(h, w[f"w{i}"], w[f"b{i}"], padding=1))
                                  for i in range(layers)])

    def gpu_us(body):
        for _ in range(3):
            body()
        times = []
        for _ in range(runs):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            body()
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end) * 1e3)
        return sorted(times)[len(times) // 2]

    peers = {}
    with torch.inference_mode():
        for name, info in manifest.items():
            raw = dict(np.load(os.path.join(graph_dir, name + ".weights.npz")))
            x = np.fromfile(os.path.join(graph_dir, name + ".onnx_input.bin"), dtype=np.float32)
            x = torch.from_numpy(x.reshape(info["onnx_input"])).to(cuda)
            w = {k: torch.from_numpy(v).to(cuda) for k, v in raw.items()}
            row = {}
            for mode in ("fp32", "tf32", "fp16"):
                torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = mode == "tf32"
                dtype = torch.float16 if mode == "fp16" else torch.float32
                row[mode] = gpu_us(forward(info["kind"], {k: v.to(dtype) for k, v in w.items()}, x.to(dtype)))
            peers[name] = row
    return peers, f"pytorch {torch.__version__} on {torch.cuda.get_device_name()}"


def _chain(x, layers):
    for layer in layers:
        x = layer(x)
    return x


def cell(run, key, peak=None):
    if "error" in run:
        return "error"
    if key == "tflops":
        tflops = run["flops"] / run["gpu_us"] / 1e6 if run["gpu_us"] > 0 else 0.0
        return f"{tflops:.3g}" + (f" ({100 * tflops / peak:.0f}%)" if peak else "")
    return f"{run[key]:.1f}"


def main(argv):
    flowscope, graph_dir, runs = argv[1], argv[2], int(argv[3])
    rest, peaks = argv[4:], (None, None)
    if rest[:1] == ["--peak"]:
        peaks = tuple(float(v) for v in rest[1].split(","))
        rest = rest[2:]
    manifest = json.load(open(os.path.join(graph_dir, "manifest.json")))
    cases = [(name, os.path.join(graph_dir, name + ".pb"), ["--input", f"x={os.path.join(graph_dir, name)}.input.npy"])
             for name in manifest]
    for model in rest:
        path, *specs = model.split("#")
        cases.append((os.path.basename(os.path.dirname(path)) + "/" + os.path.basename(path), path,
                      [arg for spec in specs for arg in ("--input", spec)]))
    peers, peer_note = torch_peers(graph_dir, manifest, runs)
    print(f"{'graph':30s} {'cpu us':>9s} | {'vk fp32 whole':>13s} {'gpu us':>9s} {'fixed us':>8s} {'TFLOP/s':>12s} | "
          f"{'vk fp16 gpu':>11s} {'TFLOP/s':>12s} | {'torch fp32':>10s} {'tf32':>8s} {'fp16':>8s} {'vk/torch':>8s}")
    device = None
    for name, path, inputs in cases:
        cpu = profile(flowscope, path, runs, inputs)
        fp32 = profile(flowscope, path, runs, inputs, "vulkan")
        fp16 = profile(flowscope, path, runs, inputs, "vulkan", "fp16")
        device = device or fp32.get("device")
        fixed = {"fixed": fp32["whole_us"] - fp32["gpu_us"]} if "error" not in fp32 else {"error": 1}
        peer = peers.get(name, {})
        ratio = f"{fp32['gpu_us'] / peer['fp32']:.2f}" if peer and "error" not in fp32 else "-"
        print(f"{name[-30:]:30s} {cell(cpu, 'whole_us'):>9s} | "
              f"{cell(fp32, 'whole_us'):>13s} {cell(fp32, 'gpu_us'):>9s} "
              f"{cell(fixed, 'fixed'):>8s} {cell(fp32, 'tflops', peaks[0]):>12s} | {cell(fp16, 'gpu_us'):>11s} "
              f"{cell(fp16, 'tflops', peaks[1]):>12s} | "
              + " ".join(f"{peer[m]:>{w}.1f}" if m in peer else f"{'-':>{w}s}" for m, w in (("fp32", 10), ("tf32", 8),
                                                                                          ("fp16", 8)))
              + f" {ratio:>8s}", flush=True)
    print(f"\nVulkan device: {device}; {peer_note}")
    if fp16.get("precision"):
        print(f"fp16 on it: {fp16['precision']}")
    if device and "llvmpipe" in device:
        print("lavapipe is a CPU emulating a GPU: these Vulkan times say nothing about a GPU (tst_vulkan checks "
              "correctness)")


if __name__ == "__main__":
    main(sys.argv)
