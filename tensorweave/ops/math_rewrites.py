"""Math ops: the plan rewrites of the family (`registry.register_rewrite`) and the internal ops
they produce (`_AddChain`, ...)."""

import numpy as np

from ..framework import dtypes
from ..framework.registry import register_internal_op, register_rewrite
from .math_scan_ops import _NUMERIC_SET

# ---- plan rewrites ------------------------------------------------------------------------------
# Rules the plan compiler runs (`registry.register_rewrite`; `runtime/passes.py`), and the internal
# ops they produce (never created in a graph).
_NEUTRAL_OPERANDS = {"Add": (0, (0, 1)), "AddV2": (0, (0, 1)), "Sub": (0, (1,)), "Mul": (1, (0, 1)),
                     "RealDiv": (1, (1,))}


@register_rewrite("simplify", tuple(_NEUTRAL_OPERANDS))
def _drop_neutral_operand(step, plan):
    """`x * 1`, `1 * x`, `x / 1`, `x + 0`, `0 + x`, `x - 0` are `x` when the constant neither changes
    the shape (broadcasting) nor the dtype. Exact, except that `-0.0 + 0` gives `-0.0` instead of
    `+0.0` (TF's grappler makes the same rewrite)."""
    op, args = step.op, step.args
    neutral, positions = _NEUTRAL_OPERANDS[op._type]
    out = op._outputs[0]
    if out.dtype not in _NUMERIC_SET or (op._type == "RealDiv" and out.dtype.is_integer):
        return None  # TF has no integer RealDiv kernel: the op must run, to raise its error
    for i in positions:
        c = plan.const(args[i])
        if c is None or not _is_all(c, neutral):
            continue
        other = op._inputs[1 - i]
        if other.dtype is not out.dtype or not _same_shape_after_broadcast(other, c, out):
            continue
        return args[1 - i]
    return None


def _is_all(value, x):
    """Whether the constant `value` is all `x` (and non-empty)."""
    return isinstance(value, np.ndarray) and value.size > 0 and value.dtype.kind in "fiuc" and bool(np.all(value == x))


def _same_shape_after_broadcast(x, c, out):
    """Whether broadcasting `x` with the constant `c` leaves `x`'s shape unchanged."""
    if c.ndim == 0:  # a scalar never changes the shape, whatever x's rank
        return True
    xs = x._shape.as_tuple()
    if xs is None:
        return False
    if c.size == 1:
        return c.ndim <= len(xs)
    return None not in xs and xs == out._shape.as_tuple() and np.broadcast_shapes(xs, c.shape) == xs


def _add_chain_kernel(xp, *ts):
    """((t0 + t1) + t2) + ...: the first sum in a new array, the rest added into it in place."""
    acc = ts[0] + ts[1]
    for t in ts[2:]:
        acc += t
    return acc


def _add_chain_rows_kernel(xp, *args, lo, hi):
    """The chain of the head terms `args[:-1]` and then rows `lo`..`hi - 1` of `args[-1]`, in that
    order: reducing axis 0 adds whole rows sequentially."""
    ts, rows = args[:-1], args[-1][lo:hi]
    if not ts:
        return np.add.reduce(rows, axis=0)
    acc = _add_chain_kernel(xp, *ts) if len(ts) > 1 else ts[0]
    return np.add.reduce(np.concatenate((acc[None], rows)), axis=0)


register_internal_op("_AddChain", _add_chain_kernel)
register_internal_op("_AddChainRows", _add_chain_rows_kernel)

_ROW_REDUCE_DTYPES = frozenset({dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64})
_MIN_CHAIN_TERMS = 3


def _is_chain_add(op):
    if op._type not in ("Add", "AddV2") or op._outputs[0].dtype not in _NUMERIC_SET:
        return False
    s = op._outputs[0]._shape.as_tuple()
    return s is not None and None not in s and all(t._shape.as_tuple() == s for t in op._inputs)


@register_rewrite("late", ("Add", "AddV2"))
def _accumulate_chain(step, plan):
    """A left-deep chain of adds `((t0 + t1) + t2) + ...` of at least three terms becomes one
    `_AddChain`: the first sum in a new array, the rest added in place in the same order (exactly
    the chain's rounding; addition is commutative, so which operand continued the chain does not
    matter). A trailing run of terms that are the consecutive rows `x[k]`, `x[k+1]`, ... of one
    array becomes `_AddChainRows`, one `np.add.reduce` over axis 0, which adds rows in that same
    order (TF's grappler rewrites such chains into AddN for the same reason: one kernel instead of
    one per add). The slices the rows came from are left for dead-code removal."""
    if not _is_chain_add(step.op):
        return False
    shape = step.op._outputs[0]._shape.as_tuple()

    def continues(name):
        """The add step whose only use is the next add of the chain, if `name` is one."""
        p = plan.producer(name)
        if (p is None or not _is_chain_add(p.op) or plan.uses(name) != 1
                or p.op._outputs[0]._shape.as_tuple() != shape):
            return None
        return p

    terms, members, cur = [], [], step
    while cur is not None:
        members.append(cur)
        a, b = cur.args
        pa, pb = continues(a), continues(b)
        if pa is not None and pb is not None:  # a tree, not a chain: it keeps its own rounding order
            return False
        if pa is None and pb is None:
            terms.extend([b, a])
            break
        cur, term = (pa, b) if pa is not None else (pb, a)
        terms.append(term)
    if len(terms) < _MIN_CHAIN_TERMS:
        return False
    terms.reverse()
    op_type, args, attrs = _chain_kernel(terms, plan, step.op._outputs[0])
    plan.replace(step, plan.fused(op_type, attrs, [m.op for m in reversed(members)], args, step.outs, step.pos))
    for m in members[1:]:
        plan.remove(m)
    return True


def _row_of(name, plan):
    """`(x name, k)` if `name` is `x[k]` of a strided slice with a constant scalar index, else None."""
    p = plan.producer(name)
    if p is None or p.op._type != "StridedSlice":
        return None
    op, args = p.op, p.args
    a = op._attrs
    if (a["shrink_axis_mask"] != 1 or a["begin_mask"] or a["end_mask"] or a["ellipsis_mask"]
            or a["new_axis_mask"]):
        return None
    begin, end, strides = (plan.const(n) for n in args[1:])
    if any(v is None or v.shape != (1,) for v in (begin, end, strides)) or int(strides[0]) != 1:
        return None
    dims = op._inputs[0]._shape.as_tuple()
    k = int(begin[0])
    if dims is None or None in dims or not 0 <= k < dims[0] or int(end[0]) != k + 1:
        return None
    return args[0], k


def _chain_kernel(terms, plan, out):
    """The internal op for a chain, its arguments and attributes: the terms, with a trailing run of
    consecutive rows of one array replaced by that array."""
    run = []
    shape = out._shape.as_tuple()
    # Reducing axis 0 adds whole rows in order; a row of one element would be reduced pairwise.
    if out.dtype in _ROW_REDUCE_DTYPES and shape and int(np.prod(shape)) >= 2:
        for name in reversed(terms):
            row = _row_of(name, plan)
            if row is None or run and (row[0] != run[-1][0] or row[1] != run[-1][1] - 1):
                break
            run.append(row)
    if len(run) < 2:
        return "_AddChain", list(terms), {}
    run.reverse()
    head = terms[:len(terms) - len(run)]
    return "_AddChainRows", head + [run[0][0]], {"lo": run[0][1], "hi": run[-1][1] + 1}
