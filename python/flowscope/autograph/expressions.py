"""Expression rewrites: calls through `ag__.converted_call`, names read through `ag__.ld`, `and`/`or`/`not` through
`ag__.and_`/`or_`/`not_` and `a if c else b` through `ag__.if_exp` (lazy operands become lambdas)."""

import ast

from . import ast_util as au

# Calls left as they are: frame-sensitive builtins, and print (a Python print shows symbolic tensors at trace time,
# as in TensorFlow).
_DIRECT_CALLS = {'super', 'print', 'locals', 'globals', 'vars', 'eval', 'exec'}
_NOT_IN_LAMBDA = (ast.NamedExpr, ast.Yield, ast.YieldFrom, ast.Await)


class ExpressionTransformer(ast.NodeTransformer):
  """Rewrites the expressions of a function body. `scopes` maps each user FunctionDef to its fscope name."""

  def __init__(self, namer, scopes, fscope, self_name=None):
    self.namer = namer
    self.scopes = scopes
    self.fscope = [fscope]
    self.self_name = self_name  # a method's first parameter: `super()` becomes `super(__class__, self)`

  def _skip_name(self, id_):
    return id_ == 'ag__' or id_ in self.namer.generated or id_ == 'super'

  # Scopes.
  def visit_FunctionDef(self, node):
    # Decorators, defaults and annotations are evaluated as they were; only the body is rewritten.
    self.fscope.append(self.scopes.get(id(node), self.fscope[-1]))
    node.body = [self.visit(s) for s in node.body]
    node.body = [s for s in node.body if s is not None]
    self.fscope.pop()
    return node

  visit_AsyncFunctionDef = visit_FunctionDef

  def visit_ClassDef(self, node):
    return node  # classes defined inside a converted function are left alone

  def visit_Lambda(self, node):
    node.body = self.visit(node.body)
    return node

  # Names.
  def visit_Name(self, node):
    if isinstance(node.ctx, ast.Load) and not self._skip_name(node.id):
      return au.located(ast.copy_location(au.call(au.ag('ld'), [node]), node), node)
    return node

  # Calls.
  def visit_Call(self, node):
    func = node.func
    if (isinstance(func, ast.Name) and func.id == 'super' and not node.args and not node.keywords and
        self.self_name and len(self.fscope) == 2):
      node.args = [au.located(au.name('__class__'), node), au.located(au.name(self.self_name), node)]
      return node
    if isinstance(func, ast.Name) and (func.id in _DIRECT_CALLS or self._skip_name(func.id)):
      self.generic_visit(node)
      if func.id in _DIRECT_CALLS:
        node.func = func  # print(...) stays print(...), not ag__.ld(print)(...)
      return node
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == 'ag__':
      self.generic_visit(node)
      return node
    self.generic_visit(node)
    args = au.tuple_(node.args)
    if node.keywords:
      kwargs = au.call('dict', keywords=node.keywords)
    else:
      kwargs = au.const(None)
    new = au.call(au.ag('converted_call'), [node.func, args, kwargs, au.name(self.fscope[-1])])
    return au.located(ast.copy_location(new, node), node)

  # Logical and conditional expressions.
  def visit_BoolOp(self, node):
    self.generic_visit(node)
    if au.contains(node, _NOT_IN_LAMBDA):
      return node
    fn = 'and_' if isinstance(node.op, ast.And) else 'or_'
    values = node.values
    expr = values[-1]
    for v in reversed(values[:-1]):
      expr = au.call(au.ag(fn), [au.lambda_(v), au.lambda_(expr)])
    return au.located(ast.copy_location(expr, node), node)

  def visit_UnaryOp(self, node):
    self.generic_visit(node)
    if isinstance(node.op, ast.Not):
      return au.located(ast.copy_location(au.call(au.ag('not_'), [node.operand]), node), node)
    return node

  def visit_IfExp(self, node):
    text = ast.unparse(node.test)
    self.generic_visit(node)
    if au.contains(node, _NOT_IN_LAMBDA):
      return node
    new = au.call(au.ag('if_exp'), [node.test, au.lambda_(node.body), au.lambda_(node.orelse), au.const(text)])
    return au.located(ast.copy_location(new, node), node)


def logical_only(expr, namer):
  """Converts `not a and not b`-style generated tests (no calls, no ld of generated names)."""
  return ExpressionTransformer(namer, {}, 'fscope').visit(expr)
