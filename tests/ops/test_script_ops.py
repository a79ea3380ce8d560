"""tf.py_func / tf.numpy_function: outputs, dtypes, errors raised by the wrapped function, and
gradients installed with gradient_override_map + RegisterGradient."""

import os
import subprocess
import sys
import uuid

import numpy as np
import pytest

import tensorweave as tf


def _run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def py_func_with_grad(func, inp, Tout, stateful=True, name=None, grad=None):  # noqa: N803 (TF's argument name)
    """The classic recipe: register `grad` under a fresh name and map PyFunc onto it."""
    rnd_name = "PyFuncGrad_" + uuid.uuid4().hex
    tf.RegisterGradient(rnd_name)(grad)
    g = tf.get_default_graph()
    with g.gradient_override_map({"PyFunc": rnd_name, "PyFuncStateless": rnd_name}):
        return tf.py_func(func, inp, Tout, stateful=stateful, name=name)


# ---- forward -----------------------------------------------------------------------------------------
def test_single_tout_returns_a_tensor():
    x = tf.constant([1.0, 2.0, 3.0])
    y = tf.py_func(lambda a: a * 2, [x], tf.float32)
    assert isinstance(y, tf.Tensor)
    assert y.op.type == "PyFunc"
    assert y.dtype is tf.float32
    assert y.shape.ndims is None
    out = _run(y)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, [2.0, 4.0, 6.0])


def test_list_tout_returns_a_list():
    x = tf.constant([1, 2, 3])
    outs = tf.py_func(lambda a: (np.int32(a.sum()), (a * 1.5).astype(np.float64)), [x], [tf.int32, tf.float64])
    assert isinstance(outs, list) and len(outs) == 2
    assert [o.dtype for o in outs] == [tf.int32, tf.float64]
    s, f = _run(outs)
    assert s == 6
    np.testing.assert_array_equal(f, [1.5, 3.0, 4.5])
    one = tf.py_func(lambda a: a, [x], [tf.int32])
    assert isinstance(one, list) and len(one) == 1
    np.testing.assert_array_equal(_run(one[0]), [1, 2, 3])


def test_multiple_inputs_and_feeds():
    a = tf.placeholder(tf.float64, [None])
    b = tf.placeholder(tf.int64, [])
    c = tf.py_func(lambda x, n: np.tile(x, n), [a, b], tf.float64)
    np.testing.assert_array_equal(_run(c, {a: [1.0, 2.0], b: 3}), [1.0, 2.0] * 3)


def test_python_values_as_inputs():
    y = tf.py_func(lambda a, b: np.float32(a + b), [1.5, 2.5], tf.float32)
    assert _run(y) == 4.0


def test_function_receives_numpy_values():
    seen = []

    def f(arr, scalar):
        seen.append((type(arr), arr.dtype, type(scalar)))
        return arr

    y = tf.py_func(f, [tf.constant([1.0, 2.0]), tf.constant(3.0)], tf.float32)
    _run(y)
    assert seen[0][0] is np.ndarray
    assert seen[0][1] == np.float32
    # TF hands 0-d values to the function as NumPy scalars (PyArray_Return).
    assert seen[0][2] is np.float32


def test_function_may_modify_its_inputs_without_affecting_the_graph():
    c = tf.constant([1.0, 2.0])

    def f(a):
        a[0] = 100.0
        return a

    y = tf.py_func(f, [c], tf.float32)
    with tf.Session() as sess:
        out, orig = sess.run([y, c])
        np.testing.assert_array_equal(out, [100.0, 2.0])
        np.testing.assert_array_equal(orig, [1.0, 2.0])
        np.testing.assert_array_equal(sess.run(c), [1.0, 2.0])


def test_stateful_flag_and_name():
    x = tf.constant(1.0)
    assert tf.py_func(lambda a: a, [x], tf.float32).op.type == "PyFunc"
    assert tf.py_func(lambda a: a, [x], tf.float32, stateful=False).op.type == "PyFuncStateless"
    assert tf.py_func(lambda a: a, [x], tf.float32, name="mine").op.name == "mine"
    assert tf.numpy_function(lambda a: a, [x], tf.float32).op.type == "PyFunc"


def test_runs_every_time():
    calls = []

    def f():
        calls.append(1)
        return np.int64(len(calls))

    y = tf.py_func(f, [], tf.int64)
    with tf.Session() as sess:
        assert [sess.run(y) for _ in range(3)] == [1, 2, 3]


def test_string_output():
    y = tf.py_func(lambda: np.array([b"a", b"bc"], dtype=object), [], tf.string)
    assert list(_run(y)) == [b"a", b"bc"]


def test_set_shape_on_output():
    y = tf.py_func(lambda: np.zeros([2, 3], np.float32), [], tf.float32)
    y.set_shape([2, 3])
    assert y.shape.as_list() == [2, 3]
    assert _run(y).shape == (2, 3)


# ---- result checks ------------------------------------------------------------------------------------
def test_float64_result_for_float32_tout_raises():
    y = tf.py_func(lambda: np.array([1.0, 2.0]), [], tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="0-th value returned by .* is double, but expects float"):
        _run(y)
    z = tf.py_func(lambda: 1.0, [], tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="is double, but expects float"):
        _run(z)


def test_int64_result_for_int32_tout_raises():
    outs = tf.py_func(lambda: (np.int32(1), np.int64(2)), [], [tf.int32, tf.int32])
    with pytest.raises(tf.errors.InvalidArgumentError, match="1-th value returned by .* is int64, but expects int32"):
        _run(outs)


def test_wrong_number_of_results_raises():
    outs = tf.py_func(lambda: (np.float32(1), np.float32(2), np.float32(3)), [], [tf.float32, tf.float32])
    with pytest.raises(tf.errors.InvalidArgumentError, match="returns 3 values, but expects to see 2 values"):
        _run(outs)


def test_list_result_for_single_tout_is_several_values():
    """A returned Python list is a list of outputs, so three floats for one output is an error."""
    y = tf.py_func(lambda: [1.0, 2.0, 3.0], [], tf.float64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="returns 3 values, but expects to see 1 values"):
        _run(y)


# ---- exceptions raised by the function ----------------------------------------------------------------
def bad_func(x):
    raise ValueError("boom %d" % x.size)


def test_exception_becomes_invalid_argument_with_traceback():
    y = tf.py_func(bad_func, [tf.constant([1.0, 2.0])], tf.float32, name="exploding")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        _run(y)
    msg = str(e.value)
    assert "ValueError: boom 2" in msg
    assert "Traceback" in msg
    assert "in bad_func" in msg
    assert __file__ in msg
    assert "exploding" in msg
    assert e.value.op is y.op


_TRACEBACK_SCRIPT = """
import tensorweave as tf
{setup}
def failing(x):
    raise ValueError("boom from the user")
{body}
"""


@pytest.mark.parametrize("setup,body", [
    ("", "y = tf.py_func(failing, [tf.constant(1.0)], tf.float32, name='exploding')\n"
         "tf.Session().run(y)"),
    ("", "body = lambda i: tf.reshape(tf.py_func(failing, [i], tf.float32), [])\n"
         "tf.Session().run(tf.while_loop(lambda i: i < 2.0, body, [tf.constant(0.0)]))"),
    ("tf.enable_eager_execution()", "tf.py_func(failing, [tf.constant(1.0)], tf.float32)"),
    ("tf.enable_eager_execution()", "@tf.function\ndef f(x):\n    return tf.py_func(failing, [x], tf.float32)\n"
                                    "f(tf.constant(1.0))"),
], ids=["session", "while_loop", "eager", "function"])
def test_a_failing_function_shows_its_traceback_once(tmp_path, setup, body):
    script = tmp_path / "user_script.py"
    script.write_text(_TRACEBACK_SCRIPT.format(setup=setup, body=body))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, str(script)], cwd=root, env=dict(os.environ, PYTHONPATH=root),
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 1
    err = out.stderr
    assert err.count('raise ValueError("boom from the user")') == 1, err
    # One traceback of the failing call, then the message: TF's "ValueError: ..." header and the user's traceback.
    assert err.count("Traceback (most recent call last)") == 2 and "The above exception" not in err, err
    assert "tensorweave.framework.errors.InvalidArgumentError: ValueError: boom from the user" in err


@pytest.mark.parametrize("exc,cls", [
    (ValueError("v"), tf.errors.InvalidArgumentError),
    (TypeError("t"), tf.errors.InvalidArgumentError),
    (StopIteration(), tf.errors.OutOfRangeError),
    (MemoryError(), tf.errors.ResourceExhaustedError),
    (NotImplementedError("n"), tf.errors.UnimplementedError),
    (RuntimeError("r"), tf.errors.UnknownError),
    (KeyError("k"), tf.errors.UnknownError),
    (IndexError("i"), tf.errors.UnknownError),
    (ZeroDivisionError("z"), tf.errors.UnknownError),
])
def test_exception_classes_map_as_in_tf(exc, cls):
    def f():
        raise exc

    y = tf.py_func(f, [], tf.float32)
    with pytest.raises(cls) as e:
        _run(y)
    assert type(exc).__name__ in str(e.value)


def test_session_survives_a_failing_py_func():
    y = tf.py_func(bad_func, [tf.constant([1.0])], tf.float32)
    c = tf.constant(3.0)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(y)
        assert sess.run(c) == 3.0


# ---- gradients -----------------------------------------------------------------------------------------
def _relu_grad(op, grad):
    """d relu(x)/dx = 1 where x > 0 (computed by another py_func)."""
    x = op.inputs[0]
    return [tf.py_func(lambda a, g: (g * (a > 0)).astype(np.float32), [x, grad], tf.float32)]


def test_relu_py_func_with_registered_gradient():
    x = tf.constant([-2.0, -0.5, 0.25, 1.0, 3.0])
    y = py_func_with_grad(lambda a: np.maximum(a, 0.0), [x], tf.float32, grad=_relu_grad)
    (g,) = tf.gradients(y, x)
    out, grad = _run([y, g])
    np.testing.assert_array_equal(out, [0.0, 0.0, 0.25, 1.0, 3.0])
    np.testing.assert_array_equal(grad, [0.0, 0.0, 1.0, 1.0, 1.0])


def _mod_grad_core(op, grad):
    """d(x mod y)/dx = 1, d(x mod y)/dy = -floor(x / y)."""
    x, y = op.inputs
    gy = tf.py_func(lambda a, b, g: (-np.floor(a / b) * g).astype(np.float32), [x, y, grad], tf.float32)
    return tf.identity(grad), gy


def _mod_grad_math(op, grad):
    """The seed's gradient, written with math ops."""
    x = op.inputs[0]
    y = op.inputs[1]
    return grad * 1, grad * tf.negative(tf.floordiv(x, y))


def _tf_mod(x, y, grad, name=None):
    with tf.name_scope(name, "mod", [x, y]) as name:
        z = py_func_with_grad(np.mod, [x, y], [tf.float32], name=name, grad=grad)
        return z[0]


@pytest.mark.parametrize("grad", [_mod_grad_core, _mod_grad_math])
def test_tf_mod_seed_example(grad):
    x = tf.constant([0.3, 0.7, 1.2, 1.7])
    y = tf.constant([0.2, 0.5, 1.0, 2.9])
    z = _tf_mod(x, y, grad)
    assert z.op.name == "mod"
    gx, gy = tf.gradients(z, [x, y])
    out = _run([z, gx, gy])
    np.testing.assert_allclose(out[0], np.mod(np.float32([0.3, 0.7, 1.2, 1.7]), np.float32([0.2, 0.5, 1.0, 2.9])))
    np.testing.assert_array_equal(out[1], [1.0, 1.0, 1.0, 1.0])
    np.testing.assert_array_equal(out[2], [-1.0, -1.0, -1.0, -0.0])


def test_py_func_gradient_passes_numerical_check():
    def square_grad(op, grad):
        return [tf.py_func(lambda a, g: 2 * a * g, [op.inputs[0], grad], tf.float64)]

    x = tf.placeholder(tf.float64, [3])
    y = py_func_with_grad(lambda a: a * a, [x], tf.float64, grad=square_grad)
    y.set_shape([3])
    with tf.Session():
        err = tf.test.compute_gradient_error(x, [3], y, [3], x_init_value=np.array([0.5, -1.0, 2.0]))
    assert err < 1e-6


def test_py_func_without_override_is_not_differentiable():
    # TF registers PyFunc, PyFuncStateless and EagerPyFunc as NotDifferentiable: tf.gradients gives None.
    x = tf.constant([1.0, 2.0])
    y = tf.py_func(lambda a: a, [x], tf.float32, name="plain")
    assert tf.gradients(y, x) == [None]
    s = tf.py_func(lambda a: a, [x], tf.float32, stateful=False, name="pure")
    assert tf.gradients(s, x) == [None]
    n = tf.numpy_function(lambda a: a, [x], tf.float32)
    assert tf.gradients(n, x) == [None]
    # A path through a py_func contributes nothing; other paths still do.
    z = tf.reduce_sum(x * 3.0) + tf.reduce_sum(tf.reshape(y, [2]))
    np.testing.assert_array_equal(_run(tf.gradients(z, x)[0]), [3.0, 3.0])


def test_py_func_without_override_has_no_eager_gradient():
    from tensorweave.eager import context
    with context.eager_mode():
        x = tf.constant([1.0, 2.0])
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.py_func(lambda a: a * 2, [x], tf.float32)
        np.testing.assert_array_equal(y.numpy(), [2.0, 4.0])
        assert tape.gradient(y, x) is None


def test_override_only_applies_inside_the_block():
    name = "Halve_" + uuid.uuid4().hex
    tf.RegisterGradient(name)(lambda op, grad: [tf.py_func(lambda g: g / 2, [grad], tf.float32)])
    x = tf.constant([2.0])
    with tf.get_default_graph().gradient_override_map({"PyFunc": name}):
        inside = tf.py_func(lambda a: a, [x], tf.float32)
    outside = tf.py_func(lambda a: a, [x], tf.float32)
    np.testing.assert_array_equal(_run(tf.gradients(inside, x)[0]), [0.5])
    assert tf.gradients(outside, x) == [None]
