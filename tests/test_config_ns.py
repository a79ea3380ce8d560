"""tf.config: device listing (as TF lists them) and run_functions_eagerly."""

import pytest

import tensorweave as tf
from tensorweave import backends
from tensorweave.eager import context


def test_lists_the_cpu_as_tf_names_it():
    cpu = tf.config.list_physical_devices("CPU")
    assert cpu == [tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")]
    assert tf.config.list_logical_devices("CPU") == [tf.config.LogicalDevice("/device:CPU:0", "CPU")]
    assert tf.config.list_physical_devices("cpu") == []  # case-sensitive, as in TF
    assert tf.config.list_physical_devices()[0] == cpu[0]
    assert tf.config.experimental.list_physical_devices is tf.config.list_physical_devices
    assert tf.config.experimental.list_logical_devices("CPU") == tf.config.list_logical_devices("CPU")
    assert tf.config.PhysicalDevice._fields == ("name", "device_type")
    n_gpu = backends.get_backend("GPU").device_count() if backends.get_backend("GPU") else 0
    assert len(tf.config.list_physical_devices("GPU")) == n_gpu


def test_device_details():
    assert tf.config.experimental.get_device_details(tf.config.list_physical_devices("CPU")[0]) == {}
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.experimental.get_device_details("/physical_device:CPU:0")
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.experimental.get_device_details(tf.config.PhysicalDevice("/physical_device:GPU:7", "GPU"))


def test_run_functions_eagerly_runs_the_python_function_op_by_op():
    calls = []

    @tf.function
    def f(x):
        calls.append(context.executing_eagerly())
        return x * 2

    with context.eager_mode():
        assert tf.config.functions_run_eagerly() is False
        assert f(tf.constant(2.0)).numpy() == 4.0
        assert calls == [False]  # traced
        try:
            tf.config.run_functions_eagerly(True)
            assert tf.config.functions_run_eagerly() and tf.config.experimental_functions_run_eagerly()
            assert f(tf.constant(3.0)).numpy() == 6.0
            assert f(tf.constant(4.0)).numpy() == 8.0
            assert calls == [False, True, True]
        finally:
            tf.config.experimental_run_functions_eagerly(False)
        assert f(tf.constant(5.0)).numpy() == 10.0
        assert calls == [False, True, True]  # the trace is reused
    assert tf.config.functions_run_eagerly() is False
