"""`tf.math.special`: special functions (the Bessel functions, Dawson's, exponential, Fresnel and Spence's
integrals), defined in `ops.math_bessel_ops` and `ops.math_special_ops`."""

from .ops.math_bessel_ops import (
    bessel_j0,
    bessel_j1,
    bessel_k0,
    bessel_k0e,
    bessel_k1,
    bessel_k1e,
    bessel_y0,
    bessel_y1,
    dawsn,
    expint,
    fresnel_cos,
    fresnel_sin,
    spence,
)
from .ops.math_special_ops import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_j0", "bessel_j1", "bessel_k0", "bessel_k0e",
           "bessel_k1", "bessel_k1e", "bessel_y0", "bessel_y1", "dawsn", "expint", "fresnel_cos", "fresnel_sin",
           "spence"]
