"""`tf.TensorArray`: a list of tensors threaded through ops by a "flow" value (dtype variant).

The flow's runtime value is a `TensorArrayStore`, created fresh by each run of the TensorArrayV3
op and written in place (write-once, as TF's resource). Gradients flow as gradient stores: the
gradient of a read is a store holding `dy` at that index, of a write the gradient store's entry.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape, as_shape
from . import core_ops


class TensorArrayStore:
    """The runtime value of a TensorArray: its elements (None where not written)."""

    __slots__ = ("dtype", "elements", "dynamic", "clear_after_read", "element_shape", "cleared", "name",
                 "identical_shapes")

    def __init__(self, dtype, size, dynamic, clear_after_read, element_shape, name="", identical_shapes=True):
        self.identical_shapes = identical_shapes
        self.dtype = dtype
        self.elements = [None] * size
        self.dynamic = dynamic
        self.clear_after_read = clear_after_read
        self.element_shape = element_shape
        self.cleared = set()
        self.name = name

    def __len__(self):
        return len(self.elements)

    def __add__(self, other):
        """Sums two gradient stores element by element (absent entries count as zero)."""
        if other is None:
            return self
        n = max(len(self.elements), len(other.elements))
        out = TensorArrayStore(self.dtype, n, True, False, self.element_shape, self.name)
        for i in range(n):
            a = self.elements[i] if i < len(self.elements) else None
            b = other.elements[i] if i < len(other.elements) else None
            out.elements[i] = a if b is None else b if a is None else a + b
        return out

    __radd__ = __add__


def _store(op, flow):
    if not isinstance(flow, TensorArrayStore):
        raise errors.InvalidArgumentError(None, op, "TensorArray flow is not a TensorArray (got %r)" % (flow,))
    return flow


def _index(op, store, i, what):
    i = int(i)
    if i < 0:
        raise errors.InvalidArgumentError(None, op, "Tried to %s index %d but it is negative" % (what, i))
    if i >= len(store.elements):
        if what == "write to" and store.dynamic:
            store.elements.extend([None] * (i + 1 - len(store.elements)))
        else:
            raise errors.InvalidArgumentError(
                None, op, "Tried to %s index %d but array is not resizeable and size is: %d"
                % (what, i, len(store.elements)) if what == "write to" else
                "Tried to read from index %d but array size is: %d" % (i, len(store.elements)))
    return i


def _write(ctx, op, store, i, value, identical=True):
    i = _index(op, store, i, "write to")
    if store.elements[i] is not None and ctx.replaying:
        return  # a gradient re-running the forward write
    if store.elements[i] is not None:
        raise errors.InvalidArgumentError(
            None, op, "Could not write to TensorArray index %d because it has already been written to." % i)
    value = np.asarray(value)
    shp = store.element_shape
    if shp is not None and not TensorShape(shp).is_compatible_with(value.shape):
        raise errors.InvalidArgumentError(
            None, op, "Could not write to TensorArray index %d because the value shape is %s which is incompatible "
            "with the TensorArray's inferred element shape: %s" % (i, list(value.shape), list(shp)))
    if identical and store.identical_shapes and (store.element_shape is None or None in store.element_shape):
        store.element_shape = value.shape  # infer_shape: every element has the first one's shape
    store.elements[i] = value


def _read(ctx, op, store, i):
    i = _index(op, store, i, "read from")
    if i in store.cleared and not ctx.replaying:
        raise errors.InvalidArgumentError(
            None, op, "Could not read index %d twice because it was cleared after a previous read (perhaps try "
            "setting clear_after_read = false?)" % i)
    v = store.elements[i]
    if v is None:
        if store.element_shape is not None and None not in store.element_shape:
            return np.zeros(store.element_shape, store.dtype.as_numpy_dtype)
        raise errors.InvalidArgumentError(
            None, op, "Could not read from TensorArray index %d because it has not yet been written to." % i)
    if store.clear_after_read:
        # The value is kept: a gradient may re-run this read while replaying a loop body.
        store.cleared.add(i)
    return v


def _debug_shape(shape):
    """A partial shape as TF's PartialTensorShape::DebugString prints it: [?,2] or <unknown>."""
    return "<unknown>" if shape is None else "[%s]" % ",".join("?" if d is None else str(d) for d in shape)


def _empty_shape(store, element_shape):
    """The element shape an empty gather/concat uses: the op's (the array's static shape when the op
    was built), else the one the array was created with; None when neither is fully defined."""
    for shp in (element_shape, store.element_shape):
        if shp is not None and None not in shp:
            return tuple(shp)
    return None


def _gather(ctx, op, store, indices, element_shape=None):
    if len(indices) == 0:
        shp = _empty_shape(store, element_shape)
        if shp is None:
            raise errors.UnimplementedError(
                None, op, "TensorArray has size zero, but element shape %s is not fully defined. Currently only "
                "static shapes are supported when packing zero-size TensorArrays."
                % _debug_shape(element_shape if element_shape is not None else store.element_shape))
        return np.zeros((0,) + shp, store.dtype.as_numpy_dtype)
    vals = [_read(ctx, op, store, i) for i in indices]
    first = vals[0].shape
    for k, v in enumerate(vals):
        if v.shape != first:
            raise errors.InvalidArgumentError(
                None, op, "TensorArray has inconsistent shapes. Index 0 has shape: %s but index %d has shape: %s"
                % (list(first), k, list(v.shape)))
    return np.stack(vals)


# ---- the ops ------------------------------------------------------------------------------------
def _flow_infer(op):
    return [(dtypes.variant, ())]


def _create_kernel(ctx, op, size, dtype, element_shape, dynamic_size, clear_after_read, tensor_array_name,
                   identical_element_shapes):
    return TensorArrayStore(dtype, int(size), dynamic_size, clear_after_read, element_shape, tensor_array_name,
                            identical_element_shapes)


register_op("TensorArrayV3", infer=_flow_infer, kernel=_create_kernel, grad=NO_GRADIENT, stateful=True)


def _write_kernel(ctx, op, flow, index, value):
    store = _store(op, flow)
    _write(ctx, op, store, index, value)
    return store


def _write_grad(op, dflow):
    """d value = the gradient store's entry at the index; the flow gradient passes through."""
    _, index, value = op._inputs
    dvalue = ops.apply_op("TensorArrayGradRead", [_flow_or_none(dflow, op._inputs[0]), index, value])
    return [dflow, None, dvalue]


register_op("TensorArrayWriteV3", infer=_flow_infer, kernel=_write_kernel, grad=_write_grad, stateful=True)


def _read_infer(op):
    return [(op._attrs["dtype"], op._attrs["element_shape"])]


def _read_kernel(ctx, op, flow, index, dtype, element_shape):
    return _read(ctx, op, _store(op, flow), index)


def _read_grad(op, dy):
    """d flow = a gradient store holding dy at the index read."""
    flow, index = op._inputs
    return [ops.apply_op("TensorArrayGradScatter", [flow, index, dy], {"single": True}), None]


register_op("TensorArrayReadV3", infer=_read_infer, kernel=_read_kernel, grad=_read_grad, stateful=True)


def _gather_infer(op):
    s = op._attrs["element_shape"]
    n = op._inputs[1].shape.as_tuple()
    lead = None if n is None else n[0]
    return [(op._attrs["dtype"], None if s is None else (lead,) + tuple(s))]


def _gather_kernel(ctx, op, flow, indices, dtype, element_shape):
    return _gather(ctx, op, _store(op, flow), np.asarray(indices).reshape(-1).tolist(), element_shape)


def _gather_grad(op, dy):
    """d flow = a gradient store holding dy's rows at the gathered indices."""
    flow, indices = op._inputs
    return [ops.apply_op("TensorArrayGradScatter", [flow, indices, dy], {"single": False}), None]


register_op("TensorArrayGatherV3", infer=_gather_infer, kernel=_gather_kernel, grad=_gather_grad, stateful=True)


def _scatter_kernel(ctx, op, flow, indices, value):
    store = _store(op, flow)
    indices = np.asarray(indices).reshape(-1).tolist()
    if len(indices) != len(value):
        raise errors.InvalidArgumentError(None, op, "Expected len(indices) == values.shape[0], but saw: %d vs. %d"
                                          % (len(indices), len(value)))
    for k, i in enumerate(indices):
        _write(ctx, op, store, i, value[k])
    return store


def _scatter_grad(op, dflow):
    """d value = the gradient store's entries at the indices, stacked."""
    _, indices, value = op._inputs
    dvalue = ops.apply_op("TensorArrayGradGather", [_flow_or_none(dflow, op._inputs[0]), indices, value])
    return [dflow, None, dvalue]


register_op("TensorArrayScatterV3", infer=_flow_infer, kernel=_scatter_kernel, grad=_scatter_grad, stateful=True)


def _size_kernel(ctx, op, flow):
    return np.int32(len(_store(op, flow)))


register_op("TensorArraySizeV3", infer=lambda op: [(dtypes.int32, ())], kernel=_size_kernel, grad=NO_GRADIENT,
            stateful=True)


def _concat_infer(op):
    s = op._attrs["element_shape"]
    return [(op._attrs["dtype"], None if s is None else (None,) + tuple(s[1:])), (dtypes.int64, (None,))]


def _concat_kernel(ctx, op, flow, dtype, element_shape):
    store = _store(op, flow)
    vals = [_read(ctx, op, store, i) for i in range(len(store))]
    if not vals:
        shp = _empty_shape(store, element_shape)
        if shp is None:
            known = element_shape if element_shape is not None else store.element_shape
            raise errors.UnimplementedError(
                None, op, "TensorArray has size zero, but element_shape_except0 %s is not fully defined. Currently "
                "only static shapes are supported when concatenating zero-size TensorArrays."
                % _debug_shape(None if known is None else tuple(known)[1:]))
        return np.zeros((0,) + shp[1:], dtype.as_numpy_dtype), np.zeros(0, np.int64)
    return np.concatenate(vals, 0), np.asarray([v.shape[0] for v in vals], np.int64)


def _concat_grad(op, dy, dlengths):
    """d flow = dy split back into the element lengths."""
    return [ops.apply_op("TensorArrayGradSplit", [op._inputs[0], dy, op._outputs[1]])]


register_op("TensorArrayConcatV3", infer=_concat_infer, kernel=_concat_kernel, grad=_concat_grad, stateful=True)


def _split_kernel(ctx, op, flow, value, lengths):
    store = _store(op, flow)
    lengths = np.asarray(lengths).reshape(-1).tolist()
    if sum(lengths) != len(value):
        raise errors.InvalidArgumentError(None, op, "Expected sum of lengths to be equal to values.shape[0], but "
                                          "sum of lengths is %d and value's shape is: %s" % (sum(lengths),
                                                                                            list(value.shape)))
    start = 0
    for i, n in enumerate(lengths):
        _write(ctx, op, store, i, value[start:start + n], identical=False)
        start += n
    return store


def _split_grad(op, dflow):
    """d value = the gradient store's entries concatenated."""
    _, value, lengths = op._inputs
    return [dflow, ops.apply_op("TensorArrayGradConcat", [_flow_or_none(dflow, op._inputs[0]), value, lengths]),
            None]


register_op("TensorArraySplitV3", infer=_flow_infer, kernel=_split_kernel, grad=_split_grad, stateful=True)
register_op("TensorArrayCloseV3", infer=lambda op: [], kernel=lambda ctx, op, flow: None, grad=NO_GRADIENT,
            stateful=True)


# ---- gradient helper ops (gradient stores) ------------------------------------------------------
def _flow_or_none(dflow, like):
    return dflow if dflow is not None else ops.apply_op("NoneLike", [like])


def _grad_scatter_kernel(ctx, op, flow, indices, dy, single):
    """A gradient store the size of `flow` holding `dy` (rows of `dy`) at `indices`."""
    store = _store(op, flow)
    out = TensorArrayStore(store.dtype, len(store), True, False, store.element_shape, store.name)
    if single:
        out.elements[int(indices)] = dy
    else:
        for k, i in enumerate(np.asarray(indices).reshape(-1).tolist()):
            out.elements[i] = dy[k]
    return out


register_op("TensorArrayGradScatter", infer=_flow_infer, kernel=_grad_scatter_kernel, grad=NO_GRADIENT,
            stateful=True)


def _grad_entry(store, i, like):
    v = None
    if store is not None and i < len(store.elements):
        v = store.elements[i]
    return np.zeros_like(like) if v is None else v


def _grad_read_kernel(ctx, op, dflow, index, value):
    return _grad_entry(dflow, int(index), np.asarray(value))


register_op("TensorArrayGradRead", infer=lambda op: [(op._inputs[2].dtype, op._inputs[2].shape.as_tuple())],
            kernel=_grad_read_kernel, grad=NO_GRADIENT, stateful=True)


def _grad_gather_kernel(ctx, op, dflow, indices, value):
    value = np.asarray(value)
    idx = np.asarray(indices).reshape(-1).tolist()
    if not idx:
        return np.zeros_like(value)
    return np.stack([_grad_entry(dflow, i, value[k]) for k, i in enumerate(idx)])


register_op("TensorArrayGradGather", infer=lambda op: [(op._inputs[2].dtype, op._inputs[2].shape.as_tuple())],
            kernel=_grad_gather_kernel, grad=NO_GRADIENT, stateful=True)


def _grad_split_kernel(ctx, op, flow, dy, lengths):
    store = _store(op, flow)
    out = TensorArrayStore(store.dtype, len(store), True, False, store.element_shape, store.name)
    start = 0
    for i, n in enumerate(np.asarray(lengths).reshape(-1).tolist()):
        out.elements[i] = dy[start:start + n]
        start += n
    return out


register_op("TensorArrayGradSplit", infer=_flow_infer, kernel=_grad_split_kernel, grad=NO_GRADIENT, stateful=True)


def _grad_concat_kernel(ctx, op, dflow, value, lengths):
    value = np.asarray(value)
    parts = []
    start = 0
    for i, n in enumerate(np.asarray(lengths).reshape(-1).tolist()):
        parts.append(_grad_entry(dflow, i, value[start:start + n]))
        start += n
    return np.concatenate(parts, 0) if parts else np.zeros_like(value)


register_op("TensorArrayGradConcat", infer=lambda op: [(op._inputs[1].dtype, op._inputs[1].shape.as_tuple())],
            kernel=_grad_concat_kernel, grad=NO_GRADIENT, stateful=True)


# ---- the Python object ------------------------------------------------------------------------
class _Meta:
    """Static facts shared by every TensorArray object threading the same array."""

    __slots__ = ("dtype", "element_shape", "dynamic_size", "infer_shape", "clear_after_read", "size")


class TensorArray:
    """A list of tensors of one dtype, written once per index, as TF1's `tf.TensorArray`.

    Each method returns a new TensorArray object (or tensor) whose flow orders it after the
    earlier writes; use the returned object, as in TF.

    Args:
      dtype: The element type.
      size: Number of elements (an int or scalar int32 tensor); may be 0 with `dynamic_size`.
      dynamic_size: Whether writes may grow the array.
      clear_after_read: Whether a read empties its element (default True), so reading twice fails.
      tensor_array_name: Name of the array.
      handle, flow: Build an object around an existing flow.
      infer_shape: Whether the first write fixes the static element shape.
      element_shape: The static element shape.
      name: Op name.

    Raises:
      ValueError: If neither `size` nor `flow` is given.
    """

    _is_tensor_array = True

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None, tensor_array_name=None,
                 handle=None, flow=None, infer_shape=True, element_shape=None, colocate_with_first_write_call=True,
                 name=None):
        meta = _Meta()
        meta.dtype = dtypes.as_dtype(dtype)
        meta.element_shape = as_shape(element_shape)
        meta.dynamic_size = bool(dynamic_size)
        meta.infer_shape = infer_shape
        meta.clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        meta.size = None  # the size tensor this array was created with (stack's static leading dimension)
        self._meta = meta
        if flow is not None or handle is not None:
            self._flow = flow if flow is not None else handle
            return
        if size is None:
            raise ValueError("Size must be provided if handle is not provided")
        with ops.name_scope(name, "TensorArray", [size] if isinstance(size, ops.Tensor) else []) as scope:
            size = ops.convert_to_tensor(size, dtype=dtypes.int32, name="size")
            meta.size = size
            self._flow = ops.apply_op("TensorArrayV3", [size], {
                "dtype": meta.dtype, "element_shape": meta.element_shape.as_tuple(),
                "dynamic_size": meta.dynamic_size, "clear_after_read": meta.clear_after_read,
                "tensor_array_name": tensor_array_name or scope.rstrip("/"),
                "identical_element_shapes": bool(infer_shape)}, name=scope)

    def _with_flow(self, flow):
        ta = TensorArray.__new__(TensorArray)
        ta._meta = self._meta
        ta._flow = flow
        return ta

    @property
    def flow(self):
        return self._flow

    @property
    def handle(self):
        return self._flow

    @property
    def dtype(self):
        return self._meta.dtype

    @property
    def element_shape(self):
        return self._meta.element_shape

    @property
    def dynamic_size(self):
        return self._meta.dynamic_size

    def _merge_shape(self, shape):
        if self._meta.infer_shape:
            try:
                self._meta.element_shape = self._meta.element_shape.merge_with(shape)
            except ValueError:
                raise ValueError("Inconsistent shapes: saw %s but expected %s " % (shape, self._meta.element_shape)) \
                    from None

    def _value(self, value, name="value"):
        v = ops.convert_to_tensor(value, name=name) if isinstance(value, ops.Tensor) else \
            ops.convert_to_tensor(value, dtype=self._meta.dtype, name=name)
        if v.dtype is not self._meta.dtype:
            raise TypeError("TensorArray dtype is %s but Op is trying to write dtype %s"
                            % (self._meta.dtype.name, v.dtype.name))
        return v

    def write(self, index, value, name=None):
        """Writes `value` at `index`; returns the new TensorArray.

        Raises:
          TypeError: If `value`'s dtype differs. ValueError: If its shape conflicts.
        """
        with ops.name_scope(name, "TensorArrayWrite", [self._flow, index, value]) as scope:
            v = self._value(value)
            self._merge_shape(v.shape)
            flow = ops.apply_op("TensorArrayWriteV3", [self._flow, ops.convert_to_tensor(index, dtypes.int32), v],
                                name=scope)
        return self._with_flow(flow)

    def read(self, index, name=None):
        """The element at `index`."""
        return ops.apply_op("TensorArrayReadV3", [self._flow, ops.convert_to_tensor(index, dtypes.int32)],
                            {"dtype": self._meta.dtype, "element_shape": self._meta.element_shape.as_tuple()},
                            name=name)

    def gather(self, indices, name=None):
        """The elements at `indices`, stacked."""
        return ops.apply_op("TensorArrayGatherV3", [self._flow, ops.convert_to_tensor(indices, dtypes.int32)],
                            {"dtype": self._meta.dtype, "element_shape": self._meta.element_shape.as_tuple()},
                            name=name)

    def _static_size(self):
        """The array's size when it is fixed and known statically (as TF reads `constant_value(size)`)."""
        meta = self._meta
        if meta.dynamic_size or meta.size is None:
            return None
        from ..framework.tensor_util import constant_value
        n = constant_value(meta.size)
        return None if n is None else int(n)

    def stack(self, name=None):
        """All elements stacked on a new first axis.

        The static shape is `[size] + element_shape` when the element shape is known (the size is
        the array's fixed size when it is known statically, else unknown).
        """
        with ops.name_scope(name, "TensorArrayStack", [self._flow]) as scope:
            value = self.gather(_range_of(self.size()), name=scope)
            shape = self._meta.element_shape
            if shape.ndims is not None:
                value.set_shape(TensorShape([self._static_size()]).concatenate(shape))
            return value

    def scatter(self, indices, value, name=None):
        """Writes `value[k]` at `indices[k]`; returns the new TensorArray."""
        with ops.name_scope(name, "TensorArrayScatter", [self._flow, value, indices]) as scope:
            v = self._value(value)
            if v.shape.ndims:
                self._merge_shape(v.shape[1:])
            flow = ops.apply_op("TensorArrayScatterV3",
                                [self._flow, ops.convert_to_tensor(indices, dtypes.int32), v], name=scope)
        return self._with_flow(flow)

    def unstack(self, value, name=None):
        """Writes the rows of `value` at 0, 1, ...; returns the new TensorArray."""
        with ops.name_scope(name, "TensorArrayUnstack", [self._flow, value]):
            v = self._value(value)
            from . import array_ops
            n = array_ops.shape(v)[0] if v.shape.ndims is None or v.shape[0].value is None else v.shape[0].value
            return self.scatter(_range_of(n), v)

    def concat(self, name=None):
        """The elements concatenated along their first axis.

        The static first dimension is `size * element_shape[0]` when both are known statically.
        """
        value = ops.apply_op("TensorArrayConcatV3", [self._flow],
                             {"dtype": self._meta.dtype, "element_shape": self._meta.element_shape.as_tuple()},
                             name=name)[0]
        shape = self._meta.element_shape
        if shape.ndims:
            n = self._static_size() if self._meta.infer_shape else None
            dim0 = None if n is None or shape[0].value is None else n * shape[0].value
            value.set_shape(TensorShape([dim0]).concatenate(shape[1:]))
        return value

    def split(self, value, lengths, name=None):
        """Splits `value` along its first axis into elements of the given lengths."""
        with ops.name_scope(name, "TensorArraySplit", [self._flow, value, lengths]) as scope:
            v = self._value(value)
            if v.shape.ndims:
                from ..framework.tensor_util import constant_value
                lens = constant_value(ops.convert_to_tensor(lengths))
                first = None
                if lens is not None and lens.size and (lens == lens.reshape(-1)[0]).all():
                    first = int(lens.reshape(-1)[0])
                self._merge_shape(TensorShape([first]).concatenate(v.shape[1:]))
            flow = ops.apply_op("TensorArraySplitV3",
                                [self._flow, v, ops.convert_to_tensor(lengths, dtypes.int64)], name=scope)
        return self._with_flow(flow)

    def size(self, name=None):
        """The number of elements (int32 scalar)."""
        return ops.apply_op("TensorArraySizeV3", [self._flow], name=name)

    def close(self, name=None):
        """An op closing the array (accepted for compatibility)."""
        return ops.apply_op("TensorArrayCloseV3", [self._flow], name=name)

    def identity(self):
        """A TensorArray whose flow is an identity of this one's."""
        return self._with_flow(core_ops.identity(self._flow))


def _range_of(n):
    from . import array_ops
    return array_ops.range(0, n)
