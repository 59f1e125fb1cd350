"""tf.Variable: state in the engine's eager resource store. Created outside a function and read or updated inside
one, it is captured as a resource handle that every call feeds, so graph and eager code see the same value."""
from flowscope import _flowscope as _C
from flowscope import dtypes
from flowscope._shape import TensorShape
from flowscope._tensor import _numpy_text, convert_to_tensor


class Variable:
    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, shape=None, validate_shape=True):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        if callable(initial_value):
            initial_value = initial_value()
        value = convert_to_tensor(initial_value, dtype)
        if value._symbolic:
            raise ValueError("tf.function only supports singleton tf.Variables created on the first call. Make sure "
                             "the tf.Variable is only created once or created outside tf.function.")
        self._dtype = value.dtype
        self._shape = TensorShape(shape) if shape is not None else value.shape
        base = name or "Variable"
        self._name = base + ":0"
        self._trainable = trainable
        self._handle = _C._variable(value, base)

    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)
    name = property(lambda self: self._name)
    trainable = property(lambda self: self._trainable)
    handle = property(lambda self: self._handle)

    def get_shape(self):
        return self._shape

    def read_value(self):
        return _C.op("ReadVariableOp", [self._handle], {"dtype": _C.attr_type(self._dtype._enum)}, "ReadVariableOp")[0]

    value = read_value

    def _as_tensor(self, dtype=None):
        value = self.read_value()
        return value if dtype is None else convert_to_tensor(value, dtype)

    def _update(self, op_type, value, read_value):
        value = convert_to_tensor(value, self._dtype)
        if op_type == "AssignVariableOp" and not value.shape.is_compatible_with(self._shape):
            raise ValueError("Cannot assign value to variable ' %s': Shape mismatch.The variable shape %s, and the "
                             "assigned value shape %s are incompatible." % (self._name, self._shape, value.shape))
        _C.op(op_type, [self._handle, value], {"dtype": _C.attr_type(self._dtype._enum)}, op_type)
        return self.read_value() if read_value and _C.in_tracing() else self

    def assign(self, value, use_locking=False, name=None, read_value=True):
        return self._update("AssignVariableOp", value, read_value)

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        return self._update("AssignAddVariableOp", delta, read_value)

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        return self._update("AssignSubVariableOp", delta, read_value)

    def numpy(self):
        return self.read_value().numpy()

    def __array__(self, dtype=None):
        return self.read_value().__array__(dtype)

    def __bool__(self):
        return bool(self.read_value())

    def __int__(self):
        return int(self.read_value())

    def __float__(self):
        return float(self.read_value())

    def __index__(self):
        return int(self.read_value())

    def __repr__(self):
        if _C.in_tracing():
            return "<tf.Variable '%s' shape=%s dtype=%s>" % (self._name, self._shape, self._dtype.name)
        return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
            self._name, self._shape, self._dtype.name, _numpy_text(self.read_value(), True))

    def __getitem__(self, key):
        return self.read_value()[key]

    __array_priority__ = 100


def _delegate(method):
    def fn(self, *args):
        return getattr(self.read_value(), method)(*args)

    fn.__name__ = method
    return fn


for _method in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__rtruediv__",
                "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__", "__matmul__",
                "__rmatmul__", "__neg__", "__abs__", "__gt__", "__lt__", "__ge__", "__le__", "__and__", "__or__",
                "__invert__"):
    setattr(Variable, _method, _delegate(_method))
del _method
Variable.__hash__ = object.__hash__
