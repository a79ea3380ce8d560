"""The TF1 optimizers: GradientDescent, Momentum, Adam, Adagrad, RMSProp, Adadelta, Ftrl,
ProximalGradientDescent and ProximalAdagrad.

Hyper-parameters may be Python numbers, tensors or callables (called when the update ops are built).
As in TF, they are converted to tensors (float32 for Python numbers) and then cast to each variable's
dtype, and each update is one fused Apply* op from `ops/training_ops.py`.
"""

from ..framework import ops
from ..ops import array_ops, training_ops
from .optimizer import Optimizer, _cast


class GradientDescentOptimizer(Optimizer):
    """Plain gradient descent: `var -= learning_rate * grad`.

    Args:
      learning_rate: A float, tensor or callable: the learning rate.
      use_locking: Hold the session lock during updates.
      name: Name of the ops (default "GradientDescent").
    """

    def __init__(self, learning_rate, use_locking=False, name="GradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._learning_rate_tensor = None

    def _prepare(self):
        lr = self._call_if_callable(self._learning_rate)
        self._learning_rate_tensor = ops.convert_to_tensor(lr, name="learning_rate")

    def _apply_dense(self, grad, var):
        return training_ops.apply_gradient_descent(
            var, _cast(self._learning_rate_tensor, var.dtype.base_dtype), grad, use_locking=self._use_locking).op


class MomentumOptimizer(Optimizer):
    """Gradient descent with momentum: `accum = momentum * accum + grad; var -= learning_rate * accum`
    (Nesterov: `var -= learning_rate * (grad + momentum * accum)`). Slot "momentum" ("<var>/Momentum").

    Args:
      learning_rate: A float, tensor or callable.
      momentum: A float, tensor or callable.
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "Momentum").
      use_nesterov: Use Nesterov momentum.
    """

    def __init__(self, learning_rate, momentum, use_locking=False, name="Momentum", use_nesterov=False):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._use_nesterov = use_nesterov
        self._learning_rate_tensor = None
        self._momentum_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                           name="learning_rate")
        self._momentum_tensor = ops.convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        return training_ops.apply_momentum(
            var, self.get_slot(var, "momentum"), _cast(self._learning_rate_tensor, dtype), grad,
            _cast(self._momentum_tensor, dtype), use_locking=self._use_locking, use_nesterov=self._use_nesterov).op


class AdamOptimizer(Optimizer):
    """Adam (Kingma & Ba): `lr_t = learning_rate * sqrt(1 - beta2^t) / (1 - beta1^t)`,
    `m = beta1 * m + (1 - beta1) * g`, `v = beta2 * v + (1 - beta2) * g^2`,
    `var -= lr_t * m / (sqrt(v) + epsilon)`.

    Slots "m" and "v" ("<var>/Adam", "<var>/Adam_1"); the non-slot variables "beta1_power" and
    "beta2_power" hold `beta1^t` and `beta2^t` and are multiplied by the betas after each step.

    Args:
      learning_rate: A float, tensor or callable (default 0.001).
      beta1: Decay of the first moment (default 0.9).
      beta2: Decay of the second moment (default 0.999).
      epsilon: Added to the denominator (default 1e-8).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "Adam").
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="Adam"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta1 = beta1
        self._beta2 = beta2
        self._epsilon = epsilon
        self._lr_t = None
        self._beta1_t = None
        self._beta2_t = None
        self._epsilon_t = None

    def _get_beta_accumulators(self):
        graph = ops.get_default_graph()
        return (self._get_non_slot_variable("beta1_power", graph=graph),
                self._get_non_slot_variable("beta2_power", graph=graph))

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power", colocate_with=first_var)
        self._create_non_slot_variable(initial_value=self._beta2, name="beta2_power", colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _prepare(self):
        self._lr_t = ops.convert_to_tensor(self._call_if_callable(self._lr), name="learning_rate")
        self._beta1_t = ops.convert_to_tensor(self._call_if_callable(self._beta1), name="beta1")
        self._beta2_t = ops.convert_to_tensor(self._call_if_callable(self._beta2), name="beta2")
        self._epsilon_t = ops.convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        return training_ops.apply_adam(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"), _cast(beta1_power, dtype),
            _cast(beta2_power, dtype), _cast(self._lr_t, dtype), _cast(self._beta1_t, dtype),
            _cast(self._beta2_t, dtype), _cast(self._epsilon_t, dtype), grad, use_locking=self._use_locking).op

    def _finish(self, update_ops, name_scope):
        with ops.control_dependencies(update_ops):
            beta1_power, beta2_power = self._get_beta_accumulators()
            update_beta1 = beta1_power.assign(beta1_power * self._beta1_t, use_locking=self._use_locking)
            update_beta2 = beta2_power.assign(beta2_power * self._beta2_t, use_locking=self._use_locking)
        return super()._finish(list(update_ops) + [update_beta1, update_beta2], name_scope)


class AdagradOptimizer(Optimizer):
    """Adagrad: `accum += grad^2; var -= learning_rate * grad / sqrt(accum)`. Slot "accumulator"
    ("<var>/Adagrad"), initialized to `initial_accumulator_value`.

    Args:
      learning_rate: A float, tensor or callable.
      initial_accumulator_value: Starting value of the accumulators; must be positive.
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "Adagrad").

    Raises:
      ValueError: If `initial_accumulator_value` is not positive.
    """

    def __init__(self, learning_rate, initial_accumulator_value=0.1, use_locking=False, name="Adagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._learning_rate_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._filled_slot(v, self._initial_accumulator_value, "accumulator", self._name)

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                           name="learning_rate")

    def _apply_dense(self, grad, var):
        return training_ops.apply_adagrad(
            var, self.get_slot(var, "accumulator"), _cast(self._learning_rate_tensor, var.dtype.base_dtype), grad,
            use_locking=self._use_locking).op


class RMSPropOptimizer(Optimizer):
    """RMSProp: `ms = decay * ms + (1 - decay) * grad^2`,
    `mom = momentum * mom + learning_rate * grad / sqrt(ms + epsilon)`, `var -= mom`; centered also
    tracks `mg`, the mean gradient, and divides by `sqrt(ms - mg^2 + epsilon)`.

    Slots "rms" (initialized to ones), "mg" if centered, and "momentum" ("<var>/RMSProp", "..._1", ...).

    Args:
      learning_rate: A float, tensor or callable.
      decay: Discount of the squared-gradient average (default 0.9).
      momentum: Momentum (default 0.0).
      epsilon: Added inside the square root (default 1e-10).
      use_locking: Hold the session lock during updates.
      centered: Normalize by the estimated variance of the gradient.
      name: Name of the ops and slots (default "RMSProp").
    """

    def __init__(self, learning_rate, decay=0.9, momentum=0.0, epsilon=1e-10, use_locking=False, centered=False,
                 name="RMSProp"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._decay = decay
        self._momentum = momentum
        self._epsilon = epsilon
        self._centered = centered
        self._learning_rate_tensor = None
        self._decay_tensor = None
        self._momentum_tensor = None
        self._epsilon_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._filled_slot(v, 1, "rms", self._name)
            if self._centered:
                self._zeros_slot(v, "mg", self._name)
            self._zeros_slot(v, "momentum", self._name)

    def _prepare(self):
        self._learning_rate_tensor = ops.convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                           name="learning_rate")
        self._decay_tensor = ops.convert_to_tensor(self._call_if_callable(self._decay), name="decay")
        self._momentum_tensor = ops.convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")
        self._epsilon_tensor = ops.convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        hyper = [_cast(t, dtype) for t in (self._learning_rate_tensor, self._decay_tensor, self._momentum_tensor,
                                           self._epsilon_tensor)]
        rms = self.get_slot(var, "rms")
        mom = self.get_slot(var, "momentum")
        if self._centered:
            return training_ops.apply_centered_rms_prop(var, self.get_slot(var, "mg"), rms, mom, *hyper, grad,
                                                        use_locking=self._use_locking).op
        return training_ops.apply_rms_prop(var, rms, mom, *hyper, grad, use_locking=self._use_locking).op


class AdadeltaOptimizer(Optimizer):
    """Adadelta (Zeiler): `accum = rho * accum + (1 - rho) * grad^2`,
    `update = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad`, `var -= learning_rate * update`,
    `accum_update = rho * accum_update + (1 - rho) * update^2`. Slots "accum" and "accum_update"
    ("<var>/Adadelta", "<var>/Adadelta_1").

    Args:
      learning_rate: A float, tensor or callable (default 0.001).
      rho: Decay rate (default 0.95).
      epsilon: Conditioning constant (default 1e-8).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "Adadelta").
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-8, use_locking=False, name="Adadelta"):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._rho = rho
        self._epsilon = epsilon
        self._lr_t = None
        self._rho_t = None
        self._epsilon_t = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "accum", self._name)
            self._zeros_slot(v, "accum_update", self._name)

    def _prepare(self):
        self._lr_t = ops.convert_to_tensor(self._call_if_callable(self._lr), name="lr")
        self._rho_t = ops.convert_to_tensor(self._call_if_callable(self._rho), name="rho")
        self._epsilon_t = ops.convert_to_tensor(self._call_if_callable(self._epsilon), name="epsilon")

    def _apply_dense(self, grad, var):
        dtype = var.dtype.base_dtype
        return training_ops.apply_adadelta(
            var, self.get_slot(var, "accum"), self.get_slot(var, "accum_update"), _cast(self._lr_t, dtype),
            _cast(self._rho_t, dtype), _cast(self._epsilon_t, dtype), grad, use_locking=self._use_locking).op


def _deduplicate_indexed_slices(grad):
    """`(summed_values, unique_indices)`: the rows of the IndexedSlices `grad` with repeated indices
    summed (TF's `_deduplicate_indexed_slices`, in the order the indices first appear)."""
    unique_indices, positions = array_ops.unique(grad.indices)
    values = ops.convert_to_tensor(grad.values)
    shape = array_ops.concat([array_ops.shape(unique_indices, out_type=positions.dtype),
                              array_ops.shape(values, out_type=positions.dtype)[1:]], 0)
    summed = array_ops.scatter_nd(array_ops.expand_dims(positions, 1), values, shape)
    return summed, unique_indices


class _SparseRowsOptimizer(Optimizer):
    """An optimizer whose IndexedSlices gradients update only the rows they name (TF's `_apply_sparse`
    with a SparseApply* op), after summing the values of repeated indices."""

    def _apply_sparse_duplicate_indices(self, grad, var):
        values, indices = _deduplicate_indexed_slices(grad)
        return self._apply_sparse(values, indices, var)

    def _apply_sparse(self, values, indices, var):
        raise NotImplementedError()

    def _prepare(self):
        c = self._call_if_callable
        self._learning_rate_tensor = ops.convert_to_tensor(c(self._learning_rate), name="learning_rate")
        self._l1_regularization_strength_tensor = ops.convert_to_tensor(c(self._l1_regularization_strength),
                                                                        name="l1_regularization_strength")
        self._l2_regularization_strength_tensor = ops.convert_to_tensor(c(self._l2_regularization_strength),
                                                                        name="l2_regularization_strength")

    def _hyper(self):
        """The learning rate and L1/L2 strengths as converted by `_prepare` (not cast)."""
        return (self._learning_rate_tensor, self._l1_regularization_strength_tensor,
                self._l2_regularization_strength_tensor)


class FtrlOptimizer(_SparseRowsOptimizer):
    """FTRL-proximal (McMahan et al., "Ad Click Prediction: a View from the Trenches", 2013), as TF1's
    `tf.train.FtrlOptimizer`: with `n` the sum of squared gradients (slot "accum", starting at
    `initial_accumulator_value`) and `z` the slot "linear":

        z += g - (n_new^(-p) - n^(-p)) / learning_rate * var        (p = learning_rate_power)
        var = (sign(z) * l1 - z) / (n_new^(-p) / learning_rate + 2 * l2)  if |z| > l1, else 0

    With `l2_shrinkage_regularization_strength`, `g + 2 * l2_shrinkage * var` replaces `g` in the
    update of `z`. Slots "<var>/Ftrl" (accum) and "<var>/Ftrl_1" (linear); sparse gradients update
    only their rows.

    Args:
      learning_rate: A float, tensor or callable.
      learning_rate_power: A float <= 0 (default -0.5): how the learning rate decreases.
      initial_accumulator_value: The starting value of the accumulators (>= 0).
      l1_regularization_strength: A float >= 0.
      l2_regularization_strength: A float >= 0.
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "Ftrl").
      accum_name: The suffix of the accumulator slots (default `name`).
      linear_name: The suffix of the linear slots (default `name`).
      l2_shrinkage_regularization_strength: A float >= 0: an L2 penalty on the weights that shrinks
        them in the gradient (not in the accumulator).

    Raises:
      ValueError: If one of the arguments is out of range.
    """

    def __init__(self, learning_rate, learning_rate_power=-0.5, initial_accumulator_value=0.1,
                 l1_regularization_strength=0.0, l2_regularization_strength=0.0, use_locking=False, name="Ftrl",
                 accum_name=None, linear_name=None, l2_shrinkage_regularization_strength=0.0):
        super().__init__(use_locking, name)
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value %f needs to be positive or zero" % initial_accumulator_value)
        if learning_rate_power > 0.0:
            raise ValueError("learning_rate_power %f needs to be negative or zero" % learning_rate_power)
        if l1_regularization_strength < 0.0:
            raise ValueError("l1_regularization_strength %f needs to be positive or zero" % l1_regularization_strength)
        if l2_regularization_strength < 0.0:
            raise ValueError("l2_regularization_strength %f needs to be positive or zero" % l2_regularization_strength)
        if l2_shrinkage_regularization_strength < 0.0:
            raise ValueError("l2_shrinkage_regularization_strength %f needs to be positive or zero"
                             % l2_shrinkage_regularization_strength)
        self._learning_rate = learning_rate
        self._learning_rate_power = learning_rate_power
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self._learning_rate_tensor = None
        self._learning_rate_power_tensor = None
        self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None
        self._l2_shrinkage_regularization_strength_tensor = None
        self._accum_name = accum_name
        self._linear_name = linear_name

    def _create_slots(self, var_list):
        for v in var_list:
            self._filled_slot(v, self._initial_accumulator_value, "accum", self._accum_name or self._name)
            self._zeros_slot(v, "linear", self._linear_name or self._name)

    def _prepare(self):
        super()._prepare()
        c = self._call_if_callable
        self._l2_shrinkage_regularization_strength_tensor = ops.convert_to_tensor(
            c(self._l2_shrinkage_regularization_strength), name="l2_shrinkage_regularization_strength")
        self._learning_rate_power_tensor = ops.convert_to_tensor(c(self._learning_rate_power),
                                                                 name="learning_rate_power")

    def _update(self, var, grad_args, apply_ftrl, apply_ftrl_v2):
        """`apply_ftrl` (or, with L2 shrinkage, `apply_ftrl_v2`) on `var`, its slots, `grad_args` and the
        hyper-parameters cast to `var`'s dtype."""
        dtype = var.dtype.base_dtype
        slots = (var, self.get_slot(var, "accum"), self.get_slot(var, "linear"))
        hyper = [_cast(t, dtype) for t in self._hyper()]
        if self._l2_shrinkage_regularization_strength > 0.0:
            hyper.append(_cast(self._l2_shrinkage_regularization_strength_tensor, dtype))
        hyper.append(_cast(self._learning_rate_power_tensor, dtype))
        apply = apply_ftrl if self._l2_shrinkage_regularization_strength <= 0.0 else apply_ftrl_v2
        return apply(*slots, *grad_args, *hyper, use_locking=self._use_locking).op

    def _apply_dense(self, grad, var):
        return self._update(var, (grad,), training_ops.apply_ftrl, training_ops.apply_ftrl_v2)

    def _apply_sparse(self, values, indices, var):
        return self._update(var, (values, indices), training_ops.sparse_apply_ftrl, training_ops.sparse_apply_ftrl_v2)


class ProximalGradientDescentOptimizer(_SparseRowsOptimizer):
    """Proximal gradient descent (FOBOS, Duchi & Singer 2009), as TF1's
    `tf.train.ProximalGradientDescentOptimizer`:

        prox = var - learning_rate * grad
        var = sign(prox) * max(|prox| - learning_rate * l1, 0) / (1 + learning_rate * l2)

    As in TF, the hyper-parameters are not cast to the variable's dtype: Python numbers become
    float32 tensors, so float64 variables need float64 tensors. Sparse gradients update only their
    rows.

    Args:
      learning_rate: A float, tensor or callable.
      l1_regularization_strength: A float (default 0).
      l2_regularization_strength: A float (default 0).
      use_locking: Hold the session lock during updates.
      name: Name of the ops (default "ProximalGradientDescent").
    """

    def __init__(self, learning_rate, l1_regularization_strength=0.0, l2_regularization_strength=0.0,
                 use_locking=False, name="ProximalGradientDescent"):
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._learning_rate_tensor = None
        self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None


    def _apply_dense(self, grad, var):
        return training_ops.apply_proximal_gradient_descent(var, *self._hyper(), grad,
                                                            use_locking=self._use_locking).op

    def _apply_sparse(self, values, indices, var):
        return training_ops.sparse_apply_proximal_gradient_descent(var, *self._hyper(), values, indices,
                                                                   use_locking=self._use_locking).op


class ProximalAdagradOptimizer(_SparseRowsOptimizer):
    """Proximal Adagrad (FOBOS with Adagrad's learning rate), as TF1's
    `tf.train.ProximalAdagradOptimizer`:

        accum += grad^2;  lr_t = learning_rate / sqrt(accum);  prox = var - lr_t * grad
        var = sign(prox) * max(|prox| - lr_t * l1, 0) / (1 + lr_t * l2)

    Slot "accumulator" ("<var>/ProximalAdagrad"), starting at `initial_accumulator_value`. As in TF,
    the hyper-parameters are not cast to the variable's dtype (Python numbers become float32
    tensors). Sparse gradients update only their rows.

    Args:
      learning_rate: A float, tensor or callable (> 0 when the update runs).
      initial_accumulator_value: The starting value of the accumulators; must be positive.
      l1_regularization_strength: A float >= 0.
      l2_regularization_strength: A float >= 0.
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "ProximalAdagrad").

    Raises:
      ValueError: If `initial_accumulator_value` is not positive.
    """

    def __init__(self, learning_rate, initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, use_locking=False, name="ProximalAdagrad"):
        if initial_accumulator_value <= 0.0:
            raise ValueError("initial_accumulator_value must be positive: %s" % initial_accumulator_value)
        super().__init__(use_locking, name)
        self._learning_rate = learning_rate
        self._initial_accumulator_value = initial_accumulator_value
        self._l1_regularization_strength = l1_regularization_strength
        self._l2_regularization_strength = l2_regularization_strength
        self._learning_rate_tensor = None
        self._l1_regularization_strength_tensor = None
        self._l2_regularization_strength_tensor = None

    def _create_slots(self, var_list):
        for v in var_list:
            self._filled_slot(v, self._initial_accumulator_value, "accumulator", self._name)


    def _apply_dense(self, grad, var):
        return training_ops.apply_proximal_adagrad(var, self.get_slot(var, "accumulator"), *self._hyper(), grad,
                                                   use_locking=self._use_locking).op

    def _apply_sparse(self, values, indices, var):
        return training_ops.sparse_apply_proximal_adagrad(var, self.get_slot(var, "accumulator"), *self._hyper(),
                                                          values, indices, use_locking=self._use_locking).op
