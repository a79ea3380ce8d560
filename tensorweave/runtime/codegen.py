"""Compiles an ordered plan into one generated Python function: straight-line kernel calls over
local variables, attributes bound as constants, each buffer dropped after its last use."""

import contextlib
import functools
import itertools
import keyword
import time

import numpy as np

from ..framework import errors
from ..framework.registry import NOT_CONSTANT
from ..platform import fpstate, threads
from . import fusion, interop, passes, shapespec
from .plan import Step, ref_key

_counter = itertools.count()


class PlanOptions:
    """Which compile passes run (from the session's `GraphOptions.optimizer_options`)."""

    __slots__ = ("constant_folding", "cse", "simplify", "fusion_threads", "inter_op")

    def __init__(self, constant_folding=True, cse=True, simplify=True, fusion_threads=None, inter_op=False):
        self.constant_folding = constant_folding
        self.cse = cse
        self.simplify = simplify
        # 0 turns fusion off; None: the intra-op thread count when the plan is compiled.
        self.fusion_threads = fusion_threads
        # Run independent heavy matmuls in pairs (where interop.enabled() when compiling).
        self.inter_op = inter_op


DEFAULT_OPTIONS = PlanOptions()


class CompiledPlan:
    """A callable `plan(feed_values) -> tuple of fetched values`, plus what error reporting needs.

    `line_ops` maps `(filename, line)` of generated code to the op whose kernel that line calls;
    `fused` lists the op groups that run as fused kernels; `feed_shapes` the fed shapes a
    specialized plan was compiled for (None: any).
    """

    __slots__ = ("fn", "filename", "line_ops", "source", "ops", "fused", "trace_steps", "env", "feed_shapes")

    def __init__(self, fn, filename, line_ops, source, ops, fused=()):
        self.fn = fn
        self.filename = filename
        self.line_ops = line_ops
        self.source = source
        self.ops = ops
        self.fused = fused
        self.trace_steps = None
        self.env = None  # the generated function's globals (compiled plans only)
        self.feed_shapes = None

    def op_for_traceback(self, tb):
        """The op whose kernel raised, found from the innermost generated frame's line."""
        return op_for_traceback(self.line_ops, tb)


def op_for_traceback(line_ops, tb):
    """The op `line_ops[(filename, line)]` of the innermost traceback frame found there, or None."""
    op = None
    while tb is not None:
        found = line_ops.get((tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        if found is not None:
            op = found
        tb = tb.tb_next
    return op


def bind_kernel(op, ctx):
    """The kernel of `op` with its device module (or session state) and attributes bound."""
    d = op._op_def
    attrs = {k: v for k, v in op._attrs.items() if k[0] != "_"}
    if d.stateful:
        return functools.partial(d.kernel, ctx, op, **attrs)
    return functools.partial(d.kernel, np, **attrs)


def _freeze(v):
    if isinstance(v, np.ndarray) and v.flags.writeable:
        v.flags.writeable = False
    return v


def _fold(op, values):
    """Runs a pure op on constant inputs at compile time; None if it raises (the run reports it)."""
    try:
        with fpstate.quiet():
            out = bind_kernel(op, None)(*values)
    except Exception:
        return None
    n = len(op._outputs)
    outs = [out] if n == 1 else list(out)
    if len(outs) != n:
        return None
    return [_freeze(v) for v in outs]


def compile_plan(order, fetch_tensors, feed_tensors, ctx, trace=False, placement=None, feed_shapes=None):
    """Generates and compiles the run function for one (fetches, feeds) signature.

    With `feed_shapes` (one shape tuple per feed) the plan is specialized: compiled with the static
    shapes those feeds imply (`shapespec`), valid only for runs fed exactly those shapes; None when
    they refine nothing or shape inference rejects them.

    Passes: constant folding (pure ops on constants, ops that only need a fully defined static
    shape), aliasing of identity-like ops, algebraic simplification and common-subexpression
    elimination (`passes`), dead-code removal, elementwise fusion (`fusion`), add chains as one
    accumulation (`passes`), optional inter-op pairs (`interop`), then straight-line code (with
    `specialize`d kernels and `inline` expressions) that frees each value after its last use.
    `ctx.plan_options` (a `PlanOptions`) selects the passes. With `trace`, the function takes a
    list as second argument and appends
    `(step, start, end)` (`time.perf_counter` seconds) for each step; `plan.trace_steps[step]` is
    the op (or the list of fused ops) that step ran. A `placement` (`runtime.placement.place`)
    runs the steps placed on accelerators there, with copies between devices.
    """
    if feed_shapes is not None:
        with shapespec.refined(order, feed_tensors, feed_shapes) as refined:
            if not refined:
                return None
            plan = _compile_plan(order, fetch_tensors, feed_tensors, ctx, trace, placement)
        plan.feed_shapes = feed_shapes
        return plan
    # The graph's lock: a specialized compile in another thread changes static shapes meanwhile.
    with order[0]._graph._lock if order else contextlib.nullcontext():
        return _compile_plan(order, fetch_tensors, feed_tensors, ctx, trace, placement)


def _compile_plan(order, fetch_tensors, feed_tensors, ctx, trace, placement):
    options = getattr(ctx, "plan_options", None) or DEFAULT_OPTIONS
    env = {}
    slot = {}
    fed = set(feed_tensors)
    for i, t in enumerate(feed_tensors):
        slot[t] = "f%d" % i
    const = {}  # tensor -> folded value
    consts_by_value = {}
    emitted = []  # [pos, op, arg slot names, output slot names]
    # A variable's value is read when its variable op runs; an op running after a write to that variable
    # (an op with the variable as ref input) must see the new value, as TF's reads of the buffer at use do:
    # such an op gets a fresh read of its own. Writes are counted per variable key.
    writes = {}
    read_at = {}  # variable-read output tensor -> the write count of its variable when its slot was read
    for pos, op in enumerate(order):
        d = op._op_def
        refs = d.ref_inputs
        if d.value_attr is not None:
            for t in op._outputs:
                if t not in fed:
                    const[t] = op._attrs[d.value_attr]
            continue
        if (options.constant_folding and not d.stateful and op._outputs and not refs
                and all(t in const for t in op._inputs)):
            vals = _fold(op, [const[t] for t in op._inputs])
            if vals is not None:
                for t, v in zip(op._outputs, vals):
                    if t not in fed:
                        const[t] = v
                continue
        if d.static_value is not None and options.constant_folding:
            dims = op._inputs[0]._shape.as_tuple()
            if dims is not None and None not in dims:
                const[op._outputs[0]] = _freeze(d.static_value(op, dims))
                continue
        args = []
        for i, t in enumerate(op._inputs):
            if i in refs:
                args.append(repr(ref_key(op, i)))
            else:
                src = t._op
                if t in read_at and read_at[t] != writes.get(src._name, 0):
                    fresh = "t%d_r%d" % (pos, i)
                    emitted.append(Step(pos, src, [], [fresh]))
                    slot[t] = fresh
                    read_at[t] = writes.get(src._name, 0)
                args.append(_slot_of(t, slot, const, env, consts_by_value))
        for i in range(len(op._inputs)):
            if i in refs:
                key = ref_key(op, i)
                writes[key] = writes.get(key, 0) + 1
        if d.variable_read and op._outputs and op._outputs[0] not in fed:
            read_at[op._outputs[0]] = writes.get(op._name, 0)
        if d.alias_of is not None and op._outputs[0] not in fed:
            slot[op._outputs[0]] = args[d.alias_of]
            continue
        if not op._outputs and not d.stateful:  # no value, no effect
            continue
        outs = []
        for j, t in enumerate(op._outputs):
            if t in fed:
                outs.append("_")
            else:
                slot[t] = "t%d_%d" % (pos, j)
                outs.append(slot[t])
        emitted.append(Step(pos, op, args, outs))
    rename = {}
    emitted = passes.simplify_and_cse(emitted, env, rename, options.simplify, options.cse)
    results = [_slot_of(t, slot, const, env, consts_by_value) for t in fetch_tensors]
    results = [rename.get(r, r) for r in results]
    emitted = _dead_code(emitted, results)
    if placement is not None:  # some ops run off the host: device modules and copies (placement.py)
        emitted, results = placement.rewrite(emitted, results, env)
    if placement is None and options.simplify:
        emitted = passes.run_stage("fuse", emitted, results, env)
        emitted = passes.run_stage("share", emitted, results, env)
    items = emitted
    # Fused blocks hold no BLAS calls: by default they use every intra-op thread.
    n_threads = threads.intra_op_threads() if options.fusion_threads is None else options.fusion_threads
    if n_threads and placement is None:
        items = fusion.find_groups(emitted, n_threads)
    if placement is None and options.simplify:
        items = _dead_code(passes.run_stage("late", items, results, env), results)
    steps = [_fused_step(it, items, results, env, n_threads) if isinstance(it, fusion.FusedGroup) else it
             for it in items]
    if placement is None and not trace and options.inter_op and interop.enabled():
        steps = interop.pair_steps(steps)
    # Last use of each local, so buffers are freed early; fetched values live to the end.
    last_use = {}
    for k, (_, _, args, _) in enumerate(steps):
        for a in args:
            last_use[a] = k
    keep = set(results)
    lines = ["def _plan(_feeds, _trace):" if trace else "def _plan(_feeds):"]
    if feed_tensors:
        lines.append("    %s, = _feeds" % ", ".join(slot[t] for t in feed_tensors))
    filename = "<tensorweave-plan-%d>" % next(_counter)
    line_ops = {}
    fused = []
    env["XP"] = np
    env["CTX"] = ctx
    env["_now"] = time.perf_counter
    trace_steps = []
    for k, (pos, op, args, outs) in enumerate(steps):
        outs = [o if o in last_use or o in keep else "_" for o in outs]
        if isinstance(op, fusion.FusedGroup):  # a kernel compiled for the step
            env["K%d" % pos] = op.kernel
            line_ops.update(op.line_ops)
            fused.append(op.ops)
            statement = [("K%d(%s)" % (pos, ", ".join(args)), op.line_op)]
        elif isinstance(op, interop.ParallelPair):
            env["RUN_PAIR"] = interop.run_pair
            (pa, oa, aa, _), (pb, ob, ab, _) = op.steps
            statement = [("RUN_PAIR(", oa), ("    lambda: %s," % _kernel_call(env, pa, oa, aa), oa),
                         ("    lambda: %s)" % _kernel_call(env, pb, ob, ab), ob)]
        else:
            statement = [(_kernel_call(env, pos, op, args), op.line_op if isinstance(op, passes.FusedOp) else op)]
        if trace:
            lines.append("    _s = _now()")
            trace_steps.append(op.ops if isinstance(op, (fusion.FusedGroup, passes.FusedOp)) else op)
        for i, (text, line_op) in enumerate(statement):
            lines.append(("    %s = " % ", ".join(outs) if outs and not i else "    ") + text)
            line_ops[(filename, len(lines))] = line_op
        if trace:
            lines.append("    _trace.append((%d, _s, _now()))" % k)
        dead = sorted({a for a in args if last_use.get(a) == k and a not in keep and _is_local(a)})
        if dead:
            lines.append("    del %s" % ", ".join(dead))
    lines.append("    return (%s)" % "".join(r + ", " for r in results))
    source = "\n".join(lines) + "\n"
    code = compile(source, filename, "exec")
    # Generated plan source, not file data: graph values reach it only as env constants, op names as
    # repr() literals, attr names as identifiers (_kernel_call), so no graph text becomes code.
    exec(code, env)
    plan = CompiledPlan(env["_plan"], filename, line_ops, source, order, fused)
    plan.trace_steps = trace_steps
    plan.env = env
    return plan


def _dead_code(items, results):
    """Drops pure steps none of whose outputs is used any more (after folding, aliasing, rewrites)."""
    live = set(results)
    kept = []
    for item in reversed(items):
        if isinstance(item, Step):
            _, op, args, outs = item
            if not op._op_def.stateful:
                if not any(o in live for o in outs):
                    continue
        else:  # a fused group
            args = fusion.group_inputs(item)
        kept.append(item)
        live.update(args)
    return kept[::-1]


def _fused_step(group, items, results, env, n_threads):
    """Compiles a fused group's kernel (`group.kernel`) and returns its step `[pos, group, args, outs]`."""
    needed = set(results)
    for it in items:
        if it is not group:
            needed.update(fusion.group_inputs(it) if isinstance(it, fusion.FusedGroup) else it.args)
    inputs = fusion.group_inputs(group)
    outputs = [s.outs[0] for s in group.steps if s.outs[0] in needed]
    shapes = [_static_shape(group, a, env) for a in inputs]
    fn, filename, lines = fusion.build_kernel(group, inputs, outputs, shapes, n_threads, _kernel_call)
    pos = group.steps[-1].pos
    group.kernel = fn
    group.line_ops = {(filename, line): op for line, op in lines.items()}
    return Step(pos, group, inputs, outputs)


def _static_shape(group, name, env):
    if name in env:  # a constant
        return np.shape(env[name])
    for _, op, args, _ in group.steps:
        for a, t in zip(args, op._inputs):
            if a == name:
                return t._shape.as_tuple()
    raise KeyError(name)


def _kernel_call(env, pos, op, args):
    """Source of one kernel call: the raw kernel with the device module (or session state and op)
    and attributes passed as named constants, which calls faster than a functools.partial.
    A variable read is inlined as a lookup (a KeyError there means uninitialized).

    An op's `inline` (a template or the function of the op returning one) is written instead of
    the call: a format string whose positional fields are the arguments, or a pair
    `(template, {name: value})` whose `{name}` fields name the values (helper functions, dtypes)
    bound in `env` for the step, so the runtime needs to know no op's helpers."""
    d = op._op_def
    if d.variable_read:
        env["VARS"] = env["CTX"].variables
        return "VARS[%r]" % op._name
    bound = "K%d" % pos in env or "XP%d" % pos in env  # a placement bound a device's kernel
    if d.stateful:
        env["OP%d" % pos] = op
        head = ["CTX", "OP%d" % pos]
    else:
        head = ["XP%d" % pos if "XP%d" % pos in env else "XP"]
        inline = d.inline(op) if callable(d.inline) else d.inline
        if inline is not None and not bound:
            names = {}
            if type(inline) is tuple:  # (template, {name: value}): the template's {name} fields are values
                inline, values = inline
                for name, value in values.items():
                    names[name] = "H%d_%s" % (pos, name)
                    env[names[name]] = value
            if all(t._shape._dims == () for a, t in zip(args, op._inputs) if a[0] != "C"):
                args = [_scalar_const(a, env) for a in args]
            return inline.format(*args, **names)
    if d.specialize is not None and not bound and any(a[0] == "C" for a in args):
        k = d.specialize(op, [env[a] if a[0] == "C" else NOT_CONSTANT for a in args])
        if k is not None:
            env["K%d" % pos] = k
            return "K%d(%s)" % (pos, ", ".join(head + [a for a in args if a[0] != "C"]))
    env.setdefault("K%d" % pos, d.kernel)
    kw = []
    other = {}
    for name, value in op._attrs.items():
        if name[:1] != "_":
            if not name.isidentifier() or keyword.iskeyword(name):
                other[name] = value  # graph text (an imported file's) never becomes source code
                continue
            const = "A%d_%s" % (pos, name)
            env[const] = value
            kw.append("%s=%s" % (name, const))
    if other:
        env["AKW%d" % pos] = other
        kw.append("**AKW%d" % pos)
    return "K%d(%s)" % (pos, ", ".join(head + list(args) + kw))


def _slot_of(t, slot, const, env, by_value):
    name = slot.get(t)
    if name is not None:
        return name
    if t in const:
        value = const[t]
        key = _value_key(value)
        name = by_value.get(key) if key is not None else None
        if name is None:
            name = "C%d" % len(env)  # env holds only constants until the emit pass
            env[name] = value
            if key is not None:
                by_value[key] = name
        slot[t] = name
        return name
    raise errors.InternalError(None, t.op, "value of %s was not computed by the plan" % t.name)


def _scalar_const(name, env):
    """For an operator expression on scalars: a 0-d constant as a NumPy scalar, whose operators with
    another NumPy scalar (what ufuncs return for 0-d results) take NumPy's scalar fast path (~60 ns)
    where a 0-d array goes through the ufunc machinery (~1 us); same result and dtype. With an array
    operand the 0-d array is the faster one (mixing a NumPy scalar in costs ~30% more)."""
    v = env.get(name) if name[0] == "C" else None
    if type(v) is not np.ndarray or v.ndim or v.dtype.kind not in "biufc":
        return name
    env["S" + name] = v[()]
    return "S" + name


def _value_key(v):
    """Equal small constants share one name (so CSE sees them as the same input)."""
    if type(v) is np.ndarray and v.size <= 64 and v.dtype.kind in "biufc":
        return (v.dtype.str, v.shape, v.tobytes())
    return None


def _is_local(name):
    return name[0] in "tf"


def interpret_plan(order, fetch_tensors, feed_tensors, ctx, trace=False, placement=None):
    """The reference executor: the same plan run op by op in a Python loop (for debugging). It runs
    every op on the host, wherever `placement` put it."""
    kernels = [(op, bind_kernel(op, ctx)) for op in order]
    now = time.perf_counter

    def run(feeds, _trace=None):
        values = dict(zip(feed_tensors, feeds))
        for step, (op, k) in enumerate(kernels):
            refs = op._op_def.ref_inputs
            args = [ref_key(op, i) if i in refs else values[t] for i, t in enumerate(op._inputs)]
            start = now()
            try:
                out = k(*args)
            except Exception as e:
                e._tw_op = op
                raise
            if _trace is not None:
                _trace.append((step, start, now()))
            n = len(op._outputs)
            if n == 1:
                values[op._outputs[0]] = out
            elif n > 1:
                for t, v in zip(op._outputs, out):
                    values[t] = v
        return tuple(values[t] for t in fetch_tensors)

    plan = CompiledPlan(run, "<tensorweave-interpreter>", {}, None, order)
    plan.trace_steps = list(order)
    return plan
