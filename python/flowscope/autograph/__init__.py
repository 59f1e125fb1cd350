"""AutoGraph: `if`, `while` and `for` over Tensors in a traced function become cond and while_loop.

`convert(fn)` rewrites a function's source with Python's `ast` (TensorFlow's structure: `ag__.if_stmt`,
`ag__.while_stmt`, `ag__.for_stmt`, `get_state`/`set_state`, `do_return`/`retval_`) and `to_code(fn)` shows the
result. Conditions on Python values stay Python."""

import types as _types

from . import operators  # noqa: F401  (the runtime of converted code, `ag__`)
from . import converter as _converter
from .errors import user_code_error

__all__ = ['convert', 'to_code', 'to_graph', 'experimental', 'user_code_error']


def _python_function(entity):
  fn = getattr(entity, 'python_function', entity)
  if isinstance(fn, _types.MethodType):
    fn = fn.__func__
  if not isinstance(fn, _types.FunctionType):
    raise TypeError('to_code expects a Python function, a method or a tf.function; got %r' % (entity,))
  return fn


def convert(fn):
  """The converted version of `fn` for tracing (`fn` itself when it cannot or must not be converted)."""
  return _converter.convert(fn)


def to_graph(entity, recursive=True, experimental_optional_features=None):
  """TensorFlow's low-level conversion API: the converted Python function."""
  del recursive, experimental_optional_features
  if isinstance(entity, _types.MethodType):
    return _types.MethodType(_converter.convert(entity.__func__, raise_errors=True), entity.__self__)
  return _converter.convert(_python_function(entity), raise_errors=True)


def to_code(entity, recursive=True, experimental_optional_features=None):
  """The source code of the converted function (`def tf__<name>(...)`), valid Python."""
  del recursive, experimental_optional_features
  return _converter.to_code(_python_function(entity))


def do_not_convert(func=None):
  """Decorator: the function runs as it is inside traced code (no AutoGraph conversion)."""
  if func is None:
    return do_not_convert
  try:
    func.__ag_do_not_convert = True
  except AttributeError:
    pass
  return func


class _Namespace(_types.ModuleType):

  def __getattr__(self, name):
    if name.startswith('__'):
      raise AttributeError(name)
    raise AttributeError("module '%s' has no attribute '%s' (tf.autograph.experimental.%s is not in Flowscope's "
                         "TensorFlow subset)" % (self.__name__, name, name))


experimental = _Namespace('flowscope.autograph.experimental')
experimental.do_not_convert = do_not_convert


def __getattr__(name):
  if name.startswith('__'):
    raise AttributeError("module 'flowscope.autograph' has no attribute '%s'" % name)
  raise AttributeError("module 'flowscope.autograph' has no attribute '%s' (tf.autograph.%s is not in Flowscope's "
                       "TensorFlow subset)" % (name, name))
