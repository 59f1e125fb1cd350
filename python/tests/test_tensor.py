"""flowscope.Tensor from Python: TensorFlow's str/repr, NumPy interop (zero copy out), conversion rules, errors."""
import unittest

import numpy as np

import flowscope as tf


class TensorFormatTest(unittest.TestCase):
    def test_str_and_repr_as_tensorflow(self):
        self.assertEqual(str(tf.constant([1.0, 0.0])), "tf.Tensor([1. 0.], shape=(2,), dtype=float32)")
        self.assertEqual(repr(tf.constant(10)), "<tf.Tensor: shape=(), dtype=int32, numpy=10>")
        self.assertEqual(str(tf.constant(5.5)), "tf.Tensor(5.5, shape=(), dtype=float32)")
        self.assertEqual(str(tf.constant([[1, 2], [3, 4]])),
                         "tf.Tensor(\n[[1 2]\n [3 4]], shape=(2, 2), dtype=int32)")
        self.assertEqual(str(tf.constant([[12.0]])), "tf.Tensor([[12.]], shape=(1, 1), dtype=float32)")
        self.assertEqual(repr(tf.constant([1.0, 0.0])),
                         "<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>")

    def test_dtype_and_shape_objects(self):
        t = tf.zeros([2, 3], dtype=tf.int64)
        self.assertEqual(t.dtype, tf.int64)
        self.assertEqual(repr(t.dtype), "tf.int64")
        self.assertEqual(str(t.dtype), "<dtype: 'int64'>")
        self.assertEqual(t.shape, (2, 3))
        self.assertEqual(repr(t.shape), "TensorShape([2, 3])")


class NumpyTest(unittest.TestCase):
    def test_array_interface_is_a_zero_copy_read_only_view(self):
        t = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
        a, b = np.asarray(t), np.asarray(t)
        self.assertTrue(np.shares_memory(a, b))
        self.assertFalse(a.flags.writeable)
        self.assertEqual(a.dtype, np.float32)
        self.assertEqual(a.shape, (3, 4))

    def test_numpy_copies_and_scalars_are_numpy_scalars(self):
        t = tf.constant([1, 2, 3])
        n = t.numpy()
        n[0] = 7
        self.assertEqual(t.numpy()[0], 1)
        self.assertIsInstance(tf.constant(3).numpy(), np.int32)

    def test_default_dtypes_follow_tensorflow(self):
        self.assertEqual(tf.constant(1).dtype, tf.int32)
        self.assertEqual(tf.constant(1.5).dtype, tf.float32)
        self.assertEqual(tf.constant(np.float64(1.5)).dtype, tf.float64)
        self.assertEqual(tf.constant(True).dtype, tf.bool)
        self.assertEqual(tf.constant("hi").dtype, tf.string)
        self.assertEqual(tf.constant(2 ** 40).dtype, tf.int64)

    def test_non_rectangular_list_is_refused(self):
        with self.assertRaisesRegex(ValueError, "non-rectangular"):
            tf.constant([[1, 2], [3]])


class OperatorTest(unittest.TestCase):
    def test_python_scalars_take_the_tensor_dtype(self):
        self.assertEqual((tf.constant(2) + 3).numpy(), 5)
        self.assertEqual((4 + tf.constant(2)).numpy(), 6)
        self.assertAlmostEqual(float(tf.constant(1.5) * 2), 3.0)
        with self.assertRaisesRegex(TypeError, "Cannot convert 1.5 to EagerTensor of dtype int32"):
            tf.constant(1) + 1.5

    def test_true_division_of_ints_is_float64(self):
        self.assertEqual((tf.constant(3) / tf.constant(2)).dtype, tf.float64)

    def test_integer_mean_truncates(self):
        self.assertEqual(tf.reduce_mean(tf.constant([1, 2])).numpy(), 1)

    def test_gather_error_is_tensorflows(self):
        with self.assertRaises(tf.errors.InvalidArgumentError) as caught:
            tf.gather(tf.constant([0.0]), [1])
        self.assertEqual(str(caught.exception), "indices[0] = 1 is not in [0, 1) [Op:GatherV2]")

    def test_dtype_mismatch_between_tensors(self):
        with self.assertRaisesRegex(tf.errors.InvalidArgumentError,
                                    r"cannot compute AddV2 as input #1\(zero-based\) was expected to be a int32 "
                                    r"tensor but is a float tensor \[Op:AddV2\]"):
            tf.constant(1) + tf.constant(1.0)
        with self.assertRaisesRegex(TypeError, "Input 'y' of 'AddV2' Op has type float32 that does not match type "
                                               "int32 of argument 'x'."):
            tf.function(lambda x: x + tf.constant(1.5))(tf.constant(1))
        with self.assertRaises(tf.errors.InvalidArgumentError):
            tf.maximum(tf.constant(1), tf.constant(1.0))

    def test_missing_api_names_itself(self):
        with self.assertRaisesRegex(AttributeError, "tf.keras is not in Flowscope's TensorFlow subset"):
            tf.keras
        with self.assertRaisesRegex(AttributeError, "tf.nn.conv2d"):
            tf.nn.conv2d

    def test_bool_of_tensor(self):
        self.assertTrue(bool(tf.constant(True)))
        self.assertFalse(bool(tf.constant([0])))

    def test_ops_give_known_values(self):
        np.testing.assert_array_equal(tf.eye(2, dtype=tf.int32).numpy(), [[1, 0], [0, 1]])
        np.testing.assert_array_equal(tf.range(5).numpy(), [0, 1, 2, 3, 4])
        np.testing.assert_array_equal(tf.concat([[1], [2, 3]], 0).numpy(), [1, 2, 3])
        np.testing.assert_array_equal(tf.reshape(tf.range(6), [2, 3]).numpy(), [[0, 1, 2], [3, 4, 5]])
        np.testing.assert_allclose(tf.nn.softmax(tf.constant([0.0, 0.0])).numpy(), [0.5, 0.5])
        np.testing.assert_array_equal(tf.nn.relu(tf.constant([-1.0, 2.0])).numpy(), [0.0, 2.0])
        np.testing.assert_array_equal(tf.matmul([[1.0, 2.0]], [[2.0], [3.0]]).numpy(), [[8.0]])
        np.testing.assert_array_equal(tf.cast(tf.constant([1.7]), tf.int32).numpy(), [1])
        self.assertEqual(tf.pow(tf.constant(3), 2).numpy(), 9)
        np.testing.assert_array_equal(tf.range(6)[2:4].numpy(), [2, 3])

    def test_random_stays_in_range(self):
        x = tf.random.uniform([1000], maxval=10, dtype=tf.int32)
        self.assertTrue(np.all((x.numpy() >= 0) & (x.numpy() < 10)))
        self.assertGreater(len(set(x.numpy().tolist())), 5)
        n = tf.random.normal([4000])
        self.assertLess(abs(float(np.mean(n.numpy()))), 0.1)
        with self.assertRaisesRegex(ValueError, "Must specify maxval for integer dtype"):
            tf.random.uniform([2], dtype=tf.int32)


class CoexistenceTest(unittest.TestCase):
    def test_pytorch_loads_beside_flowscope(self):
        """Both register protobuf schemas in one process: file names must not collide (a collision aborts)."""
        import subprocess
        import sys
        code = ("import flowscope as tf\ntry:\n    import torch\nexcept ImportError:\n    pass\n"
                "print(tf.constant(1) + 1)")
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertEqual(run.stdout, "tf.Tensor(2, shape=(), dtype=int32)\n")


if __name__ == "__main__":
    unittest.main()
