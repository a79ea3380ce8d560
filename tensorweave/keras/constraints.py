"""tf.keras.constraints: weight constraints (Keras 2), applied as `constraint(w) -> w'`."""

from ..framework import ops
from ..ops import array_ops, math_ops
from .backend import epsilon as _epsilon
from .utils.generic_utils import deserialize_keras_object, get_keras_object, serialize_keras_object

__all__ = ["Constraint", "MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm", "deserialize", "get", "max_norm",
           "min_max_norm", "non_neg", "radial_constraint", "RadialConstraint", "serialize",
           "unit_norm"]

def _norms(w, axis):
    return math_ops.sqrt(math_ops.reduce_sum(math_ops.square(w), axis=axis, keepdims=True))


class Constraint:
    """Constraint base class (the identity)."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Constrains the norm of the weights incident to each hidden unit to be at most `max_value`.

    Args:
      max_value: The maximum norm for the incoming weights.
      axis: Integer or list, axis along which to compute the weight norms.
    """

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = math_ops.minimum(math_ops.maximum(norms, 0.), float(self.max_value))
        return w * (desired / (_epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """Constrains the weights to be non-negative."""

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        return w * math_ops.cast(math_ops.greater_equal(w, 0.), w.dtype)


class UnitNorm(Constraint):
    """Constrains the weights incident to each hidden unit to have unit norm.

    Args:
      axis: Integer or list, axis along which to compute the weight norms.
    """

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        return w / (_epsilon() + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """Constrains the weight norms to lie in `[min_value, max_value]`, moved there at `rate`.

    Args:
      min_value: The minimum norm for the incoming weights.
      max_value: The maximum norm for the incoming weights.
      rate: Rate for enforcing the constraint (1.0 = strict).
      axis: Integer or list, axis along which to compute the weight norms.
    """

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        clipped = math_ops.minimum(math_ops.maximum(norms, float(self.min_value)), float(self.max_value))
        desired = self.rate * clipped + (1 - self.rate) * norms
        return w * (desired / (_epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate, "axis": self.axis}


class RadialConstraint(Constraint):
    """Makes each `(height, width)` slice of a rank-4 conv kernel radially symmetric.

    As in TF 1.15, every ring of positions at the same Chebyshev distance from the center takes one
    value of the kernel's diagonal: for an odd size `2s + 1` the center takes `w[s - 1, s - 1]` and
    ring `d` takes `w[s + d - 1, s + d - 1]`; for an even size `2s` the central 2x2 block takes
    `w[s - 1, s - 1]` and ring `d` takes `w[s + d, s + d]`. A 1x1 kernel is returned unchanged.

    Raises:
      ValueError: If the weight is not of rank 4 with static, equal height and width.
    """

    def __call__(self, w):
        w = ops.convert_to_tensor(w)
        shape = w.shape.as_list() if w.shape.ndims is not None else None
        if shape is None or len(shape) != 4:
            raise ValueError("The weight tensor must be of rank 4, but is of shape: %s" % (w.shape,))
        height, width = shape[0], shape[1]
        if height is None or height != width:
            raise ValueError("RadialConstraint needs square kernels of static size, got %s" % (w.shape,))
        n = height
        s = n // 2
        src = []
        for a in range(n):
            for b in range(n):
                if n % 2:
                    d = max(abs(a - s), abs(b - s))
                    k = (s - 1) % n if d == 0 else s + d - 1
                else:
                    da = (s - 1 - a) if a <= s - 1 else (a - s)
                    db = (s - 1 - b) if b <= s - 1 else (b - s)
                    d = max(da, db)
                    k = s - 1 if d == 0 else s + d
                src.append(k * n + k)
        flat = array_ops.reshape(w, array_ops.stack([n * n, -1]))
        out = array_ops.gather(flat, src)
        return array_ops.reshape(out, array_ops.shape(w))


max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint

_OBJECTS = {"Constraint": Constraint, "MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm,
            "MinMaxNorm": MinMaxNorm, "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
            "min_max_norm": MinMaxNorm, "RadialConstraint": RadialConstraint,
            "radial_constraint": RadialConstraint}


def serialize(constraint):
    """Returns `{"class_name": ..., "config": ...}` for a constraint."""
    return serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    """Builds a constraint from `serialize`'s dict (or a name).

    Raises:
      ValueError: `Unknown constraint: <name>` for an unknown class name.
    """
    return deserialize_keras_object(config, module_objects=_OBJECTS, custom_objects=custom_objects,
                                    printable_module_name="constraint")


def get(identifier):
    """Returns a constraint from None, a name, a config dict or a callable.

    Raises:
      ValueError: If `identifier` cannot be interpreted.
    """
    return get_keras_object(identifier, deserialize, "constraint")
