"""Loss scaling for mixed-precision training (TF 1.15's `tf.train.experimental`): `LossScale`,
`FixedLossScale`, `DynamicLossScale`, `MixedPrecisionLossScaleOptimizer` and
`enable_mixed_precision_graph_rewrite`.

A loss scale multiplies the loss before differentiation and divides the gradients after, so small
float16 gradients do not underflow. The dynamic scale halves when a step's gradients are not finite
(that step is skipped) and doubles after `increment_period` finite steps.
"""

import numbers

from ..eager.context import init_scope
from ..framework import dtypes, ops
from ..framework.indexed_slices import IndexedSlices
from ..ops import core_ops
from ..ops.nest import flatten
from .optimizer import Optimizer

__all__ = ["DynamicLossScale", "FixedLossScale", "LossScale", "MixedPrecisionLossScaleOptimizer",
           "disable_mixed_precision_graph_rewrite", "enable_mixed_precision_graph_rewrite", "get"]


class LossScale:
    """The base class of loss scales: `loss_scale()` is the current scale (a float32 scalar tensor) and
    `update(grads)` returns `(update_op, should_apply_gradients)`."""

    def __call__(self):
        """The current loss scale as a float32 scalar tensor."""
        raise NotImplementedError

    def update(self, grads):
        """Updates the scale from the step's (scaled) gradients.

        Args:
          grads: A nested structure of gradient tensors (None entries ignored).

        Returns:
          `(update_op, should_apply_gradients)`: the op updating the scale, and a boolean (tensor)
          telling whether the gradients may be applied.
        """
        raise NotImplementedError

    def get_config(self):
        """The constructor arguments of this loss scale, as a dict."""
        raise NotImplementedError

    @classmethod
    def from_config(cls, config):
        """Creates a loss scale from `get_config()`'s dict."""
        return cls(**config)


class FixedLossScale(LossScale):
    """A loss scale that never changes.

    Args:
      loss_scale_value: The scale (a Python number >= 1).

    Raises:
      ValueError: If it is not a Python number or is below 1.
    """

    def __init__(self, loss_scale_value):
        if not isinstance(loss_scale_value, numbers.Real) or isinstance(loss_scale_value, bool):
            raise ValueError("loss_scale_value must be a Python int or float.")
        if loss_scale_value < 1:
            raise ValueError("loss_scale_value must be at least 1.")
        self._loss_scale_value = float(loss_scale_value)

    def __call__(self):
        from ..framework import constant_op
        return constant_op.constant(self._loss_scale_value, dtype=dtypes.float32)

    def update(self, grads):
        del grads
        return core_ops.no_op(), True

    def get_config(self):
        return {"loss_scale_value": self._loss_scale_value}

    def __repr__(self):
        return "FixedLossScale(%s)" % self._loss_scale_value


def _is_all_finite(grads):
    from ..ops import array_ops, math_ops
    finite = [math_ops.reduce_all(math_ops.is_finite(g.values if isinstance(g, IndexedSlices) else g))
              for g in grads if g is not None]
    return math_ops.reduce_all(array_ops.stack(finite) if finite else True)


class DynamicLossScale(LossScale):
    """A loss scale that halves (by `multiplier`) on non-finite gradients and grows by `multiplier` after
    `increment_period` steps of finite gradients. Its state is two non-trainable variables,
    `current_loss_scale` and `good_steps`, created with the object.

    Args:
      initial_loss_scale: The first scale.
      increment_period: How many finite steps before the scale grows.
      multiplier: The factor of growth and shrinkage.
    """

    def __init__(self, initial_loss_scale=2 ** 15, increment_period=2000, multiplier=2.0):
        from ..variables import Variable
        self._initial_loss_scale = float(initial_loss_scale)
        self._increment_period = int(increment_period)
        self._multiplier = float(multiplier)
        with init_scope():
            self._current_loss_scale = Variable(self._initial_loss_scale, name="current_loss_scale",
                                                dtype=dtypes.float32, trainable=False)
            self._num_good_steps = Variable(0, name="good_steps", dtype=dtypes.int64, trainable=False)

    @property
    def initial_loss_scale(self):
        return self._initial_loss_scale

    @property
    def increment_period(self):
        return self._increment_period

    @property
    def multiplier(self):
        return self._multiplier

    def __call__(self):
        return self._current_loss_scale.read_value()

    def update(self, grads):
        from ..ops import array_ops, control_flow_ops, math_ops, state_ops
        is_finite = _is_all_finite(flatten(grads))
        scale, good = self._current_loss_scale, self._num_good_steps

        def finite():
            def grow():
                new = scale * self._multiplier
                keep = array_ops.where(math_ops.is_finite(new), new, scale)
                return core_ops.group(state_ops.assign(scale, keep), state_ops.assign(good, 0))

            def count():
                return core_ops.group(state_ops.assign_add(good, 1))

            return control_flow_ops.cond(good + 1 >= self._increment_period, grow, count)

        def not_finite():
            new = math_ops.maximum(scale / self._multiplier, 1.0)
            return core_ops.group(state_ops.assign(good, 0), state_ops.assign(scale, new))

        update_op = control_flow_ops.cond(is_finite, finite, not_finite)
        return update_op, is_finite

    def get_config(self):
        return {"initial_loss_scale": self._initial_loss_scale, "increment_period": self._increment_period,
                "multiplier": self._multiplier}


def get(identifier):
    """A loss scale from `identifier`: a LossScale, a number (FixedLossScale), "dynamic" or None.

    Raises:
      ValueError: For anything else.
    """
    if isinstance(identifier, numbers.Real) and not isinstance(identifier, bool):
        return FixedLossScale(identifier)
    if identifier == "dynamic":
        return DynamicLossScale()
    if isinstance(identifier, LossScale) or identifier is None:
        return identifier
    raise ValueError("Could not interpret loss scale identifier: %s" % identifier)


class MixedPrecisionLossScaleOptimizer(Optimizer):
    """An optimizer wrapping another with loss scaling: `compute_gradients` scales the loss and unscales
    the gradients; `apply_gradients` applies them only when they are all finite, and updates the scale.

    Args:
      opt: The wrapped `tf.train.Optimizer`.
      loss_scale: A `LossScale`, a number (fixed scale) or "dynamic".

    Raises:
      ValueError: If `opt` is not an Optimizer or `loss_scale` is None or invalid.
    """

    def __init__(self, opt, loss_scale):
        if not isinstance(opt, Optimizer):
            raise ValueError('"opt" must be an instance of Optimizer, but got: %s' % type(opt))
        self._optimizer = opt
        super().__init__(opt._use_locking, opt.get_name())
        self._loss_scale = get(loss_scale)
        if self._loss_scale is None:
            raise ValueError("loss_scale cannot be None")

    def _scale_loss(self, loss):
        from ..ops import math_ops
        scale = self._loss_scale()
        if callable(loss):
            return lambda: math_ops.multiply(loss(), math_ops.cast(scale, loss().dtype))
        loss = ops.convert_to_tensor(loss)
        return math_ops.multiply(loss, math_ops.cast(scale, loss.dtype))

    def _unscale_grads(self, grads):
        from ..ops import math_ops
        scale = self._loss_scale()
        out = []
        for g in grads:
            if g is None:
                out.append(None)
            elif isinstance(g, IndexedSlices):
                inv = math_ops.reciprocal(math_ops.cast(scale, g.values.dtype))
                out.append(IndexedSlices(g.values * inv, g.indices, g.dense_shape))
            else:
                out.append(g * math_ops.reciprocal(math_ops.cast(scale, g.dtype)))
        return out

    def compute_gradients(self, loss, var_list=None, gate_gradients=Optimizer.GATE_OP, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """The wrapped optimizer's gradients of the scaled loss, divided by the scale.

        Returns:
          A list of (gradient, variable) pairs.
        """
        pairs = self._optimizer.compute_gradients(self._scale_loss(loss), var_list=var_list,
                                                  gate_gradients=gate_gradients,
                                                  aggregation_method=aggregation_method,
                                                  colocate_gradients_with_ops=colocate_gradients_with_ops,
                                                  grad_loss=grad_loss)
        grads = self._unscale_grads([g for g, _ in pairs])
        return list(zip(grads, [v for _, v in pairs]))

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients with the wrapped optimizer when all are finite, and updates the loss scale.

        Returns:
          An op grouping the (conditional) update and the loss-scale update.
        """
        from ..ops import control_flow_ops
        grads_and_vars = tuple(grads_and_vars)
        update_scale, should_apply = self._loss_scale.update([g for g, _ in grads_and_vars])
        name = name or self._name
        if isinstance(should_apply, bool):
            apply = (self._optimizer.apply_gradients(grads_and_vars, global_step, name + "-wrapped")
                     if should_apply else core_ops.no_op())
        else:
            # The wrapped optimizer's slots are made outside the condition, as TF makes them in init_scope.
            self._optimizer._create_slots([v for g, v in grads_and_vars if g is not None])

            def apply_fn():
                return core_ops.group(self._optimizer.apply_gradients(grads_and_vars, global_step,
                                                                      name + "-wrapped"))

            apply = control_flow_ops.cond(should_apply, apply_fn, core_ops.no_op)
        return core_ops.group(apply, update_scale, name=name)

    def get_slot(self, var, name):
        return self._optimizer.get_slot(var, name)

    def get_slot_names(self):
        return self._optimizer.get_slot_names()

    def variables(self):
        return self._optimizer.variables()


def enable_mixed_precision_graph_rewrite(opt, loss_scale="dynamic"):
    """Wraps `opt` in a `MixedPrecisionLossScaleOptimizer` for mixed-precision training.

    TF also rewrites graphs to compute in float16 on GPUs with Tensor Cores; tensorweave computes in
    the graph's own dtypes (as TF does on devices without them), so only the loss scaling applies.

    Args:
      opt: A `tf.train.Optimizer`.
      loss_scale: A `LossScale`, a number or "dynamic".

    Returns:
      The wrapping optimizer.

    Raises:
      ValueError: If `opt` is not an Optimizer.
    """
    if isinstance(opt, MixedPrecisionLossScaleOptimizer):
        raise ValueError('"opt" must not already be an instance of a MixedPrecisionLossScaleOptimizer. '
                         "`enable_mixed_precision_graph_rewrite` will automatically wrap the optimizer with a "
                         "MixedPrecisionLossScaleOptimizer.")
    return MixedPrecisionLossScaleOptimizer(opt, loss_scale)


def disable_mixed_precision_graph_rewrite():
    """Turns the float16 graph rewrite off: in tensorweave it is never on (see
    `enable_mixed_precision_graph_rewrite`), so graphs keep their dtypes; wrapped optimizers stay wrapped."""
