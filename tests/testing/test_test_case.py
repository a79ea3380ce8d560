"""tf.test.TestCase and the tf.test helpers: each TestCase below runs under unittest inside a pytest test,
so the assertions' failures are checked as results (and TF's self-skipping `test_session` stays out of
pytest's own collection)."""

import io
import os
import threading
import unittest

import numpy as np
import pytest

import tensorweave as tf


def _run(case_cls, *names):
    suite = unittest.TestSuite([case_cls(n) for n in names]) if names else \
        unittest.defaultTestLoader.loadTestsFromTestCase(case_cls)
    result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
    return result


def _assert_ok(result):
    problems = result.failures + result.errors
    assert not problems, "\n".join(text for _, text in problems)


def test_setup_gives_a_fresh_seeded_graph_and_a_cached_session():
    seen = {}

    class T(tf.test.TestCase):
        def test_a(self):
            g = tf.get_default_graph()
            seen["seed"] = g.seed
            seen["np"] = np.random.get_state()[1][0]
            x = tf.constant([1.0, 2.0])
            with self.cached_session() as s:
                assert s.graph is g and tf.get_default_session() is s
                self.assertAllEqual(self.evaluate(x * 2), [2.0, 4.0])
            with self.cached_session() as s2:
                assert s2 is s
            with self.session() as s3:
                assert s3 is not s
            with self.test_session() as s4:
                assert s4 is s
            seen["ops"] = len(g.get_operations())
            seen["cached"] = s

        def test_b(self):
            seen["ops_b"] = len(tf.get_default_graph().get_operations())

    _assert_ok(_run(T, "test_a", "test_b"))
    assert seen["seed"] == 87654321 and seen["np"] == 87654321
    assert seen["ops"] > 0 and seen["ops_b"] == 0
    with pytest.raises(RuntimeError, match="closed"):
        seen["cached"].run(tf.constant(1.0))


def test_test_session_named_test_skips_itself_as_in_tf():
    class T(tf.test.TestCase):
        pass

    result = _run(T, "test_session")
    assert len(result.skipped) == 1 and "reserved for creating sessions" in result.skipped[0][1]


def test_evaluate_uses_the_default_session_and_runs_eagerly_in_eager_mode():
    from tensorweave.eager import context

    class T(tf.test.TestCase):
        def test_graph(self):
            v = tf.Variable(3.0)
            with self.cached_session():
                self.evaluate(tf.global_variables_initializer())
                self.assertEqual(self.evaluate(v), 3.0)
                out = self.evaluate({"a": v * 2, "b": [tf.constant(1)]})
                self.assertEqual(out["a"], 6.0)
                self.assertEqual(out["b"][0], 1)

    _assert_ok(_run(T, "test_graph"))
    tc = tf.test.TestCase("__init__")
    with context.eager_mode():
        np.testing.assert_array_equal(tc.evaluate(tf.constant([1, 2]) + 1), [2, 3])
        with pytest.raises(ValueError, match="not supported in eager mode"):
            with tc.cached_session():
                pass


def test_assert_all_close_passes_and_fails_with_tf_messages():
    tc = tf.test.TestCase("__init__")
    tc.assertAllClose([1.0, 2.0], np.array([1.0, 2.0 + 1e-7]))
    tc.assertAllClose({"a": [1.0], "b": (2.0, [3.0, 4.0])}, {"a": np.array([1.0]), "b": (2.0, [3.0, 4.0])})
    tc.assertAllClose([np.nan, 1.0], [np.nan, 1.0])
    tc.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0])
    with pytest.raises(AssertionError, match=r"Not equal to tolerance rtol=1e-06, atol=1e-06"):
        tc.assertAllClose([1.0, 2.0], [1.0, 2.1])
    with pytest.raises(AssertionError, match="Mismatched value: a is different from b"):
        tc.assertAllClose([1.0, 2.0], [1.0, 2.1])
    with pytest.raises(AssertionError, match=r"Shape mismatch"):
        tc.assertAllClose(np.zeros((2, 3)), np.zeros((3, 2)))
    with pytest.raises(AssertionError, match="mismatched keys"):
        tc.assertAllClose({"a": 1.0}, {"b": 1.0})
    with pytest.raises(AssertionError, match=r"path \['b'\]\[1\]"):
        tc.assertAllClose({"b": (1.0, [3.0])}, {"b": (1.0, [3.5])})
    tc.assertNotAllClose([1.0], [2.0])
    with pytest.raises(AssertionError, match="close at all elements"):
        tc.assertNotAllClose([1.0], [1.0])
    tc.assertAllCloseAccordingToType(np.float16([1.0]), np.float16([1.0005]))
    with pytest.raises(AssertionError):
        tc.assertAllCloseAccordingToType(np.float64([1.0]), np.float64([1.0005]))


def test_assert_all_equal_and_ordering_helpers():
    tc = tf.test.TestCase("__init__")
    tc.assertAllEqual([1, 2], np.array([1, 2]))
    tc.assertAllEqual([np.nan, 1.0], [np.nan, 1.0])
    tc.assertAllEqual([b"a"], np.array([b"a"], dtype=object))
    with pytest.raises(AssertionError, match="Arrays are not equal"):
        tc.assertAllEqual([1, 2], [1, 3])
    with pytest.raises(AssertionError, match="Shape mismatch"):
        tc.assertAllEqual([1, 2], [1, 2, 3])
    tc.assertNotAllEqual([1, 2], [1, 3])
    tc.assertAllGreater([2, 3], 1)
    tc.assertAllLess([2, 3], 4)
    tc.assertAllGreaterEqual([2, 3], 2)
    tc.assertAllLessEqual([2, 3], 3)
    with pytest.raises(AssertionError):
        tc.assertAllGreater([2, 3], 2)
    tc.assertAllInRange([0.0, 1.0], 0.0, 1.0)
    with pytest.raises(AssertionError, match=r"1 of the 2 element\(s\) are outside the range \(0.0, 1.0\]"):
        tc.assertAllInRange([0.0, 1.0], 0.0, 1.0, open_lower_bound=True)
    with pytest.raises(AssertionError, match="does not have an ordered numeric type"):
        tc.assertAllInRange([b"x"], 0, 1)
    tc.assertAllInSet([1, 2, 1], {1, 2})
    with pytest.raises(AssertionError, match=r"1 unique element\(s\) are not in the set"):
        tc.assertAllInSet([1, 3], {1, 2})
    tc.assertNear(1.0, 1.05, 0.1)
    with pytest.raises(AssertionError, match=r"1.000000 != 2.000000 \+/- 0.100000"):
        tc.assertNear(1.0, 2.0, 0.1)
    tc.assertArrayNear([1.0, 2.0], [1.01, 2.01], 0.05)
    tc.assertNDArrayNear(np.ones((2, 2)), np.ones((2, 2)) + 1e-4, 1e-2)
    tc.assertDTypeEqual(np.zeros(2, np.float32), tf.float32)
    tc.assertStartsWith("prefix-rest", "prefix")
    with pytest.raises(AssertionError, match="does not start with"):
        tc.assertStartsWith("abc", "b")
    tc.assertDeviceEqual("/cpu:0", "/device:CPU:0")


def test_assert_shape_equal_checks_types_and_static_shape():
    tc = tf.test.TestCase("__init__")
    with tf.Graph().as_default():
        tc.assertShapeEqual(np.zeros((2, 3)), tf.zeros((2, 3)))
        with pytest.raises(AssertionError):
            tc.assertShapeEqual(np.zeros((2, 3)), tf.zeros((2, 4)))
        with pytest.raises(TypeError, match="np_array must be a Numpy ndarray or Numpy scalar"):
            tc.assertShapeEqual([1], tf.zeros((1,)))
        with pytest.raises(TypeError, match="tf_tensor must be a Tensor"):
            tc.assertShapeEqual(np.zeros(1), np.zeros(1))


def test_assert_raises_op_error_matches_the_message():
    class T(tf.test.TestCase):
        def test_matches(self):
            with self.assertRaisesOpError("must be positive"):
                self.evaluate(tf.debugging.assert_positive(tf.constant(-1.0), message="must be positive"))

        def test_wrong_message_fails(self):
            with self.assertRaisesOpError("something else"):
                self.evaluate(tf.debugging.assert_positive(tf.constant(-1.0), message="must be positive"))

        def test_nothing_raised_fails(self):
            with self.assertRaisesOpError("x"):
                self.evaluate(tf.constant(1.0))

        def test_predicate(self):
            with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "bad" in str(e)):
                raise ValueError("bad value")

    result = _run(T)
    failed = sorted(t.id().rsplit(".", 1)[1] for t, _ in result.failures)
    assert failed == ["test_nothing_raised_fails", "test_wrong_message_fails"] and not result.errors
    texts = dict((t.id().rsplit(".", 1)[1], text) for t, text in result.failures)
    assert "OpError not raised" in texts["test_nothing_raised_fails"]
    assert "Exception of type" in texts["test_wrong_message_fails"]


def test_checked_thread_reports_the_target_exception():
    class T(tf.test.TestCase):
        def test_ok(self):
            t = self.checkedThread(target=lambda: None)
            t.start()
            t.join()
            t.check_termination()

        def test_raises(self):
            def boom():
                raise ValueError("inside the thread")
            t = self.checkedThread(target=boom)
            t.start()
            t.join()

    result = _run(T)
    assert [t.id().rsplit(".", 1)[1] for t, _ in result.failures] == ["test_raises"]
    assert "inside the thread" in result.failures[0][1]
    assert threading.active_count() >= 1


def test_temp_dirs_exist_and_differ_per_test():
    tc1, tc2 = tf.test.TestCase("__init__"), tf.test.TestCase("__init__")
    d1, d2 = tc1.get_temp_dir(), tc2.get_temp_dir()
    assert os.path.isdir(d1) and os.path.isdir(d2) and d1 != d2
    assert tc1.get_temp_dir() == d1
    assert os.path.dirname(d1) == tf.test.get_temp_dir()


def test_build_queries_answer_for_this_install():
    from tensorweave.backends import cupy_backend
    assert tf.test.is_built_with_xla() is False
    assert tf.test.is_built_with_gpu_support() == cupy_backend.cupy_installed()
    assert tf.test.gpu_device_name() in ("", "/device:GPU:0")
    assert tf.test.gpu_device_name() == ("/device:GPU:0" if tf.test.is_gpu_available() else "")
    assert isinstance(tf.test.benchmark_config(), tf.ConfigProto)
    if not cupy_backend.cupy_installed():
        assert tf.test.is_built_with_rocm() is False


def test_disable_with_predicate_skips_when_true():
    class T(tf.test.TestCase):
        @tf.test.disable_with_predicate(lambda: True, "off here")
        def test_off(self):
            raise AssertionError("ran")

        @tf.test.disable_with_predicate(lambda: False, "on")
        def test_on(self):
            pass

    result = _run(T, "test_off", "test_on")
    assert not result.failures and [r for _, r in result.skipped] == ["off here"]


def test_benchmark_times_an_op_and_writes_the_report_file(tmp_path, monkeypatch):
    monkeypatch.setenv("TEST_REPORT_FILE_PREFIX", str(tmp_path / "report_"))

    class B(tf.test.Benchmark):
        def benchmark_add(self):
            with tf.Graph().as_default(), tf.Session() as sess:
                return self.run_op_benchmark(sess, tf.constant(1.0) + 2.0, min_iters=3, name="add", mbs=1)

    out = B().benchmark_add()
    assert out["iters"] == 3 and out["wall_time"] > 0 and out["throughput"] > 0
    assert (tmp_path / "report_add").read_text().count('"name": "add"') == 1
    with pytest.raises(NotImplementedError, match="store_trace"):
        with tf.Graph().as_default(), tf.Session() as sess:
            B().run_op_benchmark(sess, tf.constant(1.0), store_trace=True)


def test_stub_out_for_testing_restores_attributes():
    class A:
        x = 1

    a = A()
    stubs = tf.test.StubOutForTesting()
    stubs.Set(A, "x", 2)
    stubs.SmartSet(a, "x", 3)
    assert a.x == 3 and A.x == 2
    stubs.CleanUp()
    assert A.x == 1 and a.x == 1 and "x" not in a.__dict__


def test_assert_equal_graph_def_ignores_node_order():
    def build(order):
        g = tf.Graph()
        with g.as_default():
            for name in order:
                tf.constant(1.0, name=name)
        return g.as_graph_def()

    tf.test.assert_equal_graph_def(build(["a", "b"]), build(["b", "a"]))
    with pytest.raises(AssertionError, match="Node named 'c' in actual, not in expected"):
        tf.test.assert_equal_graph_def(build(["a"]), build(["a", "c"]))
    with pytest.raises(TypeError, match="Expected tf.GraphDef for expected"):
        tf.test.assert_equal_graph_def("x", build(["a"]))


def test_with_eager_op_as_function_returns_the_class_as_tf():
    class T(tf.test.TestCase):
        pass

    assert tf.test.with_eager_op_as_function(T) is T
    assert tf.test.with_eager_op_as_function(only_as_function=True)(T) is T
