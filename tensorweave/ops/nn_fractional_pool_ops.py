"""Fractional pooling: FractionalMaxPool, FractionalAvgPool and their gradients FractionalMaxPoolGrad,
FractionalAvgPoolGrad (`tf.nn.fractional_max_pool`, `tf.nn.fractional_avg_pool`, TF1 signatures).

The pooling regions follow TF's kernels bit for bit: each op owns a Philox4x32 stream seeded
`(seed, seed2)` (both 0: a random seed; nonzero seeds need `deterministic`), and draws the row then
the column sequence from it per run (`deterministic`: once, then reused). A sequence of
`output_length` steps of `k = in // out` or `k + 1` covers the input: "pseudo random" regions are
`ceil(alpha * (i + u))` for one uniform `u` (scaled so the steps stay in [k, k + 1]), "random" ones
a shuffle of the steps (TF's `RandomShuffle` over `SingleSampleAdapter` draws). Window `(i, j)`
covers rows `seq[i] .. seq[i + 1] - 1` (to `seq[i + 1]` when `overlapping`, clipped to the input).
Max pooling keeps the first element of a window replaced by each greater one; its gradient goes
there. Average pooling sums a window in row-major order and divides by its size; its gradient
spreads `dy / size` in float64.
"""

import collections
import math
import secrets

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import random_philox
from .nn_conv_geometry import _convert, _invalid, _lowest, _static_dims

__all__ = ["fractional_max_pool", "fractional_avg_pool"]

_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64)
_TYPE_NAMES = "float32, float64, int32, int64"

FractionalMaxPool = collections.namedtuple("FractionalMaxPool", ["output", "row_pooling_sequence",
                                                                 "col_pooling_sequence"])
FractionalAvgPool = collections.namedtuple("FractionalAvgPool", ["output", "row_pooling_sequence",
                                                                 "col_pooling_sequence"])


# ---- TF's pooling sequences --------------------------------------------------------------------------
class _Philox:
    """TF's `GuardedPhiloxRandom` of one kernel: a Philox stream; `reserve32(n)` hands out the next
    `ceil(n / 4)` blocks as a single-sample stream."""

    def __init__(self, seed, seed2):
        if seed == 0 and seed2 == 0:
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        seed &= 0xFFFFFFFFFFFFFFFF
        seed2 &= 0xFFFFFFFFFFFFFFFF
        self.key = (seed & 0xFFFFFFFF, seed >> 32)
        self.counter = (0, 0, seed2 & 0xFFFFFFFF, seed2 >> 32)

    def reserve32(self, n):
        blocks = (n + 3) // 4
        local = self.counter
        self.counter = random_philox.skip(self.counter, blocks)
        return random_philox.SingleSampleStream(self.key, local)


def pooling_sequence(input_length, output_length, generator, pseudo_random):
    """TF's `GeneratePoolingSequence`: the cumulative sequence (output_length + 1 int64 values)."""
    k = input_length // output_length
    if pseudo_random:
        alpha = input_length / output_length
        max_u = min((k + 2) / alpha - 1, (input_length + 1 - k) / alpha - (output_length - 1))
        u = float(generator.reserve32(2).rand_double(1)[0]) * max_u
        cum = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, output_length)] + [input_length + 1]
        diff = [cum[i + 1] - cum[i] for i in range(output_length)]
    else:
        diff = [k + 1 if i < input_length % output_length else k for i in range(output_length)]
        stream = generator.reserve32(len(diff))
        n = len(diff)
        draws = stream.take(max(n - 1, 0))
        for i in range(n - 1):
            j = i + int(draws[i]) % (n - i)
            diff[i], diff[j] = diff[j], diff[i]
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _window_index(seq, size, overlapping):
    """(index array (out, width) padded with each window's first index, valid mask, counts)."""
    seq = np.asarray(seq, np.int64)
    starts = seq[:-1]
    ends = np.minimum(seq[1:] if overlapping else seq[1:] - 1, size - 1)
    counts = np.maximum(ends - starts + 1, 0)
    width = max(int(counts.max()) if counts.size else 1, 1)
    offs = np.arange(width)
    idx = starts[:, None] + offs[None, :]
    valid = offs[None, :] < counts[:, None]
    idx = np.where(valid, idx, starts[:, None])
    return idx, valid, counts


def _check_seq(seq, size, what):
    seq = np.asarray(seq)
    if seq.ndim != 1 or seq.size < 2:
        raise _invalid("%s must be a vector of at least 2 elements" % what)
    if seq[0] < 0 or (np.diff(seq) < 0).any() or seq[-1] > size + 1:
        raise _invalid("%s is not a valid pooling sequence for an input of size %d" % (what, size))
    return seq.astype(np.int64)


def _gather(x, rseq, cseq, overlapping):
    """x gathered per window: (N, OH, KH, OW, KW, C) with the validity (OH, KH, OW, KW)."""
    ri, rv, rc = _window_index(rseq, x.shape[1], overlapping)
    ci, cv, cc = _window_index(cseq, x.shape[2], overlapping)
    g = x[:, ri[:, :, None, None], ci[None, None, :, :]]
    valid = rv[:, :, None, None] & cv[None, None, :, :]
    return g, valid, ri, ci, rc, cc


def _max_choice(x, rseq, cseq, overlapping):
    """Each window's value and flat input index: its first element, replaced by each greater one."""
    g, valid, ri, ci, _, _ = _gather(x, rseq, cseq, overlapping)
    n, oh, kh, ow, kw, c = g.shape
    out = np.full((n, oh, ow, c), _lowest(x.dtype), x.dtype)
    where = np.full((n, oh, ow, c), -1, np.int64)
    h, w = x.shape[1], x.shape[2]
    for i in range(kh):
        for j in range(kw):
            t = g[:, :, i, :, j]
            upd = (t > out) | (where < 0)
            upd &= valid[:, i, :, j][None, :, :, None]
            np.copyto(out, t, where=upd)
            flat = (ri[:, i][:, None] * w + ci[:, j][None, :])[None, :, :, None]
            np.copyto(where, np.broadcast_to(flat, where.shape), where=upd)
    base = (np.arange(n) * h * w)[:, None, None, None]
    return out, (base + where) * c + np.arange(c)


# ---- attributes and static shapes --------------------------------------------------------------------
def _frac_attrs(op_type, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2):
    if not isinstance(pooling_ratio, (list, tuple)):
        raise TypeError("Expected list for 'pooling_ratio' argument to '%s' Op, not %r." % (op_type, pooling_ratio))
    ratio = [float(np.float32(r)) for r in pooling_ratio]
    if len(ratio) < 4:
        raise ValueError("Attr 'pooling_ratio' of '%s' Op passed list of length %d less than minimum 4."
                         % (op_type, len(ratio)))
    if len(ratio) != 4:
        raise ValueError("pooling_ratio field must specify 4 dimensions")
    for r in ratio:
        if r < 1:
            raise ValueError("pooling_ratio cannot be smaller than 1, got: %s" % r)
    return {"pooling_ratio": ratio, "pseudo_random": bool(pseudo_random), "overlapping": bool(overlapping),
            "deterministic": bool(deterministic), "seed": int(seed), "seed2": int(seed2)}


def _out_dim(size, ratio):
    return int(math.floor(np.float32(size) / np.float32(ratio)))


def _frac_infer(op):
    x = op._inputs[0]
    if x.dtype not in _TYPES:
        raise TypeError("Value passed to parameter 'value' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, _TYPE_NAMES))
    dims = _static_dims(x, 4)
    out = tuple(None if d is None else _out_dim(d, r) for d, r in zip(dims, op._attrs["pooling_ratio"]))
    seq = [None if d is None else d + 1 for d in out[1:3]]
    return [(x.dtype, out), (dtypes.int64, (seq[0],)), (dtypes.int64, (seq[1],))]


def _sequences(ctx, op, x, pooling_ratio, pseudo_random, deterministic, seed, seed2):
    if x.ndim != 4:
        raise _invalid("tensor_in must be 4-dimensional")
    if pooling_ratio[0] != 1 and pooling_ratio[3] != 1:
        raise errors.UnimplementedError(None, None, "Fractional max pooling is not yet supported on the batch nor "
                                        "channel dimension.")
    out = [_out_dim(d, r) for d, r in zip(x.shape, pooling_ratio)]
    if min(out) <= 0 and x.size:
        raise _invalid("Output size %s computed for input shape %s and pooling_ratio %s must be positive"
                       % (out, list(x.shape), pooling_ratio))
    if not deterministic and (seed or seed2):
        raise _invalid("Both seed and seed2 should be 0 if deterministic is false.")
    state = ctx.op_state.get(op)
    if state is None:
        state = ctx.op_state[op] = {"gen": _Philox(seed, seed2), "seqs": None}
    if deterministic and state["seqs"] is not None:
        return out, state["seqs"]
    seqs = (pooling_sequence(x.shape[1], out[1], state["gen"], pseudo_random),
            pooling_sequence(x.shape[2], out[2], state["gen"], pseudo_random))
    if deterministic:
        state["seqs"] = seqs
    return out, seqs


# ---- FractionalMaxPool -----------------------------------------------------------------------------------
def _frac_max_kernel(ctx, op, x, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2):
    out, (rseq, cseq) = _sequences(ctx, op, x, pooling_ratio, pseudo_random, deterministic, seed, seed2)
    if x.shape[0] != out[0] or x.shape[3] != out[3]:
        raise errors.UnimplementedError(None, None, "Fractional max pooling is not yet supported on the batch nor "
                                        "channel dimension.")
    values, _ = _max_choice(x, rseq, cseq, overlapping)
    return values, rseq.copy(), cseq.copy()


def _frac_max_grad(op, grad, unused_row_grad, unused_col_grad):
    return [ops.apply_op("FractionalMaxPoolGrad",
                         [op._inputs[0], op._outputs[0], grad, op._outputs[1], op._outputs[2]],
                         {"overlapping": op._attrs["overlapping"]})]


register_op("FractionalMaxPool", infer=_frac_infer, kernel=_frac_max_kernel, grad=_frac_max_grad, stateful=True)


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False,
                        seed=0, seed2=0, name=None):
    """Performs fractional max pooling on the input (Graham, 2015): pooling regions of 1 or 2 (in
    general `k` or `k + 1`) elements per dimension, so the output is `floor(input / pooling_ratio)`.

    Args:
      value: A 4-D `Tensor` `[batch, height, width, channels]` of float32, float64, int32 or int64.
      pooling_ratio: A list of 4 floats >= 1, the ratio per dimension (1 for batch and channels).
      pseudo_random: Whether the regions are pseudo random (else random).
      overlapping: Whether neighbouring regions share their boundary element.
      deterministic: Whether one set of regions is drawn once and reused by every run.
      seed: The op's seed (with `seed2`; both 0: a random seed).
      seed2: The op's second seed.
      name: A name for the operation (optional).

    Returns:
      A tuple `(output, row_pooling_sequence, col_pooling_sequence)`: the pooled values and the
      region boundaries (int64).

    Raises:
      ValueError: For a bad `pooling_ratio`.
      TypeError: For an unsupported dtype.
    """
    attrs = _frac_attrs("FractionalMaxPool", pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)
    out = ops.apply_op("FractionalMaxPool", [_convert(value, "value")], attrs, name=name)
    return FractionalMaxPool(*out)


def _seq_inputs_infer(op, x_index):
    for t in op._inputs[-2:]:
        if t.dtype is not dtypes.int64:
            raise TypeError("Value passed to parameter 'row_pooling_sequence' has DataType %s not in list of "
                            "allowed values: int64" % t.dtype.name)
        _static_dims(t, 1)


def _frac_max_grad_infer(op):
    x, y, dy = op._inputs[:3]
    if x.dtype not in _TYPES:
        raise TypeError("Value passed to parameter 'orig_input' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, _TYPE_NAMES))
    for arg, t in (("orig_output", y), ("out_backprop", dy)):
        if t.dtype is not x.dtype:
            raise TypeError("Input '%s' of 'FractionalMaxPoolGrad' Op has type %s that does not match type %s of "
                            "argument 'orig_input'." % (arg, t.dtype.name, x.dtype.name))
        _static_dims(t, 4)
    _seq_inputs_infer(op, 0)
    return [(x.dtype, _static_dims(x, 4))]


def _frac_max_grad_kernel(xp, x, y, dy, rseq, cseq, overlapping):
    if x.ndim != 4 or dy.ndim != 4:
        raise _invalid("orig_input and out_backprop must be 4-dimensional")
    rseq = _check_seq(rseq, x.shape[1], "row_pooling_sequence")
    cseq = _check_seq(cseq, x.shape[2], "col_pooling_sequence")
    want = (x.shape[0], rseq.size - 1, cseq.size - 1, x.shape[3])
    if dy.shape != want:
        raise _invalid("out_backprop has shape %s, expected %s" % (list(dy.shape), list(want)))
    _, flat = _max_choice(x, rseq, cseq, overlapping)
    dx = np.zeros(x.size, dy.dtype)
    np.add.at(dx, flat.reshape(-1), dy.reshape(-1))
    return dx.reshape(x.shape)


register_op("FractionalMaxPoolGrad", infer=_frac_max_grad_infer, kernel=_frac_max_grad_kernel)


# ---- FractionalAvgPool -----------------------------------------------------------------------------------
def _frac_avg_kernel(ctx, op, x, pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2):
    out, (rseq, cseq) = _sequences(ctx, op, x, pooling_ratio, pseudo_random, deterministic, seed, seed2)
    if x.shape[0] != out[0] or x.shape[3] != out[3]:
        raise errors.UnimplementedError(None, None, "Fractional average pooling is not yet supported on the batch "
                                        "nor channel dimension.")
    g, valid, _, _, rc, cc = _gather(x, rseq, cseq, overlapping)
    n, oh, kh, ow, kw, c = g.shape
    total = np.zeros((n, oh, ow, c), x.dtype)
    with np.errstate(over="ignore"):
        for i in range(kh):
            for j in range(kw):
                m = valid[:, i, :, j][None, :, :, None]
                total = np.where(m, total + g[:, :, i, :, j], total)
    counts = (rc[:, None] * cc[None, :])[None, :, :, None].astype(x.dtype)
    if x.dtype.kind == "f":
        values = total / counts
    else:  # C++ integer division: truncation toward zero
        values = (np.abs(total) // counts) * np.sign(total)
    return values.astype(x.dtype, copy=False), rseq.copy(), cseq.copy()


def _frac_avg_grad(op, grad, unused_row_grad, unused_col_grad):
    from .core_ops import shape as _shape_of
    x = op._inputs[0]
    if x.shape.is_fully_defined():
        sizes = ops.convert_to_tensor(np.asarray(x.shape.as_list(), np.int64))
    else:
        sizes = _shape_of(x, out_type=dtypes.int64)
    return [ops.apply_op("FractionalAvgPoolGrad", [sizes, grad, op._outputs[1], op._outputs[2]],
                         {"overlapping": op._attrs["overlapping"]})]


register_op("FractionalAvgPool", infer=_frac_infer, kernel=_frac_avg_kernel, grad=_frac_avg_grad, stateful=True)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False, deterministic=False,
                        seed=0, seed2=0, name=None):
    """Performs fractional average pooling on the input: as `fractional_max_pool`, with the mean of
    each pooling region.

    Args:
      value: A 4-D `Tensor` `[batch, height, width, channels]` of float32, float64, int32 or int64.
      pooling_ratio: A list of 4 floats >= 1, the ratio per dimension (1 for batch and channels).
      pseudo_random: Whether the regions are pseudo random (else random).
      overlapping: Whether neighbouring regions share their boundary element.
      deterministic: Whether one set of regions is drawn once and reused by every run.
      seed: The op's seed (with `seed2`; both 0: a random seed).
      seed2: The op's second seed.
      name: A name for the operation (optional).

    Returns:
      A tuple `(output, row_pooling_sequence, col_pooling_sequence)`.

    Raises:
      ValueError: For a bad `pooling_ratio`.
      TypeError: For an unsupported dtype.
    """
    attrs = _frac_attrs("FractionalAvgPool", pooling_ratio, pseudo_random, overlapping, deterministic, seed, seed2)
    out = ops.apply_op("FractionalAvgPool", [_convert(value, "value")], attrs, name=name)
    return FractionalAvgPool(*out)


def _frac_avg_grad_infer(op):
    sizes, dy = op._inputs[:2]
    if sizes.dtype is not dtypes.int64:
        raise TypeError("Value passed to parameter 'orig_input_tensor_shape' has DataType %s not in list of allowed "
                        "values: int64" % sizes.dtype.name)
    if dy.dtype not in _TYPES:
        raise TypeError("Value passed to parameter 'out_backprop' has DataType %s not in list of allowed values: %s"
                        % (dy.dtype.name, _TYPE_NAMES))
    _static_dims(dy, 4)
    _seq_inputs_infer(op, 0)
    from .nn_conv3d_ops import _static_rank
    _static_rank(sizes, 1)
    from ..framework import tensor_util
    try:
        dims = tensor_util.constant_value_as_shape(sizes).as_tuple()
    except (ValueError, TypeError):
        dims = None
    if dims is None or len(dims) != 4:
        dims = (None,) * 4
    return [(dy.dtype, dims)]


def _frac_avg_grad_kernel(xp, orig_shape, dy, rseq, cseq, overlapping):
    shape = tuple(int(v) for v in np.asarray(orig_shape).reshape(-1))
    if len(shape) != 4:
        raise _invalid("original input tensor shape must be 1-dimensional and 4 elements")
    if dy.ndim != 4:
        raise _invalid("out_backprop must be 4-dimensional")
    rseq = _check_seq(rseq, shape[1], "row_pooling_sequence")
    cseq = _check_seq(cseq, shape[2], "col_pooling_sequence")
    want = (shape[0], rseq.size - 1, cseq.size - 1, shape[3])
    if dy.shape != want:
        raise _invalid("out_backprop has shape %s, expected %s" % (list(dy.shape), list(want)))
    n, h, w, c = shape
    ri, rv, rc = _window_index(rseq, h, overlapping)
    ci, cv, cc = _window_index(cseq, w, overlapping)
    share = dy.astype(np.float64) / (rc[:, None] * cc[None, :])[None, :, :, None]
    # (n, oh, ow, kh, kw, c) in output order, each window's elements row-major: TF's accumulation order.
    valid = (rv[:, None, :, None] & cv[None, :, None, :])
    flat = ((np.arange(n)[:, None, None, None, None] * h + ri[None, :, None, :, None]) * w
            + ci[None, None, :, None, :])
    vals = np.broadcast_to(share[:, :, :, None, None, :], (n,) + valid.shape + (c,))
    keep = np.broadcast_to(valid[None], (n,) + valid.shape)
    idx = (flat[keep][:, None] * c + np.arange(c)).reshape(-1)
    dx = np.zeros(n * h * w * c, np.float64)
    np.add.at(dx, idx, vals[keep].reshape(-1))
    return dx.reshape(shape).astype(dy.dtype)


register_op("FractionalAvgPoolGrad", infer=_frac_avg_grad_infer, kernel=_frac_avg_grad_kernel)
