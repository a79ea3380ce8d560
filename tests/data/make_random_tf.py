"""Records random-op results from real TensorFlow into random_tf.npz: the stateless ops' values (TF's
Philox stream, checked bit for bit), RandomGammaGrad values, and candidate samplers' outputs (their
expected counts are deterministic functions of the candidates and the number of draws), over the cases of
tests/data/random_cases.py where the tests build the same programs. Run with a
Python that has TensorFlow:
    python tests/data/make_random_tf.py"""

import pathlib
import sys

import numpy as np
import tensorflow.compat.v1 as tf
from tensorflow.python.ops import gen_random_ops

tf.disable_v2_behavior()
sys.path.insert(0, str(pathlib.Path(__file__).parent))
import random_cases  # noqa: E402

out = {}
SEEDS = [(1, 2), (-5, 123456789012), (0, 0), (2 ** 31 - 1, -2 ** 31)]
with tf.Session() as s:
    for i, seed in enumerate(SEEDS):
        sd = tf.constant(seed, tf.int64 if abs(seed[1]) >= 2 ** 31 else tf.int32)
        for dt in (tf.float16, tf.float32, tf.float64):
            for shape in ([1], [7], [5, 13]):
                key = "%d_%s_%s" % (i, dt.name, "x".join(map(str, shape)))
                out["uniform_" + key] = s.run(tf.random.stateless_uniform(shape, sd, dtype=dt))
                out["normal_" + key] = s.run(tf.random.stateless_normal(shape, sd, dtype=dt))
                out["truncated_" + key] = s.run(tf.random.stateless_truncated_normal(shape, sd, dtype=dt))
        out["uniform_scaled_%d" % i] = s.run(tf.random.stateless_uniform([9], sd, minval=-2.0, maxval=3.0))
        out["normal_scaled_%d" % i] = s.run(tf.random.stateless_normal([9], sd, mean=1.5, stddev=0.5,
                                                                       dtype=tf.float64))
        for dt, lo, hi in ((tf.int32, -5, 17), (tf.int64, -3, 2 ** 40), (tf.int32, -2 ** 31, 2 ** 31 - 1)):
            key = "int_%d_%s_%d_%d" % (i, dt.name, lo, hi)
            out[key] = s.run(tf.random.stateless_uniform([21], sd, minval=lo, maxval=hi, dtype=dt))
        for dt in (tf.int32, tf.int64, tf.uint32, tf.uint64):
            out["full_int_%d_%s" % (i, dt.name)] = s.run(
                tf.random.stateless_uniform([3, 7], sd, minval=None, maxval=None, dtype=dt))
        out["split_%d" % i] = s.run(tf.random.split(sd, 3))
        out["fold_in_%d" % i] = s.run(tf.random.fold_in(sd, 7))
        out["fold_in64_%d" % i] = s.run(tf.random.experimental.stateless_fold_in(sd, tf.constant(-9, tf.int64)))

    x = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    out["dropout_x"] = x
    out["dropout_04"] = s.run(tf.nn.experimental.stateless_dropout(x, 0.4, seed=[1, 2]))
    out["dropout_noise"] = s.run(tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2], noise_shape=[1, 4]))
    out["dropout_tensor"] = s.run(tf.nn.experimental.stateless_dropout(x, tf.constant(0.3), seed=[1, 2]))
    out["dropout_f64"] = s.run(tf.nn.experimental.stateless_dropout(x.astype(np.float64), 0.25, seed=[5, 6]))
    out["dropout_general"] = s.run(tf.nn.experimental.general_dropout(
        x, 0.4, uniform_sampler=lambda shape, dtype: tf.random.stateless_uniform(shape, [3, 4], dtype=dtype)))

    a = np.array([0.1, 0.5, 1.0, 2.5, 10.0, 100.0, 0.5, 3.0, 1.0, 0.01, 50.0, 7.0], np.float64)
    x = np.array([0.05, 1.0, 0.3, 2.0, 12.0, 90.0, 1e-10, 20.0, 0.0, 1e-3, 60.0, 0.5], np.float64)
    out["gamma_grad_alpha"], out["gamma_grad_sample"] = a, x
    out["gamma_grad_f64"] = s.run(gen_random_ops.random_gamma_grad(a, x))
    out["gamma_grad_f32"] = s.run(gen_random_ops.random_gamma_grad(a.astype(np.float32), x.astype(np.float32)))
    out["gamma_grad_special"] = s.run(gen_random_ops.random_gamma_grad(
        np.array([-1.0, 0.0, np.nan, 1.0, np.inf, 2.0]), np.array([1.0, 1.0, 1.0, np.inf, 1.0, np.nan])))

    tc = np.array([[1, 5], [2, 7], [0, 3]], np.int64)
    out["sampler_true_classes"] = tc
    unigrams = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
    samplers = {
        "uniform": lambda u, n: tf.nn.uniform_candidate_sampler(tc, 2, n, u, 10, seed=3),
        "log_uniform": lambda u, n: tf.nn.log_uniform_candidate_sampler(tc, 2, n, u, 10, seed=3),
        "fixed": lambda u, n: tf.nn.fixed_unigram_candidate_sampler(tc, 2, n, u, 10, unigrams=unigrams,
                                                                    distortion=0.75, seed=3),
        "fixed_reserved": lambda u, n: tf.nn.fixed_unigram_candidate_sampler(
            tc, 2, n, u, 12, unigrams=unigrams, num_reserved_ids=2, seed=3),
        "fixed_shard": lambda u, n: tf.nn.fixed_unigram_candidate_sampler(
            np.array([[0, 2]], np.int64), 2, n, u, 5, unigrams=unigrams, num_shards=2, shard=1, seed=3),
    }
    for name, f in samplers.items():
        for unique in (True, False):
            for j, r in enumerate(s.run([f(unique, 4) for _ in range(3)] + [f(unique, 5)])):
                for k, v in zip(("sampled", "true", "sampled_count"), r):
                    out["sampler_%s_%s_%d_%s" % (name, unique, j, k)] = v
    # The learned sampler: three runs of one op (counts learned from the true classes between runs).
    learned = tf.nn.learned_unigram_candidate_sampler(tc, 2, 4, False, 10, seed=3)
    for j in range(3):
        for k, v in zip(("sampled", "true", "sampled_count"), s.run(learned)):
            out["learned_%d_%s" % (j, k)] = v
    big = np.array([[0, 1, 100, 99999]], np.int64)
    r = s.run(tf.nn.log_uniform_candidate_sampler(big, 4, 3, False, 100000, seed=3))
    out["log_uniform_big_true"] = r[1]
    hits = tf.nn.compute_accidental_hits(np.array([[1, 5], [2, 7], [0, 3], [5, 5]], np.int64),
                                         np.array([5, 0, 1, 9, 5], np.int64), 2)
    for k, v in zip(("indices", "ids", "weights"), s.run(hits)):
        out["hits_" + k] = v

    # Sampled losses with given sampled values (the samplers' draws are not TF's bit stream).
    rng = np.random.RandomState(0)
    w = rng.uniform(-1, 1, (10, 4)).astype(np.float32)
    b = rng.uniform(-1, 1, (10,)).astype(np.float32)
    xin = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
    out.update(loss_w=w, loss_b=b, loss_x=xin)
    sampled = np.array([0, 5, 2, 7, 9], np.int64)
    out["loss_sampled"] = sampled
    out["loss_sampled_count"] = rng.uniform(0.1, 0.9, (5,)).astype(np.float32)
    for num_true in (1, 2):
        labels = rng.randint(0, 10, (3, num_true)).astype(np.int64)
        labels[0, 0] = 5  # an accidental hit
        true_count = rng.uniform(0.1, 0.9, (3, num_true)).astype(np.float32)
        out["loss_labels_%d" % num_true], out["loss_true_count_%d" % num_true] = labels, true_count
        sv = (sampled, true_count, out["loss_sampled_count"])
        for kind in ("nce", "softmax"):
            for hits in (False, True):
                for part in ("one", "mod", "div"):
                    loss, grads = random_cases.sampled_loss(tf, w, b, xin, labels, sv, kind, num_true, hits, part)
                    key = "loss_%s_%d_%s_%s" % (kind, num_true, hits, part)
                    vals = s.run([loss] + grads)
                    for k, v in zip(("", "_dw", "_db", "_dx"), vals):
                        out[key + k] = v

    # random_index_shuffle / index_shuffle (Simon cipher with cycle walking).
    def run(t):
        return s.run(t)
    out["shuffle_a"] = run(tf.random_index_shuffle(tf.range(10, dtype=tf.int64), tf.constant([5, 6, 7], tf.int64),
                                                   tf.constant(9, tf.int64)))
    out["shuffle_b"] = run(tf.random_index_shuffle(tf.constant(3, tf.int64), [5, 6, 7], tf.constant(100000, tf.int64)))
    u32 = tf.constant([0, 1, 2, 3, 4, 5], tf.uint32)
    seeds = tf.constant([[1, 2, 3], [4, 5, 6], [1, 2, 3], [9, 9, 9], [1, 2, 3], [0, 0, 0]], tf.uint32)
    maxes = tf.constant([5, 10, 100, 1000, 70000, 5], tf.uint32)
    out["shuffle_c"] = run(tf.random_index_shuffle(u32, seeds, maxes, rounds=6))
    out["shuffle_d"] = run(tf.random_index_shuffle(u32, seeds, maxes))
    out["shuffle_e"] = run(tf.random_index_shuffle(tf.constant([0, 1, 2 ** 40], tf.int64), tf.constant(
        [-1, 2 ** 31, 7], tf.int64), tf.constant(2 ** 41, tf.int64)))
    out["shuffle_f"] = run(tf.random_index_shuffle(tf.constant([0, 1, 2 ** 62], tf.uint64), tf.constant(
        [3, 2, 1], tf.uint64), tf.constant(2 ** 63 + 5, tf.uint64)))
    out["shuffle_g"] = run(tf.random_index_shuffle(tf.constant([0, 5], tf.int32), [1, 2, 3], tf.constant(6, tf.int32)))
    out["shuffle_exp"] = run(tf.random.experimental.index_shuffle(tf.range(10), [1, 2], 9))
    out["shuffle_exp_big"] = run(tf.random.experimental.index_shuffle(tf.range(20), [7, 8], 1000000))
    out["shuffle_exp_64"] = run(tf.random.experimental.index_shuffle(tf.range(5, dtype=tf.int64), tf.constant(
        [7, 8], tf.int64), tf.constant(2 ** 50, tf.int64)))

    # stateless_poisson: Knuth below rate 10, Hormann's transformed rejection above.
    for k, (shape, seed, lam, dt) in random_cases.poisson_cases(tf).items():
        out["poisson_" + k] = run(tf.random.stateless_poisson(shape, seed, lam, dtype=dt))

    # stateless_gamma: alpha == 1 (exponential), Marsaglia-Tsang above and below 1, beta, 0 and < 0.
    for k, (shape, seed, alpha, beta, dt) in random_cases.gamma_cases(tf).items():
        out["gamma_" + k] = run(tf.random.stateless_gamma(shape, seed, alpha, beta, dtype=dt))
    alpha_t = tf.constant([0.5, 2.0], tf.float64)
    g = tf.random.stateless_gamma([3, 2], [4, 5], alpha_t, dtype=tf.float64)
    out["gamma_grad"] = run(tf.gradients(tf.reduce_sum(g), alpha_t)[0])

    # stateless_binomial: inversion (mean < 10), BTRS above, p > 0.5 flipped, 0/1/NaN probabilities.
    for k, (shape, seed, c, p, dt) in random_cases.binomial_cases(tf).items():
        out["binomial_" + k] = run(tf.random.stateless_binomial(shape, seed, c, p, output_dtype=dt))

    # stateless_shuffle and its key/counter op.
    out["shuffle_perm10"] = run(tf.random.experimental.stateless_shuffle(tf.range(10), [1, 2]))
    out["shuffle_rows"] = run(tf.random.experimental.stateless_shuffle(np.arange(12.0).reshape(6, 2),
                                                                       tf.constant([-5, 123456789012], tf.int64)))
    out["shuffle_1000"] = run(tf.random.experimental.stateless_shuffle(np.arange(1000), [3, 4]))
    for i, seed in enumerate(([1, 2], [-5, 123456789012])):
        kc = run(tf.raw_ops.StatelessRandomGetKeyCounter(seed=tf.constant(seed, tf.int64)))
        out["key_%d" % i], out["counter_%d" % i] = kc

    # tf.random.Generator (Philox): draws, and the state after each (graph mode: the state is a variable).
    gens = {"seed": tf.random.Generator.from_seed(1234),
            "seedvec": tf.random.Generator.from_seed([1, 2, 3, 4]),
            "bigseed": tf.random.Generator.from_seed(2 ** 70 + 5),
            "state": tf.random.Generator.from_state([2 ** 63 - 1, -1, 7], "philox"),
            "keycounter": tf.random.Generator.from_key_counter(key=9, counter=[10, 11], alg="philox")}
    draws = {}
    for k, g in gens.items():
        draws[k] = [g.normal([3]), g.uniform([5], dtype=tf.float64), g.uniform([4], minval=-3, maxval=10,
                                                                                dtype=tf.int32),
                    g.uniform([2], minval=0, maxval=2 ** 40, dtype=tf.int64), g.uniform_full_int([2], dtype=tf.int64),
                    g.uniform_full_int([3]), g.truncated_normal([5], mean=1.0, stddev=2.0, dtype=tf.float64),
                    g.normal([2, 2], dtype=tf.float16), g.make_seeds(2)]
    s.run(tf.global_variables_initializer())
    for k, g in gens.items():
        out["gen_%s_state0" % k] = run(g.state)
        for j, t in enumerate(draws[k]):
            out["gen_%s_%d" % (k, j)] = run(t)
            out["gen_%s_state%d" % (k, j + 1)] = run(g.state)
np.savez(pathlib.Path(__file__).with_name("random_tf.npz"), **out)
