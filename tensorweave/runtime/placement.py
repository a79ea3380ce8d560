"""Placement: the device each op of a plan runs on, and the copies between devices.

`place` assigns every op of a pruned plan a device of the session, as TF's single-process placer:
the op's requested device (`tf.device`; job/replica/task must name the local task,
"/job:localhost/replica:0/task:0", or be left out), the CPU when it requests none, and one device
for all ops of a colocation group (`tf.colocate_with`, the `_class` attribute "loc:@name"). A device
that does not exist, or that has no kernel for an op of the group, is an InvalidArgumentError unless
`allow_soft_placement` is set: then the group goes to the first device of the requested type that
can run it, or the CPU.

When every op lands on a host device (NumPy), `place` returns None and the plan compiles exactly as
it would without placement. Otherwise the returned `Placement` rewrites the compiled plan's steps
(`Placement.rewrite`): kernels placed on an accelerator receive its array module instead of NumPy,
and a copy step is inserted wherever a value crosses devices (feeds and constants come from the
host; fetched values go back to it), once per value and destination. All of this is decided at
compile time: the generated code has no per-op device checks.
"""

import re
import sys
import zlib

from .. import backends
from ..framework import errors
from ..framework.device import DeviceSpec
from .plan import Step

LOCAL_JOB = "/job:localhost/replica:0/task:0"

__all__ = ["LocalDevice", "DeviceAttributes", "DeviceSet", "Placement", "place", "LOCAL_JOB"]


class LocalDevice:
    """One device of the local task: `GPU:1` is `LocalDevice("GPU", 1, backend, physical)`."""

    __slots__ = ("device_type", "index", "backend", "physical", "name", "tag")

    def __init__(self, device_type, index, backend, physical=None):
        self.device_type = device_type
        self.index = index
        self.backend = backend
        self.physical = index if physical is None else physical
        self.name = "%s/device:%s:%d" % (LOCAL_JOB, device_type, index)
        # Part of the generated code's local names for values copied to this device.
        self.tag = re.sub(r"\W", "_", "%s%d" % (device_type, index))

    @property
    def is_host(self):
        return self.backend.is_host

    def xp(self):
        """The array module of this device's kernels."""
        return self.backend.xp(self.physical)

    def __repr__(self):
        return "<LocalDevice %s>" % self.name


class DeviceAttributes:
    """What `Session.list_devices()` returns for one device, as TF's `_DeviceAttributes`."""

    __slots__ = ("name", "device_type", "memory_limit_bytes", "incarnation", "physical_device_desc")

    def __init__(self, name, device_type, memory_limit_bytes, incarnation, physical_device_desc=""):
        self.name = name
        self.device_type = device_type
        self.memory_limit_bytes = memory_limit_bytes
        self.incarnation = incarnation
        self.physical_device_desc = physical_device_desc

    def __repr__(self):
        return "_DeviceAttributes(%s, %s, %d, %d)" % (self.name, self.device_type, self.memory_limit_bytes,
                                                     self.incarnation)


class DeviceSet:
    """The devices one session may use: the registered backends' devices, limited by the config's
    `device_count` and (for GPUs) `gpu_options.visible_device_list`. Backends are asked only when a
    device of their type is first needed, so a CPU-only program never imports CuPy."""

    def __init__(self, config):
        self._config = config
        self._by_type = {}

    def devices_of(self, device_type):
        """The devices of `device_type`, by index (empty when there are none).

        Raises:
          tf.errors.InvalidArgumentError: If `visible_device_list` names a GPU that does not exist.
        """
        devs = self._by_type.get(device_type)
        if devs is None:
            devs = self._by_type[device_type] = self._enumerate(device_type)
        return devs

    def _enumerate(self, device_type):
        backend = backends.get_backend(device_type)
        if backend is None:
            return []
        count = backend.device_count()
        physical = list(range(count))
        visible = getattr(getattr(self._config, "gpu_options", None), "visible_device_list", "")
        if device_type == "GPU" and visible:
            physical = []
            for s in visible.split(","):
                i = int(s)
                if not 0 <= i < count:
                    raise errors.InvalidArgumentError(
                        None, None, "'visible_device_list' listed an invalid GPU id '%d' but visible device count "
                        "is %d" % (i, count))
                physical.append(i)
        limit = (getattr(self._config, "device_count", None) or {}).get(device_type)
        if device_type == "CPU":
            physical = [0] * max(1, limit or 1)  # CPU devices all share the host
        elif limit is not None:
            physical = physical[:max(0, limit)]
        return [LocalDevice(device_type, i, backend, p) for i, p in enumerate(physical)]

    @property
    def cpu(self):
        return self.devices_of("CPU")[0]

    def all_devices(self):
        """Every device of every registered type, CPU first."""
        return [d for t in backends.registered_device_types() for d in self.devices_of(t)]

    def list_devices(self):
        """`DeviceAttributes` of every device, as `Session.list_devices()`."""
        out = []
        for i, d in enumerate(self.all_devices()):
            out.append(DeviceAttributes(d.name, d.device_type, d.backend.memory_limit(d.physical),
                                        _incarnation(d, i), d.backend.description(d.physical)))
        return out


def _incarnation(device, i):
    # TF's incarnation is a random id per device instance; a stable one per name serves the same uses.
    return zlib.crc32(device.name.encode("utf-8")) or i + 1


# ---- placing ------------------------------------------------------------------------------------
_spec_cache = {}


def _spec(device_string):
    s = _spec_cache.get(device_string)
    if s is None:
        s = _spec_cache[device_string] = DeviceSpec.from_string(device_string)
    return s


def _check_device_string(op):
    """A requested device that does not parse (a device function may return any string) fails the
    run as TF's session does."""
    try:
        _spec(op._device)
    except ValueError:
        raise errors.InvalidArgumentError(None, op, "Malformed device specification '%s' in node %s"
                                          % (op._device, op._name)) from None


def _is_local(spec):
    return spec.job in (None, "localhost") and spec.replica in (None, 0) and spec.task in (None, 0)


def _group_keys(op):
    cls = op._attrs.get("_class")
    if cls:
        keys = [k for k in cls if k.startswith(b"loc:@")]
        if keys:
            return keys
    return None


def place(order, devices, config):
    """Assigns a device to every op of `order`.

    Args:
      order: The plan's ops (`plan.prune_and_order`).
      devices: The session's `DeviceSet`.
      config: The session's `ConfigProto` (`allow_soft_placement`, `log_device_placement`).

    Returns:
      A `Placement`, or None when every op runs on a host device (NumPy).

    Raises:
      tf.errors.InvalidArgumentError: If an op asks for a device that does not exist (or of another
        task), or that has no kernel for an op of its colocation group, without soft placement; or
        if the ops of one colocation group ask for incompatible devices. When the missing device's
        backend is not installed, the error is also an ImportError naming the pip extra.
    """
    soft = bool(getattr(config, "allow_soft_placement", False))
    cpu = devices.cpu
    assigned = {}
    groups = _colocation_groups(order)
    resolved = {}  # group root key -> device
    for op in order:
        if op._device:
            _check_device_string(op)
        root = None
        if groups.parent:
            keys = _group_keys(op)
            root = groups.find(keys[0] if keys else b"loc:@" + op._name.encode())
        if root is None:
            if not op._device:
                assigned[op] = cpu
            else:
                assigned[op] = _resolve([op], op, devices, soft)
            continue
        dev = resolved.get(root)
        if dev is None:
            members = groups.members(root, op._graph)
            dev = resolved[root] = _resolve(members, _group_request(members, soft), devices, soft)
        assigned[op] = dev
    if getattr(config, "log_device_placement", False):
        for op in order:
            print("%s: (%s): %s" % (op._name, op._type, assigned[op].name), file=sys.stderr)
    if all(d.is_host for d in assigned.values()):
        return None
    return Placement(assigned)


class _Groups:
    """Union-find over colocation keys (b"loc:@name"), with the plan's ops of each group."""

    def __init__(self):
        self.parent = {}
        self.ops = {}

    def find(self, k):
        p = self.parent.get(k)
        if p is None:
            return None
        while p != k:
            self.parent[k] = self.parent[p]
            k, p = p, self.parent[p]
        return k

    def union(self, a, b):
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra

    def members(self, root, graph):
        """The plan's ops of the group, then the ops its keys name that the plan does not hold."""
        out = list(self.ops.get(root, ()))
        seen = set(out)
        for k in self.parent:
            if self.find(k) == root:
                named = graph._ops_by_name.get(k[5:].decode("utf-8", "replace"))
                if named is not None and named not in seen:
                    seen.add(named)
                    out.append(named)
        return out


def _colocation_groups(order):
    g = _Groups()
    for op in order:
        keys = _group_keys(op)
        if keys:
            for k in keys:
                g.parent.setdefault(k, k)
            for k in keys[1:]:
                g.union(keys[0], k)
    if g.parent:
        for op in order:
            keys = _group_keys(op)
            root = g.find(keys[0] if keys else b"loc:@" + op._name.encode())
            if root is not None:
                g.ops.setdefault(root, []).append(op)
    return g


def _group_request(members, soft):
    """The member whose requested device the group follows (None when none asks for one).

    Raises:
      tf.errors.InvalidArgumentError: If two members ask for incompatible devices (without soft
        placement; with it, the first request wins).
    """
    first = None
    for op in members:
        if not op._device:
            continue
        if first is None:
            first = op
            continue
        a, b = _spec(first._device), _spec(op._device)
        what = None
        if a.device_type is not None and b.device_type is not None and a.device_type != b.device_type:
            what = "types"
        elif a.device_index is not None and b.device_index is not None and a.device_index != b.device_index:
            what = "ids"
        if what is not None and not soft:
            raise errors.InvalidArgumentError(
                None, op, "Cannot colocate nodes %s and %s: Cannot merge devices with incompatible %s: '%s' and '%s'"
                % (first._name, op._name, what, first._device, op._device))
    return first


def _resolve(members, requester, devices, soft):
    """The device of a colocation group (or of one op): `requester`'s device if it exists and runs
    every member, else (soft placement) the closest device that does."""
    cpu = devices.cpu
    if requester is None:
        return cpu
    spec = _spec(requester._device)
    if not _is_local(spec):
        raise _unknown_device(requester, devices)
    if spec.device_type is None:
        return cpu
    devs = devices.devices_of(spec.device_type)
    index = 0 if spec.device_index is None else spec.device_index
    if index < len(devs):
        dev = devs[index]
    elif soft:
        dev = devs[0] if devs else cpu
    else:
        raise _unknown_device(requester, devices)
    if dev.backend.kernel_for(requester) is None or any(dev.backend.kernel_for(m) is None for m in members):
        if not soft:
            raise _no_kernel(requester, members, dev, devices)
        dev = cpu
    return dev


class DeviceUnavailableError(errors.InvalidArgumentError, ImportError):
    """A placement on a device type whose backend library is not installed: TF's
    InvalidArgumentError, and an ImportError naming the pip extra."""


def _unknown_device(op, devices):
    names = ", ".join(d.name for d in devices.all_devices())
    msg = ("Cannot assign a device for operation %s: node %s (defined at %s) was explicitly assigned to %s but "
           "available devices are [ %s ]. Make sure the device specification refers to a valid device."
           % (op._name, op._name, op.creation_site, op._device, names))
    spec = _spec(op._device)
    backend = backends.get_backend(spec.device_type) if _is_local(spec) and spec.device_type else None
    reason = backend.missing_reason() if backend is not None else None
    if reason is not None:
        msg += " (No %s device: %s)" % (spec.device_type, reason)
        if "pip install" in reason:
            return DeviceUnavailableError(None, op, msg)
    return errors.InvalidArgumentError(None, op, msg)


def _no_kernel(op, members, dev, devices):
    kinds = [d.device_type for d in devices.all_devices() if d.index == 0]
    msg = ("Cannot assign a device for operation %s: Could not satisfy explicit device specification '%s' because "
           "no supported kernel for %s devices is available." % (op._name, op._device, dev.device_type))
    lines = ["", "Colocation Debug Info:", "Colocation group had the following types and supported devices: "]
    seen = set()
    for m in members:
        if m._type not in seen:
            seen.add(m._type)
            ok = [t for t in kinds if devices.devices_of(t)[0].backend.kernel_for(m) is not None]
            lines.append("%s: %s" % (m._type, " ".join(ok)))
    lines += ["", "Colocation members, user-requested devices, and framework assigned devices, if any:"]
    lines += ["  %s (%s) %s" % (m._name, m._type, m._device) for m in members]
    return errors.InvalidArgumentError(None, op, msg + "\n".join(lines))


# ---- the compiled plan's steps --------------------------------------------------------------------
class _Step:
    """A step the placement adds to a plan (a copy between devices, or making a device current):
    enough of an Operation for code generation and for naming it in an error."""

    __slots__ = ("_name", "_type", "_attrs", "_op_def", "_outputs", "_site_op")

    class _Def:
        stateful = False
        ref_inputs = frozenset()
        kernel = None
        specialize = None
        inline = None
        variable_read = False

    def __init__(self, name, op_type, site_op):
        self._name = name
        self._type = op_type
        self._attrs = {}
        self._op_def = _Step._Def
        self._outputs = []
        self._site_op = site_op

    name = property(lambda self: self._name)
    type = property(lambda self: self._type)
    inputs = property(lambda self: ())
    creation_site = property(lambda self: self._site_op.creation_site if self._site_op is not None else "<plan>")

    def __repr__(self):
        return "<placement step %s (%s)>" % (self._name, self._type)


class Placement:
    """The devices of one plan's ops, and the rewrite of its steps that runs them there."""

    def __init__(self, assigned):
        self.assigned = assigned

    def device_of(self, op):
        """The `LocalDevice` `op` was placed on (None for an op outside the plan)."""
        return self.assigned.get(op)

    def runs_on_host(self, op):
        """Whether `op`'s kernel runs on the host with NumPy (every op but those placed on an
        accelerator, whose values are device arrays)."""
        d = self.assigned.get(op)
        return d is None or d.is_host or _host_kernel(d, op)

    def rewrite(self, steps, results, env):
        """Rewrites the compiled plan's steps for the placement.

        Args:
          steps: `[pos, op, args, outs]` in execution order (args and outs: generated local names,
            constant names in `env`, or quoted variable keys).
          results: The names of the fetched values.
          env: The generated function's globals (constants; kernels and modules are added).

        Returns:
          (steps, results): with copy steps inserted, accelerator kernels bound to their device's
          array module (`XP<pos>`) and kernel (`K<pos>`), and results that are host arrays.
        """
        return _Rewriter(self, steps, env).run(results)


def _host_kernel(dev, op):
    k = dev.backend.kernel_for(op)
    return k is None or k.on_host


class _Rewriter:
    def __init__(self, placement, steps, env):
        self.p = placement
        self.steps = steps
        self.env = env
        self.loc = {}  # local name -> device holding it (None: host)
        self.copies = {}  # (name, destination tag) -> name of the copy
        self.tensor_names = {}  # local name -> the name of the tensor it holds, for labels
        self.out = []
        self.next_pos = 1 + max((s.pos for s in steps), default=-1)
        self.current = None  # the accelerator made current last, for backends with an activator

    def run(self, results):
        for step in self.steps:
            pos, op, args, outs = step
            for o, t in zip(outs, op._outputs):
                self.tensor_names[o] = t.name
            dev = self.p.assigned.get(op)
            if dev is None or dev.is_host:
                self._host_step(step, op, args)
                continue
            k = dev.backend.kernel_for(op)
            n = len(args)
            step.args = [self._to(a, {"host": None, "device": dev, "any": "any"}[k.input_place(i, n)], op)
                         for i, a in enumerate(args)]
            if not k.on_host:  # runs on the device: made current, with its array module, outputs stay there
                self._activate(dev, op)
                self.env["XP%d" % pos] = dev.xp()
                for o in outs:
                    if o != "_":
                        self.loc[o] = dev
            # Bound here also when it is the registered kernel: compile-time specializations
            # (`OpDef.specialize`) are for host kernels.
            self.env["K%d" % pos] = k.kernel or op._op_def.kernel
            self.out.append(step)
        results = [self._to(r, None, None) for r in results]
        return self.out, results

    def _host_step(self, step, op, args):
        step.args = [self._to(a, None, op) for a in args]
        self.out.append(step)

    def _activate(self, dev, op):
        act = dev.backend.activator(dev.physical)
        if act is None or self.current is dev:
            return
        self.current = dev
        pos = self._new_pos()
        self.env["K%d" % pos] = lambda xp, _act=act: _act()
        self.out.append(Step(pos, _Step("%s/_set_device" % dev.name, "_SetDevice", op), [], []))

    def _new_pos(self):
        pos = self.next_pos
        self.next_pos += 1
        return pos

    def _to(self, name, dst, op):
        """The name of `name`'s value on `dst` (None: host; "any": wherever it is)."""
        if dst == "any" or name[0] in "'\"":
            return name
        src = self.loc.get(name)
        if src is dst:
            return name
        tag = "host" if dst is None else dst.tag
        key = (name, tag)
        copy = self.copies.get(key)
        if copy is not None:
            return copy
        if name[0] not in "tf" and name in self.env:  # a constant: copied once, now
            copy = "%s_%s" % (name, tag)
            self.env[copy] = _transfer(src, dst)(None, self.env[name])
        else:
            copy = "%s_%s" % (name, tag)
            pos = self._new_pos()
            self.env["K%d" % pos] = _transfer(src, dst)
            label = "%s/_to_%s" % (self.tensor_names.get(name, name),
                                   "CPU" if dst is None else "%s:%d" % (dst.device_type, dst.index))
            self.out.append(Step(pos, _Step(label, "_Transfer", op), [name], [copy]))
            self.loc[copy] = dst
        self.copies[key] = copy
        return copy


def _transfer(src, dst):
    """`(xp, value) -> value` copying from device `src` to `dst` (None: host)."""
    if dst is None:
        return lambda xp, v, _b=src.backend: _b.to_host(v)
    if src is None or src.backend is dst.backend:
        return lambda xp, v, _b=dst.backend, _i=dst.physical: _b.to_device(v, _i)
    return lambda xp, v, _s=src.backend, _b=dst.backend, _i=dst.physical: _b.to_device(_s.to_host(v), _i)
