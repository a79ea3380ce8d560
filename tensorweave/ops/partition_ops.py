"""DynamicPartition (split by partition ids) and DynamicStitch / ParallelDynamicStitch (merge by
indices), with their gradients as TF defines them."""

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import register_op
from .array_gather_ops import gather
from .array_helpers import _check_dtype, _dims, _fmt, _invalid, _outputs_list
from .array_shape_ops import reshape
from .core_ops import shape
from .math_reduce_ops import reduce_prod
from .math_unary_ops import cast


# ---- DynamicPartition ----------------------------------------------------------------------------
def _partition_infer(op):
    data, partitions = op._inputs
    _check_dtype(partitions, (dtypes.int32,), "partitions", "DynamicPartition")
    n = op._attrs["num_partitions"]
    dd, pd = _dims(data), _dims(partitions)
    if dd is None or pd is None:
        return [(data._dtype, None)] * n
    if len(dd) < len(pd):
        raise ValueError("Shape must be at least rank %d but is rank %d" % (len(pd), len(dd)))
    for a, b in zip(dd, pd):
        if a is not None and b is not None and a != b:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
    return [(data._dtype, (None,) + dd[len(pd):])] * n


def _partition_kernel(xp, data, partitions, num_partitions):
    p = np.asarray(partitions)
    if data.shape[:p.ndim] != p.shape:
        raise _invalid("data.shape must start with partitions.shape, got data.shape = %s, partitions.shape = %s"
                       % (_fmt(data.shape), _fmt(p.shape)))
    flat = p.reshape(-1)
    bad = (flat < 0) | (flat >= num_partitions)
    if bad.any():
        i = int(np.argmax(bad))
        pos = np.unravel_index(i, p.shape) if p.ndim else ()
        raise _invalid("partitions[%s] = %d is not in [0, %d)" % (",".join(str(int(x)) for x in pos), flat[i],
                                                                  num_partitions))
    rows = data.reshape((flat.size,) + data.shape[p.ndim:])
    return tuple(rows[flat == i] for i in range(num_partitions))


def _partition_grad(op, *grads):
    from .array_shape_ops import range as _range
    data, indices = op._inputs
    n = op._attrs["num_partitions"]
    prefix_shape = shape(indices)
    original_indices = reshape(_range(reduce_prod(prefix_shape)), prefix_shape)
    partitioned = dynamic_partition(original_indices, indices, n)
    reconstructed = ops.apply_op("ParallelDynamicStitch", list(partitioned) + list(grads), {"N": n})
    return [reshape(reconstructed, shape(data)), None]


register_op("DynamicPartition", infer=_partition_infer, kernel=_partition_kernel, grad=_partition_grad)


def dynamic_partition(data, partitions, num_partitions, name=None):
    """Partitions `data` into `num_partitions` tensors by the ids in `partitions`.

    `outputs[i]` holds the slices `data[js, ...]` with `partitions[js] == i`, in row-major order of `js`.

    Args:
      data: A `Tensor` whose shape starts with `partitions.shape`.
      partitions: An int32 `Tensor` of ids in `[0, num_partitions)`.
      num_partitions: An `int` >= 1: the number of outputs.
      name: A name for the operation (optional).

    Returns:
      A list of `num_partitions` `Tensor`s of `data`'s dtype, each of shape
      `[?] + data.shape[rank(partitions):]`.

    Raises:
      ValueError: If `num_partitions` < 1 or the static shapes don't fit.
      InvalidArgumentError: At run time, for an id out of range or shapes that don't fit.
    """
    if isinstance(num_partitions, (str, bytes)) or ops.is_tensor(num_partitions):
        raise TypeError("Expected int for argument 'num_partitions' not %r." % (num_partitions,))
    num_partitions = int(num_partitions)
    if num_partitions < 1:
        raise ValueError("Attr 'num_partitions' of 'DynamicPartition' Op passed %d less than minimum 1."
                         % num_partitions)
    data = ops.convert_to_tensor(data, name="data")
    partitions = ops.convert_to_tensor(partitions, name="partitions", preferred_dtype=dtypes.int32)
    return _outputs_list(ops.apply_op("DynamicPartition", [data, partitions], {"num_partitions": num_partitions},
                                      name=name))


# ---- DynamicStitch -------------------------------------------------------------------------------
def _stitch_infer(op_type):
    def infer(op):
        n = op._attrs["N"]
        indices, data = op._inputs[:n], op._inputs[n:]
        for t in indices:
            _check_dtype(t, (dtypes.int32,), "indices", op_type)
        dtype = data[0]._dtype
        for t in data[1:]:
            if t._dtype is not dtype:
                raise TypeError("Expected %s, got %s of type '%s' instead." % (dtype.name, t._dtype.name,
                                                                               type(t).__name__))
        inner = None
        max_index = -1
        all_known = True
        for i, (ix, d) in enumerate(zip(indices, data)):
            v = tensor_util._static_value(ix)
            if v is None:
                all_known = False
            elif np.size(v):
                max_index = max(max_index, int(np.max(v)))
            idd, dd = _dims(ix), _dims(d)
            if idd is None or dd is None:
                continue
            if len(dd) < len(idd):
                raise ValueError("Shape must be at least rank %d but is rank %d" % (len(idd), len(dd)))
            rest = dd[len(idd):]
            if inner is None:
                inner = rest
            else:
                if len(rest) != len(inner):
                    raise ValueError("Shapes must be equal rank, but are %d and %d" % (len(inner), len(rest)))
                merged = []
                for a, b in zip(inner, rest):
                    if a is not None and b is not None and a != b:
                        raise ValueError("Dimension %d in both shapes must be equal, but are %d and %d"
                                         % (len(merged), a, b))
                    merged.append(a if a is not None else b)
                inner = tuple(merged)
        if inner is None:
            return [(dtype, None)]
        return [(dtype, ((max_index + 1) if all_known else None,) + inner)]
    return infer


def _stitch_kernel(xp, *args, N):
    indices, data = args[:N], args[N:]
    max_index = -1
    for ix in indices:
        if np.size(ix):
            max_index = max(max_index, int(np.max(ix)))
    n = max_index + 1
    inner = None
    for i, (ix, d) in enumerate(zip(indices, data)):
        if d.shape[:np.ndim(ix)] != np.shape(ix):
            raise _invalid("data[%d].shape = %s does not start with indices[%d].shape = %s"
                           % (i, _fmt(d.shape), i, _fmt(np.shape(ix))))
        rest = d.shape[np.ndim(ix):]
        if inner is None:
            inner = rest
        elif rest != inner:
            raise _invalid("Need data[0].shape[%d:] = data[%d].shape[%d:], got data[0].shape = %s, data[%d].shape = "
                           "%s, indices[0].shape = %s, indices[%d].shape = %s"
                           % (np.ndim(indices[0]), i, np.ndim(ix), _fmt(data[0].shape), i, _fmt(d.shape),
                              _fmt(np.shape(indices[0])), i, _fmt(np.shape(ix))))
    out = np.zeros((n,) + inner, dtype=data[0].dtype)
    for ix, d in zip(indices, data):  # in order: a repeated index takes the last value; gaps stay 0
        flat = np.reshape(ix, -1)
        if flat.size and int(flat.min()) < 0:
            raise _invalid("indices[%d] is out of range" % int(np.argmax(flat < 0)))
        out[flat] = d.reshape((flat.size,) + inner)
    return out


def _stitch_grad(op, grad):
    from .segment_ops import unsorted_segment_sum
    n = op._attrs["N"]
    indices = [t if t.dtype == dtypes.int32 else cast(t, dtypes.int32) for t in op._inputs[:n]]
    if isinstance(grad, IndexedSlices):
        grad = unsorted_segment_sum(grad.values, grad.indices, shape(op.outputs[0])[0])
    return [None] * n + [gather(grad, t) for t in indices]


for _op_type in ("DynamicStitch", "ParallelDynamicStitch"):
    register_op(_op_type, infer=_stitch_infer(_op_type), kernel=_stitch_kernel, grad=_stitch_grad)


def _stitch(op_type, indices, data, name):
    for arg, v in (("indices", indices), ("data", data)):
        if not isinstance(v, (list, tuple)):
            raise TypeError("Expected list for '%s' argument to '%s' Op, not %r." % (arg, op_type, v))
    if len(indices) != len(data):
        raise ValueError("List argument 'data' to '%s' Op with length %d must match length %d of argument "
                         "'indices'." % (op_type, len(data), len(indices)))
    if not indices:
        raise ValueError("List argument 'indices' to '%s' Op with length 0 shorter than minimum length 1."
                         % op_type)
    indices = [ops.convert_to_tensor(t, name="indices", preferred_dtype=dtypes.int32) for t in indices]
    first = next((t.dtype for t in data if ops.is_tensor(t)), None)
    data = [ops.convert_to_tensor(t, name="data", dtype=None if ops.is_tensor(t) else first) for t in data]
    return ops.apply_op(op_type, indices + data, {"N": len(indices)}, name=name)


def dynamic_stitch(indices, data, name=None):
    """Interleaves the values of `data` into one tensor: `merged[indices[m][i, ...], ...] = data[m][i, ...]`.

    The first dimension of the result is `max(indices) + 1`; where an index repeats, the last
    `(m, i)` in order wins.

    Args:
      indices: A list of at least 1 int32 `Tensor`s.
      data: A list of `Tensor`s of one dtype, as many as `indices`; `data[m].shape` starts with
        `indices[m].shape` and the remaining dimensions agree across `m`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of `data`'s dtype and shape `[max(indices) + 1] + data[0].shape[rank(indices[0]):]`.

    Raises:
      TypeError: If `indices` or `data` is not a list, or the dtypes differ.
      ValueError: If the lists differ in length or the static shapes don't fit.
      InvalidArgumentError: At run time, for a negative index or shapes that don't fit.
    """
    return _stitch("DynamicStitch", indices, data, name)


__all__ = ["dynamic_partition", "dynamic_stitch"]
