"""`if`, `while` and `for` statements become calls of `ag__.if_stmt`, `ag__.while_stmt` and `ag__.for_stmt`, which
take the bodies as functions and the state (the names the statement binds that are used later) through
`get_state`/`set_state`, as TensorFlow's AutoGraph does. Runs on one function scope, innermost statements first, and
uses the annotations of `analysis.analyze_function`."""

import ast

from . import ast_util as au
from . import expressions

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


class ControlFlow:

  def __init__(self, namer, globals_):
    self.namer = namer
    self.globals = set(globals_)
    self.vars_param = None

  def convert_block(self, stmts):
    out = []
    for s in stmts:
      out.extend(self.convert_stmt(s))
    return out

  def _children(self, s):
    for field in ('body', 'orelse', 'finalbody'):
      blk = getattr(s, field, None)
      if isinstance(blk, list) and blk and isinstance(blk[0], ast.stmt):
        setattr(s, field, self.convert_block(blk))
    for h in getattr(s, 'handlers', ()):
      h.body = self.convert_block(h.body)
    for case in getattr(s, 'cases', ()):
      case.body = self.convert_block(case.body)

  def convert_stmt(self, s):
    if isinstance(s, _SCOPES) or isinstance(s, (ast.AsyncFor, ast.AsyncWith)):
      return [s]
    if isinstance(s, ast.If) and hasattr(s, '_ag_modified'):
      self._children(s)
      return self._if(s)
    if isinstance(s, ast.While) and hasattr(s, '_ag_modified') and not s.orelse:
      self._children(s)
      return self._while(s)
    if isinstance(s, ast.For) and hasattr(s, '_ag_modified') and not s.orelse:
      self._children(s)
      return self._for(s)
    self._children(s)
    return [s]

  # Shared pieces.
  def _split(self, names):
    names = sorted(names)
    return [n for n in names if n not in self.globals], [n for n in names if n in self.globals]

  def _global_kw(self, stmt, globals_):
    if globals_:
      stmt.value.keywords.append(ast.keyword(arg='global_names', value=au.tuple_([au.const(g) for g in globals_])))
    return stmt

  def _declarations(self, nonlocals, globals_):
    decl = []
    if globals_:
      decl.append(ast.Global(names=list(globals_)))
    if nonlocals:
      decl.append(ast.Nonlocal(names=list(nonlocals)))
    return decl

  def _undefined_inits(self, s, names):
    """Binds the state names that may be unbound here (a `nonlocal` needs a binding in the enclosing function)."""
    out = []
    for n in names:
      if n in s._ag_must:
        continue
      init = au.assign(n, au.call(au.ag('Undefined'), [au.const(n)]))
      if n not in s._ag_may:
        out.append(init)
      else:
        out.append(ast.Try(body=[ast.Expr(value=au.name(n))],
                           handlers=[ast.ExceptHandler(type=au.name('NameError'), name=None, body=[init])],
                           orelse=[], finalbody=[]))
    return out

  def _state_functions(self, state):
    get_state = self.namer.new('get_state', helper=True)
    set_state = self.namer.new('set_state', helper=True)
    if self.vars_param is None:
      self.vars_param = self.namer.new('vars_')
    vars_ = self.vars_param
    getter = au.funcdef(get_state, [], [ast.Return(value=au.tuple_([au.name(n) for n in state]))])
    if state:
      setter_body = [ast.Nonlocal(names=list(state)),
                     au.assign(au.tuple_([au.name(n, store=True) for n in state], store=True), au.name(vars_))]
    else:
      setter_body = [ast.Pass()]
    setter = au.funcdef(set_state, [vars_], setter_body)
    return get_state, set_state, [getter, setter]

  # Statements.
  def _if(self, s):
    state, _ = self._split(s._ag_modified & s._ag_live_out)
    nonlocals, globals_ = self._split(s._ag_modified & (s._ag_live_out | s._ag_live_in))
    _, globals_ = self._split(s._ag_modified)
    get_state, set_state, defs = self._state_functions(state)
    if_body = self.namer.new('if_body', helper=True)
    else_body = self.namer.new('else_body', helper=True)
    decl = self._declarations(nonlocals, globals_)
    defs.append(au.funcdef(if_body, [], decl + s.body))
    defs.append(au.funcdef(else_body, [], decl + (s.orelse or [ast.Pass()])))
    stmt = ast.Expr(value=au.call(au.ag('if_stmt'), [
        s.test, au.name(if_body), au.name(else_body), au.name(get_state), au.name(set_state),
        au.tuple_([au.const(n) for n in state]), au.const(len(state))]))
    self._global_kw(stmt, globals_)
    return au.located(self._undefined_inits(s, nonlocals) + defs + [stmt], s)

  def _loop_state(self, s, body_live):
    state, globals_ = self._split(s._ag_modified & (s._ag_live_out | body_live))
    _, globals_ = self._split(s._ag_modified)
    return state, globals_

  def _while(self, s):
    state, globals_ = self._loop_state(s, s._ag_live_in)
    get_state, set_state, defs = self._state_functions(state)
    loop_body = self.namer.new('loop_body', helper=True)
    loop_test = self.namer.new('loop_test', helper=True)
    defs.append(au.funcdef(loop_body, [], self._declarations(state, globals_) + s.body))
    defs.append(au.funcdef(loop_test, [], [ast.Return(value=s.test)]))
    stmt = ast.Expr(value=au.call(au.ag('while_stmt'), [
        au.name(loop_test), au.name(loop_body), au.name(get_state), au.name(set_state),
        au.tuple_([au.const(n) for n in state]), ast.Dict(keys=[], values=[])]))
    self._global_kw(stmt, globals_)
    return au.located(self._undefined_inits(s, state) + defs + [stmt], s)

  def _for(self, s):
    state, globals_ = self._loop_state(s, s._ag_live_body)
    get_state, set_state, defs = self._state_functions(state)
    loop_body = self.namer.new('loop_body', helper=True)
    itr = self.namer.new('itr')
    bind = au.located(ast.Assign(targets=[s.target], value=au.name(itr)), s.target)
    defs.append(au.funcdef(loop_body, [itr], self._declarations(state, globals_) + [bind] + s.body))
    extra = au.const(None)
    flags = getattr(s, '_ag_extra_test', [])
    if flags:
      extra_test = self.namer.new('extra_test', helper=True)
      test = au.not_(au.name(flags[0]))
      if len(flags) > 1:
        test = ast.BoolOp(op=ast.And(), values=[au.not_(au.name(f)) for f in flags])
      test = expressions.logical_only(test, self.namer)
      defs.append(au.funcdef(extra_test, [], [ast.Return(value=test)]))
      extra = au.name(extra_test)
    opts = ast.Dict(keys=[au.const('iterate_names')], values=[au.const(ast.unparse(s.target))])
    stmt = ast.Expr(value=au.call(au.ag('for_stmt'), [
        s.iter, extra, au.name(loop_body), au.name(get_state), au.name(set_state),
        au.tuple_([au.const(n) for n in state]), opts]))
    self._global_kw(stmt, globals_)
    return au.located(self._undefined_inits(s, state) + defs + [stmt], s)

