"""tf.variable_scope / tf.get_variable / tf.make_template: naming by variable scope, sharing by
reuse (True, AUTO_REUSE, inherited, reuse_variables), defaults from scopes, and the errors."""

import numpy as np
import pytest

import tensorweave as tf


def _fill(value):
    """An initializer `(shape, dtype, partition_info)` filling with `value`."""
    def init(shape, dtype=None, partition_info=None):
        return tf.constant(np.full(shape, value), dtype=dtype)
    return init


def _values(variables):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(variables)


# ---- naming --------------------------------------------------------------------------------------
def test_get_variable_is_named_by_variable_scope():
    with tf.variable_scope("foo"):
        v = tf.get_variable("v", [1])
        with tf.variable_scope("bar"):
            w = tf.get_variable("w", [2, 3])
    assert v.name == "foo/v:0"
    assert w.name == "foo/bar/w:0"
    assert w.shape.as_list() == [2, 3]
    assert v.dtype.base_dtype is tf.float32
    assert tf.global_variables() == [v, w]
    assert tf.trainable_variables() == [v, w]


def test_get_variable_ignores_name_scope_but_ops_do_not():
    with tf.name_scope("ns"):
        v = tf.get_variable("v", [1])
        with tf.variable_scope("vs"):
            w = tf.get_variable("w", [1])
            c = tf.constant(1.0)
    assert v.name == "v:0"
    assert w.name == "vs/w:0"
    assert c.op.name == "ns/vs/Const"


def test_variable_scope_name_scope_is_uniquified_but_variable_scope_is_not():
    with tf.variable_scope("foo") as s1:
        c1 = tf.constant(1.0)
    with tf.variable_scope("foo", reuse=True) as s2:
        c2 = tf.constant(1.0)
    assert s1.name == s2.name == "foo"
    assert c1.op.name == "foo/Const"
    assert c2.op.name == "foo_1/Const"


def test_get_variable_scope():
    assert tf.get_variable_scope().name == ""
    assert tf.get_variable_scope().reuse is False
    with tf.variable_scope("a"):
        with tf.variable_scope("b") as scope:
            assert tf.get_variable_scope() is scope
            assert scope.name == "a/b"
            assert scope.original_name_scope == "a/b/"


# ---- reuse ---------------------------------------------------------------------------------------------
def test_duplicate_without_reuse_raises():
    with tf.variable_scope("foo"):
        tf.get_variable("v", [1])
        with pytest.raises(ValueError, match="Variable foo/v already exists, disallowed. Did you mean to set "
                                             "reuse=True or reuse=tf.AUTO_REUSE in VarScope?"):
            tf.get_variable("v", [1])
    with pytest.raises(ValueError, match="already exists"):
        with tf.variable_scope("foo"):
            tf.get_variable("v", [1])


def test_reuse_true_returns_the_same_variable():
    with tf.variable_scope("foo"):
        v = tf.get_variable("v", [1])
    with tf.variable_scope("foo", reuse=True):
        v1 = tf.get_variable("v", [1])
        v2 = tf.get_variable("v")
    assert v1 is v
    assert v2 is v
    assert len(tf.global_variables()) == 1


def test_reuse_true_missing_raises():
    with tf.variable_scope("foo", reuse=True):
        with pytest.raises(ValueError, match="Variable foo/w does not exist, or was not created with "
                                             "tf.get_variable\\(\\). Did you mean to set reuse=tf.AUTO_REUSE"):
            tf.get_variable("w", [1])


def test_auto_reuse():
    with tf.variable_scope("s", reuse=tf.AUTO_REUSE):
        a = tf.get_variable("a", [2])
    with tf.variable_scope("s", reuse=tf.AUTO_REUSE):
        b = tf.get_variable("a", [2])
        c = tf.get_variable("c", [3])
    assert a is b
    assert c.name == "s/c:0"
    assert len(tf.global_variables()) == 2


def test_reuse_is_inherited_and_cannot_be_turned_off():
    with tf.variable_scope("a"):
        tf.get_variable("v", [1])
        with tf.variable_scope("b"):
            tf.get_variable("w", [1])
    with tf.variable_scope("a", reuse=True):
        assert tf.get_variable_scope().reuse is True
        with tf.variable_scope("b"):
            assert tf.get_variable_scope().reuse is True
            w = tf.get_variable("w", [1])
        with tf.variable_scope("b", reuse=False):
            assert tf.get_variable_scope().reuse is True
    assert w.name == "a/b/w:0"
    with tf.variable_scope("x", reuse=tf.AUTO_REUSE):
        with tf.variable_scope("y"):
            assert tf.get_variable_scope().reuse is tf.AUTO_REUSE


def test_reuse_variables():
    with tf.variable_scope("foo") as scope:
        v = tf.get_variable("v", [1])
        assert scope.reuse is False
        scope.reuse_variables()
        assert scope.reuse is True
        assert tf.get_variable("v", [1]) is v
        with pytest.raises(ValueError, match="does not exist"):
            tf.get_variable("other", [1])


def test_reenter_scope_object():
    with tf.variable_scope("foo") as scope:
        v = tf.get_variable("v", [1])
        c1 = tf.constant(1.0)
    with tf.variable_scope(scope, reuse=True) as again:
        assert again.name == "foo"
        assert tf.get_variable("v") is v
        c2 = tf.constant(1.0)
    with tf.variable_scope(scope):
        with pytest.raises(ValueError, match="already exists"):
            tf.get_variable("v", [1])
    assert c1.op.name == "foo/Const"
    # Re-entering a scope object opens a fresh name scope, like another "foo".
    assert c2.op.name == "foo_1/Const"


def test_name_scopes_of_reentered_variable_scopes():
    """variable_scope_test.testVarScopeNameScope / testVarScopeOriginalNameScope."""
    with tf.name_scope("scope1"):
        with tf.variable_scope("tower") as tower:
            assert tower.original_name_scope == "scope1/tower/"
            with tf.name_scope("scope2") as sc2:
                assert sc2 == "scope1/tower/scope2/"
        with tf.variable_scope(tower):
            with tf.name_scope("scope2") as sc2:
                assert sc2 == "scope1/tower_1/scope2/"
        with tf.variable_scope("tower"):
            with tf.name_scope("scope2") as sc2:
                assert sc2 == "scope1/tower_2/scope2/"
    with tf.name_scope("scope3"):
        with tf.variable_scope(tower) as tower1:
            assert tower1.name == "tower"
            assert tower1.original_name_scope == "scope1/tower/"
            with tf.name_scope("foo") as sc:
                assert sc == "scope3/tower/foo/"
    root = tf.get_variable_scope()
    with tf.name_scope("scope4"):
        with tf.variable_scope(root):
            with tf.name_scope("scope2") as sc2:
                assert sc2 == "scope4/scope2/"


def test_default_name_is_uniquified():
    with tf.variable_scope(None, default_name="layer") as s1:
        w1 = tf.get_variable("w", [1])
    with tf.variable_scope(None, default_name="layer") as s2:
        w2 = tf.get_variable("w", [1])
    with tf.variable_scope("outer"):
        with tf.variable_scope(None, default_name="layer") as s3:
            pass
    assert (s1.name, s2.name, s3.name) == ("layer", "layer_1", "outer/layer")
    assert (w1.name, w2.name) == ("layer/w:0", "layer_1/w:0")
    with tf.variable_scope("given", default_name="layer") as s4:
        pass
    assert s4.name == "given"


def test_variable_scope_argument_errors():
    with pytest.raises(ValueError):
        with tf.variable_scope(None):
            pass
    with pytest.raises(ValueError):
        with tf.variable_scope("s", reuse="yes"):
            pass


def test_shape_mismatch_on_reuse_raises():
    with tf.variable_scope("foo"):
        tf.get_variable("v", [1])
    with tf.variable_scope("foo", reuse=True):
        with pytest.raises(ValueError, match=r"Trying to share variable foo/v, but specified shape \(2,\) and found "
                                             r"shape \(1,\)"):
            tf.get_variable("v", [2])


def test_dtype_mismatch_on_reuse_raises():
    with tf.variable_scope("foo"):
        tf.get_variable("v", [1])
    with tf.variable_scope("foo", reuse=True):
        with pytest.raises(ValueError, match="Trying to share variable foo/v, but specified dtype int32 and found "
                                             "dtype float32"):
            tf.get_variable("v", [1], dtype=tf.int32)


# ---- initializers and defaults ---------------------------------------------------------------------------
def test_initializer_callable():
    v = tf.get_variable("v", [2, 2], initializer=_fill(3.0))
    np.testing.assert_array_equal(_values(v), np.full([2, 2], 3.0))


def test_initializer_given_as_a_value():
    c = tf.get_variable("c", initializer=tf.constant([1.0, 2.0]))
    assert c.shape.as_list() == [2]
    lst = tf.get_variable("lst", initializer=[[1.0], [2.0]])
    assert lst.shape.as_list() == [2, 1]
    arr = tf.get_variable("arr", initializer=np.arange(3.0), dtype=tf.float64)
    assert arr.dtype.base_dtype is tf.float64
    out = _values([c, lst, arr])
    np.testing.assert_array_equal(out[0], [1.0, 2.0])
    np.testing.assert_array_equal(out[1], [[1.0], [2.0]])
    np.testing.assert_array_equal(out[2], [0.0, 1.0, 2.0])


def test_value_initializer_sets_the_dtype():
    i = tf.get_variable("i", initializer=tf.constant([1, 2]))
    assert i.dtype.base_dtype is tf.int32
    np.testing.assert_array_equal(_values(i), [1, 2])


def test_value_initializer_with_shape_raises():
    with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape."):
        tf.get_variable("c", shape=[2], initializer=tf.constant([1.0, 2.0]))


def test_value_initializer_with_conflicting_dtype_raises():
    with pytest.raises(ValueError, match="don't match"):
        tf.get_variable("c", initializer=tf.constant([1, 2]), dtype=tf.float32)


def test_new_variable_needs_a_fully_defined_shape():
    with pytest.raises(ValueError):
        tf.get_variable("v")
    with pytest.raises(ValueError):
        tf.get_variable("w", [None, 2])


def test_initializer_classes():
    z = tf.get_variable("z", [3], initializer=tf.zeros_initializer())
    o = tf.get_variable("o", [2], initializer=tf.ones_initializer())
    k = tf.get_variable("k", [2], initializer=tf.constant_initializer(4.5))
    out = _values([z, o, k])
    np.testing.assert_array_equal(out[0], [0.0, 0.0, 0.0])
    np.testing.assert_array_equal(out[1], [1.0, 1.0])
    np.testing.assert_array_equal(out[2], [4.5, 4.5])


def test_default_initializers():
    f = tf.get_variable("f", [20, 30])
    i = tf.get_variable("i", [4], dtype=tf.int32)
    b = tf.get_variable("b", [2], dtype=tf.bool)
    out = _values([f, i, b])
    limit = np.sqrt(6.0 / (20 + 30))  # glorot_uniform
    assert out[0].dtype == np.float32
    assert np.all(np.abs(out[0]) <= limit)
    assert out[0].std() > limit / 4
    np.testing.assert_array_equal(out[1], [0, 0, 0, 0])
    np.testing.assert_array_equal(out[2], [False, False])


def test_scope_initializer_is_the_default():
    with tf.variable_scope("s", initializer=_fill(2.0)):
        a = tf.get_variable("a", [2])
        with tf.variable_scope("inner"):
            b = tf.get_variable("b", [1])
        c = tf.get_variable("c", [1], initializer=_fill(7.0))
    out = _values([a, b, c])
    np.testing.assert_array_equal(out[0], [2.0, 2.0])
    np.testing.assert_array_equal(out[1], [2.0])
    np.testing.assert_array_equal(out[2], [7.0])


def test_scope_dtype_is_the_default():
    with tf.variable_scope("d", dtype=tf.float64):
        v = tf.get_variable("v", [1], initializer=_fill(1.0))
        with tf.variable_scope("inner"):
            w = tf.get_variable("w", [1], initializer=_fill(1.0))
    assert v.dtype.base_dtype is tf.float64
    assert w.dtype.base_dtype is tf.float64


def test_set_initializer_on_scope():
    with tf.variable_scope("s") as scope:
        scope.set_initializer(_fill(5.0))
        v = tf.get_variable("v", [1])
    np.testing.assert_array_equal(_values(v), [5.0])


def test_regularizer_adds_losses():
    def reg(v):
        return tf.identity(v.value())

    with tf.variable_scope("r", regularizer=reg):
        v = tf.get_variable("v", [2], initializer=_fill(1.5))
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert len(losses) == 1
    np.testing.assert_array_equal(_values(losses[0]), [1.5, 1.5])
    assert v.name == "r/v:0"


def test_trainable_and_collections():
    t = tf.get_variable("t", [1], trainable=False)
    c = tf.get_variable("c", [1], collections=["mine"])
    loc = tf.get_local_variable("loc", [1])
    assert t not in tf.trainable_variables()
    assert t in tf.global_variables()
    assert tf.get_collection("mine") == [c]
    assert c not in tf.global_variables()
    assert loc in tf.local_variables()
    assert loc not in tf.global_variables()
    assert loc not in tf.trainable_variables()


def test_custom_getter():
    seen = []

    def getter(next_getter, name, *args, **kwargs):
        seen.append(name)
        return next_getter(name, *args, **kwargs)

    with tf.variable_scope("g", custom_getter=getter):
        v = tf.get_variable("v", [1])
    assert seen == ["g/v"]
    assert v.name == "g/v:0"


# ---- make_template -------------------------------------------------------------------------------------
def _scale_by_weight(x):
    w = tf.get_variable("w", [2], initializer=_fill(3.0))
    return tf.add_n([x, w, w])


def test_make_template_shares_variables_across_calls():
    tmpl = tf.make_template("my_op", _scale_by_weight)
    y1 = tmpl(tf.constant([1.0, 2.0]))
    y2 = tmpl(tf.constant([10.0, 20.0]))
    assert [v.name for v in tf.global_variables()] == ["my_op/w:0"]
    assert tmpl.variable_scope.name == "my_op"
    assert tmpl.variables == tf.global_variables()
    assert tmpl.trainable_variables == tf.global_variables()
    out = _values([y1, y2])
    np.testing.assert_array_equal(out[0], [7.0, 8.0])
    np.testing.assert_array_equal(out[1], [16.0, 26.0])
    # Ops of later calls go to fresh name scopes.
    assert y1.op.name.startswith("my_op/")
    assert y2.op.name.startswith("my_op_1/")


def test_two_templates_get_separate_variables():
    t1 = tf.make_template("layer", _scale_by_weight)
    t2 = tf.make_template("layer", _scale_by_weight)
    t1(tf.constant([0.0, 0.0]))
    t2(tf.constant([0.0, 0.0]))
    t1(tf.constant([0.0, 0.0]))
    assert [v.name for v in tf.global_variables()] == ["layer/w:0", "layer_1/w:0"]


def test_make_template_with_kwargs_and_create_scope_now():
    def f(x, scale):
        w = tf.get_variable("w", [1], initializer=_fill(scale))
        return tf.add_n([x, w])

    tmpl = tf.make_template("k", f, create_scope_now_=True, scale=4.0)
    assert tmpl.variable_scope.name == "k"
    assert tf.global_variables() == []
    a = tmpl(tf.constant([1.0]))
    b = tmpl(tf.constant([2.0]))
    assert len(tf.global_variables()) == 1
    out = _values([a, b])
    np.testing.assert_array_equal(out[0], [5.0])
    np.testing.assert_array_equal(out[1], [6.0])


def test_default_name_with_a_slash_opens_that_name_scope():
    # TF 1.15 and 2.21: the unique default name is the name scope, whole ("a/b", then "a/b_1").
    with tf.variable_scope(None, default_name="a/b") as scope:
        v = tf.get_variable("v", [1])
        c = tf.constant(1.0, name="c")
    with tf.variable_scope(None, default_name="a/b") as again:
        c2 = tf.constant(1.0, name="c")
    assert (scope.name, v.name, c.name) == ("a/b", "a/b/v:0", "a/b/c:0")
    assert (again.name, c2.name) == ("a/b_1", "a/b_1/c:0")
    assert tf.constant(2.0, name="b").name == "b:0"
