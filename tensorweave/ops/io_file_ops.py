"""Whole-file ops, as TF's ops of the same names: "ReadFile" (`tf.read_file`, `tf.io.read_file`),
"WriteFile" (`tf.write_file`, `tf.io.write_file`) and "MatchingFiles" (`tf.matching_files`,
`tf.io.matching_files`). Files are read and written through `tensorweave.platform.gfile`, so any path
`tf.gfile` accepts (local, or a URL through fsspec) works.

The three are stateful (their results depend on the file system, not only on their inputs), so a
compiled plan never folds them into constants: each run reads the file anew.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..platform import gfile

__all__ = ["matching_files", "read_file", "write_file"]


def _string_input(value, param, op_type):
    """`value` as a string tensor, with TF's errors for other dtypes."""
    is_tensor = isinstance(value, ops.Tensor)
    try:
        t = ops.convert_to_tensor(value, dtype_hint=dtypes.string, name=param)
    except (TypeError, ValueError):
        t = None
    if t is not None and t.dtype == dtypes.string:
        return t
    if is_tensor:
        raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of string."
                        % (param, op_type, value.dtype.name))
    raise TypeError("Expected string passed to parameter '%s' of op '%s', got %r of type '%s' instead. Error: "
                    "Expected string, but got %r of type '%s'." % (param, op_type, value, type(value).__name__,
                                                                  value, type(value).__name__))


def _shape_str(shape):
    return "[%s]" % ",".join(str(d) for d in shape)


def _rank_infer(t, rank, at_most=False):
    dims = t._shape.as_tuple()
    if dims is None:
        return
    if at_most and len(dims) > rank:
        raise ValueError("Shape must be at most rank %d but is rank %d" % (rank, len(dims)))
    if not at_most and len(dims) != rank:
        raise ValueError("Shape must be rank %d but is rank %d" % (rank, len(dims)))


def _path(value):
    v = value[()] if isinstance(value, np.ndarray) else value
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def _with_op(e, op):
    """A gfile error (raised without an op) as the same class naming `op`."""
    return type(e)(None, op, e.message)


def _string_scalar(b):
    out = np.empty((), dtype=object)
    out[()] = b
    return out


# ---- ReadFile ----------------------------------------------------------------------------------
def _read_file_infer(op):
    _rank_infer(op._inputs[0], 0)
    return [(dtypes.string, ())]


def _read_file_kernel(ctx, op, filename):
    if np.ndim(filename) != 0:
        raise errors.InvalidArgumentError(None, op, "Input filename tensor must be scalar, but had shape: %s"
                                          % _shape_str(np.shape(filename)))
    try:
        return _string_scalar(gfile.read_file(_path(filename)))
    except errors.OpError as e:
        raise _with_op(e, op) from None


register_op("ReadFile", infer=_read_file_infer, kernel=_read_file_kernel, grad=NO_GRADIENT, stateful=True)


def read_file(filename, name=None):
    """Reads and outputs the entire contents of the input filename.

    Args:
      filename: A scalar `string` tensor: the path (or a URL `tf.gfile` accepts).
      name: A name for the operation (optional).

    Returns:
      A scalar `string` tensor: the file's bytes.

    Raises:
      TypeError: If `filename` is not a string.
      ValueError: If `filename` is not a scalar.

    Running it raises `tf.errors.NotFoundError` for a missing file and `FailedPreconditionError` for a
    directory.
    """
    with ops.name_scope(name, "ReadFile", [filename]) as scope:
        t = _string_input(filename, "filename", "ReadFile")
        return ops.apply_op("ReadFile", [t], {}, name=scope)


# ---- WriteFile ---------------------------------------------------------------------------------
def _write_file_infer(op):
    _rank_infer(op._inputs[0], 0)
    _rank_infer(op._inputs[1], 0)
    return []


def _write_file_kernel(ctx, op, filename, contents):
    if np.ndim(filename) != 0:
        raise errors.InvalidArgumentError(None, op, "Input filename tensor must be scalar, but had shape: %s"
                                          % _shape_str(np.shape(filename)))
    if np.ndim(contents) != 0:
        raise errors.InvalidArgumentError(None, op, "Contents tensor must be scalar, but had shape: %s"
                                          % _shape_str(np.shape(contents)))
    path = _path(filename)
    data = contents[()] if isinstance(contents, np.ndarray) else contents
    try:
        parent = path.rsplit("/", 1)[0] if "/" in path.split("://", 1)[-1] else ""
        if parent and not gfile.isdir(parent):
            gfile.makedirs(parent)  # as TF: the directories are created
        gfile.write_file(path, data if isinstance(data, bytes) else str(data).encode("utf-8"))
    except errors.OpError as e:
        raise _with_op(e, op) from None


register_op("WriteFile", infer=_write_file_infer, kernel=_write_file_kernel, grad=NO_GRADIENT, stateful=True)


def write_file(filename, contents, name=None):
    """Writes `contents` to the file `filename`, creating the file (and its missing directories) or
    replacing it.

    Args:
      filename: A scalar `string` tensor: the path (or a URL `tf.gfile` accepts).
      contents: A scalar `string` tensor: the bytes to write.
      name: A name for the operation (optional).

    Returns:
      The created Operation.

    Raises:
      TypeError: If an input is not a string.
      ValueError: If an input is not a scalar.
    """
    with ops.name_scope(name, "WriteFile", [filename, contents]) as scope:
        f = _string_input(filename, "filename", "WriteFile")
        c = _string_input(contents, "contents", "WriteFile")
        return ops.apply_op("WriteFile", [f, c], {}, name=scope)


# ---- MatchingFiles -----------------------------------------------------------------------------
def _matching_files_infer(op):
    _rank_infer(op._inputs[0], 1, at_most=True)
    return [(dtypes.string, (None,))]


def _matching_files_kernel(ctx, op, pattern):
    if np.ndim(pattern) > 1:
        raise errors.InvalidArgumentError(None, op, "Input pattern tensor must be scalar or vector, but had shape: %s"
                                          % _shape_str(np.shape(pattern)))
    names = []
    try:
        for p in np.asarray(pattern).reshape(-1):
            names.extend(gfile.glob(_path(p)))
    except errors.OpError as e:
        raise _with_op(e, op) from None
    out = np.empty(len(names), dtype=object)
    for i, n in enumerate(sorted(names)):
        out[i] = n.encode("utf-8")
    return out


register_op("MatchingFiles", infer=_matching_files_infer, kernel=_matching_files_kernel, grad=NO_GRADIENT,
            stateful=True)


def matching_files(pattern, name=None):
    """Returns the set of files matching one or more glob patterns.

    Patterns may use `*` (any characters except "/"), `?` and `[...]` in the last path components;
    the matches of all patterns are returned sorted (a file matched by two patterns twice).

    Args:
      pattern: A `string` scalar or vector of shell wildcard patterns.
      name: A name for the operation (optional).

    Returns:
      A 1-D `string` tensor of the matching file names (empty if none matches).

    Raises:
      TypeError: If `pattern` is not a string.
      ValueError: If `pattern` has rank 2 or more.
    """
    with ops.name_scope(name, "MatchingFiles", [pattern]) as scope:
        t = _string_input(pattern, "pattern", "MatchingFiles")
        return ops.apply_op("MatchingFiles", [t], {}, name=scope)
