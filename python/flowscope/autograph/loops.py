"""`while` and `for` at run time: a staged while_loop when the loop is over Tensors, else a Python loop."""

from .values import (DryRun, Undefined, UndefinedReturnValue, check_globals, engine, flatten, is_symbolic, is_tensor,
                     spec_str, tf_module, to_tensor, unflatten, verify_condition)

_ranges = {}  # id(range tensor) → (tensor, delta sign) for tf.range results whose delta is known in Python


def static_range(f, args, kwargs):
  """`tf.range(...)` called from converted code: remembers the sign of a Python delta for a later `for`."""
  out = f(*args, **kwargs)
  if is_symbolic(out):
    names = ('start', 'limit', 'delta')
    bound = dict(zip(names, args))
    bound.update({k: v for k, v in kwargs.items() if k in names})
    delta = bound.get('delta', 1)
    if isinstance(delta, (int, float)) and delta != 0:
      if len(_ranges) > 4096:
        _ranges.clear()
      _ranges[id(out)] = (out, 1 if delta > 0 else -1)
  return out


# while

def while_stmt(test, body, get_state, set_state, symbol_names, opts, global_names=()):
  """`while test(): body()`; staged when the test (tried once in a scratch graph) is a symbolic Tensor."""
  C = engine()
  if C.in_tracing():
    with C.scratch_graph():
      init_test = test()
    if is_symbolic(init_test):
      check_globals(global_names, 'while loop')
      _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts)
      return
  _py_while_stmt(test, body)


def _py_while_stmt(test, body):
  while True:
    cond = test()
    if is_symbolic(cond):
      raise NotImplementedError(
          'The condition of while loop started as non-Tensor, then changed to Tensor. This may happen either '
          'because variables changed type, or when a break or return statement inside the loop depends on a '
          'Tensor condition. In both cases, changing to a TF loop should remove the error.')
    if not cond:
      break
    body()


def _placeholder_like(value):
  """Zeros with the dtype and shape of `value` (a loop variable's type after one iteration)."""
  tf = tf_module()
  leaves, spec = flatten(value)
  out = []
  relaxed = False
  for leaf in leaves:
    t = to_tensor(leaf)
    dims = t.shape.as_list() if t.shape.rank is not None else []
    if any(d is None for d in dims):
      relaxed = True
    out.append(tf.zeros([d if d is not None else 0 for d in dims], t.dtype))
  return unflatten(spec, iter(out)), relaxed


def _handle_undefineds(init, body, get_state, set_state, symbol_names):
  """Loop variables undefined before the loop get zeros of their type after one (dry) iteration."""
  undefined = [isinstance(v, (Undefined, UndefinedReturnValue)) for v in init]
  relaxed = set()
  first, failure = None, None
  if any(undefined):
    try:
      with engine().scratch_graph(), DryRun():
        # Python values become tensors, as they will in the loop, so that conditions on them stage as there.
        set_state(tuple(_autocast(v) for v in init))
        body()
        first = tuple(get_state())
    except (UnboundLocalError, TypeError, ValueError, KeyError) as e:
      failure = 'Note: AutoGraph tried to define it automatically, but ran into a {}: {}'.format(
          type(e).__name__, e)
    finally:
      set_state(tuple(init))
  out = []
  for k, (name, v) in enumerate(zip(symbol_names, init)):
    after = first[k] if first is not None else None
    if undefined[k] and after is not None and not isinstance(after, (Undefined, UndefinedReturnValue)):
      v, relax = _placeholder_like(after)
      if relax:
        relaxed.add(k)
    if isinstance(v, UndefinedReturnValue):
      raise NotImplementedError('a return statement cannot be placed inside this TensorFlow loop; this may happen '
                                'if a return statement depends on a static Python condition such as a '
                                'hyperparameter')
    msg = None
    if v is None:
      msg = "'{}' is not allowed to be None before the loop".format(name)
    elif isinstance(v, Undefined):
      msg = "'{}' must be defined before the loop".format(name)
    if msg is not None:
      raise ValueError(msg + ('\n' + failure if failure else ''))
    out.append(v)
  return out, relaxed


def _autocast(v):
  leaves, spec = flatten(v)
  if not any(isinstance(x, (bool, int, float)) for x in leaves):
    return v
  return unflatten(spec, iter([to_tensor(x) if isinstance(x, (bool, int, float)) else x for x in leaves]))


def _is_subshape(exit_shape, entry_shape):
  """Whether `exit_shape` is at least as specific as `entry_shape`."""
  if entry_shape.rank is None:
    return True
  if exit_shape.rank != entry_shape.rank:
    return False
  for a, b in zip(exit_shape.as_list(), entry_shape.as_list()):
    if b is not None and a != b:
      return False
  return True


def _tf_while_stmt(test, body, get_state, set_state, symbol_names, opts):
  init, relaxed = _handle_undefineds(list(get_state()), body, get_state, set_state, symbol_names)
  entry = []  # per loop variable: (converted leaves, structure)
  for name, v in zip(symbol_names, init):
    leaves, spec = flatten(v)
    try:
      entry.append(([to_tensor(x) for x in leaves], spec))
    except Exception as e:
      raise TypeError("'{}' cannot be a loop variable of a TensorFlow loop: {}".format(name, e)) from e

  def unpack(flat):
    it = iter(flat)
    return tuple(unflatten(spec, it) for _, spec in entry)

  def cond_fn(*flat):
    set_state(unpack(flat))
    cond = test()
    if not is_tensor(cond):
      cond = tf_module().convert_to_tensor(cond)
    return verify_condition(cond, 'while loop')

  def body_fn(*flat):
    set_state(unpack(flat))
    body()
    out = []
    for k, (name, v) in enumerate(zip(symbol_names, get_state())):
      out.extend(_verify_loop_var(name, entry[k], v, k in relaxed))
    return out

  flat_init = [t for leaves, _ in entry for t in leaves]
  outs = engine().while_loop(cond_fn, body_fn, flat_init)
  set_state(unpack(outs))


def _verify_loop_var(name, entry, value, relaxed):
  entry_leaves, entry_spec = entry
  if value is None:
    raise ValueError("'{}' is None at the end of the iteration.".format(name))
  if isinstance(value, (Undefined, UndefinedReturnValue)):
    raise ValueError("'{}' must be defined before the loop".format(name))
  leaves, spec = flatten(value)
  if spec != entry_spec:
    raise TypeError("'{}' does not have the same nested structure after one iteration.\n\n"
                    'The two structures do not have the same nested structure.\n\n'
                    'First structure: {}\n\nSecond structure: {}'.format(name, spec_str(entry_spec),
                                                                            spec_str(spec)))
  out = []
  for before, after in zip(entry_leaves, leaves):
    after = to_tensor(after, before.dtype)
    if after.dtype != before.dtype:
      raise TypeError("'{}' has dtype {} before the loop, but dtype {} after one iteration".format(
          name, before.dtype.name, after.dtype.name))
    if not relaxed and not _is_subshape(after.shape, before.shape):
      raise ValueError("'{}' has shape {} before the loop, but shape {} after one iteration. Use "
                       'tf.autograph.experimental.set_loop_options to set shape invariants.'.format(
                           name, before.shape, after.shape))
    out.append(after)
  return out


# for

def for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts, global_names=()):
  """`for target in iter_: body(target)`, also stopping when `extra_test()` (break/return flags) is false."""
  if is_symbolic(iter_):
    check_globals(global_names, 'for loop')
    C = engine()
    producer = C.producer(iter_)
    if producer is not None and producer[0] == 'Range':
      _tf_range_for_stmt(iter_, producer[1], extra_test, body, get_state, set_state, symbol_names, opts)
    else:
      _tf_tensor_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts)
    return
  _py_for_stmt(iter_, extra_test, body)


def _py_for_stmt(iter_, extra_test, body):
  for target in iter_:
    if extra_test is not None:
      go = extra_test()
      if is_symbolic(go):
        raise NotImplementedError('break and return statements which depend on a TF condition are not supported '
                                  'in Python for loops. Did you intend to make it a TF loop?')
      if not go:
        break
    body(target)


def _with_extra_test(main_test, extra_test):
  tf = tf_module()
  if extra_test is None:
    return main_test
  extra = extra_test()
  if is_tensor(extra):
    return tf.logical_and(main_test, extra)
  return main_test if extra else tf.logical_and(main_test, tf.constant(False))


def _augmented_loop(start, step_body, test_of, extra_test, body, get_state, set_state, symbol_names, opts):
  """A while loop over (iterate,) + state, calling `body(value)` for each iterate."""
  iterate = [start]

  def aug_get_state():
    return (iterate[0],) + tuple(get_state())

  def aug_set_state(values):
    iterate[0] = values[0]
    set_state(tuple(values[1:]))

  def aug_body():
    body(step_body(iterate[0]))
    iterate[0] = iterate[0] + 1 if test_of is None else test_of[1](iterate[0])

  def aug_test():
    return _with_extra_test(test_of[0](iterate[0]), extra_test)

  _tf_while_stmt(aug_test, aug_body, aug_get_state, aug_set_state, ('<internal iterate>',) + tuple(symbol_names),
                 opts)


def _tf_range_for_stmt(iter_, inputs, extra_test, body, get_state, set_state, symbol_names, opts):
  tf = tf_module()
  start, limit, delta = [x if x.shape.rank == 0 else tf.reshape(x, []) for x in inputs]  # Range takes scalars
  known = _ranges.get(id(iter_))
  sign = known[1] if known is not None and known[0] is iter_ else 0

  def main_test(i):
    if sign > 0:
      return i < limit
    if sign < 0:
      return i > limit
    return tf.logical_or(tf.logical_and(delta >= 0, i < limit), tf.logical_and(delta < 0, i > limit))

  _augmented_loop(start, lambda i: i, (main_test, lambda i: i + delta), extra_test, body, get_state, set_state,
                  symbol_names, opts)


def _tf_tensor_for_stmt(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
  tf = tf_module()
  shape = iter_.shape
  if shape.rank == 0:
    raise TypeError('Cannot iterate over a scalar tensor.')
  dims = shape.as_list() if shape.rank is not None else [None]
  n = dims[0] if dims[0] is not None else tf.gather(tf.shape(iter_), 0)
  _augmented_loop(tf.constant(0), lambda i: tf.gather(iter_, i), (lambda i: i < n, lambda i: i + 1), extra_test,
                  body, get_state, set_state, symbol_names, opts)
