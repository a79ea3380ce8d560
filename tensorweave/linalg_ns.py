"""`tf.linalg`: linear algebra (each function defined in `ops.linalg_*_ops`, `ops.math_ops` or
`ops.norm_ops`)."""

from . import linalg_experimental_ns as experimental
from .linalg_operators import (
    LinearOperator,
    LinearOperatorAdjoint,
    LinearOperatorBlockDiag,
    LinearOperatorBlockLowerTriangular,
    LinearOperatorCirculant,
    LinearOperatorCirculant2D,
    LinearOperatorCirculant3D,
    LinearOperatorComposition,
    LinearOperatorDiag,
    LinearOperatorFullMatrix,
    LinearOperatorHouseholder,
    LinearOperatorIdentity,
    LinearOperatorInversion,
    LinearOperatorKronecker,
    LinearOperatorLowerTriangular,
    LinearOperatorLowRankUpdate,
    LinearOperatorPermutation,
    LinearOperatorScaledIdentity,
    LinearOperatorToeplitz,
    LinearOperatorTridiag,
    LinearOperatorZeros,
)
from .ops.clip_ops import global_norm
from .ops.linalg_core_ops import cholesky, cholesky_solve, logdet, slogdet
from .ops.linalg_core_ops import matrix_determinant as det
from .ops.linalg_core_ops import matrix_inverse as inv
from .ops.linalg_core_ops import matrix_solve as solve
from .ops.linalg_core_ops import matrix_triangular_solve as triangular_solve
from .ops.linalg_decomp_ops import qr, svd
from .ops.linalg_decomp_ops import self_adjoint_eig as eigh
from .ops.linalg_decomp_ops import self_adjoint_eigvals as eigvalsh
from .ops.linalg_diag_ops import diag as tensor_diag
from .ops.linalg_diag_ops import diag_part as tensor_diag_part
from .ops.linalg_diag_ops import eye, trace
from .ops.linalg_diag_ops import matrix_band_part as band_part
from .ops.linalg_diag_ops import matrix_diag as diag
from .ops.linalg_diag_ops import matrix_diag_part as diag_part
from .ops.linalg_diag_ops import matrix_set_diag as set_diag
from .ops.linalg_expm_ops import matrix_exponential as expm
from .ops.linalg_matfn_ops import logm, lu, lu_matrix_inverse, lu_reconstruct, lu_solve, sqrtm
from .ops.linalg_misc_ops import adjoint, cross, matrix_rank, matrix_transpose, matvec, normalize, pinv
from .ops.linalg_misc_ops import matrix_solve_ls as lstsq
from .ops.linalg_misc_ops import matrix_transpose as transpose
from .ops.linalg_tridiag_ops import eigh_tridiagonal, tridiagonal_matmul, tridiagonal_solve
from .ops.math_ops import einsum, matmul, tensordot
from .ops.nn_loss_ops import l2_normalize
from .ops.norm_ops import norm

__all__ = [
    "adjoint", "band_part", "cholesky", "cholesky_solve", "cross", "det", "diag", "diag_part", "eigh", "eigvalsh",
    "einsum", "expm", "eye", "global_norm", "inv", "l2_normalize", "logdet", "lstsq", "matmul", "matrix_rank",
    "matrix_transpose", "matvec", "norm", "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "svd",
    "tensor_diag", "tensor_diag_part", "tensordot", "trace", "transpose", "triangular_solve",
]
__all__ += [
    "LinearOperator", "LinearOperatorAdjoint", "LinearOperatorBlockDiag", "LinearOperatorBlockLowerTriangular",
    "LinearOperatorCirculant", "LinearOperatorCirculant2D", "LinearOperatorCirculant3D", "LinearOperatorComposition",
    "LinearOperatorDiag", "LinearOperatorFullMatrix", "LinearOperatorHouseholder", "LinearOperatorIdentity",
    "LinearOperatorInversion", "LinearOperatorKronecker", "LinearOperatorLowRankUpdate",
    "LinearOperatorLowerTriangular", "LinearOperatorPermutation", "LinearOperatorScaledIdentity",
    "LinearOperatorToeplitz", "LinearOperatorTridiag", "LinearOperatorZeros", "eigh_tridiagonal", "experimental",
    "logm", "lu", "lu_matrix_inverse", "lu_reconstruct", "lu_solve", "sqrtm", "tridiagonal_matmul",
    "tridiagonal_solve",
]
