"""Array ops that move elements around: transpose (and invert_permutation), pad (and the
mirror pads), reverse and reverse_sequence."""

import numpy as np

from ..framework import ops
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import (
    _INDEX_DTYPES,
    _check_dtype,
    _dims,
    _fmt,
    _index_tensor,
    _int_list,
    _invalid,
    _prange,
    _pslice,
    _to_shape_tensor,
    _value,
    _with_rank,
)
from .core_ops import shape


# ---- Transpose / ConjugateTranspose / InvertPermutation ---------------------------------------
def _transpose_infer(op):
    x, perm = op._inputs
    _check_dtype(perm, _INDEX_DTYPES, "perm", "Transpose")
    _with_rank(perm, 1)
    dims = _dims(x)
    p = _value(perm)
    plen = _dims(perm)[0] if _dims(perm) is not None else None
    if dims is not None and plen is not None and plen != len(dims):
        raise ValueError("Dimension must be %d but is %d" % (len(dims), plen))
    r = len(dims) if dims is not None else plen
    if r is None:
        return [(x._dtype, None)]
    if p is None:
        return [(x._dtype, (None,) * r)]
    p = _int_list(p)
    for v in p:
        if not -r <= v < r:
            raise ValueError("perm dim %d is out of range of input rank %d" % (v, r))
    if dims is None:
        return [(x._dtype, (None,) * r)]
    return [(x._dtype, tuple(dims[v] for v in p))]


def _check_perm(perm, ndim):
    p = _int_list(perm)
    if len(p) != ndim:
        raise _invalid("transpose expects a vector of size %d. But input(1) is a vector of size %d" % (ndim, len(p)))
    p = [v % ndim if -ndim <= v < ndim else v for v in p]
    for i in _prange(ndim):
        if i not in p:
            raise _invalid("%d is missing from {%s}." % (i, ",".join(str(v) for v in p)))
    return p


def _transpose_kernel(xp, x, perm):
    return xp.transpose(x, _check_perm(perm, x.ndim))


def _transpose_grad(op, grad):
    """d/dx transpose(x, p) = transpose(grad, invert_permutation(p))."""
    return [transpose(grad, invert_permutation(op._inputs[1])), None]


register_op("Transpose", infer=_transpose_infer, kernel=_transpose_kernel, grad=_transpose_grad,
            gpu=True, host_inputs=(1,))


def _conjugate_transpose_kernel(xp, x, perm):
    return xp.conj(xp.transpose(x, _check_perm(perm, x.ndim)))


def _conjugate_transpose_grad(op, grad):
    """d/dx conj(transpose(x, p)) = conj(transpose(grad, invert_permutation(p)))."""
    return [transpose(grad, invert_permutation(op._inputs[1]), conjugate=True), None]


register_op("ConjugateTranspose", infer=_transpose_infer, kernel=_conjugate_transpose_kernel,
            grad=_conjugate_transpose_grad)


def transpose(a, perm=None, name="transpose", conjugate=False):
    """Transposes `a`, permuting its dimensions according to `perm`.

    Args:
      a: A `Tensor`.
      perm: A permutation of the dimensions of `a` (default: reversed, a regular matrix transpose
        for 2-D input).
      name: A name for the operation (optional).
      conjugate: Optional bool. Setting it to `True` also conjugates complex values.

    Returns:
      A transposed `Tensor`.

    Raises:
      ValueError: If `perm` does not fit the rank of `a`.
    """
    with ops.name_scope(name, "transpose", [a]) as scope:
        a = ops.convert_to_tensor(a, name="a")
        op_type = "ConjugateTranspose" if conjugate and a.dtype.is_complex else "Transpose"
        if perm is None:
            r = a._shape.ndims
            if r is None:
                perm = reverse(range(0, rank(a)), [0])
            else:
                perm = np.arange(r - 1, -1, -1, dtype=np.int32)
        return ops.apply_op(op_type, [a, _index_tensor(perm, name="perm")], name=scope)


def _invert_permutation_infer(op):
    x = op._inputs[0]
    _check_dtype(x, _INDEX_DTYPES, "x", "InvertPermutation")
    _with_rank(x, 1)
    return [(x._dtype, _dims(x) or (None,))]


def _invert_permutation_kernel(xp, x):
    n = x.shape[0]
    out = np.full(n, -1, dtype=x.dtype)
    for i, v in enumerate(x.tolist()):
        if not 0 <= v < n:
            raise _invalid("%d is not between 0 and %d" % (v, n))
        if out[v] != -1:
            raise _invalid("%d is duplicated in the input." % v)
        out[v] = i
    return out


register_op("InvertPermutation", infer=_invert_permutation_infer, kernel=_invert_permutation_kernel,
            grad=NO_GRADIENT, gpu=True, on_host=True)


def invert_permutation(x, name=None):
    """Computes the inverse permutation of a 1-D int32/int64 tensor: `y[x[i]] = i`.

    Args:
      x: A 1-D `Tensor` holding a permutation of `0..n-1`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the same type and shape as `x`.
    """
    return ops.apply_op("InvertPermutation", [_index_tensor(x, name="x")], name=name)


# ---- Pad / PadV2 / MirrorPad / MirrorPadGrad ---------------------------------------------------
def _static_paddings(op):
    """(input dims, paddings as [[before, after], ...] or None, rank) after static validation."""
    x, paddings = op._inputs[0], op._inputs[1]
    _check_dtype(paddings, _INDEX_DTYPES, "paddings", op._type)
    _with_rank(paddings, 2)
    pd, dims = _dims(paddings), _dims(x)
    if pd is not None and pd[1] is not None and pd[1] != 2:
        raise ValueError("Dimension must be 2 but is %d" % pd[1])
    n = None if pd is None else pd[0]
    if dims is not None and n is not None and n != len(dims):
        raise ValueError("The first dimension of paddings must be the rank of inputs%s %s" % (_fmt(pd), _fmt(dims)))
    r = len(dims) if dims is not None else n
    pv = _value(paddings)
    if pv is not None:
        pv = np.asarray(pv, dtype=np.int64).reshape(-1, 2).tolist()
        for b, a in pv:
            if b < 0 or a < 0:
                raise ValueError("Paddings must be non-negative: %d %d" % (b, a))
    return dims, pv, r


def _pad_infer(op):
    x = op._inputs[0]
    if len(op._inputs) == 3:
        _with_rank(op._inputs[2], 0)
        if op._inputs[2]._dtype is not x._dtype:
            raise TypeError("Input 'constant_values' of 'PadV2' Op has type %s that does not match type %s of "
                            "argument 'input'." % (op._inputs[2]._dtype.name, x._dtype.name))
    dims, pv, r = _static_paddings(op)
    if r is None:
        return [(x._dtype, None)]
    if pv is None:
        return [(x._dtype, (None,) * r)]
    mode = op._attrs.get("mode")
    out = []
    for i, (b, a) in enumerate(pv):
        d = None if dims is None else dims[i]
        if mode == "REFLECT" and d is not None and (b >= d or a >= d):
            raise ValueError("paddings must be less than the dimension size: %d, %d not less than %d" % (b, a, d))
        if mode == "SYMMETRIC" and d is not None and (b > d or a > d):
            raise ValueError("paddings must be no greater than the dimension size: %d, %d greater than %d"
                             % (b, a, d))
        out.append(None if d is None else d + b + a)
    return [(x._dtype, tuple(out))]


def _check_paddings(x, paddings, mode=None):
    p = np.asarray(paddings, dtype=np.int64)
    if p.shape != (x.ndim, 2):
        raise _invalid("The first dimension of paddings must be the rank of inputs%s %s"
                       % (_fmt(p.shape), _fmt(x.shape)))
    out = [tuple(row) for row in p.tolist()]
    for (b, a), d in zip(out, x.shape):
        if b < 0 or a < 0:
            raise _invalid("Paddings must be non-negative: %d %d" % (b, a))
        if mode == "REFLECT" and (b >= d or a >= d):
            raise _invalid("paddings must be less than the dimension size: %d, %d not less than %d" % (b, a, d))
        if mode == "SYMMETRIC" and (b > d or a > d):
            raise _invalid("paddings must be no greater than the dimension size: %d, %d greater than %d" % (b, a, d))
    return out


def _pad_kernel(xp, x, paddings):
    p = _check_paddings(x, paddings)
    if x.ndim == 0:
        return x.copy()
    return xp.pad(x, p, mode="constant", constant_values=b"" if x.dtype == object else 0)


def _pad_v2_kernel(xp, x, paddings, constant_values):
    p = _check_paddings(x, paddings)
    if x.ndim == 0:
        return x.copy()
    return xp.pad(x, p, mode="constant", constant_values=constant_values[()])


def _pad_grad(op, grad):
    """d/dx pad(x, p) = slice(grad, p[:, 0], shape(x))."""
    x, paddings = op._inputs[0], op._inputs[1]
    begin = reshape(slice(paddings, [0, 0], stack([rank(x), 1])), [-1])
    dx = slice(grad, begin, shape(x, out_type=paddings.dtype))
    return [dx, None] + [None] * (len(op._inputs) - 2)


register_op("Pad", infer=_pad_infer, kernel=_pad_kernel, grad=_pad_grad, gpu=True, host_inputs=(1,))
register_op("PadV2", infer=_pad_infer, kernel=_pad_v2_kernel, grad=_pad_grad)


def _mirror_pad_kernel(xp, x, paddings, mode):
    p = _check_paddings(x, paddings, mode)
    if x.ndim == 0:
        return x.copy()
    return xp.pad(x, p, mode="reflect" if mode == "REFLECT" else "symmetric")


def _mirror_pad_grad(op, grad):
    """d/dx mirror_pad(x) = grad with each padded border folded back onto the entries it copies."""
    return [ops.apply_op("MirrorPadGrad", [ops.convert_to_tensor(grad), op._inputs[1]],
                         {"mode": op._attrs["mode"]}), None]


register_op("MirrorPad", infer=_pad_infer, kernel=_mirror_pad_kernel, grad=_mirror_pad_grad)


def _mirror_pad_grad_infer(op):
    x, paddings = op._inputs
    _check_dtype(paddings, _INDEX_DTYPES, "paddings", "MirrorPadGrad")
    dims = _dims(x)
    pv = _value(paddings)
    if dims is None or pv is None:
        return [(x._dtype, None if dims is None else (None,) * len(dims))]
    pv = np.asarray(pv, dtype=np.int64).reshape(-1, 2).tolist()
    if len(pv) != len(dims):
        raise ValueError("The first dimension of paddings must be the rank of inputs")
    return [(x._dtype, tuple(None if d is None else d - b - a for d, (b, a) in zip(dims, pv)))]


def _mirror_pad_grad_kernel(xp, grad, paddings, mode):
    p = np.asarray(paddings, dtype=np.int64).reshape(-1, 2).tolist()
    off = 1 if mode == "REFLECT" else 0
    out = grad
    for axis, (b, a) in enumerate(p):
        g = xp.moveaxis(out, axis, 0)
        n = g.shape[0] - b - a
        if n < 0 or b + off > n or a + off > n:
            raise _invalid("paddings %d, %d do not fit a gradient of size %d" % (b, a, g.shape[0]))
        core = g[b:b + n].copy()
        core[off:off + b] += g[:b][::-1]
        core[n - off - a:n - off] += g[b + n:][::-1]
        out = xp.moveaxis(core, 0, axis)
    return out


def _mirror_pad_grad_grad(op, grad):
    """d/dg mirror_pad_grad(g) = mirror_pad(grad)."""
    return [ops.apply_op("MirrorPad", [ops.convert_to_tensor(grad), op._inputs[1]], {"mode": op._attrs["mode"]}),
            None]


register_op("MirrorPadGrad", infer=_mirror_pad_grad_infer, kernel=_mirror_pad_grad_kernel,
            grad=_mirror_pad_grad_grad)


def pad(tensor, paddings, mode="CONSTANT", name=None, constant_values=0):
    """Pads a tensor: `paddings[i] = [before, after]` entries are added around dimension i.

    Args:
      tensor: A `Tensor`.
      paddings: An int32/int64 `Tensor` of shape `[rank(tensor), 2]`.
      mode: One of "CONSTANT", "REFLECT", or "SYMMETRIC" (case-insensitive).
      name: A name for the operation (optional).
      constant_values: In "CONSTANT" mode, the scalar pad value to use (same type as `tensor`).

    Returns:
      A `Tensor`. Has the same type as `tensor`.

    Raises:
      ValueError: When mode is not one of "CONSTANT", "REFLECT", or "SYMMETRIC", or the static
        paddings don't fit.
    """
    tensor = ops.convert_to_tensor(tensor, name="input")
    paddings = _to_shape_tensor(paddings, name="paddings")
    m = mode.upper()
    if m == "CONSTANT":
        if not ops.is_tensor(constant_values) and np.all(np.asarray(constant_values) == 0):
            return ops.apply_op("Pad", [tensor, paddings], name=name)
        cv = ops.convert_to_tensor(constant_values, dtype=None if ops.is_tensor(constant_values) else tensor.dtype,
                                   name="constant_values")
        return ops.apply_op("PadV2", [tensor, paddings, cv], name=name)
    if m in ("REFLECT", "SYMMETRIC"):
        return ops.apply_op("MirrorPad", [tensor, paddings], {"mode": m}, name=name)
    raise ValueError("Unknown padding mode: %s" % mode)


# ---- ReverseV2 / ReverseSequence -------------------------------------------------------------
def _reverse_axes(axes, r):
    out = []
    for i, a in enumerate(axes):
        if not -r <= a < r:
            raise ValueError("'axis'[%d] = %d is out of valid range [%d, %d)" % (i, a, -r, r))
        a %= r
        if a in out:
            raise ValueError("axis %d specified more than once." % a)
        out.append(a)
    return tuple(out)


def _reverse_infer(op):
    x, axis = op._inputs
    _check_dtype(axis, _INDEX_DTYPES, "axis", "ReverseV2")
    _with_rank(axis, 1)
    dims, av = _dims(x), _value(axis)
    if dims is not None and av is not None:
        _reverse_axes(_int_list(av), len(dims))
    return [(x._dtype, dims)]


def _reverse_kernel(xp, tensor, axis):
    try:
        axes = _reverse_axes(_int_list(axis), tensor.ndim)
    except ValueError as e:
        raise _invalid(str(e)) from None
    return xp.flip(tensor, axis=axes) if axes else tensor


def _reverse_grad(op, grad):
    """d/dx reverse(x, axis) = reverse(grad, axis)."""
    return [reverse(grad, op._inputs[1]), None]


register_op("ReverseV2", infer=_reverse_infer, kernel=_reverse_kernel, grad=_reverse_grad)


def reverse(tensor, axis, name=None):
    """Reverses specific dimensions of a tensor (TF1's `tf.reverse`, i.e. ReverseV2).

    Args:
      tensor: A `Tensor`.
      axis: A 1-D int32/int64 `Tensor` (or list): the indices of the dimensions to reverse.
      name: A name for the operation (optional).

    Returns:
      A `Tensor`. Has the same type and shape as `tensor`.

    Raises:
      ValueError: If a static axis is out of range or repeated.
    """
    tensor = ops.convert_to_tensor(tensor, name="tensor")
    return ops.apply_op("ReverseV2", [tensor, _to_shape_tensor(axis, name="axis")], name=name)


reverse_v2 = reverse


def _reverse_sequence_infer(op):
    x, lengths = op._inputs
    _check_dtype(lengths, _INDEX_DTYPES, "seq_lengths", "ReverseSequence")
    _with_rank(lengths, 1)
    seq_dim, batch_dim = op._attrs["seq_dim"], op._attrs["batch_dim"]
    dims = _dims(x)
    if dims is None:
        return [(x._dtype, None)]
    r = len(dims)
    if seq_dim == batch_dim:
        raise ValueError("seq_dim and batch_dim must not be the same: %d" % seq_dim)
    if not 0 <= batch_dim < r:
        raise ValueError("batch_dim must be < input rank: %d vs. %d" % (batch_dim, r))
    if not 0 <= seq_dim < r:
        raise ValueError("seq_dim must be < input rank: %d vs. %d" % (seq_dim, r))
    ld = _dims(lengths)
    if ld is not None and ld[0] is not None and dims[batch_dim] is not None and ld[0] != dims[batch_dim]:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (dims[batch_dim], ld[0]))
    return [(x._dtype, dims)]


def _reverse_sequence_kernel(xp, x, seq_lengths, seq_dim, batch_dim):
    lengths = _int_list(seq_lengths)
    if len(lengths) != x.shape[batch_dim]:
        raise _invalid("Length of seq_lengths != input.dims(%d), (%d vs. %d)"
                       % (batch_dim, len(lengths), x.shape[batch_dim]))
    out = x.copy()
    for b, n in enumerate(lengths):
        if n < 0:
            raise _invalid("seq_lens(%d) < 0" % b)
        if n > x.shape[seq_dim]:
            raise _invalid("seq_lens(%d) > input.dims(%d)" % (b, seq_dim))
        idx = [_pslice(None)] * x.ndim
        idx[batch_dim] = _pslice(b, b + 1)
        idx[seq_dim] = _pslice(0, n)
        idx = tuple(idx)
        out[idx] = xp.flip(x[idx], axis=seq_dim)
    return out


def _reverse_sequence_grad(op, grad):
    """d/dx reverse_sequence(x) = reverse_sequence(grad) with the same lengths."""
    return [reverse_sequence(grad, op._inputs[1], seq_axis=op._attrs["seq_dim"], batch_axis=op._attrs["batch_dim"]),
            None]


register_op("ReverseSequence", infer=_reverse_sequence_infer, kernel=_reverse_sequence_kernel,
            grad=_reverse_sequence_grad)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None, seq_dim=None,  # noqa: A002
                     batch_dim=None):
    """Reverses the first `seq_lengths[b]` entries along `seq_axis` of each batch entry `b`.

    Args:
      input: A `Tensor`.
      seq_lengths: A 1-D int32/int64 `Tensor` of length `input.shape[batch_axis]`.
      seq_axis: The dimension which is partially reversed.
      batch_axis: The dimension along which reversal is performed (default 0).
      name: A name for the operation (optional).
      seq_dim: Deprecated alias of `seq_axis`.
      batch_dim: Deprecated alias of `batch_axis`.

    Returns:
      A `Tensor`. Has the same type and shape as `input`.

    Raises:
      ValueError: If the axes are invalid.
    """
    seq_axis = _deprecated_lookup("seq_axis", seq_axis, "seq_dim", seq_dim)
    batch_axis = _deprecated_lookup("batch_axis", batch_axis, "batch_dim", batch_dim)
    if seq_axis is None:
        raise ValueError("seq_axis must be specified")
    x = ops.convert_to_tensor(input, name="input")
    lengths = _index_tensor(seq_lengths, name="seq_lengths")
    return ops.apply_op("ReverseSequence", [x, lengths],
                        {"seq_dim": int(seq_axis), "batch_dim": 0 if batch_axis is None else int(batch_axis)},
                        name=name)


# Names from modules of the family that also import names of this one (a cycle): bound here,
# after this module's own names exist, and only called at run time.
from .array_join_ops import stack  # noqa: E402
from .array_shape_ops import _deprecated_lookup, range, rank, reshape  # noqa: E402
from .array_slice_ops import slice  # noqa: E402
