"""Reading checkpoints directly: `tf.train.list_variables`, `load_variable`, `load_checkpoint`,
`NewCheckpointReader`, and `init_from_checkpoint` (initialize variables from a checkpoint)."""

import os

from ..framework import ops
from ..ops import tensor_bundle
from .checkpoint_management import latest_checkpoint

__all__ = ["CheckpointReader", "NewCheckpointReader", "init_from_checkpoint", "list_variables", "load_checkpoint",
           "load_variable"]


class CheckpointReader:
    """Reads the tensors of one checkpoint (TF's `pywrap_tensorflow.CheckpointReader`).

    Args:
      filepattern: The checkpoint prefix.

    Reads TensorFlow's V2 checkpoints (`<prefix>.index` and its data files), written by TF or by
    tensorweave.

    Raises:
      NotFoundError: If there is no checkpoint with this prefix.
      DataLossError: If its index is unreadable or damaged.
      ImportError: If protobuf or crc32c (`tensorweave[data]`) is missing.
    """

    def __init__(self, filepattern):
        self._reader = tensor_bundle.BundleReader(os.fspath(filepattern))

    def get_variable_to_shape_map(self):
        """{name: shape as a list of ints} of every tensor."""
        return {n: self._reader.shape(n) for n in self._reader.names()}

    def get_variable_to_dtype_map(self):
        """{name: DType} of every tensor."""
        return {n: self._reader.dtype(n) for n in self._reader.names()}

    def has_tensor(self, tensor_str):
        return self._reader.has_tensor(tensor_str)

    def get_tensor(self, tensor_str):
        """The value of tensor `tensor_str` as a new NumPy array (a NumPy scalar for a scalar).

        Raises:
          NotFoundError: If the checkpoint has no such tensor.
        """
        value = self._reader.get_tensor(tensor_str)
        return value.copy() if value.ndim else value[()]

    def debug_string(self):
        """One line per tensor, as TF's: `name (DT_FLOAT) [2,3]` (bytes)."""
        from ..ops.bundle_proto import data_type_name
        return "".join("%s (%s) [%s]\n" % (n, data_type_name(self._reader._entries[n].dtype),
                                            ",".join(str(d) for d in self._reader.shape(n)))
                       for n in self._reader.names()).encode("utf-8")


def NewCheckpointReader(filepattern):  # noqa: N802 (TF's name)
    """Returns a `CheckpointReader` for the checkpoint prefix `filepattern`."""
    return CheckpointReader(filepattern)


def _get_checkpoint_filename(ckpt_dir_or_file):
    ckpt_dir_or_file = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(ckpt_dir_or_file):
        return latest_checkpoint(ckpt_dir_or_file)
    return ckpt_dir_or_file


def load_checkpoint(ckpt_dir_or_file):
    """Returns a `CheckpointReader` for a checkpoint prefix, or for the latest checkpoint of a directory.

    Raises:
      ValueError: If a directory holds no checkpoint.
      NotFoundError: If the checkpoint does not exist.
    """
    filename = _get_checkpoint_filename(ckpt_dir_or_file)
    if filename is None:
        raise ValueError("Couldn't find 'checkpoint' file or checkpoints in given directory %s" % ckpt_dir_or_file)
    return CheckpointReader(filename)


def load_variable(ckpt_dir_or_file, name):
    """Returns the value of the tensor `name` (a trailing ":0" is ignored) in a checkpoint.

    Raises:
      ValueError: If a directory holds no checkpoint.
      NotFoundError: If the checkpoint or the name does not exist.
    """
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file):
    """Returns `[(name, shape), ...]` of the tensors in a checkpoint, sorted by name.

    Raises:
      ValueError: If a directory holds no checkpoint.
      NotFoundError: If the checkpoint does not exist.
    """
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return [(name, shapes[name]) for name in sorted(shapes)]


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Makes variables' initializers load values from a checkpoint (TF's `tf.train.init_from_checkpoint`).

    `assignment_map` maps checkpoint names to current variables:
      - `{"scope/": "new_scope/"}`: every variable under `new_scope` from the same name under `scope`;
      - `{"/": "/"}` or `{"/": "scope/"}`: by name from the checkpoint's root;
      - `{"scope/w": "new_scope/w2"}` or `{"scope/w": variable}`: one variable.

    Args:
      ckpt_dir_or_file: A checkpoint prefix or a directory (its latest checkpoint).
      assignment_map: The mapping above.

    Raises:
      ValueError: If a name is missing from the checkpoint, shapes differ, or a scope maps to a name.
    """
    from ..ops import io_ops, state_ops
    from ..variables import Variable
    reader = load_checkpoint(ckpt_dir_or_file)
    ckpt_file = _get_checkpoint_filename(ckpt_dir_or_file)
    shapes = reader.get_variable_to_shape_map()
    graph = ops.get_default_graph()
    store = {v.op.name: v for v in graph.get_collection(ops.GraphKeys.GLOBAL_VARIABLES)
             + graph.get_collection(ops.GraphKeys.LOCAL_VARIABLES) if isinstance(v, Variable)}

    def set_initializer(var, tensor_name):
        if tensor_name not in shapes:
            raise ValueError("Tensor %s is not found in %s checkpoint %s" % (tensor_name, ckpt_dir_or_file, shapes))
        if not var.shape.is_compatible_with(shapes[tensor_name]):
            raise ValueError("Shape of variable %s (%s) doesn't match with shape of tensor %s (%s) from checkpoint "
                             "reader." % (var.name, var.shape, tensor_name, shapes[tensor_name]))
        g = var.graph
        with g.as_default(), g.control_dependencies(None):
            value = io_ops.restore_v2(ckpt_file, [tensor_name], [""], [var.dtype], name="checkpoint_initializer")[0]
            value.set_shape(var.shape)
            var._initializer_op = state_ops.assign(var._ref(), value, validate_shape=var.shape.is_fully_defined()).op
            var._initial_value = value

    for tensor_name, current in sorted(assignment_map.items(), key=lambda kv: kv[0]):
        if isinstance(current, (list, tuple)):
            raise ValueError("Partitioned variables are not supported by init_from_checkpoint: %s" % tensor_name)
        if isinstance(current, Variable) or current in store:
            set_initializer(current if isinstance(current, Variable) else store[current], tensor_name)
            continue
        if not tensor_name.endswith("/"):
            raise ValueError("Assignment map with scope only name {} should map to scope only {}. Should be "
                             "'scope/': 'other_scope/'.".format(current, tensor_name))
        scopes = current[:current.rindex("/")] if "/" in current else ""
        for var_name in sorted(n for n in store if not scopes or n.startswith(scopes + "/")):
            full = var_name[len(scopes):]
            if current != "/":
                full = full[1:]
            if tensor_name != "/":
                full = tensor_name + full
            full = full.rstrip("/")
            if full not in shapes:
                raise ValueError("Tensor %s (%s in %s) is not found in %s checkpoint"
                                 % (full, var_name[len(scopes) + 1:], tensor_name, ckpt_dir_or_file))
            set_initializer(store[var_name], full)
