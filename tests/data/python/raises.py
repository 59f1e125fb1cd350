# A script that creates a tf.function, calls it, and then raises: the runner still lists what it traced.
import flowscope as tf


@tf.function
def double(x):
    return x * 2


print(double(tf.constant(21)))
raise RuntimeError("this script fails on purpose")
