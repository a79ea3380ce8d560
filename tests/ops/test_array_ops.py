"""Array ops: forward values vs NumPy, static shapes (incl. partial), gradients, __getitem__,
auto-packing and error paths."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework.indexed_slices import IndexedSlices
from tensorweave.ops import array_join_ops, array_ops
from tests.ops.op_harness import check_forward, check_gradient

rng = np.random.RandomState(0)


def _r(*shape, dtype=np.float64):
    return rng.uniform(-2.0, 2.0, size=shape).astype(dtype)


X = _r(3, 4, dtype=np.float32)
X3 = _r(2, 3, 4, dtype=np.float32)
X4 = _r(1, 3, 1, 2, dtype=np.float32)
I32 = np.arange(12, dtype=np.int32).reshape(3, 4)


def _run(t, feed=None):
    g = (t[0] if isinstance(t, (list, tuple)) else t).graph
    with tf.Session(graph=g) as sess:
        return sess.run(t, feed)


def _np_pad(x, p, **kw):
    return np.pad(x, p, **kw)


def _np_reverse_sequence(x, lengths, seq_axis, batch_axis):
    out = x.copy()
    for b, n in enumerate(lengths):
        idx = [slice(None)] * x.ndim
        idx[batch_axis] = b
        idx[seq_axis] = slice(0, n)
        sub = x[tuple(idx)]
        out[tuple(idx)] = np.flip(sub, axis=seq_axis - (1 if batch_axis < seq_axis else 0))
    return out


def _np_top_k(x, k):
    idx = np.argsort(-x, axis=-1, kind="stable")[..., :k].astype(np.int32)
    return [np.take_along_axis(x, idx, -1), idx]


# ---- forward values (known and unknown placeholder shapes) -------------------------------------
FORWARD = [
    ("fill_value", lambda v: tf.fill([2, 3], v), lambda v: np.full((2, 3), v), [np.float32(1.5)]),
    ("fill_dims", lambda d: tf.fill(d, 2.0), lambda d: np.full(d, 2.0, np.float32), [np.array([2, 3], np.int32)]),
    ("zeros_dims", lambda d: tf.zeros(d), lambda d: np.zeros(d, np.float32), [np.array([2, 1], np.int32)]),
    ("ones_dims_int", lambda d: tf.ones(d, tf.int64), lambda d: np.ones(d, np.int64), [np.array([3], np.int32)]),
    ("zeros_tensor_list", lambda x: tf.zeros([tf.shape(x)[0], 2], tf.int32),
     lambda x: np.zeros((3, 2), np.int32), [X]),
    ("zeros_like_list", lambda x: tf.zeros(tf.shape(x), tf.bool), lambda x: np.zeros(x.shape, bool), [X]),
    ("reshape", lambda x: tf.reshape(x, [4, 3]), lambda x: x.reshape(4, 3), [X]),
    ("reshape_flat", lambda x: tf.reshape(x, [-1]), lambda x: x.reshape(-1), [X3]),
    ("reshape_mid", lambda x: tf.reshape(x, [2, -1, 2]), lambda x: x.reshape(2, -1, 2), [X3]),
    ("reshape_dyn", lambda x: tf.reshape(x, [tf.shape(x)[0], -1]), lambda x: x.reshape(2, -1), [X3]),
    ("reshape_scalar", lambda x: tf.reshape(x, []), lambda x: x.reshape(()), [np.array([7.0], np.float32)]),
    ("reshape_shape_t", lambda x, s: tf.reshape(x, s), lambda x, s: x.reshape(s), [X, np.array([6, 2], np.int64)]),
    ("size", lambda x: tf.size(x), lambda x: np.int32(x.size), [X3]),
    ("size_int64", lambda x: tf.size(x, out_type=tf.int64), lambda x: np.int64(x.size), [X3]),
    ("rank", lambda x: tf.rank(x), lambda x: np.int32(x.ndim), [X3]),
    ("squeeze_all", lambda x: tf.squeeze(x), lambda x: np.squeeze(x), [X4]),
    ("squeeze_axis", lambda x: tf.squeeze(x, axis=[0]), lambda x: np.squeeze(x, 0), [X4]),
    ("squeeze_int", lambda x: tf.squeeze(x, 2), lambda x: np.squeeze(x, 2), [X4]),
    ("squeeze_dims", lambda x: tf.squeeze(x, squeeze_dims=[-2, 0]), lambda x: np.squeeze(x, (0, 2)), [X4]),
    ("expand_dims0", lambda x: tf.expand_dims(x, 0), lambda x: x[None], [X]),
    ("expand_dims_neg", lambda x: tf.expand_dims(x, -1), lambda x: x[..., None], [X]),
    ("expand_dims_dim", lambda x: tf.expand_dims(x, dim=1), lambda x: x[:, None], [X]),
    ("concat0", lambda x, y: tf.concat([x, y], 0), lambda x, y: np.concatenate([x, y], 0), [X, X * 2]),
    ("concat1", lambda x, y: tf.concat([x, y, x], 1), lambda x, y: np.concatenate([x, y, x], 1),
     [X, _r(3, 2, dtype=np.float32)]),
    ("concat_neg", lambda x, y: tf.concat([x, y], -1), lambda x, y: np.concatenate([x, y], -1), [X3, X3]),
    ("concat_list_value", lambda x: tf.concat([x, [[1, 2, 3, 4]]], 0),
     lambda x: np.concatenate([x, [[1, 2, 3, 4]]], 0), [I32]),
    ("concat_one", lambda x: tf.concat([x], 0), lambda x: x, [X]),
    ("stack0", lambda x, y: tf.stack([x, y]), lambda x, y: np.stack([x, y]), [X, X + 1]),
    ("stack1", lambda x, y: tf.stack([x, y], axis=1), lambda x, y: np.stack([x, y], 1), [X, X + 1]),
    ("stack_neg", lambda x, y: tf.stack([x, y, x], axis=-1), lambda x, y: np.stack([x, y, x], -1), [X, X + 1]),
    ("stack_scalars", lambda x: tf.stack([x, 2.0, 3.0]), lambda x: np.array([x, 2, 3], np.float32),
     [np.float32(1.0)]),
    ("unstack0", lambda x: tf.unstack(x, num=3), lambda x: list(x), [X]),
    ("unstack1", lambda x: tf.unstack(x, num=4, axis=1), lambda x: list(x.T), [X]),
    ("unstack_neg", lambda x: tf.unstack(x, num=4, axis=-1), lambda x: list(np.moveaxis(x, -1, 0)), [X3]),
    ("split_count", lambda x: tf.split(x, 2, axis=1), lambda x: np.split(x, 2, 1), [X]),
    ("split_count0", lambda x: tf.split(x, 3), lambda x: np.split(x, 3, 0), [X]),
    ("split_one", lambda x: tf.split(x, 1), lambda x: [x], [X]),
    ("split_sizes", lambda x: tf.split(x, [1, -1, 2], axis=1), lambda x: np.split(x, [1, 2], 1), [X]),
    ("split_sizes_tensor", lambda x: tf.split(x, tf.constant([2, 1]), 0), lambda x: np.split(x, [2], 0), [X]),
    ("tile", lambda x: tf.tile(x, [2, 1]), lambda x: np.tile(x, (2, 1)), [X]),
    ("tile3", lambda x: tf.tile(x, [1, 3, 2]), lambda x: np.tile(x, (1, 3, 2)), [X3]),
    ("tile_int64", lambda x: tf.tile(x, tf.constant([2, 2], tf.int64)), lambda x: np.tile(x, (2, 2)), [I32]),
    ("transpose", lambda x: tf.transpose(x), lambda x: x.T, [X]),
    ("transpose3", lambda x: tf.transpose(x), lambda x: x.transpose(2, 1, 0), [X3]),
    ("transpose_perm", lambda x: tf.transpose(x, [2, 0, 1]), lambda x: x.transpose(2, 0, 1), [X3]),
    ("transpose_conj", lambda x: tf.transpose(x, conjugate=True), lambda x: np.conj(x.T),
     [(X + 1j * X[::-1]).astype(np.complex64)]),
    ("invert_permutation", lambda p: tf.invert_permutation(p), lambda p: np.argsort(p).astype(np.int32),
     [np.array([2, 0, 3, 1], np.int32)]),
    ("slice", lambda x: tf.slice(x, [1, 0], [2, -1]), lambda x: x[1:3, :], [X]),
    ("slice3", lambda x: tf.slice(x, [0, 1, 2], [-1, 2, 1]), lambda x: x[:, 1:3, 2:3], [X3]),
    ("slice_tensor_args", lambda x, b: tf.slice(x, b, [1, 2]), lambda x, b: x[1:2, 2:4],
     [X, np.array([1, 2], np.int32)]),
    ("strided_slice", lambda x: tf.strided_slice(x, [0, 3], [3, 0], [2, -1]), lambda x: x[0:3:2, 3:0:-1], [X]),
    ("strided_slice_masks", lambda x: tf.strided_slice(x, [1, 0, 0], [0, 2, 1], begin_mask=2, end_mask=1,
                                                       shrink_axis_mask=4),
     lambda x: x[1:, :2, 0], [X3]),
    ("strided_slice_newaxis_ellipsis", lambda x: tf.strided_slice(x, [0, 0, 1], [0, 0, 2], ellipsis_mask=2,
                                                                  new_axis_mask=1),
     lambda x: x[None, ..., 1:2], [X3]),
    ("gather0", lambda x: tf.gather(x, [2, 0, 2]), lambda x: x[[2, 0, 2]], [X]),
    ("gather_2d_idx", lambda x: tf.gather(x, [[0, 1], [2, 2]]), lambda x: x[[[0, 1], [2, 2]]], [X]),
    ("gather_axis1", lambda x: tf.gather(x, [2, 0], axis=1), lambda x: x[:, [2, 0]], [X3]),
    ("gather_axis_neg", lambda x: tf.gather(x, [0, 0, 3], axis=-1), lambda x: x[..., [0, 0, 3]], [X3]),
    ("gather_idx_t", lambda x, i: tf.gather(x, i, validate_indices=True), lambda x, i: x[i],
     [X, np.array([1, 2], np.int64)]),
    ("gather_scalar_idx", lambda x: tf.gather(x, 1), lambda x: x[1], [X]),
    ("gather_nd", lambda x: tf.gather_nd(x, [[0, 1], [2, 3]]), lambda x: x[[0, 2], [1, 3]], [X]),
    ("gather_nd_rows", lambda x: tf.gather_nd(x, [[1], [0]]), lambda x: x[[1, 0]], [X3]),
    ("gather_nd_batch", lambda x: tf.gather_nd(x, [[[0, 0]], [[1, 2]]]), lambda x: x[[[0], [1]], [[0], [2]]],
     [X3]),
    ("scatter_nd", lambda u: tf.scatter_nd([[0], [2]], u, [4, 4]),
     lambda u: np.stack([u[0], np.zeros(4), u[1], np.zeros(4)]).astype(np.float32), [X[:2]]),
    ("scatter_nd_dups", lambda u: tf.scatter_nd([[1, 1], [0, 2], [1, 1]], u, tf.constant([2, 3])),
     lambda u: np.array([[0, 0, u[1]], [0, u[0] + u[2], 0]], np.float32), [np.array([1, 2, 3], np.float32)]),
    ("one_hot", lambda i: tf.one_hot(i, 3), lambda i: np.eye(3, dtype=np.float32)[i] * (i[:, None] < 3),
     [np.array([0, 2, 1, 2], np.int32)]),
    ("one_hot_oob", lambda i: tf.one_hot(i, 3, on_value=5, off_value=-1, axis=0),
     lambda i: np.array([[5, -1, -1, -1], [-1, -1, -1, -1], [-1, 5, -1, -1]], np.int32),
     [np.array([0, 2, -1, 7], np.int64)]),
    ("one_hot_dtype", lambda i: tf.one_hot(i, 2, dtype=tf.float64), lambda i: np.eye(2)[i],
     [np.array([[0, 1], [1, 1]], np.int32)]),
    ("pad", lambda x: tf.pad(x, [[1, 0], [2, 1]]), lambda x: _np_pad(x, [[1, 0], [2, 1]]), [X]),
    ("pad_value", lambda x: tf.pad(x, [[0, 1], [1, 1]], constant_values=3),
     lambda x: _np_pad(x, [[0, 1], [1, 1]], constant_values=3), [I32]),
    ("pad_reflect", lambda x: tf.pad(x, [[2, 1], [3, 3]], "REFLECT"),
     lambda x: _np_pad(x, [[2, 1], [3, 3]], mode="reflect"), [X]),
    ("pad_symmetric", lambda x: tf.pad(x, [[3, 1], [0, 4]], mode="symmetric"),
     lambda x: _np_pad(x, [[3, 1], [0, 4]], mode="symmetric"), [X]),
    ("reverse0", lambda x: tf.reverse(x, [0]), lambda x: x[::-1], [X]),
    ("reverse_both", lambda x: tf.reverse(x, [1, 0]), lambda x: x[::-1, ::-1], [X]),
    ("reverse_neg", lambda x: tf.reverse(x, axis=[-1]), lambda x: x[..., ::-1], [X3]),
    ("reverse_none", lambda x: tf.reverse(x, np.zeros([0], np.int32)), lambda x: x, [X]),
    ("reverse_sequence", lambda x: tf.reverse_sequence(x, [4, 0, 2], seq_axis=1, batch_axis=0),
     lambda x: _np_reverse_sequence(x, [4, 0, 2], 1, 0), [X]),
    ("reverse_sequence_dim", lambda x: tf.reverse_sequence(x, [1, 3], seq_dim=1, batch_dim=0),
     lambda x: _np_reverse_sequence(x, [1, 3], 1, 0), [X3]),
    ("range_limit", lambda n: tf.range(n), lambda n: np.arange(n, dtype=np.int32), [np.int32(5)]),
    ("range_step", lambda n: tf.range(1, n, 3), lambda n: np.arange(1, n, 3, dtype=np.int32), [np.int32(11)]),
    ("range_neg", lambda n: tf.range(n, 0, -2), lambda n: np.arange(n, 0, -2, dtype=np.int32), [np.int32(7)]),
    ("range_float", lambda d: tf.range(0.0, 1.0, d), lambda d: np.arange(0, 1, 0.1, dtype=np.float32),
     [np.float32(0.1)]),
    ("range_mixed", lambda n: tf.range(0, n, 0.5), lambda n: np.arange(0, n, 0.5, dtype=np.float32),
     [np.int32(3)]),
    ("where_coords", lambda c: tf.where(c), lambda c: np.argwhere(c).astype(np.int64),
     [np.array([[True, False], [False, True], [True, True]])]),
    ("where_coords_num", lambda x: tf.where(x), lambda x: np.argwhere(x).astype(np.int64),
     [np.array([0, 3, 0, -1], np.int32)]),
    ("where_select", lambda c, x, y: tf.where(c, x, y), np.where,
     [np.array([[True, False], [False, True]]), X[:2, :2], X[1:, 2:]]),
    ("where_rows", lambda c, x, y: tf.where(c, x, y), lambda c, x, y: np.where(c[:, None], x, y),
     [np.array([True, False, True]), X, -X]),
    ("where_scalar", lambda c, x, y: tf.where(c, x, y), lambda c, x, y: x, [np.bool_(True), X, -X]),
    ("where_v2", lambda c, x: tf.where_v2(c, x, 0.0), lambda c, x: np.where(c, x, np.float32(0)),
     [np.array([True, False, True, False]), X]),
    ("boolean_mask", lambda x: tf.boolean_mask(x, [True, False, True]), lambda x: x[[0, 2]], [X]),
    ("boolean_mask_2d", lambda x, m: tf.boolean_mask(x, m), lambda x, m: x[m],
     [X3, rng.rand(2, 3) > 0.5]),
    ("boolean_mask_axis", lambda x: tf.boolean_mask(x, [False, True, True, False], axis=1),
     lambda x: x[:, [1, 2]], [X]),
    ("sequence_mask", lambda n: tf.sequence_mask(n, 4), lambda n: np.arange(4) < n[:, None],
     [np.array([1, 3, 0], np.int32)]),
    ("sequence_mask_default", lambda n: tf.sequence_mask(n, dtype=tf.float32),
     lambda n: (np.arange(3) < n[..., None]).astype(np.float32), [np.array([[1, 3], [2, 0]], np.int32)]),
    ("meshgrid_xy", lambda x, y: tf.meshgrid(x, y), lambda x, y: np.meshgrid(x, y),
     [np.arange(3, dtype=np.float32), np.arange(4, dtype=np.float32) * 2]),
    ("meshgrid_ij", lambda x, y, z: tf.meshgrid(x, y, z, indexing="ij"),
     lambda x, y, z: np.meshgrid(x, y, z, indexing="ij"),
     [np.arange(2, dtype=np.int32), np.arange(3, dtype=np.int32), np.arange(4, dtype=np.int32)]),
    ("top_k", lambda x: list(array_ops.top_k(x, 2)), lambda x: _np_top_k(x, 2), [X]),
    ("top_k_ties", lambda x: list(array_ops.top_k(x, k=3)), lambda x: _np_top_k(x, 3),
     [np.array([[1, 3, 3, 2, 3], [0, 0, 0, 0, 0]], np.int32)]),
    ("unique", lambda x: list(tf.unique(x)),
     lambda x: [np.array([4, 1, 7], np.int32), np.array([0, 0, 1, 2, 1], np.int32)],
     [np.array([4, 4, 1, 7, 1], np.int32)]),
    ("unique_int64_idx", lambda x: tf.unique(x, out_idx=tf.int64).idx, lambda x: np.array([0, 1, 0], np.int64),
     [np.array([2.5, -1.0, 2.5], np.float32)]),
    ("broadcast_to", lambda x: tf.broadcast_to(x, [2, 3, 4]), lambda x: np.broadcast_to(x, (2, 3, 4)),
     [X[:1]]),
    ("broadcast_dynamic_shape", lambda a, b: tf.broadcast_dynamic_shape(a, b),
     lambda a, b: np.array([5, 3, 4], np.int32), [np.array([3, 1], np.int32), np.array([5, 1, 4], np.int32)]),
]


@pytest.mark.parametrize("fn,np_fn,arrays", [r[1:] for r in FORWARD], ids=[r[0] for r in FORWARD])
def test_forward(fn, np_fn, arrays):
    check_forward(fn, np_fn, *arrays)


def test_zeros_ones_constant_defaults():
    z = tf.zeros([2, 3])
    o = tf.ones((2,), dtype=tf.int32, name="my_ones")
    b = tf.zeros(tf.TensorShape([1, 2]), tf.bool)
    assert z.dtype == tf.float32 and z.op.type == "Const" and z.op.name == "zeros"
    assert o.op.name == "my_ones" and o.shape.as_list() == [2]
    big = tf.zeros([100, 100])
    assert big.op.type == "Fill" and big.shape.as_list() == [100, 100]
    zv, ov, bv, bigv = _run([z, o, b, big])
    np.testing.assert_array_equal(zv, np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(ov, [1, 1])
    assert bv.dtype == bool and not bv.any()
    assert bigv.shape == (100, 100) and bigv.dtype == np.float32
    s = tf.zeros([], tf.string)
    assert _run(s) == b""


# ---- gradients (float64 numerical checks) ------------------------------------------------------
G = _r(3, 4)
G3 = _r(2, 3, 4)

GRADIENTS = [
    ("reshape", lambda x: tf.reshape(x, [2, -1]), [G]),
    ("squeeze", lambda x: tf.squeeze(x), [_r(1, 3, 1)]),
    ("expand_dims", lambda x: tf.expand_dims(x, 1), [G]),
    ("concat", lambda x, y: tf.concat([x, y], 1), [G, _r(3, 2)]),
    ("concat_neg", lambda x, y: tf.concat([y, x, y], -3), [G3, _r(1, 3, 4)]),
    ("stack", lambda x, y: tf.stack([x, y], axis=1), [G, _r(3, 4)]),
    ("unstack", lambda x: tf.unstack(x, axis=1)[2], [G]),
    ("split", lambda x: tf.split(x, 2, axis=1)[1], [G]),
    ("split_sizes", lambda x: tf.split(x, [1, 3], axis=1)[1], [G]),
    ("tile", lambda x: tf.tile(x, [2, 3]), [_r(2, 2)]),
    ("transpose", lambda x: tf.transpose(x, [1, 2, 0]), [G3]),
    ("slice", lambda x: tf.slice(x, [1, 1], [2, -1]), [G]),
    ("strided_slice", lambda x: tf.strided_slice(x, [0, 3], [3, 0], [2, -1]), [G]),
    ("getitem_mix", lambda x: x[1:, None, ::-2], [G3]),
    ("getitem_shrink", lambda x: x[-1, 1:3], [G3]),
    ("getitem_ellipsis", lambda x: x[..., 2], [G3]),
    ("gather_axis0", lambda x: tf.gather(x, [2, 0, 2]), [G]),
    ("gather_axis0_2d", lambda x: tf.gather(x, [[1, 0], [1, 1]]), [G3]),
    ("gather_axis1", lambda x: tf.gather(x, [2, 0, 2], axis=1), [G3]),
    ("gather_axis_neg", lambda x: tf.gather(x, [[0], [2]], axis=-1), [G3]),
    ("gather_after_transpose", lambda x: tf.gather(tf.transpose(x), [1, 1, 3]), [G]),
    ("gather_nd", lambda x: tf.gather_nd(x, [[0, 1], [2, 3], [0, 1]]), [G]),
    ("scatter_nd", lambda u: tf.scatter_nd([[1], [3], [1]], u, [5, 4]), [G]),
    ("pad", lambda x: tf.pad(x, [[1, 2], [0, 1]]), [G]),
    ("pad_value", lambda x: tf.pad(x, [[1, 0], [2, 1]], constant_values=1.5), [G]),
    ("pad_reflect", lambda x: tf.pad(x, [[2, 1], [3, 2]], "REFLECT"), [G]),
    ("pad_symmetric", lambda x: tf.pad(x, [[3, 0], [1, 4]], "SYMMETRIC"), [G]),
    ("reverse", lambda x: tf.reverse(x, [0, 2]), [G3]),
    ("reverse_sequence", lambda x: tf.reverse_sequence(x, [2, 4, 1], seq_axis=1), [G]),
    ("where_select", lambda x, y: tf.where(tf.constant([[True, False, True, False]] * 3), x, y), [G, _r(3, 4)]),
    ("where_rows", lambda x, y: tf.where([False, True, True], x, y), [G, _r(3, 4)]),
    ("where_v2", lambda x, y: tf.where_v2(tf.constant([True, False, True, False]), x, y), [G, _r(3, 1)]),
    ("boolean_mask", lambda x: tf.reshape(tf.boolean_mask(x, [True, False, True]), [2, 4]), [G]),
    ("top_k", lambda x: array_ops.top_k(x, 2).values, [G3]),
    ("broadcast_to", lambda x: tf.broadcast_to(x, [2, 3, 4]), [_r(3, 1)]),
    ("fill", lambda v: tf.fill([2, 3], v), [np.float64(0.7)]),
    ("meshgrid", lambda x, y: tf.meshgrid(x, y)[0], [_r(3), _r(2)]),
]


@pytest.mark.parametrize("fn,arrays", [r[1:] for r in GRADIENTS], ids=[r[0] for r in GRADIENTS])
def test_gradient(fn, arrays):
    check_gradient(fn, *arrays)


def test_gather_gradient_is_indexed_slices():
    p = tf.placeholder(tf.float64, [5, 3])
    idx = tf.placeholder(tf.int32, [None, 2])
    g = tf.gradients(tf.gather(p, idx), p)[0]
    assert isinstance(g, IndexedSlices)
    assert g.values.shape.as_list() == [None, 3]
    vals, inds, dense_shape = _run([g.values, g.indices, g.dense_shape],
                                   {p: np.ones((5, 3)), idx: [[0, 4], [4, 1]]})
    np.testing.assert_array_equal(inds, [0, 4, 4, 1])
    np.testing.assert_array_equal(vals, np.ones((4, 3)))
    np.testing.assert_array_equal(dense_shape, [5, 3])
    dense = tf.gradients(tf.gather(p, idx, axis=1), p)[0]
    assert isinstance(dense, tf.Tensor)
    np.testing.assert_array_equal(_run(dense, {p: np.ones((5, 3)), idx: [[0, 2], [2, 2]]}),
                                  np.tile([1.0, 0.0, 3.0], (5, 1)))


def test_gather_gradient_dynamic_axis():
    p = tf.placeholder(tf.float64, [2, 3, 4])
    axis = tf.placeholder(tf.int32, [])
    y = tf.gather(p, [3, 0, 3], axis=axis)
    g = tf.gradients(y, p)[0]
    pv = _r(2, 3, 4)
    exp = np.zeros((2, 3, 4))
    exp[:, :, 3] = 2
    exp[:, :, 0] = 1
    np.testing.assert_array_equal(_run(g, {p: pv, axis: 2}), exp)


def test_unconnected_outputs_of_multi_output_ops():
    x = tf.placeholder(tf.float64, [4, 2])
    parts = tf.split(x, 2)
    g = tf.gradients(parts[1], x)[0]
    np.testing.assert_array_equal(_run(g, {x: np.ones((4, 2))}), [[0, 0], [0, 0], [1, 1], [1, 1]])
    vals = array_ops.top_k(x, 1)
    g2 = tf.gradients(vals.values, x)[0]
    np.testing.assert_array_equal(_run(g2, {x: [[1, 2], [4, 3], [0, 0], [5, 5]]}),
                                  [[0, 1], [1, 0], [1, 0], [1, 0]])


# ---- static shapes -----------------------------------------------------------------------------
def test_required_static_shapes():
    b = tf.placeholder(tf.float32, [None, 10, 32])
    dims = tf.unstack(tf.shape(b))
    assert tf.reshape(b, [dims[0], 10 * 32]).shape.as_list() == [None, 320]
    assert tf.reshape(tf.placeholder(tf.float32, [32, 128]), [32, -1, 4]).shape.as_list() == [32, 32, 4]
    x = tf.placeholder(tf.float32, [50, 10])
    assert x[:, None, 3].shape.as_list() == [50, 1]
    assert len(tf.unstack(x)) == 50
    a = tf.placeholder(tf.float32, [3, 4])
    s = tf.shape(a)
    assert s.shape.as_list() == [2] and s.dtype == tf.int32


def _shape(t):
    return None if t.shape.ndims is None else t.shape.as_list()


def test_static_shapes_partial():
    u = tf.placeholder(tf.float32, [None, 4, None])
    v = tf.placeholder(tf.float32)
    n = tf.placeholder(tf.int32, [])
    cases = [
        (tf.reshape(u, [-1, 4]), [None, 4]),
        (tf.reshape(u, [tf.shape(u)[0], -1]), [None, None]),
        (tf.reshape(u, [-1, tf.shape(u)[1] * 2]), [None, None]),
        (tf.reshape(tf.placeholder(tf.float32, [6, 4]), [-1, tf.shape(u)[1] * 2]), [None, None]),
        (tf.reshape(tf.placeholder(tf.float32, [6, 4]), [-1, tf.size(u[0, :2, 0]) * 4]), [3, 8]),
        (tf.reshape(u, tf.shape(v)), None),
        (tf.reshape(v, [2, -1]), [2, None]),
        (tf.reshape(tf.placeholder(tf.float32, [None, 6]), [-1, 2, 3]), [None, 2, 3]),
        (tf.reshape(tf.placeholder(tf.float32, [5, None]), [10, 2]), [10, 2]),
        (tf.fill([n, 3], 1.0), [None, 3]),
        (tf.zeros([n, 2]), [None, 2]),
        (tf.zeros(tf.shape(u)), [None, 4, None]),
        (tf.ones(tf.stack([n, 5])), [None, 5]),
        (tf.squeeze(u), None),
        (tf.squeeze(u, [2]), [None, 4]),
        (tf.expand_dims(u, -1), [None, 4, None, 1]),
        (tf.expand_dims(u, n), [None, None, None, None]),
        (tf.concat([u, u], 1), [None, 8, None]),
        (tf.concat([u, tf.placeholder(tf.float32, [3, None, 2])], 2), [3, 4, None]),
        (tf.concat([u, v], 0), [None, 4, None]),
        (tf.concat([u, u], n), [None, None, None]),
        (tf.stack([u, v], 1), [None, 2, 4, None]),
        (tf.split(u, 2, axis=1)[0], [None, 2, None]),
        (tf.split(u, [1, -1], axis=1)[1], [None, 3, None]),
        (tf.split(u, [1, 2], axis=0)[1], [2, 4, None]),
        (tf.tile(u, [2, 2, 2]), [None, 8, None]),
        (tf.tile(u, tf.stack([n, 2, 1])), [None, 8, None]),
        (tf.tile(v, [1, 2]), [None, None]),
        (tf.transpose(u), [None, 4, None]),
        (tf.transpose(u, [1, 0, 2]), [4, None, None]),
        (tf.transpose(v), None),
        (tf.slice(u, [0, 1, 0], [-1, 2, 3]), [None, 2, 3]),
        (tf.slice(u, [0, 1, 0], [-1, -1, 3]), [None, 3, 3]),
        (tf.slice(u, tf.stack([n, n, n]), [1, 2, 3]), [1, 2, 3]),
        (u[1:, ::2], [None, 2, None]),
        (u[..., 0], [None, 4]),
        (u[:, n], [None, None]),
        (u[n:], [None, 4, None]),
        (u[tf.newaxis, ..., tf.newaxis], [1, None, 4, None, 1]),
        (tf.gather(u, [1, 2], axis=1), [None, 2, None]),
        (tf.gather(u, tf.placeholder(tf.int32, [None, 3])), [None, 3, 4, None]),
        (tf.gather_nd(u, tf.placeholder(tf.int32, [7, 2])), [7, None]),
        (tf.scatter_nd([[0]], tf.placeholder(tf.float32, [1, None]), [3, 5]), [3, 5]),
        (tf.one_hot(tf.placeholder(tf.int32, [None]), 5), [None, 5]),
        (tf.one_hot(tf.placeholder(tf.int32, [2, 3]), n, axis=1), [2, None, 3]),
        (tf.pad(u, [[1, 1], [2, 2], [0, 1]]), [None, 8, None]),
        (tf.pad(u, tf.placeholder(tf.int32, [3, 2])), [None, None, None]),
        (tf.reverse(u, [1]), [None, 4, None]),
        (tf.range(n), [None]),
        (tf.range(2, 11, 3), [3]),
        (tf.where(tf.placeholder(tf.bool, [None, 3])), [None, 2]),
        (tf.boolean_mask(tf.placeholder(tf.float32, [5, 3]), tf.placeholder(tf.bool, [5])), [None, 3]),
        (tf.boolean_mask(u, tf.placeholder(tf.bool, [4]), axis=1), [None, None, None]),
        (tf.sequence_mask(tf.placeholder(tf.int32, [None]), 7), [None, 7]),
        (tf.meshgrid(tf.placeholder(tf.float32, [3]), tf.placeholder(tf.float32, [5]))[0], [5, 3]),
        (array_ops.top_k(u, 2).indices, [None, 4, 2]),
        (tf.broadcast_to(tf.placeholder(tf.float32, [None, 1]), [n, 3]), [None, 3]),
        (tf.broadcast_to(tf.placeholder(tf.float32, [5, 1]), [n, 3]), [5, 3]),
        (tf.size(u), []),
        (tf.rank(v), []),
    ]
    for t, expected in cases:
        assert _shape(t) == expected, (t, expected)


def test_size_rank_are_constants_when_known():
    x = tf.placeholder(tf.float32, [2, 3])
    assert tf.size(x).op.type == "Const" and tf.rank(x).op.type == "Const"
    y = tf.placeholder(tf.float32, [None, 3])
    assert tf.size(y).op.type == "Size" and tf.rank(y).op.type == "Const"
    assert tf.rank(tf.placeholder(tf.float32)).op.type == "Rank"
    assert _run(tf.size(y), {y: np.zeros((4, 3))}) == 12


def test_static_broadcast_shape():
    assert tf.broadcast_static_shape(tf.TensorShape([None, 1, 3]), tf.TensorShape([4, 1])).as_list() == [None, 4, 3]
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([5])).as_list() == [2, 5]
    with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
        tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4]))


def test_op_names_follow_tf():
    x = tf.placeholder(tf.float32, [4, 4], name="x")
    assert tf.concat([x, x], 0).op.name == "concat"
    assert tf.stack([x, x]).op.name == "stack"
    assert tf.transpose(x).op.name == "transpose"
    assert tf.reshape(x, [-1]).op.name == "Reshape"
    assert x[1].op.name == "strided_slice"
    assert x[2].op.name == "strided_slice_1"
    assert tf.range(3).op.name == "range"
    assert tf.one_hot([1], 2).op.name == "one_hot"
    assert tf.gather(x, [0]).op.name == "GatherV2"
    assert [t.op.name for t in tf.split(x, 2)] == ["split", "split"]
    assert tf.unstack(x)[0].op.name == "unstack"


# ---- Tensor.__getitem__ ------------------------------------------------------------------------
XG = np.arange(50 * 10, dtype=np.float32).reshape(50, 10)
XG3 = np.arange(4 * 5 * 6, dtype=np.int32).reshape(4, 5, 6)

GETITEM = [
    ("int", XG, lambda x: x[3]),
    ("neg_int", XG, lambda x: x[-1]),
    ("two_ints", XG, lambda x: x[2, -3]),
    ("slice", XG, lambda x: x[2:5]),
    ("slice_int", XG, lambda x: x[2:5, 1]),
    ("step", XG, lambda x: x[::20, -1]),
    ("neg_step", XG, lambda x: x[::-7, 8:2:-2]),
    ("neg_bounds", XG, lambda x: x[-5:-1, -3:]),
    ("out_of_range_slice", XG, lambda x: x[45:100, -100:3]),
    ("empty_slice", XG, lambda x: x[5:2]),
    ("newaxis_mid", XG, lambda x: x[:, None, 3]),
    ("newaxis_first", XG, lambda x: x[tf.newaxis]),
    ("ellipsis", XG3, lambda x: x[..., 1]),
    ("ellipsis_mid", XG3, lambda x: x[1, ..., 2:4]),
    ("ellipsis_newaxis", XG3, lambda x: x[None, ..., None, 0]),
    ("full", XG3, lambda x: x[:]),
    ("empty_tuple", XG3, lambda x: x[()]),
    ("dimension_index", XG3, lambda x: x[tf.Dimension(2), :tf.Dimension(3)]),
    ("all_ints", XG3, lambda x: x[3, 4, 5]),
    ("np_int", XG3, lambda x: x[np.int64(1), np.int32(-1)]),
    ("big_step", XG3, lambda x: x[::5, ::-10]),
]


@pytest.mark.parametrize("value,index", [r[1:] for r in GETITEM], ids=[r[0] for r in GETITEM])
def test_getitem(value, index):
    check_forward(index, index, value)


def test_getitem_tensor_indices():
    x = tf.placeholder(tf.float32, [50, 10])
    i = tf.placeholder(tf.int32, [])
    j = tf.constant(2)
    k = tf.constant(7, tf.int64)
    outs = [x[i], x[i, 3], x[i:, j], x[1:i:2], x[-i], x[k], x[k:, 1]]
    assert _shape(outs[0]) == [10] and _shape(outs[1]) == [] and _shape(outs[2]) == [None]
    assert outs[5].op.inputs[1].dtype == tf.int64 and _shape(outs[5]) == [10]
    vals = _run(outs, {x: XG, i: 4})
    for v, e in zip(vals, [XG[4], XG[4, 3], XG[4:, 2], XG[1:4:2], XG[-4], XG[7], XG[7:, 1]]):
        np.testing.assert_array_equal(v, e)


def test_getitem_bool_mask():
    x = tf.constant(XG[:4, :3])
    m = tf.constant([True, False, False, True])
    np.testing.assert_array_equal(_run(x[m]), XG[:4, :3][[0, 3]])
    np.testing.assert_array_equal(_run(x[np.array([False, True, True, False])]), XG[1:3, :3])


# ---- auto-packing ------------------------------------------------------------------------------
def test_autopacking():
    t = tf.placeholder(tf.int32, [])
    p = tf.convert_to_tensor([t, 320])
    assert p.op.type == "Pack" and p.dtype == tf.int32 and _shape(p) == [2]
    assert p.op.name == "packed"
    nested = tf.convert_to_tensor([[t, 1], [2, 3]])
    assert _shape(nested) == [2, 2]
    np.testing.assert_array_equal(_run(nested, {t: 7}), [[7, 1], [2, 3]])
    f = tf.placeholder(tf.float32, [])
    np.testing.assert_array_equal(_run(tf.convert_to_tensor((f, 2, 0.5)), {f: 1.5}), [1.5, 2.0, 0.5])
    wide = tf.convert_to_tensor([t, 5], dtype=tf.int64)
    assert wide.dtype == tf.int64
    np.testing.assert_array_equal(_run(wide, {t: 3}), [3, 5])
    plain = tf.convert_to_tensor([1, 2])
    assert plain.op.type == "Const"
    b = tf.placeholder(tf.float32, [None, 10, 32])
    dims = tf.unstack(tf.shape(b))
    r = tf.reshape(b, [dims[0], 320])
    assert _run(r, {b: np.zeros((3, 10, 32), np.float32)}).shape == (3, 320)


def test_autopacking_dtype_error():
    t = tf.placeholder(tf.float32, [])
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor of dtype"):
        array_join_ops._autopacking_helper([t, tf.constant(1)], tf.float32, "packed")
    with pytest.raises((TypeError, ValueError)):
        tf.convert_to_tensor([t, "a"])


# ---- error paths -------------------------------------------------------------------------------
def test_reshape_errors():
    x = tf.placeholder(tf.float32, [3, 4])
    with pytest.raises(ValueError, match=r"Cannot reshape a tensor with 12 elements to shape \[5\] \(5 elements\)"):
        tf.reshape(x, [5])
    with pytest.raises(ValueError, match="evenly divisible by 5 but is 12"):
        tf.reshape(x, [5, -1])
    with pytest.raises(TypeError, match="DataType float32"):
        tf.reshape(x, [2.0, 6.0])
    with pytest.raises(ValueError, match="evenly divisible by 4 but is 5"):
        tf.reshape(tf.placeholder(tf.float32, [None, 4]), [5])
    y = tf.placeholder(tf.float32, [None, None])
    r = tf.reshape(y, [5])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input to reshape is a tensor with 8 values, but the "
                                                              "requested shape has 5"):
        _run(r, {y: np.zeros((2, 4))})
    r2 = tf.reshape(y, [-1, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="requires a multiple of 3"):
        _run(r2, {y: np.zeros((2, 4))})
    s = tf.placeholder(tf.int32, [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Only one input size may be -1"):
        _run(tf.reshape(y, s), {y: np.zeros((2, 4)), s: [-1, -1]})


def test_concat_stack_errors():
    a = tf.placeholder(tf.float32, [2, 3])
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.concat([a, tf.placeholder(tf.float32, [3])], 0)
    with pytest.raises(ValueError, match=r"Dimension 1 in both shapes must be equal, but are 3 and 4. "
                                         r"Shapes are \[2,3\] and \[2,4\]"):
        tf.concat([a, tf.placeholder(tf.float32, [2, 4])], 0)
    with pytest.raises(ValueError, match=r"Expected concatenating dimensions in the range \[-2, 2\), but got 2"):
        tf.concat([a, a], 2)
    with pytest.raises(ValueError, match="Can't concatenate scalars"):
        tf.concat([tf.constant(1.0), tf.constant(2.0)], 0)
    with pytest.raises(TypeError):
        tf.concat([a, tf.placeholder(tf.int32, [2, 3])], 0)
    d = tf.placeholder(tf.float32, [None, None])
    c = tf.concat([d, d[:1, :2]], 0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="ConcatOp : Dimensions of inputs should match"):
        _run(c, {d: np.zeros((2, 3))})
    with pytest.raises(ValueError, match="Shapes must be equal rank"):
        tf.stack([a, tf.placeholder(tf.float32, [3])])
    with pytest.raises(ValueError, match=r"axis = 3 not in \[-3, 3\)"):
        tf.stack([a, a], axis=3)
    s = tf.stack([d, d[:1]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Shapes of all inputs must match"):
        _run(s, {d: np.zeros((2, 3))})


def test_unstack_split_errors():
    with pytest.raises(ValueError, match="Cannot infer num from shape"):
        tf.unstack(tf.placeholder(tf.float32, [None, 3]))
    with pytest.raises(ValueError, match="Cannot infer num from shape"):
        tf.unstack(tf.placeholder(tf.float32))
    with pytest.raises(ValueError, match=r"axis = 2 not in \[-2, 2\)"):
        tf.unstack(tf.placeholder(tf.float32, [2, 3]), axis=2)
    x = tf.placeholder(tf.float32, [None, 3])
    parts = tf.unstack(x, num=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="must equal 2"):
        _run(parts[0], {x: np.zeros((3, 3))})
    with pytest.raises(ValueError, match="evenly divisible by 2 but is 3"):
        tf.split(x, 2, axis=1)
    with pytest.raises(ValueError, match="Determined shape must either match input shape"):
        tf.split(x, [1, 1], axis=1)
    with pytest.raises(ValueError, match="Only one dimensions can have a value of -1"):
        tf.split(x, [-1, -1], axis=1)
    with pytest.raises(ValueError, match="Cannot infer num"):
        tf.split(x, tf.placeholder(tf.int32, [None]), axis=1)
    with pytest.raises(ValueError, match="Rank-0 tensors are not supported"):
        tf.split(x, tf.constant(2), axis=1)
    halves = tf.split(x, 2, axis=0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of ways to split should evenly divide"):
        _run(halves[0], {x: np.zeros((3, 3))})


def test_shape_op_errors():
    x = tf.placeholder(tf.float32, [3, 4])
    with pytest.raises(ValueError, match=r"Can not squeeze dim\[1\], expected a dimension of 1, got 4"):
        tf.squeeze(x, [1])
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'squeeze_dims'"):
        tf.squeeze(x, axis=[0], squeeze_dims=[0])
    with pytest.raises(ValueError, match="Must specify an axis argument"):
        tf.expand_dims(x)
    with pytest.raises(ValueError, match="Tried to expand dim index 3 for tensor with 2 dimensions"):
        tf.expand_dims(x, 3)
    with pytest.raises(ValueError, match="Dimension must be 2 but is 3"):
        tf.transpose(x, [0, 1, 2])
    p = tf.placeholder(tf.int32, [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="1 is missing from"):
        _run(tf.transpose(x, p), {x: np.zeros((3, 4)), p: [0, 0]})
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 3"):
        tf.tile(x, [1, 2, 3])
    with pytest.raises(ValueError, match="Incompatible shapes"):
        tf.broadcast_to(x, [2, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unable to broadcast"):
        _run(tf.broadcast_to(x, p), {x: np.zeros((3, 4)), p: [2, 4]})
    with pytest.raises(ValueError, match="axis 0 specified more than once"):
        tf.reverse(x, [0, -2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Fill"):
        _run(tf.fill(p, 1.0), {p: [-2, 3]})


def test_slice_errors():
    x = tf.placeholder(tf.float32, [3, 4])
    with pytest.raises(ValueError, match=r"Expected size\[0\] in \[0, 2\], but got 5"):
        tf.slice(x, [1, 0], [5, 1])
    with pytest.raises(ValueError, match="Expected begin and size arguments to be 1-D tensors of size 2"):
        tf.slice(x, [1], [1])
    with pytest.raises(ValueError, match="slice index 3 of dimension 0 out of bounds"):
        x[3]
    with pytest.raises(ValueError, match="slice index -5 of dimension 1 out of bounds"):
        x[0, -5]
    with pytest.raises(ValueError, match="strides\\[1\\] must be non-zero"):
        x[:, ::0]
    with pytest.raises(ValueError, match="Index out of range using input dim 2"):
        x[1, 2, 3]
    with pytest.raises(ValueError, match="Multiple ellipses"):
        x[..., ...]
    with pytest.raises(TypeError, match=r"Only integers, slices \(`:`\), ellipsis"):
        x[1.5]
    with pytest.raises(TypeError, match="Only integers"):
        x[tf.constant([1, 2])]
    with pytest.raises(TypeError, match="Only integers"):
        x["a"]
    u = tf.placeholder(tf.float32, [None, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 5 of dimension 0 out of bounds"):
        _run(u[5], {u: np.zeros((3, 4))})
    b = tf.placeholder(tf.int32, [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected size\[1\] in \[0, 2\], but got 3"):
        _run(tf.slice(u, b, [1, 3]), {u: np.zeros((3, 4)), b: [0, 2]})


def test_gather_scatter_errors():
    x = tf.placeholder(tf.float32, [3, 4])
    i = tf.placeholder(tf.int32, [None])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = 7 is not in \[0, 3\)"):
        _run(tf.gather(x, i), {x: np.zeros((3, 4)), i: [0, 7]})
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = -1 is not in \[0, 4\)"):
        _run(tf.gather(x, i, axis=1), {x: np.zeros((3, 4)), i: [-1]})
    with pytest.raises(ValueError, match="Shape must be at least rank 3 but is rank 2"):
        tf.gather(x, [0], axis=2)
    with pytest.raises(TypeError, match="DataType float32"):
        tf.gather(x, tf.constant([0.0]))
    nd = tf.placeholder(tf.int32, [None, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = \[3, 0\] does not index into param"):
        _run(tf.gather_nd(x, nd), {x: np.zeros((3, 4)), nd: [[0, 0], [3, 0]]})
    with pytest.raises(ValueError, match="indices.shape\\[-1\\] must be <= params.rank"):
        tf.gather_nd(x, [[0, 0, 0]])
    with pytest.raises(ValueError, match="The inner 1 dimensions of output.shape"):
        tf.scatter_nd([[0]], tf.placeholder(tf.float32, [1, 3]), [4, 4])
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not index into shape"):
        _run(tf.scatter_nd(nd, tf.ones([2]), [2, 2]), {nd: [[0, 0], [2, 1]]})


def test_misc_errors():
    with pytest.raises(ValueError, match="Unknown padding mode: foo"):
        tf.pad(tf.ones([2]), [[1, 1]], "foo")
    with pytest.raises(ValueError, match="paddings must be less than the dimension size: 2, 0 not less than 2"):
        tf.pad(tf.ones([2, 3]), [[2, 0], [0, 0]], "REFLECT")
    with pytest.raises(ValueError, match="Paddings must be non-negative"):
        tf.pad(tf.ones([2, 3]), [[-1, 0], [0, 0]])
    p = tf.placeholder(tf.int32, [2, 2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Paddings must be non-negative: 0 -1"):
        _run(tf.pad(tf.ones([2, 3]), p), {p: [[0, -1], [0, 0]]})
    with pytest.raises(ValueError, match="Requires delta != 0"):
        tf.range(0, 5, 0)
    with pytest.raises(ValueError, match="Requires start <= limit when delta > 0: 5/1"):
        tf.range(5, 1)
    n = tf.placeholder(tf.int32, [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires start >= limit when delta < 0"):
        _run(tf.range(0, n, -1), {n: 4})
    with pytest.raises(ValueError, match="x and y must both be non-None or both be None"):
        tf.where([True], [1.0])
    with pytest.raises(TypeError, match="dtype <dtype: 'int32'> of on_value does not match dtype parameter"):
        tf.one_hot([0], 2, on_value=1, dtype=tf.float32)
    with pytest.raises(TypeError, match="of on_value does not match dtype"):
        tf.one_hot([0], 2, on_value=1.0, off_value=tf.constant(0, tf.int32))
    with pytest.raises(ValueError, match="mask cannot be scalar"):
        tf.boolean_mask(tf.ones([2]), True)
    with pytest.raises(ValueError, match="Number of mask dimensions must be specified"):
        tf.boolean_mask(tf.ones([2]), tf.placeholder(tf.bool))
    with pytest.raises(ValueError, match="Shapes .* are incompatible"):
        tf.boolean_mask(tf.ones([2, 3]), [True, False, True])
    with pytest.raises(TypeError, match="'foo' is an invalid keyword argument"):
        tf.meshgrid([1, 2], foo=1)
    with pytest.raises(ValueError, match="indexing parameter must be either 'xy' or 'ij'"):
        tf.meshgrid([1, 2], indexing="yx")
    with pytest.raises(ValueError, match="input must have last dimension >= k = 5 but is 4"):
        array_ops.top_k(tf.ones([2, 4]), 5)
    k = tf.placeholder(tf.int32, [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="input must have at least k columns. Had 4, needed 6"):
        _run(array_ops.top_k(tf.ones([2, 4]), k).values, {k: 6})
    with pytest.raises(tf.errors.InvalidArgumentError, match="'then' and 'else' must have the same size"):
        a = tf.placeholder(tf.float32, [None])
        _run(tf.where(tf.constant(True), a, a[1:]), {a: np.zeros(3)})
    with pytest.raises(TypeError, match="condition"):
        tf.where(tf.constant([1]), [1], [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="depth must be non-negative"):
        _run(tf.one_hot([1], k), {k: -1})


def test_unknown_rank_inputs():
    x = tf.placeholder(tf.float32)
    outs = [tf.transpose(x), tf.reshape(x, [-1]), tf.squeeze(x), tf.expand_dims(x, 0), tf.gather(x, [1]),
            tf.concat([x, x], 1), tf.pad(x, [[1, 1], [0, 0]]), x[1:, None]]
    assert [_shape(t) for t in outs] == [None, [None], None, None, None, None, [None, None], None]
    v = np.arange(6, dtype=np.float32).reshape(2, 3)
    expected = [v.T, v.reshape(-1), v, v[None], v[[1]], np.concatenate([v, v], 1), np.pad(v, [[1, 1], [0, 0]]),
                v[1:, None]]
    for got, exp in zip(_run(outs, {x: v}), expected):
        np.testing.assert_array_equal(got, exp)


# ---- gather / gather_nd with batch_dims (issue 15, item 7) --------------------------------------
def _np_batch_gather(p, idx, axis, batch_dims):
    """TF's GatherV2 with batch_dims, by loops over the batch and outer dimensions."""
    idx = np.asarray(idx)
    b = batch_dims % idx.ndim if batch_dims < 0 else batch_dims
    a = axis % p.ndim
    out = np.zeros(p.shape[:a] + idx.shape[b:] + p.shape[a + 1:], p.dtype)
    for bi in np.ndindex(*p.shape[:b]):
        for oi in np.ndindex(*p.shape[b:a]):
            for ii in np.ndindex(*idx.shape[b:]):
                out[bi + oi + ii] = p[bi + oi + (int(idx[bi + ii]),)]
    return out


BATCH_GATHER = [
    # (params shape, indices, axis, batch_dims)
    ((2, 3, 4), [[0, 2], [1, 1]], None, 1),
    ((2, 3, 4), [[0, 3], [1, 1]], 2, 1),
    ((2, 3, 4), [[0, 3, 1], [1, 1, 2]], None, 2),
    ((2, 3, 4), [[[0], [3], [1]], [[1], [1], [2]]], None, 2),
    ((2, 3, 4, 2), [[[0, 1, 1], [1, 0, 1]], [[1, 1, 0], [0, 1, 0]]], 3, 1),
    ((2, 3, 4), [[0, 1], [2, 2]], -1, -1),
    ((2, 3, 4), [[0, 1], [2, 2]], 1, -1),
    ((2, 3, 4), np.zeros((2, 0), np.int32), None, 1),
    ((2, 5, 4), [[[1, 4], [0, 0], [2, 3]], [[0, 1], [1, 4], [4, 4]]], 1, 1),
]


@pytest.mark.parametrize("shape,idx,axis,batch_dims", BATCH_GATHER)
def test_gather_batch_dims_values_and_shapes(shape, idx, axis, batch_dims):
    pv = _r(*shape, dtype=np.float32)
    iv = np.asarray(idx, np.int32)
    exp = _np_batch_gather(pv, iv, batch_dims if axis is None else axis, batch_dims)
    p = tf.placeholder(tf.float32, shape)
    i = tf.placeholder(tf.int32, iv.shape)
    y = tf.gather(p, i, axis=axis, batch_dims=batch_dims)
    assert y.op.type == "GatherV2" and y.op.get_attr("batch_dims") == batch_dims
    assert tuple(y.shape.as_list()) == exp.shape
    np.testing.assert_array_equal(_run(y, {p: pv, i: iv}), exp)
    # Unknown dimensions: the rank is still known; unknown rank: nothing is.
    pu, iu = tf.placeholder(tf.float32, [None] * len(shape)), tf.placeholder(tf.int32, [None] * iv.ndim)
    yu = tf.gather(pu, iu, axis=axis, batch_dims=batch_dims)
    assert yu.shape.as_list() == [None] * exp.ndim
    np.testing.assert_array_equal(_run(yu, {pu: pv, iu: iv}), exp)
    pr, ir = tf.placeholder(tf.float32), tf.placeholder(tf.int32)
    yr = tf.gather(pr, ir, axis=axis, batch_dims=batch_dims)
    assert yr.shape.ndims is None
    np.testing.assert_array_equal(_run(yr, {pr: pv, ir: iv}), exp)
    from tensorweave.eager import context
    with context.eager_mode():
        np.testing.assert_array_equal(tf.gather(pv, iv, axis=axis, batch_dims=batch_dims).numpy(), exp)


def test_gather_batch_dims_static_shapes():
    p = tf.placeholder(tf.float32, [2, 3, 4])
    i = tf.placeholder(tf.int32, [2, 5])
    assert tf.gather(p, i, batch_dims=1).shape.as_list() == [2, 5, 4]
    assert tf.gather(p, i, batch_dims=1, axis=2).shape.as_list() == [2, 3, 5]
    # As TF's shape function: the batch dimensions come from params, unmerged.
    assert tf.gather(tf.placeholder(tf.float32, [3, 4]), i, batch_dims=1).shape.as_list() == [3, 5]
    # An unknown axis: only the rank (params + indices - 1 - batch_dims).
    assert tf.gather(p, i, batch_dims=1, axis=tf.placeholder(tf.int32, [])).shape.as_list() == [None] * 3
    # A constant axis 0 drops batch_dims (TF's tf.gather passes batch_dims only for a non-zero axis).
    y = tf.gather(p, i, batch_dims=1, axis=0)
    assert y.op.get_attr("batch_dims") == 0 and y.shape.as_list() == [2, 5, 3, 4]


@pytest.mark.parametrize("axis,batch_dims", [(None, 1), (2, 1), (None, 2), (-1, -1), (3, 1)])
def test_gather_batch_dims_gradient(axis, batch_dims):
    shape = (2, 3, 4, 2)
    iv = np.array([[[0, 2, 1], [3, 3, 0], [1, 0, 1]], [[2, 2, 2], [0, 1, 0], [1, 3, 3]]], np.int32)
    if batch_dims == 1 and axis is None:
        iv = iv % 3
    if axis in (3, -1):
        iv = iv % 2
    pv = _r(*shape)
    check_gradient(lambda p: tf.gather(p, iv, axis=axis, batch_dims=batch_dims), pv)
    # The gradient's value: the output gradient summed back onto the rows it came from.
    p = tf.placeholder(tf.float64, shape)
    y = tf.gather(p, iv, axis=axis, batch_dims=batch_dims)
    dy = _r(*y.shape.as_list())
    g = tf.gradients(y, p, grad_ys=dy)[0]
    exp = np.zeros(shape)
    b = batch_dims % iv.ndim
    a = (b if axis is None else axis) % len(shape)
    for bi in np.ndindex(*shape[:b]):
        for oi in np.ndindex(*shape[b:a]):
            for ii in np.ndindex(*iv.shape[b:]):
                exp[bi + oi + (int(iv[bi + ii]),)] += dy[bi + oi + ii]
    np.testing.assert_allclose(_run(g, {p: pv}), exp, rtol=1e-12, atol=1e-12)


def test_gather_batch_dims_unknown_shapes_gradient():
    p = tf.placeholder(tf.float64)
    i = tf.placeholder(tf.int32)
    axis = tf.placeholder(tf.int32, [])
    y = tf.gather(p, i, axis=axis, batch_dims=1)
    g = tf.gradients(y, p, grad_ys=tf.ones_like(y))[0]
    pv = _r(2, 3, 4)
    iv = np.array([[0, 0, 3], [1, 2, 1]], np.int32)
    exp = np.zeros((2, 3, 4))
    exp[0, :, 0] = 2
    exp[0, :, 3] = 1
    exp[1, :, 1] = 2
    exp[1, :, 2] = 1
    np.testing.assert_array_equal(_run(g, {p: pv, i: iv, axis: 2}), exp)


def test_gather_batch_dims_errors():
    p = tf.placeholder(tf.float32, [2, 3, 4])
    i = tf.placeholder(tf.int32, [2, 5])
    with pytest.raises(ValueError, match="Shape must be at least rank 4 but is rank 3"):
        tf.gather(p, i, batch_dims=3)
    with pytest.raises(ValueError, match="Shape must be at least rank 3 but is rank 2"):
        tf.gather(p, i, batch_dims=-3)
    with pytest.raises(TypeError, match="Expected int for argument 'batch_dims' not '1'."):
        tf.gather(p, i, axis=2, batch_dims="1")
    # As TF's attribute conversion: int() of the value, None for the default.
    assert tf.gather(p, i, axis=2, batch_dims=1.5).op.get_attr("batch_dims") == 1
    assert tf.gather(p, i, axis=2, batch_dims=None).op.get_attr("batch_dims") == 0
    pu, iu = tf.placeholder(tf.float32), tf.placeholder(tf.int32)
    pv = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    cases = [
        (dict(batch_dims=1, axis=2), [[0, 4], [1, 1]], r"indices\[0,1\] = 4 is not in \[0, 4\)"),
        (dict(batch_dims=1, axis=2), [[0, 3], [1, 1], [0, 0]],
         r"params.shape\[0\]: 2 should be equal to indices.shape\[0\]: 3"),
        (dict(batch_dims=1), np.zeros((3, 0), np.int32),
         r"params.shape\[0\]: 2 should be equal to indices.shape\[0\]: 3"),
        (dict(batch_dims=1, axis=1), 1, r"Expected batch_dims in the range \[0, 0\], but got 1"),
        (dict(batch_dims=-3, axis=2), [[0, 1]], r"Expected batch_dims in the range \[-2, 2\], but got -3"),
        (dict(batch_dims=2, axis=1), [[0, 1, 2], [0, 0, 0]],
         r"batch_dims \(2\) must be less than or equal to axis \(1\)\."),
        (dict(batch_dims=1, axis=tf.placeholder_with_default(0, [])), [[0, 1], [2, 2]],
         r"batch_dims \(1\) must be less than or equal to axis \(0\)\."),
        (dict(batch_dims=3, axis=2), np.zeros((2, 3, 4, 1), np.int32),
         r"batch_dims \(3\) must be less than rank\(params\) \(3\)\."),
    ]
    for kw, iv, msg in cases:
        y = tf.gather(pu, iu, **kw)
        with pytest.raises(tf.errors.InvalidArgumentError, match=msg) as info:
            _run(y, {pu: pv, iu: iv})
        assert y.op.name in str(info.value)


def _np_batch_gather_nd(p, idx, batch_dims):
    idx = np.asarray(idx)
    b = batch_dims
    k = idx.shape[-1]
    out = np.zeros(idx.shape[:-1] + p.shape[b + k:], p.dtype)
    for pos in np.ndindex(*idx.shape[:-1]):
        out[pos] = p[pos[:b] + tuple(int(v) for v in idx[pos])]
    return out


BATCH_GATHER_ND = [
    ((2, 3, 4), [[[1], [0]], [[2], [1]]], 1),
    ((2, 3, 4), [[[1, 3], [0, 0]], [[2, 1], [1, 1]]], 1),
    ((2, 3, 4), [[1], [0]], 1),
    ((2, 3, 4), [[[1], [0], [3]], [[2], [1], [0]]], 2),
    ((2, 3, 4), np.zeros((2, 0, 1), np.int32), 1),
    ((2, 3, 4), np.zeros((2, 3, 0), np.int32), 1),
    ((2, 3, 4, 2), [[[[1, 0], [2, 1], [0, 0]]], [[[2, 3], [0, 1], [1, 0]]]], 1),
]


@pytest.mark.parametrize("shape,idx,batch_dims", BATCH_GATHER_ND)
def test_gather_nd_batch_dims(shape, idx, batch_dims):
    pv = _r(*shape, dtype=np.float32)
    iv = np.asarray(idx, np.int32)
    exp = _np_batch_gather_nd(pv, iv, batch_dims)
    y = tf.gather_nd(tf.constant(pv), iv, batch_dims=batch_dims)
    assert "GatherNd" in [op.type for op in y.graph.get_operations()]
    assert tuple(y.shape.as_list()) == exp.shape
    np.testing.assert_array_equal(_run(y), exp)
    for p_shape, i_shape in [([None] * len(shape), [None] * iv.ndim), (None, None)]:
        p, i = tf.placeholder(tf.float32, p_shape), tf.placeholder(tf.int64, i_shape)
        y = tf.gather_nd(p, i, batch_dims=batch_dims)
        np.testing.assert_array_equal(_run(y, {p: pv, i: iv}), exp)
    from tensorweave.eager import context
    with context.eager_mode():
        np.testing.assert_array_equal(tf.gather_nd(pv, iv, batch_dims=batch_dims).numpy(), exp)


def test_gather_nd_batch_dims_static_shapes_and_gradient():
    p = tf.placeholder(tf.float64, [None, 3, 4])
    assert tf.gather_nd(p, tf.placeholder(tf.int32, [None, 5, 1]), batch_dims=1).shape.as_list() == [None, 5, 4]
    assert tf.gather_nd(tf.placeholder(tf.float32, [2, 3, 4]), tf.placeholder(tf.int32, [2, None, 2]),
                        batch_dims=1).shape.as_list() == [2, None]
    # A batch_dims tensor with a constant value is accepted (TF reads its constant value).
    assert tf.gather_nd(p, [[1], [0]], batch_dims=tf.constant(1)).shape.as_list() == [2, 4]
    iv = np.array([[[1, 3], [0, 0], [1, 3]], [[2, 1], [1, 1], [0, 2]]], np.int32)
    pv = _r(2, 3, 4)
    check_gradient(lambda t: tf.gather_nd(t, iv, batch_dims=1), pv)
    pp = tf.placeholder(tf.float64, [2, 3, 4])
    g = tf.gradients(tf.gather_nd(pp, iv, batch_dims=1), pp)[0]
    exp = np.zeros((2, 3, 4))
    for bi in range(2):
        for r in iv[bi]:
            exp[bi, r[0], r[1]] += 1
    np.testing.assert_array_equal(_run(g, {pp: pv}), exp)


def test_gather_nd_batch_dims_errors():
    p = tf.placeholder(tf.float32, [2, 3, 4])
    with pytest.raises(ValueError, match=r"Argument `batch_dims` = 2 must be less than rank\(`indices`\) = 2"):
        tf.gather_nd(p, [[1], [0]], batch_dims=2)
    with pytest.raises(ValueError, match=r"Argument `batch_dims` = 3 must be less than rank\(`params`\) = 3"):
        tf.gather_nd(p, np.zeros((2, 3, 4, 1), np.int32), batch_dims=3)
    with pytest.raises(ValueError, match="tf.gather_nd does not allow negative batch_dims."):
        tf.gather_nd(p, [[1], [0]], batch_dims=-1)
    with pytest.raises(TypeError, match="Argument `batch_dims` must be an int; got None"):
        tf.gather_nd(p, [[1], [0]], batch_dims=None)
    with pytest.raises(TypeError, match=r"Argument `batch_dims` must be an int; got \[1\]"):
        tf.gather_nd(p, [[1], [0]], batch_dims=[1])
    i = tf.placeholder(tf.int32, [None, None, None])
    y = tf.gather_nd(p, i, batch_dims=1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[1,0\] = \[1, 3, 1\] does not index into param shape \[2,3,4\]"):
        _run(y, {p: np.zeros((2, 3, 4)), i: [[[1, 2]], [[3, 1]]]})
    y2 = tf.gather_nd(p, i, batch_dims=2)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"indices\[2\] = \[0, 2, 5\] does not index into param shape \[2,3,4\]"):
        _run(y2, {p: np.zeros((2, 3, 4)), i: [[[1], [0], [5]], [[2], [1], [0]]]})
