"""`tf.config`: the devices this process can use, and whether `tf.function`s run eagerly."""

import collections

from . import backends
from .eager.function import functions_run_eagerly, run_functions_eagerly

__all__ = ["LogicalDevice", "PhysicalDevice", "experimental_functions_run_eagerly",
           "experimental_run_functions_eagerly", "functions_run_eagerly", "list_logical_devices",
           "list_physical_devices", "run_functions_eagerly"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = """A device of the machine (`tf.config.PhysicalDevice`): `name` such as
`/physical_device:GPU:0` and `device_type` ("CPU", "GPU")."""
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDevice.__doc__ = """A device ops are placed on (`tf.config.LogicalDevice`): `name` such as `/device:CPU:0`
and `device_type`."""


def _device_counts(device_type):
    for t in backends.registered_device_types():
        if device_type is not None and t != device_type:
            continue
        backend = backends.get_backend(t)
        yield t, 1 if t == "CPU" else backend.device_count()


def list_physical_devices(device_type=None):
    """Lists the machine's devices that tensorweave's backends find (the CPU, and GPUs with CuPy).

    Args:
      device_type: "CPU" or "GPU" (case-sensitive, as in TF) to list only those; None for all.

    Returns:
      A list of `tf.config.PhysicalDevice`.
    """
    return [PhysicalDevice("/physical_device:%s:%d" % (t, i), t) for t, n in _device_counts(device_type)
            for i in range(n)]


def list_logical_devices(device_type=None):
    """Lists the devices ops can be placed on (one per physical device).

    Args:
      device_type: "CPU" or "GPU" to list only those; None for all.

    Returns:
      A list of `tf.config.LogicalDevice`.
    """
    return [LogicalDevice("/device:%s:%d" % (t, i), t) for t, n in _device_counts(device_type) for i in range(n)]


def experimental_run_functions_eagerly(run_eagerly):
    """The earlier name of `run_functions_eagerly`."""
    run_functions_eagerly(run_eagerly)


def experimental_functions_run_eagerly():
    """The earlier name of `functions_run_eagerly`."""
    return functions_run_eagerly()


from . import config_experimental_ns as experimental  # noqa: E402, F401 (the tf.config.experimental namespace)
