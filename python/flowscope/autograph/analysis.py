"""Static analysis for AutoGraph: which names a piece of code reads and binds, liveness and definedness.

The analyses run on one function scope at a time, after the jump rewrites (break, continue and return are flags by
then, so control flow is structured) and before anything else. They annotate each `If`, `While` and `For` node:

- `_ag_modified`: names bound anywhere in the statement (bodies included, nested scopes excluded),
- `_ag_live_out`: names read after the statement before being rebound,
- `_ag_live_in`: names live on entry (for an `if`: read in a branch before being bound there),
- `_ag_live_body`: for loops, names live at the start of the body (for a `for`, after its target is bound),
- `_ag_must` / `_ag_may`: names certainly / possibly bound when the statement starts.
"""

import ast

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_COMPOUND = (ast.If, ast.While, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith, ast.Try)
if hasattr(ast, 'TryStar'):
  _COMPOUND = _COMPOUND + (ast.TryStar,)


def target_names(target):
  """Names bound by an assignment target (`a`, `a, (b, *c)`); attribute and subscript targets bind none."""
  if isinstance(target, ast.Name):
    return {target.id}
  if isinstance(target, (ast.Tuple, ast.List)):
    out = set()
    for elt in target.elts:
      out |= target_names(elt)
    return out
  if isinstance(target, ast.Starred):
    return target_names(target.value)
  return set()


def _arg_names(args):
  names = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
  if args.vararg:
    names.append(args.vararg.arg)
  if args.kwarg:
    names.append(args.kwarg.arg)
  return set(names)


def scope_locals(node):
  """Names local to a function or lambda: its parameters and what its body binds, minus global/nonlocal ones."""
  bound = _arg_names(node.args)
  if isinstance(node, ast.Lambda):
    return bound | _walrus_names(node.body)
  declared = set()
  for stmt in node.body:
    bound |= bound_names(stmt)
    for sub in _walk_scope(stmt):
      if isinstance(sub, (ast.Global, ast.Nonlocal)):
        declared |= set(sub.names)
  return bound - declared


def _walk_scope(node):
  """ast.walk that does not enter nested scopes (it yields the scope node itself)."""
  todo = [node]
  while todo:
    n = todo.pop()
    yield n
    if n is not node and isinstance(n, _SCOPES):
      continue
    todo.extend(ast.iter_child_nodes(n))


def _walrus_names(node):
  return {n.target.id for n in _walk_scope(node) if isinstance(n, ast.NamedExpr)}


def free_reads(node):
  """Names a nested function, lambda or comprehension reads from its enclosing scope."""
  if isinstance(node, _COMPREHENSIONS):
    local = set()
    for gen in node.generators:
      local |= target_names(gen.target)
    return reads(node, inside=True) - local
  inner = set()
  parts = node.body if isinstance(node.body, list) else [node.body]
  for part in parts:
    inner |= reads(part)
  return inner - scope_locals(node)


def reads(node, inside=False):
  """Names an expression or statement reads (nested scopes contribute their free names)."""
  out = set()
  todo = [node]
  while todo:
    n = todo.pop()
    if isinstance(n, ast.Name):
      if isinstance(n.ctx, ast.Load):
        out.add(n.id)
      continue
    if isinstance(n, _SCOPES) and (n is not node or not inside):
      if isinstance(n, ast.ClassDef):
        todo.extend(n.bases + n.keywords + n.decorator_list)
        for stmt in n.body:  # a class body reads enclosing names at definition time
          todo.append(stmt)
        continue
      if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
        todo.extend(n.decorator_list)
      todo.extend(n.args.defaults + [d for d in n.args.kw_defaults if d is not None])
      out |= free_reads(n)
      continue
    if isinstance(n, _COMPREHENSIONS) and (n is not node or not inside):
      out |= free_reads(n)
      continue
    if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
      out.add(n.target.id)
    todo.extend(ast.iter_child_nodes(n))
  return out


def bound_names(stmt):
  """Names a statement binds in its scope, bodies of compound statements included, nested scopes excluded."""
  out = set()
  todo = [stmt]
  while todo:
    n = todo.pop()
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
      out.add(n.name)
      todo.extend(n.decorator_list)
      if not isinstance(n, ast.ClassDef):
        todo.extend(n.args.defaults + [d for d in n.args.kw_defaults if d is not None])
      continue
    if isinstance(n, ast.Lambda):
      continue
    if isinstance(n, _COMPREHENSIONS):  # only a walrus inside binds in the enclosing scope
      out |= _walrus_names(n)
      continue
    if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
      out.add(n.id)
    elif isinstance(n, (ast.Import, ast.ImportFrom)):
      for alias in n.names:
        if alias.name != '*':
          out.add(alias.asname or alias.name.split('.')[0])
    elif isinstance(n, ast.ExceptHandler) and n.name:
      out.add(n.name)
    elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
      out.add(n.name)
    elif isinstance(n, ast.MatchMapping) and n.rest:
      out.add(n.rest)
    todo.extend(ast.iter_child_nodes(n))
  return out


def block_bound(stmts):
  out = set()
  for s in stmts:
    out |= bound_names(s)
  return out


def _header_reads(stmt):
  """Reads of a compound statement outside its bodies."""
  if isinstance(stmt, (ast.If, ast.While)):
    return reads(stmt.test)
  if isinstance(stmt, (ast.For, ast.AsyncFor)):
    r = reads(stmt.iter) | (reads(stmt.target) if not isinstance(stmt.target, ast.Name) else set())
    return r | set(getattr(stmt, '_ag_extra_test', ()))
  if isinstance(stmt, (ast.With, ast.AsyncWith)):
    r = set()
    for item in stmt.items:
      r |= reads(item.context_expr)
      if item.optional_vars is not None and not isinstance(item.optional_vars, ast.Name):
        r |= reads(item.optional_vars)
    return r
  r = set()
  for h in getattr(stmt, 'handlers', ()):
    if h.type is not None:
      r |= reads(h.type)
  return r


class Liveness:
  """Backward liveness over structured statements. `always` is live everywhere (names nested functions read)."""

  def __init__(self, always=()):
    self.always = set(always)

  def block(self, stmts, live_out):
    live = set(live_out) | self.always
    for s in reversed(stmts):
      live = self.stmt(s, live) | self.always
    return live

  def stmt(self, s, live_out):
    if isinstance(s, ast.If):
      body = self.block(s.body, live_out)
      orelse = self.block(s.orelse, live_out)
      live_in = _header_reads(s) | body | orelse
      s._ag_live_out, s._ag_live_in = set(live_out), live_in
      return live_in
    if isinstance(s, ast.While):
      after = self.block(s.orelse, live_out)
      head = _header_reads(s) | after
      for _ in range(50):
        body = self.block(s.body, head)
        new = _header_reads(s) | after | body
        if new == head:
          break
        head = new
      s._ag_live_out, s._ag_live_body, s._ag_live_in = after, body, head
      return head
    if isinstance(s, (ast.For, ast.AsyncFor)):
      after = self.block(s.orelse, live_out)
      tnames = target_names(s.target)
      extra = set(getattr(s, '_ag_extra_test', ()))
      head = after | extra
      for _ in range(50):
        body = self.block(s.body, head)
        new = after | extra | (body - tnames) | (reads(s.target) if not isinstance(s.target, ast.Name) else set())
        if new == head:
          break
        head = new
      s._ag_live_out, s._ag_live_body = after, body - tnames
      s._ag_live_in = head | reads(s.iter)
      return s._ag_live_in
    if isinstance(s, (ast.With, ast.AsyncWith)):
      return _header_reads(s) | self.block(s.body, live_out)
    if isinstance(s, _COMPOUND):  # try: any point of the body may jump to a handler
      final = self.block(s.finalbody, live_out)
      handlers = set()
      for h in s.handlers:
        handlers |= self.block(h.body, final)
      orelse = self.block(s.orelse, final)
      body = self.block(s.body, orelse | handlers | final)
      return _header_reads(s) | body | handlers | final
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
      return (live_out - {s.name}) | reads(s)
    if isinstance(s, ast.Match):
      r = reads(s.subject)
      for case in s.cases:
        r |= self.block(case.body, live_out) | (reads(case.guard) if case.guard else set())
      return r | live_out
    if isinstance(s, ast.Return):
      return reads(s)
    kills = set()
    if isinstance(s, ast.Assign):
      for t in s.targets:
        kills |= target_names(t)
    elif isinstance(s, ast.AnnAssign) and s.value is not None:
      kills = target_names(s.target)
    elif isinstance(s, (ast.Import, ast.ImportFrom)):
      kills = bound_names(s)
    return (live_out - kills) | reads(s)


class Definedness:
  """Forward analysis: names certainly (`must`) and possibly (`may`) bound at each control flow statement."""

  def block(self, stmts, must, may):
    for s in stmts:
      must, may = self.stmt(s, must, may)
    return must, may

  def stmt(self, s, must, may):
    if isinstance(s, ast.If):
      s._ag_must, s._ag_may = set(must), set(may)
      m1, y1 = self.block(s.body, must, may)
      m2, y2 = self.block(s.orelse, must, may)
      bound = _converted_binds(s)  # the converted statement binds its state (to Undefined at worst)
      return (m1 & m2) | bound, y1 | y2 | bound
    if isinstance(s, (ast.While, ast.For, ast.AsyncFor)):
      s._ag_must, s._ag_may = set(must), set(may)
      loop_may = may | block_bound(s.body)
      entry = set(must)
      if isinstance(s, (ast.For, ast.AsyncFor)):
        entry |= target_names(s.target)
        loop_may |= target_names(s.target)
      self.block(s.body, entry, loop_may)
      bound = _converted_binds(s)
      return self.block(s.orelse, must | bound, loop_may | bound)
    if isinstance(s, (ast.With, ast.AsyncWith)):
      for item in s.items:
        if item.optional_vars is not None:
          must = must | target_names(item.optional_vars)
      return self.block(s.body, must, may | target_names_of_items(s))
    if isinstance(s, _COMPOUND):  # try
      all_bound = bound_names(s)
      self.block(s.body, must, may)
      for h in s.handlers:
        self.block(h.body, must, may | all_bound)
      self.block(s.orelse, must, may | all_bound)
      fm, _ = self.block(s.finalbody, must, may | all_bound)
      return fm, may | all_bound
    if isinstance(s, ast.Match):
      for case in s.cases:
        self.block(case.body, must, may | bound_names(s))
      return must, may | bound_names(s)
    b = bound_names(s)
    if isinstance(s, ast.Delete):
      return must - b, may
    return must | b, may | b


def _converted_binds(s):
  modified = getattr(s, '_ag_modified', set())
  if isinstance(s, ast.If):
    return modified & (s._ag_live_out | s._ag_live_in)
  if isinstance(s, ast.While):
    return modified & (s._ag_live_out | s._ag_live_in)
  return modified & (s._ag_live_out | s._ag_live_body)


def target_names_of_items(s):
  out = set()
  for item in s.items:
    if item.optional_vars is not None:
      out |= target_names(item.optional_vars)
  return out


def analyze_function(fdef, always_live=()):
  """Annotates the control flow statements of one function scope (see the module docstring)."""
  closure_reads = set()
  declared = set()
  for n in _walk_scope_all(fdef):
    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
      closure_reads |= free_reads(n)
    elif isinstance(n, (ast.Global, ast.Nonlocal)):
      declared |= set(n.names)
  Liveness(closure_reads).block(fdef.body, set(always_live))
  for n in _walk_scope_all(fdef):
    if isinstance(n, (ast.If, ast.While, ast.For, ast.AsyncFor)):
      bound = block_bound(n.body) | block_bound(n.orelse)
      if isinstance(n, (ast.For, ast.AsyncFor)):
        bound |= target_names(n.target)
      n._ag_modified = bound
  params = _arg_names(fdef.args) | declared
  Definedness().block(fdef.body, params, params)
  return declared


def _walk_scope_all(fdef):
  for stmt in fdef.body:
    yield from _walk_scope(stmt)


def globals_declared(fdef):
  out = set()
  for n in _walk_scope_all(fdef):
    if isinstance(n, ast.Global):
      out |= set(n.names)
  return out
