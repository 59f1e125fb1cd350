"""tf.dtypes: TensorFlow's data types (the wire enum values of types.proto) and their NumPy counterparts."""
import numpy as np

from flowscope._missing import missing_attribute


class DType:
    """A tensor element type: tf.float32, tf.int32, ..."""

    __slots__ = ("_enum", "_name", "_numpy")
    _by_enum = {}

    def __init__(self, enum, name, numpy_type):
        self._enum = enum
        self._name = name
        self._numpy = numpy_type
        DType._by_enum[enum] = self

    name = property(lambda self: self._name)
    as_datatype_enum = property(lambda self: self._enum)
    as_numpy_dtype = property(lambda self: self._numpy)
    is_floating = property(lambda self: self._name in ("float16", "bfloat16", "float32", "float64"))
    is_integer = property(lambda self: self._name.startswith(("int", "uint")))
    is_complex = property(lambda self: self._name.startswith("complex"))
    is_bool = property(lambda self: self._name == "bool")
    is_unsigned = property(lambda self: self._name.startswith("uint"))

    @property
    def min(self):
        return np.finfo(self._numpy).min if self.is_floating else np.iinfo(self._numpy).min

    @property
    def max(self):
        return np.finfo(self._numpy).max if self.is_floating else np.iinfo(self._numpy).max

    def __repr__(self):
        return "tf." + self._name

    def __str__(self):
        return "<dtype: '%s'>" % self._name

    def __eq__(self, other):
        if isinstance(other, DType):
            return self._enum == other._enum
        try:
            return self._enum == as_dtype(other)._enum
        except TypeError:
            return False

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return self._enum

    def __reduce__(self):
        return as_dtype, (self._name,)


float32 = DType(1, "float32", np.float32)
float64 = DType(2, "float64", np.float64)
int32 = DType(3, "int32", np.int32)
uint8 = DType(4, "uint8", np.uint8)
int16 = DType(5, "int16", np.int16)
int8 = DType(6, "int8", np.int8)
string = DType(7, "string", np.object_)
complex64 = DType(8, "complex64", np.complex64)
int64 = DType(9, "int64", np.int64)
bool = DType(10, "bool", np.bool_)  # noqa: A001 (TensorFlow's name)
bfloat16 = DType(14, "bfloat16", None)
uint16 = DType(17, "uint16", np.uint16)
complex128 = DType(18, "complex128", np.complex128)
float16 = DType(19, "float16", np.float16)
resource = DType(20, "resource", None)
variant = DType(21, "variant", None)
uint32 = DType(22, "uint32", np.uint32)
uint64 = DType(23, "uint64", np.uint64)
half = float16
double = float64

_BY_NAME = {d.name: d for d in DType._by_enum.values()}
_BY_NAME.update({"half": float16, "double": float64, "float": float32})
_BY_NUMPY = {np.dtype(d.as_numpy_dtype): d for d in DType._by_enum.values()
             if d.as_numpy_dtype not in (None, np.object_)}


def as_dtype(type_value):
    """A DType from a DType, its name, its enum value, or a NumPy/Python type."""
    if isinstance(type_value, DType):
        return type_value
    if isinstance(type_value, str):
        if type_value in _BY_NAME:
            return _BY_NAME[type_value]
    elif isinstance(type_value, int) and not isinstance(type_value, type(True)):
        if type_value in DType._by_enum:
            return DType._by_enum[type_value]
    else:
        if type_value is float:
            return float32
        if type_value is int:
            return int32
        if type_value is type(True):
            return bool
        if type_value in (bytes, str, np.bytes_, np.str_, np.object_):
            return string
        try:
            return _BY_NUMPY[np.dtype(type_value)]
        except (TypeError, KeyError):
            pass
    raise TypeError("Cannot convert value %r to a TensorFlow DType." % (type_value,))


def _of_enum(enum):
    return DType._by_enum[enum]


__getattr__ = missing_attribute(__name__, "tf.dtypes")
