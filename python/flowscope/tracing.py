"""Tracing one Function call into a graph: placeholders for the tensor arguments, the (AutoGraph-converted) Python
function run on them with the graph current, its outputs through Identity nodes, a ConcreteFunction at the end."""
from flowscope import _flowscope as _C
from flowscope import _structure
from flowscope._tensor import Tensor, convert_to_tensor
from flowscope.concrete_function import ConcreteFunction, _OutputMarker
from flowscope.tensor_spec import TensorSpec


def _substitute(value, placeholders):
    """The call's arguments with each tensor leaf replaced by its placeholder (in the order the key lists them)."""
    if isinstance(value, (Tensor, TensorSpec)):
        return next(placeholders)
    if isinstance(value, (list, tuple)) and any(isinstance(v, (Tensor, TensorSpec)) for v in value):
        items = [_substitute(v, placeholders) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else type(value)(items)
    if isinstance(value, dict) and any(isinstance(v, (Tensor, TensorSpec)) for v in value.values()):
        return {k: _substitute(value[k], placeholders) for k in sorted(value)}
    return value


def _engine_type(key):
    """The engine's trace type and argument names: one entry per tensor or literal argument."""
    types, names = [], []
    for item in key:
        if item[0] == "tensor":
            types.append(("tensor", item[1], item[2]))
            names.append(item[3])
        elif item[0] == "literal":
            types.append(("literal", item[2]))
            names.append(item[3])
    return types, names


def _outputs(result):
    """(flat output tensors, structure to pack them back into)."""
    if result is None:
        return [], None
    if not isinstance(result, (list, tuple, dict)):
        return [convert_to_tensor(result)], _OutputMarker()
    flat = [convert_to_tensor(v) for v in _structure.flatten(result)]
    return flat, result


def trace(function, key, bound):
    name = "__inference_%s_%d" % (function._name, _C.next_uid())
    graph = _C.FuncGraph(name)
    args, kwargs = bound
    with graph:
        placeholders = [graph.add_input(item[3], item[1], item[2]) for item in key if item[0] == "tensor"]
        it = iter(placeholders)
        traced_args = [_substitute(a, it) for a in args]
        traced_kwargs = {k: _substitute(v, it) for k, v in kwargs.items()}
        function._tracing_count += 1
        try:
            result = function._traceable()(*traced_args, **traced_kwargs)
        except Exception as error:
            _reraise_in_user_code(error)
            raise
        flat, structure = _outputs(result)
        graph.set_outputs(flat)
    types, names = _engine_type(key)
    concrete = graph.concrete(types, names, graph.inputs[:len(placeholders)], function._jit_compile)
    return ConcreteFunction(concrete, function._name, key, structure)


def _reraise_in_user_code(error):
    try:
        from flowscope import autograph
        rewritten = autograph.user_code_error(error)
    except (ImportError, AttributeError):
        return
    if rewritten is not None and rewritten is not error:
        raise rewritten from error
