"""Op-table rows of tensorweave/ops/rnn_fused_ops.py: BlockLSTM and BlockLSTMGrad (see harness.py).

The forward reference runs the LSTM equations step by step in long double on the concatenated
`[x_t, h_{t-1}]` (the kernel projects all inputs at once and adds `h w_h` per step). The gradient
reference differentiates that forward reference by the complex step (`Im f(v + i e) / e` with
`e = 1e-30`, exact to rounding), one input element at a time, for the loss
`sum(cs * cs_grad) + sum(h * h_grad)` whose gradient BlockLSTMGrad returns."""

import numpy as np

from tensorweave.ops.rnn_fused_ops import block_lstm, block_lstm_grad
from tests.ops.op_table.harness import Row, rand

_T, _B, _I, _H = 4, 3, 3, 2
_TOL16 = {"float16": 2e-2}


def _sig(v):
    return 1 / (1 + np.exp(-v))


def _forward_ref(seq, x, cs, h, w, wci, wcf, wco, b, forget_bias, cell_clip, peep):
    """(i, cs, f, o, ci, co, h) sequences, zero after `seq` steps (any float or complex dtype)."""
    n = int(seq)
    t_len, batch = x.shape[:2]
    cell = cs.shape[1]
    outs = [np.zeros((t_len, batch, cell), dtype=np.result_type(x, w, cs, h, b)) for _ in range(7)]
    for t in range(n):
        z = np.concatenate([x[t], h], axis=1) @ w + b
        zi, zci, zf, zo = (z[:, k * cell:(k + 1) * cell] for k in range(4))
        if peep:
            zi = zi + cs * wci
            zf = zf + cs * wcf
        i, f, ci = _sig(zi), _sig(zf + forget_bias), np.tanh(zci)
        cs = ci * i + cs * f
        if cell_clip > 0:
            cs = np.clip(cs, -cell_clip, cell_clip)
        if peep:
            zo = zo + cs * wco
        o = _sig(zo)
        co = np.tanh(cs)
        h = co * o
        for arr, v in zip(outs, (i, cs, f, o, ci, co, h)):
            arr[t] = v
    return outs


def _lstm_fn(forget_bias, cell_clip, peep):
    def fn(seq, x, cs, h, w, wci, wcf, wco, b):
        return block_lstm(seq, x, cs, h, w, b, wci, wcf, wco, forget_bias=forget_bias, cell_clip=cell_clip,
                          use_peephole=peep)
    return fn


def _lstm_ref(forget_bias, cell_clip, peep):
    def ref(seq, x, *rest):
        up = [a.astype(np.longdouble) for a in (x,) + rest]
        return [o.astype(x.dtype) for o in _forward_ref(seq, *up, forget_bias, cell_clip, peep)]
    return ref


def _inputs(seq=_T - 1, t_len=_T, batch=_B):
    def make(dtype, rng):
        return (np.int64(seq), rand(rng, (t_len, batch, _I), dtype, -1, 1), rand(rng, (batch, _H), dtype, -1, 1),
                rand(rng, (batch, _H), dtype, -1, 1), rand(rng, (_I + _H, 4 * _H), dtype, -1, 1),
                rand(rng, (_H,), dtype, -1, 1), rand(rng, (_H,), dtype, -1, 1), rand(rng, (_H,), dtype, -1, 1),
                rand(rng, (4 * _H,), dtype, -1, 1))
    return make


def _special(dtype):
    rng = np.random.RandomState(1)
    base = list(_inputs()(dtype, rng))
    nan = [a.copy() for a in base]
    nan[1][1, 0, 0] = np.nan
    big = [a.copy() for a in base]
    big[1] *= np.dtype(dtype).type(400 if np.dtype(dtype) != np.float16 else 30)
    return [nan, big, _inputs(0, 2)(dtype, rng), _inputs(0, 0)(dtype, rng), _inputs(2, 3, 0)(dtype, rng),
            _inputs(_T)(dtype, rng)]


def _grad_fn(forget_bias, peep):
    def fn(seq, x, cs, h, w, wci, wcf, wco, b, cs_grad, h_grad):
        out = block_lstm(seq, x, cs, h, w, b, wci, wcf, wco, forget_bias=forget_bias, cell_clip=-1.0,
                         use_peephole=peep)
        return block_lstm_grad(seq, x, cs, h, w, wci, wcf, wco, b, *out, cs_grad, h_grad, use_peephole=peep)
    return fn


def _grad_ref(forget_bias, peep):
    def ref(seq, x, cs, h, w, wci, wcf, wco, b, cs_grad, h_grad):
        args = [a.astype(np.complex128) for a in (x, cs, h, w, wci, wcf, wco, b)]
        eps = 1e-30
        grads = []
        for k, a in enumerate(args):
            g = np.zeros(a.shape, np.float64)
            for idx in np.ndindex(*a.shape):
                pert = [v.copy() for v in args]
                pert[k][idx] += 1j * eps
                outs = _forward_ref(seq, *pert, forget_bias, -1.0, peep)
                loss = np.sum(outs[1] * cs_grad) + np.sum(outs[6] * h_grad)
                g[idx] = loss.imag / eps
            grads.append(g.astype(x.dtype))
        return grads
    return ref


def _grad_inputs(seq=_T - 1, t_len=_T, batch=_B):
    def make(dtype, rng):
        base = _inputs(seq, t_len, batch)(dtype, rng)
        return tuple(base) + (rand(rng, (t_len, batch, _H), dtype, -1, 1), rand(rng, (t_len, batch, _H), dtype, -1, 1))
    return make


def _grad_special(dtype):
    rng = np.random.RandomState(2)
    return [_grad_inputs(0, 2)(dtype, rng), _grad_inputs(_T)(dtype, rng), _grad_inputs(2, 3, 0)(dtype, rng)]


ROWS = [
    Row("BlockLSTM", _lstm_fn(1.0, -1.0, False), _lstm_ref(1.0, -1.0, False), _inputs(), special=_special,
        rtol=_TOL16, atol=_TOL16, signed_zeros=False, grad=[1, 2, 3, 4, 8],
        grad_fn=lambda *a: _lstm_fn(1.0, -1.0, False)(*a)[1::5]),
    Row("BlockLSTM", _lstm_fn(0.3, -1.0, True), _lstm_ref(0.3, -1.0, True), _inputs(), special=_special,
        rtol=_TOL16, atol=_TOL16, signed_zeros=False, grad=[1, 2, 3, 4, 5, 6, 7, 8],
        grad_fn=lambda *a: _lstm_fn(0.3, -1.0, True)(*a)[1::5], name="BlockLSTM-peephole"),
    Row("BlockLSTM", _lstm_fn(1.0, 0.4, True), _lstm_ref(1.0, 0.4, True), _inputs(), special=_special,
        rtol=_TOL16, atol=_TOL16, signed_zeros=False, grad=None, name="BlockLSTM-cell_clip",
        note="as TF's, the BlockLSTM gradient treats a clipped cell state as unclipped; the unclipped gradient "
             "is checked by the rows BlockLSTM and BlockLSTM-peephole"),
    Row("BlockLSTMGrad", _grad_fn(1.0, False), _grad_ref(1.0, False), _grad_inputs(), special=_grad_special,
        rtol=_TOL16, atol=_TOL16, signed_zeros=False, grad=False, dtypes=(np.float16, np.float32, np.float64)),
    Row("BlockLSTMGrad", _grad_fn(0.5, True), _grad_ref(0.5, True), _grad_inputs(), special=False,
        rtol=_TOL16, atol=_TOL16, grad=False, name="BlockLSTMGrad-peephole"),
]
