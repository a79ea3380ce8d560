"""`KernelContext`: the `ctx` of stateful kernels and the services through which the control-flow
kernels compile and run their function graphs (so ops/ imports no runtime module)."""

import pytest

import tensorweave as tf
from tensorweave.client.session import SessionState
from tensorweave.eager.context import EagerContext, KernelState
from tensorweave.runtime.kernel_context import KernelContext
from tests.runtime import INTERPRETER


def test_every_ctx_is_a_kernel_context():
    assert issubclass(SessionState, KernelContext)
    assert issubclass(KernelState, KernelContext) and issubclass(EagerContext, KernelState)
    with tf.Session() as sess:
        assert isinstance(sess._state, KernelContext) and sess._state.session is sess


def test_cond_compiles_the_taken_branch_once():
    p = tf.placeholder(tf.bool, [])
    x = tf.placeholder(tf.float32, [])
    y = tf.cond(p, lambda: x * 2.0, lambda: x - 1.0)
    with tf.Session() as sess:
        assert sess.run(y, {p: True, x: 3.0}) == 6.0
        compiled = [v for k, v in sess._state.op_state.items() if isinstance(k, tuple) and k[0] == "function"]
        assert len(compiled) == 1
        assert sess.run(y, {p: True, x: 4.0}) == 8.0
        assert [v for k, v in sess._state.op_state.items() if isinstance(k, tuple)] == compiled
        assert sess.run(y, {p: False, x: 4.0}) == 3.0


@pytest.mark.parametrize("config", [None, INTERPRETER], ids=["compiled", "interpreter"])
def test_errors_inside_a_function_name_the_inner_op(config):
    x = tf.placeholder(tf.float32, [None])
    y = tf.cond(tf.constant(True), lambda: tf.reshape(x, [2, 2], name="inner_reshape"), lambda: tf.zeros([2, 2]))
    with tf.Session(config=config) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="inner_reshape") as e:
            sess.run(y, {x: [1.0, 2.0, 3.0]})
    assert e.value.op.name.endswith("inner_reshape")


@pytest.mark.parametrize("config", [None, INTERPRETER], ids=["compiled", "interpreter"])
def test_a_non_scalar_loop_condition_names_the_while_op(config):
    x = tf.placeholder(tf.bool, [None])
    out = tf.while_loop(lambda i: tf.logical_and(x, i < 3), lambda i: i + 1, [tf.constant(0)], name="loop")
    with tf.Session(config=config) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"must be a scalar, got shape \[2\]") as e:
            sess.run(out, {x: [True, True]})
        loops = [v for k, v in sess._state.op_state.items() if isinstance(k, tuple) and k[0] == "loop"]
    assert e.value.op.type == "While" and e.value.op.name == "loop"
    assert "[[node 'loop' (op: While" in e.value.message
    assert bool(loops and loops[0] is not None) == (config is None)  # the interpreter's plans are not merged


def test_a_bare_context_runs_a_function_graph():
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.float32, [])
        b = a * 3.0 + 1.0

    class Fn:
        inputs, outputs = [a], [b]

    ctx = KernelContext()
    assert ctx.call_function(Fn, [2.0]) == (7.0,)
    assert ctx.compile_function(Fn) is ctx.compile_function(Fn)
    with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value w"):
        ctx.read_variable("w")
