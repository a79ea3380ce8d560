"""Prints TensorFlow's values and error messages that tests/ops/test_sparse_tf_values.py,
test_sparse_serialize.py, test_sparse_feature.py and test_sparse_cross.py hold (copied there by hand:
each `label => value` or `label !! ErrorClass message` line answers one case).

Run with a Python that has TensorFlow (not needed by the tests):
    /work/tfenv/bin/python tests/data/make_sparse_tf_values.py
TF 2.21's `tf.compat.v1` in graph mode.
"""
# ruff: noqa: E501, E731, E402

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
ST = tf.SparseTensor


def run(label, f):
    g = tf.Graph()
    with g.as_default():
        try:
            out = f()
            with tf.Session() as s:
                r = s.run(out)
            print(label, "=>", repr(r))
        except Exception as e:  # noqa: BLE001 (every error is a recorded answer)
            m = (getattr(e, "message", None) or str(e)).strip().split("\n")
            print(
                label,
                "!!",
                type(e).__name__,
                (m[-2] if len(m) > 1 and type(e).__name__ != "ValueError" else m[0])[:300],
            )


i64 = lambda v: tf.constant(v, tf.int64)


def sparse_reshape(new_shape):
    """SparseReshape of one entry of a [3, 4] tensor to `new_shape`."""
    return lambda: tf.raw_ops.SparseReshape(input_indices=[[0, 1]], input_shape=i64([3, 4]), new_shape=i64(new_shape))


def sparse_add(b_indices, b_shape):
    """SparseAdd of a one-entry [2, 2] tensor and a one-entry tensor of shape `b_shape`."""
    return lambda: tf.raw_ops.SparseAdd(
        a_indices=[[0, 0]],
        a_values=[1.0],
        a_shape=i64([2, 2]),
        b_indices=b_indices,
        b_values=[1.0],
        b_shape=i64(b_shape),
        thresh=0.0,
    )


def sparse_dense_add(a_indices, a_shape):
    """SparseTensorDenseAdd of a one-entry tensor of shape `a_shape` and ones([3, 4])."""
    return lambda: tf.raw_ops.SparseTensorDenseAdd(
        a_indices=i64(a_indices), a_values=[1.0], a_shape=i64(a_shape), b=tf.ones([3, 4])
    )


def fill_empty_rows(indices, values, dense_shape):
    return lambda: tf.raw_ops.SparseFillEmptyRows(
        indices=i64(indices), values=values, dense_shape=i64(dense_shape), default_value=-1.0
    )


def dense_matmul(a_indices, b_rows):
    """SparseTensorDenseMatMul of a one-entry [3, 4] tensor and ones([b_rows, 2])."""
    return lambda: tf.raw_ops.SparseTensorDenseMatMul(
        a_indices=i64(a_indices), a_values=[1.0], a_shape=i64([3, 4]), b=tf.ones([b_rows, 2])
    )


def cwise(op, sp_indices, sp_values, dense):
    """The raw op `op` (SparseDenseCwiseMul/Div/Add) of a [3, 4] sparse tensor and `dense`."""
    return lambda: getattr(tf.raw_ops, op)(
        sp_indices=i64(sp_indices), sp_values=sp_values, sp_shape=i64([3, 4]), dense=dense()
    )


# ---- tfcheck ----
st = lambda: ST([[0, 1], [1, 2], [2, 0]], [1.0, 3.0, 2.0], [3, 4])
run("reorder_err_bounds", lambda: tf.sparse.reorder(ST([[0, 5], [1, 2]], [1.0, 2.0], [3, 4])))
run("reshape_bad", sparse_reshape([5, -1]))
run("reshape_bad2", sparse_reshape([5, 2]))
run("reshape_two", sparse_reshape([-1, -1]))
run(
    "reshape_zero",
    lambda: tf.raw_ops.SparseReshape(
        input_indices=tf.zeros([0, 2], tf.int64),
        input_shape=tf.constant([0, 4], tf.int64),
        new_shape=tf.constant([0, -1], tf.int64),
    ),
)
run(
    "add_thresh",
    lambda: tf.sparse.add(
        ST([[0, 0], [1, 1]], [1.0, -2.0], [2, 2]), ST([[0, 0], [1, 1]], [-1.0, 2.5], [2, 2]), threshold=0.6
    ),
)
run("add_shape_mismatch", sparse_add([[0, 0]], [2, 3]))
run("add_rank_mismatch", sparse_add([[0]], [2]))
run(
    "add_unsorted",
    lambda: tf.sparse.add(ST([[1, 1], [0, 0]], [1.0, 2.0], [2, 2]), ST([[0, 0], [1, 1]], [10.0, 20.0], [2, 2])),
)
run("dense_add", lambda: tf.sparse.add(st(), tf.ones([3, 4])))
run("dense_add_bad", sparse_dense_add([[0, 7]], [3, 4]))
run("dense_add_mismatch", sparse_dense_add([[0, 1]], [3, 5]))
run("concat_mismatch", lambda: tf.sparse.concat(1, [ST([[0, 0]], [1.0], [2, 2]), ST([[0, 0]], [1.0], [3, 2])]))
run(
    "concat_rank",
    lambda: tf.raw_ops.SparseConcat(
        indices=[[[0, 0]], [[0]]],
        values=[[1.0], [1.0]],
        shapes=[tf.constant([2, 2], tf.int64), tf.constant([2], tf.int64)],
        concat_dim=0,
    ),
)
run(
    "concat_dim",
    lambda: tf.raw_ops.SparseConcat(
        indices=[[[0, 0]], [[0, 0]]],
        values=[[1.0], [1.0]],
        shapes=[tf.constant([2, 2], tf.int64), tf.constant([2, 2], tf.int64)],
        concat_dim=3,
    ),
)
run("concat_neg", lambda: tf.sparse.concat(-1, [ST([[1, 0]], [1.0], [2, 2]), ST([[0, 1]], [2.0], [2, 3])]))
run(
    "concat_expand",
    lambda: tf.sparse.concat(0, [ST([[1, 0]], [1.0], [2, 2]), ST([[0, 3]], [2.0], [2, 4])], expand_nonconcat_dim=True),
)
run("slice_edge", lambda: tf.sparse.slice(st(), [2, 3], [5, 5]))
run("slice_beyond", lambda: tf.sparse.slice(st(), [4, 5], [2, 2]))
run("slice_neg", lambda: tf.sparse.slice(st(), [-1, 0], [2, 2]))
run(
    "split_uneven",
    lambda: tf.sparse.split(sp_input=ST([[0, 0], [0, 4], [1, 2], [1, 3]], [1, 2, 3, 4], [2, 5]), num_split=3, axis=1),
)
run("split_bad_num", lambda: tf.sparse.split(sp_input=st(), num_split=5, axis=1))
run(
    "split_bad_dim",
    lambda: tf.raw_ops.SparseSplit(
        split_dim=tf.constant(3, tf.int64),
        indices=tf.constant([[0, 0]], tf.int64),
        values=[1.0],
        shape=tf.constant([2, 2], tf.int64),
        num_split=2,
    ),
)
run("split_neg", lambda: tf.sparse.split(sp_input=st(), num_split=2, axis=-1))
run("fill_unsorted", fill_empty_rows([[2, 1], [0, 3], [2, 0], [0, 1]], [1.0, 2.0, 3.0, 4.0], [4, 5]))
run("fill_bad_row", fill_empty_rows([[5, 1]], [1.0], [4, 5]))
run("fill_neg_row", fill_empty_rows([[-1, 1]], [1.0], [4, 5]))
run("fill_zero_rows", fill_empty_rows([[0, 1]], [1.0], [0, 5]))
run(
    "fill_grad",
    lambda: tf.raw_ops.SparseFillEmptyRowsGrad(
        reverse_index_map=tf.constant([0, 3], tf.int64), grad_values=[1.0, 2.0, 3.0, 4.0, 5.0]
    ),
)
run("matmul_mismatch", dense_matmul([[0, 1]], 5))
run("matmul_oob", dense_matmul([[0, 7]], 4))
run("matmul_oob_m", dense_matmul([[9, 1]], 4))
run("matmul_static", lambda: tf.constant(str(tf.sparse.sparse_dense_matmul(st(), tf.ones([4, 2])).shape)))
run(
    "matmul_adj_cplx",
    lambda: tf.sparse.sparse_dense_matmul(
        ST([[0, 1], [1, 0]], tf.constant([1 + 2j, 3 - 1j], tf.complex64), [2, 2]),
        tf.constant([[1 + 1j, 2], [3, 4j]], tf.complex64),
        adjoint_a=True,
        adjoint_b=True,
    ),
)
neg = lambda: ST([[0, 0], [0, 2], [1, 1]], [-1.0, -2.0, -3.0], [2, 3])
run("rmax", lambda: tf.sparse.reduce_max(neg(), 1))
run("rmax0", lambda: tf.sparse.reduce_max(neg(), 0))
run("rmax_int", lambda: tf.sparse.reduce_max(ST([[0, 0]], [-1], [2, 3]), 1))
run(
    "rmax_nan",
    lambda: tf.sparse.reduce_max(ST([[0, 0], [0, 1], [1, 0], [1, 1]], [np.nan, 1.0, 2.0, np.nan], [2, 3]), 1),
)
run("rmax_sp", lambda: tf.sparse.reduce_max_sparse(neg(), 1, keepdims=True))
run("rsum_bad_axis", lambda: tf.sparse.reduce_sum(neg(), 3))
run("rsum_neg_axis", lambda: tf.sparse.reduce_sum(neg(), -1))
run("rsum_dup_axis", lambda: tf.sparse.reduce_sum(neg(), [1, 1]))
run("rsum_unsorted", lambda: tf.sparse.reduce_sum_sparse(ST([[1, 1], [0, 0], [1, 0]], [1.0, 2.0, 3.0], [2, 3]), 1))
run("rsum_oob", lambda: tf.sparse.reduce_sum(ST([[5, 1]], [1.0], [2, 3]), 1))
run(
    "rsum_static",
    lambda: tf.constant(
        str(tf.sparse.reduce_sum(neg(), 1).shape)
        + str(
            tf.sparse.reduce_sum(
                tf.SparseTensor(
                    tf.placeholder_with_default(tf.zeros([0, 2], tf.int64), [None, 2]),
                    tf.zeros([0]),
                    tf.placeholder_with_default(tf.constant([2, 3], tf.int64), [2]),
                ),
                1,
            ).shape
        )
    ),
)
run("softmax_unsorted", lambda: tf.sparse.softmax(ST([[0, 0], [1, 0], [0, 1]], [1.0, 2.0, 3.0], [2, 2])))
run(
    "softmax_inf",
    lambda: tf.sparse.softmax(ST([[0, 0], [0, 1], [1, 0], [1, 1]], [np.inf, 1.0, -np.inf, -np.inf], [2, 2])),
)
run(
    "softmax_rank1",
    lambda: tf.raw_ops.SparseSoftmax(
        sp_indices=tf.constant([[0]], tf.int64), sp_values=[1.0], sp_shape=tf.constant([2], tf.int64)
    ),
)
for m in ("max", "min"):
    run("ss" + m, lambda: getattr(tf.sparse, m + "imum")(
        ST([[0, 0], [1, 1]], [-1.0, np.nan], [2, 2]), ST([[0, 1], [1, 1]], [-2.0, 3.0], [2, 2])))
run("ssmax_shape", lambda: tf.sparse.maximum(ST([[0, 0]], [1.0], [2, 2]), ST([[0, 1]], [2.0], [2, 3])))
run("cwise_bad", cwise("SparseDenseCwiseMul", [[0, 1]], [1.0], lambda: tf.ones([3])))
run("cwise_div0", cwise("SparseDenseCwiseDiv", [[0, 1]], [1], lambda: tf.zeros([4], tf.int32)))
run("cwise_divint", cwise("SparseDenseCwiseDiv", [[0, 1], [0, 2]], [-7, 7], lambda: tf.constant([2, 2, 2, 2])))
run("cwise_scalar", cwise("SparseDenseCwiseMul", [[0, 1]], [3.0], lambda: tf.constant(2.0)))
h = lambda: ST([[0, 0, 0], [0, 0, 1], [1, 0, 0], [2, 1, 0]], ["a", "b", "c", "d"], [3, 2, 2])
t = lambda: ST([[0, 0, 0], [1, 0, 0], [1, 0, 1], [3, 0, 0]], ["a", "c", "x", "e"], [4, 2, 2])
run("edit_norm", lambda: tf.edit_distance(h(), t()))
run("edit_raw", lambda: tf.edit_distance(h(), t(), normalize=False))
run("edit_unsorted", lambda: tf.edit_distance(ST([[0, 1], [0, 0]], ["a", "b"], [1, 2]), ST([[0, 0]], ["a"], [1, 1])))
run("edit_static", lambda: tf.constant(str(tf.edit_distance(h(), t()).shape)))
run("transpose", lambda: tf.sparse.transpose(ST([[0, 1, 2], [1, 0, 0]], [1.0, 2.0], [2, 3, 4]), [2, 0, 1]))
run("reset_shape_bad", lambda: tf.sparse.reset_shape(st(), [2, 4]))
run("expand", lambda: tf.sparse.expand_dims(st(), -1))
run("eye", lambda: tf.sparse.eye(2, 3, dtype=tf.int32))
run(
    "merge",
    lambda: tf.sparse.merge(
        ST([[0, 0], [0, 1], [1, 0]], [4, 1, 2], [2, 2]), ST([[0, 0], [0, 1], [1, 0]], [0.5, 0.25, 0.75], [2, 2]), 6
    ),
)
run("to_indicator", lambda: tf.sparse.to_indicator(ST([[0, 0], [0, 1], [1, 0]], [4, 1, 2], [2, 2]), 6))
run("fromdense", lambda: tf.sparse.from_dense([[0.0, -0.0, np.nan], [1.0, 0, 2]]))
run("retain", lambda: tf.sparse.retain(st(), [False, True, True]))
# ---- tfcheck2 ----
a = lambda: tf.constant([[[1, 2, 2], [3, 4, 5]], [[5, 1, 1], [0, 0, 0]]])
b = lambda: tf.constant([[[2, 7], [4, 3]], [[6, 6], [0, 9]]])
sb = lambda: ST([[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], [2, 4, 3, 6], [2, 2, 4])
sa = lambda: ST([[0, 0, 0], [0, 0, 1], [1, 1, 0]], [9, 1, 0], [2, 2, 3])
for op in ["intersection", "union", "difference"]:
    fn = getattr(tf.sets, op)
    run("dd_" + op, lambda: fn(a(), b()))
    run("ds_" + op, lambda: fn(a(), sb()))
    run("sd_" + op, lambda: fn(sa(), b()))
    run("ss_" + op, lambda: fn(sa(), sb()))
run("diff_bminusa", lambda: tf.sets.difference(a(), b(), aminusb=False))
run("diff_sd_bminusa", lambda: tf.sets.difference(sa(), b(), aminusb=False))
run("str_union", lambda: tf.sets.union(tf.constant([["b", "a"], ["c", "c"]]), tf.constant([["a", "z"], ["", ""]])))
run("size", lambda: tf.sets.size(sb()))
run("size_dup", lambda: tf.sets.size(ST([[0, 0], [0, 1], [1, 0]], [3, 3, 1], [3, 4])))
run("size_unsorted", lambda: tf.sets.size(ST([[0, 1], [0, 0]], [3, 4], [3, 4])))
run("size_unsorted_novalid", lambda: tf.sets.size(ST([[0, 1], [0, 0]], [3, 4], [3, 4]), validate_indices=False))
run("size_oob", lambda: tf.sets.size(ST([[0, 7]], [3], [3, 4])))
run("size_rank1", lambda: tf.sets.size(ST([[0]], [3], [3])))
run("dd_mismatch", lambda: tf.sets.union(tf.constant([[1, 2]]), tf.constant([[1], [2]])))
run("dd_rank1", lambda: tf.sets.union(tf.constant([1, 2]), tf.constant([1])))
run("dd_empty", lambda: tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[3, 4]])))
run("float_type", lambda: tf.sets.union(tf.constant([[1.0]]), tf.constant([[1.0]])))
run(
    "static_shapes",
    lambda: tf.constant(
        str(tf.sets.union(a(), b()).indices.shape)
        + str(tf.sets.union(a(), b()).dense_shape.shape)
        + str(tf.sets.size(sb()).shape)
    ),
)
run("cwise_fdiv0", cwise("SparseDenseCwiseDiv", [[0, 1], [0, 2]], [1.0, -1.0], lambda: tf.constant([0.0, 0.0, -0.0, 1.0])))
run("cwise_add", cwise("SparseDenseCwiseAdd", [[0, 1], [2, 2]], [1.0, -1.0], lambda: tf.constant([[1.0], [2.0], [3.0]])))
run(
    "reduce_sum_all_kd",
    lambda: tf.sparse.reduce_sum(ST([[0, 0, 1], [1, 1, 0]], [1.0, 2.0], [2, 2, 2]), [0, 2], keepdims=True),
)
run(
    "rsum_sparse_kd",
    lambda: tf.sparse.reduce_sum_sparse(
        ST([[0, 0, 1], [1, 1, 0], [0, 1, 1]], [1.0, 2.0, 4.0], [2, 2, 2]), [2], keepdims=True
    ),
)
run(
    "rmax_sparse_neg",
    lambda: tf.sparse.reduce_max_sparse(ST([[0, 0, 1], [1, 1, 0], [0, 1, 1]], [1.0, 2.0, 4.0], [2, 2, 2]), -1),
)
run(
    "softmax3d",
    lambda: tf.sparse.softmax(
        ST([[0, 0, 1], [0, 0, 3], [0, 1, 0], [1, 1, 0], [1, 1, 1]], [1.0, 2.0, 4.0, -1.0, 5.0], [2, 2, 4])
    ),
)
run(
    "ssmax_int", lambda: tf.sparse.maximum(ST([[0, 0], [1, 1]], [-1, 2], [2, 2]), ST([[0, 1], [1, 1]], [-2, 3], [2, 2]))
)
run(
    "split_order",
    lambda: tf.sparse.split(sp_input=ST([[1, 3], [0, 0], [1, 0]], [1, 2, 3], [2, 4]), num_split=2, axis=1),
)
run("slice_order", lambda: tf.sparse.slice(ST([[1, 3], [0, 0], [1, 0]], [1, 2, 3], [2, 4]), [0, 0], [2, 4]))
run(
    "concat3",
    lambda: tf.sparse.concat(
        0, [ST([[1, 0]], [1.0], [2, 2]), ST([[0, 1], [0, 0]], [2.0, 3.0], [1, 2]), ST([[0, 0]], [4.0], [1, 2])]
    ),
)
run(
    "matmul_dups",
    lambda: tf.sparse.sparse_dense_matmul(
        ST([[0, 0], [0, 0], [1, 1]], [1.0, 2.0, 3.0], [2, 2]), tf.constant([[1.0, 2.0], [3.0, 4.0]])
    ),
)
run(
    "matmul_sparse_b",
    lambda: tf.sparse.sparse_dense_matmul(
        tf.constant([[1.0, 2.0], [3.0, 4.0]]), ST([[0, 0], [1, 1]], [1.0, 3.0], [2, 2])
    ),
)
# ---- tfcheck3 ----
for dt, v in [
    (tf.float32, [1.5, -2]),
    (tf.int32, [[1, 2], [3, 4]]),
    (tf.int64, [-1]),
    (tf.bool, [True, False]),
    (tf.string, [b"ab", b""]),
    (tf.complex64, [1 + 2j]),
    (tf.float16, [1.5]),
    (tf.uint8, [[]]),
    (tf.float64, 3.25),
    (tf.int8, [-3, 4]),
    (tf.uint16, [7]),
    (tf.int16, [-2]),
]:
    run("ser_%s" % dt.name, lambda: tf.io.serialize_tensor(tf.constant(v, dt)))
run("ser_empty", lambda: tf.io.serialize_tensor(tf.zeros([0, 3])))
run("parse_back", lambda: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([[1.0, 2.0], [3.0, 4.0]])), tf.float32))
run("parse_mismatch", lambda: tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.0])), tf.int32))
run("parse_garbage", lambda: tf.io.parse_tensor(b"\xff\xff", tf.int32))
from tensorflow.core.framework import tensor_pb2

p = tensor_pb2.TensorProto(dtype=1)
p.tensor_shape.dim.add(size=4)
p.float_val.extend([1.0, 2.0])
run("parse_vals", lambda: tf.io.parse_tensor(p.SerializeToString(), tf.float32))
p2 = tensor_pb2.TensorProto(dtype=3)
p2.tensor_shape.dim.add(size=3)
p2.int_val.extend([-5])
run("parse_ivals", lambda: tf.io.parse_tensor(p2.SerializeToString(), tf.int32))
run("parse_shape", lambda: tf.constant(str(tf.io.parse_tensor(b"x", tf.float32).shape)))
sp = lambda: ST([[0, 1], [1, 2], [2, 0]], [1.0, 3.0, 2.0], [3, 4])
run("ser_sparse", lambda: tf.serialize_sparse(sp()))
run("ser_many", lambda: tf.serialize_many_sparse(ST([[0, 1], [2, 0], [2, 2]], [1, 3, 2], [4, 4])))
run("ser_many_rank1", lambda: tf.serialize_many_sparse(ST([[0]], [1], [4])))
run("ser_many_bad", lambda: tf.serialize_many_sparse(ST([[5, 1]], [1], [4, 4])))
run("ser_many_unsorted", lambda: tf.serialize_many_sparse(ST([[1, 1], [0, 0], [1, 0]], [1, 2, 3], [2, 4])))
run(
    "ser_many_shape",
    lambda: tf.constant(str(tf.serialize_many_sparse(ST([[0, 1], [2, 0], [2, 2]], [1, 3, 2], [4, 4])).shape)),
)
run(
    "deser",
    lambda: tf.deserialize_many_sparse(
        tf.serialize_many_sparse(ST([[0, 1], [2, 0], [2, 2]], [1, 3, 2], [4, 4])), tf.int32
    ),
)
run(
    "deser_stack",
    lambda: tf.deserialize_many_sparse(
        tf.stack(
            [
                tf.serialize_sparse(ST([[0, 1], [1, 0]], [1.0, 2.0], [2, 3])),
                tf.serialize_sparse(ST([[3, 0]], [5.0], [4, 1])),
            ]
        ),
        tf.float32,
    ),
)
run(
    "deser_unsorted",
    lambda: tf.deserialize_many_sparse(
        tf.stack([tf.serialize_sparse(ST([[1, 1], [0, 0]], [1.0, 2.0], [2, 3]))]), tf.float32
    ),
)
run("deser_type", lambda: tf.deserialize_many_sparse(tf.stack([tf.serialize_sparse(sp())]), tf.int32))
run(
    "deser_rank",
    lambda: tf.deserialize_many_sparse(
        tf.stack([tf.serialize_sparse(sp()), tf.serialize_sparse(ST([[0]], [1.0], [3]))]), tf.float32
    ),
)
run(
    "deser_shape",
    lambda: tf.constant(str(tf.deserialize_many_sparse(tf.zeros([2, 3], tf.string), tf.float32, rank=3).indices.shape)),
)
for m in ("max", "min"):
    run("ss%s_bnan" % m, lambda: getattr(tf.sparse, m + "imum")(
        ST([[0, 0], [1, 1]], [2.0, 2.0], [2, 2]), ST([[0, 0], [1, 0]], [np.nan, -1.0], [2, 2])))
# ---- tfcheck5 ----
a = lambda: ST([[0, 0], [1, 0], [1, 1]], ["a", "b", "c"], [2, 2])
b = lambda: ST([[0, 0], [1, 0]], tf.constant([4, -5], tf.int64), [2, 1])
d = lambda: tf.constant([["f"], ["g"]])
run("cross", lambda: tf.sparse.cross([a(), b(), d()]))
run("cross_order", lambda: tf.sparse.cross([d(), a()]))
run("cross_sep", lambda: tf.sparse.cross([a(), b()], separator="+"))
run(
    "cross_empty_row",
    lambda: tf.sparse.cross([ST([[1, 0]], ["x"], [3, 1]), ST([[0, 0], [1, 0], [1, 1]], ["p", "q", "r"], [3, 2])]),
)
run("hashed", lambda: tf.sparse.cross_hashed([a(), b(), d()]))
run("hashed_b", lambda: tf.sparse.cross_hashed([a(), b()], num_buckets=100))
run("hashed_key", lambda: tf.sparse.cross_hashed([a(), d()], num_buckets=1000, hash_key=123))
run(
    "hashed_int32",
    lambda: tf.sparse.cross_hashed([ST([[0, 0]], tf.constant([7], tf.int32), [1, 1]), tf.constant([[3, 2]])]),
)
run("batch_mismatch", lambda: tf.sparse.cross([a(), tf.constant([["x"]])]))
# ---- tfcheck6 ----
v1 = lambda: tf.constant([3, 1, 3, 0, 7], tf.int64)
v2 = lambda: tf.constant([[3, 1, 3], [0, 7, 7]], tf.int32)
run("d1", lambda: tf.sparse.bincount(v1()))
run("d1_min", lambda: tf.sparse.bincount(v1(), minlength=10))
run("d1_max", lambda: tf.sparse.bincount(v1(), maxlength=4))
run("d1_minmax", lambda: tf.sparse.bincount(v1(), minlength=2, maxlength=4))
run("d1_bin", lambda: tf.sparse.bincount(v1(), binary_output=True))
run("d1_w", lambda: tf.sparse.bincount(v1(), weights=[1.0, 2.0, 3.0, 4.0, 5.0]))
run("d1_wi", lambda: tf.sparse.bincount(v1(), weights=tf.constant([1, 2, 3, 4, 5], tf.int64)))
run("d2_ax0", lambda: tf.sparse.bincount(v2()))
run("d2_ax-1", lambda: tf.sparse.bincount(v2(), axis=-1))
run("d2_ax-1_min", lambda: tf.sparse.bincount(v2(), axis=-1, minlength=9))
run("d2_ax-1_max", lambda: tf.sparse.bincount(v2(), axis=-1, maxlength=5))
run("d2_ax-1_w", lambda: tf.sparse.bincount(v2(), axis=-1, weights=tf.constant([[1.0, 2, 3], [4, 5, 6]])))
run("d2_ax-1_bin", lambda: tf.sparse.bincount(v2(), axis=-1, binary_output=True))
run("neg", lambda: tf.sparse.bincount(tf.constant([1, -2])))
run("empty", lambda: tf.sparse.bincount(tf.zeros([0], tf.int64)))
run("empty_min", lambda: tf.sparse.bincount(tf.zeros([0], tf.int64), minlength=3))
run("d2_empty_rows", lambda: tf.sparse.bincount(tf.zeros([2, 0], tf.int64), axis=-1))
run("d3", lambda: tf.sparse.bincount(tf.zeros([2, 2, 2], tf.int64), axis=-1))
s = lambda: ST([[0, 0], [0, 2], [1, 1], [3, 0]], tf.constant([4, 1, 4, 2], tf.int64), [4, 3])
run("s_ax0", lambda: tf.sparse.bincount(s()))
run("s_ax-1", lambda: tf.sparse.bincount(s(), axis=-1))
run(
    "s_ax-1_w",
    lambda: tf.sparse.bincount(
        s(), axis=-1, weights=ST([[0, 0], [0, 2], [1, 1], [3, 0]], [0.5, 0.25, 2.0, 1.0], [4, 3])
    ),
)
run("s_ax-1_min", lambda: tf.sparse.bincount(s(), axis=-1, minlength=8, binary_output=True))
run("s_ax-1_max", lambda: tf.sparse.bincount(s(), axis=-1, maxlength=3))
run(
    "s_ax0_w",
    lambda: tf.sparse.bincount(s(), weights=ST([[0, 0], [0, 2], [1, 1], [3, 0]], [0.5, 0.25, 2.0, 1.0], [4, 3])),
)
run("s_unsorted", lambda: tf.sparse.bincount(ST([[1, 1], [0, 0]], tf.constant([2, 4], tf.int64), [2, 3]), axis=-1))
run("ax1", lambda: tf.sparse.bincount(v2(), axis=1))
run("binw", lambda: tf.sparse.bincount(v1(), weights=[1.0, 2, 3, 4, 5], binary_output=True))
run("float_vals", lambda: tf.sparse.bincount(tf.constant([1.5])))
run("w_shape", lambda: tf.sparse.bincount(v1(), weights=[1.0, 2.0]))
run(
    "static",
    lambda: tf.constant(
        str(tf.sparse.bincount(v2(), axis=-1).indices.shape) + str(tf.sparse.bincount(v2(), axis=-1).dense_shape.shape)
    ),
)
run("d1_int32_dtype", lambda: tf.sparse.bincount(tf.constant([1, 1, 2])).values)


# ---- SparseFeature (parse_example) ----
def ex(**kw):
    f = {}
    for k, v in kw.items():
        if isinstance(v[0], float):
            f[k] = tf.train.Feature(float_list=tf.train.FloatList(value=v))
        else:
            f[k] = tf.train.Feature(int64_list=tf.train.Int64List(value=v))
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


e1 = ex(ix=[3, 0, 7], val=[1.5, 2.5, 3.5], iy=[1, 1, 0])
e2 = ex(ix=[2], val=[-1.0], iy=[2])
e3 = ex(other=[1])
print("E1", e1)
print("E2", e2)
print("E3", e3)
with tf.Session() as sess:
    r = sess.run(
        tf.io.parse_example(
            [e1, e2, e3], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10), "iy": tf.io.VarLenFeature(tf.int64)}
        )
    )
    print("P1", r)
    r = sess.run(tf.io.parse_example([e1, e2], {"sp": tf.SparseFeature(["ix", "iy"], "val", tf.float32, [10, 3])}))
    print("P2", r)
    r = sess.run(tf.io.parse_single_example(e1, {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10)}))
    print("P3", r)
    r = sess.run(tf.io.parse_example([e1], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10, already_sorted=True)}))
    print("P4", r)
try:
    tf.io.parse_example(
        [e1], {"sp": tf.io.SparseFeature("ix", "val", tf.float32, 10), "ix": tf.io.VarLenFeature(tf.float32)}
    )
except Exception as e:
    print("ERR", type(e).__name__, e)
# ---- sparse_placeholder ----
tf.reset_default_graph()
x = tf.sparse_placeholder(tf.float32, name="sp")
print([op.name for op in tf.get_default_graph().get_operations()], x.shape, x.indices.shape, x.dense_shape.shape)
y = tf.sparse.reduce_sum(x, 1)
x2 = tf.sparse.placeholder(tf.float32, shape=[3, 4])
print(x2.shape, x2.indices.shape, x2.dense_shape.op.type)
x3 = tf.sparse_placeholder(tf.int64, shape=[None, 5])
print(x3.shape, x3.indices.shape, x3.dense_shape.op.type)
with tf.Session() as sess:
    print(sess.run(y, {x: tf.SparseTensorValue([[0, 0], [1, 2]], [1.0, 2.0], [3, 4])}))
    print(sess.run(y, {x: ([[0, 0], [2, 2]], [1.0, 5.0], [3, 4])}))
    print(sess.run(tf.sparse.to_dense(x2), {x2: tf.SparseTensorValue([[0, 1]], [7.0], [3, 4])}))
    print(sess.run(x3, {x3: ([[0, 1]], [7], [2, 5])}))
    try:
        sess.run(y)
    except Exception as e:
        print(type(e).__name__, str(e).split("\n")[0][:150])
