"""AutoGraph: to_code, eager behaviour, staged if/while/for with break/continue/return, and its errors.

Run: PYTHONPATH=build/python /usr/bin/python3 -m unittest -v test_autograph (from python/tests)."""

import ast
import inspect
import unittest

import flowscope as tf
from flowscope import autograph
from flowscope.autograph import converter, operators

converter.STRICT = True  # a function that does not convert fails the test instead of running unconverted


def line_of(fn, text):
  """The file line of the first source line of `fn` that contains `text`."""
  lines, first = inspect.getsourcelines(fn)
  for k, line in enumerate(lines):
    if text in line:
      return first + k
  raise AssertionError('%r not in the source of %s' % (text, fn.__name__))


def graph_text(fn, *args):
  return str(tf.function(fn).get_concrete_function(*args).graph.as_graph_def())


def op_count(text, op):
  return text.count('op: "%s"' % op)


def staged(text, kind):
  """Whether a GraphDef text has a staged `If` or `While` (stateless or not)."""
  return op_count(text, 'Stateless' + kind) + op_count(text, kind) > 0


# The functions under test.

def simple_relu(x):
  if tf.greater(x, 0):
    return x
  else:
    return 0


def sign(x):
  if x > 0:
    s = 1
  elif x < 0:
    s = -1
  else:
    s = 0
  return s


def early_return(x):
  if x > 0:
    return x * 2
  y = x - 1
  return y


def count_down(n):
  steps = 0
  while n > 0:
    n = n - 1
    steps = steps + 1
  return steps


def sum_with_break(n):
  total = 0
  for i in tf.range(n):
    if i == 5:
      break
    total += i
  return total


def sum_evens(n):
  total = 0
  for i in tf.range(n):
    if i % 2 == 1:
      continue
    total += i
  return total


def first_above(n, limit):
  for i in tf.range(n):
    if i * i > limit:
      return i
  return -1


def while_with_break(n):
  i = 0
  while i < n:
    if i == 3:
      break
    i += 1
  return i


def iterate_tensor(v):
  total = 0.
  for x in v:
    total += x
  return total


def nested_function(x):
  def clip(v):
    if v > 10:
      v = tf.constant(10)
    return v

  return clip(x) + 1


def helper_with_if(x):
  if x > 0:
    return x
  return -x


def calls_helper(x):
  return helper_with_if(x) * 2


def logical(x):
  if x > 0 and x < 10 or not x != -5:
    r = 1
  else:
    r = 0
  return r


def with_lambda(x):
  f = lambda v: v if v > 0 else -v
  return f(x)


def python_loop(x, n):
  for _ in range(n):
    x = x * 2
  return x


def python_if(x, flag):
  if flag:
    x = x + 1
  return x


def dtype_change(n):
  while n > 0:
    n = tf.cast(n, tf.float32) - 1.5
  return n


def shape_change(x):
  while tf.reduce_sum(x) < 10:
    x = tf.concat([x, x], 0)
  return x


def one_branch(x):
  if x > 0:
    y = x
  return y


def return_in_one_branch(x):
  if x > 0:
    return x
  else:
    x = x + 1


def branch_dtypes(x):
  if x > 0:
    y = 1
  else:
    y = 1.5
  return y


def return_in_while(n):
  i = 0
  while i < n:
    if i * i > 10:
      return i
    i += 1
  return -1


def fib(n):
  a, b = 0, 1
  for _ in tf.range(n):
    a, b = b, a + b
  return a


def tuple_state(n):
  pair = (tf.constant(0), tf.constant(1.0))
  for i in tf.range(n):
    pair = (pair[0] + i, pair[1] * 2.0)
  return pair


def nested_loops(n):
  total = 0
  for i in tf.range(n):
    j = 0
    while j < i:
      if j == 2:
        break
      total += 1
      j += 1
  return total


def for_else(n):
  found = -1
  for i in tf.range(n):
    if i == 3:
      found = i
      break
  else:
    found = 100
  return found


def while_true_tensor_break(n):
  i = 0
  while True:
    i += 1
    if i > n:
      break
  return i


COUNT = 0


def staged_global(x):
  global COUNT
  if x > 0:
    COUNT = COUNT + 1
  return x


class Base:

  def f(self, x):
    return x + 1


class Child(Base):

  def f(self, x):
    if x > 0:
      x = super().f(x)
    return x


_counter = [0]
GLOBAL_OFFSET = 100


def make_closure():
  scale = 3

  def f(x):
    nonlocal scale
    scale += 1
    if x > 0:
      x = x * scale
    return x + GLOBAL_OFFSET

  return f


class Model:

  def __init__(self):
    self.bias = 5

  def __call__(self, x):
    if x > 0:
      x = x + self.bias
    return x

  def method(self, x):
    if x > 0:
      return x + self.bias
    return x


class ToCodeTest(unittest.TestCase):

  def test_simple_relu_text(self):
    code = autograph.to_code(simple_relu)
    self.assertTrue(code.startswith('def tf__simple_relu(x):'), code)
    for part in ('ag__.if_stmt(', 'do_return', 'retval_', 'def get_state', 'def set_state', 'def if_body',
                 'def else_body', "('do_return', 'retval_'), 2)", 'return fscope.ret(retval_, do_return)',
                 'ag__.converted_call(ag__.ld(tf).greater, (ag__.ld(x), 0), None, fscope)'):
      self.assertIn(part, code)
    ast.parse(code)
    compile(code, '<to_code>', 'exec')

  def test_to_code_runs(self):
    namespace = {'ag__': operators, 'tf': tf}
    exec(compile(autograph.to_code(simple_relu), '<to_code>', 'exec'), namespace)
    fn = namespace['tf__simple_relu']
    self.assertEqual(fn(tf.constant(1)).numpy(), 1)
    self.assertEqual(fn(tf.constant(-1)), 0)
    text = str(tf.function(fn, autograph=False).get_concrete_function(tf.constant(1)).graph.as_graph_def())
    self.assertTrue(staged(text, 'If'), text)

  def test_to_code_entities(self):
    self.assertIn('def tf__method(self, x):', autograph.to_code(Model().method))
    self.assertIn('def tf__sign(x):', autograph.to_code(tf.function(sign)))
    self.assertIn('ag__.while_stmt(', autograph.to_code(count_down))
    self.assertIn('ag__.for_stmt(', autograph.to_code(sum_with_break))
    for fn in (sign, early_return, count_down, sum_with_break, sum_evens, first_above, while_with_break,
               nested_function, logical, with_lambda):
      compile(autograph.to_code(fn), '<to_code>', 'exec')

  def test_missing_attribute(self):
    with self.assertRaises(AttributeError) as cm:
      autograph.set_verbosity(1)
    self.assertIn("tf.autograph.set_verbosity is not in Flowscope's TensorFlow subset", str(cm.exception))
    self.assertTrue(callable(autograph.experimental.do_not_convert))
    self.assertEqual(autograph.to_graph(sign).__code__.co_filename, sign.__code__.co_filename)

  def test_lines_and_file_kept(self):
    conv = autograph.convert(sign)
    self.assertEqual(conv.__code__.co_filename, sign.__code__.co_filename)
    self.assertEqual(conv.__code__.co_firstlineno, sign.__code__.co_firstlineno)
    try:
      autograph.convert(one_branch)(-1)
    except UnboundLocalError as e:
      tb = e.__traceback__
    lines = []
    while tb is not None:
      if tb.tb_frame.f_code.co_filename == __file__:
        lines.append(tb.tb_lineno)
      tb = tb.tb_next
    self.assertIn(line_of(one_branch, 'return y'), lines)

  def test_do_not_convert(self):
    @autograph.experimental.do_not_convert
    def plain(x):
      return x
    self.assertIs(autograph.convert(plain), plain)


class EagerTest(unittest.TestCase):
  """The converted function computes what the original does (Python values and eager tensors)."""

  def check(self, fn, *args):
    want = fn(*args)
    got = autograph.convert(fn)(*args)
    if isinstance(want, tf.Tensor):
      self.assertEqual(got.numpy().tolist(), want.numpy().tolist())
    else:
      self.assertEqual(got, want)

  def test_same_results(self):
    for v in (-3, 0, 4):
      self.check(sign, v)
      self.check(sign, tf.constant(v))
      self.check(early_return, tf.constant(v))
      self.check(logical, tf.constant(v))
      self.check(with_lambda, tf.constant(v))
    self.check(count_down, tf.constant(4))
    self.assertEqual(autograph.convert(sum_with_break)(tf.constant(10)).numpy(), 10)
    self.check(sum_evens, tf.constant(7))
    self.check(first_above, tf.constant(10), 20)
    self.check(while_with_break, tf.constant(10))
    self.check(nested_function, tf.constant(30))
    self.check(calls_helper, tf.constant(-4))
    self.check(python_loop, tf.constant(1.5), 3)
    self.check(iterate_tensor, tf.constant([1., 2., 3.]))

  def test_closures_and_globals(self):
    f = make_closure()
    conv = autograph.convert(f)
    self.assertEqual(conv(1), 104)  # scale 4
    self.assertEqual(f(1), 105)  # the closure cell is shared: scale 5
    self.assertEqual(conv(tf.constant(1)).numpy(), 106)

  def test_methods_and_callables(self):
    m = Model()
    self.assertEqual(autograph.convert(m.method)(2), 7)
    self.assertEqual(operators.converted_call(m, (3,), None), 8)


class GraphTest(unittest.TestCase):

  def test_simple_relu(self):
    f = tf.function(simple_relu)
    self.assertEqual(f(tf.constant(1)).numpy(), 1)
    self.assertEqual(f(tf.constant(-1)).numpy(), 0)
    text = graph_text(simple_relu, tf.constant(1))
    self.assertEqual(op_count(text, 'StatelessIf'), 1, text)
    cond = text[text.index('op: "StatelessIf"'):]
    tout = cond[cond.index('key: "Tout"'):cond.index('key: "_lower_using_switch_merge"')]
    self.assertLess(tout.index('DT_BOOL'), tout.index('DT_INT32'), tout)

  def test_if_elif_else(self):
    f = tf.function(sign)
    self.assertEqual([f(tf.constant(v)).numpy() for v in (-3, 0, 4)], [-1, 0, 1])
    self.assertEqual(op_count(graph_text(sign, tf.constant(1)), 'StatelessIf'), 2)  # the elif's is in a branch

  def test_early_return(self):
    f = tf.function(early_return)
    self.assertEqual([f(tf.constant(v)).numpy() for v in (-3, 4)], [-4, 8])

  def test_while(self):
    f = tf.function(count_down)
    self.assertEqual(f(tf.constant(7)).numpy(), 7)
    self.assertTrue(staged(graph_text(count_down, tf.constant(1)), 'While'))

  def test_for_range_break(self):
    f = tf.function(sum_with_break)
    self.assertEqual(f(tf.constant(10)).numpy(), 10)
    self.assertEqual(f(tf.constant(3)).numpy(), 3)
    self.assertTrue(staged(graph_text(sum_with_break, tf.constant(1)), 'While'))

  def test_for_range_continue(self):
    f = tf.function(sum_evens)
    self.assertEqual(f(tf.constant(7)).numpy(), 0 + 2 + 4 + 6)

  def test_for_range_return(self):
    f = tf.function(first_above)
    self.assertEqual(f(tf.constant(10), tf.constant(20)).numpy(), 5)
    self.assertEqual(f(tf.constant(3), tf.constant(20)).numpy(), -1)

  def test_while_break(self):
    f = tf.function(while_with_break)
    self.assertEqual(f(tf.constant(10)).numpy(), 3)
    self.assertEqual(f(tf.constant(2)).numpy(), 2)

  def test_for_over_tensor(self):
    f = tf.function(iterate_tensor)
    self.assertAlmostEqual(float(f(tf.constant([1., 2., 3.5])).numpy()), 6.5)

  def test_nested_and_called_functions(self):
    f = tf.function(nested_function)
    self.assertEqual(f(tf.constant(30)).numpy(), 11)
    self.assertEqual(f(tf.constant(3)).numpy(), 4)
    g = tf.function(calls_helper)
    self.assertEqual(g(tf.constant(-4)).numpy(), 8)
    self.assertTrue(staged(graph_text(calls_helper, tf.constant(1)), 'If'))

  def test_logical_and_lambda(self):
    f = tf.function(logical)
    self.assertEqual([f(tf.constant(v)).numpy() for v in (-5, -1, 3, 12)], [1, 0, 1, 0])
    g = tf.function(with_lambda)
    self.assertEqual(g(tf.constant(-4)).numpy(), 4)
    self.assertTrue(staged(graph_text(with_lambda, tf.constant(1)), 'If'))

  def test_python_conditions_stay_python(self):
    text = graph_text(python_loop, tf.constant(1.), 3)
    self.assertEqual(op_count(text, 'Mul'), 3, text)
    self.assertFalse(staged(text, 'While'))
    text = graph_text(python_if, tf.constant(1), True)
    self.assertFalse(staged(text, 'If'))
    self.assertEqual(op_count(text, 'AddV2'), 1)
    text = graph_text(python_if, tf.constant(1), False)
    self.assertEqual(op_count(text, 'AddV2'), 0)

  def test_more_loops(self):
    f = tf.function(return_in_while)
    self.assertEqual([f(tf.constant(10)).numpy(), f(tf.constant(2)).numpy()], [4, -1])
    self.assertEqual(tf.function(fib)(tf.constant(10)).numpy(), 55)
    a, b = tf.function(tuple_state)(tf.constant(3))
    self.assertEqual((a.numpy(), b.numpy()), (3, 8.0))
    self.assertEqual(tf.function(nested_loops)(tf.constant(5)).numpy(), 0 + 1 + 2 + 2 + 2)
    g = tf.function(for_else)
    self.assertEqual([g(tf.constant(5)).numpy(), g(tf.constant(2)).numpy()], [3, 100])

  def test_super(self):
    self.assertEqual(tf.function(Child().f)(tf.constant(3)).numpy(), 4)

  def test_closure_in_graph(self):
    f = make_closure()
    g = tf.function(f)
    self.assertEqual(g(tf.constant(2)).numpy(), 108)  # scale 4 while tracing

  def test_method(self):
    m = Model()
    self.assertEqual(tf.function(m.method)(tf.constant(1)).numpy(), 6)


class ErrorTest(unittest.TestCase):

  def raises(self, fn, args, exc_type, message, line_text):
    with self.assertRaises(exc_type) as cm:
      tf.function(fn).get_concrete_function(*args)
    text = str(cm.exception)
    self.assertIn(message, text)
    self.assertIn('File "%s", line %d, in %s' % (__file__, line_of(fn, line_text), fn.__name__), text)
    self.assertIn('in user code:', text)

  def test_loop_dtype_change(self):
    self.raises(dtype_change, (tf.constant(3),), TypeError,
                "'n' has dtype int32 before the loop, but dtype float32 after one iteration", 'while n > 0')

  def test_loop_shape_change(self):
    self.raises(shape_change, (tf.constant([1]),), ValueError,
                "'x' has shape (1,) before the loop, but shape (2,) after one iteration. Use "
                "tf.autograph.experimental.set_loop_options to set shape invariants.", 'while tf.reduce_sum')

  def test_defined_in_one_branch(self):
    self.raises(one_branch, (tf.constant(1),), ValueError, "'y' must also be initialized in the else branch",
                'if x > 0')

  def test_return_in_one_branch(self):
    self.raises(return_in_one_branch, (tf.constant(1),), ValueError,
                'the else branch must also have a return statement.', 'if x > 0')

  def test_branch_dtypes(self):
    self.raises(branch_dtypes, (tf.constant(1),), TypeError,
                "'y' has dtype int32 in the main branch, but dtype float32 in the else branch", 'if x > 0')


class MoreErrorTest(unittest.TestCase):
  raises = ErrorTest.raises

  def test_python_loop_becomes_tensor(self):
    self.raises(while_true_tensor_break, (tf.constant(3),), NotImplementedError,
                'The condition of while loop started as non-Tensor, then changed to Tensor.', 'while True')

  def test_non_bool_condition(self):
    self.raises(bad_condition, (tf.constant(3),), ValueError,
                'condition of if statement expected to be `tf.bool` scalar, got Tensor("x:0", shape=(), '
                'dtype=int32)', 'if x:')

  def test_global_in_staged_if(self):
    self.raises(staged_global, (tf.constant(3),), NotImplementedError,
                "'COUNT' is a global variable assigned inside a TensorFlow if statement", 'if x > 0')


def bad_condition(x):
  if x:
    x = x + 1
  return x


if __name__ == '__main__':
  unittest.main()
