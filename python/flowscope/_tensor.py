"""tf.Tensor's Python side: dtype and shape objects, NumPy conversion, TensorFlow's str/repr, and
convert_to_tensor/constant. The class itself and its arithmetic operators are C++ (flowscope._flowscope.Tensor)."""
import numpy as np

from flowscope import _flowscope as _C
from flowscope import dtypes
from flowscope._shape import TensorShape
from flowscope.errors import OperatorNotAllowedInGraphError

Tensor = _C.Tensor
_INT32 = np.iinfo(np.int32)


def _is_symbolic_error(what):
    return OperatorNotAllowedInGraphError(
        "Using a symbolic `tf.Tensor` as a Python `%s` is not allowed in Graph execution. Use Eager execution or "
        "decorate this function with @tf.function." % what)


def _ndarray_of(value):
    """A Python value as an ndarray with TensorFlow's default dtypes (int32, float32, string as bytes)."""
    if isinstance(value, np.ndarray):
        return value
    if isinstance(value, np.generic):
        return np.asarray(value)
    try:
        array = np.array(value)
    except ValueError:
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
    if array.dtype == np.object_ and array.size and not all(isinstance(v, (bytes, str)) for v in array.flat):
        raise ValueError("Can't convert non-rectangular Python sequence to Tensor.")
    if array.dtype == np.int64 and (array.size == 0 or (array.min() >= _INT32.min and array.max() <= _INT32.max)):
        return array.astype(np.int32)
    if array.dtype == np.float64 and not isinstance(value, np.ndarray):
        return array.astype(np.float32)
    if array.dtype.kind == "U":
        return np.array([s.encode() for s in array.flat], dtype=object).reshape(array.shape)
    return array


def _cast_array(array, dtype, value):
    if dtype == dtypes.string:
        return array
    target = np.dtype(dtype.as_numpy_dtype)
    if array.dtype.kind == "f" and target.kind in "iub" or array.dtype.kind == "c" and target.kind != "c":
        if not np.array_equal(array, array.astype(target)) or target.kind == "b":
            raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))
    if array.dtype.kind in "SUO" and target.kind not in "SUO":
        raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))
    if target.kind in "iu" and array.size and array.dtype.kind in "iu":
        info = np.iinfo(target)
        if array.min() < info.min or array.max() > info.max:
            raise TypeError("Cannot convert %r to EagerTensor of dtype %s" % (value, dtype.name))
    return array.astype(target, copy=False)


def convert_to_tensor(value, dtype=None, dtype_hint=None, name=None):
    """A Tensor for `value` (a Tensor, Variable, Python value or ndarray), of `dtype` when given."""
    dtype = dtypes.as_dtype(dtype) if dtype is not None else None
    if isinstance(value, Tensor):
        if dtype is not None and value._dtype != dtype.as_datatype_enum:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (dtype.name, dtypes._of_enum(value._dtype).name, value))
        return value
    if hasattr(value, "_as_tensor"):
        return value._as_tensor(dtype)
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
        from flowscope import ops
        return ops.stack([convert_to_tensor(v, dtype) for v in value])
    array = _ndarray_of(value)
    if dtype is None and dtype_hint is not None:
        try:
            array = _cast_array(array, dtypes.as_dtype(dtype_hint), value)
        except TypeError:
            pass
    if dtype is not None:
        array = _cast_array(array, dtype, value)
    return Tensor._from_numpy(array)


def _convert_for_operator(value, dtype_enum):
    return convert_to_tensor(value, dtypes._of_enum(dtype_enum))


def constant(value, dtype=None, shape=None, name="Const"):
    t = convert_to_tensor(value, dtype)
    if shape is not None:
        array = t._view()
        shape = tuple(shape)
        if array.size == 1:
            array = np.broadcast_to(array.reshape(()), shape)
        elif int(np.prod(shape)) == array.size:
            array = array.reshape(shape)
        else:
            raise TypeError("Eager execution of tf.constant with unsupported shape. Tensor %r (converted from %r) "
                            "has %d elements, but got `shape` %s with %d elements)."
                            % (t, value, array.size, shape, int(np.prod(shape))))
        t = Tensor._from_numpy(np.ascontiguousarray(array))
    if _C.in_tracing():
        return _C.op("Const", [], {"value": _C.attr_tensor(t), "dtype": _C.attr_type(t._dtype)}, name)[0]
    return t


def _numpy_text(t, is_repr):
    array = t._view()
    if array.ndim == 0:
        array = array[()]
    text = repr(array) if is_repr else str(array)
    return "\n" + text if "\n" in text else text


def _name(t):
    if not t._symbolic:
        raise AttributeError("Tensor.name is undefined when eager execution is enabled.")
    return "%s:%d" % (t._node, t._index)


def _tensor_str(t):
    if t._symbolic:
        return 'Tensor("%s", shape=%s, dtype=%s)' % (_name(t), t.shape, t.dtype.name)
    return "tf.Tensor(%s, shape=%s, dtype=%s)" % (_numpy_text(t, False), t.shape, t.dtype.name)


def _tensor_repr(t):
    if t._symbolic:
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (_name(t), t.shape, t.dtype.name)
    return "<tf.Tensor: shape=%s, dtype=%s, numpy=%s>" % (t.shape, t.dtype.name, _numpy_text(t, True))


def _numpy(t):
    if t._symbolic:
        raise AttributeError("'Tensor' object has no attribute 'numpy'")
    array = np.array(t._view())
    return array[()] if array.ndim == 0 else array


def _array(t, dtype=None):
    if t._symbolic:
        raise NotImplementedError(
            "Cannot convert a symbolic tf.Tensor (%s) to a numpy array. This error may indicate that you're trying "
            "to pass a Tensor to a NumPy call, which is not supported." % _name(t))
    array = t._view()
    return array if dtype is None else array.astype(dtype)


def _bool(t):
    if t._symbolic:
        raise _is_symbolic_error("bool")
    return bool(t._view())


def _iter(t):
    if t._symbolic:
        raise OperatorNotAllowedInGraphError(
            "Iterating over a symbolic `tf.Tensor` is not allowed in Graph execution. Use Eager execution or "
            "decorate this function with @tf.function.")
    if t.shape.rank == 0:
        raise TypeError("Cannot iterate over a scalar tensor.")
    return (Tensor._from_numpy(np.array(row)) for row in t._view())


def _len(t):
    if t.shape.rank is None or t.shape.rank == 0 or t.shape[0] is None:
        raise TypeError("len is not well defined for a rank-0 or symbolic Tensor.")
    return t.shape[0]


def _hash(t):
    raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")


def _equal(t, other):
    from flowscope import ops
    try:
        return ops.equal(t, other)
    except (TypeError, ValueError):
        return False


def _not_equal(t, other):
    from flowscope import ops
    try:
        return ops.not_equal(t, other)
    except (TypeError, ValueError):
        return True


def _format(t, spec):
    return str(t) if not spec else format(_numpy(t), spec)


def _install():
    Tensor.dtype = property(lambda t: dtypes._of_enum(t._dtype))
    Tensor.shape = property(lambda t: TensorShape(t._shape))
    Tensor.ndim = property(lambda t: len(t._shape) if t._shape is not None else None)
    Tensor.name = property(_name)
    Tensor.device = property(lambda t: "" if t._symbolic else "/job:localhost/replica:0/task:0/device:CPU:0")
    Tensor.get_shape = lambda t: t.shape
    Tensor.numpy = _numpy
    Tensor.__array__ = _array
    Tensor.__array_priority__ = 100
    Tensor.__str__ = _tensor_str
    Tensor.__repr__ = _tensor_repr
    Tensor.__format__ = _format
    Tensor.__bool__ = _bool
    Tensor.__iter__ = _iter
    Tensor.__len__ = _len
    Tensor.__hash__ = _hash
    Tensor.__eq__ = _equal
    Tensor.__ne__ = _not_equal
    Tensor.__int__ = lambda t: int(_array(t))
    Tensor.__float__ = lambda t: float(_array(t))
    Tensor.__index__ = lambda t: int(_array(t))
    Tensor.__getitem__ = lambda t, key: __import__("flowscope.ops", fromlist=["x"])._getitem(t, key)
    Tensor.ref = lambda t: _Reference(t)
    _C._set_converter(_convert_for_operator)


class _Reference:
    """tensor.ref(): a hashable handle to a tensor, by identity."""

    def __init__(self, t):
        self._t = t

    def deref(self):
        return self._t

    def __hash__(self):
        return id(self._t)

    def __eq__(self, other):
        return isinstance(other, _Reference) and other._t is self._t


_install()
