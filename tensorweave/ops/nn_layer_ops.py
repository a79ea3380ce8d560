"""Neural-network ops a layer is built of: bias_add (and xw_plus_b, relu_layer), dropout,
and in_top_k."""

import numbers

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.tensor_shape import TensorShape, as_shape
from .nn_activation_ops import relu
from .random_ops import random_uniform


# ---- BiasAdd / BiasAddGrad -------------------------------------------------------------------
def _channel_axis(data_format, rank):
    return 1 if data_format == "NCHW" else rank - 1


def _bias_add_infer(op):
    value, bias = op._inputs
    if value.dtype is not bias.dtype:
        raise TypeError("Input 'bias' of 'BiasAdd' Op has type %s that does not match type %s of argument "
                        "'value'." % (bias.dtype.name, value.dtype.name))
    if bias.shape.ndims not in (None, 1):
        raise ValueError("Shape must be rank 1 but is rank %d" % bias.shape.ndims)
    b = bias.shape.as_tuple()[0] if bias.shape.ndims == 1 else None
    vdims = value.shape.as_tuple()
    if vdims is None:
        return [(value.dtype, None)]
    if len(vdims) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(vdims))
    c = _channel_axis(op._attrs["data_format"], len(vdims))
    if vdims[c] is not None and b is not None and vdims[c] != b:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (vdims[c], b))
    out = list(vdims)
    out[c] = vdims[c] if vdims[c] is not None else b
    return [(value.dtype, tuple(out))]


def _bias_add_kernel(xp, value, bias, data_format):
    if data_format == "NCHW":
        return value + bias.reshape((-1,) + (1,) * (value.ndim - 2))
    return value + bias


def _bias_add_grad(op, grad):
    """d(x + b)/dx = 1; d/db sums the gradient over every axis but the channel axis."""
    return [grad, ops.apply_op("BiasAddGrad", [grad], {"data_format": op._attrs["data_format"]})]


register_op("BiasAdd", infer=_bias_add_infer, kernel=_bias_add_kernel, grad=_bias_add_grad, gpu=True)


def _bias_add_grad_infer(op):
    g = op._inputs[0]
    dims = g.shape.as_tuple()
    if dims is None:
        return [(g.dtype, (None,))]
    if len(dims) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(dims))
    return [(g.dtype, (dims[_channel_axis(op._attrs["data_format"], len(dims))],))]


def _bias_add_grad_kernel(xp, out_backprop, data_format):
    c = _channel_axis(data_format, out_backprop.ndim)
    return out_backprop.sum(axis=tuple(i for i in range(out_backprop.ndim) if i != c))


def _bias_add_grad_grad(op, grad):
    """BiasAddGrad is a sum over non-channel axes: its gradient broadcasts back along them."""
    g = op._inputs[0]
    if op._attrs["data_format"] == "NCHW":
        from . import array_ops
        rank = g.shape.ndims
        if rank is None:
            raise ValueError("The rank of the BiasAddGrad input must be known to differentiate it.")
        grad = array_ops.reshape(grad, [-1] + [1] * (rank - 2))
    return [ops.apply_op("BroadcastLike", [grad, g])]


register_op("BiasAddGrad", infer=_bias_add_grad_infer, kernel=_bias_add_grad_kernel, grad=_bias_add_grad_grad,
            gpu=True)


def bias_add(value, bias, data_format=None, name=None):
    """Adds `bias` to `value` along its channel dimension (the last one, or dimension 1 for "NC...").

    Args:
      value: A `Tensor` of rank at least 2.
      bias: A 1-D `Tensor` whose size matches the channel dimension of `value`.
      data_format: A string: "NHWC" (default; any "N...C") or "NCHW" (any "NC...").
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type as `value`.

    Raises:
      ValueError: If `data_format` is not of the form "N...C" or "NC...", or on bad shapes.
    """
    with ops.name_scope(name, "BiasAdd", [value, bias]) as name:
        if data_format is None:
            data_format = "NHWC"
        elif data_format.startswith("NC"):
            data_format = "NCHW"
        elif data_format.startswith("N") and data_format.endswith("C"):
            data_format = "NHWC"
        else:
            raise ValueError("data_format must be of the form `N...C` or `NC...`")
        value = ops.convert_to_tensor(value, name="input")
        bias = ops.convert_to_tensor(bias, dtype=value.dtype, name="bias")
        return ops.apply_op("BiasAdd", [value, bias], {"data_format": data_format}, name=name)


def xw_plus_b(x, weights, biases, name=None):
    """Computes `matmul(x, weights) + biases`.

    Args:
      x: a 2D tensor. Dimensions typically: batch, in_units.
      weights: a 2D tensor. Dimensions typically: in_units, out_units.
      biases: a 1D tensor. Dimensions: out_units.
      name: A name for the operation (optional); default "xw_plus_b".

    Returns:
      A 2-D Tensor computing `matmul(x, weights) + biases`.
    """
    from . import math_ops
    with ops.name_scope(name, "xw_plus_b", [x, weights, biases]) as name:
        x = ops.convert_to_tensor(x, name="x")
        weights = ops.convert_to_tensor(weights, name="weights")
        biases = ops.convert_to_tensor(biases, name="biases")
        mm = math_ops.matmul(x, weights)
        return bias_add(mm, biases, name=name)


def relu_layer(x, weights, biases, name=None):
    """Computes `relu(matmul(x, weights) + biases)`.

    Args:
      x: a 2D tensor. Dimensions typically: batch, in_units.
      weights: a 2D tensor. Dimensions typically: in_units, out_units.
      biases: a 1D tensor. Dimensions: out_units.
      name: A name for the operation (optional); default "relu_layer".

    Returns:
      A 2-D Tensor computing `relu(matmul(x, weights) + biases)`.
    """
    from . import math_ops
    with ops.name_scope(name, "relu_layer", [x, weights, biases]) as name:
        x = ops.convert_to_tensor(x, name="x")
        weights = ops.convert_to_tensor(weights, name="weights")
        biases = ops.convert_to_tensor(biases, name="biases")
        xw_plus_b_v1 = bias_add(math_ops.matmul(x, weights), biases)
        return relu(xw_plus_b_v1, name=name)


# ---- dropout ---------------------------------------------------------------------------------
def _noise_shape(x, noise_shape):
    if noise_shape is None:
        from .core_ops import shape
        return shape(x)
    try:
        ns = as_shape(noise_shape)
    except (TypeError, ValueError):
        return noise_shape
    xd = x.shape.as_tuple()
    nd = ns.as_tuple()
    if xd is not None and nd is not None and len(xd) == len(nd):
        return [d if n is None and d is not None else n for d, n in zip(xd, nd)]
    return noise_shape


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """Computes dropout: each element of `x` is zeroed with probability `rate = 1 - keep_prob`,
    and the kept ones are scaled by `1 / keep_prob`, so that the expected sum is unchanged.

    Args:
      x: A floating point tensor.
      keep_prob: (deprecated) The probability that each element is kept; alias for `1 - rate`.
      noise_shape: A 1-D integer `Tensor`, the shape of the random keep/drop flags; it must
        broadcast to the shape of `x` (dimensions of size 1 are kept or dropped together).
      seed: A Python integer, combined with the graph seed (see `tf.set_random_seed`).
      name: A name for this operation (optional).
      rate: The probability that each element of `x` is discarded.

    Returns:
      A Tensor of the same shape as `x`.

    Raises:
      ValueError: If `rate` is not in `[0, 1)` (i.e. `keep_prob` not in `(0, 1]`), both or neither
        of `keep_prob` and `rate` are given, or `x` is not a floating point tensor.
    """
    from . import math_ops
    if keep_prob is not None:
        if rate is not None:
            raise ValueError("Cannot specify both 'keep_prob' and 'rate'")
        if ops.is_tensor(keep_prob):
            rate = math_ops.subtract(1.0, keep_prob)
        else:
            try:
                rate = 1.0 - keep_prob
            except TypeError:
                raise ValueError("keep_prob must be a floating point number or Tensor (got %r)" % (keep_prob,)) \
                    from None
    if rate is None:
        raise ValueError("You must provide a rate to dropout.")
    with ops.name_scope(name, "dropout", [x]) as name:
        x = ops.convert_to_tensor(x, name="x")
        if not x.dtype.is_floating:
            raise ValueError("x has to be a floating point tensor since it's going to be scaled. Got a %s tensor "
                             "instead." % x.dtype)
        if isinstance(rate, numbers.Real) and not 0 <= rate < 1:
            raise ValueError("rate must be a scalar tensor or a float in the range [0, 1), got %g" % rate)
        if isinstance(rate, numbers.Real) and rate == 0:
            return x
        rate = ops.convert_to_tensor(rate, dtype=x.dtype, name="rate")
        rate.shape.assert_is_compatible_with(TensorShape(()))
        if rate.op.type == "Const" and rate.op.get_attr("value") == 0:
            return x
        noise_shape = _noise_shape(x, noise_shape)
        keep_prob = math_ops.subtract(1.0, rate)
        random_tensor = math_ops.add(keep_prob, random_uniform(noise_shape, seed=seed, dtype=x.dtype))
        binary_tensor = math_ops.floor(random_tensor)
        ret = math_ops.multiply(math_ops.divide(x, keep_prob), binary_tensor, name=name)
        ret.set_shape(x.shape)
        return ret


# ---- InTopKV2 --------------------------------------------------------------------------------
def _in_top_k_infer(op):
    predictions, targets, k = op._inputs
    if predictions.dtype is not dtypes.float32:
        raise TypeError("Value passed to parameter 'predictions' has DataType %s not in list of allowed values: "
                        "float32" % predictions.dtype.name)
    if targets.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError("Value passed to parameter 'targets' has DataType %s not in list of allowed values: "
                        "int32, int64" % targets.dtype.name)
    if k.dtype is not targets.dtype:
        raise TypeError("Input 'k' of 'InTopKV2' Op has type %s that does not match type %s of argument 'targets'."
                        % (k.dtype.name, targets.dtype.name))
    pd, td, kd = predictions.shape.as_tuple(), targets.shape.as_tuple(), k.shape.as_tuple()
    for dims, rank in ((pd, 2), (td, 1), (kd, 0)):
        if dims is not None and len(dims) != rank:
            raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(dims)))
    batch = None if pd is None else pd[0]
    if td is not None:
        if batch is not None and td[0] is not None and batch != td[0]:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (batch, td[0]))
        batch = td[0] if batch is None else batch
    return [(dtypes.bool_, (batch,))]


def _in_top_k_kernel(xp, predictions, targets, k):
    n, num_classes = predictions.shape
    if targets.shape != (n,):
        raise errors.InvalidArgumentError(None, None, "First dimension of predictions %d must match length of "
                                          "targets %d" % (n, targets.shape[0]))
    valid = (targets >= 0) & (targets < num_classes)
    target_pred = predictions[np.arange(n), np.where(valid, targets, 0).astype(np.intp)]
    valid &= np.isfinite(target_pred) & np.isfinite(predictions).all(axis=1)
    more_probable = (predictions > target_pred[:, None]).sum(axis=1)
    return valid & (more_probable < int(k))


register_op("InTopKV2", infer=_in_top_k_infer, kernel=_in_top_k_kernel, grad=NO_GRADIENT)


def in_top_k(predictions, targets, k, name=None):
    """Says whether the targets are in the top `K` predictions.

    `out[i]` is true iff fewer than `k` classes have a prediction strictly greater than
    `predictions[i, targets[i]]`: classes tied at the top-k boundary all count as in the top k.
    A target out of range, or a row with a non-finite prediction, gives false.

    Args:
      predictions: A `Tensor` of type `float32`, a `batch_size` x `classes` tensor.
      targets: A `Tensor` of type `int32` or `int64`, a `batch_size` vector of class ids.
      k: An `int` (or 0-D `Tensor` of the type of `targets`), the number of top elements to look at.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type `bool` of shape `[batch_size]`.

    Raises:
      ValueError: If the ranks are not 2 and 1 or the batch sizes differ.
      TypeError: If `predictions` is not float32 or `targets` not int32/int64.
    """
    with ops.name_scope(name, "in_top_k"):
        predictions = ops.convert_to_tensor(predictions, name="predictions")
        targets = ops.convert_to_tensor(targets, name="targets", preferred_dtype=dtypes.int32)
        k = ops.convert_to_tensor(k, name="k", preferred_dtype=targets.dtype)
        return ops.apply_op("InTopKV2", [predictions, targets, k], name=name)
