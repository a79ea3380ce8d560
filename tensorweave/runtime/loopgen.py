"""A while loop as one generated function: the compiled condition and body plans inlined into a
Python `while`, so an iteration costs their kernel calls and nothing else (no plan calls, no
argument lists).

The plans' generated sources are merged token by token: every name a plan defines (its locals and
the globals in its namespace) gets the plan's prefix, its fed values become the loop variables
and captured values, and its `return` becomes the assignment of the next loop values. Statements
that `del` a fed value are dropped (the loop variable lives on), others stay.
"""

import io
import itertools
import re
import tokenize

import numpy as np

from ..framework import errors
from . import codegen

_counter = itertools.count()
_FEED = re.compile(r"f(\d+)$")
_LOCAL = re.compile(r"f(\d+)$|t\d+_\d+$")  # a plan's fed values (group 1: the index) and locals

__all__ = ["CompiledLoop", "compile_loop"]


class CompiledLoop:
    """`fn(values, cond_caps, body_caps, limit, history) -> (values, iterations)` plus tracebacks."""

    __slots__ = ("fn", "line_ops", "source")

    def __init__(self, fn, line_ops, source):
        self.fn = fn
        self.line_ops = line_ops
        self.source = source

    def op_for_traceback(self, tb):
        return codegen.op_for_traceback(self.line_ops, tb)


def _rename(line, rename):
    """`line` (stripped) with each NAME token `rename` maps (to a non-None name) replaced; strings
    are left alone."""
    line = line.strip()
    out = []
    last = 0
    for tok in tokenize.generate_tokens(io.StringIO(line).readline):
        new = rename(tok.string) if tok.type == tokenize.NAME else None
        if new is not None:
            c0, c1 = tok.start[1], tok.end[1]
            out.append(line[last:c0])
            out.append(new)
            last = c1
    out.append(line[last:])
    return "".join(out)


def _inline(plan, prefix, feeds, env):
    """The body lines of `plan` (indented for the loop), its result expressions, and line -> op.

    Args:
      plan: A CompiledPlan from `codegen.compile_plan` (with `source` and `env`).
      prefix: Prefix for the plan's own names.
      feeds: The loop-side names of the plan's fed values f0, f1, ... in order.
      env: The loop function's globals, extended with the plan's (prefixed).
    """
    for k, v in plan.env.items():
        if not k.startswith("__"):
            env[prefix + k] = v

    def rename(name):
        """Fed values become the loop's names, the plan's locals and globals get the prefix."""
        if name in plan.env:
            return prefix + name
        m = _LOCAL.match(name)
        if m is None:
            return None
        return feeds[int(m.group(1))] if m.group(1) is not None else prefix + name

    lines = plan.source.splitlines()
    body = []
    results = None
    for lineno, text in enumerate(lines, 1):
        stripped = text.strip()
        if lineno == 1 or stripped.endswith("= _feeds"):
            continue
        if stripped.startswith("return ("):
            results = [r.strip() for r in stripped[len("return ("):-1].split(",") if r.strip()]
            results = [_rename(r, rename) for r in results]
            continue
        if stripped.startswith("del "):
            kept = [n.strip() for n in stripped[4:].split(",") if not _FEED.match(n.strip())]
            if not kept:
                continue
            text = "    del " + ", ".join(kept)
        renamed = _rename(text, rename)
        body.append(("        " + renamed, plan.line_ops.get((plan.filename, lineno))))
    return body, results


def compile_loop(cond_plan, body_plan, n_vars, n_cond, n_body):
    """Merges a while loop's condition and body plans into one function (see module docstring).

    Returns:
      A CompiledLoop, or None when a plan cannot be inlined (the interpreter's plans).
    """
    if cond_plan.source is None or body_plan.source is None or cond_plan.env is None or body_plan.env is None:
        return None
    vs = ["v%d" % i for i in range(n_vars)]
    cc = ["cc%d" % i for i in range(n_cond)]
    bc = ["bc%d" % i for i in range(n_body)]
    env = {"_np_bool": np.bool_, "_bad_cond": _bad_condition, "_ndarray": np.ndarray}
    cond_lines, (cond_result,) = _inline(cond_plan, "c_", vs + cc, env)
    body_lines, body_results = _inline(body_plan, "b_", vs + bc, env)
    lines = ["def _loop(_values, _ccaps, _bcaps, _limit, _history):"]
    lines.append("    %s, = _values" % ", ".join(vs))
    if cc:
        lines.append("    %s, = _ccaps" % ", ".join(cc))
    if bc:
        lines.append("    %s, = _bcaps" % ", ".join(bc))
    for name in vs + cc + bc:  # 0-d arrays as NumPy scalars: their operators take the scalar fast path
        lines.append("    if type(%s) is _ndarray and not %s.ndim: %s = %s[()]" % (name, name, name, name))
    lines.append("    _i = 0")
    lines.append("    while _limit < 0 or _i < _limit:")
    filename = "<tensorweave-loop-%d>" % next(_counter)
    line_ops = {k: v for p in (cond_plan, body_plan) for k, v in p.line_ops.items() if k[0] != p.filename}
    for text, op in cond_lines:
        lines.append(text)
        if op is not None:
            line_ops[(filename, len(lines))] = op
    lines.append("        _c = %s" % cond_result)
    lines.append("        if type(_c) is not _np_bool and getattr(_c, 'ndim', 0) != 0:")
    lines.append("            _bad_cond(_c)")
    lines.append("        if not _c:")
    lines.append("            break")
    lines.append("        if _history is not None:")
    lines.append("            _history.append([%s])" % ", ".join(vs))
    for text, op in body_lines:
        lines.append(text)
        if op is not None:
            line_ops[(filename, len(lines))] = op
    lines.append("        %s, = %s," % (", ".join(vs), ", ".join(body_results)))
    lines.append("        _i += 1")
    lines.append("    return [%s], _i" % ", ".join(vs))
    source = "\n".join(lines) + "\n"
    # Generated source: two codegen plans merged token by token, not file data.
    exec(compile(source, filename, "exec"), env)
    return CompiledLoop(env["_loop"], line_ops, source)


def _bad_condition(c):
    # No op is named: the error reaches the caller of the While kernel, which names the While op.
    raise errors.InvalidArgumentError(None, None, "The condition of a while loop must be a scalar, got shape %s"
                                      % (list(c.shape),))

