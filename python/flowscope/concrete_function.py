"""ConcreteFunction: one trace of a Function, its graph (as_graph_def() prints TensorFlow's text format) and how to
call it with tensors."""
from flowscope import _flowscope as _C
from flowscope import _structure
from flowscope._shape import TensorShape
from flowscope._tensor import Tensor, convert_to_tensor
from flowscope.graph_def import GraphDef


class FuncGraphView:
    """concrete.graph: the traced graph (TensorFlow's FuncGraph, read-only here)."""

    def __init__(self, concrete):
        self._concrete = concrete

    name = property(lambda self: self._concrete.name)

    def as_graph_def(self, add_shapes=False):
        return GraphDef(self._concrete._cf.graph_def())

    def get_operations(self):
        return [node for node in self.as_graph_def().node]


class ConcreteFunction:
    def __init__(self, cf, function_name, key, output_structure):
        self._cf = cf
        self._function_name = function_name
        self._key = key
        self._output_structure = output_structure
        self._run = cf.run
        self._single = isinstance(output_structure, _OutputMarker)
        self.graph = FuncGraphView(self)

    name = property(lambda self: self._cf.name)

    def __repr__(self):
        return "<ConcreteFunction %s at 0x%X>" % (self.pretty_printed_signature().split("\n", 1)[0], id(self))

    @property
    def structured_outputs(self):
        return self._output_structure

    @property
    def output_dtypes(self):
        from flowscope import dtypes
        return [dtypes._of_enum(d) for d, _ in self._cf.output_specs]

    @property
    def output_shapes(self):
        return [TensorShape(s) for _, s in self._cf.output_specs]

    def pretty_printed_signature(self, verbose=True):
        return self._cf.pretty_signature(self._function_name).rstrip("\n")

    def _call_leaves(self, leaves):
        outputs = self._run(leaves)
        if self._single:
            return outputs[0]
        if self._output_structure is None:
            return None
        return _structure.pack_as(self._output_structure, outputs)

    def __call__(self, *args, **kwargs):
        leaves = [v for v in _structure.flatten(list(args) + [kwargs[k] for k in sorted(kwargs)])
                  if isinstance(v, Tensor) or hasattr(v, "_as_tensor")]
        specs = [item for item in self._key if item[0] == "tensor"]
        if len(leaves) != len(specs):
            raise TypeError("%s takes %d tensor arguments, got %d" % (self.pretty_printed_signature().split("\n")[0],
                                                                     len(specs), len(leaves)))
        return self._call_leaves([convert_to_tensor(v) for v in leaves])

    # -- dispatch helpers used by Function ---------------------------------------------------------------------------

    def _accepts(self, key):
        if len(key) != len(self._key):
            return False
        for mine, theirs in zip(self._key, key):
            if mine[0] != theirs[0]:
                return False
            if mine[0] == "tensor":
                if mine[1] != theirs[1] or not TensorShape(mine[2]).is_compatible_with(TensorShape(theirs[2])):
                    return False
                if mine[2] is not None and theirs[2] is None:
                    return False
                if mine[2] is not None and any(a is not None and b is None for a, b in zip(mine[2], theirs[2])):
                    return False
            elif mine[:2] != theirs[:2] if mine[0] == "literal" else mine != theirs:
                return False
        return True

    def _unknown_dims(self):
        count = 0
        for item in self._key:
            if item[0] == "tensor":
                count += 100 if item[2] is None else sum(d is None for d in item[2])
        return count

    def _relax(self, key):
        """`key` with tensor shapes generalized against this trace's (reduce_retracing)."""
        if len(key) != len(self._key) or any(a[0] != b[0] or (a[0] == "tensor" and a[1] != b[1]) or
                                             (a[0] != "tensor" and a[:2] != b[:2]) for a, b in zip(key, self._key)):
            return key
        relaxed = []
        for mine, theirs in zip(self._key, key):
            if mine[0] == "tensor":
                common = TensorShape(mine[2]).most_specific_common_supertype(TensorShape(theirs[2]))
                theirs = (theirs[0], theirs[1], common.dims if common.rank is not None else None, theirs[3])
                theirs = (theirs[0], theirs[1], None if theirs[2] is None else tuple(theirs[2]), theirs[3])
            relaxed.append(theirs)
        return relaxed


class _OutputMarker:
    """Stands for one output tensor in a stored output structure."""
