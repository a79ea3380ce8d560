"""Space/batch/depth ops, Bitcast, LinSpace, UnravelIndex, repeat, ShapeN, ParallelConcat, EnsureShape,
CountUpTo and the top-level TF1 helpers of tensorweave/tf1_misc.py: values recorded from TensorFlow 2.21
(`tf.compat.v1`, graph mode; tests/data/make_array_misc_tf.py writes tests/data/array_misc_tf.npz),
static shapes and TF's error messages. The op table (tests/ops/op_table/rows_array_misc.py) checks the
op types against NumPy references."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context

TF = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "array_misc_tf.npz"))


def _run(t, feed=None):
    with tf.Session() as s:
        return s.run(t, feed)


@pytest.fixture(autouse=True)
def _graph():
    with tf.Graph().as_default():
        yield


def _eq(got, key, rtol=None):
    want = TF[key]
    got = np.asarray(got)
    assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
    assert got.shape == want.shape, (key, got.shape, want.shape)
    if rtol is None:
        np.testing.assert_array_equal(got, want, err_msg=key)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol, err_msg=key)


# ---- space / batch / depth ----------------------------------------------------------------------------
def test_space_to_batch_nd_values_shape_and_gradient_match_tf():
    x = tf.constant(TF["s2b_x"])
    y = tf.space_to_batch_nd(x, [2, 3], [[1, 1], [0, 0]])
    assert y.op.type == "SpaceToBatchND" and y.shape.as_list() == [12, 3, 2, 3]
    dx = tf.gradients(y, x, grad_ys=TF["s2b_up"])[0]
    got = _run([y, dx, tf.space_to_batch_nd(TF["s2b3_x"], [2], [[1, 0]]),
                tf.space_to_batch(x, [[0, 0], [1, 1]], block_size=2)])
    _eq(got[0], "s2b_y")
    _eq(got[1], "s2b_dx")
    _eq(got[2], "s2b3_y")
    _eq(got[3], "s2b_v1")
    assert tf.manip.space_to_batch_nd is tf.space_to_batch_nd and tf.nn.space_to_batch is tf.space_to_batch


def test_batch_to_space_nd_values_shape_and_gradient_match_tf():
    x = tf.constant(TF["b2s_x"])
    y = tf.batch_to_space_nd(x, [2, 3], [[1, 0], [2, 1]])
    assert y.op.type == "BatchToSpaceND" and y.shape.as_list() == [2, 3, 6, 2]
    dx = tf.gradients(y, x, grad_ys=TF["b2s_up"])[0]
    v1 = tf.batch_to_space(TF["b2s_v1_x"], [[0, 1], [1, 1]], block_size=2)
    got = _run([y, dx, v1])
    _eq(got[0], "b2s_y")
    _eq(got[1], "b2s_dx")
    _eq(got[2], "b2s_v1")
    assert tf.manip.batch_to_space_nd is tf.batch_to_space_nd


def test_space_batch_static_shapes_as_tf():
    x = tf.placeholder(tf.float32, [2, 4, 6, 3])
    b = tf.placeholder(tf.int32, [2])
    p = tf.placeholder(tf.int32, [2, 2])
    assert tf.space_to_batch_nd(x, b, p).shape.as_list() == [None, None, None, 3]
    assert tf.space_to_batch_nd(x, [2, 3], p).shape.as_list() == [12, None, None, 3]
    assert tf.space_to_batch_nd(tf.placeholder(tf.float32), [2, 3], [[0, 0], [0, 0]]).shape.ndims is None
    assert tf.batch_to_space_nd(tf.placeholder(tf.float32, [12, 4, 6, 3]), [2, 3], p).shape.as_list() == \
        [2, None, None, 3]
    assert tf.space_to_batch(x, [[0, 0], [0, 0]], 2).shape.as_list() == [8, 2, 3, 3]
    with pytest.raises(ValueError, match="Shape must be at least rank 3 but is rank 1"):
        tf.space_to_batch_nd(tf.zeros([2]), [2, 2], [[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 2 but is 3"):
        tf.space_to_batch_nd(tf.zeros([1, 3, 4, 1]), [2, 2], [[0, 0], [0, 0]])
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 2 but is 3"):
        tf.batch_to_space_nd(tf.zeros([3, 2, 2, 1]), [2, 2], [[0, 0], [0, 0]])


@pytest.mark.parametrize("build,message", [
    (lambda x: tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]), r"padded_shape\[0\]=3 is not divisible by "
                                                                  r"block_shape\[0\]=2"),
    (lambda x: tf.space_to_batch_nd(x, [2, 2], tf.placeholder_with_default([[0, -2], [0, 0]], [2, 2])),
     "Paddings must be non-negative"),
    (lambda x: tf.space_to_batch_nd(x, tf.placeholder_with_default([0, 2], [2]), [[0, 0], [0, 0]]),
     "All values in block_shape must be positive, got value, 0 at index 0."),
    (lambda x: tf.batch_to_space_nd(x, [2, 2], [[0, 0], [0, 0]]),
     r"Input batch dimension \(3\) is not divisible by product of block sizes \(4\)"),
    (lambda x: tf.batch_to_space_nd(x[:2], [1, 2], tf.placeholder_with_default([[0, 5], [0, 0]], [2, 2])),
     r"cropped_shape\[0\]=-2 must be non-negative"),
    (lambda x: tf.batch_to_space_nd(x[:2], [1, 2], tf.placeholder_with_default([[0, -1], [0, 0]], [2, 2])),
     "Crops must be non-negative"),
])
def test_space_batch_runtime_errors_as_tf(build, message):
    x = tf.placeholder_with_default(np.zeros([3, 3, 4, 1], np.float32), [None] * 4)
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        _run(build(x))


def test_space_to_batch_rank_error_at_run_time():
    x = tf.placeholder_with_default(np.zeros([4], np.float32), None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input rank should be >= 3 instead of 1"):
        _run(tf.space_to_batch_nd(x, [2, 2], [[0, 0], [0, 0]]))


def test_required_space_to_batch_paddings_match_tf():
    pads, crops = tf.required_space_to_batch_paddings([5, 7], [2, 3], base_paddings=[[1, 0], [0, 2]])
    ph = tf.placeholder_with_default(np.array([5, 7], np.int32), [2])
    p2, c2 = tf.required_space_to_batch_paddings(ph, [2, 3])
    got = _run([pads, crops, p2, c2])
    for g, k in zip(got, ["rsbp_pads", "rsbp_crops", "rsbp_pads_dyn", "rsbp_crops_dyn"]):
        _eq(g, k)


def test_depth_to_space_and_space_to_depth_match_tf():
    d = tf.depth_to_space(TF["d2s_x"], 2)
    s = tf.space_to_depth(TF["s2d_x"], 2)
    assert d.op.type == "DepthToSpace" and d.shape.as_list() == [2, 4, 6, 2]
    assert s.op.type == "SpaceToDepth" and s.shape.as_list() == [1, 2, 3, 12]
    got = _run([d, s, tf.nn.depth_to_space(TF["d2s_x"], 2), tf.nn.space_to_depth(TF["s2d_x"], 2)])
    _eq(got[0], "d2s_y")
    _eq(got[1], "s2d_y")
    _eq(got[2], "d2s_y")
    _eq(got[3], "s2d_y")


def test_depth_space_nchw_is_the_nhwc_result_transposed():
    x = np.arange(2 * 8 * 2 * 3, dtype=np.float32).reshape(2, 2, 3, 8)
    nchw = np.ascontiguousarray(x.transpose(0, 3, 1, 2))
    d = tf.depth_to_space(nchw, 2, data_format="NCHW")
    assert d.shape.as_list() == [2, 2, 4, 6]
    got, want = _run([d, tf.depth_to_space(x, 2)])
    np.testing.assert_array_equal(got, want.transpose(0, 3, 1, 2))
    s = tf.space_to_depth(got, 2, data_format="NCHW")
    np.testing.assert_array_equal(_run(s), nchw)
    assert tf.depth_to_space(tf.placeholder(tf.float32, [2, 12, None, 6]), 2, data_format="NCHW").shape.as_list() \
        == [2, 3, None, 12]


def test_depth_space_errors_as_tf():
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 4 but is 3"):
        tf.depth_to_space(tf.zeros([1, 2, 2, 3]), 2)
    with pytest.raises(ValueError, match="Dimension size must be evenly divisible by 2 but is 3"):
        tf.space_to_depth(tf.zeros([1, 3, 2, 3]), 2)
    with pytest.raises(ValueError, match="Attr 'block_size' of 'DepthToSpace' Op passed 1 less than minimum 2."):
        tf.depth_to_space(tf.zeros([1, 2, 2, 4]), 1)
    with pytest.raises(ValueError, match="Shape must be rank 4 but is rank 3"):
        tf.depth_to_space(tf.zeros([2, 2, 4]), 2)
    x = tf.placeholder_with_default(np.zeros([1, 2, 2, 3], np.float32), [None] * 4)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input depth dimension 3 should be divisible by: 4"):
        _run(tf.depth_to_space(x, 2))
    x = tf.placeholder_with_default(np.zeros([1, 3, 2, 3], np.float32), [None] * 4)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Image width 2 and height 3 should be divisible by block_size: 2"):
        _run(tf.space_to_depth(x, 2))
    x = tf.placeholder_with_default(np.zeros([2, 2, 4], np.float32), None)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input rank should be: 4 instead of: 3"):
        _run(tf.depth_to_space(x, 2))


# ---- Bitcast / LinSpace / UnravelIndex / repeat ----------------------------------------------------------
def test_bitcast_values_match_tf():
    outs = [tf.bitcast(tf.constant([1.0, -2.5, 3e-39], tf.float32), tf.uint8),
            tf.bitcast(tf.constant([[1, -2], [2**40 + 3, -2**50]], tf.int64), tf.int32),
            tf.bitcast(tf.constant([[0, 0, 128, 63], [0, 0, 192, 255]], tf.uint8), tf.float32),
            tf.bitcast(tf.constant([1 + 2j, -3.5j], tf.complex128), tf.float64),
            tf.bitcast(tf.constant([1.0, -0.0, np.inf], tf.float16), tf.int16)]
    for got, k in zip(_run(outs), ["bc_f32_u8", "bc_i64_i32", "bc_u8_f32", "bc_c128_f64", "bc_f16_i16"]):
        _eq(got, k)


def test_bitcast_shapes_and_errors_as_tf():
    assert tf.bitcast(tf.placeholder(tf.int32, [None, 2]), tf.int64).shape.as_list() == [None]
    assert tf.bitcast(tf.placeholder(tf.int32), tf.int64).shape.ndims is None
    assert tf.bitcast(tf.placeholder(tf.int64, [None]), tf.int8).shape.as_list() == [None, 8]
    with pytest.raises(ValueError, match="Cannot bitcast from 3 to 9 due to shape. 3 does not match 2"):
        tf.bitcast(tf.constant([1, 2, 3], tf.int32), tf.int64)
    with pytest.raises(ValueError, match="Shape must be at least rank 1 but is rank 0"):
        tf.bitcast(tf.constant(1, tf.int32), tf.int64)
    with pytest.raises(TypeError, match="parameter 'input' has DataType bool not in list of allowed values"):
        tf.bitcast(tf.constant([True]), tf.uint8)
    with pytest.raises(TypeError, match="parameter 'type' has DataType bool not in list"):
        tf.bitcast(tf.constant([1.0]), tf.bool)
    x = tf.placeholder_with_default(np.array([1, 2, 3], np.int32), [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot bitcast from 3 to 9"):
        _run(tf.bitcast(x, tf.int64))


def test_lin_space_values_match_tf_linspace_op():
    cases = [(0.1, 0.7, 7, tf.float32), (-1.3, 2.9, 11, tf.float32), (0.1, 1.7, 7, tf.float64),
             (3.0, -1.0, 5, tf.float64), (0.5, 0.2, 1, tf.float32)]
    outs = [tf.lin_space(tf.constant(a, dt), tf.constant(b, dt), n) for a, b, n, dt in cases]
    assert outs[0].op.type == "LinSpace" and tf.linspace is tf.lin_space
    for i, got in enumerate(_run(outs)):
        _eq(got, "ls_%d" % i)


def test_lin_space_shapes_and_errors_as_tf():
    assert tf.lin_space(0.0, 1.0, tf.placeholder(tf.int32)).shape.as_list() == [None]
    with pytest.raises(ValueError, match="Requires num > 0: 0"):
        tf.lin_space(0.1, 0.7, 0)
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.lin_space([0.1], 0.7, 3)
    with pytest.raises(TypeError, match="parameter 'start' has DataType int32 not in list"):
        tf.lin_space(1, 7, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires num > 0: 0"):
        _run(tf.lin_space(0.1, 0.7, tf.placeholder_with_default(0, [])))
    assert tf.gradients(tf.lin_space(tf.constant(0.0), 1.0, 3), tf.constant(0.0)) == [None]


def test_unravel_index_values_shapes_and_errors_as_tf():
    outs = [tf.unravel_index([0, 5, 7, 8, -1, -4], [3, 3]),
            tf.unravel_index(tf.constant([23, 0, 13], tf.int64), tf.constant([2, 3, 4], tf.int64)),
            tf.unravel_index(17, [4, 5])]
    for got, k in zip(_run(outs), ["ur_a", "ur_b", "ur_c"]):
        _eq(got, k)
    assert tf.unravel_index(tf.placeholder(tf.int32, [None]), [3, 3]).shape.as_list() == [2, None]
    assert tf.unravel_index(tf.placeholder(tf.int32, []), tf.placeholder(tf.int32, [None])).shape.as_list() == [None]
    assert tf.unravel_index(tf.placeholder(tf.int32), [2, 2]).shape.ndims is None
    with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
        tf.unravel_index([1], [[3, 3]])
    with pytest.raises(TypeError, match="Input 'dims' of 'UnravelIndex' Op has type int32 that does not match"):
        tf.unravel_index(tf.constant([1], tf.int64), tf.constant([3, 3]))
    for idx, dims, msg in [([9], [3, 3], "index is out of bound as with dims"),
                           ([[1, 2]], [3, 3], r'The indices can only be scalar or vector, got "\[1,2\]"'),
                           ([1], [3, 0], "Input dims cannot contain a dim of zero, but dims contains zero at index 1"),
                           ([1], [3, -1], "Input dims cannot be negative. Got dim = -1 at index 1")]:
        with pytest.raises(tf.errors.InvalidArgumentError, match=msg):
            _run(tf.unravel_index(idx, dims))


def test_repeat_values_and_gradient_match_tf():
    rx = tf.constant([[1., 2., 3.], [4., 5., 6.]])
    rr = tf.repeat(rx, [2, 0, 1], axis=1)
    grad = tf.gradients(rr * tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3)), rx)[0]
    outs = [tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0), tf.repeat([[1, 2], [3, 4]], 2), rr,
            tf.repeat([[1., 2., 3.], [4., 5., 6.]], 3, axis=-1), grad]
    for got, k in zip(_run(outs), ["rep_a", "rep_b", "rep_c", "rep_d", "rep_grad"]):
        _eq(got, k)
    np.testing.assert_array_equal(_run(tf.repeat(3, 4)), [3, 3, 3, 3])
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.repeat([[1, 2], [3, 4]], [1, 2, 3], axis=1)
    with pytest.raises(ValueError, match="must have rank at most 1"):
        tf.repeat([[1, 2], [3, 4]], [[2]], axis=1)


# ---- ShapeN / ParallelConcat / EnsureShape / GuaranteeConst ----------------------------------------------------
def test_shape_n_parallel_stack_guarantee_const():
    a, b = tf.shape_n([tf.zeros([2, 3]), tf.placeholder(tf.float32, [None])], out_type=tf.int64)
    assert a.op.type == "ShapeN" and a.dtype == tf.int64 and a.shape.as_list() == [2] and b.shape.as_list() == [1]
    got = _run([a, b], {b.op.inputs[1]: np.zeros(4, np.float32)})
    np.testing.assert_array_equal(got[0], [2, 3])
    np.testing.assert_array_equal(got[1], [4])
    p = tf.parallel_stack([tf.constant([1, 2]), tf.constant([3, 4])])
    assert p.op.type == "ParallelConcat" and p.shape.as_list() == [2, 2]
    np.testing.assert_array_equal(_run(p), [[1, 2], [3, 4]])
    gc = tf.guarantee_const(tf.constant([1.5, 2.0]))
    assert gc.op.type == "GuaranteeConst"
    np.testing.assert_array_equal(_run(gc), [1.5, 2.0])
    with pytest.raises(LookupError):
        tf.gradients(gc, gc.op.inputs[0])


def test_parallel_stack_refuses_eager():
    with context.eager_mode():
        with pytest.raises(RuntimeError, match="not compatible with eager execution"):
            tf.parallel_stack([tf.constant([1, 2])])


def test_ensure_shape_as_tf():
    x = tf.placeholder(tf.float32, [None, 3])
    e = tf.ensure_shape(x, [2, None])
    assert e.op.type == "EnsureShape" and e.shape.as_list() == [2, 3]
    assert tf.ensure_shape(tf.placeholder(tf.float32), None).shape.ndims is None
    np.testing.assert_array_equal(_run(e, {x: np.ones([2, 3])}), np.ones([2, 3]))
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but are 3 and 2"):
        tf.ensure_shape(tf.constant([1, 2, 3]), [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"\[1,3\] is not compatible with expected shape \[3\]"):
        _run(tf.ensure_shape(tf.placeholder_with_default([[1, 2, 3]], None), [3]))
    g = tf.gradients(tf.reduce_sum(e * 2.0), x)[0]
    np.testing.assert_array_equal(_run(g, {x: np.ones([2, 3])}), np.full([2, 3], 2.0))


# ---- CountUpTo ------------------------------------------------------------------------------------------
def test_count_up_to_counts_then_raises_out_of_range():
    v = tf.Variable(0, name="cv")
    c = tf.count_up_to(v, 2)
    assert c.op.type == "CountUpTo" and c.shape.as_list() == [] and c.dtype == tf.int32
    with tf.Session() as s:
        s.run(v.initializer)
        assert s.run(c) == 0 and s.run(c) == 1
        with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 2"):
            s.run(c)
        assert s.run(v) == 2
    with pytest.raises(ValueError, match="Shape must be rank 0"):
        tf.count_up_to(tf.Variable([0, 1]), 3)
    with pytest.raises(TypeError, match="DataType float32 not in list"):
        tf.count_up_to(tf.Variable(0.0), 3)


# ---- tf1_misc: gradients, control flow, variables, enums ---------------------------------------------------------
def test_hessians_match_tf():
    hx = tf.constant([0.5, -1.0, 2.0])
    hy = tf.reduce_sum(tf.sin(hx) * hx[0]) + hx[1] ** 3 * hx[2]
    hm = tf.constant([[1.0, 2.0], [3.0, -1.0]])
    h2 = tf.hessians(tf.reduce_prod(hm) + tf.reduce_sum(hm ** 3), hm)[0]
    assert h2.shape.as_list() == [2, 2, 2, 2] or h2.shape.ndims == 4
    got = _run([tf.hessians(hy, hx)[0], h2])
    _eq(got[0], "hess", rtol=1e-6)
    _eq(got[1], "hess_m", rtol=1e-6)
    with pytest.raises(NotImplementedError, match="fully defined static shape"):
        p = tf.placeholder(tf.float32, [None])
        tf.hessians(tf.reduce_sum(p ** 3), p)


def test_recompute_grad_and_grad_pass_through_match_tf():
    x = tf.constant([0.3, -1.2, 2.0])
    rc = tf.recompute_grad(lambda t: tf.tanh(t) * t)
    gpt = tf.grad_pass_through(lambda t: tf.round(t * 2.0))
    got = _run([rc(x), tf.gradients(tf.reduce_sum(rc(x) ** 2), x)[0], gpt(x), tf.gradients(gpt(x) * x, x)[0]])
    for g, k in zip(got, ["recompute_val", "recompute_grad", "gpt_val", "gpt_grad"]):
        _eq(g, k, rtol=1e-6)


def test_recompute_grad_recomputes_in_the_backward_pass():
    x = tf.constant([0.3, -1.2])
    calls = []

    def f(t):
        calls.append(1)
        return tf.exp(t)
    y = tf.recompute_grad(f)(x)
    tf.gradients(y, x)
    assert len(calls) == 2  # once forward, once when the gradient is built


def test_vectorized_map_matches_tf():
    x = tf.constant(TF["vm_x"])
    a = tf.vectorized_map(lambda e: tf.reduce_sum(e * e), TF["vm_x"])
    b0, b1 = tf.vectorized_map(lambda e: (e[0] * 2.0, tf.tensordot(e[1], e[0], 1)), (x, tf.ones([4, 3])))
    grad = tf.gradients(tf.vectorized_map(lambda e: tf.sin(e) * e[0], x), x)[0]
    assert a.shape.as_list() == [4] and b0.shape.as_list() == [4, 3]
    got = _run([a, b0, b1, grad])
    for g, k in zip(got, ["vm_a", "vm_b0", "vm_b1", "vm_grad"]):
        _eq(g, k, rtol=1e-6)


def test_switch_case_values_defaults_and_gradients_match_tf():
    outs = []
    for k in (0, 1, 2, 7, -1):
        sx = tf.constant([1.0, 2.0, 3.0])
        out = tf.switch_case(tf.constant(k), [lambda: sx * 2.0, lambda: tf.square(sx), lambda: -sx])
        outd = tf.switch_case(tf.constant(k), {1: lambda: sx * 2.0, 0: lambda: tf.square(sx)},
                              default=lambda: sx * 0.0 + 9.0)
        outs.append((k % 10, out, tf.gradients(out, sx)[0], outd))
    got = _run([o[1:] for o in outs])
    for (k, _, _, _), (v, g, d) in zip(outs, got):
        _eq(v, "sc_%d" % k)
        _eq(g, "sc_grad_%d" % k)
        _eq(d, "scd_%d" % k)
    with pytest.raises(ValueError, match="must form contiguous range"):
        tf.switch_case(tf.constant(0), {0: lambda: 1.0, 2: lambda: 2.0})
    with pytest.raises(TypeError, match="branch_fns must be a list, tuple, or dict"):
        tf.switch_case(tf.constant(0), lambda: 1.0)
    with pytest.raises(TypeError, match="'branch_index' must be a Tensor"):
        tf.switch_case(1, [lambda: 1.0, lambda: 2.0])
    with pytest.raises(TypeError, match="has type int64 that does not match expected type of int32"):
        tf.switch_case(tf.constant(1, tf.int64), [lambda: 1.0, lambda: 2.0])


def test_batch_scatter_update_and_assert_variables_initialized():
    v = tf.Variable(np.zeros((2, 4, 3), np.float32))
    u = tf.batch_scatter_update(v, [[2, 0], [1, 3]], TF["bsu_upd"])
    check = tf.assert_variables_initialized([v])
    with tf.Session() as s:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
            s.run(check)
        s.run(v.initializer)
        assert s.run(check) == 3
        _eq(s.run(u), "bsu")
    with tf.Graph().as_default():
        assert tf.assert_variables_initialized() is None


def test_small_helpers_as_tf():
    assert tf.dimension_value(tf.Dimension(None)) is None and tf.dimension_value(tf.Dimension(3)) == 3
    assert tf.dimension_value(4) == 4
    d = tf.dimension_at_index(tf.TensorShape([2, None]), 0)
    assert isinstance(d, tf.Dimension) and d.value == 2
    assert tf.dimension_at_index(tf.TensorShape(None), 1).value is None
    assert tf.NoGradient is tf.no_gradient
    assert (tf.AggregationMethod.ADD_N, tf.AggregationMethod.DEFAULT, tf.AggregationMethod.EXPERIMENTAL_TREE,
            tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N) == (0, 0, 1, 2)
    assert [m.value for m in tf.VariableAggregation] == [0, 1, 2, 3]
    assert [m.name for m in tf.VariableSynchronization] == ["AUTO", "NONE", "ON_WRITE", "ON_READ"]
    v = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_WRITE, aggregation=tf.VariableAggregation.SUM)
    w = tf.get_variable("w", [2], aggregation=tf.VariableAggregation.MEAN)
    assert v.dtype == tf.float32
    assert w.shape.as_list() == [2]
    assert tf.no_regularizer(v) is None
    x = tf.constant([1.0])
    with tf.op_scope([x], None, "myop") as scope:
        assert scope == "myop/"
    assert tf.is_symbolic_tensor(x) and not tf.is_symbolic_tensor(1.0)
    assert tf.executing_eagerly_outside_functions() is False
    with context.eager_mode():
        assert not tf.is_symbolic_tensor(tf.constant(1.0))
    s = tf.IndexedSlices(tf.constant([[1.0]]), tf.constant([0]), tf.constant([2, 1]))
    assert tf.convert_to_tensor_or_indexed_slices(s) is s
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int32"):
        tf.convert_to_tensor_or_indexed_slices(s, dtype=tf.int32)
    assert tf.convert_to_tensor_or_indexed_slices([1, 2]).dtype == tf.int32


def test_tf1_behaviour_switches_select_what_tensorweave_does():
    tf.disable_v2_tensorshape()
    tf.disable_resource_variables()
    tf.disable_tensor_equality()
    assert tf.resource_variables_enabled() is False
    x = tf.placeholder(tf.float32, [3, None])
    assert isinstance(x.shape[0], tf.Dimension)  # v1 TensorShape
    assert (x == x) is True and (x == tf.identity(x)) is False  # identity equality
    assert tf.Variable(1.0).op.type == "VariableV2"  # reference variables


def test_python_level_names_run_eagerly():
    with context.eager_mode():
        x = tf.constant([[1., 2., 3.], [4., 5., 6.]])
        np.testing.assert_array_equal(tf.repeat(x, [2, 0, 1], axis=1).numpy(), TF["rep_c"])
        np.testing.assert_array_equal(tf.switch_case(tf.constant(1), [lambda: x, lambda: x * 2]).numpy(), 2 * x.numpy())
        np.testing.assert_array_equal(tf.vectorized_map(lambda e: tf.reduce_sum(e), x).numpy(), [6., 15.])
        rc = tf.recompute_grad(lambda t: tf.tanh(t) * t)
        x2 = tf.constant([0.3, -1.2, 2.0])
        with tf.GradientTape() as tape:
            tape.watch(x2)
            y = tf.reduce_sum(rc(x2) ** 2)
        np.testing.assert_allclose(tape.gradient(y, x2).numpy(), TF["recompute_grad"], rtol=1e-6)
        assert tf.executing_eagerly_outside_functions() is True
        v = tf.Variable(0)
        assert tf.count_up_to(v, 3).numpy() == 0 and v.numpy() == 1
        np.testing.assert_array_equal(tf.space_to_batch_nd(TF["s2b_x"], [2, 3], [[1, 1], [0, 0]]).numpy(),
                                      TF["s2b_y"])


def test_with_space_to_batch_matches_tf():
    wf = TF["wstb_f"]

    def conv(inp, num_spatial_dims, padding):
        assert num_spatial_dims == 2
        return tf.nn.conv2d(inp, wf, [1, 1, 1, 1], padding)
    wx = TF["wstb_x"]
    same = tf.nn.with_space_to_batch(wx, [2, 3], "SAME", conv, filter_shape=wf.shape)
    assert same.shape.as_list() == [2, 7, 8, 4]
    outs = [same, tf.nn.with_space_to_batch(wx, [2, 2], "VALID", conv),
            tf.nn.with_space_to_batch(tf.placeholder_with_default(wx, [None] * 4), [3, 2], "SAME", conv,
                                      filter_shape=wf.shape),
            tf.nn.with_space_to_batch(wx, [1, 1], "SAME", conv, filter_shape=wf.shape),
            tf.nn.with_space_to_batch(TF["wstb_nchw_x"], [2, 2], "VALID", lambda i, n, p: i[:, :, 1:, :-1] * 2.0,
                                      data_format="NCHW"),
            tf.nn.with_space_to_batch(TF["wstb_nchw_x"], [3, 2], "VALID", lambda i, n, p: i[:, 1:, :, :-1] + 1.0,
                                      spatial_dims=[1, 3])]
    got = _run(outs)
    for g, k in zip(got, ["wstb_same", "wstb_valid", "wstb_dyn", "wstb_rate1", "wstb_nchw", "wstb_dims"]):
        _eq(g, k, rtol=2e-5)
    with pytest.raises(ValueError, match="`filter_shape` must be specified"):
        tf.nn.with_space_to_batch(wx, [2, 2], "SAME", conv)
    with pytest.raises(ValueError, match="monotonically increasing"):
        tf.nn.with_space_to_batch(wx, [2, 2], "VALID", conv, spatial_dims=[2, 1])


def test_container_sets_the_container_of_variables():
    with tf.container("experiment0") as name:
        v = tf.Variable(1.0)
        w = tf.get_variable("w", [2])
    u = tf.Variable(2.0)
    assert name == "experiment0"
    assert v.op.get_attr("container") == "experiment0" and w.op.get_attr("container") == "experiment0"
    assert u.op.get_attr("container") == ""
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        assert s.run(v) == 1.0 and s.run(u) == 2.0


GRAPH_NAMES = ["d2s", "s2d", "lrn", "s2b", "b2s", "bc", "es", "ls", "ur", "sn", "sn:1", "gc", "lrn_grad"]


def test_a_tf_graph_def_with_these_ops_imports_and_runs_as_tf():
    gd = tf.GraphDef()
    gd.ParseFromString(TF["graph_pb"].tobytes())
    res = tf.import_graph_def(gd, return_elements=[n if ":" in n else n + ":0" for n in GRAPH_NAMES], name="")
    got = _run(res, {"x:0": TF["graph_x"]})
    for n, g in zip(GRAPH_NAMES, got):
        _eq(g, "graph_" + n.replace(":", "_"), rtol=None if n not in ("lrn", "lrn_grad") else 2e-6)


def test_graph_def_round_trip_keeps_shape_attributes():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    outs = [tf.ensure_shape(x, [2, None]), tf.parallel_stack([x[0], x[1]]),
            tf.depth_to_space(tf.zeros([1, 1, 1, 4]), 2), tf.count_up_to(tf.Variable(0), 3)]
    gd = tf.get_default_graph().as_graph_def()
    with tf.Graph().as_default():
        res = tf.import_graph_def(gd, return_elements=[o.name for o in outs[:3]], name="")
        assert res[0].shape.as_list() == [2, 3] and res[1].shape.as_list() == [2, 3]
        got = _run(res, {"x:0": np.ones((2, 3), np.float32)})
    np.testing.assert_array_equal(got[0], np.ones((2, 3)))
    np.testing.assert_array_equal(got[1], np.ones((2, 3)))
    assert got[2].shape == (1, 2, 2, 1)


def test_variable_count_up_to_method():
    v = tf.Variable(np.int64(5))
    c = v.count_up_to(6)
    assert c.op.type == "CountUpTo" and c.dtype == tf.int64
    with tf.Session() as s:
        s.run(v.initializer)
        assert s.run(c) == 5
        with pytest.raises(tf.errors.OutOfRangeError, match="Reached limit of 6"):
            s.run(c)
