"""GraphDef objects: what concrete.graph.as_graph_def() returns. print() shows TensorFlow's protobuf text format;
SerializeToString() gives the binary wire format; tf.io.write_graph writes either atomically."""
import collections
import os

NodeDef = collections.namedtuple("NodeDef", "name op input device")


class _Library:
    def __init__(self, names):
        self.function = [_FunctionDef(n) for n in names]


class _FunctionDef:
    def __init__(self, name):
        self.signature = collections.namedtuple("OpDef", "name")(name)


class _Versions:
    def __init__(self, producer):
        self.producer = producer
        self.min_consumer = 12


class GraphDef:
    def __init__(self, graph):
        self._graph = graph

    @property
    def node(self):
        return [NodeDef(*n) for n in self._graph.nodes()]

    @property
    def library(self):
        return _Library(self._graph.function_names())

    @property
    def versions(self):
        return _Versions(self._graph.producer)

    def SerializeToString(self):  # noqa: N802 (protobuf's name)
        return self._graph.binary()

    def ByteSize(self):  # noqa: N802
        return len(self._graph.binary())

    def __str__(self):
        return self._graph.text()

    __repr__ = __str__

    def _write(self, path, as_text):
        self._graph.write(path, as_text)


def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """tf.io.write_graph: writes the graph (text or binary by `as_text`) to logdir/name; returns the path."""
    graph_def = graph_or_graph_def.as_graph_def() if hasattr(graph_or_graph_def, "as_graph_def") else \
        graph_or_graph_def
    if not isinstance(graph_def, GraphDef):
        raise TypeError("write_graph takes a GraphDef or a graph, not %r" % (graph_or_graph_def,))
    os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    graph_def._write(path, as_text)
    return path
