"""Compile passes: constant folding, CSE, algebraic simplification, and the options that select them."""

import re

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import registry
from tests.runtime import INTERPRETER


def _plan(sess):
    """The compiled plan of the session's only cached signature."""
    plans = {id(e.plan): e.plan for e in sess._cache.values()}
    assert len(plans) == 1
    return next(iter(plans.values()))


def _kernel_lines(plan):
    """The lines that compute a value (a kernel call or an inlined operator expression)."""
    return [ln for ln in plan.source.splitlines()[1:]
            if re.match(r"\s+(t\d+_\d+|_)(, \w+)* = ", ln) or ln.strip().startswith("K")]


def _config(**optimizer):
    return tf.ConfigProto(graph_options=tf.GraphOptions(optimizer_options=tf.OptimizerOptions(**optimizer)))


def test_cse_computes_a_repeated_expression_once():
    x = tf.placeholder(tf.float32, [3])
    a = tf.exp(x * 2.0)
    b = tf.exp(x * 2.0)
    with tf.Session() as sess:
        va, vb = sess.run([a, b], {x: [0.0, 1.0, 2.0]})
        assert len(_kernel_lines(_plan(sess))) == 2  # one Mul, one Exp
    np.testing.assert_allclose(va, np.exp(np.array([0.0, 2.0, 4.0], np.float32)), rtol=1e-6)
    np.testing.assert_array_equal(va, vb)


def test_cse_keeps_ops_with_different_attributes_and_stateful_ops():
    x = tf.placeholder(tf.float32, [2, 3])
    s0 = tf.reduce_sum(x, 0)
    s1 = tf.reduce_sum(x, 1)
    r0 = tf.random_uniform([2], seed=1)
    r1 = tf.random_uniform([2], seed=1)
    with tf.Session() as sess:
        v0, v1, u0, u1 = sess.run([s0, s1, r0, r1], {x: np.ones((2, 3))})
        lines = _kernel_lines(_plan(sess))
    assert v0.tolist() == [2.0, 2.0, 2.0] and v1.tolist() == [3.0, 3.0]
    assert sum("keep_dims" in ln for ln in lines) == 2
    assert sum("seed=" in ln for ln in lines) == 2  # two random draws, not one shared
    assert u0.shape == u1.shape == (2,)


def test_cse_off_at_opt_level_l0():
    x = tf.placeholder(tf.float32, [3])
    a, b = tf.exp(x), tf.exp(x)
    with tf.Session(config=_config(opt_level=tf.OptimizerOptions.L0)) as sess:
        sess.run([a, b], {x: [1.0, 2.0, 3.0]})
        assert len(_kernel_lines(_plan(sess))) == 2


@pytest.mark.parametrize("build", [
    lambda x: x * 1.0, lambda x: 1.0 * x, lambda x: x + 0.0, lambda x: 0.0 + x, lambda x: x - 0.0,
    lambda x: x / 1.0, lambda x: x * tf.ones([3]), lambda x: tf.add(x, tf.zeros([2, 3])),
])
def test_simplify_removes_neutral_operations(build):
    x = tf.placeholder(tf.float32, [2, 3])
    y = tf.exp(build(x))
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    with tf.Session() as sess:
        out = sess.run(y, {x: xv})
        assert len(_kernel_lines(_plan(sess))) == 1  # only Exp
    np.testing.assert_array_equal(out, np.exp(xv))


@pytest.mark.parametrize("build, shape", [
    (lambda x: x * tf.ones([4, 2, 3]), (4, 2, 3)),   # broadcasting grows the shape
    (lambda x: x * 2.0, (2, 3)),                      # not neutral
    (lambda x: 1.0 - x, (2, 3)),                      # 1 - x is not x
    (lambda x: 0.0 / x, (2, 3)),
])
def test_simplify_keeps_operations_that_change_values_or_shapes(build, shape):
    x = tf.placeholder(tf.float32, [2, 3])
    y = build(x)
    xv = np.arange(1, 7, dtype=np.float32).reshape(2, 3)
    with tf.Session() as sess:
        out = sess.run(y, {x: xv})
        assert len(_kernel_lines(_plan(sess))) == 1
    assert out.shape == shape


def test_simplify_needs_a_known_rank_for_scalar_constants():
    x = tf.placeholder(tf.float32)  # unknown rank: `x * 1` must still broadcast a scalar feed
    y = x * tf.ones([2])
    with tf.Session() as sess:
        assert sess.run(y, {x: 3.0}).tolist() == [3.0, 3.0]


def test_constant_folding_and_its_option():
    a = tf.constant([1.0, 2.0])
    b = tf.exp(a) * 2.0
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(b), np.exp([1.0, 2.0]) * 2.0, rtol=1e-6)
        assert _kernel_lines(_plan(sess)) == []
    with tf.Session(config=_config(opt_level=tf.OptimizerOptions.L0)) as sess:
        np.testing.assert_allclose(sess.run(b), np.exp([1.0, 2.0]) * 2.0, rtol=1e-6)
        assert len(_kernel_lines(_plan(sess))) == 2
    with tf.Session(config=_config(opt_level=tf.OptimizerOptions.L0, do_constant_folding=True)) as sess:
        sess.run(b)
        assert _kernel_lines(_plan(sess)) == []


def test_equal_constants_share_one_name_so_cse_merges_their_users():
    x = tf.placeholder(tf.float32, [2])
    a = x * tf.constant(3.0)
    b = x * tf.constant(3.0)
    with tf.Session() as sess:
        va, vb = sess.run([a, b], {x: [1.0, 2.0]})
        assert len(_kernel_lines(_plan(sess))) == 1
    assert va.tolist() == vb.tolist() == [3.0, 6.0]


def test_unknown_optimizer_field_is_rejected():
    with pytest.raises(ValueError, match='no "do_magic" field'):
        tf.OptimizerOptions(do_magic=True)


def test_strided_slice_with_constant_spec_is_specialized_and_agrees_with_the_interpreter():
    x = tf.placeholder(tf.float32, [5, 4, 3])
    outs = [x[1], x[-1, ::2], x[:, 1:3, tf.newaxis, 0], x[..., -1], x[4:0:-2, :, 1:]]
    xv = np.arange(60, dtype=np.float32).reshape(5, 4, 3)
    with tf.Session() as sess:
        got = sess.run(outs, {x: xv})
        source = _plan(sess).source
    interp = INTERPRETER
    with tf.Session(config=interp) as sess:
        ref = sess.run(outs, {x: xv})
    expected = [xv[1], xv[-1, ::2], xv[:, 1:3, None, 0], xv[..., -1], xv[4:0:-2, :, 1:]]
    for g, r, e in zip(got, ref, expected):
        np.testing.assert_array_equal(g, e)
        np.testing.assert_array_equal(r, e)
    assert "begin_mask" not in source  # every slice runs its precomputed index


def test_strided_slice_of_unknown_shape_keeps_the_general_kernel_and_its_error():
    x = tf.placeholder(tf.float32, [None, 2])
    y = x[7]  # the bounds are only known when run
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 7 of dimension 0 out of bounds"):
            sess.run(y, {x: np.zeros((3, 2))})


@pytest.mark.parametrize("row_shape", [(100,), (2,), (3, 4)])
def test_sum_of_rows_loop_is_one_kernel_with_the_loops_rounding(row_shape):
    x = tf.placeholder(tf.float32, (500,) + row_shape)
    z = tf.zeros(row_shape)
    for i in range(500):
        z += x[i]
    xv = np.random.RandomState(1).randn(500, *row_shape).astype(np.float32)
    with tf.Session() as sess:
        got = sess.run(z, {x: xv})
        lines = _kernel_lines(_plan(sess))
        assert len(_fused_steps(_plan(sess), "_AddChainRows")) == 1
    expected = np.zeros(row_shape, np.float32)
    for i in range(500):
        expected += xv[i]
    np.testing.assert_array_equal(got, expected)
    assert len(lines) == 1


def test_add_chain_accumulates_in_order_and_stops_at_shared_values():
    xs = [tf.placeholder(tf.float32, [4]) for _ in range(5)]
    s2 = xs[0] + xs[1]
    s5 = s2 + xs[2] + xs[3] + xs[4]
    vals = [np.random.RandomState(i).randn(4).astype(np.float32) * 10 ** i for i in range(5)]
    feed = dict(zip(xs, vals))
    with tf.Session() as sess:
        got = sess.run(s5, feed)
        assert len(_kernel_lines(_plan(sess))) == 1
        assert len(_fused_steps(_plan(sess), "_AddChain")) == 1
    with tf.Session() as sess:  # s2 fetched too: the chain starts after it
        got2, mid = sess.run([s5, s2], feed)
        assert len(_kernel_lines(_plan(sess))) == 2
    expected = vals[0] + vals[1]
    for v in vals[2:]:
        expected = expected + v
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got2, expected)
    np.testing.assert_array_equal(mid, vals[0] + vals[1])


def _lines_for(fetch, feed):
    with tf.Session() as sess:
        value = sess.run(fetch, feed)
        return value, len(_kernel_lines(_plan(sess)))


def test_add_trees_broadcasts_and_strings_are_not_chained():
    a, b, c, d = (tf.placeholder(tf.float32, [3]) for _ in range(4))
    feed = {a: [1.0, 2.0, 3.0], b: [1.0, 1.0, 1.0], c: [0.5, 0.5, 0.5], d: [2.0, 2.0, 2.0]}
    tree, n = _lines_for((a + b) + (c + d), feed)
    assert tree.tolist() == [4.5, 5.5, 6.5] and n == 3
    row = tf.placeholder(tf.float32, [2, 3])
    feed[row] = np.ones((2, 3), np.float32)
    broadcast, n = _lines_for(a + b + row + c, feed)
    assert broadcast.shape == (2, 3) and n == 3
    p = tf.placeholder(tf.string, [])
    words, n = _lines_for(tf.constant("a") + p + tf.constant("c") + tf.constant("d"), {p: b"b"})
    assert words == b"abcd" and n == 3


@pytest.mark.parametrize("nesterov", [False, True])
@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64])
def test_specialized_adam_matches_the_interpreter_bitwise(nesterov, dtype):
    from tensorweave.ops import training_ops
    np_dtype = dtype.as_numpy_dtype
    g = tf.placeholder(dtype, [4])
    b1p = tf.Variable(np_dtype(0.9))
    b2p = tf.Variable(np_dtype(0.999))
    slots = [tf.Variable(np.array(v, np_dtype)) for v in ([0.5, -1.0, 2.0, 0.1], [0.0] * 4, [0.0] * 4)]
    update = training_ops.apply_adam(*slots, b1p, b2p, np_dtype(0.05), np_dtype(0.9), np_dtype(0.999),
                                     np_dtype(1e-8), g, use_nesterov=nesterov)
    step = tf.group(update, tf.assign(b1p, b1p * 0.9), tf.assign(b2p, b2p * 0.999))
    results = []
    for config in (None, INTERPRETER):
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            for k in range(5):
                sess.run(step, {g: np.arange(4) - k})
            results.append(sess.run(slots))
    for ours, ref in zip(*results):
        np.testing.assert_array_equal(ours, ref)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step, {g: np.zeros(4)})
        source = next(e.plan.source for e in sess._cache.values() if "ApplyAdam" in repr(e.plan.ops))
    assert "use_nesterov" not in source  # the specialized kernel has its attributes bound


def test_reshapes_between_static_shapes_and_one_call_unary_ops_are_inlined():
    x = tf.placeholder(tf.float32, [2, 3])
    y = tf.expand_dims(tf.squeeze(tf.reshape(tf.exp(x), [3, 1, 2]), 1), 0)
    xv = np.arange(6, dtype=np.float32).reshape(2, 3)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: xv}), np.exp(xv).reshape(1, 3, 2))
        source = _plan(sess).source
    assert "XP.exp(f0)" in source and ".reshape((3, 1, 2))" in source and ".reshape((1, 3, 2))" in source
    u = tf.placeholder(tf.float32)  # unknown shape: the kernel, which checks the element count
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 3 values"):
            sess.run(tf.reshape(u, [2, 2]), {u: [1.0, 2.0, 3.0]})


def _fused_steps(plan, op_type="_FusedConv2D", **attrs):
    """The positions of the plan's steps that run internal op `op_type` with attribute values `attrs`."""
    kernel = registry.get_op_def(op_type).kernel
    return [name[1:] for name, v in plan.env.items()
            if v is kernel and name[0] == "K" and all(plan.env.get("A%s_%s" % (name[1:], k)) == want
                                                      for k, want in attrs.items())]


def _shared_patches_steps(plan):
    """Convolutions that keep their patch matrices and filter gradients that take them."""
    return (_fused_steps(plan, "_FusedConv2D", keep_patches=True)
            + _fused_steps(plan, "_Conv2DBackpropFilterWithPatches"))


@pytest.mark.parametrize("form", ["add", "bias_add", "bias_add_nchw"])
def test_conv_bias_relu_runs_as_one_step_bitwise(form):
    rng = np.random.RandomState(0)
    xv = rng.randn(4, 6, 6, 3).astype(np.float32)
    nchw = form == "bias_add_nchw"
    x = tf.placeholder(tf.float32, (4, 3, 6, 6) if nchw else (4, 6, 6, 3))
    f = tf.Variable(rng.randn(3, 3, 3, 5).astype(np.float32))
    b = tf.Variable(rng.randn(5).astype(np.float32))
    conv = tf.nn.conv2d(x, f, [1, 1, 1, 1], "SAME", data_format="NCHW" if nchw else "NHWC")
    pre = conv + b if form == "add" else tf.nn.bias_add(conv, b, data_format="NCHW" if nchw else "NHWC")
    y = tf.nn.relu(pre)
    loss = tf.reduce_sum(y * y)
    train = tf.train.GradientDescentOptimizer(0.01).minimize(loss)
    feed = {x: xv.transpose(0, 3, 1, 2) if nchw else xv}
    results = []
    for config in (None, INTERPRETER):
        with tf.Session(config=config) as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run(y, feed)
            sess.run(train, feed)
            results.append([first] + sess.run([f, b]))
            if config is None:
                plans = {tuple(e.fetch_map.elements): e.plan for e in sess._cache.values() if e.feed_tensors}
                assert len(_fused_steps(plans[(y,)], relu=True)) == 1
                # The training step's convolution keeps its patches for the filter gradient.
                assert len(_shared_patches_steps(plans[(train,)])) == 2
    for ours, ref in zip(*results):
        np.testing.assert_array_equal(ours, ref)
    assert (results[0][0] >= 0).all() and (results[0][0] == 0).any()


def test_conv_whose_output_is_also_fetched_is_not_fused():
    rng = np.random.RandomState(1)
    x = tf.constant(rng.randn(2, 5, 5, 2).astype(np.float32))
    p = tf.placeholder(tf.float32, [2, 2, 2, 4])
    conv = tf.nn.conv2d(x, p, [1, 1, 1, 1], "VALID")
    bv = rng.randn(4).astype(np.float32)
    y = tf.nn.relu(conv + tf.constant(bv))
    fv = rng.randn(2, 2, 2, 4).astype(np.float32)
    with tf.Session() as sess:
        c, out = sess.run([conv, y], {p: fv})
        assert _fused_steps(_plan(sess)) == []
        np.testing.assert_array_equal(sess.run(y, {p: fv}), out)
        assert len(_fused_steps(next(e.plan for e in sess._cache.values()
                                          if e.fetch_map.elements == [y]))) == 1
    np.testing.assert_array_equal(out, np.maximum(c + bv, 0))


@pytest.mark.parametrize("k,s,padding,fused", [(2, 2, "VALID", 1), (2, 2, "SAME", 1), (3, 1, "SAME", 0)])
def test_relu_grad_folds_into_max_pool_grad_bitwise(k, s, padding, fused):
    rng = np.random.RandomState(2)
    xv = rng.randn(3, 7, 6, 4).astype(np.float32)
    dyv = rng.randn(3, 7, 6, 4).astype(np.float32)
    x = tf.placeholder(tf.float32, xv.shape)
    r = tf.nn.relu(x * 2.0)
    y = tf.nn.max_pool(r, k, s, padding)
    dy = tf.placeholder(tf.float32, y.shape)
    dx = tf.gradients(y, x, grad_ys=dy)[0]
    dyv = dyv[:, :y.shape[1], :y.shape[2]]
    dyv[0, 0, 0, :2] = [np.inf, np.nan]  # non-finite gradients: NaN where either op would make one
    results = []
    for config in (None, INTERPRETER):
        with tf.Session(config=config) as sess:
            results.append(sess.run(dx, {x: xv, dy: dyv}))
            if config is None:
                assert len(_fused_steps(_plan(sess), "_ReluMaxPoolGrad")) == fused
    np.testing.assert_array_equal(results[0], results[1])
    assert np.signbit(results[0]).tolist() == np.signbit(results[1]).tolist()
    assert np.isnan(results[0]).any() and (results[0] != 0).any()


def _two_conv_training(rng, dtype=np.float32):
    """A 1-channel conv (few-channel patch layout) and a 3-channel one, each with a filter gradient."""
    xv = rng.randn(6, 9, 9, 1).astype(dtype)
    x = tf.placeholder(dtype, xv.shape)
    f1 = tf.Variable(rng.randn(3, 3, 1, 3).astype(dtype))
    f2 = tf.Variable(rng.randn(2, 2, 3, 4).astype(dtype))
    b1 = tf.Variable(rng.randn(3).astype(dtype))
    h = tf.nn.relu(tf.nn.conv2d(x, f1, [1, 1, 1, 1], "SAME") + b1)
    y = tf.nn.conv2d(h, f2, [1, 2, 2, 1], "VALID")
    train = tf.train.GradientDescentOptimizer(0.01).minimize(tf.reduce_sum(y * y))
    return {x: xv}, train, [f1, f2, b1]


def _train_values(feed, train, variables, config=None):
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train, feed)
        plan = None if config is not None else next(e.plan for e in sess._cache.values() if e.feed_tensors)
        return sess.run(variables), plan


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_filter_gradients_reuse_the_convolutions_patches_bitwise(dtype):
    feed, train, variables = _two_conv_training(np.random.RandomState(4), dtype)
    ours, plan = _train_values(feed, train, variables)
    ref, _ = _train_values(feed, train, variables, INTERPRETER)
    for a, b in zip(ours, ref):
        np.testing.assert_array_equal(a, b)
    assert len(_shared_patches_steps(plan)) == 4  # two convolutions, two filter gradients
    assert "_patches" in plan.source


def test_patches_over_the_memory_cap_are_rebuilt(monkeypatch):
    from tensorweave.ops import nn_conv2d_ops
    feed, train, variables = _two_conv_training(np.random.RandomState(5))
    ref, _ = _train_values(feed, train, variables, INTERPRETER)
    monkeypatch.setattr(nn_conv2d_ops, "MAX_KEPT_PATCHES", 0)
    x = np.ones((1, 3, 3, 2), np.float32)
    attrs = ([1, 1, 1, 1], "SAME", [], "NHWC", [1, 1, 1, 1])
    assert nn_conv2d_ops.conv2d_bias_relu(x, np.ones((2, 2, 2, 1), np.float32), None, False, *attrs,
                                          keep_patches=True)[1] is None
    ours, _ = _train_values(feed, train, variables)
    for a, b in zip(ours, ref):
        np.testing.assert_array_equal(a, b)


def test_filter_gradient_ignores_patches_of_another_geometry():
    from tensorweave.ops import nn_conv2d_ops
    rng = np.random.RandomState(6)
    x = rng.randn(2, 5, 5, 3).astype(np.float32)
    dy = rng.randn(2, 5, 5, 4).astype(np.float32)
    attrs = ([1, 1, 1, 1], "SAME", [], "NHWC", [1, 1, 1, 1])
    _, other = nn_conv2d_ops.conv2d_bias_relu(x, rng.randn(2, 2, 3, 4).astype(np.float32), None, False, *attrs,
                                              keep_patches=True)
    sizes = np.array([3, 3, 3, 4], np.int32)
    got = nn_conv2d_ops._conv2d_backprop_filter_kernel(np, x, sizes, dy, *attrs, True, patches=other)
    want = nn_conv2d_ops._conv2d_backprop_filter_kernel(np, x, sizes, dy, *attrs, True)
    np.testing.assert_array_equal(got, want)


def test_a_read_ordered_after_an_assign_sees_the_new_value_even_with_an_earlier_read():
    # TF reads a variable's buffer when the reading op runs: a read made to wait for an assign (by control
    # dependencies) sees the assigned value, although another read of the variable ran before the assign.
    v = tf.Variable(0)
    early = v.read_value()
    bump = tf.assign_add(v, 1)
    with tf.control_dependencies([bump]):
        late = v.read_value()
        late_twice = v.read_value() * 2
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run([early, late, late_twice]) == [0, 1, 2]
        assert sess.run(late) == 2 and sess.run(v) == 2
