"""tf.random.Generator / create_rng_state / Algorithm: TF's draws and states bit for bit
(tests/data/random_tf.npz, recorded by tests/data/make_random_tf.py)."""

import pathlib

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

_TF = np.load(pathlib.Path(__file__).parents[1] / "data" / "random_tf.npz")


def _gens():
    G = tf.random.Generator
    return {"seed": G.from_seed(1234), "seedvec": G.from_seed([1, 2, 3, 4]), "bigseed": G.from_seed(2 ** 70 + 5),
            "state": G.from_state([2 ** 63 - 1, -1, 7], "philox"),
            "keycounter": G.from_key_counter(key=9, counter=[10, 11], alg="philox")}


def _draws(g):
    return [g.normal([3]), g.uniform([5], dtype=tf.float64), g.uniform([4], minval=-3, maxval=10, dtype=tf.int32),
            g.uniform([2], minval=0, maxval=2 ** 40, dtype=tf.int64), g.uniform_full_int([2], dtype=tf.int64),
            g.uniform_full_int([3]), g.truncated_normal([5], mean=1.0, stddev=2.0, dtype=tf.float64),
            g.normal([2, 2], dtype=tf.float16), g.make_seeds(2)]


def _same(got, key):
    want = _TF[key]
    assert got.dtype == want.dtype and got.shape == want.shape, key
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8), err_msg=key)


def test_draws_and_states_match_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        gens = _gens()
        draws = {k: _draws(g) for k, g in gens.items()}
        s.run(tf.global_variables_initializer())
        for k, g in gens.items():
            _same(s.run(g.state), "gen_%s_state0" % k)
            for j, t in enumerate(draws[k]):
                _same(s.run(t), "gen_%s_%d" % (k, j))
                _same(s.run(g.state), "gen_%s_state%d" % (k, j + 1))


def test_eager_matches_graph():
    with context.eager_mode():
        g = tf.random.Generator.from_seed(1234)
        got = [t.numpy() for t in _draws(g)]
        state = g.state.numpy()
    for j, v in enumerate(got):
        _same(v, "gen_seed_%d" % j)
    _same(state, "gen_seed_state9")


def test_state_skip_reset_and_algorithm():
    with tf.Graph().as_default(), tf.Session() as s:
        g = tf.random.Generator.from_seed(1234, alg=tf.random.Algorithm.PHILOX)
        assert g.algorithm == 1 and g.state.dtype == tf.int64 and g.state.shape.as_list() == [3]
        assert tf.random.Generator.from_seed(1, alg="auto_select").algorithm == 1
        s.run(tf.global_variables_initializer())
        assert s.run(g.skip(10)).tolist() == [1234, 0, 0]
        assert s.run(g.state).tolist() == [1234 + 2560, 0, 0]
        s.run(g.reset_from_seed(7))
        assert s.run(g.state).tolist() == [7, 0, 0]
        s.run(g.reset_from_key_counter(5, [1, 2]))
        assert s.run(g.state).tolist() == [1, 2, 5] and s.run(g.key) == 5
        s.run(g.reset([3, 4, 5]))
        assert s.run(g.state).tolist() == [3, 4, 5]
        # The 128-bit counter carries into its high word.
        h = tf.random.Generator.from_state([-1, 0, 1], "philox")
        s.run(h.state.initializer)
        s.run(h.skip(1))
        assert s.run(h.state).tolist() == [255, 1, 1]
        with pytest.raises(NotImplementedError, match="ThreeFry"):
            tf.random.Generator.from_seed(1, alg="threefry")
        with pytest.raises(ValueError, match="unsupported value"):
            tf.random.Generator.from_seed(1, alg="bogus")
        with pytest.raises(ValueError, match="Must specify maxval"):
            g.uniform([2], dtype=tf.int32)


def test_split_gives_generators_keyed_by_new_keys():
    with context.eager_mode():
        keys = tf.random.Generator.from_seed(1234).uniform_full_int([2], dtype=tf.int64).numpy()
        g = tf.random.Generator.from_seed(1234)
        parts = g.split(2)
        assert [p.state.numpy().tolist() for p in parts] == [[0, 0, keys[0]], [0, 0, keys[1]]]
        assert g.state.numpy().tolist() == [1234 + 512, 0, 0]
    with tf.Graph().as_default():
        with pytest.raises(NotImplementedError, match="executing eagerly"):
            tf.random.Generator.from_seed(1).split(2)


def test_create_rng_state_matches_tf():
    with tf.Graph().as_default(), tf.Session() as s:
        assert s.run(tf.random.create_rng_state(1234, "philox")).tolist() == [1234, 0, 0]
        assert s.run(tf.random.create_rng_state(2 ** 70 + 5, 1)).tolist() == [5, 64, 0]
        assert s.run(tf.random.create_rng_state([1, 2], tf.random.Algorithm.PHILOX)).tolist() == [0, 1, 2]
        # TF's values: a negative Python int sign-extends into every word; vectors keep their first 3 values.
        assert s.run(tf.random.create_rng_state(-1, "philox")).tolist() == [-1, -1, -1]
        assert s.run(tf.random.create_rng_state([7], "philox")).tolist() == [0, 0, 7]
        assert s.run(tf.random.create_rng_state(np.array([1, 2, 3, 4, 5]), "philox")).tolist() == [1, 2, 3]
        seed = tf.placeholder(tf.int32, [None])
        st = tf.random.create_rng_state(seed, "philox")
        assert st.shape.as_list() == [3] and st.dtype == tf.int64
        assert s.run(st, {seed: [5, 6]}).tolist() == [0, 5, 6]
        assert tf.random.experimental.create_rng_state is tf.random.create_rng_state
        assert tf.random.experimental.Generator is tf.random.Generator
        assert [a.value for a in tf.random.Algorithm] == [1, 2, 3]


def test_global_generator():
    with tf.Graph().as_default() as graph, tf.Session() as s:
        g = tf.random.get_global_generator()
        assert isinstance(g, tf.random.Generator) and tf.random.get_global_generator() is g
        assert g.state.graph is graph
        x = g.normal([4])
        s.run(tf.global_variables_initializer())
        a, b = s.run(x), s.run(x)
        assert a.shape == (4,) and not np.array_equal(a, b)
        mine = tf.random.Generator.from_seed(1234)
        tf.random.set_global_generator(mine)
        assert tf.random.get_global_generator() is mine
        y = tf.random.get_global_generator().normal([3])
        s.run(mine.state.initializer)
        _same(s.run(y), "gen_seed_0")
        with pytest.raises(TypeError):
            tf.random.experimental.set_global_generator(3)
    with tf.Graph().as_default():
        assert tf.random.get_global_generator() is not mine  # each graph has its own
    with context.eager_mode():
        e = tf.random.experimental.get_global_generator()
        assert e is tf.random.get_global_generator()
        assert e.normal([2]).numpy().shape == (2,)
