"""The tape: while a `GradientTape` records, every eager op with a watched input is appended to it
as an entry `(op, input ids, output ids, gradient function)`, where `op` is the op's record (type,
attributes, input and output tensors), which is exactly what the registered gradient functions take."""

import contextlib

from ..framework import ops, registry

__all__ = ["Tape", "record", "record_direct", "record_operation", "stop_recording", "variable_accessed",
           "variable_read"]

_stack = []  # the tapes now recording, innermost last
_GRADIENTS = registry._GRADIENTS
_MISSING = object()
_make_record = [None]  # execute._record (execute imports this module)


class Tape:
    """Recorded entries, in execution order, and the ids of the tensors they depend on (watched ones
    and recorded outputs)."""

    __slots__ = ("persistent", "watch_accessed_variables", "entries", "tracked", "watched_variables")

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
        for v in self.watched_variables:
            if v is var:
                return
        self.watched_variables.append(var)

    def add(self, op, grad_fn):
        out_ids = [t._id for t in op._outputs]
        self.entries.append((op, [t._id for t in op._inputs], out_ids, grad_fn))
        self.tracked.update(out_ids)


def gradient_function(op_type, grad_type):
    """The registered gradient function for an op of `op_type` (or its override `grad_type`):
    None for a non-differentiable op, `_MISSING` when none is registered (looked up again, and
    reported, if backprop reaches the op)."""
    return _GRADIENTS.get(grad_type or op_type, _MISSING)


def record(op):
    """Appends the eager op record `op` to every recording tape that watches one of its inputs
    (ops registered as not differentiable are never recorded)."""
    entry = None
    for tp in _stack:
        tracked = tp.tracked
        for t in op._inputs:
            if t._id in tracked:
                break
        else:
            continue
        if entry is None:
            fn = gradient_function(op._type, op._grad_type)
            if fn is None:
                return
            out_ids = [t._id for t in op._outputs]
            entry = (op, [t._id for t in op._inputs], out_ids, None if fn is _MISSING else fn)
        tp.entries.append(entry)
        tp.tracked.update(out_ids)


def record_direct(op_type, inputs, attrs, op_def, outputs):
    """`record` for an op run by the direct path, whose record is made only if a tape watches one
    of its inputs."""
    n = len(inputs)
    in_ids = [inputs[0]._id, inputs[1]._id] if n == 2 else [inputs[0]._id] if n == 1 else [t._id for t in inputs]
    entry = None
    for tp in _stack:
        tracked = tp.tracked
        if tracked.isdisjoint(in_ids):
            continue
        if entry is None:
            graph = ops.get_default_graph()
            grad_type = graph._gradient_override_map.get(op_type) if graph._gradient_override_map else None
            fn = _GRADIENTS.get(grad_type or op_type, _MISSING)
            if fn is None:
                return
            op = _make_record[0](op_type, inputs, attrs or {}, None, graph, grad_type, op_def)
            op._outputs = outputs
            out_ids = [outputs[0]._id] if len(outputs) == 1 else [t._id for t in outputs]
            entry = (op, in_ids, out_ids, None if fn is _MISSING else fn)
        tp.entries.append(entry)
        tracked.update(out_ids)


def record_operation(op_type, outputs, inputs, grad_fn):
    """Records a computation of `outputs` from `inputs` whose gradient is
    `grad_fn(op, *output_grads) -> input grads` (custom gradients, variable reads, function calls)."""
    entry = None
    for tp in _stack:
        tracked = tp.tracked
        for t in inputs:
            if t._id in tracked:
                break
        else:
            continue
        if entry is None:
            op = _make_record[0](op_type, list(inputs), {}, None, ops.get_default_graph(), None)
            op._outputs = list(outputs)
            out_ids = [t._id for t in outputs]
            entry = (op, [t._id for t in inputs], out_ids, grad_fn)
        tp.entries.append(entry)
        tp.tracked.update(out_ids)


def variable_read(var, value, grad_fn):
    """`variable_accessed(var)`, then the read of `value` from it recorded as `record_operation`
    would (one pass over the tapes)."""
    handle = var._handle
    hid = handle._id
    entry = None
    for tp in _stack:
        tracked = tp.tracked
        if hid not in tracked:
            if not (tp.watch_accessed_variables and var.trainable):
                continue
            tp.watch_variable(var)
        if entry is None:
            # One record per variable, shared by its reads: a read's gradient needs no more than the
            # handle, and the entry has the read value's id.
            op = handle._read_record
            if op is None:
                op = handle._read_record = _make_record[0]("ReadVariableOp", [handle], {}, None,
                                                           ops.get_default_graph(), None)
            entry = (op, (hid,), [value._id], grad_fn)
        tp.entries.append(entry)
        tracked.add(value._id)


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
