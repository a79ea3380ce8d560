"""`tf.py_func` / `tf.numpy_function`: a Python function as a graph op (op type "PyFunc")."""

import itertools
import traceback

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op
from ..platform import fpstate
from .core_ops import _tf_type_name

_tokens = itertools.count()


def _py_func_infer(op):
    return [(dt, None) for dt in op._attrs["Tout"]]


def _py_func_kernel(ctx, op, *args, token, Tin, Tout):  # noqa: N803 (TF's attr names)
    func = op._graph._py_funcs[token]
    # TF hands 0-d values over as NumPy scalars, and never lets the function write into a shared buffer.
    args = [a[()] if a.ndim == 0 else a if a.flags.writeable else a.copy() for a in map(np.asarray, args)]
    try:
        ret = fpstate.call_with_user_state(func, *args)
    except Exception as e:
        cls = errors.from_python_exception(e)
        tb = "".join(traceback.format_exception(type(e), e, e.__traceback__))
        # The message carries the user's traceback, as TF's; chaining `e` too would print it twice.
        raise cls(None, op, "%s: %s\n%s" % (type(e).__name__, e, tb)) from None
    if not Tout:
        return ()
    if not isinstance(ret, (list, tuple)):
        ret = [ret]
    if len(ret) != len(Tout):
        raise errors.InvalidArgumentError(None, op, "%s returns %d values, but expects to see %d values."
                                          % (token, len(ret), len(Tout)))
    out = []
    for i, (v, dt) in enumerate(zip(ret, Tout)):
        if dt is dtypes.string:
            from ..framework.constant_op import to_numpy
            a = to_numpy(v, dtypes.string)
        else:
            a = np.asarray(v)
            if a.dtype != dt.as_numpy_dtype:
                raise errors.InvalidArgumentError(
                    None, op, "%d-th value returned by %s is %s, but expects %s"
                    % (i, token, _tf_name(a.dtype), _tf_name(np.dtype(dt.as_numpy_dtype))))
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def _tf_name(npdtype):
    """TF's C++ name of a NumPy dtype ("float", "double", ...)."""
    try:
        return _tf_type_name(dtypes.as_dtype(npdtype))
    except TypeError:
        return str(npdtype)


# TF registers both as NotDifferentiable: tf.gradients gives None for their inputs unless a gradient
# is installed with gradient_override_map.
register_op("PyFunc", infer=_py_func_infer, kernel=_py_func_kernel, stateful=True, grad=NO_GRADIENT)
register_op("PyFuncStateless", infer=_py_func_infer, kernel=_py_func_kernel, stateful=True, grad=NO_GRADIENT)


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803 (TF's argument name)
    """Wraps a Python function taking and returning NumPy arrays as a graph op.

    Args:
      func: Called with one NumPy array per input; returns an array (or a list of arrays when
        `Tout` is a list).
      inp: The input tensors.
      Tout: A dtype, or a list/tuple of dtypes (then a list of tensors is returned).
      stateful: False creates a "PyFuncStateless" op.
      name: Op name.

    Returns:
      A tensor of unknown shape, or a list of them.

    Raises:
      At run time: InvalidArgumentError if a result's dtype differs from `Tout` (no silent cast,
      as in TF), and the tf.errors class matching an exception `func` raised (ValueError ->
      InvalidArgumentError, StopIteration -> OutOfRangeError, ...), with its Python traceback.

    The op is not differentiable (`tf.gradients` gives None for its inputs, as in TF) unless a
    gradient is installed with `gradient_override_map({"PyFunc": ...})`.
    """
    is_list = isinstance(Tout, (list, tuple))
    touts = [dtypes.as_dtype(t) for t in (Tout if is_list else [Tout])]
    inputs = [ops.convert_to_tensor(x) for x in (inp or [])]
    g = ops._graph_for(inputs[0].graph) if inputs else ops.get_default_graph()
    token = "pyfunc_%d" % next(_tokens)
    g._py_funcs[token] = func
    op = g._create_op("PyFunc" if stateful else "PyFuncStateless", inputs,
                      {"token": token, "Tin": [t.dtype for t in inputs], "Tout": touts}, name)
    if is_list:
        return list(op._outputs) if op._outputs else op
    return op._outputs[0]


def numpy_function(func, inp, Tout, name=None):  # noqa: N803
    """Same as `py_func` with stateful=True (TF's newer name)."""
    return py_func(func, inp, Tout, stateful=True, name=name)
