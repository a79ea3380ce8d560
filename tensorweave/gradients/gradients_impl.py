"""`tf.gradients`: extends the graph with the symbolic derivatives of `ys` with respect to `xs`."""

import collections
import contextlib

from ..framework import dtypes, graph_gradients, ops, registry
from ..framework.indexed_slices import IndexedSlices
from ..ops import core_ops


def _is_differentiable_dtype(dtype):
    """Floats and complex numbers carry gradients; so do variants (TensorArray flows carry stores
    of gradients), though those are never filled with zeros."""
    return dtype.is_floating or dtype.is_complex or dtype is dtypes.variant


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients="none"):
    """Constructs the symbolic partial derivatives of `sum(ys)` with respect to each of `xs`.

    Args:
      ys: A tensor or list of tensors to differentiate.
      xs: A tensor (or Variable) or list of them.
      grad_ys: Optional initial gradients for `ys` (default: ones).
      name: Name scope of the gradient ops.
      colocate_gradients_with_ops: Create each op's gradient ops with `colocate_with(op)`: on the
        op's device, in its colocation group.
      gate_gradients, aggregation_method: Accepted for compatibility.
      stop_gradients: Tensors treated as constants: each still receives its own gradient, but
        nothing flows through it to its inputs.
      unconnected_gradients: "none" (None for unconnected xs) or "zero".

    Returns:
      A list with one entry per x: a Tensor, an IndexedSlices (for gathered params), or None when
      there is no differentiable path (disconnected, or through integer tensors).

    Raises:
      RuntimeError: In eager mode (use tf.GradientTape).
      LookupError: If an op on the path has no registered gradient.
      ValueError: If `grad_ys` does not match `ys`, or a gradient function returns the wrong count.
    """
    if ops.get_default_graph()._eager:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    ys = [ops.convert_to_tensor(y) if not isinstance(y, ops.Tensor) else y for y in _as_list(ys)]
    xs_in = _as_list(xs)
    xs = [_as_tensor_for_grad(x) for x in xs_in]
    stop = {_as_tensor_for_grad(t) for t in ([] if stop_gradients is None else _as_list(stop_gradients))}
    if grad_ys is not None:
        grad_ys = _as_list(grad_ys)
        if len(grad_ys) != len(ys):
            raise ValueError("Passed %d grad_ys for %d ys" % (len(grad_ys), len(ys)))
    if unconnected_gradients not in ("none", "zero"):
        raise ValueError("Unknown value for unconnected_gradients: %r" % (unconnected_gradients,))
    graph = ys[0].graph if ys else ops.get_default_graph()
    with graph.as_default(), graph.name_scope(name or "gradients"):
        # Ops reachable forward from xs, then those among them that reach ys: the ops "between".
        x_ops = {x.op for x in xs}
        reached = set()
        stack = list(x_ops)
        while stack:
            op = stack.pop()
            if op in reached:
                continue
            reached.add(op)
            for t in op._outputs:
                stack.extend(c for c in t._consumers if c not in reached)
        between = set()
        stack = [y.op for y in ys]
        seen = set()
        while stack:
            op = stack.pop()
            if op in seen:
                continue
            seen.add(op)
            if op in reached:
                between.add(op)
                for t in op._inputs:
                    stack.append(t._op)
        # Pending counts: consumers (within `between`) still to deliver a gradient.
        pending = collections.Counter()
        for op in between:
            for t in op._inputs:
                if t._op in between:
                    pending[t._op] += 1
        grads = {}  # tensor -> list of gradient contributions

        def colocated(op):
            return graph.colocate_with(op) if colocate_gradients_with_ops else contextlib.nullcontext()

        for i, y in enumerate(ys):
            with colocated(y.op):
                if grad_ys is not None and grad_ys[i] is not None:
                    gy = grad_ys[i]
                    if not isinstance(gy, (ops.Tensor, IndexedSlices)):
                        gy = ops.convert_to_tensor(gy, dtype=y.dtype, name="grad_ys_%d" % i)
                else:
                    gy = core_ops.ones_like(y, name="grad_ys_%d" % i)
            grads.setdefault(y, []).append(gy)

        ready = collections.deque(op for op in {y.op for y in ys} if op in between and pending[op] == 0)
        queued = set(ready)
        stop_ops = {t.op for t in stop}
        while ready:
            op = ready.popleft()
            with colocated(op):
                _op_input_grads(graph, op, grads, x_ops, between, stop_ops)
            for t in op._inputs:
                src = t._op
                if src in between:
                    pending[src] -= 1
                    if pending[src] == 0 and src not in queued:
                        queued.add(src)
                        ready.append(src)

        result = []
        for x in xs:
            with colocated(x.op):
                g = _aggregate(grads.get(x))
                if g is None and unconnected_gradients == "zero":
                    g = core_ops.zeros_like(x)
            result.append(g)
    return result


graph_gradients.install(gradients)  # for gradient rules that differentiate a body themselves (If, While)


def _op_input_grads(graph, op, grads, x_ops, between, stop_ops):
    """Builds the gradients of `op`'s inputs from those of its outputs and adds them to `grads`."""
    out_grads = [_aggregate(grads.get(t)) for t in op._outputs]
    in_grads = [None] * len(op._inputs)
    if any(g is not None for g in out_grads) and op not in stop_ops and not _is_source(op, x_ops, between):
        fn = registry.get_gradient_function(op)  # raises LookupError when missing
        if fn is not None:
            for j, g in enumerate(out_grads):
                t = op._outputs[j]
                if g is None and (t.dtype.is_floating or t.dtype.is_complex):
                    out_grads[j] = core_ops.zeros_like(t)
            skip = tuple(i for i, t in enumerate(op._inputs) if t._op not in between)
            if skip:
                ops._skip_input_indices[op] = skip
            try:
                with graph.name_scope(op.name + "_grad"):
                    with graph.control_dependencies(None):
                        result = fn(op, *out_grads)
            finally:
                if skip:
                    del ops._skip_input_indices[op]
            result = list(result) if isinstance(result, (list, tuple)) else [result]
            if len(result) != len(op._inputs):
                raise ValueError("Num gradients %d generated for op %s do not match num inputs %d"
                                 % (len(result), op.name, len(op._inputs)))
            in_grads = result
    for t, g in zip(op._inputs, in_grads):
        if g is not None and _is_differentiable_dtype(t.dtype):
            if not isinstance(g, IndexedSlices):
                g = ops.convert_to_tensor(g)
            grads.setdefault(t, []).append(g)


def _is_source(op, x_ops, between):
    """An x's op none of whose inputs lies between xs and ys: backprop stops there."""
    return op in x_ops and not any(t._op in between for t in op._inputs)


def _as_tensor_for_grad(x):
    if isinstance(x, ops.Tensor):
        return x
    if hasattr(x, "_grad_tensor"):
        return x._grad_tensor()
    return ops.convert_to_tensor(x)


def _aggregate(contribs):
    if not contribs:
        return None
    if len(contribs) == 1:
        return contribs[0]
    if all(isinstance(g, IndexedSlices) for g in contribs):
        from ..ops import array_ops
        return IndexedSlices(array_ops.concat([g.values for g in contribs], 0),
                             array_ops.concat([g.indices for g in contribs], 0), contribs[0].dense_shape)
    return core_ops.add_n([ops.convert_to_tensor(g) for g in contribs])
