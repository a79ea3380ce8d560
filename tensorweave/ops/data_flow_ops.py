"""Queues (TF's `data_flow_ops`): the "FIFOQueueV2", "RandomShuffleQueueV2", "PaddingFIFOQueueV2" and
"PriorityQueueV2" handle ops, the "QueueEnqueueV2"/"QueueEnqueueManyV2"/"QueueDequeueV2"/
"QueueDequeueManyV2"/"QueueDequeueUpToV2"/"QueueCloseV2"/"QueueSizeV2"/"QueueIsClosedV2" ops on them,
and the Python classes `QueueBase`, `FIFOQueue`, `RandomShuffleQueue`, `PaddingFIFOQueue`,
`PriorityQueue`.

A queue lives in the state of whoever runs its handle op (`ctx.op_state`, keyed by the op, or by
`shared_name`), so two Sessions on one graph have independent queues, as TF's resources. The handle
is a resource scalar whose value is the queue object itself. The queue's operations block across
threads: a dequeue waits for an enqueue run by another thread's `Session.run`, until the run's
deadline (`RunOptions.timeout_in_ms` or `ConfigProto.operation_timeout_in_ms`, read from
`ctx.deadline`: DeadlineExceededError), until the queue is closed (OutOfRangeError when too few
elements remain) or until the Session closes (CancelledError). Attempts are served in arrival order
(the first pending dequeue gets the first elements), and a `dequeue_many(n)` takes elements as they
arrive, so `n` may exceed the capacity, as in TF.
"""

import collections
import heapq
import itertools
import threading
import time

import numpy as np

from ..framework import dtypes as dtypes_lib
from ..framework import errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape, as_shape, unknown_shape
from . import random_ops

__all__ = ["QueueBase", "FIFOQueue", "RandomShuffleQueue", "PaddingFIFOQueue", "PriorityQueue"]

_COUNT_KEY = ("tf.queue", "count")
_uid = itertools.count()


# ---- the queue state ---------------------------------------------------------------------------------
def _fmt_shape(shape):
    return "[%s]" % ",".join("?" if d is None else str(d) for d in shape)


class _Attempt:
    __slots__ = ("items", "cancelled")

    def __init__(self, items=None):
        self.items = items
        self.cancelled = False


class _QueueState:
    """A running queue: its elements (tuples of arrays), pending attempts, closed flag."""

    kind = "FIFOQueue"

    def __init__(self, name, types, shapes, capacity, **kw):
        self.name = name
        self.types = types  # DTypes
        self.shapes = shapes  # tuple per component (None dims allowed), or None when unknown
        self.capacity = capacity
        self._cond = threading.Condition()
        self._enq = collections.deque()
        self._deq = collections.deque()
        self._closed = False
        self._cancelled = False
        self._init_storage(**kw)

    # storage
    def _init_storage(self):
        self._items = collections.deque()

    def __len__(self):
        return len(self._items)

    def _put(self, element):
        self._items.append(element)

    def _can_take(self):
        return len(self._items) > 0

    def _take(self):
        return self._items.popleft()

    def _put_back(self, elements):
        self._items.extendleft(reversed(elements))

    # session shutdown: every pending attempt fails
    def close(self):
        with self._cond:
            self._cancelled = True
            self._cond.notify_all()

    def close_queue(self, cancel_pending_enqueues):
        with self._cond:
            self._closed = True
            if cancel_pending_enqueues:
                for a in self._enq:
                    a.cancelled = True
            self._cond.notify_all()

    def is_closed(self):
        return self._closed

    def size(self):
        with self._cond:
            return len(self)

    def _wait(self, deadline, op):
        if deadline is None:
            self._cond.wait()
            return
        left = deadline - time.monotonic()
        if left <= 0 or (not self._cond.wait(left) and time.monotonic() >= deadline):
            raise errors.DeadlineExceededError(None, op, "Timed out waiting for notification")

    def _room(self):
        return self.capacity < 0 or len(self) < self.capacity

    def enqueue(self, elements, deadline, op):
        with self._cond:
            if self._closed:
                raise errors.CancelledError(None, op, "%s '%s' is closed." % (self.kind, self.name))
            att = _Attempt(collections.deque(elements))
            self._enq.append(att)
            try:
                while True:
                    if self._cancelled or att.cancelled:
                        raise errors.CancelledError(None, op, "Enqueue operation was cancelled")
                    if self._enq[0] is att:
                        moved = False
                        while att.items and self._room():
                            self._put(att.items.popleft())
                            moved = True
                        if moved:
                            self._cond.notify_all()
                        if not att.items:
                            return
                    self._wait(deadline, op)
            finally:
                self._enq.remove(att)
                self._cond.notify_all()

    def dequeue(self, n, allow_smaller, deadline, op):
        """Up to `n` elements (exactly `n` unless `allow_smaller`), in a list."""
        with self._cond:
            att = _Attempt([])
            self._deq.append(att)
            done = False
            try:
                while True:
                    if self._cancelled:
                        raise errors.CancelledError(None, op, "Dequeue operation was cancelled")
                    if self._deq[0] is att:
                        moved = False
                        while len(att.items) < n and self._can_take():
                            att.items.append(self._take())
                            moved = True
                        if moved:
                            self._cond.notify_all()
                        if len(att.items) == n:
                            done = True
                            return att.items
                        if self._closed and not self._enq:
                            if allow_smaller and att.items:
                                done = True
                                return att.items
                            self._put_back(att.items)
                            att.items = []
                            raise errors.OutOfRangeError(
                                None, op, "%s '%s' is closed and has insufficient elements (requested %d, current "
                                "size %d)" % (self.kind, self.name, n, len(self)))
                    self._wait(deadline, op)
            finally:
                if not done and att.items:
                    self._put_back(att.items)
                self._deq.remove(att)
                self._cond.notify_all()

    # batching of dequeued elements
    def batch(self, elements, op):
        out = []
        for i, dt in enumerate(self.types):
            shape = None if self.shapes is None else self.shapes[i]
            if shape is None or any(d is None for d in shape):
                raise errors.InvalidArgumentError(None, op, "%s's DequeueMany and DequeueUpTo require the components "
                                                  "to have specified shapes." % self.kind)
            out.append(_stack([e[i] for e in elements], shape, dt))
        return out


def _stack(arrays, shape, dt):
    if not arrays:
        return np.empty((0,) + tuple(shape), dt.as_numpy_dtype)
    return np.stack(arrays)


class _RandomShuffleState(_QueueState):
    kind = "RandomShuffleQueue"

    def _init_storage(self, min_after_dequeue=0, seed=0, seed2=0):
        self._items = []
        self.min_after_dequeue = min_after_dequeue
        if seed == 0 and seed2 == 0:
            self._rng = np.random.RandomState()
        else:
            self._rng = np.random.RandomState([seed & 0xFFFFFFFF, seed2 & 0xFFFFFFFF])

    def _put(self, element):
        self._items.append(element)

    def _can_take(self):
        return len(self._items) > (0 if self._closed else self.min_after_dequeue)

    def _take(self):
        i = self._rng.randint(len(self._items))
        items = self._items
        items[i], items[-1] = items[-1], items[i]
        return items.pop()

    def _put_back(self, elements):
        self._items.extend(elements)


class _PaddingFIFOState(_QueueState):
    kind = "PaddingFIFOQueue"

    def batch(self, elements, op):
        out = []
        for i, dt in enumerate(self.types):
            comps = [e[i] for e in elements]
            shape = self.shapes[i]
            if not comps:
                out.append(np.empty((0,) + tuple(0 if d is None else d for d in shape), dt.as_numpy_dtype))
                continue
            full = tuple(max(c.shape[k] for c in comps) for k in range(len(shape)))
            fill = b"" if dt is dtypes_lib.string else 0
            a = np.full((len(comps),) + full, fill, dtype=dt.as_numpy_dtype)
            for j, c in enumerate(comps):
                a[(j,) + tuple(slice(0, s) for s in c.shape)] = c
            out.append(a)
        return out


class _PriorityState(_QueueState):
    kind = "PriorityQueue"

    def __init__(self, name, types, shapes, capacity):
        # The int64 scalar priority is component 0 (TF's kernel prepends it to `component_types`).
        shapes = [()] + (list(shapes) if shapes else [None] * len(types))
        super().__init__(name, [dtypes_lib.int64] + list(types), shapes, capacity)

    def _init_storage(self):
        self._items = []
        self._seq = itertools.count()

    def _put(self, element):
        heapq.heappush(self._items, (int(element[0]), next(self._seq), element))

    def _take(self):
        return heapq.heappop(self._items)[2]

    def _put_back(self, elements):
        for e in elements:
            self._put(e)


# ---- the handle ops ---------------------------------------------------------------------------------------
def _handle_value(q):
    a = np.empty((), dtype=object)
    a[()] = q
    return a


def _shared_resource(ctx, op, key, make, check_closed=True):
    """The resource stored under `key` in `ctx.op_state`, made by `make()` (under `ctx.lock`) when absent.

    With `check_closed`, raises CancelledError instead of making one once the session is closed (a
    thread racing `Session.close`)."""
    r = ctx.op_state.get(key)
    if r is None:
        session = getattr(ctx, "session", None) if check_closed else None
        if session is not None and getattr(session, "_closed", False):
            raise errors.CancelledError(None, op, "Session has been closed.")
        with ctx.lock:
            r = ctx.op_state.get(key)
            if r is None:
                r = ctx.op_state[key] = make()
    return r


def _resource_handle_kernel(key_prefix, cls):
    """The kernel of a resource's handle op `(container, shared_name) -> handle`: the `cls(name)`
    shared under `key_prefix + (container, shared_name)` when `shared_name` is set, else the op's own."""
    def kernel(ctx, op, container, shared_name):
        key = key_prefix + (container, shared_name) if shared_name else op
        return _handle_value(_shared_resource(ctx, op, key, lambda: cls(shared_name or op.name), check_closed=False))
    return kernel


def _queue_of(handle, op):
    q = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(q, _QueueState):
        raise errors.InvalidArgumentError(None, op, "Input is not a queue handle")
    return q


def _make_handle_kernel(cls, **extra_attrs):
    def kernel(ctx, op, component_types, shapes, capacity, container, shared_name, **kw):
        key = ("tf.queue.shared", container, shared_name) if shared_name else op

        def make():
            n = ctx.op_state.get(_COUNT_KEY, 0)
            ctx.op_state[_COUNT_KEY] = n + 1
            q = cls("_%d_%s" % (n, shared_name or op.name), list(component_types),
                    [tuple(s) for s in shapes] if shapes else None, capacity, **kw)
            q.component_types = list(component_types)
            return q
        q = ctx.op_state.get(key)
        if q is None:
            q = _shared_resource(ctx, op, key, make)
        elif q.component_types != list(component_types):
            raise errors.InvalidArgumentError(None, op, "Shared queue '%s' has component types %s that do not match "
                                              "those requested: %s" % (shared_name, [t.name for t in q.component_types],
                                                                       [t.name for t in component_types]))
        return _handle_value(q)
    return kernel


def _handle_infer(op):
    return [(dtypes_lib.resource, ())]


register_op("FIFOQueueV2", infer=_handle_infer, kernel=_make_handle_kernel(_QueueState), grad=NO_GRADIENT,
            stateful=True)
register_op("PaddingFIFOQueueV2", infer=_handle_infer, kernel=_make_handle_kernel(_PaddingFIFOState),
            grad=NO_GRADIENT, stateful=True)
register_op("PriorityQueueV2", infer=_handle_infer, kernel=_make_handle_kernel(_PriorityState), grad=NO_GRADIENT,
            stateful=True)
register_op("RandomShuffleQueueV2", infer=_handle_infer, kernel=_make_handle_kernel(_RandomShuffleState),
            grad=NO_GRADIENT, stateful=True)


def _deadline(ctx):
    return getattr(ctx, "deadline", None)


# ---- enqueue ---------------------------------------------------------------------------------------------
def _check_component(q, i, a, op, many, batch_size=None):
    dt = q.types[i]
    if a.dtype != dt.as_numpy_dtype and not (dt is dtypes_lib.string and a.dtype == object):
        raise errors.InvalidArgumentError(None, op, "Type mismatch in tuple component %d: expected %s" % (i, dt.name))
    shape = None if q.shapes is None else q.shapes[i]
    got = a.shape[1:] if many else a.shape
    batch = batch_size if many else None
    if shape is not None and (len(got) != len(shape) or any(d is not None and d != s for d, s in zip(shape, got))
                              or (many and a.shape[0] != batch)):
        want = ((batch,) if many else ()) + tuple(shape)
        raise errors.InvalidArgumentError(None, op, "Shape mismatch in tuple component %d. Expected %s, got %s"
                                          % (i, _fmt_shape(want), _fmt_shape(a.shape)))


def _owned(a, dtype):
    return np.array(a, dtype=dtype, copy=True)  # (a bytes element of a string batch stays an object array)


def _enqueue_kernel(ctx, op, handle, *components, Tcomponents, timeout_ms):  # noqa: N803 (TF's attr name)
    q = _queue_of(handle, op)
    for i, a in enumerate(components):
        _check_component(q, i, a, op, False)
    q.enqueue([tuple(_owned(a, a.dtype) for a in components)], _deadline(ctx), op)


def _enqueue_many_kernel(ctx, op, handle, *components, Tcomponents, timeout_ms):  # noqa: N803
    q = _queue_of(handle, op)
    for i, a in enumerate(components):
        if a.ndim == 0:
            raise errors.InvalidArgumentError(None, op, "Shape mismatch in tuple component %d. Expected [?], got []"
                                              % i)
        if (q.shapes is None or None in q.shapes) and a.shape[0] != components[0].shape[0]:
            raise errors.InvalidArgumentError(
                None, op, "All input tensors must have the same size in the 0th dimension. Component %d has %d, and "
                "should have %d" % (i, a.shape[0], components[0].shape[0]))
        _check_component(q, i, a, op, True, components[0].shape[0])
    n = components[0].shape[0] if components else 0
    q.enqueue([tuple(_owned(a[j], a.dtype) for a in components) for j in range(n)], _deadline(ctx), op)


register_op("QueueEnqueueV2", infer=lambda op: [], kernel=_enqueue_kernel, grad=NO_GRADIENT, stateful=True)
register_op("QueueEnqueueManyV2", infer=lambda op: [], kernel=_enqueue_many_kernel, grad=NO_GRADIENT, stateful=True)


# ---- dequeue ---------------------------------------------------------------------------------------------
def _dequeue_infer(op):
    types = op._attrs["component_types"]
    shapes = op._attrs.get("_output_shapes") or [None] * len(types)  # (TF sets them on the outputs)
    return [(dt, shape) for dt, shape in zip(types, shapes)]


def _result(values):
    return values[0] if len(values) == 1 else tuple(values)


def _dequeue_kernel(ctx, op, handle, component_types, timeout_ms):
    q = _queue_of(handle, op)
    (element,) = q.dequeue(1, False, _deadline(ctx), op)
    return _result(list(element))


def _dequeue_many_kernel(allow_smaller):
    def kernel(ctx, op, handle, n, component_types, timeout_ms):
        q = _queue_of(handle, op)
        n = int(n)
        if n < 0:
            raise errors.InvalidArgumentError(None, op, "%s requested %d < 0 elements"
                                              % ("DequeueUpToOp" if allow_smaller else "DequeueManyOp", n))
        if q.kind != "PaddingFIFOQueue":
            q.batch([], op)  # components need fully defined shapes
        return _result(q.batch(q.dequeue(n, allow_smaller, _deadline(ctx), op), op))
    return kernel


register_op("QueueDequeueV2", infer=_dequeue_infer, kernel=_dequeue_kernel, grad=NO_GRADIENT, stateful=True)
register_op("QueueDequeueManyV2", infer=_dequeue_infer, kernel=_dequeue_many_kernel(False), grad=NO_GRADIENT,
            stateful=True)
register_op("QueueDequeueUpToV2", infer=_dequeue_infer, kernel=_dequeue_many_kernel(True), grad=NO_GRADIENT,
            stateful=True)


# ---- close, size, is_closed ---------------------------------------------------------------------------
def _close_kernel(ctx, op, handle, cancel_pending_enqueues):
    _queue_of(handle, op).close_queue(cancel_pending_enqueues)


register_op("QueueCloseV2", infer=lambda op: [], kernel=_close_kernel, grad=NO_GRADIENT, stateful=True)
register_op("QueueSizeV2", infer=lambda op: [(dtypes_lib.int32, ())],
            kernel=lambda ctx, op, handle: np.int32(_queue_of(handle, op).size()), grad=NO_GRADIENT, stateful=True)
register_op("QueueIsClosedV2", infer=lambda op: [(dtypes_lib.bool_, ())],
            kernel=lambda ctx, op, handle: np.bool_(_queue_of(handle, op).is_closed()), grad=NO_GRADIENT,
            stateful=True)


# ---- the Python classes ----------------------------------------------------------------------------------
def _as_type_list(dtypes):
    if isinstance(dtypes, (list, tuple)):
        return [dtypes_lib.as_dtype(d) for d in dtypes]
    return [dtypes_lib.as_dtype(dtypes)]


def _as_shape_list(shapes, dtypes, unknown_dim_allowed=False, unknown_rank_allowed=False):
    """TF's `_as_shape_list`: a TensorShape per component, or unknown shapes when `shapes` is None."""
    del unknown_rank_allowed
    if shapes is None:
        return None
    if isinstance(shapes, TensorShape):
        shapes = [shapes]
    if not isinstance(shapes, (tuple, list)):
        raise TypeError("Shapes must be a list of shapes, got %r" % (shapes,))
    if all(s is None or isinstance(s, int) for s in shapes):
        shapes = [shapes]
    shapes = [as_shape(s) for s in shapes]
    if not unknown_dim_allowed and any(not s.is_fully_defined() for s in shapes):
        raise ValueError("All shapes must be fully defined: %s" % shapes)
    return shapes


def _shape_common(s1, s2):
    """The most specific shape compatible with both."""
    s1, s2 = as_shape(s1), as_shape(s2)
    if s1.ndims is None or s2.ndims is None or s1.ndims != s2.ndims:
        return unknown_shape()
    return TensorShape([d1 if d1 == d2 else None for d1, d2 in zip(s1.as_list(), s2.as_list())])


class QueueBase:
    """Base class for queue implementations (TF's `tf.queue.QueueBase`).

    A queue is a TensorFlow data structure that stores tensors across multiple steps, and exposes
    operations that enqueue and dequeue tensors. Each queue element is a tuple of one or more
    tensors, each with a fixed dtype and (possibly unknown) shape. Enqueue and dequeue ops block
    across threads until the queue has room or enough elements, the run's timeout expires, or the
    queue is closed.

    Args:
      dtypes: A list of types. The length of dtypes must equal the number of tensors in each element.
      shapes: Constraints on the shapes of tensors in an element: a list of shape tuples or None.
      names: Optional list of names; if given, elements are dictionaries keyed by them.
      queue_ref: The queue reference, i.e. the output of the queue op.

    Raises:
      ValueError: If one of the arguments is invalid.
    """

    def __init__(self, dtypes, shapes, names, queue_ref):
        self._dtypes = dtypes
        if shapes is not None:
            if len(shapes) != len(dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes")
            self._shapes = [as_shape(s) for s in shapes]
        else:
            self._shapes = [unknown_shape() for _ in self._dtypes]
        if names is not None:
            if len(names) != len(dtypes):
                raise ValueError("Queue names must have the same length as dtypes")
            self._names = names
        else:
            self._names = None
        self._queue_ref = queue_ref
        self._name = self._queue_ref.op.name.split("/")[-1]

    @staticmethod
    def from_list(index, queues):
        """Creates a queue using the queue reference from `queues[index]`.

        Args:
          index: An integer scalar tensor that determines the input that gets selected.
          queues: A list of `QueueBase` objects.

        Returns:
          A `QueueBase` object.

        Raises:
          TypeError: When `queues` is not a list of `QueueBase` objects, or when the data types of
            `queues` are not all the same.
        """
        if not queues or not isinstance(queues, list) or not all(isinstance(x, QueueBase) for x in queues):
            raise TypeError("A list of queues expected")
        dtypes = queues[0].dtypes
        if not all(dtypes == q.dtypes for q in queues[1:]):
            raise TypeError("Queues do not have matching component dtypes.")
        names = queues[0].names
        if not all(names == q.names for q in queues[1:]):
            raise TypeError("Queues do not have matching component names.")
        queue_shapes = [q.shapes for q in queues]
        reduced_shapes = [_reduce(s) for s in zip(*queue_shapes)]
        from . import array_ops
        queue_refs = array_ops.stack([x.queue_ref for x in queues])
        selected_queue = array_ops.gather(queue_refs, index)
        return QueueBase(dtypes=dtypes, shapes=reduced_shapes, names=names, queue_ref=selected_queue)

    @property
    def queue_ref(self):
        """The underlying queue reference."""
        return self._queue_ref

    @property
    def name(self):
        """The name of the underlying queue."""
        return self._queue_ref.op.name

    @property
    def dtypes(self):
        """The list of dtypes for each component of a queue element."""
        return self._dtypes

    @property
    def shapes(self):
        """The list of shapes for each component of a queue element."""
        return self._shapes

    @property
    def names(self):
        """The list of names for each component of a queue element."""
        return self._names

    def _check_enqueue_dtypes(self, vals):
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
                raise ValueError("Keys in dictionary to enqueue do not match names of Queue.  Dictionary: %s,Queue: "
                                 "%s" % (sorted(vals.keys()), sorted(self._names)))
            vals = [vals[k] for k in self._names]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if not isinstance(vals, (list, tuple)):
                vals = [vals]
        tensors = []
        for i, (val, dtype) in enumerate(zip(vals, self._dtypes)):
            try:
                tensors.append(ops.convert_to_tensor(val, dtype=dtype, name="component_%d" % i))
            except ValueError as e:
                raise ValueError("component_%d: %s" % (i, e)) from None
        if len(vals) < len(self._dtypes):  # (extra values are ignored, as TF's zip does)
            raise ValueError("Expected %d components, got %d" % (len(self._dtypes), len(vals)))
        return tensors

    def _scope_vals(self, vals):
        if isinstance(vals, (list, tuple)):
            return vals
        if isinstance(vals, dict):
            return list(vals.values())
        return [vals]

    def enqueue(self, vals, name=None):
        """Enqueues one element to this queue.

        If the queue is full when this operation executes, it will block until the element has
        been enqueued. If the queue is closed before or while it waits, it fails with CancelledError.

        Args:
          vals: A tensor, a list or tuple of tensors, or a dictionary containing the values to enqueue.
          name: A name for the operation (optional).

        Returns:
          The operation that enqueues a new tuple of tensors to the queue.
        """
        with ops.name_scope(name, "%s_enqueue" % self._name, self._scope_vals(vals)) as scope:
            vals = self._check_enqueue_dtypes(vals)
            for val, shape in zip(vals, self._shapes):
                val.get_shape().assert_is_compatible_with(shape)
            return _apply("QueueEnqueueV2", [self._queue_ref] + vals,
                          {"Tcomponents": [v.dtype for v in vals], "timeout_ms": -1}, scope)

    def enqueue_many(self, vals, name=None):
        """Enqueues zero or more elements to this queue, slicing each component along dimension 0.

        Args:
          vals: A tensor, a list or tuple of tensors, or a dictionary from which the queue elements
            are taken (all with the same size in dimension 0).
          name: A name for the operation (optional).

        Returns:
          The operation that enqueues a batch of tuples of tensors to the queue.
        """
        with ops.name_scope(name, "%s_EnqueueMany" % self._name, self._scope_vals(vals)) as scope:
            vals = self._check_enqueue_dtypes(vals)
            batch_dim = TensorShape([None])
            for val, shape in zip(vals, self._shapes):
                val_shape = val.get_shape().with_rank_at_least(1)
                if val_shape.ndims is not None:
                    dims = val_shape.as_list()
                    batch_dim = batch_dim.merge_with(TensorShape(dims[:1]))
                    TensorShape(dims[1:]).assert_is_compatible_with(shape)
            return _apply("QueueEnqueueManyV2", [self._queue_ref] + vals,
                          {"Tcomponents": [v.dtype for v in vals], "timeout_ms": -1}, scope)

    def _dequeue_return_value(self, tensors):
        if isinstance(tensors, ops.Tensor):
            tensors = [tensors]
        tensors = list(tensors)
        if self._names:
            return {n: t for n, t in zip(self._names, tensors)}
        if len(tensors) == 1:
            return tensors[0]
        return tensors

    def _dequeue(self, op_type, inputs, shapes, name):
        return _apply(op_type, [self._queue_ref] + inputs,
                      {"component_types": list(self._dtypes), "timeout_ms": -1,
                       "_output_shapes": [s.as_tuple() for s in shapes]}, name)

    def dequeue(self, name=None):
        """Dequeues one element from this queue.

        If the queue is empty when this operation executes, it will block until there is an
        element to dequeue. If the queue is closed and empty, it fails with OutOfRangeError.

        Args:
          name: A name for the operation (optional).

        Returns:
          The tuple of tensors that was dequeued.
        """
        if name is None:
            name = "%s_Dequeue" % self._name
        return self._dequeue_return_value(self._dequeue("QueueDequeueV2", [], self._shapes, name))

    def dequeue_many(self, n, name=None):
        """Dequeues and concatenates `n` elements from this queue.

        This operation concatenates queue-element component tensors along the 0th dimension to make
        a single component tensor. If the queue is closed and there are fewer than `n` elements
        left, it fails with OutOfRangeError (the elements stay in the queue).

        Args:
          n: A scalar `Tensor` containing the number of elements to dequeue.
          name: A name for the operation (optional).

        Returns:
          The list of concatenated tensors that was dequeued.
        """
        if name is None:
            name = "%s_DequeueMany" % self._name
        n = ops.convert_to_tensor(n, dtype=dtypes_lib.int32, name="n")
        from ..framework import tensor_util
        batch = tensor_util.constant_value(n)
        batch = None if batch is None else int(batch)
        shapes = [TensorShape([batch]).concatenate(s) for s in self._shapes]
        return self._dequeue_return_value(self._dequeue("QueueDequeueManyV2", [n], shapes, name))

    def dequeue_up_to(self, n, name=None):
        """Dequeues and concatenates `n` elements from this queue, or fewer once it is closed.

        If the queue is closed and there are more than 0 but fewer than `n` elements remaining,
        those are returned instead of failing with OutOfRangeError as `dequeue_many` does.

        Args:
          n: A scalar `Tensor` containing the number of elements to dequeue.
          name: A name for the operation (optional).

        Returns:
          The tuple of concatenated tensors that was dequeued.
        """
        if name is None:
            name = "%s_DequeueUpTo" % self._name
        n = ops.convert_to_tensor(n, dtype=dtypes_lib.int32, name="n")
        shapes = [TensorShape([None]).concatenate(s) for s in self._shapes]
        return self._dequeue_return_value(self._dequeue("QueueDequeueUpToV2", [n], shapes, name))

    def close(self, cancel_pending_enqueues=False, name=None):
        """Closes this queue.

        Later enqueue operations fail; pending enqueues are cancelled if `cancel_pending_enqueues`.
        Later dequeue operations succeed while enough elements remain, then fail with OutOfRangeError.

        Args:
          cancel_pending_enqueues: (Optional.) A boolean, defaulting to `False`.
          name: A name for the operation (optional).

        Returns:
          The operation that closes the queue.
        """
        if name is None:
            name = "%s_Close" % self._name
        return _apply("QueueCloseV2", [self._queue_ref], {"cancel_pending_enqueues": bool(cancel_pending_enqueues)},
                      name)

    def is_closed(self, name=None):
        """Returns a boolean scalar tensor: whether the queue is closed.

        Args:
          name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_Is_Closed" % self._name
        return _apply("QueueIsClosedV2", [self._queue_ref], {}, name)

    def size(self, name=None):
        """Computes the number of elements in this queue (an int32 scalar tensor).

        Args:
          name: A name for the operation (optional).
        """
        if name is None:
            name = "%s_Size" % self._name
        return _apply("QueueSizeV2", [self._queue_ref], {}, name)


def _reduce(shapes):
    out = shapes[0]
    for s in shapes[1:]:
        out = _shape_common(out, s)
    return out


def _apply(op_type, inputs, attrs, name):
    return ops.apply_op(op_type, inputs, attrs, name=name)


def _queue_op(op_type, types, shapes, capacity, shared_name, name, **attrs):
    a = {"component_types": types, "shapes": [s.as_tuple() for s in shapes] if shapes else [],
         "capacity": int(capacity), "container": "", "shared_name": shared_name or ""}
    a.update(attrs)
    if ops.get_default_graph()._eager:
        a["_uid"] = next(_uid)  # an eager op's state is keyed by its attributes: one state per queue
    return ops.apply_op(op_type, [], a, name=name)


class FIFOQueue(QueueBase):
    """A queue implementation that dequeues elements in first-in first-out order.

    Args:
      capacity: An integer. The upper bound on the number of elements that may be stored in this queue.
      dtypes: A list of `DType` objects, one per component of a queue element.
      shapes: (Optional.) A list of fully-defined `TensorShape` objects, one per component.
      names: (Optional.) A list of strings naming the components (elements are then dictionaries).
      shared_name: (Optional.) If non-empty, this queue will be shared under the given name across
        the queue ops of one Session.
      name: Optional name for the queue operation.

    Raises:
      ValueError: If a shape is not fully defined, or the lengths of dtypes, shapes and names differ.
    """

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        queue_ref = _queue_op("FIFOQueueV2", dtypes, shapes, capacity, shared_name, name)
        super().__init__(dtypes, shapes, names, queue_ref)


class PaddingFIFOQueue(QueueBase):
    """A FIFOQueue that supports batching variable-sized tensors by padding.

    `dequeue_many` pads each component to the largest size in the batch along every dimension the
    queue's shape leaves unknown (zeros, or empty strings).

    Args:
      capacity: An integer. The upper bound on the number of elements that may be stored in this queue.
      dtypes: A list of `DType` objects, one per component of a queue element.
      shapes: A list of `TensorShape` objects of known rank (dimensions may be None), one per component.
      names: (Optional.) A list of strings naming the components.
      shared_name: (Optional.) If non-empty, this queue will be shared under the given name.
      name: Optional name for the queue operation.

    Raises:
      ValueError: If shapes is not a list of shapes, or the lengths of dtypes and shapes do not match,
        or if names is specified and the lengths of dtypes and names do not match.
    """

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes, unknown_dim_allowed=True)
        names = _as_name_list(names, dtypes)
        if len(dtypes) != len(shapes):
            raise ValueError("Shapes must be provided for all components, but received %d dtypes and %d shapes."
                             % (len(dtypes), len(shapes)))
        if any(s.ndims is None for s in shapes):
            raise ValueError("PaddingFIFOQueue requires shapes of known rank: %s" % shapes)
        queue_ref = _queue_op("PaddingFIFOQueueV2", dtypes, shapes, capacity, shared_name, name)
        super().__init__(dtypes, shapes, names, queue_ref)


class PriorityQueue(QueueBase):
    """A queue implementation that dequeues elements in prioritized order.

    Each element's first component is an int64 scalar priority (prepended to `types`); elements
    with lower priority values are dequeued first (equal priorities in insertion order).

    Args:
      capacity: An integer. The upper bound on the number of elements that may be stored in this queue.
      types: A list of `DType` objects, one per component of a queue element (priority excluded).
      shapes: (Optional.) A list of fully-defined `TensorShape` objects, one per component.
      names: (Optional.) A list of strings naming the components (priority excluded).
      shared_name: (Optional.) If non-empty, this queue will be shared under the given name.
      name: Optional name for the queue operation.
    """

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None, name="priority_queue"):
        types = _as_type_list(types)
        shapes = _as_shape_list(shapes, types)
        queue_ref = _queue_op("PriorityQueueV2", types, shapes, capacity, shared_name, name)
        priority_dtypes = [dtypes_lib.int64] + types
        priority_shapes = [()] + shapes if shapes else shapes
        super().__init__(priority_dtypes, priority_shapes, names, queue_ref)


class RandomShuffleQueue(QueueBase):
    """A queue implementation that dequeues elements in a random order.

    A dequeue waits while the queue holds `min_after_dequeue` elements or fewer (so that the
    remaining elements stay well mixed), unless the queue is closed.

    Args:
      capacity: An integer. The upper bound on the number of elements that may be stored in this queue.
      min_after_dequeue: An integer: the minimum number of elements left after a dequeue.
      dtypes: A list of `DType` objects, one per component of a queue element.
      shapes: (Optional.) A list of fully-defined `TensorShape` objects, one per component.
      names: (Optional.) A list of strings naming the components.
      seed: A Python integer, used with the graph-level seed (see `tf.set_random_seed`).
      shared_name: (Optional.) If non-empty, this queue will be shared under the given name.
      name: Optional name for the queue operation.
    """

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None, shared_name=None,
                 name="random_shuffle_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, dtypes)
        names = _as_name_list(names, dtypes)
        seed1, seed2 = random_ops.get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            # This means that graph seed is provided but op seed is not provided. If shared_name is
            # also provided, make seed2 depend only on the queue name (TF does the same).
            import zlib
            seed2 = zlib.crc32(shared_name.encode()) & 0x7FFFFFFF
        queue_ref = _queue_op("RandomShuffleQueueV2", dtypes, shapes, capacity, shared_name, name,
                              min_after_dequeue=int(min_after_dequeue), seed=int(seed1), seed2=int(seed2))
        super().__init__(dtypes, shapes, names, queue_ref)


def _as_name_list(names, dtypes):
    if names is None:
        return None
    if not isinstance(names, (list, tuple)):
        names = [names]
    if len(names) != len(dtypes):
        raise ValueError("List of names must have the same length as the list of dtypes")
    return list(names)

