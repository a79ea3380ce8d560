"""`tf.contrib.framework`: argument scopes (`arg_scope`, `add_arg_scope`), the model-variable
helpers (`variable`, `model_variable`, `get_variables*`), the global step and `nest`, as TF 1.x.

`arg_scope([f, g], k=v)` makes `k=v` the default keyword argument of the functions `f` and `g`
(decorated with `add_arg_scope`) inside the block; explicit arguments win, inner scopes override
outer ones. As in TF the scope stack is one for the whole program (not per thread).
"""

import contextlib as _contextlib
import functools as _functools

from ..framework import dtypes as _dtypes
from ..framework import ops as _ops
from ..framework.ops import GraphKeys as _GraphKeys
from ..ops import nest
from ..train.training_util import get_global_step, get_or_create_global_step
from ..variable_scopes import VariableScope as _VariableScope
from ..variable_scopes import get_variable as _get_variable
from ..variable_scopes import get_variable_scope as _get_variable_scope

__all__ = ["add_arg_scope", "arg_scope", "arg_scope_func_key", "arg_scoped_arguments", "current_arg_scope",
           "get_global_step",
           "get_local_variables", "get_model_variables", "get_or_create_global_step", "get_trainable_variables",
           "get_unique_variable", "get_variables", "get_variables_by_name", "get_variables_by_suffix",
           "has_arg_scope", "model_variable", "nest", "variable"]

# ---- arg_scope -------------------------------------------------------------------------------------
_ARGSTACK = [{}]
_DECORATED_OPS = {}


def _arg_stack():
    if not _ARGSTACK:
        _ARGSTACK.append({})
    return _ARGSTACK


def current_arg_scope():
    """The innermost arg scope: a dict from function keys to their default keyword arguments."""
    return _arg_stack()[-1]


def arg_scope_func_key(op):
    """The key of the function `op` in an arg scope's dict."""
    return getattr(op, "_key_op", str(op))


_key = arg_scope_func_key


def _name_op(op):
    return (op.__module__, op.__name__)


def _kwarg_names(func):
    n_defaults = len(func.__defaults__) if func.__defaults__ else 0
    return func.__code__.co_varnames[func.__code__.co_argcount - n_defaults:func.__code__.co_argcount]


@_contextlib.contextmanager
def arg_scope(list_ops_or_scope, **kwargs):
    """Stores the default keyword arguments `kwargs` for the functions in `list_ops_or_scope`.

    Example:

        with tf.contrib.framework.arg_scope([tf.contrib.layers.fully_connected], activation_fn=None):
            y = tf.contrib.layers.fully_connected(x, 10)   # activation_fn=None

    Args:
      list_ops_or_scope: A list or tuple of functions decorated with `add_arg_scope`, or a scope
        (the dict an earlier `arg_scope` yielded) to enter again.
      **kwargs: The default keyword arguments of those functions (none when re-entering a scope).

    Yields:
      The current scope (a dict), which can be entered again later.

    Raises:
      TypeError: If `list_ops_or_scope` is neither a list/tuple nor a dict.
      ValueError: If a function is not decorated with `add_arg_scope`, or keyword arguments are
        given together with a scope dict.
    """
    if isinstance(list_ops_or_scope, dict):
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a dictionary, kwargs must be empty.")
        current_scope = list_ops_or_scope.copy()
    else:
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError("list_ops_or_scope must either be a list/tuple or reused scope (i.e. dict)")
        current_scope = current_arg_scope().copy()
        for op in list_ops_or_scope:
            if not has_arg_scope(op):
                raise ValueError("%s is not decorated with @add_arg_scope" % (_name_op(op),))
            key = _key(op)
            merged = dict(current_scope.get(key, {}))
            merged.update(kwargs)
            current_scope[key] = merged
    _arg_stack().append(current_scope)
    try:
        yield current_scope
    finally:
        _arg_stack().pop()


def add_arg_scope(func):
    """Decorates a function so that `arg_scope` can give it default keyword arguments.

    Args:
      func: The function.

    Returns:
      The decorated function (same name, docstring and signature).
    """
    key = _key(func)

    @_functools.wraps(func)
    def func_with_args(*args, **kwargs):
        scope = current_arg_scope()
        if key in scope:
            current_args = dict(scope[key])
            current_args.update(kwargs)
            kwargs = current_args
        return func(*args, **kwargs)

    _DECORATED_OPS[key] = _kwarg_names(func)
    func_with_args._key_op = key
    return func_with_args


def has_arg_scope(func):
    """Whether `func` is decorated with `add_arg_scope`."""
    return _key(func) in _DECORATED_OPS


def arg_scoped_arguments(func):
    """The names of the keyword arguments (those with defaults) of a function decorated with
    `add_arg_scope`.

    Raises:
      ValueError: If `func` is not decorated with `add_arg_scope`.
    """
    if not has_arg_scope(func):
        raise ValueError("%s is not decorated with @add_arg_scope" % (_name_op(func),))
    return _DECORATED_OPS[_key(func)]


# ---- variables ---------------------------------------------------------------------------------------
@add_arg_scope
def variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True, collections=None,
             caching_device=None, device=None, partitioner=None, custom_getter=None, use_resource=None,
             synchronization=None, aggregation=None):
    """Gets an existing variable with these parameters or creates a new one (`tf.get_variable` in
    the current variable scope, on `device`).

    Args:
      name: The name of the new or existing variable.
      shape: Shape of the new or existing variable.
      dtype: Type of the new or existing variable (defaults to `DT_FLOAT`).
      initializer: Initializer for the variable if one is created.
      regularizer: A (Tensor -> Tensor or None) function; the result of applying it on a newly
        created variable will be added to the collection GraphKeys.REGULARIZATION_LOSSES.
      trainable: If `True` also add the variable to the graph collection TRAINABLE_VARIABLES.
      collections: A list of collection names to which the Variable will be added (default
        GLOBAL_VARIABLES).
      caching_device, partitioner, use_resource, synchronization, aggregation: Accepted for
        compatibility.
      device: Optional device to place the variable.
      custom_getter: Callable that allows overwriting the internal get_variable method; called with
        the arguments of `tf.get_variable` and `reuse` (the current scope's).

    Returns:
      The created or existing variable.

    Raises:
      ValueError: As `tf.get_variable`.
    """
    collections = list(collections if collections is not None else [_GraphKeys.GLOBAL_VARIABLES])
    collections = list(dict.fromkeys(collections))  # remove duplicates
    getter = _get_variable
    if custom_getter is not None:
        getter = _functools.partial(custom_getter, reuse=_get_variable_scope().reuse)
    with _ops.device(device or ""):
        return getter(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                      trainable=trainable, collections=collections)


@add_arg_scope
def model_variable(name, shape=None, dtype=_dtypes.float32, initializer=None, regularizer=None, trainable=True,
                   collections=None, caching_device=None, device=None, partitioner=None, custom_getter=None,
                   use_resource=None, synchronization=None, aggregation=None):
    """Gets an existing model variable with these parameters or creates a new one: a `variable`
    also in the MODEL_VARIABLES collection.

    Args:
      name: The name of the new or existing variable.
      shape: Shape of the new or existing variable.
      dtype: Type of the new or existing variable (defaults to `DT_FLOAT`).
      initializer: Initializer for the variable if one is created.
      regularizer: A (Tensor -> Tensor or None) function; the result of applying it on a newly
        created variable will be added to the collection GraphKeys.REGULARIZATION_LOSSES.
      trainable: If `True` also add the variable to the graph collection TRAINABLE_VARIABLES.
      collections: A list of collection names to which the Variable will be added; GLOBAL_VARIABLES
        and MODEL_VARIABLES are always added.
      caching_device, partitioner, use_resource, synchronization, aggregation: Accepted for
        compatibility.
      device: Optional device to place the variable.
      custom_getter: As in `variable`.

    Returns:
      The created or existing variable.

    Raises:
      ValueError: As `tf.get_variable`.
    """
    collections = list(collections or [])
    collections += [_GraphKeys.GLOBAL_VARIABLES, _GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                    trainable=trainable, collections=collections, device=device, custom_getter=custom_getter)


def get_variables(scope=None, suffix=None, collection=_GraphKeys.GLOBAL_VARIABLES):
    """Gets the list of variables, filtered by scope and/or suffix.

    Args:
      scope: An optional scope (a `VariableScope` or a regular expression matched from the start of
        the variables' names) for filtering the variables to return.
      suffix: An optional suffix for filtering the variables to return.
      collection: The collection to search in (default GLOBAL_VARIABLES).

    Returns:
      A list of variables in the collection with scope and suffix.
    """
    if isinstance(scope, _VariableScope):
        scope = scope.name
    if suffix is not None:
        if ":" not in suffix:
            suffix += ":"
        scope = (scope or "") + ".*" + suffix
    return _ops.get_collection(collection, scope)


def get_model_variables(scope=None, suffix=None):
    """Gets the list of model variables (MODEL_VARIABLES), filtered by scope and/or suffix."""
    return get_variables(scope, suffix, _GraphKeys.MODEL_VARIABLES)


def get_local_variables(scope=None, suffix=None):
    """Gets the list of local variables (LOCAL_VARIABLES), filtered by scope and/or suffix."""
    return get_variables(scope, suffix, _GraphKeys.LOCAL_VARIABLES)


def get_trainable_variables(scope=None, suffix=None):
    """Gets the list of trainable variables (TRAINABLE_VARIABLES), filtered by scope and/or suffix."""
    return get_variables(scope, suffix, _GraphKeys.TRAINABLE_VARIABLES)


def get_variables_by_suffix(suffix, scope=None):
    """Gets the list of variables whose names end with `suffix` (in `scope`)."""
    return get_variables(scope=scope, suffix=suffix)


def get_variables_by_name(given_name, scope=None):
    """Gets the list of variables named `given_name` (the last component of their names).

    Args:
      given_name: The name given to the variable without any scope (e.g. "weights").
      scope: An optional scope for filtering the variables to return.

    Returns:
      A copied list of variables with the given name and scope.
    """
    suffix = "/" + given_name + ":|^" + given_name + ":"
    return get_variables(scope=scope, suffix=suffix)


def get_unique_variable(var_op_name):
    """Gets the variable uniquely identified by its op name (e.g. "conv1/weights").

    Raises:
      ValueError: If no variable or more than one variable matches.
    """
    candidates = get_variables(scope=var_op_name)
    if not candidates:
        raise ValueError("Couldn't find variable %s" % var_op_name)
    for candidate in candidates:
        if candidate.op.name == var_op_name:
            return candidate
    raise ValueError("Variable %s does not uniquely identify a variable" % var_op_name)


# ---- the rest of TF 1.15's contrib.framework variable helpers (shared with slim) ---------------------
from .framework_variables import (  # noqa: E402
    add_model_variable,
    assert_global_step,
    assert_or_get_global_step,
    assign_from_checkpoint,
    assign_from_checkpoint_fn,
    assign_from_values,
    assign_from_values_fn,
    create_global_step,
    filter_variables,
    get_variable_full_name,
    get_variables_to_restore,
    global_variable,
    local_variable,
)

__all__ += ["add_model_variable", "assert_global_step", "assert_or_get_global_step", "assign_from_checkpoint",
            "assign_from_checkpoint_fn", "assign_from_values", "assign_from_values_fn", "create_global_step",
            "filter_variables", "get_variable_full_name", "get_variables_to_restore", "global_variable",
            "local_variable"]
