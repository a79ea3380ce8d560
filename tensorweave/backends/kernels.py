"""Which ops an accelerator runs, and how: read from the op records (`OpDef.gpu`, a `DeviceKernel`).

An op type whose record has no accelerator kernel (stateful ops: variables, random numbers, py_func,
queues, summaries; string ops) runs on the CPU only; so does an op with a string, variant or
resource input or output that its kernel would read on the device.
"""

from ..framework import dtypes
from ..framework.registry import HOST_KERNEL, DeviceKernel

__all__ = ["DeviceKernel", "HOST_KERNEL", "accelerator_kernel", "accelerator_op_types", "DEVICE_DTYPES"]

DEVICE_DTYPES = frozenset({
    dtypes.float16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128, dtypes.int8,
    dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.bool_})


def accelerator_kernel(op):
    """The `DeviceKernel` of `op` on an accelerator, or None when its type or one of its dtypes has
    none (strings, variants and resources live on the host)."""
    k = op._op_def.gpu
    if k is None:
        return None
    n = len(op._inputs)
    for i, t in enumerate(op._inputs):
        if t._dtype not in DEVICE_DTYPES and k.input_place(i, n) == "device":
            return None
    if not k.on_host and any(t._dtype not in DEVICE_DTYPES for t in op._outputs):
        return None
    return k


def accelerator_op_types():
    """The sorted registered op types that have an accelerator kernel."""
    from ..framework import registry
    return sorted(t for t in registry.list_ops() if registry.get_op_def(t).gpu is not None)
