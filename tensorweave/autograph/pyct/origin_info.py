"""Mapping generated code back to the user's source, for errors.

Converted code is compiled with the user's file name and the line numbers of the statements it was
generated from, so its traceback frames already show the user's file and lines. This module
remembers which code objects are converted code, and rewrites exceptions that leave converted
code: their message gets the user-code frames ("in user code: File ..., line ...") and their
traceback loses AutoGraph's own frames.
"""

import linecache
import os
import types

_AUTOGRAPH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
_CONVERTED = {}  # code object of converted code -> the user function's name


def register(code, function_name):
    """Records `code` (and the code nested in it) as converted code of `function_name`."""
    _CONVERTED[code] = function_name
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            register(c, function_name)


def is_converted(code):
    return code in _CONVERTED


def user_frames(tb):
    """`[(filename, lineno, function name)]` of the converted-code frames of a traceback."""
    out = []
    while tb is not None:
        code = tb.tb_frame.f_code
        name = _CONVERTED.get(code)
        if name is not None:
            entry = (code.co_filename, tb.tb_lineno, name)
            if not out or out[-1] != entry:
                out.append(entry)
        tb = tb.tb_next
    return out


def format_frames(frames):
    """The "in user code:" listing of `frames`."""
    lines = ["in user code:", ""]
    for filename, lineno, name in frames:
        lines.append('    File "%s", line %d, in %s' % (filename, lineno, name))
        src = linecache.getline(filename, lineno).strip()
        if src:
            lines.append("        " + src)
    return "\n".join(lines)


def _is_internal(tb):
    return tb.tb_frame.f_code.co_filename.startswith(_AUTOGRAPH_DIR)


def filter_traceback(tb):
    """`tb` without AutoGraph's own frames (the last frame is kept if every frame is internal)."""
    kept = []
    t = tb
    while t is not None:
        if not _is_internal(t):
            kept.append(t)
        t = t.tb_next
    if not kept:
        return tb
    new = None
    for t in reversed(kept):
        new = types.TracebackType(new, t.tb_frame, t.tb_lasti, t.tb_lineno)
    return new


def _set_message(exc, message):
    from ...framework import errors
    if isinstance(exc, errors.OpError):
        exc._message = message
        exc.args = (message,) + exc.args[1:]
        return True
    if len(exc.args) != 1 or not isinstance(exc.args[0], str):
        return False
    old = exc.args
    try:
        if str(exc) != old[0]:
            return False
        exc.args = (message,)
        if str(exc) == message:
            return True
    except Exception:
        pass
    exc.args = old
    return False


def rewrite_error(exc):
    """Adds the user-code frames to `exc`'s message (once) and filters its traceback.

    Returns:
      `exc`, ready to be re-raised.
    """
    if getattr(exc, "_ag_rewritten", False):
        return exc
    try:
        exc._ag_rewritten = True
    except AttributeError:
        return exc
    tb = exc.__traceback__
    frames = user_frames(tb)
    if frames:
        msg = exc.args[0] if exc.args and isinstance(exc.args[0], str) else ""
        _set_message(exc, (msg + "\n\n" if msg else "") + format_frames(frames))
        exc.__traceback__ = filter_traceback(tb)
    return exc


def raise_at(exc, filename, lineno):
    """Raises `exc` from a frame located at `filename:lineno` (for conversion errors)."""
    code = compile("\n" * max(lineno - 1, 0) + "raise __ag_error__", filename, "exec")
    exec(code, {"__ag_error__": exc})  # a generated `raise`, placed at the user's line; not file data
