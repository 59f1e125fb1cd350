"""Prints onnx_peers.sh's figures: per model and thread count, Flowscope's and ONNX Runtime's median ms per run and
FS/ORT (target 0.8), and the relative error of Flowscope's output against ORT's (max |a - b| / max |b|, target 1e-4).
Usage: /usr/bin/python3 onnx_report.py OUT_DIR NAME..."""
import glob
import json
import os
import sys

import numpy as np


def relative_error(out, name):
    ours = np.load(glob.glob(os.path.join(out, "flowscope_" + name, "*.npy"))[0]).ravel()
    theirs = np.fromfile(os.path.join(out, "models", name + ".ort_output.bin"), dtype=np.float32)
    return float(np.abs(ours - theirs).max() / np.abs(theirs).max())


def main():
    out, names = sys.argv[1], sys.argv[2:]
    threads = sorted(int(f.split("_t")[-1][:-5]) for f in glob.glob(os.path.join(out, "ort_t*.json")))
    print("| model | threads | Flowscope ms | ORT 1.30 ms | FS/ORT | target 0.8 |")
    print("|---|---|---|---|---|---|")
    for name in names:
        for t in threads:
            with open(os.path.join(out, f"flowscope_{name}_t{t}.json")) as f:
                ours = json.load(f)["median_run_us"] / 1000
            with open(os.path.join(out, f"ort_t{t}.json")) as f:
                theirs = json.load(f)["cases"][name] / 1000
            ratio = ours / theirs
            print(f"| {name} | {t} | {ours:.2f} | {theirs:.2f} | {ratio:.2f} | {'met' if ratio <= 0.8 else 'not met'} |")
    for name in names:
        error = relative_error(out, name)
        print(f"{name}: output relative error {error:.2g} against ORT ({'within' if error <= 1e-4 else 'above'} 1e-4)")


if __name__ == "__main__":
    main()
