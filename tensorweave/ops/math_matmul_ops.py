"""Math ops: MatMul / BatchMatMulV2 (`matmul`), Einsum and `tensordot`."""

import functools
import numbers
import string

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.constant_op import constant
from ..framework.registry import register_op
from ..kernels.shard import shard
from ..platform import threads
from . import core_ops
from .math_binary_ops import _needed, add, equal, less, multiply
from .math_helpers import (
    _COMPLEX,
    _FLOAT,
    _NUMERIC,
    _broadcast_shapes,
    _check_dtype,
    _const_value,
    _convert_same,
    _dims_text,
    _no_kernel,
    _op_scope,
)
from .math_unary_ops import _conj, cast, conj, logical_not

# The types of TF's MatMul (TF 1.15's: TF 2.x adds unsigned types without CPU kernels) and of its
# BatchMatMulV2, which TF 2.x also has for int16.
_MATMUL_TYPES = _FLOAT + (dtypes.int32, dtypes.int64) + _COMPLEX
_BATCH_MATMUL_TYPES = _FLOAT + (dtypes.int16, dtypes.int32, dtypes.int64) + _COMPLEX


# ---- MatMul / BatchMatMulV2 ----------------------------------------------------------------
def _matmul_dims(a, b, ta, tb):
    m, k1 = (a[-1], a[-2]) if ta else (a[-2], a[-1])
    k2, n = (b[-1], b[-2]) if tb else (b[-2], b[-1])
    if k1 is not None and k2 is not None and k1 != k2:
        raise ValueError("Dimensions must be equal, but are %d and %d" % (k1, k2))
    return m, n


def _matmul_infer(op):
    a, b = op._inputs
    sa, sb = a._shape.as_tuple(), b._shape.as_tuple()
    for s in (sa, sb):
        if s is not None and len(s) != 2:
            raise ValueError("Shape must be rank 2 but is rank %d" % len(s))
    sa = sa or (None, None)
    sb = sb or (None, None)
    return [(a._dtype, _matmul_dims(sa, sb, op._attrs["transpose_a"], op._attrs["transpose_b"]))]


def _matmul_kernel(xp, a, b, transpose_a, transpose_b):
    for i, x in enumerate((a, b)):
        if x.ndim != 2:
            raise errors.InvalidArgumentError(None, None, "In[%d] is not a matrix. Instead it has shape %s"
                                              % (i, _dims_text(x.shape)))
    if a.shape[0 if transpose_a else 1] != b.shape[1 if transpose_b else 0]:
        raise errors.InvalidArgumentError(None, None, "Matrix size-incompatible: In[0]: %s, In[1]: %s"
                                          % (_dims_text(a.shape), _dims_text(b.shape)))
    a = a.T if transpose_a else a
    b = b.T if transpose_b else b
    m, k = a.shape
    if xp is np and m >= 64 and m * k * b.shape[1] >= _SHARDED_MATMUL_MACS:
        blocks = threads.gemm_shards()
        if blocks > 1:  # BLAS runs one thread: the rows go over the intra-op pool, one GEMM per block
            out = np.empty((m, b.shape[1]), np.result_type(a, b))
            shard(m, max(1, k * b.shape[1] // 50), lambda s, e: np.matmul(a[s:e], b, out=out[s:e]),
                  max_parallelism=blocks)
            return out
    return xp.matmul(a, b)


_SHARDED_MATMUL_MACS = 1 << 22  # below this a GEMM is faster in one call than handed to threads


def _matmul_grad(op, grad):
    """dC = grad: dA = grad B^T, dB = A^T grad (transposes swapped as the op's flags say)."""
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    a, b = (_conj(t) for t in op._inputs)
    if not ta and not tb:
        ga, gb = (grad, b, False, True), (a, grad, True, False)
    elif not ta and tb:
        ga, gb = (grad, b, False, False), (grad, a, True, False)
    elif ta and not tb:
        ga, gb = (b, grad, False, True), (a, grad, False, False)
    else:
        ga, gb = (b, grad, True, True), (grad, a, True, True)
    na, nb = _needed(op)
    return [_mat_mul(*ga) if na else None, _mat_mul(*gb) if nb else None]


def _contracted_dims_known(op, ta, tb):
    """Whether the static shapes of a (batch) matrix product fix the contracted dimension of both
    operands to one size, so that no run can find them different. (A plan specialized on fed
    shapes may hold refined input shapes that disagree: the kernel then reports the mismatch.)"""
    a, b = (t._shape.as_tuple() for t in op._inputs)
    if a is None or b is None or len(a) < 2 or len(b) < 2:
        return False
    k = a[-2 if ta else -1]
    return k is not None and k == b[-1 if tb else -2]


def _matmul_inline(op):
    """`@` when the operands' inner sizes are statically known; else None (the kernel, which reports
    a mismatch with TF's message)."""
    ta, tb = op._attrs["transpose_a"], op._attrs["transpose_b"]
    if not _contracted_dims_known(op, ta, tb):
        return None
    a, b = (t._shape.as_tuple() for t in op._inputs)
    m = None if a is None else a[1 if ta else 0]
    if m is None or b is None or None in b or (m >= 64 and m * b[0] * b[1] >= _SHARDED_MATMUL_MACS):
        return None  # possibly a large product: the kernel decides at run time whether to shard it
    return "({0}%s @ {1}%s)" % (".T" if ta else "", ".T" if tb else "")


def _product_cost(op):
    """Multiply-adds of a (batch) matrix product, from static shapes (0 when one is unknown)."""
    a, b = (t._shape.as_tuple() for t in op._inputs)
    out = op._outputs[0]._shape.as_tuple()
    if a is None or b is None or out is None or None in a or None in b or None in out:
        return 0
    k = a[-1] if not (op._attrs.get("transpose_a") or op._attrs.get("adj_x")) else a[-2]
    return int(np.prod(out, dtype=np.int64)) * k


register_op("MatMul", infer=_matmul_infer, kernel=_matmul_kernel, grad=_matmul_grad, inline=_matmul_inline,
            gpu=True, cost=_product_cost)


def _mat_mul(a, b, transpose_a, transpose_b):
    return ops.apply_op("MatMul", [a, b], {"transpose_a": transpose_a, "transpose_b": transpose_b})


def _batch_matmul_infer(op):
    a, b = op._inputs
    sa, sb = a._shape.as_tuple(), b._shape.as_tuple()
    for s in (sa, sb):
        if s is not None and len(s) < 2:
            raise ValueError("Shape must be at least rank 2 but is rank %d" % len(s))
    m, n = _matmul_dims(sa or (None, None), sb or (None, None), op._attrs["adj_x"], op._attrs["adj_y"])
    if sa is None or sb is None:
        return [(a._dtype, None)]
    return [(a._dtype, _broadcast_shapes(sa[:-2], sb[:-2]) + (m, n))]


def _adjoint(xp, x):
    x = xp.swapaxes(x, -1, -2)
    return xp.conj(x) if x.dtype.kind == "c" else x


def _batch_matmul_error(sa, sb, adj_x, adj_y):
    """TF's error for operands of shapes `sa`, `sb` that do not multiply (batch dimensions first)."""
    try:
        np.broadcast_shapes(sa[:-2], sb[:-2])
    except ValueError:
        return errors.InvalidArgumentError(
            None, None, "In[0] and In[1] must have compatible batch dimensions: %s vs. %s" % (_dims_text(sa),
                                                                                             _dims_text(sb)))
    return errors.InvalidArgumentError(None, None, "Matrix size-incompatible: In[0]: %s, In[1]: %s %d %d"
                                       % (_dims_text(sa), _dims_text(sb), adj_x, adj_y))


def _batch_matmul_kernel(xp, a, b, adj_x, adj_y):
    for i, x in enumerate((a, b)):
        if x.ndim < 2:
            raise errors.InvalidArgumentError(None, None, "In[%d] ndims must be >= 2: %d" % (i, x.ndim))
    x = _adjoint(xp, a) if adj_x else a
    y = _adjoint(xp, b) if adj_y else b
    if x.shape[-1] != y.shape[-2]:
        raise _batch_matmul_error(a.shape, b.shape, adj_x, adj_y)
    try:
        return x @ y
    except ValueError:  # batch dimensions that do not broadcast
        raise _batch_matmul_error(a.shape, b.shape, adj_x, adj_y) from None


def _batch_mat_mul(a, b, adj_x, adj_y):
    return ops.apply_op("BatchMatMulV2", [a, b], {"adj_x": adj_x, "adj_y": adj_y})


def _batch_matmul_grad(op, grad):
    """dC = grad: dX = grad Y^H, dY = X^H grad (adjoints swapped as the op's flags say), each
    summed over the batch axes it was broadcast along."""
    x, y = op._inputs
    ax, ay = op._attrs["adj_x"], op._attrs["adj_y"]
    if not ax and not ay:
        gx, gy = _batch_mat_mul(grad, y, False, True), _batch_mat_mul(x, grad, True, False)
    elif not ax:
        gx, gy = _batch_mat_mul(grad, y, False, False), _batch_mat_mul(grad, x, True, False)
    elif not ay:
        gx, gy = _batch_mat_mul(y, grad, False, True), _batch_mat_mul(x, grad, False, False)
    else:
        gx, gy = _batch_mat_mul(y, grad, True, True), _batch_mat_mul(grad, x, True, True)
    return [core_ops.unbroadcast(gx, x), core_ops.unbroadcast(gy, y)]


def _batch_matmul_inline(op):
    """`@` with the adjoints as axis swaps (complex adjoints also conjugate: the kernel does that).
    Operands of unknown rank go through the kernel, which rejects rank < 2 as TF does."""
    if op._outputs[0].dtype.is_complex and (op._attrs["adj_x"] or op._attrs["adj_y"]):
        return None
    if any(t._shape._dims is None for t in op._inputs):
        return None
    if not _contracted_dims_known(op, op._attrs["adj_x"], op._attrs["adj_y"]) or not _batch_dims_broadcast(op):
        return None  # the kernel checks the shapes at run time, and reports TF's error
    return "({0}%s @ {1}%s)" % tuple(".swapaxes(-1, -2)" if op._attrs[a] else "" for a in ("adj_x", "adj_y"))


def _batch_dims_broadcast(op):
    """Whether the batch dimensions of a BatchMatMulV2's operands broadcast whatever is fed: every
    pair statically equal, or one of them 1 or missing."""
    a, b = (t._shape.as_tuple()[:-2] for t in op._inputs)
    for i in range(1, min(len(a), len(b)) + 1):
        da, db = a[-i], b[-i]
        if da == 1 or db == 1 or (da is not None and da == db):
            continue
        return False
    return True


register_op("BatchMatMulV2", infer=_batch_matmul_infer, kernel=_batch_matmul_kernel, grad=_batch_matmul_grad,
            inline=_batch_matmul_inline, gpu=True, cost=_product_cost)


def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False, a_is_sparse=False,
           b_is_sparse=False, name=None):
    """Multiplies matrix `a` by matrix `b`, producing `a` * `b`.

    Inputs of rank > 2 (or unknown rank) are batches of matrices: the inner two dimensions are
    multiplied and the outer (batch) dimensions broadcast.

    Args:
      a: A `Tensor` of type float16, float32, float64, int32, int64, complex64 or complex128 and rank >= 2
        (int16 too for batches: operands of rank > 2 or unknown rank).
      b: A `Tensor` with the same type as `a`.
      transpose_a: If `True`, `a` is transposed before multiplication.
      transpose_b: If `True`, `b` is transposed before multiplication.
      adjoint_a: If `True`, `a` is conjugated and transposed before multiplication.
      adjoint_b: If `True`, `b` is conjugated and transposed before multiplication.
      a_is_sparse: Accepted for compatibility (a hint only).
      b_is_sparse: Accepted for compatibility (a hint only).
      name: Name for the operation (optional).

    Returns:
      A `Tensor` of the same type as `a` and `b`.

    Raises:
      ValueError: If transpose_a and adjoint_a, or transpose_b and adjoint_b are both set to True,
        or the shapes are incompatible.
      TypeError: If the dtypes differ or are not supported.
    """
    if type(a) in ops._EAGER_VARIABLE_TYPES:  # `tf.matmul(x, w)` eagerly: the value, as conversion reads it
        a = a.value()
    if type(b) in ops._EAGER_VARIABLE_TYPES:
        b = b.value()
    if (name is None and not (transpose_a or transpose_b or adjoint_a or adjoint_b)
            and type(a) in ops._EAGER_TYPES and type(b) in ops._EAGER_TYPES and a._dtype is b._dtype
            and a._dtype in _MATMUL_TYPES):
        d = ops._eager_default()
        # Executing eagerly: straight to the kernel.
        if d is not None and not d._name_stack and a._value.ndim == 2 and b._value.ndim == 2:
            return ops._eager_run_typed[0]("MatMul", [a, b], {"transpose_a": False, "transpose_b": False}, a._dtype,
                                           "MatMul/")
    with _op_scope(name, "MatMul", [a, b]) as scope:
        if transpose_a and adjoint_a:
            raise ValueError("Only one of transpose_a and adjoint_a can be True.")
        if transpose_b and adjoint_b:
            raise ValueError("Only one of transpose_b and adjoint_b can be True.")
        a, b = _convert_same([a, b], ("a", "b"), "MatMul")
        ra, rb = a.shape.ndims, b.shape.ndims
        batch = ra is None or rb is None or ra > 2 or rb > 2
        _check_dtype(a, _BATCH_MATMUL_TYPES if batch else _MATMUL_TYPES, "a" if not batch else "x")
        if not batch:
            if adjoint_a:
                a, transpose_a = conj(a), True
            if adjoint_b:
                b, transpose_b = conj(b), True
            return ops.apply_op("MatMul", [a, b], {"transpose_a": bool(transpose_a), "transpose_b": bool(transpose_b)},
                                name=scope)
        if transpose_a:
            a, adjoint_a = conj(a), True
        if transpose_b:
            b, adjoint_b = conj(b), True
        return ops.apply_op("BatchMatMulV2", [a, b], {"adj_x": bool(adjoint_a), "adj_y": bool(adjoint_b)},
                            name=scope)


# ---- Einsum / tensordot --------------------------------------------------------------------
def _split_spec(spec):
    """'ab...c' -> ['a', 'b', '...', 'c']."""
    out = []
    i = 0
    while i < len(spec):
        if spec.startswith("...", i):
            out.append("...")
            i += 3
        elif spec[i] in string.ascii_letters:
            out.append(spec[i])
            i += 1
        else:
            raise ValueError("Invalid character %r in einsum equation %r" % (spec[i], spec))
    if out.count("...") > 1:
        raise ValueError("Einsum subscripts may contain at most one ellipsis, got %r" % spec)
    return out


def _parse_einsum(equation, n):
    """(input label lists, output label list) of an einsum equation, the output made explicit.

    Raises:
      ValueError: If the equation is malformed or does not have `n` inputs.
    """
    eq = equation.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    ins = [_split_spec(s) for s in lhs.split(",")]
    if len(ins) != n:
        raise ValueError("Expected %d input tensors for equation %r but got %d" % (len(ins), equation, n))
    if arrow:
        out = _split_spec(rhs)
    else:
        counts = {}
        for s in ins:
            for c in s:
                counts[c] = counts.get(c, 0) + 1
        out = (["..."] if "..." in counts else []) + sorted(c for c, k in counts.items() if k == 1 and c != "...")
    seen = {c for s in ins for c in s}
    for c in out:
        if c not in seen:
            raise ValueError("Output subscript %r does not appear in the input subscripts of %r" % (c, equation))
        if c != "..." and out.count(c) > 1:
            raise ValueError("Output subscript %r appears more than once in %r" % (c, equation))
    return ins, out


def _join_spec(labels):
    return "".join(labels)


def _einsum_infer(op):
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    dims = {}
    ell = ()
    for labels, t in zip(ins, op._inputs):
        shape = t._shape.as_tuple()
        n_named = len(labels) - ("..." in labels)
        if shape is None:
            if "..." in labels:
                ell = None
            continue
        if len(shape) < n_named or ("..." not in labels and len(shape) != n_named):
            raise ValueError("Einsum subscripts %r do not match the rank %d of input %s"
                             % (_join_spec(labels), len(shape), t.name))
        pos = 0
        for c in labels:
            if c == "...":
                k = len(shape) - n_named
                if ell is not None:
                    ell = _broadcast_shapes(ell, shape[pos:pos + k])
                pos += k
                continue
            d = shape[pos]
            pos += 1
            prev = dims.get(c)
            if prev is not None and d is not None and prev != d:
                raise ValueError("Expected dimension %d for subscript %r of input %s but got %d"
                                 % (prev, c, t.name, d))
            if prev is None:
                dims[c] = d
    result = []
    for c in out:
        if c == "...":
            if ell is None:
                return [(op._inputs[0]._dtype, None)]
            result.extend(ell)
        else:
            result.append(dims.get(c))
    return [(op._inputs[0]._dtype, tuple(result))]


@functools.lru_cache(maxsize=256)
def _einsum_layout(equation, n):
    """Per input of an einsum equation: (labels, whether it has an ellipsis, its number of named labels)."""
    ins, _ = _parse_einsum(equation, n)
    return tuple((tuple(labels), "..." in labels, len(labels) - ("..." in labels)) for labels in ins)


def _check_einsum_shapes(equation, arrays):
    """Raises TF's InvalidArgumentError for operands that do not fit the equation: a rank that
    differs from the subscripts', a subscript bound to two sizes (TF, unlike NumPy, does not
    broadcast a size 1), or ellipsis dimensions that do not broadcast."""
    sizes = {}
    ellipses = []
    for i, ((labels, has_ellipsis, n_named), a) in enumerate(zip(_einsum_layout(equation, len(arrays)), arrays)):
        shape = a.shape
        if has_ellipsis and len(shape) < n_named:
            raise errors.InvalidArgumentError(None, None, "Expected input %d to have rank at least %d but got: %d"
                                              % (i, n_named, len(shape)))
        if not has_ellipsis and len(shape) != n_named:
            raise errors.InvalidArgumentError(None, None, "Expected input %d to have rank %d but got: %d"
                                              % (i, n_named, len(shape)))
        axis = 0
        for c in labels:
            if c == "...":
                k = len(shape) - n_named
                ellipses.append(shape[axis:axis + k])
                axis += k
                continue
            d = sizes.setdefault(c, shape[axis])
            if d != shape[axis]:
                raise errors.InvalidArgumentError(
                    None, None, "Expected dimension %d at axis %d of the input shaped %s but got dimension %d"
                    % (d, axis, _dims_text(shape), shape[axis]))
            axis += 1
    if len(ellipses) > 1:
        try:
            np.broadcast_shapes(*ellipses)
        except ValueError:
            raise errors.InvalidArgumentError(None, None, "In[0] and In[1] must have compatible batch dimensions: %s"
                                              % " vs. ".join(_dims_text(a.shape) for a in arrays)) from None


# Types TF's Einsum accepts but has no CPU kernel for.
_EINSUM_NO_KERNEL = frozenset(np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.uint8, np.uint16))


def _einsum_kernel(xp, *arrays, equation):
    if arrays[0].dtype in _EINSUM_NO_KERNEL:
        raise _no_kernel("Einsum", arrays[0].dtype, _FLOAT + (dtypes.int32, dtypes.int64) + _COMPLEX)
    _check_einsum_shapes(equation, arrays)
    out = xp.einsum(equation, *arrays, optimize=len(arrays) > 2)
    return out if out.flags.owndata else out.copy()  # a pure permutation is a view of the input


def _einsum_grad(op, grad):
    """d einsum(x_1..x_n) / dx_k = einsum of grad with the other operands, producing x_k's
    subscripts (diagonal subscripts through identity matrices, missing ones through ones)."""
    ins, out = _parse_einsum(op._attrs["equation"], len(op._inputs))
    used = {c for s in ins for c in s}
    fresh = [c for c in string.ascii_letters if c not in used]
    grads = []
    for k, xk in enumerate(op._inputs):
        specs = [out] + [s for j, s in enumerate(ins) if j != k]
        operands = [grad] + [_conj(t) for j, t in enumerate(op._inputs) if j != k]
        target = []
        shape = xk._shape.as_tuple()
        for pos, c in enumerate(ins[k]):
            if c == "..." or c not in target:
                target.append(c)
                continue
            # A repeated subscript (a diagonal): give it a fresh label tied to c by an identity matrix.
            axis = pos
            if "..." in ins[k] and pos > ins[k].index("..."):
                axis = pos - len(ins[k])  # after the ellipsis: counted from the end
            size = None if shape is None else shape[axis]
            new = fresh.pop(0)
            target.append(new)
            specs.append([c, new])
            with xk.graph.as_default():
                operands.append(_identity_matrix(xk, axis, size))
        present = {c for s in specs for c in s}
        if any(c not in present for c in target):
            specs.append(target)
            operands.append(core_ops.ones_like(xk))
        eq = ",".join(_join_spec(s) for s in specs) + "->" + _join_spec(target)
        g = ops.apply_op("Einsum", operands, {"equation": eq})
        grads.append(core_ops.unbroadcast(g, xk))
    return grads


def _identity_matrix(x, axis, size):
    """The identity matrix of the size of dimension `axis` of `x` (`size` when statically known)."""
    if size is not None:
        return constant(np.eye(size, dtype=x.dtype.as_numpy_dtype))
    from . import array_ops
    r = array_ops.range(core_ops.shape(x)[axis])
    return cast(equal(array_ops.expand_dims(r, 1), array_ops.expand_dims(r, 0)), x.dtype)


register_op("Einsum", infer=_einsum_infer, kernel=_einsum_kernel, grad=_einsum_grad)


def einsum(equation, *inputs, **kwargs):
    """A generalized contraction between tensors of arbitrary dimension (Einstein summation).

    Args:
      equation: A str describing the contraction, e.g. "ij,jk->ik" (the output may be implicit,
        "..." stands for broadcast dimensions).
      *inputs: The input tensors, all of one numeric type.
      **kwargs: `name`: A name for the operation (optional).

    Returns:
      The contracted `Tensor`, with shape determined by `equation`.

    Raises:
      ValueError: If `equation` is malformed or the shapes do not match it.
      TypeError: If an unknown keyword argument is given or the dtypes differ.
    """
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError("invalid keyword arguments for this function: " + ", ".join(sorted(kwargs)))
    with _op_scope(name, "einsum", list(inputs)) as scope:
        tensors = _convert_same(list(inputs), ["inputs"] * len(inputs), "Einsum")
        for t in tensors:
            _check_dtype(t, _NUMERIC + (dtypes.bool_,), "inputs")
        ins, out = _parse_einsum(equation, len(tensors))
        eq = ",".join(_join_spec(s) for s in ins) + "->" + _join_spec(out)
        return ops.apply_op("Einsum", tensors, {"equation": eq}, name=scope)


def _tensordot_axes(axes, ra, rb, a):
    """The contracted axes of `a` and `b` and their number: two lists of ints, non-negative where
    the rank is known (`ra`/`rb` None: unknown, and then an integer `axes` gives None for that side)."""
    if isinstance(axes, ops.Tensor):
        value = _const_value(axes)
        if value is None:
            raise ValueError("tensordot needs 'axes' known at graph construction time, got %s" % axes)
        axes = value.tolist()
    if isinstance(axes, (numbers.Integral, np.integer)):
        n = int(axes)
        if n < 0:
            raise ValueError("'axes' must be at least 0.")
        for r in (ra, rb):
            if r is not None and n > r:
                raise ValueError("'axes' must not be larger than the number of dimensions of tensor %s." % a)
        return (None if ra is None else list(range(ra - n, ra))), (None if rb is None else list(range(n))), n
    if not isinstance(axes, (list, tuple)) or len(axes) != 2:
        raise ValueError("'axes' must be an integer or have length 2.")
    a_axes, b_axes = ([int(v)] if isinstance(v, (numbers.Integral, np.integer)) else [int(i) for i in v]
                      for v in axes)
    if len(a_axes) != len(b_axes):
        raise ValueError("Different number of contraction axes 'a' and 'b', %d != %d." % (len(a_axes), len(b_axes)))
    for lst, r in ((a_axes, ra), (b_axes, rb)):
        if r is None:
            continue
        for i, v in enumerate(lst):
            if not -r <= v < r:
                raise ValueError("Axis %d is out of range for a tensor of rank %d" % (v, r))
            lst[i] = v % r
    return a_axes, b_axes, len(a_axes)


def _tensordot_matrix(x, axes, n, flipped):
    """`x` of unknown rank transposed and reshaped into the matrix TF's tensordot multiplies:
    (free elements, contracted elements), or the other way round if `flipped`; with the free
    dimensions (an int32 vector). `axes` lists the contracted axes (None: the last `n` axes when
    not `flipped`, the first `n` otherwise)."""
    from . import array_ops
    from .math_reduce_ops import reduce_any, reduce_prod
    shape = core_ops.shape(x, out_type=dtypes.int32)
    rank = array_ops.size(shape)
    if axes is None:
        axes = array_ops.range(n) if flipped else array_ops.range(rank - n, rank)
    else:  # negative axes count from the end; others out of range fail in the Gather below, as in TF
        axes = ops.convert_to_tensor(axes, dtype=dtypes.int32, name="axes")
        axes = add(axes, multiply(rank, cast(less(axes, 0), dtypes.int32)))
    positions = array_ops.range(rank)
    contracted = reduce_any(equal(array_ops.expand_dims(positions, 1), array_ops.expand_dims(axes, 0)), axis=1)
    free = array_ops.boolean_mask(positions, logical_not(contracted))
    free_dims = array_ops.gather(shape, free)
    free_size = reduce_prod(free_dims)
    axes_size = reduce_prod(array_ops.gather(shape, axes))
    perm = array_ops.concat([axes, free] if flipped else [free, axes], 0)
    matrix_shape = array_ops.stack([axes_size, free_size] if flipped else [free_size, axes_size])
    return array_ops.reshape(array_ops.transpose(x, perm), matrix_shape), free_dims


def _tensordot_dynamic(a, b, a_axes, b_axes, n, name):
    """tensordot of operands of which one has an unknown rank, as TF builds it: each operand
    transposed and reshaped into a matrix, one MatMul, and the product reshaped to the free
    dimensions of `a` followed by those of `b` (the result's rank is unknown statically)."""
    from . import array_ops
    ma, free_a = _tensordot_matrix(a, a_axes, n, False)
    mb, free_b = _tensordot_matrix(b, b_axes, n, True)
    product = matmul(ma, mb)
    return array_ops.reshape(product, array_ops.concat([free_a, free_b], 0), name=name)


def tensordot(a, b, axes, name=None):
    """Tensor contraction of a and b along specified axes (and outer product for axes=0).

    Operands of unknown rank are contracted as TF does, through a matrix product of the reshaped
    operands (the result's static shape is then unknown).

    Args:
      a: `Tensor` of type float16, float32, float64, int32, int64, complex64 or complex128.
      b: `Tensor` with the same type as `a`.
      axes: Either a scalar N (contract the last N axes of `a` with the first N of `b`) or a pair
        of lists of axes (or ints) to contract in `a` and `b`.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` with the free axes of `a` followed by the free axes of `b`.

    Raises:
      ValueError: If the shapes of `a`, `b`, and `axes` are incompatible, or `axes` is a tensor
        whose value is not known at graph construction.
      TypeError: If the dtypes of `a` and `b` differ or are not among those listed (TF's MatMul's).
      tf.errors.InvalidArgumentError: At run time, if operands of unknown rank do not fit `axes`.
    """
    with _op_scope(name, "Tensordot", [a, b, axes]) as scope:
        a, b = _convert_same([a, b], ("a", "b"), "Tensordot")
        _check_dtype(a, _MATMUL_TYPES, "a")
        ra, rb = a.shape.ndims, b.shape.ndims
        a_axes, b_axes, n = _tensordot_axes(axes, ra, rb, a)
        if ra is None or rb is None:
            return _tensordot_dynamic(a, b, a_axes, b_axes, n, scope)
        letters = iter(string.ascii_letters)
        sa = [next(letters) for _ in range(ra)]
        sb = [None] * rb
        for i, j in zip(a_axes, b_axes):
            sb[j] = sa[i]
        sb = [c or next(letters) for c in sb]
        out = [c for i, c in enumerate(sa) if i not in a_axes] + [c for j, c in enumerate(sb) if j not in b_axes]
        eq = "%s,%s->%s" % ("".join(sa), "".join(sb), "".join(out))
        return ops.apply_op("Einsum", [a, b], {"equation": eq}, name=scope)
