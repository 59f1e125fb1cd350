"""tf.io: write_graph."""
from flowscope._missing import missing_attribute
from flowscope.graph_def import write_graph  # noqa: F401

__getattr__ = missing_attribute(__name__, "tf.io")
