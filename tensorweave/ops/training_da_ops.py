"""The Adagrad dual-averaging update ops (TF's training_ops): ApplyAdagradDA and SparseApplyAdagradDA.

Both take the variable, its gradient accumulator and its squared-gradient accumulator as ref inputs,
accumulate the gradient, and set the variable from the accumulators alone (TF's
core/kernels/training_ops.cc, in the variable's dtype):

    g_acc += grad;  gg_acc += grad^2
    var = -sign(g_acc) * lr * max(|g_acc| - l1 * T, 0) / (l2 * T * lr + sqrt(gg_acc))   (l1 > 0)
    var = -g_acc * lr / (l2 * T * lr + sqrt(gg_acc))                                       (l1 == 0)

with `T` the int64 `global_step`.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from .training_ops import _NO_LOCK, _apply_infer, _dims, _ref, _same_shapes, _sparse_update, _store

_DENSE_NAMES = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "lr", "l1", "l2")
_SPARSE_NAMES = ("var", "gradient_accumulator", "gradient_squared_accumulator", "grad", "indices", "lr", "l1", "l2")


def _da_infer(names, indices_index=None):
    """`_apply_infer` for the inputs before `global_step`, which must be an int64 scalar."""
    base = _apply_infer(names, 3, 3, indices_index)

    def infer(op):
        step = op._inputs[len(names)]
        if step._dtype is not dtypes.int64:
            raise TypeError("Input 'global_step' of '%s' Op has type %s that does not match expected type of int64."
                            % (op._type, step._dtype.name))
        if step._shape.ndims not in (None, 0):
            raise ValueError("Shape must be rank 0 but is rank %d (input 'global_step')" % step._shape.ndims)
        return base(op)
    return infer


def _check_dtype(op, var):
    """TF registers the AdagradDA kernels for float32 and float64 only."""
    if var.dtype not in (np.float32, np.float64):
        raise errors.InvalidArgumentError(None, op, "No OpKernel was registered to support Op '%s' used by {{node %s}} "
                                          "with these attrs: [T=DT_%s]"
                                          % (op.type, op.name, _DT_NAMES.get(var.dtype.name, var.dtype.name.upper())))


_DT_NAMES = {"float16": "HALF", "float32": "FLOAT", "float64": "DOUBLE", "bool": "BOOL"}


def _scalar_inputs(op, lr, l1, l2, global_step):
    """The scalars as NumPy scalars (`global_step` a Python int), with TF's checks."""
    checks = (("lr is not a scalar", lr), ("l1 regularization strength is not a scalar", l1),
              ("l2 regularization strength is not a scalar", l2), ("global_step is not a scalar", global_step))
    for message, a in checks:
        if a.ndim:
            raise errors.InvalidArgumentError(None, op, "%s: %s" % (message, _dims(a)))
    return lr[()], l1[()], l2[()], int(global_step)


def _dense_math(var, g_acc, gg_acc, grad, lr, l1, l2, step):
    """TF's dense AdagradDA step (the ApplyAdagradDA functor): `(var, g_acc, gg_acc)` after it."""
    t = var.dtype.type
    g_acc = g_acc + grad
    gg_acc = gg_acc + grad * grad
    step_f = np.float32(step)  # static_cast<float>(global_step)
    denom = l2 * t(step_f * lr) + np.sqrt(gg_acc)
    with np.errstate(divide="ignore", invalid="ignore"):
        if l1 > 0:
            shrunk = np.maximum(np.abs(g_acc) - t(step_f) * l1, t(0))
            new = lr * t(-1) * np.sign(g_acc) * shrunk / denom
        else:
            new = lr * g_acc * t(-1) / denom
    return new.astype(var.dtype, copy=False), g_acc, gg_acc


def _rows_math(lr, l1, l2, step):
    """TF's SparseApplyAdagradDA step on rows of a variable whose rows have more than one element."""
    def math(v, ga, da, g):
        t = v.dtype.type
        ga = ga + g
        da = da + g * g
        step_t = t(step)
        gs_lr = t(step_t * lr)
        with np.errstate(divide="ignore", invalid="ignore"):
            denom = l2 + np.sqrt(da) / gs_lr
            if l1 > 0:
                new = t(-1) * np.sign(ga) * np.maximum(np.abs(ga) / step_t - l1, t(0)) / denom
            else:
                new = t(-1) * (ga / step_t) / denom
        return new.astype(v.dtype, copy=False), ga, da
    return math


def _elements_math(lr, l1, l2, step):
    """TF's SparseApplyAdagradDA step on a variable of one element per row (computed in double)."""
    lr_d, l1_d, l2_d = float(lr), float(l1), float(l2)
    gs_l1 = step * l1_d
    gs_l2_lr = step * l2_d * lr_d

    def math(v, ga, da, g):
        g = g.astype(np.float64)
        ga = (ga.astype(np.float64) + g).astype(v.dtype)
        da = (da.astype(np.float64) + g * g).astype(v.dtype)
        ga_d, da_d = ga.astype(np.float64), da.astype(np.float64)
        with np.errstate(divide="ignore", invalid="ignore"):
            if l1_d > 0:
                new = np.sign(-ga_d) * lr_d * np.maximum(np.abs(ga_d) - gs_l1, 0.0) / (gs_l2_lr + np.sqrt(da_d))
            else:
                new = (-ga_d * lr_d) / (gs_l2_lr + np.sqrt(da_d))
        return new.astype(v.dtype), ga, da
    return math


def _adagrad_da_kernel(ctx, op, var_key, g_key, gg_key, grad, lr, l1, l2, global_step, use_locking=False):
    with ctx.lock if use_locking else _NO_LOCK:
        var, g_acc, gg_acc = (ctx.read_variable(k, op) for k in (var_key, g_key, gg_key))
        _check_dtype(op, var)
        _same_shapes(op, var, ("accum", "accum", "grad"), g_acc, gg_acc, grad)
        scalars = _scalar_inputs(op, lr, l1, l2, global_step)
        new_var, new_g, new_gg = _dense_math(var, g_acc, gg_acc, grad, *scalars)
        _store(ctx, gg_key, new_gg)
        _store(ctx, g_key, new_g)
        return _store(ctx, var_key, new_var)


def _sparse_adagrad_da_kernel(ctx, op, var_key, g_key, gg_key, grad, indices, lr, l1, l2, global_step,
                              use_locking=False):
    with ctx.lock if use_locking else _NO_LOCK:
        var, g_acc, gg_acc = (ctx.read_variable(k, op) for k in (var_key, g_key, gg_key))
        _check_dtype(op, var)
        _same_shapes(op, var, ("accum", "accum"), g_acc, gg_acc)
        if var.ndim < 1:
            raise errors.InvalidArgumentError(None, op, "var must be at least 1 dimensional")
        if indices.ndim != 1:
            raise errors.InvalidArgumentError(None, op, "indices must be one-dimensional")
        scalars = _scalar_inputs(op, lr, l1, l2, global_step)
        for d in range(1, var.ndim):
            if grad.ndim != var.ndim or var.shape[d] != grad.shape[d]:
                raise errors.InvalidArgumentError(None, op, "var and grad must match in dimension %d" % d)
        inner = int(np.prod(var.shape[1:], dtype=np.int64))
        if grad.ndim < 1 or grad.shape[0] != indices.shape[0]:
            raise errors.InvalidArgumentError(None, op, "grad must be the same size as indices in the first dimension.")
        if inner <= 0:
            raise errors.InvalidArgumentError(None, op, "Inner dimension should be greater than zero.")
        if indices.shape[0] == 0:
            return var
        math = _rows_math(*scalars) if inner > 1 else _elements_math(*scalars)
        new_var, new_g, new_gg = _sparse_update(op, var, (g_acc, gg_acc), grad, indices, math)
        _store(ctx, gg_key, new_gg)
        _store(ctx, g_key, new_g)
        return _store(ctx, var_key, new_var)


register_op("ApplyAdagradDA", infer=_da_infer(_DENSE_NAMES), kernel=_adagrad_da_kernel, grad=NO_GRADIENT,
            stateful=True, ref_inputs=(0, 1, 2))
register_op("SparseApplyAdagradDA", infer=_da_infer(_SPARSE_NAMES, 4), kernel=_sparse_adagrad_da_kernel,
            grad=NO_GRADIENT, stateful=True, ref_inputs=(0, 1, 2))


def _build(op_type, refs, grad, indices, scalars, global_step, use_locking, name):
    """The op from the variable and accumulators `refs`, `grad`, [`indices`,] the scalars `lr, l1, l2`
    (converted to the variable's dtype) and `global_step` (an int64 scalar)."""
    refs = [_ref(r, op_type) for r in refs]
    ins = [x if isinstance(x, ops.Tensor) else ops.convert_to_tensor(x, dtype=refs[0].dtype)
           for x in [grad] + list(scalars)]
    if indices is not None:
        ins.insert(1, ops.convert_to_tensor(indices, name="indices"))
    if isinstance(global_step, ops.Tensor) or hasattr(global_step, "_ref"):
        step = ops.convert_to_tensor(global_step)
    else:
        step = ops.convert_to_tensor(global_step, dtype=dtypes.int64, name="global_step")
    return ops.apply_op(op_type, refs + ins + [step], {"use_locking": bool(use_locking)}, name=name)


def apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2, global_step,
                     use_locking=False, name=None):
    """Adagrad dual-averaging update (TF's `ApplyAdagradDA`):
    `g_acc += grad`, `gg_acc += grad^2`, then
    `var = -sign(g_acc) * lr * max(|g_acc| - l1 * global_step, 0) / (l2 * global_step * lr + sqrt(gg_acc))`.

    Args:
      var, gradient_accumulator, gradient_squared_accumulator: Variables of the same shape, float32 or
        float64 (TF has no kernel for other dtypes).
      grad: The gradient (var's shape and dtype).
      lr, l1, l2: Scalars of `var`'s dtype: learning rate, L1 and L2 strengths.
      global_step: An int64 scalar: the training step number.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ or `global_step` is not int64.
      ValueError: If the static shapes are incompatible.
    """
    return _build("ApplyAdagradDA", [var, gradient_accumulator, gradient_squared_accumulator], grad, None,
                  (lr, l1, l2), global_step, use_locking, name)


def sparse_apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, indices, lr, l1, l2,
                            global_step, use_locking=False, name=None):
    """The Adagrad dual-averaging update of `apply_adagrad_da` on the rows `indices` (TF's
    `SparseApplyAdagradDA`); other rows are unchanged, a repeated index is updated once per occurrence.

    Args:
      var, gradient_accumulator, gradient_squared_accumulator: Variables of the same shape, float32 or float64.
      grad: The gradient rows: `[len(indices)] + var.shape[1:]`.
      indices: An int32 or int64 vector of row indices into `var`.
      lr, l1, l2: Scalars of `var`'s dtype.
      global_step: An int64 scalar.
      use_locking: Hold the session lock during the update.
      name: Op name.

    Returns:
      The variable's new value.

    Raises:
      TypeError: If the dtypes differ or `global_step` is not int64.
      ValueError: If the static shapes are incompatible.
    """
    return _build("SparseApplyAdagradDA", [var, gradient_accumulator, gradient_squared_accumulator], grad, indices,
                  (lr, l1, l2), global_step, use_locking, name)
