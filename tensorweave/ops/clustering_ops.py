"""The clustering ops of `tf.contrib.factorization` (TF's `contrib/factorization/kernels/clustering_ops.cc`):
NearestNeighbors (the `k` nearest centers of each point by squared Euclidean distance) and
KmeansPlusPlusInitialization (k-means++ seeding with greedy retries).

KmeansPlusPlusInitialization is deterministic in `seed` (as TF: each run reseeds), but it draws from
a NumPy generator, not TF's Philox stream: its picks follow TF's distribution, not TF's sequence.
"""

import math

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims, _value

__all__ = ["kmeans_plus_plus_initialization", "nearest_neighbors"]

_F = np.float32


def _rank(t, rank, what, op_type):
    d = _dims(t)
    if d is not None and len(d) != rank:
        raise ValueError("Shape must be rank %d but is rank %d for '%s' (op: '%s') (%s)"
                         % (rank, len(d), op_type, op_type, what))
    return d


# ---- NearestNeighbors --------------------------------------------------------------------------
def _nn_infer(op):
    t = op._type
    points, centers, k = op._inputs
    _check_dtype(points, (dtypes.float32,), "points", t)
    _check_dtype(centers, (dtypes.float32,), "centers", t)
    _check_dtype(k, (dtypes.int64,), "k", t)
    pd = _rank(points, 2, "points", t)
    cd = _rank(centers, 2, "centers", t)
    _rank(k, 0, "k", t)
    if pd is not None and cd is not None and pd[1] is not None and cd[1] is not None and pd[1] != cd[1]:
        raise ValueError("Dimensions must be equal, but are %d and %d for '%s' (op: '%s')"
                         % (pd[1], cd[1], t, t))
    n = pd[0] if pd is not None else None
    kv = _value(k)
    num_centers = cd[0] if cd is not None else None
    cols = None
    if kv is not None and num_centers is not None:
        cols = min(int(kv), num_centers)
    return [(dtypes.int64, (n, cols)), (dtypes.float32, (n, cols))]


def _nn_kernel(xp, points, centers, k):
    if points.ndim != 2:
        raise _invalid("Input points should be a matrix.")
    if centers.ndim != 2:
        raise _invalid("Input centers should be a matrix.")
    if np.ndim(k) != 0:
        raise _invalid("Input k should be a scalar.")
    if points.shape[1] != centers.shape[1]:
        raise _invalid("Expected points.dim_size(1) == centers.dim_size(1), got %d and %d"
                       % (points.shape[1], centers.shape[1]))
    k = int(k)
    if k < 0:
        raise _invalid("Expected k >= 0, got %d" % k)
    kk = min(k, centers.shape[0])
    n = points.shape[0]
    if kk == 0 or n == 0:
        return np.zeros((n, kk), np.int64), np.zeros((n, kk), _F)
    p = points.astype(np.float64)
    c = centers.astype(np.float64)
    d = (np.sum(p * p, 1)[:, None] - 2.0 * (p @ c.T) + np.sum(c * c, 1)[None, :]).astype(_F)
    idx = np.argsort(d, axis=1, kind="stable")[:, :kk]
    dist = np.maximum(np.take_along_axis(d, idx, 1), _F(0))
    return idx.astype(np.int64), dist.astype(_F)


register_op("NearestNeighbors", infer=_nn_infer, kernel=_nn_kernel, grad=NO_GRADIENT)


def nearest_neighbors(points, centers, k, name=None):
    """Selects the `k` nearest centers of each point (squared Euclidean distance).

    Args:
      points: A float32 matrix `[num_points, dim]`.
      centers: A float32 matrix `[num_centers, dim]`.
      k: An int64 scalar: the number of nearest centers (at most `num_centers` are returned).
      name: A name for the operation (default "NearestNeighbors").

    Returns:
      A tuple `(nearest_center_indices, nearest_center_distances)`: int64 and float32 matrices
      `[num_points, min(k, num_centers)]`, nearest first (ties: the lower index first).

    Raises:
      TypeError: If the dtypes are not float32, float32, int64.
      ValueError: If the ranks or the dimensions statically disagree.
      InvalidArgumentError: At run time, for the same problems or a negative `k`.
    """
    with ops.name_scope(name, "NearestNeighbors", [points, centers, k]) as scope:
        points = ops.convert_to_tensor(points, name="points")
        centers = ops.convert_to_tensor(centers, name="centers")
        k = ops.convert_to_tensor(k, dtype=dtypes.int64, name="k")
        out = ops.apply_op("NearestNeighbors", [points, centers, k], {}, name=scope)
        return tuple(out)


# ---- KmeansPlusPlusInitialization --------------------------------------------------------------
def _kpp_infer(op):
    t = op._type
    points, num, seed, retries = op._inputs
    _check_dtype(points, (dtypes.float32,), "points", t)
    for x, w in ((num, "num_to_sample"), (seed, "seed"), (retries, "num_retries_per_sample")):
        _check_dtype(x, (dtypes.int64,), w, t)
        _rank(x, 0, w, t)
    pd = _rank(points, 2, "points", t)
    nv = _value(num)
    return [(dtypes.float32, (None if nv is None else int(nv), pd[1] if pd is not None else None))]


def _kpp_kernel(xp, points, num_to_sample, seed, num_retries_per_sample):
    if points.ndim != 2:
        raise _invalid("Input points should be a matrix.")
    for v, w in ((num_to_sample, "num_to_sample"), (seed, "seed"), (num_retries_per_sample, "num_retries_per_sample")):
        if np.ndim(v) != 0:
            raise _invalid("Input %s should be a scalar." % w)
    num_points = points.shape[0]
    num = int(num_to_sample)
    if num <= 0:
        raise _invalid("Expected num_to_sample > 0, got %d" % num)
    if num > num_points:
        raise _invalid("Expected num_to_sample <= num_points, got %d > %d" % (num, num_points))
    retries = int(num_retries_per_sample)
    if retries < 0:
        retries = 2 + int(math.log(num))
    rng = np.random.RandomState(int(seed) % (2 ** 32))
    p = points.astype(np.float64)

    def sqdist(i):
        diff = p - p[i]
        return np.sum(diff * diff, axis=1)

    chosen = [int(rng.randint(num_points))]
    min_d = sqdist(chosen[0])
    for _ in range(1, num):
        best, best_pot, best_d = None, None, None
        for _ in range(1 + retries):
            total = min_d.sum()
            if total > 0:
                cum = np.cumsum(min_d)
                idx = int(np.searchsorted(cum, rng.uniform() * total, side="right"))
                idx = min(idx, num_points - 1)
            else:
                idx = int(rng.randint(num_points))
            cand_d = np.minimum(min_d, sqdist(idx))
            pot = cand_d.sum()
            if best_pot is None or pot < best_pot:
                best, best_pot, best_d = idx, pot, cand_d
        chosen.append(best)
        min_d = best_d
    return points[np.asarray(chosen)].astype(_F)


register_op("KmeansPlusPlusInitialization", infer=_kpp_infer, kernel=_kpp_kernel, grad=NO_GRADIENT)


def kmeans_plus_plus_initialization(points, num_to_sample, seed, num_retries_per_sample, name=None):
    """Selects `num_to_sample` rows of `points` with the k-means++ criterion.

    The first row is chosen uniformly; each next one with probability proportional to its squared
    distance to the nearest chosen row, keeping the best of `1 + num_retries_per_sample` draws (the
    one that lowers the total potential most; a negative count means `2 + floor(log(num_to_sample))`).

    Args:
      points: A float32 matrix `[num_points, dim]`.
      num_to_sample: An int64 scalar, `0 < num_to_sample <= num_points`.
      seed: An int64 scalar seeding the generator.
      num_retries_per_sample: An int64 scalar.
      name: A name for the operation (default "KmeansPlusPlusInitialization").

    Returns:
      A float32 matrix `[num_to_sample, dim]` of selected rows.

    Raises:
      TypeError: If the dtypes are not float32 and int64.
      InvalidArgumentError: At run time, for bad ranks or counts.
    """
    with ops.name_scope(name, "KmeansPlusPlusInitialization", [points, num_to_sample]) as scope:
        points = ops.convert_to_tensor(points, name="points")
        args = [points] + [ops.convert_to_tensor(v, dtype=dtypes.int64, name=n) for v, n in
                           ((num_to_sample, "num_to_sample"), (seed, "seed"),
                            (num_retries_per_sample, "num_retries_per_sample"))]
        return ops.apply_op("KmeansPlusPlusInitialization", args, {}, name=scope)
