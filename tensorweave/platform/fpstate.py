"""Floating-point error state for kernels: TF produces inf/nan silently, so plans run with NumPy's
warnings off (set once per run, not per kernel), and user Python code (py_func) runs with the
user's own settings restored."""

import contextvars

import numpy as np

try:  # NumPy 2 keeps the error state in a context variable; setting it directly costs ~0.1 us.
    from numpy._core._ufunc_config import _extobj_contextvar as _var

    with np.errstate(all="ignore"):
        _QUIET = _var.get()
except (ImportError, AttributeError):  # other NumPy versions: the public (slower) context manager
    _var = None

_user = contextvars.ContextVar("tensorweave_user_fpstate", default=None)


def _enter():
    """Turns floating-point warnings off; returns what `_exit` needs to restore the state."""
    if _var is None:
        cm = np.errstate(all="ignore")
        cm.__enter__()
        return cm
    utoken = _user.set(_var.get())
    return _var.set(_QUIET), utoken


def _exit(saved):
    if _var is None:
        saved.__exit__(None, None, None)
    else:
        _var.reset(saved[0])
        _user.reset(saved[1])


class quiet:  # noqa: N801 (used like a function in `with`)
    """`with quiet():` runs kernels with floating-point warnings off."""

    __slots__ = ("_saved",)

    def __enter__(self):
        self._saved = _enter()

    def __exit__(self, *exc):
        _exit(self._saved)


def kernel_state():
    """(context variable, quiet value) for callers that set the kernels' state themselves around a
    kernel that runs no user code; (None, None) where NumPy keeps no such variable."""
    return (_var, _QUIET) if _var is not None else (None, None)


def run_quiet(fn, *args):
    """`fn(*args)` with floating-point warnings off (what `with quiet():` does, without creating
    the context object: a session run calls it once per run)."""
    saved = _enter()
    try:
        return fn(*args)
    finally:
        _exit(saved)


def call_with_user_state(fn, *args):
    """Calls user code with the floating-point state that was in force before the run."""
    state = _user.get() if _var is not None else None
    if state is None:
        return fn(*args)
    token = _var.set(state)
    try:
        return fn(*args)
    finally:
        _var.reset(token)
