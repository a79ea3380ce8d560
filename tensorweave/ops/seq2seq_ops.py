"""The op of `tf.contrib.seq2seq`: `GatherTree` (`tf.contrib.seq2seq.gather_tree`), which turns the
per-step beam search choices (`step_ids`, `parent_ids`, `[max_time, batch_size, beam_width]`) into
the full sequence of each final beam, as TF's `beam_search_ops` kernel.

For each batch entry `b` and beam, the output is `end_token` everywhere, then from step
`min(max_time, max_sequence_lengths[b]) - 1` back to step 0 the beam's path is followed through the
parent ids; finally every step after the first `end_token` of a beam is set to `end_token`. An
out-of-range parent id is TF's `InvalidArgumentError`. The op has no gradient (integer ids).
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["gather_tree"]


def _fmt(dims):
    if dims is None:
        return "?"
    return "[%s]" % ",".join("?" if d is None else str(d) for d in dims)


def _suffix(op):
    return " for '%s' (op: '%s') with input shapes: %s." % (
        op.name, op.type, ", ".join(_fmt(t._shape.as_tuple()) for t in op._inputs))


def _with_rank(op, t, rank):
    dims = t._shape.as_tuple()
    if dims is not None and len(dims) != rank:
        raise ValueError("Shape must be rank %d but is rank %d%s" % (rank, len(dims), _suffix(op)))
    return dims if dims is not None else (None,) * rank


def _merge_dim(op, a, b):
    if a is not None and b is not None and a != b:
        raise ValueError("Dimensions must be equal, but are %d and %d%s" % (a, b, _suffix(op)))
    return a if a is not None else b


def _gather_tree_infer(op):
    step_ids, parent_ids, max_lengths, end_token = op._inputs
    for t, arg in ((step_ids, "step_ids"), (parent_ids, "parent_ids"), (end_token, "end_token")):
        if t._dtype != dtypes.int32:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: int32"
                            % (arg, t._dtype.name))
    if max_lengths._dtype != dtypes.int32:
        raise TypeError("Input 'max_sequence_lengths' of 'GatherTree' Op has type %s that does not match expected "
                        "type of int32." % max_lengths._dtype.name)
    s = _with_rank(op, step_ids, 3)
    p = _with_rank(op, parent_ids, 3)
    m = _with_rank(op, max_lengths, 1)
    _with_rank(op, end_token, 0)
    merged = tuple(_merge_dim(op, a, b) for a, b in zip(s, p))
    batch = _merge_dim(op, merged[1], m[0])
    return [(dtypes.int32, (merged[0], batch, merged[2]))]


def _debug_shape(a):
    return "[%s]" % ",".join(str(d) for d in a.shape)


def _gather_tree_kernel(xp, step_ids, parent_ids, max_sequence_lengths, end_token):
    if step_ids.ndim != 3:
        raise errors._invalid_argument("step_ids must be a 3-tensor, saw shape: %s" % _debug_shape(step_ids))
    if max_sequence_lengths.ndim != 1:
        raise errors._invalid_argument("max_sequence_lengths must be a vector, saw shape: %s"
                                       % _debug_shape(max_sequence_lengths))
    if end_token.ndim != 0:
        raise errors._invalid_argument("end_token must be a scalar, saw shape: %s" % _debug_shape(end_token))
    if step_ids.shape != parent_ids.shape:
        raise errors._invalid_argument("step_ids.shape must match parent_ids.shape.  but shapes are: %s and %s"
                                       % (_debug_shape(step_ids), _debug_shape(parent_ids)))
    if step_ids.shape[1] != max_sequence_lengths.shape[0]:
        raise errors._invalid_argument(
            "batch size dimensions step_ids.shape[1] and max_sequence_lengths.shape[0] must match.  but shapes "
            "are: %s and %s" % (_debug_shape(step_ids), _debug_shape(max_sequence_lengths)))
    step = np.asarray(step_ids)
    parent = np.asarray(parent_ids)
    max_time, batch_size, beam_width = step.shape
    end = int(end_token)
    beams = np.full(step.shape, end, np.int32)
    for b in range(batch_size):
        length = min(max_time, int(max_sequence_lengths[b]))
        if length <= 0:
            continue
        for beam in range(beam_width):
            beams[length - 1, b, beam] = step[length - 1, b, beam]
            p = int(parent[length - 1, b, beam])
            for level in range(length - 2, -1, -1):
                if p < 0 or p >= beam_width:
                    raise errors._invalid_argument("Saw invalid parent id %d at (batch, time, beam) == (%d, %d, %d)"
                                                   % (p, b, level, beam))
                beams[level, b, beam] = step[level, b, p]
                p = int(parent[level, b, p])
            finished = False
            for t in range(length):
                if finished:
                    beams[t, b, beam] = end
                elif beams[t, b, beam] == end:
                    finished = True
    return xp.asarray(beams)


register_op("GatherTree", infer=_gather_tree_infer, kernel=_gather_tree_kernel, grad=NO_GRADIENT)


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
    """Calculates the full beams from the per-step ids and parent beam ids.

    On a CPU, an out-of-bound parent id raises an error.

    For a given beam, past the time step containing the first decoded `end_token` all values are
    filled in with `end_token`.

    Args:
      step_ids: An `int32` `Tensor` `[max_time, batch_size, beam_width]`: the id chosen at each step.
      parent_ids: An `int32` `Tensor` of the same shape: the beam each step's id continues.
      max_sequence_lengths: An `int32` `Tensor` `[batch_size]`: the steps to follow back per batch
        entry.
      end_token: An `int32` scalar: the end token.
      name: A name for the operation (optional).

    Returns:
      An `int32` `Tensor` `[max_time, batch_size, beam_width]`: the ids of each final beam.

    Raises:
      ValueError: If the static shapes have the wrong ranks or disagree.
      InvalidArgumentError: At run time, for a parent id out of `[0, beam_width)` or shapes that
        disagree.
    """
    def conv(value, arg):
        if ops.is_tensor(value):
            return ops.convert_to_tensor(value, name=arg)
        arr = np.asarray(value)
        if arr.dtype.kind in "iu":
            arr = arr.astype(np.int32)
        return ops.convert_to_tensor(arr, dtype=dtypes.int32, name=arg)

    inputs = [conv(step_ids, "step_ids"), conv(parent_ids, "parent_ids"),
              conv(max_sequence_lengths, "max_sequence_lengths"), conv(end_token, "end_token")]
    return ops.apply_op("GatherTree", inputs, {}, name=name or "GatherTree")
