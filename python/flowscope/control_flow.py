"""tf.cond and tf.while_loop: run in Python eagerly; while tracing, StatelessIf/If and StatelessWhile/While nodes
whose branches and bodies are traced into the graph's function library."""
from flowscope import _flowscope as _C
from flowscope import _structure
from flowscope._tensor import Tensor, convert_to_tensor


def cond(pred, true_fn=None, false_fn=None, name=None):
    pred = convert_to_tensor(pred)
    if not pred._symbolic:
        return true_fn() if bool(pred) else false_fn()
    shapes = {}

    def branch(fn, which):
        def run():
            result = fn()
            shapes[which] = result
            return [convert_to_tensor(v) for v in _structure.flatten(result)]

        return run

    outputs = _C.cond(pred, branch(true_fn, "true"), branch(false_fn, "false"))
    structure = shapes["true"]
    if isinstance(structure, (list, tuple, dict)):
        return _structure.pack_as(structure, outputs)
    return outputs[0] if outputs else None


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, maximum_iterations=None, name=None):
    structure = loop_vars
    flat = [convert_to_tensor(v) for v in _structure.flatten(loop_vars)]
    if maximum_iterations is not None:
        counter = convert_to_tensor(0)
        limit = convert_to_tensor(maximum_iterations)
        user_cond, user_body = cond, body

        def cond(i, *v):
            from flowscope import ops
            return ops.logical_and(i < limit, convert_to_tensor(user_cond(*_unflat(v))))

        def body(i, *v):
            return [i + 1] + _structure.flatten(user_body(*_unflat(v)))

        flat = [counter] + flat
        outputs = _C.while_loop(cond, lambda *v: [convert_to_tensor(x) for x in body(*v)], flat)[1:]
    else:
        outputs = _C.while_loop(lambda *v: convert_to_tensor(cond(*_unflat(v))),
                                lambda *v: [convert_to_tensor(x) for x in _structure.flatten(body(*_unflat(v)))],
                                flat)
    return _structure.pack_as(structure, outputs) if isinstance(structure, (list, tuple, dict)) else outputs[0]


def _unflat(values):
    return list(values)


__all__ = ["cond", "while_loop", "Tensor"]
