"""Flowscope's TensorFlow subset: `import flowscope as tf` runs tf.function code (tracing, AutoGraph, eager ops) on
Flowscope's engine. A name outside the subset raises AttributeError naming it; nothing silently does something else."""
from flowscope import _flowscope as _C
from flowscope import dtypes, errors
from flowscope.dtypes import (DType, as_dtype, bfloat16, bool, complex64, complex128, double, float16,  # noqa: F401
                              float32, float64, half, int8, int16, int32, int64, resource, string, uint8, uint16,
                              uint32, uint64, variant)
from flowscope._missing import missing_attribute
from flowscope._shape import TensorShape
from flowscope._tensor import Tensor, constant, convert_to_tensor
from flowscope.tensor_spec import TensorSpec
from flowscope.variables import Variable
from flowscope.ops import (abs, add, argmax, cast, concat, divide, equal, exp, expand_dims, eye, fill,  # noqa: F401
                           gather, greater, greater_equal, identity, less, less_equal, log, logical_and, logical_not,
                           logical_or, matmul, maximum, minimum, multiply, negative, not_equal, ones, ones_like, pow,
                           print, range, reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min, reduce_prod,
                           reduce_sum, reshape, shape, sigmoid, size, sqrt, square, squeeze, stack, subtract, tanh,
                           transpose, where, zeros, zeros_like)
from flowscope.ops import rank_of as rank  # noqa: F401
from flowscope.control_flow import cond, while_loop  # noqa: F401
from flowscope.function import Function, function  # noqa: F401
from flowscope.concrete_function import ConcreteFunction  # noqa: F401
from flowscope import config, io, math, nn, random  # noqa: F401
from flowscope import autograph  # noqa: F401

__version__ = "0.1"
newaxis = None

__getattr__ = missing_attribute(__name__, "tf")
