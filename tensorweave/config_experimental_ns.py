"""`tf.config.experimental`: device listing under its earlier names, and device details."""

from . import backends
from .config_ns import PhysicalDevice, list_logical_devices, list_physical_devices

__all__ = ["get_device_details", "list_logical_devices", "list_physical_devices"]


def get_device_details(device):
    """Returns what is known of a physical device: for a CUDA GPU its `device_name` and
    `compute_capability` (major, minor); for the CPU an empty dict.

    Args:
      device: A `tf.config.PhysicalDevice` from `list_physical_devices`.

    Returns:
      A dict.

    Raises:
      ValueError: If `device` is not a PhysicalDevice this process has.
    """
    if not isinstance(device, PhysicalDevice) or device not in list_physical_devices():
        raise ValueError("Unrecognized device: %s" % (device,))
    if device.device_type != "GPU":
        return {}
    backend = backends.get_backend("GPU")
    index = int(device.name.rsplit(":", 1)[1])
    details = {}
    if hasattr(backend, "compute_capability"):
        details["compute_capability"] = backend.compute_capability(index)
    desc = backend.description(index)
    for part in desc.split(", "):
        if part.startswith("name: "):
            details["device_name"] = part[len("name: "):]
    return details
