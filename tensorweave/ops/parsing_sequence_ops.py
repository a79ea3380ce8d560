"""Parsing `tf.train.SequenceExample` protos: `tf.io.parse_single_sequence_example` and
`tf.io.parse_sequence_example`, both built on one op type, `ParseSequenceExampleV2` (as TensorFlow 2.x
builds them), whose serialized input is a scalar (one proto, no batch dimension) or a vector (a batch).

Context features are `FixedLenFeature` (dense, with an optional default) or `VarLenFeature`
(`SparseTensor`); sequence features are `FixedLenSequenceFeature` (dense `[T] + shape`, padded to the
longest sequence in a batch; `allow_missing=True` lets a feature list be absent) or `VarLenFeature`
(`SparseTensor` with indices `[time, index]`). The protos are decoded with protobuf (the `data` extra).
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import as_shape
from .parsing_ops import (
    _KIND_DTYPE,
    _TF_TYPE_NAME,
    FixedLenFeature,
    FixedLenSequenceFeature,
    VarLenFeature,
    _check_parse_dtypes,
    _check_string_input,
    _feature_values,
    _ParseParams,
    _shape_str,
)

__all__ = ["parse_sequence_example", "parse_single_sequence_example"]

_SEQ_CLASS = []


def _sequence_example_class():
    if not _SEQ_CLASS:
        from google.protobuf.message import DecodeError

        from .example_proto import message_classes
        _SEQ_CLASS.extend([message_classes()["SequenceExample"], DecodeError])
    return _SEQ_CLASS


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _empty(dtype):
    return np.empty(0, dtype.as_numpy_dtype) if dtype is not dtypes.string else np.empty(0, object)


def _typed(kind, values, dtype, where):
    """`values` of a feature of `kind`, checked against `dtype` (a missing kind gives no values)."""
    if kind is None:
        return _empty(dtype)
    if _KIND_DTYPE[kind] is not dtype:
        raise _invalid(where + "Data types don't match. Expected type: %s" % _TF_TYPE_NAME[dtype])
    return values


def _sparse_output(per_example, dtype, single, inner_rank):
    """(indices, values, dense_shape) of a sparse feature from, per example, a list of value vectors
    (context: one vector; feature list: one per time step)."""
    rows, vals = [], []
    inner_max = [0] * inner_rank
    for i, steps in enumerate(per_example):
        inner_max[0] = max(inner_max[0], len(steps)) if inner_rank == 2 else inner_max[0]
        for t, v in enumerate(steps):
            inner_max[-1] = max(inner_max[-1], len(v))
            prefix = ([] if single else [i]) + ([t] if inner_rank == 2 else [])
            rows.extend(prefix + [j] for j in range(len(v)))
            vals.append(v)
    width = (0 if single else 1) + inner_rank
    indices = np.array(rows, np.int64).reshape(-1, width)
    values = np.concatenate(vals).astype(dtype.as_numpy_dtype, copy=False) if vals else _empty(dtype)
    shape = ([] if single else [len(per_example)]) + inner_max
    return indices, values, np.array(shape, np.int64)


def _kernel(xp, serialized, debug_name, *context_defaults, context_sparse_keys, context_sparse_types,
            context_dense_keys, context_dense_types, context_dense_shapes, feature_list_sparse_keys,
            feature_list_sparse_types, feature_list_dense_keys, feature_list_dense_types, feature_list_dense_shapes,
            feature_list_dense_missing_assumed_empty):
    seq_cls, decode_error = _sequence_example_class()
    if serialized.ndim > 1:
        raise _invalid("Expected serialized to be a scalar or vector, got shape: %s" % _shape_str(serialized.shape))
    single = serialized.ndim == 0
    records = serialized.reshape(-1)
    names = debug_name.reshape(-1)
    if len(names) and len(names) != len(records):
        raise _invalid("Expected len(debug_name) == len(serialized), but got: %d vs. %d" % (len(names), len(records)))

    c_sparse = [[] for _ in context_sparse_keys]
    c_dense = [[] for _ in context_dense_keys]
    f_sparse = [[] for _ in feature_list_sparse_keys]
    f_dense = [[] for _ in feature_list_dense_keys]
    c_strides = [int(np.prod(s)) for s in context_dense_shapes]
    f_strides = [int(np.prod(s)) for s in feature_list_dense_shapes]
    for i, record in enumerate(records):
        name = names[i].decode("utf-8", "replace") if len(names) else "<unknown>"
        try:
            proto = seq_cls.FromString(bytes(record))
        except decode_error:
            raise _invalid("Invalid protocol message input, example id: %s" % name) from None
        cmap, fmap = proto.context.feature, proto.feature_lists.feature_list
        for k, (key, dtype) in enumerate(zip(context_sparse_keys, context_sparse_types)):
            kind, values = _feature_values(cmap[key]) if key in cmap else (None, None)
            c_sparse[k].append([_typed(kind, values, dtype, "Name: %s, Context feature: %s.  " % (name, key))])
        for d, (key, dtype, shape) in enumerate(zip(context_dense_keys, context_dense_types, context_dense_shapes)):
            kind, values = _feature_values(cmap[key]) if key in cmap else (None, None)
            if kind is None:
                if context_defaults[d].size == 0 and c_strides[d] != 0:
                    raise _invalid("Inconsistent max number of elements for feature %s: expected %d, but found 0"
                                   % (key, c_strides[d]))
                c_dense[d].append(np.reshape(context_defaults[d], shape))
                continue
            values = _typed(kind, values, dtype, "Name: %s, Context feature: %s.  " % (name, key))
            if len(values) != c_strides[d]:
                raise _invalid("Inconsistent max number of elements for feature %s: expected %d, but found %d"
                               % (key, c_strides[d], len(values)))
            c_dense[d].append(values.reshape(shape))
        for k, (key, dtype) in enumerate(zip(feature_list_sparse_keys, feature_list_sparse_types)):
            steps = []
            for t, feature in enumerate(fmap[key].feature if key in fmap else ()):
                kind, values = _feature_values(feature)
                steps.append(_typed(kind, values, dtype, "Name: %s, Feature list: %s, Index: %d.  " % (name, key, t)))
            f_sparse[k].append(steps)
        for d, (key, dtype, shape) in enumerate(zip(feature_list_dense_keys, feature_list_dense_types,
                                                    feature_list_dense_shapes)):
            if key not in fmap:
                if key not in feature_list_dense_missing_assumed_empty:
                    raise _invalid("Name: %s, Feature list '%s' is required but could not be found.  Did you mean to "
                                   "include it in feature_list_dense_missing_assumed_empty or "
                                   "feature_list_dense_defaults?" % (name, key))
                f_dense[d].append(_empty(dtype).reshape((0,) + tuple(shape)))
                continue
            steps = []
            for t, feature in enumerate(fmap[key].feature):
                kind, values = _feature_values(feature)
                values = _typed(kind, values, dtype, "Name: %s, Feature list: %s, Index: %d.  " % (name, key, t))
                if not single and len(values) != f_strides[d]:
                    raise _invalid("Name: %s, Key: %s, Index: %d.  Number of values != expected.  values size: %d but "
                                   "output shape: %s" % (name, key, t, len(values), _shape_str(shape)))
                steps.append(values)
            flat = np.concatenate(steps) if steps else _empty(dtype)
            if single and (f_strides[d] == 0 and len(flat) or f_strides[d] and len(flat) % f_strides[d]):
                raise _invalid("Feature list '%s' has an unexpected number of values.  Total values size: %d is not "
                               "consistent with output shape: %s"
                               % (key, len(flat), _shape_str((None,) + tuple(shape))))
            n_steps = len(flat) // f_strides[d] if f_strides[d] else len(steps)
            f_dense[d].append(flat.astype(dtype.as_numpy_dtype, copy=False).reshape((n_steps,) + tuple(shape)))

    out = []
    sparse = [_sparse_output(per, t, single, 1) for per, t in zip(c_sparse, context_sparse_types)]
    out += [s[0] for s in sparse] + [s[1] for s in sparse] + [s[2] for s in sparse]
    for d, (dtype, shape) in enumerate(zip(context_dense_types, context_dense_shapes)):
        npdt = dtype.as_numpy_dtype
        if single:
            out.append(np.asarray(c_dense[d][0], npdt))
            continue
        value = np.empty((len(records),) + tuple(shape), npdt)
        for i, v in enumerate(c_dense[d]):
            value[i, ...] = v
        out.append(value)
    sparse = [_sparse_output(per, t, single, 2) for per, t in zip(f_sparse, feature_list_sparse_types)]
    out += [s[0] for s in sparse] + [s[1] for s in sparse] + [s[2] for s in sparse]
    lengths = []
    for d, (dtype, shape) in enumerate(zip(feature_list_dense_types, feature_list_dense_shapes)):
        npdt = dtype.as_numpy_dtype
        lens = [len(v) for v in f_dense[d]]
        if single:
            out.append(np.asarray(f_dense[d][0], npdt))
            lengths.append(np.int64(lens[0]))
            continue
        longest = max(lens, default=0)
        value = np.full((len(records), longest) + tuple(shape), b"" if dtype is dtypes.string else 0, dtype=npdt)
        for i, v in enumerate(f_dense[d]):
            value[i, :len(v)] = v
        out.append(value)
        lengths.append(np.array(lens, np.int64))
    out += lengths
    return out[0] if len(out) == 1 else out  # a one-output op returns its array


def _infer(op):
    a = op._attrs
    serialized, debug_name = op._inputs[:2]
    _check_string_input(serialized, "serialized", "ParseSequenceExampleV2")
    dims = serialized.shape.as_tuple()
    if dims is not None and len(dims) > 1:
        raise ValueError("Shape must be at most rank 1 but is rank %d" % len(dims))
    batch = None if dims is None else tuple(dims)  # () for one proto, (B,) for a batch
    if batch is None:
        c_sp = [(dtypes.int64, (None, None))] * len(a["context_sparse_keys"])
        f_sp = [(dtypes.int64, (None, None))] * len(a["feature_list_sparse_keys"])
        c_shape = f_shape = [(dtypes.int64, (None,))]
    else:
        c_sp = [(dtypes.int64, (None, len(batch) + 1))] * len(a["context_sparse_keys"])
        f_sp = [(dtypes.int64, (None, len(batch) + 2))] * len(a["feature_list_sparse_keys"])
        c_shape, f_shape = [(dtypes.int64, (len(batch) + 1,))], [(dtypes.int64, (len(batch) + 2,))]
    out = c_sp + [(t, (None,)) for t in a["context_sparse_types"]] + c_shape * len(a["context_sparse_keys"])
    out += [(t, None if batch is None else batch + tuple(s))
            for t, s in zip(a["context_dense_types"], a["context_dense_shapes"])]
    out += f_sp + [(t, (None,)) for t in a["feature_list_sparse_types"]] + f_shape * len(a["feature_list_sparse_keys"])
    out += [(t, None if batch is None else batch + (None,) + tuple(s))
            for t, s in zip(a["feature_list_dense_types"], a["feature_list_dense_shapes"])]
    out += [(dtypes.int64, batch)] * len(a["feature_list_dense_keys"])
    return out


register_op("ParseSequenceExampleV2", infer=_infer, kernel=_kernel, grad=NO_GRADIENT)


# ---- feature configuration ---------------------------------------------------------------------------
class _SequenceParams:
    """The keys, types, shapes and default tensors of one call, validated as TensorFlow does."""

    def __init__(self, context_features, sequence_features):
        context_features = dict(context_features or {})
        sequence_features = dict(sequence_features or {})
        for key in sorted(context_features):
            f = context_features[key]
            if not isinstance(f, (VarLenFeature, FixedLenFeature)):
                raise ValueError("Unsupported %s %s for key '%s'" % (type(f).__name__, f, key))
        for key in sorted(sequence_features):
            f = sequence_features[key]
            if not isinstance(f, (VarLenFeature, FixedLenSequenceFeature)):
                raise ValueError("Unsupported %s %s for key '%s'" % (type(f).__name__, f, key))
        c_sparse = sorted(k for k, f in context_features.items() if isinstance(f, VarLenFeature))
        c_dense = sorted(k for k, f in context_features.items() if isinstance(f, FixedLenFeature))
        _check_parse_dtypes([dtypes.as_dtype(context_features[k].dtype) for k in c_sparse], "context_sparse_types")
        _check_parse_dtypes([dtypes.as_dtype(context_features[k].dtype) for k in c_dense], "Tcontext_dense")
        self.context = _ParseParams(context_features)
        self.fl_sparse_keys = sorted(k for k, f in sequence_features.items() if isinstance(f, VarLenFeature))
        self.fl_dense_keys = sorted(k for k, f in sequence_features.items() if isinstance(f, FixedLenSequenceFeature))
        for k in self.fl_sparse_keys + self.fl_dense_keys:
            if not sequence_features[k].dtype:
                raise ValueError("Missing type for feature %s." % k)
        self.fl_sparse_types = [dtypes.as_dtype(sequence_features[k].dtype) for k in self.fl_sparse_keys]
        self.fl_dense_types = [dtypes.as_dtype(sequence_features[k].dtype) for k in self.fl_dense_keys]
        _check_parse_dtypes(self.fl_sparse_types, "feature_list_sparse_types")
        _check_parse_dtypes(self.fl_dense_types, "feature_list_dense_types")
        self.fl_dense_shapes, self.missing_ok = [], []
        for k in self.fl_dense_keys:
            f = sequence_features[k]
            if f.shape is None:
                raise ValueError("Missing shape for feature %s." % k)
            if f.default_value is not None:
                raise ValueError("Value feature_list.dense_defaults[%s] must be None" % k)
            shape = as_shape(f.shape)
            if not shape.is_fully_defined():
                raise ValueError("All dimensions of shape for feature %s need to be known but received %s."
                                 % (k, str(f.shape)))
            self.fl_dense_shapes.append(shape.as_tuple())
            if f.allow_missing:
                self.missing_ok.append(k)

    def attrs(self):
        c = self.context
        return {"context_sparse_keys": tuple(c.sparse_keys), "context_sparse_types": tuple(c.sparse_types),
                "context_dense_keys": tuple(c.dense_keys), "context_dense_types": tuple(c.dense_types),
                "context_dense_shapes": tuple(c.dense_shapes),
                "feature_list_sparse_keys": tuple(self.fl_sparse_keys),
                "feature_list_sparse_types": tuple(self.fl_sparse_types),
                "feature_list_dense_keys": tuple(self.fl_dense_keys),
                "feature_list_dense_types": tuple(self.fl_dense_types),
                "feature_list_dense_shapes": tuple(self.fl_dense_shapes),
                "feature_list_dense_missing_assumed_empty": tuple(self.missing_ok)}

    def outputs(self, outs):
        outs = outs if isinstance(outs, list) else [outs]
        c = self.context
        ncs, ncd, nfs = len(c.sparse_keys), len(c.dense_keys), len(self.fl_sparse_keys)
        context = {k: SparseTensor(outs[i], outs[ncs + i], outs[2 * ncs + i]) for i, k in enumerate(c.sparse_keys)}
        context.update({k: outs[3 * ncs + i] for i, k in enumerate(c.dense_keys)})
        base = 3 * ncs + ncd
        feature_lists = {k: SparseTensor(outs[base + i], outs[base + nfs + i], outs[base + 2 * nfs + i])
                         for i, k in enumerate(self.fl_sparse_keys)}
        base += 3 * nfs
        nfd = len(self.fl_dense_keys)
        feature_lists.update({k: outs[base + i] for i, k in enumerate(self.fl_dense_keys)})
        lengths = {k: outs[base + nfd + i] for i, k in enumerate(self.fl_dense_keys)}
        return context, feature_lists, lengths


def _apply(params, serialized, names):
    if not (params.context.sparse_keys or params.context.dense_keys or params.fl_sparse_keys or params.fl_dense_keys):
        raise ValueError("Must provide at least one feature key.")
    with ops.name_scope(None, "ParseSequenceExample"):
        defaults = params.context.dense_default_tensors()
        outs = ops.apply_op("ParseSequenceExampleV2", [serialized, names] + defaults, params.attrs(),
                            name="ParseSequenceExampleV2")
    return params.outputs(outs)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    """Parses a single `SequenceExample` proto.

    Returns a tuple of two dicts. The first maps each key of `context_features` to a `Tensor` of the
    feature's shape (`FixedLenFeature`; missing ones take `default_value`, and without a default the
    feature is required) or a `SparseTensor` with indices `[index]` (`VarLenFeature`). The second maps
    each key of `sequence_features` to a `Tensor` of shape `[T] + shape` (`FixedLenSequenceFeature`, `T`
    the length of its `FeatureList`; an absent list is an error unless `allow_missing=True`, which gives
    `T = 0`) or a `SparseTensor` with indices `[time, index]` and dense shape `[T, longest]`
    (`VarLenFeature`).

    Args:
      serialized: A scalar string `Tensor`: one serialized `SequenceExample`.
      context_features: A dict from keys to `FixedLenFeature` or `VarLenFeature`: the features of the
        `context` part.
      sequence_features: A dict from keys to `FixedLenSequenceFeature` or `VarLenFeature`: the
        `feature_lists` part.
      example_name: A scalar string `Tensor` (optional), the proto's name in error messages.
      name: A name for this operation (optional).

    Returns:
      A tuple `(context, feature_lists)` of dicts of `Tensor` and `SparseTensor` values.

    Raises:
      ValueError: If both feature dicts are empty, a feature is of another kind, a sequence feature has a
        `default_value`, or `serialized` is not a scalar.
      TypeError: If a feature's dtype is not float32, int64 or string.
      tf.errors.InvalidArgumentError: At run time, for a corrupt proto, a required feature or feature
        list that is missing, a value count that does not fit the shape, or mismatched types.
    """
    if not (context_features or sequence_features):
        raise ValueError("Both context_features and sequence_features are None, but at least one should have "
                         "values.")
    params = _SequenceParams(context_features, sequence_features)
    with ops.name_scope(name, "ParseSingleSequenceExample", [serialized, example_name]):
        serialized = ops.convert_to_tensor(serialized, name="serialized")
        if serialized.shape.ndims is not None and serialized.shape.ndims != 0:
            raise ValueError("Input serialized must be a scalar")
        if serialized.shape.ndims is None:  # TF's _assert_scalar: a run-time check
            from . import array_shape_ops, core_ops, logging_ops, math_ops
            check = logging_ops.Assert(math_ops.equal(array_shape_ops.rank(serialized), 0),
                                       ["Input serialized must be a scalar"], name="SerializedIsScalar")
            with ops.control_dependencies([check]):
                serialized = core_ops.identity(serialized, name="serializedDependencies")
            serialized.set_shape([])
        names = ops.convert_to_tensor([] if example_name is None else example_name, dtype=dtypes.string,
                                      name="debug_name")
        return _apply(params, serialized, names)[:2]


def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    """Parses a batch of `SequenceExample` protos.

    As `parse_single_sequence_example`, with a leading batch dimension: a context `FixedLenFeature` gives
    shape `[B] + shape`, a `FixedLenSequenceFeature` `[B, T] + shape` (`T` the longest sequence, shorter
    ones padded with 0 or ""), a context `VarLenFeature` a `SparseTensor` with indices `[batch, index]`
    and a sequence `VarLenFeature` one with indices `[batch, time, index]`. A third dict gives, for each
    `FixedLenSequenceFeature`, the length of each example's sequence (a `[B]` int64 vector).

    Args:
      serialized: A string vector of serialized `SequenceExample` protos.
      context_features: A dict from keys to `FixedLenFeature` or `VarLenFeature`.
      sequence_features: A dict from keys to `FixedLenSequenceFeature` or `VarLenFeature`.
      example_names: A string vector (optional), the protos' names in error messages.
      name: A name for this operation (optional).

    Returns:
      A tuple `(context, feature_lists, feature_list_lengths)` of dicts.

    Raises:
      ValueError: If both feature dicts are empty, a feature is of another kind or a sequence feature
        has a `default_value`.
      TypeError: If a feature's dtype is not float32, int64 or string.
      tf.errors.InvalidArgumentError: At run time, for a corrupt proto, a required feature or feature
        list that is missing, a value count that does not fit the shape, or mismatched types.
    """
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, but at least one "
                         "should have values.")
    params = _SequenceParams(context_features, sequence_features)
    with ops.name_scope(name, "ParseSequenceExample", [serialized, example_names]):
        serialized = ops.convert_to_tensor(serialized, name="serialized")
        names = ops.convert_to_tensor([] if example_names is None else example_names, dtype=dtypes.string,
                                      name="debug_name")
        return _apply(params, serialized, names)
