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


class quiet:  # noqa: N801 (used like a function in `with`)
    """`with quiet():` runs kernels with floating-point warnings off."""

    __slots__ = ("_token", "_utoken", "_cm")

    def __enter__(self):
        if _var is not None:
            self._utoken = _user.set(_var.get())
            self._token = _var.set(_QUIET)
        else:
            self._cm = np.errstate(all="ignore")
            self._cm.__enter__()

    def __exit__(self, *exc):
        if _var is not None:
            _var.reset(self._token)
            _user.reset(self._utoken)
        else:
            self._cm.__exit__(*exc)


def run_quiet(fn, *args):
    """`fn(*args)` with floating-point warnings off: what `with quiet():` does, at half its cost."""
    if _var is None:
        with np.errstate(all="ignore"):
            return fn(*args)
    utoken = _user.set(_var.get())
    token = _var.set(_QUIET)
    try:
        return fn(*args)
    finally:
        _var.reset(token)
        _user.reset(utoken)


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
