"""Feature crosses: SparseCross (string or FarmHash-hashed crosses, `tf.sparse.cross_hashed`) and
SparseCrossV2 (string crosses with a separator, `tf.sparse.cross`).

Each input column (a rank-2 `SparseTensor` or dense `Tensor`) gives each batch row a list of features;
a row's crosses are the cartesian product of its lists (the last column varying fastest), sparse columns
first, then dense ones, as TF's kernel orders them. String crosses join the features with the
separator (integers written in decimal); hashed crosses chain `FingerprintCat64` over the features'
FarmHash `Fingerprint64` (an integer feature is its own hash), starting from `hash_key`. FarmHash
comes from `pyfarmhash` (the `[strings]` extra), imported when a hashed kernel first runs."""

import itertools

import numpy as np

from ..framework import dtypes, ops
from ..framework.errors import _invalid_argument as _invalid
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue, convert_to_sparse_tensor
from .sparse_core_ops import _dtype, _rank, _shape_str

__all__ = ["sparse_cross", "sparse_cross_hashed"]

_M64 = (1 << 64) - 1
_KMUL = 0xC6A4A7935BD1E995
_DEFAULT_HASH_KEY = 0xDECAFCAFFE
_CROSS_TYPES = (dtypes.int64, dtypes.string)


def _farmhash():
    try:
        import farmhash
    except ImportError:
        raise ImportError("FarmHash (tf.sparse.cross_hashed) needs the pyfarmhash package: "
                          "pip install tensorweave[strings]") from None
    return farmhash


def _shift_mix(v):
    return v ^ (v >> 47)


def fingerprint_cat64(fp1, fp2):
    """TF's `FingerprintCat64` of two uint64 fingerprints."""
    result = fp1 ^ _KMUL
    result ^= (_shift_mix((fp2 * _KMUL) & _M64) * _KMUL) & _M64
    result = (result * _KMUL) & _M64
    result = (_shift_mix(result) * _KMUL) & _M64
    return _shift_mix(result)


def _as_bytes(v):
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


# ---- shared static inference and kernel --------------------------------------------------------------
def _cross_infer(out_type):
    def infer(op):
        n = op._attrs["N"]
        inds, vals, shps = op._inputs[:n], op._inputs[n:2 * n], op._inputs[2 * n:3 * n]
        dense = op._inputs[3 * n:3 * n + len(op._attrs["dense_types"])]
        for k in range(n):
            _dtype(inds[k], (dtypes.int64,), "indices", op)
            _dtype(vals[k], _CROSS_TYPES, "sparse_types", op)
            _dtype(shps[k], (dtypes.int64,), "shapes", op)
            _rank(inds[k], 2, op, "indices")
            _rank(vals[k], 1, op, "values")
            _rank(shps[k], 1, op, "shapes")
        for t in dense:
            _dtype(t, _CROSS_TYPES, "dense_types", op)
            _rank(t, 2, op, "dense_inputs")
        return [(dtypes.int64, (None, 2)), (out_type(op), (None,)), (dtypes.int64, (2,))]
    return infer


def _columns(arrays, n, n_dense):
    """The batch size and, per column, each row's feature list (TF's column order: sparse, then dense)."""
    inds, vals, shps = arrays[:n], arrays[n:2 * n], arrays[2 * n:3 * n]
    dense = arrays[3 * n:3 * n + n_dense]
    for k in range(n):
        if np.ndim(inds[k]) != 2:
            raise _invalid("Expected D2 of index %d to be 2 got %d" % (k, np.ndim(inds[k])))
        if np.ndim(vals[k]) != 1:
            raise _invalid("Expected D1 of index %d to be 1 got %d" % (k, np.ndim(vals[k])))
        if np.ndim(shps[k]) != 1 or shps[k].shape[0] != 2:
            raise _invalid("Expected shapes[%d] to be a vector of length 2 but got shape %s"
                           % (k, _shape_str(shps[k])))
        if inds[k].shape[1] != 2:
            raise _invalid("Expected D2 of index %d to be 2 got %d" % (k, inds[k].shape[1]))
        if inds[k].shape[0] != vals[k].shape[0]:
            raise _invalid("Expected size of values %d got %d" % (inds[k].shape[0], vals[k].shape[0]))
    for k, d in enumerate(dense):
        if np.ndim(d) != 2:
            raise _invalid("Dense inputs should be a matrix but received shape %s at position %d"
                           % (_shape_str(d), k))
    if n:
        batch = int(shps[0][0])
    elif n_dense:
        batch = dense[0].shape[0]
    else:
        raise _invalid("Expected at least one input")
    for k in range(n):
        if int(shps[k][0]) != batch:
            raise _invalid("Expected batch size %d got %d" % (batch, int(shps[k][0])))
    for k, d in enumerate(dense):
        if d.shape[0] != batch:
            raise _invalid("Expected batch size %d got %d at dense tensor %d" % (batch, d.shape[0], k))
    cols = []
    for k in range(n):
        rows = inds[k][:, 0].astype(np.int64)
        if rows.size and ((rows < 0) | (rows >= batch)).any():
            raise _invalid("Invalid batch index in indices[%d]" % k)
        counts = np.bincount(rows, minlength=batch)
        starts = np.r_[0, np.cumsum(counts)[:-1]]
        v = vals[k].tolist()
        cols.append([v[int(starts[b]):int(starts[b] + counts[b])] for b in range(batch)])
    for d in dense:
        cols.append([row for row in d.tolist()])
    return batch, cols


def _cross_output(batch, crosses, dtype):
    width = max([len(c) for c in crosses] + [0])
    ind = np.array([[b, j] for b in range(batch) for j in range(len(crosses[b]))], np.int64).reshape(-1, 2)
    if dtype is object:
        vals = np.empty(len(ind), object)
        vals[:] = [x for c in crosses for x in c]
    else:
        vals = np.array([x for c in crosses for x in c], np.int64)
    return ind, vals, np.array([batch, width], np.int64)


def _string_crosses(cols, batch, sep):
    out = []
    for b in range(batch):
        feats = [[_as_bytes(v) for v in col[b]] for col in cols]
        out.append([sep.join(p) for p in itertools.product(*feats)] if all(feats) else [])
    return out


# ---- SparseCross (hashed or string) --------------------------------------------------------------------
def _cross_v1_kernel(xp, *arrays, N, hashed_output, num_buckets, hash_key, out_type, internal_type, sparse_types,
                     dense_types):
    batch, cols = _columns(arrays, N, len(dense_types))
    if not hashed_output:
        return _cross_output(batch, _string_crosses(cols, batch, b"_X_"), object)
    fh = _farmhash()
    crosses = []
    for b in range(batch):
        feats = [[fh.fingerprint64(v) if isinstance(v, bytes) else int(v) & _M64 for v in col[b]] for col in cols]
        row = []
        if all(feats):
            for p in itertools.product(*feats):
                h = int(hash_key) & _M64
                for f in p:
                    h = fingerprint_cat64(h, f)
                row.append(h % num_buckets if num_buckets > 0 else h % ((1 << 63) - 1))
        crosses.append(row)
    return _cross_output(batch, crosses, np.int64)


register_op("SparseCross", infer=_cross_infer(lambda op: op._attrs["out_type"]), kernel=_cross_v1_kernel,
            grad=NO_GRADIENT)


# ---- SparseCrossV2 (string crosses with a separator) ------------------------------------------------------
def _cross_v2_infer(op):
    out = _cross_infer(lambda op: dtypes.string)(op)
    sep = op._inputs[-1]
    _dtype(sep, (dtypes.string,), "sep", op)
    _rank(sep, 0, op, "sep")
    return out


def _cross_v2_kernel(xp, *arrays, N, sparse_types, dense_types):
    sep = arrays[-1]
    if np.ndim(sep) != 0:
        raise _invalid("Input separator should be a scalar but received shape %s" % _shape_str(sep))
    batch, cols = _columns(arrays[:-1], N, len(dense_types))
    return _cross_output(batch, _string_crosses(cols, batch, _as_bytes(sep[()])), object)


register_op("SparseCrossV2", infer=_cross_v2_infer, kernel=_cross_v2_kernel, grad=NO_GRADIENT)


# ---- public functions ---------------------------------------------------------------------------------------
def _cross_inputs(inputs, message):
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    inputs = [convert_to_sparse_tensor(i) if isinstance(i, SparseTensorValue) else i for i in inputs]
    if not all(isinstance(i, (SparseTensor, ops.Tensor)) for i in inputs):
        raise TypeError(message)
    from .math_unary_ops import cast
    sparse = [i for i in inputs if isinstance(i, SparseTensor)]
    dense = [i for i in inputs if not isinstance(i, SparseTensor)]
    internal = dtypes.string
    values = []
    for s in sparse:
        v = s.values
        if v.dtype is not dtypes.string:
            v = cast(v, dtypes.int64)
            internal = dtypes.int64
        values.append(v)
    dense_out = []
    for d in dense:
        if d.dtype is not dtypes.string:
            d = cast(d, dtypes.int64)
            internal = dtypes.int64
        dense_out.append(d)
    return sparse, values, dense_out, internal


def sparse_cross(inputs, name=None, separator=None):
    """Generates sparse cross from a list of sparse and dense tensors.

    For each batch row, the crosses are the cartesian product of the inputs' features in that row, joined
    with `separator` (sparse inputs first, then dense ones; the last input varies fastest; integers are
    written in decimal). A row where some input has no feature has no crosses.

    For example, with `inputs = [SparseTensor(indices=[[0, 0], [1, 0], [1, 1]], values=["a", "b", "c"],
    dense_shape=[2, 2]), SparseTensor(indices=[[0, 0], [1, 0]], values=["d", "e"], dense_shape=[2, 1]),
    [["f"], ["g"]]]` the result holds `"a_X_d_X_f"` in row 0 and `"b_X_e_X_g"`, `"c_X_e_X_g"` in row 1.

    Args:
      inputs: An iterable of `Tensor` or `SparseTensor` (rank 2, int64 or string values).
      name: Optional name for the op.
      separator: A string added between each string being joined. Defaults to '_X_'.

    Returns:
      A `SparseTensor` of type `string`.

    Raises:
      TypeError: If `inputs` is not a list of `Tensor`/`SparseTensor`.
    """
    sparse, values, dense, _ = _cross_inputs(inputs, "All inputs must be Tensor or SparseTensor.")
    sep = ops.convert_to_tensor("_X_" if separator is None else separator, dtypes.string)
    attrs = {"N": len(sparse), "sparse_types": tuple(v.dtype for v in values),
             "dense_types": tuple(d.dtype for d in dense)}
    ind, val, shape = ops.apply_op("SparseCrossV2", [s.indices for s in sparse] + values +
                                   [s.dense_shape for s in sparse] + dense + [sep], attrs, name=name)
    return SparseTensor(ind, val, shape)


def sparse_cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Generates hashed sparse cross from a list of sparse and dense tensors.

    Like `tf.sparse.cross`, but each cross is the FarmHash fingerprint concatenation of its features
    (a string feature hashed with `Fingerprint64`, an integer taken as is), modulo `num_buckets`.

    Args:
      inputs: An iterable of `Tensor` or `SparseTensor` (rank 2, int64 or string values).
      num_buckets: An `int` that is `>= 0`. output = hashed_value%num_buckets if num_buckets > 0 else
        hashed_value.
      hash_key: Integer hash_key that will be used by the `FingerprintCat64` function. If not given, will
        use a default key.
      name: Optional name for the op.

    Returns:
      A `SparseTensor` of type `int64`.

    Raises:
      TypeError: If `inputs` is not a list of `Tensor`/`SparseTensor`.
      ImportError: At run time, without pyfarmhash (the `[strings]` extra).
    """
    sparse, values, dense, internal = _cross_inputs(inputs, "All inputs must be SparseTensors")
    attrs = {"N": len(sparse), "hashed_output": True, "num_buckets": int(num_buckets),
             "hash_key": int(hash_key or _DEFAULT_HASH_KEY), "out_type": dtypes.int64, "internal_type": internal,
             "sparse_types": tuple(v.dtype for v in values), "dense_types": tuple(d.dtype for d in dense)}
    ind, val, shape = ops.apply_op("SparseCross", [s.indices for s in sparse] + values +
                                   [s.dense_shape for s in sparse] + dense, attrs, name=name)
    return SparseTensor(ind, val, shape)

