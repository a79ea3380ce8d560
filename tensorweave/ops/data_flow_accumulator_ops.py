"""Gradient accumulators (TF's `data_flow_ops` accumulators): `ConditionalAccumulator` ("ResourceConditional-
Accumulator" and the "ResourceAccumulator*" ops) and `SparseConditionalAccumulator`
("SparseConditionalAccumulator", "SparseAccumulatorApplyGradient", "SparseAccumulatorTakeGradient",
"AccumulatorNumAccumulated", "AccumulatorSetGlobalStep").

An accumulator aggregates gradients applied with a `local_step` no older than its global step (stale ones
are dropped); `take_grad(n)` blocks (across threads, until the run's deadline) until `n` gradients were
applied, returns their mean (or sum), resets the aggregate and increments the global step. Its state lives
in the Session, as a queue's does (tensorweave/ops/data_flow_ops.py).
"""

import collections
import threading
import time

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.indexed_slices import IndexedSlices
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import as_shape, unknown_shape
from . import data_flow_ops

__all__ = ["ConditionalAccumulator", "ConditionalAccumulatorBase", "SparseConditionalAccumulator"]

_ALLOWED = (dtypes.float16, dtypes.float32, dtypes.float64)


def _fmt(shape):
    return "[%s]" % ",".join("?" if d is None else str(d) for d in shape)


class _AccumulatorState:
    """A running accumulator: the aggregate, how many gradients it holds, the global step."""

    def __init__(self, name, dtype, shape, reduction_type):
        self.name = name
        self.dtype = dtype
        self.shape = shape  # tuple (None dims allowed) or None
        self.mean = reduction_type == "MEAN"
        self.cond = threading.Condition()
        self.count = 0
        self.global_step = 0
        self.cancelled = False
        self._reset()

    def _reset(self):
        self.total = None

    def close(self):
        """Session shutdown: pending takes fail."""
        with self.cond:
            self.cancelled = True
            self.cond.notify_all()

    def _check_shape(self, got, op):
        want = self.shape
        if want is not None and (len(want) != len(got) or any(w is not None and w != g for w, g in zip(want, got))):
            raise errors.InvalidArgumentError(None, op, "Shape mismatch: expected %s, got %s" % (_fmt(want), _fmt(got)))

    def apply(self, local_step, grad, op):
        with self.cond:
            if local_step < self.global_step:
                return  # a stale gradient is dropped (TF logs it)
            self._check_shape(grad.shape, op)
            if self.total is None:
                self.total = grad.astype(self.dtype.as_numpy_dtype, copy=True)
            else:
                if grad.shape != self.total.shape:
                    raise errors.InvalidArgumentError(None, op, "Shape mismatch: expected %s, got %s"
                                                      % (_fmt(self.total.shape), _fmt(grad.shape)))
                self.total += grad
            self.count += 1
            self.cond.notify_all()

    def _result(self):
        out = self.total / self.total.dtype.type(self.count) if self.mean else self.total
        return out.astype(self.dtype.as_numpy_dtype, copy=False)

    def take(self, num_required, deadline, op):
        if num_required < 1:
            raise errors.InvalidArgumentError(None, op, "Argument num_required must be positive, but was %d"
                                              % num_required)
        with self.cond:
            while self.count < num_required:
                if self.cancelled:
                    raise errors.CancelledError(None, op, "TakeGrad operation was cancelled")
                if deadline is None:
                    self.cond.wait()
                else:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise errors.DeadlineExceededError(None, op, "Timed out waiting for notification")
                    self.cond.wait(left)
            out = self._result()
            self._reset()
            self.count = 0
            self.global_step += 1
            return out

    def set_global_step(self, step):
        with self.cond:
            self.global_step = step

    def num_accumulated(self):
        with self.cond:
            return self.count


class _SparseAccumulatorState(_AccumulatorState):
    """Sums (and counts) gradient rows per index, in order of first appearance."""

    def _reset(self):
        self.rows = collections.OrderedDict()  # index -> [sum, count]
        self.dense_shape = None
        self.total = None

    def apply_sparse(self, local_step, indices, values, shape, op):
        with self.cond:
            if local_step < self.global_step:
                return
            if self.shape is not None and len(self.shape) > 1:
                want = self.shape[1:]
                got = values.shape[1:]
                for k, (w, g) in enumerate(zip(want, got)):
                    if w is not None and w != g:
                        raise errors.InvalidArgumentError(
                            None, op, "Shape mismatch: expected values dim %d to be %d, got %d" % (k + 1, w, g))
            if indices.shape[0] != values.shape[0]:
                raise errors.InvalidArgumentError(None, op, "Shape mismatch: expected %d values for %d indices, got "
                                                  "%d" % (indices.shape[0], indices.shape[0], values.shape[0]))
            for i, v in zip(indices.tolist(), values):
                row = self.rows.get(i)
                if row is None:
                    self.rows[i] = [v.astype(self.dtype.as_numpy_dtype, copy=True), 1]
                else:
                    row[0] = row[0] + v
                    row[1] += 1
            if shape is not None and shape.size:
                self.dense_shape = shape.astype(np.int64)
            self.count += 1
            self.cond.notify_all()

    def _result(self):
        idx = np.array(list(self.rows), dtype=np.int64)
        npdt = self.dtype.as_numpy_dtype
        if self.rows:
            vals = np.stack([s / npdt(c) if self.mean else s for s, c in self.rows.values()]).astype(npdt)
        else:
            tail = tuple(0 if d is None else d for d in (self.shape or (None, 0))[1:])
            vals = np.zeros((0,) + tail, npdt)
        if self.dense_shape is not None:
            shape = self.dense_shape
        elif self.shape is not None and all(d is not None for d in self.shape):
            shape = np.array(self.shape, np.int64)
        else:
            shape = np.array([-1] + list(vals.shape[1:]), np.int64)
        return idx, vals, shape


# ---- ops -------------------------------------------------------------------------------------------------
def _make_kernel(cls):
    def kernel(ctx, op, dtype, shape, container, shared_name, reduction_type):
        key = ("tf.accumulator.shared", container, shared_name) if shared_name else op
        acc = data_flow_ops._shared_resource(
            ctx, op, key, lambda: cls(shared_name or op.name, dtype, shape, reduction_type))
        return data_flow_ops._handle_value(acc)
    return kernel


def _handle_infer(op):
    if op._attrs["dtype"] not in _ALLOWED:
        raise TypeError("Value passed to parameter 'dtype' has DataType %s not in list of allowed values: float16, "
                        "float32, float64" % op._attrs["dtype"].name)
    return [(dtypes.resource, ())]


def _acc_of(handle, op):
    a = handle[()] if isinstance(handle, np.ndarray) else handle
    if not isinstance(a, _AccumulatorState):
        raise errors.InvalidArgumentError(None, op, "Input is not an accumulator handle")
    return a


def _deadline(ctx):
    return getattr(ctx, "deadline", None)


register_op("ResourceConditionalAccumulator", infer=_handle_infer, kernel=_make_kernel(_AccumulatorState),
            grad=NO_GRADIENT, stateful=True)
register_op("SparseConditionalAccumulator", infer=_handle_infer, kernel=_make_kernel(_SparseAccumulatorState),
            grad=NO_GRADIENT, stateful=True)


def _apply_kernel(ctx, op, handle, local_step, gradient, dtype):
    _acc_of(handle, op).apply(int(local_step), gradient, op)


def _take_infer(op):
    return [(op._attrs["dtype"], op._attrs.get("_shape"))]


def _take_kernel(ctx, op, handle, num_required, dtype):
    return _acc_of(handle, op).take(int(num_required), _deadline(ctx), op)


def _sparse_apply_kernel(ctx, op, handle, local_step, indices, values, shape, dtype, has_known_shape):
    _acc_of(handle, op).apply_sparse(int(local_step), indices.reshape(-1), values, shape if has_known_shape else None,
                                     op)


def _sparse_take_infer(op):
    return [(dtypes.int64, (None,)), (op._attrs["dtype"], None), (dtypes.int64, (None,))]


def _sparse_take_kernel(ctx, op, handle, num_required, dtype):
    return _acc_of(handle, op).take(int(num_required), _deadline(ctx), op)


def _num_kernel(ctx, op, handle):
    return np.int32(_acc_of(handle, op).num_accumulated())


def _set_step_kernel(ctx, op, handle, new_global_step):
    _acc_of(handle, op).set_global_step(int(new_global_step))


register_op("ResourceAccumulatorApplyGradient", infer=lambda op: [], kernel=_apply_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("ResourceAccumulatorTakeGradient", infer=_take_infer, kernel=_take_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("ResourceAccumulatorNumAccumulated", infer=lambda op: [(dtypes.int32, ())], kernel=_num_kernel,
            grad=NO_GRADIENT, stateful=True)
register_op("ResourceAccumulatorSetGlobalStep", infer=lambda op: [], kernel=_set_step_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("SparseAccumulatorApplyGradient", infer=lambda op: [], kernel=_sparse_apply_kernel, grad=NO_GRADIENT,
            stateful=True)
register_op("SparseAccumulatorTakeGradient", infer=_sparse_take_infer, kernel=_sparse_take_kernel,
            grad=NO_GRADIENT, stateful=True)
register_op("AccumulatorNumAccumulated", infer=lambda op: [(dtypes.int32, ())], kernel=_num_kernel,
            grad=NO_GRADIENT, stateful=True)
register_op("AccumulatorSetGlobalStep", infer=lambda op: [], kernel=_set_step_kernel, grad=NO_GRADIENT,
            stateful=True)


# ---- classes ---------------------------------------------------------------------------------------------
def _accumulator_op(op_type, dtype, shape, shared_name, name, reduction_type):
    if reduction_type not in ("MEAN", "SUM"):
        raise ValueError("Attr 'reduction_type' of '%s' Op passed string '%s' not in: \"MEAN\", \"SUM\"."
                         % (op_type, reduction_type))
    attrs = {"dtype": dtypes.as_dtype(dtype), "shape": shape.as_tuple(), "container": "",
             "shared_name": shared_name or "", "reduction_type": reduction_type}
    if ops.get_default_graph()._eager:
        attrs["_uid"] = next(data_flow_ops._uid)
    return ops.apply_op(op_type, [], attrs, name=name)


class ConditionalAccumulatorBase:
    """A conditional accumulator for aggregating gradients.

    Up-to-date gradients (i.e., time step at which gradient was computed is equal to the
    accumulator's time step) are added to the accumulator. Extraction of the average gradient is
    blocked until the required number of gradients has been accumulated.

    Args:
      dtype: Datatype of the accumulated gradients.
      shape: Shape of the accumulated gradients.
      accumulator_ref: A handle to the conditional accumulator, created by subclasses.
    """

    def __init__(self, dtype, shape, accumulator_ref):
        self._dtype = dtype
        self._shape = as_shape(shape) if shape is not None else unknown_shape()
        self._accumulator_ref = accumulator_ref
        self._name = self._accumulator_ref.op.name.split("/")[-1]

    @property
    def accumulator_ref(self):
        """The underlying accumulator reference."""
        return self._accumulator_ref

    @property
    def name(self):
        """The name of the underlying accumulator."""
        return self._name

    @property
    def dtype(self):
        """The datatype of the gradients accumulated by this accumulator."""
        return self._dtype

    def _op(self, op_type, inputs, name, attrs=None):
        return ops.apply_op(op_type, [self._accumulator_ref] + inputs, attrs or {}, name=name)

    def num_accumulated(self, name=None):
        """Number of gradients that have currently been aggregated in accumulator.

        Args:
          name: Optional name for the operation.

        Returns:
          Number of accumulated gradients currently in accumulator (an int32 scalar tensor).
        """
        if name is None:
            name = "%s_NumAccumulated" % self._name
        return self._op(self._num_type, [], name)

    def set_global_step(self, new_global_step, name=None):
        """Sets the global time step of the accumulator.

        The operation logs a warning if we attempt to set to a time step that is lower than the
        accumulator's own time step.

        Args:
          new_global_step: Value of new time step. Can be a variable or a constant.
          name: Optional name for the operation.

        Returns:
          Operation that sets the accumulator's time step.
        """
        step = ops.convert_to_tensor(new_global_step, dtype=dtypes.int64, name="new_global_step")
        return self._op(self._set_step_type, [step], name or self._set_step_type)


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """A conditional accumulator for aggregating dense gradients.

    Args:
      dtype: Datatype of the accumulated gradients (float16, float32 or float64).
      shape: Shape of the accumulated gradients.
      shared_name: Optional. If non-empty, this accumulator will be shared under the given name
        across the accumulator ops of one Session.
      name: Optional name for the accumulator.
      reduction_type: Reduction type to use when taking the gradient: "MEAN" or "SUM".

    Raises:
      ValueError: If `reduction_type` is neither "MEAN" nor "SUM".
    """

    _num_type = "ResourceAccumulatorNumAccumulated"
    _set_step_type = "ResourceAccumulatorSetGlobalStep"

    def __init__(self, dtype, shape=None, shared_name=None, name="conditional_accumulator", reduction_type="MEAN"):
        shape = as_shape(shape) if shape is not None else unknown_shape()
        ref = _accumulator_op("ResourceConditionalAccumulator", dtype, shape, shared_name, name, reduction_type)
        super().__init__(dtypes.as_dtype(dtype), shape, ref)

    def apply_grad(self, grad, local_step=0, name=None):
        """Attempts to apply a gradient to the accumulator.

        The attempt is silently dropped if the gradient is stale, i.e., local_step is less than the
        accumulator's global time step.

        Args:
          grad: The gradient tensor to be applied.
          local_step: Time step at which the gradient was computed.
          name: Optional name for the operation.

        Returns:
          The operation that (conditionally) applies a gradient to the accumulator.

        Raises:
          ValueError: If grad is of the wrong shape.
        """
        grad = ops.convert_to_tensor(grad, self._dtype)
        grad.get_shape().assert_is_compatible_with(self._shape)
        local_step = ops.convert_to_tensor(local_step, dtype=dtypes.int64, name="local_step")
        return self._op("ResourceAccumulatorApplyGradient", [local_step, grad], name or
                        "ResourceAccumulatorApplyGradient", {"dtype": self._dtype})

    def take_grad(self, num_required, name=None):
        """Attempts to extract the average gradient from the accumulator.

        The operation blocks until sufficient number of gradients have been successfully applied to
        the accumulator. Once successful, the counter of accumulated gradients and the aggregate are
        reset, and the accumulator's internal time step is incremented by 1.

        Args:
          num_required: Number of gradients that needs to have been aggregated.
          name: Optional name for the operation.

        Returns:
          A tensor holding the value of the average gradient.

        Raises:
          InvalidArgumentError: If num_required < 1 (when run).
        """
        n = ops.convert_to_tensor(num_required, dtype=dtypes.int32, name="num_required")
        return self._op("ResourceAccumulatorTakeGradient", [n], name or "ResourceAccumulatorTakeGradient",
                        {"dtype": self._dtype, "_shape": self._shape.as_tuple()})


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """A conditional accumulator for aggregating sparse gradients.

    Sparse gradients are represented by `IndexedSlices` (or indices, values and an optional dense
    shape). Up-to-date gradients are added to the accumulator; `take_grad` returns, for each index
    any gradient contained, the mean (or sum) of that index's rows over the gradients that had it.

    Args:
      dtype: Datatype of the accumulated gradients (float16, float32 or float64).
      shape: Shape of the accumulated gradients.
      shared_name: Optional. If non-empty, this accumulator will be shared under the given name.
      name: Optional name for the accumulator.
      reduction_type: Reduction type to use when taking the gradient: "MEAN" or "SUM".
    """

    _num_type = "AccumulatorNumAccumulated"
    _set_step_type = "AccumulatorSetGlobalStep"

    def __init__(self, dtype, shape=None, shared_name=None, name="sparse_conditional_accumulator",
                 reduction_type="MEAN"):
        shape = as_shape(shape) if shape is not None else unknown_shape()
        ref = _accumulator_op("SparseConditionalAccumulator", dtype, shape, shared_name, name, reduction_type)
        super().__init__(dtypes.as_dtype(dtype), shape, ref)

    def apply_indexed_slices_grad(self, grad, local_step=0, name=None):
        """Attempts to apply a gradient (an `IndexedSlices`) to the accumulator.

        Args:
          grad: The gradient `IndexedSlices` to be applied.
          local_step: Time step at which the gradient was computed.
          name: Optional name for the operation.

        Returns:
          The operation that (conditionally) applies a gradient to the accumulator.
        """
        return self.apply_grad(grad_indices=grad.indices, grad_values=grad.values, grad_shape=grad.dense_shape,
                               local_step=local_step, name=name)

    def apply_grad(self, grad_indices, grad_values, grad_shape=None, local_step=0, name=None):
        """Attempts to apply a sparse gradient to the accumulator.

        The attempt is silently dropped if the gradient is stale, i.e., `local_step` is less than the
        accumulator's global time step.

        Args:
          grad_indices: Indices of the sparse gradient to be applied.
          grad_values: Values of the sparse gradient to be applied.
          grad_shape: Shape of the sparse gradient to be applied.
          local_step: Time step at which the gradient was computed.
          name: Optional name for the operation.

        Returns:
          The operation that (conditionally) applies a gradient to the accumulator.
        """
        local_step = ops.convert_to_tensor(local_step, dtype=dtypes.int64, name="local_step")
        indices = ops.convert_to_tensor(grad_indices, dtype=dtypes.int64, name="gradient_indices")
        values = ops.convert_to_tensor(grad_values, dtype=self._dtype, name="gradient_values")
        known = grad_shape is not None
        shape = ops.convert_to_tensor(grad_shape if known else np.zeros([0], np.int64), dtype=dtypes.int64,
                                      name="gradient_shape")
        return self._op("SparseAccumulatorApplyGradient", [local_step, indices, values, shape],
                        name or "SparseAccumulatorApplyGradient", {"dtype": self._dtype, "has_known_shape": known})

    def take_grad(self, num_required, name=None):
        """Attempts to extract the average gradient from the accumulator.

        The operation blocks until sufficient number of gradients have been successfully applied to
        the accumulator; then the aggregate is reset and the global time step incremented by 1.

        Args:
          num_required: Number of gradients that needs to have been aggregated.
          name: Optional name for the operation.

        Returns:
          A tuple of indices, values, and shape representing the average gradient.
        """
        n = ops.convert_to_tensor(num_required, dtype=dtypes.int32, name="num_required")
        return _SparseTake(*self._op("SparseAccumulatorTakeGradient", [n], name or "SparseAccumulatorTakeGradient",
                                     {"dtype": self._dtype}))

    def take_indexed_slices_grad(self, num_required, name=None):
        """Attempts to extract the average gradient from the accumulator, as an `IndexedSlices`.

        Args:
          num_required: Number of gradients that needs to have been aggregated.
          name: Optional name for the operation.

        Returns:
          An `IndexedSlices` holding the value of the average gradient.
        """
        indices, values, shape = self.take_grad(num_required, name)
        return IndexedSlices(indices=indices, values=values, dense_shape=shape)


_SparseTake = collections.namedtuple("SparseAccumulatorTakeGradient", ["indices", "values", "shape"])
