"""Checkpoint I/O ops: "SaveV2" writes tensors to a bundle (see `tensor_bundle` for the format)
and "RestoreV2" reads them back, as TF's ops of the same names. `tf.train.Saver` builds on them.
"ShardedFilename" and "MergeV2Checkpoints" are the steps of TF's sharded save: each shard is saved
under its own temporary prefix, then the shards' index files are merged into one.
"Unrestorable" stands for an op a meta graph could not record (`train/meta_graph.py`)."""

import numpy as np

from ..framework import dtypes as dtypes_lib
from ..framework import errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from . import (
    string_ops,  # noqa: F401 (StringJoin, StaticRegexFullMatch: TF's sharded saver uses them)
    tensor_bundle,
)


def _as_str(value):
    v = value[()] if isinstance(value, np.ndarray) else value
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def _tf_type_name(dtype):
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _check_names_infer(op, n_tensors):
    for t, what in ((op._inputs[0], "prefix"), (op._inputs[1], "tensor_names"), (op._inputs[2], "shape_and_slices")):
        if t.dtype is not dtypes_lib.string:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                            % (what, op._type, t.dtype.name))
    if op._inputs[0]._shape.ndims not in (None, 0):
        raise ValueError("Shape must be rank 0 but is rank %d" % op._inputs[0]._shape.ndims)
    for t in op._inputs[1:3]:
        dims = t._shape.as_tuple()
        if dims is not None and (len(dims) != 1 or dims[0] not in (None, n_tensors)):
            raise ValueError("Shape of %s must be [%d] but is %s" % (t.op.name, n_tensors, t._shape))


def _check_slices(op, shape_and_slices):
    for s in np.asarray(shape_and_slices).reshape(-1):
        if _as_str(s):
            raise errors.UnimplementedError(None, op, "%s: partitioned (sliced) tensors are not supported: %r"
                                            % (op._type, _as_str(s)))


def _io_error(op, e, path):
    if isinstance(e, FileNotFoundError):
        return errors.NotFoundError(None, op, "%s; No such file or directory" % path)
    if isinstance(e, PermissionError):
        return errors.PermissionDeniedError(None, op, "%s; Permission denied" % path)
    return errors.UnknownError(None, op, "Failed to write checkpoint %s: %s: %s" % (path, type(e).__name__, e))


# ---- SaveV2 ------------------------------------------------------------------------------------
def _save_v2_infer(op):
    _check_names_infer(op, len(op._inputs) - 3)
    return []


def _save_v2_kernel(ctx, op, prefix, tensor_names, shape_and_slices, *tensors, dtypes):
    _check_slices(op, shape_and_slices)
    path = _as_str(prefix)
    names = [_as_str(n) for n in np.asarray(tensor_names).reshape(-1)]
    if len(names) != len(tensors):
        raise errors.InvalidArgumentError(None, op, "Got %d tensor names but %d tensors" % (len(names), len(tensors)))
    try:
        tensor_bundle.write_bundle(path, names, tensors)
    except OSError as e:
        raise _io_error(op, e, path) from e


register_op("SaveV2", infer=_save_v2_infer, kernel=_save_v2_kernel, grad=NO_GRADIENT, stateful=True)


def save_v2(prefix, tensor_names, shape_and_slices, tensors, name=None):
    """Saves `tensors` under `tensor_names` in the checkpoint `prefix` (TF's `gen_io_ops.save_v2`).

    Args:
      prefix: A scalar string tensor: the checkpoint path prefix.
      tensor_names: 1-D strings: the names to save under.
      shape_and_slices: 1-D strings, all empty (slices are not supported).
      tensors: The tensors to save.
      name: Op name.

    Returns:
      The Operation. Running it writes `<prefix>.data-00000-of-00001` then `<prefix>.index`, each
      atomically; NotFoundError if the directory does not exist.

    Raises:
      TypeError: If `prefix` or the names are not strings.
      ValueError: If the numbers of names and tensors differ.
    """
    tensors = [ops.convert_to_tensor(t) for t in tensors]
    with ops.name_scope(name, "SaveV2", tensors) as scope:
        inputs = [ops.convert_to_tensor(prefix, dtype=dtypes_lib.string),
                  ops.convert_to_tensor(tensor_names, dtype=dtypes_lib.string, name="tensor_names"),
                  ops.convert_to_tensor(shape_and_slices, dtype=dtypes_lib.string, name="shape_and_slices")]
        return ops.apply_op("SaveV2", inputs + tensors, {"dtypes": [t.dtype for t in tensors]}, name=scope)


# ---- RestoreV2 ---------------------------------------------------------------------------------
def _restore_v2_infer(op):
    _check_names_infer(op, len(op._attrs["dtypes"]))
    return [(dt, None) for dt in op._attrs["dtypes"]]


def _restore_v2_kernel(ctx, op, prefix, tensor_names, shape_and_slices, dtypes):
    _check_slices(op, shape_and_slices)
    names = [_as_str(n) for n in np.asarray(tensor_names).reshape(-1)]
    if len(names) != len(dtypes):
        raise errors.InvalidArgumentError(None, op, "Got %d tensor names but %d dtypes" % (len(names), len(dtypes)))
    reader = tensor_bundle.BundleReader(_as_str(prefix))
    out = []
    for name, dt in zip(names, dtypes):
        stored = reader.dtype(name)
        if stored is not dt:
            raise errors.InvalidArgumentError(None, op, "tensor_name = %s; expected dtype %s does not equal original "
                                              "dtype %s" % (name, _tf_type_name(dt), _tf_type_name(stored)))
        out.append(reader.get_tensor(name))
    return out[0] if len(out) == 1 else tuple(out)


register_op("RestoreV2", infer=_restore_v2_infer, kernel=_restore_v2_kernel, grad=NO_GRADIENT, stateful=True)


def restore_v2(prefix, tensor_names, shape_and_slices, dtypes, name=None):
    """Reads the tensors `tensor_names` from the checkpoint `prefix` (TF's `gen_io_ops.restore_v2`).

    Args:
      prefix: A scalar string tensor: the checkpoint path prefix.
      tensor_names: 1-D strings: the names to read.
      shape_and_slices: 1-D strings, all empty (slices are not supported).
      dtypes: The dtypes of the tensors (they must match the stored ones).
      name: Op name.

    Returns:
      A list of tensors of unknown shape. At run time: NotFoundError for a missing file or name,
      InvalidArgumentError for a dtype mismatch, DataLossError for damaged files.
    """
    dts = [dtypes_lib.as_dtype(d) for d in dtypes]
    with ops.name_scope(name, "RestoreV2", []) as scope:
        inputs = [ops.convert_to_tensor(prefix, dtype=dtypes_lib.string),
                  ops.convert_to_tensor(tensor_names, dtype=dtypes_lib.string, name="tensor_names"),
                  ops.convert_to_tensor(shape_and_slices, dtype=dtypes_lib.string, name="shape_and_slices")]
        out = ops.apply_op("RestoreV2", inputs, {"dtypes": dts}, name=scope)
    return out if isinstance(out, list) else [out]


# ---- ShardedFilename, MergeV2Checkpoints ------------------------------------------------------
def _scalar_string_infer(op):
    return [(dtypes_lib.string, ())]


def _sharded_filename_kernel(xp, basename, shard, num_shards):
    for name, value in (("basename", basename), ("shard", shard), ("num_shards", num_shards)):
        if np.ndim(value) != 0:
            raise errors.InvalidArgumentError(None, None, "%s must be a scalar, got shape [%s]" % (
                name, ",".join(str(d) for d in np.shape(value))))
    base = basename[()] if isinstance(basename, np.ndarray) else basename
    base = base if isinstance(base, bytes) else str(base).encode("utf-8")
    return _string_scalar(base + b"-%05d-of-%05d" % (int(shard), int(num_shards)))


def _string_scalar(b):
    out = np.empty((), dtype=object)
    out[()] = b
    return out


register_op("ShardedFilename", infer=_scalar_string_infer, kernel=_sharded_filename_kernel, grad=NO_GRADIENT)


def sharded_filename(basename, shard, num_shards, name=None):
    """`<basename>-<shard>-of-<num_shards>` with five-digit numbers (TF's op "ShardedFilename").

    Args:
      basename: A scalar string tensor.
      shard: A scalar int32 tensor.
      num_shards: A scalar int32 tensor.
      name: A name for the operation (optional).

    Returns:
      A scalar string `Tensor`.
    """
    with ops.name_scope(name, "ShardedFilename", []) as scope:
        inputs = [ops.convert_to_tensor(basename, dtype=dtypes_lib.string),
                  ops.convert_to_tensor(shard, dtype=dtypes_lib.int32, name="shard"),
                  ops.convert_to_tensor(num_shards, dtype=dtypes_lib.int32)]
        return ops.apply_op("ShardedFilename", inputs, {}, name=scope)


def _merge_infer(op):
    for t, what in zip(op._inputs, ("checkpoint_prefixes", "destination_prefix")):
        if t.dtype is not dtypes_lib.string:
            raise TypeError("Input '%s' of 'MergeV2Checkpoints' Op has type %s that does not match expected type of "
                            "string." % (what, t.dtype.name))
    return []


def _merge_kernel(ctx, op, checkpoint_prefixes, destination_prefix, delete_old_dirs=True, allow_missing_files=False):
    prefixes = [_as_str(p) for p in np.asarray(checkpoint_prefixes, dtype=object).reshape(-1)]
    dest = _as_str(destination_prefix)
    if allow_missing_files:
        prefixes = [p for p in prefixes if tensor_bundle.os.path.exists(tensor_bundle.index_filename(p))]
    try:
        tensor_bundle.merge_bundles(prefixes, dest, delete_old_dirs=delete_old_dirs)
    except OSError as e:
        raise _io_error(op, e, dest) from e


register_op("MergeV2Checkpoints", infer=_merge_infer, kernel=_merge_kernel, grad=NO_GRADIENT, stateful=True)


def merge_v2_checkpoints(checkpoint_prefixes, destination_prefix, delete_old_dirs=True, allow_missing_files=False,
                         name=None):
    """Merges one-shard checkpoints into the checkpoint `destination_prefix`, one data file per
    source (TF's op "MergeV2Checkpoints": the last step of a sharded save).

    Args:
      checkpoint_prefixes: 1-D strings: the prefixes of the checkpoints to merge, in shard order.
      destination_prefix: A scalar string: the merged checkpoint's prefix.
      delete_old_dirs: Remove the directory of the first source prefix when it is left empty.
      allow_missing_files: Skip sources whose index file does not exist.
      name: A name for the operation (optional).

    Returns:
      The Operation. At run time: NotFoundError for a missing source, DataLossError for a damaged
      one, InvalidArgumentError when two sources hold the same tensor name.
    """
    with ops.name_scope(name, "MergeV2Checkpoints", []) as scope:
        inputs = [ops.convert_to_tensor(checkpoint_prefixes, dtype=dtypes_lib.string, name="checkpoint_prefixes"),
                  ops.convert_to_tensor(destination_prefix, dtype=dtypes_lib.string)]
        return ops.apply_op("MergeV2Checkpoints", inputs, {"delete_old_dirs": bool(delete_old_dirs),
                                                           "allow_missing_files": bool(allow_missing_files)},
                            name=scope)


# ---- Unrestorable --------------------------------------------------------------------------------
def _unrestorable_kernel(ctx, op, original_type, reason, output_specs):
    raise errors.UnimplementedError(None, op, "Op '%s' (type %s) was not restored from the meta graph: %s"
                                    % (op.name, original_type, reason))


register_op("Unrestorable", infer=lambda op: list(op._attrs["output_specs"]), kernel=_unrestorable_kernel,
            grad=NO_GRADIENT, stateful=True)


def unrestorable(graph, name, original_type, reason, output_specs, control_inputs=()):
    """Adds to `graph` an op named `name` with the outputs `output_specs` (`(dtype, shape)` pairs) that
    raises UnimplementedError naming `original_type` and `reason` when it runs.

    Returns:
      The Operation.
    """
    return graph._create_op("Unrestorable", [], {"original_type": original_type, "reason": reason,
                                                 "output_specs": list(output_specs)}, name, control_inputs)
