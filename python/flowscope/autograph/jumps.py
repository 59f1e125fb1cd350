"""Rewrites `break`, `continue` and `return` into flags, so that every block is entered at the top and left at the
bottom (what staged control flow needs). Each pass works on one function scope; nested functions have their own.

- break:    `break_ = False` before the loop; `break` becomes `break_ = True`; the rest of the body is guarded by
            `if not break_:`; the loop also tests `not break_`; a loop's `else:` runs `if not break_`.
- continue: `continue_ = False` at the top of the body; `continue` becomes `continue_ = True`; the rest is guarded.
- return:   `do_return = False` / `retval_ = ag__.UndefinedReturnValue()` at the top; `return v` becomes
            `try: do_return = True; retval_ = v / except: do_return = False; raise`; later statements are guarded by
            `if not do_return:` and loops that may return also test `not do_return`.
"""

import ast

from . import ast_util as au

NEVER, MAY, ALWAYS = 0, 1, 2
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.While, ast.For)


def _has_jump(stmts, types, into_loops):
  todo = list(stmts)
  while todo:
    n = todo.pop()
    if isinstance(n, types):
      return True
    if isinstance(n, _SCOPES) or (not into_loops and isinstance(n, _LOOPS + (ast.AsyncFor,))):
      continue
    todo.extend(ast.iter_child_nodes(n))
  return False


def _combine(a, b):
  if a == b:
    return a
  return MAY


class _Guard:
  """Replaces the jump statements of `kind` in a block and guards what follows a statement that may have jumped."""

  def __init__(self, kind, flag, into_loops, replacement):
    self.kind, self.flag, self.into_loops, self.replacement = kind, flag, into_loops, replacement

  def block(self, stmts):
    out = []
    for i, s in enumerate(stmts):
      new, status = self.stmt(s)
      out.extend(new)
      if status == ALWAYS:
        return out, ALWAYS
      if status == MAY:
        rest, _ = self.block(stmts[i + 1:])
        if rest:
          out.append(au.located(ast.If(test=au.not_(au.name(self.flag)), body=rest, orelse=[]), stmts[i + 1]))
        return out, MAY
    return out, NEVER

  def stmt(self, s):
    if isinstance(s, self.kind):
      return au.located(self.replacement(s), s), ALWAYS
    if isinstance(s, ast.If):
      s.body, a = self.block(s.body)
      s.orelse, b = self.block(s.orelse)
      s.body = s.body or [au.located(ast.Pass(), s)]
      return [s], _combine(a, b)
    if isinstance(s, (ast.With, ast.AsyncWith)):
      s.body, a = self.block(s.body)
      s.body = s.body or [au.located(ast.Pass(), s)]
      return [s], a
    if isinstance(s, (ast.Try,) + ((ast.TryStar,) if hasattr(ast, 'TryStar') else ())):
      status = NEVER
      for owner, field in [(s, 'body'), (s, 'orelse'), (s, 'finalbody')] + [(h, 'body') for h in s.handlers]:
        blk, st = self.block(getattr(owner, field))
        if field == 'body' and not blk:  # a try body or an except body cannot be empty
          blk = [au.located(ast.Pass(), s)]
        setattr(owner, field, blk)
        status = MAY if st != NEVER else status
      return [s], status
    if self.into_loops and isinstance(s, _LOOPS):
      s.body, a = self.block(s.body)
      s.body = s.body or [au.located(ast.Pass(), s)]
      if a != NEVER:
        _add_loop_test(s, self.flag)
        return [s], MAY
      return [s], NEVER
    return [s], NEVER


def _add_loop_test(loop, flag):
  if isinstance(loop, ast.While):
    loop.test = au.located(ast.BoolOp(op=ast.And(), values=[loop.test, au.not_(au.name(flag))]), loop.test)
  else:
    loop._ag_extra_test = getattr(loop, '_ag_extra_test', []) + [flag]


def _map_blocks(stmts, fn):
  """Applies fn(block) -> block to every statement list of a scope, innermost first."""
  for s in stmts:
    if isinstance(s, _SCOPES):
      continue
    for field in ('body', 'orelse', 'finalbody'):
      blk = getattr(s, field, None)
      if isinstance(blk, list) and blk and isinstance(blk[0], ast.stmt):
        setattr(s, field, _map_blocks(blk, fn))
    for h in getattr(s, 'handlers', ()):
      h.body = _map_blocks(h.body, fn)
    for case in getattr(s, 'cases', ()):
      case.body = _map_blocks(case.body, fn)
  return fn(stmts)


def rewrite_loops(fdef, namer):
  """The break and continue passes (and loop `else:` clauses) for one function scope."""

  def block(stmts):
    out = []
    for s in stmts:
      if not isinstance(s, _LOOPS):
        out.append(s)
        continue
      has_break = _has_jump(s.body, ast.Break, into_loops=False)
      if has_break:
        flag = namer.new('break_')
        guard = _Guard(ast.Break, flag, False, lambda j, f=flag: [au.assign(f, au.const(True))])
        s.body, _ = guard.block(s.body)
        s.body = s.body or [au.located(ast.Pass(), s)]
        _add_loop_test(s, flag)
        out.append(au.located(au.assign(flag, au.const(False)), s))
      if _has_jump(s.body, ast.Continue, into_loops=False):
        cflag = namer.new('continue_')
        guard = _Guard(ast.Continue, cflag, False, lambda j, f=cflag: [au.assign(f, au.const(True))])
        body, _ = guard.block(s.body)
        s.body = [au.located(au.assign(cflag, au.const(False)), s.body[0])] + body
      out.append(s)
      if s.orelse:
        if has_break:
          out.append(au.located(ast.If(test=au.not_(au.name(flag)), body=s.orelse, orelse=[]), s.orelse[0]))
        else:
          out.extend(s.orelse)
        s.orelse = []
    return out

  fdef.body = _map_blocks(fdef.body, block)


def _always_returns(stmts):
  for s in stmts:
    if isinstance(s, ast.Return):
      return True
    if isinstance(s, ast.If) and s.orelse and _always_returns(s.body) and _always_returns(s.orelse):
      return True
    if isinstance(s, (ast.With, ast.AsyncWith)) and _always_returns(s.body):
      return True
  return False


def _lift_returns(stmts):
  """`if c: return a` followed by more statements: the rest moves into the branch that does not return."""

  def block(blk):
    for i, s in enumerate(blk):
      if not isinstance(s, ast.If) or i == len(blk) - 1:
        continue
      body_ret, else_ret = _always_returns(s.body), _always_returns(s.orelse)
      if body_ret != else_ret:
        rest = blk[i + 1:]
        if body_ret:
          s.orelse = block(s.orelse + rest)
        else:
          s.body = block(s.body + rest)
        return blk[:i + 1]
    return blk

  return _map_blocks(stmts, block)


def rewrite_returns(fdef, namer):
  """The return pass for one function scope. Returns (do_return, retval_) names, or None if it has no return."""
  if not _has_jump(fdef.body, ast.Return, into_loops=True):
    return None
  fdef.body = _lift_returns(fdef.body)
  do_return, retval = namer.new('do_return'), namer.new('retval_')

  def replacement(ret):
    value = ret.value if ret.value is not None else au.const(None)
    return [ast.Try(body=[au.assign(do_return, au.const(True)), au.located(au.assign(retval, value), ret)],
                    handlers=[ast.ExceptHandler(type=None, name=None,
                                                body=[au.assign(do_return, au.const(False)), ast.Raise()])],
                    orelse=[], finalbody=[])]

  guard = _Guard(ast.Return, do_return, True, replacement)
  body, _ = guard.block(fdef.body)
  first = fdef.body[0] if fdef.body else fdef
  fdef.body = au.located([au.assign(do_return, au.const(False)),
                          au.assign(retval, au.call(au.ag('UndefinedReturnValue')))], first) + body
  return do_return, retval
