"""The AutoGraph API: `convert`, `to_graph`, `to_code`, `do_not_convert`, and `converted_call`, which
converted code uses to call other functions."""

import enum
import functools
import inspect
import sys
import types
import warnings

from ...eager import function as eager_function
from ...framework import ops
from ..core import effects
from ..core.converter import ConversionOptions
from ..operators import py_builtins
from ..pyct import origin_info
from . import conversion
from .conversion import ConversionError

# Modules whose functions converted code calls as they are.
_LIBRARY_ROOTS = frozenset(("tensorweave", "numpy", "scipy", "pytest", "_pytest")) | frozenset(
    getattr(sys, "stdlib_module_names", ()))
_EFFECT_OPS = frozenset(("PrintV2", "Assert"))


class RunMode(enum.Enum):
    """How `do_not_convert` runs a function: as is (GRAPH) or inside a `tf.py_func` (PY_FUNC)."""
    GRAPH = 1
    PY_FUNC = 2


def _is_artifact(f):
    return getattr(f, "_ag_artifact", False) or getattr(f, "_ag_converted", False)


def _is_library(f):
    module = getattr(f, "__module__", None)
    if module is None:  # e.g. made by exec: user code
        return False
    if not isinstance(module, str):
        return True
    return module.split(".", 1)[0] in _LIBRARY_ROOTS


def _call_unconverted(f, args, kwargs):
    result = f(*args, **kwargs)
    if isinstance(result, ops.Operation) and result.type in _EFFECT_OPS:
        # tf.print / tf.Assert called from converted code: run it with the function's results.
        effects.record(result)
    return result


def _convert_entity(f, options):
    """`(converted_callable)` for a user function, bound method or callable object, or None."""
    if inspect.ismethod(f):
        target = f.__func__
        if not inspect.isfunction(target) or _is_artifact(target) or _is_library(target):
            return None
        return types.MethodType(conversion.convert_function(target, options), f.__self__)
    if inspect.isfunction(f):
        if _is_library(f):
            return None
        return conversion.convert_function(f, options)
    if not inspect.isclass(f) and callable(f):
        call = getattr(type(f), "__call__", None)
        if inspect.isfunction(call) and not _is_artifact(call) and not _is_library(call):
            return types.MethodType(conversion.convert_function(call, options), f)
    return None


def converted_call(f, args, kwargs, caller_fn_scope=None, options=None):
    """Calls `f` from converted code, converting it first if it is a user function.

    Builtins with a converted-code version (`len`, `range`, `print`, ...) use it; functions of
    TensorFlow, NumPy and the standard library, functions marked `do_not_convert`, and everything
    when the conversion is not recursive, are called as they are.

    Args:
      f: The callable.
      args: Tuple of positional arguments.
      kwargs: Dict of keyword arguments, or None.
      caller_fn_scope: The calling function's `FunctionScope` (gives the conversion options).
      options: `ConversionOptions` overriding the caller's.

    Returns:
      What the call returns.
    """
    if options is None:
        options = caller_fn_scope.callopts if caller_fn_scope is not None else ConversionOptions(recursive=True)
    kwargs = kwargs or {}
    if _is_artifact(f):
        return f(*args, **kwargs)
    overload = py_builtins.overload_of(f)
    if overload is not f:
        return overload(*args, **kwargs)
    if not options.recursive or inspect.isbuiltin(f) or inspect.isclass(f):
        return _call_unconverted(f, args, kwargs)
    if isinstance(f, functools.partial):
        return converted_call(f.func, tuple(f.args) + tuple(args), {**f.keywords, **kwargs}, caller_fn_scope,
                              options)
    try:
        converted = _convert_entity(f, options)
    except ConversionError as e:
        cause = e.__cause__
        if not (isinstance(cause, NotImplementedError) and "lambda" in str(cause)):
            warnings.warn("AutoGraph could not transform %r and will run it as-is: %s" % (f, e), stacklevel=2)
        converted = None
    if converted is None:
        return _call_unconverted(f, args, kwargs)
    return converted(*args, **kwargs)


def _call_with_rewritten_errors(fn, args, kwargs):
    try:
        return fn(*args, **kwargs)
    except Exception as e:
        origin_info.rewrite_error(e)
        raise


def _wrap(original, converted):
    """The function users call: runs `converted`, with errors pointing at the user's source."""
    @functools.wraps(original)
    def wrapper(*args, **kwargs):
        return _call_with_rewritten_errors(converted, args, kwargs)

    wrapper._ag_artifact = True
    wrapper.ag_converted = converted
    return wrapper


def _target_function(entity):
    while _is_artifact(entity) and hasattr(entity, "__wrapped__") and not getattr(entity, "_ag_do_not_convert", 0):
        entity = entity.__wrapped__  # an already converted function: its original
    if inspect.ismethod(entity):
        return entity.__func__, entity.__self__
    if inspect.isfunction(entity):
        return entity, None
    raise ValueError("Cannot convert %r: AutoGraph converts functions, methods and classes" % (entity,))


def to_graph(entity, recursive=True, verbose=False, arg_values=None, arg_types=None, partial_types=None,
             experimental_optional_features=None):
    """Converts a Python function (or method, or class) into one that builds TensorFlow graph code.

    In the converted function, `if`, `while` and `for` statements whose condition or iterable is
    a Tensor become `tf.cond`/`tf.while_loop`; on Python values they stay Python. `break`,
    `continue` and `return` work inside them; `==`, `!=`, `and`, `or`, `not` on Tensors become
    `tf.equal`, `tf.not_equal`, `tf.logical_and/or/not`; `print` and `assert` become `tf.print`
    and `tf.Assert` (run with the function's results); lists marked with `set_element_type`
    become TensorArrays.

    Args:
      entity: A Python function, method, or class (whose methods are converted).
      recursive: Whether functions the converted code calls are converted too.
      verbose: Whether to log the converted code.
      arg_values: Accepted for compatibility.
      arg_types: Accepted for compatibility.
      partial_types: Accepted for compatibility.
      experimental_optional_features: Accepted for compatibility.

    Returns:
      The converted function (method, class), with the same signature.

    Raises:
      ConversionError: If the entity cannot be converted; the message names its source location.
      ValueError: If the entity is not a function, method or class.
    """
    del arg_values, arg_types, partial_types, experimental_optional_features
    options = ConversionOptions(recursive=recursive)
    if inspect.isclass(entity):
        members = {}
        for name, value in vars(entity).items():
            if inspect.isfunction(value) and not _is_artifact(value):
                members[name] = _wrap(value, conversion.convert_function(value, options))
        return type(entity.__name__, (entity,), members)
    if getattr(entity, "_ag_do_not_convert", False):
        return entity
    fn, bound_to = _target_function(entity)
    converted = conversion.convert_function(fn, options)
    if verbose:
        import logging
        logging.getLogger("tensorflow").info("Converted code of %s:\n%s", fn.__name__,
                                             conversion.source_of(fn, options, "  "))
    wrapper = _wrap(fn, converted)
    return types.MethodType(wrapper, bound_to) if bound_to is not None else wrapper


eager_function.set_autograph_converter(to_graph)  # tf.function(autograph=True) converts with it


def to_code(entity, recursive=True, arg_values=None, arg_types=None, indentation="  ",
            experimental_optional_features=None, partial_types=None):
    """Returns the source code of the graph-building version of a function (see `to_graph`).

    Args:
      entity: A Python function or method.
      recursive: Whether functions the converted code calls are converted too (they are converted
        when called, so their code is not included).
      arg_values: Accepted for compatibility.
      arg_types: Accepted for compatibility.
      indentation: The string used for one level of indentation.
      experimental_optional_features: Accepted for compatibility.
      partial_types: Accepted for compatibility.

    Returns:
      The source code (a string), a function named `tf__<name>`.

    Raises:
      ConversionError: If the entity cannot be converted.
    """
    del arg_values, arg_types, experimental_optional_features, partial_types
    fn, _ = _target_function(entity)
    return conversion.source_of(fn, ConversionOptions(recursive=recursive), indentation) + "\n"


def convert(recursive=True, verbose=False, arg_types=None, optional_features=None):
    """Decorator that converts a function with AutoGraph (see `to_graph`) when it is called.

    Args:
      recursive: Whether functions the converted code calls are converted too (default True, as
        the seed-era `tf.contrib.autograph.convert`; TF2's default is False).
      verbose: Accepted for compatibility.
      arg_types: Accepted for compatibility.
      optional_features: Accepted for compatibility.

    Returns:
      A decorator.
    """
    del verbose, arg_types, optional_features
    options = ConversionOptions(recursive=recursive)

    def decorator(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            if inspect.isfunction(f):
                converted = conversion.convert_function(f, options)
            else:
                converted = _convert_entity(f, options) or f
            return _call_with_rewritten_errors(converted, args, kwargs)

        wrapper._ag_artifact = True
        return wrapper

    return decorator


def do_not_convert(func=None, run_as=RunMode.GRAPH, return_dtypes=None):
    """Decorator marking a function that AutoGraph must not convert (it is called as is).

    Usable as `@do_not_convert`, `@do_not_convert()` or `@do_not_convert(run_as=RunMode.PY_FUNC,
    return_dtypes=...)`.

    Args:
      func: The function (when used without parentheses).
      run_as: `RunMode.GRAPH` calls it as is; `RunMode.PY_FUNC` runs it inside a `tf.py_func`
        (its Tensor arguments arrive as NumPy values).
      return_dtypes: With PY_FUNC, the dtype (or list of dtypes) the function returns; None gives a
        dummy int32 result that can be used as a control dependency.

    Returns:
      The wrapped function, or a decorator.

    Raises:
      ValueError: If `run_as` is not a `RunMode`.
    """
    if isinstance(func, RunMode):
        func, run_as = None, func
    if not isinstance(run_as, RunMode):
        raise ValueError("unknown value for run_as: %s" % (run_as,))
    if func is None:
        return lambda f: do_not_convert(f, run_as=run_as, return_dtypes=return_dtypes)

    if run_as is RunMode.GRAPH:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            return func(*args, **kwargs)
    else:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            import numpy as np

            from ...framework import dtypes
            from ...ops import script_ops
            if kwargs:
                raise NotImplementedError("RunMode.PY_FUNC does not support keyword arguments")
            if return_dtypes:
                return script_ops.py_func(func, list(args), return_dtypes)
            return script_ops.py_func(lambda *a: (func(*a), np.int32(0))[1], list(args), dtypes.int32)

    wrapper._ag_artifact = True
    wrapper._ag_do_not_convert = True
    return wrapper
