"""Small helpers to build AST nodes for AutoGraph's generated code."""

import ast

_NO_ARGS = dict(posonlyargs=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])


class Namer:
  """Hands out names that the converted function does not use yet (`get_state`, `get_state_1`, ...)."""

  def __init__(self, tree):
    self.used = set()
    for n in ast.walk(tree):
      if isinstance(n, ast.Name):
        self.used.add(n.id)
      elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        self.used.add(n.name)
      elif isinstance(n, ast.arg):
        self.used.add(n.arg)
      elif isinstance(n, (ast.Global, ast.Nonlocal)):
        self.used.update(n.names)
      elif isinstance(n, ast.alias):
        self.used.add(n.asname or n.name.split('.')[0])
    self.generated = set()
    self.helpers = set()  # names of generated functions (get_state, if_body, ...)

  def new(self, base, helper=False):
    name, k = base, 0
    while name in self.used:
      k += 1
      name = '%s_%d' % (base, k)
    self.used.add(name)
    self.generated.add(name)
    if helper:
      self.helpers.add(name)
    return name


def name(id_, store=False):
  return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def ag(attr):
  """`ag__.<attr>`"""
  return ast.Attribute(value=name('ag__'), attr=attr, ctx=ast.Load())


def call(func, args=(), keywords=()):
  if isinstance(func, str):
    func = name(func)
  return ast.Call(func=func, args=list(args), keywords=list(keywords))


def const(value):
  return ast.Constant(value=value)


def assign(target, value):
  if isinstance(target, str):
    target = name(target, store=True)
  return ast.Assign(targets=[target], value=value)


def not_(expr):
  return ast.UnaryOp(op=ast.Not(), operand=expr)


def lambda_(body):
  return ast.Lambda(args=ast.arguments(args=[], **_NO_ARGS), body=body)


def funcdef(fname, params, body):
  return ast.FunctionDef(name=fname, args=ast.arguments(args=[ast.arg(arg=p) for p in params], **_NO_ARGS),
                         body=body or [ast.Pass()], decorator_list=[], returns=None, type_comment=None)


def tuple_(elts, store=False):
  return ast.Tuple(elts=list(elts), ctx=ast.Store() if store else ast.Load())


def located(nodes, src):
  """Gives every node in `nodes` (a node or a list) that has no position the start of `src`'s, recursively."""
  lineno = getattr(src, 'lineno', 1)
  col = getattr(src, 'col_offset', 0)
  todo = list(nodes) if isinstance(nodes, list) else [nodes]
  roots = set(map(id, todo))
  while todo:
    n = todo.pop()
    if 'lineno' in n._attributes:
      if getattr(n, 'lineno', None) is None:
        n.lineno, n.col_offset, n.end_lineno, n.end_col_offset = lineno, col, lineno, col
      elif id(n) not in roots:
        continue  # a user's node: it and its children keep their own positions
    todo.extend(ast.iter_child_nodes(n))
  return nodes


def contains(node, types, scope_local=True):
  """Whether `node` contains a node of `types` (nested function/lambda/class scopes excluded)."""
  todo = [node]
  while todo:
    n = todo.pop()
    if isinstance(n, types):
      return True
    if scope_local and n is not node and isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                                        ast.ClassDef)):
      continue
    todo.extend(ast.iter_child_nodes(n))
  return False
