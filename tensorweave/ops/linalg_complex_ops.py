"""Complex-number ops: Complex, Real, Imag, Angle (TF's op types, with TF's gradients from
tensorflow/python/ops/math_grad.py), and the Python functions `complex`, `real`, `imag`, `angle`,
`to_complex64`, `to_complex128` and `polyval` built as TF builds them (tensorflow/python/ops/math_ops.py)."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import register_op
from . import core_ops
from .array_select_ops import where
from .math_binary_ops import less, multiply
from .math_helpers import _broadcast_shapes, _op_scope
from .math_unary_ops import cast, negative, reciprocal

_REAL_OF = {dtypes.complex64: dtypes.float32, dtypes.complex128: dtypes.float64}
_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _part_infer(op):
    return [(op._attrs["Tout"], op._inputs[0]._shape.as_tuple())]


# ---- Real / Imag / Angle --------------------------------------------------------------------
def _real_grad(op, grad):
    """The real part's gradient: `complex(grad, 0)`."""
    return [complex(grad, ops.convert_to_tensor(0, dtype=grad.dtype))]


def _imag_grad(op, grad):
    """The imaginary part's gradient: `complex(0, grad)`."""
    return [complex(ops.convert_to_tensor(0, dtype=grad.dtype), grad)]


def _angle_grad(op, grad):
    """`-complex(grad, 0) / (imag(x) + i real(x))` (TF's _AngleGrad)."""
    x = op._inputs[0]
    z = reciprocal(complex(imag(x), real(x)))
    return [multiply(negative(complex(grad, ops.convert_to_tensor(0, dtype=grad.dtype))), z)]


register_op("Real", infer=_part_infer, kernel=lambda xp, x, Tout: xp.real(x).astype(Tout.as_numpy_dtype),
            grad=_real_grad, gpu=True)
register_op("Imag", infer=_part_infer, kernel=lambda xp, x, Tout: xp.imag(x).astype(Tout.as_numpy_dtype),
            grad=_imag_grad, gpu=True)
register_op("Angle", infer=_part_infer, kernel=lambda xp, x, Tout: xp.angle(x).astype(Tout.as_numpy_dtype),
            grad=_angle_grad, gpu=True)


def _numeric(t):
    return t.dtype.is_floating or t.dtype.is_integer or t.dtype.is_complex


def _not_numeric(t):
    return TypeError("input must be a numeric tensor, but got tensor with dtype %s" % t.dtype)


def real(input, name=None):  # noqa: A002 (TF's name)
    """Returns the real part of a complex (or real) tensor.

    For a complex `input` the result is its real part, of the matching real type (float32 for
    complex64, float64 for complex128); a real `input` is returned as it is.

    Args:
      input: A `Tensor`. Must have numeric type.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type float32 or float64 (complex input), else `input`.

    Raises:
      TypeError: If `input` is not numeric.
    """
    with _op_scope(name, "Real", [input]) as scope:
        input = ops.convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return ops.apply_op("Real", [input], {"Tout": _REAL_OF[input.dtype]}, name=scope)
        if _numeric(input):
            return input
        raise _not_numeric(input)


def imag(input, name=None):  # noqa: A002 (TF's name)
    """Returns the imaginary part of a complex (or real) tensor.

    For a complex `input` the result is its imaginary part, of the matching real type; for a real
    `input` it is `zeros_like(input)`.

    Args:
      input: A `Tensor`. Must have numeric type.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type float32 or float64 (complex input), else zeros of `input`'s type.

    Raises:
      TypeError: If `input` is not numeric.
    """
    with _op_scope(name, "Imag", [input]) as scope:
        input = ops.convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return ops.apply_op("Imag", [input], {"Tout": _REAL_OF[input.dtype]}, name=scope)
        if _numeric(input):
            return core_ops.zeros_like(input)
        raise _not_numeric(input)


def angle(input, name=None):  # noqa: A002 (TF's name)
    """Returns the element-wise argument (phase) of a complex (or real) tensor.

    For a complex `input`, `atan2(imag(input), real(input))` in [-pi, pi]; for a real `input`, pi
    where it is negative and 0 elsewhere (NaN included).

    Args:
      input: A `Tensor` of type float32, float64, complex64 or complex128.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type float32 or float64.

    Raises:
      TypeError: If `input` is not numeric (or integer: TF's `pi * ones_like` fails there too).
    """
    with _op_scope(name, "Angle", [input]) as scope:
        input = ops.convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return ops.apply_op("Angle", [input], {"Tout": _REAL_OF[input.dtype]}, name=scope)
        if input.dtype.is_integer:
            raise TypeError("Expected %s, but got %r of type 'float'." % (input.dtype.name, np.pi))
        if not input.dtype.is_floating:
            raise _not_numeric(input)
        return where(less(input, ops.convert_to_tensor(0, dtype=input.dtype)),
                     multiply(ops.convert_to_tensor(np.pi, dtype=input.dtype), core_ops.ones_like(input)),
                     core_ops.zeros_like(input))


# ---- Complex --------------------------------------------------------------------------------
def _complex_infer(op):
    x, y = op._inputs
    return [(op._attrs["Tout"], _broadcast_shapes(x._shape.as_tuple(), y._shape.as_tuple()))]


def _complex_kernel(xp, x, y, Tout):
    try:
        shape = np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, "Incompatible shapes: [%s] vs. [%s]" % (
            ",".join(map(str, x.shape)), ",".join(map(str, y.shape)))) from None
    out = np.empty(shape, Tout.as_numpy_dtype)
    out.real = x
    out.imag = y
    return out


def _complex_grad(op, grad):
    """(real(grad), imag(grad)), each summed over its broadcast axes."""
    x, y = op._inputs
    return [core_ops.unbroadcast(real(grad), x), core_ops.unbroadcast(imag(grad), y)]


# Host-only: the parts are assigned separately (real + 1j * imag would turn an infinite part into NaN).
register_op("Complex", infer=_complex_infer, kernel=_complex_kernel, grad=_complex_grad)


def complex(real, imag, name=None):  # noqa: A001 (TF's name)
    """Converts two real numbers to a complex number, element-wise: `real + imag * 1j`.

    Args:
      real: A `Tensor` of type float32 or float64.
      imag: A `Tensor` of the same type as `real` (broadcast against it).
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of type complex64 (float32 parts) or complex128 (float64 parts).

    Raises:
      TypeError: If `real` and `imag` have different types, or types other than float32/float64.
    """
    real = ops.convert_to_tensor(real, name="real")
    imag = ops.convert_to_tensor(imag, name="imag")
    with _op_scope(name, "Complex", [real, imag]) as scope:
        if real.dtype is not imag.dtype or real.dtype not in _COMPLEX_OF:
            raise TypeError("The `real` and `imag` components have incorrect types: %s %s. They must be consistent, "
                            "and one of [tf.float32, tf.float64]" % (real.dtype.name, imag.dtype.name))
        return ops.apply_op("Complex", [real, imag], {"Tout": _COMPLEX_OF[real.dtype]}, name=scope)


def to_complex64(x, name="ToComplex64"):
    """Casts a tensor to type complex64 (deprecated in TF: use `tf.cast`).

    Args:
      x: A `Tensor` (or `SparseTensor`-free value) of a numeric type.
      name: A name for the operation.

    Returns:
      A `Tensor` of type complex64.

    Raises:
      TypeError: If `x` cannot be cast to complex64.
    """
    return cast(x, dtypes.complex64, name=name)


def to_complex128(x, name="ToComplex128"):
    """Casts a tensor to type complex128 (deprecated in TF: use `tf.cast`).

    Args:
      x: A `Tensor` of a numeric type.
      name: A name for the operation.

    Returns:
      A `Tensor` of type complex128.

    Raises:
      TypeError: If `x` cannot be cast to complex128.
    """
    return cast(x, dtypes.complex128, name=name)


def polyval(coeffs, x, name=None):
    """Computes the elementwise value of a polynomial, by Horner's method:
    `coeffs[0] * x^(n-1) + ... + coeffs[n-1]`.

    Args:
      coeffs: A Python list of `Tensor`s (or values), the coefficients, highest degree first; each
        broadcast against `x`.
      x: A `Tensor`: the points at which to evaluate.
      name: A name for the operation (optional).

    Returns:
      A `Tensor` of the shape of the broadcast of `x` and the coefficients (`zeros_like(x)` when
      `coeffs` is empty).

    Raises:
      ValueError: If `coeffs` is not a list.
      TypeError: If the coefficients' dtypes do not match `x`'s.
    """
    if not isinstance(coeffs, list):
        raise ValueError("Argument coeffs must be list type. Received type %s." % type(coeffs))
    with ops.name_scope(name, "polyval", list(coeffs) + [x]) as scope:
        x = ops.convert_to_tensor(x, name="x")
        if not coeffs:
            return core_ops.zeros_like(x, name=scope)
        coeffs = [ops.convert_to_tensor(c, name="coeff_%d" % i) for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


__all__ = ["angle", "complex", "imag", "polyval", "real", "to_complex64", "to_complex128"]
