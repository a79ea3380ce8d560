"""QuantizedConv2D (`tf.nn.quantized_conv2d`): the 2-D convolution of quantized codes, as TF's CPU
kernels compute it (quint8 input, quint8 or qint8 filter, qint32 output). With a quint8 filter each
input and filter code is taken relative to the code that represents 0.0
(`FloatToQuantizedUnclamped(0, min, max)`; padding contributes nothing); TF's quint8 x qint8 kernel
multiplies the raw codes. The products are summed in integers into the 32-bit output, and the
output range is the one of a product of one quantized level of each input
(`QuantizationRangeForMultiplication`; the qint8 filter's levels span [-127, 127]). TF registers no
gradient."""

import collections

import numpy as np

from ..framework import dtypes, ops
from ..framework.registry import register_op
from .nn_conv3d_ops import _geometry_nd, _im2col_nd
from .nn_conv_geometry import _convert, _int_list_attr, _invalid, _static_dims, _string_attr

__all__ = ["quantized_conv2d"]

_QTYPES = (dtypes.qint8, dtypes.quint8, dtypes.qint16, dtypes.quint16, dtypes.qint32)
_QNAMES = "qint8, quint8, qint32, qint16, quint16"
_CODES = {"qint8": np.int8, "quint8": np.uint8, "qint16": np.int16, "quint16": np.uint16, "qint32": np.int32}

QuantizedConv2D = collections.namedtuple("QuantizedConv2D", ["output", "min_output", "max_output"])


def float_to_quantized_unclamped(value, range_min, range_max, code_dtype):
    """TF's `FloatToQuantizedUnclamped<T>`: the (unclamped) code of a float value."""
    info = np.iinfo(code_dtype)
    lowest = int(info.min)
    range_min, range_max = np.float32(range_min), np.float32(range_max)
    if range_min == range_max:
        return lowest
    steps = 1 << (8 * np.dtype(code_dtype).itemsize)
    adjust = steps / (steps - 1.0)
    span = float(np.float32(range_max - range_min)) * adjust
    scale = steps / span

    def c_round(v):  # C's round: half away from zero
        return float(np.sign(v) * np.floor(abs(v) + 0.5))

    return int(c_round(float(np.float32(value)) * scale) - c_round(float(range_min) * scale)) + lowest


def float_for_one_level(range_min, range_max, code_dtype, symmetric=False):
    """TF's `FloatForOneQuantizedLevel<T>` (float32 arithmetic); `symmetric`: over the codes
    `[-highest, highest]` (TF's quint8 x qint8 kernel, for its qint8 filter)."""
    info = np.iinfo(code_dtype)
    lowest = -int(info.max) if symmetric else int(info.min)
    return np.float32(np.float32(range_max) - np.float32(range_min)) / np.float32(int(info.max) - lowest)


def _code_dtype(dtype):
    return _CODES[dtype.name]


def _infer(op):
    x, f = op._inputs[:2]
    for arg, t in (("input", x), ("filter", f)):
        if t.dtype not in _QTYPES:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                            % (arg, t.dtype.name, _QNAMES))
    for arg, t in zip(("min_input", "max_input", "min_filter", "max_filter"), op._inputs[2:]):
        if t.dtype is not dtypes.float32:
            raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: float32"
                            % (arg, t.dtype.name))
        _static_dims(t, 0)
    a = op._attrs
    xd, fd = _static_dims(x, 4), _static_dims(f, 4)
    if xd[3] is not None and fd[2] is not None and xd[3] != fd[2]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (xd[3], fd[2]))
    g = _geometry_nd(xd, fd[:2], a["strides"][1:3], a["dilations"][1:3], a["padding"], static=True)
    return [(a["out_type"], (xd[0],) + g.out + (fd[3],)), (dtypes.float32, ()), (dtypes.float32, ())]


def _kernel(xp, x, f, min_input, max_input, min_filter, max_filter, out_type, strides, padding, dilations):
    if x.ndim != 4 or f.ndim != 4:
        raise _invalid("input and filter must be 4-dimensional: %s %s" % (list(x.shape), list(f.shape)))
    if strides[0] != 1 or strides[3] != 1:
        raise _invalid("Current implementation does not yet support strides in the batch and depth dimensions.")
    if strides[1] != strides[2]:
        raise _invalid("Current implementation only supports equal length strides in the row and column dimensions.")
    if dilations[1] != 1 or dilations[2] != 1 or dilations[0] != 1 or dilations[3] != 1:
        raise _invalid("Current implementation only supports dilated rate as 1 in the row and column dimensions.")
    if x.shape[3] != f.shape[2]:
        raise _invalid("input and filter must have the same depth: %d vs %d" % (x.shape[3], f.shape[2]))
    xc, fc = (a.view(a.dtype[0]) if a.dtype.names else a for a in (x, f))
    if xc.dtype != np.uint8 or fc.dtype not in (np.uint8, np.int8) or out_type != dtypes.qint32:
        raise _invalid("QuantizedConv2D runs quint8 inputs with quint8 or qint8 filters into qint32 (TF's kernels), "
                       "not %s, %s into %s" % (x.dtype[0] if x.dtype.names else x.dtype,
                                               f.dtype[0] if f.dtype.names else f.dtype, out_type.name))
    if fc.dtype == np.uint8:
        off_x = float_to_quantized_unclamped(0.0, min_input, max_input, xc.dtype)
        off_f = float_to_quantized_unclamped(0.0, min_filter, max_filter, fc.dtype)
    else:
        off_x = off_f = 0  # TF's quint8 x qint8 kernel multiplies the raw codes
    xs = xc.astype(np.int64) - off_x
    fs = (fc.astype(np.int64) - off_f).reshape(-1, f.shape[3])
    g = _geometry_nd(x.shape, f.shape[:2], strides[1:3], [1, 1], padding)
    out = (_im2col_nd(xs, g) @ fs).reshape((g.n,) + g.out + (f.shape[3],))
    code = _code_dtype(out_type)
    result = np.ascontiguousarray(out.astype(code))
    level = (float_for_one_level(min_input, max_input, xc.dtype)
             * float_for_one_level(min_filter, max_filter, fc.dtype, symmetric=fc.dtype == np.int8))
    info = np.iinfo(code)
    lo = np.float32(level * np.float32(int(info.min)))
    hi = np.float32(level * np.float32(int(info.max)))
    np_out = out_type.as_numpy_dtype
    return result.view(np_out) if np.dtype(np_out).names else result, lo, hi


register_op("QuantizedConv2D", infer=_infer, kernel=_kernel)


def quantized_conv2d(input, filter, min_input, max_input, min_filter, max_filter, strides, padding,  # noqa: A002
                     out_type=dtypes.qint32, dilations=[1, 1, 1, 1], name=None):  # noqa: A002
    """Computes a 2-D convolution of quantized 4-D `input` (NHWC) and `filter` codes.

    Each code is taken relative to the code of 0.0 in its range, and the products are summed into
    `out_type` codes whose range is returned with them.

    Args:
      input: A 4-D quantized `Tensor` `[batch, height, width, in_channels]`.
      filter: A 4-D quantized `Tensor` `[filter_height, filter_width, in_channels, out_channels]`.
      min_input: A float32 scalar: the float value of the lowest input code.
      max_input: A float32 scalar: the float value of the highest input code.
      min_filter: A float32 scalar: the float value of the lowest filter code.
      max_filter: A float32 scalar: the float value of the highest filter code.
      strides: A list of 4 ints (equal row and column strides).
      padding: `"SAME"` or `"VALID"`.
      out_type: The output's quantized type (default `tf.qint32`).
      dilations: A list of 4 ints (all 1).
      name: A name for the operation (optional).

    Returns:
      A tuple `(output, min_output, max_output)`.

    Raises:
      ValueError: For bad attributes or a channel count mismatch.
      TypeError: For non-quantized inputs.
    """
    padding = _string_attr(padding, "padding", "QuantizedConv2D", ("SAME", "VALID"))
    strides = _int_list_attr(strides, "strides", "QuantizedConv2D")
    dilations = _int_list_attr(dilations, "dilations", "QuantizedConv2D")
    for what, values in (("stride", strides), ("dilation", dilations)):
        if len(values) != 4:
            raise ValueError("QuantizedConv2D requires the %s attribute to contain 4 values, but got: %d"
                             % (what, len(values)))
    out_type = dtypes.as_dtype(out_type)
    if out_type not in _QTYPES:
        raise TypeError("Value passed to parameter 'out_type' has DataType %s not in list of allowed values: %s"
                        % (out_type.name, _QNAMES))
    x = _convert(input, "input")
    f = _convert(filter, "filter")
    ranges = [ops.convert_to_tensor(v, dtype=dtypes.float32, name=n)
              for v, n in ((min_input, "min_input"), (max_input, "max_input"), (min_filter, "min_filter"),
                           (max_filter, "max_filter"))]
    attrs = {"out_type": out_type, "strides": strides, "padding": padding, "dilations": dilations}
    return QuantizedConv2D(*ops.apply_op("QuantizedConv2D", [x, f] + ranges, attrs, name=name))
