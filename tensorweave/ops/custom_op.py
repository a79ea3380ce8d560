"""`tf.custom_op`: a new op type declared in one call, from a NumPy (or numba) kernel.

TF's path to a new op is a py_func prototype whose gradient is registered under a random name
and swapped in with `gradient_override_map`, then a C++ rewrite, a `.so`, `load_op_library` and the
gradient registered again. Here one declaration gives a first-class op:

    def _relu_grad(op, grad):
        return grad * tf.cast(op.inputs[0] > 0, grad.dtype)

    @tf.custom_op("MyRelu", inputs=[("x", (tf.float32, tf.float64))], outputs="x", shape="x",
                  grad=_relu_grad)
    def my_relu(x):
        return np.maximum(x, 0)

    y = my_relu(x)          # a "MyRelu" node (named "MyRelu", "MyRelu_1", ...), eager or graph

The result is the op's constructor `my_relu(x, *, <attrs>, name=None)`. Its ops run in sessions,
eagerly and inside `tf.function`, differentiate through `tf.gradients` and `GradientTape`, are
listed by `tf.list_ops()`, and survive `export_meta_graph`/`import_meta_graph`: a meta graph
records the module that declared the op, and importing it imports that module when the type is
not registered yet and the caller trusts the module (`import_meta_graph(..., trusted_modules=[...])`:
a file never makes tensorweave import code on its own).

Kernels are `kernel(*arrays, **attrs)` returning one array per output (a tuple for several). They
do not receive the array module: a plain NumPy function (the py_func prototype) and a
`numba.njit` dispatcher work unchanged. Attributes are compile-time constants of the op, passed to
kernels as keyword arguments (list attrs as tuples, dtype attrs as NumPy dtypes), as TF advises
for constants rather than scalar tensor inputs. Inputs may be read-only buffers: kernels must not
write into them. A kernel is a pure function of its inputs and attrs (the runtime may fold it on
constant inputs, merge two identical ops, or skip an op whose outputs are unused) unless the op is
declared `stateful`.
"""

import importlib
import inspect
import keyword
import re
import sys

import numpy as np

from ..framework import dtypes, errors, ops, registry
from ..framework.tensor_shape import as_shape
from .load_library import snake_case

__all__ = ["custom_op"]

# op type -> _Declaration of every op type declared through `custom_op` (the latest for overrides).
_DECLARATIONS = {}

_OP_TYPE = re.compile(r"^[A-Z][A-Za-z0-9_]*$")
_DEVICES = ("CPU", "GPU")
_REQUIRED = object()
_ATTR_KINDS = {bool: "bool", int: "int", float: "float", str: "string", dtypes.DType: "type", list: "list"}


class _Input:
    """One declared input: `kind` is "any", "fixed" (`allowed[0]`), "set" (`allowed`), or "same"
    (the dtype of input `root`, whose own constraint then applies)."""

    __slots__ = ("name", "kind", "allowed", "root")

    def __init__(self, name, kind, allowed=(), root=None):
        self.name = name
        self.kind = kind
        self.allowed = allowed
        self.root = root

    def describe(self, inputs):
        if self.kind == "same":
            return "same dtype as %s" % inputs[self.root].name
        return ", ".join(d.name for d in self.allowed) if self.allowed else "any dtype"


class _Attr:
    __slots__ = ("name", "kind", "default")

    def __init__(self, name, kind, default):
        self.name = name
        self.kind = kind
        self.default = default


class _Declaration:
    """Everything `custom_op` was told about one op type."""

    def __init__(self, op_type, inputs, attrs, outputs, single, shape, kernels, grad, module, site):
        self.op_type = op_type
        self.inputs = inputs
        self.attrs = attrs
        self.outputs = outputs
        self.single = single
        self.shape = shape
        self.kernels = kernels
        self.grad = grad
        self.module = module
        self.site = site
        self.dtype_attrs = tuple(a.name for a in attrs.values() if a.kind is dtypes.DType)

    # ---- static checks (graph construction, eager calls and meta-graph import) -------------
    def infer(self, op):
        ins = op._inputs
        if len(ins) != len(self.inputs):
            raise ValueError("%s expects %d inputs (%s), got %d" % (
                self.op_type, len(self.inputs), ", ".join(i.name for i in self.inputs), len(ins)))
        in_dts = [t._dtype for t in ins]
        self.check_dtypes(in_dts)
        attrs = self.attr_values(op._attrs)
        out_dts = [self.output_dtype(j, spec, in_dts, attrs) for j, spec in enumerate(self.outputs)]
        return list(zip(out_dts, self.output_shapes([t._shape for t in ins], attrs)))

    def check_dtypes(self, in_dts):
        for spec, dt in zip(self.inputs, in_dts):
            if spec.kind == "fixed" and dt is not spec.allowed[0]:
                raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of %s."
                                % (spec.name, self.op_type, dt.name, spec.allowed[0].name))
            if spec.kind == "set" and dt not in spec.allowed:
                raise TypeError("Value passed to parameter '%s' of '%s' Op has DataType %s not in list of allowed "
                                "values: %s" % (spec.name, self.op_type, dt.name,
                                                ", ".join(d.name for d in spec.allowed)))
            if spec.kind == "same" and dt is not in_dts[spec.root]:
                raise TypeError("Input '%s' of '%s' Op has type %s that does not match type %s of argument '%s'."
                                % (spec.name, self.op_type, dt.name, in_dts[spec.root].name,
                                   self.inputs[spec.root].name))

    def attr_values(self, op_attrs):
        try:
            return {name: op_attrs[name] for name in self.attrs}
        except KeyError as e:
            raise ValueError("%s is missing its attr %s" % (self.op_type, e)) from None

    def output_dtype(self, j, spec, in_dts, attrs):
        if isinstance(spec, dtypes.DType):
            return spec
        if isinstance(spec, int):
            return in_dts[spec]
        try:
            return dtypes.as_dtype(spec(*in_dts, **attrs))
        except TypeError as e:
            raise TypeError("The dtype function of output %d of %s failed: %s" % (j, self.op_type, e)) from e

    def output_shapes(self, in_shapes, attrs):
        n = len(self.outputs)
        if self.shape is None:
            return [None] * n
        if isinstance(self.shape, int):
            return [in_shapes[self.shape].as_tuple()] * n
        got = self.shape(*in_shapes, **attrs)
        if n > 1 and (not isinstance(got, (list, tuple)) or len(got) != n):
            raise TypeError("The shape function of %s must return a list of %d shapes (one per output), got %r"
                            % (self.op_type, n, got))
        try:
            return [as_shape(s).as_tuple() for s in (got if n > 1 else [got])]
        except (TypeError, ValueError) as e:
            raise TypeError("The shape function of %s returned %r, not a shape (a list of ints/None, a "
                            "TensorShape, or None for an unknown shape): %s" % (self.op_type, got, e)) from None


def _camel_case(name):
    return "".join(p[:1].upper() + p[1:] for p in name.split("_"))


def _is_dtype_like(v):
    try:
        dtypes.as_dtype(v)
    except TypeError:
        return False
    return True


def _parse_inputs(op_type, inputs):
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("inputs of %s must be a list of input names or (name, dtype) pairs, got %r" % (op_type, inputs))
    out = []
    for i, spec in enumerate(inputs):
        if isinstance(spec, str):
            name, cons = spec, None
        elif isinstance(spec, tuple) and len(spec) == 2 and isinstance(spec[0], str):
            name, cons = spec
        else:
            raise TypeError("inputs[%d] of %s must be a name or a (name, dtype) pair, got %r" % (i, op_type, spec))
        _check_name(op_type, "input", name, [x.name for x in out])
        if cons is None:
            out.append(_Input(name, "any"))
        elif isinstance(cons, str):
            earlier = [x.name for x in out]
            if cons not in earlier:
                raise ValueError("Input '%s' of %s: %r is not an earlier input (inputs before it: %s); give a "
                                 "tf.DType for a fixed dtype" % (name, op_type, cons, ", ".join(earlier) or "none"))
            root = earlier.index(cons)
            out.append(_Input(name, "same", root=out[root].root if out[root].kind == "same" else root))
        elif isinstance(cons, (list, tuple, set, frozenset)):
            allowed = tuple(_as_dtype(op_type, "input '%s'" % name, d) for d in cons)
            if not allowed:
                raise ValueError("Input '%s' of %s allows no dtype" % (name, op_type))
            out.append(_Input(name, "set", allowed))
        else:
            out.append(_Input(name, "fixed", (_as_dtype(op_type, "input '%s'" % name, cons),)))
    return out


def _as_dtype(op_type, what, v):
    try:
        return dtypes.as_dtype(v)
    except TypeError:
        raise TypeError("The dtype of %s of %s must be a tf.DType (or a list of them), got %r"
                        % (what, op_type, v)) from None


def _check_name(op_type, what, name, taken):
    if not name.isidentifier() or keyword.iskeyword(name) or name == "name" or name.startswith("_"):
        raise ValueError("%r is not a valid %s name for %s (use a Python identifier not starting with '_', "
                         "other than 'name')" % (name, what, op_type))
    if name in taken:
        raise ValueError("The %s name %r of %s is used twice (inputs and attrs share one namespace)"
                         % (what, name, op_type))


def _parse_attrs(op_type, attrs, input_names):
    if attrs is None:
        return {}
    if not isinstance(attrs, dict):
        raise TypeError("attrs of %s must be a dict {name: type or default value}, got %r" % (op_type, attrs))
    out = {}
    for name, spec in attrs.items():
        if not isinstance(name, str):
            raise TypeError("Attr names of %s must be strings, got %r" % (op_type, name))
        _check_name(op_type, "attr", name, input_names + list(out))
        if isinstance(spec, type):
            if spec not in _ATTR_KINDS:
                raise TypeError("Attr '%s' of %s: type %s is not one of bool, int, float, str, tf.DType, list"
                                % (name, op_type, spec.__name__))
            out[name] = _Attr(name, spec, _REQUIRED)
            continue
        kind = _kind_of_default(spec)
        if kind is None:
            raise TypeError("Attr '%s' of %s: give a type (bool, int, float, str, tf.DType, list) or a default of "
                            "one of those types, not %r" % (name, op_type, spec))
        out[name] = _Attr(name, kind, _convert_attr(op_type, name, kind, spec))
    return out


def _kind_of_default(v):
    if isinstance(v, (bool, np.bool_)):
        return bool
    if isinstance(v, (int, np.integer)):
        return int
    if isinstance(v, (float, np.floating)):
        return float
    if isinstance(v, str):
        return str
    if isinstance(v, dtypes.DType):
        return dtypes.DType
    if isinstance(v, (list, tuple)):
        return list
    return None


def _convert_attr(op_type, name, kind, v):
    """The canonical value of attr `name` (Python scalars, a DType, a tuple for a list).

    Raises:
      TypeError: If `v` is not of the attr's type.
    """
    is_bool = isinstance(v, (bool, np.bool_))
    if kind is bool and is_bool:
        return bool(v)
    if kind is int and isinstance(v, (int, np.integer)) and not is_bool:
        return int(v)
    if kind is float and isinstance(v, (int, float, np.integer, np.floating)) and not is_bool:
        return float(v)
    if kind is str and isinstance(v, str):
        return v
    if kind is dtypes.DType and _is_dtype_like(v):
        return dtypes.as_dtype(v)
    if kind is list and isinstance(v, (list, tuple)) and all(_kind_of_default(x) in (bool, int, float, str) for x in v):
        return tuple(x.item() if isinstance(x, np.generic) else x for x in v)
    raise TypeError("Expected %s for attr '%s' of %s, not %r (%s)."
                    % (_ATTR_KINDS[kind], name, op_type, v, type(v).__name__))


def _parse_outputs(op_type, outputs, inputs):
    single = not isinstance(outputs, list)
    specs = [outputs] if single else outputs
    if not specs:
        raise ValueError("%s declares no outputs: a custom op has at least one" % op_type)
    names = [i.name for i in inputs]
    out = []
    for j, spec in enumerate(specs):
        if isinstance(spec, str):
            if spec not in names:
                raise ValueError("Output %d of %s: %r is not an input name (inputs: %s); give a tf.DType for a fixed "
                                 "dtype" % (j, op_type, spec, ", ".join(names) or "none"))
            out.append(names.index(spec))
        elif callable(spec) and not isinstance(spec, type) and not isinstance(spec, dtypes.DType):
            out.append(spec)
        else:
            out.append(_as_dtype(op_type, "output %d" % j, spec))
    return out, single


def _parse_shape(op_type, shape, inputs):
    if shape is None or callable(shape):
        return shape
    names = [i.name for i in inputs]
    if isinstance(shape, str) and shape in names:
        return names.index(shape)
    raise TypeError("shape of %s must be None, an input name (%s) or a function of the input shapes, got %r"
                    % (op_type, ", ".join(names) or "none", shape))


def _parse_kernels(op_type, kernel, kernels):
    if kernel is not None and kernels is not None:
        raise ValueError("%s: give kernel= or kernels=, not both" % op_type)
    if kernel is not None:
        kernels = {"CPU": kernel}
    if not isinstance(kernels, dict):
        raise TypeError("kernels of %s must be a dict {device: kernel}, got %r" % (op_type, kernels))
    out = {}
    for device, fn in kernels.items():
        dev = device.upper() if isinstance(device, str) else device
        if dev not in _DEVICES:
            raise ValueError("kernels of %s: unknown device %r (expected one of %s)" % (op_type, device, _DEVICES))
        if not callable(fn):
            raise TypeError("The %s kernel of %s is not callable: %r" % (dev, op_type, fn))
        out[dev] = fn
    if "CPU" not in out:
        raise ValueError("%s has no CPU kernel: every op needs one (ops run on the CPU where a device has no kernel)"
                         % op_type)
    return out


# ---- the kernel the runtime calls --------------------------------------------------------------
def _make_kernel(decl):
    """`kernel(xp, *arrays, **attrs)` for the registry: runs the CPU kernel on NumPy arrays and the
    GPU kernel on the accelerator's (only ops with a GPU kernel are placed there), and checks what
    it returns."""
    cpu = decl.kernels["CPU"]
    gpu = decl.kernels.get("GPU")
    dtype_attrs = decl.dtype_attrs

    def kernel(xp, *arrays, **attrs):
        kattrs = attrs
        if dtype_attrs:  # the user's kernel sees NumPy dtypes; the output dtypes use the op's attrs
            kattrs = dict(attrs)
            for k in dtype_attrs:
                kattrs[k] = np.dtype(attrs[k].as_numpy_dtype)
        return _check_outputs(xp, decl, (cpu if xp is np else gpu)(*arrays, **kattrs), arrays, attrs)

    kernel.__name__ = kernel.__qualname__ = "%s_kernel" % decl.op_type
    return kernel


def _check_outputs(xp, decl, out, arrays, attrs):
    """The kernel's result `out` as one array per output, of the declared dtypes."""
    specs = decl.outputs
    in_dts = [dtypes.as_dtype(a.dtype) for a in arrays]
    wants = [np.dtype(decl.output_dtype(j, spec, in_dts, attrs).as_numpy_dtype) for j, spec in enumerate(specs)]
    if len(specs) == 1:
        return _check_output(xp, decl.op_type, 0, out, wants[0])
    if not isinstance(out, (tuple, list)) or len(out) != len(specs):
        what = "%d values" % len(out) if isinstance(out, (tuple, list)) else "one %s" % type(out).__name__
        raise errors.InvalidArgumentError(None, None, "The kernel of %s returned %s; it must return a tuple of %d "
                                          "arrays (one per output)" % (decl.op_type, what, len(specs)))
    return tuple(_check_output(xp, decl.op_type, j, v, wants[j]) for j, v in enumerate(out))


def _check_output(xp, op_type, j, v, want):
    """`v` as an array of output `j`'s dtype `want`: same-kind results (float64 for float32) are cast,
    as TF's kernels write into an output buffer of the declared dtype; other kinds are errors."""
    have = getattr(v, "dtype", None)
    if have is None:  # Python scalars and lists take the declared dtype
        return xp.asarray(v, dtype=want)
    if have != want:
        if not np.can_cast(have, want, "same_kind"):
            raise errors.InvalidArgumentError(None, None, "The kernel of %s returned %s for output %d, which is "
                                              "declared %s" % (op_type, have, j, want))
        return xp.asarray(v).astype(want)
    if isinstance(v, np.generic):
        return np.asarray(v)
    return v


# ---- gradients ---------------------------------------------------------------------------------
def _make_grad(decl, grad):
    """The registry's gradient function: calls `grad(op, *grads)`, or the gradient custom op on
    `(*op.inputs, *grads, **shared attrs)`, and checks one gradient per input of its dtype."""
    names = [i.name for i in decl.inputs]
    grad_decl = getattr(grad, "_tw_declaration", None)
    if grad_decl is not None:
        want_in = len(decl.inputs) + len(decl.outputs)
        if len(grad_decl.inputs) != want_in:
            raise ValueError("The gradient op %s of %s takes %d inputs; it is called with %d (the inputs %s, then "
                             "one gradient per output)" % (grad_decl.op_type, decl.op_type, len(grad_decl.inputs),
                                                           want_in, ", ".join(names)))
        if len(grad_decl.outputs) != len(decl.inputs):
            raise ValueError("The gradient op %s of %s must have one output per input of %s (%d), as a list when "
                             "there are several" % (grad_decl.op_type, decl.op_type, decl.op_type, len(names)))

    def grad_fn(op, *grads):
        if grad_decl is not None:
            from . import core_ops
            grads = [core_ops.zeros_like(t) if g is None else g for t, g in zip(op.outputs, grads)]
            result = grad(*op.inputs, *grads, **{k: op._attrs[k] for k in grad_decl.attrs if k in op._attrs})
        else:
            result = grad(op, *grads)
        result = list(result) if isinstance(result, (list, tuple)) else [result]
        if len(result) != len(names):
            raise ValueError("The gradient of %s returned %d gradients; it must return one per input (%s), None for "
                             "an input without one" % (decl.op_type, len(result), ", ".join(names)))
        for name, t, g in zip(names, op.inputs, result):
            dt = getattr(g, "dtype", None)
            if g is not None and dt is not None and dt is not t.dtype:
                raise TypeError("The gradient of %s for input '%s' has dtype %s; it must have the input's dtype %s"
                                % (decl.op_type, name, dt.name, t.dtype.name))
        return result

    grad_fn.__name__ = grad_fn.__qualname__ = "%s_grad" % decl.op_type
    return grad_fn


# ---- the op constructor ------------------------------------------------------------------------
def _is_python_value(v):
    return isinstance(v, (int, float, complex, str, bytes, list, tuple, np.ndarray, np.generic))


def _convert_inputs(decl, values):
    """Tensors for `values`: Python and NumPy values take a dtype from their constraint (the fixed
    dtype, the dtype of a tensor with the same constraint, or the first allowed dtype), as TF's
    generated op wrappers do."""
    specs = decl.inputs
    out = [None] * len(values)
    for i, v in enumerate(values):
        if not _is_python_value(v):
            out[i] = ops.convert_to_tensor(v, name=specs[i].name)
    for i, v in enumerate(values):
        if out[i] is not None:
            continue
        root = specs[i].root if specs[i].kind == "same" else i
        if specs[root].kind == "fixed":
            out[i] = ops.convert_to_tensor(v, dtype=specs[root].allowed[0], name=specs[i].name)
            continue
        hint = next((out[j].dtype for j, s in enumerate(specs) if out[j] is not None
                     and (j == root or s.kind == "same" and s.root == root)), None)
        if hint is None and specs[root].kind == "set":
            hint = specs[root].allowed[0]
        out[i] = ops.convert_to_tensor(v, preferred_dtype=hint, name=specs[i].name)
    return out


def _make_constructor(decl, func_name, doc):
    params = [inspect.Parameter(i.name, inspect.Parameter.POSITIONAL_OR_KEYWORD) for i in decl.inputs]
    params += [inspect.Parameter(a.name, inspect.Parameter.KEYWORD_ONLY,
                                 default=inspect.Parameter.empty if a.default is _REQUIRED else a.default)
               for a in decl.attrs.values()]
    params.append(inspect.Parameter("name", inspect.Parameter.KEYWORD_ONLY, default=None))
    sig = inspect.Signature(params)
    n_in = len(decl.inputs)
    n_out = len(decl.outputs)
    attr_specs = list(decl.attrs.values())

    def arg_error(msg):
        return TypeError("%s() %s (op %s: inputs %s; attrs %s)" % (
            func_name, msg, decl.op_type, ", ".join(i.name for i in decl.inputs) or "none",
            ", ".join(decl.attrs) or "none"))

    def constructor(*args, name=None, **kwargs):
        if len(args) > n_in:
            raise arg_error("takes %d inputs but %d were given" % (n_in, len(args)))
        values = list(args)
        if kwargs or len(args) < n_in:
            for spec in decl.inputs[:len(args)]:
                if spec.name in kwargs:
                    raise arg_error("got multiple values for input '%s'" % spec.name)
            for spec in decl.inputs[len(args):]:
                if spec.name not in kwargs:
                    raise arg_error("is missing input '%s'" % spec.name)
                values.append(kwargs.pop(spec.name))
        attrs = {}
        for a in attr_specs:
            if a.name in kwargs:
                attrs[a.name] = _convert_attr(decl.op_type, a.name, a.kind, kwargs.pop(a.name))
            elif a.default is _REQUIRED:
                raise arg_error("is missing the required attr '%s'" % a.name)
            else:
                attrs[a.name] = a.default
        if kwargs:
            raise arg_error("got an unexpected argument '%s'" % next(iter(kwargs)))
        if all(isinstance(v, ops.Tensor) for v in values):
            out = ops.apply_op(decl.op_type, values, attrs, name=name)
        else:  # conversions make constants (named after the inputs) under the op's name scope
            with ops.name_scope(name, decl.op_type, [v for v in values if not _is_python_value(v)]) as scope:
                out = ops.apply_op(decl.op_type, _convert_inputs(decl, values), attrs, name=scope)
        # One declared output in a list gives a list of one tensor, as py_func with a list Tout.
        return [out] if not decl.single and n_out == 1 else out

    constructor.__name__ = constructor.__qualname__ = func_name
    constructor.__module__ = decl.module
    constructor.__signature__ = sig
    constructor.__doc__ = _docstring(decl, doc)
    constructor.op_type = decl.op_type
    constructor.kernels = dict(decl.kernels)
    constructor.grad = decl.grad
    constructor._tw_declaration = decl
    return constructor


def _docstring(decl, doc):
    lines = [doc.strip() if doc else "Creates a `%s` op (declared with tf.custom_op)." % decl.op_type, "", "Args:"]
    lines += ["  %s: A `Tensor` (%s)." % (i.name, i.describe(decl.inputs)) for i in decl.inputs]
    for a in decl.attrs.values():
        lines.append("  %s: %s attr%s." % (a.name, _ATTR_KINDS[a.kind],
                                             "" if a.default is _REQUIRED else " (default %r)" % (a.default,)))
    lines += ["  name: A name for the operation (optional).", "", "Returns:",
              "  %s." % ("A `Tensor`" if decl.single else "A list of %d `Tensor`s" % len(decl.outputs))]
    return "\n".join(lines)


def custom_op(op_type=None, kernel=None, *, inputs, outputs, attrs=None, kernels=None, shape=None, grad=None,
              stateful=False, doc=None, override=False):
    """Declares a new op type and returns its constructor; also a decorator of the CPU kernel.

    Function form: `my_relu = tf.custom_op("MyRelu", np_relu, inputs=["x"], outputs="x")`.
    Decorator form: `@tf.custom_op("MyRelu", inputs=["x"], outputs="x")` over `def my_relu(x): ...`
    (without `op_type`, the kernel's name in CamelCase: `my_relu` declares "MyRelu").

    Args:
      op_type: The op type name, CamelCase ("MyRelu"); ops are named after it by default.
      kernel: The CPU kernel, `kernel(*arrays, **attrs)` returning an array, or a tuple of arrays
        for several outputs (a NumPy function or a `numba.njit` dispatcher). Results of another
        dtype of the same kind are cast to the declared dtype.
      inputs: A list with one entry per input: a name ("x": any dtype) or a pair `(name, dtype)`
        where dtype is a `tf.DType`, a list of allowed DTypes, or the name of an earlier input
        whose dtype it must share (Python values passed for it are converted to that dtype).
      outputs: One output spec, or a list of them (the constructor then returns a list): a
        `tf.DType`, an input name ("same dtype as that input"), or a function
        `fn(*input_dtypes, **attrs) -> DType`.
      attrs: `{name: spec}`: a type (bool, int, float, str, tf.DType, list) for a required attr,
        or a default value of one of those types. Attrs are keyword arguments of the constructor,
        validated and stored on the op, and passed to kernels as keyword arguments.
      kernels: `{"CPU": kernel, "GPU": kernel}` instead of `kernel`. The CPU kernel is required.
        A GPU kernel gets the GPU backend's arrays (CuPy's) and makes the op placeable on a GPU;
        ops without one run on the CPU.
      shape: The static shape of every output: None (unknown), an input name (the shape of that
        input), or a function `fn(*input_shapes, **attrs)` of the inputs' `TensorShape`s
        returning a shape (list of ints/None, a TensorShape, or None), a list of them for several
        outputs; it may raise ValueError for incompatible shapes.
      grad: The gradient: a function `grad(op, *output_grads)` returning one gradient per input
        (None for none) built with tensorweave ops, as for `tf.RegisterGradient`; or another
        custom op's constructor, called as `grad_op(*op.inputs, *output_grads, **attrs)` with the
        attrs of the op that it declares too. None: no gradient (tf.gradients raises
        LookupError); for a non-differentiable op, use `tf.NotDifferentiable(op_type)`.
      stateful: True for a kernel with side effects or random results: its ops run every time
        they are fetched or depended on, never folded or merged.
      doc: The constructor's docstring (default: the kernel's, in the decorator form).
      override: Replace an op type that is already registered.

    Returns:
      The constructor `fn(*inputs, <attrs>, name=None)` returning a Tensor (a list for a list of
      outputs), with attributes `op_type`, `kernels` and `grad`; in the decorator form, a
      decorator returning it.

    Raises:
      KeyError: If `op_type` is already registered and `override` is false.
      ValueError, TypeError: For a malformed declaration, naming the op type and the argument.
    """
    caller = sys._getframe(1)
    module = caller.f_globals.get("__name__", "__main__")
    site = "%s:%d" % (caller.f_code.co_filename, caller.f_lineno)
    if kernel is None and kernels is None:
        def decorate(fn):
            return _declare(op_type, fn, None, inputs, outputs, attrs, shape, grad, stateful, doc or fn.__doc__,
                            override, module, site, fn.__name__, fn.__name__)
        return decorate
    return _declare(op_type, kernel, kernels, inputs, outputs, attrs, shape, grad, stateful, doc, override, module,
                    site, None if op_type is None else snake_case(op_type), getattr(kernel, "__name__", None))


def _declare(op_type, kernel, kernels, inputs, outputs, attrs, shape, grad, stateful, doc, override, module, site,
             fn_name, kernel_name):
    """Declares the op; the constructor is called `fn_name` (default: the kernel's name)."""
    if op_type is None:
        if not kernel_name or not kernel_name.isidentifier():
            raise ValueError("custom_op needs an op_type when the kernel has no usable name (got %r)"
                             % (kernel_name,))
        op_type = _camel_case(kernel_name)
        fn_name = fn_name or kernel_name
    if not isinstance(op_type, str) or not _OP_TYPE.match(op_type):
        raise ValueError("Op type %r is not a valid op type name: use CamelCase letters, digits and '_', starting "
                         "with a capital letter (e.g. 'MyRelu')" % (op_type,))
    if not override:
        try:
            registry.get_op_def(op_type)
        except LookupError:
            pass
        else:
            prev = _DECLARATIONS.get(op_type)
            what = ("declared with tf.custom_op in module '%s' at %s" % (prev.module, prev.site) if prev
                    else "a built-in op type")
            raise KeyError("Op type '%s' is already registered (%s). Pass override=True to tf.custom_op to replace "
                           "it, or choose another op type name." % (op_type, what))
    in_specs = _parse_inputs(op_type, inputs)
    attr_specs = _parse_attrs(op_type, attrs, [i.name for i in in_specs])
    out_specs, single = _parse_outputs(op_type, outputs, in_specs)
    decl = _Declaration(op_type, in_specs, attr_specs, out_specs, single, _parse_shape(op_type, shape, in_specs),
                        _parse_kernels(op_type, kernel, kernels), grad, module, site)
    if grad is not None and not callable(grad):
        raise TypeError("grad of %s must be a function grad(op, *grads) or a custom op, got %r" % (op_type, grad))
    grad_fn = None if grad is None else _make_grad(decl, grad)
    constructor = _make_constructor(decl, fn_name, doc)
    pure = _make_kernel(decl)
    if stateful:
        def stateful_kernel(ctx, op, *arrays, **attrs):
            return pure(ctx.xp, *arrays, **attrs)
    # With a GPU kernel, the registered kernel runs on accelerators too (it picks the GPU kernel for
    # device arrays).
    registry.register_op(op_type, infer=decl.infer, kernel=stateful_kernel if stateful else pure, grad=grad_fn,
                         stateful=bool(stateful), override=True, gpu="GPU" in decl.kernels and not stateful)
    if grad_fn is None:
        registry._GRADIENTS.pop(op_type, None)  # an override drops the replaced op's gradient
    _DECLARATIONS[op_type] = decl
    return constructor


# ---- meta graphs -------------------------------------------------------------------------------
def declaring_module(op_type):
    """The module that declared `op_type` with `custom_op`, or None for other op types."""
    decl = _DECLARATIONS.get(op_type)
    return decl.module if decl is not None else None


def import_declaring_module(op_type, module, node_name, trusted=False):
    """Imports `module` so that it declares the custom op type `op_type` again (for a meta graph
    naming an op type that is not registered).

    Importing a module runs its code, so a module named by a file is imported only when the caller
    trusts it (`trusted_modules` of `tf.train.import_meta_graph`).

    Args:
      op_type: The op type the meta graph needs.
      module: The module the meta graph says declared it.
      node_name: The node that needs it (for messages).
      trusted: Whether the caller trusts `module`; if not, nothing is imported.

    Raises:
      ValueError: If `module` is not trusted, or the import fails or does not register `op_type`,
        naming both.
    """
    head = ("Op type not registered '%s' in binary (needed by op '%s'): it is a custom op declared in module '%s'"
            % (op_type, node_name, module))
    if module == "__main__":
        raise ValueError(head + ", a script; declare it in an importable module, or run the declaration before "
                         "importing the meta graph")
    if not trusted:
        raise ValueError(head + "; importing a meta graph imports only modules the caller trusts. Import '%s' first, "
                         "or pass trusted_modules=['%s'] to tf.train.import_meta_graph if this file is yours"
                         % (module, module))
    try:
        importlib.import_module(module)
    except Exception as e:
        raise ValueError("%s, which could not be imported (%s: %s)" % (head, type(e).__name__, e)) from e
    try:
        registry.get_op_def(op_type)
    except LookupError:
        raise ValueError(head + ", but importing that module did not declare it") from None
