"""The op registry: each op type is declared once with its shape inference, kernel and gradient.

An op module declares a type with `register_op`:

    register_op("Sin", infer=same_as_input, kernel=lambda xp, x: xp.sin(x), grad=_sin_grad)

- `infer(op)` returns a list of `(DType, shape)` pairs, one per output, where `shape` is a tuple
  of ints/None or None for an unknown rank. It sees `op.inputs` and `op.attrs` and raises
  ValueError/TypeError for bad static input (at graph construction time, as TF does).
- `kernel` is a pure function `(xp, *arrays, **attrs) -> array | tuple of arrays`; attrs whose
  names start with "_" are never passed. A `stateful` kernel is `(ctx, op, *arrays, **attrs)`:
  `ctx` is the running state (a `runtime.kernel_context.KernelContext`: variables, random streams,
  function compilation); `op` the Operation.
- `grad(op, *output_grads) -> list` builds the input gradients with ops (None for no gradient).
- `ref_inputs`: input positions that name a variable to update rather than read its value; the
  runtime passes the variable's key there and does not run the variable's op for them.
- `specialize(op, consts)` (optional, pure ops): `consts[i]` is input i's value when the plan
  knows it at compile time, else `NOT_CONSTANT`. It may return a faster kernel `(xp, *inputs that
  are not constant)` doing the constant part of the work once (e.g. a strided slice's index), or
  None to keep the general kernel. The general kernel must give the same results and errors.
- `inline` (optional, pure ops): a Python expression template equal to the kernel, e.g.
  `"({0} + {1})"` for a kernel `lambda xp, x, y: x + y`, or a function of the op returning one
  (or None); the compiled plan writes it in place of the call (an iteration of a scalar loop body
  is mostly such calls). Attributes are not passed to it. An inline may also be a pair
  `(template, {name: value})`: the plan binds each value as a global the template names `{name}`
  (helpers such as a division-by-zero check, dtype constants).
- A `specialize` of a stateful op returns a kernel `(ctx, op, *inputs that are not constant)`
  with its attributes bound.

Device kernels: `gpu` is the op's kernel on an accelerator (any `backends.ArrayBackend`: CuPy, or a
test's fake device): True when `kernel` is written against `xp` alone and runs there as it is, a
kernel of its own (same signature) when the CPU kernel calls NumPy directly, or None (host only).
`host_inputs` names the inputs an accelerator kernel reads in host memory (TF's `HostMemory`:
shapes, axes, sizes; negative positions count from the end), `shape_inputs` those of which only the
shape and dtype are read, and `on_host` marks ops accepted on a device that compute on the host
from small inputs (shape arithmetic). Rules for an accelerator kernel (what CuPy accepts): no
`np.asarray` of a device array, no NumPy array (not even 0-d) mixed into an operation with device
arrays (NumPy scalars and Python numbers are fine), no `out=` into a NumPy array.

Traits the runtime reads instead of lists of op names:
- `elementwise`: output element i depends only on element i of each (broadcast) input;
  `transcendental`: such an op costs tens of cycles per element (a libm-style evaluation);
  `ufunc`: the name of the NumPy ufunc the kernel amounts to (`np.<name>(*inputs)` is the kernel's
  result), or a function of the op returning it or None: fused kernels call it with `out=` into
  reused buffers (only where the ufunc's loop for the inputs' dtypes yields the op's dtype).
- `alias_of`: output 0 is input `alias_of` unchanged (Identity, StopGradient): the plan aliases it.
- `value_attr`: the op's only output is this attribute's value (Const).
- `static_value(op, dims)`: the output's value from input 0's fully defined static shape `dims`.
- `variable_read`: the stateful kernel reads the variable named after the op (`ctx.variables[name]`,
  a KeyError meaning "uninitialized"); the plan inlines the lookup.
- `placeholder`: the op's value is fed (its shape may specialize a plan, `runtime/shapespec.py`).
- `cost(op)`: multiply-adds of one run, from static shapes (0 when unknown); heavy ops may run
  concurrently with others.
- `records_for_gradient`: the kernel keeps forward values for its gradient only when the op's
  `_record` attribute is set (a While keeps each iteration's loop variables); eager execution sets
  it while a tape records, since the gradient is built after the op ran.

Rewrites: an op family registers plan rewrites for the op types it owns with `register_rewrite`
(see there); the runtime runs them by stage, and a fused result is an internal registered op
(its type starts with "_"), so a plan only ever holds ops.
"""

__all__ = ["OpDef", "DeviceKernel", "register_op", "register_internal_op", "get_op_def", "list_ops",
           "register_rewrite", "rewrites", "REWRITE_STAGES", "RegisterGradient", "NotDifferentiable", "no_gradient",
           "get_gradient_function"]

_OPS = {}
_GRADIENTS = {}
NO_GRADIENT = object()
NOT_CONSTANT = object()


class _AllInputs:
    """`ref_inputs=ALL_INPUTS`: every input is a variable reference."""

    def __contains__(self, i):
        return True


ALL_INPUTS = _AllInputs()


class DeviceKernel:
    """How one op type runs on an accelerator.

    Attributes:
      kernel: The pure kernel `(xp, *arrays, **attrs)`, or None for the op's registered kernel.
      host_inputs: Input positions (negative counts from the end) the kernel reads as NumPy arrays.
      shape_inputs: Input positions of which only the shape and dtype are read: left where they are.
      on_host: The op is accepted on the device but computes on the host from small inputs (TF's
        kernels whose inputs and outputs are all in host memory): its inputs other than
        `shape_inputs` are copied to the host, and its outputs are NumPy arrays.
    """

    __slots__ = ("kernel", "host_inputs", "shape_inputs", "on_host")

    def __init__(self, kernel=None, host_inputs=(), shape_inputs=(), on_host=False):
        self.kernel = kernel
        self.host_inputs = frozenset(host_inputs)
        self.shape_inputs = frozenset(shape_inputs)
        self.on_host = on_host

    def input_place(self, i, n):
        """Where input `i` of `n` must be: "host", "device" or "any"."""
        if i in self.shape_inputs or i - n in self.shape_inputs:
            return "any"
        if self.on_host or i in self.host_inputs or i - n in self.host_inputs:
            return "host"
        return "device"


# What host (NumPy) devices run every op with.
HOST_KERNEL = DeviceKernel()


class OpDef:
    """Everything that defines one op type (see the module docstring for each field)."""

    __slots__ = ("type", "infer", "kernel", "stateful", "ref_inputs", "specialize", "inline", "gpu",
                 "elementwise", "transcendental", "ufunc", "alias_of", "value_attr", "static_value", "variable_read",
                 "placeholder", "cost", "records_for_gradient")

    def __init__(self, op_type, infer, kernel, stateful=False, ref_inputs=(), specialize=None, inline=None,
                 gpu=None, elementwise=False, transcendental=False, alias_of=None, value_attr=None,
                 static_value=None, variable_read=False, placeholder=False, cost=None, records_for_gradient=False,
                 ufunc=None):
        self.type = op_type
        self.infer = infer
        self.kernel = kernel
        self.stateful = stateful
        self.ref_inputs = ref_inputs if ref_inputs is ALL_INPUTS else frozenset(ref_inputs)
        self.specialize = specialize
        self.inline = inline
        self.gpu = gpu
        self.elementwise = elementwise
        self.transcendental = transcendental
        self.ufunc = ufunc
        self.alias_of = alias_of
        self.value_attr = value_attr
        self.static_value = static_value
        self.variable_read = variable_read
        self.placeholder = placeholder
        self.cost = cost
        self.records_for_gradient = records_for_gradient

    def __repr__(self):
        return "OpDef(%r)" % self.type


def register_op(op_type, *, infer, kernel, grad=None, stateful=False, ref_inputs=(), override=False,
                specialize=None, inline=None, gpu=None, host_inputs=(), shape_inputs=(), on_host=False,
                elementwise=False, transcendental=False, alias_of=None, value_attr=None, static_value=None,
                variable_read=False, placeholder=False, cost=None, records_for_gradient=False, ufunc=None):
    """Declares an op type.

    Args:
      op_type: The op type string ("MatMul").
      infer: Static output dtypes and shapes, `op -> [(DType, shape), ...]`.
      kernel: The NumPy kernel (see module docstring).
      grad: The gradient function, `NO_GRADIENT` for a non-differentiable op, or None (no rule:
        asking for its gradient raises LookupError).
      stateful: Whether the kernel reads or writes session state or has side effects.
      ref_inputs: Input positions that are variable references.
      override: Allow replacing an existing declaration.
      specialize: Optional compile-time specializer for constant inputs (see module docstring).
      inline: Optional expression template the compiled plan may write instead of calling `kernel`.
      gpu: The accelerator kernel: True for `kernel` itself (written against `xp` alone), a kernel
        of its own, or None for none (the op runs on the host).
      host_inputs, shape_inputs, on_host: Where an accelerator kernel reads its inputs (module docstring).
      elementwise, transcendental, ufunc, alias_of, value_attr, static_value, variable_read, placeholder, cost,
        records_for_gradient: Traits the runtime reads (module docstring).

    Returns:
      The `OpDef`.

    Raises:
      KeyError: If `op_type` is already declared and `override` is false.
      ValueError: If `on_host` is given without `gpu`.
    """
    if op_type in _OPS and not override:
        raise KeyError("Op type %r is already registered." % op_type)
    if gpu is None or gpu is False:
        if on_host or host_inputs or shape_inputs:
            raise ValueError("Op type %r: host_inputs, shape_inputs and on_host need an accelerator kernel (gpu=)."
                             % op_type)
        device = None
    else:
        device = DeviceKernel(None if gpu is True else gpu, host_inputs, shape_inputs, on_host)
    d = OpDef(op_type, infer, kernel, stateful, ref_inputs, specialize, inline, device, elementwise, transcendental,
              alias_of, value_attr, static_value, variable_read, placeholder, cost, records_for_gradient, ufunc)
    _OPS[op_type] = d
    if grad is NO_GRADIENT:
        _GRADIENTS[op_type] = None
    elif grad is not None:
        _GRADIENTS[op_type] = grad
    return d


def _internal_infer(op):
    raise TypeError("%s is an internal op of compiled plans, not created in graphs" % op._type)


def register_internal_op(op_type, kernel):
    """Declares an internal op: one that only plan rewrites create (never a graph), named "_...",
    with a pure `kernel` and no gradient.

    Raises:
      ValueError: If `op_type` does not start with "_".
    """
    if not op_type.startswith("_"):
        raise ValueError("Internal op types start with '_', got %r" % op_type)
    return register_op(op_type, infer=_internal_infer, kernel=kernel, grad=NO_GRADIENT)


def get_op_def(op_type):
    try:
        return _OPS[op_type]
    except KeyError:
        raise LookupError("Op type %r is not registered." % op_type) from None


def list_ops():
    """Returns the sorted list of registered op types."""
    return sorted(_OPS)


# Plan rewrite stages, in the order the runtime runs them (runtime/codegen.py):
# - "simplify": per step, before dead-code removal: an algebraic identity may alias the step's output
#   to one of its arguments (the rule returns that argument's name) or drop it.
# - "fuse": patterns of several ops become one internal fused op (a convolution's epilogue, a ReLU
#   folded into a pooling gradient), before elementwise fusion.
# - "share": fused steps exchange intermediate values (a convolution's patch matrices).
# - "late": after elementwise fusion (add chains accumulated in place).
REWRITE_STAGES = ("simplify", "fuse", "share", "late")
_REWRITES = {stage: {} for stage in REWRITE_STAGES}


def register_rewrite(stage, root_types, name=None):
    """Decorator registering a plan rewrite for steps whose op type is one of `root_types`.

    A "simplify" rule is `rule(step, plan) -> name or None` (the argument name the step's single
    output equals). A rule of the other stages is `rule(step, plan) -> None or a rewrite`, where a
    rewrite is `(new_step, absorbed_steps, replaced_steps)`: `new_step` takes the place of `step`,
    the steps in `absorbed_steps` are dropped and each `(old, new)` of `replaced_steps` swaps an
    earlier step for a new one. `plan` (`runtime.passes.PlanView`) answers questions about the plan:
    producers, consumers, use counts, constant values. Steps are `runtime.passes.Step` records.

    Args:
      stage: One of `REWRITE_STAGES`.
      root_types: An op type or a list of them.
      name: The rule's name (its function's name by default), for `rewrites()` and tests.

    Returns:
      The decorator, which returns the rule unchanged.
    """
    if stage not in _REWRITES:
        raise ValueError("Unknown rewrite stage %r; expected one of %s" % (stage, ", ".join(REWRITE_STAGES)))
    roots = [root_types] if isinstance(root_types, str) else list(root_types)

    def register(rule):
        rule_name = name or rule.__name__
        for t in roots:
            rules = _REWRITES[stage].setdefault(t, [])
            if any(n == rule_name for n, _ in rules):
                raise KeyError("Rewrite %r is already registered for %s in stage %r." % (rule_name, t, stage))
            rules.append((rule_name, rule))
        return rule

    return register


def rewrites(stage):
    """`{root op type: [(name, rule), ...]}` of one stage (the registry's own dict: do not modify)."""
    return _REWRITES[stage]


class RegisterGradient:
    """Decorator registering a gradient function for an op type (or an override name).

    Example:
      @tf.RegisterGradient("MyGrad")
      def _my_grad(op, grad): ...
    """

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        if self._op_type in _GRADIENTS and _GRADIENTS[self._op_type] is not f:
            raise KeyError("Registering two gradient with name '%s'! (Previous registration was in %s)"
                           % (self._op_type, getattr(_GRADIENTS[self._op_type], "__module__", "?")))
        _GRADIENTS[self._op_type] = f
        return f


def NotDifferentiable(op_type):  # noqa: N802 (TF's name)
    """Declares that ops of `op_type` have no gradient (their inputs get None)."""
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    _GRADIENTS[op_type] = None


no_gradient = NotDifferentiable


def get_gradient_function(op):
    """Returns the gradient function of `op` (honouring gradient overrides), or None.

    Raises:
      LookupError: If no gradient is registered for the op's (override) type.
    """
    op_type = op._grad_type or op.type
    if op_type not in _GRADIENTS:
        raise LookupError("No gradient defined for operation '%s' (op type: %s)" % (op.name, op_type))
    return _GRADIENTS[op_type]
