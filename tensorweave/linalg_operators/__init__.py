"""The `tf.linalg.LinearOperator` family and `tf.linalg.experimental.conjugate_gradient` (library
level: written with the public ops)."""

from .base import LinearOperator
from .basic import (
    LinearOperatorAdjoint,
    LinearOperatorComposition,
    LinearOperatorDiag,
    LinearOperatorFullMatrix,
    LinearOperatorIdentity,
    LinearOperatorInversion,
    LinearOperatorLowerTriangular,
    LinearOperatorScaledIdentity,
    LinearOperatorZeros,
)
from .cg import conjugate_gradient
from .structured import (
    LinearOperatorBlockDiag,
    LinearOperatorBlockLowerTriangular,
    LinearOperatorCirculant,
    LinearOperatorCirculant2D,
    LinearOperatorCirculant3D,
    LinearOperatorHouseholder,
    LinearOperatorKronecker,
    LinearOperatorLowRankUpdate,
    LinearOperatorPermutation,
    LinearOperatorToeplitz,
    LinearOperatorTridiag,
)

__all__ = ["LinearOperator", "LinearOperatorAdjoint", "LinearOperatorBlockDiag", "LinearOperatorBlockLowerTriangular",
           "LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D",
           "LinearOperatorComposition", "LinearOperatorDiag", "LinearOperatorFullMatrix", "LinearOperatorHouseholder",
           "LinearOperatorIdentity", "LinearOperatorInversion", "LinearOperatorKronecker",
           "LinearOperatorLowRankUpdate", "LinearOperatorLowerTriangular", "LinearOperatorPermutation",
           "LinearOperatorScaledIdentity", "LinearOperatorToeplitz", "LinearOperatorTridiag", "LinearOperatorZeros",
           "conjugate_gradient"]
