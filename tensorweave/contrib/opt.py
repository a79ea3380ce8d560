"""`tf.contrib.opt`: TF 1.15's extra optimizers.

`AdamWOptimizer`/`MomentumWOptimizer` (decoupled weight decay, `DecoupledWeightDecayExtension`:
`var -= weight_decay * var` runs before the wrapped optimizer's update, not scaled by the learning
rate), `LazyAdamOptimizer` (sparse gradients update `m`, `v` and the variable only in the gathered
rows), `NadamOptimizer`, `AdaMaxOptimizer`, `AddSignOptimizer`, `PowerSignOptimizer`, `LARSOptimizer`,
`MovingAverageOptimizer` (an `ExponentialMovingAverage` of the trained variables and a saver that
swaps them with their averages), `VariableClippingOptimizer`, `MultitaskOptimizerWrapper` with
`clip_gradients_by_global_norm`, and `ScipyOptimizerInterface` (`scipy.optimize.minimize` on the
variables packed into one vector).
"""

import functools as _functools
import math as _math
import operator as _operator

import numpy as _np

from .. import tf_logging as _logging
from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..gradients.gradients_impl import gradients as _gradients
from ..ops import array_ops as _array_ops
from ..ops import core_ops as _core_ops
from ..ops import math_ops as _math_ops
from ..ops import scatter_ops as _scatter_ops
from ..ops.core_ops import placeholder as _placeholder
from ..train.moving_averages import ExponentialMovingAverage as _ExponentialMovingAverage
from ..train.optimizer import Optimizer as _Optimizer
from ..train.optimizer import _cast
from ..train.optimizers import AdamOptimizer as _AdamOptimizer
from ..train.optimizers import MomentumOptimizer as _MomentumOptimizer
from ..train.optimizers import _deduplicate_indexed_slices
from ..train.saver import Saver as _Saver
from ..train.saver import op_list_to_dict as _op_list_to_dict
from ..variables import Variable as _Variable
from ..variables import global_variables as _global_variables
from ..variables import trainable_variables as _trainable_variables

__all__ = ["AdaMaxOptimizer", "AdamWOptimizer", "AddSignOptimizer", "DecoupledWeightDecayExtension",
           "ExternalOptimizerInterface", "LARSOptimizer", "LazyAdamOptimizer", "MomentumWOptimizer",
           "MovingAverageOptimizer", "MultitaskOptimizerWrapper", "NadamOptimizer", "PowerSignOptimizer",
           "ScipyOptimizerInterface", "VariableClippingOptimizer", "clip_gradients_by_global_norm",
           "extend_with_decoupled_weight_decay"]

_GATE_OP = _Optimizer.GATE_OP


def _ref(var):
    return var._ref() if isinstance(var, _Variable) else var


class DecoupledWeightDecayExtension:
    """Mixin adding decoupled weight decay (Loshchilov & Hutter) to an optimizer.

    Before each update of a decayed variable, `var -= weight_decay * var` runs (the decay is not
    multiplied by the learning rate); for sparse gradients only the rows named by the gradient are
    decayed. `decay_var_list` in `apply_gradients` limits the decay to those variables; as in TF 1.15,
    `minimize` accepts it but its inner `apply_gradients` call resets it, so every variable is decayed.

    Args:
      weight_decay: A float, tensor or callable: the weight decay factor.
      **kwargs: The wrapped optimizer's arguments.
    """

    def __init__(self, weight_decay, **kwargs):
        self._decay_var_list = None
        self._weight_decay = weight_decay
        self._weight_decay_tensor = None
        super().__init__(**kwargs)

    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=_GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None, decay_var_list=None):
        """Adds ops to minimize `loss`, decaying the variables of `decay_var_list` (all when None).

        Returns:
          The training op.
        """
        self._decay_var_list = set(decay_var_list) if decay_var_list else False
        return super().minimize(loss, global_step=global_step, var_list=var_list, gate_gradients=gate_gradients,
                                aggregation_method=aggregation_method,
                                colocate_gradients_with_ops=colocate_gradients_with_ops, name=name,
                                grad_loss=grad_loss)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None, decay_var_list=None):
        """Applies gradients with weight decay on `decay_var_list` (all variables when None).

        Returns:
          The training op.
        """
        self._decay_var_list = set(decay_var_list) if decay_var_list else False
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _prepare(self):
        weight_decay = self._weight_decay
        if callable(weight_decay):
            weight_decay = weight_decay()
        self._weight_decay_tensor = _ops.convert_to_tensor(weight_decay, name="weight_decay")
        super()._prepare()

    def _decays(self, var):
        return not self._decay_var_list or var in self._decay_var_list

    def _decay_factor(self, var):
        # TF multiplies by the Python value itself (exact for float64 variables); a callable by its tensor.
        if callable(self._weight_decay):
            return _cast(self._weight_decay_tensor, var.dtype.base_dtype)
        return self._weight_decay

    def _decay_weights_op(self, var):
        if self._decays(var):
            return var.assign_sub(self._decay_factor(var) * var, self._use_locking)
        return _core_ops.no_op()

    def _apply_dense(self, grad, var):
        if getattr(self, "_in_sparse_update", False):  # the base's sparse path densified: already decayed
            return super()._apply_dense(grad, var)
        with _ops.control_dependencies([self._decay_weights_op(var)]):
            return super()._apply_dense(grad, var)

    def _apply_sparse_duplicate_indices(self, grad, var):
        if self._decays(var):
            _, indices = _deduplicate_indexed_slices(grad)
            update = -self._decay_factor(var) * _array_ops.gather(var, indices)
            decay_op = _scatter_ops.scatter_add(_ref(var), indices, update, use_locking=self._use_locking)
        else:
            decay_op = _core_ops.no_op()
        with _ops.control_dependencies([decay_op]):
            self._in_sparse_update = True
            try:
                return super()._apply_sparse_duplicate_indices(grad, var)
            finally:
                self._in_sparse_update = False


def extend_with_decoupled_weight_decay(base_optimizer):
    """Returns a subclass of `base_optimizer` with decoupled weight decay; its constructor takes
    `weight_decay` first, then `base_optimizer`'s arguments.

    Args:
      base_optimizer: An `Optimizer` subclass.

    Returns:
      The new optimizer class.
    """

    class OptimizerWithDecoupledWeightDecay(DecoupledWeightDecayExtension, base_optimizer):
        def __init__(self, weight_decay, *args, **kwargs):
            # pylint-style: the extension's __init__ forwards kwargs only, as TF's.
            self._decay_var_list = None
            self._weight_decay = weight_decay
            self._weight_decay_tensor = None
            base_optimizer.__init__(self, *args, **kwargs)

    return OptimizerWithDecoupledWeightDecay


class MomentumWOptimizer(DecoupledWeightDecayExtension, _MomentumOptimizer):
    """Momentum with decoupled weight decay (`var -= weight_decay * var` before each step).

    Args:
      weight_decay: A float, tensor or callable: the weight decay factor.
      learning_rate: A float, tensor or callable.
      momentum: A float, tensor or callable.
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "MomentumW").
      use_nesterov: Use Nesterov momentum.
    """

    def __init__(self, weight_decay, learning_rate, momentum, use_locking=False, name="MomentumW",
                 use_nesterov=False):
        super().__init__(weight_decay, learning_rate=learning_rate, momentum=momentum, use_locking=use_locking,
                         name=name, use_nesterov=use_nesterov)


class AdamWOptimizer(DecoupledWeightDecayExtension, _AdamOptimizer):
    """Adam with decoupled weight decay (`var -= weight_decay * var` before each Adam step).

    Args:
      weight_decay: A float, tensor or callable: the weight decay factor.
      learning_rate: A float, tensor or callable (default 0.001).
      beta1: Decay of the first moment (default 0.9).
      beta2: Decay of the second moment (default 0.999).
      epsilon: Added to the denominator (default 1e-8).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "AdamW").
    """

    def __init__(self, weight_decay, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False,
                 name="AdamW"):
        super().__init__(weight_decay, learning_rate=learning_rate, beta1=beta1, beta2=beta2, epsilon=epsilon,
                         use_locking=use_locking, name=name)


def _adam_sparse_hypers(opt, grad, var):
    """The deduplicated `(values, indices)` of a sparse gradient and an Adam optimizer's step size
    `lr_t * sqrt(1 - beta2^t) / (1 - beta1^t)`, `beta1`, `beta2` and `epsilon`, cast to `var`'s dtype."""
    values, indices = _deduplicate_indexed_slices(grad)
    dtype = var.dtype.base_dtype
    beta1_power, beta2_power = opt._get_beta_accumulators()
    beta1_power = _math_ops.cast(beta1_power, dtype)
    beta2_power = _math_ops.cast(beta2_power, dtype)
    lr_t = _math_ops.cast(opt._lr_t, dtype)
    beta1_t = _math_ops.cast(opt._beta1_t, dtype)
    beta2_t = _math_ops.cast(opt._beta2_t, dtype)
    epsilon_t = _math_ops.cast(opt._epsilon_t, dtype)
    lr = lr_t * _math_ops.sqrt(1 - beta2_power) / (1 - beta1_power)
    return values, indices, lr, beta1_t, beta2_t, epsilon_t


class LazyAdamOptimizer(_AdamOptimizer):
    """Adam whose sparse (IndexedSlices) updates touch only the rows in the gradient: `m`, `v` and
    the variable of other rows stay as they are (dense gradients update as `AdamOptimizer`).

    Args:
      learning_rate: A float, tensor or callable (default 0.001).
      beta1: Decay of the first moment (default 0.9).
      beta2: Decay of the second moment (default 0.999).
      epsilon: Added to the denominator (default 1e-8).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "Adam", as TF).
    """

    def _apply_sparse_duplicate_indices(self, grad, var):
        values, indices, lr, beta1_t, beta2_t, epsilon_t = _adam_sparse_hypers(self, grad, var)
        m = self.get_slot(var, "m")
        m_t = _scatter_ops.scatter_update(_ref(m), indices,
                                         beta1_t * _array_ops.gather(m, indices) + (1 - beta1_t) * values,
                                         use_locking=self._use_locking)
        v = self.get_slot(var, "v")
        v_t = _scatter_ops.scatter_update(_ref(v), indices,
                                         beta2_t * _array_ops.gather(v, indices)
                                         + (1 - beta2_t) * _math_ops.square(values),
                                         use_locking=self._use_locking)
        m_t_slice = _array_ops.gather(m_t, indices)
        v_t_slice = _array_ops.gather(v_t, indices)
        denominator_slice = _math_ops.sqrt(v_t_slice) + epsilon_t
        var_update = _scatter_ops.scatter_sub(_ref(var), indices, lr * m_t_slice / denominator_slice,
                                             use_locking=self._use_locking)
        return _core_ops.group(var_update, m_t, v_t)


class NadamOptimizer(_AdamOptimizer):
    """Adam with Nesterov momentum (Dozat): the dense update is `ApplyAdam` with `use_nesterov`,
    `var -= lr_t * (beta1 * m_t + (1 - beta1) * g) / (sqrt(v_t) + epsilon)`; sparse gradients decay
    all of `m` and `v` but update only the gathered rows of the variable (TF 1.15's rule).

    Args:
      learning_rate: A float, tensor or callable (default 0.001).
      beta1: Decay of the first moment (default 0.9).
      beta2: Decay of the second moment (default 0.999).
      epsilon: Added to the denominator (default 1e-8).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "Adam", as TF).
    """

    def _apply_dense(self, grad, var):
        from ..ops import training_ops
        dtype = var.dtype.base_dtype
        beta1_power, beta2_power = self._get_beta_accumulators()
        return training_ops.apply_adam(
            var, self.get_slot(var, "m"), self.get_slot(var, "v"), _cast(beta1_power, dtype),
            _cast(beta2_power, dtype), _cast(self._lr_t, dtype), _cast(self._beta1_t, dtype),
            _cast(self._beta2_t, dtype), _cast(self._epsilon_t, dtype), grad, use_locking=self._use_locking,
            use_nesterov=True).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        from ..ops import state_ops
        values, indices, lr, beta1_t, beta2_t, epsilon_t = _adam_sparse_hypers(self, grad, var)
        m = self.get_slot(var, "m")
        m_scaled_g_values = values * (1 - beta1_t)
        m_t = state_ops.assign(m, m * beta1_t, use_locking=self._use_locking)
        with _ops.control_dependencies([m_t]):
            m_t = _scatter_ops.scatter_add(_ref(m), indices, m_scaled_g_values, use_locking=self._use_locking)
            m_bar = m_scaled_g_values + beta1_t * _array_ops.gather(m_t, indices)
        v = self.get_slot(var, "v")
        v_scaled_g_values = (values * values) * (1 - beta2_t)
        v_t = state_ops.assign(v, v * beta2_t, use_locking=self._use_locking)
        with _ops.control_dependencies([v_t]):
            v_t = _scatter_ops.scatter_add(_ref(v), indices, v_scaled_g_values, use_locking=self._use_locking)
        v_sqrt = _math_ops.sqrt(_array_ops.gather(v_t, indices))
        var_update = _scatter_ops.scatter_sub(_ref(var), indices, lr * m_bar / (v_sqrt + epsilon_t),
                                             use_locking=self._use_locking)
        return _core_ops.group(var_update, m_bar, v_t)


class AdaMaxOptimizer(_AdamOptimizer):
    """AdaMax (Kingma & Ba, the infinity-norm Adam): `m = beta1 m + (1 - beta1) g`,
    `v = max(beta2 v, |g|)`, `var -= lr / (1 - beta1^t) * m / (v + epsilon)`; sparse gradients update
    only the gathered rows of `m`, `v` and the variable. Non-slot variable "beta1_power" only.

    Args:
      learning_rate: A float, tensor or callable (default 0.001).
      beta1: Decay of the first moment (default 0.9).
      beta2: Decay of the infinity norm (default 0.999).
      epsilon: Added to the denominator (default 1e-8).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "AdaMax").
    """

    def __init__(self, learning_rate=0.001, beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False, name="AdaMax"):
        super().__init__(learning_rate, beta1, beta2, epsilon, use_locking, name)

    def _get_beta_accumulators(self):
        return self._get_non_slot_variable("beta1_power", graph=_ops.get_default_graph())

    def _create_slots(self, var_list):
        first_var = min(var_list, key=lambda x: x.name)
        self._create_non_slot_variable(initial_value=self._beta1, name="beta1_power", colocate_with=first_var)
        for v in var_list:
            self._zeros_slot(v, "m", self._name)
            self._zeros_slot(v, "v", self._name)

    def _hyper(self, var):
        dtype = var.dtype.base_dtype
        return (_math_ops.cast(self._get_beta_accumulators(), dtype), _math_ops.cast(self._lr_t, dtype),
                _math_ops.cast(self._beta1_t, dtype), _math_ops.cast(self._beta2_t, dtype),
                _math_ops.cast(self._epsilon_t, dtype))

    def _apply_dense(self, grad, var):
        from ..ops import state_ops
        beta1_power, lr_t, beta1_t, beta2_t, epsilon_t = self._hyper(var)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t = state_ops.assign(m, m * beta1_t + grad * (1 - beta1_t), use_locking=self._use_locking)
        v_t = state_ops.assign(v, _math_ops.maximum(v * beta2_t, _math_ops.abs(grad)), use_locking=self._use_locking)
        var_update = state_ops.assign_sub(var, lr_t / (1 - beta1_power) * (m_t / (v_t + epsilon_t)),
                                          use_locking=self._use_locking)
        return _core_ops.group(var_update, m_t, v_t)

    def _apply_sparse_duplicate_indices(self, grad, var):
        values, indices = _deduplicate_indexed_slices(grad)
        beta1_power, lr_t, beta1_t, beta2_t, epsilon_t = self._hyper(var)
        m, v = self.get_slot(var, "m"), self.get_slot(var, "v")
        m_t_slice = _array_ops.gather(m, indices) * beta1_t + values * (1 - beta1_t)
        with _ops.control_dependencies([m_t_slice]):
            m_t = _scatter_ops.scatter_update(_ref(m), indices, m_t_slice, use_locking=self._use_locking)
        v_t_slice = _math_ops.maximum(_array_ops.gather(v, indices) * beta2_t, _math_ops.abs(values))
        with _ops.control_dependencies([v_t_slice]):
            v_t = _scatter_ops.scatter_update(_ref(v), indices, v_t_slice, use_locking=self._use_locking)
        var_slice = -lr_t / (1 - beta1_power) * (m_t_slice / (v_t_slice + epsilon_t))
        with _ops.control_dependencies([var_slice]):
            var_update = _scatter_ops.scatter_add(_ref(var), indices, var_slice, use_locking=self._use_locking)
        return _core_ops.group(var_update, m_t, v_t)

    def _finish(self, update_ops, name_scope):
        with _ops.control_dependencies(update_ops):
            beta1_power = self._get_beta_accumulators()
            update_beta1 = beta1_power.assign(beta1_power * self._beta1_t, use_locking=self._use_locking)
        return _core_ops.group(*(list(update_ops) + [update_beta1]), name=name_scope)


class LARSOptimizer(_Optimizer):
    """Layer-wise Adaptive Rate Scaling (You et al.): momentum with the learning rate of each variable
    scaled by `eeta * |w| / (|g| + weight_decay * |w| + epsilon)` (1 when a norm is 0; variables whose
    name contains a `skip_list` string are not scaled). Sparse gradients use plain momentum.

    Args:
      learning_rate: A float or tensor: the base learning rate.
      momentum: A float (default 0.9).
      weight_decay: A float in the trust ratio (default 0.0001).
      eeta: The LARS coefficient (default 0.001).
      epsilon: Added to the trust ratio's denominator (default 0).
      name: Name of the ops and slots (default "LARSOptimizer").
      skip_list: Strings; variables whose name contains one are not scaled.
      use_nesterov: Use Nesterov momentum.

    Raises:
      ValueError: If `momentum` or `weight_decay` is negative.
    """

    def __init__(self, learning_rate, momentum=0.9, weight_decay=0.0001, eeta=0.001, epsilon=0.0,
                 name="LARSOptimizer", skip_list=None, use_nesterov=False):
        if momentum < 0.0:
            raise ValueError("momentum should be positive: %s" % momentum)
        if weight_decay < 0.0:
            raise ValueError("weight_decay should be positive: %s" % weight_decay)
        super().__init__(use_locking=False, name=name)
        self._learning_rate = learning_rate
        self._momentum = momentum
        self._weight_decay = weight_decay
        self._eeta = eeta
        self._epsilon = epsilon
        self._skip_list = skip_list
        self._use_nesterov = use_nesterov

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "momentum", self._name)

    def compute_lr(self, grad, var):
        """Returns the LARS-scaled learning rate of `var` for `grad`."""
        from ..ops.norm_ops import norm
        scaled_lr = self._learning_rate
        if self._skip_list is None or not any(v in var.name for v in self._skip_list):
            w_norm = norm(var, ord=2)
            g_norm = norm(grad, ord=2)
            one = _ops.convert_to_tensor(1.0, dtype=w_norm.dtype)
            trust_ratio = _array_ops.where(
                _math_ops.greater(w_norm, 0),
                _array_ops.where(_math_ops.greater(g_norm, 0),
                                self._eeta * w_norm / (g_norm + self._weight_decay * w_norm + self._epsilon), one),
                one)
            scaled_lr = self._learning_rate * trust_ratio
        return scaled_lr

    def _prepare(self):
        self._learning_rate_tensor = _ops.convert_to_tensor(self._call_if_callable(self._learning_rate),
                                                           name="learning_rate")
        self._momentum_tensor = _ops.convert_to_tensor(self._call_if_callable(self._momentum), name="momentum")

    def _apply_dense(self, grad, var):
        from ..ops import training_ops
        dtype = var.dtype.base_dtype
        scaled_lr = _cast(self.compute_lr(grad, var), dtype)
        return training_ops.apply_momentum(var, self.get_slot(var, "momentum"), scaled_lr, grad,
                                           _ops.convert_to_tensor(self._momentum, dtype=dtype), use_locking=False,
                                           use_nesterov=self._use_nesterov).op

    def _apply_sparse_duplicate_indices(self, grad, var):
        values, indices = _deduplicate_indexed_slices(grad)
        dtype = var.dtype.base_dtype
        lr = _math_ops.cast(self._learning_rate_tensor, dtype)
        momentum = _math_ops.cast(self._momentum_tensor, dtype)
        mom = self.get_slot(var, "momentum")
        accum = _array_ops.gather(mom, indices) * momentum + values
        with _ops.control_dependencies([accum]):
            mom_update = _scatter_ops.scatter_update(_ref(mom), indices, accum, use_locking=self._use_locking)
        delta = values * lr + accum * momentum * lr if self._use_nesterov else lr * accum
        var_update = _scatter_ops.scatter_sub(_ref(var), indices, delta, use_locking=self._use_locking)
        return _core_ops.group(var_update, mom_update)


class _SignOptimizer(_Optimizer):
    """The shared part of AddSign and PowerSign (Bello et al.): a momentum slot "m",
    `m = beta m + (1 - beta) g` and `var -= lr * multiplier(sign(g) sign(m)) * g`."""

    def __init__(self, learning_rate, beta, sign_decay_fn, use_locking, name):
        super().__init__(use_locking, name)
        self._lr = learning_rate
        self._beta = beta
        self._sign_decay_fn = sign_decay_fn
        self._sign_decay_t = None

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients; `sign_decay_fn(global_step)` gives the sign decay when set.

        Returns:
          The training op.
        """
        if self._sign_decay_fn is not None:
            self._sign_decay_t = _ops.convert_to_tensor(self._sign_decay_fn(global_step), name="sign_decay")
        return super().apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def _create_slots(self, var_list):
        for v in var_list:
            self._zeros_slot(v, "m", self._name)

    def _prepare(self):
        self._lr_t = _ops.convert_to_tensor(self._call_if_callable(self._lr), name="learning_rate")
        self._beta_t = _ops.convert_to_tensor(self._call_if_callable(self._beta), name="beta")
        if self._sign_decay_fn is None:
            self._sign_decay_t = _ops.convert_to_tensor(1.0, name="sign_decay")

    def _apply_dense(self, grad, var):
        from ..ops import state_ops
        dtype = var.dtype.base_dtype
        beta = _cast(self._beta_t, dtype)
        m = self.get_slot(var, "m")
        m_t = state_ops.assign(m, m * beta + grad * (1 - beta), use_locking=self._use_locking)
        sign_gm = _math_ops.sign(grad) * _math_ops.sign(m_t)
        update = self._multiplier(sign_gm * _cast(self._sign_decay_t, dtype), dtype) * grad
        return state_ops.assign_sub(var, _cast(self._lr_t, dtype) * update, use_locking=self._use_locking).op


class AddSignOptimizer(_SignOptimizer):
    """AddSign: `var -= lr * (alpha + sign_decay * sign(g) * sign(m)) * g` with `m` the gradients'
    moving average (sparse gradients are applied densely).

    Args:
      learning_rate: A float, tensor or callable (default 0.1).
      alpha: A float (default 1.0).
      beta: The decay of `m` (default 0.9).
      sign_decay_fn: Optional `f(global_step)` giving the sign decay (default: 1).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "AddSignOptimizer").
    """

    def __init__(self, learning_rate=0.1, alpha=1.0, beta=0.9, sign_decay_fn=None, use_locking=False,
                 name="AddSignOptimizer"):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._alpha = alpha

    def _prepare(self):
        super()._prepare()
        self._alpha_t = _ops.convert_to_tensor(self._call_if_callable(self._alpha), name="alpha")

    def _multiplier(self, decayed_sign, dtype):
        return _cast(self._alpha_t, dtype) + decayed_sign


class PowerSignOptimizer(_SignOptimizer):
    """PowerSign: `var -= lr * base^(sign_decay * sign(g) * sign(m)) * g` with `m` the gradients'
    moving average (sparse gradients are applied densely).

    Args:
      learning_rate: A float, tensor or callable (default 0.1).
      base: The base (default e).
      beta: The decay of `m` (default 0.9).
      sign_decay_fn: Optional `f(global_step)` giving the sign decay (default: 1).
      use_locking: Hold the session lock during updates.
      name: Name of the ops and slots (default "PowerSignOptimizer").
    """

    def __init__(self, learning_rate=0.1, base=_math.e, beta=0.9, sign_decay_fn=None, use_locking=False,
                 name="PowerSignOptimizer"):
        super().__init__(learning_rate, beta, sign_decay_fn, use_locking, name)
        self._base = base

    def _prepare(self):
        super()._prepare()
        self._logbase_t = _ops.convert_to_tensor(_math.log(self._base), name="logbase")

    def _multiplier(self, decayed_sign, dtype):
        return _math_ops.exp(_cast(self._logbase_t, dtype) * decayed_sign)


class MovingAverageOptimizer(_Optimizer):
    """Wraps an optimizer to also keep an exponential moving average of the trained variables.

    `apply_gradients` runs the wrapped optimizer's update and then (`sequential_update`) the
    average's; `swapping_saver()` returns a `Saver` that saves each variable's average under the
    variable's name (and the variable under the average's name), so evaluation restores the averages.

    Args:
      opt: The `Optimizer` to wrap.
      average_decay: The decay of the `ExponentialMovingAverage` (default 0.9999).
      num_updates: Optional count of updates for the average's decay warm-up.
      sequential_update: Update the averages after the optimizer's step (default True).
    """

    def __init__(self, opt, average_decay=0.9999, num_updates=None, sequential_update=True):
        super().__init__(opt._use_locking, opt.get_name())
        self._optimizer = opt
        self._ema = _ExponentialMovingAverage(average_decay, num_updates=num_updates, zero_debias=False)
        self._swapped_variable_name_map = None
        self._sequential_update = sequential_update

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's `compute_gradients`."""
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients with the wrapped optimizer, then updates the moving averages.

        Returns:
          The op "train_with_avg" grouping both.
        """
        grads_and_vars = list(grads_and_vars)
        train_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name)
        var_list = [x[1] for x in grads_and_vars if x[0] is not None]
        self._swapped_variable_name_map = {}
        if self._sequential_update:
            # The averages must see the updated values: in TF 1.15 the reads alias the variables' buffers,
            # which the step has updated in place; here each variable is read again after the step. (The
            # op `apply` returns is not used: it would read the values from before the step.)
            self._ema.apply(var_list)
            with _ops.control_dependencies([train_op]):
                ma_op = self._sequential_average_op(var_list)
        else:
            ma_op = self._ema.apply(var_list)
        for v in var_list:
            v_avg = self._ema.average(v)
            self._swapped_variable_name_map[v.op.name] = v_avg.op.name
            self._swapped_variable_name_map[v_avg.op.name] = v.op.name
        return _core_ops.group(train_op, ma_op, name="train_with_avg")

    def _sequential_average_op(self, var_list):
        from ..train.moving_averages import assign_moving_average
        with _ops.name_scope(self._ema.name) as scope:
            decay = _ops.convert_to_tensor(self._ema._decay, name="decay")
            if self._ema._num_updates is not None:
                n = self._ema._num_updates
                n = n.read_value() if isinstance(n, _Variable) else n  # read after the step, as the averages
                num_updates = _math_ops.cast(n, _dtypes.float32, name="num_updates")
                decay = _math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = [assign_moving_average(self._ema.average(v), v.read_value(), decay, False) for v in var_list]
            return _core_ops.group(*updates, name=scope)

    def get_slot(self, var, name):
        return self._optimizer.get_slot(var, name)

    def get_slot_names(self):
        return self._optimizer.get_slot_names()

    def variables(self):
        return self._optimizer.variables()

    def _find_swapped_variable(self, v_name_to_op, v_name, v_op):
        if v_name in self._swapped_variable_name_map:
            return v_name_to_op[self._swapped_variable_name_map[v_name]]
        return v_op

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """Creates a `Saver` that swaps the trained variables with their moving averages.

        Args:
          var_list: Variables to save (default all global variables), a list or a name->variable dict.
          name: The saver's name.
          **kwargs: More `Saver` arguments.

        Returns:
          A `Saver`.

        Raises:
          RuntimeError: If `apply_gradients`/`minimize` was not called first.
        """
        if self._swapped_variable_name_map is None:
            raise RuntimeError("Must call apply_gradients or minimize before creating the swapping_saver")
        if var_list is None:
            var_list = _global_variables()
        if not isinstance(var_list, dict):
            var_list = _op_list_to_dict(var_list)
        v_name_to_tensor = {}
        for k, tensor_or_list in var_list.items():
            if isinstance(tensor_or_list, (list, tuple)):
                for tensor in tensor_or_list:
                    v_name_to_tensor[tensor.op.name] = tensor
            else:
                v_name_to_tensor[k] = tensor_or_list
        swapped_var_list = {}
        for k, tensor_or_list in var_list.items():
            if isinstance(tensor_or_list, (list, tuple)):
                swapped_var_list[k] = [self._find_swapped_variable(v_name_to_tensor, t.op.name, t)
                                       for t in tensor_or_list]
            else:
                swapped_var_list[k] = self._find_swapped_variable(v_name_to_tensor, k, tensor_or_list)
        return _Saver(swapped_var_list, name=name, **kwargs)


def _is_all_zeros(grad):
    from ..ops.math_reduce_ops import count_nonzero
    return _math_ops.equal(count_nonzero(_ops.convert_to_tensor(grad)), 0)


def _skip_zero_gradients(fn):
    def wrapper(grad, *args, **kwargs):
        from ..ops.control_flow_ops import cond

        def call_fn():
            with _ops.control_dependencies([fn(grad, *args, **kwargs)]):
                return _core_ops.no_op()

        return cond(_is_all_zeros(grad), _core_ops.no_op, call_fn)

    return wrapper


class MultitaskOptimizerWrapper:
    """Wraps an optimizer so that all-zero gradients leave the variable and its slots unchanged (their
    update is skipped at run time), for multi-task losses whose parts can be missing from a batch.

    Everything else is delegated to the wrapped optimizer.

    Args:
      opt: A `tf.train.Optimizer`.

    Raises:
      TypeError: If `opt` is not an Optimizer.
    """

    def __init__(self, opt):
        if not isinstance(opt, _Optimizer):
            raise TypeError("Supplied optimizer must be an instance of tf.train.Optimizer")
        self._opt = opt
        for name in ("_apply_dense", "_apply_sparse_duplicate_indices"):
            setattr(self._opt, name, _skip_zero_gradients(getattr(self._opt, name)))

    def __getattr__(self, name):
        return getattr(self._opt, name)


def clip_gradients_by_global_norm(gradients_variables, clip_norm=20.0):
    """Clips gradients by their global norm, ignoring all-zero gradients in the norm.

    Args:
      gradients_variables: A list of `(gradient, variable)` pairs.
      clip_norm: A float: the global norm to clip to (default 20).

    Returns:
      A tuple `(list of (clipped gradient, variable) pairs, the global norm)`.
    """
    from ..ops.clip_ops import clip_by_global_norm, global_norm
    from ..ops.control_flow_ops import cond
    gradients, variables = zip(*gradients_variables)

    def _replace_nonexisting_grad(grad):
        if grad is None:
            return grad
        return cond(_is_all_zeros(grad), lambda: _array_ops.zeros([], dtype=_dtypes.as_dtype(grad.dtype)),
                    lambda: _ops.convert_to_tensor(grad))

    nonzero_gradients = [_replace_nonexisting_grad(g) for g in gradients]
    fixed_global_norm = global_norm(nonzero_gradients)
    gradients, _ = clip_by_global_norm(gradients, clip_norm, use_norm=fixed_global_norm)
    return list(zip(gradients, variables)), fixed_global_norm


class VariableClippingOptimizer(_Optimizer):
    """Wraps an optimizer to clip the updated variables to a maximum L2 norm along given dimensions
    (`tf.clip_by_norm` of each variable after the step; sparse gradients clip only their rows unless
    dimension 0 is among the dimensions).

    Args:
      opt: The `Optimizer` computing and applying the gradients.
      vars_to_clip_dims: A dict from variable to the list of dimensions of the L2 norm.
      max_norm: The L2 norm to clip to.
      use_locking: Hold the session lock during the clip updates.
      colocate_clip_ops_with_vars: Accepted for TF's signature (placement only).
      name: The name of the returned op (default "VariableClipping").
    """

    def __init__(self, opt, vars_to_clip_dims, max_norm, use_locking=False, colocate_clip_ops_with_vars=False,
                 name="VariableClipping"):
        super().__init__(use_locking, name)
        self._opt = opt
        self._vars_to_clip_dims = {var: clip_dims[:] for var, clip_dims in vars_to_clip_dims.items()}
        self._max_norm = max_norm
        self._colocate_clip_ops_with_vars = colocate_clip_ops_with_vars

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's `compute_gradients`."""
        return self._opt.compute_gradients(*args, **kwargs)

    def get_slot(self, *args, **kwargs):
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        return self._opt.get_slot_names(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies the gradients with the wrapped optimizer, then clips the variables.

        Returns:
          The op grouping the update and the clips.
        """
        from ..framework.indexed_slices import IndexedSlices
        grads_and_vars = list(grads_and_vars)
        with _ops.name_scope(name, self._name) as name:
            update_op = self._opt.apply_gradients(grads_and_vars, global_step=global_step)
            clip_update_ops = []
            with _ops.control_dependencies([update_op]):
                for grad, var in grads_and_vars:
                    if grad is None or var not in self._vars_to_clip_dims:
                        continue
                    with _ops.name_scope("clip_" + var.op.name):
                        if isinstance(grad, IndexedSlices):
                            clip_update_ops.append(self._clip_sparse(grad, var))
                        else:
                            clip_update_ops.append(self._clip_dense(var))
            return _core_ops.group(*([update_op] + clip_update_ops), name=name)

    def _clip_dense(self, var):
        from ..ops.clip_ops import clip_by_norm
        updated_var_value = var.read_value()
        normalized_var = clip_by_norm(updated_var_value, self._max_norm, self._vars_to_clip_dims[var])
        return var.assign_sub(updated_var_value - normalized_var, use_locking=self._use_locking)

    def _clip_sparse(self, grad, var):
        from ..ops.clip_ops import clip_by_norm
        clip_dims = self._vars_to_clip_dims[var]
        if 0 in clip_dims:
            _logging.warning("Clipping norm across dims %s for %s is inefficient when including sparse dimension 0.",
                            clip_dims, var.op.name)
            return self._clip_dense(var)
        var_subset = _array_ops.gather(var.read_value(), grad.indices)
        normalized_var_subset = clip_by_norm(var_subset, self._max_norm, clip_dims)
        return _scatter_ops.scatter_sub(_ref(var), grad.indices, var_subset - normalized_var_subset,
                                       use_locking=self._use_locking)


# ---- external optimizers ------------------------------------------------------------------------
def _shape_tuple(tensor):
    return tuple(tensor.get_shape().as_list())


def _accumulate(values):
    total = 0
    yield total
    for v in values:
        total += v
        yield total


def _compute_gradients(tensor, var_list):
    grads = _gradients(tensor, var_list)
    return [grad if grad is not None else _core_ops.zeros_like(var) for var, grad in zip(var_list, grads)]


class ExternalOptimizerInterface:
    """Base class for optimizers run outside the graph on the variables packed into one vector.

    Args:
      loss: A scalar tensor to minimize.
      var_list: The variables to optimize (default: the trainable variables); their shapes must be
        fully defined.
      equalities: Tensors that must equal zero at the solution.
      inequalities: Tensors that must be >= 0 at the solution.
      var_to_bounds: A dict from variable to `(low, high)` bounds, each a scalar or an array
        broadcastable to the variable's shape (`-inf`/`inf` for none).
      **optimizer_kwargs: Passed to the external optimizer.

    Raises:
      ValueError: If a variable's shape is not fully defined.
    """

    def __init__(self, loss, var_list=None, equalities=None, inequalities=None, var_to_bounds=None,
                 **optimizer_kwargs):
        self._loss = loss
        self._equalities = equalities or []
        self._inequalities = inequalities or []
        self._vars = _trainable_variables() if var_list is None else list(var_list)
        for var in self._vars:
            if not var.get_shape().is_fully_defined():
                raise ValueError("The shape of variable %s is not fully defined: %s" % (var.name, var.get_shape()))
        packed_bounds = None
        if var_to_bounds is not None:
            left, right = [], []
            for var in self._vars:
                shape = var.get_shape().as_list()
                bounds = var_to_bounds.get(var, (-_np.inf, _np.inf))
                left.extend(list(_np.broadcast_to(bounds[0], shape).flat))
                right.extend(list(_np.broadcast_to(bounds[1], shape).flat))
            packed_bounds = list(zip(left, right))
        self._packed_bounds = packed_bounds
        self._update_placeholders = [_placeholder(var.dtype.base_dtype) for var in self._vars]
        self._var_updates = [var.assign(_array_ops.reshape(ph, _shape_tuple(var)))
                             for var, ph in zip(self._vars, self._update_placeholders)]
        loss_grads = _compute_gradients(loss, self._vars)
        equalities_grads = [_compute_gradients(e, self._vars) for e in self._equalities]
        inequalities_grads = [_compute_gradients(e, self._vars) for e in self._inequalities]
        self.optimizer_kwargs = optimizer_kwargs
        self._packed_var = self._pack(self._vars)
        self._packed_loss_grad = self._pack(loss_grads)
        self._packed_equality_grads = [self._pack(g) for g in equalities_grads]
        self._packed_inequality_grads = [self._pack(g) for g in inequalities_grads]
        dims = [_functools.reduce(_operator.mul, _shape_tuple(var), 1) for var in self._vars]
        acc = list(_accumulate(dims))
        self._packing_slices = [slice(start, end) for start, end in zip(acc[:-1], acc[1:])]

    def minimize(self, session=None, feed_dict=None, fetches=None, step_callback=None, loss_callback=None,
                 **run_kwargs):
        """Minimizes the loss by running the external optimizer, then assigns the result to the variables.

        Args:
          session: A `Session` (default: the default session).
          feed_dict: Feeds for every evaluation.
          fetches: Tensors fetched with the loss at each evaluation and passed to `loss_callback`.
          step_callback: Called with the packed variable vector after each optimizer step.
          loss_callback: Called with the values of `fetches` after each loss evaluation.
          **run_kwargs: More `Session.run` arguments for the final assignment.
        """
        session = session or _ops.get_default_session()
        feed_dict = feed_dict or {}
        fetches = fetches or []
        loss_callback = loss_callback or (lambda *fetches: None)
        step_callback = step_callback or (lambda xk: None)
        loss_grad_func = self._make_eval_func([self._loss, self._packed_loss_grad], session, feed_dict, fetches,
                                              loss_callback)
        equality_funcs = self._make_eval_funcs(self._equalities, session, feed_dict, fetches)
        equality_grad_funcs = self._make_eval_funcs(self._packed_equality_grads, session, feed_dict, fetches)
        inequality_funcs = self._make_eval_funcs(self._inequalities, session, feed_dict, fetches)
        inequality_grad_funcs = self._make_eval_funcs(self._packed_inequality_grads, session, feed_dict, fetches)
        initial_packed_var_val = session.run(self._packed_var)
        packed_var_val = self._minimize(
            initial_val=initial_packed_var_val, loss_grad_func=loss_grad_func, equality_funcs=equality_funcs,
            equality_grad_funcs=equality_grad_funcs, inequality_funcs=inequality_funcs,
            inequality_grad_funcs=inequality_grad_funcs, packed_bounds=self._packed_bounds,
            step_callback=step_callback, optimizer_kwargs=self.optimizer_kwargs)
        var_vals = [packed_var_val[s] for s in self._packing_slices]
        session.run(self._var_updates, feed_dict=dict(zip(self._update_placeholders, var_vals)), **run_kwargs)

    def _minimize(self, initial_val, loss_grad_func, equality_funcs, equality_grad_funcs, inequality_funcs,
                  inequality_grad_funcs, packed_bounds, step_callback, optimizer_kwargs):
        raise NotImplementedError("To use ExternalOptimizerInterface, subclass from it and implement _minimize().")

    @classmethod
    def _pack(cls, tensors):
        if not tensors:
            return None
        if len(tensors) == 1:
            return _array_ops.reshape(tensors[0], [-1])
        return _array_ops.concat([_array_ops.reshape(t, [-1]) for t in tensors], 0)

    def _make_eval_func(self, tensors, session, feed_dict, fetches, callback=None):
        if not isinstance(tensors, list):
            tensors = [tensors]
        num_tensors = len(tensors)

        def eval_func(x):
            augmented_feed_dict = {_ref(var): x[s].reshape(_shape_tuple(var))
                                   for var, s in zip(self._vars, self._packing_slices)}
            augmented_feed_dict.update(feed_dict)
            augmented_fetch_vals = session.run(tensors + list(fetches), feed_dict=augmented_feed_dict)
            if callable(callback):
                callback(*augmented_fetch_vals[num_tensors:])
            return augmented_fetch_vals[:num_tensors]

        return eval_func

    def _make_eval_funcs(self, tensors, session, feed_dict, fetches, callback=None):
        return [self._make_eval_func(t, session, feed_dict, fetches, callback) for t in tensors]


class ScipyOptimizerInterface(ExternalOptimizerInterface):
    """Minimizes the loss with `scipy.optimize.minimize` (default method "L-BFGS-B").

    Example:
      optimizer = ScipyOptimizerInterface(loss, options={'maxiter': 100})
      with tf.Session() as session:
        optimizer.minimize(session)

    Args: those of `ExternalOptimizerInterface`; `optimizer_kwargs` go to `scipy.optimize.minimize`
      (`method`, `options`, `tol`, ...; `jac`, `callback`, `constraints` and `bounds` are set here).

    Raises:
      ValueError: In `minimize`, if `optimizer_kwargs` sets an argument set here.
      ImportError: If SciPy (the `special` extra) is not installed.
    """

    _DEFAULT_METHOD = "L-BFGS-B"

    def _minimize(self, initial_val, loss_grad_func, equality_funcs, equality_grad_funcs, inequality_funcs,
                  inequality_grad_funcs, packed_bounds, step_callback, optimizer_kwargs):
        def loss_grad_func_wrapper(x):
            loss, gradient = loss_grad_func(x)
            return loss, gradient.astype("float64")

        optimizer_kwargs = dict(optimizer_kwargs.items())
        method = optimizer_kwargs.pop("method", self._DEFAULT_METHOD)
        constraints = []
        for func, grad_func in zip(equality_funcs, equality_grad_funcs):
            constraints.append({"type": "eq", "fun": func, "jac": grad_func})
        for func, grad_func in zip(inequality_funcs, inequality_grad_funcs):
            constraints.append({"type": "ineq", "fun": func, "jac": grad_func})
        minimize_kwargs = {"jac": True, "callback": step_callback, "method": method, "constraints": constraints,
                           "bounds": packed_bounds}
        for kwarg in minimize_kwargs:
            if kwarg in optimizer_kwargs:
                if kwarg == "bounds":
                    raise ValueError("Bounds must be set using the var_to_bounds argument")
                raise ValueError("Optimizer keyword arg '{}' is set automatically and cannot be injected manually"
                                 .format(kwarg))
        minimize_kwargs.update(optimizer_kwargs)
        if not constraints:
            del minimize_kwargs["constraints"]  # newer SciPy warns about constraints for unconstrained methods
        try:
            import scipy.optimize
        except ImportError as e:  # pragma: no cover - scipy is the [special] extra
            raise ImportError("ScipyOptimizerInterface needs SciPy: pip install tensorweave[special]") from e
        result = scipy.optimize.minimize(loss_grad_func_wrapper, initial_val, **minimize_kwargs)
        message_lines = ["Optimization terminated with:", "  Message: %s", "  Objective function value: %f"]
        message_args = [result.message, float(_np.asarray(result.fun))]
        if hasattr(result, "nit"):
            message_lines.append("  Number of iterations: %d")
            message_args.append(result.nit)
        if hasattr(result, "nfev"):
            message_lines.append("  Number of functions evaluations: %d")
            message_args.append(result.nfev)
        _logging.info("\n".join(message_lines), *message_args)
        return result["x"]
