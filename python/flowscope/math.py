"""tf.math: the element-wise and reduction ops under their tf.math names."""
from flowscope._missing import missing_attribute
from flowscope.ops import (abs, add, argmax, ceil, cos, divide, equal, exp, floor, floordiv, floormod,  # noqa: F401
                           greater, greater_equal, less, less_equal, log, logical_and, logical_not, logical_or,
                           maximum, minimum, multiply, negative, not_equal, pow, reduce_all, reduce_any, reduce_max,
                           reduce_mean, reduce_min, reduce_prod, reduce_sum, round, rsqrt, sigmoid, sign, sin, sqrt,
                           square, squared_difference, subtract, tanh)

__getattr__ = missing_attribute(__name__, "tf.math")
