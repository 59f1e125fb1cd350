# A small script for the script-runner tests: two tf.functions, a branch on a tensor and a loop over tf.range.
import flowscope as tf


@tf.function
def scaled_relu(x, scale):
    if tf.reduce_sum(x) > 0:
        y = tf.nn.relu(x) * scale
    else:
        y = -x
    return y


@tf.function
def running_sum(n):
    total = tf.constant(0)
    for i in tf.range(n):
        total += i * i
    return total


print(scaled_relu(tf.constant([1.0, -2.0, 3.0]), 2.0))
print(scaled_relu(tf.constant([-1.0, -2.0, 3.0]), 2.0))
print(running_sum(tf.constant(10)))
