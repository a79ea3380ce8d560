"""Feature crosses: "RaggedCross" (`tf.ragged.cross`, `tf.ragged.cross_hashed`).

Row `r` of the result holds one entry per combination of the features of row `r` of every input
(the last input varying fastest): the features joined with "_X_" (integers in decimal), or with
`cross_hashed` TF's hash of the combination: starting from `hash_key`, each feature is folded in
with `FingerprintCat64` (strings through FarmHash Fingerprint64 from the `[strings]` extra, integers
as they are), then taken modulo `num_buckets` (or 2**63 - 1). No gradient.
"""

import itertools

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from .ragged_tensor import RaggedTensor, RaggedTensorValue, _convert_values
from .string_hash_ops import _farmhash
from .string_ops import _as_bytes, _string_array

__all__ = ["cross", "cross_hashed", "fingerprint_cat64"]

_M64 = (1 << 64) - 1
_KMUL = 0xC6A4A7935BD1E995
_DEFAULT_HASH_KEY = 0xDECAFCAFFE


def _shift_mix(v):
    return v ^ (v >> 47)


def fingerprint_cat64(fp1, fp2):
    """TensorFlow's `FingerprintCat64` of two 64-bit fingerprints (tensorflow/core/platform/fingerprint.h)."""
    r = (fp1 ^ _KMUL) & _M64
    r ^= (_shift_mix((fp2 * _KMUL) & _M64) * _KMUL) & _M64
    r = (r * _KMUL) & _M64
    r = (_shift_mix(r) * _KMUL) & _M64
    return _shift_mix(r)


def _kinds(order):
    return order.count("R"), order.count("S"), order.count("D")


def _cross_infer(op):
    order = op._attrs["input_order"]
    nr, ns, nd = _kinds(order)
    if len(op._inputs) != 2 * nr + 3 * ns + nd:
        raise ValueError("RaggedCross: %d inputs do not fit input_order %r" % (len(op._inputs), order))
    ragged_vals = op._inputs[:nr]
    ragged_splits = op._inputs[nr:2 * nr]
    sparse_shapes = op._inputs[2 * nr + 2 * ns:2 * nr + 3 * ns]
    dense = op._inputs[2 * nr + 3 * ns:]
    for t in list(ragged_vals) + list(op._inputs[2 * nr + ns:2 * nr + 2 * ns]) + list(dense):
        if t.dtype not in (dtypes.int64, dtypes.string):
            raise TypeError("RaggedCross inputs must be int64 or string, got %s" % t.dtype.name)
    rows = set()
    for s in ragged_splits:
        d = s.shape.as_tuple()
        if d is not None and d[0] is not None:
            rows.add(d[0] - 1)
    for t in dense:
        d = t.shape.as_tuple()
        if d is not None and len(d) != 2:
            raise ValueError("tf.ragged.cross only supports inputs with rank=2")
        if d is not None and d[0] is not None:
            rows.add(d[0])
    if len(rows) > 1:
        raise ValueError("inputs must all have the same batch dimension size.")
    n = rows.pop() if rows else None
    if n is None:
        from .math_helpers import _const_value
        for s in sparse_shapes:
            v = _const_value(s)
            if v is not None:
                n = int(np.asarray(v)[0])
    out_values = dtypes.int64 if op._attrs["hashed_output"] else dtypes.string
    sdt = dtypes.as_dtype(op._attrs["out_row_splits_type"])
    return [(out_values, (None,)), (sdt, (None if n is None else n + 1,))]


def _cross_kernel(xp, *inputs, input_order, hashed_output, num_buckets, hash_key, out_row_splits_type):
    nr, ns, nd = _kinds(input_order)
    rv, rs = inputs[:nr], inputs[nr:2 * nr]
    base = 2 * nr
    si, sv, sh = inputs[base:base + ns], inputs[base + ns:base + 2 * ns], inputs[base + 2 * ns:base + 3 * ns]
    dense = inputs[2 * nr + 3 * ns:]
    getters, sizes = {"R": [], "S": [], "D": []}, []
    for v, s in zip(rv, rs):
        v, s = np.asarray(v), np.asarray(s)
        getters["R"].append(lambda r, v=v, s=s: list(v[s[r]:s[r + 1]]))
        sizes.append(len(s) - 1)
    for i, v, shape in zip(si, sv, sh):
        i, v = np.asarray(i), np.asarray(v)
        rows = i[:, 0] if i.size else np.zeros(0, np.int64)
        getters["S"].append(lambda r, v=v, rows=rows: list(v[rows == r]))
        sizes.append(int(np.asarray(shape)[0]))
    for d in dense:
        d = np.asarray(d)
        getters["D"].append(lambda r, d=d: list(d[r]))
        sizes.append(d.shape[0])
    if len(set(sizes)) > 1:
        raise errors.InvalidArgumentError(None, None, "inputs must all have the same batch dimension size.")
    nrows = sizes[0] if sizes else 0
    seen = {"R": 0, "S": 0, "D": 0}
    features = []
    for kind in input_order:
        features.append(getters[kind][seen[kind]])
        seen[kind] += 1
    if hashed_output:
        fh = _farmhash()
        key = int(hash_key) & _M64
        modulus = int(num_buckets) if num_buckets > 0 else (1 << 63) - 1

        def feature_hash(x):
            return fh.fingerprint64(_as_bytes(x)) if isinstance(x, (bytes, str)) else int(x) & _M64
    values, splits = [], [0]
    for r in range(nrows):
        for combo in itertools.product(*[f(r) for f in features]):
            if hashed_output:
                h = key
                for x in combo:
                    h = fingerprint_cat64(h, feature_hash(x))
                values.append(h % modulus)
            else:
                values.append(b"_X_".join(_as_bytes(x) if isinstance(x, (bytes, str)) else str(int(x)).encode()
                                          for x in combo))
        splits.append(len(values))
    out = np.array(values, np.int64) if hashed_output else _string_array(values, (len(values),))
    return out, np.array(splits, dtypes.as_dtype(out_row_splits_type).as_numpy_dtype)


register_op("RaggedCross", infer=_cross_infer, kernel=_cross_kernel, grad=NO_GRADIENT)


def _cross(inputs, hashed_output, num_buckets, hash_key, name):
    from . import math_ops
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if hash_key is None:
        hash_key = _DEFAULT_HASH_KEY
    ragged, sparse, dense, order = [], [], [], []
    with ops.name_scope(name, "RaggedCross", [x for x in inputs if isinstance(x, ops.Tensor)]):
        for i, t in enumerate(inputs):
            if isinstance(t, (SparseTensor, SparseTensorValue)):
                t = SparseTensor.from_value(t)
            elif isinstance(t, RaggedTensorValue):
                t = _convert_values(t)
            elif not isinstance(t, (RaggedTensor, ops.Tensor)):
                t = ops.convert_to_tensor(t)
            if t.dtype.is_integer:
                if isinstance(t, RaggedTensor):
                    t = t.with_flat_values(math_ops.cast(t.flat_values, dtypes.int64))
                elif isinstance(t, SparseTensor):
                    t = SparseTensor(t.indices, math_ops.cast(t.values, dtypes.int64), t.dense_shape)
                else:
                    t = math_ops.cast(t, dtypes.int64)
            elif t.dtype is not dtypes.string:
                raise ValueError("Unexpected dtype for inputs[%d]: %s" % (i, t.dtype))
            if isinstance(t, RaggedTensor):
                if t.ragged_rank != 1:
                    raise ValueError("tf.ragged.cross only supports inputs with rank=2")
                ragged.append(t)
                order.append("R")
            elif isinstance(t, SparseTensor):
                sparse.append(t)
                order.append("S")
            else:
                dense.append(t)
                order.append("D")
        splits_type = dtypes.int32 if ragged and all(t.row_splits.dtype is dtypes.int32 for t in ragged) \
            else dtypes.int64
        if hash_key >= 2 ** 63:
            hash_key -= 2 ** 64
        flat = ([t.values for t in ragged] + [t.row_splits for t in ragged] + [t.indices for t in sparse]
                + [t.values for t in sparse] + [t.dense_shape for t in sparse] + dense)
        attrs = {"input_order": "".join(order), "hashed_output": bool(hashed_output),
                 "num_buckets": int(num_buckets), "hash_key": int(hash_key), "out_row_splits_type": splits_type}
        if not flat:
            values = ops.convert_to_tensor(np.zeros(0, np.int64) if hashed_output else np.zeros(0, object),
                                           dtype=dtypes.int64 if hashed_output else dtypes.string)
            return RaggedTensor.from_row_splits(values, ops.convert_to_tensor(np.zeros(1, np.int64)), validate=False)
        values, splits = ops.apply_op("RaggedCross", flat, attrs, name="RaggedCross")
        return RaggedTensor.from_row_splits(values, splits, validate=False)


def cross(inputs, name=None):
    """Feature crosses of the rows of `inputs` as strings "f1_X_f2_X_..." (TF's `tf.ragged.cross`,
    op "RaggedCross").

    Example: `cross([ragged [["a", "b"], ["c"]], ragged [["x", "y"], ["z"]]])` is
    `[["a_X_x", "a_X_y", "b_X_x", "b_X_y"], ["c_X_z"]]`.

    Args:
      inputs: A list of rank-2 `RaggedTensor`s, `SparseTensor`s and `Tensor`s of strings or integers,
        with the same number of rows.
      name: A name for the operation (optional).

    Returns:
      A string `RaggedTensor` with one row per input row.

    Raises:
      TypeError: If `inputs` is not a list.
      ValueError: For an input that is not string/integer or not rank 2, or different row counts.
    """
    return _cross(inputs, False, 0, None, name)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Hashed feature crosses (TF's `tf.ragged.cross_hashed`, op "RaggedCross"): each combination of
    features becomes `FingerprintCat64`-folded FarmHash fingerprints modulo `num_buckets`.

    Args:
      inputs: As for `cross`.
      num_buckets: The number of buckets (0: 2**63 - 1).
      hash_key: The initial hash (default 0xDECAFCAFFE, TF's).
      name: A name for the operation (optional).

    Returns:
      An int64 `RaggedTensor` with one row per input row.

    Raises:
      TypeError, ValueError: As for `cross`.
    """
    return _cross(inputs, True, num_buckets, hash_key, name)
