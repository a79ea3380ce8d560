"""Collective ops across processes, as Horovod defines them: `HorovodAllreduce`, `HorovodAllgather`
and `HorovodBroadcast` (stateful: each run is one collective every rank must issue, in the same order).

The ops run on a communication backend (`tensorweave.distribute.engine.Backend`) that
`tensorweave.distribute.init()` installs here with `set_backend`, so this layer imports no engine.

Gradients follow Horovod: the gradient of an all-reduce is the all-reduce (same reduction) of the
gradient; of an all-gather, this rank's rows of the summed gradient; of a broadcast, the summed
gradient on the root rank and zeros elsewhere.

Plan check: the first time a graph's collectives run in a session (and again whenever the graph
gained collectives), the ranks exchange a hash of the graph's collective ops (names, types, dtypes,
shapes, attributes, in creation order), so ranks that built different graphs fail with a clear
error instead of deadlocking.
"""

import hashlib
import itertools
import threading
import time
import weakref

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from . import array_gather_ops, array_shape_ops, core_ops, math_reduce_ops

__all__ = ["set_backend", "get_backend", "allreduce", "allgather", "broadcast", "alltoall", "bucketed_allreduce",
           "COLLECTIVE_OP_TYPES", "REDUCE_OPS", "DEFAULT_BUCKET_BYTES", "plan_hash", "stats"]

COLLECTIVE_OP_TYPES = ("HorovodAllreduce", "HorovodAllgather", "HorovodBroadcast", "HorovodAlltoall",
                       "HorovodBucketStart")
REDUCE_OPS = ("sum", "average", "min", "max", "product")
_ENGINE_OP = {"sum": "sum", "average": "sum", "min": "min", "max": "max", "product": "prod"}
_ALLOWED = (dtypes.uint8, dtypes.int8, dtypes.uint16, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.float16,
            dtypes.float32, dtypes.float64, dtypes.bool_)
_NOT_INITIALIZED = "Horovod has not been initialized; use hvd.init()."

_state = {"backend": None, "deterministic": False}
# Seconds the running thread spent blocked in HorovodBucketWait (communication not hidden by overlap).
stats = {"bucket_wait_seconds": 0.0}
_plan_hashes = weakref.WeakKeyDictionary()  # graph -> (number of ops when hashed, hash)


def set_backend(backend, deterministic=False):
    """Installs the communication backend the collective kernels use (None uninstalls it).

    Args:
      backend: A `tensorweave.distribute.engine.Backend`, or None.
      deterministic: Whether all-reduce sums add the ranks' values in rank order.
    """
    _state["backend"] = backend
    _state["deterministic"] = bool(deterministic)


def get_backend():
    """The installed backend, or None."""
    return _state["backend"]


def _backend(op):
    b = _state["backend"]
    if b is None:
        raise errors.FailedPreconditionError(None, op, _NOT_INITIALIZED)
    return b


def _graph_backend():
    """The installed backend, for graph construction: a ValueError when there is none."""
    b = _state["backend"]
    if b is None:
        raise ValueError(_NOT_INITIALIZED)
    return b


# ---- the plan check ----------------------------------------------------------------------------
def plan_hash(graph):
    """A 63-bit hash of `graph`'s collective ops (name, type, dtype, shape, attributes, creation order)."""
    n = len(graph._ops)
    cached = _plan_hashes.get(graph)
    if cached is not None and cached[0] == n:
        return cached[1]
    h = hashlib.sha256()
    for op in graph._ops:
        if op._type in COLLECTIVE_OP_TYPES:
            inputs = [(t._dtype.name, t._shape.as_tuple()) for t in op._inputs]
            attrs = sorted((k, repr(v)) for k, v in op._attrs.items() if not k.startswith("_"))
            h.update(repr((op._name, op._type, inputs, attrs)).encode())
    value = int.from_bytes(h.digest()[:8], "little") >> 1
    _plan_hashes[graph] = (n, value)
    return value


def _check_plan(ctx, op, backend):
    graph = op._graph
    if graph is None or graph._eager or backend.size == 1:
        return
    value = plan_hash(graph)
    key = ("horovod_plan", id(graph))
    if ctx.op_state.get(key) == value:
        return
    hashes = [int(h) for h in _run(op, lambda: backend.allgather_ints([value]))[:, 0]]
    differ = [r for r, h in enumerate(hashes) if h != hashes[0]]
    if differ:
        raise errors.FailedPreconditionError(
            None, op, "Horovod ranks built different graphs: the collective ops (plan hash %#x on rank 0) differ on "
            "rank(s) %s (hashes %s); every rank must build the same collectives in the same order"
            % (hashes[0], ", ".join(map(str, differ)), ", ".join("%#x" % hashes[r] for r in differ)))
    ctx.op_state[key] = value


def _run(op, fn):
    try:
        return fn()
    except errors.OpError:
        raise
    except (ValueError, TypeError) as e:
        raise errors.InvalidArgumentError(None, op, "%s: %s" % (op._type, e)) from e
    except RuntimeError as e:
        raise errors.UnavailableError(None, op, "%s: %s" % (op._type, e)) from e


def _check_dtype(op_type, t):
    if t._dtype not in _ALLOWED:
        raise TypeError("Value for attr 'T' of %s is not in the list of allowed values: %s; got %s"
                        % (op_type, ", ".join(d.name for d in _ALLOWED), t._dtype.name))


def _same_infer(op):
    _check_dtype(op._type, op._inputs[0])
    return core_ops.same_as_input(op)


# ---- HorovodAllreduce ------------------------------------------------------------------------
def _allreduce_kernel(ctx, op, x, reduce_op, prescale_factor, postscale_factor):
    b = _backend(op)
    _check_plan(ctx, op, b)
    x = np.asarray(x)
    if prescale_factor != 1.0:
        x = (x * prescale_factor).astype(x.dtype)
    out = _run(op, lambda: b.allreduce(x, _ENGINE_OP[reduce_op], _state["deterministic"]))
    if reduce_op == "average":
        out = (out // b.size if out.dtype.kind in "iu" else out / b.size).astype(x.dtype) if out.dtype.kind != "b" \
            else out
    if postscale_factor != 1.0:
        out = (out * postscale_factor).astype(x.dtype)
    return np.asarray(out, x.dtype).reshape(x.shape)


def _allreduce_grad(op, grad):
    return [allreduce(grad, op._attrs["reduce_op"], op._attrs["prescale_factor"], op._attrs["postscale_factor"])]


register_op("HorovodAllreduce", infer=_same_infer, kernel=_allreduce_kernel, grad=_allreduce_grad, stateful=True)


def allreduce(tensor, reduce_op="sum", prescale_factor=1.0, postscale_factor=1.0, name=None):
    """An op that reduces `tensor` over all the processes, as Horovod's `HorovodAllreduce`.

    Args:
      tensor: A tensor of the same shape and dtype on every process.
      reduce_op: "sum", "average", "min", "max" or "product". Integer averages round down.
      prescale_factor: Multiplies the tensor before the reduction.
      postscale_factor: Multiplies the result.
      name: A name for the operation (optional).

    Returns:
      A tensor of the same shape and dtype, the reduction over the processes.

    Raises:
      ValueError: If `reduce_op` is unknown.
      TypeError: If the dtype is not supported.
    """
    if reduce_op not in REDUCE_OPS:
        raise ValueError("reduce_op must be one of %s, got %r" % (", ".join(REDUCE_OPS), reduce_op))
    t = ops.convert_to_tensor(tensor)
    attrs = {"reduce_op": reduce_op, "prescale_factor": float(prescale_factor),
             "postscale_factor": float(postscale_factor)}
    return ops.apply_op("HorovodAllreduce", [t], attrs, name=name or "HorovodAllreduce")


# ---- HorovodAllgather ------------------------------------------------------------------------
def _allgather_infer(op):
    t = op._inputs[0]
    _check_dtype(op._type, t)
    shape = t._shape.as_tuple()
    if shape is None:
        return [(t._dtype, None)]
    if len(shape) == 0:
        raise ValueError("HorovodAllgather needs a tensor of rank >= 1 (its rows are gathered), got a scalar")
    b = _state["backend"]
    first = shape[0] if (b is not None and b.size == 1) else None
    return [(t._dtype, (first,) + tuple(shape[1:]))]


def _allgather_kernel(ctx, op, x):
    b = _backend(op)
    x = np.asarray(x)
    if x.ndim == 0:
        raise errors.InvalidArgumentError(None, op, "HorovodAllgather needs a tensor of rank >= 1, got a scalar")
    _check_plan(ctx, op, b)
    return _run(op, lambda: b.allgather(x))


def _allgather_grad(op, grad):
    b = _graph_backend()
    summed = allreduce(grad, "sum")
    x = op._inputs[0]
    rows = array_shape_ops.reshape(core_ops.shape(x, out_type=dtypes.int64)[0], [1])
    all_rows = allgather(rows)
    offset = math_reduce_ops.reduce_sum(all_rows[:b.rank])
    index = array_shape_ops.range(offset, offset + all_rows[b.rank])
    return [array_gather_ops.gather(summed, index)]


register_op("HorovodAllgather", infer=_allgather_infer, kernel=_allgather_kernel, grad=_allgather_grad, stateful=True)


def allgather(tensor, name=None):
    """An op that concatenates `tensor` from every process along dimension 0, in rank order, as
    Horovod's `HorovodAllgather`.

    Args:
      tensor: A tensor of rank >= 1; its first dimension may differ between processes.
      name: A name for the operation (optional).

    Returns:
      A tensor of the same dtype whose first dimension is the sum of the processes' first dimensions.

    Raises:
      ValueError: If `tensor` is a scalar.
      TypeError: If the dtype is not supported.
    """
    t = ops.convert_to_tensor(tensor)
    return ops.apply_op("HorovodAllgather", [t], {}, name=name or "HorovodAllgather")


# ---- HorovodBroadcast ------------------------------------------------------------------------
def _broadcast_kernel(ctx, op, x, root_rank):
    b = _backend(op)
    if not 0 <= root_rank < b.size:
        raise errors.InvalidArgumentError(None, op, "HorovodBroadcast: root_rank %d is not in [0, %d)"
                                          % (root_rank, b.size))
    _check_plan(ctx, op, b)
    x = np.asarray(x)
    return _run(op, lambda: b.broadcast(x, root_rank))


def _broadcast_grad(op, grad):
    b = _graph_backend()
    summed = allreduce(grad, "sum")
    if b.rank != op._attrs["root_rank"]:
        return [core_ops.zeros_like(summed)]
    return [summed]


register_op("HorovodBroadcast", infer=_same_infer, kernel=_broadcast_kernel, grad=_broadcast_grad, stateful=True)


def broadcast(tensor, root_rank, name=None):
    """An op that gives every process rank `root_rank`'s value of `tensor`, as Horovod's `HorovodBroadcast`.

    Args:
      tensor: A tensor of the same shape and dtype on every process.
      root_rank: The rank whose value is sent.
      name: A name for the operation (optional).

    Returns:
      A tensor of the same shape and dtype holding the root's value.

    Raises:
      ValueError: If `root_rank` is negative.
      TypeError: If the dtype is not supported.
    """
    root_rank = int(root_rank)
    if root_rank < 0:
        raise ValueError("root_rank must be >= 0, got %d" % root_rank)
    t = ops.convert_to_tensor(tensor)
    return ops.apply_op("HorovodBroadcast", [t], {"root_rank": root_rank}, name=name or "HorovodBroadcast")


# ---- HorovodAlltoall -------------------------------------------------------------------------
def _alltoall_infer(op):
    t, splits = op._inputs
    _check_dtype(op._type, t)
    if splits._dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("HorovodAlltoall: splits must be int32 or int64, got %s" % splits._dtype.name)
    if splits._shape.ndims not in (None, 1):
        raise ValueError("HorovodAlltoall: splits must be a vector, got shape %s" % (splits._shape,))
    shape = t._shape.as_tuple()
    if shape is not None and len(shape) == 0:
        raise ValueError("HorovodAlltoall needs a tensor of rank >= 1 (its rows are sent), got a scalar")
    b = _state["backend"]
    n = b.size if b is not None else None
    out = None if shape is None else (shape[0] if n == 1 else None,) + tuple(shape[1:])
    return [(t._dtype, out), (dtypes.int32, (n,))]


def _alltoall_kernel(ctx, op, x, splits):
    b = _backend(op)
    x, splits = np.asarray(x), np.asarray(splits)
    if x.ndim == 0:
        raise errors.InvalidArgumentError(None, op, "HorovodAlltoall needs a tensor of rank >= 1, got a scalar")
    if splits.shape != (b.size,):
        raise errors.InvalidArgumentError(None, op, "HorovodAlltoall: splits must have one entry per rank (%d), got "
                                          "shape %s" % (b.size, splits.shape))
    if (splits < 0).any() or int(splits.sum()) != x.shape[0]:
        raise errors.InvalidArgumentError(None, op, "HorovodAlltoall: splits %s must be non-negative and sum to the "
                                          "first dimension %d" % (splits.tolist(), x.shape[0]))
    _check_plan(ctx, op, b)
    out, received = _run(op, lambda: b.alltoall(x, splits))
    return out, received.astype(np.int32)


def _alltoall_grad(op, grad, grad_splits):
    back, _ = alltoall(grad, splits=op.outputs[1])
    return [back, None]


register_op("HorovodAlltoall", infer=_alltoall_infer, kernel=_alltoall_kernel, grad=_alltoall_grad, stateful=True)


def alltoall(tensor, splits=None, name=None):
    """An op that sends consecutive row blocks of `tensor` to every process and gathers what they
    send, as Horovod's `HorovodAlltoall`.

    Args:
      tensor: A tensor of rank >= 1.
      splits: An int32/int64 vector with one entry per process: how many rows (in order) go to each.
        Default: the first dimension split evenly (it must be divisible by the number of processes).
      name: A name for the operation (optional).

    Returns:
      A tuple `(received, received_splits)`: the received rows concatenated in rank order, and how
      many rows came from each process (int32).

    Raises:
      ValueError: If `tensor` is a scalar or `splits` is not a vector.
      TypeError: If a dtype is not supported.
    """
    t = ops.convert_to_tensor(tensor)
    if splits is None:
        b = _graph_backend()
        rows = core_ops.shape(t, out_type=dtypes.int32)[0]
        splits = array_shape_ops.fill([b.size], rows // b.size)
    splits = ops.convert_to_tensor(splits)
    out, received = ops.apply_op("HorovodAlltoall", [t, splits], {}, name=name or "HorovodAlltoall")
    return out, received


# ---- overlapped all-reduce: HorovodBucketStart / HorovodBucketWait ------------------------------
DEFAULT_BUCKET_BYTES = 25 * 2 ** 20
_in_flight = {}  # handle -> the Future of a started bucket all-reduce
_in_flight_lock = threading.Lock()
_tokens = itertools.count()


def _bucket_start_infer(op):
    for t in op._inputs:
        _check_dtype(op._type, t)
    if len({t._dtype for t in op._inputs}) != 1:
        raise TypeError("HorovodBucketStart: the tensors of one bucket must share a dtype, got %s"
                        % ", ".join(sorted({t._dtype.name for t in op._inputs})))
    return [(dtypes.int64, ())]


def _bucket_start_kernel(ctx, op, *tensors, reduce_op):
    b = _backend(op)
    _check_plan(ctx, op, b)
    flat = np.concatenate([np.asarray(t).reshape(-1) for t in tensors]) if tensors else np.zeros(0)
    future = b.allreduce_async(flat, _ENGINE_OP[reduce_op], _state["deterministic"])
    with _in_flight_lock:
        token = next(_tokens)
        _in_flight[token] = future
    return np.array(token, np.int64)


register_op("HorovodBucketStart", infer=_bucket_start_infer, kernel=_bucket_start_kernel, grad=NO_GRADIENT,
            stateful=True)


def _bucket_wait_infer(op):
    return [(t._dtype, t._shape.as_tuple()) for t in op._inputs[1:]]


def _bucket_wait_kernel(ctx, op, token, *tensors, reduce_op):
    b = _backend(op)
    with _in_flight_lock:
        future = _in_flight.pop(int(token), None)
    if future is None:
        raise errors.FailedPreconditionError(None, op, "HorovodBucketWait: no all-reduce in flight for handle %d"
                                             % int(token))
    start = time.monotonic()
    flat = _run(op, future.result)
    stats["bucket_wait_seconds"] += time.monotonic() - start
    if reduce_op == "average":
        flat = (flat // b.size if flat.dtype.kind in "iu" else flat / b.size).astype(flat.dtype)
    out, at = [], 0
    for t in tensors:
        t = np.asarray(t)
        out.append(flat[at:at + t.size].reshape(t.shape))
        at += t.size
    return out[0] if len(out) == 1 else tuple(out)


register_op("HorovodBucketWait", infer=_bucket_wait_infer, kernel=_bucket_wait_kernel, grad=NO_GRADIENT,
            stateful=True)


def bucketed_allreduce(tensors, reduce_op="average", bucket_bytes=DEFAULT_BUCKET_BYTES, name=None):
    """All-reduces dense `tensors` in buckets that overlap with the computation (PyTorch DDP's scheme).

    The tensors are taken in reverse order (gradients of the last layers exist first in a backward
    pass) and grouped into buckets of at most `bucket_bytes` (a larger tensor is a bucket of its own;
    a dtype change starts a new bucket). Each bucket's `HorovodBucketStart` needs only that
    bucket's tensors, so the plan runs it as soon as the last of them exists; it hands the
    all-reduce to the communication thread. `HorovodBucketWait` ops, which wait for every bucket
    to have started, return the results. Buckets are fixed here, at graph construction, so every
    rank issues the same collectives in the same order.

    Args:
      tensors: Dense tensors (None entries are passed through).
      reduce_op: "average", "sum", "min", "max" or "product".
      bucket_bytes: The bucket size limit in bytes.
      name: A name scope (optional).

    Returns:
      The reduced tensors, in the order of `tensors`.

    Raises:
      ValueError: If `reduce_op` is unknown or `bucket_bytes` is not positive.
    """
    if reduce_op not in REDUCE_OPS:
        raise ValueError("reduce_op must be one of %s, got %r" % (", ".join(REDUCE_OPS), reduce_op))
    if bucket_bytes <= 0:
        raise ValueError("bucket_bytes must be positive, got %r" % (bucket_bytes,))
    tensors = [None if t is None else ops.convert_to_tensor(t) for t in tensors]
    buckets, current, size, dtype = [], [], 0, None
    for i in reversed(range(len(tensors))):
        t = tensors[i]
        if t is None:
            continue
        n = t._shape.num_elements() if t._shape.is_fully_defined() else 0
        nbytes = n * t._dtype.size
        if current and (t._dtype != dtype or size + nbytes > bucket_bytes):
            buckets.append(current)
            current, size = [], 0
        current.append(i)
        size += nbytes
        dtype = t._dtype
    if current:
        buckets.append(current)
    out = list(tensors)
    with ops.name_scope(name, "HorovodBuckets"):
        starts = [ops.apply_op("HorovodBucketStart", [tensors[i] for i in bucket], {"reduce_op": reduce_op},
                               name="HorovodBucketStart_%d" % k) for k, bucket in enumerate(buckets)]
        for k, bucket in enumerate(buckets):
            # Every wait comes after every start: the plan runs the starts among the backward ops
            # and the waits at the end, before the updates.
            with ops.control_dependencies([s.op for s in starts]):
                reduced = ops.apply_op("HorovodBucketWait", [starts[k]] + [tensors[i] for i in bucket],
                                       {"reduce_op": reduce_op}, name="HorovodBucketWait_%d" % k)
            if not isinstance(reduced, list):
                reduced = [reduced]
            for i, r in zip(bucket, reduced):
                out[i] = r
    return out
