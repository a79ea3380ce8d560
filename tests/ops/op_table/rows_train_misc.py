"""Op-table rows of the Adagrad dual-averaging updates (tensorweave/ops/training_da_ops.py):
ApplyAdagradDA and SparseApplyAdagradDA, against TF's documented formula in long double; and of the
SDCA helpers (tensorweave/ops/training_sdca_ops.py): SdcaFprint against fingerprints recorded from TF
(tests/data/make_train_misc_tf.py), SdcaShrinkL1 against its formula."""

import json
import os

import numpy as np

import tensorweave as tf
from tensorweave.ops import training_da_ops, training_sdca_ops
from tests.ops.op_table.harness import Row, rand

with open(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "data", "train_misc_tf.json")) as _f:
    _GOLD = json.load(_f)

LD = np.longdouble
LR, L1, L2, STEP = 0.1, 0.05, 0.1, 3


def _deps(*variables):
    return tf.control_dependencies([] if tf.executing_eagerly() else [v.initializer for v in variables])


def _variable(x):
    return tf.Variable(x, validate_shape=x.shape.is_fully_defined())


def _da_ref(l1):
    """One AdagradDA step at global step STEP: `(var, g_acc, gg_acc)` after it."""
    def ref(var, g_acc, gg_acc, g):
        g_acc = g_acc + g
        gg_acc = gg_acc + g * g
        denom = LD(L2) * STEP * LD(LR) + np.sqrt(gg_acc)
        if l1 > 0:
            new = -np.sign(g_acc) * LD(LR) * np.maximum(np.abs(g_acc) - LD(l1) * STEP, 0) / denom
        else:
            new = -g_acc * LD(LR) / denom
        return [new, g_acc, gg_acc]
    return ref


def _run(apply, state, grad, *extra):
    variables = [_variable(a) for a in state]
    with _deps(*variables):
        out = apply(*variables, grad, *extra)
    with tf.control_dependencies([out]):
        return [tf.identity(out)] + [tf.identity(v.read_value()) for v in variables]


def _dense_row(l1, name=None):
    def fn(var, g_acc, gg_acc, grad):
        step = tf.constant(STEP, tf.int64)
        return _run(lambda v, a, b, g: training_da_ops.apply_adagrad_da(v, a, b, g, LR, l1, L2, step),
                    [var, g_acc, gg_acc], grad)

    def inputs(dt, rng):
        return [rand(rng, (3, 4), dt), rand(rng, (3, 4), dt), rand(rng, (3, 4), dt, 0.1, 1.0), rand(rng, (3, 4), dt)]

    def reference(*arrays):
        dt = arrays[0].dtype
        new = _da_ref(l1)(*[a.astype(LD) for a in arrays])
        return [new[0].astype(dt)] + [a.astype(dt) for a in new]

    def special(dt):
        base = inputs(dt, np.random.RandomState(0))
        grad = np.resize(np.array([np.nan, 0.0, -0.0, np.inf], dt), base[-1].shape)
        return [base[:-1] + [grad]]

    # TF registers the AdagradDA kernels for float32 and float64 only.
    return Row("ApplyAdagradDA", fn, reference, inputs, dtypes=(np.float32, np.float64), special=special, grad=False,
               name=name, rtol={np.float32: 1e-5}, atol={np.float32: 1e-5})


def _sparse_row(l1, indices, shape, name=None):
    def fn(var, g_acc, gg_acc, grad):
        step = tf.constant(STEP, tf.int64)
        return _run(lambda v, a, b, g, i: training_da_ops.sparse_apply_adagrad_da(v, a, b, g, i, LR, l1, L2, step),
                    [var, g_acc, gg_acc], grad, tf.constant(list(indices)))

    def inputs(dt, rng):
        rows = (len(indices),) + shape[1:]
        return [rand(rng, shape, dt), rand(rng, shape, dt), rand(rng, shape, dt, 0.1, 1.0), rand(rng, rows, dt)]

    def reference(*arrays):
        dt = arrays[0].dtype
        *state, grad = [a.astype(LD) for a in arrays]
        for i, index in enumerate(indices):
            rows = _da_ref(l1)(*[s[index] for s in state], grad[i])
            for s, r in zip(state, rows):
                s[index] = r
        return [state[0].astype(dt)] + [s.astype(dt) for s in state]

    return Row("SparseApplyAdagradDA", fn, reference, inputs, dtypes=(np.float32, np.float64), special=False,
               grad=False, name=name, rtol={np.float32: 1e-5}, atol={np.float32: 1e-5})


ROWS = [
    _dense_row(L1),
    _dense_row(0.0, name="ApplyAdagradDA-no_l1"),
    _sparse_row(L1, (2, 0, 3), (4, 3)),
    _sparse_row(0.0, (2, 0, 3), (4, 3), name="SparseApplyAdagradDA-no_l1"),
    # A repeated index is updated once per occurrence, in order; rows of one element take TF's scalar path.
    _sparse_row(L1, (1, 3, 1), (4,), name="SparseApplyAdagradDA-vector-repeated"),
]


# ---- SdcaFprint / SdcaShrinkL1 ------------------------------------------------------------------------
_POOL = [p.encode("utf-8") for p in _GOLD["sdca_pool"]]
_FPRINTS = dict(zip(_POOL, _GOLD["sdca_fprint"]))


def _strings(values):
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out


def _fprint_ref(x):
    return np.array([_FPRINTS[bytes(v)] for v in x.reshape(-1)], np.int64).reshape(-1, 2)


SL1, SL2 = 0.5, 2.0


def _shrink_fn(w1, w2):
    v1, v2 = _variable(w1), _variable(w2)
    with _deps(v1, v2):
        op = training_sdca_ops.sdca_shrink_l1([v1, v2], SL1, SL2)
    with tf.control_dependencies([] if tf.executing_eagerly() else [op]):
        return [tf.identity(v1.read_value()), tf.identity(v2.read_value())]


def _shrink_ref(w1, w2):
    shrink = LD(np.float32(SL1) / np.float32(SL2))

    def one(w):
        w = w.astype(LD)
        sign = (w > 0).astype(LD) - (w < 0).astype(LD)
        return (sign * np.maximum(np.abs(w) - shrink, 0)).astype(np.float32)
    return [one(w1), one(w2)]


ROWS += [
    Row("SdcaFprint", training_sdca_ops.sdca_fprint, _fprint_ref,
        lambda dt, rng: [_strings([_POOL[rng.randint(len(_POOL))] for _ in range(5)])], dtypes=(np.dtype(object),),
        special=lambda dt: [[_strings(_POOL)], [_strings([])]], grad=False),
    Row("SdcaShrinkL1", _shrink_fn, _shrink_ref,
        lambda dt, rng: [rand(rng, (5,), dt, -1.0, 1.0), rand(rng, (2, 3), dt, -1.0, 1.0)], dtypes=(np.float32,),
        grad=False),
]
