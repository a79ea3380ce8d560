"""tf.custom_op: declaration, construction, kernels (NumPy and numba), gradients, eager and
tf.function, meta-graph round trips, and every error path."""

import itertools
import os
import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tensorweave.framework import registry
from tensorweave.ops import custom_op as custom_op_module
from tests.ops.op_harness import check_forward

_ids = itertools.count()


def fresh(base):
    """A new op type name: the registry is process-wide, so every declaration gets its own."""
    return "CustomOpTest%s%d" % (base, next(_ids))


def _relu_grad(op, grad):
    return grad * tf.cast(op.inputs[0] > 0, grad.dtype)


def declare_relu(**kw):
    kw.setdefault("grad", _relu_grad)
    return tf.custom_op(fresh("Relu"), lambda x: np.maximum(x, 0), inputs=[("x", (tf.float32, tf.float64))],
                        outputs="x", shape="x", **kw)


def declare_mod():
    def grad(op, g):
        x, y = op.inputs
        return g, g * tf.negative(tf.floordiv(x, y))

    return tf.custom_op(fresh("Mod"), np.mod, inputs=[("x", (tf.float32, tf.float64)), ("y", "x")], outputs="x",
                        shape=lambda x, y: x.merge_with(y), grad=grad)


def run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


# ---- forward, naming, declaration forms ------------------------------------------------------------
def test_forward_matches_numpy_with_known_and_unknown_shapes():
    relu = declare_relu()
    x = np.array([[-1.5, 0.5, 2.0], [3.0, -0.1, 0.0]])
    check_forward(relu, lambda a: np.maximum(a, 0), x.astype(np.float32))
    check_forward(relu, lambda a: np.maximum(a, 0), x)
    mod = declare_mod()
    check_forward(mod, np.mod, np.array([0.3, 0.7, 1.2, 1.7]), np.array([0.2, 0.5, 1.0, 2.9]))


def test_ops_are_named_after_the_type_like_tf_ops():
    relu = declare_relu()
    x = tf.placeholder(tf.float32, [2])
    a, b, c = relu(x), relu(x), relu(x, name="act")
    with tf.name_scope("block"):
        d = relu(x)
    t = relu.op_type
    assert [a.op.name, b.op.name, c.op.name, d.op.name] == [t, t + "_1", "act", "block/" + t]
    assert a.op.type == t and a.shape.as_list() == [2]
    assert a.op.creation_site.startswith(__file__)


def test_decorator_form_takes_the_type_from_the_kernel_name_and_keeps_its_doc():
    name = "custom_op_test_scale_%d" % next(_ids)

    def kernel(x, factor):
        """Multiplies by `factor`."""
        return x * factor

    kernel.__name__ = name
    scale = tf.custom_op(inputs=["x"], outputs="x", attrs={"factor": 2.0})(kernel)
    op_type = "".join(p.capitalize() for p in name.split("_"))
    assert scale.op_type == op_type and scale.__name__ == name
    assert scale.__doc__.startswith("Multiplies by `factor`.") and "factor: float attr (default 2.0)" in scale.__doc__
    assert str(__import__("inspect").signature(scale)) == "(x, *, factor=2.0, name=None)"
    assert op_type in tf.list_ops()
    np.testing.assert_allclose(run(scale([1.0, 2.0], factor=3)), [3.0, 6.0])


def test_function_form_constructor_is_the_snake_case_type_and_records_its_module():
    t = fresh("PlusOne")
    plus_one = tf.custom_op(t, lambda x: x + 1, inputs=["x"], outputs="x")
    assert plus_one.__name__ == "custom_op_test_plus_one%d" % int(t[len("CustomOpTestPlusOne"):])
    assert plus_one.__module__ == __name__ and custom_op_module.declaring_module(t) == __name__
    assert plus_one.kernels["CPU"](np.array(1)) == 2


def test_python_values_take_the_dtype_of_their_constraint():
    mod = declare_mod()
    x = tf.constant([2.5, 4.0], tf.float64)
    z = mod(x, [2.0, 3.0])  # y follows x's dtype
    assert z.dtype == tf.float64 and z.op.inputs[1].op.name == mod.op_type + "/y"
    np.testing.assert_allclose(run(z), [0.5, 1.0])
    relu = declare_relu()
    assert relu([1, -2]).dtype == tf.float32  # ints become the first allowed dtype
    fixed = tf.custom_op(fresh("Fixed"), lambda x: x * 2, inputs=[("x", tf.float64)], outputs="x")
    assert fixed([1, 2]).dtype == tf.float64
    assert fixed(x=[1]).dtype == tf.float64


# ---- attrs ------------------------------------------------------------------------------------------
def test_attrs_are_validated_constants_passed_to_kernels_as_keywords():
    seen = []

    def kernel(x, k, scale, flag, label, dims, out_type):
        seen.append((k, scale, flag, label, dims, out_type))
        return (x * k * scale).astype(out_type)

    op = tf.custom_op(fresh("Attrs"), kernel, inputs=["x"], outputs=lambda x, **a: a["out_type"],
                      attrs={"k": int, "scale": 1.0, "flag": False, "label": "a", "dims": (1, 2), "out_type": tf.DType})
    y = op(np.array([1.0, 2.0], np.float32), k=np.int64(3), scale=2, dims=[4], out_type=tf.float64)
    assert y.dtype == tf.float64
    assert y.op.get_attr("k") == 3 and type(y.op.get_attr("k")) is int
    assert y.op.get_attr("scale") == 2.0 and type(y.op.get_attr("scale")) is float
    assert y.op.get_attr("flag") is False and y.op.get_attr("label") == "a"
    assert y.op.get_attr("dims") == (4,) and y.op.get_attr("out_type") is tf.float64
    np.testing.assert_array_equal(run(y), [6.0, 12.0])
    k, scale, flag, label, dims, out_type = seen[-1]
    assert (k, scale, flag, label, dims) == (3, 2.0, False, "a", (4,))
    assert out_type == np.dtype(np.float64) and isinstance(out_type, np.dtype)


def test_output_dtype_functions_get_tf_dtypes_when_the_kernel_runs_too():
    op = tf.custom_op(fresh("AttrDtype"), lambda x, out_type: x.astype(out_type), inputs=["x"],
                      outputs=lambda x, out_type: out_type.base_dtype, attrs={"out_type": tf.DType})
    y = op(np.array([1.5, 2.5], np.float32), out_type=tf.float64)
    assert y.dtype == tf.float64
    out = run(y)
    assert out.dtype == np.float64 and out.tolist() == [1.5, 2.5]


@pytest.mark.parametrize("kwargs, fragment", [
    ({"k": "3"}, "Expected int for attr 'k' of"),
    ({"k": True}, "Expected int for attr 'k'"),
    ({"k": 1, "scale": "x"}, "Expected float for attr 'scale'"),
    ({"k": 1, "dims": [object()]}, "Expected list for attr 'dims'"),
    ({"k": 1, "dims": 3}, "Expected list for attr 'dims'"),
])
def test_bad_attr_values_raise_type_error_naming_the_attr_and_op(kwargs, fragment):
    op = tf.custom_op(fresh("BadAttr"), lambda x, k, scale, dims: x, inputs=["x"], outputs="x",
                      attrs={"k": int, "scale": 1.0, "dims": list})
    with pytest.raises(TypeError, match=fragment) as e:
        op(tf.constant(1.0), **{"dims": (), **kwargs})
    assert op.op_type in str(e.value)


def test_missing_unknown_and_misplaced_arguments_raise_type_error():
    op = tf.custom_op(fresh("Args"), lambda x, y, k: x, inputs=["x", "y"], outputs="x", attrs={"k": int})
    x = tf.constant(1.0)
    with pytest.raises(TypeError, match=r"is missing the required attr 'k' \(op CustomOpTestArgs\d+: inputs x, y"):
        op(x, x)
    with pytest.raises(TypeError, match="is missing input 'y'"):
        op(x, k=1)
    with pytest.raises(TypeError, match="takes 2 inputs but 3 were given"):
        op(x, x, x, k=1)
    with pytest.raises(TypeError, match="got an unexpected argument 'z'"):
        op(x, x, k=1, z=2)
    with pytest.raises(TypeError, match="got multiple values for input 'x'"):
        op(x, x, x=x, k=1)


# ---- input dtypes -----------------------------------------------------------------------------------
def test_wrong_input_dtypes_raise_type_error_at_graph_construction():
    relu = declare_relu()
    with pytest.raises(TypeError, match="Value passed to parameter 'x' of '%s' Op has DataType int32 not in list of "
                                        "allowed values: float32, float64" % relu.op_type):
        relu(tf.constant([1, 2]))
    mod = declare_mod()
    with pytest.raises(TypeError, match="Input 'y' of '%s' Op has type float64 that does not match type float32 of "
                                        "argument 'x'" % mod.op_type):
        mod(tf.constant([1.0]), tf.constant([1.0], tf.float64))
    fixed = tf.custom_op(fresh("Fixed"), lambda x: x, inputs=[("x", tf.float64)], outputs="x")
    with pytest.raises(TypeError, match="Input 'x' of '%s' Op has type float32 that does not match expected type of "
                                        "float64" % fixed.op_type):
        fixed(tf.constant([1.0]))
    assert not [o for o in tf.get_default_graph().get_operations() if o.type in (relu.op_type, mod.op_type)]


# ---- outputs and shapes -----------------------------------------------------------------------------
def test_multiple_outputs_return_a_list_and_a_list_of_one_stays_a_list():
    def minmax(x):
        return x.min(axis=-1), x.argmax(axis=-1).astype(np.int32)

    op = tf.custom_op(fresh("MinMax"), minmax, inputs=["x"], outputs=["x", tf.int32],
                      shape=lambda x: [x[:-1], x[:-1]])
    x = tf.placeholder(tf.float32, [2, 3])
    lo, arg = op(x)
    assert (lo.dtype, arg.dtype) == (tf.float32, tf.int32) and lo.shape.as_list() == [2] == arg.shape.as_list()
    assert lo.name.endswith(":0") and arg.name.endswith(":1") and lo.op is arg.op
    a, b = run([lo, arg], {x: [[3, 1, 2], [0, 5, 4]]})
    np.testing.assert_array_equal(a, [1, 0])
    np.testing.assert_array_equal(b, [0, 1])
    one = tf.custom_op(fresh("One"), lambda x: x, inputs=["x"], outputs=["x"])
    out = one(x)
    assert isinstance(out, list) and len(out) == 1


def test_without_a_shape_function_shapes_are_unknown_and_a_callable_sees_tensor_shapes():
    plain = tf.custom_op(fresh("NoShape"), lambda x: x * 2, inputs=["x"], outputs="x")
    x = tf.placeholder(tf.float32, [3, 4])
    assert plain(x).shape.ndims is None
    seen = []

    def shape(a, b, axis):
        seen.append((a, b))
        return a.concatenate(b[axis:])

    cat = tf.custom_op(fresh("Cat"), lambda a, b, axis: np.concatenate([a, b[axis:]]), inputs=["a", "b"],
                       outputs="a", shape=shape, attrs={"axis": 0})
    y = cat(x, tf.placeholder(tf.float32, [None]))
    assert isinstance(seen[0][0], tf.TensorShape) and y.shape.as_list() == [3, 4, None]
    assert cat(tf.placeholder(tf.float32), tf.placeholder(tf.float32)).shape.ndims is None


def test_shape_function_errors_name_the_op():
    def shape(x):
        raise ValueError("x must be a matrix")

    op = tf.custom_op(fresh("Strict"), lambda x: x, inputs=["x"], outputs="x", shape=shape)
    with pytest.raises(ValueError, match=r"x must be a matrix for '%s' \(op: '%s'\)" % (op.op_type, op.op_type)):
        op(tf.constant(1.0))
    bad = tf.custom_op(fresh("BadShape"), lambda x: x, inputs=["x"], outputs="x", shape=lambda x: "oops")
    with pytest.raises(TypeError, match="The shape function of %s returned 'oops', not a shape" % bad.op_type):
        bad(tf.constant(1.0))
    two = tf.custom_op(fresh("TwoShapes"), lambda x: (x, x), inputs=["x"], outputs=["x", "x"], shape=lambda x: x)
    with pytest.raises(TypeError, match="must return a list of 2 shapes"):
        two(tf.constant([1.0]))
    dt = tf.custom_op(fresh("BadDtype"), lambda x: x, inputs=["x"], outputs=lambda x: "nope")
    with pytest.raises(TypeError, match="The dtype function of output 0 of %s failed" % dt.op_type):
        dt(tf.constant(1.0))


# ---- kernels ----------------------------------------------------------------------------------------
def test_kernel_errors_are_tf_errors_naming_the_op_and_its_creation_site():
    def kernel(x):
        raise ValueError("negative input")

    op = tf.custom_op(fresh("Fails"), kernel, inputs=["x"], outputs="x")
    x = tf.placeholder(tf.float32)
    y = op(x, name="checked")
    line = sys._getframe().f_lineno - 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="ValueError: negative input") as e:
        run(y, {x: 1.0})
    assert "'checked' (op: %s, defined at %s:%d)" % (op.op_type, __file__, line) in str(e.value)
    assert e.value.op is y.op


def test_kernel_results_are_cast_within_a_kind_and_rejected_across_kinds():
    widen = tf.custom_op(fresh("Widen"), lambda x: x.astype(np.float64) * 2, inputs=["x"], outputs="x")
    v = run(widen(np.array([1.5], np.float32)))
    assert v.dtype == np.float32 and v[0] == 3.0
    scalar = tf.custom_op(fresh("Scalar"), lambda x: 2.5, inputs=["x"], outputs=tf.float32)
    v = run(scalar(tf.constant(1)))
    assert v.dtype == np.float32 and v == 2.5
    to_int = tf.custom_op(fresh("ToInt"), lambda x: x * 1.5, inputs=["x"], outputs=tf.int32)
    x = tf.placeholder(tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError, match="The kernel of %s returned float32 for output 0, which "
                                                             "is declared int32" % to_int.op_type):
        run(to_int(x), {x: 1.0})
    pair = tf.custom_op(fresh("Pair"), lambda x: x, inputs=["x"], outputs=["x", "x"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="returned one ndarray; it must return a tuple of 2"):
        run(pair(x), {x: 1.0})


def test_numba_kernel_matches_the_numpy_kernel():
    numba = pytest.importorskip("numba")

    def clip_scale(x, lo, hi, scale):
        out = np.empty_like(x)
        for i in range(x.size):
            out.flat[i] = min(max(x.flat[i], lo), hi) * scale
        return out

    spec = dict(inputs=[("x", (tf.float32, tf.float64))], outputs="x", shape="x",
                attrs={"lo": 0.0, "hi": 1.0, "scale": 2.0})
    plain = tf.custom_op(fresh("ClipNumPy"), clip_scale, **spec)
    fast = tf.custom_op(fresh("ClipNumba"), numba.njit(clip_scale), **spec)
    x = np.random.RandomState(0).randn(4, 5).astype(np.float32)
    a, b = run([plain(x, hi=0.5, scale=3.0), fast(x, hi=0.5, scale=3.0)])
    np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(b, np.clip(x, 0.0, 0.5) * 3.0, rtol=1e-6)
    assert b.dtype == np.float32


def test_stateful_ops_run_at_every_fetch_even_on_constant_inputs():
    calls = []

    def count(x):
        calls.append(1)
        return x + len(calls)

    counter = tf.custom_op(fresh("Counter"), count, inputs=["x"], outputs="x", stateful=True)
    y = counter(tf.constant(1.0))
    with tf.Session() as sess:
        assert [sess.run(y), sess.run(y)] == [2.0, 3.0]
    assert registry.get_op_def(counter.op_type).stateful
    with context.eager_mode():
        assert counter(tf.constant(1.0)).numpy() == 4.0


def test_a_gpu_kernel_runs_on_the_gpu_backends_arrays(monkeypatch):
    fake_device = pytest.importorskip("tests.backends.fake_device")
    ran = []

    def gpu(x, k):
        ran.append(type(x).__name__)
        return x * k

    both = tf.custom_op(fresh("Both"), kernels={"CPU": lambda x, k: x * k, "gpu": gpu}, inputs=["x"], outputs="x",
                        attrs={"k": 2.0})
    cpu_only = tf.custom_op(fresh("CpuOnly"), lambda x: x + 1, inputs=["x"], outputs="x")
    assert both.kernels["GPU"] is gpu and registry.get_op_def(both.op_type).gpu is not None
    assert registry.get_op_def(cpu_only.op_type).gpu is None
    with fake_device.use_backend(fake_device.FakeBackend("GPU", 1)):
        with tf.device("/gpu:0"):
            x = tf.placeholder(tf.float32, [2])
            y = both(x, k=3.0)
            z = cpu_only(y)
        with tf.Session(config=tf.ConfigProto(allow_soft_placement=True)) as sess:
            got = sess.run([y, z], {x: [1.0, 2.0]})
    np.testing.assert_array_equal(got[0], [3.0, 6.0])
    np.testing.assert_array_equal(got[1], [4.0, 7.0])
    assert ran == ["FakeArray"]
    tf.custom_op(both.op_type, lambda x, k: x, inputs=["x"], outputs="x", attrs={"k": 1.0}, override=True)
    assert registry.get_op_def(both.op_type).gpu is None


# ---- gradients --------------------------------------------------------------------------------------
def test_gradients_match_numerical_differences():
    mod = declare_mod()
    x, y = tf.constant([0.3, 0.7, 1.2, 1.7]), tf.constant([0.2, 0.5, 1.0, 2.9])
    gx, gy = run(tf.gradients(mod(x, y), [x, y]))
    np.testing.assert_array_equal(gx, [1, 1, 1, 1])
    np.testing.assert_array_equal(gy, [-1, -1, -1, 0])
    result = tf.test.check_gradients(mod, [np.array([0.3, 0.7, 1.2, 1.7]), np.array([0.2, 0.5, 1.0, 2.9])],
                                     tolerance=1e-6)
    assert result.max_error < 1e-6 and set(result.errors) == {(0, 0), (1, 0)}


def test_a_gradient_can_be_another_custom_op_receiving_the_shared_attrs():
    relu_grad = tf.custom_op(fresh("LeakyGrad"), lambda x, dy, alpha: np.where(x > 0, dy, alpha * dy),
                             inputs=["x", ("dy", "x")], outputs="x", attrs={"alpha": float})
    leaky = tf.custom_op(fresh("Leaky"), lambda x, alpha, unused: np.where(x > 0, x, alpha * x),
                         inputs=["x"], outputs="x", attrs={"alpha": 0.1, "unused": 0}, grad=relu_grad)
    x = tf.constant([-2.0, 3.0])
    (g,) = tf.gradients(leaky(x, alpha=0.25), x)
    np.testing.assert_allclose(run(g), [0.25, 1.0])
    assert g.op.type == relu_grad.op_type and g.op.get_attr("alpha") == 0.25
    tf.test.check_gradients(lambda a: leaky(a, alpha=0.25), [np.array([-2.0, -0.5, 0.5, 3.0])], tolerance=1e-6)


def test_gradient_errors():
    x = tf.constant([1.0, 2.0])
    none = declare_relu(grad=None)
    with pytest.raises(LookupError, match="No gradient defined for operation '%s'" % none.op_type):
        tf.gradients(none(x), x)
    count = declare_relu(grad=lambda op, g: [g, g])
    with pytest.raises(ValueError, match="returned 2 gradients; it must return one per input \\(x\\)"):
        tf.gradients(count(x), x)
    dtype = declare_relu(grad=lambda op, g: tf.cast(g, tf.float64))
    with pytest.raises(TypeError, match="for input 'x' has dtype float64; it must have the input's dtype float32"):
        tf.gradients(dtype(x), x)


def test_declaring_a_gradient_op_with_the_wrong_arity_fails():
    wrong_in = tf.custom_op(fresh("GradIn"), lambda dy: dy, inputs=["dy"], outputs="dy")
    with pytest.raises(ValueError, match="takes 1 inputs; it is called with 2 \\(the inputs x, then one gradient"):
        declare_relu(grad=wrong_in)
    wrong_out = tf.custom_op(fresh("GradOut"), lambda x, dy: (dy, dy), inputs=["x", "dy"], outputs=["x", "x"])
    with pytest.raises(ValueError, match="must have one output per input"):
        declare_relu(grad=wrong_out)
    with pytest.raises(TypeError, match="grad of .* must be a function"):
        declare_relu(grad="relu_grad")


def test_check_gradients_reports_the_worst_element_and_asserts_on_request():
    wrong = declare_relu(grad=lambda op, g: g * 2.0 * tf.cast(op.inputs[0] > 0, g.dtype))
    x = np.array([[-1.0, 0.5], [2.0, -3.0]])
    result = tf.test.check_gradients(wrong, [x])
    assert result.max_error == pytest.approx(1.0)
    assert result.input_index == 0 and result.input_name == "x" and result.output_index == 0
    assert result.input_element in ((0, 1), (1, 0)) and result.input_element == result.output_element
    assert result.theoretical == pytest.approx(2.0) and result.numerical == pytest.approx(1.0)
    with pytest.raises(AssertionError, match=r"max abs error 1 at input 0 \('x'\) element \(\d, \d\).*above the "
                                             r"tolerance 0\.001"):
        tf.test.check_gradients(wrong, [x], tolerance=1e-3)
    with pytest.raises(ValueError, match="input 1 \\('input_1'\\) has dtype int64"):
        tf.test.check_gradients(lambda a, i: a * tf.cast(i, a.dtype), [x, np.array(2)], wrt=[1])
    with pytest.raises(ValueError, match="wrt index 3 is out of range for 1 inputs"):
        tf.test.check_gradients(wrong, [x], wrt=[3])


# ---- eager, tf.function, GradientTape ---------------------------------------------------------------
def test_eager_tf_function_and_gradient_tape():
    mod = declare_mod()
    with context.eager_mode():
        x, y = tf.constant([0.3, 1.7]), tf.constant([0.2, 2.9])
        np.testing.assert_allclose(mod(x, y).numpy(), np.mod([0.3, 1.7], [0.2, 2.9]).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            z = mod(x, y)
        gx, gy = tape.gradient(z, [x, y])
        np.testing.assert_array_equal(gy.numpy(), [-1.0, 0.0])

        @tf.function
        def f(a, b):
            return mod(a, b) * 2.0

        np.testing.assert_allclose(f(x, y).numpy(), 2 * np.mod([0.3, 1.7], [0.2, 2.9]).astype(np.float32), rtol=1e-6)
        with pytest.raises(tf.errors.InvalidArgumentError, match="does not match type float32 of argument 'x'"):
            mod(x, tf.constant([1.0, 2.0], tf.float64))


# ---- registry, re-declaration ----------------------------------------------------------------------
def test_redeclaring_a_type_is_a_key_error_unless_override():
    t = fresh("Twice")
    first = tf.custom_op(t, lambda x: x + 1, inputs=["x"], outputs="x", grad=lambda op, g: g)
    line = sys._getframe().f_lineno - 1
    with pytest.raises(KeyError, match="Op type '%s' is already registered \\(declared with tf.custom_op in module "
                                       "'%s' at %s:%d\\). Pass override=True" % (t, __name__, __file__, line)):
        tf.custom_op(t, lambda x: x + 2, inputs=["x"], outputs="x")
    with pytest.raises(KeyError, match="'MatMul' is already registered \\(a built-in op type\\)"):
        tf.custom_op("MatMul", lambda x: x, inputs=["x"], outputs="x")
    x = tf.constant([1.0])
    old = first(x)
    second = tf.custom_op(t, lambda x: x + 2, inputs=["x"], outputs="x", override=True)
    new = second(x)
    assert run([old, new]) == [2.0, 3.0]  # ops made before the override keep their kernel
    with pytest.raises(LookupError, match="No gradient defined"):  # the replaced gradient is gone
        tf.gradients(new, x)


@pytest.mark.parametrize("kwargs, cls, fragment", [
    (dict(op_type="lower"), ValueError, "'lower' is not a valid op type name"),
    (dict(op_type=None, kernel=lambda x: x), ValueError, "needs an op_type when the kernel has no usable name"),
    (dict(inputs="x"), TypeError, "inputs of {T} must be a list"),
    (dict(inputs=[3]), TypeError, "inputs\\[0\\] of {T} must be a name or a \\(name, dtype\\) pair"),
    (dict(inputs=["x", "x"]), ValueError, "The input name 'x' of {T} is used twice"),
    (dict(inputs=["name"]), ValueError, "'name' is not a valid input name for {T}"),
    (dict(inputs=["_x"]), ValueError, "'_x' is not a valid input name"),
    (dict(inputs=[("x", "y"), "y"]), ValueError, "'y' is not an earlier input \\(inputs before it: none\\)"),
    (dict(inputs=[("x", "floaty")]), ValueError, "'floaty' is not an earlier input"),
    (dict(inputs=[("x", 3.5)]), TypeError, "The dtype of input 'x' of {T} must be a tf.DType"),
    (dict(inputs=[("x", [])]), ValueError, "Input 'x' of {T} allows no dtype"),
    (dict(outputs="y"), ValueError, "Output 0 of {T}: 'y' is not an input name \\(inputs: x\\)"),
    (dict(outputs=[]), ValueError, "{T} declares no outputs"),
    (dict(outputs=object()), TypeError, "The dtype of output 0 of {T} must be a tf.DType"),
    (dict(attrs=[("k", int)]), TypeError, "attrs of {T} must be a dict"),
    (dict(attrs={"k": dict}), TypeError, "Attr 'k' of {T}: type dict is not one of"),
    (dict(attrs={"k": None}), TypeError, "Attr 'k' of {T}: give a type"),
    (dict(attrs={"x": int}), ValueError, "The attr name 'x' of {T} is used twice"),
    (dict(attrs={"k": [1, object()]}), TypeError, "Expected list for attr 'k' of {T}"),
    (dict(shape="y"), TypeError, "shape of {T} must be None, an input name \\(x\\) or a function"),
    (dict(kernels={"CPU": np.abs}), ValueError, "give kernel= or kernels=, not both"),
    (dict(kernel=None, kernels=[np.abs]), TypeError, "kernels of {T} must be a dict"),
    (dict(kernel=None, kernels={"TPU": np.abs}), ValueError, "unknown device 'TPU'"),
    (dict(kernel=None, kernels={"GPU": np.abs}), ValueError, "{T} has no CPU kernel"),
    (dict(kernel=3), TypeError, "The CPU kernel of {T} is not callable"),
])
def test_malformed_declarations_raise_naming_the_op_and_argument(kwargs, cls, fragment):
    args = dict(op_type=fresh("Bad"), kernel=np.abs, inputs=["x"], outputs="x")
    args.update(kwargs)
    op_type = args["op_type"]
    with pytest.raises(cls, match=fragment.format(T=op_type)):
        tf.custom_op(**args)
    assert op_type not in tf.list_ops()


# ---- meta graphs ------------------------------------------------------------------------------------
def test_meta_graph_round_trip_in_the_same_process(tmp_path):
    mod = declare_mod()
    x = tf.placeholder(tf.float32, [None], name="x")
    z = mod(x, [0.75, 0.75, 0.75], name="z")
    (g,) = tf.gradients(z, x)
    tf.add_to_collection("outputs", z)
    feed = np.array([0.3, 1.7, 2.9], np.float32)
    before = run([z, g], {x: feed})
    path = str(tmp_path / "m.meta")
    tf.train.export_meta_graph(path)
    tf.reset_default_graph()
    tf.train.import_meta_graph(path)
    graph = tf.get_default_graph()
    z2 = graph.get_tensor_by_name("z:0")
    assert z2.op.type == mod.op_type and tf.get_collection("outputs") == [z2]
    after = run([z2, graph.get_tensor_by_name(g.name)], {graph.get_tensor_by_name("x:0"): feed})
    np.testing.assert_array_equal(after[0], before[0])
    np.testing.assert_array_equal(after[1], before[1])


_MODULE_SOURCE = '''
import numpy as np
import tensorweave as tf

triple = tf.custom_op("{op_type}", lambda x, k: x * k, inputs=["x"], outputs="x", shape="x", attrs={{"k": 3.0}})
'''


def test_meta_graph_import_imports_the_declaring_module(tmp_path, monkeypatch):
    op_type = fresh("Triple")
    module = "custom_op_test_module_%s" % op_type.lower()
    (tmp_path / (module + ".py")).write_text(_MODULE_SOURCE.format(op_type=op_type))
    monkeypatch.syspath_prepend(str(tmp_path))
    lib = __import__(module)
    y = lib.triple(tf.constant([1.0, 2.0]), k=4.0, name="y")
    path = str(tmp_path / "m.meta")
    tf.train.export_meta_graph(path)
    # A fresh process: the module was never imported and the type is not registered.
    monkeypatch.delitem(sys.modules, module)
    monkeypatch.delitem(registry._OPS, op_type)
    monkeypatch.delitem(custom_op_module._DECLARATIONS, op_type)
    tf.reset_default_graph()
    # Importing a module named by a file needs the caller's opt-in.
    with pytest.raises(ValueError, match="Op type not registered '%s' in binary \\(needed by op 'y'\\): it is a custom "
                                         "op declared in module '%s'; importing a meta graph imports only modules "
                                         "the caller trusts. Import '%s' first, or pass trusted_modules=\\['%s'\\] "
                                         "to tf.train.import_meta_graph" % (op_type, module, module, module)):
        tf.train.import_meta_graph(path)
    assert module not in sys.modules
    tf.reset_default_graph()
    tf.train.import_meta_graph(path, trusted_modules=[module])
    assert module in sys.modules and op_type in tf.list_ops()
    np.testing.assert_array_equal(run(tf.get_default_graph().get_tensor_by_name(y.name)), [4.0, 8.0])
    # The module is gone too: the error names the op type, the node and the module.
    os.remove(str(tmp_path / (module + ".py")))
    monkeypatch.delitem(sys.modules, module)
    monkeypatch.delitem(registry._OPS, op_type)
    tf.reset_default_graph()
    with pytest.raises(ValueError, match="Op type not registered '%s' in binary \\(needed by op 'y'\\): it is a custom "
                                         "op declared in module '%s', which could not be imported "
                                         "\\(ModuleNotFoundError" % (op_type, module)):
        tf.train.import_meta_graph(path, trusted_modules=[module])


def test_meta_graph_naming_a_module_for_an_unknown_op_type_imports_nothing(tmp_path, monkeypatch):
    module = "custom_op_test_evil_%s" % fresh("Evil").lower()
    marker = tmp_path / "imported.marker"
    (tmp_path / (module + ".py")).write_text("open(%r, 'w').close()\n" % str(marker))
    monkeypatch.syspath_prepend(str(tmp_path))
    meta = tf.train.export_meta_graph()
    del meta.graph_def.node[:]
    meta.graph_def.node.add(name="evil", op="EvilOp").attr["_tensorweave_custom_op"].s = module.encode("utf-8")
    with pytest.raises(ValueError, match="Op type not registered 'EvilOp' in binary \\(needed by op 'evil'\\): it is "
                                         "a custom op declared in module '%s'; importing a meta graph imports only "
                                         "modules the caller trusts" % module):
        tf.train.import_meta_graph(meta)
    assert not marker.exists() and module not in sys.modules
    # Trusted, the module is imported but does not declare the type.
    with pytest.raises(ValueError, match="but importing that module did not declare it"):
        tf.train.import_meta_graph(meta, trusted_modules=[module])
    assert marker.exists()


def test_meta_graph_import_of_a_script_declared_op_says_so(monkeypatch):
    with pytest.raises(ValueError, match="declared in module '__main__', a script; declare it in an importable module"):
        custom_op_module.import_declaring_module("Missing", "__main__", "node")
    monkeypatch.setitem(sys.modules, "custom_op_test_empty", type(sys)("custom_op_test_empty"))
    with pytest.raises(ValueError, match="but importing that module did not declare it"):
        custom_op_module.import_declaring_module("Missing", "custom_op_test_empty", "node", trusted=True)
