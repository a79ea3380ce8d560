"""tf.cond, tf.case, tf.while_loop, tf.tuple and tf.group against TF1 graph-mode semantics: values,
laziness and side effects, captures, nested structures, errors, and gradients (numerical, float64)."""

import collections
import time

import numpy as np
import pytest

import tensorweave as tf
from tests.ops.op_harness import check_gradient

Pair = collections.namedtuple("Pair", ["a", "b"])
Single = collections.namedtuple("Single", ["a"])


def _run(fetches, feed_dict=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed_dict)


def _counter_py_func(counter, key, value):
    """A float32 py_func that bumps counter[key] each time it runs and returns `value`."""
    def fn():
        counter[key] += 1
        return np.float32(value)
    return tf.py_func(fn, [], tf.float32)


# ==== cond: values ================================================================================
@pytest.mark.parametrize("pred,x,expected", [(True, 3.0, 6.0), (False, 3.0, 4.0), (True, -1.5, -3.0),
                                             (False, -1.5, -0.5)])
def test_cond_fed_predicate_selects_branch(pred, x, expected):
    p = tf.placeholder(tf.bool, [])
    xp = tf.placeholder(tf.float32, [])
    r = tf.cond(p, lambda: xp * 2.0, lambda: xp + 1.0)
    assert isinstance(r, tf.Tensor)
    assert r.dtype is tf.float32
    assert r.shape.as_list() == []
    out = _run(r, {p: pred, xp: x})
    assert out.dtype == np.float32
    assert out == expected


@pytest.mark.parametrize("pred,expected", [(True, [1, 2]), (False, [30, 40])])
def test_cond_constant_predicate(pred, expected):
    r = tf.cond(tf.constant(pred), lambda: tf.constant([1, 2]), lambda: tf.constant([30, 40]))
    assert r.dtype is tf.int32
    np.testing.assert_array_equal(_run(r), expected)


def test_cond_computed_predicate_and_deprecated_fn1_fn2():
    x = tf.placeholder(tf.float32, [])
    r = tf.cond(tf.greater_equal(x, 0.0), fn1=lambda: tf.sqrt(x), fn2=lambda: tf.constant(0.0))
    with tf.Session() as sess:
        assert sess.run(r, {x: 4.0}) == 2.0
        assert sess.run(r, {x: 9.0}) == 3.0
        assert sess.run(r, {x: -16.0}) == 0.0


def test_cond_output_shape_is_most_specific_compatible():
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: tf.zeros([2, 3]), lambda: tf.ones([2, 5]))
    assert r.shape.as_list() == [2, None]
    r2 = tf.cond(p, lambda: tf.zeros([2, 3]), lambda: tf.ones([2, 3]))
    assert r2.shape.as_list() == [2, 3]
    with tf.Session() as sess:
        assert sess.run(r, {p: False}).shape == (2, 5)
        np.testing.assert_array_equal(sess.run(r, {p: True}), np.zeros((2, 3)))


# ==== cond: laziness and side effects ==============================================================
@pytest.mark.parametrize("pred", [True, False])
def test_cond_untaken_branch_does_not_run(pred):
    counter = {"true": 0, "false": 0}
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: _counter_py_func(counter, "true", 1.0), lambda: _counter_py_func(counter, "false", 2.0))
    with tf.Session() as sess:
        assert sess.run(r, {p: pred}) == (1.0 if pred else 2.0)
        assert sess.run(r, {p: pred}) == (1.0 if pred else 2.0)
    assert counter == ({"true": 2, "false": 0} if pred else {"true": 0, "false": 2})


def test_cond_untaken_branch_operator_on_outer_tensor_is_not_evaluated():
    """`10 // d` in the untaken branch must not run (it would divide by zero)."""
    d = tf.placeholder(tf.int32, [])
    r = tf.cond(d > 0, lambda: 10 // d, lambda: tf.constant(0))
    r2 = tf.cond(d > 0, lambda: (d + 1) * (10 // d), lambda: -d)
    with tf.Session() as sess:
        assert sess.run(r, {d: 5}) == 2
        assert sess.run(r, {d: 0}) == 0
        assert sess.run(r2, {d: 0}) == 0
        assert sess.run(r2, {d: 2}) == 15


def test_cond_untaken_branch_py_func_on_outer_tensor_does_not_run():
    counter = {"n": 0}
    x = tf.placeholder(tf.float32, [])
    p = tf.placeholder(tf.bool, [])

    def f(a):
        counter["n"] += 1
        return a * 2

    r = tf.cond(p, lambda: tf.py_func(f, [x + 1.0], tf.float32), lambda: x)
    with tf.Session() as sess:
        assert sess.run(r, {p: False, x: 1.0}) == 1.0
        assert counter["n"] == 0
        assert sess.run(r, {p: True, x: 1.0}) == 4.0
        assert counter["n"] == 1


def test_cond_side_effect_runs_only_in_taken_branch_via_control_dependencies():
    v = tf.Variable(0)
    p = tf.placeholder(tf.bool, [])

    def true_fn():
        with tf.control_dependencies([tf.assign_add(v, 1)]):
            return tf.constant(10)

    def false_fn():
        with tf.control_dependencies([tf.assign_add(v, 100)]):
            return tf.constant(20)

    r = tf.cond(p, true_fn, false_fn)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r, {p: True}) == 10
        assert sess.run(v) == 1
        assert sess.run(r, {p: True}) == 10
        assert sess.run(v) == 2
        assert sess.run(r, {p: False}) == 20
        assert sess.run(v) == 102


def test_cond_side_effect_not_feeding_the_output_is_pruned():
    """TF1 prunes a branch to its outputs: an assign the output doesn't depend on never runs."""
    v = tf.Variable(0)
    p = tf.placeholder(tf.bool, [])

    def true_fn():
        tf.assign_add(v, 1)
        return tf.constant(1)

    r = tf.cond(p, true_fn, lambda: tf.constant(2))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r, {p: True}) == 1
        assert sess.run(v) == 0


# ==== cond: captures ===============================================================================
def test_cond_branches_capture_outer_tensors_and_variables():
    x = tf.placeholder(tf.float32, [2])
    w = tf.Variable([10.0, 20.0])
    b = tf.constant(0.5)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: x * w + b, lambda: w - x)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_allclose(sess.run(r, {p: True, x: [1.0, 2.0]}), [10.5, 40.5])
        np.testing.assert_allclose(sess.run(r, {p: False, x: [1.0, 2.0]}), [9.0, 18.0])
        sess.run(tf.assign(w, [1.0, 1.0]))
        np.testing.assert_allclose(sess.run(r, {p: True, x: [3.0, 4.0]}), [3.5, 4.5])


def test_cond_branch_sees_variable_updated_in_the_same_run_via_dependency():
    v = tf.Variable(1.0)
    with tf.control_dependencies([tf.assign(v, 5.0)]):
        p = tf.identity(tf.constant(True))
    r = tf.cond(p, lambda: v * 2.0, lambda: v * 0.0)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r) == 10.0


def test_cond_branch_reads_variable_after_assign_in_the_branch():
    """read_value() under a control dependency inside the branch sees the branch's own update."""
    v = tf.Variable(1)
    p = tf.placeholder(tf.bool, [])

    def true_fn():
        with tf.control_dependencies([tf.assign_add(v, 1)]):
            return v.read_value() * 10

    r = tf.cond(p, true_fn, lambda: tf.constant(-1))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r, {p: True}) == 20
        assert sess.run(r, {p: True}) == 30
        assert sess.run(r, {p: False}) == -1
        assert sess.run(v) == 3


# ==== cond: nested structures ======================================================================
def test_cond_tuple_outputs():
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: (tf.constant(1), tf.constant(2.0)), lambda: (tf.constant(3), tf.constant(4.0)))
    assert isinstance(r, tuple) and len(r) == 2
    assert [t.dtype for t in r] == [tf.int32, tf.float32]
    assert _run(list(r), {p: True}) == [1, 2.0]
    assert _run(list(r), {p: False}) == [3, 4.0]


def test_cond_dict_outputs():
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: {"b": tf.constant(1), "a": tf.constant([1.0, 2.0])},
                lambda: {"a": tf.constant([3.0, 4.0]), "b": tf.constant(2)})
    assert isinstance(r, dict) and sorted(r) == ["a", "b"]
    assert r["a"].dtype is tf.float32 and r["b"].dtype is tf.int32
    out = _run(r, {p: False})
    np.testing.assert_array_equal(out["a"], [3.0, 4.0])
    assert out["b"] == 2
    assert _run(r["b"], {p: True}) == 1


def test_cond_namedtuple_and_nested_outputs():
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: Pair(tf.constant(1), [tf.constant(2), {"k": tf.constant(3)}]),
                lambda: Pair(tf.constant(10), [tf.constant(20), {"k": tf.constant(30)}]))
    assert isinstance(r, Pair)
    assert isinstance(r.b, list) and isinstance(r.b[1], dict)
    assert _run([r.a, r.b[0], r.b[1]["k"]], {p: True}) == [1, 2, 3]
    assert _run([r.a, r.b[0], r.b[1]["k"]], {p: False}) == [10, 20, 30]


@pytest.mark.parametrize("wrap", [list, tuple])
def test_cond_singleton_unpacked_unless_strict(wrap):
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: wrap([tf.constant(1)]), lambda: wrap([tf.constant(2)]))
    assert isinstance(r, tf.Tensor)
    assert _run(r, {p: False}) == 2
    rs = tf.cond(p, lambda: wrap([tf.constant(1)]), lambda: wrap([tf.constant(2)]), strict=True)
    assert isinstance(rs, wrap) and len(rs) == 1
    assert _run(rs[0], {p: True}) == 1


def test_cond_non_strict_unpacks_singletons_before_comparing_branches():
    """TF1 unpacks singleton lists of each branch first: `[x]` vs `x` is accepted when strict=False."""
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: [tf.constant(1)], lambda: tf.constant(2))
    assert isinstance(r, tf.Tensor)
    assert _run(r, {p: True}) == 1
    assert _run(r, {p: False}) == 2
    with pytest.raises(ValueError):
        tf.cond(p, lambda: [tf.constant(1)], lambda: tf.constant(2), strict=True)


def test_cond_single_field_namedtuple_unpacked_when_not_strict():
    """TF1's _UnpackIfSingleton unpacks any 1-element list or tuple, namedtuples included."""
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: Single(tf.constant(1)), lambda: Single(tf.constant(2)))
    assert isinstance(r, tf.Tensor)
    assert _run(r, {p: False}) == 2
    rs = tf.cond(p, lambda: Single(tf.constant(1)), lambda: Single(tf.constant(2)), strict=True)
    assert isinstance(rs, Single)
    assert _run(rs.a, {p: True}) == 1


def test_cond_branch_returning_python_values_and_variables():
    p = tf.placeholder(tf.bool, [])
    v = tf.Variable(7.0)
    r = tf.cond(p, lambda: v, lambda: 2.5)
    assert r.dtype is tf.float32
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r, {p: True}) == 7.0
        assert sess.run(r, {p: False}) == 2.5


@pytest.mark.parametrize("pred", [True, False])
def test_cond_branches_returning_operations(pred):
    """TF1 stands in the branch's pivot (a bool tensor) for a returned Operation; running the result runs
    the taken branch's op only."""
    v = tf.Variable(0)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: tf.assign_add(v, 1).op, lambda: tf.group(tf.assign_add(v, 10)))
    assert isinstance(r, tf.Tensor)
    assert r.dtype is tf.bool
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r, {p: pred}) == pred
        assert sess.run(v) == (1 if pred else 10)


def test_cond_branches_returning_tensor_arrays():
    p = tf.placeholder(tf.bool, [])
    ta = tf.TensorArray(tf.float32, size=2).write(0, 1.0)
    r = tf.cond(p, lambda: ta.write(1, 2.0), lambda: ta.write(1, -2.0))
    assert isinstance(r, tf.TensorArray)
    s = r.stack()
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(s, {p: True}), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(s, {p: False}), [1.0, -2.0])


# ==== cond: nesting with cond and while ===========================================================
@pytest.mark.parametrize("a,b,expected", [(True, True, 1), (True, False, 2), (False, True, 3), (False, False, 4)])
def test_nested_cond(a, b, expected):
    pa = tf.placeholder(tf.bool, [])
    pb = tf.placeholder(tf.bool, [])
    one, two, three, four = (tf.constant(k) for k in (1, 2, 3, 4))
    r = tf.cond(pa, lambda: tf.cond(pb, lambda: one, lambda: two),
                lambda: tf.cond(pb, lambda: three, lambda: four))
    assert _run(r, {pa: a, pb: b}) == expected


def test_cond_inside_while_loop():
    # Collatz steps: x -> x/2 if even else 3x+1, counting steps until 1.
    def body(i, x):
        nx = tf.cond(tf.equal(x % 2, 0), lambda: x // 2, lambda: 3 * x + 1)
        return i + 1, nx

    n = tf.placeholder(tf.int32, [])
    steps, last = tf.while_loop(lambda i, x: x > 1, body, [0, n])
    with tf.Session() as sess:
        assert sess.run([steps, last], {n: 6}) == [8, 1]
        assert sess.run([steps, last], {n: 27}) == [111, 1]
        assert sess.run([steps, last], {n: 1}) == [0, 1]


def test_while_loop_inside_cond():
    n = tf.placeholder(tf.int32, [])
    p = tf.placeholder(tf.bool, [])

    def summed():
        return tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i), [0, 0])[1]

    r = tf.cond(p, summed, lambda: -n)
    with tf.Session() as sess:
        assert sess.run(r, {p: True, n: 5}) == 10
        assert sess.run(r, {p: False, n: 5}) == -5


def test_cond_and_while_loop_names():
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: tf.constant(1), lambda: tf.constant(2), name="my_cond")
    w = tf.while_loop(lambda i: i < 2, lambda i: i + 1, [0], name="my_loop")
    assert r.name.startswith("my_cond")
    assert w.name.startswith("my_loop")


# ==== cond: errors =================================================================================
def test_cond_python_bool_pred_raises_type_error():
    values = tf.constant(10)
    with pytest.raises(TypeError, match="must not be a Python bool"):
        tf.cond(False, lambda: values + 1, lambda: values - 1)


@pytest.mark.parametrize("which", ["true_fn", "false_fn"])
def test_cond_non_callable_branch_raises_type_error(which):
    p = tf.placeholder(tf.bool, [])
    fns = {"true_fn": lambda: tf.constant(1), "false_fn": lambda: tf.constant(2)}
    fns[which] = tf.constant(3)
    with pytest.raises(TypeError, match="%s must be callable" % which):
        tf.cond(p, **fns)


@pytest.mark.parametrize("true_fn,false_fn", [
    (lambda: (tf.constant(1), tf.constant(2)), lambda: (tf.constant(1), tf.constant(2), tf.constant(3))),
    (lambda: {"a": tf.constant(1)}, lambda: {"b": tf.constant(1)}),
    (lambda: (tf.constant(1), [tf.constant(2)]), lambda: (tf.constant(1), tf.constant(2))),
])
def test_cond_mismatched_structure_raises_value_error(true_fn, false_fn):
    p = tf.placeholder(tf.bool, [])
    with pytest.raises(ValueError):
        tf.cond(p, true_fn, false_fn)


def test_cond_mismatched_dtypes_raises_value_error():
    p = tf.placeholder(tf.bool, [])
    with pytest.raises(ValueError, match="must have the same type: float32, int32"):
        tf.cond(p, lambda: tf.constant(0.0), lambda: tf.constant(0))


def test_cond_static_non_scalar_pred_raises_value_error():
    p = tf.placeholder(tf.bool, [2])
    with pytest.raises(ValueError, match="Shape must be rank 0 but is rank 1"):
        tf.cond(p, lambda: tf.constant(1), lambda: tf.constant(2))


def test_cond_dynamic_non_scalar_pred_fails_at_run_time():
    p = tf.placeholder(tf.bool)
    r = tf.cond(p, lambda: tf.constant(1), lambda: tf.constant(2))
    with tf.Session() as sess:
        assert sess.run(r, {p: True}) == 1
        with pytest.raises(tf.errors.InvalidArgumentError, match="scalar"):
            sess.run(r, {p: [True, False]})


def test_cond_non_bool_pred_raises_type_error():
    with pytest.raises(TypeError):
        tf.cond(tf.constant(1), lambda: tf.constant(1), lambda: tf.constant(2))


def test_cond_branches_returning_nothing_raise_value_error():
    p = tf.placeholder(tf.bool, [])
    with pytest.raises(ValueError, match="at least one"):
        tf.cond(p, lambda: [], lambda: [])


# ==== cond: gradients ==============================================================================
@pytest.mark.parametrize("pred", [True, False])
def test_cond_gradient_numerical_wrt_captured_inputs(pred):
    rng = np.random.RandomState(0)
    x = rng.uniform(0.5, 1.5, (2, 3))
    y = rng.uniform(0.5, 1.5, (2, 3))

    def fn(a, b):
        return tf.cond(tf.constant(pred), lambda: a * a * b + tf.sin(b), lambda: tf.exp(a) - a * b * b)

    check_gradient(fn, x, y)


@pytest.mark.parametrize("pred", [True, False])
def test_cond_gradient_numerical_with_compute_gradient_error(pred):
    x_val = np.array([0.3, -0.7, 1.1])
    x = tf.placeholder(tf.float64, [3])
    w = tf.constant([2.0, 3.0, -1.0], tf.float64)
    p = tf.placeholder_with_default(pred, [])
    y = tf.cond(p, lambda: tf.tanh(x * w), lambda: x * x * x)
    with tf.Session():
        err = tf.test.compute_gradient_error(x, [3], y, [3], x_init_value=x_val, delta=1e-6)
    assert err < 1e-6


@pytest.mark.parametrize("pred,expected", [(True, [4.0, 0.0]), (False, [0.0, 5.0])])
def test_cond_gradient_values_for_inputs_of_each_branch(pred, expected):
    x = tf.constant(2.0, tf.float64)
    y = tf.constant(5.0, tf.float64)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: x * x, lambda: y * x)
    gx, gy = tf.gradients(r, [x, y])
    assert gx is not None and gy is not None
    assert gx.dtype is tf.float64
    vals = _run([gx, gy], {p: pred})
    np.testing.assert_allclose(vals, [expected[0] if pred else 5.0, 0.0 if pred else 2.0])


def test_cond_gradient_of_multiple_outputs_and_unused_output():
    x = tf.constant(3.0, tf.float64)
    p = tf.placeholder(tf.bool, [])
    a, b = tf.cond(p, lambda: (x * x, x * 2.0), lambda: (x * 5.0, x * x * x))
    ga = tf.gradients(a, x)[0]
    gab = tf.gradients([a, b], x)[0]
    assert _run(ga, {p: True}) == 6.0
    assert _run(ga, {p: False}) == 5.0
    assert _run(gab, {p: True}) == 8.0
    assert _run(gab, {p: False}) == 5.0 + 27.0


@pytest.mark.parametrize("a,b", [(True, True), (True, False), (False, True), (False, False)])
def test_nested_cond_gradient(a, b):
    x = np.array([0.4, 0.9])
    y = np.array([1.3, -0.6])

    def fn(u, v):
        pa, pb = tf.constant(a), tf.constant(b)
        return tf.cond(pa, lambda: tf.cond(pb, lambda: u * v, lambda: tf.sin(u) * v * v),
                       lambda: tf.cond(pb, lambda: u * u * u + v, lambda: tf.exp(u * v)))

    check_gradient(fn, x, y)


def test_cond_gradient_inside_while_loop_numerical():
    x0 = np.array([0.5, -0.3])

    def fn(x):
        def body(i, v):
            return i + 1, tf.cond(tf.equal(i % 2, 0), lambda: v * v + 0.1, lambda: tf.sin(v) * 2.0)
        return tf.while_loop(lambda i, v: i < 4, body, [0, x])[1]

    check_gradient(fn, x0)


@pytest.mark.parametrize("pred,expected", [(True, [1.0, 0.0]), (False, [0.0, 1.0])])
def test_cond_gradient_of_passthrough_outer_tensors(pred, expected):
    x = tf.constant(2.0, tf.float64)
    y = tf.constant(3.0, tf.float64)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: x, lambda: y)
    assert _run(tf.gradients(r, [x, y]), {p: pred}) == expected


@pytest.mark.parametrize("pred,expected", [(True, [8.0, 12.0, 12.0]), (False, [4.0, 4.0, 2.0])])
def test_cond_second_order_gradient(pred, expected):
    x = tf.constant(2.0, tf.float64)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: x * x * x, lambda: x * x)
    g1 = tf.gradients(r, x)[0]
    g2 = tf.gradients(g1, x)[0]
    assert _run([r, g1, g2], {p: pred}) == expected


def test_cond_gradient_through_variable():
    w = tf.Variable(3.0, dtype=tf.float64)
    p = tf.placeholder(tf.bool, [])
    r = tf.cond(p, lambda: w * w, lambda: tf.constant(1.0, tf.float64))
    g = tf.gradients(r, w)[0]
    assert _run(g, {p: True}) == 6.0
    assert _run(g, {p: False}) == 0.0


# ==== case =========================================================================================
def _case_consts():
    return tf.constant(1), tf.constant(2), tf.constant(3)


def test_case_dict_and_list_forms_with_default():
    x, y, z = _case_consts()
    f1 = lambda: tf.constant(17)  # noqa: E731
    f2 = lambda: tf.constant(23)  # noqa: E731
    f3 = lambda: tf.constant(-1)  # noqa: E731
    r1 = tf.case({x < y: f1, x > z: f2}, default=f3, exclusive=True)
    r2 = tf.case([(y > z, f1), (y > x, f2)], default=f3)
    r3 = tf.case([(x < y, f1), (x < y, f2)], default=f3)  # several true: the first wins
    r5 = tf.case({x > y: f1}, default=f3)
    assert _run([r1, r2, r3, r5]) == [17, 23, 17, -1]


def test_case_with_fed_selector():
    c = tf.placeholder(tf.int32, [])
    r = tf.case([(tf.equal(c, 1), lambda: tf.constant(10.0)), (tf.equal(c, 2), lambda: tf.constant(20.0))],
                default=lambda: tf.constant(-1.0))
    assert r.dtype is tf.float32
    with tf.Session() as sess:
        assert [sess.run(r, {c: k}) for k in (1, 2, 3)] == [10.0, 20.0, -1.0]


def test_case_runs_each_branch_function_once():
    x, y, _ = _case_consts()
    calls = [0, 0]

    def make(ix):
        def fn():
            calls[ix] += 1
            return tf.constant(ix)
        return fn

    r = tf.case([(x < y, make(0)), (x > y, make(1))], default=lambda: tf.constant(2))
    assert calls == [1, 1]
    assert _run(r) == 0


def test_case_without_default_uses_last_pair():
    c = tf.placeholder(tf.int32, [])
    r = tf.case([(tf.equal(c, 1), lambda: tf.constant(1)), (tf.equal(c, 2), lambda: tf.constant(2)),
                 (tf.equal(c, 3), lambda: tf.constant(3))])
    with tf.Session() as sess:
        assert [sess.run(r, {c: k}) for k in (1, 2, 3)] == [1, 2, 3]


def test_case_without_default_fails_when_no_predicate_is_true():
    """TF1 guards the implicit default (the last pair) with an Assert that its predicate holds."""
    c = tf.placeholder(tf.int32, [])
    r = tf.case([(tf.equal(c, 1), lambda: tf.constant(1)), (tf.equal(c, 2), lambda: tf.constant(2))])
    with tf.Session() as sess:
        assert sess.run(r, {c: 2}) == 2
        with pytest.raises(tf.errors.InvalidArgumentError, match="Input error"):
            sess.run(r, {c: 4})


def test_case_exclusive_single_pair_without_default():
    x = tf.placeholder(tf.int32, [])
    r = tf.case([(tf.equal(x, 1), lambda: tf.constant(2))], exclusive=True)
    with tf.Session() as sess:
        assert sess.run(r, {x: 1}) == 2
        with pytest.raises(tf.errors.InvalidArgumentError, match="Input error"):
            sess.run(r, {x: 4})


def test_case_exclusive_fails_at_run_time_when_several_true():
    x, y, _ = _case_consts()
    r4 = tf.case([(x < y, lambda: tf.constant(17)), (x < y, lambda: tf.constant(23))],
                 default=lambda: tf.constant(-1), exclusive=True)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="exclusive=True"):
            sess.run(r4)


def test_case_exclusive_with_fed_predicates():
    a = tf.placeholder(tf.bool, [])
    b = tf.placeholder(tf.bool, [])
    r = tf.case([(a, lambda: tf.constant(1)), (b, lambda: tf.constant(2))], default=lambda: tf.constant(0),
                exclusive=True)
    with tf.Session() as sess:
        assert sess.run(r, {a: True, b: False}) == 1
        assert sess.run(r, {a: False, b: True}) == 2
        assert sess.run(r, {a: False, b: False}) == 0
        with pytest.raises(tf.errors.InvalidArgumentError, match="more than 1 conditions"):
            sess.run(r, {a: True, b: True})


def test_case_nested_outputs():
    c = tf.placeholder(tf.bool, [])
    r = tf.case([(c, lambda: (tf.constant(1), {"v": tf.constant(1.5)}))],
                default=lambda: (tf.constant(2), {"v": tf.constant(2.5)}))
    assert isinstance(r, tuple) and isinstance(r[1], dict)
    assert _run([r[0], r[1]["v"]], {c: True}) == [1, 1.5]
    assert _run([r[0], r[1]["v"]], {c: False}) == [2, 2.5]


@pytest.mark.parametrize("make_pairs", [
    lambda p: [(p, lambda: tf.constant(1), "extra")],
    lambda p: [[p, lambda: tf.constant(1)]],
])
def test_case_malformed_pairs_raise_type_error(make_pairs):
    pairs = make_pairs(tf.constant(True))
    with pytest.raises(TypeError, match="2-tuple"):
        tf.case(pairs, default=lambda: tf.constant(0))


def test_case_non_callable_fn_raises_type_error():
    p = tf.placeholder(tf.bool, [], name="p")
    with pytest.raises(TypeError, match="must be callable"):
        tf.case([(p, tf.constant(1))], default=lambda: tf.constant(0))


def test_case_python_bool_pred_raises_type_error():
    with pytest.raises(TypeError, match="pred must be a Tensor"):
        tf.case([(True, lambda: tf.constant(1))], default=lambda: tf.constant(0))


def test_case_non_bool_pred_raises_type_error():
    with pytest.raises(TypeError, match="pred must be Tensor of type bool"):
        tf.case([(tf.constant(1), lambda: tf.constant(1))], default=lambda: tf.constant(0))


def test_case_gradient():
    x0 = np.array([0.3, 0.8])

    def fn(x):
        s = tf.reduce_sum(x)
        return tf.case([(s > 10.0, lambda: x * 3.0), (s > 1.0, lambda: x * x)], default=lambda: tf.sin(x))

    check_gradient(fn, x0)


# ==== while_loop: values ===========================================================================
def test_while_loop_counter_from_the_guide():
    i = tf.constant(0)
    r = tf.while_loop(lambda i: tf.less(i, 10), lambda i: tf.add(i, 1), [i])
    assert isinstance(r, tf.Tensor)
    assert r.dtype is tf.int32 and r.shape.as_list() == []
    assert _run(r) == 10


@pytest.mark.parametrize("n,expected", [(0, 0), (1, 1), (2, 1), (10, 55), (20, 6765)])
def test_while_loop_fibonacci(n, expected):
    np_ = tf.placeholder(tf.int32, [])
    _, a, _ = tf.while_loop(lambda i, a, b: i < np_, lambda i, a, b: (i + 1, b, a + b),
                            [tf.constant(0), tf.constant(0), tf.constant(1)])
    assert _run(a, {np_: n}) == expected


def test_while_loop_python_numbers_as_loop_vars():
    i, s = tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s + tf.cast(i, tf.float32)), [0, 0.0])
    assert i.dtype is tf.int32 and s.dtype is tf.float32
    assert _run([i, s]) == [5, 10.0]


def test_while_loop_numpy_array_loop_var():
    x = tf.while_loop(lambda x: tf.reduce_sum(x) < 100.0, lambda x: x * 2.0, [np.array([1.0, 2.0], np.float32)])
    assert x.dtype is tf.float32 and x.shape.as_list() == [2]
    np.testing.assert_array_equal(_run(x), [64.0, 128.0])


def test_while_loop_vector_loop_var_and_fed_bound():
    x = tf.placeholder(tf.float32, [3])
    n = tf.placeholder(tf.int32, [])
    _, y = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 2.0 + 1.0), [0, x])
    assert y.shape.as_list() == [3]
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y, {x: [0.0, 1.0, -1.0], n: 3}), [7.0, 15.0, -1.0])
        np.testing.assert_allclose(sess.run(y, {x: [0.0, 1.0, -1.0], n: 0}), [0.0, 1.0, -1.0])


def test_while_loop_tuple_loop_vars_with_nested_dict():
    loop_vars = (tf.constant(0), {"a": tf.constant(1.0), "b": tf.constant([1, 1])})

    def body(i, d):
        return i + 1, {"a": d["a"] * 2.0, "b": d["b"] + i}

    i, d = tf.while_loop(lambda i, d: i < 4, body, loop_vars)
    assert isinstance(d, dict) and sorted(d) == ["a", "b"]
    out = _run([i, d["a"], d["b"]])
    assert out[0] == 4 and out[1] == 16.0
    np.testing.assert_array_equal(out[2], [7, 7])


def test_while_loop_namedtuple_loop_vars():
    def body(i, acc):
        return i + 1, Pair(acc.a + 1, acc.b * 3)

    i, acc = tf.while_loop(lambda i, acc: i < 3, body, (tf.constant(0), Pair(tf.constant(0), tf.constant(1))))
    assert isinstance(acc, Pair)
    assert _run([i, acc.a, acc.b]) == [3, 3, 27]


def test_while_loop_top_level_namedtuple_is_spread_over_arguments():
    r = tf.while_loop(lambda a, b: a < 5, lambda a, b: Pair(a + 1, b + a), Pair(tf.constant(0), tf.constant(0)))
    assert isinstance(r, Pair)
    assert _run([r.a, r.b]) == [5, 10]


def test_while_loop_single_loop_var_is_unpacked():
    i = tf.constant(0)
    r_list = tf.while_loop(lambda i: i < 3, lambda i: i + 1, [i])
    r_tuple = tf.while_loop(lambda i: i < 3, lambda i: (i + 1,), (i,))
    assert isinstance(r_list, tf.Tensor)
    assert isinstance(r_tuple, tf.Tensor)
    assert _run([r_list, r_tuple]) == [3, 3]


def test_while_loop_single_loop_var_return_same_structure():
    i = tf.constant(0)
    r = tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [i], return_same_structure=True)
    assert isinstance(r, list) and len(r) == 1
    assert _run(r[0]) == 3


def test_while_loop_result_follows_the_body_structure():
    """TF1 packs the result like the body's return value: a list of loop vars with a body returning a
    tuple gives a tuple (the top level is compared as lists)."""
    r = tf.while_loop(lambda i, x: i < 2, lambda i, x: (i + 1, x * 2), [tf.constant(0), tf.constant(3)])
    assert isinstance(r, tuple)
    assert _run(list(r)) == [2, 12]


@pytest.mark.parametrize("use_tensor", [False, True])
def test_while_loop_maximum_iterations(use_tensor):
    limit = tf.placeholder(tf.int32, []) if use_tensor else 7
    feed = {limit: 7} if use_tensor else None
    r = tf.while_loop(lambda i: tf.constant(True), lambda i: i + 2, [tf.constant(0)], maximum_iterations=limit)
    assert isinstance(r, tf.Tensor)
    assert _run(r, feed) == 14
    r2 = tf.while_loop(lambda i: i < 5, lambda i: i + 1, [tf.constant(0)], maximum_iterations=limit)
    assert _run(r2, feed) == 5


def test_while_loop_maximum_iterations_zero_and_multiple_vars():
    m = tf.placeholder(tf.int32, [])
    i, s = tf.while_loop(lambda i, s: i < 100, lambda i, s: (i + 1, s + i), (0, 0), maximum_iterations=m)
    with tf.Session() as sess:
        assert sess.run([i, s], {m: 0}) == [0, 0]
        assert sess.run([i, s], {m: 4}) == [4, 6]


def test_while_loop_maximum_iterations_must_be_scalar():
    with pytest.raises(ValueError, match="must be a scalar"):
        tf.while_loop(lambda i: i < 3, lambda i: i + 1, [tf.constant(0)], maximum_iterations=tf.constant([1, 2]))


def test_while_loop_captures_tensors_and_variables():
    x = tf.placeholder(tf.float32, [])
    w = tf.Variable(2.0)
    step = tf.constant(1)

    def body(i, acc):
        return i + step, acc * w + x

    _, acc = tf.while_loop(lambda i, acc: i < 3 * step, body, [0, 1.0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(acc, {x: 1.0}) == 15.0
        sess.run(tf.assign(w, 3.0))
        assert sess.run(acc, {x: 0.0}) == 27.0


def test_while_loop_body_side_effect_runs_every_iteration():
    v = tf.Variable(0)

    def body(i):
        with tf.control_dependencies([tf.assign_add(v, 10)]):
            return i + 1

    r = tf.while_loop(lambda i: i < 5, body, [tf.constant(0)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(r) == 5
        assert sess.run(v) == 50
        assert sess.run(r) == 5
        assert sess.run(v) == 100


def test_while_loop_body_reads_variable_updated_each_iteration():
    v = tf.Variable(1)

    def body(i, acc):
        upd = tf.assign_add(v, 1)
        with tf.control_dependencies([upd]):
            return i + 1, acc + v.read_value()

    _, acc = tf.while_loop(lambda i, acc: i < 3, body, [0, 0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(acc) == 2 + 3 + 4


def test_while_loop_body_not_evaluated_when_loop_runs_zero_times():
    """The body's ops on outer tensors run only inside iterations: `10 // d` must not run for n == 0."""
    d = tf.placeholder(tf.int32, [])
    n = tf.placeholder(tf.int32, [])
    r = tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + 10 // d), [0, 0])[1]
    with tf.Session() as sess:
        assert sess.run(r, {d: 5, n: 3}) == 6
        assert sess.run(r, {d: 0, n: 0}) == 0


def test_while_loop_shape_invariant_violation_message():
    x = tf.zeros([1])
    with pytest.raises(ValueError, match=r"enters the loop with shape \(1,\), but has shape \(2,\) after one "
                                         r"iteration"):
        tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, tf.concat([x, x], 0)), [0, x])


def test_while_loop_shape_invariants_allow_growth():
    x = tf.constant([1.0])
    i, y = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, tf.concat([x, x * 2.0], 0)), [0, x],
                         shape_invariants=[tf.TensorShape([]), tf.TensorShape([None])])
    assert y.shape.as_list() == [None]
    out = _run(y)
    assert out.shape == (8,)
    np.testing.assert_array_equal(out, [1, 2, 2, 4, 2, 4, 4, 8])


def test_while_loop_shape_invariant_incompatible_with_initial_shape():
    x = tf.zeros([2, 3])
    with pytest.raises(ValueError, match="is not compatible with the initial shape"):
        tf.while_loop(lambda x: tf.constant(False), lambda x: x, [x], shape_invariants=[tf.TensorShape([None])])


def test_while_loop_dtype_change_raises_type_error():
    with pytest.raises(TypeError):
        tf.while_loop(lambda i: i < 3, lambda i: tf.cast(i, tf.float32) + 1.0, [tf.constant(0)])


@pytest.mark.parametrize("which", ["cond", "body"])
def test_while_loop_non_callable_raises_type_error(which):
    fns = {"cond": lambda i: i < 3, "body": lambda i: i + 1}
    fns[which] = tf.constant(1)
    with pytest.raises(TypeError, match="must be callable"):
        tf.while_loop(fns["cond"], fns["body"], [tf.constant(0)])


def test_while_loop_body_with_wrong_number_of_outputs_raises_value_error():
    with pytest.raises(ValueError):
        tf.while_loop(lambda i, j: i < 3, lambda i, j: (i + 1, j, j), [tf.constant(0), tf.constant(0)])


def test_while_loop_empty_loop_vars_raises_value_error():
    with pytest.raises(ValueError):
        tf.while_loop(lambda: tf.constant(False), lambda: [], [])


def test_while_loop_cond_must_be_boolean():
    with pytest.raises(TypeError):
        tf.while_loop(lambda i: i, lambda i: i + 1, [tf.constant(0)])


def test_nested_while_loops():
    def outer_body(i, total):
        inner = tf.while_loop(lambda j, s: j < i, lambda j, s: (j + 1, s + j * i), [0, 0])[1]
        return i + 1, total + inner

    _, total = tf.while_loop(lambda i, t: i < 5, outer_body, [0, 0])
    expected = sum(j * i for i in range(5) for j in range(i))
    assert _run(total) == expected


# ==== while_loop: gradients ========================================================================
def test_while_loop_gradient_wrt_initial_value():
    x = tf.constant(1.5, tf.float64)
    r = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * v), [0, x])[1]
    g = tf.gradients(r, x)[0]
    assert g.dtype is tf.float64
    val, gval = _run([r, g])
    np.testing.assert_allclose(val, 1.5 ** 8)
    np.testing.assert_allclose(gval, 8 * 1.5 ** 7)


def test_while_loop_gradient_numerical_wrt_initial_and_captured():
    rng = np.random.RandomState(1)
    x0 = rng.uniform(-1, 1, (3,))
    w0 = rng.uniform(0.5, 1.0, (3,))

    def fn(x, w):
        return tf.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, tf.sin(v) * w + v * 0.5), [0, x])[1]

    check_gradient(fn, x0, w0)


def test_while_loop_gradient_wrt_captured_only():
    w = tf.constant(2.0, tf.float64)
    r = tf.while_loop(lambda i, v: i < 5, lambda i, v: (i + 1, v * w), [0, tf.constant(1.0, tf.float64)])[1]
    g = tf.gradients(r, w)[0]
    val, gval = _run([r, g])
    assert val == 32.0
    np.testing.assert_allclose(gval, 5 * 2.0 ** 4)


def test_while_loop_gradient_with_fed_iteration_count():
    n = tf.placeholder(tf.int32, [])
    x = tf.constant(2.0, tf.float64)
    w = tf.constant(3.0, tf.float64)
    r = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * w), [0, x])[1]
    gx, gw = tf.gradients(r, [x, w])
    with tf.Session() as sess:
        assert sess.run([gx, gw], {n: 3}) == [27.0, 2.0 * 3 * 9.0]
        assert sess.run([gx, gw], {n: 0}) == [1.0, 0.0]
        assert sess.run([gx, gw], {n: 1}) == [3.0, 2.0]


def test_while_loop_gradient_with_maximum_iterations():
    x = tf.constant(1.0, tf.float64)
    r = tf.while_loop(lambda v: tf.constant(True), lambda v: v * 2.0, [x], maximum_iterations=6)
    g = tf.gradients(r, x)[0]
    assert _run([r, g]) == [64.0, 64.0]


def test_while_loop_gradient_of_several_outputs():
    x = tf.constant(0.5, tf.float64)
    y = tf.constant(2.0, tf.float64)
    _, a, b = tf.while_loop(lambda i, a, b: i < 2, lambda i, a, b: (i + 1, a * b, b + a), [0, x, y])
    # i=0: a=1.0, b=2.5; i=1: a=2.5, b=3.5
    ga, gb = tf.gradients(a + b, [x, y])
    assert _run([a, b]) == [2.5, 3.5]
    # a2 = a0*b0*(b0+a0), b2 = b0 + a0 + a0*b0
    a0, b0 = 0.5, 2.0
    da = b0 * (b0 + a0) + a0 * b0 + 1 + b0
    db = a0 * (b0 + a0) + a0 * b0 + 1 + a0
    np.testing.assert_allclose(_run([ga, gb]), [da, db])


def test_while_loop_long_loop_gradient_is_fast_and_not_recursive():
    start = time.time()
    x = tf.constant(1.0, tf.float64)
    r = tf.while_loop(lambda i, v: i < 10000, lambda i, v: (i + 1, v * 1.0001), [0, x])[1]
    g = tf.gradients(r, x)[0]
    val, gval = _run([r, g])
    elapsed = time.time() - start
    np.testing.assert_allclose(val, 1.0001 ** 10000, rtol=1e-9)
    np.testing.assert_allclose(gval, 1.0001 ** 10000, rtol=1e-9)
    assert elapsed < 5.0


def test_nested_while_loop_gradient():
    x0 = np.array([0.7, -0.4])
    w0 = np.array([1.1, 0.9])

    def fn(x, w):
        def outer_body(i, v):
            inner = tf.while_loop(lambda j, u: j < 2, lambda j, u: (j + 1, u * w + 0.1), [0, v])[1]
            return i + 1, tf.sin(inner)
        return tf.while_loop(lambda i, v: i < 3, outer_body, [0, x])[1]

    check_gradient(fn, x0, w0)


def test_nested_while_loop_gradient_value():
    x = tf.constant(1.5, tf.float64)
    w = tf.constant(1.2, tf.float64)

    def outer_body(i, v):
        return i + 1, tf.while_loop(lambda j, u: j < 2, lambda j, u: (j + 1, u * w), [0, v])[1]

    r = tf.while_loop(lambda i, v: i < 3, outer_body, [0, x])[1]
    gx, gw = tf.gradients(r, [x, w])
    np.testing.assert_allclose(_run([r, gx, gw]), [1.5 * 1.2 ** 6, 1.2 ** 6, 6 * 1.5 * 1.2 ** 5])


def test_while_loop_back_prop_false_gives_no_gradient():
    x = tf.constant(2.0, tf.float64)
    r = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * v), [0, x], back_prop=False)[1]
    assert tf.gradients(r, x) == [None]
    assert _run(r) == 256.0


def test_while_loop_gradient_through_variable():
    w = tf.Variable(2.0, dtype=tf.float64)
    r = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v * w), [0, tf.constant(1.0, tf.float64)])[1]
    g = tf.gradients(r, w)[0]
    assert _run(g) == 12.0


def test_while_loop_gradient_numerical_with_matmul_state():
    rng = np.random.RandomState(3)
    h0 = rng.uniform(-1, 1, (1, 3))
    m0 = rng.uniform(-0.5, 0.5, (3, 3))

    def fn(h, m):
        return tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, tf.tanh(tf.matmul(s, m))), [0, h])[1]

    check_gradient(fn, h0, m0)


# ==== tf.tuple / tf.group ==========================================================================
def test_tuple_returns_same_values_gated_on_all_inputs():
    v = tf.Variable(0)
    upd = tf.assign_add(v, 1)
    c = tf.constant(7)
    out = tf.tuple([c, upd])
    assert isinstance(out, list) and len(out) == 2
    assert out[0].dtype is tf.int32
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(out[0]) == 7
        assert sess.run(v) == 1  # fetching the gated constant ran the update too
        assert sess.run(out[1]) == 2


def test_tuple_control_inputs_and_none_entries():
    v = tf.Variable(0)
    upd = tf.assign_add(v, 5)
    a = tf.constant(1.0)
    out = tf.tuple([a, None], control_inputs=[upd])
    assert out[1] is None
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(out[0]) == 1.0
        assert sess.run(v) == 5


def test_tuple_errors():
    with pytest.raises(TypeError):
        tf.tuple([tf.constant(1)], control_inputs=tf.no_op())
    with pytest.raises(ValueError, match="at least one Tensor"):
        tf.tuple([None])


def test_group_runs_all_inputs():
    v = tf.Variable(0)
    w = tf.Variable(0.0)
    g = tf.group(tf.assign_add(v, 2), tf.assign(w, 3.0))
    assert isinstance(g, tf.Operation)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(g) is None
        assert sess.run([v, w]) == [2, 3.0]


def test_assign_and_add_ordering_with_control_dependency():
    """Reading before the assign via a dependency gives [5, 3]; reading after it gives [5, 7]."""
    v = tf.Variable(1)
    read_before = v + 2
    with tf.control_dependencies([read_before]):
        assign = tf.assign(v, 5)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([assign, read_before]) == [5, 3]

    tf.reset_default_graph()
    v = tf.Variable(1)
    assign = tf.assign(v, 5)
    with tf.control_dependencies([assign]):
        read_after = v + 2
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run([assign, read_after]) == [5, 7]


# ---- while_loop: TF's check of the body's structure (issue 15) -----------------------------------
def test_while_loop_list_vars_tuple_body_with_maximum_iterations_is_a_type_error():
    """With maximum_iterations TF loops over (counter, loop_vars): the user's list is then compared
    with the body's tuple below the top level, where sequence types must match."""
    x0 = tf.constant(0)
    with pytest.raises(TypeError) as info:
        tf.while_loop(lambda i, j: i < 5, lambda i, j: (i + 1, j + 2), [x0, tf.constant(1)], maximum_iterations=3)
    msg = str(info.value)
    assert msg.startswith("The two structures don't have the same nested structure.\n\nFirst structure: type=list")
    assert "More specifically: The two namedtuples don't have the same sequence type. First structure type=list" in msg
    assert "has type list, while second structure type=tuple" in msg and msg.endswith(
        "Entire first structure:\n[., [., .]]\nEntire second structure:\n[., (., .)]")
    with pytest.raises(TypeError, match="has type tuple, while second structure type=list"):
        tf.while_loop(lambda i, j: i < 5, lambda i, j: [i + 1, j + 2], (x0, x0), maximum_iterations=3)
    with pytest.raises(TypeError, match="has type list, while second structure type=tuple"):
        tf.while_loop(lambda i: i < 5, lambda i: (i + 1,), [x0], maximum_iterations=3, return_same_structure=True)
    # One loop variable (TF packs it): the body must return it bare.
    with pytest.raises(ValueError, match=r"More specifically: Substructure \"type=tuple str=\(.*\)\" is a sequence, "
                                         r"while substructure \"type=Tensor str=.*\" is not"):
        tf.while_loop(lambda i: i < 5, lambda i: (i + 1,), [x0], maximum_iterations=3)
    with pytest.raises(ValueError, match="is a sequence, while substructure"):
        tf.while_loop(lambda i: i < 5, lambda i: [i + 1], [x0], maximum_iterations=3)
    # Without maximum_iterations the top level is compared as lists; deeper levels by type.
    with pytest.raises(TypeError, match="has type list, while second structure type=tuple"):
        tf.while_loop(lambda i, j: i < 5, lambda i, j: (i + 1, (j[0], j[1])), [x0, [x0, x0]])
    from tensorweave.eager import context
    with context.eager_mode():
        with pytest.raises(TypeError, match="has type list, while second structure type=tuple"):
            tf.while_loop(lambda i, j: i < 5, lambda i, j: (i + 1, j + 2), [0, 1], maximum_iterations=3)


def test_while_loop_structures_tf_accepts():
    x0 = tf.constant(0)
    ok = [
        tf.while_loop(lambda i, j: i < 5, lambda i, j: (i + 1, j + 2), (x0, x0), maximum_iterations=3),
        tf.while_loop(lambda i, j: i < 5, lambda i, j: [i + 1, j + 2], [x0, x0], maximum_iterations=3),
        tf.while_loop(lambda i, j: i < 5, lambda i, j: [i + 1, j + 2], (x0, x0)),
        tf.while_loop(lambda i, j: i < 5, lambda i, j: (i + 1, j + 2), [x0, x0]),
    ]
    assert isinstance(ok[0], tuple) and isinstance(ok[1], list) and isinstance(ok[2], list)
    single = [tf.while_loop(lambda i: i < 5, lambda i: i + 1, [x0], maximum_iterations=3),
              tf.while_loop(lambda i: i < 5, lambda i: [i + 1], [x0]),
              tf.while_loop(lambda i: i < 5, lambda i: (i + 1,), [x0])]
    r = tf.while_loop(lambda i: i < 5, lambda i: [i + 1], [x0], maximum_iterations=3, return_same_structure=True)
    assert isinstance(r, list)
    assert _run([list(t) for t in ok] + single + r) == [[3, 6], [3, 6], [5, 10], [5, 10], 3, 5, 5, 3]
