"""`tensorflow.python.client.device_lib` (TF 1.x's module path): the local devices a session can use."""

from ...runtime.placement import DeviceSet, _incarnation

__all__ = ["list_local_devices"]


class DeviceAttributes:
    """One local device, with the fields of TF's `DeviceAttributes` proto that describe it.

    Attributes:
      name: The device's name, "/device:CPU:0" or "/device:GPU:0".
      device_type: "CPU" or "GPU".
      memory_limit: The device's memory in bytes (TF's CPU device reports 268435456).
      incarnation: A nonzero id of the device.
      physical_device_desc: The physical device, "device: 0, name: ..., pci bus id: ..., compute
        capability: ..." for a GPU, "" for the CPU.
    """

    __slots__ = ("name", "device_type", "memory_limit", "incarnation", "physical_device_desc")

    def __init__(self, name, device_type, memory_limit, incarnation, physical_device_desc):
        self.name = name
        self.device_type = device_type
        self.memory_limit = memory_limit
        self.incarnation = incarnation
        self.physical_device_desc = physical_device_desc

    def __repr__(self):
        # The text format TF's protos print in.
        lines = ['name: "%s"' % self.name, 'device_type: "%s"' % self.device_type,
                 "memory_limit: %d" % self.memory_limit, "incarnation: %d" % self.incarnation]
        if self.physical_device_desc:
            lines.append('physical_device_desc: "%s"' % self.physical_device_desc)
        return "\n".join(lines) + "\n"


def list_local_devices(session_config=None):
    """List the available devices available in the local process.

    Args:
      session_config: a session config proto (a `tf.ConfigProto`): its `device_count` and
        `gpu_options.visible_device_list` limit the devices, as for a Session.

    Returns:
      A list of `DeviceAttributes`, the CPU first.

    Raises:
      tf.errors.InvalidArgumentError: If `visible_device_list` names a GPU that does not exist.
    """
    out = []
    for i, d in enumerate(DeviceSet(session_config).all_devices()):
        out.append(DeviceAttributes("/device:%s:%d" % (d.device_type, d.index), d.device_type,
                                    int(d.backend.memory_limit(d.physical)), _incarnation(d, i),
                                    d.backend.description(d.physical)))
    return out
