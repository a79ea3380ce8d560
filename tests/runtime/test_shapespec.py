"""Plans specialized on repeated fed shapes (runtime/shapespec.py)."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.runtime import shapespec
from tests.runtime import INTERPRETER


def _entry(sess):
    return next(e for e in sess._cache.values() if e.feed_tensors)


def _features_model():
    x = tf.placeholder(tf.float32)
    w = tf.constant([[2.0], [3.0]])
    f = tf.stack([x, tf.ones_like(x)], 1)
    y = tf.squeeze(tf.matmul(f, w), 1)
    return x, y, tf.gradients(tf.reduce_sum(y * y), x)[0]


def _features_numpy(xv):
    y = 2 * xv + 3
    return y, 4 * y


def test_a_repeated_fed_shape_runs_a_specialized_plan_with_the_same_values():
    x, y, dx = _features_model()
    with tf.Session() as sess:
        for xv in (np.arange(3.0), np.arange(3.0) - 1, np.arange(5.0), np.arange(5.0) * 2, np.ones(3)):
            got = sess.run([y, dx], {x: xv})
            for g, e in zip(got, _features_numpy(xv.astype(np.float32))):
                np.testing.assert_array_equal(g, e)
        spec = _entry(sess).spec
        assert sorted(spec.plans) == [((3,),), ((5,),)]
        plan = spec.plans[((3,),)]
        assert plan.feed_shapes == ((3,),)
        general = _entry(sess).plan
        # the shape-only ops became constants: no ones_like, Shape or SumToShapeOf left
        general_types = {o.type for o in general.line_ops.values()}
        special_types = {o.type for o in plan.line_ops.values()}
        for op_type in ("OnesLike", "Shape", "SumToShapeOf"):
            assert op_type in general_types and op_type not in special_types
        assert general.source.count("= K") > plan.source.count("= K")
    assert x.shape.ndims is None and y.shape.ndims is None  # the graph's shapes are untouched


def test_a_shape_seen_once_is_not_compiled_and_plans_are_bounded():
    x = tf.placeholder(tf.float32, [None])
    y = x * 2 + tf.reduce_sum(x)
    with tf.Session() as sess:
        for n in range(1, 4):
            assert sess.run(y, {x: np.ones(n)}).tolist() == [2.0 + n] * n
        assert _entry(sess).spec.plans == {}
        for n in range(1, shapespec.MAX_PLANS + 4):
            for _ in range(2):
                np.testing.assert_array_equal(sess.run(y, {x: np.ones(n)}), np.full(n, 2.0 + n))
        plans = _entry(sess).spec.plans
        assert sum(p.feed_shapes is not None for p in plans.values()) == shapespec.MAX_PLANS
        assert all(p is _entry(sess).plan for p in plans.values() if p.feed_shapes is None)


def test_values_with_data_dependent_shapes_stay_dynamic():
    x = tf.placeholder(tf.float32, [None])
    m = tf.boolean_mask(x, x > 0)
    z = m * 2 + tf.reduce_sum(m)
    with tf.Session() as sess:
        for xv in ([1.0, -1.0, 2.0], [1.0, 1.0, 1.0], [-1.0, -1.0, 3.0], [1.0, -2.0, -3.0]):
            xv = np.array(xv, np.float32)
            pos = xv[xv > 0]
            np.testing.assert_array_equal(sess.run(z, {x: xv}), pos * 2 + pos.sum())
        assert ((3,),) in _entry(sess).spec.plans


def test_shapes_inference_rejects_fall_back_to_the_kernel_error():
    x = tf.placeholder(tf.float32)
    y = tf.matmul(x, tf.ones([2, 2]))  # unknown rank: BatchMatMulV2, whose inference rejects rank 1
    with tf.Session() as sess:
        for _ in range(3):
            with pytest.raises(tf.errors.InvalidArgumentError, match="In\\[0\\] ndims must be >= 2: 1"):
                sess.run(y, {x: np.ones(2)})
        assert _entry(sess).spec.plans == {((2,),): _entry(sess).plan}
        for _ in range(2):
            assert sess.run(y, {x: np.ones((1, 2))}).tolist() == [[2.0, 2.0]]
        assert _entry(sess).spec.plans[((1, 2),)].feed_shapes == ((1, 2),)
    assert x.shape.ndims is None
    assert tf.identity(x).shape.ndims is None  # the graph's lock was released


def test_a_specialized_plan_raises_the_kernel_error():
    x = tf.placeholder(tf.float32)
    r = tf.reshape(x, [2, 2])
    with tf.Session() as sess:
        for _ in range(3):
            with pytest.raises(tf.errors.InvalidArgumentError, match="Reshape"):
                sess.run(r, {x: np.ones(3)})
        assert _entry(sess).spec.plans[((3,),)].feed_shapes == ((3,),)


def test_errors_in_a_specialized_plan_name_the_op():
    idx = tf.placeholder(tf.int32)
    g = tf.gather(tf.constant([1.0, 2.0, 3.0]), idx, name="pick")
    with tf.Session() as sess:
        for _ in range(2):
            assert sess.run(g, {idx: [0, 2]}).tolist() == [1.0, 3.0]
        assert ((2,),) in _entry(sess).spec.plans
        with pytest.raises(tf.errors.InvalidArgumentError, match="pick"):
            sess.run(g, {idx: [0, 7]})


def test_only_placeholder_feeds_with_open_shapes_are_specialized():
    x = tf.placeholder(tf.float32, [2])
    h = x * 3
    y = h + 1
    u = tf.placeholder(tf.float32)
    with tf.Session() as sess:
        assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [4.0, 7.0]
        assert sess.run(y, {h: [1.0, 2.0]}).tolist() == [2.0, 3.0]
        assert sess.run(u + 1, {u: 1.0}) == 2.0
        entries = [e for e in sess._cache.values() if e.feed_tensors]
        specs = {e.feed_tensors[0].name: e.spec is not None for e in entries}
    assert specs == {x.name: False, h.name: False, u.name: True}
    config = INTERPRETER
    with tf.Session(config=config) as sess:
        assert sess.run(u + 1, {u: 1.0}) == 2.0
        assert _entry(sess).spec is None


def test_concurrent_runs_with_changing_shapes_compile_consistent_plans():
    import threading
    x = tf.placeholder(tf.float32)
    base = x * 2.0 + tf.ones_like(x)
    fetch_sets = [[base], [base, tf.reduce_sum(base)], [tf.gradients(tf.reduce_sum(base * base), x)[0]]]
    errors = []
    with tf.Session() as sess:
        def worker(k):
            try:
                for i in range(30):
                    n = 1 + (i + k) % 4
                    xv = np.arange(n, dtype=np.float32) + k
                    out = sess.run(fetch_sets[(i + k) % 3], {x: xv})
                    expected = {0: [2 * xv + 1], 1: [2 * xv + 1, (2 * xv + 1).sum()],
                                2: [4 * (2 * xv + 1)]}[(i + k) % 3]
                    for o, e in zip(out, expected):
                        np.testing.assert_allclose(o, e)
            except Exception as e:  # reported below, from the main thread
                errors.append(e)

        threads = [threading.Thread(target=worker, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert errors == []
    assert x.shape.ndims is None and base.shape.ndims is None
