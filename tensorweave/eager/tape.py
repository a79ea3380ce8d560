"""The tape: while a `GradientTape` records, every eager op with a watched input is appended to it
as its Operation record (type, attributes, input and output tensors), which is exactly what the
registered gradient functions take."""

import contextlib

from ..framework import ops, registry

__all__ = ["Tape", "record", "record_operation", "stop_recording", "variable_accessed"]

_stack = []  # the tapes now recording, innermost last


class _Entry:
    __slots__ = ("op", "in_ids", "out_ids", "grad_fn")

    def __init__(self, op, grad_fn):
        self.op = op
        self.in_ids = [t._id for t in op._inputs]
        self.out_ids = [t._id for t in op._outputs]
        self.grad_fn = grad_fn


class Tape:
    """Recorded ops and the ids of the tensors they depend on (watched ones and recorded outputs)."""

    def __init__(self, persistent, watch_accessed_variables):
        self.persistent = persistent
        self.watch_accessed_variables = watch_accessed_variables
        self.entries = []
        self.tracked = set()
        self.watched_variables = []

    def watch(self, tensor):
        self.tracked.add(tensor._id)

    def watch_variable(self, var):
        self.tracked.add(var._handle._id)
        if not any(v is var for v in self.watched_variables):
            self.watched_variables.append(var)

    def add(self, op, grad_fn):
        self.entries.append(_Entry(op, grad_fn))
        self.tracked.update(t._id for t in op._outputs)


_MISSING = object()


def record(op):
    """Appends the eager op record `op` to every recording tape that watches one of its inputs
    (ops registered as not differentiable are never recorded)."""
    fn = _MISSING
    for tp in _stack:
        tracked = tp.tracked
        for t in op._inputs:
            if t._id in tracked:
                break
        else:
            continue
        if fn is _MISSING:
            try:
                fn = registry.get_gradient_function(op)
            except LookupError:
                fn = None  # looked up again (and reported) if backprop reaches it
            else:
                if fn is None:
                    return
        tp.add(op, fn)


def record_operation(op_type, outputs, inputs, grad_fn):
    """Records a computation of `outputs` from `inputs` whose gradient is
    `grad_fn(op, *output_grads) -> input grads` (custom gradients, variable reads, function calls)."""
    if not _stack:
        return
    op = None
    for tp in _stack:
        tracked = tp.tracked
        for t in inputs:
            if t._id in tracked:
                break
        else:
            continue
        if op is None:
            from .execute import _record  # execute imports this module
            op = _record(op_type, list(inputs), {}, None, ops.get_default_graph(), None)
            op._outputs = list(outputs)
        tp.add(op, grad_fn)


def variable_accessed(var):
    """Tapes watching accessed variables watch `var` if it is trainable."""
    if var.trainable:
        for tp in _stack:
            if tp.watch_accessed_variables and var._handle._id not in tp.tracked:
                tp.watch_variable(var)


@contextlib.contextmanager
def stop_recording():
    """No tape records inside the block."""
    saved = _stack[:]
    del _stack[:]
    try:
        yield
    finally:
        _stack[:] = saved + _stack
