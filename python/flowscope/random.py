"""tf.random: uniform and normal draws (RandomUniform, RandomUniformInt, RandomStandardNormal) and set_seed."""
import os

from flowscope import _flowscope as _C
from flowscope import dtypes
from flowscope._missing import missing_attribute
from flowscope._tensor import convert_to_tensor
from flowscope.ops import _one, cast

_global_seed = None


def set_seed(seed):
    """Makes eager random draws reproducible from here on."""
    global _global_seed
    _global_seed = seed
    _C._seed(int(seed) & 0xFFFFFFFFFFFFFFFF)


def _seeds(seed):
    return {"seed": 0 if seed is None else int(seed), "seed2": 0 if seed is None else int(seed)}


def _shape(shape):
    return convert_to_tensor(shape, dtypes.int32)


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer:
        if maxval is None:
            raise ValueError("Must specify maxval for integer dtype %s" % dtype)
        lo, hi = convert_to_tensor(minval, dtype), convert_to_tensor(maxval, dtype)
        return _one("RandomUniformInt", [_shape(shape), lo, hi], _seeds(seed), name or "random_uniform")
    maxval = 1 if maxval is None else maxval
    unit = _one("RandomUniform", [_shape(shape)], dict(_seeds(seed), dtype=_C.attr_type(dtype.as_datatype_enum)),
                name or "random_uniform")
    lo, hi = convert_to_tensor(minval, dtype), convert_to_tensor(maxval, dtype)
    return unit * (hi - lo) + lo


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None):
    dtype = dtypes.as_dtype(dtype)
    unit = _one("RandomStandardNormal", [_shape(shape)],
                dict(_seeds(seed), dtype=_C.attr_type(dtype.as_datatype_enum)), name or "random_normal")
    return unit * convert_to_tensor(stddev, dtype) + convert_to_tensor(mean, dtype)


_C._seed(int.from_bytes(os.urandom(8), "little"))
__all__ = ["uniform", "normal", "set_seed", "cast"]
__getattr__ = missing_attribute(__name__, "tf.random")
