"""`tf.train.Saver`: saves and restores variables through "SaveV2"/"RestoreV2" ops, keeps the
`checkpoint` state file, deletes old checkpoints, and exports/imports meta graphs.

A save runs the save op (data file, then index, each written atomically), writes the meta graph,
then the `checkpoint` state file, and only then deletes checkpoints beyond `max_to_keep`: an
interruption at any point leaves the previous checkpoint intact and `latest_checkpoint` naming it.
"""

import os
import re
import time

import numpy as np

from .. import tf_logging as logging
from ..framework import errors, ops
from ..ops import io_ops, tensor_bundle
from ..platform import gfile
from . import checkpoint_management, meta_graph
from .checkpoint_management import (
    checkpoint_exists,
    generate_checkpoint_state_proto,
    get_checkpoint_mtimes,
    get_checkpoint_state,
    latest_checkpoint,
    remove_checkpoint,
    update_checkpoint_state,
)
from .meta_graph import MetaGraphDef, SaverDef

__all__ = ["MetaGraphDef", "Saver", "SaverDef", "checkpoint_exists", "export_meta_graph",
           "generate_checkpoint_state_proto", "get_checkpoint_mtimes", "get_checkpoint_state", "import_meta_graph",
           "latest_checkpoint", "remove_checkpoint", "update_checkpoint_state"]


def _all_saveable_objects(scope=None):
    return (ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope)
            + ops.get_collection(ops.GraphKeys.SAVEABLE_OBJECTS, scope))


def _var_ref(v):
    """The VariableV2 tensor of a Variable (or of a VariableV2 tensor), else None."""
    if hasattr(v, "_ref") and hasattr(v, "initializer"):
        return v._ref()
    if isinstance(v, ops.Tensor) and v.op.type == "VariableV2":
        return v
    return None


def _is_saveable(v):
    """Whether `v` is a saveable object (not a variable): it has `name`, `specs` (a list of (checkpoint
    name, tensor) pairs), `device` and `restore(tensors)` (the op putting restored tensors back), as the
    lookup tables' saveables do."""
    return hasattr(v, "specs") and hasattr(v, "restore") and _var_ref(v) is None


def op_list_to_dict(op_list):
    """Maps checkpoint names to variables (and saveable objects): a list is keyed by the variables' op
    names and the saveables' names.

    Raises:
      TypeError: If `op_list` is not a list, tuple or dict, or holds something not a variable.
      ValueError: If two variables have the same name.
    """
    if isinstance(op_list, dict):
        seen = set()
        out = {}
        for name, v in op_list.items():
            if not isinstance(name, str):
                raise TypeError("Keys of var_list must be strings, got %r" % (name,))
            ref = v if _is_saveable(v) else _var_ref(v)
            if ref is None:
                raise TypeError("Variable to save is not a Variable: %s" % (v,))
            if ref in seen:
                raise ValueError("The same saveable will be restored with two names: %s" % (v,))
            seen.add(ref)
            out[name] = v
        return out
    if not isinstance(op_list, (list, tuple, set)):
        raise TypeError("Variables to save should be passed in a dict or a list: %s" % (op_list,))
    out = {}
    for v in sorted(op_list, key=lambda x: x.name):
        if _is_saveable(v):
            if v.name in out and out[v.name] is not v:
                raise ValueError("At least two variables have the same name: %s" % v.name)
            out[v.name] = v
            continue
        ref = _var_ref(v)
        if ref is None:
            raise TypeError("Variable to save is not a Variable: %s" % (v,))
        name = ref.op.name
        if name in out:
            if _var_ref(out[name]) is ref:
                continue
            raise ValueError("At least two variables have the same name: %s" % name)
        out[name] = v
    return out


def _save_entries(names_to_vars):
    """(checkpoint name, tensor saved, device, variable ref or (saveable, index)) for every tensor saved,
    in checkpoint-name order."""
    entries = []
    for name, v in sorted(names_to_vars.items()):
        if _is_saveable(v):
            for i, (spec_name, tensor) in enumerate(v.specs):
                entries.append((spec_name, tensor, v.device or "", (v, i)))
        else:
            ref = _var_ref(v)
            entries.append((name, ref, ref.op.device or "", ref))
    return sorted(entries, key=lambda e: e[0])


def _restore_ops(prefix, entries, reshape):
    """The ops restoring `entries` from `prefix`: one RestoreV2 and Assigns for the variables, and each
    saveable's own restore op."""
    var_entries = [e for e in entries if not isinstance(e[3], tuple)]
    restore = _restore_assigns(prefix, [e[0] for e in var_entries], [e[3] for e in var_entries], reshape) \
        if var_entries else []
    saveables = []
    for e in entries:
        if isinstance(e[3], tuple) and e[3][0] not in saveables:
            saveables.append(e[3][0])
    for saveable in saveables:
        names = [n for n, _ in saveable.specs]
        restored = io_ops.restore_v2(prefix, names, [""] * len(names), [t.dtype for _, t in saveable.specs])
        restore.append(saveable.restore(restored if isinstance(restored, (list, tuple)) else [restored]))
    return restore


def _build_save_restore(names_to_vars, name, filename, reshape, max_to_keep, keep_hours, sharded):
    """Adds the save and restore ops (TF's layout: save/Const, save/SaveV2, save/control_dependency,
    save/RestoreV2, save/Assign*, save/restore_all) and returns their SaverDef."""
    from ..framework import constant_op
    from ..ops import core_ops
    entries = _save_entries(names_to_vars)
    graph = entries[0][1].graph
    with graph.as_default(), graph.control_dependencies(None), ops.name_scope(name, "save", [e[1] for e in entries]):
        default = constant_op.constant(filename or "model", name="filename/input")
        filename_tensor = core_ops.placeholder_with_default(default, shape=(), name="filename")
        filename_tensor = core_ops.placeholder_with_default(filename_tensor, shape=(), name="Const")
        if sharded:
            save_tensor, restore_op = _sharded_save_restore(graph, filename_tensor, entries, reshape)
        else:
            save = io_ops.save_v2(filename_tensor, [e[0] for e in entries], [""] * len(entries),
                                  [e[1] for e in entries])
            with graph.control_dependencies([save]):
                save_tensor = core_ops.identity(filename_tensor, name="control_dependency")
            restore_op = core_ops.group(*_restore_ops(filename_tensor, entries, reshape), name="restore_all")
    return SaverDef(filename_tensor_name=filename_tensor.name, save_tensor_name=save_tensor.name,
                    restore_op_name=restore_op.name, max_to_keep=max_to_keep or 0, sharded=bool(sharded),
                    keep_checkpoint_every_n_hours=keep_hours, version=SaverDef.V2)


def _restore_assigns(prefix, names, refs, reshape):
    """RestoreV2 of `names` from `prefix` and the Assign ops of the values to `refs`."""
    from ..ops import array_ops, core_ops, state_ops
    restored = io_ops.restore_v2(prefix, names, [""] * len(names), [r.dtype for r in refs])
    assigns = []
    for ref, value in zip(refs, restored):
        if reshape:
            shape = ref.shape.as_list() if ref.shape.is_fully_defined() else core_ops.shape(ref)
            value = array_ops.reshape(value, shape)
        assigns.append(state_ops.assign(ref, value, validate_shape=ref.shape.is_fully_defined()).op)
    return assigns


def _sharded_save_restore(graph, prefix, entries, reshape):
    """TF's sharded V2 save and restore ops (`Saver(sharded=True)`): the variables grouped by device
    (sorted by device name; one group when none is placed), each group saved by its own SaveV2 to
    `ShardedFilename(<prefix>_temp/part, shard, num_shards)` (`<prefix>.part` for "s3://" paths),
    then MergeV2Checkpoints merges the shards into `<prefix>` (one data file per shard) and removes
    the temporary directory. Returns (save tensor, restore op)."""
    from ..framework import constant_op
    from ..ops import array_select_ops, core_ops, string_ops
    groups = {}
    for e in entries:
        groups.setdefault(e[2], []).append(e)
    per_device = sorted(groups.items())
    is_s3 = string_ops.static_regex_full_match(prefix, "^s3://.*")
    suffix = array_select_ops.where(is_s3, constant_op.constant(".part"),
                                    constant_op.constant(os.path.normpath("_temp/part")))
    tmp_prefix = string_ops.string_join([prefix, suffix])
    num_shards = constant_op.constant(len(per_device), name="num_shards")
    shard_prefixes, shard_saves = [], []
    for shard, (_, group) in enumerate(per_device):
        shard_prefix = io_ops.sharded_filename(tmp_prefix, shard, num_shards)
        shard_prefixes.append(shard_prefix)
        save = io_ops.save_v2(shard_prefix, [e[0] for e in group], [""] * len(group), [e[1] for e in group])
        with graph.control_dependencies([save]):
            shard_saves.append(core_ops.identity(shard_prefix, name="control_dependency"))
    with graph.control_dependencies([t.op for t in shard_saves]):
        merge = io_ops.merge_v2_checkpoints(shard_prefixes, prefix, delete_old_dirs=True)
        with graph.control_dependencies([merge]):
            save_tensor = core_ops.identity(prefix)
    shards = []
    for _, group in per_device:
        shards.append(core_ops.group(*_restore_ops(prefix, group, reshape), name="restore_shard"))
    return save_tensor, core_ops.group(*shards, name="restore_all")


def _prepend_name_scope(name, scope):
    return scope.rstrip("/") + "/" + name if scope else name


class Saver:
    """Saves and restores variables (TF 1.x `tf.train.Saver`).

    Args:
      var_list: A list of variables (saved under their op names) or a dict {checkpoint name:
        variable}. Default: all global variables and saveable objects.
      reshape: Allow restoring a variable from a tensor of another shape with as many elements.
      sharded: Save one data file per device holding variables (TF's sharded V2 saver: each
        shard written under `<prefix>_temp/part-<k>-of-<n>`, then merged into `<prefix>`).
      max_to_keep: How many recent checkpoints to keep (None or 0: keep all).
      keep_checkpoint_every_n_hours: Additionally keep one checkpoint every N hours.
      name: Name scope of the save/restore ops (default "save").
      restore_sequentially: Accepted for compatibility.
      saver_def: A `SaverDef` of save/restore ops already in the graph (then no ops are added).
      builder: Accepted for compatibility.
      defer_build: Add the ops only when `build()` is called.
      allow_empty: With no variables, make a saver that does nothing instead of raising.
      write_version: Accepted for compatibility (V2 layout).
      pad_step_number: Zero-pad the global step in file names to 8 digits.
      save_relative_paths: Write paths relative to the directory in the `checkpoint` file.
      filename: Default checkpoint path the save/restore ops use when none is fed.

    Raises:
      TypeError: If `var_list` is invalid.
      ValueError: If names or variables repeat, there are no variables (and not `allow_empty`),
        or `var_list` is given with `defer_build`.
      RuntimeError: If eager execution is enabled (graph mode only).
    """

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False, saver_def=None,
                 builder=None, defer_build=False, allow_empty=False, write_version=2,
                 pad_step_number=False, save_relative_paths=False, filename=None):
        if defer_build and var_list:
            raise ValueError("If `var_list` is provided then build cannot be deferred. Either set defer_build=False "
                             "or var_list=None.")
        _check_graph_mode("tf.train.Saver")
        self._var_list = var_list
        self._reshape = reshape
        self._sharded = sharded
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._name = name
        self._restore_sequentially = restore_sequentially
        self.saver_def = saver_def
        self._builder = builder
        self._is_built = False
        self._allow_empty = allow_empty
        self._is_empty = None
        self._write_version = write_version
        self._pad_step_number = pad_step_number
        self._filename = filename
        self._last_checkpoints = []
        self._checkpoints_to_be_deleted = []
        self._save_relative_paths = save_relative_paths
        if not defer_build:
            self.build()

    def build(self):
        """Adds the save and restore ops (once)."""
        if self._is_built:
            return
        self._is_built = True
        if self.saver_def is None:
            if self._var_list is None:
                self._var_list = _all_saveable_objects()
            if not self._var_list:
                if self._allow_empty:
                    self._is_empty = True
                    return
                raise ValueError("No variables to save")
            self._is_empty = False
            names_to_vars = op_list_to_dict(self._var_list)
            self.saver_def = _build_save_restore(names_to_vars, self._name, self._filename, self._reshape,
                                                 self._max_to_keep, self._keep_checkpoint_every_n_hours,
                                                 self._sharded)
        else:
            self._is_empty = False
            if not isinstance(self.saver_def, SaverDef):
                raise ValueError("saver_def must be a saver_pb2.SaverDef: %s" % (self.saver_def,))
            if self._name:
                sd = SaverDef()
                sd.CopyFrom(self.saver_def)
                sd.filename_tensor_name = _prepend_name_scope(sd.filename_tensor_name, self._name)
                sd.save_tensor_name = _prepend_name_scope(sd.save_tensor_name, self._name)
                sd.restore_op_name = _prepend_name_scope(sd.restore_op_name, self._name)
                self.saver_def = sd
            if not self.saver_def.save_tensor_name:
                raise ValueError("saver_def must specify the save_tensor_name: %s" % (self.saver_def,))
            if not self.saver_def.restore_op_name:
                raise ValueError("saver_def must specify the restore_op_name: %s" % (self.saver_def,))
        self._next_checkpoint_time = time.time() + self.saver_def.keep_checkpoint_every_n_hours * 3600

    def as_saver_def(self):
        """Returns the `SaverDef` of this saver."""
        return self.saver_def

    def to_proto(self, export_scope=None):
        """The `SaverDef` with `export_scope` stripped from its names (None if they are outside it)."""
        if export_scope is None:
            return self.saver_def
        prefix = export_scope.rstrip("/") + "/"
        sd = self.saver_def
        names = (sd.filename_tensor_name, sd.save_tensor_name, sd.restore_op_name)
        if not all(n.startswith(prefix) for n in names):
            return None
        out = SaverDef()
        out.CopyFrom(sd)
        out.filename_tensor_name, out.save_tensor_name, out.restore_op_name = (n[len(prefix):] for n in names)
        return out

    @staticmethod
    def from_proto(saver_def, import_scope=None):
        """A `Saver` over the ops named in `saver_def` (under `import_scope`)."""
        return Saver(saver_def=saver_def, name=import_scope)

    # ---- the list of recent checkpoints -----------------------------------------------------
    @property
    def last_checkpoints(self):
        """Prefixes of the not-yet-deleted checkpoints this saver wrote, oldest first."""
        return [p for p, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        """DEPRECATED: Use `set_last_checkpoints_with_time` (these are never deleted).

        Raises:
          AssertionError: If `last_checkpoints` is not a list.
        """
        assert isinstance(last_checkpoints, list)
        self._last_checkpoints = [(s, np.inf) for s in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        """Sets the list of recent checkpoints as `(prefix, timestamp)` pairs.

        Raises:
          AssertionError: If the argument is not a list.
        """
        assert isinstance(last_checkpoints_with_time, list)
        self._last_checkpoints = last_checkpoints_with_time

    def recover_last_checkpoints(self, checkpoint_paths):
        """Restores the list of recent checkpoints after a restart: the paths whose files exist,
        with their modification times (e.g. from `get_checkpoint_state(dir).all_model_checkpoint_paths`)."""
        with_mtimes = []
        for path in checkpoint_paths:
            mtime = get_checkpoint_mtimes([path])
            if mtime:
                with_mtimes.append((path, mtime[0]))
        self.set_last_checkpoints_with_time(with_mtimes)

    def _record_last_checkpoint(self, latest_save_path):
        if not self.saver_def.max_to_keep:
            return
        self._last_checkpoints = [p for p in self._last_checkpoints if p[0] != latest_save_path]
        self._last_checkpoints.append((latest_save_path, time.time()))
        if len(self._last_checkpoints) > self.saver_def.max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _maybe_delete_old_checkpoints(self, meta_graph_suffix="meta"):
        if self._checkpoints_to_be_deleted:
            path, stamp = self._checkpoints_to_be_deleted.pop(0)
            if stamp > self._next_checkpoint_time:
                # Kept for keep_checkpoint_every_n_hours.
                self._next_checkpoint_time += self.saver_def.keep_checkpoint_every_n_hours * 3600
                return
            try:
                remove_checkpoint(path, self.saver_def.version, meta_graph_suffix)
            except Exception as e:  # a failed deletion must not fail the save
                logging.warning("Ignoring: %s", str(e))

    # ---- save / restore ---------------------------------------------------------------------
    def save(self, sess, save_path, global_step=None, latest_filename=None, meta_graph_suffix="meta",
             write_meta_graph=True, write_state=True, strip_default_attrs=False, save_debug_info=False):
        """Saves the variables' values in `sess` as a checkpoint.

        Args:
          sess: The Session holding the values.
          save_path: Checkpoint path prefix.
          global_step: If given (an int, or a tensor/variable/name to evaluate), appended to the
            prefix as `<save_path>-<step>`.
          latest_filename: Name of the state file (default "checkpoint").
          meta_graph_suffix: Extension of the meta graph file (default "meta").
          write_meta_graph: Also write `<prefix>.<meta_graph_suffix>`.
          write_state: Update the state file and delete checkpoints beyond `max_to_keep`.
          strip_default_attrs, save_debug_info: Accepted for compatibility.

        Temporary files that earlier saves under `save_path` left when they were killed midway
        (`<file>.tmp<hex>`, which no running save holds) are removed first. Every file is written to
        a temporary name and renamed, so a save killed at any point leaves the previous checkpoint
        complete.

        Returns:
          The checkpoint prefix (`save_path` or `save_path-<step>`), or None for an empty saver.

        Raises:
          TypeError: If `sess` is not a Session.
          ValueError: If `latest_filename` has path components or equals the checkpoint file name,
            or the parent directory of `save_path` does not exist.
          RuntimeError: If the saver was deferred and not built.
        """
        if not self._is_built:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        if latest_filename is None:
            latest_filename = "checkpoint"
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = os.fspath(save_path)
        if global_step is not None:
            if not isinstance(global_step, (int, np.integer)):
                from .training_util import global_step as _step
                global_step = _step(sess, global_step)
            fmt = "%s-%08d" if self._pad_step_number else "%s-%d"
            checkpoint_file = fmt % (save_path, global_step)
        else:
            checkpoint_file = save_path
            if os.path.basename(save_path) == latest_filename and not self._sharded:
                raise ValueError("'latest_filename' collides with 'save_path': '%s' and '%s'"
                                 % (latest_filename, save_path))
        if not hasattr(sess, "run") or not hasattr(sess, "graph"):
            raise TypeError("'sess' must be a Session; %s" % (sess,))
        save_path_parent = os.path.dirname(save_path)
        self._remove_stale_temporaries(save_path, latest_filename, meta_graph_suffix)
        model_checkpoint_path = None
        if not self._is_empty:
            try:
                out = sess.run(self.saver_def.save_tensor_name,
                               {self.saver_def.filename_tensor_name: checkpoint_file})
            except (errors.FailedPreconditionError, errors.NotFoundError) as exc:
                if save_path_parent and not gfile.isdir(save_path_parent):
                    raise ValueError("Parent directory of {} doesn't exist, can't save.".format(save_path)) from exc
                raise
            model_checkpoint_path = out.decode("utf-8") if isinstance(out, bytes) else str(out)
        if write_meta_graph:
            filename = checkpoint_management.meta_graph_filename(checkpoint_file, meta_graph_suffix)
            with sess.graph.as_default():
                self.export_meta_graph(filename, strip_default_attrs=strip_default_attrs)
        if not self._is_empty and write_state:
            self._record_last_checkpoint(model_checkpoint_path)
            checkpoint_management.update_checkpoint_state_internal(
                save_dir=save_path_parent, model_checkpoint_path=model_checkpoint_path,
                all_model_checkpoint_paths=self.last_checkpoints, latest_filename=latest_filename,
                save_relative_paths=self._save_relative_paths)
            self._maybe_delete_old_checkpoints(meta_graph_suffix)
        return model_checkpoint_path

    @staticmethod
    def _remove_stale_temporaries(save_path, latest_filename, meta_graph_suffix):
        """Removes the temporary files that saves under `save_path` (any step) killed midway left in
        its directory: of the data, index and meta graph files, and of the state file."""
        base = re.escape(os.path.basename(save_path))
        files = r"%s(?:-\d+)?\.(?:index|data-\d{5}-of-\d{5}|%s)|%s" % (base, re.escape(meta_graph_suffix),
                                                                     re.escape(latest_filename))
        for path in tensor_bundle.remove_stale_temporaries(os.path.dirname(save_path),
                                                           tensor_bundle.temporary_pattern(files)):
            logging.info("Removed %s, left by an interrupted save", path)

    def restore(self, sess, save_path):
        """Restores the variables from the checkpoint `save_path` into `sess` (they need not be
        initialized: restoring initializes them).

        Raises:
          ValueError: If `save_path` is None or not an existing checkpoint.
          NotFoundError: If a variable's name is missing from the checkpoint (the message names it).
          InvalidArgumentError: If a stored tensor's shape or dtype differs from its variable's.
        """
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        prefix = os.fspath(save_path)
        if not checkpoint_exists(prefix):
            raise ValueError("The passed save_path is not a valid checkpoint: " + prefix)
        logging.info("Restoring parameters from %s", prefix)
        try:
            sess.run(self.saver_def.restore_op_name, {self.saver_def.filename_tensor_name: prefix})
        except errors.NotFoundError as err:
            raise _wrap_restore_error_with_msg(err, "a Variable name or other graph key that is missing") from err
        except errors.InvalidArgumentError as err:
            raise _wrap_restore_error_with_msg(err, "a mismatch between the current graph and the graph") from err

    def export_meta_graph(self, filename=None, collection_list=None, as_text=False, export_scope=None,
                          clear_devices=False, clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False):
        """Writes the default graph, its collections and this saver's `SaverDef` to `filename`.

        Returns:
          The `MetaGraphDef`.
        """
        return export_meta_graph(filename=filename, saver_def=self.to_proto(export_scope),
                                 collection_list=collection_list, as_text=as_text, export_scope=export_scope,
                                 clear_devices=clear_devices, strip_default_attrs=strip_default_attrs)


def _check_meta_graph_mode():
    from ..eager.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("Exporting/importing meta graphs is not supported when eager execution is enabled. No "
                           "graph exists when eager execution is enabled.")


def _check_graph_mode(what):
    from ..eager.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("%s is not supported when eager execution is enabled: save and restore ops would run "
                           "as they are built. Build the graph with eager execution disabled." % what)


def _wrap_restore_error_with_msg(err, extra_verbiage):
    msg = ("Restoring from checkpoint failed. This is most likely due to {} from the checkpoint. Please ensure that "
           "you have not altered the graph expected based on the checkpoint. Original error:\n\n{}"
           ).format(extra_verbiage, err.message)
    return err.__class__(err.node_def, err.op, msg)


def _get_saver_or_default():
    """The saver of the SAVERS collection, or a new sharded one (allow_empty) added to it.

    Raises:
      RuntimeError: If the collection holds more than one saver.
    """
    savers = ops.get_collection(ops.GraphKeys.SAVERS)
    if savers:
        if len(savers) > 1:
            raise RuntimeError("More than one item in collection {}. Please indicate which one to use by passing it "
                               "to the constructor.".format(ops.GraphKeys.SAVERS))
        return savers[0]
    saver = Saver(sharded=True, allow_empty=True)
    ops.add_to_collection(ops.GraphKeys.SAVERS, saver)
    return saver


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None, collection_list=None,
                      as_text=False, graph=None, export_scope=None, clear_devices=False,
                      clear_extraneous_savers=False, strip_default_attrs=False, save_debug_info=False, **kwargs):
    """Serializes `graph` (default: the default graph), its collections and `saver_def`, and writes
    them to `filename` if given (see `meta_graph` for the format).

    Args:
      filename: Path of the `.meta` file to write (atomically).
      meta_info_def: Extra entries for the meta info.
      graph_def: A `graph_def` of another `MetaGraphDef` to write instead of `graph`'s.
      saver_def: The `SaverDef` to record.
      collection_list: The collection keys to record (default: all).
      as_text: Write the protobuf text format instead of the binary one.
      graph: The graph (default: the default graph).
      export_scope: Export only ops under this name scope, with it stripped from names.
      clear_devices: Drop the ops' devices.
      strip_default_attrs: Leave out attributes whose value is TF's default for the op.
      clear_extraneous_savers, save_debug_info: Accepted for compatibility.

    Returns:
      The `MetaGraphDef`.

    Raises:
      ValueError: If an op under `export_scope` reads a tensor outside it.
      RuntimeError: If eager execution is enabled.
    """
    _check_meta_graph_mode()
    meta, _ = meta_graph.export_scoped_meta_graph(filename=filename, graph_def=graph_def, graph=graph,
                                                  export_scope=export_scope, as_text=as_text, saver_def=saver_def,
                                                  clear_devices=clear_devices, collection_list=collection_list,
                                                  meta_info_def=meta_info_def,
                                                  strip_default_attrs=strip_default_attrs)
    return meta


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None, *, trusted_modules=None, **kwargs):
    """Recreates a saved graph in the default graph and returns a Saver for its variables.

    The ops are rebuilt through the op registry with their attributes, devices and refined static
    shapes; collections (variables, trainable variables, tensors, ops, savers) are restored.

    A file never runs code on its own: a py_func gets its function back, and a custom op type that
    is not registered has its declaring module imported, only when the module is in
    `trusted_modules`; otherwise the import fails naming the op and the module. A py_func whose
    function was not recordable (a lambda) or is not found in its trusted module is imported with a
    warning, and running that op raises an error naming the function. An op whose attributes
    could not be serialized (Python objects, e.g. a dataset) is likewise replaced by one that raises
    UnimplementedError naming it when run.

    Args:
      meta_graph_or_file: A `MetaGraphDef` protocol buffer or the path of a binary or text `.meta` file
        (written by TensorFlow or tensorweave).
      clear_devices: Drop the recorded devices.
      import_scope: Name scope to put the imported ops under.
      trusted_modules: Module names (a name covers its submodules, e.g. `["my_project"]`) whose
        Python code the meta graph may import and call: the functions of its py_funcs and the
        modules declaring its custom op types. Pass only modules of your own: a crafted `.meta`
        file can name any function of a trusted module. Default: none.
      **kwargs: `input_map` ({tensor name in the saved graph: tensor to use instead}).

    Returns:
      A `Saver` over the imported save/restore ops, a default `Saver` if the meta graph has
      variables but no saver, or None if it has no variables.

    Raises:
      OSError: If the file cannot be read.
      ValueError: If it holds an op that needs Python code from a module not in `trusted_modules`.
      TypeError: If `trusted_modules` holds something other than module names.
      tf.errors.NotFoundError: If it holds an op type that is not registered.
      tf.errors.DataLossError: If it is damaged: not a MetaGraphDef, or a value in it (a constant,
        a record, a collection item, a name) that is undecodable or names nothing; the message
        names the file.
      tf.errors.InvalidArgumentError: If the graph it holds is inconsistent (an unknown input, a
        missing attr, shapes an op refuses); the message names the file.
      RuntimeError: If eager execution is enabled.
    """
    _check_meta_graph_mode()
    meta, source = meta_graph._as_meta_graph(meta_graph_or_file)
    var_list, mapped = meta_graph.import_scoped_meta_graph(meta, source=source,
                                                           clear_devices=clear_devices, import_scope=import_scope,
                                                           input_map=kwargs.get("input_map"),
                                                           trusted_modules=trusted_modules)
    if meta.HasField("saver_def"):
        sd = SaverDef()
        sd.CopyFrom(meta.saver_def)
        with meta_graph._content_errors(source):
            return Saver(saver_def=meta_graph._mapped_saver_def(sd, mapped))
    if var_list or _all_saveable_objects(scope=import_scope):
        return Saver()
    logging.info("Saver not created because there are no variables in the graph to restore")
    return None
