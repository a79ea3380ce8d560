"""Diagonal and band ops of `tf.linalg`: MatrixBandPart, MatrixDiag, MatrixDiagPart, MatrixSetDiag,
Diag and DiagPart (batched over the leading dimensions, with TF's gradients), and `trace` and `eye`
built from them as TF builds them."""

import numbers

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import register_op
from . import core_ops
from .array_shape_ops import ones, zeros
from .math_helpers import _NUMERIC, _check_dtype, _const_value, _dims_text, _op_scope
from .math_reduce_ops import reduce_sum

_DIAG_TYPES = _NUMERIC + (dtypes.bool_,)


def _convert(x, name):
    x = ops.convert_to_tensor(x, name=name)
    _check_dtype(x, _DIAG_TYPES, name)
    return x


def _rank_infer(min_rank, out_shape):
    """An infer giving the first input's dtype and `out_shape(op, shape)` (None for an unknown shape),
    after checking that the shape has rank >= `min_rank`."""
    def infer(op):
        x = op._inputs[0]
        s = x._shape.as_tuple()
        if s is None:
            return [(x._dtype, None)]
        if len(s) < min_rank:
            raise ValueError("Shape must be at least rank %d but is rank %d" % (min_rank, len(s)))
        return [(x._dtype, out_shape(op, s))]
    return infer


def _check_min_rank(x, min_rank, what="input"):
    if x.ndim < min_rank:
        raise _invalid("%s must be at least %d-dim, received shape: %s" % (what, min_rank, _dims_text(x.shape)))


# ---- MatrixBandPart ------------------------------------------------------------------------
def _band_infer(op):
    x = op._inputs[0]
    for t in op._inputs[1:]:
        s = t._shape.as_tuple()
        if s is not None and len(s) != 0:
            raise ValueError("Shape must be rank 0 but is rank %d" % len(s))
    return [(x._dtype, x._shape.as_tuple())]


def _band_kernel(xp, x, num_lower, num_upper):
    _check_min_rank(x, 2)
    for what, v in (("num_lower", num_lower), ("num_upper", num_upper)):
        if np.ndim(v) != 0:
            raise _invalid("%s must be scalar, got shape %s" % (what, _dims_text(np.shape(v))))
    m, n = x.shape[-2:]
    num_lower, num_upper = int(num_lower), int(num_upper)
    if num_lower > m:
        raise _invalid("num_lower must be negative or less or equal to number of rows (%d) got: %d" % (m, num_lower))
    if num_upper > n:
        raise _invalid("num_upper must be negative or less or equal to number of columns (%d) got: %d"
                       % (n, num_upper))
    i = np.arange(m)[:, None]
    j = np.arange(n)[None, :]
    mask = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
    return np.where(mask, x, np.zeros((), x.dtype))


def _band_grad(op, grad):
    return [matrix_band_part(grad, op._inputs[1], op._inputs[2]), None, None]


register_op("MatrixBandPart", infer=_band_infer, kernel=_band_kernel, grad=_band_grad)


def matrix_band_part(input, num_lower, num_upper, name=None):  # noqa: A002 (TF's name)
    """Copies a tensor, setting everything outside a central band in each innermost matrix to zero.

    Element `[..., m, n]` is kept when `(num_lower < 0 or m - n <= num_lower) and
    (num_upper < 0 or n - m <= num_upper)`: `matrix_band_part(x, -1, 0)` is the lower triangle,
    `matrix_band_part(x, 0, 0)` the diagonal.

    Args:
      input: A `Tensor` of rank >= 2.
      num_lower: A scalar int64 `Tensor`: the number of subdiagonals to keep; negative keeps the whole
        lower triangle.
      num_upper: A scalar int64 `Tensor`: the number of superdiagonals to keep; negative keeps the whole
        upper triangle.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape and type of `input`.

    Raises:
      InvalidArgumentError: At run time, if `input` has rank < 2 or a band is wider than the matrix.
    """
    with _op_scope(name, "MatrixBandPart", [input, num_lower, num_upper]) as scope:
        x = _convert(input, "input")
        lo = ops.convert_to_tensor(num_lower, name="num_lower", preferred_dtype=dtypes.int64)
        hi = ops.convert_to_tensor(num_upper, name="num_upper", dtype=lo.dtype)
        _check_dtype(lo, (dtypes.int32, dtypes.int64), "num_lower")
        return ops.apply_op("MatrixBandPart", [x, lo, hi], {}, name=scope)


# ---- MatrixDiag / MatrixDiagPart / MatrixSetDiag -------------------------------------------
_matrix_diag_infer = _rank_infer(1, lambda op, s: s + (s[-1],))


def _matrix_diag_kernel(xp, d):
    _check_min_rank(d, 1)
    n = d.shape[-1]
    out = np.zeros(d.shape + (n,), d.dtype)
    idx = np.arange(n)
    out[..., idx, idx] = d
    return out


register_op("MatrixDiag", infer=_matrix_diag_infer, kernel=_matrix_diag_kernel,
            grad=lambda op, grad: [matrix_diag_part(grad)])


def _min_dim(a, b):
    if a is None or b is None:
        return a if b is None and a == 0 else (b if a is None and b == 0 else None)
    return min(a, b)


_matrix_diag_part_infer = _rank_infer(2, lambda op, s: s[:-2] + (_min_dim(s[-2], s[-1]),))


def _matrix_diag_part_kernel(xp, x):
    _check_min_rank(x, 2)
    return np.ascontiguousarray(np.diagonal(x, axis1=-2, axis2=-1))


register_op("MatrixDiagPart", infer=_matrix_diag_part_infer, kernel=_matrix_diag_part_kernel,
            grad=lambda op, grad: [matrix_set_diag(core_ops.zeros_like(op._inputs[0]), grad)])


def _set_diag_infer(op):
    x, d = op._inputs
    sx, sd = x._shape.as_tuple(), d._shape.as_tuple()
    if sx is not None and len(sx) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(sx))
    if sd is not None and len(sd) < 1:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    if sx is None:
        return [(x._dtype, None if sd is None else sd[:-1] + (None, None))]
    out = list(sx)
    if sd is not None:
        if len(sd) != len(sx) - 1:
            raise ValueError("Shape must be rank %d but is rank %d" % (len(sx) - 1, len(sd)))
        expected = sx[:-2] + (_min_dim(sx[-2], sx[-1]),)
        for i, (a, b) in enumerate(zip(expected, sd)):
            if a is not None and b is not None and a != b:
                raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
            if i < len(sx) - 2 and a is None:
                out[i] = b
    return [(x._dtype, tuple(out))]


def _set_diag_kernel(xp, x, d):
    _check_min_rank(x, 2)
    _check_min_rank(d, 1, "diagonal")
    n = min(x.shape[-2:])
    if d.shape != x.shape[:-2] + (n,):
        raise _invalid("must have diagonal.shape == input.shape[:-2] + min(input.shape[-2:]), but received input "
                       "shape: %s and diagonal shape: %s" % (_dims_text(x.shape), _dims_text(d.shape)))
    out = x.copy()
    idx = np.arange(n)
    out[..., idx, idx] = d
    return out


def _set_diag_grad(op, grad):
    return [matrix_set_diag(grad, core_ops.zeros_like(op._inputs[1])), matrix_diag_part(grad)]


register_op("MatrixSetDiag", infer=_set_diag_infer, kernel=_set_diag_kernel, grad=_set_diag_grad)


def matrix_diag(diagonal, name="diag", k=0, num_rows=-1, num_cols=-1, padding_value=0, align="RIGHT_LEFT"):
    """Returns a batched diagonal tensor with the given batched diagonal values.

    Args:
      diagonal: A `Tensor` of shape `[..., N]`.
      name: A name for the operation (optional).
      k: The diagonal offset (positive: above the main diagonal). A band of diagonals (a pair of
        different offsets) is not supported.
      num_rows, num_cols: The matrix size (-1: the smallest that holds the diagonal).
      padding_value: The value off the diagonal.
      align: TF's alignment of the diagonals of a band (no effect on one diagonal).

    Returns:
      A `Tensor` of shape `[..., num_rows, num_cols]` (`[..., N, N]` by default) and the type of
      `diagonal`.

    Raises:
      NotImplementedError: For a band of diagonals (`k` a pair of different offsets).
    """
    _check_align(align)
    with _op_scope(name, "diag", [diagonal]) as scope:
        d = _convert(diagonal, "diagonal")
        if all(_is_default(v, dv) for v, dv in ((k, 0), (num_rows, -1), (num_cols, -1), (padding_value, 0))):
            return ops.apply_op("MatrixDiag", [d], {}, name=scope)
        inputs = [d, _k_tensor(k), ops.convert_to_tensor(num_rows, dtype=dtypes.int32, name="num_rows"),
                  ops.convert_to_tensor(num_cols, dtype=dtypes.int32, name="num_cols"),
                  _padding(padding_value, d.dtype)]
        return ops.apply_op("MatrixDiagV3", inputs, {"align": align}, name=scope)


def matrix_diag_part(input, name="diag_part", k=0, padding_value=0, align="RIGHT_LEFT"):  # noqa: A002 (TF's name)
    """Returns the batched diagonal part of a batched tensor.

    Args:
      input: A `Tensor` of shape `[..., M, N]`.
      name: A name for the operation (optional).
      k: The diagonal offset (positive: above the main diagonal). A band of diagonals (a pair of
        different offsets) is not supported.
      padding_value: The padding of a band's shorter diagonals (no effect on one diagonal).
      align: TF's alignment of the diagonals of a band (no effect on one diagonal).

    Returns:
      A `Tensor` of shape `[..., L]` and the type of `input`, `L` the length of diagonal `k`
      (`min(M, N)` for the main diagonal).

    Raises:
      ValueError: If `input`'s static rank is < 2.
      NotImplementedError: For a band of diagonals (`k` a pair of different offsets).
    """
    _check_align(align)
    with _op_scope(name, "diag_part", [input]) as scope:
        x = _convert(input, "input")
        if _is_default(k, 0) and _is_default(padding_value, 0):
            return ops.apply_op("MatrixDiagPart", [x], {}, name=scope)
        inputs = [x, _k_tensor(k), _padding(padding_value, x.dtype)]
        return ops.apply_op("MatrixDiagPartV3", inputs, {"align": align}, name=scope)


def matrix_set_diag(input, diagonal, name="set_diag", k=0, align="RIGHT_LEFT"):  # noqa: A002 (TF's name)
    """Returns a batched matrix tensor with new batched diagonal values.

    Args:
      input: A `Tensor` of shape `[..., M, N]`.
      diagonal: A `Tensor` of shape `[..., min(M, N)]` and the type of `input`.
      name: A name for the operation (optional).
      k: The diagonal offset (positive: above the main diagonal). A band of diagonals (a pair of
        different offsets) is not supported.
      align: TF's alignment of the diagonals of a band (no effect on one diagonal).

    Returns:
      A `Tensor` of the shape and type of `input`, its diagonals `k` replaced by `diagonal`.

    Raises:
      ValueError: If the static shapes are incompatible.
      NotImplementedError: For a band of diagonals (`k` a pair of different offsets).
    """
    _check_align(align)
    with _op_scope(name, "set_diag", [input, diagonal]) as scope:
        x = _convert(input, "input")
        d = ops.convert_to_tensor(diagonal, name="diagonal", dtype=x.dtype)
        if _is_default(k, 0):
            return ops.apply_op("MatrixSetDiag", [x, d], {}, name=scope)
        return ops.apply_op("MatrixSetDiagV3", [x, d, _k_tensor(k)], {"align": align}, name=scope)


# ---- MatrixDiagV3 / MatrixDiagPartV3 / MatrixSetDiagV3 (one diagonal offset k) ---------------
def _single_k(k):
    """The one diagonal offset of `k` (a scalar or an equal pair); raises for a band of diagonals."""
    k = np.asarray(k).ravel()
    if k.size == 0 or k.size > 2:
        raise _invalid("diag_index must be a scalar or vector with one or two elements. It has %d elements."
                       % k.size)
    if k.size == 2 and k[0] != k[1]:
        raise NotImplementedError("a band of diagonals (k = (%d, %d)) is not supported by tensorweave; pass one "
                                  "offset" % (k[0], k[1]))
    return int(k[0])


def _diag_len(m, n, k):
    """The length of diagonal k of an m x n matrix (None when unknown)."""
    if m is None or n is None or k is None:
        return None
    return min(m + min(k, 0), n - max(k, 0))


def _static_k(t):
    value = _const_value(t)
    return None if value is None else _single_k(value)


def _check_k_bound(k, m, n):
    if not ((-m < k < n) or k == 0):
        raise _invalid("lower_diag_index is out of bound: %d. It must be between %d and %d" % (k, -m, n))


_diag_part_v3_infer = _rank_infer(2, lambda op, s: s[:-2] + (_diag_len(s[-2], s[-1], _static_k(op._inputs[1])),))


def _diag_part_v3_kernel(xp, x, k, padding_value, align):
    _check_min_rank(x, 2)
    k = _single_k(k)
    _check_k_bound(k, *x.shape[-2:])
    return np.ascontiguousarray(np.diagonal(x, offset=k, axis1=-2, axis2=-1))


def _diag_part_v3_grad(op, grad):
    x, k = op._inputs[0], op._inputs[1]
    return [_set_diag_v3(core_ops.zeros_like(x), grad, k, op._attrs["align"]), None, None]


register_op("MatrixDiagPartV3", infer=_diag_part_v3_infer, kernel=_diag_part_v3_kernel, grad=_diag_part_v3_grad)


def _diag_v3_dims(length, k, num_rows, num_cols):
    """TF's output size of MatrixDiagV3 for one diagonal of `length` (None when unknown)."""
    if length is None or k is None or num_rows is None or num_cols is None:
        return None, None
    min_rows, min_cols = length + max(-k, 0), length + max(k, 0)
    if num_rows == -1 and num_cols == -1:
        num_rows = num_cols = max(min_rows, min_cols)
    elif num_rows == -1:
        num_rows = min_rows
    elif num_cols == -1:
        num_cols = min_cols
    return num_rows, num_cols


def _diag_v3_shape(op, s):
    rows, cols = (_const_value(t) for t in op._inputs[2:4])
    rows = None if rows is None else int(rows)
    cols = None if cols is None else int(cols)
    return s[:-1] + _diag_v3_dims(s[-1], _static_k(op._inputs[1]), rows, cols)


_diag_v3_infer = _rank_infer(1, _diag_v3_shape)


def _diag_v3_kernel(xp, d, k, num_rows, num_cols, padding_value, align):
    _check_min_rank(d, 1)
    k = _single_k(k)
    rows, cols = _diag_v3_dims(d.shape[-1], k, int(num_rows), int(num_cols))
    if _diag_len(rows, cols, k) != d.shape[-1]:
        raise _invalid("The number of rows and columns (%d, %d) do not match the length %d of diagonal %d"
                       % (rows, cols, d.shape[-1], k))
    out = np.full(d.shape[:-1] + (rows, cols), np.asarray(padding_value, d.dtype), d.dtype)
    i = np.arange(d.shape[-1])
    out[..., i + max(-k, 0), i + max(k, 0)] = d
    return out


def _diag_v3_grad(op, grad):
    return [_diag_part_v3(grad, op._inputs[1], core_ops.zeros_like(op._inputs[4]), op._attrs["align"]),
            None, None, None, None]


register_op("MatrixDiagV3", infer=_diag_v3_infer, kernel=_diag_v3_kernel, grad=_diag_v3_grad)


def _set_diag_v3_infer(op):
    x = op._inputs[0]
    s = x._shape.as_tuple()
    if s is not None and len(s) < 2:
        raise ValueError("Shape must be at least rank 2 but is rank %d" % len(s))
    return [(x._dtype, s)]


def _set_diag_v3_kernel(xp, x, d, k, align):
    _check_min_rank(x, 2)
    k = _single_k(k)
    _check_k_bound(k, *x.shape[-2:])
    length = _diag_len(x.shape[-2], x.shape[-1], k)
    if d.shape != x.shape[:-2] + (length,):
        raise _invalid("diagonal must have shape %s, received shape: %s"
                       % (_dims_text(x.shape[:-2] + (length,)), _dims_text(d.shape)))
    out = x.copy()
    i = np.arange(length)
    out[..., i + max(-k, 0), i + max(k, 0)] = d
    return out


def _set_diag_v3_grad(op, grad):
    k, align = op._inputs[2], op._attrs["align"]
    zeros = core_ops.zeros_like(op._inputs[1])
    return [_set_diag_v3(grad, zeros, k, align), _diag_part_v3(grad, k, _zero_scalar(grad), align), None]


register_op("MatrixSetDiagV3", infer=_set_diag_v3_infer, kernel=_set_diag_v3_kernel, grad=_set_diag_v3_grad)

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _zero_scalar(like):
    return ops.convert_to_tensor(np.zeros((), like.dtype.as_numpy_dtype))


def _k_tensor(k):
    if isinstance(k, (list, tuple)) and len(k) == 2 and k[0] == k[1]:
        k = k[0]
    if isinstance(k, (list, tuple)):
        _single_k(k)  # raises for a band
    return ops.convert_to_tensor(k, dtype=dtypes.int32, name="k")


def _check_align(align):
    if align not in _ALIGNS:
        raise ValueError("align must be one of %s, got %r" % (", ".join(_ALIGNS), align))


def _diag_part_v3(x, k, padding_value, align):
    return ops.apply_op("MatrixDiagPartV3", [x, k, padding_value], {"align": align})


def _set_diag_v3(x, d, k, align):
    return ops.apply_op("MatrixSetDiagV3", [x, d, k], {"align": align})


def _padding(value, dtype):
    """The padding value as a tensor of `dtype` (Python numbers cast as NumPy casts them)."""
    if isinstance(value, numbers.Number):
        value = np.asarray(value).astype(dtype.as_numpy_dtype)
    return ops.convert_to_tensor(value, dtype=dtype, name="padding_value")


def _is_default(value, default):
    return isinstance(value, numbers.Number) and value == default


# ---- Diag / DiagPart -----------------------------------------------------------------------
_diag_infer = _rank_infer(1, lambda op, s: s + s)


def _diag_kernel(xp, x):
    if x.ndim < 1:
        raise _invalid("Input must be at least rank 1, got 0")
    n = x.size
    out = np.zeros((n, n), x.dtype)
    out[np.arange(n), np.arange(n)] = x.ravel()
    return out.reshape(x.shape + x.shape)


register_op("Diag", infer=_diag_infer, kernel=_diag_kernel, grad=lambda op, grad: [diag_part(grad)])


def _diag_part_infer(op):
    x = op._inputs[0]
    s = x._shape.as_tuple()
    if s is None:
        return [(x._dtype, None)]
    if len(s) % 2 != 0:
        raise ValueError("Input must have even rank <= 6, input rank is %d" % len(s))
    h = len(s) // 2
    out = []
    for a, b in zip(s[:h], s[h:]):
        if a is not None and b is not None and a != b:
            raise ValueError("Dimensions must be equal, but are %d and %d" % (a, b))
        out.append(a if a is not None else b)
    return [(x._dtype, tuple(out))]


def _diag_part_kernel(xp, x):
    if x.ndim % 2 != 0 or x.ndim == 0:
        raise _invalid("The rank of the tensor should be                                          even and "
                       "positive, got shape %s" % _dims_text(x.shape))
    h = x.ndim // 2
    for i in range(h):
        if x.shape[i] != x.shape[i + h]:
            raise _invalid("Invalid shape %s: dimensions %d and %d do not match." % (_dims_text(x.shape), i, i + h))
    n = int(np.prod(x.shape[:h], dtype=np.int64))
    return np.ascontiguousarray(np.diagonal(x.reshape(n, n))).reshape(x.shape[:h])


register_op("DiagPart", infer=_diag_part_infer, kernel=_diag_part_kernel, grad=lambda op, grad: [diag(grad)])


def diag(diagonal, name=None):
    """Returns a diagonal tensor with the given diagonal values (`tf.diag`, `tf.linalg.tensor_diag`).

    Given `diagonal` of shape `[D1, ..., Dk]`, the output has shape `[D1, ..., Dk, D1, ..., Dk]` with
    `output[i1, ..., ik, i1, ..., ik] = diagonal[i1, ..., ik]` and zeros elsewhere.

    Args:
      diagonal: A `Tensor` of rank >= 1.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the type of `diagonal`.

    Raises:
      ValueError: If `diagonal` is statically a scalar.
    """
    with _op_scope(name, "Diag", [diagonal]) as scope:
        return ops.apply_op("Diag", [_convert(diagonal, "diagonal")], {}, name=scope)


def diag_part(input, name=None):  # noqa: A002 (TF's name)
    """Returns the diagonal part of a tensor (`tf.diag_part`, `tf.linalg.tensor_diag_part`): the
    inverse of `diag`.

    Args:
      input: A `Tensor` of even rank `2k` and shape `[D1, ..., Dk, D1, ..., Dk]`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[D1, ..., Dk]` and the type of `input`.

    Raises:
      ValueError: If the static rank is odd or the two halves of the static shape differ.
    """
    with _op_scope(name, "DiagPart", [input]) as scope:
        return ops.apply_op("DiagPart", [_convert(input, "input")], {}, name=scope)


# ---- compositions --------------------------------------------------------------------------
def trace(x, name=None):
    """Computes the trace of each innermost matrix: the sum of its main diagonal.

    Args:
      x: A `Tensor` of shape `[..., M, N]`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `[...]` and the type of `x`.
    """
    with ops.name_scope(name, "Trace", [x]):
        x = ops.convert_to_tensor(x, name="x")
        return reduce_sum(matrix_diag_part(x), [-1])


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """Constructs an identity matrix, or a batch of them.

    Args:
      num_rows: A non-negative Python integer: the number of rows of each matrix.
      num_columns: A non-negative Python integer (default `num_rows`): the number of columns.
      batch_shape: A list of Python integers (optional): the leading batch dimensions.
      dtype: The element type.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of shape `batch_shape + [num_rows, num_columns]`.

    Raises:
      NotImplementedError: If a dimension is given as a `Tensor` (only static sizes are supported).
    """
    sizes = [num_rows] + ([] if num_columns is None else [num_columns]) + list(batch_shape or [])
    if not all(isinstance(s, numbers.Integral) or (isinstance(s, np.ndarray) and s.ndim == 0) for s in sizes):
        raise NotImplementedError("tf.eye: num_rows, num_columns and batch_shape given as Tensors are not "
                                  "supported; pass Python integers")
    dtype = dtypes.as_dtype(dtype)
    with ops.name_scope(name, "eye", []):
        rows = int(num_rows)
        cols = rows if num_columns is None else int(num_columns)
        batch = [int(b) for b in (batch_shape or [])]
        diag_ones = ones(batch + [min(rows, cols)], dtype=dtype)
        if rows == cols:
            return matrix_diag(diag_ones)
        return matrix_set_diag(zeros(batch + [rows, cols], dtype=dtype), diag_ones)
