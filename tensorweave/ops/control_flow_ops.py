"""Functional control flow: `tf.cond`/`tf.case` build an "If" op holding both branches as function
graphs, `tf.while_loop` a "While" op holding its condition and body. The runtime runs only the
taken branch and loops the body's compiled plan. Gradients: an If of the branch gradients; for a
While, the loop records each iteration's values and "WhileGrad" replays the body's gradient over
them in reverse (no recursion, linear in the number of iterations).

The kernels compile and run their function graphs through the `ctx` they receive (the runtime's
`KernelContext`: `ctx.compile_function`, `ctx.call_function`, `ctx.compile_loop`), so this module
knows no compiler; the gradient rules differentiate a body with `framework.graph_gradients`."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.func_graph import FuncGraph
from ..framework.graph_gradients import gradients
from ..framework.registry import register_op
from ..framework.tensor_shape import TensorShape, as_shape
from . import core_ops, nest


class Function:
    """A traced function: its graph, the placeholders it is called with, the tensors it returns."""

    __slots__ = ("graph", "inputs", "outputs")

    def __init__(self, graph, inputs, outputs):
        self.graph = graph
        self.inputs = list(inputs)
        self.outputs = list(outputs)

    def __repr__(self):
        return "<Function %s: %d inputs, %d outputs>" % (self.graph.name, len(self.inputs), len(self.outputs))


def _differentiable(dtype):
    return dtype.is_floating or dtype.is_complex or dtype is dtypes.variant


def _reraise(e, *plans):
    """Re-raises an error from inside a function's plan as TF's error class naming the inner op."""
    for p in plans:
        op = p.op_for_traceback(e.__traceback__)
        if op is not None:
            break
    err = errors.wrap_kernel_error(e, op)
    if err is e:
        raise e
    raise err from errors.cause_of(e)


def trace(fn, name, input_specs, args_to_fn=None, op_value=True):
    """Traces `fn` into a function graph.

    Args:
      fn: The Python function.
      name: The graph's name.
      input_specs: `(dtype, shape)` for each placeholder argument.
      args_to_fn: Maps the list of placeholders to `fn`'s positional arguments (default: as is).
      op_value: The boolean an Operation result stands for (TF1's cond pivot: the predicate).

    Returns:
      `(graph, placeholders, result)`: `result` is what `fn` returned; `graph.outputs` holds its
      leaves as tensors of the function graph (a TensorArray by its flow, an Operation as a bool
      tensor that runs it).
    """
    outer = ops.get_default_graph()
    g = FuncGraph(name, outer)
    with g.as_default():
        phs = [core_ops.placeholder(dt, shp, name="arg") for dt, shp in input_specs]
        g.inputs = phs
        result = fn(*(args_to_fn(phs) if args_to_fn else phs))
        g.outputs = [_to_inner(g, leaf, op_value) for leaf in nest.flatten(result)]
    return g, phs, result


def _to_inner(g, value, op_value=True):
    if nest.is_tensor_array(value):
        value = value.flow
    if isinstance(value, ops.Operation):
        # As TF1's cond: an op stands as a true boolean computed after it.
        with g.as_default(), g.control_dependencies([value]):
            return core_ops.identity(ops.convert_to_tensor(op_value))
    t = ops.convert_to_tensor(value)
    return g.capture(t) if t.graph is not g else t


# ---- If -----------------------------------------------------------------------------------------
def _if_infer(op):
    return list(op._attrs["output_specs"])


def _if_kernel(ctx, op, pred, *args, then_fn, else_fn, n_then, output_specs, replay=False):
    if getattr(pred, "ndim", 0) != 0:
        raise errors.InvalidArgumentError(None, op, "The predicate of cond must be a scalar, but it has shape %s"
                                          % (list(pred.shape),))
    ctx.replaying += replay
    try:
        if pred:
            out = ctx.call_function(then_fn, args[:n_then])
        else:
            out = ctx.call_function(else_fn, args[n_then:])
    finally:
        ctx.replaying -= replay
    return out[0] if len(out) == 1 else out


def _if_grad(op, *grads):
    """The gradient of If(p, f, g) is If(p, f', g'), each branch differentiating its own function and
    giving zeros for the other branch's inputs."""
    then_fn, else_fn, n_then = op._attrs["then_fn"], op._attrs["else_fn"], op._attrs["n_then"]
    args = list(op._inputs[1:])
    diff_args = [i for i, a in enumerate(args) if _differentiable(a.dtype)]
    diff_outs = [j for j, t in enumerate(op._outputs) if _differentiable(t.dtype)]
    dys = [_or_zero(grads[j], op._outputs[j]) for j in diff_outs]
    branch_grads = []
    for fn, lo, hi in ((then_fn, 0, n_then), (else_fn, n_then, len(args))):
        branch_grads.append(_branch_gradient(fn, args, lo, hi, diff_args, diff_outs, op))
    specs = [(args[i].dtype, args[i].shape.as_tuple()) for i in diff_args]
    outs = ops.apply_op("If", [op._inputs[0]] + args + dys + args + dys,
                        {"then_fn": branch_grads[0], "else_fn": branch_grads[1],
                         "n_then": len(args) + len(dys), "output_specs": specs, "replay": True})
    outs = outs if isinstance(outs, list) else [outs]
    result = [None] * len(op._inputs)
    for k, i in enumerate(diff_args):
        result[1 + i] = outs[k]
    return result


def _branch_gradient(fn, args, lo, hi, diff_args, diff_outs, op):
    """A function of (all If args, dys) giving d/d(args) of `fn` for its own args, zeros for others."""
    g = fn.graph
    with g.as_default(), g.name_scope("gradients_%s" % op.name.replace("/", "_")):
        full = []
        for i, a in enumerate(args):
            full.append(fn.inputs[i - lo] if lo <= i < hi else core_ops.placeholder(a.dtype, a.shape, name="other"))
        dys = []
        ys = []
        for j in diff_outs:
            t = op._outputs[j]
            dys.append(core_ops.placeholder(t.dtype, t.shape, name="dy"))
            ys.append(fn.outputs[j])
        xs = [full[i] for i in diff_args]
        gs = gradients(ys, xs, grad_ys=dys) if ys else [None] * len(xs)
        outs = [ops.convert_to_tensor(_or_zero(gx, x)) for x, gx in zip(xs, gs)]
    return Function(g, full + dys, outs)


register_op("If", infer=_if_infer, kernel=_if_kernel, grad=_if_grad, stateful=True)


def _none_like(x):
    """A variant value standing for 'no gradient' (an empty gradient TensorArray)."""
    return ops.apply_op("NoneLike", [x])


def _or_zero(grad, like):
    """`grad`, or the zero gradient of `like` when there is none (None-valued for variants)."""
    if grad is not None:
        return grad
    return _none_like(like) if like.dtype is dtypes.variant else core_ops.zeros_like(like)


register_op("NoneLike", infer=core_ops.same_as_input, kernel=lambda xp, x: None, grad=lambda op, g: [None])


def cond(pred, true_fn=None, false_fn=None, strict=False, name=None, fn1=None, fn2=None):
    """Returns `true_fn()` if `pred` is true else `false_fn()`; only the taken branch runs.

    Args:
      pred: A scalar bool tensor.
      true_fn, false_fn: Callables returning the same structure of tensors (of the same dtypes).
      strict: If false, a singleton list/tuple result is unpacked, as TF1 does.
      name: Name scope (default "cond").
      fn1, fn2: Deprecated names of true_fn and false_fn.

    Returns:
      The taken branch's results (the If op's outputs, in the branches' structure).

    Raises:
      TypeError: If `pred` is a Python bool, or a branch is not callable.
      ValueError: If the branches return different structures or dtypes, or `pred` is not scalar.
    """
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): true_fn and fn1 may not be set simultaneously.")
        true_fn = fn1
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): false_fn and fn2 may not be set simultaneously.")
        false_fn = fn2
    if not callable(true_fn):
        raise TypeError("true_fn must be callable.")
    if not callable(false_fn):
        raise TypeError("false_fn must be callable.")
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool")
    if ops.get_default_graph()._eager:
        # Eagerly, as TF: the predicate has a value, so only the chosen function is called.
        taken = true_fn if bool(ops.convert_to_tensor(pred)) else false_fn
        result = taken()
        return _unpack_singleton(result) if not strict else result
    with ops.name_scope(name, "cond", [pred]) as scope:
        pred = ops.convert_to_tensor(pred)
        if pred.dtype is not dtypes.bool_:
            raise TypeError("pred must be a bool tensor, got %s" % pred.dtype.name)
        if not pred.shape.is_compatible_with(TensorShape([])):
            raise ValueError("Shape must be rank 0 but is rank %d for 'cond' (pred)" % pred.shape.ndims)
        if not strict:
            tg, _, t_struct = trace(lambda: _unpack_singleton(true_fn()), "cond_true", [])
            fg, _, f_struct = trace(lambda: _unpack_singleton(false_fn()), "cond_false", [], op_value=False)
        else:
            tg, _, t_struct = trace(true_fn, "cond_true", [])
            fg, _, f_struct = trace(false_fn, "cond_false", [], op_value=False)
        try:
            nest.assert_same_structure(t_struct, f_struct)
        except (ValueError, TypeError) as e:
            raise ValueError("true_fn and false_fn arguments to tf.cond must have the same number, type, and "
                             "overall structure of return values. (%s)" % e) from None
        specs = []
        for t, f in zip(tg.outputs, fg.outputs):
            if t.dtype is not f.dtype:
                raise ValueError("Outputs of true_fn and false_fn must have the same type: %s, %s"
                                 % (t.dtype.name, f.dtype.name))
            specs.append((t.dtype, t.shape.most_specific_compatible_shape(f.shape).as_tuple()))
        t_args = tg.external_captures
        f_args = fg.external_captures
        then_fn = Function(tg, tg.internal_captures, tg.outputs)
        else_fn = Function(fg, fg.internal_captures, fg.outputs)
        if not specs:
            raise ValueError("tf.cond branches must return at least one tensor")
        outs = ops.apply_op("If", [pred] + t_args + f_args,
                            {"then_fn": then_fn, "else_fn": else_fn, "n_then": len(t_args),
                             "output_specs": specs}, name=scope)
        outs = outs if isinstance(outs, list) else [outs]
        return nest.pack_sequence_as(t_struct, nest.rewrap(nest.flatten(t_struct), outs))


def _unpack_singleton(x):
    """TF1's non-strict cond: a one-element list or tuple (namedtuples too) stands for its element."""
    if isinstance(x, (list, tuple)) and len(x) == 1:
        return x[0]
    return x


def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """Runs the function of the first true predicate (in order), else `default`.

    Args:
      pred_fn_pairs: A list of (bool tensor, callable) pairs, or a dict.
      default: Callable used when no predicate is true (default: the last pair's function).
      exclusive: If true, at most one predicate may be true (checked at run time).
      strict: As in `cond`.
      name: Name scope.

    Returns:
      The chosen function's results.

    Raises:
      TypeError: If the pairs are malformed.
    """
    pairs = list(pred_fn_pairs.items()) if isinstance(pred_fn_pairs, dict) else list(pred_fn_pairs)
    for p in pairs:
        if not isinstance(p, tuple) or len(p) != 2:
            raise TypeError("Each entry in pred_fn_pairs must be a 2-tuple")
        pred, fn = p
        if not isinstance(pred, ops.Tensor):
            raise TypeError("pred must be a Tensor, got: %s" % (pred,))
        if pred.dtype is not dtypes.bool_:
            raise TypeError("pred must be Tensor of type bool: %s" % pred.name)
        if not callable(fn):
            raise TypeError("fn for pred %s must be callable." % pred.name)
    if not pairs:
        if default is None:
            raise ValueError("pred_fn_pairs must not be empty when default is None")
        return default()
    from . import array_ops, math_ops
    from .logging_ops import Assert
    with ops.name_scope(name, "case", [p for p, _ in pairs]):
        preds = [p for p, _ in pairs]
        fns = [f for _, f in pairs]
        if exclusive and len(preds) > 1:
            count = math_ops.reduce_sum(math_ops.cast(array_ops.stack(preds), dtypes.int32))
            assert_op = Assert(math_ops.less_equal(count, 1), [
                "Input error: exclusive=True: more than 1 conditions (%s) evaluated as True:"
                % ", ".join(p.name for p in preds), array_ops.stack(preds)])
            with ops.control_dependencies([assert_op]):
                preds = [core_ops.identity(p) for p in preds]
        if default is None:
            # The last pair acts as the default, asserting that its predicate really holds.
            last_pred, last_fn = preds[-1], fns[-1]
            all_preds = array_ops.stack(preds)
            preds, fns = preds[:-1], fns[:-1]

            def default():
                with ops.control_dependencies([Assert(last_pred, ["Input error: None of conditions evaluated as "
                                                                  "True:", all_preds])]):
                    return _identity_nest(last_fn())
        fn = default
        for p, f in reversed(list(zip(preds, fns))):
            fn = _make_branch(p, f, fn, strict)
        return fn()


def _identity_nest(result):
    """The result with every tensor leaf passed through an Identity (so control dependencies apply)."""
    leaves = nest.flatten(result)
    out = [core_ops.identity(v) if isinstance(v, ops.Tensor) else v for v in leaves]
    return nest.pack_sequence_as(result, out) if leaves else result


def _make_branch(p, f, rest, strict):
    return lambda: cond(p, f, rest, strict=strict)


# ---- While ------------------------------------------------------------------------------------
def _while_infer(op):
    return list(op._attrs["output_specs"]) + [(dtypes.variant, ())]


def _while_kernel(ctx, op, *args, cond_fn, body_fn, n_vars, n_cond, has_max, output_specs, back_prop):
    n = len(args) - (1 if has_max else 0)
    limit = int(args[-1]) if has_max else -1
    values = list(args[:n_vars])
    cond_caps = list(args[n_vars:n_vars + n_cond])
    body_caps = list(args[n_vars + n_cond:n])
    history = [] if op._attrs.get("_record") else None
    cond_plan, body_plan = ctx.compile_function(cond_fn), ctx.compile_function(body_fn)
    loop = ctx.compile_loop(cond_fn, body_fn, n_vars)
    if loop is not None:
        try:
            values, _ = loop.fn(values, cond_caps, body_caps, limit, history)
        except Exception as e:
            _reraise(e, loop)
        return tuple(values) + (history,)
    run_cond, run_body = cond_plan.fn, body_plan.fn
    i = 0
    try:
        while limit < 0 or i < limit:
            c = run_cond(values + cond_caps if cond_caps else values)[0]
            if type(c) is not np.bool_ and getattr(c, "ndim", 0) != 0:
                raise errors.InvalidArgumentError(
                    None, op, "The condition of a while loop must be a scalar, got shape %s" % (list(c.shape),))
            if not c:
                break
            if history is not None:
                history.append(values)
            values = list(run_body(values + body_caps if body_caps else values))
            i += 1
    except errors.InvalidArgumentError as e:
        if e.op is op:
            raise
        _reraise(e, cond_plan, body_plan)
    except Exception as e:
        _reraise(e, cond_plan, body_plan)
    return tuple(values) + (history,)


def _while_grad(op, *grads):
    """Replays the body's gradient over the recorded iterations, last to first."""
    a = op._attrs
    n_vars, n_cond = a["n_vars"], a["n_cond"]
    if not a["back_prop"]:
        return [None] * len(op._inputs)
    if not a.get("_record"):
        a["_record"] = True
        op._graph._version += 1  # plans compiled before now did not record
    body = a["body_fn"]
    n_body_caps = len(op._inputs) - n_vars - n_cond - (1 if a["has_max"] else 0)
    body_caps = list(op._inputs[n_vars + n_cond:n_vars + n_cond + n_body_caps])
    diff_vars = [k for k in range(n_vars) if _differentiable(op._outputs[k].dtype)]
    diff_caps = [k for k in range(n_body_caps) if _differentiable(body_caps[k].dtype)]
    g = body.graph
    with g.as_default(), g.name_scope("gradients_%s" % op.name.replace("/", "_")):
        dys = [core_ops.placeholder(op._outputs[k].dtype, op._outputs[k].shape, name="dy") for k in diff_vars]
        xs = [body.inputs[k] for k in diff_vars] + [body.inputs[n_vars + k] for k in diff_caps]
        gs = gradients([body.outputs[k] for k in diff_vars], xs, grad_ys=dys) if diff_vars else [None] * len(xs)
        outs = [ops.convert_to_tensor(_or_zero(gx, x)) for x, gx in zip(xs, gs)]
    grad_fn = Function(g, list(body.inputs) + dys, outs)
    final = [_or_zero(grads[k], op._outputs[k]) for k in diff_vars]
    specs = [(op._inputs[k].dtype, op._inputs[k].shape.as_tuple()) for k in diff_vars] + \
        [(body_caps[k].dtype, body_caps[k].shape.as_tuple()) for k in diff_caps]
    outs = ops.apply_op("WhileGrad", [op._outputs[-1]] + body_caps + final,
                        {"grad_fn": grad_fn, "n_vars": n_vars, "diff_vars": diff_vars, "diff_caps": diff_caps,
                         "output_specs": specs})
    outs = outs if isinstance(outs, list) else [outs]
    result = [None] * len(op._inputs)
    for pos, k in enumerate(diff_vars):
        result[k] = outs[pos]
    for pos, k in enumerate(diff_caps):
        result[n_vars + n_cond + k] = outs[len(diff_vars) + pos]
    return result


register_op("While", infer=_while_infer, kernel=_while_kernel, grad=_while_grad, stateful=True,
            records_for_gradient=True)


def _while_grad_kernel(ctx, op, history, *args, grad_fn, n_vars, diff_vars, diff_caps, output_specs):
    n_caps = len(args) - len(diff_vars)
    caps = list(args[:n_caps])
    dys = list(args[n_caps:])
    nd = len(diff_vars)
    acc = [None] * len(diff_caps)
    ctx.replaying += 1
    try:
        for values in reversed(history or ()):
            out = ctx.call_function(grad_fn, list(values) + caps + dys)
            dys = list(out[:nd])
            for k in range(len(diff_caps)):
                v = out[nd + k]
                acc[k] = v if acc[k] is None else _add(acc[k], v)
    finally:
        ctx.replaying -= 1
    for k, c in enumerate(diff_caps):
        if acc[k] is None:
            acc[k] = _zeros_of(caps[c])
    out = tuple(dys) + tuple(acc)
    return out[0] if len(out) == 1 else out


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def _zeros_of(v):
    import numpy as np
    return np.zeros_like(v) if isinstance(v, np.ndarray) or np.isscalar(v) else None


register_op("WhileGrad", infer=lambda op: list(op._attrs["output_specs"]), kernel=_while_grad_kernel,
            stateful=True)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, name=None, maximum_iterations=None, return_same_structure=False):
    """Repeats `body` while `cond` is true, as `tf.while_loop`.

    Args:
      cond: Callable of the loop variables returning a scalar bool tensor.
      body: Callable of the loop variables returning new values in the same structure.
      loop_vars: A tensor, Python number, TensorArray, or a nest (list/tuple/dict) of them.
      shape_invariants: Shapes the loop variables keep across iterations (same nest).
      parallel_iterations, swap_memory: Accepted for compatibility.
      back_prop: Whether gradients through the loop are supported.
      name: Name scope (default "while").
      maximum_iterations: Optional bound on the number of iterations.
      return_same_structure: If false, a single-element list result is unpacked (TF1).

    Returns:
      The loop variables after the last iteration, in `loop_vars`' structure.

    Raises:
      TypeError: If `cond` or `body` is not callable, or the body changes a dtype.
      ValueError: If `loop_vars` is empty, or a loop variable's shape changes without a matching
        shape invariant.
    """
    if not callable(cond):
        raise TypeError("cond must be callable.")
    if not callable(body):
        raise TypeError("body must be callable.")
    if parallel_iterations < 1:
        raise TypeError("parallel_iterations must be a positive integer.")
    leaves = nest.flatten(loop_vars)
    if not leaves:
        raise ValueError("No loop variables provided")
    if ops.get_default_graph()._eager:
        return _eager_while(cond, body, loop_vars, maximum_iterations, return_same_structure)
    with ops.name_scope(name, "while", [v for v in leaves if isinstance(v, ops.Tensor)]) as scope:
        inits = [ops.convert_to_tensor(v.flow if nest.is_tensor_array(v) else v) for v in leaves]
        if shape_invariants is not None:
            inv = nest.flatten_up_to(loop_vars, shape_invariants)
            invariants = [as_shape(s) for s in inv]
            for t, s in zip(inits, invariants):
                if not s.is_compatible_with(t.shape) or (s.ndims is not None and t.shape.ndims is None):
                    raise ValueError("The shape invariant specified for %s is not compatible with the initial "
                                     "shape of the loop variable. It enters the loop with shape %s, but the "
                                     "specified shape invariant is %s." % (t.name, t.shape, s))
        else:
            invariants = [t.shape for t in inits]
        specs = [(t.dtype, s.as_tuple()) for t, s in zip(inits, invariants)]

        def to_args(phs):
            packed = nest.pack_sequence_as(loop_vars, nest.rewrap(leaves, phs))
            return list(packed) if isinstance(loop_vars, (list, tuple)) else [packed]

        cg, _, c_struct = trace(cond, "while_cond", specs, to_args)
        if len(cg.outputs) != 1 or cg.outputs[0].dtype is not dtypes.bool_:
            raise TypeError("The condition of tf.while_loop must return a boolean scalar tensor, got %r" % (c_struct,))
        bg, _, b_struct = trace(body, "while_body", specs, to_args)
        body_leaves = bg.outputs
        body_struct = b_struct
        if not isinstance(loop_vars, (list, tuple)) and isinstance(b_struct, (list, tuple)) and len(b_struct) == 1:
            body_struct = b_struct[0]
        elif isinstance(loop_vars, (list, tuple)) and not isinstance(b_struct, (list, tuple)):
            body_struct = [b_struct]
        _check_body_structure(loop_vars, to_args(bg.inputs), b_struct, maximum_iterations, return_same_structure)
        for t, out, s in zip(inits, body_leaves, invariants):
            if out.dtype is not t.dtype:
                raise TypeError("Loop var %s enters the loop with type %s, but has type %s after 1 iteration."
                                % (t.name, t.dtype.name, out.dtype.name))
            if not _shape_within(out.shape, s):
                raise ValueError("Input tensor '%s' enters the loop with shape %s, but has shape %s after one "
                                 "iteration. To allow the shape to vary across iterations, use the "
                                 "`shape_invariants` argument of tf.while_loop to specify a less-specific shape."
                                 % (t.name, s, out.shape))
        inputs = inits + cg.external_captures + bg.external_captures
        has_max = maximum_iterations is not None
        if has_max:
            mi = ops.convert_to_tensor(maximum_iterations, dtype=dtypes.int32, name="maximum_iterations")
            if mi.shape.ndims not in (None, 0):
                raise ValueError("maximum_iterations must be a scalar, saw shape: %s" % mi.shape)
            inputs.append(mi)
        cond_fn = Function(cg, cg.inputs + cg.internal_captures, cg.outputs)
        body_fn = Function(bg, bg.inputs + bg.internal_captures, body_leaves)
        outs = ops.apply_op("While", inputs,
                            {"cond_fn": cond_fn, "body_fn": body_fn, "n_vars": len(inits),
                             "n_cond": len(cg.external_captures), "has_max": has_max, "output_specs": specs,
                             "back_prop": bool(back_prop)}, name=scope)
        results = outs[:len(inits)]
    packed = nest.pack_sequence_as(body_struct, nest.rewrap(leaves, results))
    if not return_same_structure and len(results) == 1:
        return nest.flatten(packed)[0]
    return packed


def _eager_while(cond, body, loop_vars, maximum_iterations, return_same_structure):
    """Eagerly, as TF: a Python loop calling `cond` and `body` on values."""
    def args(v):
        return list(v) if isinstance(loop_vars, (list, tuple)) else [v]

    values = nest.map_structure(lambda v: v if nest.is_tensor_array(v) else ops.convert_to_tensor(v), loop_vars)
    limit = None if maximum_iterations is None else int(ops.convert_to_tensor(maximum_iterations).numpy())
    i = 0
    while (limit is None or i < limit) and bool(cond(*args(values))):
        out = body(*args(values))
        _check_body_structure(loop_vars, args(values), out, maximum_iterations, return_same_structure)
        if isinstance(loop_vars, (list, tuple)) and not isinstance(out, (list, tuple)):
            out = [out]
        values = out
        i += 1
    if not return_same_structure and len(nest.flatten(values)) == 1:
        return nest.flatten(values)[0]
    return values


def _check_body_structure(loop_vars, body_args, result, maximum_iterations, return_same_structure):
    """TF1's check of a loop body's result against its arguments: the top level is compared as
    lists, deeper levels must match in sequence type too. With `maximum_iterations`, TF loops over
    `(counter, loop_vars)` (a single loop variable: `(counter, loop_vars[0])`) and the body returns
    `(counter + 1, body(...))`, so the whole result is compared with the loop variables as they were
    given: a list of loop variables whose body returns a tuple is a TypeError.

    Raises:
      TypeError: If a sequence type differs below the top level.
      ValueError: If the nesting or the number of elements differs.
    """
    if not isinstance(loop_vars, (list, tuple)):
        return  # a single loop variable given bare (TF's packed case)
    if maximum_iterations is None:
        args = list(body_args)
        res = list(result) if nest._is_sequence(result) else [result]
    elif len(loop_vars) == 1 and not return_same_structure:
        args, res = [_COUNTER, body_args[0]], [_COUNTER, result]
    else:
        given = type(loop_vars)(*body_args) if _is_namedtuple(loop_vars) else type(loop_vars)(body_args)
        args, res = [_COUNTER, given], [_COUNTER, result]
    msg = _structure_mismatch(args, res)
    if msg is not None:
        exc, more = msg
        raise exc("The two structures don't have the same nested structure.\n\nFirst structure: %s\n\n"
                  "Second structure: %s\n\nMore specifically: %s\nEntire first structure:\n%s\n"
                  "Entire second structure:\n%s" % (_describe(args), _describe(res), more, _dots(args), _dots(res)))


class _Counter:
    """Stands for TF's iteration counter loop variable in structure messages."""

    def __repr__(self):
        return "<tf.Tensor 'iteration_counter:0' shape=() dtype=int32>"

    __str__ = __repr__


_COUNTER = _Counter()


def _is_namedtuple(x):
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _describe(x):
    """TF's `PyObjectToString` of a structure: its type name and str."""
    return "type=%s str=%s" % (type(x).__name__, x)


def _dots(x):
    """The structure with each leaf written as a dot (TF's "Entire ... structure")."""
    if isinstance(x, dict):
        return "{%s}" % ", ".join("%r: %s" % (k, _dots(x[k])) for k in sorted(x))
    if nest._is_sequence(x):
        inner = ", ".join(_dots(v) for v in x)
        if isinstance(x, list):
            return "[%s]" % inner
        if _is_namedtuple(x):
            return "%s(%s)" % (type(x).__name__, ", ".join("%s=%s" % (f, _dots(v)) for f, v in zip(x._fields, x)))
        return "(%s,)" % inner if len(x) == 1 else "(%s)" % inner
    return "."


def _structure_mismatch(a, b):
    """(exception class, TF's "More specifically" text) for the first difference of `a` and `b`
    (sequence types compared as TF's nest with check_types: lists with lists, mappings with
    mappings, anything else by its exact type), or None."""
    seq_a, seq_b = nest._is_sequence(a), nest._is_sequence(b)
    if seq_a != seq_b:
        s, o = (a, b) if seq_a else (b, a)
        return ValueError, 'Substructure "%s" is a sequence, while substructure "%s" is not' % (_describe(s),
                                                                                                 _describe(o))
    if not seq_a:
        return None
    if type(a) is not type(b) and not (isinstance(a, list) and isinstance(b, list)) and not (
            isinstance(a, dict) and isinstance(b, dict)):
        return TypeError, ("The two namedtuples don't have the same sequence type. First structure %s has type %s, "
                           "while second structure %s has type %s" % (_describe(a), type(a).__name__, _describe(b),
                                                                      type(b).__name__))
    if isinstance(a, dict) and sorted(a) != sorted(b):
        return ValueError, ("The two dictionaries don't have the same set of keys. First structure has keys %s, "
                            "while second structure has keys %s" % (sorted(a), sorted(b)))
    ca, cb = nest._children(a), nest._children(b)
    if len(ca) != len(cb):
        return ValueError, ("The two structures don't have the same number of elements. First structure %s has "
                            "length %d, while second structure %s has length %d"
                            % (_describe(a), len(ca), _describe(b), len(cb)))
    for x, y in zip(ca, cb):
        found = _structure_mismatch(x, y)
        if found is not None:
            return found
    return None


def _shape_within(shape, invariant):
    """True if `shape` is at least as specific as `invariant` and compatible with it."""
    if invariant.ndims is None:
        return True
    if shape.ndims is None or shape.ndims != invariant.ndims:
        return False
    return all(i is None or i == d for d, i in zip(shape.as_list(), invariant.as_list()))


# ---- grouping ---------------------------------------------------------------------------------
def tuple_(tensors, name=None, control_inputs=None):
    """`tf.tuple`: tensors with the same values, each available only after all of `tensors` (and
    `control_inputs`) are computed. Named `tuple_` here so this module keeps the builtin `tuple`.

    Raises:
      ValueError: If `tensors` holds no tensor.
      TypeError: If `control_inputs` is not a list or tuple.
    """
    if control_inputs is not None and not isinstance(control_inputs, (list, tuple)):
        raise TypeError("control_inputs must be a list or tuple")
    real = [t for t in tensors if t is not None]
    if not real:
        raise ValueError("Must have at least one Tensor: %s" % (tensors,))
    with ops.name_scope(name, "tuple", real):
        gate = core_ops.group(*(real + list(control_inputs or [])))
        out = []
        with ops.control_dependencies([gate]):
            for t in tensors:
                if t is None:
                    out.append(None)
                elif isinstance(t, ops.Operation):
                    out.append(core_ops.group(t))
                else:
                    out.append(core_ops.identity(t))
    return out
