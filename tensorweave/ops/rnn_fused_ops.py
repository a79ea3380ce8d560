"""A whole LSTM loop as one op: TF's `BlockLSTM` and its gradient `BlockLSTMGrad`.

`BlockLSTM(seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b)` runs the LSTM equations of
TF's LSTMBlockCell over the first `seq_len_max` steps of `x` `[time, batch, input]` (gate blocks
of `w`/`b` in the order i, ci, f, o, as BasicLSTMCell's i, j, f, o):

    [i, ci, f, o] = [x_t, h_{t-1}] w + b      (peepholes: i += cs_{t-1} wci, f += cs_{t-1} wcf)
    i = sigmoid(i); f = sigmoid(f + forget_bias); ci = tanh(ci)
    cs_t = ci i + cs_{t-1} f                  (clipped to +-cell_clip when cell_clip > 0)
    o = sigmoid(o (+ cs_t wco)); co = tanh(cs_t); h_t = co o

and returns the seven `[time, batch, cell]` sequences (i, cs, f, o, ci, co, h), zero after
`seq_len_max`. The input projection of all steps is one matrix product; each step adds one
`[batch, cell] x [cell, 4 cell]` product. `BlockLSTMGrad` runs the recurrence backwards; like TF's
it treats a clipped cell state as unclipped.

TF registers these ops for float16/float32; float64 is accepted too (numerical gradient checks,
float64 models on the fused path).
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["block_lstm", "block_lstm_grad", "BLOCK_LSTM_TYPES"]

BLOCK_LSTM_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _check_type(op, tensors, names):
    t = tensors[0]._dtype
    for x, name in zip(tensors, names):
        if x._dtype not in BLOCK_LSTM_TYPES:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: "
                            "float16, float32, float64" % (name, x._dtype.name))
        if x._dtype is not t:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument 'x'."
                            % (name, op.type, x._dtype.name, t.name))
    return t


def _with_rank(op, t, rank, what):
    d = t._shape.as_tuple()
    if d is not None and len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d for '%s' (op: '%s') (%s)"
                         % (rank, len(d), op.name, op.type, what))
    return d if d is not None else (None,) * rank


def _cell_size(op, b):
    n = _with_rank(op, b, 1, "b")[0]
    if n is None:
        return None
    if n % 4:
        raise ValueError("Dimension size must be evenly divisible by 4 but is %d for '%s' (op: '%s')"
                         % (n, op.name, op.type))
    return n // 4


_NAMES = ("x", "cs_prev", "h_prev", "w", "wci", "wcf", "wco", "b")


def _block_lstm_infer(op):
    ins = op._inputs
    if ins[0]._dtype is not dtypes.int64:
        raise TypeError("Input 'seq_len_max' of 'BlockLSTM' Op has type %s that does not match expected type of "
                        "int64." % ins[0]._dtype.name)
    _with_rank(op, ins[0], 0, "seq_len_max")
    t = _check_type(op, ins[1:], _NAMES)
    x = _with_rank(op, ins[1], 3, "x")
    cell = _cell_size(op, ins[8])
    return [(t, (x[0], x[1], cell))] * 7


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _sigmoid(x, out=None):
    """1 / (1 + exp(-x)) in place into `out` (exp overflows to inf for very negative x: result 0)."""
    out = np.negative(x, out=out)
    with np.errstate(over="ignore"):
        np.exp(out, out=out)
    out += 1
    return np.reciprocal(out, out=out)


def _check_shapes(x, cs_prev, h_prev, w, wci, wcf, wco, b, seq_len_max):
    if x.ndim != 3:
        raise _invalid("x must be 3D")
    timelen, batch, input_size = x.shape
    if cs_prev.ndim != 2:
        raise _invalid("cs_prev must be 2D")
    if cs_prev.shape[0] != batch:
        raise _invalid("cs_prev.dims(0) != batch_size: %d vs. %d" % (cs_prev.shape[0], batch))
    cell = cs_prev.shape[1]
    if h_prev.ndim != 2:
        raise _invalid("h_prev must be 2D")
    if h_prev.shape[0] != batch:
        raise _invalid("h_prev.dims(0) != batch_size: %d vs. %d" % (h_prev.shape[0], batch))
    if h_prev.shape[1] != cell:
        raise _invalid("h_prev.dims(1) != cell_size: %d vs. %d" % (h_prev.shape[1], cell))
    if w.ndim != 2:
        raise _invalid("w must be 2D")
    if w.shape[0] != input_size + cell:
        raise _invalid("w.dim_size(0) != input_size + cell_size: %d vs. %d" % (w.shape[0], input_size + cell))
    if w.shape[1] != cell * 4:
        raise _invalid("w.dim_size(1) != cell_size * 4: %d vs. %d" % (w.shape[1], cell * 4))
    if b.ndim != 1 or b.shape[0] != cell * 4:
        raise _invalid("b.dim_size(0) != cell_size * 4: %d vs. %d" % (b.shape[0] if b.ndim else -1, cell * 4))
    for v, name in ((wci, "wci"), (wcf, "wcf"), (wco, "wco")):
        if v.ndim != 1 or v.shape[0] != cell:
            raise _invalid("%s.dim_size(0) != cell_size: %d vs. %d" % (name, v.shape[0] if v.ndim else -1, cell))
    if np.ndim(seq_len_max) != 0:
        raise _invalid("seq_len_max must be a scalar")
    n = int(seq_len_max)
    if n < 0 or n > timelen:
        raise _invalid("seq_len_max must be in [0, timelen = %d], got %d" % (timelen, n))
    return n, cell, input_size


def _block_lstm_kernel(_xp, seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b, forget_bias, cell_clip, use_peephole):
    n, cell, input_size = _check_shapes(x, cs_prev, h_prev, w, wci, wcf, wco, b, seq_len_max)
    timelen, batch = x.shape[:2]
    dt = x.dtype
    outs = [np.zeros((timelen, batch, cell), dt) for _ in range(7)]
    i_s, cs_s, f_s, o_s, ci_s, co_s, h_s = outs
    if n == 0 or batch == 0:
        return tuple(outs)
    w_x, w_h = w[:input_size], np.ascontiguousarray(w[input_size:])
    b = b.copy()
    b[2 * cell:3 * cell] += dt.type(forget_bias)
    # The input part of every step's gate pre-activations (and the biases), in one product.
    xw = np.matmul(x[:n].reshape(n * batch, input_size), w_x).reshape(n, batch, 4 * cell)
    xw += b
    clip = dt.type(cell_clip)
    g = np.empty((batch, 4 * cell), dt)
    cs, h = cs_prev, h_prev
    ii, cc, ff, oo = (slice(k * cell, (k + 1) * cell) for k in range(4))
    for t in range(n):
        np.matmul(h, w_h, out=g)
        g += xw[t]
        np.tanh(g[:, cc], out=ci_s[t])
        if use_peephole:
            g[:, ii] += cs * wci
            g[:, ff] += cs * wcf
            _sigmoid(g[:, ii], out=i_s[t])
            _sigmoid(g[:, ff], out=f_s[t])
        else:
            _sigmoid(g, out=g)
            i_s[t], f_s[t], o_s[t] = g[:, ii], g[:, ff], g[:, oo]
        new = cs_s[t]
        np.multiply(ci_s[t], i_s[t], out=new)
        new += cs * f_s[t]
        if cell_clip > 0:
            np.clip(new, -clip, clip, out=new)
        cs = new
        if use_peephole:
            _sigmoid(g[:, oo] + cs * wco, out=o_s[t])
        np.tanh(cs, out=co_s[t])
        h = np.multiply(co_s[t], o_s[t], out=h_s[t])
    return tuple(outs)


def _block_lstm_grad(op, *grads):
    """TF's rule: the gradient flows from the `cs` and `h` outputs only (TF's BlockLSTM gradient
    ignores the gradients of the gate outputs i, f, o, ci and co)."""
    from . import core_ops
    cs_grad = grads[1] if grads[1] is not None else core_ops.zeros_like(op._outputs[1])
    h_grad = grads[6] if grads[6] is not None else core_ops.zeros_like(op._outputs[6])
    return [None] + block_lstm_grad(*(list(op._inputs) + list(op._outputs) + [cs_grad, h_grad]),
                                    use_peephole=op._attrs["use_peephole"])


register_op("BlockLSTM", infer=_block_lstm_infer, kernel=_block_lstm_kernel, grad=_block_lstm_grad)


def _block_lstm_grad_infer(op):
    ins = op._inputs
    if ins[0]._dtype is not dtypes.int64:
        raise TypeError("Input 'seq_len_max' of 'BlockLSTMGrad' Op has type %s that does not match expected type "
                        "of int64." % ins[0]._dtype.name)
    _with_rank(op, ins[0], 0, "seq_len_max")
    names = _NAMES + ("i", "cs", "f", "o", "ci", "co", "h", "cs_grad", "h_grad")
    t = _check_type(op, ins[1:], names)
    x = _with_rank(op, ins[1], 3, "x")
    cs_prev = _with_rank(op, ins[2], 2, "cs_prev")
    h_prev = _with_rank(op, ins[3], 2, "h_prev")
    w = _with_rank(op, ins[4], 2, "w")
    wci, wcf, wco = (_with_rank(op, ins[k], 1, n) for k, n in ((5, "wci"), (6, "wcf"), (7, "wco")))
    b = _with_rank(op, ins[8], 1, "b")
    return [(t, x), (t, cs_prev), (t, h_prev), (t, w), (t, wci), (t, wcf), (t, wco), (t, b)]


def _block_lstm_grad_kernel(_xp, seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b, i, cs, f, o, ci, co, h,
                            cs_grad, h_grad, use_peephole):
    n, cell, input_size = _check_shapes(x, cs_prev, h_prev, w, wci, wcf, wco, b, seq_len_max)
    timelen, batch = x.shape[:2]
    for v, name in ((i, "i"), (cs, "cs"), (f, "f"), (o, "o"), (ci, "ci"), (co, "co"), (h, "h"),
                    (cs_grad, "cs_grad"), (h_grad, "h_grad")):
        if v.shape != (timelen, batch, cell):
            raise _invalid("%s must have shape [%d,%d,%d], got %s" % (name, timelen, batch, cell, list(v.shape)))
    dt = x.dtype
    x_grad = np.zeros_like(x)
    dgates = np.empty((n, batch, 4 * cell), dt)
    dcs_next = np.zeros((batch, cell), dt)
    dh_next = np.zeros((batch, cell), dt)
    wci_grad, wcf_grad, wco_grad = np.zeros_like(wci), np.zeros_like(wcf), np.zeros_like(wco)
    w_h_t = np.ascontiguousarray(w[input_size:].T)
    one = dt.type(1)
    ii, cc, ff, oo = (slice(k * cell, (k + 1) * cell) for k in range(4))
    for t in range(n - 1, -1, -1):
        c_prev = cs_prev if t == 0 else cs[t - 1]
        d = dgates[t]
        it, ft, ot, cit, cot = i[t], f[t], o[t], ci[t], co[t]
        dh = h_grad[t] + dh_next
        do = np.multiply(ot, one - ot, out=d[:, oo])
        do *= dh
        do *= cot
        dcs = one - cot * cot
        dcs *= dh
        dcs *= ot
        dcs += cs_grad[t]
        dcs += dcs_next
        if use_peephole:
            dcs += do * wco
        dci = np.multiply(one - cit * cit, dcs, out=d[:, cc])
        dci *= it
        df = np.multiply(ft, one - ft, out=d[:, ff])
        df *= dcs
        df *= c_prev
        di = np.multiply(it, one - it, out=d[:, ii])
        di *= dcs
        di *= cit
        dcs_next = dcs * ft
        if use_peephole:
            dcs_next += di * wci + df * wcf
            wci_grad += (di * c_prev).sum(axis=0)
            wcf_grad += (df * c_prev).sum(axis=0)
            wco_grad += (do * cs[t]).sum(axis=0)
        dh_next = np.matmul(d, w_h_t)
    if n and batch:
        flat = dgates.reshape(n * batch, 4 * cell)
        x_flat = x[:n].reshape(n * batch, input_size)
        x_grad[:n] = np.matmul(flat, w[:input_size].T).reshape(n, batch, input_size)
        h_prevs = np.concatenate([h_prev[None], h[:n - 1]], axis=0).reshape(n * batch, cell)
        w_grad = np.concatenate([np.matmul(x_flat.T, flat), np.matmul(h_prevs.T, flat)], axis=0)
        b_grad = flat.sum(axis=0)
    else:
        w_grad, b_grad = np.zeros_like(w), np.zeros_like(b)
    return (x_grad, dcs_next, dh_next, w_grad.astype(dt, copy=False), wci_grad, wcf_grad, wco_grad,
            b_grad.astype(dt, copy=False))


register_op("BlockLSTMGrad", infer=_block_lstm_grad_infer, kernel=_block_lstm_grad_kernel, grad=NO_GRADIENT)


def block_lstm(seq_len_max, x, cs_prev, h_prev, w, b, wci=None, wcf=None, wco=None, forget_bias=1.0, cell_clip=3.0,
               use_peephole=False, name=None):
    """Builds a `BlockLSTM` op (TF's `gen_rnn_ops.block_lstm`; peephole weights default to zeros).

    Args:
      seq_len_max: int64 scalar: the number of steps computed (outputs after it are zeros).
      x: `[time, batch, input]` inputs (float16, float32 or float64).
      cs_prev, h_prev: `[batch, cell]` initial cell state and output.
      w: `[input + cell, 4 * cell]` weights, gate blocks i, ci, f, o.
      b: `[4 * cell]` bias.
      wci, wcf, wco: `[cell]` peephole weights (used with `use_peephole`).
      forget_bias: Added to the forget gate's pre-activation.
      cell_clip: Clip the cell state to +-cell_clip when positive.
      use_peephole: Whether the peephole connections are used.
      name: Op name.

    Returns:
      The list `[i, cs, f, o, ci, co, h]` of `[time, batch, cell]` tensors.
    """
    with ops.name_scope(name, "BlockLSTM", [x, cs_prev, h_prev, w, b]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        args = [ops.convert_to_tensor(v, dtype=x.dtype) for v in (cs_prev, h_prev, w)]
        b = ops.convert_to_tensor(b, dtype=x.dtype, name="b")
        if wci is None or wcf is None or wco is None:
            from . import array_ops
            zero = array_ops.zeros(array_ops.shape(b)[:1] // 4, x.dtype)
        peep = [ops.convert_to_tensor(v, dtype=x.dtype) if v is not None else zero for v in (wci, wcf, wco)]
        out = ops.apply_op("BlockLSTM", [ops.convert_to_tensor(seq_len_max, dtypes.int64), x] + args + peep + [b],
                           {"forget_bias": float(forget_bias), "cell_clip": float(cell_clip),
                            "use_peephole": bool(use_peephole)}, name=scope)
    return list(out)


def block_lstm_grad(seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b, i, cs, f, o, ci, co, h, cs_grad, h_grad,
                    use_peephole=False, name=None):
    """Builds a `BlockLSTMGrad` op (TF's `gen_rnn_ops.block_lstm_grad`): the gradients of a
    `BlockLSTM` given the gradients `cs_grad` and `h_grad` of its `cs` and `h` outputs.

    Args:
      seq_len_max, x, cs_prev, h_prev, w, wci, wcf, wco, b: The BlockLSTM's inputs.
      i, cs, f, o, ci, co, h: The BlockLSTM's outputs.
      cs_grad, h_grad: `[time, batch, cell]` gradients of `cs` and `h`.
      use_peephole: The BlockLSTM's `use_peephole`.
      name: Op name.

    Returns:
      The list `[x_grad, cs_prev_grad, h_prev_grad, w_grad, wci_grad, wcf_grad, wco_grad, b_grad]`.
    """
    inputs = [ops.convert_to_tensor(seq_len_max, dtypes.int64)]
    x = ops.convert_to_tensor(x)
    inputs += [x] + [ops.convert_to_tensor(v, dtype=x.dtype) for v in
                     (cs_prev, h_prev, w, wci, wcf, wco, b, i, cs, f, o, ci, co, h, cs_grad, h_grad)]
    return list(ops.apply_op("BlockLSTMGrad", inputs, {"use_peephole": bool(use_peephole)}, name=name))
