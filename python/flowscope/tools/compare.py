"""Eager vs graph on the calls a script made: the same recorded calls of one Function run N times with
run_functions_eagerly(True) and N times as graphs, each call timed; medians per call, totals, outputs compared."""
import contextlib
import os
import statistics
import sys
import time

import numpy as np

from flowscope import config
from flowscope.tools.recording import concrete_of_call


@contextlib.contextmanager
def _quiet():
    """Prints inside the timed calls (Python's and tf.print's, which write to the file descriptors) go nowhere."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in saved + [devnull]:
            os.close(fd)


def find_function(functions, name):
    """The Function named `name` (its Python name, or one of its concrete functions' names)."""
    for function in functions:
        if function.__name__ == name:
            return function
    for function in functions:
        if any(c.name == name for c in function._traces):
            return function
    return None


def _flat(value, out):
    if isinstance(value, (list, tuple)):
        for v in value:
            _flat(v, out)
    elif isinstance(value, dict):
        for k in sorted(value):
            _flat(value[k], out)
    elif hasattr(value, "numpy"):
        out.append(np.asarray(value.numpy()))
    else:
        out.append(value)
    return out


def _difference(a, b):
    """(equal, max abs difference or None) of two call results."""
    fa, fb = _flat(a, []), _flat(b, [])
    if len(fa) != len(fb):
        return False, None
    worst = 0.0
    for x, y in zip(fa, fb):
        if isinstance(x, np.ndarray) or isinstance(y, np.ndarray):
            x, y = np.asarray(x), np.asarray(y)
            if x.shape != y.shape:
                return False, None
            if x.dtype.kind in "fciub" and y.dtype.kind in "fciub":
                if x.size:
                    worst = max(worst, float(np.max(np.abs(x.astype(np.float64) - y.astype(np.float64)))))
                continue
            if not np.array_equal(x, y):
                return False, None
        elif x != y:
            return False, None
    return worst <= 1e-5, worst


def _timed_round(function, calls, rounds, eager):
    config.run_functions_eagerly(eager)
    times, outputs = [], []
    try:
        with _quiet():
            for args, kwargs in calls:  # warm-up, outside the timing
                outputs.append(function(*args, **kwargs))
            for _ in range(rounds):
                for args, kwargs in calls:
                    start = time.perf_counter_ns()
                    function(*args, **kwargs)
                    times.append(time.perf_counter_ns() - start)
    finally:
        config.run_functions_eagerly(False)
    return times, outputs


def _side(times):
    return {"median_us": statistics.median(times) / 1000.0, "total_seconds": sum(times) / 1e9,
            "calls": len(times)}


def compare(function, recorded, rounds):
    """compare.json's content; raises ValueError when the function has no recorded call that ran as a graph."""
    calls = [(a, k) for a, k in recorded if concrete_of_call(function, a, k) is not None]
    if not calls:
        raise ValueError("%s was never called as a graph by the script, so there is nothing to compare (call it "
                         "once outside tf.config.run_functions_eagerly(True))" % function.__name__)
    eager_times, eager_out = _timed_round(function, calls, rounds, eager=True)
    graph_times, graph_out = _timed_round(function, calls, rounds, eager=False)
    equal, worst = True, 0.0
    for a, b in zip(eager_out, graph_out):
        same, diff = _difference(a, b)
        equal = equal and same
        worst = None if diff is None or worst is None else max(worst, diff)
    eager, graph = _side(eager_times), _side(graph_times)
    return {"function": function.__name__, "rounds": rounds, "recorded_calls": len(calls),
            "concrete_functions": sorted({concrete_of_call(function, a, k).name for a, k in calls}),
            "eager": eager, "graph": graph, "graph_speedup": eager["median_us"] / max(graph["median_us"], 1e-9),
            "outputs_equal": equal, "max_abs_difference": worst}


def table(result):
    lines = ["%s: %d recorded call(s) x %d rounds" % (result["function"], result["recorded_calls"], result["rounds"]),
             "%-8s %14s %14s" % ("", "median/call", "total"),
             "%-8s %11.1f us %12.6f s" % ("eager", result["eager"]["median_us"], result["eager"]["total_seconds"]),
             "%-8s %11.1f us %12.6f s" % ("graph", result["graph"]["median_us"], result["graph"]["total_seconds"])]
    speedup = result["graph_speedup"]
    verdict = "%.2fx %s than eager" % (speedup if speedup >= 1 else 1 / speedup, "faster" if speedup >= 1 else "slower")
    same = "outputs equal" if result["outputs_equal"] else "outputs DIFFER (max abs difference %s)" % (
        result["max_abs_difference"],)
    lines.append("graph is %s; %s" % (verdict, same))
    return "\n".join(lines)
