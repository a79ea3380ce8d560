"""Quantized pooling: QuantizedMaxPool and QuantizedAvgPool (`tf.nn.quantized_max_pool`,
`tf.nn.quantized_avg_pool`) over the integer codes of a quantized NHWC tensor, the range
`[min_input, max_input]` passed through unchanged. Max pooling takes each window's largest code;
average pooling the mean of the window's non-padding codes, rounded half to even (TF's kernel
pools in float and rounds). TF registers no gradient for either."""

import collections

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .nn_conv3d_ops import _padded_nd, _tap_nd, _taps_nd
from .nn_conv_geometry import _convert, _int_list_attr, _invalid, _static_dims, _string_attr
from .nn_pool3d_ops import avg_counts_nd, max_pool_nd, pool_geometry_nd

__all__ = ["quantized_max_pool", "quantized_avg_pool"]

_QTYPES = (dtypes.qint8, dtypes.quint8, dtypes.qint16, dtypes.quint16, dtypes.qint32)
_QNAMES = "qint8, quint8, qint32, qint16, quint16"
_CODES = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16, "qint32": np.int32}

QuantizedPool = collections.namedtuple("QuantizedPool", ["output", "min_output", "max_output"])


def _attrs(op_type, ksize, strides, padding):
    padding = _string_attr(padding, "padding", op_type, ("SAME", "VALID"))
    ksize = _int_list_attr(ksize, "ksize", op_type)
    strides = _int_list_attr(strides, "strides", op_type)
    for name, values in (("ksize", ksize), ("strides", strides)):
        if len(values) != 4:
            raise ValueError("%s requires the %s attribute to contain 4 values, but got: %d"
                             % (op_type, name, len(values)))
    return {"ksize": ksize, "strides": strides, "padding": padding}


def _infer(op):
    x, lo, hi = op._inputs
    if x.dtype not in _QTYPES:
        raise TypeError("Value passed to parameter 'input' has DataType %s not in list of allowed values: %s"
                        % (x.dtype.name, _QNAMES))
    for arg, t in (("min_input", lo), ("max_input", hi)):
        if t.dtype is not dtypes.float32:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float32"
                            % (arg, t.dtype.name))
        _static_dims(t, 0)
    a = op._attrs
    xd = _static_dims(x, 4)
    g = pool_geometry_nd(xd, a["ksize"], a["strides"], a["padding"], "NHWC", static=True)
    return [(x.dtype, (xd[0],) + g.out + (xd[3],)), (dtypes.float32, ()), (dtypes.float32, ())]


def _setup(x, lo, hi, ksize, strides, padding):
    if x.ndim != 4:
        raise _invalid("tensor_in must be 4-dimensional")
    if np.ndim(lo) != 0 or np.ndim(hi) != 0:
        raise _invalid("min_input and max_input must be scalars")
    codes = x.view(_CODES[x.dtype.names[0]]) if x.dtype.names else x
    return codes, pool_geometry_nd(codes.shape, ksize, strides, padding, "NHWC")


def _max_kernel(xp, x, lo, hi, ksize, strides, padding):
    codes, g = _setup(x, lo, hi, ksize, strides, padding)
    out = np.ascontiguousarray(max_pool_nd(codes, g))
    return out.view(x.dtype), np.asarray(lo, np.float32), np.asarray(hi, np.float32)


def _avg_kernel(xp, x, lo, hi, ksize, strides, padding):
    codes, g = _setup(x, lo, hi, ksize, strides, padding)
    acc = np.float64 if codes.itemsize > 2 else np.float32
    xpad = _padded_nd(codes.astype(acc), g)
    total = np.zeros((g.n,) + g.out + (g.c,), acc)
    for tap in _taps_nd(g):
        total += _tap_nd(xpad, tap, g)
    mean = np.rint(total / avg_counts_nd(g, acc))
    out = np.ascontiguousarray(mean.astype(codes.dtype))
    return out.view(x.dtype), np.asarray(lo, np.float32), np.asarray(hi, np.float32)


register_op("QuantizedMaxPool", infer=_infer, kernel=_max_kernel)
register_op("QuantizedAvgPool", infer=_infer, kernel=_avg_kernel)


def _pool(op_type, input, min_input, max_input, ksize, strides, padding, name):  # noqa: A002
    attrs = _attrs(op_type, ksize, strides, padding)
    x = _convert(input, "input")
    lo = ops.convert_to_tensor(min_input, dtype=dtypes.float32, name="min_input")
    hi = ops.convert_to_tensor(max_input, dtype=dtypes.float32, name="max_input")
    return QuantizedPool(*ops.apply_op(op_type, [x, lo, hi], attrs, name=name))


def quantized_max_pool(input, min_input, max_input, ksize, strides, padding, name=None):  # noqa: A002
    """Produces the max pool of the input tensor for quantized types.

    Args:
      input: A 4-D NHWC `Tensor` of a quantized type (qint8, quint8, qint16, quint16, qint32).
      min_input: A float32 scalar: the float value the lowest quantized input value represents.
      max_input: A float32 scalar: the float value the highest quantized input value represents.
      ksize: A list of 4 ints: the window size per dimension.
      strides: A list of 4 ints: the window stride per dimension.
      padding: `"SAME"` or `"VALID"`.
      name: A name for the operation (optional).

    Returns:
      A tuple `(output, min_output, max_output)`: the pooled codes and the unchanged range.

    Raises:
      ValueError: For bad attributes.
      TypeError: For a non-quantized input.
    """
    return _pool("QuantizedMaxPool", input, min_input, max_input, ksize, strides, padding, name)


def quantized_avg_pool(input, min_input, max_input, ksize, strides, padding, name=None):  # noqa: A002
    """Produces the average pool of the input tensor for quantized types (each window's mean
    code, rounded half to even).

    Args:
      input: A 4-D NHWC `Tensor` of a quantized type (qint8, quint8, qint16, quint16, qint32).
      min_input: A float32 scalar: the float value the lowest quantized input value represents.
      max_input: A float32 scalar: the float value the highest quantized input value represents.
      ksize: A list of 4 ints: the window size per dimension.
      strides: A list of 4 ints: the window stride per dimension.
      padding: `"SAME"` or `"VALID"`.
      name: A name for the operation (optional).

    Returns:
      A tuple `(output, min_output, max_output)`: the pooled codes and the unchanged range.

    Raises:
      ValueError: For bad attributes.
      TypeError: For a non-quantized input.
    """
    return _pool("QuantizedAvgPool", input, min_input, max_input, ksize, strides, padding, name)
