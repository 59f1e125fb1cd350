"""The ONNX peer benchmark with ONNX Runtime's Python package (CPU provider) instead of onnxruntime-node, for machines
that have the wheel but no Node, such as the lent 16-core GPU machine (tests/bench/onnx_peers.sh is the one CI's
machines run). On onnx_models.py's models, at each thread count, alternating the two engines for --rounds rounds:
Flowscope's median run (`flowscope profile`, optimized, as users run it) and ORT's median over as many runs after a
warm-up; the best median of the rounds for each, and the ratio Flowscope / ORT (the issue's target is 0.8 or less).
Usage: onnx_python_peers.py FLOWSCOPE MODELS_DIR [--threads 1,16] [--runs 30] [--rounds 3]"""
import argparse
import json
import os
import subprocess
import time

import numpy as np
import onnxruntime as ort


def ort_median_us(session, feeds, runs):
    session.run(None, feeds)  # warm-up
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        session.run(None, feeds)
        times.append(time.perf_counter() - start)
    return sorted(times)[len(times) // 2] * 1e6


def flowscope_median_us(flowscope, model, args, threads, runs):
    done = subprocess.run([flowscope, "profile", model, "--json", "--runs", str(runs), "--threads", str(threads)]
                          + args, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"flowscope profile {model}: {done.stderr.strip()}")
    return json.loads(done.stdout)["median_run_us"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("flowscope")
    parser.add_argument("models")
    parser.add_argument("--threads", default=f"1,{os.cpu_count()}")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    a = parser.parse_args()
    manifest = json.load(open(os.path.join(a.models, "manifest.json")))
    print(f"onnxruntime {ort.__version__}, {os.cpu_count()} CPUs; best of {a.rounds} rounds' medians of {a.runs} runs")
    print(f"{'model':14s} {'threads':>7s} {'Flowscope ms':>12s} {'ORT ms':>9s} {'ratio':>6s}")
    for name, info in manifest.items():
        model = os.path.join(a.models, name + ".onnx")
        args = open(os.path.join(a.models, name + ".args")).read().splitlines()  # one argument per line
        feeds = {i["name"]: np.load(os.path.join(a.models, f"{name}.{i['name']}.npy")) for i in info["inputs"]}
        for threads in (int(t) for t in a.threads.split(",")):
            options = ort.SessionOptions()
            options.intra_op_num_threads, options.inter_op_num_threads = threads, 1
            session = ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])
            ours, theirs = [], []
            for _ in range(a.rounds):
                ours.append(flowscope_median_us(a.flowscope, model, args, threads, a.runs))
                theirs.append(ort_median_us(session, feeds, a.runs))
            print(f"{name:14s} {threads:7d} {min(ours) / 1e3:12.3f} {min(theirs) / 1e3:9.3f} "
                  f"{min(ours) / min(theirs):6.2f}", flush=True)


if __name__ == "__main__":
    main()
