"""tf.config: run_functions_eagerly (every Function runs its Python function eagerly, side effects on every call)."""
from flowscope import _flowscope as _C
from flowscope._missing import missing_attribute


def run_functions_eagerly(run_eagerly):
    _C.run_functions_eagerly(bool(run_eagerly))


def functions_run_eagerly():
    return _C.functions_run_eagerly()


__getattr__ = missing_attribute(__name__, "tf.config")
