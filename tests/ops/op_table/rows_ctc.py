"""Op-table rows of the CTC ops (tensorweave/ops/ctc_ops.py; see harness.py for the row API).

References enumerate every alignment (every class sequence over the time steps) in long double:
the loss is minus the log of the summed probability of the alignments that collapse to the label,
the op's gradient output the softmax minus each class's posterior occupancy (the softmax itself
where no alignment exists, as TF); the beam search reference ranks every label sequence by its
exact probability (a beam of 100 keeps every prefix of these short inputs, so TF's search is
exact there); the greedy reference takes each step's first maximum. TensorFlow's own values
(pruned beams included) are checked in tests/ops/test_ctc_ops.py.
"""

import itertools

import numpy as np

import tensorweave as tf
from tensorweave.ops.ctc_ops import _ctc_loss_op, prevent_gradient
from tests.ops.op_table.harness import FLOATS, INTS, Row, rand

F32, F64 = np.float32, np.float64
LD = np.longdouble
_TOL_R = {"float32": 2e-5, "float64": 2e-6}
_TOL_A = {"float32": 1e-5, "float64": 1e-6}
_LABELS = [[0, 1], [1]]
_SEQ = [4, 3]


def _sparse_inputs(rows):
    ind = np.asarray([[b, t] for b, r in enumerate(rows) for t in range(len(r))], np.int64).reshape(-1, 2)
    val = np.asarray([v for r in rows for v in r], np.int32)
    return ind, val


def _softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _collapse(path, blank, merge):
    out = []
    prev = None
    for k in path:
        if k != blank and not (merge and k == prev):
            out.append(k)
        prev = k
    return tuple(out)


def _loss_ref(merge):
    def ref(x, ind, val, seq):
        t_max, batch, classes = x.shape
        blank = classes - 1
        loss = np.zeros(batch, LD)
        grad = np.zeros(x.shape, LD)
        for b in range(batch):
            label = tuple(int(v) for (row, _), v in zip(ind, val) if row == b)
            n = int(seq[b])
            y = _softmax(x[:n, b].astype(LD))
            total = LD(0)
            occupancy = np.zeros((n, classes), LD)
            for path in itertools.product(range(classes), repeat=n):
                if _collapse(path, blank, merge) != label:
                    continue
                p = np.prod([y[t, k] for t, k in enumerate(path)])
                total += p
                for t, k in enumerate(path):
                    occupancy[t, k] += p
            loss[b] = -np.log(total) if total > 0 else np.inf
            grad[:n, b] = y - occupancy / total if total > 0 else y
        return [loss.astype(x.dtype), grad.astype(x.dtype)]
    return ref


def _loss_inputs(dtype, rng, scale=1.0):
    ind, val = _sparse_inputs(_LABELS)
    return [rand(rng, (4, 2, 3), dtype) * np.dtype(dtype).type(scale), ind, val, np.asarray(_SEQ, np.int32)]


def _loss_special(dtype):
    rng = np.random.RandomState(7)
    peaked = _loss_inputs(dtype, rng, scale=20.0)
    ind, val = _sparse_inputs([[0, 0], [1, 1]])
    impossible = [rand(rng, (2, 2, 3), dtype), ind, val, np.asarray([2, 2], np.int32)]
    return [peaked, impossible]


def _loss_fn(merge):
    def fn(x, ind, val, seq):
        shape = tf.cast(tf.reduce_max(ind, axis=0) + 1, tf.int64)
        # The op's own wrapper: it returns both outputs (tf.nn.ctc_loss returns the loss only).
        return list(_ctc_loss_op(x, tf.SparseTensor(ind, val, shape), seq, ctc_merge_repeated=merge))
    return fn


def _greedy_ref(merge):
    def ref(x, seq):
        t_max, batch, classes = x.shape
        blank = classes - 1
        seqs, log_prob = [], np.zeros((batch, 1), LD)
        for b in range(batch):
            best = [int(np.argmax(x[t, b])) for t in range(int(seq[b]))]
            log_prob[b, 0] = sum((-LD(x[t, b, k]) for t, k in enumerate(best)), LD(0))  # +0.0 when empty
            seqs.append(list(_collapse(best, blank, merge)))
        return _sparse_outputs(seqs) + [log_prob.astype(x.dtype)]
    return ref


def _sparse_outputs(seqs):
    ind = np.asarray([[b, t] for b, s in enumerate(seqs) for t in range(len(s))], np.int64).reshape(-1, 2)
    val = np.asarray([v for s in seqs for v in s], np.int64)
    return [ind, val, np.asarray([len(seqs), max([len(s) for s in seqs] + [0])], np.int64)]


def _decoder_inputs(dtype, rng, scale=1.0):
    return [rand(rng, (4, 2, 3), dtype) * np.dtype(dtype).type(scale), np.asarray(_SEQ, np.int32)]


def _greedy_special(dtype):
    ties = np.zeros((3, 2, 4), dtype)  # every class equal: the first one wins
    inf = np.array([[[np.inf, 0, 1]], [[-np.inf, -np.inf, 2]], [[1, 1, -np.inf]]], dtype)
    return [[ties, np.asarray([3, 0], np.int32)], [inf, np.asarray([3], np.int32)],
            _decoder_inputs(dtype, np.random.RandomState(3), scale=10.0)]


_TOP_PATHS = 3


def _beam_ref(x, seq):
    t_max, batch, classes = x.shape
    blank = classes - 1
    paths = [[] for _ in range(_TOP_PATHS)]
    log_prob = np.zeros((batch, _TOP_PATHS), LD)
    for b in range(batch):
        n = int(seq[b])
        y = _softmax(x[:n, b].astype(LD))
        probs = {}
        for path in itertools.product(range(classes), repeat=n):
            key = _collapse(path, blank, True)
            probs[key] = probs.get(key, LD(0)) + np.prod([y[t, k] for t, k in enumerate(path)])
        best = sorted(probs.items(), key=lambda kv: -kv[1])[:_TOP_PATHS]
        for i, (labels, p) in enumerate(best):
            paths[i].append(list(labels))
            log_prob[b, i] = np.log(p)
    stored = [_sparse_outputs(p) for p in paths]
    return [s[0] for s in stored] + [s[1] for s in stored] + [s[2] for s in stored] + [log_prob.astype(x.dtype)]


def _beam_fn(x, seq):
    # merge_repeated=False: each decoded path is the label sequence of its prefix-tree node.
    dec, log_prob = tf.nn.ctc_beam_search_decoder(x, seq, beam_width=100, top_paths=_TOP_PATHS,
                                                  merge_repeated=False)
    return [d.indices for d in dec] + [d.values for d in dec] + [d.dense_shape for d in dec] + [log_prob]


ROWS = [
    Row("CTCLoss", _loss_fn(True), _loss_ref(True), _loss_inputs, dtypes=(F32, F64), special=_loss_special,
        grad_fn=lambda *t: _loss_fn(True)(*t)[0], grad=[0], grad_delta=1e-2, grad_tol=1e-3,
        rtol=_TOL_R, atol=_TOL_A,
        note="log probabilities are added as TF's LogSumExp (single-precision correction term, float64 too): "
             "float64 agrees to ~1e-7, hence the tolerances and the wide numerical-gradient step"),
    Row("CTCLoss", _loss_fn(False), _loss_ref(False), _loss_inputs, dtypes=(F32, F64), special=_loss_special,
        grad_fn=lambda *t: _loss_fn(False)(*t)[0], grad=[0], grad_delta=1e-2, grad_tol=1e-3,
        rtol=_TOL_R, atol=_TOL_A, name="CTCLoss-no_merge_repeated"),
    Row("CTCGreedyDecoder", lambda x, s: (lambda d: [d[0][0].indices, d[0][0].values, d[0][0].dense_shape, d[1]])(
        tf.nn.ctc_greedy_decoder(x, s)), _greedy_ref(True), _decoder_inputs, dtypes=(F32, F64),
        special=_greedy_special, grad=False, static_known=False),
    Row("CTCGreedyDecoder", lambda x, s: (lambda d: [d[0][0].indices, d[0][0].values, d[0][0].dense_shape, d[1]])(
        tf.nn.ctc_greedy_decoder(x, s, merge_repeated=False)), _greedy_ref(False), _decoder_inputs,
        dtypes=(F32, F64), special=_greedy_special, grad=False, static_known=False,
        name="CTCGreedyDecoder-no_merge_repeated"),
    Row("CTCBeamSearchDecoder", _beam_fn, _beam_ref, _decoder_inputs, dtypes=(F32, F64),
        special=lambda dt: [_decoder_inputs(dt, np.random.RandomState(5), scale=4.0)], grad=False,
        static_known=False, rtol=_TOL_R, atol=_TOL_A),
    Row("PreventGradient", lambda x: prevent_gradient(x, message="no"), lambda x: x, lambda dt, rng: [
        rand(rng, (3, 4), dt)], dtypes=FLOATS + INTS, grad=None,
        note="its gradient raises LookupError: tests/ops/test_ctc_ops.py::test_second_derivative_is_prevented"),
]
