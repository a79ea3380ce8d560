"""tf.function / tf.contrib.eager.defun: tracing once per input signature, running the trace through
the compiled plan, variables, captures, gradients, and graph-mode calls."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.autograph.impl import api as autograph_api
from tensorweave.eager import function as function_module
from tensorweave.eager.tensor import EagerTensor


def test_runs_and_caches_per_dtype_and_shape():
    traced = []

    @tf.function(autograph=False)
    def f(x):
        traced.append(1)
        return x * 2.0 + 1.0

    y = f(tf.constant([1.0, 2.0]))
    assert isinstance(y, EagerTensor)
    np.testing.assert_array_equal(y.numpy(), [3.0, 5.0])
    np.testing.assert_array_equal(f(tf.constant([3.0, 4.0])).numpy(), [7.0, 9.0])
    assert f.experimental_get_tracing_count() == 1 and len(traced) == 1
    f(tf.constant([1.0, 2.0, 3.0]))
    assert f.experimental_get_tracing_count() == 2
    f(tf.constant([1.0, 2.0], dtype=tf.float64))
    assert f.experimental_get_tracing_count() == 3
    f(np.array([1.0, 2.0], np.float32))  # NumPy arrays are tensors: the first trace fits
    assert f.experimental_get_tracing_count() == 3


def test_python_arguments_are_part_of_the_key():
    @tf.function
    def f(x, power=2, scale=None):
        y = x ** power
        return y if scale is None else y * scale

    x = tf.constant(3.0)
    assert f(x).numpy() == 9.0
    assert f(x, 3).numpy() == 27.0
    assert f(x, power=3).numpy() == 27.0
    assert f.experimental_get_tracing_count() == 2
    assert f(x, scale=2.0).numpy() == 18.0
    assert f(x, scale=2.0).numpy() == 18.0
    assert f.experimental_get_tracing_count() == 3


def test_input_signature_traces_once():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        return tf.reduce_sum(x)

    assert f(tf.constant([1.0, 2.0])).numpy() == 3.0
    assert f(tf.constant([1.0, 2.0, 3.0])).numpy() == 6.0
    assert f([1.0, 1.0]).numpy() == 2.0
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(ValueError, match="incompatible with input_signature"):
        f(tf.constant([[1.0]]))
    with pytest.raises(ValueError, match="incompatible with input_signature"):
        f(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="covered by its input_signature"):
        f(tf.constant([1.0]), tf.constant([1.0]))
    concrete = f.get_concrete_function()
    assert concrete.inputs[0].shape.as_list() == [None]


def test_nested_inputs_and_outputs():
    @tf.function
    def f(d, pair):
        a, b = pair
        return {"sum": d["x"] + a, "items": (b * 2.0, None, "text", 3)}

    out = f({"x": tf.constant(1.0)}, (tf.constant(2.0), tf.constant([3.0])))
    assert out["sum"].numpy() == 3.0
    np.testing.assert_array_equal(out["items"][0].numpy(), [6.0])
    assert out["items"][1:] == (None, "text", 3)


def test_variables_are_read_and_updated_at_each_call():
    v = tf.Variable(1.0)

    @tf.function
    def step(x):
        before = v.read_value()
        v.assign_add(x)
        return before, v.read_value()

    b, a = step(tf.constant(2.0))
    assert (b.numpy(), a.numpy()) == (1.0, 3.0)
    b, a = step(tf.constant(2.0))
    assert (b.numpy(), a.numpy()) == (3.0, 5.0)
    v.assign(10.0)
    assert step(tf.constant(1.0))[1].numpy() == 11.0
    assert step.experimental_get_tracing_count() == 1


def test_stateful_ops_run_even_if_not_returned():
    v = tf.Variable(0)

    @tf.function
    def bump():
        v.assign_add(1)

    assert bump() is None
    bump()
    assert v.numpy() == 2


def test_captured_eager_tensors():
    c = tf.constant([10.0, 20.0])

    @tf.function
    def f(x):
        return x + c

    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0])).numpy(), [11.0, 22.0])
    concrete = f.get_concrete_function(tf.constant([1.0, 2.0]))
    assert concrete.captured_inputs == [c]


def test_variables_created_on_first_trace_only():
    holder = []

    @tf.function(autograph=False)
    def f(x):
        if not holder:
            holder.append(tf.Variable(tf.ones([2])))
        return x * holder[0]

    np.testing.assert_array_equal(f(tf.constant([2.0, 3.0])).numpy(), [2.0, 3.0])
    np.testing.assert_array_equal(f(tf.constant([4.0, 5.0])).numpy(), [4.0, 5.0])
    assert holder[0].numpy().tolist() == [1.0, 1.0]

    @tf.function
    def g(x):
        return x * tf.Variable(2.0)

    assert g(tf.constant(1.0)).numpy() == 2.0
    with pytest.raises(ValueError, match="tried to create variables on non-first call"):
        g(tf.constant([1.0]))


def test_gradients_through_a_function():
    w = tf.Variable(3.0)

    @tf.function
    def f(x):
        return w * x * x

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gw = tape.gradient(y, [x, w])
    assert (y.numpy(), gx.numpy(), gw.numpy()) == (12.0, 12.0, 4.0)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        dy = inner.gradient(y, x)
    assert outer.gradient(dy, x).numpy() == 6.0


def test_variable_gradients_through_cond_inside_a_function():
    v = tf.Variable(2.0)

    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x * v * v, lambda: -x)

    @tf.function
    def grad_inside(x):
        with tf.GradientTape() as tape:
            y = f(x)
        return tape.gradient(y, v)

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = f(x)
    assert y.numpy() == 12.0
    assert tape.gradient(y, v).numpy() == 12.0
    assert grad_inside(x).numpy() == 12.0
    assert grad_inside(tf.constant(-1.0)).numpy() == 0.0
    v.assign(1.0)
    assert grad_inside(x).numpy() == 6.0


def test_tape_inside_a_function_differentiates_captured_tensors():
    c = tf.constant(3.0)

    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(c)
            y = c * c * x
        return tape.gradient(y, c)

    assert f(tf.constant(2.0)).numpy() == 12.0


def test_tape_and_optimizer_inside_a_function():
    w = tf.Variable([1.0, -1.0])
    opt = tf.train.GradientDescentOptimizer(0.25)

    @tf.function
    def train_step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.square(w * x))
        grads = tape.gradient(loss, [w])
        opt.apply_gradients(zip(grads, [w]))
        return loss

    losses = [train_step(tf.constant([1.0, 2.0])).numpy() for _ in range(3)]
    assert losses[0] == 5.0 and losses[2] < losses[1] < losses[0]
    np.testing.assert_allclose(w.numpy(), [0.125, 1.0], rtol=1e-6)  # w -= 0.25 * 2 * w * x**2
    assert train_step.experimental_get_tracing_count() == 1


def test_random_ops_draw_new_values_each_call():
    @tf.function
    def f():
        return tf.random_uniform([3])

    assert not np.array_equal(f().numpy(), f().numpy())


def test_errors_name_the_op():
    @tf.function(input_signature=[tf.TensorSpec([None])])
    def f(x):
        return tf.reshape(x, [5])

    with pytest.raises(tf.errors.InvalidArgumentError, match="(?s)Input to reshape.*node '(f/)?Reshape'"):
        f(tf.constant([1.0, 2.0]))

    @tf.function
    def g(x):
        return tf.reshape(x, [5])

    with pytest.raises(ValueError, match="Cannot reshape"):  # static shapes fail while tracing, as in TF
        g(tf.constant([1.0, 2.0]))


def test_called_in_graph_mode_adds_ops_to_the_graph():
    @tf.function
    def f(x):
        return x * 3.0

    g = tf.Graph()
    with g.as_default():
        p = tf.placeholder(tf.float32, [])
        y = f(p)
        assert y.graph is g
        with tf.Session() as sess:
            assert sess.run(y, {p: 2.0}) == 6.0
    assert f.experimental_get_tracing_count() == 0


def test_defun_and_methods():
    class Model:
        def __init__(self, k):
            self.k = k

        @tf.contrib.eager.defun
        def apply(self, x):
            return x * self.k

    m2, m3 = Model(2.0), Model(3.0)
    assert m2.apply(tf.constant(1.0)).numpy() == 2.0
    assert m3.apply(tf.constant(1.0)).numpy() == 3.0
    assert m2.apply(tf.constant(5.0)).numpy() == 10.0
    assert m2.apply.experimental_get_tracing_count() == 1
    assert Model.apply.python_function.__name__ == "apply"


def test_plan_is_compiled_once():
    @tf.function
    def f(x):
        return x + 1.0

    f(tf.constant(1.0))
    concrete = f.get_concrete_function(tf.constant(1.0))
    plan = concrete._plan
    f(tf.constant(2.0))
    assert concrete._plan is plan


def test_autograph_installs_itself_as_the_converter():
    assert function_module._autograph_converter[0] is autograph_api.to_graph


def test_the_installed_converter_is_used(monkeypatch):
    converted = []

    def to_graph(fn):
        converted.append(fn)
        return lambda x: fn(x) + 100.0

    monkeypatch.setattr(function_module, "_autograph_converter", [to_graph])

    def f(x):
        return x * 2.0

    assert tf.function(f)(tf.constant(1.0)).numpy() == 102.0
    assert converted == [f]
    assert tf.function(f, autograph=False)(tf.constant(1.0)).numpy() == 2.0
    monkeypatch.setattr(function_module, "_autograph_converter", [None])  # none installed: traced as written
    assert tf.function(f)(tf.constant(1.0)).numpy() == 2.0


@tf.function
def _absolute(x):
    if x > 0:
        y = x
    else:
        y = -x
    return y


@tf.function
def _sum_down(n):
    total = tf.constant(0)
    while n > 0:
        total += n
        n -= 1
    return total


def test_autograph_converts_python_control_flow_on_tensors():
    pytest.importorskip("tensorweave.autograph")
    assert _absolute(tf.constant(-3.0)).numpy() == 3.0
    assert _absolute(tf.constant(2.0)).numpy() == 2.0
    assert _absolute.experimental_get_tracing_count() == 1
    assert _sum_down(tf.constant(4)).numpy() == 10


def test_without_autograph_python_conditions_on_tensors_fail():
    @tf.function(autograph=False)
    def f(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="Python `bool`"):
        f(tf.constant(1.0))
