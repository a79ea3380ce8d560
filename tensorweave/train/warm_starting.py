"""`tf.train.warm_start` and `tf.train.VocabInfo` (TF1's training/warm_starting_util.py): initialize
variables from a checkpoint, remapping embedding rows (or columns) when the vocabulary changed."""

import collections
import os

import numpy as np

from .. import tf_logging as logging
from ..framework import dtypes, ops
from .checkpoint_utils import _get_checkpoint_filename, init_from_checkpoint, load_checkpoint

__all__ = ["VocabInfo", "warm_start"]


class VocabInfo(collections.namedtuple("VocabInfo", ["new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab",
                                                     "old_vocab_size", "backup_initializer", "axis"])):
    """Vocabulary information for warm-starting (`tf.train.VocabInfo`).

    Args:
      new_vocab: Path of the new vocabulary file (one entry a line).
      new_vocab_size: How many entries of `new_vocab` are used.
      num_oov_buckets: The out-of-vocabulary buckets after the new vocabulary (rows or columns that
        always take the backup initializer).
      old_vocab: Path of the vocabulary file the checkpoint was trained with.
      old_vocab_size: How many entries of `old_vocab` are used (-1: all).
      backup_initializer: Initializer of the entries not found in the old vocabulary (default zeros).
      axis: 0 when the vocabulary indexes the variable's rows, 1 when it indexes its columns.

    Raises:
      ValueError: If `axis` is neither 0 nor 1.
    """

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size=-1,
                backup_initializer=None, axis=0):
        if axis != 0 and axis != 1:
            raise ValueError("The only supported values for the axis argument are 0 and 1.  Provided axis: {}"
                             .format(axis))
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab, old_vocab_size,
                               backup_initializer, axis)


def _is_variable(v):
    from ..variables import Variable
    return isinstance(v, Variable)


def _var_name(var):
    return var.op.name


def _read_vocab(path):
    with open(os.fspath(path), "rb") as f:
        return [line.rstrip(b"\n").decode("utf-8") for line in f]


def _vocab_remapping(new_vocab_file, old_vocab_file, new_vocab_offset, num_new_vocab, old_vocab_size=-1):
    """TF's GenerateVocabRemapping: for entries `new_vocab_offset ...` of the new vocabulary, the line
    of the same entry among the first `old_vocab_size` old ones (-1 when absent); and how many were found."""
    old = _read_vocab(old_vocab_file)
    if old_vocab_size != -1:
        if old_vocab_size > len(old):
            raise ValueError("Invalid vocab_size in %s: expected %d lines, got %d"
                             % (old_vocab_file, old_vocab_size, len(old)))
        old = old[:old_vocab_size]
    index = {}
    for i, key in enumerate(old):
        if key in index:
            raise ValueError("HashTable has different value for same key. Key %s has %d and trying to add value %d"
                             % (key, index[key], i))
        index[key] = i
    new = _read_vocab(new_vocab_file)
    if new_vocab_offset + num_new_vocab > len(new):
        raise ValueError("Trying to read %d entries from %s starting at line %d, but it has only %d lines"
                         % (num_new_vocab, new_vocab_file, new_vocab_offset, len(new)))
    remapping = np.array([index.get(key, -1) for key in new[new_vocab_offset:new_vocab_offset + num_new_vocab]],
                         np.int64)
    return remapping, int((remapping >= 0).sum())


def _load_and_remap_matrix(ckpt_path, old_tensor_name, num_rows_to_load, new_col_vocab_size, initializer,
                           old_row_vocab_size, old_row_vocab_file, new_row_vocab_file, old_col_vocab_file,
                           new_col_vocab_file, num_row_oov_buckets, num_col_oov_buckets):
    """The initial value of a remapped matrix (TF's checkpoint_ops._load_and_remap_matrix): entries
    found in the old checkpoint tensor are copied, the others take `initializer`'s values in row-major
    order, and OOV rows then columns are appended from `initializer`."""
    from ..ops import array_ops
    remap_rows = new_row_vocab_file and old_row_vocab_file
    remap_cols = new_col_vocab_file and old_col_vocab_file
    if remap_rows:
        row_remapping, num_rows_present = _vocab_remapping(new_row_vocab_file, old_row_vocab_file, 0,
                                                           num_rows_to_load, old_row_vocab_size)
    else:
        row_remapping, num_rows_present = np.arange(num_rows_to_load, dtype=np.int64), num_rows_to_load
    if remap_cols:
        col_remapping, num_cols_present = _vocab_remapping(new_col_vocab_file, old_col_vocab_file, 0,
                                                           new_col_vocab_size)
    else:
        col_remapping, num_cols_present = np.arange(new_col_vocab_size, dtype=np.int64), new_col_vocab_size
    old = np.asarray(load_checkpoint(ckpt_path).get_tensor(old_tensor_name))
    if old.ndim != 2:
        raise ValueError("Tensor %s in %s is not a matrix: %s" % (old_tensor_name, ckpt_path, old.shape))
    if row_remapping.size and row_remapping.max() >= old.shape[0]:
        raise ValueError("Row remapping reaches row %d of %s, which has %d rows"
                         % (row_remapping.max(), old_tensor_name, old.shape[0]))
    if not remap_cols and old.shape[1] != new_col_vocab_size:
        raise ValueError("Tensor %s in %s has %d columns, expected %d"
                         % (old_tensor_name, ckpt_path, old.shape[1], new_col_vocab_size))
    if col_remapping.size and col_remapping.max() >= old.shape[1]:
        raise ValueError("Column remapping reaches column %d of %s, which has %d columns"
                         % (col_remapping.max(), old_tensor_name, old.shape[1]))
    present = (row_remapping[:, None] >= 0) & (col_remapping[None, :] >= 0)
    values = old[np.maximum(row_remapping, 0)[:, None], np.maximum(col_remapping, 0)[None, :]].astype(np.float32)
    n_missing = num_rows_to_load * new_col_vocab_size - num_rows_present * num_cols_present
    init_vals = ops.convert_to_tensor(initializer([n_missing, 1]), dtype=dtypes.float32)
    flat_present = present.reshape(-1)
    index = np.empty(flat_present.size, np.int64)
    index[flat_present] = np.arange(int(flat_present.sum()))
    index[~flat_present] = int(flat_present.sum()) + np.arange(int((~flat_present).sum()))
    pool = array_ops.concat([ops.convert_to_tensor(values.reshape(-1)[flat_present]),
                             array_ops.reshape(init_vals, [-1])], 0)
    result = array_ops.reshape(array_ops.gather(pool, index), [num_rows_to_load, new_col_vocab_size])
    if num_row_oov_buckets > 0:
        oov = ops.convert_to_tensor(initializer([num_row_oov_buckets, new_col_vocab_size]), dtype=dtypes.float32)
        result = array_ops.concat([result, oov], 0)
    if num_col_oov_buckets > 0:
        oov = ops.convert_to_tensor(initializer([num_rows_to_load + num_row_oov_buckets, num_col_oov_buckets]),
                                    dtype=dtypes.float32)
        result = array_ops.concat([result, oov], 1)
    return result


def _warm_start_var_with_vocab(var, current_vocab_path, current_vocab_size, prev_ckpt, prev_vocab_path,
                               previous_vocab_size=-1, current_oov_buckets=0, prev_tensor_name=None, initializer=None,
                               axis=0):
    """Replaces `var`'s initializer by the checkpoint value of `prev_tensor_name` remapped from the
    old vocabulary to the new one along `axis` (TF's `_warm_start_var_with_vocab`)."""
    from ..ops import init_ops, state_ops
    if not (current_vocab_path and current_vocab_size and prev_ckpt and prev_vocab_path):
        raise ValueError("Invalid args: Must provide all of [current_vocab_path, current_vocab_size, prev_ckpt, "
                         "prev_vocab_path}.")
    if isinstance(var, list):
        if len(var) != 1:
            raise NotImplementedError("warm_start with vocabulary remapping of a partitioned variable (%d parts) "
                                      "is not supported" % len(var))
        var = var[0]
    if not _is_variable(var):
        raise TypeError("var MUST be one of the following: a Variable, list of Variable or PartitionedVariable, "
                        "but is {}".format(type(var)))
    if initializer is None:
        initializer = init_ops.zeros_initializer()
    if not callable(initializer):
        raise TypeError("initializer must be callable, instead of being {} of type {}."
                        .format(initializer, type(initializer)))
    if not prev_tensor_name:
        prev_tensor_name = _var_name(var)
    v_shape = var.get_shape().as_list()
    if var.dtype.base_dtype is not dtypes.float32:
        raise TypeError("Currently, only float32 is supported. Received dtype: {}".format(var.dtype.base_dtype))
    if len(v_shape) != 2:
        raise ValueError("Expected 2-dim shape, but received: {}".format(v_shape))
    if axis == 0:
        new_row_vocab_size, new_col_vocab_size = current_vocab_size, v_shape[1]
        row_files, col_files = (prev_vocab_path, current_vocab_path), (None, None)
        num_col_oov_buckets, old_row_vocab_size = 0, previous_vocab_size
    else:
        new_row_vocab_size, new_col_vocab_size = v_shape[0], current_vocab_size
        row_files, col_files = (None, None), (prev_vocab_path, current_vocab_path)
        num_col_oov_buckets, old_row_vocab_size = current_oov_buckets, -1
    if v_shape[0] <= 0:
        raise ValueError("Expected 1st dim of shape to be > 0, but received shape: {}".format(v_shape))
    if v_shape[1] != new_col_vocab_size + num_col_oov_buckets:
        raise ValueError("Expected 2nd dim of shape to be new_col_vocab_size ({}) + num_col_oov_buckets ({}) = {}, "
                         "but received shape: {}".format(new_col_vocab_size, num_col_oov_buckets,
                                                          new_col_vocab_size + num_col_oov_buckets, v_shape))
    row_oov = min(v_shape[0], max(0, v_shape[0] - new_row_vocab_size))
    g = var.graph
    with g.as_default(), g.control_dependencies(None):
        value = _load_and_remap_matrix(_get_checkpoint_filename(prev_ckpt), prev_tensor_name, v_shape[0] - row_oov,
                                       new_col_vocab_size, initializer, old_row_vocab_size, row_files[0], row_files[1],
                                       col_files[0], col_files[1], row_oov, num_col_oov_buckets)
        var._initializer_op = state_ops.assign(var._ref(), value).op


def _get_grouped_variables(vars_to_warm_start):
    """The variables to warm-start, grouped by name (TF's `_get_grouped_variables`)."""
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        logging.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
        list_of_vars = ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            list_of_vars = []
            for v in vars_to_warm_start:
                list_of_vars += ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, scope=v)
        elif all(_is_variable(v) for v in vars_to_warm_start):
            list_of_vars = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or all `str`.  Given types "
                             "are {}".format([type(v) for v in vars_to_warm_start]))
    else:
        raise ValueError("`vars_to_warm_start must be a `list` or `str`.  Given type is {}"
                         .format(type(vars_to_warm_start)))
    grouped = {}
    for v in list_of_vars:
        grouped.setdefault(_var_name(v), []).append(v)
    return grouped


def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Warm-starts a model: the initializers of the chosen variables load their values from a checkpoint
    (the variables of the model must already exist; run the initializers afterwards as usual).

    Args:
      ckpt_to_initialize_from: A checkpoint prefix, or a directory (its latest checkpoint).
      vars_to_warm_start: A regular expression matched (at the start) against the names of the
        TRAINABLE variables; a list of such expressions (matched against all global variables);
        a list of `Variable`s; or None (every trainable variable).
      var_name_to_vocab_info: A dict from variable name to `VocabInfo`: those variables (float32
        matrices) are remapped from the old vocabulary to the new one.
      var_name_to_prev_var_name: A dict from variable name to its name in the checkpoint.

    Raises:
      ValueError: If an entry of `var_name_to_vocab_info` or `var_name_to_prev_var_name` names no
        warm-started variable, a checkpoint tensor is missing, or shapes differ.
      TypeError: On a bad variable or initializer.
    """
    logging.info("Warm-starting from: {}".format(ckpt_to_initialize_from))
    grouped_variables = _get_grouped_variables(vars_to_warm_start)
    if var_name_to_vocab_info is None:
        var_name_to_vocab_info = {}
    if not var_name_to_prev_var_name:
        var_name_to_prev_var_name = {}
    warmstarted_count = 0
    prev_var_name_used = set()
    vocab_info_used = set()
    vocabless_vars = {}
    for var_name, variable in grouped_variables.items():
        prev_var_name = var_name_to_prev_var_name.get(var_name)
        if prev_var_name:
            prev_var_name_used.add(var_name)
        vocab_info = var_name_to_vocab_info.get(var_name)
        if vocab_info:
            vocab_info_used.add(var_name)
            warmstarted_count += 1
            _warm_start_var_with_vocab(
                variable, current_vocab_path=vocab_info.new_vocab, current_vocab_size=vocab_info.new_vocab_size,
                prev_ckpt=ckpt_to_initialize_from, prev_vocab_path=vocab_info.old_vocab,
                previous_vocab_size=vocab_info.old_vocab_size, current_oov_buckets=vocab_info.num_oov_buckets,
                prev_tensor_name=prev_var_name, initializer=vocab_info.backup_initializer, axis=vocab_info.axis)
        elif vars_to_warm_start:
            warmstarted_count += 1
            if len(variable) != 1:
                raise NotImplementedError("warm_start of a partitioned variable (%s, %d parts) is not supported"
                                          % (var_name, len(variable)))
            var = variable[0]
            prev_tensor_name = prev_var_name or var_name
            if prev_tensor_name in vocabless_vars:
                init_from_checkpoint(ckpt_to_initialize_from, vocabless_vars)
                vocabless_vars.clear()
            vocabless_vars[prev_tensor_name] = var
    if vocabless_vars:
        init_from_checkpoint(ckpt_to_initialize_from, vocabless_vars)
    prev_var_name_not_used = set(var_name_to_prev_var_name.keys()) - prev_var_name_used
    vocab_info_not_used = set(var_name_to_vocab_info.keys()) - vocab_info_used
    logging.info("Warm-started %d variables.", warmstarted_count)
    if prev_var_name_not_used:
        raise ValueError("You provided the following variables in var_name_to_prev_var_name that were not used: "
                         "{0}.  Perhaps you misspelled them?  Here is the list of viable variable names: {1}"
                         .format(prev_var_name_not_used, grouped_variables.keys()))
    if vocab_info_not_used:
        raise ValueError("You provided the following variables in var_name_to_vocab_info that were not used: {0}. "
                         " Perhaps you misspelled them?  Here is the list of viable variable names: {1}"
                         .format(vocab_info_not_used, grouped_variables.keys()))
