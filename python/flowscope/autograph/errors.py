"""TensorFlow's "in user code:" form of an exception raised while tracing converted code."""

import linecache
import sys

from . import converter

_MARK = 'in user code:'


def _library_file(filename):
  if filename.startswith('<frozen') or 'site-packages' in filename or 'dist-packages' in filename:
    return True
  if filename.startswith(sys.base_prefix + '/lib/python') or filename.startswith('/usr/lib/python3'):
    return True
  import os
  here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the flowscope package
  return os.path.abspath(filename).startswith(here + os.sep)


def user_frames(tb):
  """(file, line, function, converted) for the frames of `tb` that are user code, outermost first."""
  frames = []
  while tb is not None:
    code = tb.tb_frame.f_code
    name = converter.converted_codes.get(code)
    if name is not None:
      frames.append((code.co_filename, tb.tb_lineno, name, True))
    elif not _library_file(code.co_filename):
      frames.append((code.co_filename, tb.tb_lineno, code.co_name, False))
    tb = tb.tb_next
  out = []
  for f in frames:
    if not out or out[-1] != f:
      out.append(f)
  return out


def user_code_text(exc):
  frames = user_frames(exc.__traceback__)
  if not frames or not any(f[3] for f in frames):
    return None
  lines = [_MARK, '']
  for filename, lineno, name, converted in frames:
    lines.append('    File "%s", line %d, in %s%s' % (filename, lineno, name, '  *' if converted else ''))
    src = linecache.getline(filename, lineno).strip()
    if src:
      lines.append('        ' + src)
  lines.append('')
  lines.append('    %s: %s' % (type(exc).__name__, exc))
  return '\n'.join(lines)


def user_code_error(exc):
  """`exc` rewrapped with the user-code frames (same type), or None when there is nothing to add."""
  if not isinstance(exc, Exception) or str(exc).startswith(_MARK):
    return None
  text = user_code_text(exc)
  if text is None:
    return None
  try:
    new = type(exc)(text)
  except Exception:
    return None
  if str(new) != text and not isinstance(new, KeyError):
    return None
  return new
