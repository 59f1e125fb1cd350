"""tf.function from Python: tracing rules (TensorFlow's), Variables, tf.print, GraphDefs that load in Flowscope."""
import io
import os
import subprocess
import tempfile
import unittest
from contextlib import redirect_stdout

import numpy as np

import flowscope as tf


class TracingRulesTest(unittest.TestCase):
    def test_tensors_bind_by_dtype_and_shape(self):
        f = tf.function(lambda x: x * 2)
        f(tf.constant(1))
        f(tf.constant(5))
        self.assertEqual(f.experimental_get_tracing_count(), 1)
        f(tf.constant([1, 2]))
        f(tf.constant(1.0))
        self.assertEqual(f.experimental_get_tracing_count(), 3)

    def test_python_values_bind_by_value_with_side_effects(self):
        traced = []

        @tf.function
        def f(x, n):
            traced.append(n)
            return x + n

        self.assertEqual(f(tf.constant(1), 2).numpy(), 3)
        self.assertEqual(f(tf.constant(1), 3).numpy(), 4)
        self.assertEqual(f(tf.constant(7), 3).numpy(), 10)
        self.assertEqual(traced, [2, 3])
        self.assertEqual(f.experimental_get_tracing_count(), 2)

    def test_input_signature_fixes_one_trace_and_rejects_misfits(self):
        f = tf.function(lambda x: x + 1, input_signature=[tf.TensorSpec([None], tf.float32)])
        self.assertEqual(f(tf.constant([1.0, 2.0])).numpy().tolist(), [2.0, 3.0])
        f(tf.constant([1.0, 2.0, 3.0]))
        self.assertEqual(f.experimental_get_tracing_count(), 1)
        with self.assertRaisesRegex(ValueError, r"Python inputs incompatible with input_signature:\n  inputs: \(\n"
                                                r"    tf.Tensor\(\[1 2 3\], shape=\(3,\), dtype=int32\)\)\n"
                                                r"  input_signature: \(\n    TensorSpec\(shape=\(None,\), "
                                                r"dtype=tf.float32, name=None\)\)."):
            f(tf.constant([1, 2, 3]))

    def test_reduce_retracing_relaxes_shapes(self):
        f = tf.function(lambda x: x + 1, reduce_retracing=True)
        f(tf.constant([1]))
        f(tf.constant([1, 2]))
        f(tf.constant([1, 2, 3]))
        self.assertEqual(f.experimental_get_tracing_count(), 2)
        self.assertIn("shape=(None,)", f.pretty_printed_concrete_signatures())

    def test_nested_functions_are_traced_into_the_caller(self):
        inner = tf.function(lambda x: x * x)
        outer = tf.function(lambda x: inner(x) + 1)
        self.assertEqual(outer(tf.constant(3)).numpy(), 10)
        text = str(outer.get_concrete_function(tf.constant(3)).graph.as_graph_def())
        self.assertNotIn("PartitionedCall", text)
        self.assertIn('op: "Mul"', text)

    def test_run_functions_eagerly_runs_python_every_call(self):
        calls = []
        f = tf.function(lambda x: calls.append(1) or x)
        tf.config.run_functions_eagerly(True)
        try:
            f(tf.constant(1))
            f(tf.constant(1))
        finally:
            tf.config.run_functions_eagerly(False)
        self.assertEqual(len(calls), 2)
        self.assertEqual(f.experimental_get_tracing_count(), 0)

    def test_non_strict_execution_prunes_unused_failing_ops(self):
        @tf.function
        def f(x):
            tf.gather(x, [1])
            return x

        self.assertEqual(f(tf.constant([0.0])).numpy().tolist(), [0.0])

    def test_structured_outputs(self):
        f = tf.function(lambda x: {"a": x, "b": (x + 1, 2)})
        out = f(tf.constant(1))
        self.assertEqual(out["a"].numpy(), 1)
        self.assertEqual(out["b"][0].numpy(), 2)
        self.assertEqual(out["b"][1].numpy(), 2)


class VariableTest(unittest.TestCase):
    def test_variable_created_outside_updated_inside(self):
        v = tf.Variable(1.0)

        @tf.function
        def bump(x):
            v.assign_add(x)
            return v.read_value()

        self.assertEqual(bump(tf.constant(2.0)).numpy(), 3.0)
        self.assertEqual(bump(tf.constant(2.0)).numpy(), 5.0)
        self.assertEqual(v.numpy(), 5.0)
        v.assign(10.0)
        self.assertEqual(bump(tf.constant(1.0)).numpy(), 11.0)
        self.assertEqual(bump.experimental_get_tracing_count(), 1)
        self.assertEqual(repr(v), "<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=11.0>")


class PrintTest(unittest.TestCase):
    def test_tf_print_runs_every_call_in_order_with_print(self):
        @tf.function
        def f(x):
            print("tracing")
            tf.print("value", x, output_stream=__import__("sys").stdout)
            return x

        out = io.StringIO()
        with redirect_stdout(out):
            f(tf.constant(1))
            print("between")
            f(tf.constant(2))
        self.assertEqual(out.getvalue(), "tracing\nvalue 1\nbetween\nvalue 2\n")


class GraphDefTest(unittest.TestCase):
    def test_graph_def_writes_and_loads_in_flowscope(self):
        f = tf.function(lambda x: tf.nn.relu(tf.matmul(x, x)))
        graph_def = f.get_concrete_function(tf.TensorSpec([2, 2], tf.float32, name="x")).graph.as_graph_def()
        self.assertIn('op: "MatMul"', str(graph_def))
        with tempfile.TemporaryDirectory() as d:
            text = tf.io.write_graph(graph_def, d, "g.pbtxt")
            binary = tf.io.write_graph(graph_def, d, "g.pb", as_text=False)
            with open(binary, "rb") as f:  # protobuf maps serialize in any order: compare sizes
                self.assertEqual(len(f.read()), len(graph_def.SerializeToString()))
            flowscope = os.environ.get("FLOWSCOPE_BINARY")
            if not flowscope:
                self.skipTest("FLOWSCOPE_BINARY is not set")
            for path in (text, binary):
                info = subprocess.run([flowscope, "info", path], capture_output=True, text=True)
                self.assertEqual(info.returncode, 0, info.stderr)
                self.assertIn("MatMul", info.stdout)
            np.save(os.path.join(d, "x.npy"), np.array([[1, -2], [3, 4]], dtype=np.float32))
            run = subprocess.run([flowscope, "run", binary, "--input", "x=" + os.path.join(d, "x.npy")],
                                 capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr + run.stdout)


if __name__ == "__main__":
    unittest.main()
