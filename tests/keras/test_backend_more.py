"""The rest of tf.keras.backend (Keras 2 / TF 1.15): values against TF 2.21 tf_keras goldens
(tests/data/make_keras_backend2_tf.py), float64 numerical gradients, error paths."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras import backend as K

GOLD = dict(np.load(os.path.join(os.path.dirname(__file__), "..", "data", "keras_backend2_tf.npz")))
IN = {k[3:]: v for k, v in GOLD.items() if k.startswith("in_")}


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()
    K.set_image_data_format("channels_last")
    K.manual_variable_initialization(False)


def _x():
    return {k: tf.constant(v) for k, v in IN.items()}


# name -> builder(x) reproducing the call of the golden script
CASES = {
    "any": lambda x: K.any(x["x23"] > 1, axis=1),
    "all": lambda x: K.all(x["x23"] > -1.5, axis=0, keepdims=True),
    "var": lambda x: K.var(x["x234"], axis=1),
    "std": lambda x: K.std(x["x234"], axis=[0, 2], keepdims=True),
    "logsumexp": lambda x: K.logsumexp(x["x234"], axis=-1),
    "round": lambda x: K.round(x["x23"] * 2),
    "sign": lambda x: K.sign(x["x23"]),
    "sin": lambda x: K.sin(x["x23"]),
    "cos": lambda x: K.cos(x["x23"]),
    "less": lambda x: K.less(x["x23"], 0.5),
    "arange": lambda x: K.arange(2, 11, 3),
    "arange_neg": lambda x: K.arange(-3),
    "arange_f": lambda x: K.arange(5, dtype="float32"),
    "tile": lambda x: K.tile(x["x23"], [2, 3]),
    "one_hot": lambda x: K.one_hot(x["labels"], 4),
    "l2_normalize": lambda x: K.l2_normalize(x["x234"], axis=1),
    "cumsum": lambda x: K.cumsum(x["x23"], axis=1),
    "cumprod": lambda x: K.cumprod(x["x23"], axis=0),
    "reverse": lambda x: K.reverse(x["x234"], [0, 2]),
    "temporal_padding": lambda x: K.temporal_padding(x["seq"], (2, 1)),
    "spatial_2d_padding": lambda x: K.spatial_2d_padding(x["img"], ((1, 0), (2, 3)), data_format="channels_last"),
    "spatial_2d_padding_cf": lambda x: K.spatial_2d_padding(x["img_cf"], ((0, 1), (1, 1)),
                                                            data_format="channels_first"),
    "spatial_3d_padding": lambda x: K.spatial_3d_padding(x["vol"], ((1, 0), (0, 1), (1, 1)),
                                                         data_format="channels_last"),
    "resize_nearest": lambda x: K.resize_images(x["img"], 2, 3, "channels_last"),
    "resize_bilinear": lambda x: K.resize_images(x["img"], 2, 2, "channels_last", interpolation="bilinear"),
    "resize_bilinear_cf": lambda x: K.resize_images(x["img_cf"], 3, 2, "channels_first", interpolation="bilinear"),
    "resize_volumes": lambda x: K.resize_volumes(x["vol"], 2, 1, 3, "channels_last"),
    "repeat_elements": lambda x: K.repeat_elements(x["x234"], 3, axis=1),
    "conv1d_valid": lambda x: K.conv1d(x["seq"], x["k1"], strides=2),
    "conv1d_same_dil": lambda x: K.conv1d(x["seq"], x["k1"], padding="same", dilation_rate=2),
    "conv1d_causal": lambda x: K.conv1d(x["seq"], x["k1"], padding="causal", dilation_rate=2),
    "conv1d_cf": lambda x: K.conv1d(tf.transpose(x["seq"], [0, 2, 1]), x["k1"], data_format="channels_first"),
    "conv2d_valid": lambda x: K.conv2d(x["img"], x["k2"], strides=(2, 1)),
    "conv2d_same_dil": lambda x: K.conv2d(x["img"], x["k2"], padding="same", dilation_rate=(2, 2)),
    "conv2d_cf": lambda x: K.conv2d(x["img_cf"], x["k2"], padding="same", data_format="channels_first"),
    "conv2d_transpose": lambda x: K.conv2d_transpose(x["img"], x["k2t"], (2, 10, 12, 4), strides=(2, 2),
                                                     padding="same"),
    "conv2d_transpose_valid": lambda x: K.conv2d_transpose(x["img"], x["k2t"], (None, 11, 13, 4), strides=(2, 2)),
    "conv2d_transpose_cf": lambda x: K.conv2d_transpose(x["img_cf"], x["k2t"], (2, 4, 7, 8), padding="valid",
                                                        data_format="channels_first"),
    "conv2d_transpose_dil": lambda x: K.conv2d_transpose(x["img"], x["k2t"], (2, 5, 6, 4), padding="same",
                                                         dilation_rate=(2, 2)),
    "depthwise": lambda x: K.depthwise_conv2d(x["img"], x["dk"], strides=(1, 2), padding="same"),
    "depthwise_cf": lambda x: K.depthwise_conv2d(x["img_cf"], x["dk"], data_format="channels_first"),
    "separable": lambda x: K.separable_conv2d(x["img"], x["dk"], x["pk"], padding="same", dilation_rate=(2, 2)),
    "separable_cf": lambda x: K.separable_conv2d(x["img_cf"], x["dk"], x["pk"], strides=(2, 2),
                                                 data_format="channels_first"),
    "conv3d": lambda x: K.conv3d(x["vol"], x["k3"], strides=(1, 2, 1), padding="same"),
    "conv3d_cf": lambda x: K.conv3d(tf.transpose(x["vol"], [0, 4, 1, 2, 3]), x["k3"], data_format="channels_first"),
    "pool2d_max": lambda x: K.pool2d(x["img"], (2, 3), strides=(2, 2), padding="same"),
    "pool2d_avg": lambda x: K.pool2d(x["img"], (2, 2), strides=(1, 2), pool_mode="avg"),
    "pool2d_avg_cf": lambda x: K.pool2d(x["img_cf"], (3, 2), strides=(2, 2), padding="same", pool_mode="avg",
                                        data_format="channels_first"),
    "pool3d_max": lambda x: K.pool3d(x["vol"], (2, 2, 2), strides=(2, 2, 2)),
    "pool3d_avg_cf": lambda x: K.pool3d(tf.transpose(x["vol"], [0, 4, 1, 2, 3]), (2, 3, 2), strides=(1, 1, 2),
                                        padding="same", pool_mode="avg", data_format="channels_first"),
    "local_conv1d": lambda x: K.local_conv1d(x["seq"], x["lk1"], (3,), (2,), data_format="channels_last"),
    "local_conv2d": lambda x: K.local_conv2d(x["img"], x["lk2"], (2, 2), (2, 2), (2, 3), data_format="channels_last"),
    "local_conv2d_cf": lambda x: K.local_conv2d(x["img_cf"], x["lk2"], (2, 2), (2, 2), (2, 3),
                                                data_format="channels_first"),
    "bias_add": lambda x: K.bias_add(x["img"], x["bias3"], data_format="channels_last"),
    "bias_add_cf": lambda x: K.bias_add(x["img_cf"], x["bias3"], data_format="channels_first"),
    "bias_add_full_cf": lambda x: K.bias_add(x["img_cf"], x["bias_cf"], data_format="channels_first"),
    "bias_add_full": lambda x: K.bias_add(x["img"], tf.reshape(x["bias_cf"], (5, 6, 3)) * 2.0,
                                          data_format="channels_last"),
    "bn_4d": lambda x: K.batch_normalization(x["img"], x["beta"] * 0.1, x["gamma"], x["beta"], x["gamma"], axis=-1),
    "bn_2d": lambda x: K.batch_normalization(x["x23"], x["beta"] * 0.1, x["gamma"], None, x["gamma"], epsilon=0.01),
    "map_fn": lambda x: K.map_fn(lambda r: r * 2.0 + 1.0, x["x23"]),
    "foldl": lambda x: K.foldl(lambda a, r: a * 0.5 + r, x["x23"]),
    "foldr": lambda x: K.foldr(lambda a, r: a * 0.5 + r, x["x23"], initializer=tf.ones([3])),
    "in_top_k": lambda x: K.in_top_k(x["x23"], tf.constant([2, 0]), 2),
    "softsign": lambda x: K.softsign(x["x23"]),
    "switch_cond": lambda x: K.switch(x["cond"], x["x23"], -x["x23"]),
    "switch_rank3": lambda x: K.switch(x["cond"], x["x234"], tf.zeros([2, 3, 4])),
    "switch_scalar": lambda x: K.switch(tf.constant(False), lambda: x["x23"], lambda: x["x23"] * 3.0),
    "ctc_batch_cost": lambda x: K.ctc_batch_cost(x["labels"], x["probs"], tf.constant([[6], [5]]),
                                                 tf.constant([[3], [2]])),
    "eye": lambda x: K.eye(3),
}
# Rounding differences of float32 accumulation orders.
TOL = {"ctc_batch_cost": 1e-4, "local_conv2d": 1e-5, "local_conv2d_cf": 1e-5, "local_conv1d": 1e-5}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(name):
    out = K.eval(CASES[name](_x()))
    ref = GOLD["out_" + name]
    assert out.shape == ref.shape
    if ref.dtype.kind in "biu":
        np.testing.assert_array_equal(out, ref)
    else:
        tol = TOL.get(name, 1e-5)
        np.testing.assert_allclose(out, ref, rtol=tol, atol=tol)


@pytest.mark.parametrize("name,axes,gamma_beta", [
    ("nbt_012", "img", True), ("nbt_023", "img_cf", True), ("nbt_2d", "x23", False), ("nbt_3d", "x234", False)])
def test_normalize_batch_in_training_golden(name, axes, gamma_beta):
    x = _x()
    if name == "nbt_012":
        res = K.normalize_batch_in_training(x["img"], x["gamma"], x["beta"], [0, 1, 2], epsilon=1e-3)
    elif name == "nbt_023":
        res = K.normalize_batch_in_training(x["img_cf"], x["gamma"], x["beta"], [0, 2, 3], epsilon=1e-3)
    elif name == "nbt_2d":
        res = K.normalize_batch_in_training(x["x23"], None, None, [0])
    else:
        res = K.normalize_batch_in_training(x["x234"], tf.constant([1.5, 0.5, 2.0]), None, [0, 2])
    out, mean, var = K.get_session().run(list(res))
    np.testing.assert_allclose(out, GOLD["out_" + name], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean, GOLD["out_%s_mean" % name], rtol=1e-5, atol=1e-6)
    # the fused 4-D path returns the unbiased variance, the others the biased one (as TF 1.15)
    np.testing.assert_allclose(var, GOLD["out_%s_var" % name], rtol=1e-5, atol=1e-6)


def test_ctc_decode_golden():
    x = _x()
    decoded, log_prob = K.ctc_decode(x["probs"], tf.constant([6, 5]))
    dense, lp = K.get_session().run([decoded[0], log_prob])
    ref = GOLD["out_ctc_greedy"]  # TF 2.x pads to the number of time steps; TF 1.15 to the longest path
    np.testing.assert_array_equal(dense, ref[:, :dense.shape[1]])
    assert (ref[:, dense.shape[1]:] == -1).all()
    np.testing.assert_allclose(lp, GOLD["out_ctc_greedy_logprob"], rtol=1e-5)
    decoded, log_prob = K.ctc_decode(x["probs"], tf.constant([6, 5]), greedy=False, beam_width=4, top_paths=2)
    d0, d1, lp = K.get_session().run([decoded[0], decoded[1], log_prob])
    for got, key in ((d0, "out_ctc_beam0"), (d1, "out_ctc_beam1")):
        np.testing.assert_array_equal(got, GOLD[key][:, :got.shape[1]])
        assert (GOLD[key][:, got.shape[1]:] == -1).all()
    np.testing.assert_allclose(lp, GOLD["out_ctc_beam_logprob"], rtol=1e-4)
    sp = K.ctc_label_dense_to_sparse(x["labels"], tf.constant([2, 3]))
    indices, values = K.get_session().run([sp.indices, sp.values])
    np.testing.assert_array_equal(indices, GOLD["out_dense_to_sparse_indices"])
    np.testing.assert_array_equal(values, GOLD["out_dense_to_sparse_values"])


def test_moving_average_update_zero_debiased_golden():
    avg = K.variable(np.zeros(3, "float32"))
    upd = K.moving_average_update(avg, tf.constant(IN["gamma"]), 0.9)
    sess = K.get_session()
    np.testing.assert_allclose(sess.run(upd), GOLD["out_moving_average_1"], rtol=1e-6)
    np.testing.assert_allclose(sess.run(upd), GOLD["out_moving_average_2"], rtol=1e-6)
    np.testing.assert_allclose(K.get_value(avg), GOLD["out_moving_average_2"], rtol=1e-6)


def test_random_functions_seeded_and_statistics():
    b = K.eval(K.random_binomial((400, 50), p=0.3, seed=5))
    assert set(np.unique(b)) <= {0.0, 1.0} and abs(b.mean() - 0.3) < 0.02
    t = K.eval(K.truncated_normal((200, 100), mean=1.0, stddev=2.0, seed=7))
    assert np.abs(t - 1.0).max() <= 4.0 and abs(t.mean() - 1.0) < 0.05
    u = K.random_uniform_variable((300, 40), -1.0, 2.0, seed=3)
    n = K.random_normal_variable((300, 40), 0.5, 2.0, seed=4)
    assert isinstance(u, tf.Variable) and isinstance(n, tf.Variable)
    uv, nv = K.batch_get_value([u, n])
    assert uv.min() >= -1.0 and uv.max() < 2.0 and abs(uv.mean() - 0.5) < 0.03
    assert abs(nv.mean() - 0.5) < 0.05 and abs(nv.std() - 2.0) < 0.05
    # the same op seed gives the same values as the plain random ops
    a = K.eval(K.random_binomial((3, 4), p=0.5, seed=11))
    ref = K.eval(tf.cast(tf.random_uniform((3, 4), seed=11) <= 0.5, "float32"))
    np.testing.assert_array_equal(a, ref)


def test_switch_rank1_selects_rows_as_tf1():
    x = IN["x23"]
    out = K.eval(K.switch(tf.constant([True, False]), tf.constant(x), tf.constant(-x)))
    np.testing.assert_allclose(out, np.where(np.array([True, False])[:, None], x, -x))


def test_small_functions():
    assert K.backend() == "tensorflow"
    arr = K.cast_to_floatx([1, 2])
    assert arr.dtype == np.float32 and arr.tolist() == [1.0, 2.0]
    K.set_image_data_format("channels_first")
    assert K.image_data_format() == "channels_first"
    K.set_image_data_format("channels_last")
    x = tf.constant(IN["x23"])
    np.testing.assert_allclose(K.eval(K.identity(x)), IN["x23"])
    for fn, ref in ((K.greater, np.greater), (K.greater_equal, np.greater_equal), (K.less_equal, np.less_equal),
                    (K.not_equal, np.not_equal)):
        np.testing.assert_array_equal(K.eval(fn(x, tf.constant(IN["x23"][0]))), ref(IN["x23"], IN["x23"][0]))
    assert K.get_variable_shape(K.variable(np.zeros((2, 5)))) == (2, 5)
    np.testing.assert_array_equal(K.eval(K.tile(tf.constant([1, 2]), 2)), [1, 2, 1, 2])
    np.testing.assert_array_equal(K.eval(K.reverse(tf.constant([1, 2, 3]), 0)), [3, 2, 1])
    assert K.eval(K.eye(2)).dtype == np.float32 and isinstance(K.eye(2), tf.Variable)
    sp = tf.SparseTensor([[0, 1], [1, 0]], [3.0, 4.0], [2, 2])
    assert K.is_sparse(sp) and not K.is_sparse(x)
    np.testing.assert_array_equal(K.eval(K.to_dense(sp)), [[0, 3], [4, 0]])
    assert K.to_dense(x) is x
    ph = K.placeholder(shape=(None, 2))
    rep = K.repeat_elements(ph, 2, axis=0)
    assert K.int_shape(rep) == (None, 2)
    out = K.function([ph], [rep])([np.array([[1, 2], [3, 4]], "float32")])[0]
    np.testing.assert_array_equal(out, [[1, 2], [1, 2], [3, 4], [3, 4]])


def test_is_keras_tensor_and_learning_phase_scope():
    inp = tf.keras.Input((3,))
    out = tf.keras.layers.Dense(2)(inp)
    assert K.is_keras_tensor(inp) and K.is_keras_tensor(out)
    assert not K.is_keras_tensor(tf.constant(1.0))
    with pytest.raises(ValueError, match="Unexpectedly found an instance of type `<class 'numpy.ndarray'>`. "
                                         "Expected a symbolic tensor instance."):
        K.is_keras_tensor(np.zeros(2))
    y = K.in_train_phase(tf.constant(1.0), tf.constant(0.0))
    f = K.function([], [y])
    assert f([])[0] == 0.0
    with K.learning_phase_scope(1):
        assert K.learning_phase() == 1
        assert K.eval(K.in_train_phase(tf.constant(1.0), tf.constant(0.0))) == 1.0
    assert not isinstance(K.learning_phase(), int)
    K.set_learning_phase(0)
    with K.learning_phase_scope(1):
        assert K.learning_phase() == 1
    assert K.learning_phase() == 0
    with pytest.raises(ValueError, match="Expected learning phase to be 0 or 1."):
        with K.learning_phase_scope(2):
            pass


def test_manual_variable_initialization():
    K.manual_variable_initialization(True)
    v = K.variable(np.ones(2))
    sess = K.get_session()
    assert not sess.run(tf.is_variable_initialized(v))
    sess.run(v.initializer)
    K.manual_variable_initialization(False)
    w = K.variable(np.zeros(2))
    K.get_session()
    assert K.get_value(w).tolist() == [0.0, 0.0]


def test_print_tensor(capfd):
    x = K.print_tensor(tf.constant([1.5, 2.5]), message="value: ")
    np.testing.assert_allclose(K.eval(x), [1.5, 2.5])
    err = capfd.readouterr().err
    assert "value: " in err and "1.5" in err


def test_namespace_has_no_module_leaks():
    names = set(dir(tf.keras.backend))
    assert not names & {"np", "tf", "contextlib", "builtins", "itertools"}
    for name in ("conv2d", "pool3d", "ctc_decode", "learning_phase_scope", "normalize_batch_in_training",
                 "random_normal_variable", "local_conv2d", "spatial_3d_padding", "resize_volumes"):
        assert callable(getattr(tf.keras.backend, name))


def _grad_error(build, shape, seed=0, delta=1e-6):
    with tf.Graph().as_default(), tf.Session():
        x = tf.placeholder(tf.float64, shape)
        y = build(x)
        value = np.random.RandomState(seed).uniform(-1, 1, shape)
        return tf.test.compute_gradient_error(x, shape, y, K.int_shape(y), x_init_value=value, delta=delta)


@pytest.mark.parametrize("name,shape,build", [
    ("logsumexp", (2, 3, 4), lambda x: K.logsumexp(x, axis=1)),
    ("l2_normalize", (3, 4), lambda x: K.l2_normalize(x, axis=-1)),
    ("conv1d_causal", (2, 6, 2), lambda x: K.conv1d(x, tf.constant(np.linspace(-1, 1, 12).reshape(3, 2, 2)),
                                                    padding="causal", dilation_rate=2)),
    ("conv2d_cf", (1, 2, 5, 4), lambda x: K.conv2d(x, tf.constant(np.linspace(-1, 1, 24).reshape(2, 2, 2, 3)),
                                                   padding="same", data_format="channels_first")),
    ("conv2d_transpose", (1, 3, 3, 2), lambda x: K.conv2d_transpose(
        x, tf.constant(np.linspace(-1, 1, 36).reshape(3, 3, 2, 2)), (1, 6, 6, 2), strides=(2, 2), padding="same")),
    ("separable", (1, 4, 4, 2), lambda x: K.separable_conv2d(
        x, tf.constant(np.linspace(-1, 1, 8).reshape(2, 2, 2, 1)), tf.constant(np.ones((1, 1, 2, 2))))),
    ("depthwise", (1, 4, 4, 2), lambda x: K.depthwise_conv2d(
        x, tf.constant(np.linspace(-1, 1, 16).reshape(2, 2, 2, 2)), padding="same")),
    ("conv3d", (1, 3, 3, 3, 1), lambda x: K.conv3d(x, tf.constant(np.linspace(-1, 1, 16).reshape(2, 2, 2, 1, 2)))),
    ("pool2d_avg", (1, 4, 4, 2), lambda x: K.pool2d(x, (2, 2), (2, 2), pool_mode="avg")),
    ("pool2d_max", (1, 4, 4, 1), lambda x: K.pool2d(x, (2, 2), (1, 1), padding="same")),
    ("pool3d_avg", (1, 2, 4, 4, 1), lambda x: K.pool3d(x, (2, 2, 2), (1, 2, 2), pool_mode="avg")),
    ("local_conv2d", (1, 4, 4, 1), lambda x: K.local_conv2d(
        x, tf.constant(np.linspace(-1, 1, 16).reshape(4, 4, 1)), (2, 2), (2, 2), (2, 2))),
    ("normalize_batch_2d", (5, 3), lambda x: K.normalize_batch_in_training(x, None, None, [0])[0]),
    ("normalize_batch_broadcast", (4, 3, 2), lambda x: K.normalize_batch_in_training(
        x, tf.constant(np.array([1.5, 0.5, 2.0])), None, [0, 2])[0]),
    ("repeat_elements", (2, 3), lambda x: K.repeat_elements(x, 2, axis=1) * tf.constant(np.arange(12.0).reshape(
        2, 6))),
])
def test_numerical_gradients(name, shape, build):
    assert _grad_error(build, shape) < 1e-6


def test_resize_bilinear_gradient():
    # ResizeBilinear computes in float32 whatever its input dtype (as TF), hence the wider delta.
    build = lambda x: K.resize_images(x, 2, 2, "channels_last", "bilinear")  # noqa: E731
    assert _grad_error(build, (1, 2, 3, 1), delta=1e-2) < 1e-4


def test_normalize_batch_fused_gradient():
    def build(x):
        out, mean, var = K.normalize_batch_in_training(x, tf.constant(np.array([1.0, 2.0])),
                                                       tf.constant(np.array([0.0, 0.5])), [0, 1, 2])
        return out * tf.constant(np.linspace(-1, 1, 16).reshape(2, 2, 2, 2))
    assert _grad_error(build, (2, 2, 2, 2)) < 1e-5


def test_errors():
    x = tf.constant(IN["img"])
    k = tf.constant(IN["k2"])
    with pytest.raises(ValueError, match="Unknown data_format: nhwc"):
        K.set_image_data_format("nhwc")
    with pytest.raises(ValueError, match="Unknown data_format: nchw"):
        K.conv2d(x, k, data_format="nchw")
    with pytest.raises(ValueError, match="Invalid padding: full"):
        K.conv2d(x, k, padding="full")
    with pytest.raises(ValueError, match="Invalid pooling mode: min"):
        K.pool2d(x, (2, 2), pool_mode="min")
    with pytest.raises(ValueError, match="`pool_size` must be a tuple of 2 integers."):
        K.pool2d(x, (2, 2, 2))
    with pytest.raises(ValueError, match="`strides` must be a tuple of 2 integers."):
        K.pool2d(x, (2, 2), strides=(1,))
    with pytest.raises(ValueError, match="`strides` must be a tuple of 2 integers."):
        K.separable_conv2d(x, tf.constant(IN["dk"]), tf.constant(IN["pk"]), strides=(1, 1, 1))
    with pytest.raises(ValueError, match="Invalid pooling mode: sum"):
        K.pool3d(tf.constant(IN["vol"]), (2, 2, 2), pool_mode="sum")
    with pytest.raises(ValueError, match="Invalid `data_format` argument: nhwc"):
        K.resize_images(x, 2, 2, "nhwc")
    with pytest.raises(ValueError, match='interpolation should be one of "nearest" or "bilinear".'):
        K.resize_images(x, 2, 2, "channels_last", interpolation="bicubic")
    with pytest.raises(ValueError, match="Invalid data_format: nhwc"):
        K.resize_volumes(tf.constant(IN["vol"]), 2, 2, 2, "nhwc")
    with pytest.raises(ValueError, match=r"`padding` should be a pair of ints; got \(1, 2, 3\)"):
        K.temporal_padding(tf.constant(IN["seq"]), (1, 2, 3))
    with pytest.raises(ValueError, match=r"`padding` should be 2 pairs of ints"):
        K.spatial_2d_padding(x, ((1, 1),))
    with pytest.raises(ValueError, match=r"`padding` should be 3 pairs of ints"):
        K.spatial_3d_padding(tf.constant(IN["vol"]), ((1, 1), (1, 1), (1,)))
    with pytest.raises(ValueError, match="conv2d_transpose supports only equal dilation rates"):
        K.conv2d_transpose(x, tf.constant(IN["k2t"]), (2, 5, 6, 4), padding="same", dilation_rate=(1, 2))
    with pytest.raises(ValueError, match="Unexpected bias dimensions 2, expect to be 1 or 4 dimensions"):
        K.bias_add(x, tf.constant(np.zeros((2, 3), "float32")))
    with pytest.raises(ValueError, match=r"Rank of `condition` should be less than or equal to rank of "
                                         r"`then_expression` and `else_expression`. ndim\(condition\)=2, "
                                         r"ndim\(then_expression\)=1"):
        K.switch(tf.constant([[True]]), tf.constant([1.0]), tf.constant([2.0]))
    with pytest.raises(ValueError, match="Unknown data_format: nchw"):
        K.local_conv2d(x, tf.constant(IN["lk2"]), (2, 2), (2, 2), (2, 3), data_format="nchw")
