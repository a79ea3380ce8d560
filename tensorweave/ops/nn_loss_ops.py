"""Neural-network ops: losses and statistics: l2_loss/l2_normalize, the softmax, sparse softmax,
sigmoid and weighted cross entropies, batch_normalization and moments."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from ..framework.tensor_shape import as_shape
from .core_ops import stop_gradient, zeros_like
from .nn_activation_ops import _axis_arg, _check_dtype, _is_zero, relu


# ---- L2Loss ----------------------------------------------------------------------------------
def _l2_loss_infer(op):
    _check_dtype(op._inputs[0], True, "t")
    return [(op._inputs[0].dtype, ())]


def _l2_loss_kernel(xp, t):
    v = t.reshape(-1)
    r = v.dot(v) / 2  # ndarray.dot: matmul's result at half its call cost
    return r if r.dtype == t.dtype else r.astype(t.dtype)


def _l2_loss_grad(op, grad):
    """d(sum(x**2) / 2)/dx = x."""
    from . import math_ops
    return [math_ops.multiply(op._inputs[0], grad)]


register_op("L2Loss", infer=_l2_loss_infer, kernel=_l2_loss_kernel, grad=_l2_loss_grad, gpu=True)


def l2_loss(t, name=None):
    """Computes half the L2 norm of a tensor without the sqrt: `sum(t ** 2) / 2`.

    Args:
      t: A floating `Tensor`.
      name: A name for the operation (optional).

    Returns:
      A scalar `Tensor`. Has the same type as `t`.
    """
    return ops.apply_op("L2Loss", [ops.convert_to_tensor(t, name="t")], name=name)


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """Normalizes along dimension `axis` using an L2 norm:
    `x / sqrt(max(sum(x**2, axis), epsilon))`.

    Args:
      x: A `Tensor`.
      axis: Dimension(s) along which to normalize (default: all).
      epsilon: A lower bound value for the norm; `sqrt(epsilon)` is used as the divisor if
        `norm < sqrt(epsilon)`.
      name: A name for this operation (optional).
      dim: Deprecated alias for axis.

    Returns:
      A `Tensor` with the same shape as `x`.

    Raises:
      ValueError: If both `axis` and `dim` are given.
    """
    from . import math_ops
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'dim' and 'axis'")
        axis = dim
    with ops.name_scope(name, "l2_normalize", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        square_sum = math_ops.reduce_sum(math_ops.square(x), axis, keepdims=True)
        x_inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=name)


# ---- SoftmaxCrossEntropyWithLogits -----------------------------------------------------------
def _xent_infer(op):
    features, labels = op._inputs
    _check_dtype(features, True)
    if labels.dtype is not features.dtype:
        raise TypeError("Input 'labels' of 'SoftmaxCrossEntropyWithLogits' Op has type %s that does not match "
                        "type %s of argument 'features'." % (labels.dtype.name, features.dtype.name))
    fs, ls = features.shape, labels.shape
    if fs.ndims is not None and ls.ndims is not None and fs.ndims != ls.ndims:
        raise ValueError("Shapes must be equal rank, but are %d and %d" % (fs.ndims, ls.ndims))
    if fs.ndims is not None and ls.ndims is not None:
        for a, b in zip(fs.as_tuple(), ls.as_tuple()):
            if a is not None and b is not None and a != b:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
    shape = fs.merge_with(ls)
    if shape.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    dims = shape.as_tuple()
    return [(features.dtype, None if dims is None else dims[:-1]), (features.dtype, dims)]


def _no_classes(xp, features, loss_shape):
    """A cross entropy over zero classes: a zero loss per row and an empty backprop, as TF."""
    return xp.zeros(loss_shape, features.dtype), features.copy()


def _xent_kernel(xp, features, labels):
    if features.shape[-1] == 0:
        return _no_classes(xp, features, np.broadcast_shapes(features.shape, labels.shape)[:-1])
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    loss = (labels * (log_sum - shifted)).sum(axis=-1)
    backprop = np.exp(shifted - log_sum) - labels
    return np.asarray(loss, features.dtype), backprop


def _xent_second_order(grad, grad_grad, logits):
    """The logits gradient plus the term from the backprop output: J_softmax^T gg."""
    from . import math_ops
    if _is_zero(grad_grad):
        return grad
    s = ops.apply_op("Softmax", [logits])
    inner = math_ops.reduce_sum(math_ops.multiply(grad_grad, s), -1, keepdims=True)
    return math_ops.add(grad, math_ops.multiply(math_ops.subtract(grad_grad, inner), s))


def _xent_grad(op, grad_loss, grad_grad):
    """d loss/d logits = g * (softmax(logits) - labels); d loss/d labels = -g * log_softmax(logits);
    the backprop output adds softmax's Jacobian term for logits and -gg for labels."""
    from . import array_ops, math_ops
    g = array_ops.expand_dims(grad_loss, -1)
    logits = op._inputs[0]
    grad = _xent_second_order(math_ops.multiply(g, op._outputs[1]), grad_grad, logits)
    grad_labels = math_ops.multiply(g, math_ops.negative(ops.apply_op("LogSoftmax", [logits])))
    if not _is_zero(grad_grad):
        grad_labels = math_ops.subtract(grad_labels, grad_grad)
    return [grad, grad_labels]


def _xent_xp(xp, features, labels):
    """The accelerator kernel: `_xent_kernel` without NumPy arrays mixed in."""
    if features.shape[-1] == 0:
        return _no_classes(xp, features, np.broadcast_shapes(features.shape, labels.shape)[:-1])
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    loss = (labels * (log_sum - shifted)).sum(axis=-1)
    backprop = xp.exp(shifted - log_sum) - labels
    return loss.astype(features.dtype, copy=False), backprop


register_op("SoftmaxCrossEntropyWithLogits", infer=_xent_infer, kernel=_xent_kernel, grad=_xent_grad, gpu=_xent_xp)


def _ensure_xent_args(name, sentinel, labels, logits):
    if sentinel is not None:
        raise ValueError("Only call `%s` with named arguments (labels=..., logits=..., ...)" % name)
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")


def _move_axis_to_end(t, axis, rank):
    from . import array_ops
    perm = [i for i in range(rank) if i != axis] + [axis]
    return array_ops.transpose(t, perm)


def _move_axis_to_end_dynamic(t, axis):
    """`t` (of unknown rank) with axis `axis` (>= 0) moved last: TF's `_move_dim_to_end`."""
    from . import array_ops
    rank = array_ops.rank(t)
    perm = array_ops.concat([array_ops.range(axis), array_ops.range(axis + 1, rank), [axis]], 0)
    return array_ops.transpose(t, perm)


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Computes softmax cross entropy between `logits` and `labels`; gradients flow into both.

    `loss = -sum(labels * log_softmax(logits), axis)`, computed stably
    (`softmax_cross_entropy_with_logits_v2(labels=[.5, .5], logits=[1000., 0.])` is 500).

    Args:
      labels: Each vector along the class dimension should hold a valid probability distribution.
      logits: Unscaled log probabilities.
      axis: The class dimension. Defaulted to -1 which is the last dimension.
      name: A name for the operation (optional).
      dim: Deprecated alias for axis.

    Returns:
      A `Tensor` of the type of `logits` and the shape of `labels` without the class dimension.

    Raises:
      ValueError: On shape mismatch, if both `axis` and `dim` are given, or for a negative `axis`
        other than -1 on logits of unknown rank.
    """
    axis = _axis_arg(axis, dim)
    with ops.name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        if labels.dtype is not logits.dtype:
            from . import math_ops
            labels = math_ops.cast(labels, logits.dtype)
        rank = logits.shape.ndims
        if rank is not None and axis != -1 and axis != rank - 1:
            if not -rank <= axis < rank:
                raise ValueError("axis %d is out of range for logits of rank %d" % (axis, rank))
            logits = _move_axis_to_end(logits, axis % rank, rank)
            labels = _move_axis_to_end(labels, axis % rank, rank)
        elif rank is None and axis != -1:
            if axis < 0:
                raise ValueError("axis %d needs logits of known rank (TF moves the axis last with range(axis))"
                                 % axis)
            # As TF: the class axis moved last by a transpose built at run time.
            logits = _move_axis_to_end_dynamic(logits, axis)
            labels = _move_axis_to_end_dynamic(labels, axis)
        cost, _ = ops.apply_op("SoftmaxCrossEntropyWithLogits", [logits, labels], name=name)
        return cost


def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1, name=None,  # noqa: N803
                                      axis=None):
    """Computes softmax cross entropy between `logits` and `labels` (TF1's deprecated version):
    backpropagation happens only into `logits` (`labels` go through `stop_gradient`).

    Args:
      _sentinel: Used to prevent positional parameters. Internal, do not use.
      labels: Each vector along the class dimension should hold a valid probability distribution.
      logits: Unscaled log probabilities.
      dim: The class dimension. Defaulted to -1 which is the last dimension.
      name: A name for the operation (optional).
      axis: Alias for dim.

    Returns:
      A `Tensor` of the type of `logits` and the shape of `labels` without the class dimension.

    Raises:
      ValueError: If called with positional arguments, without labels or logits, or on shape
        mismatch.
    """
    if axis is not None:
        if dim != -1:
            raise ValueError("Cannot specify both 'dim' and 'axis'")
        dim = axis
    _ensure_xent_args("softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    with ops.name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as name:
        labels = stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=dim, name=name)


# ---- SparseSoftmaxCrossEntropyWithLogits -----------------------------------------------------
def _sparse_xent_infer(op):
    features, labels = op._inputs
    _check_dtype(features, True)
    if labels.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'labels' has DataType %s not in list of allowed values: "
                        "int32, int64" % labels.dtype.name)
    fdims = features.shape.as_tuple()
    ldims = labels.shape.as_tuple()
    if fdims is None:
        return [(features.dtype, ldims), (features.dtype, None if ldims is None else ldims + (None,))]
    shape = as_shape(fdims[:-1]).merge_with(labels.shape).as_tuple()
    return [(features.dtype, shape), (features.dtype, shape + fdims[-1:])]


def _sparse_xent_kernel(xp, features, labels):
    num_classes = features.shape[-1]
    bad = (labels < 0) | (labels >= num_classes)
    if bad.any():
        raise errors.InvalidArgumentError(
            None, None, "Received a label value of %d which is outside the valid range of [0, %d).  Label values: %s"
            % (labels[bad].flat[0], num_classes, " ".join(str(v) for v in labels.ravel())))
    if num_classes == 0:
        return _no_classes(xp, features, labels.shape)
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    # The label's entry of each row by fancy indexing on [rows, classes] views (take_along_axis's
    # index building costs more than the whole loss for small batches).
    rows = np.arange(labels.size)
    flat_labels = labels.reshape(-1).astype(np.intp, copy=False)
    picked = shifted.reshape(-1, num_classes)[rows, flat_labels].reshape(labels.shape)
    loss = log_sum[..., 0] - picked
    backprop = np.ascontiguousarray(np.exp(shifted - log_sum))  # (so the [rows, classes] reshape is a view)
    backprop.reshape(-1, num_classes)[rows, flat_labels] -= 1
    return np.asarray(loss, features.dtype), backprop


def _sparse_xent_grad(op, grad_loss, grad_grad):
    """d loss/d logits = g * (softmax(logits) - onehot(labels)) [+ softmax's Jacobian term from the
    backprop output]; labels are integers (no gradient)."""
    from . import array_ops, math_ops
    g = array_ops.expand_dims(grad_loss, -1)
    grad = _xent_second_order(math_ops.multiply(g, op._outputs[1]), grad_grad, op._inputs[0])
    return [grad, None]


def _sparse_xent_xp(xp, features, labels):
    """The accelerator kernel: the one-hot labels subtracted instead of `put_along_axis` (x - 0.0 is x,
    so only the label's entry changes: the same values)."""
    n = features.shape[-1]
    if ((labels < 0) | (labels >= n)).any():
        values = labels.ravel().tolist()
        bad = next(v for v in values if not 0 <= v < n)
        raise errors.InvalidArgumentError(
            None, None, "Received a label value of %d which is outside the valid range of [0, %d).  Label values: %s"
            % (bad, n, " ".join(str(v) for v in values)))
    if n == 0:
        return _no_classes(xp, features, labels.shape)
    shifted = features - features.max(axis=-1, keepdims=True)
    log_sum = xp.log(xp.exp(shifted).sum(axis=-1, keepdims=True))
    picked = xp.take_along_axis(shifted, labels[..., None].astype(np.int64), axis=-1)
    loss = (log_sum - picked)[..., 0]
    backprop = xp.exp(shifted - log_sum) - (labels[..., None] == xp.arange(n))
    return loss.astype(features.dtype, copy=False), backprop.astype(features.dtype, copy=False)


register_op("SparseSoftmaxCrossEntropyWithLogits", infer=_sparse_xent_infer, kernel=_sparse_xent_kernel,
            grad=_sparse_xent_grad, gpu=_sparse_xent_xp)


def sparse_softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):  # noqa: N803
    """Computes sparse softmax cross entropy between `logits` and integer class `labels`.

    Args:
      _sentinel: Used to prevent positional parameters. Internal, do not use.
      labels: `Tensor` of shape `[d_0, ..., d_{r-1}]` and dtype `int32` or `int64`; each entry
        must be an index in `[0, num_classes)` (others raise InvalidArgumentError at run time).
      logits: Unscaled log probabilities of shape `[d_0, ..., d_{r-1}, num_classes]`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape as `labels` and of the same type as `logits` with the loss.

    Raises:
      ValueError: If logits are scalars, or the rank of the labels is not the rank of the
        logits minus one, or their shapes disagree.
    """
    _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    with ops.name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = ops.convert_to_tensor(labels)
        logits = ops.convert_to_tensor(logits)
        lshape, fshape = labels.shape, logits.shape
        if fshape.ndims == 0:
            raise ValueError("Logits cannot be scalars - received shape %s." % fshape)
        if fshape.ndims is not None and lshape.ndims is not None and lshape.ndims != fshape.ndims - 1:
            raise ValueError("Rank mismatch: Rank of labels (received %s) should equal rank of logits minus 1 "
                             "(received %s)." % (lshape.ndims, fshape.ndims))
        outer = None if fshape.ndims is None else as_shape(fshape.as_tuple()[:-1])
        if lshape.is_fully_defined() and outer is not None and outer.is_fully_defined() and lshape != outer:
            raise ValueError("Shape mismatch: The shape of labels (received %s) should equal the shape of logits "
                             "except for the last dimension (received %s)." % (lshape, fshape))
        cost, _ = ops.apply_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels], name=name)
        return cost


# ---- composite losses and statistics ---------------------------------------------------------
def sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):  # noqa: N803
    """Computes sigmoid cross entropy given `logits`, in TF's overflow-free form
    `max(x, 0) - x * z + log(1 + exp(-abs(x)))` for logits `x` and labels `z`.

    Args:
      _sentinel: Used to prevent positional parameters. Internal, do not use.
      labels: A `Tensor` of the same type and shape as `logits`.
      logits: A `Tensor` of type `float32` or `float64`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the same shape as `logits` with the componentwise logistic losses.

    Raises:
      ValueError: If `logits` and `labels` do not have the same shape.
    """
    from . import array_ops, math_ops
    _ensure_xent_args("sigmoid_cross_entropy_with_logits", _sentinel, labels, logits)
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        try:
            labels.shape.merge_with(logits.shape)
        except ValueError:
            raise ValueError("logits and labels must have the same shape (%s vs %s)"
                             % (logits.shape, labels.shape)) from None
        zeros = zeros_like(logits)
        cond = math_ops.greater_equal(logits, zeros)
        relu_logits = array_ops.where(cond, logits, zeros)
        neg_abs_logits = array_ops.where(cond, math_ops.negative(logits), logits)
        return math_ops.add(math_ops.subtract(relu_logits, math_ops.multiply(logits, labels)),
                            math_ops.log1p(math_ops.exp(neg_abs_logits)), name=name)


def weighted_cross_entropy_with_logits(labels=None, logits=None, pos_weight=None, name=None, targets=None):
    """Computes a weighted sigmoid cross entropy, where positive labels weigh `pos_weight` times
    more: `(1 - z) * x + (1 + (q - 1) * z) * (log(1 + exp(-abs(x))) + max(-x, 0))` for logits `x`,
    labels `z` and `q = pos_weight` (the overflow-free form of TF).

    Args:
      labels: A `Tensor` of the same type and shape as `logits`.
      logits: A `Tensor` of type `float32` or `float64`.
      pos_weight: A coefficient to use on the positive examples.
      name: A name for the operation (optional).
      targets: Deprecated alias for labels.

    Returns:
      A `Tensor` of the same shape as `logits` with the componentwise weighted logistic losses.

    Raises:
      ValueError: If `logits` and `labels` do not have the same shape, or both `labels` and
        `targets` are given.
    """
    from . import math_ops
    if targets is not None:
        if labels is not None:
            raise ValueError("Cannot specify both 'targets' and 'labels'")
        labels = targets
    with ops.name_scope(name, "logistic_loss", [logits, labels]) as name:
        logits = ops.convert_to_tensor(logits, name="logits")
        labels = ops.convert_to_tensor(labels, name="labels")
        try:
            labels.shape.merge_with(logits.shape)
        except ValueError:
            raise ValueError("logits and labels must have the same shape (%s vs %s)"
                             % (logits.shape, labels.shape)) from None
        weight_minus_one = math_ops.subtract(pos_weight, 1.0) if ops.is_tensor(pos_weight) else pos_weight - 1
        log_weight = math_ops.add(1.0, math_ops.multiply(weight_minus_one, labels))
        softplus_neg = math_ops.add(math_ops.log1p(math_ops.exp(math_ops.negative(math_ops.abs(logits)))),
                                    relu(math_ops.negative(logits)))
        return math_ops.add(math_ops.multiply(math_ops.subtract(1.0, labels), logits),
                            math_ops.multiply(log_weight, softplus_neg), name=name)


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """Batch normalization: `scale * (x - mean) / sqrt(variance + variance_epsilon) + offset`,
    computed as `x * inv + (offset - mean * inv)` with `inv = scale * rsqrt(variance + eps)`.

    Args:
      x: Input `Tensor` of arbitrary dimensionality.
      mean: A mean `Tensor` (broadcastable to `x`).
      variance: A variance `Tensor` (broadcastable to `x`).
      offset: An offset `Tensor` (beta), or None.
      scale: A scale `Tensor` (gamma), or None.
      variance_epsilon: A small float number to avoid dividing by 0.
      name: A name for this operation (optional).

    Returns:
      The normalized, scaled, offset tensor.
    """
    from . import math_ops
    with ops.name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        x = ops.convert_to_tensor(x, name="x")
        inv = math_ops.rsqrt(math_ops.add(variance, variance_epsilon))
        if scale is not None:
            inv = math_ops.multiply(inv, scale)
        shift = math_ops.subtract(offset, math_ops.multiply(mean, inv)) if offset is not None else \
            math_ops.negative(math_ops.multiply(mean, inv))
        return math_ops.add(math_ops.multiply(x, math_ops.cast(inv, x.dtype)), math_ops.cast(shift, x.dtype))


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """Calculates the mean and variance of `x` over `axes`.

    The variance is `mean((x - stop_gradient(mean))**2)`, as in TF.

    Args:
      x: A `Tensor`.
      axes: Array of ints. Axes along which to compute mean and variance.
      shift: Not used in the current implementation (as in TF).
      name: Name used to scope the operations that compute the moments.
      keep_dims: Deprecated alias for `keepdims`.
      keepdims: Produce moments with the same dimensionality as the input.

    Returns:
      Two `Tensor` objects: `mean` and `variance`.

    Raises:
      ValueError: If both `keepdims` and `keep_dims` are given.
    """
    from . import array_ops, math_ops
    if keep_dims is not None:
        if keepdims is not None:
            raise ValueError("Cannot specify both 'keep_dims' and 'keepdims'")
        keepdims = keep_dims
    with ops.name_scope(name, "moments", [x, axes]):
        x = ops.convert_to_tensor(x, name="x")
        y = math_ops.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = math_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = math_ops.reduce_mean(math_ops.squared_difference(y, stop_gradient(mean)), axes, keepdims=True,
                                        name="variance")
        if not keepdims:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return math_ops.cast(mean, dtypes.float16), math_ops.cast(variance, dtypes.float16)
        return mean, variance
