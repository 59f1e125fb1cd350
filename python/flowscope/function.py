"""tf.function: a Python function traced into graphs. A call binds its arguments to a trace type (tensors by dtype
and shape, other values by value); a new type traces once into a ConcreteFunction, a known one runs its graph.
TensorFlow's rules (tf-compat.md §2): input_signature fixes one trace, reduce_retracing relaxes shapes, Python side
effects run only while tracing, functions called while tracing are traced into the caller."""
import functools
import inspect

from flowscope import _flowscope as _C
from flowscope import dtypes
from flowscope import _structure
from flowscope._tensor import Tensor, convert_to_tensor
from flowscope.tensor_spec import TensorSpec
from flowscope.concrete_function import ConcreteFunction

_LITERAL_TYPES = (int, float, bool, str, bytes, type(None))


def _dims(shape):
    return None if shape.rank is None else tuple(shape.dims)


class _Leaf:
    """A tensor leaf of a call: where it goes in the arguments and its (dtype, shape)."""

    __slots__ = ("name", "dtype", "shape")

    def __init__(self, name, dtype, shape):
        self.name, self.dtype, self.shape = name, dtype, shape


def _literal_key(value):
    if isinstance(value, _LITERAL_TYPES):
        return (type(value), value)
    try:
        return (type(value), repr(value)) if not hasattr(value, "__dict__") else (type(value), id(value))
    except Exception:  # an object whose repr fails is keyed by identity
        return (type(value), id(value))


class Function:
    """What tf.function returns: callable like the Python function, with its traces."""

    def __init__(self, python_function, input_signature=None, autograph=True, jit_compile=None,
                 reduce_retracing=False, name=None):
        self._python_function = python_function
        self._signature = inspect.signature(python_function)
        self._params = [p for p in self._signature.parameters.values()
                        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        self._simple = len(self._params) == len(self._signature.parameters)
        self._input_signature = None if input_signature is None else tuple(input_signature)
        self._autograph = autograph
        self._jit_compile = bool(jit_compile)
        self._reduce_retracing = bool(reduce_retracing)
        self._name = name or getattr(python_function, "__name__", "function")
        self._cache = {}  # call key -> ConcreteFunction
        self._traces = []  # ConcreteFunctions in tracing order
        self._tracing_count = 0
        self._converted = None
        functools.update_wrapper(self, python_function)
        _register(self)

    python_function = property(lambda self: self._python_function)
    input_signature = property(lambda self: self._input_signature)
    function_spec = property(lambda self: self._signature)

    def __repr__(self):
        return "<flowscope.Function object at 0x%X>" % id(self)

    def __get__(self, instance, owner):
        if instance is None:
            return self
        bound = _bound_functions.setdefault((id(self), id(instance)), None)
        if bound is None:
            bound = Function(self._python_function.__get__(instance, owner), self._input_signature, self._autograph,
                             self._jit_compile, self._reduce_retracing, self._name)
            _bound_functions[(id(self), id(instance))] = bound
        return bound

    def experimental_get_tracing_count(self):
        return self._tracing_count

    def __call__(self, *args, **kwargs):
        if _call_recorder is not None:
            _call_recorder(self, args, kwargs)
        if _C.functions_run_eagerly():
            if self._input_signature is not None:
                self._bind_signature(args, kwargs)
            return self._python_function(*args, **kwargs)
        if _C.in_tracing():  # a Function called while tracing is traced into the caller's graph
            return self._traceable()(*args, **kwargs)
        if not kwargs and self._simple and len(args) == len(self._params) and self._input_signature is None:
            key = tuple([(a._dtype, a._shape) if type(a) is Tensor else _literal_key(a) for a in args])
            concrete = self._cache.get(key)
            if concrete is not None:
                return concrete._call_leaves([a for a in args if type(a) is Tensor])
        concrete, leaves = self._concrete_for(args, kwargs)
        return concrete._call_leaves(leaves)

    def get_concrete_function(self, *args, **kwargs):
        if not args and not kwargs and self._input_signature is not None:
            args = self._input_signature
        return self._concrete_for(args, kwargs)[0]

    def pretty_printed_concrete_signatures(self, verbose=True):
        return "\n\n".join(c.pretty_printed_signature(verbose) for c in self._traces)

    # -- binding and dispatch ----------------------------------------------------------------------------------------

    def _bind(self, args, kwargs):
        bound = self._signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return bound

    def _bind_signature(self, args, kwargs):
        """Arguments checked and converted against input_signature (TensorFlow 2.11's errors)."""
        values = list(args) + [kwargs[p.name] for p in self._params[len(args):] if p.name in kwargs]
        if len(values) != len(self._input_signature):
            raise TypeError("%s() takes %d positional arguments as specified by input_signature, got %d"
                            % (self._name, len(self._input_signature), len(values)))
        converted = []
        for value, spec in zip(values, self._input_signature):
            if not isinstance(value, Tensor) and not hasattr(value, "_as_tensor"):
                try:
                    value = convert_to_tensor(value, spec.dtype)
                except (TypeError, ValueError):
                    raise TypeError("When input_signature is provided, all inputs to the Python function must be "
                                    "convertible to tensors:\n  inputs: (\n    %s)\n  input_signature: (\n    %s)."
                                    % (",\n    ".join(map(repr, values)),
                                       ",\n    ".join(map(repr, self._input_signature)))) from None
            converted.append(value)
        for value, spec in zip(converted, self._input_signature):
            if not spec.is_compatible_with(value):
                raise ValueError("Python inputs incompatible with input_signature:\n  inputs: (\n    %s)\n"
                                 "  input_signature: (\n    %s)." % (",\n    ".join(map(str, values)),
                                                                      ",\n    ".join(map(repr, self._input_signature))))
        return converted

    def _type_of(self, args, kwargs):
        """(trace type, flat tensor leaves, bound arguments) of a call."""
        if self._input_signature is not None:
            values = self._bind_signature(args, kwargs)
            names = [p.name for p in self._params]
            specs = [("tensor", s.dtype.as_datatype_enum, _dims(s.shape), names[i] if i < len(names) else "args_%d" % i)
                     for i, s in enumerate(self._input_signature)]
            return tuple(specs), [v for v in values if isinstance(v, Tensor)], (tuple(values), {})
        bound = self._bind(args, kwargs)
        key, leaves = [], []
        for name, value in bound.arguments.items():
            self._key_of(name, value, key, leaves)
        return tuple(key), leaves, (bound.args, bound.kwargs)

    def _key_of(self, name, value, key, leaves):
        if isinstance(value, Tensor):
            key.append(("tensor", value._dtype, value._shape, name))
            leaves.append(value)
        elif isinstance(value, TensorSpec):
            key.append(("tensor", value.dtype.as_datatype_enum, _dims(value.shape), value.name or name))
            leaves.append(None)
        elif isinstance(value, (list, tuple)) and any(isinstance(v, (Tensor, TensorSpec)) for v in value):
            key.append(("structure", type(value).__name__, len(value)))
            for i, item in enumerate(value):
                self._key_of("%s_%d" % (name, i), item, key, leaves)
        elif isinstance(value, dict) and any(isinstance(v, (Tensor, TensorSpec)) for v in value.values()):
            key.append(("structure", "dict", tuple(sorted(value))))
            for k in sorted(value):
                self._key_of("%s_%s" % (name, k), value[k], key, leaves)
        else:
            key.append(("literal", _literal_key(value), repr(value), name))

    def _concrete_for(self, args, kwargs):
        key, leaves, bound = self._type_of(args, kwargs)
        concrete = self._cache.get(key) or self._compatible(key)
        if concrete is None:
            concrete = self._trace(self._relaxed(key), bound)
        self._cache[key] = concrete
        if self._fast_eligible(args, kwargs):
            fast = tuple([(a._dtype, a._shape) if type(a) is Tensor else _literal_key(a) for a in args])
            self._cache[fast] = concrete
        return concrete, [leaf for leaf in leaves if leaf is not None]

    def _fast_eligible(self, args, kwargs):
        """Calls whose positional arguments are tensors or plain values use the cache keyed by arguments."""
        return (not kwargs and self._simple and len(args) == len(self._params) and self._input_signature is None
                and all(type(a) is Tensor or not isinstance(a, (list, tuple, dict, TensorSpec)) for a in args))

    def _compatible(self, key):
        """The most specific earlier trace whose type accepts this call's (None dims match any size)."""
        best, best_unknown = None, None
        for concrete in self._traces:
            if concrete._accepts(key):
                unknown = concrete._unknown_dims()
                if best is None or unknown < best_unknown:
                    best, best_unknown = concrete, unknown
        if best is None and self._input_signature is not None and self._traces:
            return self._traces[0]
        return best

    def _relaxed(self, key):
        if not self._reduce_retracing or self._input_signature is not None:
            return key
        relaxed = list(key)
        for concrete in self._traces:
            relaxed = concrete._relax(relaxed)
        return tuple(relaxed)

    def _traceable(self):
        if self._converted is None:
            self._converted = self._python_function
            if self._autograph:
                from flowscope import autograph
                self._converted = autograph.convert(self._python_function)
        return self._converted

    def _trace(self, key, bound):
        from flowscope import tracing
        concrete = tracing.trace(self, key, bound)
        self._traces.append(concrete)
        return concrete


_bound_functions = {}
_all_functions = []
_call_recorder = None  # set by flowscope.tools.trace_script: sees every call (function, args, kwargs)


def set_call_recorder(recorder):
    global _call_recorder
    _call_recorder = recorder


def _register(fn):
    import weakref
    _all_functions.append(weakref.ref(fn))


def all_functions():
    """Every Function still alive, in creation order (the script runner lists them for the app)."""
    return [f for f in (ref() for ref in _all_functions) if f is not None]


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_relax_shapes=None, experimental_compile=None, name=None, **unsupported):
    """tf.function as a call (`tf.function(f)`) and as a decorator, with or without arguments."""
    if unsupported:
        raise TypeError("function() got an unexpected keyword argument '%s' (not in Flowscope's TensorFlow subset)"
                        % next(iter(unsupported)))
    relax = bool(reduce_retracing or experimental_relax_shapes)
    jit = jit_compile if jit_compile is not None else experimental_compile

    def decorate(f):
        return Function(f, input_signature, autograph, jit, relax, name)

    return decorate if func is None else decorate(func)
