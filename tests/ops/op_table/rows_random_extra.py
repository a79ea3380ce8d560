"""Op-table rows of the random family's later ops (see harness.py for the row API): the stateless
ops (references: TensorFlow's own values, tests/data/random_tf.npz from tests/data/make_random_tf.py),
gamma/Poisson sampling (statistical rows, as the other random rows in rows_other.py), the gamma
sample gradient (SciPy inverse-CDF differences) and the candidate samplers (their deterministic
expected counts, from the samplers' base distributions)."""

import math
import pathlib

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops
from tests.ops.op_table.harness import FLOATS, INTS, Row

_TF = np.load(pathlib.Path(__file__).parents[2] / "data" / "random_tf.npz")
_SEED = [1, 2]  # SEEDS[0] of tests/data/make_random_tf.py
_SHAPE = (5, 13)
F64 = np.float64
SAMPLES = (100, 100)


# ---- stateless ---------------------------------------------------------------------------------
def _golden_template(dt, rng):
    return [np.zeros(_SHAPE, dt)]


def _stateless_row(op_type, kind, fn):
    def build(x):
        return fn(tf.shape(x), _SEED, dtype=x.dtype)

    def ref(x):
        if x.size == 0:
            return np.zeros(x.shape, x.dtype)
        return _TF["%s_0_%s_%s" % (kind, x.dtype.name, "x".join(map(str, _SHAPE)))]

    # Special case: an empty output shape.
    return Row(op_type, build, ref, _golden_template, special=lambda dt: [[np.zeros((0, 3), dt)]], grad=False,
               rtol=0, atol=0)


_INT_RANGES = {"int32": (-5, 17), "int64": (-3, 2 ** 40)}


def _uniform_int_fn(x):
    lo, hi = _INT_RANGES[x.dtype.name]
    return tf.random.stateless_uniform(tf.shape(x), _SEED, minval=lo, maxval=hi, dtype=x.dtype)


def _uniform_int_ref(x):
    lo, hi = _INT_RANGES[x.dtype.name]
    return _TF["int_0_%s_%d_%d" % (x.dtype.name, lo, hi)]


# ---- gamma / Poisson ---------------------------------------------------------------------------
def _template(dt, rng):
    return [np.zeros(SAMPLES, dt)]


def _stats(r, positive=False, integral=False):
    """[r - r (static shape and dtype), all finite (and > 0 / integral), mean, std]."""
    rf = tf.cast(r, tf.float64)
    mean = tf.reduce_mean(rf)
    std = tf.sqrt(tf.reduce_mean(tf.square(rf - mean)))
    ok = tf.reduce_all(tf.is_finite(rf))
    if positive:
        ok = tf.logical_and(ok, tf.reduce_all(rf > 0))
    if integral:
        ok = tf.logical_and(ok, tf.reduce_all(tf.equal(rf, tf.round(rf))))
    return [r - r, ok, mean, std]


def _stats_ref(mean, std):
    return lambda x: [np.zeros_like(x), np.array(True), np.float64(mean), np.float64(std)]


def _gamma_grad_fn(alpha, sample):
    return ops.apply_op("RandomGammaGrad", [alpha, sample], {})


def _gamma_grad_ref(alpha, sample):
    """d sample / d alpha at a fixed CDF value: central differences of SciPy's inverse regularized
    incomplete gamma function (float64), cast to the input dtype."""
    from scipy import special
    a, x = np.broadcast_arrays(alpha.astype(F64), sample.astype(F64))
    u = special.gammainc(a, x)
    h = 1e-5 * a
    d = (special.gammaincinv(a + h, u) - special.gammaincinv(a - h, u)) / (2 * h)
    return d.astype(alpha.dtype)


def _gamma_grad_inputs(dt, rng):
    alpha = rng.uniform(0.3, 6.0, (3, 1)).astype(dt)
    sample = rng.uniform(0.05, 8.0, (3, 4)).astype(dt)
    return [alpha, sample]


# ---- candidate samplers ------------------------------------------------------------------------
_UNIGRAMS = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
_NUM_SAMPLED = 5


def _true_classes(dt, rng):
    return [rng.randint(0, 10, (4, 2)).astype(np.int64)]


def _sampler_fn(make):
    def fn(tc):
        r = make(tc)
        s = r.sampled_candidates
        in_range = tf.reduce_all(tf.logical_and(s >= 0, s < 10))
        return [r.true_expected_count, in_range, tf.shape(r.sampled_expected_count)]
    return fn


def _sampler_ref(prob):
    def ref(tc):
        p = prob(tc.astype(F64)).astype(np.float32)
        return [p * np.float32(_NUM_SAMPLED), np.array(True), np.array([_NUM_SAMPLED], np.int32)]
    return ref


def _log_uniform_p(v):
    return np.log((v + 2) / (v + 1)) / math.log(11.0)


def _fixed_p(v):
    w = np.array(_UNIGRAMS, F64) ** 0.75
    return w[v.astype(int)] / w.sum()


def _hits_inputs(dt, rng):
    return [rng.randint(0, 6, (5, 2)).astype(np.int64), rng.randint(0, 6, (4,)).astype(np.int64)]


def _hits_ref(tc, sampled):
    """For each true class in row order, the last position of an equal sampled candidate."""
    match = tc[:, :, None] == sampled[None, None, :]
    last = sampled.size - 1 - np.argmax(match[:, :, ::-1], axis=2)
    hit = match.any(axis=2)
    rows = np.nonzero(hit)[0].astype(np.int32)
    ids = last[hit].astype(np.int64)
    return [rows, ids, np.full(rows.size, np.float32(-3.4028234663852886e38), np.float32)]


ROWS = [
    _stateless_row("StatelessRandomUniform", "uniform", tf.random.stateless_uniform),
    _stateless_row("StatelessRandomNormal", "normal", tf.random.stateless_normal),
    _stateless_row("StatelessTruncatedNormal", "truncated", tf.random.stateless_truncated_normal),
    Row("StatelessRandomUniformInt", _uniform_int_fn, _uniform_int_ref, lambda dt, rng: [np.zeros(21, dt)],
        dtypes=INTS, special=False, grad=False, rtol=0, atol=0),
    # Gamma(3, 1): mean 3, std sqrt(3); positive samples.
    Row("RandomGamma", lambda x: _stats(tf.random.gamma(tf.shape(x), 3.0, dtype=x.dtype, seed=1), positive=True),
        _stats_ref(3.0, math.sqrt(3.0)), _template, special=False, grad=None, rtol=0,
        atol={"float16": 0.1, "float32": 0.1, "float64": 0.1},
        note="the samples' gradient (implicit reparameterization) is stochastic: its values and the exact "
             "RandomGammaGrad relation are checked in tests/ops/test_random_gamma.py"),
    Row("RandomGammaGrad", _gamma_grad_fn, _gamma_grad_ref, _gamma_grad_inputs, dtypes=(np.float32, np.float64),
        special=False, grad=False, rtol={"float32": 2e-5, "float64": 1e-6}, atol=0),
    # Poisson(4): mean 4, std 2; integral samples, of every output dtype.
    Row("RandomPoissonV2", lambda x: _stats(tf.random.poisson(4.0, tf.shape(x), dtype=x.dtype, seed=2),
                                            integral=True),
        _stats_ref(4.0, 2.0), _template, dtypes=FLOATS + INTS, special=False, grad=None, rtol=0, atol=0.1,
        note="TF defines no gradient for RandomPoissonV2: tf.gradients raises LookupError "
             "(tests/ops/test_random_gamma.py)"),
    Row("UniformCandidateSampler",
        _sampler_fn(lambda tc: tf.nn.uniform_candidate_sampler(tc, 2, _NUM_SAMPLED, False, 10, seed=1)),
        _sampler_ref(lambda v: np.full(v.shape, 0.1)), _true_classes, dtypes=(np.int64,), special=False,
        grad=False),
    Row("LogUniformCandidateSampler",
        _sampler_fn(lambda tc: tf.nn.log_uniform_candidate_sampler(tc, 2, _NUM_SAMPLED, False, 10, seed=1)),
        _sampler_ref(_log_uniform_p), _true_classes, dtypes=(np.int64,), special=False, grad=False, rtol=1e-6,
        atol=0),
    Row("LearnedUnigramCandidateSampler",
        _sampler_fn(lambda tc: tf.nn.learned_unigram_candidate_sampler(tc, 2, _NUM_SAMPLED, False, 10, seed=1)),
        _sampler_ref(lambda v: np.full(v.shape, 0.1)), _true_classes, dtypes=(np.int64,), special=False,
        grad=False),
    Row("FixedUnigramCandidateSampler",
        _sampler_fn(lambda tc: tf.nn.fixed_unigram_candidate_sampler(tc, 2, _NUM_SAMPLED, False, 10,
                                                                     unigrams=_UNIGRAMS, distortion=0.75, seed=1)),
        _sampler_ref(_fixed_p), _true_classes, dtypes=(np.int64,), special=False, grad=False, rtol=1e-6, atol=0),
    Row("AllCandidateSampler",
        lambda tc: list(tf.nn.all_candidate_sampler(tc, 2, 10, True)),
        lambda tc: [np.arange(10, dtype=np.int64), np.ones(tc.shape, np.float32), np.ones(10, np.float32)],
        _true_classes, dtypes=(np.int64,), special=False, grad=False),
    Row("ComputeAccidentalHits", lambda tc, s: list(tf.nn.compute_accidental_hits(tc, s, 2)), _hits_ref,
        _hits_inputs, dtypes=(np.int64,), special=lambda dt: [[np.zeros((0, 2), dt), np.zeros(3, dt)]],
        grad=False, static_known=False),
]


def _full_int_fn(x):
    return tf.random.stateless_uniform(tf.shape(x), _SEED, minval=None, maxval=None, dtype=x.dtype)


ROWS.append(Row("StatelessRandomUniformFullInt", _full_int_fn,
                lambda x: _TF["full_int_0_%s" % x.dtype.name], lambda dt, rng: [np.zeros((3, 7), dt)],
                dtypes=INTS + (np.uint32, np.uint64), special=False, grad=False, rtol=0, atol=0,
                note="uint32/uint64 outputs: the fake accelerator has no such dtypes (no GPU kernel anyway)"))


# ---- RandomIndexShuffle: the reference is an independent pure-Python Simon cipher with cycle walking.
def _simon_shuffle_ref(index, seed, max_index, rounds=4):
    def one(i, key, m):
        if m == 0:
            return 0
        bits = math.ceil(math.log2(m))
        w = max(bits + bits % 2, 16) // 2
        mask = (1 << w) - 1

        def rotl(x, r):
            return ((x << r) | (x >> (w - r))) & mask

        def rotr(x, r):
            return ((x >> r) | (x << (w - r))) & mask
        z, keys = 0x7369F885192C0EF5 & mask, [k & 0xFFFFFFFF & mask for k in key]
        for j in range(3, rounds):
            keys.append((0xFFFFFFFC & mask) ^ (z & 1) ^ keys[j - 3] ^ rotr(keys[j - 1], 3) ^ rotr(keys[j - 1], 4))
            z >>= 1
        v = i
        while True:
            left, right = (v >> w) & mask, v & mask
            for j in range(0, rounds, 2):
                left ^= ((rotl(right, 1) & rotl(right, 8)) ^ rotl(right, 2)) ^ keys[j]
                right ^= ((rotl(left, 1) & rotl(left, 8)) ^ rotl(left, 2)) ^ keys[j + 1]
            v = (left << w) | right
            if v <= m:
                return v
    idx = [int(v) for v in np.ravel(index)]
    keys = [[int(k) for k in row] for row in np.reshape(seed, (-1, 3))]
    m = [int(v) for v in np.ravel(max_index)]
    n = max(len(idx), len(m), len(keys))
    out = [one(idx[i % len(idx)], keys[i % len(keys)], m[i % len(m)]) for i in range(n)]
    return np.array(out, dtype=index.dtype).reshape(index.shape if index.ndim == 0 and max_index.ndim == 0 else (n,))


def _index_shuffle_inputs(dt, rng):
    n = 12
    return [rng.randint(0, 1000, n).astype(dt), rng.randint(0, 2 ** 31 - 1, (n, 3)).astype(dt),
            rng.randint(1000, 100000, n).astype(dt)]


ROWS.append(Row("RandomIndexShuffle", lambda i, s, m: tf.random_index_shuffle(i, s, m), _simon_shuffle_ref,
                _index_shuffle_inputs, dtypes=INTS, special=lambda dt: [[np.zeros(0, dt), np.zeros((0, 3), dt),
                                                                         np.zeros(0, dt)]],
                grad=False))


# ---- StatelessRandomPoisson: TF's values (tests/data/make_random_tf.py case "c": rates on both sides of 10).
ROWS.append(Row("StatelessRandomPoisson",
                lambda lam: tf.random.stateless_poisson([50, 4], [-3, 2 ** 40], lam, dtype=tf.float64),
                lambda lam: _TF["poisson_c"], lambda dt, rng: [np.array([1e-3, 15.0, 123.4, 5000.0], dt)],
                dtypes=(np.float64,), special=False, grad=False, rtol=0, atol=0))


# ---- StatelessRandomGammaV2: TF's values (tests/data/make_random_tf.py case "b": alpha below, at and above 1).
# Its gradient (implicit reparameterization, random) is checked against TF in tests/ops/test_random_stateless.py.
ROWS.append(Row("StatelessRandomGammaV2",
                lambda alpha: tf.random.stateless_gamma([40, 4], [5, 6], alpha, dtype=tf.float64),
                lambda alpha: _TF["gamma_b"], lambda dt, rng: [np.array([0.3, 1.0, 2.5, 50.0], dt)],
                dtypes=(np.float64,), special=False, grad=None, rtol=0, atol=0,
                note="the gradient w.r.t. alpha is TF's implicit reparameterization of the sample, not a "
                     "finite difference of it: compared with TF's values in tests/ops/test_random_stateless.py"))


# ---- StatelessRandomBinomial: TF's values (tests/data/make_random_tf.py case "b": both algorithms, p > 0.5).
ROWS.append(Row("StatelessRandomBinomial",
                lambda c, p: tf.random.stateless_binomial([40, 4], [5, 6], c, p, output_dtype=tf.float32),
                lambda c, p: _TF["binomial_b"],
                lambda dt, rng: [np.array([5.0, 100.0, 1000.0, 30.0], dt), np.array([0.1, 0.2, 0.7, 0.95], dt)],
                dtypes=(np.float32,), special=False, grad=False, rtol=0, atol=0))


# ---- StatelessShuffle / StatelessRandomGetKeyCounter: TF's permutation and key/counter (make_random_tf.py).
_PERM10 = _TF["shuffle_perm10"]

ROWS.append(Row("StatelessShuffle", lambda x: tf.random.experimental.stateless_shuffle(x, [1, 2]),
                lambda x: x[_PERM10] if x.shape[0] == 10 else x, lambda dt, rng: [np.arange(10).astype(dt)],
                dtypes=FLOATS + INTS, special=lambda dt: [[np.zeros(0, dt)], [np.zeros((1, 3), dt)]], grad=None,
                note="TF defines no gradient for StatelessShuffle: tf.gradients raises LookupError "
                     "(tests/ops/test_random_stateless.py)"))
ROWS.append(Row("StatelessRandomGetKeyCounter",
                lambda seed: list(ops.apply_op("StatelessRandomGetKeyCounter", [seed], {})),
                lambda seed: [_TF["key_0"], _TF["counter_0"]], lambda dt, rng: [np.array([1, 2], dt)],
                dtypes=INTS, special=False, grad=False))


# ---- The Generator's ops. The *V2 ops with TF's key/counter of seed [1, 2] (StatelessRandomGetKeyCounter,
# recorded) are TF 2's stateless ops: their references are TF's values for that seed.
def _kc():
    key = tf.constant(_TF["key_0"], tf.uint64)
    counter = tf.constant(_TF["counter_0"], tf.uint64)
    return key, counter, tf.constant(1, tf.int32)


def _v2_row(op_type, kind):
    def fn(x):
        key, counter, alg = _kc()
        return ops.apply_op(op_type, [tf.shape(x), key, counter, alg], {"dtype": x.dtype})
    return Row(op_type, fn, lambda x: _TF["%s_0_%s_%s" % (kind, x.dtype.name, "x".join(map(str, _SHAPE)))],
               _golden_template, special=False, grad=False, rtol=0, atol=0)


def _int_v2_fn(x):
    key, counter, alg = _kc()
    lo, hi = _INT_RANGES[x.dtype.name]
    return ops.apply_op("StatelessRandomUniformIntV2", [tf.shape(x), key, counter, alg, tf.constant(lo, x.dtype),
                                                        tf.constant(hi, x.dtype)], {})


def _full_int_v2_fn(x):
    key, counter, alg = _kc()
    return ops.apply_op("StatelessRandomUniformFullIntV2", [tf.shape(x), key, counter, alg], {"dtype": x.dtype})


def _read_and_skip_fn(state, delta):
    v = tf.Variable(state, trainable=False)
    with tf.control_dependencies([] if tf.executing_eagerly() else [v.initializer]):
        old = ops.apply_op("RngReadAndSkip", [v._ref(), tf.constant(1, tf.int32), tf.cast(delta, tf.uint64)], {})
    with tf.control_dependencies([old]):
        return [tf.identity(old), tf.identity(v.read_value())]


def _read_and_skip_ref(state, delta):
    """The state, and the state with 256 * delta added to its 128-bit counter (two int64 words)."""
    counter = (int(state[0]) % 2 ** 64) + ((int(state[1]) % 2 ** 64) << 64) + 256 * int(delta)
    counter %= 2 ** 128
    words = [counter % 2 ** 64, counter >> 64, int(state[2]) % 2 ** 64]
    return [state, np.array([w - 2 ** 64 if w >= 2 ** 63 else w for w in words], np.int64)]


ROWS += [
    _v2_row("StatelessRandomUniformV2", "uniform"),
    _v2_row("StatelessRandomNormalV2", "normal"),
    _v2_row("StatelessTruncatedNormalV2", "truncated"),
    Row("StatelessRandomUniformIntV2", _int_v2_fn, _uniform_int_ref, lambda dt, rng: [np.zeros(21, dt)], dtypes=INTS,
        special=False, grad=False, rtol=0, atol=0),
    Row("StatelessRandomUniformFullIntV2", _full_int_v2_fn, lambda x: _TF["full_int_0_%s" % x.dtype.name],
        lambda dt, rng: [np.zeros((3, 7), dt)], dtypes=INTS + (np.uint32, np.uint64), special=False, grad=False,
        rtol=0, atol=0),
    Row("RngReadAndSkip", _read_and_skip_fn, _read_and_skip_ref,
        lambda dt, rng: [np.array([2 ** 63 - 5, -1, 7], np.int64), np.int64(rng.randint(1, 1000))],
        dtypes=(np.int64,), special=lambda dt: [[np.array([-1, -1, 3], np.int64), np.int64(1)]], grad=False,
        unknown_rank=False, note="the state is a variable of known shape [3] (the op checks it at run time)"),
]
