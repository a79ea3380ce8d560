"""The op registry: records with their device kernels and traits, rewrites by stage, internal ops."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.framework import ops, registry


@pytest.fixture
def scratch_types():
    """Op types and rewrites a test declares, removed afterwards (the registry is process-wide)."""
    before = set(registry._OPS)
    saved = {stage: {t: list(r) for t, r in rules.items()} for stage, rules in registry._REWRITES.items()}
    yield
    for t in set(registry._OPS) - before:
        del registry._OPS[t]
        registry._GRADIENTS.pop(t, None)
    for stage, rules in saved.items():
        registry._REWRITES[stage].clear()
        registry._REWRITES[stage].update(rules)


def _same(op):
    return [(op._inputs[0]._dtype, op._inputs[0]._shape.as_tuple())]


def test_gpu_kernel_forms(scratch_types):
    own = registry.register_op("RegistryTestOwn", infer=_same, kernel=lambda xp, x: x, gpu=lambda xp, x: x,
                               host_inputs=(-1,))
    same = registry.register_op("RegistryTestSame", infer=_same, kernel=lambda xp, x: x, gpu=True)
    host = registry.register_op("RegistryTestHost", infer=_same, kernel=lambda xp, x: x)
    assert own.gpu.kernel is not None and own.gpu.input_place(1, 2) == "host"
    assert same.gpu.kernel is None and same.gpu.input_place(0, 1) == "device"
    assert host.gpu is None


def test_host_inputs_without_a_device_kernel_are_rejected(scratch_types):
    with pytest.raises(ValueError, match="RegistryTestBad.*need an accelerator kernel"):
        registry.register_op("RegistryTestBad", infer=_same, kernel=lambda xp, x: x, on_host=True)


def test_builtin_records_carry_the_runtime_traits():
    assert registry.get_op_def("Exp").transcendental and registry.get_op_def("Add").elementwise
    assert not registry.get_op_def("MatMul").elementwise and registry.get_op_def("MatMul").cost is not None
    assert registry.get_op_def("StopGradient").alias_of == 0
    assert registry.get_op_def("Const").value_attr == "value"
    assert registry.get_op_def("VariableV2").variable_read
    assert registry.get_op_def("Placeholder").placeholder
    assert registry.get_op_def("While").records_for_gradient
    x = tf.placeholder(tf.float32, [2, 3])
    assert registry.get_op_def("MatMul").cost(tf.matmul(x, tf.ones([3, 4])).op) == 2 * 4 * 3
    assert registry.get_op_def("MatMul").cost(tf.matmul(tf.placeholder(tf.float32), x).op) == 0
    shape = tf.shape(tf.placeholder(tf.float32, [None, 3]))
    assert registry.get_op_def("Shape").static_value(shape.op, (5, 3)).tolist() == [5, 3]


def test_rewrite_registration_and_errors(scratch_types):
    @registry.register_rewrite("late", ["RegistryTestA", "RegistryTestB"])
    def rule(step, plan):
        return False

    assert registry.rewrites("late")["RegistryTestA"] == [("rule", rule)]
    assert registry.rewrites("late")["RegistryTestB"] == [("rule", rule)]
    with pytest.raises(KeyError, match="'rule' is already registered for RegistryTestA in stage 'late'"):
        registry.register_rewrite("late", "RegistryTestA")(rule)
    with pytest.raises(ValueError, match="Unknown rewrite stage 'later'; expected one of simplify, fuse, share, late"):
        registry.register_rewrite("later", "RegistryTestA")


def test_internal_ops_are_named_with_an_underscore_and_never_built_in_graphs(scratch_types):
    with pytest.raises(ValueError, match="Internal op types start with '_', got 'RegistryTestFused'"):
        registry.register_internal_op("RegistryTestFused", lambda xp, x: x)
    d = registry.register_internal_op("_RegistryTestFused", lambda xp, x: x + 1)
    assert d.kernel(np, np.array([1.0])).tolist() == [2.0] and registry._GRADIENTS["_RegistryTestFused"] is None
    with pytest.raises(TypeError, match="_RegistryTestFused is an internal op of compiled plans"):
        ops.apply_op("_RegistryTestFused", [tf.constant([1.0])])


def test_a_registered_simplify_rule_runs_in_compiled_plans(scratch_types):
    registry.register_op("RegistryTestTwice", infer=_same, kernel=lambda xp, x: x * 2)

    @registry.register_rewrite("simplify", "RegistryTestTwice")
    def never_twice(step, plan):  # a wrong rewrite on purpose: the plan must use it
        return step.args[0]

    x = tf.placeholder(tf.float32, [2])
    y = ops.apply_op("RegistryTestTwice", [x])
    with tf.Session() as sess:
        assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [1.0, 2.0]
    opts = tf.ConfigProto(graph_options=tf.GraphOptions(optimizer_options=tf.OptimizerOptions(
        opt_level=tf.OptimizerOptions.L0)))
    with tf.Session(config=opts) as sess:  # rewrites off: the kernel runs
        assert sess.run(y, {x: [1.0, 2.0]}).tolist() == [2.0, 4.0]
