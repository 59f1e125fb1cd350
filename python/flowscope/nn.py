"""tf.nn: activations and softmax."""
from flowscope._missing import missing_attribute
from flowscope.ops import relu, relu6, sigmoid, softmax, tanh  # noqa: F401 (the public names)

__getattr__ = missing_attribute(__name__, "tf.nn")
