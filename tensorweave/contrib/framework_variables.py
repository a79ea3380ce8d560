"""The variable helpers TF 1.15's `tf.contrib.framework` and `tf.contrib.slim` share beyond
`framework.py`'s: the variables to restore, and assigning variables from a
checkpoint or from values, as TF 1.15."""

import re

from .. import tf_logging as logging
from ..framework import ops
from ..train.training_util import assert_global_step, create_global_step, get_global_step, get_or_create_global_step
from .framework import get_variables

__all__ = ["add_model_variable", "assert_global_step", "assert_or_get_global_step", "assign_from_checkpoint",
           "assign_from_checkpoint_fn", "assign_from_values", "assign_from_values_fn", "create_global_step",
           "filter_variables", "get_global_step", "get_or_create_global_step", "get_variable_full_name",
           "get_variables_to_restore", "global_variable", "local_variable"]


def assert_or_get_global_step(graph=None, global_step_tensor=None):
    """Verifies that `global_step_tensor` is a valid global step, or gets the graph's one.

    Args:
      graph: The graph to find the global step tensor for.
      global_step_tensor: The tensor to check for suitability as a global step. If None is given
        (the default), find a global step tensor.

    Returns:
      A tensor suitable as a global step, or `None` if none was provided and none was found.

    Raises:
      TypeError: If `global_step_tensor` is not a valid global step.
    """
    if global_step_tensor is None:
        global_step_tensor = get_global_step(graph)
    else:
        assert_global_step(global_step_tensor)
    return global_step_tensor


def _make_variable(initial_value, collections, validate_shape, name):
    from ..variables import Variable
    return Variable(initial_value, trainable=False, collections=collections, validate_shape=validate_shape,
                    name=name)


def local_variable(initial_value, validate_shape=True, name=None, use_resource=None):
    """Creates a non-trainable variable in the LOCAL_VARIABLES collection.

    Args:
      initial_value: See `tf.Variable`.
      validate_shape: See `tf.Variable`.
      name: See `tf.Variable`.
      use_resource: Accepted for compatibility.

    Returns:
      New variable.
    """
    return _make_variable(initial_value, [ops.GraphKeys.LOCAL_VARIABLES], validate_shape, name)


def global_variable(initial_value, validate_shape=True, name=None, use_resource=None):
    """Creates a non-trainable variable in the GLOBAL_VARIABLES collection.

    Args:
      initial_value: See `tf.Variable`.
      validate_shape: See `tf.Variable`.
      name: See `tf.Variable`.
      use_resource: Accepted for compatibility.

    Returns:
      New variable.
    """
    return _make_variable(initial_value, [ops.GraphKeys.GLOBAL_VARIABLES], validate_shape, name)


def add_model_variable(var):
    """Adds a variable to the `GraphKeys.MODEL_VARIABLES` collection (once).

    Args:
      var: a variable.
    """
    if all(var is not v for v in ops.get_collection(ops.GraphKeys.MODEL_VARIABLES)):
        ops.add_to_collection(ops.GraphKeys.MODEL_VARIABLES, var)


def get_variables_to_restore(include=None, exclude=None):
    """Gets the list of the variables to restore.

    Args:
      include: an optional list/tuple of scope strings for filtering which variables from the
        VARIABLES collection to include. None would include all the variables.
      exclude: an optional list/tuple of scope strings for filtering which variables from the
        VARIABLES collection to exclude. None it would not exclude any.

    Returns:
      a list of variables to restore.

    Raises:
      TypeError: include or exclude is provided but is not a list or a tuple.
    """
    if include is None:
        vars_to_include = get_variables()
    else:
        if not isinstance(include, (list, tuple)):
            raise TypeError("include is provided but is not a list or a tuple.")
        vars_to_include = []
        for scope in include:
            vars_to_include += get_variables(scope)
    excluded = []
    if exclude is not None:
        if not isinstance(exclude, (list, tuple)):
            raise TypeError("exclude is provided but is not a list or a tuple.")
        for scope in exclude:
            excluded += get_variables(scope)
    return [v for v in vars_to_include if all(v is not e for e in excluded)]


def get_variable_full_name(var):
    """Returns the full name of a variable: its name in a checkpoint (the full variable's name for
    a slice of a partitioned variable, else `var.op.name`).

    Args:
      var: A `Variable` object.

    Returns:
      A string that is the full name.
    """
    info = getattr(var, "_save_slice_info", None)
    return info.full_name if info else var.op.name


def filter_variables(var_list, include_patterns=None, exclude_patterns=None, reg_search=True):
    """Filter a list of variables using regular expressions on their names.

    Args:
      var_list: list of variables.
      include_patterns: list of regular expressions to include. Defaults to None, which means all
        variables are selected according to the include rules.
      exclude_patterns: list of regular expressions to exclude. Defaults to None, which means all
        variables are selected according to the exclude rules.
      reg_search: boolean. If True (default), performs `re.search`, else `re.match`.

    Returns:
      filtered list of variables.
    """
    fn = re.search if reg_search else re.match
    if include_patterns is None:
        included = list(var_list)
    else:
        included = [v for v in var_list if any(fn(p, v.name) for p in include_patterns)]
    if exclude_patterns is None:
        return included
    return [v for v in included if not any(fn(p, v.name) for p in exclude_patterns)]


def _find_variable(var_name):
    found = ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES, var_name)
    if not found:
        raise ValueError("Variable %s wasn't found" % var_name)
    if len(found) > 1:
        for v in found:
            if v.op.name == var_name:
                return v
        raise ValueError("Variable %s doesn't uniquely identify a variable" % var_name)
    return found[0]


def _placeholder_assign(var):
    from ..ops.core_ops import placeholder as make_placeholder
    placeholder = make_placeholder(dtype=var.dtype.base_dtype, shape=var.get_shape(),
                                        name="placeholder/" + var.op.name)
    return var.assign(placeholder), placeholder


def _group(assign_ops):
    from ..ops.core_ops import group
    return group(*assign_ops)


def assign_from_values(var_names_to_values):
    """Creates an assignment operation from a given mapping of variable names to values.

    Args:
      var_names_to_values: A map from variable names to values.

    Returns:
      assign_op: An `Operation` that assigns each of the given variables to the requested values.
      feed_dict: The feed dictionary to use when evaluating `assign_op`.

    Raises:
      ValueError: if any of the given variable names were not found.
    """
    feed_dict = {}
    assign_ops = []
    for var_name, value in var_names_to_values.items():
        var = _find_variable(var_name)
        op, placeholder = _placeholder_assign(var)
        assign_ops.append(op)
        feed_dict[placeholder] = value.reshape(var.get_shape().as_list())
    return _group(assign_ops), feed_dict


def assign_from_values_fn(var_names_to_values):
    """Returns a function `fn(session)` that assigns variables from the given values.

    Args:
      var_names_to_values: A map from variable names to values.

    Returns:
      A function that takes a single argument, a `tf.Session`, that applies the assignment
      operation.

    Raises:
      ValueError: if any of the given variable names were not found.
    """
    assign_op, feed_dict = assign_from_values(var_names_to_values)

    def callback(session):
        return session.run(assign_op, feed_dict)

    return callback


def assign_from_checkpoint(model_path, var_list, ignore_missing_vars=False):
    """Creates an operation to assign specific variables from a checkpoint.

    Args:
      model_path: The full path to the model checkpoint. To get latest checkpoint use
        `model_path = tf.train.latest_checkpoint(checkpoint_dir)`
      var_list: A list of (possibly partitioned) `Variable` objects or a dictionary mapping names
        in the checkpoint to the corresponding variables or list of variables to initialize from
        that checkpoint value.
      ignore_missing_vars: Boolean, if True ignore variables missing in the checkpoint with a
        warning instead of failing.

    Returns:
      the restore_op and the feed_dict that need to be run to restore var_list.

    Raises:
      ValueError: If `ignore_missing_vars` is False and the checkpoint specified at `model_path`
        is missing one of the variables in `var_list`, or a shape does not match.
    """
    from ..train.checkpoint_utils import load_checkpoint
    grouped = {}
    if isinstance(var_list, (tuple, list)):
        for var in var_list:
            grouped.setdefault(get_variable_full_name(var), []).append(var)
    else:
        for name, value in var_list.items():
            grouped[name] = list(value) if isinstance(value, (tuple, list)) else [value]
    reader = load_checkpoint(model_path)
    feed_dict = {}
    assign_ops = []
    for ckpt_name, variables in grouped.items():
        if not reader.has_tensor(ckpt_name):
            message = "Checkpoint is missing variable [%s]" % ckpt_name
            if ignore_missing_vars:
                logging.warning(message)
                continue
            raise ValueError(message)
        value = reader.get_tensor(ckpt_name)
        for var in variables:
            op, placeholder = _placeholder_assign(var)
            assign_ops.append(op)
            info = getattr(var, "_save_slice_info", None)
            if not info:
                if var.get_shape().as_list() != list(value.shape):
                    raise ValueError("Total size of new array must be unchanged for %s lh_shape: [%s], rh_shape: [%s]"
                                     % (ckpt_name, str(value.shape), str(var.get_shape())))
                feed_dict[placeholder] = value
            else:
                index = tuple(slice(start, start + size) for start, size in zip(info.var_offset, info.var_shape))
                feed_dict[placeholder] = value[index].reshape(info.var_shape)
    return _group(assign_ops), feed_dict


def assign_from_checkpoint_fn(model_path, var_list, ignore_missing_vars=False, reshape_variables=False):
    """Returns a function that assigns specific variables from a checkpoint (with a `tf.train.Saver`).

    If ignore_missing_vars is True and no variables are found in the checkpoint it returns None.

    Args:
      model_path: The full path to the model checkpoint. To get latest checkpoint use
        `model_path = tf.train.latest_checkpoint(checkpoint_dir)`
      var_list: A list of `Variable` objects or a dictionary mapping names in the checkpoint to
        the corresponding variables to initialize.
      ignore_missing_vars: Boolean, if True it would ignore variables missing in the checkpoint
        with a warning instead of failing.
      reshape_variables: Boolean, if True it would automatically reshape variables which are of
        different shape then the ones stored in the checkpoint but which have the same number of
        elements.

    Returns:
      A function that takes a single argument, a `tf.Session`, that applies the assignment
      operation. If no matching variables were found in the checkpoint then `None` is returned.

    Raises:
      ValueError: If var_list is empty.
    """
    from ..train.checkpoint_utils import load_checkpoint
    from ..train.saver import Saver
    if not var_list:
        raise ValueError("var_list cannot be empty")
    if ignore_missing_vars:
        reader = load_checkpoint(model_path)
        var_dict = var_list if isinstance(var_list, dict) else {v.op.name: v for v in var_list}
        available = {}
        for name, var in var_dict.items():
            if reader.has_tensor(name):
                available[name] = var
            else:
                logging.warning("Variable %s missing in checkpoint %s", name, model_path)
        var_list = available
    if not var_list:
        logging.warning("No Variables to restore")
        return None
    saver = Saver(var_list, reshape=reshape_variables)

    def callback(session):
        saver.restore(session, model_path)

    return callback
