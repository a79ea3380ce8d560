"""tf.keras merge layers (Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot) against
tf-keras goldens (tests/data/make_keras_layers2_tf.py), NumPy references and numerical gradients."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import backend as K

L = keras.layers
GOLDEN = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "keras_layers2_tf.npz"))

CASES = {
    "add": lambda: L.Add(),
    "add_broadcast": lambda: L.Add(),
    "add_unit": lambda: L.Add(),
    "subtract": lambda: L.Subtract(),
    "multiply": lambda: L.Multiply(),
    "multiply_broadcast": lambda: L.Multiply(),
    "average": lambda: L.Average(),
    "maximum": lambda: L.Maximum(),
    "minimum": lambda: L.Minimum(),
    "concat_last": lambda: L.Concatenate(),
    "concat_axis1": lambda: L.Concatenate(axis=1),
    "dot_2d": lambda: L.Dot(axes=-1),
    "dot_2d_axis1": lambda: L.Dot(axes=1, normalize=True),
    "dot_3d": lambda: L.Dot(axes=(2, 1)),
    "dot_3d_same": lambda: L.Dot(axes=1),
    "dot_3d_normalize": lambda: L.Dot(axes=(1, 2), normalize=True),
    "dot_3d_2d": lambda: L.Dot(axes=(2, 1)),
    "dot_4d": lambda: L.Dot(axes=(2, 2)),
}

FUNCTIONAL = {
    "add": lambda xs: L.add(xs), "subtract": lambda xs: L.subtract(xs), "multiply": lambda xs: L.multiply(xs),
    "average": lambda xs: L.average(xs), "maximum": lambda xs: L.maximum(xs), "minimum": lambda xs: L.minimum(xs),
    "concat_axis1": lambda xs: L.concatenate(xs, axis=1), "dot_3d": lambda xs: L.dot(xs, axes=(2, 1)),
    "dot_2d_axis1": lambda xs: L.dot(xs, axes=1, normalize=True),
}


def _inputs(case):
    return [GOLDEN["%s/x%d" % (case, i)] for i in range(8) if "%s/x%d" % (case, i) in GOLDEN.files]


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


@pytest.mark.parametrize("case", sorted(CASES))
def test_matches_tf_keras_golden(case):
    xs = _inputs(case)
    phs = [tf.placeholder(tf.float32, x.shape) for x in xs]
    layer = CASES[case]()
    y = layer(phs)
    assert layer.weights == []
    got = K.get_session().run(y, dict(zip(phs, xs)))
    want = GOLDEN[case + "/y"]
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    assert y.shape.as_list() == list(want.shape)
    assert tuple(layer.compute_output_shape([x.shape for x in xs]).as_list()) == want.shape


@pytest.mark.parametrize("case", sorted(FUNCTIONAL))
def test_functional_forms_match_golden(case):
    xs = _inputs(case)
    phs = [tf.placeholder(tf.float32, x.shape) for x in xs]
    got = K.get_session().run(FUNCTIONAL[case](phs), dict(zip(phs, xs)))
    np.testing.assert_allclose(got, GOLDEN[case + "/y"], rtol=1e-5, atol=1e-6)


def test_numpy_references_and_unknown_batch():
    rng = np.random.RandomState(3)
    a, b, c = (rng.randn(4, 2, 3).astype("float32") for _ in range(3))
    pa, pb, pc = (tf.placeholder(tf.float32, [None, 2, 3]) for _ in range(3))
    feed = {pa: a, pb: b, pc: c}
    outs = [L.Add()([pa, pb, pc]), L.Subtract()([pa, pb]), L.Multiply()([pa, pb, pc]), L.Average()([pa, pb]),
            L.Maximum()([pa, pb, pc]), L.Minimum()([pa, pb]), L.Concatenate(axis=1)([pa, pb]),
            L.Dot(axes=2)([pa, pb]), L.Dot(axes=(1, 1))([pa, pb])]
    got = K.get_session().run(outs, feed)
    want = [a + b + c, a - b, a * b * c, (a + b) / 2, np.maximum(np.maximum(a, b), c), np.minimum(a, b),
            np.concatenate([a, b], 1), np.einsum("bij,bkj->bik", a, b), np.einsum("bji,bjk->bik", a, b)]
    for g, w, o in zip(got, want, outs):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        assert o.shape.as_list() == [None] + list(w.shape[1:])


def test_broadcasting_output_shapes():
    assert L.Add().compute_output_shape([(None, 3, 4), (None, 4)]).as_list() == [None, 3, 4]
    assert L.Add().compute_output_shape([(2, 1, 4), (None, 5, 1)]).as_list() == [2, 5, 4]
    assert L.Maximum().compute_output_shape([(None, None, 4), (None, 3, 4)]).as_list() == [None, None, 4]
    assert L.Concatenate(axis=1).compute_output_shape([(None, 2, 3), (None, 5, 3)]).as_list() == [None, 7, 3]
    assert L.Concatenate(axis=1).compute_output_shape([(None, None, 3), (None, 5, 3)]).as_list() == [None, None, 3]
    assert L.Dot(axes=(1, 2)).compute_output_shape([(None, 5, 3), (None, 4, 5)]).as_list() == [None, 3, 4]
    assert L.Dot(axes=1).compute_output_shape([(None, 5), (None, 5)]).as_list() == [None, 1]


def test_error_paths():
    x = tf.placeholder(tf.float32, [None, 3])
    with pytest.raises(ValueError, match="^A merge layer should be called on a list of inputs.$"):
        L.Add()(x)
    with pytest.raises(ValueError, match="^A merge layer should be called on a list of at least 2 inputs. "
                                         "Got 1 inputs.$"):
        L.Add()([x])
    with pytest.raises(ValueError, match=r"^Operands could not be broadcast together with shapes \(3,\) \(4,\)$"):
        L.Multiply()([x, tf.placeholder(tf.float32, [None, 4])])
    with pytest.raises(ValueError, match=r"^Can not merge tensors with different batch sizes. Got tensors with "
                                         r"shapes : \[\(2, 3\), \(5, 3\)\]$"):
        L.Add()([tf.placeholder(tf.float32, [2, 3]), tf.placeholder(tf.float32, [5, 3])])
    with pytest.raises(ValueError, match="^A `Subtract` layer should be called on exactly 2 inputs$"):
        L.Subtract()([x, x, x])
    with pytest.raises(ValueError, match="^A `Concatenate` layer should be called on a list of at least 2 inputs$"):
        L.Concatenate()([x])
    with pytest.raises(ValueError, match=r"^A `Concatenate` layer requires inputs with matching shapes except for "
                                         r"the concat axis. Got inputs shapes: \[\(None, 2, 3\), \(None, 4, 3\)\]$"):
        L.Concatenate()([tf.placeholder(tf.float32, [None, 2, 3]), tf.placeholder(tf.float32, [None, 4, 3])])
    with pytest.raises(ValueError, match="^A `Concatenate` layer requires inputs with matching shapes"):
        L.Concatenate()([x, tf.placeholder(tf.float32, [None, 2, 3])])
    with pytest.raises(ValueError, match="^A `Concatenate` layer should be called on a list of inputs.$"):
        L.Concatenate().compute_output_shape((None, 3))
    with pytest.raises(TypeError, match="^Invalid type for `axes` - should be a list or an int.$"):
        L.Dot(axes="1")
    with pytest.raises(ValueError, match="^Invalid format for `axes` - should contain two elements.$"):
        L.Dot(axes=(1, 2, 3))
    with pytest.raises(ValueError, match='^Invalid format for `axes` - list elements should be "int".$'):
        L.Dot(axes=(1, 2.0))
    with pytest.raises(ValueError, match="^A `Dot` layer should be called on a list of 2 inputs.$"):
        L.Dot(axes=1)([x, x, x])
    with pytest.raises(ValueError, match=r"^Dimension incompatibility 3 != 4. Layer shapes: \(None, 3\), "
                                         r"\(None, 4\)$"):
        L.Dot(axes=1)([x, tf.placeholder(tf.float32, [None, 4])])
    with pytest.raises(ValueError, match=r"^Cannot do a dot product along the batch axis \(axes=0\).$"):
        L.Dot(axes=0)([x, x])
    with pytest.raises(ValueError, match="^A `Dot` layer should be called on a list of 2 inputs.$"):
        L.Dot(axes=1).compute_output_shape([(None, 3)])


def test_concatenate_accepts_unknown_dims_outside_axis():
    a = tf.placeholder(tf.float32, [None, None, 3])
    b = tf.placeholder(tf.float32, [None, 4, 2])
    y = L.Concatenate()([a, b])
    assert y.shape.as_list() == [None, 4, 5]
    got = K.get_session().run(y, {a: np.ones((2, 4, 3)), b: np.zeros((2, 4, 2))})
    np.testing.assert_array_equal(got, np.concatenate([np.ones((2, 4, 3)), np.zeros((2, 4, 2))], -1))


def test_merge_compute_mask_is_logical_and():
    m1 = np.array([[True, True, False], [True, False, True]])
    m2 = np.array([[True, False, False], [True, True, True]])
    x = tf.placeholder(tf.float32, [None, 3, 2])
    layer = L.Add()
    assert layer.compute_mask([x, x], None) is None
    assert layer.compute_mask([x, x], [None, None]) is None
    got = K.get_session().run(layer.compute_mask([x, x], [tf.constant(m1), tf.constant(m2)]))
    np.testing.assert_array_equal(got, m1 & m2)
    got = K.get_session().run(layer.compute_mask([x, x], [None, tf.constant(m2)]))
    np.testing.assert_array_equal(got, m2)
    with pytest.raises(ValueError, match="^`mask` should be a list.$"):
        layer.compute_mask([x, x], tf.constant(m1))
    with pytest.raises(ValueError, match="^`inputs` should be a list.$"):
        layer.compute_mask(x, [tf.constant(m1)])
    with pytest.raises(ValueError, match="^The lists `inputs` and `mask` should have the same length.$"):
        layer.compute_mask([x, x], [tf.constant(m1)])
    assert L.Dot(axes=1).compute_mask([x, x], [tf.constant(m1), tf.constant(m2)]) is None


def test_concatenate_compute_mask():
    a = tf.placeholder(tf.float32, [2, 3, 2])
    b = tf.placeholder(tf.float32, [2, 3, 4])
    m = np.array([[True, False, True], [False, True, True]])
    layer = L.Concatenate()
    sess = K.get_session()
    feed = {a: np.zeros((2, 3, 2)), b: np.zeros((2, 3, 4))}
    # Last-axis concatenation: an unmasked input counts as all True, the result is the given mask.
    np.testing.assert_array_equal(sess.run(layer.compute_mask([a, b], [tf.constant(m), None]), feed), m)
    # Concatenation along the steps axis concatenates the masks.
    layer1 = L.Concatenate(axis=1)
    m2 = np.array([[True, True, False], [False, False, True]])
    got = sess.run(layer1.compute_mask([a, a], [tf.constant(m), tf.constant(m2)]), {a: np.zeros((2, 3, 2))})
    np.testing.assert_array_equal(got, np.concatenate([m, m2], axis=1))
    assert layer.compute_mask([a, b], [None, None]) is None
    with pytest.raises(ValueError, match="^The lists `inputs` and `mask` should have the same length.$"):
        layer.compute_mask([a, b], [None])


@pytest.mark.parametrize("make", [lambda: L.Add(name="plus"), lambda: L.Concatenate(axis=1),
                                  lambda: L.Dot(axes=(1, 2), normalize=True), lambda: L.Dot(axes=-1)])
def test_get_config_round_trip(make):
    layer = make()
    config = layer.get_config()
    clone = type(layer).from_config(config)
    assert clone.get_config() == config
    assert {"name", "trainable", "dtype"} <= set(config)


def test_config_keys_as_tf_keras():
    assert L.Concatenate(axis=2).get_config()["axis"] == 2
    config = L.Dot(axes=(1, 2), normalize=True).get_config()
    assert config["axes"] == (1, 2) and config["normalize"] is True
    assert set(L.Add().get_config()) == {"name", "trainable", "dtype"}


@pytest.mark.parametrize("axes,normalize,shapes", [(1, False, [(3, 4), (3, 4)]),
                                                     ((2, 1), False, [(2, 3, 4), (2, 4, 2)]),
                                                     ((1, 2), True, [(2, 3, 2), (2, 2, 3)])])
def test_dot_gradients_float64(axes, normalize, shapes):
    rng = np.random.RandomState(5)
    values = [rng.randn(*s) for s in shapes]
    phs = [tf.placeholder(tf.float64, s) for s in shapes]
    y = L.Dot(axes=axes, normalize=normalize, dtype="float64")(phs)
    with K.get_session().as_default():
        for i in range(2):
            theo, num = tf.test.compute_gradient(phs[i], shapes[i], y, y.shape.as_list(), x_init_value=values[i],
                                                 delta=1e-6, extra_feed_dict={phs[1 - i]: values[1 - i]})
            np.testing.assert_allclose(theo, num, rtol=1e-6, atol=1e-7)


def test_functional_model_with_merges_trains():
    rng = np.random.RandomState(0)
    xa = rng.randn(32, 4).astype("float32")
    xb = rng.randn(32, 4).astype("float32")
    y = (xa * xb).sum(1, keepdims=True).astype("float32")
    a = L.Input((4,))
    b = L.Input((4,))
    ha = L.Dense(4)(a)
    hb = L.Dense(4)(b)
    merged = L.concatenate([L.add([ha, hb]), L.multiply([ha, hb]), L.dot([ha, hb], axes=1)])
    out = L.Dense(1)(merged)
    model = keras.Model([a, b], out)
    assert model.output_shape == (None, 1)
    assert [l.__class__.__name__ for l in model.layers].count("Concatenate") == 1
    model.compile(tf.train.AdamOptimizer(0.05), "mse")
    history = model.fit([xa, xb], y, epochs=30, batch_size=32, verbose=0)
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    clone = keras.Model.from_config(model.get_config())
    assert [l.__class__.__name__ for l in clone.layers] == [l.__class__.__name__ for l in model.layers]


def test_masks_propagate_through_merge_layers_in_a_model():
    from tensorweave.keras.engine.base_layer import get_keras_mask
    a, b = L.Input((3, 2)), L.Input((3, 2))
    ma, mb = L.Masking(0.0)(a), L.Masking(0.0)(b)
    outs = {"add": L.Add()([ma, mb]), "concat_steps": L.Concatenate(axis=1)([ma, mb]),
            "concat_last": L.Concatenate()([ma, b]), "dot": L.Dot(axes=2)([ma, mb])}
    assert get_keras_mask(outs["dot"]) is None
    xa = np.ones((2, 3, 2), "float32")
    xa[0, 1] = 0
    xb = np.ones((2, 3, 2), "float32")
    xb[0, 2] = 0
    xb[1, 0] = 0
    got = K.get_session().run({k: get_keras_mask(v) for k, v in outs.items() if k != "dot"}, {a: xa, b: xb})
    ka, kb = xa.any(-1), xb.any(-1)
    np.testing.assert_array_equal(got["add"], ka & kb)
    np.testing.assert_array_equal(got["concat_steps"], np.concatenate([ka, kb], 1))
    np.testing.assert_array_equal(got["concat_last"], ka)


def test_unknown_rank_error_paths():
    unknown = tf.placeholder(tf.float32)
    x = tf.placeholder(tf.float32, [None, 3])
    with pytest.raises(NotImplementedError, match=r"^Merging inputs of different or unknown ranks needs every rank "
                                                  r"to be known; got ranks \[None, 2\].$"):
        L.Add()([unknown, x])
    with pytest.raises(ValueError, match="^A `Dot` layer needs inputs of known rank.$"):
        L.Dot(axes=1)([unknown, x])
    with pytest.raises(ValueError, match=r"^Invalid axes \(1, 3\) for inputs of ranks 2 and 2.$"):
        L.Dot(axes=(1, 3))([x, x])
    # Known but different ranks: the lower-rank input gets unit axes after the batch axis.
    y = L.Maximum()([tf.placeholder(tf.float32, [None, 2, 3]), x])
    assert y.shape.as_list() == [None, 2, 3]
