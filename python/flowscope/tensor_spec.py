"""tf.TensorSpec: what a tensor argument must be (dtype, shape with None for any size)."""
from flowscope import dtypes
from flowscope._shape import TensorShape, as_shape


class TensorSpec:
    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self._shape = as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._name = name

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    name = property(lambda self: self._name)

    @classmethod
    def from_tensor(cls, tensor, name=None):
        return cls(tensor.shape, tensor.dtype, name)

    def is_compatible_with(self, value):
        if isinstance(value, TensorSpec):
            return self._dtype == value.dtype and self._shape.is_compatible_with(value.shape)
        return self._dtype == value.dtype and self._shape.is_compatible_with(TensorShape(value.shape))

    def __eq__(self, other):
        return (isinstance(other, TensorSpec) and self._shape == other._shape and self._dtype == other._dtype
                and self._name == other._name)

    def __hash__(self):
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self):
        return "TensorSpec(shape=%s, dtype=%r, name=%r)" % (self._shape, self._dtype, self._name)
