"""How TF1's batching queues carry `SparseTensor`s (TF's `sparse_ops` tensors-map ops): "AddSparseToTensorsMap"
stores one SparseTensor in a map of the running Session and returns an int64 handle to it,
"AddManySparseToTensorsMap" stores each row of a minibatch (split along dimension 0), and
"TakeManySparseFromTensorsMap" takes the SparseTensors of a vector of handles out of the map as one
SparseTensor with a leading batch dimension (each dimension as large as the largest element's).

`tf.train.batch` and friends enqueue the handles and take them back after the dequeue
(tensorweave/train/input.py). The map is named by the add op's `shared_name` (or its op name), which
the take op names too.
"""

import itertools
import threading

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor
from .data_flow_ops import _shared_resource

__all__ = ["add_many_sparse_to_tensors_map", "add_sparse_to_tensors_map", "take_many_sparse_from_tensors_map"]


class _SparseMap:
    def __init__(self):
        self.lock = threading.Lock()
        self.items = {}
        self.next = itertools.count(1)

    def add(self, indices, values, shape):
        with self.lock:
            h = next(self.next)
            self.items[h] = (indices, values, shape)
            return h

    def take(self, handles, op):
        with self.lock:
            out = []
            for h in handles:
                try:
                    out.append(self.items.pop(int(h)))
                except KeyError:
                    raise errors.InvalidArgumentError(
                        None, op, "Unable to find SparseTensor: %d in map: %s" % (int(h), op.get_attr("shared_name"))
                    ) from None
            return out


def _map(ctx, container, shared_name):
    key = ("tf.sparse_tensors_map", container, shared_name)
    return _shared_resource(ctx, None, key, _SparseMap, check_closed=False)


def _check_sparse(indices, values, shape, op):
    if indices.ndim != 2 or values.ndim != 1 or shape.ndim != 1:
        raise errors.InvalidArgumentError(None, op, "Input indices should be a matrix, values a vector and shape a "
                                          "vector but received shapes: %s, %s, %s"
                                          % (list(indices.shape), list(values.shape), list(shape.shape)))
    if indices.shape[0] != values.shape[0] or indices.shape[1] != shape.shape[0]:
        raise errors.InvalidArgumentError(None, op, "Number of indices and values or the rank do not match: "
                                          "indices %s, values %s, shape %s"
                                          % (list(indices.shape), list(values.shape), list(shape.shape)))


def _add_kernel(ctx, op, indices, values, shape, container, shared_name):
    _check_sparse(indices, values, shape, op)
    m = _map(ctx, container, shared_name or op.name)
    return np.int64(m.add(indices.copy(), values.copy(), shape.copy()))


def _add_many_kernel(ctx, op, indices, values, shape, container, shared_name):
    _check_sparse(indices, values, shape, op)
    if shape.shape[0] < 2:
        raise errors.InvalidArgumentError(None, op, "Rank of input SparseTensor should be > 1, but saw rank: %d"
                                          % shape.shape[0])
    m = _map(ctx, container, shared_name or op.name)
    n = int(shape[0])
    order = np.lexsort(indices.T[::-1]) if indices.size else np.arange(indices.shape[0])
    indices, values = indices[order], values[order]
    handles = []
    for i in range(n):
        rows = indices[:, 0] == i
        handles.append(m.add(indices[rows, 1:].copy(), values[rows].copy(), shape[1:].copy()))
    return np.array(handles, np.int64)


def _take_kernel(ctx, op, handles, dtype, container, shared_name):
    if handles.ndim != 1:
        raise errors.InvalidArgumentError(None, op, "sparse_handles should be a vector but received shape %s"
                                          % list(handles.shape))
    items = _map(ctx, container, shared_name).take(handles, op)
    ranks = {s.shape[0] for _, _, s in items}
    if len(ranks) > 1:
        raise errors.InvalidArgumentError(None, op, "Inconsistent rank across SparseTensors: %s" % sorted(ranks))
    rank = ranks.pop() if ranks else (op._attrs.get("_rank") or 0)  # no handles: the static rank
    shape = np.zeros(rank + 1, np.int64)
    shape[0] = len(items)
    parts_i, parts_v = [], []
    for b, (idx, vals, s) in enumerate(items):
        if rank:
            shape[1:] = np.maximum(shape[1:], s)
        parts_i.append(np.concatenate([np.full((idx.shape[0], 1), b, np.int64), idx.astype(np.int64)], axis=1))
        parts_v.append(vals)
    indices = np.concatenate(parts_i) if parts_i else np.zeros((0, rank + 1), np.int64)
    values = np.concatenate(parts_v) if parts_v else np.zeros(0, dtype.as_numpy_dtype)
    return indices, values.astype(dtype.as_numpy_dtype, copy=False), shape


register_op("AddSparseToTensorsMap", infer=lambda op: [(dtypes.int64, ())], kernel=_add_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("AddManySparseToTensorsMap", infer=lambda op: [(dtypes.int64, (None,))], kernel=_add_many_kernel,
            grad=NO_GRADIENT, stateful=True)


def _take_infer(op):
    rank = op._attrs.get("_rank")
    return [(dtypes.int64, (None, None if rank is None else rank + 1)), (op._attrs["dtype"], (None,)),
            (dtypes.int64, (None if rank is None else rank + 1,))]


register_op("TakeManySparseFromTensorsMap", infer=_take_infer, kernel=_take_kernel, grad=NO_GRADIENT, stateful=True)


def _components(sp):
    sp = SparseTensor.from_value(sp) if not isinstance(sp, SparseTensor) else sp
    return sp, [sp.indices, sp.values, sp.dense_shape]


def add_sparse_to_tensors_map(sp_input, container=None, shared_name=None, name=None):
    """Adds a `SparseTensor` to a `SparseTensorsMap` of the running Session.

    Args:
      sp_input: The input `SparseTensor`.
      container: The container for the map (optional).
      shared_name: The shared name for the map; the add op's name when None.
      name: A name prefix for the returned tensors (optional).

    Returns:
      An int64 scalar `Tensor`: the handle of the stored `SparseTensor`.
    """
    _, comps = _components(sp_input)
    return ops.apply_op("AddSparseToTensorsMap", comps,
                        {"container": container or "", "shared_name": shared_name or ""},
                        name=name or "AddSparseToTensorsMap")


def add_many_sparse_to_tensors_map(sp_input, container=None, shared_name=None, name=None):
    """Adds each row (along dimension 0) of a minibatch `SparseTensor` to a `SparseTensorsMap`.

    Args:
      sp_input: The input rank `R` `SparseTensor` (`R > 1`).
      container: The container for the map (optional).
      shared_name: The shared name for the map; the add op's name when None.
      name: A name prefix for the returned tensors (optional).

    Returns:
      An int64 vector: one handle per row, each a rank `R - 1` `SparseTensor`.
    """
    _, comps = _components(sp_input)
    return ops.apply_op("AddManySparseToTensorsMap", comps,
                        {"container": container or "", "shared_name": shared_name or ""},
                        name=name or "AddManySparseToTensorsMap")


def take_many_sparse_from_tensors_map(sparse_map_op, sparse_handles, rank=None, name=None):
    """Takes the `SparseTensor`s of `sparse_handles` out of the map `sparse_map_op` added them to, as one
    `SparseTensor` whose first dimension indexes them (the others are the largest of each).

    Args:
      sparse_map_op: The add Operation that created the handles (it names the map).
      sparse_handles: A 1-D int64 `Tensor` of handles.
      rank: (optional) The rank of the stored `SparseTensor`s, for the static shapes.
      name: A name prefix for the returned tensors (optional).

    Returns:
      A `SparseTensor` of rank `rank + 1`.
    """
    shared_name = sparse_map_op.get_attr("shared_name") or sparse_map_op.name
    attrs = {"dtype": sparse_map_op.inputs[1].dtype, "container": sparse_map_op.get_attr("container"),
             "shared_name": shared_name, "_rank": rank}
    indices, values, shape = ops.apply_op("TakeManySparseFromTensorsMap", [sparse_handles], attrs,
                                          name=name or "TakeManySparseFromTensorsMap")
    return SparseTensor(indices, values, shape)
