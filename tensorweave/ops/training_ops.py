"""The fused optimizer update ops (TF's training_ops): ApplyGradientDescent, ApplyMomentum, ApplyAdam,
ApplyAdagrad, ApplyRMSProp, ApplyCenteredRMSProp, ApplyAdadelta, ApplyFtrl, ApplyFtrlV2,
ApplyProximalGradientDescent and ApplyProximalAdagrad, and the sparse (row) updates SparseApplyFtrl,
SparseApplyFtrlV2, SparseApplyProximalGradientDescent and SparseApplyProximalAdagrad.

Each takes the variable and its slots as ref inputs (the kernel gets their keys), computes TF's update
formula (core/kernels/training_ops.cc) in the variable's dtype, stores fresh read-only arrays in the
session and returns the variable's new value.
"""

import contextlib

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, NOT_CONSTANT, register_op

_NO_LOCK = contextlib.nullcontext()


# ---- shared checks ----------------------------------------------------------------------------
def _ref(x, op_type):
    """The VariableV2 tensor behind a Variable (or the tensor itself)."""
    if hasattr(x, "_ref"):
        return x._ref()
    if isinstance(x, ops.Tensor) and x.op.type == "VariableV2":
        return x
    raise TypeError("'%s' requires a variable (reference) input, got %r" % (op_type, x))


def _apply_infer(names, n_refs, grad_index, indices_index=None):
    """Inference for an Apply op whose inputs are `names`: the first `n_refs` are the variable and its
    slots (same shape), `grad_index` is the gradient (var's shape), the rest are scalars. Every input
    must have the variable's dtype. The output is the variable's new value. For a SparseApply op
    (`indices_index` given) the gradient holds rows of the variable (its dimensions after the first
    are the variable's) and `indices` is an int32/int64 vector."""
    def infer(op):
        var = op._inputs[0]
        if indices_index is not None:
            indices = op._inputs[indices_index]
            if indices._dtype not in (dtypes.int32, dtypes.int64):
                raise TypeError("Value passed to parameter 'indices' has DataType %s not in list of allowed values: "
                                "int32, int64" % indices._dtype.name)
            if indices._shape.ndims not in (None, 1):
                raise ValueError("Shape must be rank 1 but is rank %d (input 'indices')" % indices._shape.ndims)
        for i, (name, t) in enumerate(zip(names, op._inputs)):
            if i == indices_index:
                continue
            if t._dtype is not var._dtype:
                raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument 'var'"
                                % (name, op._type, t._dtype.name, var._dtype.name))
            if i < n_refs or (i == grad_index and indices_index is None):
                if not t._shape.is_compatible_with(var._shape):
                    raise ValueError("Shapes of var and %s are incompatible: %s vs %s" % (name, var._shape, t._shape))
            elif i == grad_index:
                vs, gs = var._shape.as_tuple(), t._shape.as_tuple()
                if vs is not None and gs is not None and (len(vs) != len(gs) or any(
                        a is not None and b is not None and a != b for a, b in zip(vs[1:], gs[1:]))):
                    raise ValueError("Shapes of var and %s are incompatible beyond the first dimension: %s vs %s"
                                     % (name, var._shape, t._shape))
            elif t._shape.ndims not in (None, 0):
                raise ValueError("Shape must be rank 0 but is rank %d (input '%s')" % (t._shape.ndims, name))
        return [(var._dtype, var._shape.as_tuple())]
    return infer


def _dims(a):
    return "[%s]" % ",".join(str(d) for d in a.shape)


def _same_shapes(op, var, names, *others):
    """Raises TF's error for the first of `others` (slots, then grad) whose shape is not var's."""
    for name, other in zip(names, others):
        if other.shape != var.shape:
            raise errors.InvalidArgumentError(None, op, "var and %s do not have the same shape%s %s"
                                              % (name, _dims(var), _dims(other)))


def _scalars(op, names, *values):
    """The scalar inputs as Python numbers. Scalar-only arithmetic on them is done in double precision
    (exact for one operation); array operations round them to the variable's dtype, as TF's kernels do."""
    for name, a in zip(names, values):
        if a.ndim:
            raise errors.InvalidArgumentError(None, op, "%s is not a scalar: %s" % (name, _dims(a)))
    # float() of a NumPy scalar is ~15x faster than .item(); complex inputs need .item()
    return [float(a) if a.dtype.kind == "f" else a.item() for a in values]


def _store(ctx, key, value):
    """Stores a freshly computed value (never an input buffer) read-only in the session."""
    if type(value) is not np.ndarray:
        value = np.asarray(value)
    value.setflags(write=False)
    ctx.variables[key] = value
    return value


def _apply_op(op_type, refs, others, attrs, name, indices=None, indices_pos=None):
    """Builds the op from the variable and slots `refs` and the other inputs (converted to the
    variable's dtype); a SparseApply op's `indices` go in at `indices_pos` among the others."""
    refs = [_ref(r, op_type) for r in refs]
    ins = [ops.convert_to_tensor(x, dtype=refs[0].dtype) if not isinstance(x, ops.Tensor) else x for x in others]
    if indices_pos is not None:
        ins.insert(indices_pos, ops.convert_to_tensor(indices, name="indices"))
    return ops.apply_op(op_type, refs + ins, attrs, name=name)


# ---- ApplyGradientDescent -----------------------------------------------------------------------
def _gradient_descent_kernel(ctx, op, var_key, alpha, delta, use_locking):
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        alpha, = _scalars(op, ("alpha",), alpha)
        _same_shapes(op, var, ("delta",), delta)
        step = delta * alpha  # a fresh array: the difference is written into it (one pass, one buffer)
        if type(step) is np.ndarray and step.shape == var.shape and step.dtype == var.dtype:
            return _store(ctx, var_key, np.subtract(var, step, out=step))
        return _store(ctx, var_key, var - step)


register_op("ApplyGradientDescent", infer=_apply_infer(("var", "alpha", "delta"), 1, 2),
            kernel=_gradient_descent_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0,))


def apply_gradient_descent(var, alpha, delta, use_locking=False, name=None):
    """Updates `var` by subtracting `alpha * delta`: `var -= delta * alpha`.

    Args:
      var: A float Variable.
      alpha: Scalar scaling factor, same dtype as `var`.
      delta: The change (gradient), same shape and dtype as `var`.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ or `var` is not a variable.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyGradientDescent", [var], [alpha, delta], {"use_locking": bool(use_locking)}, name)


# ---- ApplyMomentum --------------------------------------------------------------------------------
def _momentum_kernel(ctx, op, var_key, accum_key, lr, grad, momentum, use_locking, use_nesterov):
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        accum = ctx.read_variable(accum_key, op)
        lr, momentum = _scalars(op, ("lr", "momentum"), lr, momentum)
        _same_shapes(op, var, ("accum", "grad"), accum, grad)
        accum = accum * momentum
        accum += grad
        if use_nesterov:
            step = grad * lr
            step += accum * momentum * lr
        else:
            step = accum * lr
        _store(ctx, accum_key, accum)
        return _store(ctx, var_key, var - step)


register_op("ApplyMomentum", infer=_apply_infer(("var", "accum", "lr", "grad", "momentum"), 2, 3),
            kernel=_momentum_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1))


def apply_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False, name=None):
    """Momentum update: `accum = accum * momentum + grad; var -= lr * accum` (Nesterov:
    `var -= grad * lr + accum * momentum * lr`).

    Args:
      var, accum: Variables of the same shape and float dtype.
      lr, momentum: Scalars of that dtype.
      grad: The gradient.
      use_locking: Hold the session lock during the update.
      use_nesterov: Use Nesterov momentum.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyMomentum", [var, accum], [lr, grad, momentum],
                     {"use_locking": bool(use_locking), "use_nesterov": bool(use_nesterov)}, name)


# ---- ApplyAdam ------------------------------------------------------------------------------------
def _adam_kernel(ctx, op, var_key, m_key, v_key, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
                 use_locking, use_nesterov):
    with ctx.lock if use_locking else _NO_LOCK:
        _scalars(op, _ADAM_SCALARS, beta1_power, beta2_power, lr, beta1, beta2, epsilon)
        t = grad.dtype.type  # the variable's dtype (checked when the op was built)
        lr, beta1, beta2, epsilon = lr[()], beta1[()], beta2[()], epsilon[()]
        return _adam_update(ctx, op, var_key, m_key, v_key, beta1_power[()], beta2_power[()], grad, lr, beta1,
                            t(1) - beta1, t(1) - beta2, epsilon, use_nesterov)


_ADAM_SCALARS = ("beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon")


def _adam_update(ctx, op, var_key, m_key, v_key, beta1_power, beta2_power, grad, lr, beta1, one_minus_beta1,
                 one_minus_beta2, epsilon, use_nesterov):
    """The update with every hyperparameter a NumPy scalar (or 0-d array) of the variable's dtype, so the
    scalar arithmetic for `lr_t` rounds after each operation as TF's kernel does (and costs ~0.1 us)."""
    var, m, v = ctx.read_variable(var_key, op), ctx.read_variable(m_key, op), ctx.read_variable(v_key, op)
    _same_shapes(op, var, ("m", "v", "grad"), m, v, grad)
    one = one_minus_beta1.dtype.type(1)
    alpha = lr * np.sqrt(one - beta2_power) / (one - beta1_power)
    m_new = grad - m
    m_new *= one_minus_beta1
    m_new += m
    v_new = grad * grad
    v_new -= v
    v_new *= one_minus_beta2
    v_new += v
    denom = np.sqrt(v_new)
    denom += epsilon
    if use_nesterov:
        step = grad * one_minus_beta1
        step += beta1 * m_new
        step *= alpha
    else:
        step = m_new * alpha
    step /= denom
    _store(ctx, m_key, m_new)
    _store(ctx, v_key, v_new)
    return _store(ctx, var_key, var - step)


def _adam_specialize(op, consts):
    """With constant lr, beta1, beta2 and epsilon (the optimizer's usual case) their conversions are
    done once; only the beta powers are read per run."""
    hyper = consts[5:9]
    if any(c is NOT_CONSTANT or np.ndim(c) for c in hyper) or any(consts[i] is not NOT_CONSTANT for i in (3, 4, 9)):
        return None
    t = op._inputs[9].dtype.as_numpy_dtype  # the gradient's: the variable's dtype
    lr, beta1, beta2, epsilon = (t(np.asarray(c)[()]) for c in hyper)
    # 0-d arrays: array operators take them ~30% faster than NumPy scalars
    beta1, omb1, omb2, epsilon = (np.asarray(x) for x in (beta1, t(1) - beta1, t(1) - beta2, epsilon))
    use_locking, use_nesterov = op._attrs["use_locking"], op._attrs["use_nesterov"]
    names = _ADAM_SCALARS[:2]

    def kernel(ctx, op, var_key, m_key, v_key, beta1_power, beta2_power, grad):
        with ctx.lock if use_locking else _NO_LOCK:
            if type(beta1_power) is np.ndarray or type(beta2_power) is np.ndarray:
                _scalars(op, names, beta1_power, beta2_power)
                beta1_power, beta2_power = beta1_power[()], beta2_power[()]
            return _adam_update(ctx, op, var_key, m_key, v_key, beta1_power, beta2_power, grad, lr,
                                beta1, omb1, omb2, epsilon, use_nesterov)

    return kernel


register_op("ApplyAdam", infer=_apply_infer(("var", "m", "v", "beta1_power", "beta2_power", "lr", "beta1", "beta2",
                                             "epsilon", "grad"), 3, 9),
            kernel=_adam_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2), specialize=_adam_specialize)


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, use_locking=False,
               use_nesterov=False, name=None):
    """Adam update: `lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power)`,
    `m += (grad - m) * (1 - beta1)`, `v += (grad^2 - v) * (1 - beta2)`,
    `var -= m * lr_t / (sqrt(v) + epsilon)` (Nesterov: `(grad * (1 - beta1) + beta1 * m) * lr_t / ...`).

    Args:
      var, m, v: Variables of the same shape and float dtype.
      beta1_power, beta2_power, lr, beta1, beta2, epsilon: Scalars of that dtype.
      grad: The gradient.
      use_locking: Hold the session lock during the update.
      use_nesterov: Use the Nesterov variant.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyAdam", [var, m, v], [beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad],
                     {"use_locking": bool(use_locking), "use_nesterov": bool(use_nesterov)}, name)


# ---- ApplyAdagrad ---------------------------------------------------------------------------------
def _adagrad_kernel(ctx, op, var_key, accum_key, lr, grad, use_locking, update_slots):
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        accum = ctx.read_variable(accum_key, op)
        lr, = _scalars(op, ("lr",), lr)
        _same_shapes(op, var, ("accum", "grad"), accum, grad)
        if update_slots:
            accum = _store(ctx, accum_key, accum + grad * grad)
        step = grad * lr
        step /= np.sqrt(accum)
        return _store(ctx, var_key, var - step)


register_op("ApplyAdagrad", infer=_apply_infer(("var", "accum", "lr", "grad"), 2, 3),
            kernel=_adagrad_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1))


def apply_adagrad(var, accum, lr, grad, use_locking=False, update_slots=True, name=None):
    """Adagrad update: `accum += grad^2; var -= lr * grad / sqrt(accum)`.

    Args:
      var, accum: Variables of the same shape and float dtype.
      lr: Scalar of that dtype.
      grad: The gradient.
      use_locking: Hold the session lock during the update.
      update_slots: Whether to update `accum`.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyAdagrad", [var, accum], [lr, grad],
                     {"use_locking": bool(use_locking), "update_slots": bool(update_slots)}, name)


# ---- ApplyRMSProp ---------------------------------------------------------------------------------
def _rms_prop_kernel(ctx, op, var_key, ms_key, mom_key, lr, rho, momentum, epsilon, grad, use_locking):
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        ms = ctx.read_variable(ms_key, op)
        mom = ctx.read_variable(mom_key, op)
        lr, rho, momentum, epsilon = _scalars(op, ("lr", "rho", "momentum", "epsilon"), lr, rho, momentum, epsilon)
        _same_shapes(op, var, ("ms", "mom", "grad"), ms, mom, grad)
        ms_new = grad * grad
        ms_new -= ms
        ms_new *= 1 - rho
        ms_new += ms
        mom_new = grad * lr
        mom_new /= np.sqrt(ms_new + epsilon)
        mom_new += mom * momentum
        _store(ctx, ms_key, ms_new)
        _store(ctx, mom_key, mom_new)
        return _store(ctx, var_key, var - mom_new)


register_op("ApplyRMSProp", infer=_apply_infer(("var", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad"),
                                               3, 7),
            kernel=_rms_prop_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2))


def apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False, name=None):
    """RMSProp update: `ms += (grad^2 - ms) * (1 - rho)`,
    `mom = mom * momentum + lr * grad / sqrt(ms + epsilon)`, `var -= mom`.

    Args:
      var, ms, mom: Variables of the same shape and float dtype.
      lr, rho, momentum, epsilon: Scalars of that dtype.
      grad: The gradient.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyRMSProp", [var, ms, mom], [lr, rho, momentum, epsilon, grad],
                     {"use_locking": bool(use_locking)}, name)


# ---- ApplyCenteredRMSProp -------------------------------------------------------------------------
def _centered_rms_prop_kernel(ctx, op, var_key, mg_key, ms_key, mom_key, lr, rho, momentum, epsilon, grad,
                              use_locking):
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        mg = ctx.read_variable(mg_key, op)
        ms = ctx.read_variable(ms_key, op)
        mom = ctx.read_variable(mom_key, op)
        lr, rho, momentum, epsilon = _scalars(op, ("lr", "rho", "momentum", "epsilon"), lr, rho, momentum, epsilon)
        _same_shapes(op, var, ("mg", "ms", "mom", "grad"), mg, ms, mom, grad)
        one_minus_rho = 1 - rho
        ms_new = grad * grad
        ms_new -= ms
        ms_new *= one_minus_rho
        ms_new += ms
        mg_new = grad - mg
        mg_new *= one_minus_rho
        mg_new += mg
        denom = ms_new - mg_new * mg_new
        denom += epsilon
        mom_new = grad * lr
        mom_new /= np.sqrt(denom)
        mom_new += mom * momentum
        _store(ctx, mg_key, mg_new)
        _store(ctx, ms_key, ms_new)
        _store(ctx, mom_key, mom_new)
        return _store(ctx, var_key, var - mom_new)


register_op("ApplyCenteredRMSProp",
            infer=_apply_infer(("var", "mg", "ms", "mom", "lr", "rho", "momentum", "epsilon", "grad"), 4, 8),
            kernel=_centered_rms_prop_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2, 3))


def apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False, name=None):
    """Centered RMSProp update: `ms += (grad^2 - ms) * (1 - rho)`, `mg += (grad - mg) * (1 - rho)`,
    `mom = mom * momentum + lr * grad / sqrt(ms - mg^2 + epsilon)`, `var -= mom`.

    Args:
      var, mg, ms, mom: Variables of the same shape and float dtype.
      lr, rho, momentum, epsilon: Scalars of that dtype.
      grad: The gradient.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyCenteredRMSProp", [var, mg, ms, mom], [lr, rho, momentum, epsilon, grad],
                     {"use_locking": bool(use_locking)}, name)


# ---- ApplyAdadelta --------------------------------------------------------------------------------
def _adadelta_kernel(ctx, op, var_key, accum_key, accum_update_key, lr, rho, epsilon, grad, use_locking):
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        accum = ctx.read_variable(accum_key, op)
        accum_update = ctx.read_variable(accum_update_key, op)
        lr, rho, epsilon = _scalars(op, ("lr", "rho", "epsilon"), lr, rho, epsilon)
        _same_shapes(op, var, ("accum", "accum_update", "grad"), accum, accum_update, grad)
        one_minus_rho = 1 - rho
        accum_new = accum * rho
        accum_new += grad * grad * one_minus_rho
        update = np.sqrt(accum_update + epsilon)
        update /= np.sqrt(accum_new + epsilon)
        update *= grad
        accum_update_new = accum_update * rho
        accum_update_new += update * update * one_minus_rho
        _store(ctx, accum_key, accum_new)
        _store(ctx, accum_update_key, accum_update_new)
        return _store(ctx, var_key, var - update * lr)


register_op("ApplyAdadelta",
            infer=_apply_infer(("var", "accum", "accum_update", "lr", "rho", "epsilon", "grad"), 3, 6),
            kernel=_adadelta_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2))


def apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, use_locking=False, name=None):
    """Adadelta update: `accum = rho * accum + (1 - rho) * grad^2`,
    `update = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad`, `var -= lr * update`,
    `accum_update = rho * accum_update + (1 - rho) * update^2`.

    Args:
      var, accum, accum_update: Variables of the same shape and float dtype.
      lr, rho, epsilon: Scalars of that dtype.
      grad: The gradient.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyAdadelta", [var, accum, accum_update], [lr, rho, epsilon, grad],
                     {"use_locking": bool(use_locking)}, name)


# ---- ApplyFtrl / ApplyFtrlV2 ----------------------------------------------------------------------
def _checked_scalars(op, checks, values):
    """The scalar inputs as NumPy scalars of their dtype, each checked by `(message, predicate)` as
    TF's kernels do ("lr is not a positive scalar: []")."""
    out = []
    for (message, ok), a in zip(checks, values):
        if a.ndim or not ok(a[()]):
            raise errors.InvalidArgumentError(None, op, "%s: %s" % (message, _dims(a)))
        out.append(a[()])
    return out


_ANY = (lambda v: True)
_POSITIVE = (lambda v: v > 0)
_NON_NEGATIVE = (lambda v: v >= 0)
_FTRL_CHECKS = (("lr is not a scalar", _ANY), ("l1 regularization strength is not a scalar", _ANY),
                ("l2 regularization strength is not a scalar", _ANY))
_PROXIMAL_GD_CHECKS = (("alpha is not a scalar", _ANY),) + _FTRL_CHECKS[1:]
_LR_POWER_CHECK = ("lr_power is not a scalar", _ANY)
_SHRINKAGE_CHECK = ("l2 shrinkage regularization strength is not a scalar", _ANY)
_PROXIMAL_ADAGRAD_CHECKS = (("lr is not a positive scalar", _POSITIVE),
                            ("l1 regularization strength is not a non-negative scalar", _NON_NEGATIVE),
                            ("l2 regularization strength is not a non-negative scalar", _NON_NEGATIVE))


def _ftrl_math(var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage=None):
    """TF's FTRL-proximal step (core/kernels/training_ops.cc, ApplyFtrl/ApplyFtrlV2) in the variable's
    dtype, every scalar a NumPy scalar of that dtype: `(var, accum, linear)` after the step."""
    t = var.dtype.type
    new_accum = accum + grad * grad
    g = grad if l2_shrinkage is None else grad + (t(2) * l2_shrinkage) * var
    if lr_power == t(-0.5):
        new_accum_p, accum_p = np.sqrt(new_accum), np.sqrt(accum)
    else:
        new_accum_p, accum_p = np.power(new_accum, -lr_power), np.power(accum, -lr_power)
    sigma = new_accum_p - accum_p
    sigma /= lr
    sigma *= var
    linear_new = linear + (g - sigma)
    x = np.sign(linear_new) * l1
    x -= linear_new
    y = new_accum_p / lr
    y += t(2) * l2
    x /= y
    var_new = np.where(np.abs(linear_new) > l1, x, t(0)).astype(var.dtype, copy=False)
    return var_new, new_accum, linear_new


def _ftrl_scalars(op, lr, l1, l2, lr_power, l2_shrinkage=None):
    """The checked scalars (in TF's order: lr, l1, l2, [l2_shrinkage,] lr_power) in `_ftrl_math`'s order."""
    if l2_shrinkage is None:
        return _checked_scalars(op, _FTRL_CHECKS + (_LR_POWER_CHECK,), (lr, l1, l2, lr_power))
    lr, l1, l2, l2_shrinkage, lr_power = _checked_scalars(
        op, _FTRL_CHECKS + (_SHRINKAGE_CHECK, _LR_POWER_CHECK), (lr, l1, l2, l2_shrinkage, lr_power))
    return lr, l1, l2, lr_power, l2_shrinkage


def _ftrl_update(ctx, op, var_key, accum_key, linear_key, grad, indices, scalars):
    arrays = [ctx.read_variable(key, op) for key in (var_key, accum_key, linear_key)]

    def math(v, a, lin, g):
        return _ftrl_math(v, a, lin, g, *scalars)

    return _update(ctx, op, (var_key, accum_key, linear_key), arrays, ("accum", "linear", "grad"), grad, indices, math)


def _update(ctx, op, keys, arrays, names, grad, indices, math):
    """Applies `math(var, *slots, grad) -> (var, *slots)` to `arrays` (var and slots, read from `keys`)
    whole (`indices` None; `names` are the slots' and the gradient's, for the shape checks) or to
    their rows `indices` (`_sparse_update`), and stores the new arrays. Returns var's new value."""
    var, *slots = arrays
    if indices is None:
        _same_shapes(op, var, names, *slots, grad)
        new = math(var, *slots, grad)
    else:
        _same_shapes(op, var, names[:-1], *slots)
        new = _sparse_update(op, var, slots, grad, indices, math)
    for key, value in zip(keys[:0:-1], new[:0:-1]):
        _store(ctx, key, value)
    return _store(ctx, keys[0], new[0])


def _ftrl_kernel(ctx, op, var_key, accum_key, linear_key, grad, lr, l1, l2, lr_power, use_locking,
                 multiply_linear_by_lr=False):
    with ctx.lock if use_locking else _NO_LOCK:
        return _ftrl_update(ctx, op, var_key, accum_key, linear_key, grad, None,
                            _ftrl_scalars(op, lr, l1, l2, lr_power))


def _ftrl_v2_kernel(ctx, op, var_key, accum_key, linear_key, grad, lr, l1, l2, l2_shrinkage, lr_power, use_locking,
                    multiply_linear_by_lr=False):
    with ctx.lock if use_locking else _NO_LOCK:
        return _ftrl_update(ctx, op, var_key, accum_key, linear_key, grad, None,
                            _ftrl_scalars(op, lr, l1, l2, lr_power, l2_shrinkage))


register_op("ApplyFtrl", infer=_apply_infer(("var", "accum", "linear", "grad", "lr", "l1", "l2", "lr_power"), 3, 3),
            kernel=_ftrl_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2))
register_op("ApplyFtrlV2", infer=_apply_infer(("var", "accum", "linear", "grad", "lr", "l1", "l2", "l2_shrinkage",
                                               "lr_power"), 3, 3),
            kernel=_ftrl_v2_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2))


def apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, use_locking=False, name=None):
    """FTRL-proximal update (McMahan et al., 2013):
    `new_accum = accum + grad^2`,
    `linear += grad - (new_accum^(-lr_power) - accum^(-lr_power)) / lr * var`,
    `var = (sign(linear) * l1 - linear) / (new_accum^(-lr_power) / lr + 2 * l2)` where
    `|linear| > l1`, else 0; `accum = new_accum`.

    Args:
      var, accum, linear: Variables of the same shape and float dtype.
      grad: The gradient.
      lr: Scalar learning rate of that dtype.
      l1, l2: Scalar regularization strengths.
      lr_power: Scalar learning rate power (-0.5 is the usual value).
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyFtrl", [var, accum, linear], [grad, lr, l1, l2, lr_power],
                     {"use_locking": bool(use_locking), "multiply_linear_by_lr": False}, name)


def apply_ftrl_v2(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power, use_locking=False, name=None):
    """FTRL-proximal update with L2 shrinkage: as `apply_ftrl`, with `grad + 2 * l2_shrinkage * var`
    in place of `grad` in the update of `linear` (the accumulator still adds `grad^2`).

    Args:
      var, accum, linear: Variables of the same shape and float dtype.
      grad: The gradient.
      lr: Scalar learning rate of that dtype.
      l1, l2, l2_shrinkage: Scalar regularization strengths.
      lr_power: Scalar learning rate power.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyFtrlV2", [var, accum, linear], [grad, lr, l1, l2, l2_shrinkage, lr_power],
                     {"use_locking": bool(use_locking), "multiply_linear_by_lr": False}, name)


# ---- ApplyProximalGradientDescent ----------------------------------------------------------------
def _proximal_step(prox, lr_t, l1, l2):
    """The proximal (FOBOS) step of `prox = var - lr_t * grad`: soft-threshold by `lr_t * l1`, then
    shrink by `1 + l2 * lr_t` (TF's kernels)."""
    t = prox.dtype.type
    if l1 > 0:
        shrunk = np.abs(prox) - lr_t * l1
        np.maximum(shrunk, t(0), out=shrunk)
        shrunk *= np.sign(prox)
        shrunk /= t(1) + l2 * lr_t
        return shrunk
    return prox / (t(1) + l2 * lr_t)


def _proximal_gradient_descent_kernel(ctx, op, var_key, alpha, l1, l2, delta, indices=None, use_locking=False):
    """The ApplyProximalGradientDescent kernel, and with `indices` SparseApplyProximalGradientDescent's."""
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        alpha, l1, l2 = _checked_scalars(op, _PROXIMAL_GD_CHECKS, (alpha, l1, l2))

        def math(v, g):
            return (_proximal_step(v - g * alpha, alpha, l1, l2),)

        return _update(ctx, op, (var_key,), (var,), ("delta",), delta, indices, math)


register_op("ApplyProximalGradientDescent", infer=_apply_infer(("var", "alpha", "l1", "l2", "delta"), 1, 4),
            kernel=_proximal_gradient_descent_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0,))


def apply_proximal_gradient_descent(var, alpha, l1, l2, delta, use_locking=False, name=None):
    """Proximal gradient descent (FOBOS) update: `prox = var - alpha * delta`,
    `var = sign(prox) * max(|prox| - alpha * l1, 0) / (1 + alpha * l2)`.

    Args:
      var: A float Variable.
      alpha: Scalar learning rate of that dtype.
      l1, l2: Scalar L1 and L2 regularization strengths.
      delta: The change (gradient).
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyProximalGradientDescent", [var], [alpha, l1, l2, delta],
                     {"use_locking": bool(use_locking)}, name)


# ---- ApplyProximalAdagrad ------------------------------------------------------------------------
def _proximal_adagrad_kernel(ctx, op, var_key, accum_key, lr, l1, l2, grad, indices=None, use_locking=False):
    """The ApplyProximalAdagrad kernel, and with `indices` SparseApplyProximalAdagrad's."""
    with ctx.lock if use_locking else _NO_LOCK:
        var = ctx.read_variable(var_key, op)
        accum = ctx.read_variable(accum_key, op)
        lr, l1, l2 = _checked_scalars(op, _PROXIMAL_ADAGRAD_CHECKS, (lr, l1, l2))

        def math(v, a, g):
            return _proximal_adagrad_math(v, a, g, lr, l1, l2)

        return _update(ctx, op, (var_key, accum_key), (var, accum), ("accum", "grad"), grad, indices, math)


def _proximal_adagrad_math(var, accum, grad, lr, l1, l2):
    """TF's proximal Adagrad step in the variable's dtype: `(var, accum)` after the step."""
    accum = accum + grad * grad
    lr_t = var.dtype.type(1) / np.sqrt(accum)
    lr_t *= lr
    return _proximal_step(var - grad * lr_t, lr_t, l1, l2), accum


register_op("ApplyProximalAdagrad", infer=_apply_infer(("var", "accum", "lr", "l1", "l2", "grad"), 2, 5),
            kernel=_proximal_adagrad_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1))


def apply_proximal_adagrad(var, accum, lr, l1, l2, grad, use_locking=False, name=None):
    """Proximal Adagrad update: `accum += grad^2`, `lr_t = lr / sqrt(accum)`,
    `prox = var - lr_t * grad`, `var = sign(prox) * max(|prox| - lr_t * l1, 0) / (1 + lr_t * l2)`.

    Args:
      var, accum: Variables of the same shape and float dtype.
      lr: Scalar learning rate (> 0) of that dtype.
      l1, l2: Scalar regularization strengths (>= 0).
      grad: The gradient.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("ApplyProximalAdagrad", [var, accum], [lr, l1, l2, grad], {"use_locking": bool(use_locking)},
                     name)


# ---- the sparse updates: SparseApplyFtrl(V2), SparseApplyProximalGradientDescent/Adagrad -----------
def _sparse_update(op, var, slots, grad, indices, math):
    """Applies `math(var_rows, *slot_rows, grad_rows) -> (var_rows, *slot_rows)` to the rows of `var`
    and `slots` named by `indices` (TF's SparseApply* kernels: other rows are untouched; a repeated
    index is updated once per occurrence, in order). Returns new arrays `(var, *slots)`."""
    if var.ndim < 1:
        raise errors.InvalidArgumentError(None, op, "var must be at least 1 dimensional")
    if indices.ndim != 1:
        raise errors.InvalidArgumentError(None, op, "indices must be one-dimensional")
    for d in range(1, var.ndim):
        if grad.ndim != var.ndim or var.shape[d] != grad.shape[d]:
            raise errors.InvalidArgumentError(None, op, "var and grad must match in dimension %d" % d)
    if grad.shape[0] != indices.shape[0]:
        raise errors.InvalidArgumentError(None, op, "grad must be the same size as indices in the first dimension.")
    bad = np.flatnonzero((indices < 0) | (indices >= var.shape[0]))
    if bad.size:
        raise errors.InvalidArgumentError(None, op, "Index %d at offset %d in indices is out of range"
                                          % (indices[bad[0]], bad[0]))
    out = [a.copy() for a in (var,) + tuple(slots)]
    if np.unique(indices).size == indices.size:
        rows = math(*[a[indices] for a in out], grad)
        for a, r in zip(out, rows):
            a[indices] = r
    else:
        for i, index in enumerate(indices):
            rows = math(*[a[index:index + 1] for a in out], grad[i:i + 1])
            for a, r in zip(out, rows):
                a[index:index + 1] = r
    return out


def _sparse_ftrl_kernel(ctx, op, var_key, accum_key, linear_key, grad, indices, lr, l1, l2, lr_power, use_locking,
                        multiply_linear_by_lr=False):
    with ctx.lock if use_locking else _NO_LOCK:
        return _ftrl_update(ctx, op, var_key, accum_key, linear_key, grad, indices,
                            _ftrl_scalars(op, lr, l1, l2, lr_power))


def _sparse_ftrl_v2_kernel(ctx, op, var_key, accum_key, linear_key, grad, indices, lr, l1, l2, l2_shrinkage, lr_power,
                           use_locking, multiply_linear_by_lr=False):
    with ctx.lock if use_locking else _NO_LOCK:
        return _ftrl_update(ctx, op, var_key, accum_key, linear_key, grad, indices,
                            _ftrl_scalars(op, lr, l1, l2, lr_power, l2_shrinkage))


_SPARSE_FTRL_NAMES = ("var", "accum", "linear", "grad", "indices", "lr", "l1", "l2")
register_op("SparseApplyFtrl", infer=_apply_infer(_SPARSE_FTRL_NAMES + ("lr_power",), 3, 3, 4),
            kernel=_sparse_ftrl_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2))
register_op("SparseApplyFtrlV2",
            infer=_apply_infer(_SPARSE_FTRL_NAMES + ("l2_shrinkage", "lr_power"), 3, 3, 4),
            kernel=_sparse_ftrl_v2_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2))


def sparse_apply_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power, use_locking=False, name=None):
    """The FTRL-proximal update of `apply_ftrl` on the rows `indices` of `var`, `accum` and `linear`
    (`grad[i]` is the gradient of row `indices[i]`); other rows are unchanged.

    Args:
      var, accum, linear: Variables of the same shape and float dtype.
      grad: The gradient rows: `[len(indices)] + var.shape[1:]`.
      indices: An int32 or int64 vector of row indices into `var`.
      lr, l1, l2, lr_power: Scalars of `var`'s dtype, as in `apply_ftrl`.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("SparseApplyFtrl", [var, accum, linear], [grad, lr, l1, l2, lr_power],
                     {"use_locking": bool(use_locking), "multiply_linear_by_lr": False}, name, indices, 1)


def sparse_apply_ftrl_v2(var, accum, linear, grad, indices, lr, l1, l2, l2_shrinkage, lr_power, use_locking=False,
                         name=None):
    """The FTRL-proximal update with L2 shrinkage of `apply_ftrl_v2` on the rows `indices`.

    Args:
      var, accum, linear: Variables of the same shape and float dtype.
      grad: The gradient rows: `[len(indices)] + var.shape[1:]`.
      indices: An int32 or int64 vector of row indices into `var`.
      lr, l1, l2, l2_shrinkage, lr_power: Scalars of `var`'s dtype, as in `apply_ftrl_v2`.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("SparseApplyFtrlV2", [var, accum, linear], [grad, lr, l1, l2, l2_shrinkage, lr_power],
                     {"use_locking": bool(use_locking), "multiply_linear_by_lr": False}, name, indices, 1)


register_op("SparseApplyProximalGradientDescent",
            infer=_apply_infer(("var", "alpha", "l1", "l2", "grad", "indices"), 1, 4, 5),
            kernel=_proximal_gradient_descent_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0,))


def sparse_apply_proximal_gradient_descent(var, alpha, l1, l2, grad, indices, use_locking=False, name=None):
    """The proximal gradient descent update of `apply_proximal_gradient_descent` on the rows
    `indices` of `var`; other rows are unchanged.

    Args:
      var: A float Variable.
      alpha, l1, l2: Scalars of `var`'s dtype.
      grad: The gradient rows: `[len(indices)] + var.shape[1:]`.
      indices: An int32 or int64 vector of row indices into `var`.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("SparseApplyProximalGradientDescent", [var], [alpha, l1, l2, grad],
                     {"use_locking": bool(use_locking)}, name, indices, 4)


register_op("SparseApplyProximalAdagrad",
            infer=_apply_infer(("var", "accum", "lr", "l1", "l2", "grad", "indices"), 2, 5, 6),
            kernel=_proximal_adagrad_kernel, grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1))


def sparse_apply_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, use_locking=False, name=None):
    """The proximal Adagrad update of `apply_proximal_adagrad` on the rows `indices` of `var` and
    `accum`; other rows are unchanged.

    Args:
      var, accum: Variables of the same shape and float dtype.
      lr, l1, l2: Scalars of `var`'s dtype (`lr > 0`, `l1, l2 >= 0`).
      grad: The gradient rows: `[len(indices)] + var.shape[1:]`.
      indices: An int32 or int64 vector of row indices into `var`.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ.
      ValueError: If the static shapes are incompatible.
    """
    return _apply_op("SparseApplyProximalAdagrad", [var, accum], [lr, l1, l2, grad],
                     {"use_locking": bool(use_locking)}, name, indices, 4)
