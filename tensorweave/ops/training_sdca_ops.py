"""The small SDCA helper ops of TF's sdca_ops: SdcaFprint (128-bit FarmHash fingerprints of example
ids) and SdcaShrinkL1 (the in-place L1 proximal step on float32 weight variables).

FarmHash comes from `pyfarmhash` (the `[strings]` extra), imported when the kernel first runs.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import ALL_INPUTS, NO_GRADIENT, register_op
from .training_ops import _ref

_M64 = (1 << 64) - 1


def _farmhash():
    try:
        import farmhash
    except ImportError:
        raise ImportError("tf.train.sdca_fprint needs the pyfarmhash package: pip install tensorweave[strings]") \
            from None
    return farmhash


def _signed(u):
    return u - (1 << 64) if u >= 1 << 63 else u


# ---- SdcaFprint ---------------------------------------------------------------------------------
def _fprint_infer(op):
    x = op._inputs[0]
    if x.dtype is not dtypes.string:
        raise TypeError("Input 'input' of 'SdcaFprint' Op has type %s that does not match expected type of string."
                        % x.dtype.name)
    shape = x.shape.as_tuple()
    if shape is not None and len(shape) != 1:
        raise ValueError("Shape must be rank 1 but is rank %d" % len(shape))
    return [(dtypes.int64, ((shape[0] if shape is not None else None), 2))]


def _as_bytes(v):
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


def _fprint_kernel(xp, x):
    a = np.asarray(x, dtype=object)
    if a.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "Input must be a vector, got shape [%s]"
                                          % ",".join(str(d) for d in a.shape))
    fh = _farmhash() if a.size else None
    out = np.empty((a.size, 2), np.int64)
    for i, v in enumerate(a):
        low, high = fh.fingerprint128(_as_bytes(v))
        # TF never returns 0 or 1 as the first value (sentinels of dense hash tables).
        low = low if low >= 2 else (low + (_M64 - 1)) & _M64
        out[i, 0], out[i, 1] = _signed(low), _signed(high)
    return out


register_op("SdcaFprint", infer=_fprint_infer, kernel=_fprint_kernel, grad=NO_GRADIENT)


def sdca_fprint(input, name=None):  # noqa: A002 - TF's argument name
    """Computes fingerprints of the input strings (`tf.train.sdca_fprint`): row `i` of the result is
    the 128-bit FarmHash fingerprint of `input[i]` as two int64 (low then high 64 bits; a low half of
    0 or 1 is shifted so that those values never appear).

    Args:
      input: A 1-D string tensor (example ids).
      name: Op name.

    Returns:
      An int64 tensor of shape `[n, 2]`.

    Raises:
      TypeError: If `input` is not a string tensor.
      ValueError: If `input` is not a vector.
      ImportError: At run time, without pyfarmhash.
    """
    x = input if isinstance(input, ops.Tensor) else ops.convert_to_tensor(input, dtype=dtypes.string, name="input")
    return ops.apply_op("SdcaFprint", [x], {}, name=name)


# ---- SdcaShrinkL1 -------------------------------------------------------------------------------
def _shrink_infer(op):
    for t in op._inputs:
        if t.dtype is not dtypes.float32:
            raise TypeError("Input 'weights' of 'SdcaShrinkL1' Op has type %s that does not match expected type of "
                            "float32_ref." % t.dtype.name)
    if op._attrs["num_features"] != len(op._inputs):
        raise ValueError("num_features (%d) does not match the %d weights" % (op._attrs["num_features"],
                                                                             len(op._inputs)))
    return []


def _shrink_kernel(ctx, op, *keys, num_features, l1, l2):
    shrinkage = np.float32(np.float32(l1) / np.float32(l2))
    with ctx.lock:
        for key in keys:
            w = ctx.read_variable(key, op)
            # Eigen's sign: +0 for both zeros (so -0.0 becomes +0.0), NaN for NaN through the product.
            sign = (w > 0).astype(np.float32) - (w < 0).astype(np.float32)
            new = (sign * np.maximum(np.abs(w) - shrinkage, np.float32(0))).astype(np.float32)
            new.setflags(write=False)
            ctx.variables[key] = new


register_op("SdcaShrinkL1", infer=_shrink_infer, kernel=_shrink_kernel, grad=NO_GRADIENT, stateful=True,
            ref_inputs=ALL_INPUTS)


def sdca_shrink_l1(weights, l1, l2, name=None):
    """Applies the L1 regularization shrink step to the weights (`tf.train.sdca_shrink_l1`):
    every element becomes `sign(w) * max(|w| - l1 / l2, 0)`, in place.

    Args:
      weights: A list of float32 `Variable`s.
      l1: Symmetric L1 regularization strength (float).
      l2: Symmetric L2 regularization strength (float); the shrinkage is `l1 / l2`.
      name: Op name.

    Returns:
      The Operation (it has no outputs).

    Raises:
      TypeError: If a weight is not a float32 variable.
    """
    refs = [_ref(w, "SdcaShrinkL1") for w in weights]
    attrs = {"num_features": len(refs), "l1": float(l1), "l2": float(l2)}
    return ops.apply_op("SdcaShrinkL1", refs, attrs, name=name)
