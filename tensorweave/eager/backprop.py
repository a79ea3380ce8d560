"""`tf.GradientTape`: replays the recorded ops backwards through their registered gradient
functions (the same ones `tf.gradients` uses), and `tf.custom_gradient` in eager mode."""

import contextlib
import enum
import inspect

import numpy as np

from ..framework import dtypes, ops, registry
from ..framework.func_graph import FuncGraph
from ..framework.indexed_slices import IndexedSlices
from ..gradients.gradients_impl import _aggregate, _is_differentiable_dtype
from ..ops import core_ops, nest
from . import tape as tape_lib
from .tensor import EagerTensor, make

__all__ = ["GradientTape", "UnconnectedGradients", "eager_custom_gradient", "imperative_grad"]


class UnconnectedGradients(str, enum.Enum):
    """What `gradient` (and `tf.gradients`) returns for a source the target does not depend on:
    None or zeros. Members equal their strings ("none", "zero")."""

    NONE = "none"
    ZERO = "zero"


def _unconnected_value(u):
    value = u.value if isinstance(u, UnconnectedGradients) else u
    if value not in ("none", "zero"):
        raise ValueError("Unknown value for unconnected_gradients: %r" % (u,))
    return value


def _is_eager_variable(x):
    return hasattr(x, "_handle") and hasattr(x, "_unique_id")


def _source_id(s):
    if _is_eager_variable(s):
        return s._handle._id
    if isinstance(s, EagerTensor):
        return s._id
    raise ValueError("Passed in object of type %s, not tf.Tensor" % type(s))


_GRAD_TYPES = (ops.Tensor, IndexedSlices)
_DIFFERENTIABLE = frozenset(d for d in dtypes._ALL if _is_differentiable_dtype(d))


_SCALAR_ONES = {}  # NumPy dtype -> a read-only 0-d one, the seed of a scalar target (a loss)


def _ones_like(t):
    """The seed gradient of target `t`: ones of its shape and dtype."""
    v = t._value
    if type(v) is not np.ndarray:
        return core_ops.ones_like(t)
    if v.ndim:
        return make(np.ones(v.shape, v.dtype), t._dtype)
    one = _SCALAR_ONES.get(v.dtype)
    if one is None:
        one = _SCALAR_ONES[v.dtype] = np.ones((), v.dtype)
        one.flags.writeable = False  # shared, as eager constants and stored values are read-only
    return make(one, t._dtype)


def imperative_grad(tp, targets, sources, output_gradients=None, unconnected_gradients="none"):
    """Backpropagates through the ops recorded on `tp` from `targets` to `sources`.

    The tape is in execution order, so walking it backwards visits an op only after every op that
    consumed its outputs; only ops reachable from a source are visited, each at most once.

    Args:
      tp: A `tape.Tape`.
      targets: Eager tensors.
      sources: Eager tensors or eager variables.
      output_gradients: None, or one gradient (or None for ones) per target.
      unconnected_gradients: "none" or "zero".

    Returns:
      One gradient per source: a tensor, an IndexedSlices, or None (zeros for "zero").

    Raises:
      LookupError: If an op on the path has no registered gradient.
      ValueError: If a source is not a tensor or variable, or a gradient function returns the wrong
        number of gradients.
    """
    source_ids = [_source_id(sources[0])] if len(sources) == 1 else [_source_id(s) for s in sources]
    reach = set(source_ids)
    relevant = []
    for e in tp.entries:
        if not reach.isdisjoint(e[1]):
            relevant.append(e)
            reach.update(e[2])
    # tensor id -> its gradient, or the list of the contributions reaching it (summed when its op is
    # visited; a gradient is a tensor or IndexedSlices, never a list)
    grads = {}
    i = -1
    for t in targets:
        i += 1
        if t._id not in reach:
            continue
        g = output_gradients[i] if output_gradients is not None else None
        if g is None:
            g = _ones_like(t)
        elif not isinstance(g, _GRAD_TYPES):
            g = ops.convert_to_tensor(g, dtype=t.dtype)
        _add_grad(grads, t._id, g)
    skips = ops._skip_input_indices
    for op, in_ids, out_ids, fn in reversed(relevant):
        if len(out_ids) == 1:
            g = grads.get(out_ids[0])
            if g is None:
                continue
            if type(g) is list:
                g = grads[out_ids[0]] = _aggregate(g)
            out_grads = None
        else:
            out_grads = _output_grads(op, out_ids, grads)
            if out_grads is None:
                continue
        if fn is None:
            fn = registry.get_gradient_function(op)  # raises LookupError when missing
            if fn is None:
                continue
        if reach.issuperset(in_ids):
            result = fn(op, g) if out_grads is None else fn(op, *out_grads)
        else:  # as tf.gradients: inputs that depend on no source get no gradient computed
            if len(in_ids) == 2:  # one of the two (a relevant op has an input in reach)
                skips[op] = (0,) if in_ids[1] in reach else (1,)
            else:
                skips[op] = tuple(k for k, iid in enumerate(in_ids) if iid not in reach)
            try:
                result = fn(op, g) if out_grads is None else fn(op, *out_grads)
            finally:
                del skips[op]
        if type(result) is not list:
            result = list(result) if isinstance(result, tuple) else [result]
        if len(result) != len(in_ids):
            raise ValueError("Num gradients %d generated for op %s do not match num inputs %d"
                             % (len(result), op.name, len(in_ids)))
        k = -1
        for g in result:  # (indexing, not zip: a zip costs more than these few inputs)
            k += 1
            if g is not None:
                iid = in_ids[k]
                if iid in reach and op._inputs[k]._dtype in _DIFFERENTIABLE:
                    if not isinstance(g, _GRAD_TYPES):
                        g = ops.convert_to_tensor(g)
                    if iid in grads:
                        _add_grad(grads, iid, g)
                    else:
                        grads[iid] = g
    out = []
    for sid in source_ids:
        g = grads.get(sid)
        if type(g) is list:
            g = _aggregate(g)
        if g is None and unconnected_gradients == "zero":
            s = sources[len(out)]
            g = core_ops.zeros_like(s._handle if _is_eager_variable(s) else s)
        out.append(g)
    return out


def _add_grad(grads, tid, g):
    prev = grads.get(tid)
    if prev is None:
        grads[tid] = g
    elif type(prev) is list:
        prev.append(g)
    else:
        grads[tid] = [prev, g]


def _output_grads(op, out_ids, grads):
    """The gradients of a multi-output op's outputs (zeros for floating outputs that got none), or
    None when none of them got one."""
    out_grads = []
    missing = False
    for oid in out_ids:
        g = grads.get(oid)
        if type(g) is list:
            g = grads[oid] = _aggregate(g)
        elif g is None:
            missing = True
        out_grads.append(g)
    if missing:
        if all(g is None for g in out_grads):
            return None
        for j, t in enumerate(op._outputs):
            if out_grads[j] is None and (t.dtype.is_floating or t.dtype.is_complex):
                out_grads[j] = _zeros_grad(t)
    return out_grads


def _zeros_grad(t):
    """Zeros standing for the gradient of an output nothing used, shown as a ZerosLike op (as
    tf.gradients' are, and TF's eager tape marks its own) so gradient functions can skip the terms
    they would multiply."""
    z = core_ops.zeros_like(t)
    if type(z) is EagerTensor:
        rec = tape_lib._make_record[0]("ZerosLike", [t], {}, None, ops.get_default_graph(), None)
        rec._outputs = [z]
        z._op = rec
    return z


class GradientTape:
    """Records operations for automatic differentiation, as `tf.GradientTape`.

    Operations executed inside the `with` block are recorded if one of their inputs is watched:
    tensors passed to `watch`, and (with `watch_accessed_variables`) the trainable variables read
    inside. `gradient` then replays them backwards with the registered gradient functions. Tapes
    nest: an outer tape records the gradient computation of an inner one (higher-order gradients).

    In graph mode (e.g. inside a `tf.function` being traced) `gradient` builds the symbolic
    gradient with `tf.gradients`.

    Args:
      persistent: Allow several calls to `gradient` (the recording is kept until the tape is freed).
      watch_accessed_variables: Watch the trainable variables read while recording.
    """

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._tape = None
        self._recording = False
        self._watched_variables = ()

    def __enter__(self):
        self._push_tape()
        return self

    def __exit__(self, typ, value, traceback):
        if self._recording:
            self._pop_tape()

    def _push_tape(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter an already-active "
                             "tape.")
        if self._tape is None:
            self._tape = tape_lib.Tape(self._persistent, self._watch_accessed_variables)
        tape_lib._stack.append(self._tape)
        self._recording = True

    def _pop_tape(self):
        if not self._recording:
            raise ValueError("Tape is not recording.")
        tape_lib._stack.remove(self._tape)
        self._recording = False

    def watch(self, tensor):
        """Ensures that `tensor` (a tensor, a variable, or a nest of them) is traced by this tape.

        Raises:
          ValueError: If it finds something that is not a tensor or variable.
        """
        if self._tape is None:
            self._tape = tape_lib.Tape(self._persistent, self._watch_accessed_variables)
        for t in nest.flatten(tensor):
            if _is_eager_variable(t):
                self._tape.watch_variable(t)
            elif isinstance(t, EagerTensor):
                self._tape.watch(t)
            elif not (isinstance(t, ops.Tensor) or hasattr(t, "_grad_tensor")):
                raise ValueError("Passed in object of type %s, not tf.Tensor" % type(t))

    @contextlib.contextmanager
    def stop_recording(self):
        """Temporarily stops recording operations on this tape.

        Raises:
          RuntimeError: If the tape is not recording.
        """
        if not self._recording:
            raise RuntimeError("Trying to stop recording a tape which is not recording.")
        self._pop_tape()
        try:
            yield
        finally:
            self._push_tape()

    def reset(self):
        """Clears everything recorded so far (as leaving the block and entering a new tape).

        Raises:
          ValueError: If the tape is not recording.
        """
        self._pop_tape()
        self._tape = None
        self._push_tape()

    def watched_variables(self):
        """The variables watched by this tape, in the order they were first watched."""
        if self._tape is not None:
            self._watched_variables = tuple(self._tape.watched_variables)
        return self._watched_variables

    def _start_gradient(self):
        if self._tape is None:
            raise RuntimeError("GradientTape.gradient can only be called once on non-persistent tapes.")
        if self._recording and not self._persistent:
            self._pop_tape()

    def _finish_gradient(self):
        if not self._persistent:
            self._watched_variables = tuple(self._tape.watched_variables)
            self._tape = None

    def _read_target(self, t):
        if not _is_eager_variable(t):
            return t
        if self._recording:
            return t.value()
        self._push_tape()
        try:
            return t.value()
        finally:
            self._pop_tape()

    def gradient(self, target, sources, output_gradients=None, unconnected_gradients=UnconnectedGradients.NONE):
        """Computes the gradient of `target` with respect to `sources` from the recorded operations.

        Args:
          target: A tensor or variable, or a nest of them (their sum is differentiated).
          sources: A tensor or variable, or a nest of them.
          output_gradients: None, or a list with one gradient (or None) per flattened target.
          unconnected_gradients: `tf.UnconnectedGradients.NONE`/"none" (None for an unconnected
            source) or `ZERO`/"zero" (zeros).

        Returns:
          The gradients in the structure of `sources`: tensors, IndexedSlices, or None.

        Raises:
          RuntimeError: If called a second time on a non-persistent tape.
          TypeError: If `target` is None.
          ValueError: If `unconnected_gradients` is unknown, or a source is not a tensor or variable.
          LookupError: If an op on the path has no registered gradient.
        """
        self._start_gradient()
        if target is None:
            raise TypeError("Target should be a list or nested structure of Tensors or Variables to be "
                            "differentiated, but recieved %r" % (target,))
        uncon = "none" if unconnected_gradients is UnconnectedGradients.NONE else _unconnected_value(
            unconnected_gradients)
        if type(target) is EagerTensor and output_gradients is None:  # the common case, without nests
            single = not nest._is_sequence(sources)
            flat_sources = [sources] if single else nest.flatten(sources)
            flat_grads = imperative_grad(self._tape, [target], flat_sources, None, uncon)
            self._finish_gradient()
            if single:
                return flat_grads[0]
            return nest.pack_sequence_as(sources, flat_grads)
        flat_targets = [self._read_target(t) for t in nest.flatten(target)]
        flat_sources = nest.flatten(sources)
        if output_gradients is not None:
            output_gradients = nest.flatten(output_gradients)
            if len(output_gradients) != len(flat_targets):
                raise ValueError("Passed %d output_gradients for %d targets"
                                 % (len(output_gradients), len(flat_targets)))
        if any(isinstance(t, ops.Tensor) and not isinstance(t, EagerTensor) for t in flat_targets):
            from ..gradients.gradients_impl import gradients
            g = ops.get_default_graph()
            if isinstance(g, FuncGraph):  # eager tensors a traced function uses are its captures
                flat_sources = [g.capture(s) if isinstance(s, EagerTensor) and not _is_eager_variable(s) else s
                                for s in flat_sources]
            flat_grads = gradients(flat_targets, flat_sources, grad_ys=output_gradients,
                                   unconnected_gradients=uncon)
        else:
            flat_targets = [ops.convert_to_tensor(t) for t in flat_targets]
            flat_grads = imperative_grad(self._tape, flat_targets, flat_sources, output_gradients, uncon)
        self._finish_gradient()
        return nest.pack_sequence_as(sources, flat_grads)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE, parallel_iterations=None,
                 experimental_use_pfor=True):
        """The Jacobian of `target` with respect to each source: shape `target.shape + source.shape`.

        Args:
          target: An eager tensor (or variable).
          sources: A tensor or variable, or a nest of them.
          unconnected_gradients: As in `gradient`.
          parallel_iterations, experimental_use_pfor: Accepted for compatibility.

        Returns:
          The Jacobians in the structure of `sources` (None for an unconnected source).

        Raises:
          RuntimeError: If called a second time on a non-persistent tape.
        """
        self._start_gradient()
        uncon = _unconnected_value(unconnected_gradients)
        target = ops.convert_to_tensor(self._read_target(target))
        flat_sources = nest.flatten(sources)
        tshape = target.shape.as_tuple()
        n = int(np.prod(tshape, dtype=np.int64))
        rows = [[] for _ in flat_sources]
        for i in range(n):
            seed = np.zeros(n, dtype=target.dtype.as_numpy_dtype)
            seed[i] = 1
            gs = imperative_grad(self._tape, [target], flat_sources, [make(seed.reshape(tshape), target.dtype)],
                                 uncon)
            for k, g in enumerate(gs):
                rows[k].append(g)
        out = [_stack_rows(r, tshape, s) for r, s in zip(rows, flat_sources)]
        self._finish_gradient()
        return nest.pack_sequence_as(sources, out)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """Per-example Jacobians: `target[i]` differentiated with respect to `source[i]` only (rows
        assumed independent), shape `[batch] + target.shape[1:] + source.shape[1:]`.

        Raises:
          RuntimeError: If called a second time on a non-persistent tape.
          ValueError: If target and source have different batch sizes.
        """
        self._start_gradient()
        uncon = _unconnected_value(unconnected_gradients)
        target = ops.convert_to_tensor(self._read_target(target))
        tshape = target.shape.as_tuple()
        sshape = (source.shape if _is_eager_variable(source) else ops.convert_to_tensor(source).shape).as_tuple()
        if tshape[0] != sshape[0]:
            raise ValueError("Need first dimension of target shape (%s) and source shape (%s) to match."
                             % (tshape, sshape))
        b = tshape[0]
        m = int(np.prod(tshape[1:], dtype=np.int64))
        cols = []
        for j in range(m):
            seed = np.zeros((b, m), dtype=target.dtype.as_numpy_dtype)
            seed[:, j] = 1
            g, = imperative_grad(self._tape, [target], [source], [make(seed.reshape(tshape), target.dtype)], uncon)
            cols.append(None if g is None else ops.convert_to_tensor(g))
        self._finish_gradient()
        if all(c is None for c in cols):
            return None
        from ..ops import array_ops
        cols = [core_ops.zeros_like(source) if c is None else c for c in cols]
        return array_ops.reshape(array_ops.stack(cols, axis=1), tshape + sshape[1:])


def _stack_rows(rows, tshape, source):
    if all(r is None for r in rows):
        return None
    from ..ops import array_ops
    like = source._handle if _is_eager_variable(source) else source
    rows = [core_ops.zeros_like(like) if r is None else ops.convert_to_tensor(r) for r in rows]
    sshape = rows[0].shape.as_tuple()
    return array_ops.reshape(array_ops.stack(rows), tshape + sshape)


def eager_custom_gradient(f, args, kwargs):
    """`tf.custom_gradient` in eager mode: runs `f`, then records its results as computed from its
    inputs (and the variables it read) with `grad_fn` as the gradient.

    Raises:
      TypeError: If `f` does not return `(result, grad_fn)`, or uses variables while `grad_fn` has
        no `variables` argument.
      ValueError (at gradient time): If `grad_fn` returns the wrong number of gradients.
    """
    with GradientTape() as watcher:
        out = f(*args, **kwargs)
    if not isinstance(out, tuple) or len(out) != 2 or not callable(out[1]):
        raise TypeError("A function decorated with tf.custom_gradient must return (result, grad_fn).")
    result, grad_fn = out
    inputs = list(args) + list(kwargs.values())
    variables = [v for v in watcher.watched_variables() if all(v is not i for i in inputs)]
    params = inspect.signature(grad_fn).parameters
    takes_variables = "variables" in params or any(p.kind is p.VAR_KEYWORD for p in params.values())
    if variables and not takes_variables:
        raise TypeError("If using @custom_gradient with a function that uses variables, then grad_fn must accept "
                        "a keyword argument 'variables'.")
    flat = [ops.convert_to_tensor(r) for r in nest.flatten(result)]
    # Fresh tensors for the results, so tapes reach them through grad_fn only.
    flat = [make(t._value, t._dtype) for t in flat]
    with tape_lib.stop_recording():
        arg_tensors = [ops.convert_to_tensor(a) for a in args]
    recorded = arg_tensors + [v.value() for v in variables]
    n_args = len(args)

    def _grad(op, *result_grads):
        if variables:
            input_grads, variable_grads = grad_fn(*result_grads, variables=variables)
            variable_grads = list(variable_grads)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
        else:
            input_grads = grad_fn(*result_grads)
            variable_grads = []
        flat_grads = nest.flatten(input_grads)
        if len(flat_grads) != n_args:
            raise ValueError("custom_gradient function expected to return %d gradients, but returned %d instead."
                             % (n_args, len(flat_grads)))
        return flat_grads + variable_grads

    tape_lib.record_operation(getattr(f, "__name__", "CustomGradient"), flat, recorded, _grad)
    return nest.pack_sequence_as(result, flat)
