"""Graph / Operation / Tensor: naming, name scopes, control dependencies, devices, collections,
lookups by name, the Tensor protocol and tensor conversion, as TF1's ops.py does them."""

import inspect

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import ops as ops_module


def _line():
    """The line number of the caller."""
    return inspect.currentframe().f_back.f_lineno


# ---- unique naming -----------------------------------------------------------------------------
def test_default_names_are_made_unique():
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    c = tf.constant(3.0)
    assert [a.name, b.name, c.name] == ["Const:0", "Const_1:0", "Const_2:0"]
    assert a.op.name == "Const"
    x = tf.placeholder(tf.float32)
    y = tf.identity(x)
    z = tf.identity(x)
    assert (x.op.name, y.op.name, z.op.name) == ("Placeholder", "Identity", "Identity_1")


def test_explicit_names_are_made_unique():
    assert tf.constant(1, name="a").op.name == "a"
    assert tf.constant(1, name="a").op.name == "a_1"
    assert tf.constant(1, name="b_1").op.name == "b_1"
    assert tf.constant(1, name="b").op.name == "b"
    # "b_1" is taken, so the second "b" skips to "b_2".
    assert tf.constant(1, name="b").op.name == "b_2"


def test_uniqueness_ignores_case():
    assert tf.constant(1, name="A").op.name == "A"
    assert tf.constant(1, name="a").op.name == "a_1"


def test_unique_name_sequence():
    """Graph.unique_name, as ops_test.NameStackTest.testBasics."""
    g = tf.Graph()
    assert g.unique_name("foo", mark_as_used=False) == "foo"
    assert g.unique_name("foo", mark_as_used=False) == "foo"
    assert g.unique_name("foo") == "foo"
    assert g.unique_name("foo", mark_as_used=False) == "foo_1"
    assert g.unique_name("foo") == "foo_1"
    assert g.unique_name("foo") == "foo_2"
    assert g.unique_name("foo_1") == "foo_1_1"
    assert g.unique_name("foo_1") == "foo_1_2"
    assert g.unique_name("foo_1_2") == "foo_1_2_1"
    with g.name_scope("bar"):
        assert g.unique_name("foo") == "bar/foo"
        assert g.unique_name("foo") == "bar/foo_1"
        with g.name_scope(None):
            assert g.unique_name("foo") == "foo_3"
        with g.name_scope("baz"):
            assert g.unique_name("foo") == "bar/baz/foo"
        with g.name_scope("baz"):
            assert g.unique_name("foo") == "bar/baz_1/foo"
    with g.name_scope("bar"):
        with g.name_scope("baz"):
            assert g.unique_name("foo") == "bar_1/baz/foo"
    assert g.unique_name("foo") == "foo_4"
    assert g.unique_name("bar") == "bar_2"


def test_out_of_order_unique_name():
    g = tf.Graph()
    assert g.unique_name("foo_2") == "foo_2"
    assert g.unique_name("foo") == "foo"
    assert g.unique_name("foo") == "foo_1"
    assert g.unique_name("foo") == "foo_3"


# ---- name scopes -------------------------------------------------------------------------------
def test_name_scope_strings():
    g = tf.Graph()
    with g.name_scope("foo") as foo:
        assert foo == "foo/"
        with g.name_scope("foo2") as foo2:
            assert foo2 == "foo/foo2/"
        with g.name_scope(None) as empty1:
            assert empty1 == ""
            with g.name_scope("foo3") as foo3:
                assert foo3 == "foo3/"
        with g.name_scope("") as empty2:
            assert empty2 == ""


def test_ops_inside_name_scopes():
    c0 = tf.constant(0.0)
    with tf.name_scope("scope") as scope:
        a = tf.constant(1.0, name="a")
        c1 = tf.constant(1.0)
        c2 = tf.constant(2.0)
        # The scope string itself names an op exactly (no uniquification, no nesting).
        whole = tf.identity(c1, name=scope)
    assert c0.op.name == "Const"
    assert a.op.name == "scope/a"
    assert (c1.op.name, c2.op.name) == ("scope/Const", "scope/Const_1")
    assert whole.op.name == "scope"
    with tf.name_scope("scope"):
        again = tf.constant(3.0)
    assert again.op.name == "scope_1/Const"


def test_name_scope_reentry_with_trailing_slash():
    with tf.name_scope("baz") as scope:
        with tf.name_scope("quux"):
            q = tf.constant(1.0)
        with tf.name_scope(scope):
            b0 = tf.constant(1.0)
            b1 = tf.identity(b0, name=scope)
            t = tf.identity(b0, name="trailing/")
    assert q.op.name == "baz/quux/Const"
    assert b0.op.name == "baz/Const"
    assert b1.op.name == "baz"
    assert t.op.name == "trailing"
    with tf.name_scope("baz/"):
        b2 = tf.constant(2.0)
    assert b2.op.name == "baz/Const_1"
    with tf.name_scope("baz"):
        b3 = tf.constant(2.0)
    assert b3.op.name == "baz_1/Const"


def test_get_name_scope():
    assert tf.get_name_scope() == ""
    with tf.name_scope("a"):
        with tf.name_scope("b"):
            assert tf.get_name_scope() == "a/b"
            assert tf.get_default_graph().get_name_scope() == "a/b"
    assert tf.get_name_scope() == ""


def test_name_scope_default_name():
    x = tf.constant(1.0)
    with tf.name_scope(None, "default", [x]) as s1:
        assert s1 == "default/"
        with tf.name_scope(None, "default2") as s2:
            assert s2 == "default/default2/"
    with tf.name_scope(None, "default", [x]) as s3:
        assert s3 == "default_1/"
    with tf.name_scope("given", "default", [x]) as s4:
        assert s4 == "given/"
    with tf.name_scope("", "default", [x]) as s5:
        assert s5 == ""


def test_name_scope_uses_and_enters_the_graph_of_values():
    g0 = tf.Graph()
    with g0.as_default():
        a = tf.constant(1.0)
        b = tf.constant(2.0)
    with tf.name_scope("my_scope", "my_default_scope", [a, b]) as scope:
        assert scope == "my_scope/"
        assert tf.get_default_graph() is g0
        c = tf.constant(3.0)
    assert c.graph is g0
    assert c.op.name == "my_scope/Const"
    with tf.name_scope(None, "my_default_scope", [a, b]) as scope:
        assert scope == "my_default_scope/"
        assert tf.get_default_graph() is g0
    with tf.name_scope("", values=[a, b]) as scope:
        assert scope == ""
        assert tf.get_default_graph() is g0
    assert tf.get_default_graph() is not g0


def test_name_scope_values_from_two_graphs_raises():
    g0, g1 = tf.Graph(), tf.Graph()
    with g0.as_default():
        a = tf.constant(1.0)
    with g1.as_default():
        b = tf.constant(1.0)
    with pytest.raises(ValueError):
        with tf.name_scope("s", values=[a, b]):
            pass


def test_name_scope_needs_a_name_when_given_values():
    x = tf.constant(1.0)
    with pytest.raises(ValueError):
        with tf.name_scope(None, values=[x]):
            pass
    with pytest.raises(ValueError):
        with tf.name_scope(None, None, [x]):
            pass


def test_invalid_names_raise():
    g = tf.Graph()
    with g.name_scope(""):
        pass
    with g.name_scope("foo/"):
        with g.name_scope("_bar"):  # a leading underscore is fine below the top level
            pass
    with pytest.raises(ValueError):
        with g.name_scope("foo:0"):
            pass
    with pytest.raises(ValueError):
        with g.name_scope("_bar"):
            pass
    with pytest.raises(ValueError):
        tf.constant(1.0, name="-bad")
    with pytest.raises(ValueError):
        tf.constant(1.0, name="a b")


# ---- control dependencies ------------------------------------------------------------------------
def test_control_dependencies_basic_and_dominated():
    a = tf.constant(1.0)
    b = tf.constant(1.0)
    with tf.control_dependencies([a]):
        c = tf.constant(1.0)
        d = tf.identity(b)
        e = tf.identity(c)
    assert c.op.control_inputs == [a.op]
    assert d.op.control_inputs == [a.op]
    # e's input c was created inside the same block, so it already runs after a.
    assert e.op.control_inputs == []
    assert a.op in [op for op in c.op.control_inputs]


def test_control_dependencies_nested_accumulate():
    a = [tf.constant(float(i)) for i in range(4)]
    with tf.control_dependencies(a):
        b1 = tf.constant(0.0)
    with tf.control_dependencies([a[0]]):
        with tf.control_dependencies([a[1]]):
            with tf.control_dependencies([a[2]]):
                with tf.control_dependencies([a[3]]):
                    b2 = tf.constant(0.0)
    expected = {t.op for t in a}
    assert set(b1.op.control_inputs) == expected
    assert set(b2.op.control_inputs) == expected
    assert len(b2.op.control_inputs) == 4


def test_control_dependencies_none_clears():
    a1, a2, a3, a4 = [tf.constant(float(i)) for i in range(4)]
    with tf.control_dependencies([a1]):
        with tf.control_dependencies([a2]):
            with tf.control_dependencies(None):
                with tf.control_dependencies([a3]):
                    with tf.control_dependencies([a4]):
                        b_3_4 = tf.constant(0.0)
                    b_3 = tf.constant(0.0)
                b_none = tf.constant(0.0)
            b_1_2 = tf.constant(0.0)
        b_1 = tf.constant(0.0)
        with tf.control_dependencies(None):
            b_none2 = tf.constant(0.0)
    assert set(b_3_4.op.control_inputs) == {a3.op, a4.op}
    assert b_3.op.control_inputs == [a3.op]
    assert b_none.op.control_inputs == []
    assert set(b_1_2.op.control_inputs) == {a1.op, a2.op}
    assert b_1.op.control_inputs == [a1.op]
    assert b_none2.op.control_inputs == []


def test_control_dependencies_repeated_op_counted_once():
    a0, a1 = tf.py_func(lambda: (np.float32(0), np.float32(1)), [], [tf.float32, tf.float32])
    with tf.control_dependencies([a0]):
        b = tf.constant(0.0)
        with tf.control_dependencies([a1]):
            c = tf.constant(0.0)
    assert b.op.control_inputs == [a0.op]
    assert c.op.control_inputs == [a0.op]


def test_no_control_dependency_with_data_dependency():
    a = tf.constant(1.0)
    with tf.control_dependencies([a]):
        b = tf.identity(a)
    assert b.op.control_inputs == []


def test_control_dependencies_accepts_ops_tensors_and_convertibles():
    a = tf.constant(1.0)
    n = tf.no_op()

    class Convertible:
        def _as_graph_element(self):
            return a

    with tf.control_dependencies([Convertible(), n]):
        c = tf.constant(2.0)
    assert set(c.op.control_inputs) == {a.op, n}


def test_control_dependencies_rejects_junk():
    with pytest.raises(TypeError):
        with tf.control_dependencies([1.5]):
            pass


def test_control_dependencies_order_execution():
    log = []
    side = tf.py_func(lambda: log.append("side") or np.float32(1), [], tf.float32)
    with tf.control_dependencies([side]):
        out = tf.constant(5.0)
    with tf.Session() as sess:
        assert sess.run(out) == 5.0
    assert log == ["side"]


# ---- devices -----------------------------------------------------------------------------------
def test_no_device():
    assert tf.constant(1.0).op.device == ""


def test_device_partial_string_and_tensor_device():
    with tf.device("/job:worker/replica:2"):
        c = tf.constant(1.0)
    assert c.op.device == "/job:worker/replica:2"
    assert c.device == "/job:worker/replica:2"


def test_device_full_string():
    with tf.device("/job:worker/replica:2/task:0/device:CPU:3"):
        c = tf.constant(1.0)
    assert c.op.device == "/job:worker/replica:2/task:0/device:CPU:3"


def test_device_nesting_overrides_and_restores():
    with tf.device("/job:worker/replica:2"):
        a = tf.constant(1.0)
        with tf.device("/job:worker/replica:3/task:0"):
            b = tf.constant(1.0)
        c = tf.constant(1.0)
    assert [a.device, b.device, c.device] == ["/job:worker/replica:2", "/job:worker/replica:3/task:0",
                                              "/job:worker/replica:2"]


def test_device_short_names_are_canonicalized():
    with tf.device("/cpu:0"):
        a = tf.constant(1.0)
    with tf.device("CPU:1"):
        b = tf.constant(1.0)
    with tf.device("/gpu:1"):
        c = tf.constant(1.0)
    assert a.device == "/device:CPU:0"
    assert b.device == "/device:CPU:1"
    assert c.device == "/device:GPU:1"


def test_device_strings_merge_field_by_field():
    """ops_test.DeviceTest.testNestingWithDeviceStrings."""
    with tf.device("/device:GPU:0"):
        a = tf.constant(1.0)
        with tf.device("/job:worker"):
            b = tf.constant(1.0)
            with tf.device("/device:CPU:0"):
                c = tf.constant(1.0)
                with tf.device("/job:ps"):
                    d = tf.constant(1.0)
                    with tf.device(""):
                        e = tf.constant(1.0)
    assert [t.device for t in (a, b, c, d, e)] == [
        "/device:GPU:0", "/job:worker/device:GPU:0", "/job:worker/device:CPU:0", "/job:ps/device:CPU:0",
        "/job:ps/device:CPU:0"]


def test_device_none_clears():
    with tf.device("/job:worker/replica:2/device:CPU:1"):
        a = tf.constant(1.0)
        with tf.device(None):
            b = tf.constant(1.0)
        c = tf.constant(1.0)
    assert [a.device, b.device, c.device] == ["/job:worker/replica:2/device:CPU:1", "",
                                              "/job:worker/replica:2/device:CPU:1"]


def test_device_function():
    seen = []

    def place(op):
        seen.append(op.type)
        return "/job:worker/replica:2/device:CPU:1"

    with tf.device(place):
        a = tf.constant(1.0)
        with tf.device(None):
            b = tf.constant(1.0)
    assert a.device == "/job:worker/replica:2/device:CPU:1"
    assert b.device == ""
    assert seen == ["Const"]


def test_device_function_overwrites_inner_strings():
    """ops_test.DeviceTest.testOverwritingBehavior: an outer device function has the last word."""
    with tf.device(lambda op: "/job:overwrite"):
        a = tf.constant(1.0)
        with tf.device("/job:ps"):
            b = tf.constant(1.0)
        with tf.device(None):
            with tf.device("/job:ps"):
                c = tf.constant(1.0)
    assert [a.device, b.device, c.device] == ["/job:overwrite", "/job:overwrite", "/job:ps"]



def test_device_function_string_is_kept_as_returned():
    """TF records a device function's string as the op's requested device, uncanonicalized (issue 15)."""
    with tf.device(lambda op: "/cpu:0"):
        a = tf.constant(1.0)
    with tf.device(lambda op: "cpu:0"):
        b = tf.constant(1.0)
    with tf.device(lambda op: b"/job:w/gpu:1"):
        c = tf.constant(1.0)
    with tf.device(lambda op: ""):
        d = tf.constant(1.0)
    assert [a.op.device, a.device, b.device, c.device, d.device] == ["/cpu:0", "/cpu:0", "cpu:0", "/job:w/gpu:1", ""]
    # A DeviceSpec is written as its string; an outer device string merges into the canonical form.
    with tf.device(lambda op: tf.DeviceSpec.from_string("/cpu:0")):
        e = tf.constant(1.0)
    with tf.device("/job:w"):
        with tf.device(lambda op: "/cpu:0"):
            f = tf.constant(1.0)
    assert [e.device, f.device] == ["/device:CPU:0", "/job:w/device:CPU:0"]
    # An outer function sees the inner function's string as the op's device.
    seen = []
    with tf.device(lambda op: seen.append(op.device) or "/gpu:0"):
        with tf.device(lambda op: "/cpu:0"):
            g = tf.constant(1.0)
    assert g.device == "/gpu:0" and seen == ["/cpu:0"]
    with tf.Session() as sess:
        assert sess.run(a) == 1.0 and sess.run(b) == 1.0


def test_device_function_bad_results():
    for value in (None, 3):
        with pytest.raises(TypeError, match="Expected binary or unicode string, got %r" % (value,)):
            with tf.device(lambda op, value=value: value):
                tf.constant(1.0)
    # A malformed string is kept; running the op fails as TF's session does.
    with tf.Graph().as_default():
        with tf.device(lambda op: "/foo:0"):
            h = tf.constant(1.0, name="h")
        assert h.device == "/foo:0"
        with pytest.raises(tf.errors.InvalidArgumentError, match="Malformed device specification '/foo:0' in node h"):
            tf.Session().run(h)

# ---- collections -------------------------------------------------------------------------------
class _Named:
    def __init__(self, name):
        self.name = name


def test_collections():
    g = tf.Graph()
    g.add_to_collection("key", 12)
    g.add_to_collection("other", "foo")
    g.add_to_collection("key", 34)
    g.add_to_collection("blah", 27)
    blank1, blank2 = _Named("prefix/foo"), _Named("junk/foo")
    g.add_to_collection("blah", blank1)
    g.add_to_collection("blah", blank2)
    assert g.get_collection("key") == [12, 34]
    assert g.get_collection("nothing") == []
    assert g.get_collection("blah") == [27, blank1, blank2]
    assert g.get_collection("blah", "prefix") == [blank1]
    assert g.get_collection("blah", ".*x") == [blank1]
    snapshot = g.get_collection("other")
    ref = g.get_collection_ref("other")
    g.add_to_collection("other", "bar")
    assert snapshot == ["foo"]
    assert ref == ["foo", "bar"]
    assert g.get_collection_ref("other") is ref
    empty_ref = g.get_collection_ref("empty")
    empty_ref.append("something")
    assert g.get_collection("empty") == ["something"]
    assert sorted(g.get_all_collection_keys()) == ["blah", "empty", "key", "other"]
    g.clear_collection("key")
    assert g.get_collection("key") == []


def test_collections_property():
    g = tf.Graph()
    assert list(g.collections) == []
    g.add_to_collection("key", 12)
    g.add_to_collection("other", "foo")
    assert sorted(g.collections) == ["key", "other"]


def test_add_to_collections_uniquifies_names():
    g = tf.Graph()
    g.add_to_collections(["a", "b", "a"], "v")
    assert g.get_collection("a") == ["v"]
    assert g.get_collection("b") == ["v"]
    g.add_to_collections((n for n in ("c", "d")), "w")
    assert g.get_collection("d") == ["w"]
    g.add_to_collections("e", "x")
    assert g.get_collection("e") == ["x"]


def test_module_level_collection_functions_use_default_graph():
    tf.add_to_collection("key", 90)
    tf.add_to_collections(["key", "k2"], 100)
    assert tf.get_collection("key") == [90, 100]
    assert tf.get_collection_ref("k2") == [100]
    g = tf.Graph()
    with g.as_default():
        assert tf.get_collection("key") == []


def test_graph_keys():
    assert tf.GraphKeys.GLOBAL_VARIABLES == "variables"
    assert tf.GraphKeys.TRAINABLE_VARIABLES == "trainable_variables"
    assert tf.GraphKeys.LOCAL_VARIABLES == "local_variables"
    assert tf.GraphKeys.UPDATE_OPS == "update_ops"
    assert tf.GraphKeys.LOSSES == "losses"
    assert tf.GraphKeys.REGULARIZATION_LOSSES == "regularization_losses"


# ---- finalize -----------------------------------------------------------------------------------
def test_finalize_blocks_new_ops_but_not_running():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(3.0)
    assert not g.finalized
    g.finalize()
    assert g.finalized
    with g.as_default():
        with pytest.raises(RuntimeError, match="Graph is finalized and cannot be modified"):
            tf.constant(1.0)
        with pytest.raises(RuntimeError):
            tf.identity(c)
    with tf.Session(graph=g) as sess:
        assert sess.run(c) == 3.0
    g._unsafe_unfinalize()
    with g.as_default():
        tf.constant(1.0)


# ---- lookups by name ----------------------------------------------------------------------------
def test_get_tensor_and_operation_by_name():
    g = tf.get_default_graph()
    c = tf.constant(1.0, name="c")
    two = tf.py_func(lambda: (np.float32(1), np.float32(2)), [], [tf.float32, tf.float32], name="two")
    assert g.get_tensor_by_name("c:0") is c
    assert g.get_operation_by_name("c") is c.op
    assert g.get_tensor_by_name("two:1") is two[1]
    assert g.as_graph_element("c:0") is c
    assert g.as_graph_element("c") is c.op
    assert g.as_graph_element(c) is c


def test_get_tensor_by_name_errors():
    g = tf.get_default_graph()
    tf.constant(1.0, name="c")
    with pytest.raises(KeyError, match="The name 'nope:0' refers to a Tensor which does not exist. The operation, "
                                       "'nope', does not exist in the graph."):
        g.get_tensor_by_name("nope:0")
    with pytest.raises(KeyError, match="exists but only has 1 outputs"):
        g.get_tensor_by_name("c:1")
    with pytest.raises(ValueError, match="looks like an \\(invalid\\) Operation name, not a Tensor"):
        g.get_tensor_by_name("c")
    with pytest.raises(ValueError):
        g.get_tensor_by_name("c:x")
    with pytest.raises(TypeError):
        g.get_tensor_by_name(3)


def test_get_operation_by_name_errors():
    g = tf.get_default_graph()
    tf.constant(1.0, name="c")
    with pytest.raises(KeyError, match="The name 'nope' refers to an Operation not in the graph."):
        g.get_operation_by_name("nope")
    with pytest.raises(ValueError, match="appears to refer to a Tensor, not a Operation"):
        g.get_operation_by_name("c:0")
    with pytest.raises(TypeError):
        g.get_operation_by_name(3)


def test_as_graph_element_conversions():
    g = tf.get_default_graph()
    a = tf.constant(1.0, name="FloatOutput")

    class Convertible:
        def _as_graph_element(self):
            return "FloatOutput:0"

    assert g.as_graph_element(Convertible()) is a
    with pytest.raises(TypeError):
        g.as_graph_element(object())
    other = tf.Graph()
    with pytest.raises(ValueError):
        other.as_graph_element(a)


# ---- Tensor ------------------------------------------------------------------------------------
def test_tensor_str_and_repr():
    x = tf.placeholder(tf.float32, [10, 10])
    y = tf.placeholder(tf.float32, [10, 10])
    s = tf.add_n([x, y])
    assert str(s) == 'Tensor("AddN:0", shape=(10, 10), dtype=float32)'
    assert repr(s) == "<tf.Tensor 'AddN:0' shape=(10, 10) dtype=float32>"
    assert str(tf.constant(1)) == 'Tensor("Const:0", shape=(), dtype=int32)'
    assert str(tf.placeholder(tf.float64, [None, 3], name="p")) == 'Tensor("p:0", shape=(?, 3), dtype=float64)'
    assert str(tf.placeholder(tf.float32, [5])) == 'Tensor("Placeholder_2:0", shape=(5,), dtype=float32)'


def test_tensor_str_with_unknown_rank_and_device():
    u = tf.placeholder(tf.int64, name="u")
    assert str(u) == 'Tensor("u:0", dtype=int64)'
    assert repr(u) == "<tf.Tensor 'u:0' shape=<unknown> dtype=int64>"
    with tf.device("/job:worker/replica:0/task:0/device:CPU:0"):
        d = tf.constant(1.0, name="d")
    assert str(d) == 'Tensor("d:0", shape=(), dtype=float32, device=/job:worker/replica:0/task:0/device:CPU:0)'


def test_tensor_properties():
    x = tf.placeholder(tf.float32, [2, None], name="x")
    assert x.name == "x:0"
    assert x.dtype is tf.float32
    assert x.shape.as_list() == [2, None]
    assert x.get_shape() is x.shape
    assert x.value_index == 0
    assert x.op.name == "x"
    assert x.graph is tf.get_default_graph()
    a, b = tf.py_func(lambda: (np.int32(1), np.float32(2)), [], [tf.int32, tf.float32], name="pf")
    assert (a.name, b.name) == ("pf:0", "pf:1")
    assert (a.value_index, b.value_index) == (0, 1)
    assert (a.dtype, b.dtype) == (tf.int32, tf.float32)
    assert a.op is b.op


def test_set_shape():
    x = tf.placeholder(tf.float32, [None, 3])
    x.set_shape([4, None])
    assert x.shape.as_list() == [4, 3]
    with pytest.raises(ValueError):
        x.set_shape([5, 3])
    with pytest.raises(ValueError):
        x.set_shape([4, 3, 1])
    u = tf.placeholder(tf.float32)
    u.set_shape([2])
    assert u.shape.as_list() == [2]


def test_consumers():
    x = tf.constant(1.0)
    y = tf.identity(x)
    z = tf.add_n([x, y])
    assert x.consumers() == [y.op, z.op]
    assert y.consumers() == [z.op]
    assert z.consumers() == []


def test_tensors_hash_and_compare_by_identity():
    a = tf.constant(1.0)
    b = tf.constant(1.0)
    assert a == a
    assert a != b
    assert a in [a]
    assert a not in [b]
    d = {a: "a", b: "b"}
    assert d[a] == "a"
    assert len({a, b, a}) == 2


def test_tensor_in_boolean_context_raises():
    t = tf.constant(True)
    with pytest.raises(TypeError, match="Using a `tf.Tensor` as a Python `bool` is not allowed"):
        if t:
            pass
    with pytest.raises(TypeError):
        bool(t)
    with pytest.raises(TypeError):
        not t  # noqa: B015


def test_tensor_len_and_iteration_raise_in_graph_mode():
    t = tf.constant([1.0, 2.0])
    with pytest.raises(TypeError):
        len(t)
    with pytest.raises(TypeError):
        iter(tf.placeholder(tf.float32))
    with pytest.raises(TypeError):
        iter(t)


def test_tensor_eval():
    x = tf.placeholder(tf.float32, [2])
    y = tf.identity(x)
    with tf.Session():
        np.testing.assert_array_equal(y.eval({x: [1.0, 2.0]}), [1.0, 2.0])


def test_is_tensor():
    assert tf.is_tensor(tf.constant(1.0))
    assert not tf.is_tensor(np.array(1.0))
    assert not tf.is_tensor(1.0)


# ---- Operation ----------------------------------------------------------------------------------
def test_operation_properties():
    a = tf.constant(1.0, name="a")
    b = tf.constant(2.0, name="b")
    s = tf.add_n([a, b], name="s")
    op = s.op
    assert op.name == "s"
    assert op.type == "AddN"
    assert list(op.inputs) == [a, b]
    assert op.outputs == [s]
    assert op.values() == (s,)
    assert op.control_inputs == []
    assert op.graph is tf.get_default_graph()
    assert repr(op) == "<tf.Operation 's' type=AddN>"
    n = tf.no_op(name="n")
    assert n.outputs == []
    assert n.type == "NoOp"


def test_operation_get_attr():
    x = tf.placeholder(tf.float64, [3], name="x")
    assert x.op.get_attr("dtype") is tf.float64
    c = tf.constant([1, 2], name="c")
    assert c.op.get_attr("dtype") is tf.int32
    with pytest.raises(ValueError, match="no attr named 'nonexistent'"):
        x.op.get_attr("nonexistent")


def test_add_control_input_after_creation():
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    b.op._add_control_input(a.op)
    assert b.op.control_inputs == [a.op]
    b.op._add_control_inputs([a.op])
    assert b.op.control_inputs == [a.op]


def test_creation_site_is_recorded():
    x = tf.constant(1.0)
    line = _line() - 1

    def helper():
        return tf.identity(x)

    y = helper()
    helper_line = line + 4
    assert any(fr[0] == __file__ and fr[1] == line for fr in x.op.traceback)
    assert any(fr[0] == __file__ and fr[1] == helper_line for fr in y.op.traceback)
    v = tf.Variable(1.0)
    vline = _line() - 1
    assert any(fr[0] == __file__ and fr[1] == vline for fr in v.op.traceback)


# ---- graphs --------------------------------------------------------------------------------------
def test_default_graph_stack():
    orig = tf.get_default_graph()
    g0 = tf.Graph()
    assert tf.get_default_graph() is orig
    with g0.as_default() as g:
        assert g is g0
        assert tf.get_default_graph() is g0
        with tf.Graph().as_default() as g1:
            assert tf.get_default_graph() is g1
        assert tf.get_default_graph() is g0
    assert tf.get_default_graph() is orig


def test_reset_default_graph():
    old = tf.get_default_graph()
    tf.constant(1.0)
    tf.reset_default_graph()
    assert tf.get_default_graph() is not old
    assert tf.get_default_graph().get_operations() == []
    with pytest.raises(AssertionError):
        with tf.Graph().as_default():
            tf.reset_default_graph()


def test_ops_from_different_graphs_cannot_mix():
    g1 = tf.Graph()
    with g1.as_default():
        a = tf.constant(1.0)
    b = tf.constant(2.0)
    with pytest.raises(ValueError):
        tf.add_n([b, a])


def test_get_operations_in_creation_order_and_version():
    g = tf.Graph()
    v0 = g.version
    with g.as_default():
        a = tf.constant(1.0)
        b = tf.identity(a)
    assert g.get_operations() == [a.op, b.op]
    assert g.version > v0
    g.seed = 7
    assert g.seed == 7
    assert not g.building_function


def test_gradient_override_map_requires_strings():
    g = tf.get_default_graph()
    with pytest.raises(TypeError):
        with g.gradient_override_map({"Identity": 3}):
            pass
    with g.gradient_override_map({"Identity": "Foo"}):
        with g.gradient_override_map({"Identity": "Bar"}):
            pass
        assert g._gradient_override_map == {"Identity": "Foo"}
    assert g._gradient_override_map == {}


# ---- conversion ------------------------------------------------------------------------------------
def test_convert_to_tensor():
    t = tf.constant(1.0)
    assert tf.convert_to_tensor(t) is t
    assert tf.convert_to_tensor(t, dtype=tf.float32) is t
    with pytest.raises(ValueError, match="Tensor conversion requested dtype int32 for Tensor with dtype float32"):
        tf.convert_to_tensor(t, dtype=tf.int32)
    c = tf.convert_to_tensor([1, 2], name="c")
    assert c.op.type == "Const"
    assert c.op.name == "c"
    assert c.dtype is tf.int32
    assert tf.convert_to_tensor(np.zeros([2], np.float64)).dtype is tf.float64
    assert tf.convert_to_tensor(3, dtype=tf.float32).dtype is tf.float32


def test_convert_to_tensor_preferred_dtype():
    assert tf.convert_to_tensor(1, preferred_dtype=tf.float32).dtype is tf.float32
    assert tf.convert_to_tensor(1, preferred_dtype=tf.int64).dtype is tf.int64
    # Falls back to the inferred type when the preferred one cannot hold the value.
    assert tf.convert_to_tensor(1.5, preferred_dtype=tf.int32).dtype is tf.float32
    t = tf.constant(1.0)
    assert tf.convert_to_tensor(t, preferred_dtype=tf.int32) is t


class _Celsius:
    def __init__(self, degrees):
        self.degrees = degrees


def _celsius_to_tensor(value, dtype=None, name=None, as_ref=False):
    return tf.constant(value.degrees, dtype=dtype or tf.float32, name=name)


tf.register_tensor_conversion_function(_Celsius, _celsius_to_tensor)


def test_register_tensor_conversion_function():
    t = tf.convert_to_tensor(_Celsius(21.5))
    assert t.dtype is tf.float32
    s = tf.identity(_Celsius(3.0))
    with tf.Session() as sess:
        assert sess.run(t) == np.float32(21.5)
        assert sess.run(s) == np.float32(3.0)


def test_register_tensor_conversion_function_validates_arguments(monkeypatch):
    # Keep a bad registration (if the core accepts one) from leaking into other tests.
    monkeypatch.setattr(ops_module, "_conversion_funcs", list(ops_module._conversion_funcs))
    with pytest.raises(TypeError):
        tf.register_tensor_conversion_function("not a type", _celsius_to_tensor)
    with pytest.raises(TypeError):
        tf.register_tensor_conversion_function(_Celsius, "not callable")


def test_convert_unconvertible_raises_type_error():
    with pytest.raises(TypeError):
        tf.convert_to_tensor(object())
    with pytest.raises(TypeError):
        tf.convert_to_tensor({"a": 1})
