"""tf.Session: fetch and feed structures, pruning, the plan cache, default sessions, session state,
the debug interpreter, and how runtime errors are reported."""

import collections
import gc
import inspect
import os
import threading
import time

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.runtime import codegen


def _line():
    return inspect.currentframe().f_back.f_lineno


def _counter():
    """A py_func whose every run appends to a list (to observe what a run executed)."""
    calls = []

    def f():
        calls.append(1)
        return np.float32(len(calls))

    return tf.py_func(f, [], tf.float32), calls


# ---- fetches -------------------------------------------------------------------------------------
def test_fetch_single_tensor_and_op():
    a = tf.constant([1.0, 2.0])
    n = tf.no_op()
    with tf.Session() as sess:
        out = sess.run(a)
        assert isinstance(out, np.ndarray)
        np.testing.assert_array_equal(out, [1.0, 2.0])
        assert sess.run(n) is None


def test_fetch_list_and_tuple():
    a = tf.constant(1.0)
    b = tf.constant([2, 3])
    n = tf.no_op()
    with tf.Session() as sess:
        res = sess.run([a, b, n])
        assert isinstance(res, list)
        assert res[0] == 1.0
        np.testing.assert_array_equal(res[1], [2, 3])
        assert res[2] is None
        res = sess.run((a, b))
        assert isinstance(res, tuple)
        assert len(res) == 2
        assert sess.run([]) == []
        assert sess.run(()) == ()


def test_fetch_namedtuple():
    ABC = collections.namedtuple("ABC", ["a", "b", "c"])
    a = tf.constant(1.0)
    b = tf.constant(2)
    with tf.Session() as sess:
        res = sess.run(ABC(a, b, [a, b]))
        assert type(res) is ABC
        assert res.a == 1.0
        assert res.b == 2
        assert res.c == [1.0, 2]


def test_fetch_dict_and_ordered_dict():
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    n = tf.no_op()
    with tf.Session() as sess:
        res = sess.run({"a": a, "b": [b, a], "n": n})
        assert type(res) is dict
        assert res == {"a": 1.0, "b": [2.0, 1.0], "n": None}
        od = collections.OrderedDict([("z", a), ("y", b)])
        res = sess.run(od)
        assert type(res) is collections.OrderedDict
        assert list(res.items()) == [("z", 1.0), ("y", 2.0)]
        assert sess.run({}) == {}


def test_fetch_deeply_nested():
    a = tf.constant(1)
    b = tf.constant(2)
    P = collections.namedtuple("P", ["x", "y"])
    with tf.Session() as sess:
        res = sess.run([(a, {"k": [b, P(a, (b,))]}), [[a]]])
        assert res == [(1, {"k": [2, P(1, (2,))]}), [[1]]]


def test_fetch_same_tensor_twice():
    a = tf.constant(4.0)
    with tf.Session() as sess:
        assert sess.run([a, a, {"x": a}]) == [4.0, 4.0, {"x": 4.0}]


def test_fetch_by_name():
    a = tf.constant(3.0, name="a")
    tf.no_op(name="n")
    with tf.Session() as sess:
        assert sess.run("a:0") == 3.0
        assert sess.run("n") is None
        assert sess.run(["a:0", a]) == [3.0, 3.0]
        assert sess.run("a") is None


def test_fetch_errors():
    tf.constant(1.0, name="a")
    other = tf.Graph()
    with other.as_default():
        foreign = tf.constant(1.0)
    with tf.Session() as sess:
        with pytest.raises(TypeError, match="Fetch argument None has invalid type"):
            sess.run(None)
        with pytest.raises(TypeError, match="Fetch argument 5 has invalid type"):
            sess.run(5)
        with pytest.raises(TypeError):
            sess.run([tf.constant(1.0), None])
        with pytest.raises(ValueError, match="Fetch argument 'nope:0' cannot be interpreted as a Tensor"):
            sess.run("nope:0")
        with pytest.raises(ValueError, match="cannot be interpreted as a Tensor"):
            sess.run("nope")
        with pytest.raises(ValueError):
            sess.run(foreign)


def test_scalars_come_back_as_numpy_scalars():
    with tf.Session() as sess:
        assert type(sess.run(tf.constant(1.5))) is np.float32
        assert type(sess.run(tf.constant(1.5, tf.float64))) is np.float64
        assert type(sess.run(tf.constant(2))) is np.int32
        assert sess.run(tf.constant("s")) == b"s"


def test_fetched_arrays_are_writable_copies():
    v = tf.Variable([1.0, 2.0, 3.0])
    c = tf.constant([[1, 2]])
    with tf.Session() as sess:
        sess.run(v.initializer)
        got = sess.run(v)
        assert got.flags.writeable
        got[0] = 99.0
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0])
        np.testing.assert_array_equal(sess.run(v.value()), [1.0, 2.0, 3.0])
        cc = sess.run(c)
        cc[0, 0] = 7
        np.testing.assert_array_equal(sess.run(c), [[1, 2]])


# ---- feeds ---------------------------------------------------------------------------------------
def test_feed_by_tensor_and_by_name():
    x = tf.placeholder(tf.float32, [2], name="x")
    y = tf.identity(x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1.0, 2.0]}), [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(y, feed_dict={"x:0": np.array([3.0, 4.0])}), [3.0, 4.0])
        out = sess.run(y, {x: np.array([1, 2], np.int64)})
        assert out.dtype == np.float32


def test_feed_any_tensor_overrides_its_value():
    c = tf.constant(2.0)
    d = tf.identity(c)
    with tf.Session() as sess:
        assert sess.run(d, {c: 5.0}) == 5.0
        assert sess.run(d) == 2.0
        assert sess.run(c, {c: 7.0}) == 7.0


def test_fed_tensor_cuts_the_graph():
    side, calls = _counter()
    out = tf.identity(side)
    with tf.Session() as sess:
        assert sess.run(out, {side: 10.0}) == 10.0
        assert calls == []
        assert sess.run(out) == 1.0
        assert calls == [1]


def test_feed_shape_mismatch_names_the_tensor():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.identity(x)
    with tf.Session() as sess:
        assert sess.run(y, {x: np.zeros([3, 2])}).shape == (3, 2)
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(3, 3\) for Tensor 'x:0', which has "
                                             r"shape '\(\?, 2\)'"):
            sess.run(y, {x: np.zeros([3, 3])})
        with pytest.raises(ValueError, match="Cannot feed value of shape"):
            sess.run(y, {x: [1.0, 2.0]})


def test_feed_unconvertible_value_raises_value_error():
    x = tf.placeholder(tf.float32, [])
    with tf.Session() as sess:
        with pytest.raises(ValueError):
            sess.run(x, {x: "not a number"})


def test_feed_int_out_of_range_raises_type_error():
    x = tf.placeholder(tf.int32, [])
    with tf.Session() as sess:
        with pytest.raises(TypeError, match="is not compatible with Tensor type"):
            sess.run(x, {x: 2 ** 40})


def test_feeding_a_tensor_raises_type_error():
    x = tf.placeholder(tf.float32, [])
    c = tf.constant(1.0)
    with tf.Session() as sess:
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor object"):
            sess.run(x, {x: c})


def test_bad_feed_keys_raise_type_error():
    x = tf.placeholder(tf.float32, [], name="x")
    other = tf.Graph()
    with other.as_default():
        foreign = tf.placeholder(tf.float32, [])
    with tf.Session() as sess:
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor"):
            sess.run(x, {5: 1.0})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor"):
            sess.run(x, {"x": 1.0})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor"):
            sess.run(x, {"nope:0": 1.0})
        with pytest.raises(TypeError, match="Cannot interpret feed_dict key as Tensor"):
            sess.run(x, {foreign: 1.0})


def test_unfed_placeholder_raises_invalid_argument_naming_it():
    x = tf.placeholder(tf.float32, [2], name="my_input")
    y = tf.identity(x)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="You must feed a value for placeholder tensor 'my_input' with dtype float") as e:
            sess.run(y)
        assert e.value.op is x.op
        assert e.value.error_code == tf.errors.INVALID_ARGUMENT


def test_string_feed():
    s = tf.placeholder(tf.string, [None])
    with tf.Session() as sess:
        out = sess.run(tf.identity(s), {s: ["ab", b"c"]})
        assert list(out) == [b"ab", b"c"]


# ---- pruning -------------------------------------------------------------------------------------
def test_only_needed_ops_run():
    side, calls = _counter()
    needed = tf.constant(1.0)
    unrelated = tf.add_n([side, side])
    tf.placeholder(tf.float32, name="never_fed")
    with tf.Session() as sess:
        assert sess.run(needed) == 1.0
        assert calls == []
        assert sess.run(unrelated) == 2.0
        assert calls == [1]
        sess.run([unrelated, needed])
        assert calls == [1, 1]


def test_control_dependency_targets_run():
    side, calls = _counter()
    with tf.control_dependencies([side]):
        n = tf.no_op()
    g = tf.group(side)
    with tf.Session() as sess:
        sess.run(n)
        assert calls == [1]
        sess.run(g)
        assert calls == [1, 1]


def test_control_input_added_after_a_cached_run_is_honoured():
    side, calls = _counter()
    out = tf.constant(3.0)
    with tf.Session() as sess:
        assert sess.run(out) == 3.0
        assert calls == []
        out.op._add_control_input(side.op)
        assert sess.run(out) == 3.0
        assert calls == [1]


# ---- plan cache ----------------------------------------------------------------------------------
def test_plan_cache_hits_and_misses():
    x = tf.placeholder(tf.float32, [])
    y = tf.identity(x)
    z = tf.add_n([y, y])
    with tf.Session() as sess:
        assert (sess.cache_hits, sess.cache_misses) == (0, 0)
        assert sess.run(z, {x: 1.0}) == 2.0
        assert (sess.cache_hits, sess.cache_misses) == (0, 1)
        assert sess.run(z, {x: 2.0}) == 4.0
        assert (sess.cache_hits, sess.cache_misses) == (1, 1)
        assert sess.run([z, y], {x: 3.0}) == [6.0, 3.0]
        assert (sess.cache_hits, sess.cache_misses) == (1, 2)
        assert sess.run([z, y], {x: 4.0}) == [8.0, 4.0]
        assert (sess.cache_hits, sess.cache_misses) == (2, 2)
        assert sess.run(y, {y: 5.0}) == 5.0
        assert sess.cache_misses == 3
        assert sess.run(y, {y: 6.0}) == 6.0
        assert (sess.cache_hits, sess.cache_misses) == (3, 3)


def test_plan_cache_distinguishes_structures():
    a = tf.constant(1.0)
    b = tf.constant(2.0)
    with tf.Session() as sess:
        assert sess.run([a, b]) == [1.0, 2.0]
        assert sess.run((a, b)) == (1.0, 2.0)
        assert sess.run({"a": a, "b": b}) == {"a": 1.0, "b": 2.0}
        assert sess.run([b, a]) == [2.0, 1.0]


# ---- sessions as context managers and defaults ---------------------------------------------------
def test_closed_session_raises_runtime_error():
    c = tf.constant(1.0)
    with tf.Session() as sess:
        sess.run(c)
    with pytest.raises(RuntimeError, match="Attempted to use a closed Session"):
        sess.run(c)
    s2 = tf.Session()
    s2.close()
    s2.close()
    with pytest.raises(RuntimeError):
        s2.run(c)


def test_with_session_sets_default_session_and_graph():
    g = tf.Graph()
    with g.as_default():
        c = tf.constant(5.0)
    assert tf.get_default_session() is None
    with tf.Session(graph=g) as sess:
        assert tf.get_default_session() is sess
        assert tf.get_default_graph() is g
        assert sess.graph is g
        assert c.eval() == 5.0
    assert tf.get_default_session() is None
    assert tf.get_default_graph() is not g


def test_session_uses_default_graph_at_construction():
    g = tf.Graph()
    with g.as_default():
        sess = tf.Session()
    assert sess.graph is g
    sess.close()


def test_as_default_does_not_close():
    c = tf.constant(2.0)
    sess = tf.Session()
    with sess.as_default():
        assert tf.get_default_session() is sess
        assert c.eval() == 2.0
        with tf.Session().as_default() as inner:
            assert tf.get_default_session() is inner
        assert tf.get_default_session() is sess
    assert tf.get_default_session() is None
    assert sess.run(c) == 2.0
    sess.close()


def test_default_session_is_per_thread():
    """As TF's: the stack lives in framework/ops.py, thread-local; another thread starts with none."""
    import threading

    seen = []
    with tf.Session() as sess:
        t = threading.Thread(target=lambda: seen.append(tf.get_default_session()))
        t.start()
        t.join()
        assert tf.get_default_session() is sess
    assert seen == [None]


def test_interactive_session():
    c = tf.constant(4.0)
    n = tf.no_op()
    sess = tf.InteractiveSession()
    try:
        assert tf.get_default_session() is sess
        assert c.eval() == 4.0
        assert n.run() is None
    finally:
        sess.close()
    assert tf.get_default_session() is None


def test_eval_and_run_without_default_session_raise():
    c = tf.constant(1.0)
    with pytest.raises(ValueError, match="No default session is registered"):
        c.eval()
    with pytest.raises(ValueError):
        tf.no_op().run()


def test_eval_with_explicit_session_and_wrong_graph():
    c = tf.constant(1.0)
    g = tf.Graph()
    with g.as_default():
        d = tf.constant(2.0)
    sess = tf.Session()
    assert c.eval(session=sess) == 1.0
    with pytest.raises(ValueError):
        d.eval(session=sess)
    with sess.as_default():
        with pytest.raises(ValueError):
            d.eval()
    sess.close()


def test_operation_run_and_tensor_eval_with_feeds():
    v = tf.Variable(0.0)
    x = tf.placeholder(tf.float32, [])
    upd = tf.assign(v, x).op
    with tf.Session():
        v.initializer.run()
        upd.run({x: 6.0})
        assert v.eval() == 6.0
        assert tf.identity(x).eval({x: 2.0}) == 2.0


def test_run_accepts_options_and_metadata():
    c = tf.constant(1.0)
    with tf.Session() as sess:
        assert sess.run(c, options=tf.RunOptions(), run_metadata=tf.RunMetadata()) == 1.0


def test_make_callable():
    x = tf.placeholder(tf.float32, [])
    y = tf.add_n([x, x])
    with tf.Session() as sess:
        f = sess.make_callable(y, [x])
        assert f(3.0) == 6.0
        assert f(4.0) == 8.0
        g = sess.make_callable([y, x], [x])
        assert g(1.0) == [2.0, 1.0]


# ---- session state -----------------------------------------------------------------------------
def test_two_sessions_have_independent_variables():
    v = tf.Variable(1.0)
    s1, s2 = tf.Session(), tf.Session()
    s1.run(v.initializer)
    s1.run(tf.assign(v, 10.0))
    with pytest.raises(tf.errors.FailedPreconditionError):
        s2.run(v)
    s2.run(v.initializer)
    assert s1.run(v) == 10.0
    assert s2.run(v) == 1.0
    s2.run(v.assign_add(5.0))
    assert s1.run(v) == 10.0
    assert s2.run(v) == 6.0
    s1.close()
    s2.close()


def test_close_discards_state():
    v = tf.Variable(1.0)
    sess = tf.Session()
    sess.run(v.initializer)
    sess.close()
    with tf.Session() as fresh:
        with pytest.raises(tf.errors.FailedPreconditionError):
            fresh.run(v)


# ---- debug interpreter ---------------------------------------------------------------------------
def _program():
    x = tf.placeholder(tf.float32, [None])
    v = tf.Variable([1.0, 2.0, 3.0])
    s = tf.add_n([x, v, tf.identity(v)])
    doubled = tf.py_func(lambda a: (a * 2).astype(np.float32), [s], tf.float32)
    upd = tf.assign_add(v, [1.0, 1.0, 1.0])
    return x, v, s, doubled, upd, tf.shape(s)


def _exercise(sess, x, v, s, doubled, upd, shp):
    sess.run(v.initializer)
    out = [sess.run([s, doubled, shp], {x: [1.0, 1.0, 1.0]})]
    sess.run(upd)
    out.append(sess.run({"s": s, "d": doubled}, {x: [0.0, 0.0, 0.0]}))
    out.append(sess.run(v))
    return out


def test_debug_executor_agrees_with_compiled_plan(monkeypatch):
    parts = _program()
    with tf.Session() as sess:
        compiled = _exercise(sess, *parts)
    monkeypatch.setenv("TW_DEBUG_EXECUTOR", "1")
    built = []
    real_interpret = codegen.interpret_plan
    monkeypatch.setattr(codegen, "interpret_plan",
                        lambda *args, **kwargs: built.append(1) or real_interpret(*args, **kwargs))
    with tf.Session() as sess:
        interpreted = _exercise(sess, *parts)
    assert built, "TW_DEBUG_EXECUTOR=1 did not select the reference interpreter"
    np.testing.assert_array_equal(compiled[0][0], [3.0, 5.0, 7.0])
    np.testing.assert_array_equal(compiled[0][1], [6.0, 10.0, 14.0])
    np.testing.assert_array_equal(compiled[0][2], [3])
    np.testing.assert_array_equal(compiled[1]["s"], [4.0, 6.0, 8.0])
    np.testing.assert_array_equal(compiled[2], [2.0, 3.0, 4.0])
    for c, i in zip(compiled[0], interpreted[0]):
        np.testing.assert_array_equal(c, i)
    for k in ("s", "d"):
        np.testing.assert_array_equal(compiled[1][k], interpreted[1][k])
    np.testing.assert_array_equal(compiled[2], interpreted[2])


def test_debug_executor_reports_errors_like_the_compiled_plan(monkeypatch):
    monkeypatch.setenv("TW_DEBUG_EXECUTOR", "1")
    x = tf.placeholder(tf.float32, [], name="dbg_input")
    line = _line() - 1
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(tf.identity(x))
    assert "dbg_input" in str(e.value)
    assert "%s:%d" % (__file__, line) in str(e.value)


# ---- runtime errors ------------------------------------------------------------------------------
def test_runtime_error_names_the_op_and_where_it_was_created():
    def fail(a):
        raise ValueError("bad value %s" % a)

    x = tf.constant(1.0)
    y = tf.py_func(fail, [x], tf.float32, name="failing")
    line = _line() - 1
    z = tf.identity(y)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError) as e:
            sess.run(z)
    msg = str(e.value)
    assert "bad value 1.0" in msg
    assert "failing" in msg
    assert "%s:%d" % (__file__, line) in msg
    assert e.value.op is y.op


def test_uninitialized_variable_error_names_the_variable_and_its_site():
    v = tf.Variable([1.0], name="weights")
    line = _line() - 1
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError,
                           match="Attempting to use uninitialized value weights") as e:
            sess.run(tf.identity(v))
    assert "%s:%d" % (__file__, line) in str(e.value)


def test_errors_leave_the_session_usable():
    x = tf.placeholder(tf.float32, [])
    c = tf.constant(1.0)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(tf.identity(x))
        assert sess.run(c) == 1.0


def test_control_dependency_on_a_fed_placeholder_needs_no_value():
    p = tf.placeholder(tf.float32, [])
    with tf.control_dependencies([p.op]):
        out = tf.constant(3.0) * 2.0
    with tf.Session() as sess:
        assert sess.run(out, {p: 1.0}) == 6.0
        with pytest.raises(tf.errors.InvalidArgumentError, match="You must feed a value for placeholder"):
            sess.run(out)


# ---- resources of sessions nobody closed ------------------------------------------------------------
def _threads_and_fds():
    return threading.active_count(), len(os.listdir("/proc/self/fd"))


def _settled(start, timeout=10.0):
    """The thread and fd counts, polled until they are back to `start` (threads end asynchronously)."""
    deadline = time.time() + timeout
    now = _threads_and_fds()
    while now != start and time.time() < deadline:
        gc.collect()
        time.sleep(0.05)
        now = _threads_and_fds()
    return now


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="counts open files through Linux /proc/self/fd")
def test_dropped_sessions_release_their_threads_and_files(tmp_path):
    # A pipeline holding a file open (a cache being read) with parallel map and prefetch threads.
    prefix = str(tmp_path / "cache")
    source = tf.data.Dataset.range(1000).cache(prefix)
    ds = source.map(lambda x: x * 2, num_parallel_calls=4).prefetch(2)
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    everything = source.batch(1000).make_one_shot_iterator().get_next()
    with tf.Session() as sess:  # writes the cache, so that later sessions read it
        assert sess.run(everything).tolist() == list(range(1000))
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(everything)
    assert os.path.exists(prefix + ".index")
    gc.collect()
    start = _threads_and_fds()
    for _ in range(100):
        sess = tf.Session()
        sess.run(it.initializer)
        assert sess.run(nxt) == 0
        assert _threads_and_fds()[0] > start[0]  # the pipeline's threads run
        del sess
    gc.collect()
    assert _settled(start) == start


def test_a_nested_tuple_of_tensors_is_fed_a_value_of_the_same_structure():
    cell = tf.nn.rnn_cell.BasicLSTMCell(2)
    state = cell.zero_state(1, tf.float32)
    out = state.c + 2 * state.h
    with tf.Session() as sess:
        value = tf.nn.rnn_cell.LSTMStateTuple(np.ones((1, 2), np.float32), np.full((1, 2), 3.0, np.float32))
        np.testing.assert_array_equal(sess.run(out, {state: value}), [[7.0, 7.0]])
        np.testing.assert_array_equal(sess.run(out, {(state.c, state.h): ([[1.0, 2.0]], [[0.0, 1.0]])}),
                                      [[1.0, 4.0]])
        with pytest.raises(ValueError, match="tuple of the same length"):
            sess.run(out, {state: np.ones((1, 2))})
