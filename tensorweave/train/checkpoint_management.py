"""The `checkpoint` state file and checkpoint file helpers (`tf.train.latest_checkpoint`, ...).

The state file is TF's `CheckpointState` message in protobuf text format, e.g.

    model_checkpoint_path: "model.ckpt-200"
    all_model_checkpoint_paths: "model.ckpt-100"
    all_model_checkpoint_paths: "model.ckpt-200"

written atomically (temporary file + rename), so readers see the old or the new state, never half.
"""

import os
import re

from .. import tf_logging as logging
from ..framework import errors
from ..ops import tensor_bundle
from ..platform import gfile

__all__ = ["CheckpointState", "checkpoint_exists", "generate_checkpoint_state_proto", "get_checkpoint_mtimes",
           "get_checkpoint_state", "latest_checkpoint", "meta_graph_filename", "remove_checkpoint",
           "update_checkpoint_state"]


class CheckpointState:
    """TF's `CheckpointState` message: the latest checkpoint and the ones not yet deleted.

    Attributes:
      model_checkpoint_path: Path prefix of the most recent checkpoint.
      all_model_checkpoint_paths: Prefixes of all not-yet-deleted checkpoints, oldest first.
      all_model_checkpoint_timestamps: Their creation times (seconds), when recorded.
      last_preserved_timestamp: When the last preserved checkpoint was written, when recorded.
    """

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=None,
                 all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths or [])
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps or [])
        self.last_preserved_timestamp = 0.0 if last_preserved_timestamp is None else float(last_preserved_timestamp)

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and vars(self) == vars(other)

    def __repr__(self):
        return "CheckpointState(%r)" % str(self)

    def __str__(self):
        """The protobuf text format of the message (fields at their default values are omitted)."""
        lines = []
        if self.model_checkpoint_path:
            lines.append("model_checkpoint_path: %s" % _quote(self.model_checkpoint_path))
        lines.extend("all_model_checkpoint_paths: %s" % _quote(p) for p in self.all_model_checkpoint_paths)
        lines.extend("all_model_checkpoint_timestamps: %s" % _float(t) for t in self.all_model_checkpoint_timestamps)
        if self.last_preserved_timestamp:
            lines.append("last_preserved_timestamp: %s" % _float(self.last_preserved_timestamp))
        return "".join(line + "\n" for line in lines)

    def SerializeToString(self):  # noqa: N802 (protobuf's name)
        return str(self).encode("utf-8")

    @classmethod
    def FromString(cls, text):  # noqa: N802 (protobuf's name)
        """Parses the text format.

        Raises:
          ValueError: If the text is not a CheckpointState in text format.
        """
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        state = cls()
        for n, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^(\w+)\s*:\s*(.*)$", line)
            if not m:
                raise ValueError("%d:1 : Expected identifier, got: %s" % (n, line))
            field, value = m.groups()
            if field == "model_checkpoint_path":
                state.model_checkpoint_path = _unquote(value, n)
            elif field == "all_model_checkpoint_paths":
                state.all_model_checkpoint_paths.append(_unquote(value, n))
            elif field == "all_model_checkpoint_timestamps":
                state.all_model_checkpoint_timestamps.append(_parse_float(value, n))
            elif field == "last_preserved_timestamp":
                state.last_preserved_timestamp = _parse_float(value, n)
            else:
                raise ValueError('%d:1 : Message type "tensorflow.CheckpointState" has no field named "%s".'
                                 % (n, field))
        return state


def _float(x):
    return repr(float(x))


def _parse_float(value, line):
    try:
        return float(value)
    except ValueError:
        raise ValueError("%d:1 : Couldn't parse float: %s" % (line, value)) from None


_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
            ord("\\"): "\\\\"}


def _quote(s):
    """A protobuf text-format string literal (C escapes; bytes outside printable ASCII as octal)."""
    out = []
    for b in s.encode("utf-8"):
        if b in _ESCAPES:
            out.append(_ESCAPES[b])
        elif 0x20 <= b < 0x7F:
            out.append(chr(b))
        else:
            out.append("\\%03o" % b)
    return '"' + "".join(out) + '"'


_UNESCAPES = {"n": 10, "r": 13, "t": 9, '"': 34, "'": 39, "\\": 92, "a": 7, "b": 8, "f": 12, "v": 11, "?": 63}


def _unquote(value, line):
    value = value.strip()
    if len(value) < 2 or value[0] not in "\"'" or value[-1] != value[0]:
        raise ValueError("%d:1 : Expected string but found: %s" % (line, value))
    body = value[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.extend(c.encode("utf-8"))
            i += 1
            continue
        nxt = body[i + 1:i + 2]
        if nxt in _UNESCAPES:
            out.append(_UNESCAPES[nxt])
            i += 2
        elif nxt == "x":
            m = re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:])
            if not m:
                raise ValueError("%d:1 : Invalid escape sequence in string literal" % line)
            out.append(int(m.group(), 16))
            i += 2 + len(m.group())
        else:
            m = re.match(r"[0-7]{1,3}", body[i + 1:])
            if not m:
                raise ValueError("%d:1 : Invalid escape sequence in string literal" % line)
            out.append(int(m.group(), 8) & 0xFF)
            i += 1 + len(m.group())
    return out.decode("utf-8")


def _checkpoint_filename(save_dir, latest_filename):
    return os.path.join(save_dir, "checkpoint" if latest_filename is None else latest_filename)


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """Builds the `CheckpointState` for `save_dir`.

    `model_checkpoint_path` is appended to `all_model_checkpoint_paths` if it is not its last entry;
    when `save_dir` is relative, relative paths are rewritten relative to `save_dir`.

    Args:
      save_dir: Directory where the model was saved.
      model_checkpoint_path: The checkpoint prefix.
      all_model_checkpoint_paths: Prefixes of all not-yet-deleted checkpoints, oldest first.
      all_model_checkpoint_timestamps: Their creation times in seconds.
      last_preserved_timestamp: When the last preserved checkpoint was written.

    Returns:
      A `CheckpointState`.

    Raises:
      ValueError: If timestamps are given but their number differs from the paths'.
    """
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        logging.info("%s is not in all_model_checkpoint_paths. Manually adding it.", model_checkpoint_path)
        paths.append(model_checkpoint_path)
    if all_model_checkpoint_timestamps and len(all_model_checkpoint_timestamps) != len(paths):
        raise ValueError("Checkpoint timestamps, if provided, must match checkpoint paths (got paths %s and "
                         "timestamps %s)" % (paths, all_model_checkpoint_timestamps))
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        paths = [p if os.path.isabs(p) else os.path.relpath(p, save_dir) for p in paths]
    return CheckpointState(model_checkpoint_path, paths, all_model_checkpoint_timestamps, last_preserved_timestamp)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None, latest_filename=None,
                            all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """Writes the `checkpoint` state file of `save_dir` (atomically).

    Args:
      save_dir: Directory where the model was saved.
      model_checkpoint_path: The checkpoint prefix.
      all_model_checkpoint_paths: Prefixes of all not-yet-deleted checkpoints, oldest first.
      latest_filename: Name of the state file (default "checkpoint").
      all_model_checkpoint_timestamps: Their creation times in seconds.
      last_preserved_timestamp: When the last preserved checkpoint was written.

    Raises:
      RuntimeError: If the checkpoint path is the state file itself.
    """
    update_checkpoint_state_internal(save_dir, model_checkpoint_path, all_model_checkpoint_paths, latest_filename,
                                     False, all_model_checkpoint_timestamps, last_preserved_timestamp)


def update_checkpoint_state_internal(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                                     latest_filename=None, save_relative_paths=False,
                                     all_model_checkpoint_timestamps=None, last_preserved_timestamp=None):
    """`update_checkpoint_state`, optionally writing paths relative to `save_dir`."""
    filename = _checkpoint_filename(save_dir, latest_filename)
    paths = list(all_model_checkpoint_paths or [])
    if save_relative_paths:
        if os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        paths = [os.path.relpath(p, save_dir) if os.path.isabs(p) else p for p in paths]
    ckpt = generate_checkpoint_state_proto(save_dir, model_checkpoint_path, paths,
                                           all_model_checkpoint_timestamps, last_preserved_timestamp)
    if filename == ckpt.model_checkpoint_path:
        raise RuntimeError("Save path '%s' conflicts with path used for checkpoint state.  Please use a different "
                           "save path." % model_checkpoint_path)
    text = str(ckpt).encode("utf-8")
    tensor_bundle.atomic_write(filename, lambda f: f.write(text))


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """Reads the `checkpoint` state file of `checkpoint_dir`.

    Relative paths in it are returned joined to `checkpoint_dir`.

    Args:
      checkpoint_dir: The directory of checkpoints.
      latest_filename: Name of the state file (default "checkpoint").

    Returns:
      A `CheckpointState`, or None if there is no state file or it cannot be read or parsed
      (a warning is logged).

    Raises:
      ValueError: If the state file names no `model_checkpoint_path`.
    """
    filename = _checkpoint_filename(checkpoint_dir, latest_filename)
    if not gfile.exists(filename) or gfile.isdir(filename):
        return None
    try:
        ckpt = CheckpointState.FromString(gfile.read_file(filename))
    except (OSError, ValueError, UnicodeDecodeError, errors.OpError) as e:
        logging.warning("%s: %s", type(e).__name__, e)
        logging.warning("%s: Checkpoint ignored", filename)
        return None
    if not ckpt.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    if not os.path.isabs(ckpt.model_checkpoint_path):
        ckpt.model_checkpoint_path = os.path.join(checkpoint_dir, ckpt.model_checkpoint_path)
    ckpt.all_model_checkpoint_paths = [p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)
                                       for p in ckpt.all_model_checkpoint_paths]
    return ckpt


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """Returns the prefix of the latest checkpoint in `checkpoint_dir` (from its state file), or
    None if there is none or its files are missing (an error is logged)."""
    ckpt = get_checkpoint_state(checkpoint_dir, latest_filename)
    if ckpt and ckpt.model_checkpoint_path:
        if checkpoint_exists(ckpt.model_checkpoint_path):
            return ckpt.model_checkpoint_path
        logging.error("Couldn't match files for checkpoint %s", ckpt.model_checkpoint_path)
    return None


def checkpoint_exists(checkpoint_prefix):
    """Whether a checkpoint with this prefix exists (its `.index` file)."""
    path = tensor_bundle.index_filename(checkpoint_prefix)
    return gfile.exists(path) and not gfile.isdir(path)


def get_checkpoint_mtimes(checkpoint_prefixes):
    """Returns the modification times (seconds) of the checkpoints that exist among `checkpoint_prefixes`."""
    mtimes = []
    for prefix in checkpoint_prefixes:
        try:
            mtimes.append(gfile.stat(tensor_bundle.index_filename(prefix)).mtime_nsec / 1e9)
        except (OSError, errors.NotFoundError):
            pass
    return mtimes


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Deletes the files of the checkpoint `checkpoint_prefix` (meta graph, index, data) that exist."""
    try:
        gfile.remove(meta_graph_filename(checkpoint_prefix, meta_graph_suffix))
    except (FileNotFoundError, errors.NotFoundError):
        pass
    tensor_bundle.delete_bundle(checkpoint_prefix)


def meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
    """`<prefix>.meta` for a checkpoint prefix (a sharded `-?????-of-N` suffix is dropped)."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])
