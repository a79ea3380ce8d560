"""Array backends: for each device type, the array module (`xp`) its kernels run with and the copies
between host memory and its devices.

The CPU backend is NumPy. The GPU backend is CuPy (the `gpu` extra), imported only when a GPU is
first asked for. A kernel written against `xp` runs on any backend; which op types an accelerator
runs, and which of their inputs stay in host memory, is the table in `backends/kernels.py`. Tests
register backends of their own (a fake accelerator) with `register_backend`.
"""

import numpy as np

__all__ = ["Backend", "NumpyBackend", "ArrayBackend", "register_backend", "unregister_backend", "get_backend",
           "registered_device_types"]


class Backend:
    """The array module of one device type, and the copies to and from its devices.

    Subclasses set `device_type` and implement `device_count`, `xp`, `to_device` and `to_host`.
    """

    device_type = None
    # True when the devices share host memory: their values are NumPy arrays and need no copies.
    is_host = False

    def device_count(self):
        """How many devices of this type this process can use (0 when none, or the backend's
        library is missing)."""
        raise NotImplementedError

    def xp(self, index):
        """The array module that kernels placed on device `index` receive."""
        raise NotImplementedError

    def to_device(self, value, index):
        """`value` (a NumPy array, or an array of another device) as an array on device `index`."""
        raise NotImplementedError

    def to_host(self, value):
        """`value` (an array of this backend) as a NumPy array."""
        raise NotImplementedError

    def memory_limit(self, index):
        """Bytes of memory of device `index`, as `DeviceAttributes.memory_limit_bytes` reports it."""
        return 0

    def description(self, index):
        """A human-readable description of the physical device (TF's `physical_device_desc`)."""
        return ""

    def activator(self, index):
        """A callable that makes device `index` current before its kernels run, or None when the
        backend needs none (a single device, or an array module that carries its device)."""
        return None

    def missing_reason(self):
        """Why there are no devices, when that is worth telling the user (e.g. a library that is
        not installed, with the extra to install), or None."""
        return None

    def kernel_for(self, op):
        """The `DeviceKernel` running `op` on this backend's devices, or None when there is none
        (for its type or for one of its dtypes)."""
        raise NotImplementedError


class NumpyBackend(Backend):
    """Host memory and NumPy: every op runs with its registered kernel."""

    device_type = "CPU"
    is_host = True

    def __init__(self):
        from ..framework.registry import HOST_KERNEL
        self._kernel = HOST_KERNEL

    def device_count(self):
        return 1

    def xp(self, index):
        return np

    def to_device(self, value, index):
        return value

    def to_host(self, value):
        return value

    def memory_limit(self, index):
        return 268435456  # what TF's CPU device reports

    def kernel_for(self, op):
        return self._kernel


class ArrayBackend(Backend):
    """An accelerator whose array module follows NumPy's API (CuPy, or a test's fake): it runs the op
    types whose records have an accelerator kernel (`OpDef.gpu`), on numeric and boolean dtypes."""

    def kernel_for(self, op):
        from .kernels import accelerator_kernel
        return accelerator_kernel(op)


_BACKENDS = {}


def register_backend(backend, replace=False):
    """Makes `backend` the backend of its `device_type`.

    Args:
      backend: A `Backend` instance.
      replace: Allow replacing the backend already registered for that type.

    Returns:
      The backend it replaced, or None.

    Raises:
      TypeError: If `backend` is not a `Backend` with a device type.
      KeyError: If the type has a backend and `replace` is false.
    """
    if not isinstance(backend, Backend) or not isinstance(backend.device_type, str) or not backend.device_type:
        raise TypeError("register_backend needs a Backend with a device_type, got %r" % (backend,))
    t = backend.device_type
    if t in _BACKENDS and not replace:
        raise KeyError("A backend for device type %r is already registered." % t)
    previous = _BACKENDS.get(t)
    _BACKENDS[t] = backend
    return previous


def unregister_backend(device_type):
    """Removes the backend of `device_type` and returns it (None if there was none).

    Raises:
      ValueError: For "CPU", which every session needs.
    """
    if device_type == "CPU":
        raise ValueError("The CPU backend cannot be unregistered.")
    return _BACKENDS.pop(device_type, None)


def get_backend(device_type):
    """The backend registered for `device_type`, or None."""
    return _BACKENDS.get(device_type)


def registered_device_types():
    """The registered device types, CPU first."""
    return sorted(_BACKENDS, key=lambda t: (t != "CPU", t))


def _register_defaults():
    from .cupy_backend import CupyBackend
    register_backend(NumpyBackend())
    register_backend(CupyBackend())


_register_defaults()
