"""`tf.test.TestCase` and the module-level helpers of `tf.test` (`main`, `get_temp_dir`, `Benchmark`, ...).

A `TestCase` starts every test as TensorFlow's does: a fresh default graph whose seed, like NumPy's
and Python's, is 87654321, so random ops give the same values in every run. `cached_session()`
hands out one Session per test (closed in `tearDown`), `evaluate` runs tensors in it (or eagerly),
and the assertions accept tensors, arrays and nested structures of them.
"""

import atexit
import contextlib
import math
import os
import random
import re
import shutil
import sys
import tempfile
import threading
import time
import unittest

import numpy as np

from ..client.session import Session
from ..eager import context
from ..framework import errors, ops
from ..ops import nest
from ..ops.random_ops import DEFAULT_GRAPH_SEED, set_random_seed

__all__ = ["Benchmark", "StubOutForTesting", "TestCase", "assert_equal_graph_def", "benchmark_config",
           "disable_with_predicate", "get_temp_dir", "gpu_device_name", "is_built_with_gpu_support",
           "is_built_with_rocm", "is_built_with_xla", "main", "with_eager_op_as_function"]

_temp_root = None
_temp_lock = threading.Lock()


def get_temp_dir():
    """Returns a temporary directory for this process's tests (removed when the process exits).

    Returns:
      The path of a directory that exists.
    """
    global _temp_root
    with _temp_lock:
        if _temp_root is None or not os.path.isdir(_temp_root):
            _temp_root = tempfile.mkdtemp(prefix="tensorweave_test_")
            atexit.register(shutil.rmtree, _temp_root, True)
        return _temp_root


def main(argv=None):
    """Runs the `TestCase`s of the `__main__` module with unittest (`tf.test.main`).

    Args:
      argv: The command line (default `sys.argv`).

    Returns:
      Does not return: exits with unittest's status.
    """
    return unittest.main(module="__main__", argv=argv)


def gpu_device_name():
    """Returns the name of the first GPU device (`"/device:GPU:0"`), or `""` when there is none."""
    from . import is_gpu_available
    return "/device:GPU:0" if is_gpu_available() else ""


def is_built_with_gpu_support():
    """Whether a GPU backend is installed (CuPy, the `gpu` extra)."""
    from . import is_built_with_cuda
    return is_built_with_cuda()


def is_built_with_rocm():
    """Whether the installed GPU backend is a ROCm (HIP) build of CuPy."""
    from ..backends import cupy_backend
    if not cupy_backend.cupy_installed():
        return False
    import cupy
    return bool(getattr(cupy.cuda.runtime, "is_hip", False))


def is_built_with_xla():
    """Whether XLA is available: never in tensorweave (it has its own plan compiler instead)."""
    return False


def benchmark_config():
    """Returns the `ConfigProto` TF's benchmarks use: a default session configuration.

    Returns:
      A `tf.ConfigProto`.
    """
    from ..client.config import ConfigProto
    return ConfigProto()


def disable_with_predicate(pred, skip_message):
    """Decorator: skips a test method (or every test of a class) when `pred()` is true.

    Args:
      pred: A callable without arguments, called when the test runs.
      skip_message: The reason given for the skip.

    Returns:
      The decorator.
    """
    def decorator(func):
        if isinstance(func, type):
            for name in dir(func):
                if name.startswith("test") and callable(getattr(func, name)):
                    setattr(func, name, decorator(getattr(func, name)))
            return func

        def wrapper(self, *args, **kwargs):
            if pred():
                self.skipTest(skip_message)
            return func(self, *args, **kwargs)
        wrapper.__name__ = func.__name__
        wrapper.__doc__ = func.__doc__
        return wrapper
    return decorator


def with_eager_op_as_function(cls=None, only_as_function=False):
    """Returns the test class unchanged, as TF does now (its eager-op-as-function mode is gone).

    Args:
      cls: The class to decorate (None: return the decorator).
      only_as_function: Unused, as in TF.

    Returns:
      `cls`, or a decorator returning its argument.
    """
    del only_as_function
    return cls if cls is not None else (lambda c: c)


def _ndarray(value, evaluate):
    if isinstance(value, ops.Tensor) or hasattr(value, "numpy") and callable(value.numpy):
        value = evaluate(value)
    return value if isinstance(value, np.ndarray) else np.array(value)


class TestCase(unittest.TestCase):
    """Base class for tests of TensorFlow programs (`tf.test.TestCase`).

    Each test starts with a new default graph whose graph-level seed is 87654321 (Python's and
    NumPy's generators are seeded with it too); the session of `cached_session()` lives until the
    test ends.
    """

    def __init__(self, methodName="runTest"):  # noqa: N803 (unittest's argument name)
        super().__init__(methodName)
        self._cached_session = None
        self._tempdir = None

    def setUp(self):
        self._clear_cached_session()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        if not context.executing_eagerly():
            ops.reset_default_graph()
            set_random_seed(DEFAULT_GRAPH_SEED)

    def tearDown(self):
        self._clear_cached_session()

    def _clear_cached_session(self):
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None

    # ---- sessions ---------------------------------------------------------------------------

    def get_temp_dir(self):
        """Returns a temporary directory of this test case (one per test method, kept until the process ends)."""
        if self._tempdir is None:
            self._tempdir = tempfile.mkdtemp(dir=get_temp_dir())
        return self._tempdir

    @contextlib.contextmanager
    def _as_default(self, sess):
        with sess.graph.as_default(), sess.as_default():
            yield sess

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """A context manager yielding a new Session on `graph` (default: the default graph), made default.

        Args:
          graph: The graph the session runs (default: the default graph).
          config: An optional `tf.ConfigProto`.
          use_gpu: Accepted for TF's signature (tensorweave places ops by their device scopes).
          force_gpu: Accepted for TF's signature.

        Yields:
          The Session, closed when the block ends.

        Raises:
          ValueError: In eager mode, which has no sessions.
        """
        if context.executing_eagerly():
            raise ValueError("session() is not supported in eager mode")
        sess = Session(graph=graph if graph is not None else ops.get_default_graph(), config=config)
        try:
            with self._as_default(sess):
                yield sess
        finally:
            sess.close()

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """A context manager yielding this test's Session, created on first use and closed in `tearDown`.

        Args:
          graph: The graph the session runs (default: the default graph). The cached session is
            made anew when a later call names another graph.
          config: An optional `tf.ConfigProto` for the session when it is created.
          use_gpu: Accepted for TF's signature.
          force_gpu: Accepted for TF's signature.

        Yields:
          The Session, made the default session inside the block.

        Raises:
          ValueError: In eager mode, which has no sessions.
        """
        if context.executing_eagerly():
            raise ValueError("cached_session() is not supported in eager mode")
        graph = graph if graph is not None else ops.get_default_graph()
        if self._cached_session is None or self._cached_session.graph is not graph:
            self._clear_cached_session()
            self._cached_session = Session(graph=graph, config=config)
        with self._as_default(self._cached_session):
            yield self._cached_session

    def test_session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        """The TF 1.x name of `cached_session` (a new session when `graph` is given).

        Unittest collects this method as a test by its name; run that way it skips itself, as in TF.
        """
        if self.id().endswith(".test_session"):
            self.skipTest("Tests that have the name \"test_session\" are automatically skipped by TensorFlow test "
                          "fixture, as the name is reserved for creating sessions within tests. Please rename your "
                          "test if you have a test with this name.")
        if graph is None:
            return self.cached_session(config=config, use_gpu=use_gpu, force_gpu=force_gpu)
        return self.session(graph=graph, config=config, use_gpu=use_gpu, force_gpu=force_gpu)

    def evaluate(self, tensors):
        """Evaluates tensors: eagerly their values, in graph mode by running them in the default session
        (or in this test's cached session when none is default).

        Args:
          tensors: A tensor or a nested structure of tensors.

        Returns:
          The values (NumPy arrays) in the same structure.
        """
        if context.executing_eagerly():
            return nest.map_structure(lambda t: t.numpy() if hasattr(t, "numpy") else t, tensors)
        sess = ops.get_default_session()
        if sess is None:
            with self.cached_session() as sess:
                return sess.run(tensors)
        return sess.run(tensors)

    def checkedThread(self, target, args=None, kwargs=None):  # noqa: N802 (TF's name)
        """Returns a thread running `target(*args, **kwargs)` whose `join()` fails the test if it raised."""
        return _CheckedThread(self, target, args, kwargs)

    # ---- assertions -------------------------------------------------------------------------

    def _array(self, value):
        return _ndarray(value, self.evaluate)

    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """Asserts |f1 - f2| <= err for two floats."""
        self.assertTrue(f1 == f2 or math.fabs(f1 - f2) <= err,
                        "%f != %f +/- %f%s" % (f1, f2, err, " (%s)" % msg if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        """Asserts two float lists are element-wise within `err`."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        """Asserts the Euclidean norm of `ndarray1 - ndarray2` is below `err`."""
        self.assertTrue(np.linalg.norm(np.asarray(ndarray1) - np.asarray(ndarray2)) < err, msg=msg)

    def _assert_array_close(self, a, b, rtol, atol, path, msg):
        a, b = self._array(a), self._array(b)
        where = "" if not path else " at path %s" % "".join("[%r]" % p for p in path)
        if a.shape != b.shape:
            raise self.failureException("Shape mismatch%s: expected %s, got %s.%s" % (
                where, a.shape, b.shape, " %s" % msg if msg else ""))
        if a.dtype.kind in "OSUb" or b.dtype.kind in "OSUb":
            return self._assert_array_equal(a, b, path, msg)
        messages = ["Mismatched value: a is different from b.%s" % where]
        if msg:
            messages.append(str(msg))
        fa = a.astype(np.complex128 if np.iscomplexobj(a) or np.iscomplexobj(b) else np.float64)
        fb = b.astype(fa.dtype)
        np.testing.assert_allclose(fa, fb, rtol=rtol, atol=atol, err_msg="\n".join(messages), equal_nan=True)

    def _assert_structure_close(self, a, b, rtol, atol, path, msg):
        if isinstance(a, dict) or isinstance(b, dict):
            if not (isinstance(a, dict) and isinstance(b, dict)):
                raise self.failureException("Mismatched structure at path %s: %s vs %s" % (path, type(a), type(b)))
            if set(a) != set(b):
                raise self.failureException("mismatched keys at path %s: %s vs %s" % (path, sorted(map(str, a)),
                                                                                    sorted(map(str, b))))
            for k in a:
                self._assert_structure_close(a[k], b[k], rtol, atol, path + [k], msg)
            return
        if isinstance(a, (list, tuple)) and not _is_leafy(a):
            if not isinstance(b, (list, tuple)) or len(a) != len(b):
                raise self.failureException("Mismatched structure at path %s: %r vs %r" % (path, a, b))
            for i, (x, y) in enumerate(zip(a, b)):
                self._assert_structure_close(x, y, rtol, atol, path + [i], msg)
            return
        self._assert_array_close(a, b, rtol, atol, path, msg)

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Asserts two values (arrays, tensors, or equal structures of dicts/lists/tuples of them) are close:
        |a - b| <= atol + rtol * |b| element-wise, NaN equal to NaN.

        Args:
          a: The actual value(s).
          b: The expected value(s).
          rtol: Relative tolerance.
          atol: Absolute tolerance.
          msg: Extra text for the failure message.

        Raises:
          AssertionError: If the shapes, structures or values differ.
        """
        self._assert_structure_close(a, b, rtol, atol, [], msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6,  # noqa: N802
                                      float_atol=1e-6, half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2,
                                      bfloat16_atol=1e-2, msg=None):
        """`assertAllClose` with the tolerances widened to the least precise float type of `a` and `b`."""
        a, b = self._array(a), self._array(b)
        types = {a.dtype, b.dtype}
        if types & {np.dtype(np.float32), np.dtype(np.complex64)}:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        if np.dtype(np.float16) in types:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, **kwargs):  # noqa: N802
        """Asserts `assertAllClose(a, b, **kwargs)` fails."""
        try:
            self.assertAllClose(a, b, **kwargs)
        except AssertionError:
            return
        raise self.failureException("The two values are close at all elements")

    def _assert_array_equal(self, a, b, path, msg):
        where = "" if not path else " at path %s" % "".join("[%r]" % p for p in path)
        same = a == b
        if a.dtype.kind in "fc" and b.dtype.kind in "fc":
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        if not np.all(same):
            messages = ["Arrays are not equal%s" % where]
            if msg:
                messages.append(str(msg))
            np.testing.assert_array_equal(a, b, err_msg="\n".join(messages))
            raise self.failureException("\n".join(messages))

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """Asserts two arrays (or tensors, or array-likes) have equal shapes and values (NaN equal to NaN).

        Raises:
          AssertionError: If the shapes or values differ.
        """
        a, b = self._array(a), self._array(b)
        if a.shape != b.shape:
            raise self.failureException("Shape mismatch: expected %s, got %s.%s" % (a.shape, b.shape,
                                                                                    " %s" % msg if msg else ""))
        self._assert_array_equal(a, b, [], msg)

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        """Asserts `a` and `b` differ in shape or at least one element."""
        try:
            self.assertAllEqual(a, b, msg)
        except AssertionError:
            return
        raise self.failureException("Expected %r to be not equal to %r.%s" % (a, b, " %s" % msg if msg else ""))

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        """Asserts every element of `a` is greater than `comparison_target`."""
        self.assertGreater(np.min(self._array(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        """Asserts every element of `a` is less than `comparison_target`."""
        self.assertLess(np.max(self._array(a)), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        """Asserts every element of `a` is at least `comparison_target`."""
        self.assertGreaterEqual(np.min(self._array(a)), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        """Asserts every element of `a` is at most `comparison_target`."""
        self.assertLessEqual(np.max(self._array(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False,  # noqa: N802
                         open_upper_bound=False):
        """Asserts every element of `target` lies in the range (closed unless said open).

        Raises:
          AssertionError: If an element is out of the range or `target` is not numeric.
        """
        target = self._array(target)
        if target.dtype.kind not in "iuf":
            raise self.failureException("The value of %s does not have an ordered numeric type, instead it has "
                                        "type: %s" % (target, target.dtype))
        low = target <= lower_bound if open_lower_bound else target < lower_bound
        high = target >= upper_bound if open_upper_bound else target > upper_bound
        bad = np.nonzero(np.logical_or(low, high))
        if bad[0].size:
            raise self.failureException("%d of the %d element(s) are outside the range %s%s, %s%s. Subscript(s) "
                                        "and value(s) of the offending elements:\n%s" % (
                                            bad[0].size, target.size, "(" if open_lower_bound else "[", lower_bound,
                                            upper_bound, ")" if open_upper_bound else "]",
                                            "\n".join("%s: %s" % (i, target[i]) for i in zip(*bad))))

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        """Asserts every element of `target` is in `expected_set`."""
        target = self._array(target)
        diff = set(target.flatten().tolist()) - set(expected_set)
        if diff:
            raise self.failureException("%d unique element(s) are not in the set %s: %s" % (
                len(diff), expected_set, sorted(diff)))

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """Asserts `target` (an array or nested structure of arrays) has dtype `expected_dtype`."""
        for leaf in nest.flatten(target):
            self.assertEqual(self._array(leaf).dtype, np.dtype(getattr(expected_dtype, "as_numpy_dtype",
                                                                       expected_dtype)))

    def assertShapeEqual(self, np_array, tf_tensor, msg=None):  # noqa: N802
        """Asserts a NumPy array and a tensor's static shape are equal.

        Raises:
          TypeError: If the arguments are not an ndarray (or NumPy scalar) and a Tensor.
          AssertionError: If the shapes differ.
        """
        if not isinstance(np_array, (np.ndarray, np.generic)):
            raise TypeError("np_array must be a Numpy ndarray or Numpy scalar")
        if not isinstance(tf_tensor, ops.Tensor):
            raise TypeError("tf_tensor must be a Tensor")
        self.assertAllEqual(np_array.shape, tf_tensor.get_shape().as_list(), msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        """Asserts two device strings name the same device (compared in canonical form)."""
        from ..framework.device import canonical_name
        self.assertEqual(canonical_name(device1), canonical_name(device2),
                         "Devices %s and %s are not equal. %s" % (device1, device2, msg or ""))

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        """Asserts `actual` starts with `expected_start`."""
        if not actual.startswith(expected_start):
            fail_msg = "%r does not start with %r" % (actual, expected_start)
            raise self.failureException(fail_msg + (" : %r" % msg if msg else ""))

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):  # noqa: N802
        """A context manager asserting its block raises `exception_type` whose message matches.

        Args:
          exception_type: The exception class expected.
          expected_err_re_or_predicate: A regular expression searched in the message, or a
            predicate taking the exception.

        Raises:
          AssertionError: If nothing or another exception is raised, or the message does not match.
        """
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                text = e.message if isinstance(e, errors.OpError) else str(e)
                return re.search(expected_err_re_or_predicate, text) is not None
        try:
            yield
        except exception_type as e:
            if not predicate(e):
                raise self.failureException("Exception of type %s: %s" % (type(e), e)) from e
        else:
            raise self.failureException(exception_type.__name__ + " not raised")

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """`assertRaisesWithPredicateMatch` for `tf.errors.OpError`."""
        return self.assertRaisesWithPredicateMatch(errors.OpError, expected_err_re_or_predicate)

    def assertProtoEquals(self, expected_message_maybe_ascii, message, msg=None):  # noqa: N802
        """Asserts a protocol buffer message equals another message or its text format.

        Raises:
          AssertionError: If the messages differ.
        """
        from google.protobuf import text_format
        if isinstance(expected_message_maybe_ascii, str):
            expected = type(message)()
            text_format.Merge(expected_message_maybe_ascii, expected)
        else:
            expected = expected_message_maybe_ascii
        self.assertEqual(text_format.MessageToString(expected), text_format.MessageToString(message), msg=msg)


def _is_leafy(x):
    """Whether a list/tuple converts to one NumPy array (an array-like leaf), not a structure to recurse into."""
    if any(isinstance(e, dict) or isinstance(e, ops.Tensor) for e in x):
        return False
    try:
        return np.asarray(x).dtype != object
    except (ValueError, TypeError):
        return False


class _CheckedThread:
    """A thread whose `join()` fails the owning test with the exception the target raised."""

    def __init__(self, testcase, target, args=None, kwargs=None):
        self._testcase = testcase
        self._target = target
        self._args = () if args is None else args
        self._kwargs = {} if kwargs is None else kwargs
        self._thread = threading.Thread(target=self._protected_run)
        self._exception = None
        self._is_thread_joined = False

    def _protected_run(self):
        try:
            self._target(*self._args, **self._kwargs)
        except Exception as e:  # noqa: BLE001 (re-raised by join)
            self._exception = e

    def start(self):
        self._thread.start()

    def join(self):
        self._thread.join()
        self._is_thread_joined = True
        if self._exception is not None:
            self._testcase.fail("Error in checkedThread: %s" % self._exception)

    def is_alive(self):
        return self._thread.is_alive()

    def check_termination(self):
        if self._is_thread_joined:
            if self.is_alive():
                raise RuntimeError("Thread was not joined with main thread, and is still running when the test "
                                   "finished.")
        else:
            self._testcase.fail("A checked thread was not joined.")


class Benchmark:
    """Base class of benchmarks (`tf.test.Benchmark`): `run_op_benchmark` times an op in a Session and
    `report_benchmark` logs the entry (and appends it as a line to the file named by the
    `TEST_REPORT_FILE_PREFIX` environment variable, when set)."""

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None,
                         name=None, metrics=None):
        """Reports one benchmark entry.

        Args:
          iters: The number of iterations timed.
          cpu_time: CPU seconds per iteration.
          wall_time: Wall-clock seconds per iteration.
          throughput: Throughput (MB/s).
          extras: A dict of extra values.
          name: The entry's name (default: the calling class and method).
          metrics: A list of dicts with "name", "value" and optional "min_value"/"max_value".

        Returns:
          The entry, a dict.
        """
        if name is None:
            frame = sys._getframe(1)
            name = "%s.%s" % (type(self).__name__, frame.f_code.co_name)
        entry = {"name": name, "iters": iters, "cpu_time": cpu_time, "wall_time": wall_time,
                 "throughput": throughput, "extras": dict(extras or {}), "metrics": list(metrics or [])}
        from .. import tf_logging
        tf_logging.info("Benchmark [%s] iters: %s, wall_time: %s, cpu_time: %s, throughput: %s, extras: %s", name,
                        iters, wall_time, cpu_time, throughput, entry["extras"])
        prefix = os.environ.get("TEST_REPORT_FILE_PREFIX")
        if prefix:
            import json
            with open(prefix + name.replace("/", "__"), "a") as f:
                f.write(json.dumps(entry, default=str) + "\n")
        return entry

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10, store_trace=False,
                         store_memory_usage=True, name=None, extras=None, mbs=0):
        """Runs `op_or_tensor` `burn_iters` times untimed, then `min_iters` times timed, and reports the median.

        Args:
          sess: The Session.
          op_or_tensor: What `sess.run` runs.
          feed_dict: Its feeds.
          burn_iters: Untimed warm-up runs.
          min_iters: Timed runs.
          store_trace: Not supported (must be False).
          store_memory_usage: Accepted for TF's signature.
          name: The entry's name.
          extras: A dict of extra values.
          mbs: Megabytes processed per run, for the throughput.

        Returns:
          A dict with "wall_time" (median seconds), "iters" and "extras" (and "throughput" when `mbs`).

        Raises:
          NotImplementedError: For `store_trace=True`.
        """
        if store_trace:
            raise NotImplementedError("run_op_benchmark(store_trace=True) is not supported")
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = time.perf_counter()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(time.perf_counter() - start)
        median = float(np.median(deltas))
        throughput = mbs / median if mbs else None
        self.report_benchmark(iters=min_iters, wall_time=median, extras=extras, name=name, throughput=throughput)
        result = {"wall_time": median, "iters": min_iters, "extras": dict(extras or {})}
        if throughput is not None:
            result["throughput"] = throughput
        return result

    def evaluate(self, tensors):
        """Evaluates `tensors` in the default session (or eagerly)."""
        if context.executing_eagerly():
            return nest.map_structure(lambda t: t.numpy(), tensors)
        sess = ops.get_default_session()
        if sess is None:
            raise ValueError("Benchmark.evaluate needs a default session")
        return sess.run(tensors)


class StubOutForTesting:
    """Replaces attributes for a test and puts the originals back (`tf.test.StubOutForTesting`).

        stubs = tf.test.StubOutForTesting()
        stubs.Set(os, "getcwd", lambda: "/tmp")
        ...
        stubs.CleanUp()
    """

    def __init__(self):
        self.cache = []
        self.stubs = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.CleanUp()

    def CleanUp(self):  # noqa: N802
        """Undoes every `Set`/`SmartSet` made, newest first."""
        self.SmartUnsetAll()
        self.UnsetAll()

    def SmartSet(self, obj, attr_name, new_attr):  # noqa: N802
        """Replaces `obj.attr_name` with `new_attr`, restoring the value the attribute had (also one inherited
        from a class) in `SmartUnsetAll`."""
        old_attribute = getattr(obj, attr_name)
        own = attr_name in getattr(obj, "__dict__", {})
        self.cache.append((obj, attr_name, old_attribute, own))
        setattr(obj, attr_name, new_attr)

    def SmartUnsetAll(self):  # noqa: N802
        """Undoes every `SmartSet`, newest first."""
        for obj, attr_name, old_attribute, own in reversed(self.cache):
            if own or isinstance(obj, type(sys)):
                setattr(obj, attr_name, old_attribute)
            else:
                delattr(obj, attr_name)
        self.cache = []

    def Set(self, parent, child_name, new_child):  # noqa: N802
        """Replaces `parent.child_name` (which must exist) with `new_child`, restored by `UnsetAll`."""
        old_child = getattr(parent, child_name)
        self.stubs.append((parent, old_child, child_name))
        setattr(parent, child_name, new_child)

    def UnsetAll(self):  # noqa: N802
        """Undoes every `Set`, newest first."""
        for parent, old_child, child_name in reversed(self.stubs):
            setattr(parent, child_name, old_child)
        self.stubs = []


def assert_equal_graph_def(expected, actual, checkpoint_v2=False, hash_table_shared_name=False):
    """Asserts two `GraphDef`s hold the same nodes (compared by name, in any order).

    Args:
      expected: The expected `tf.GraphDef`.
      actual: The `tf.GraphDef` built.
      checkpoint_v2: Ignore the random `_temp_<hex>/part` suffix of V2 checkpoint save ops' constants.
      hash_table_shared_name: Ignore the `shared_name` attribute of hash tables.

    Raises:
      TypeError: If an argument is not a GraphDef.
      AssertionError: If the graphs differ (the message names the first difference).
    """
    from ..graph_io import GraphDef
    if not isinstance(expected, GraphDef):
        raise TypeError("Expected tf.GraphDef for expected, got %s" % type(expected).__name__)
    if not isinstance(actual, GraphDef):
        raise TypeError("Expected tf.GraphDef for actual, got %s" % type(actual).__name__)

    def nodes(graph_def):
        out = {}
        for node in graph_def.node:
            node = type(node).FromString(node.SerializeToString())
            if checkpoint_v2 and node.op == "Const" and "_temp_" in node.name:
                node.ClearField("attr")
            if hash_table_shared_name and node.op.endswith("HashTableV2") and "shared_name" in node.attr:
                del node.attr["shared_name"]
            out[node.name] = node
        return out

    a, b = nodes(expected), nodes(actual)
    for name in sorted(set(a) | set(b)):
        if name not in b:
            raise AssertionError("Node named '%s' in expected, not in actual" % name)
        if name not in a:
            raise AssertionError("Node named '%s' in actual, not in expected" % name)
        if a[name] != b[name]:
            raise AssertionError("Node named '%s' differs:\nexpected:\n%s\nactual:\n%s" % (name, a[name], b[name]))
