"""Values AutoGraph's runtime works with: undefined markers, tensor checks and conversions, nested state, and the
staged cond shared by `if` statements, conditional expressions and lazy `and`/`or`."""

import sys

_tf = None
_C = None
_dry_run = [0]


def tf_module():
  global _tf
  if _tf is None:
    import flowscope
    _tf = flowscope
  return _tf


def engine():
  global _C
  if _C is None:
    from flowscope import _flowscope
    _C = _flowscope
  return _C


class Undefined:
  """The value of a name that is not bound yet (so `get_state` can read it)."""

  __slots__ = ('symbol_name',)

  def __init__(self, symbol_name):
    self.symbol_name = symbol_name

  def read(self):
    raise UnboundLocalError("'{}' is used before assignment".format(self.symbol_name))

  def __repr__(self):
    return self.symbol_name


class UndefinedReturnValue:
  """`retval_` before a return statement ran."""

  __slots__ = ()

  def __repr__(self):
    return 'UndefinedReturnValue()'


def ld(v):
  """A name read in converted code."""
  if isinstance(v, Undefined):
    return v.read()
  return v


def is_tensor(v):
  tf = _tf or sys.modules.get('flowscope')
  return tf is not None and isinstance(v, tf.Tensor)


def is_symbolic(v):
  return is_tensor(v) and v._symbolic


def dry_running():
  return _dry_run[0] > 0


class DryRun:
  def __enter__(self):
    _dry_run[0] += 1

  def __exit__(self, *exc):
    _dry_run[0] -= 1
    return False


def verify_condition(cond, what):
  """A bool scalar Tensor from the condition of a staged statement (one-element conditions are reshaped)."""
  tf = tf_module()
  hint = 'to check for None, use `is not None`'
  if cond.dtype != tf.bool:
    raise ValueError('condition of {} expected to be `tf.bool` scalar, got {}; to use as boolean Tensor, use '
                     '`tf.cast`; {}'.format(what, cond, hint))
  rank = cond.shape.rank
  if rank == 0:
    return cond
  if rank is not None:
    size = 1
    for d in cond.shape.as_list():
      size *= d if d is not None else 1
    if size > 1:
      raise ValueError('condition of {} expected to be `tf.bool` scalar, got {}; {}'.format(what, cond, hint))
  return tf.reshape(cond, [])


def to_tensor(v, dtype_hint=None):
  if is_tensor(v):
    return v
  tf = tf_module()
  if dtype_hint is not None:
    try:
      return tf.convert_to_tensor(v, dtype=dtype_hint)
    except Exception:  # e.g. a Python float where the hint is int32: convert as it is, the dtype check reports it
      pass
  return tf.convert_to_tensor(v)


# Nested state: a value is a leaf, or a tuple/list (namedtuples included) of values.

def flatten(v):
  if isinstance(v, (tuple, list)):
    leaves, specs = [], []
    for item in v:
      l, s = flatten(item)
      leaves.extend(l)
      specs.append(s)
    return leaves, (type(v), tuple(specs))
  return [v], None


def unflatten(spec, it):
  if spec is None:
    return next(it)
  kind, children = spec
  items = [unflatten(c, it) for c in children]
  if kind is list:
    return items
  if kind is tuple:
    return tuple(items)
  if hasattr(kind, '_fields'):
    return kind(*items)
  return kind(items)


def spec_str(spec):
  if spec is None:
    return '.'
  kind, children = spec
  inner = ', '.join(spec_str(c) for c in children)
  return '[%s]' % inner if kind is list else '(%s)' % inner


def _check_branch_values(vals, names, branch):
  for name, v in zip(names, vals):
    if isinstance(v, Undefined):
      raise ValueError("'{}' must also be initialized in the {} branch".format(name, branch))
    if isinstance(v, UndefinedReturnValue):
      raise ValueError('the {} branch must also have a return statement.'.format(branch))
    if v is None:
      raise ValueError("'{}' is None at the end of the {} branch.".format(name, branch))


def staged_cond(cond, true_fn, false_fn, names):
  """Stages `cond` with branches returning tuples of values named `names`; returns the merged values."""
  results = [None, None]

  def wrap(idx, fn, branch):
    def run():
      vals = tuple(fn())
      _check_branch_values(vals, names, branch)
      other = results[1 - idx]
      flat, specs = [], []
      for k, (name, v) in enumerate(zip(names, vals)):
        leaves, spec = flatten(v)
        hints = [None] * len(leaves)
        if other is not None:
          o_leaves, o_spec = other[k]
          if o_spec != spec:
            first, second = (o_spec, spec) if idx == 1 else (spec, o_spec)
            raise TypeError("'{}' must have the same nested structure in the main and else branches:\n\n"
                            'The two structures do not have the same nested structure.\n\n'
                            'First structure: {}\n\nSecond structure: {}'.format(name, spec_str(first),
                                                                                    spec_str(second)))
          hints = [t.dtype for t in o_leaves]
        leaves = [to_tensor(x, h) for x, h in zip(leaves, hints)]
        if other is not None:
          for t, o in zip(leaves, other[k][0]):
            if t.dtype != o.dtype:
              main, orelse = (o, t) if idx == 1 else (t, o)
              raise TypeError("'{}' has dtype {} in the main branch, but dtype {} in the else branch".format(
                  name, main.dtype.name, orelse.dtype.name))
        specs.append((leaves, spec))
        flat.extend(leaves)
      results[idx] = specs
      if not flat:  # a cond needs an output
        flat = [tf_module().constant(0)]
      return flat
    return run

  outs = engine().cond(cond, wrap(0, true_fn, 'main'), wrap(1, false_fn, 'else'))
  main = results[0] if results[0] is not None else results[1]
  it = iter(outs)
  return tuple(unflatten(spec, it) for _, spec in main)


def check_globals(global_names, what):
  if global_names:
    raise NotImplementedError(
        "'{}' is a global variable assigned inside a TensorFlow {} (its condition is a Tensor); AutoGraph does "
        'not stage assignments to globals. Assign it outside the statement, or use a tf.Variable.'.format(
            global_names[0], what))
