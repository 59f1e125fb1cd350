"""Flowscope from Python against PyTorch and NumPy, in one run: eager dispatch of a 1-element add (per op) and the
fixed cost of calling a tf.function with a cached trace (the call minus the graph's own run, timed from C++), plus
the guide's power() loop eager and as a graph. Prints one JSON object with the figures and ratios.

usage: PYTHONPATH=build/python /usr/bin/python3 tests/bench/python_bench.py [--threads N] [--quick]
Targets (issue 13): eager add <= 1.5 us per op; Function call fixed cost <= 5 us."""
import argparse
import json
import os
import timeit

import numpy as np


def best_per_call(fn, number, repeat=5):
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number


def flowscope_figures(number):
    import flowscope as tf
    a, b = tf.constant([1.0]), tf.constant([2.0])
    figures = {"eager_add_us": best_per_call(lambda: a + b, number) * 1e6,
               "eager_tf_add_us": best_per_call(lambda: tf.add(a, b), number) * 1e6}
    f = tf.function(lambda x: x + 1.0)
    f(a)
    call = best_per_call(lambda: f(a), number // 4)
    concrete = f.get_concrete_function(a)
    graph_only = min(concrete._cf._time_runs([a], number // 4) for _ in range(5))
    figures.update(function_call_us=call * 1e6, graph_run_us=graph_only * 1e6,
                   function_fixed_cost_us=(call - graph_only) * 1e6)
    x = tf.random.uniform([10, 10], minval=-1, maxval=2, dtype=tf.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    power_graph = tf.function(power)
    power_graph(x, 100)
    figures["power_eager_us"] = best_per_call(lambda: power(x, 100), 50) * 1e6
    figures["power_graph_us"] = best_per_call(lambda: power_graph(x, 100), 200) * 1e6
    return figures


def torch_figures(number, threads):
    try:
        import torch
    except ImportError:
        return {}
    torch.set_num_threads(threads)
    a, b = torch.tensor([1.0]), torch.tensor([2.0])
    figures = {"torch_eager_add_us": best_per_call(lambda: a + b, number) * 1e6}
    traced = torch.jit.trace(lambda x: x + 1.0, (a,))
    traced(a)
    figures["torch_jit_call_us"] = best_per_call(lambda: traced(a), number // 4) * 1e6
    return figures


def numpy_figures(number):
    x, y = np.array([1.0], np.float32), np.array([2.0], np.float32)
    return {"numpy_add_us": best_per_call(lambda: x + y, number) * 1e6}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    number = 20000 if args.quick else 200000
    import flowscope as tf
    tf._C.set_threads(args.threads)
    figures = {"threads": args.threads, "cpus": os.cpu_count()}
    figures.update(flowscope_figures(number))
    figures.update(torch_figures(number, args.threads))
    figures.update(numpy_figures(number))
    ratios = {"eager_add_vs_numpy": figures["eager_add_us"] / figures["numpy_add_us"],
              "power_graph_speedup": figures["power_eager_us"] / figures["power_graph_us"],
              "targets_met": {"eager_add_le_1.5us": figures["eager_add_us"] <= 1.5,
                              "function_fixed_cost_le_5us": figures["function_fixed_cost_us"] <= 5.0}}
    if "torch_eager_add_us" in figures:
        ratios["eager_add_vs_torch"] = figures["eager_add_us"] / figures["torch_eager_add_us"]
        ratios["function_call_vs_torch_jit"] = figures["function_call_us"] / figures["torch_jit_call_us"]
    figures["ratios"] = ratios
    print(json.dumps(figures, indent=1, sort_keys=True))


if __name__ == "__main__":
    main()
