"""Learning-rate schedules of `tf.train` (TF 1.15 formulas): each returns a scalar tensor computed from
`global_step`, built from math ops so it is re-evaluated at every run."""

import math
import numbers

from ..framework import constant_op, dtypes, ops
from .optimizer import _cast


def _require_step(global_step, message):
    if global_step is None:
        raise ValueError(message)


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """Exponential decay: `learning_rate * decay_rate ^ (global_step / decay_steps)`, with an integer
    (floored) exponent if `staircase`.

    Args:
      learning_rate: A scalar float tensor or Python number: the initial rate.
      global_step: A scalar integer tensor, Variable or Python number; must not be negative.
      decay_steps: A positive scalar.
      decay_rate: A scalar: the decay rate.
      staircase: Decay at discrete intervals.
      name: Name scope (default "ExponentialDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "global_step is required for exponential_decay.")
    from ..ops import math_ops
    with ops.name_scope(name, "ExponentialDecay", [learning_rate, global_step, decay_steps, decay_rate]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        p = _cast(global_step, dtype) / _cast(decay_steps, dtype)
        if staircase:
            p = math_ops.floor(p)
        return math_ops.multiply(learning_rate, math_ops.pow(_cast(decay_rate, dtype), p), name=name)


def piecewise_constant(x, boundaries, values, name=None):
    """Piecewise constant: `values[0]` while `x <= boundaries[0]`, `values[i]` while
    `boundaries[i-1] < x <= boundaries[i]`, and `values[-1]` once `x > boundaries[-1]`.

    Args:
      x: A scalar tensor (typically the global step).
      boundaries: Strictly increasing boundaries of `x`'s dtype (int32 ones are promoted to int64 x).
      values: One more value than boundaries, all of one dtype.
      name: Name scope (default "PiecewiseConstant").

    Returns:
      A scalar tensor of the values' dtype.

    Raises:
      ValueError: If the lengths do not match, a boundary's dtype differs from `x`'s, or the values'
        dtypes differ.
    """
    boundaries = _flatten(boundaries)
    values = _flatten(values)
    if len(boundaries) != len(values) - 1:
        raise ValueError("The length of boundaries should be 1 less than the length of values")
    from ..ops import array_ops
    with ops.name_scope(name, "PiecewiseConstant", [x] + boundaries + values):
        x = ops.convert_to_tensor(x)
        boundaries = [ops.convert_to_tensor(b) for b in boundaries]
        values = [ops.convert_to_tensor(v) for v in values]
        for i, b in enumerate(boundaries):
            if b.dtype.base_dtype is not x.dtype.base_dtype:
                if b.dtype.base_dtype is dtypes.int32 and x.dtype.base_dtype is dtypes.int64:
                    boundaries[i] = _cast(b, dtypes.int64)
                else:
                    raise ValueError("Boundaries (%s) must have the same dtype as x (%s)."
                                     % (b.dtype.base_dtype, x.dtype.base_dtype))
        for v in values[1:]:
            if v.dtype.base_dtype is not values[0].dtype.base_dtype:
                raise ValueError("Values must have elements all with the same dtype (%s vs %s)."
                                 % (values[0].dtype.base_dtype, v.dtype.base_dtype))
        # The first i with x <= boundaries[i] selects values[i]; none selects values[-1].
        result = values[-1]
        for b, v in zip(reversed(boundaries), reversed(values[:-1])):
            result = array_ops.where(x <= b, v, result)
        return result


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                     name=None):
    """Polynomial decay from `learning_rate` to `end_learning_rate` over `decay_steps`:
    `(learning_rate - end_learning_rate) * (1 - step / decay_steps) ^ power + end_learning_rate` with
    `step = min(global_step, decay_steps)`; if `cycle`, `decay_steps` is instead stretched to the first
    multiple of itself not below `global_step` (1 multiple at step 0).

    Args:
      learning_rate: A scalar float tensor or Python number.
      global_step: A scalar integer tensor, Variable or Python number.
      decay_steps: A positive scalar.
      end_learning_rate: The final rate (default 0.0001).
      power: The polynomial's power (default 1.0, linear).
      cycle: Restart the decay after `decay_steps`.
      name: Name scope (default "PolynomialDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "global_step is required for polynomial_decay.")
    from ..ops import array_ops, math_ops
    with ops.name_scope(name, "PolynomialDecay", [learning_rate, global_step, decay_steps, end_learning_rate,
                                                  power]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        end_learning_rate = _cast(end_learning_rate, dtype)
        power = _cast(power, dtype)
        step = _cast(global_step, dtype)
        steps = _cast(decay_steps, dtype)
        if cycle:
            multiplier = array_ops.where(math_ops.equal(step, constant_op.constant(0, dtype=dtype)),
                                         constant_op.constant(1, dtype=dtype), math_ops.ceil(step / steps))
            steps = math_ops.multiply(steps, multiplier)
        else:
            step = math_ops.minimum(step, steps)
        p = step / steps
        return math_ops.add(math_ops.multiply(learning_rate - end_learning_rate, math_ops.pow(1 - p, power)),
                            end_learning_rate, name=name)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """Natural exponential decay: `learning_rate * exp(-decay_rate) ^ (global_step / decay_steps)`
    (floored exponent if `staircase`).

    Args:
      learning_rate: A scalar float tensor or Python number.
      global_step: A scalar integer tensor, Variable or Python number.
      decay_steps: How often to apply the decay.
      decay_rate: The decay rate.
      staircase: Decay at discrete intervals.
      name: Name scope (default "NaturalExpDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "global_step is required for natural_exp_decay.")
    from ..ops import math_ops
    with ops.name_scope(name, "NaturalExpDecay", [learning_rate, global_step, decay_rate]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        rate = math_ops.exp(math_ops.negative(_cast(decay_rate, dtype)))
        p = _cast(global_step, dtype) / _cast(decay_steps, dtype)
        if staircase:
            p = math_ops.floor(p)
        return math_ops.multiply(learning_rate, math_ops.pow(rate, p), name=name)


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    """Inverse time decay: `learning_rate / (1 + decay_rate * global_step / decay_steps)` (floored
    `global_step / decay_steps` if `staircase`).

    Args:
      learning_rate: A scalar float tensor or Python number.
      global_step: A scalar integer tensor, Variable or Python number.
      decay_steps: How often to apply the decay.
      decay_rate: The decay rate.
      staircase: Decay at discrete intervals.
      name: Name scope (default "InverseTimeDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "global_step is required for inverse_time_decay.")
    from ..ops import math_ops
    with ops.name_scope(name, "InverseTimeDecay", [learning_rate, global_step, decay_rate]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        p = _cast(global_step, dtype) / _cast(decay_steps, dtype)
        if staircase:
            p = math_ops.floor(p)
        denom = math_ops.add(constant_op.constant(1, dtype=dtype), math_ops.multiply(_cast(decay_rate, dtype), p))
        return math_ops.truediv(learning_rate, denom, name=name)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """Cosine decay: `learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * step / decay_steps)) + alpha)`
    with `step = min(global_step, decay_steps)`.

    Args:
      learning_rate: A scalar float tensor or Python number.
      global_step: A scalar integer tensor, Variable or Python number.
      decay_steps: Number of steps to decay over.
      alpha: Minimum rate as a fraction of `learning_rate`.
      name: Name scope (default "CosineDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "cosine decay requires global_step")
    from ..ops import math_ops
    with ops.name_scope(name, "CosineDecay", [learning_rate, global_step]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        steps = _cast(decay_steps, dtype)
        fraction = math_ops.minimum(_cast(global_step, dtype), steps) / steps
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant_op.constant(math.pi, dtype=dtype) * fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(learning_rate, decayed, name=name)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0, alpha=0.0,
                          name=None):
    """Cosine decay with warm restarts (SGDR): the cosine decay of `cosine_decay` over
    `first_decay_steps`, restarted with periods `t_mul` times longer and initial rates `m_mul` times
    smaller each time.

    Args:
      learning_rate: A scalar float tensor or Python number.
      global_step: A scalar integer tensor, Variable or Python number.
      first_decay_steps: Length of the first period.
      t_mul: Factor of each period's length over the previous one.
      m_mul: Factor of each period's initial rate over the previous one.
      alpha: Minimum rate as a fraction of `learning_rate`.
      name: Name scope (default "SGDRDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "cosine decay restarts requires global_step")
    from ..ops import array_ops, math_ops
    with ops.name_scope(name, "SGDRDecay", [learning_rate, global_step]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        fraction = _cast(global_step, dtype) / _cast(first_decay_steps, dtype)
        alpha = _cast(alpha, dtype)
        t_mul_t = _cast(t_mul, dtype)
        m_mul = _cast(m_mul, dtype)

        def periods(geometric):
            if geometric:
                i_restart = math_ops.floor(math_ops.log(1.0 - fraction * (1.0 - t_mul_t)) / math_ops.log(t_mul_t))
                sum_r = (1.0 - t_mul_t ** i_restart) / (1.0 - t_mul_t)
                return i_restart, (fraction - sum_r) / t_mul_t ** i_restart
            i_restart = math_ops.floor(fraction)
            return i_restart, fraction - i_restart

        if isinstance(t_mul, numbers.Real):
            i_restart, completed = periods(t_mul != 1.0)
        else:
            same = math_ops.equal(t_mul_t, constant_op.constant(1, dtype=dtype))
            (i1, c1), (i2, c2) = periods(False), periods(True)
            i_restart, completed = array_ops.where(same, i1, i2), array_ops.where(same, c1, c2)
        cosine_decayed = 0.5 * m_mul ** i_restart * (
            1.0 + math_ops.cos(constant_op.constant(math.pi, dtype=dtype) * completed))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(learning_rate, decayed, name=name)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0, beta=0.001,
                        name=None):
    """Linear cosine decay: with `step = min(global_step, decay_steps)`,
    `linear = (decay_steps - step) / decay_steps`,
    `cosine = 0.5 * (1 + cos(pi * 2 * num_periods * step / decay_steps))`,
    the rate is `learning_rate * ((alpha + linear) * cosine + beta)`.

    Args:
      learning_rate: A scalar float tensor or Python number.
      global_step: A scalar integer tensor, Variable or Python number.
      decay_steps: Number of steps to decay over.
      num_periods: Number of periods of the cosine part.
      alpha, beta: See the formula.
      name: Name scope (default "LinearCosineDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "linear cosine decay requires global_step")
    from ..ops import math_ops
    with ops.name_scope(name, "LinearCosineDecay", [learning_rate, global_step]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        steps = _cast(decay_steps, dtype)
        step = math_ops.minimum(_cast(global_step, dtype), steps)
        linear_decayed = (steps - step) / steps
        fraction = 2.0 * _cast(num_periods, dtype) * (step / steps)
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant_op.constant(math.pi, dtype=dtype) * fraction))
        decayed = (_cast(alpha, dtype) + linear_decayed) * cosine_decayed + _cast(beta, dtype)
        return math_ops.multiply(learning_rate, decayed, name=name)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0, variance_decay=0.55,
                              num_periods=0.5, alpha=0.0, beta=0.001, name=None):
    """Noisy linear cosine decay: `linear_cosine_decay` with Gaussian noise `eps` of variance
    `initial_variance / (1 + step) ** variance_decay` added to the linear part:
    `learning_rate * ((alpha + linear + eps) * cosine + beta)`, `step = min(global_step, decay_steps)`.

    Args:
      learning_rate: A scalar float tensor or Python number.
      global_step: A scalar integer tensor, Variable or Python number.
      decay_steps: Number of steps to decay over.
      initial_variance: Initial variance of the noise.
      variance_decay: Decay exponent of the noise's variance.
      num_periods: Number of periods of the cosine part.
      alpha, beta: See the formula.
      name: Name scope (default "NoisyLinearCosineDecay").

    Returns:
      A scalar tensor of `learning_rate`'s dtype, with new noise at every run.

    Raises:
      ValueError: If `global_step` is None.
    """
    _require_step(global_step, "noisy linear cosine decay requires global_step")
    from ..ops import math_ops, random_ops
    with ops.name_scope(name, "NoisyLinearCosineDecay", [learning_rate, global_step]) as name:
        learning_rate = ops.convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        steps = _cast(decay_steps, dtype)
        step = math_ops.minimum(_cast(global_step, dtype), steps)
        variance = _cast(initial_variance, dtype) / math_ops.pow(1.0 + step, _cast(variance_decay, dtype))
        std = math_ops.sqrt(variance)
        noisy_linear_decayed = (steps - step) / steps + random_ops.random_normal([], mean=0.0, stddev=std,
                                                                                 dtype=dtype)
        fraction = 2.0 * _cast(num_periods, dtype) * (step / steps)
        cosine_decayed = 0.5 * (1.0 + math_ops.cos(constant_op.constant(math.pi, dtype=dtype) * fraction))
        decayed = (_cast(alpha, dtype) + noisy_linear_decayed) * cosine_decayed + _cast(beta, dtype)
        return math_ops.multiply(learning_rate, decayed, name=name)


piecewise_constant_decay = piecewise_constant


def _flatten(x):
    if isinstance(x, (list, tuple)):
        return [y for item in x for y in _flatten(item)]
    return [x]
