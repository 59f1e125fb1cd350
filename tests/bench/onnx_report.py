"""Prints onnx_peers.sh's figures: per model and thread count, Flowscope's and ONNX Runtime's median ms per run (the
best of the rounds) and FS/ORT (target 0.8), and the relative error of Flowscope's output against ORT's
(max |a - b| / max |b|, target 1e-4). Each engine's spread (its slowest round's median over its fastest's, less 1)
says how much the host moved during the run: a ratio whose engines spread more than 10% is marked unsettled.
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


NOISY_SPREAD = 0.10


def spread(values):
    return max(values) / min(values) - 1


def load(out, name):
    with open(os.path.join(out, name)) as f:
        return json.load(f)


def main():
    out, names = sys.argv[1], sys.argv[2:]
    files = glob.glob(os.path.join(out, "ort_t*_r*.json"))
    runs = [os.path.basename(f)[len("ort_t"):-len(".json")].split("_r") for f in files]
    threads = sorted({int(t) for t, _ in runs})
    rounds = sorted({int(r) for _, r in runs})
    print(f"best median of {len(rounds)} round(s)")
    print("| model | threads | Flowscope ms | ORT 1.30 ms | FS/ORT | target 0.8 | spread FS / ORT |")
    print("|---|---|---|---|---|---|---|")
    unsettled = False
    for name in names:
        for t in threads:
            ours = [load(out, f"flowscope_{name}_t{t}_r{r}.json")["median_run_us"] / 1000 for r in rounds]
            theirs = [load(out, f"ort_t{t}_r{r}.json")["cases"][name] / 1000 for r in rounds]
            ratio = min(ours) / min(theirs)
            verdict = "met" if ratio <= 0.8 else "not met"
            noisy = max(spread(ours), spread(theirs)) > NOISY_SPREAD
            unsettled |= noisy
            print(f"| {name} | {t} | {min(ours):.3f} | {min(theirs):.3f} | {ratio:.2f} | {verdict}"
                  f"{' (unsettled)' if noisy else ''} | {spread(ours):.0%} / {spread(theirs):.0%} |")
    if unsettled:
        print(f"unsettled: an engine's round medians spread more than {NOISY_SPREAD:.0%}, so the host was not quiet "
              "and such a ratio may move by as much in another run; more rounds, or a quieter machine, settle it")
    for name in names:
        error = relative_error(out, name)
        print(f"{name}: output relative error {error:.2g} against ORT ({'within' if error <= 1e-4 else 'above'} 1e-4)")


if __name__ == "__main__":
    main()
