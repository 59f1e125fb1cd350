"""The runtime of converted code, bound as `ag__`: statements dispatch on their condition. A symbolic Tensor stages
a `cond` / `while_loop` on the engine; a Python value (or an eager Tensor) runs as plain Python."""

import builtins
import sys
import types

from . import loops as _loops
from .values import (Undefined, UndefinedReturnValue, check_globals, dry_running, is_symbolic, is_tensor,  # noqa: F401
                     ld, staged_cond, tf_module, verify_condition)

__all__ = ['if_stmt', 'while_stmt', 'for_stmt', 'if_exp', 'and_', 'or_', 'not_', 'ld', 'Undefined',
           'UndefinedReturnValue', 'FunctionScope', 'ConversionOptions', 'STD', 'converted_call']

while_stmt = _loops.while_stmt
for_stmt = _loops.for_stmt


class ConversionOptions:
  """Options of a conversion (kept for the converted code's text; Flowscope converts recursively always)."""

  def __init__(self, recursive=True, user_requested=False, optional_features=(), internal_convert_user_code=True):
    self.recursive = recursive
    self.user_requested = user_requested
    self.optional_features = optional_features
    self.internal_convert_user_code = internal_convert_user_code

  def __repr__(self):
    return ('ConversionOptions(recursive=%r, user_requested=%r, optional_features=%r, '
            'internal_convert_user_code=%r)' % (self.recursive, self.user_requested, self.optional_features,
                                                self.internal_convert_user_code))


STD = ConversionOptions(recursive=True, user_requested=False)


class FunctionScope:
  """`with ag__.FunctionScope(name, 'fscope', options) as fscope:` around a converted function's body."""

  __slots__ = ('name', 'scope_name', 'options')

  def __init__(self, function_name, scope_name, options):
    self.name, self.scope_name, self.options = function_name, scope_name, options

  def __enter__(self):
    return self

  def __exit__(self, *exc):
    return False

  def ret(self, value, did_return):
    del did_return
    if isinstance(value, UndefinedReturnValue):
      return None
    return value


# Statements and expressions.

def if_stmt(cond, body, orelse, get_state, set_state, symbol_names, nouts, global_names=()):
  """`if cond: body() else: orelse()`, staged as a cond when `cond` is a symbolic Tensor."""
  if not is_symbolic(cond):
    if cond:
      body()
    else:
      orelse()
    return
  check_globals(global_names, 'if statement')
  cond = verify_condition(cond, 'if statement')
  init = tuple(get_state())
  if dry_running():
    _dry_if(body, orelse, get_state, set_state, init, symbol_names, nouts)
    return

  def branch(fn):
    def run():
      set_state(init)
      fn()
      return tuple(get_state())[:nouts]
    return run

  outs = staged_cond(cond, branch(body), branch(orelse), symbol_names[:nouts])
  set_state(tuple(outs) + init[nouts:])


def _dry_if(body, orelse, get_state, set_state, init, symbol_names, nouts):
  """A loop body's trial run (to learn the types of loop variables undefined before the loop): both branches run
  in the scratch graph, and a name undefined in one branch takes the other's value."""
  set_state(init)
  body()
  a = tuple(get_state())
  set_state(init)
  orelse()
  b = tuple(get_state())
  merged = []
  for k, (x, y) in enumerate(zip(a, b)):
    if k >= nouts:
      merged.append(init[k])
    elif isinstance(x, (Undefined, UndefinedReturnValue)) or x is None:
      merged.append(y)
    else:
      merged.append(x)
  set_state(tuple(merged))


def if_exp(cond, if_true, if_false, expr_repr):
  """`if_true() if cond else if_false()`; a cond for a symbolic `cond`."""
  if not is_symbolic(cond):
    return if_true() if cond else if_false()
  cond = verify_condition(cond, 'if expression')
  return staged_cond(cond, lambda: (if_true(),), lambda: (if_false(),), ('if expression',))[0]


def and_(a, b):
  """Lazy `a and b`: `b` runs only when `a` is true (staged as a cond when `a` is symbolic)."""
  a_val = a()
  if is_symbolic(a_val):
    c = verify_condition(a_val, 'and expression')
    return staged_cond(c, lambda: (b(),), lambda: (c,), ('and expression',))[0]
  return a_val and b()


def or_(a, b):
  """Lazy `a or b`."""
  a_val = a()
  if is_symbolic(a_val):
    c = verify_condition(a_val, 'or expression')
    return staged_cond(c, lambda: (c,), lambda: (b(),), ('or expression',))[0]
  return a_val or b()


def not_(a):
  if is_tensor(a):
    return tf_module().logical_not(a)
  return not a


# Calls.

_library_codes = {}
_STDLIB_TOPS = set(getattr(sys, 'stdlib_module_names', ())) | {'flowscope', 'numpy', 'tensorflow', 'torch'}


def _is_user_function(fn):
  code = fn.__code__
  known = _library_codes.get(code)
  if known is not None:
    return known
  module = (getattr(fn, '__module__', None) or '').split('.')[0]
  filename = code.co_filename
  user = not (module in _STDLIB_TOPS or 'site-packages' in filename or 'dist-packages' in filename or
              filename.startswith(sys.base_prefix + '/lib/python') or filename.startswith('<frozen'))
  _library_codes[code] = user
  return user


def _converted_target(f):
  from . import converter
  if isinstance(f, types.FunctionType):
    fn, owner = f, None
  elif isinstance(f, types.MethodType) and isinstance(f.__func__, types.FunctionType):
    fn, owner = f.__func__, f.__self__
  elif not isinstance(f, type):
    call = getattr(type(f), '__call__', None)
    if not isinstance(call, types.FunctionType):
      return None
    fn, owner = call, f
  else:
    return None
  if not converter.is_convertible(fn) or not _is_user_function(fn):
    return None
  conv = converter.convert(fn)
  if conv is fn:
    return None
  return conv if owner is None else types.MethodType(conv, owner)


def converted_call(f, args, kwargs, caller_fn_scope=None, options=None):
  """Calls `f`, converting it first when it is a user's Python function (not a library's)."""
  if kwargs is None:
    kwargs = {}
  if f is builtins.range and any(is_tensor(a) for a in args):
    return tf_module().range(*args, **kwargs)
  if f is builtins.len and len(args) == 1 and is_symbolic(args[0]):
    return _len(args[0])
  tf = sys.modules.get('flowscope')
  if tf is not None and f is getattr(tf, 'range', None):
    return _loops.static_range(f, args, kwargs)
  target = _converted_target(f)
  if target is not None:
    return target(*args, **kwargs)
  return f(*args, **kwargs)


def _len(t):
  dims = t.shape.as_list() if t.shape.rank is not None else None
  if not dims:
    if dims == []:
      raise TypeError('len is not well defined for a rank-0 Tensor')
    return tf_module().gather(tf_module().shape(t), 0)
  if dims[0] is not None:
    return dims[0]
  return tf_module().gather(tf_module().shape(t), 0)


AG_CELL = types.CellType(sys.modules[__name__])
