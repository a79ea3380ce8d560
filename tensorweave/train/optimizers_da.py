"""`tf.train.AdagradDAOptimizer`: Adagrad dual averaging (TF1's training/adagrad_da.py)."""

from ..framework import dtypes, ops
from ..ops import core_ops, math_unary_ops, training_da_ops
from .optimizers import _SparseRowsOptimizer

__all__ = ["AdagradDAOptimizer"]


class AdagradDAOptimizer(_SparseRowsOptimizer):
    """Adagrad Dual Averaging (Xiao, "Dual Averaging Methods for Regularized Stochastic Learning and
    Online Optimization", 2010), as TF1's `tf.train.AdagradDAOptimizer`. With `g` the sum of the
    gradients (slot "gradient_accumulator", from 0), `gg` the sum of their squares (slot
    "gradient_squared_accumulator", from `initial_gradient_squared_accumulator_value`) and `T` the
    global step plus one:

        var = -sign(g) * lr * max(|g| - l1 * T, 0) / (l2 * T * lr + sqrt(gg))

    The variable depends only on the accumulators, so it ignores its initial value. Sparse gradients
    update only their rows.

    Args:
      learning_rate: A float, tensor or callable.
      global_step: The int64 global step variable (`tf.train.get_or_create_global_step()`): the step
        count `T` is its value plus one when the update runs.
      initial_gradient_squared_accumulator_value: The starting value of the squared accumulators;
        must be positive.
      l1_regularization_strength: A float >= 0.
      l2_regularization_strength: A float >= 0.
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "AdagradDA").

    Raises:
      ValueError: If `initial_gradient_squared_accumulator_value` is not positive.
    """

    def __init__(self, learning_rate, global_step, initial_gradient_squared_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False,
                 name="AdagradDA"):
        if initial_gradient_squared_accumulator_value <= 0.0:
            raise ValueError("initial_gradient_squared_accumulator_value must be positive: %s"
                             % initial_gradient_squared_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_gradient_squared_accumulator_value = initial_gradient_squared_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._global_step = global_step
        self._learning_rate_tensor = None
        self._global_step_on_worker = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "gradient_accumulator", self._name)
            self._filled_slot(v, self._initial_gradient_squared_accumulator_value, "gradient_squared_accumulator",
                              self._name)

    def _prepare(self):
        lr = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = ops.convert_to_tensor(lr, name="learning_rate")
        self._global_step_on_worker = core_ops.identity(self._global_step) + 1

    def _args(self, var):
        dtype = var.dtype.base_dtype if hasattr(var.dtype, "base_dtype") else var.dtype
        cast = math_unary_ops.cast
        step = self._global_step_on_worker
        if step.dtype is not dtypes.int64:
            raise TypeError("AdagradDAOptimizer needs an int64 global_step, got %s" % step.dtype.name)
        return (cast(self._learning_rate_tensor, dtype), cast(self._l1_regularization_strength, dtype),
                cast(self._l2_regularization_strength, dtype), core_ops.identity(step))

    def _apply_dense(self, grad, var):
        return training_da_ops.apply_adagrad_da(var, self.get_slot(var, "gradient_accumulator"),
                                                self.get_slot(var, "gradient_squared_accumulator"), grad,
                                                *self._args(var), use_locking=self._use_locking).op

    def _apply_sparse(self, values, indices, var):
        return training_da_ops.sparse_apply_adagrad_da(var, self.get_slot(var, "gradient_accumulator"),
                                                       self.get_slot(var, "gradient_squared_accumulator"), values,
                                                       indices, *self._args(var), use_locking=self._use_locking).op
