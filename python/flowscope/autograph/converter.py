"""AutoGraph's converter: a function's source → `def tf__<name>(...)` with staged control flow → a function object.

The converted code keeps the original file name and line numbers, runs with the function's own globals and closure
cells (so `nonlocal` writes and later rebinding of closed-over names still reach the user's variables), and is cached
per code object."""

import __future__
import ast
import inspect
import sys
import types

from . import analysis
from . import ast_util as au
from . import control_flow
from . import expressions
from . import jumps
from . import operators

STRICT = False  # tests set this: a failure to convert raises instead of running the function as it is

# Code objects made by the converter → the name of the user function they belong to (for error messages).
converted_codes = {}
_entries = {}  # id(original code) → (original code, _Entry or None)
_warned = set()
_FUTURE_FLAGS = 0
for _feature in __future__.all_feature_names:
  _FUTURE_FLAGS |= getattr(__future__, _feature).compiler_flag
_OPTIONS = ('ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), '
            'internal_convert_user_code=True)')


class ConversionError(Exception):
  pass


class _Entry:
  __slots__ = ('code', 'name', 'source')

  def __init__(self, code, name, source):
    self.code, self.name, self.source = code, name, source


def _parse(code):
  """The FunctionDef of `code`, with the file's line numbers and columns."""
  try:
    lines, lnum = inspect.getsourcelines(code)
  except (OSError, TypeError) as e:
    raise ConversionError('could not get source code') from e
  src = ''.join(lines)
  first = lines[0]
  indent = len(first) - len(first.lstrip())
  try:
    if indent:
      tree = ast.parse('if 1:\n' + src)
      node = tree.body[0].body[0]
      ast.increment_lineno(node, lnum - 2)
    else:
      tree = ast.parse(src)
      node = tree.body[0]
      ast.increment_lineno(node, lnum - 1)
  except SyntaxError as e:
    raise ConversionError('could not parse the source code: %s' % e) from e
  if not isinstance(node, ast.FunctionDef) or node.name != code.co_name:
    raise ConversionError('could not find the definition of %s in its source' % code.co_name)
  return node


def _user_scopes(node):
  """The function and the functions defined inside it (not inside classes or lambdas), outermost first."""
  out, todo = [], [node]
  while todo:
    n = todo.pop(0)
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
      out.append(n)
    for child in ast.iter_child_nodes(n):
      if not isinstance(child, (ast.ClassDef, ast.Lambda)):
        todo.append(child)
  return out


def _strip_annotations(node):
  node.returns = None
  for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs + [node.args.vararg, node.args.kwarg]:
    if a is not None:
      a.annotation = None


def _is_generator(fdef):
  return isinstance(fdef, ast.AsyncFunctionDef) or au.contains(
      ast.Module(body=fdef.body, type_ignores=[]), (ast.Yield, ast.YieldFrom, ast.Await))


def transform(node, code):
  """Rewrites the FunctionDef `node` in place into `def tf__<name>`; returns the Namer used."""
  name = node.name
  node.decorator_list = []
  _strip_annotations(node)
  namer = au.Namer(node)
  scopes = [s for s in _user_scopes(node)]
  if _is_generator(node):
    raise ConversionError('generators and coroutines are not converted')
  info = {}
  for s in scopes:
    if _is_generator(s):
      continue
    jumps.rewrite_loops(s, namer)
    ret = jumps.rewrite_returns(s, namer)
    analysis.analyze_function(s, always_live=ret or ())
    info[id(s)] = (ret, namer.new('fscope'))
  fscopes = {k: v[1] for k, v in info.items()}
  params = node.args.posonlyargs + node.args.args
  self_name = params[0].arg if params and '__class__' in code.co_freevars else None
  expressions.ExpressionTransformer(namer, fscopes, fscopes[id(node)], self_name).visit(node)
  for s in scopes:
    if id(s) not in info:
      continue
    ret, fscope = info[id(s)]
    cf = control_flow.ControlFlow(namer, analysis.globals_declared(s))
    body = cf.convert_block(s.body)
    doc = []
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(
        body[0].value.value, str):
      doc, body = [body[0]], body[1:]
    if ret:
      do_return, retval = ret
      body.append(au.located(ast.Return(value=au.call(
          ast.Attribute(value=au.name(fscope), attr='ret', ctx=ast.Load()),
          [au.name(retval), au.name(do_return)])), body[-1] if body else s))
    options = ast.parse(_OPTIONS, mode='eval').body if s is node else au.ag('STD')
    scope_call = au.call(au.ag('FunctionScope'), [au.const(s.name), au.const(fscope), options])
    with_ = ast.With(items=[ast.withitem(context_expr=scope_call, optional_vars=au.name(fscope, store=True))],
                     body=body or [ast.Pass()])
    s.body = doc + [au.located(with_, s.body[0] if s.body else s)]
  node.name = 'tf__' + name
  return namer


def _collect_codes(code, display, helpers):
  converted_codes[code] = display
  for c in code.co_consts:
    if isinstance(c, types.CodeType):
      if c.co_name in helpers or c.co_name == '<lambda>' or c.co_name.startswith('<'):
        _collect_codes(c, display, helpers)
      else:
        _collect_codes(c, c.co_name, helpers)


def _build(fn):
  code = fn.__code__
  node = _parse(code)
  name = node.name
  namer = transform(node, code)
  ast.fix_missing_locations(node)
  source = ast.unparse(node)
  factory = au.funcdef('__ag_factory', ['ag__'] + list(code.co_freevars),
                       [node, ast.Return(value=au.name(node.name))])
  module = ast.Module(body=[au.located(factory, node)], type_ignores=[])
  ast.fix_missing_locations(module)
  compiled = compile(module, code.co_filename, 'exec', flags=code.co_flags & _FUTURE_FLAGS, dont_inherit=True)
  factory_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
  tf_code = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == node.name)
  _collect_codes(tf_code, name, namer.helpers)
  return _Entry(tf_code, name, source)


def _warn(fn, cause):
  key = fn.__code__
  if key in _warned:
    return
  _warned.add(key)
  sys.stderr.write('WARNING: AutoGraph could not transform %r and will run it as-is.\nCause: %s\n'
                   'To silence this warning, decorate the function with '
                   '@tf.autograph.experimental.do_not_convert\n' % (fn, cause))


def entry_for(fn, raise_errors=False):
  """The cached conversion of a Python function (None if it cannot be converted)."""
  code = fn.__code__
  hit = _entries.get(id(code))
  if hit is not None and hit[0] is code:
    if hit[1] is None and raise_errors:
      raise ConversionError(hit[2])
    return hit[1]
  try:
    entry = _build(fn)
    _entries[id(code)] = (code, entry, None)
    return entry
  except ConversionError as e:
    _entries[id(code)] = (code, None, str(e))
    if raise_errors or STRICT:
      raise
    if 'could not get source' in str(e):
      _warn(fn, e)
    return None
  except Exception as e:  # a converter bug must not stop the user's function from running
    _entries[id(code)] = (code, None, '%s: %s' % (type(e).__name__, e))
    if raise_errors or STRICT:
      raise
    _warn(fn, '%s: %s' % (type(e).__name__, e))
    return None


def is_convertible(fn):
  if not isinstance(fn, types.FunctionType):
    return False
  code = fn.__code__
  if code in converted_codes or code.co_name == '<lambda>':
    return False
  if getattr(fn, '__ag_do_not_convert', False) or getattr(fn, '_ag_do_not_convert', False):
    return False
  if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
    return False
  return True


def convert(fn, raise_errors=False):
  """The converted version of `fn` (a function or a bound method); `fn` itself where nothing is to be converted."""
  if isinstance(fn, types.MethodType):
    conv = convert(fn.__func__, raise_errors)
    return fn if conv is fn.__func__ else types.MethodType(conv, fn.__self__)
  if not is_convertible(fn):
    return fn
  entry = entry_for(fn, raise_errors)
  if entry is None:
    return fn
  cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
  closure = tuple(operators.AG_CELL if n == 'ag__' else cells[n] for n in entry.code.co_freevars)
  new = types.FunctionType(entry.code, fn.__globals__, entry.code.co_name, fn.__defaults__, closure)
  if fn.__kwdefaults__:
    new.__kwdefaults__ = dict(fn.__kwdefaults__)
  new.__module__ = fn.__module__
  new.__doc__ = fn.__doc__
  new.__qualname__ = fn.__qualname__.rpartition(fn.__name__)[0] + new.__name__
  new.__ag_original = fn
  return new


def to_code(fn):
  entry = entry_for(fn, raise_errors=True)
  return entry.source
