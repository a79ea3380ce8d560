"""Running one op at once: the op's registered `infer` validates the inputs and gives the output
dtypes, its kernel computes the values, and active tapes record it.

`run` is the direct path ops and operators take while executing eagerly: arguments to the bound
kernel with no graph, no name scope and no Operation record (one is made only for a recording tape
or an error); `infer` runs on the first call with a signature (op type, attributes, input dtypes
and shapes, small integer inputs) and its result is reused after, so eager and graph results come
from the same records and kernels."""

import numpy as np

from ..framework import dtypes, errors, ops, registry
from ..framework.constant_op import scalar_array
from ..platform import fpstate
from . import context, tape
from .tensor import EagerTensor, VariableHandle, make, make_variant

__all__ = ["execute_op", "execute_like", "run", "run_typed"]

_NO_SITE = ("<eager>", 0)


def _record(op_type, inputs, attrs, name, graph, grad_type, op_def=None):
    """An Operation record of an eager op: what infer, stateful kernels, tapes and gradient
    functions see (`inputs`, `outputs`, `get_attr`, `type`, `name`, `graph`)."""
    op = ops.Operation.__new__(ops.Operation)
    op._graph = graph
    op._name = name.rstrip("/") if name else op_type
    op._type = op_type
    op._inputs = inputs
    op._attrs = attrs
    op._op_def = op_def
    op._site = _NO_SITE
    op._grad_type = grad_type
    op._control_inputs = op._control_outputs = ()
    op._device = ""
    op._id = 0
    op._outputs = ()
    return op


_OPS = registry._OPS
_new = object.__new__
_next_uid = context.next_uid
_ndarray = np.ndarray
_run_quiet = fpstate.run_quiet
_fp_var, _FP_QUIET = fpstate.kernel_state()
_infer_cache = {}  # signature of a call (see `_signature`) -> the op's inferred output specs
_INFER_CACHE_MAX = 4096
_SMALL_INT = 8  # integer inputs up to this size (axes, shapes, perms) are part of a call's signature


def _signature(op_type, op_def, inputs, args, attrs):
    """What `infer` can depend on in a call: the op type, attributes, input dtypes and shapes, and
    the values of small integer inputs (axes, sizes); None when it cannot be keyed (non-array or
    string inputs, unhashable attributes). An elementwise op's dtypes decide its output dtypes, and
    a shape its kernel rejects is explained by `infer` after the kernel failed."""
    if op_def.elementwise:
        sig = [op_type]
        for t, a in zip(inputs, args):
            if type(a) is not _ndarray:
                return None
            sig.append(t._dtype._enum)
    else:
        sig = [op_type]
        for t, a in zip(inputs, args):
            if type(a) is not _ndarray:
                return None
            kind = a.dtype.kind
            if kind == "O":
                return None
            sig.append(t._dtype._enum)
            sig.append(a.shape)
            if kind in "iub" and a.size <= _SMALL_INT:
                sig.append(a.tobytes())
    if attrs:
        for k, v in attrs.items():
            sig.append(k)
            sig.append(tuple(v) if type(v) is list else v)
    return tuple(sig)


def run(op_type, inputs, attrs=None, name=None):
    """Runs a pure op on eager `inputs` straight from arguments to kernel: no graph, no name scope,
    and `infer` only on the first call with a signature (its result is cached) or to explain a
    kernel's failure.

    Returns:
      The list of output tensors; or, for an op the direct path does not take (stateful, reference
      inputs, non-eager inputs, first call), the Operation record `execute_op` returns.

    Raises:
      tf.errors.OpError: As `execute_op`.
    """
    op_def = _OPS.get(op_type)
    if op_def is None or op_def.stateful or op_def.ref_inputs or (tape._stack and op_def.records_for_gradient):
        return execute_op(op_type, inputs, attrs or {}, name)
    for t in inputs:
        if not isinstance(t, EagerTensor):
            return execute_op(op_type, inputs, attrs or {}, name)
    args = [t._value for t in inputs]
    try:
        sig = _signature(op_type, op_def, inputs, args, attrs)
        specs = _infer_cache.get(sig) if sig is not None else None
    except TypeError:  # an unhashable attribute
        sig = specs = None
    if not specs:  # unknown signature, or no outputs (the caller wants the op)
        return execute_op(op_type, inputs, attrs or {}, name)
    out = _call_pure(op_def.kernel, args, _kernel_attrs(attrs))
    if out is _FAILED:
        return execute_op(op_type, inputs, attrs or {}, name)  # explains the failure (infer, then the kernel)
    outputs = [_wrap(out, specs[0])] if len(specs) == 1 else [_wrap(v, s) for v, s in zip(out, specs)]
    if tape._stack:
        tape.record_direct(op_type, inputs, attrs, op_def, outputs)
    return outputs


def run_typed(op_type, inputs, attrs, dtype, name, kernel_attrs=None, kernel=None):
    """`run` for a caller that knows the op's single output dtype from the inputs' dtypes (an
    elementwise op on one dtype, a whole-tensor reduction, a matrix product): no signature and no
    `infer` unless the kernel fails. The caller guarantees a pure, registered op of one output and
    eager inputs holding arrays; a failure is explained by the full path (the registered kernel) as
    in `run`. `kernel_attrs`: `attrs` without the private ("_") ones, when the caller has them at
    hand. `kernel`: a specialisation of the op's kernel for these attributes that gives exactly its
    results (e.g. a whole-tensor sum as the one ufunc reduction the kernel calls).

    Returns:
      The output tensor.
    """
    op_def = _OPS[op_type]
    if tape._stack and op_def.records_for_gradient:
        return execute_op(op_type, inputs, attrs or {}, name)._outputs[0]
    kw = kernel_attrs if kernel_attrs is not None else _kernel_attrs(attrs) if attrs else None
    if kernel is None:
        kernel = op_def.kernel
    if _fp_var is None:
        out = _call_pure(kernel, [t._value for t in inputs], kw)
    else:  # `_call_pure`, inline: this is the hottest eager path
        token = _fp_var.set(_FP_QUIET)
        try:
            if kw:
                out = kernel(np, *[t._value for t in inputs], **kw)
            elif len(inputs) == 2:
                out = kernel(np, inputs[0]._value, inputs[1]._value)
            else:
                out = kernel(np, *[t._value for t in inputs])
        except Exception:
            out = _FAILED
        finally:
            _fp_var.reset(token)
    if out is _FAILED:
        return execute_op(op_type, inputs, attrs or {}, name)._outputs[0]
    if type(out) is not _ndarray:
        out = np.asarray(out, dtype=dtype._np)
    t = _new(EagerTensor)  # `make`, inline
    t._value = out
    t._dtype = dtype
    t._value_index = 0
    t._consumers = ()
    t._id = _next_uid()
    if tape._stack:
        tape.record_direct(op_type, inputs, attrs, op_def, [t])
    return t


_FAILED = object()


def _kernel_attrs(attrs):
    """`attrs` without the private ("_") ones, which kernels never get (the dict itself when none)."""
    if attrs:
        for k in attrs:
            if k[0] == "_":
                return {k: v for k, v in attrs.items() if k[0] != "_"}
    return attrs


def _call_pure(kernel, args, kw):
    """A pure kernel's result under the kernels' floating-point state, or `_FAILED` if it raised
    (the caller then runs the full path, whose `infer` and kernel explain the error)."""
    if _fp_var is None:
        try:
            return _run_quiet(_call_kw, kernel, args, kw or {})
        except Exception:
            return _FAILED
    token = _fp_var.set(_FP_QUIET)  # pure kernels run no user code: only the kernels' state is set
    try:
        return kernel(np, *args, **kw) if kw else kernel(np, *args)
    except Exception:
        return _FAILED
    finally:
        _fp_var.reset(token)


def _call_kw(kernel, args, kw):
    return kernel(np, *args, **kw)


ops._eager_run[0] = run
tape._make_record[0] = _record


def execute_op(op_type, inputs, attrs, name=None, grad_type=None):
    """Runs the op `op_type` on eager `inputs` and returns its record (outputs in `_outputs`).

    Raises:
      RuntimeError: If the default graph is not eager (an eager tensor used while building a graph),
        or for a Placeholder.
      TypeError: If an input is a graph tensor.
      tf.errors.OpError: If the op rejects its inputs or its kernel fails (InvalidArgumentError for
        bad shapes or dtypes), with "[Op:<type>]" in the message, as TF.
    """
    graph = ops.get_default_graph()
    if not graph._eager:
        raise RuntimeError("Attempting to capture an EagerTensor without building a function.")
    if op_type == "Placeholder":
        raise RuntimeError("tf.placeholder() is not compatible with eager execution.")
    for t in inputs:
        if not isinstance(t, EagerTensor):
            raise TypeError("An op outside of the function building code is being passed a \"Graph\" tensor (%s, "
                            "input of %s)." % (t, op_type))
    op_def = registry.get_op_def(op_type)
    if tape._stack and op_def.records_for_gradient:  # the gradient is built after the op ran
        attrs = dict(attrs, _record=True)
    if grad_type is None and graph._gradient_override_map:
        grad_type = graph._gradient_override_map.get(op_type)
    op = _record(op_type, inputs, attrs, name, graph, grad_type, op_def)
    try:
        specs = op_def.infer(op)
    except (ValueError, TypeError) as e:
        raise _error(errors.InvalidArgumentError(None, op, str(e)), op, name) from e
    refs = op_def.ref_inputs
    if refs:
        args = []
        for i, t in enumerate(inputs):
            if i in refs:
                if not isinstance(t, VariableHandle):
                    raise TypeError("'%s' requires a variable (reference) input, got %r" % (op_type, t))
                args.append(t._key)
            else:
                args.append(t._value)
    else:
        args = [t._value for t in inputs]
    if not op_def.stateful and not refs and len(_infer_cache) < _INFER_CACHE_MAX:
        try:
            sig = _signature(op_type, op_def, inputs, args, attrs)
            if sig is not None:
                _infer_cache[sig] = specs
        except TypeError:
            pass
    kw = _kernel_attrs(attrs)
    ctx = context._context
    try:
        with fpstate.quiet():
            if op_def.stateful:
                st = ctx.op_state
                saved = st._scratch
                st._scratch = {}
                try:
                    out = op_def.kernel(ctx, op, *args, **kw)
                finally:
                    st._scratch = saved
            else:
                out = op_def.kernel(np, *args, **kw)
    except Exception as e:
        raise _error(e, op, name) from errors.cause_of(e)
    n = len(specs)
    if n == 1:
        op._outputs = [_wrap(out, specs[0])]
    elif n:
        op._outputs = [_wrap(v, s) for v, s in zip(out, specs)]
    if tape._stack:
        tape.record(op)
    return op


def execute_like(op, inputs):
    """Runs a graph op's type and attributes eagerly on `inputs` (interpreting a traced graph)."""
    return execute_op(op._type, inputs, op._attrs, None, op._grad_type)


def _wrap(value, spec):
    dt, shape = spec
    if dt is dtypes.variant:
        return make_variant(value, dt, shape)
    if type(value) is not np.ndarray:
        value = np.asarray(value, dtype=object if dt is dtypes.string else dt.as_numpy_dtype)
    return make(value, dt)


def _error(exc, op, name):
    """The tf.errors class for a kernel's (or infer's) exception, its message ending in
    "[Op:<type>]" (and " name: <name>" for a named op), as TF's eager errors."""
    err = errors.wrap_kernel_error(exc, None)
    msg = "%s [Op:%s]" % (err.message, op._type)
    if name and name.rstrip("/"):
        msg += " name: %s" % name.rstrip("/")
    op._site = ops._creation_site()  # the user's line that called the op
    msg += "\n\t(called at %s:%d)" % op._site
    return type(err)(None, op, msg)


# ---- operators ------------------------------------------------------------------------------------
# `x + y`, `x - y`, `x * y`, `x / y`, `x // y`, `x % y`, `x @ y` and comparisons on two eager tensors of
# one dtype, or on an eager tensor and a Python number that converts to its dtype without fail (either
# side), reach `run_typed` in one call; every other case (mixed dtypes, strings, bools, integer true
# division, NumPy operands, a function being traced) takes `Tensor`'s operator, which converts and
# checks as TF.
def _fast_operator(name, op_type, dtypes_ok, scope, attrs=None, rank2=False, out_dtype=None, reflected=False):
    def operator(x, y):
        ty = type(y)
        if ty is EagerTensor:
            if not reflected and y._dtype is x._dtype and x._dtype in dtypes_ok:
                d = ops._eager_default()
                if d is not None and (not rank2 or (x._value.ndim == 2 and y._value.ndim == 2)):
                    return run_typed(op_type, [x, y], attrs, out_dtype or x._dtype,
                                     d._name_stack + "/" + scope if d._name_stack else scope)
        elif (ty is float or ty is int) and not rank2 and x._dtype in dtypes_ok:
            d = ops._eager_default()
            a = scalar_array(y, x._dtype)  # as `convert_to_tensor` converts it, when that cannot fail
            if d is not None and a is not None:
                c = make(a, x._dtype)
                return run_typed(op_type, [c, x] if reflected else [x, c], attrs, out_dtype or x._dtype,
                                 d._name_stack + "/" + scope if d._name_stack else scope)
        elif ty in ops._EAGER_VARIABLE_TYPES:  # `x @ w + b`: the variable's value, as `convert_to_tensor` reads it
            return operator(x, y.value())
        return getattr(ops.Tensor, name)(x, y)

    operator.__name__ = name
    return operator


_NUMBERS = frozenset((dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16, dtypes.int32,
                      dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.complex64, dtypes.complex128))
_REAL = _NUMBERS - {dtypes.complex64, dtypes.complex128}
_FLOATS = frozenset((dtypes.float16, dtypes.float32, dtypes.float64))
_MATMUL = frozenset((dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64,
                     dtypes.complex64, dtypes.complex128))
for _name, _op_type, _ok, _scope, _attrs, _rank2 in [  # _scope: the name scope `Tensor`'s operator opens
        ("__add__", "AddV2", _NUMBERS, "add/", None, False),
        ("__sub__", "Sub", _NUMBERS, "sub/", None, False),
        ("__mul__", "Mul", _NUMBERS, "mul/", None, False),
        ("__truediv__", "RealDiv", _FLOATS, "truediv/", None, False),
        ("__floordiv__", "FloorDiv", _REAL, "floordiv/", None, False),
        ("__mod__", "FloorMod", _REAL, "mod/", None, False),
        ("__matmul__", "MatMul", _MATMUL, "matmul/", {"transpose_a": False, "transpose_b": False}, True),
        ("__lt__", "Less", _REAL, "Less/", None, False),
        ("__le__", "LessEqual", _REAL, "LessEqual/", None, False),
        ("__gt__", "Greater", _REAL, "Greater/", None, False),
        ("__ge__", "GreaterEqual", _REAL, "GreaterEqual/", None, False)]:
    _out = dtypes.bool_ if _op_type.startswith(("Less", "Greater")) else None
    setattr(EagerTensor, _name, _fast_operator(_name, _op_type, _ok, _scope, _attrs, _rank2, _out))
    if _out is None and not _rank2:  # `2.0 * x`: the Python operand comes first
        _rname = "__r" + _name[2:]
        setattr(EagerTensor, _rname, _fast_operator(_rname, _op_type, _ok, _scope, reflected=True))
ops._eager_run_typed[0] = run_typed
