"""ImageConnectedComponents and BipartiteMatch, the kernels behind TF 1.15's
`tf.contrib.image.connected_components` and `tf.contrib.image.bipartite_match`
(contrib/image/kernels/segmentation_ops.* and bipartite_match_op.cc).

ImageConnectedComponents labels, per image of a `[batch, height, width]` tensor, the 4-connected
regions of equal non-zero (non-empty for strings) pixels: each pixel gets `1 +` the flat index (in
the whole batch) of its component's first pixel in scan order, background pixels 0. TF's kernel
labels a component by the root of its union-find tree, which depends on its parallel union order;
the only contract TF's Python wrapper relies on is "one id per component, 0 for background", and the
wrapper renumbers ids by first appearance, so the public results agree.

BipartiteMatch is TF's greedy matching: repeatedly take the smallest remaining distance among the
valid rows (all rows when `num_valid_rows < 0`) whose row and column are both still free, until
`top_k` pairs (all when `top_k <= 0`) are matched. Equal distances are taken in row-major order
(TF's priority queue leaves their order unspecified).
"""

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from .array_helpers import _check_dtype, _dims

__all__ = ["bipartite_match", "image_connected_components"]

_CC_T = (dtypes.int64, dtypes.int32, dtypes.uint16, dtypes.int16, dtypes.uint8, dtypes.int8, dtypes.float16,
         dtypes.float32, dtypes.float64, dtypes.bool_, dtypes.string)


def _cc_infer(op):
    (image,) = op._inputs
    _check_dtype(image, _CC_T, "dtype", op._type)
    dims = _dims(image)
    if dims is not None and len(dims) != 3:
        raise ValueError("Shape must be rank 3 but is rank %d for '%s' (op: '%s')" % (len(dims), op.name, op._type))
    return [(dtypes.int64, dims if dims is not None else (None, None, None))]


def _find(parent, i):
    root = i
    while parent[root] != root:
        root = parent[root]
    while parent[i] != root:  # path compression
        parent[i], i = root, parent[i]
    return root


def _cc_kernel(xp, image, dtype=None):
    image = np.asarray(image)
    if image.ndim != 3:
        raise _invalid("image must be 3-dimensional (batch, height, width)")
    n, h, w = image.shape
    if image.dtype.kind in "OSU":
        nonzero = np.vectorize(lambda v: len(v) > 0, otypes=[bool])(image) if image.size else \
            np.zeros(image.shape, bool)
    else:
        nonzero = image != 0
    size = image.size
    parent = np.arange(size, dtype=np.int64)
    flat = image.reshape(-1)
    nz = nonzero.reshape(-1)

    def union(a, b):
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:  # the smaller flat index stays the root: the first pixel in scan order
            parent[max(ra, rb)] = min(ra, rb)

    for b in range(n):
        base = b * h * w
        for y in range(h):
            for x in range(w):
                i = base + y * w + x
                if not nz[i]:
                    continue
                if x + 1 < w and nz[i + 1] and flat[i + 1] == flat[i]:
                    union(i, i + 1)
                if y + 1 < h and nz[i + w] and flat[i + w] == flat[i]:
                    union(i, i + w)
    out = np.zeros(size, np.int64)
    for i in range(size):
        if nz[i]:
            out[i] = _find(parent, i) + 1
    return out.reshape(image.shape)


register_op("ImageConnectedComponents", infer=_cc_infer, kernel=_cc_kernel, grad=NO_GRADIENT, cost=8)


def image_connected_components(image, name=None):
    """Labels the 4-connected components of equal non-zero pixels of each image (the raw op).

    Args:
      image: A `[batch, height, width]` tensor of int64, int32, uint16, int16, uint8, int8, float16,
        float32, float64, bool or string.
      name: A name for the operation (default "ImageConnectedComponents").

    Returns:
      An int64 tensor of `image`'s shape: 0 for background pixels, else `1 +` the flat batch index of
      the component's first pixel in scan order.

    Raises:
      TypeError: For an unsupported dtype.
      ValueError: If `image` has a static rank other than 3.
      InvalidArgumentError: At run time, if `image` is not 3-D.
    """
    with ops.name_scope(name, "ImageConnectedComponents", [image]) as scope:
        image = ops.convert_to_tensor(image, name="image")
        return ops.apply_op("ImageConnectedComponents", [image], {"dtype": image.dtype}, name=scope)


def _bm_infer(op):
    distance_mat, num_valid_rows = op._inputs
    _check_dtype(distance_mat, (dtypes.float32,), "distance_mat", op._type)
    _check_dtype(num_valid_rows, (dtypes.float32,), "num_valid_rows", op._type)
    dims = _dims(distance_mat)
    if dims is not None and len(dims) != 2:
        raise ValueError("Shape must be rank 2 but is rank %d for '%s' (op: '%s')" % (len(dims), op.name, op._type))
    vdims = _dims(num_valid_rows)
    if vdims is not None and len(vdims) != 0:
        raise ValueError("Shape must be rank 0 but is rank %d for '%s' (op: '%s')" % (len(vdims), op.name, op._type))
    rows, cols = dims if dims is not None else (None, None)
    return [(dtypes.int32, (rows,)), (dtypes.int32, (cols,))]


def _bm_kernel(xp, distance_mat, num_valid_rows, top_k=-1):
    d = np.asarray(distance_mat, np.float32)
    if d.ndim != 2:
        raise _invalid("distance_mat should be 2-dimensional, but got %s" % (list(d.shape),))
    nv = np.asarray(num_valid_rows, np.float32).reshape(-1)
    if nv.size != 1:
        raise _invalid("num_valid_rows argument should be a tensor with 1 element, but got %d" % nv.size)
    rows, cols = d.shape
    valid = rows if nv[0] < 0 else int(np.float32(nv[0]) + np.float32(0.1))
    if valid > rows:
        raise _invalid("There should be at least %d rows in distance_mat, but only got %d rows." % (valid, rows))
    limit = valid * cols if top_k <= 0 else top_k
    row_match = np.full(rows, -1, np.int32)
    col_match = np.full(cols, -1, np.int32)
    if valid and cols:
        block = d[:valid]
        # stable sort on the flattened (row-major) block: equal distances keep row-major order; NaN last
        order = np.argsort(block.reshape(-1), kind="stable")
        matched = 0
        for flat in order:
            r, c = divmod(int(flat), cols)
            if row_match[r] == -1 and col_match[c] == -1:
                row_match[r], col_match[c] = c, r
                matched += 1
                if matched >= limit:
                    break
    return [row_match, col_match]


register_op("BipartiteMatch", infer=_bm_infer, kernel=_bm_kernel, grad=NO_GRADIENT, cost=4)


def bipartite_match(distance_mat, num_valid_rows, top_k=-1, name="bipartite_match"):
    """Finds a greedy bipartite matching of the rows and columns of a distance matrix.

    The smallest distance whose row and column are both unmatched is taken, repeatedly, over the
    first `num_valid_rows` rows, until `top_k` pairs are matched or nothing is left.

    Args:
      distance_mat: A 2-D float32 `[num_rows, num_columns]` tensor of pairwise distances.
      num_valid_rows: A float32 scalar: the number of valid rows (the first ones); negative for all.
      top_k: The number of matches to find; `top_k <= 0` finds as many as possible.
      name: The name of the op.

    Returns:
      row_to_col_match_indices: An int32 `[num_rows]` vector: the column each row is matched to, or -1.
      col_to_row_match_indices: An int32 `[num_columns]` vector: the row each column is matched to, or -1.

    Raises:
      TypeError: If the inputs are not float32.
      ValueError: If `distance_mat` has a static rank other than 2 or `num_valid_rows` is not a scalar.
      InvalidArgumentError: At run time, for more valid rows than rows.
    """
    with ops.name_scope(name, "BipartiteMatch", [distance_mat, num_valid_rows]) as scope:
        distance_mat = ops.convert_to_tensor(distance_mat, name="distance_mat")
        num_valid_rows = ops.convert_to_tensor(num_valid_rows, dtype=dtypes.float32, name="num_valid_rows")
        return tuple(ops.apply_op("BipartiteMatch", [distance_mat, num_valid_rows], {"top_k": int(top_k)},
                                  name=scope))
