"""`tf.norm`: vector and matrix norms built from math ops as in TF 1.x (`linalg_ops.norm`), so their
gradients come from those ops."""

import numbers

import numpy as np

from ..framework import ops
from . import array_ops, math_ops

_MATRIX_NORMS = ["euclidean", "fro", 1, 2, np.inf]
_VECTOR_NORMS = ["euclidean", 1, 2, np.inf]


def _is_int(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, bool)


def _is_positive_real(x):
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and x > 0


def _in(x, choices):
    """`x in choices` without comparing strings to numbers through NumPy."""
    return any(type(x) is type(c) and x == c if isinstance(c, str) or isinstance(x, str) else x == c
               for c in choices)


def _matrix_2_norm(tensor, axis):
    """The largest singular value of the matrices in `axis` (TF's `norm` with `ord=2`), keeping both axes."""
    from .linalg_decomp_ops import svd
    rank = tensor.shape.ndims
    if rank is None:
        raise NotImplementedError("tf.norm: the matrix 2-norm needs a tensor of known rank")
    positive = [a + rank if a < 0 else a for a in axis]
    perm_before = [i for i in range(rank) if i not in positive] + positive
    perm_after = [perm_before.index(i) for i in range(rank)]
    permed = array_ops.transpose(tensor, perm=perm_before)
    largest = math_ops.reduce_max(math_ops.abs(svd(permed, compute_uv=False)), axis=-1, keepdims=True)
    return array_ops.transpose(array_ops.expand_dims(largest, -1), perm=perm_after)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002 (TF's name)
    """Computes the norm of vectors, matrices, and tensors, as `tf.norm`.

    Vector norms: the 1-norm, the Euclidean (2-) norm, the inf-norm and the p-norm for any real
    p > 0. Matrix norms (when `axis` is a pair): Frobenius (`'fro'` or `'euclidean'`), the 1-norm
    (largest absolute column sum), the inf-norm (largest absolute row sum) and the 2-norm (largest
    singular value).

    Args:
      tensor: A `Tensor` of type float16, float32, float64, complex64 or complex128.
      ord: Order of the norm: `'euclidean'` (default), `'fro'`, 1, 2, `np.inf`, or any positive real
        number for a vector p-norm. `'fro'` is only defined for matrices; matrix norms support
        `'euclidean'`, `'fro'`, 1, 2 and `np.inf`.
      axis: None (the norm of the flattened tensor, as a vector), a Python integer (a batch of
        vectors along that axis) or a pair of distinct Python integers (a batch of matrices in those
        axes). Negative values count from the end.
      keepdims: If True, the reduced axes are kept with size 1.
      name: A name for the operation (optional).
      keep_dims: Deprecated alias for `keepdims`.

    Returns:
      A `Tensor` of the vector or matrix norms, of the dtype of `tensor` (the dtype of its absolute
      value for the 1-, inf- and p-norms of complex tensors).

    Raises:
      ValueError: If `ord` or `axis` is invalid, or both `keepdims` and `keep_dims` are given.
      NotImplementedError: For the matrix 2-norm (the largest singular value, through `tf.svd`) of a
        tensor of unknown rank or of complex type.
    """
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    keepdims = keep_dims if keepdims is None else keepdims
    keepdims = bool(keepdims) if keepdims is not None else False

    is_matrix_norm = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if not _is_int(axis[0]) or not _is_int(axis[1]) or axis[0] == axis[1]:
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, got %s" % (axis,))
        if not _in(ord, _MATRIX_NORMS):
            raise ValueError("'ord' must be a supported matrix norm in %s, got %s" % (_MATRIX_NORMS, ord))
    else:
        if not (_is_int(axis) or axis is None):
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, got %s" % (axis,))
        if not _is_positive_real(ord) and not _in(ord, _VECTOR_NORMS):
            raise ValueError("'ord' must be a supported vector norm, got %s" % (ord,))
        if axis is not None:
            axis = (int(axis),)
    with ops.name_scope(name, "norm", [tensor]):
        tensor = ops.convert_to_tensor(tensor)
        if is_matrix_norm and _in(ord, [2]):
            result = _matrix_2_norm(tensor, axis)
        elif _in(ord, ["fro", "euclidean", 2]):
            result = math_ops.sqrt(math_ops.reduce_sum(tensor * math_ops.conj(tensor), axis, keepdims=True))
        else:
            result = math_ops.abs(tensor)
            if _in(ord, [1]):
                sum_axis = None if axis is None else axis[0]
                result = math_ops.reduce_sum(result, sum_axis, keepdims=True)
                if is_matrix_norm:
                    result = math_ops.reduce_max(result, axis[-1], keepdims=True)
            elif _in(ord, [np.inf]):
                if is_matrix_norm:
                    result = math_ops.reduce_sum(result, axis[1], keepdims=True)
                max_axis = None if axis is None else axis[0]
                result = math_ops.reduce_max(result, max_axis, keepdims=True)
            else:
                # General p-norms (positive p only).
                result = math_ops.pow(math_ops.reduce_sum(math_ops.pow(result, ord), axis, keepdims=True), 1.0 / ord)
        if not keepdims:
            result = array_ops.squeeze(result, axis)
        return result

