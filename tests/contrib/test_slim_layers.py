"""tf.contrib.slim / tf.contrib.layers layers against tf-slim goldens (tests/data/make_slim_goldens.py,
tf-slim 1.1 on TF 2.21 in graph mode): variable names/shapes/collections, outputs with fixed
weights, batch_norm training/inference and moving averages, arg_scope behaviour."""

import os

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim
from tests.data import slim_cases as cases

G = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "slim_goldens.npz"))
BN_X4, BN_X2 = cases.BN_X4, cases.BN_X2
BN_CASES = cases.bn_cases(tf)
BN_RUNS = cases.bn_runs(BN_CASES)


def check_table(prefix, coll):
    vs = tf.get_collection(coll)
    assert [v.op.name for v in vs] == list(G[prefix + "_names"])
    assert [",".join(str(d) for d in v.shape.as_list()) for v in vs] == list(G[prefix + "_shapes"])


def _run_set(fetches):
    """`fetches` after initialising the variables and loading cases.set_vars' values into them."""
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        cases.set_vars(tf, sess)
        return sess.run(fetches)


def test_model_variables_outputs_and_updates():
    with tf.Graph().as_default():
        logits = cases.model(slim, tf)
        check_table("model_global", tf.GraphKeys.GLOBAL_VARIABLES)
        check_table("model_model", tf.GraphKeys.MODEL_VARIABLES)
        check_table("model_trainable", tf.GraphKeys.TRAINABLE_VARIABLES)
        assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == G["model_n_update_ops"]
        assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == G["model_n_reg_losses"]
        end_points = slim.utils.convert_collection_to_dict("end_points")
        assert list(end_points) == list(G["model_end_points"])
        assert [",".join(map(str, t.shape.as_list())) for t in end_points.values()] == list(
            G["model_end_point_shapes"])
        reg = tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            cases.set_vars(tf, sess)
            out, reg_v = sess.run([logits, reg])
            np.testing.assert_allclose(out, G["model_logits"], rtol=1e-4, atol=1e-5)
            np.testing.assert_allclose(reg_v, G["model_reg"], rtol=1e-5)
            sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
            for name in G["model_moving_names"]:
                v = slim.get_unique_variable(name)
                np.testing.assert_allclose(sess.run(v), G["model_moving/" + name], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name,mode", BN_RUNS, ids=["%s-%s" % r for r in BN_RUNS])
def test_batch_norm(name, mode):
    x, kw = BN_CASES[name]
    key = "bn_%s_%s" % (name, mode)
    with tf.Graph().as_default():
        y, feed = cases.batch_norm(slim, tf, x, kw, mode)
        assert y.shape.as_list() == list(x.shape)
        assert len(tf.get_collection(tf.GraphKeys.UPDATE_OPS)) == G[key + "_n_updates"]
        if mode == "const":
            check_table(key + "_global", tf.GraphKeys.GLOBAL_VARIABLES)
            check_table(key + "_model", tf.GraphKeys.MODEL_VARIABLES)
            check_table(key + "_trainable", tf.GraphKeys.TRAINABLE_VARIABLES)
        out, mean, var = cases.run_batch_norm(tf, y, feed)
        np.testing.assert_allclose(out, G[key + "_y"], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(mean, G[key + "_mean"], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(var, G[key + "_var"], rtol=1e-5, atol=1e-6)


def test_batch_norm_unsupported_and_errors():
    with tf.Graph().as_default():
        x = tf.constant(BN_X4)
        with pytest.raises(NotImplementedError, match="zero_debias_moving_mean"):
            slim.batch_norm(x, zero_debias_moving_mean=True)
        with pytest.raises(NotImplementedError, match="renorm"):
            slim.batch_norm(x, renorm=True)
        with pytest.raises(ValueError, match="data_format has to be either NCHW or NHWC"):
            slim.batch_norm(x, data_format="NWC")
        with pytest.raises(ValueError, match="undefined channels dimension"):
            slim.batch_norm(tf.placeholder(tf.float32, [None, None]))


def test_batch_norm_nchw_matches_nhwc():
    with tf.Graph().as_default():
        x = tf.constant(BN_X4)
        y1 = slim.batch_norm(x, scale=True, scope="a")
        y2 = tf.transpose(slim.batch_norm(tf.transpose(x, [0, 3, 1, 2]), scale=True, data_format="NCHW", scope="b"),
                          [0, 2, 3, 1])
        assert tf.global_variables()[-1].shape.as_list() == [2]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            a, b = sess.run([y1, y2])
            sess.run(tf.get_collection(tf.GraphKeys.UPDATE_OPS))
            ma, mb = sess.run([slim.get_unique_variable("a/moving_variance"),
                               slim.get_unique_variable("b/moving_variance")])
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(ma, mb, rtol=1e-6)
        np.testing.assert_allclose(ma, G["bn_default4_const_var"], rtol=1e-5)


def test_batch_norm_reuse_and_variables_collections():
    with tf.Graph().as_default():
        x = tf.constant(BN_X4)
        slim.batch_norm(x, scale=True, scope="bn", variables_collections={"beta": ["B"], "moving_mean": ["M"]})
        slim.batch_norm(x, scale=True, scope="bn", reuse=True)
        assert [v.op.name for v in tf.get_collection("B")] == ["bn/beta"]
        assert [v.op.name for v in tf.get_collection("M")] == ["bn/moving_mean"]
        assert len(tf.global_variables()) == 4


def test_layer_norm():
    with tf.Graph().as_default():
        x, y1, y2 = cases.layer_norms(slim, tf)
        check_table("ln_global", tf.GraphKeys.GLOBAL_VARIABLES)
        a, b = _run_set([y1, y2])
        np.testing.assert_allclose(a, G["ln_y1"], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(b, G["ln_y2"], rtol=1e-4, atol=1e-5)
        with pytest.raises(ValueError, match="must be < rank"):
            slim.layer_norm(x, begin_norm_axis=4)


def test_misc_layers():
    with tf.Graph().as_default():
        outs = cases.misc_layers(slim, tf)
        check_table("misc_global", tf.GraphKeys.GLOBAL_VARIABLES)
        for k, t in outs.items():
            assert t.shape.as_list() == list(G["misc_" + k].shape), k
        vals = _run_set(outs)
        for k, v in vals.items():
            np.testing.assert_allclose(v, G["misc_" + k], rtol=1e-4, atol=1e-5, err_msg=k)


def test_conv_errors_and_dynamic_shapes():
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Convolution expects input with rank 4, got 3"):
            slim.conv2d(tf.zeros([1, 4, 2]), 2, 3)
        with pytest.raises(ValueError, match="Invalid data_format"):
            slim.conv2d(tf.zeros([1, 4, 4, 2]), 2, 3, data_format="NHCW")
        with pytest.raises(ValueError, match="channel dimension of the inputs should be defined"):
            slim.conv2d(tf.placeholder(tf.float32, [None, 4, 4, None]), 2, 3)
        p = tf.placeholder(tf.float32, [None, None, None, 2])
        y = slim.conv2d_transpose(p, 3, 3, stride=2, scope="t")
        z = slim.conv2d(p, 3, 3, stride=2, scope="c", outputs_collections=["outs"])
        assert y.shape.as_list() == [None, None, None, 3]
        assert slim.utils.convert_collection_to_dict("outs")["c"] is z
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            a, b = sess.run([y, z], {p: np.ones((2, 5, 3, 2), np.float32)})
        assert a.shape == (2, 10, 6, 3) and b.shape == (2, 3, 2, 3)


def test_conv_reuse_and_collections():
    with tf.Graph().as_default():
        x = tf.zeros([1, 4, 4, 2])
        slim.conv2d(x, 3, 3, scope="c", variables_collections=["mine"], trainable=False)
        slim.conv2d(x, 3, 3, scope="c", reuse=True)
        assert [v.op.name for v in tf.get_collection("mine")] == ["c/weights", "c/biases"]
        assert tf.trainable_variables() == []
        slim.conv2d(x, 3, 3)
        slim.conv2d(x, 3, 3)
        assert [v.op.name for v in tf.global_variables()][2:] == ["Conv/weights", "Conv/biases", "Conv_1/weights",
                                                                  "Conv_1/biases"]


def test_dropout_training_tensor():
    with tf.Graph().as_default():
        flag = tf.placeholder(tf.bool, [])
        x = tf.ones([200, 50])
        y = slim.dropout(x, keep_prob=0.5, is_training=flag)
        with tf.Session() as sess:
            a = sess.run(y, {flag: False})
            b = sess.run(y, {flag: True})
        np.testing.assert_array_equal(a, 1.0)
        assert set(np.unique(b)) <= {0.0, 2.0} and 0.4 < (b == 0).mean() < 0.6


def test_arg_scope_nesting_and_reentry():
    with tf.Graph().as_default():
        x = tf.zeros([1, 4, 4, 2])
        with slim.arg_scope([slim.conv2d], padding="VALID", activation_fn=None) as sc:
            with slim.arg_scope([slim.conv2d], padding="SAME"):
                assert slim.current_arg_scope()[slim.arg_scope_func_key(slim.conv2d)] == {
                    "padding": "SAME", "activation_fn": None}
                a = slim.conv2d(x, 1, 3, scope="a")
            b = slim.conv2d(x, 1, 3, scope="b")
            c = slim.conv2d(x, 1, 3, padding="SAME", scope="c")
        d = slim.conv2d(x, 1, 3, scope="d")
        with slim.arg_scope(sc):
            e = slim.conv2d(x, 1, 3, scope="e")
        assert [t.shape.as_list()[1] for t in (a, b, c, d, e)] == [4, 2, 4, 4, 2]
        assert a.op.type != "Relu" and d.op.type == "Relu"
        assert "padding" in slim.arg_scoped_arguments(slim.conv2d)
        with pytest.raises(ValueError, match="not decorated with @add_arg_scope"):
            with slim.arg_scope([tf.nn.relu], x=1):
                pass


def test_repeat_stack_default_scopes():
    with tf.Graph().as_default():
        x = tf.zeros([1, 4])
        slim.stack(x, slim.fully_connected, [3, 2])
        slim.repeat(x, 2, slim.fully_connected, 4)
        names = [v.op.name for v in tf.global_variables() if v.op.name.endswith("weights")]
        assert names == ["Stack/fully_connected_1/weights", "Stack/fully_connected_2/weights",
                         "Repeat/fully_connected_1/weights", "Repeat/fully_connected_2/weights"]
        with pytest.raises(ValueError, match="stack_args need to be a list or tuple"):
            slim.stack(x, slim.fully_connected, 3)


def test_extra_layers():
    with tf.Graph().as_default():
        v, outs, sp = cases.extra_layers(slim, tf)
        check_table("extra_global", tf.GraphKeys.GLOBAL_VARIABLES)
        for k, t in outs.items():
            assert t.shape.as_list() == list(G["extra_" + k].shape), k
        vals, (idx, val, shape) = _run_set([outs, [sp.indices, sp.values, sp.dense_shape]])
        for k, got in vals.items():
            np.testing.assert_allclose(got, G["extra_" + k], rtol=1e-4, atol=1e-5, err_msg=k)
        np.testing.assert_array_equal(idx, G["extra_sparse_indices"])
        np.testing.assert_array_equal(val, G["extra_sparse_values"])
        np.testing.assert_array_equal(shape, G["extra_sparse_shape"])
        with pytest.raises(ValueError, match="is not a multiple of num_units"):
            slim.maxout(tf.zeros([2, 5]), 2)
        with pytest.raises(ValueError, match="data_format has to be either NCDHW or NDHWC"):
            slim.max_pool3d(v, 2, data_format="NHWC")


def test_restore_tf_written_checkpoint():
    """The model's checkpoint written by TF (tf-slim) restores by name and gives TF's logits."""
    path = os.path.join(os.path.dirname(__file__), "..", "data", "slim_checkpoint", "model.ckpt")
    with tf.Graph().as_default():
        logits = cases.model(slim, tf)
        init_fn = slim.assign_from_checkpoint_fn(path, slim.get_variables_to_restore())
        assign_op, feed = slim.assign_from_checkpoint(path, slim.get_model_variables("fc"))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            init_fn(sess)
            sess.run(assign_op, feed)
            np.testing.assert_allclose(sess.run(logits), G["model_logits"], rtol=1e-4, atol=1e-5)


def test_batch_norm_unknown_batch_size():
    with tf.Graph().as_default():
        p = tf.placeholder(tf.float32, [None, 5])
        y = slim.batch_norm(p, decay=0.9, scale=True, updates_collections=None)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run(y, {p: BN_X2})
            mean, var = sess.run([slim.get_unique_variable("BatchNorm/moving_mean"),
                                  slim.get_unique_variable("BatchNorm/moving_variance")])
    np.testing.assert_allclose(out, (BN_X2 - BN_X2.mean(0)) / np.sqrt(BN_X2.var(0) + 1e-3), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(mean, 0.1 * BN_X2.mean(0), rtol=1e-5)
    # the fused implementation's update uses the unbiased batch variance
    np.testing.assert_allclose(var, 0.9 + 0.1 * BN_X2.var(0, ddof=1), rtol=1e-5)


def test_scale_gradient():
    with tf.Graph().as_default():
        x = tf.constant([1.0, -2.0, 3.0])
        y = slim.scale_gradient(x, 0.25)
        z = slim.scale_gradient(x, tf.constant([1.0, 2.0, 3.0]))
        gy = tf.gradients(tf.reduce_sum(y * y), x)[0]
        gz = tf.gradients(tf.reduce_sum(z), x)[0]
        with tf.Session() as sess:
            out, a, b = sess.run([y, gy, gz])
    np.testing.assert_array_equal(out, [1.0, -2.0, 3.0])
    np.testing.assert_allclose(a, 0.25 * 2 * np.array([1.0, -2.0, 3.0]))
    np.testing.assert_allclose(b, [1.0, 2.0, 3.0])


def test_nchw_layers_match_nhwc():
    with tf.Graph().as_default():
        x = tf.constant(BN_X4)
        xt = tf.transpose(x, [0, 3, 1, 2])
        to_nhwc = lambda t: tf.transpose(t, [0, 2, 3, 1])  # noqa: E731
        pairs = [
            (slim.conv2d(x, 3, [2, 2], stride=2, scope="a"),
             to_nhwc(slim.conv2d(xt, 3, [2, 2], stride=2, data_format="NCHW", scope="b"))),
            (slim.conv2d_transpose(x, 3, [2, 3], stride=2, scope="c"),
             to_nhwc(slim.conv2d_transpose(xt, 3, [2, 3], stride=2, data_format="NCHW", scope="d"))),
            (slim.bias_add(x, initializer=tf.constant_initializer(0.5), scope="e"),
             to_nhwc(slim.bias_add(xt, initializer=tf.constant_initializer(0.5), data_format="NCHW", scope="f"))),
        ]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for scope_a, scope_b in (("a", "b"), ("c", "d")):
                for name in ("weights", "biases"):
                    src = slim.get_unique_variable(scope_a + "/" + name)
                    dst = slim.get_unique_variable(scope_b + "/" + name)
                    value = np.random.RandomState(0).normal(size=src.shape.as_list()).astype(np.float32)
                    src.load(value, sess)
                    dst.load(value, sess)
            for a, b in sess.run(pairs):
                np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
