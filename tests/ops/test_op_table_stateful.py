"""Op-table checks a generic row cannot express, for op types of tests/ops/op_table/rows_other.py and
the exemptions: seeded determinism of the random ops, error paths (CheckNumerics, Assert), the text
Print/PrintV2 write, variable initialization state, RefRead (built inside loop bodies only), and a
tf.train.Saver writing then restoring across runs."""

import numpy as np
import pytest

import tensorweave as tf


def _run(fetches, feed=None, graph=None):
    with tf.Session(graph=graph) as sess:
        return sess.run(fetches, feed)


# ---- random ops: seeded determinism ---------------------------------------------------------------
RANDOM = {
    "RandomUniform": lambda seed: tf.random_uniform([50], seed=seed),
    "RandomUniformInt": lambda seed: tf.random_uniform([50], 0, 1000, dtype=tf.int64, seed=seed),
    "RandomStandardNormal": lambda seed: tf.random_normal([50], dtype=tf.float64, seed=seed),
    "TruncatedNormal": lambda seed: tf.truncated_normal([50], seed=seed),
    "RandomShuffle": lambda seed: tf.random_shuffle(tf.range(50), seed=seed),
    "Multinomial": lambda seed: tf.multinomial(tf.zeros([2, 20]), 25, seed=seed),
}


def _two_runs(op_type, graph_seed, op_seed):
    """Two runs of the op in one session of a fresh graph."""
    g = tf.Graph()
    with g.as_default():
        if graph_seed is not None:
            tf.set_random_seed(graph_seed)
        t = RANDOM[op_type](op_seed)
        assert op_type in {op.type for op in g.get_operations()}
        with tf.Session(graph=g) as sess:
            return sess.run(t), sess.run(t)


@pytest.mark.parametrize("op_type", sorted(RANDOM))
def test_random_op_seeded_determinism(op_type):
    first, second = _two_runs(op_type, 7, 3)
    again_first, again_second = _two_runs(op_type, 7, 3)
    # The same seeded program gives the same numbers, run after run of fresh sessions...
    np.testing.assert_array_equal(first, again_first)
    np.testing.assert_array_equal(second, again_second)
    # ... new numbers on each run of one session, and other numbers for another op or graph seed.
    assert not np.array_equal(first, second)
    assert not np.array_equal(first, _two_runs(op_type, 7, 4)[0])
    assert not np.array_equal(first, _two_runs(op_type, 8, 3)[0])


@pytest.mark.parametrize("op_type", sorted(RANDOM))
def test_random_op_with_graph_seed_only_is_deterministic(op_type):
    np.testing.assert_array_equal(_two_runs(op_type, 11, None)[0], _two_runs(op_type, 11, None)[0])


# ---- error paths ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("bad,what", [(np.nan, "NaN"), (np.inf, "Inf"), (-np.inf, "Inf")])
def test_check_numerics_raises_on_non_finite_values(dtype, bad, what):
    x = tf.placeholder(tf.as_dtype(dtype), [None])
    y = tf.check_numerics(x, "row check")
    assert y.op.type == "CheckNumerics"
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: np.array([1, -0.0], dtype)}), np.array([1, -0.0], dtype))
        with pytest.raises(tf.errors.InvalidArgumentError, match="row check : Tensor had %s values" % what):
            sess.run(y, {x: np.array([1, bad, 2], dtype)})


def test_assert_raises_with_its_data_when_false():
    x = tf.placeholder(tf.float32, [2])
    check = tf.Assert(tf.reduce_all(x > 0), [x, "must be positive"])
    assert check.type == "Assert"
    with tf.control_dependencies([check]):
        y = tf.identity(x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(y, {x: [1, 2]}), [1, 2])
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"assertion failed: \[1 -2\] \[must be positive\]"):
            sess.run(y, {x: [1, -2]})


# ---- printed text ---------------------------------------------------------------------------------------
def test_print_writes_its_message_and_data(capfd):
    x = tf.placeholder(tf.int32, [5])
    y = tf.Print(x, [x, tf.reduce_sum(x)], message="op table: ", summarize=3)
    assert y.op.type == "Print"
    np.testing.assert_array_equal(_run(y, {x: [1, 2, 3, 4, 5]}), [1, 2, 3, 4, 5])
    assert capfd.readouterr().err == "op table: [1 2 3...][15]\n"


def test_print_v2_writes_its_inputs(capfd):
    x = tf.placeholder(tf.float32, [2, 2])
    printed = tf.print("op table:", x, "sum", tf.reduce_sum(x))
    assert printed.type == "PrintV2"
    _run(printed, {x: [[1, 2], [3, 4]]})
    assert capfd.readouterr().err == "op table: [[1 2]\n [3 4]] sum 10\n"


# ---- variable state ---------------------------------------------------------------------------------------
def test_initialization_state_ops_before_and_after_initialization():
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.Variable(3, name="w")
    initialized = tf.is_variable_initialized(v)
    report = tf.report_uninitialized_variables([v, w])
    assert initialized.op.type == "IsVariableInitialized" and report.op.type == "ReportUninitializedVariables"
    with tf.Session() as sess:
        assert sess.run(initialized) == np.bool_(False)
        np.testing.assert_array_equal(sess.run(report), np.array([b"v", b"w"], object))
        sess.run(v.initializer)
        assert sess.run(initialized) == np.bool_(True)
        np.testing.assert_array_equal(sess.run(report), np.array([b"w"], object))
        sess.run(w.initializer)
        assert sess.run(report).shape == (0,)


def _body_op_types(graph, op_type):
    loops = [op for op in graph.get_operations() if op.type == op_type]
    assert loops
    return {inner.type for op in loops for inner in op.get_attr("body_fn").graph.get_operations()}


def test_ref_read_reads_the_variable_on_each_iteration_of_a_loop_body():
    """RefRead is built only inside function bodies (a captured variable), so it has no op-table row."""
    v = tf.Variable(2.0)
    _, a = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * v.read_value()), [0, tf.constant(1.0)])
    assert "RefRead" in _body_op_types(tf.get_default_graph(), "While")
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert sess.run(a) == 8.0
        sess.run(tf.assign(v, 3.0))
        assert sess.run(a) == 27.0  # read again when the body runs, not captured once
        sess.run(tf.assign(v, np.nan))
        assert np.isnan(sess.run(a))


def test_ref_read_of_an_uninitialized_variable_fails():
    v = tf.Variable(2.0)
    _, a = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a + v.read_value()), [0, tf.constant(1.0)])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized"):
            sess.run(a)


# ---- SaveV2 / RestoreV2 through a Saver --------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.int32, np.bool_])
def test_saver_round_trip_through_save_v2_and_restore_v2(tmp_path, dtype):
    value = np.array([[1, 0, 3], [0, 5, 1]]).astype(dtype)
    if np.dtype(dtype).kind == "f":
        value[0, 1], value[1, 0] = np.nan, -np.inf
    v = tf.Variable(value, name="v")
    saver = tf.train.Saver([v])
    types = {op.type for op in tf.get_default_graph().get_operations()}
    assert {"SaveV2", "RestoreV2"} <= types
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "model"))
        sess.run(tf.assign(v, np.zeros_like(value)))
        saver.restore(sess, path)
        restored = sess.run(v)
    assert restored.dtype == value.dtype
    np.testing.assert_array_equal(restored, value)
