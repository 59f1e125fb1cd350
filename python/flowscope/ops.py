"""The ops of Flowscope's TensorFlow subset: each runs eagerly, or adds a node to the graph being traced, named as
TensorFlow's Python API names it."""
import sys

import numpy as np

from flowscope import _flowscope as _C
from flowscope import dtypes
from flowscope._tensor import Tensor, constant, convert_to_tensor


def _op(op_type, inputs, attrs=None, name=None):
    return _C.op(op_type, inputs, attrs or {}, name or op_type)


def _one(op_type, inputs, attrs=None, name=None):
    return _op(op_type, inputs, attrs, name)[0]


def _pair(x, y):
    """Converts two operands the way TensorFlow's binary ops do: Python values take the tensor side's dtype."""
    if isinstance(x, Tensor):
        return x, y if isinstance(y, Tensor) else convert_to_tensor(y, x.dtype)
    if isinstance(y, Tensor):
        return convert_to_tensor(x, y.dtype), y
    x = convert_to_tensor(x)
    return x, convert_to_tensor(y, x.dtype)


def _binary(op_type, default_name):
    def fn(x, y, name=None):
        if type(x) is Tensor and type(y) is Tensor and x._dtype == y._dtype:  # the common case, no conversions
            return _C.op(op_type, [x, y], {}, name or default_name)[0]
        a, b = _pair(x, y)
        _C._check_same_dtype(op_type, a, b)
        return _one(op_type, [a, b], name=name or default_name)

    fn.__name__ = default_name.lower()
    return fn


add = _binary("AddV2", "Add")
subtract = _binary("Sub", "Sub")
multiply = _binary("Mul", "Mul")
maximum = _binary("Maximum", "Maximum")
minimum = _binary("Minimum", "Minimum")
pow = _binary("Pow", "Pow")  # noqa: A001 (TensorFlow's name)
greater = _binary("Greater", "Greater")
less = _binary("Less", "Less")
greater_equal = _binary("GreaterEqual", "GreaterEqual")
less_equal = _binary("LessEqual", "LessEqual")
equal = _binary("Equal", "Equal")
not_equal = _binary("NotEqual", "NotEqual")
floordiv = _binary("FloorDiv", "FloorDiv")
floormod = _binary("FloorMod", "FloorMod")
squared_difference = _binary("SquaredDifference", "SquaredDifference")
logical_and = _binary("LogicalAnd", "LogicalAnd")
logical_or = _binary("LogicalOr", "LogicalOr")


def divide(x, y, name=None):
    a, b = _pair(x, y)
    return a.__truediv__(b)


def _unary(op_type):
    def fn(x, name=None):
        return _one(op_type, [convert_to_tensor(x)], name=name or op_type)

    fn.__name__ = op_type.lower()
    return fn


negative = _unary("Neg")
abs = _unary("Abs")  # noqa: A001
square = _unary("Square")
sqrt = _unary("Sqrt")
rsqrt = _unary("Rsqrt")
exp = _unary("Exp")
log = _unary("Log")
tanh = _unary("Tanh")
sigmoid = _unary("Sigmoid")
sin = _unary("Sin")
cos = _unary("Cos")
floor = _unary("Floor")
ceil = _unary("Ceil")
round = _unary("Round")  # noqa: A001
sign = _unary("Sign")
logical_not = _unary("LogicalNot")
identity = _unary("Identity")
relu = _unary("Relu")
relu6 = _unary("Relu6")


def matmul(a, b, transpose_a=False, transpose_b=False, name=None):
    a, b = _pair(a, b)
    attrs = {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)}
    op_type = "BatchMatMulV2" if (a.shape.rank or 2) > 2 or (b.shape.rank or 2) > 2 else "MatMul"
    if op_type == "BatchMatMulV2":
        attrs = {"adj_x": bool(transpose_a), "adj_y": bool(transpose_b)}
    return _one(op_type, [a, b], attrs, name or "MatMul")


def cast(x, dtype, name=None):
    x = convert_to_tensor(x)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype == dtype:
        return x
    return _one("Cast", [x], {"DstT": _C.attr_type(dtype.as_datatype_enum)}, name or "Cast")


def _axis(x, axis):
    if axis is None:
        rank = x.shape.rank
        if rank is None:
            return range(convert_to_tensor(0), rank_of(x), 1)
        return Tensor._from_numpy(np.arange(rank, dtype=np.int32))
    return convert_to_tensor(axis, dtypes.int32)


def _reduction(op_type, name):
    def fn(input_tensor, axis=None, keepdims=False, name=None):
        x = convert_to_tensor(input_tensor)
        return _one(op_type, [x, _axis(x, axis)], {"keep_dims": bool(keepdims)}, name or name_default)

    name_default = name
    fn.__name__ = "reduce_" + name.lower()
    return fn


reduce_mean = _reduction("Mean", "Mean")
reduce_sum = _reduction("Sum", "Sum")
reduce_max = _reduction("Max", "Max")
reduce_min = _reduction("Min", "Min")
reduce_prod = _reduction("Prod", "Prod")
reduce_any = _reduction("Any", "Any")
reduce_all = _reduction("All", "All")


def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    params = convert_to_tensor(params)
    indices = convert_to_tensor(indices)
    axis = convert_to_tensor(0 if axis is None else axis, indices.dtype)
    return _one("GatherV2", [params, indices, axis], {"batch_dims": int(batch_dims)}, name or "GatherV2")


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    dtype = dtypes.as_dtype(dtype)
    value = np.eye(int(num_rows), None if num_columns is None else int(num_columns), dtype=dtype.as_numpy_dtype)
    if batch_shape is not None:
        value = np.broadcast_to(value, tuple(batch_shape) + value.shape).copy()
    return constant(value, name=name or "eye")


def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 (TensorFlow's name)
    if limit is None:
        start, limit = 0, start
    values = [start, limit, delta]
    if dtype is None:
        kinds = [v.dtype if isinstance(v, Tensor) else dtypes.float32 if isinstance(v, float) else dtypes.int32
                 for v in values]
        order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        dtype = max(kinds, key=lambda d: order.index(d) if d in order else 0)
    dtype = dtypes.as_dtype(dtype)
    start, limit, delta = [cast(convert_to_tensor(v), dtype) for v in values]
    result = _one("Range", [start, limit, delta], {}, name)
    result._range_args = (start, limit, delta)
    return result


def _filled(shape, dtype, value, name):
    dtype = dtypes.as_dtype(dtype)
    if isinstance(shape, Tensor):
        return _one("Fill", [cast(shape, dtypes.int32), convert_to_tensor(value, dtype)], {}, name)
    shape = [int(d) for d in (shape if isinstance(shape, (list, tuple)) else [shape])]
    return constant(np.full(shape, value, dtype=dtype.as_numpy_dtype), name=name)


def zeros(shape, dtype=dtypes.float32, name=None):
    return _filled(shape, dtype, 0, name or "zeros")


def ones(shape, dtype=dtypes.float32, name=None):
    return _filled(shape, dtype, 1, name or "ones")


def fill(dims, value, name=None):
    value = convert_to_tensor(value)
    return _one("Fill", [convert_to_tensor(dims, dtypes.int32), value], {}, name or "Fill")


def zeros_like(input, dtype=None, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    return _one("ZerosLike", [x if dtype is None else cast(x, dtype)], {}, name or "zeros_like")


def ones_like(input, dtype=None, name=None):  # noqa: A002
    x = convert_to_tensor(input)
    return _one("OnesLike", [x if dtype is None else cast(x, dtype)], {}, name or "ones_like")


def reshape(tensor, shape, name=None):
    return _one("Reshape", [convert_to_tensor(tensor), convert_to_tensor(shape, dtypes.int32)], {}, name or "Reshape")


def concat(values, axis, name="concat"):
    values = [convert_to_tensor(v) for v in values]
    if len(values) == 1:
        return identity(values[0], name=name)
    return _one("ConcatV2", values + [convert_to_tensor(axis, dtypes.int32)], {}, name)


def stack(values, axis=0, name="stack"):
    values = [convert_to_tensor(v) for v in values]
    return _one("Pack", values, {"axis": int(axis)}, name)


def transpose(a, perm=None, conjugate=False, name="transpose"):
    a = convert_to_tensor(a)
    if perm is None:
        perm = list(reversed(np.arange(a.shape.rank).tolist()))
    return _one("Transpose", [a, convert_to_tensor(perm, dtypes.int32)], {}, name)


def squeeze(input, axis=None, name=None):  # noqa: A002
    dims = [] if axis is None else [int(axis)] if isinstance(axis, int) else [int(a) for a in axis]
    return _one("Squeeze", [convert_to_tensor(input)], {"squeeze_dims": dims}, name or "Squeeze")


def expand_dims(input, axis, name=None):  # noqa: A002
    return _one("ExpandDims", [convert_to_tensor(input), convert_to_tensor(axis, dtypes.int32)], {},
                name or "ExpandDims")


def shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return _one("Shape", [convert_to_tensor(input)], {"out_type": _C.attr_type(dtypes.as_dtype(out_type)._enum)},
                name or "Shape")


def size(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return _one("Size", [convert_to_tensor(input)], {"out_type": _C.attr_type(dtypes.as_dtype(out_type)._enum)},
                name or "Size")


def rank_of(input, name=None):  # noqa: A002
    return _one("Rank", [convert_to_tensor(input)], {}, name or "Rank")


def where(condition, x=None, y=None, name=None):
    condition = convert_to_tensor(condition)
    if x is None and y is None:
        return _one("Where", [condition], {}, name or "Where")
    x, y = _pair(x, y)
    return _one("SelectV2", [condition, x, y], {}, name or "SelectV2")


def softmax(logits, axis=None, name=None):
    logits = convert_to_tensor(logits)
    if axis is not None and axis not in (-1, (logits.shape.rank or 0) - 1):
        raise NotImplementedError("tf.nn.softmax over an axis other than the last is not in Flowscope's subset")
    return _one("Softmax", [logits], {}, name or "Softmax")


def argmax(input, axis=None, output_type=dtypes.int64, name=None):  # noqa: A002
    return _one("ArgMax", [convert_to_tensor(input), convert_to_tensor(0 if axis is None else axis, dtypes.int32)],
                {"output_type": _C.attr_type(dtypes.as_dtype(output_type)._enum)}, name or "ArgMax")


def _getitem(t, key):
    """t[key] for ints, slices, Ellipsis and None: NumPy eagerly, StridedSlice in graphs."""
    if not t._symbolic:
        return Tensor._from_numpy(np.ascontiguousarray(t._view()[key]))
    keys = key if isinstance(key, tuple) else (key,)
    begin, end, strides = [], [], []
    begin_mask = end_mask = shrink = new_axis = ellipsis = 0
    for i, k in enumerate(keys):
        if k is Ellipsis:
            ellipsis |= 1 << i
            begin.append(0), end.append(0), strides.append(1)
        elif k is None:
            new_axis |= 1 << i
            begin.append(0), end.append(0), strides.append(1)
        elif isinstance(k, slice):
            begin.append(k.start or 0), end.append(k.stop or 0), strides.append(k.step or 1)
            begin_mask |= (k.start is None) << i
            end_mask |= (k.stop is None) << i
        else:
            k = int(k)
            begin.append(k), end.append(k + 1), strides.append(1)
            shrink |= 1 << i
    attrs = {"begin_mask": begin_mask, "end_mask": end_mask, "shrink_axis_mask": shrink,
             "new_axis_mask": new_axis, "ellipsis_mask": ellipsis}
    args = [Tensor._from_numpy(np.array(v, dtype=np.int32)) for v in (begin, end, strides)]
    return _one("StridedSlice", [t] + args, attrs, "strided_slice")


def print(*inputs, output_stream=sys.stderr, summarize=3, sep=" ", end="\n", name=None):  # noqa: A001
    """tf.print: formats tensors with StringFormat and prints with PrintV2 (every call, also in graphs)."""
    parts, tensors = [], []
    for item in inputs:
        if hasattr(item, "_as_tensor"):
            item = item._as_tensor(None)
        if isinstance(item, Tensor):
            parts.append("{}")
            tensors.append(item)
        else:
            parts.append(str(item).replace("{}", "{ }"))
    stream = output_stream if isinstance(output_stream, str) else \
        "stdout" if output_stream is sys.stdout else "stderr"
    if stream not in ("stdout", "stderr"):
        raise ValueError("Unsupported output stream: %r (tf.print takes sys.stdout or sys.stderr)" % output_stream)
    text = _one("StringFormat", tensors, {"template": sep.join(parts), "placeholder": "{}",
                                          "summarize": int(summarize)}, "StringFormat")
    _op("PrintV2", [text], {"output_stream": stream, "end": end}, name or "PrintV2")
