"""Flowscope against ONNX Runtime in paired bursts: per model and thread count, both engines load the model in
processes of their own (onnx_lockstep, ort_lockstep.mjs) and then take turns, a burst of RUNS back-to-back runs each,
the first of a pair alternating. A burst's figure is the median of its runs after the first (warm, as
back-to-back runs are). Between bursts the machine rests PAUSE_S: ONNX Runtime's idle threads spin for more than 0.1 s
after a run (measured: with a 30 ms pause Flowscope's 2-thread MobileNetV2 took 10.8 ms instead of 6.6) and must
not reach into the other engine's burst. Each pair meets the same load on a shared machine, so the median of the
per-pair ratios FS/ORT holds still where medians taken minutes apart do not. Prints each cell's medians, the median
pair ratio and the middle half of the pair ratios.
Usage: /usr/bin/python3 onnx_paired.py [--against OTHER_LOCKSTEP] OUT_DIR LOCKSTEP_BINARY PAIRS RUNS THREADS,... NAME...
(OUT_DIR as onnx_peers.sh leaves it: models/ with NAME.onnx and NAME.args, node/ with ort_lockstep.mjs)
--against pairs two builds of Flowscope instead (an onnx_lockstep built before a change, against one built after):
the way to see a change of a few percent on a machine whose load moves the medians more than that."""
import os
import subprocess
import sys
import time

import numpy as np

PAUSE_S = 0.5


class Engine:
    def __init__(self, command, cwd=None):
        self.process = subprocess.Popen(command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.process.stdout.readline().strip()
        if line != "ready":
            raise RuntimeError(f"{command[0]} did not start: {line or 'no output'}")

    def burst(self, runs):
        """The median microseconds of `runs` back-to-back runs, after the first."""
        self.process.stdin.write(f"{runs}\n")
        self.process.stdin.flush()
        micros = [float(t) for t in self.process.stdout.readline().split()]
        if len(micros) != runs:
            raise RuntimeError(f"a burst of {runs} runs returned {len(micros)} times")
        return float(np.median(micros[1:] if runs > 1 else micros))

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def paired_times(ours, theirs, pairs, runs):
    times = []
    for i in range(pairs):
        first, second = (ours, theirs) if i % 2 == 0 else (theirs, ours)
        a = first.burst(runs)
        time.sleep(PAUSE_S)
        b = second.burst(runs)
        time.sleep(PAUSE_S)
        times.append((a, b) if i % 2 == 0 else (b, a))
    return np.array(times)


def measure(out, lockstep, name, threads, pairs, runs, against=None):
    with open(os.path.join(out, "models", name + ".args")) as f:
        inputs = f.read().split()
    model = os.path.join(out, "models", name + ".onnx")
    ours = Engine([lockstep, model, str(threads)] + inputs)
    try:
        theirs = (Engine([against, model, str(threads)] + inputs) if against else
                  Engine(["node", "ort_lockstep.mjs", os.path.join(out, "models"), name, str(threads)],
                         cwd=os.path.join(out, "node")))
        try:
            return paired_times(ours, theirs, pairs, runs)
        finally:
            theirs.close()
    finally:
        ours.close()


def main():
    args = sys.argv[1:]
    against = None
    if args[:1] == ["--against"]:
        against, args = os.path.abspath(args[1]), args[2:]
    out, lockstep = os.path.abspath(args[0]), os.path.abspath(args[1])
    pairs, runs = int(args[2]), int(args[3])
    threads = [int(t) for t in args[4].split(",")]
    names = args[5:]
    print(f"{pairs} paired bursts of {runs} runs per cell, the first of each pair alternating")
    if against:
        print(f"A: {lockstep}\nB: {against}")
        print("| model | threads | A ms | B ms | A/B, median pair | pair ratios, middle half |")
        print("|---|---|---|---|---|---|")
    else:
        print("| model | threads | Flowscope ms | ORT 1.30 ms | FS/ORT, median pair | pair ratios, middle half | "
              "target 0.8 |")
        print("|---|---|---|---|---|---|---|")
    for name in names:
        for t in threads:
            times = measure(out, lockstep, name, t, pairs, runs, against)
            ratios = times[:, 0] / times[:, 1]
            low, mid, high = np.percentile(ratios, [25, 50, 75])
            if against:
                print(f"| {name} | {t} | {np.median(times[:, 0]) / 1000:.3f} | {np.median(times[:, 1]) / 1000:.3f} | "
                      f"{mid:.3f} | {low:.3f}-{high:.3f} |", flush=True)
                continue
            verdict = "met" if mid <= 0.8 else "not met"
            if low <= 0.8 < high:
                verdict += " (its middle half spans 0.8)"
            print(f"| {name} | {t} | {np.median(times[:, 0]) / 1000:.3f} | {np.median(times[:, 1]) / 1000:.3f} | "
                  f"{mid:.2f} | {low:.2f}-{high:.2f} | {verdict} |", flush=True)


if __name__ == "__main__":
    main()
