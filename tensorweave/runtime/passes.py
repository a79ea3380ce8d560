"""Graph passes on a pruned plan, between constant folding and code generation.

The plan is a list of steps `[pos, op, args, outs]` where `args` and `outs` are the names of the
generated function's locals (`t3_0`, fed `f0`) or constants (`C5`). A pass returns the steps to
keep and records in `rename` which names now stand for which (an alias costs nothing at run time).

- `simplify`: `x * 1`, `1 * x`, `x / 1`, `x + 0`, `0 + x`, `x - 0` become `x` when the constant
  neither changes the shape (broadcasting) nor the dtype. Exact, except that `-0.0 + 0` gives
  `-0.0` instead of `+0.0` (TF's grappler makes the same rewrite). A gradient's reduction to its
  input's shape (`SumToShapeOf`) disappears when both static shapes are fully known and equal.
- `cse`: two pure ops of one type with the same inputs and attributes compute the same value once.
- `accumulate_chains`, `fuse_conv_epilogues`, `fuse_relu_pool_grads`: several ops run as one
  `KernelStep` whose kernel gives their values bitwise.
- `share_conv_patches`: a convolution's filter gradient reuses the patch matrices of the
  convolution itself.
"""

import numpy as np

from ..framework import dtypes
from ..ops import math_ops, nn_conv_ops

_ADD_LIKE = frozenset({"Add", "AddV2"})
_NUMERIC = math_ops._NUMERIC_SET


def simplify_and_cse(steps, env, rename, simplify=True, cse=True):
    """Runs both passes in one walk over `steps` (in execution order)."""
    seen = {}
    kept = []
    for step in steps:
        _, op, args, outs = step
        if rename:
            args = step[2] = [rename.get(a, a) for a in args]
        if simplify:
            alias = _identity_operand(op, args, env)
            if alias is not None:
                rename[outs[0]] = alias
                continue
        if cse and not op._op_def.stateful and op._inputs and outs:
            key = _cse_key(op, args)
            if key is not None:
                prev = seen.get(key)
                if prev is not None:
                    for o, p in zip(outs, prev):
                        rename[o] = p
                    continue
                seen[key] = outs
        kept.append(step)
    return kept


def _const_value(name, env):
    if name[0] != "C":
        return None
    v = env.get(name)
    return np.asarray(v) if isinstance(v, np.generic) else v


def _is_all(value, x):
    """Whether the constant `value` is all `x` (and non-empty)."""
    return isinstance(value, np.ndarray) and value.size > 0 and value.dtype.kind in "fiuc" and bool(np.all(value == x))


def _identity_operand(op, args, env):
    """The argument name that `op`'s value equals, for the exact algebraic identities."""
    t = op._type
    if t == "SumToShapeOf":  # nothing to sum when the gradient already has the target's static shape
        g, like = (x._shape.as_tuple() for x in op._inputs)
        return args[0] if g is not None and None not in g and g == like else None
    if t in _ADD_LIKE or t == "Sub":
        neutral, positions = 0, (0, 1) if t != "Sub" else (1,)
    elif t == "Mul":
        neutral, positions = 1, (0, 1)
    elif t == "RealDiv":
        neutral, positions = 1, (1,)
    else:
        return None
    out = op._outputs[0]
    if out.dtype not in _NUMERIC:
        return None
    for i in positions:
        c = _const_value(args[i], env)
        if c is None or not _is_all(c, neutral):
            continue
        other = op._inputs[1 - i]
        if other.dtype is not out.dtype or not _same_shape_after_broadcast(other, c, out):
            continue
        return args[1 - i]
    return None


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


def _cse_key(op, args):
    try:
        attrs = tuple(sorted((k, _hashable(v)) for k, v in op._attrs.items() if k[0] != "_"))
        key = (op._type, tuple(args), attrs)
        hash(key)
    except TypeError:
        return None
    return key


def _hashable(v):
    if isinstance(v, (list, tuple)):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, np.ndarray):
        if v.size > 1024:
            raise TypeError("too large to compare")
        return ("ndarray", v.dtype.str, v.shape, v.tobytes())
    if isinstance(v, dict):
        raise TypeError("dict attribute")
    return v


# ---- accumulation chains -----------------------------------------------------------------------
_ROW_REDUCE_DTYPES = frozenset({dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64})


class KernelStep:
    """A step that runs a kernel the compiler built for several ops (`ops`, in graph order); errors
    it raises are reported against `line_op`."""

    _type = None  # not an op type: passes that match op types leave the step alone

    def __init__(self, ops, kernel, line_op=None):
        self.ops = ops
        self.kernel = kernel
        self.line_ops = {}
        self.line_op = line_op if line_op is not None else ops[-1]


class Accumulation(KernelStep):
    """A left-deep chain of adds `((t0 + t1) + t2) + ...` run as one kernel: the first sum in a new
    array, the rest added in place in the same order (exactly the chain's rounding; addition is
    commutative, so which operand continued the chain does not matter). Runs of terms that are the
    consecutive rows `x[k]`, `x[k+1]`, ... of one array are summed by one `np.add.reduce` over
    axis 0, which adds rows in that same sequential order (TF's grappler rewrites such chains into
    AddN for the same reason: one kernel instead of one per add)."""



def _use_counts(steps, results):
    """How many times each value name is read by the (list) steps and the fetches."""
    uses = {}
    for s in steps:
        if isinstance(s, list):
            for a in s[2]:
                uses[a] = uses.get(a, 0) + 1
    for r in results:
        uses[r] = uses.get(r, 0) + 1
    return uses


def _is_chain_add(op):
    if op._type not in _ADD_LIKE or op._outputs[0].dtype not in _NUMERIC:
        return False
    s = op._outputs[0]._shape.as_tuple()
    return s is not None and None not in s and all(t._shape.as_tuple() == s for t in op._inputs)


def accumulate_chains(steps, results, env, min_terms=3):
    """Replaces left-deep add chains of at least `min_terms` terms by `Accumulation` steps.

    Steps of other kinds (fused groups) pass through. Returns the new step list; the slices whose
    rows an accumulation reads directly are left for dead-code removal.
    """
    uses = _use_counts(steps, results)
    producer = {s[3][0]: s for s in steps if isinstance(s, list) and s[3]}
    adds = {id(s) for s in steps if isinstance(s, list) and _is_chain_add(s[1])}

    def continues(name, shape):
        """The add step whose only use is the next add of the chain, if `name` is one."""
        p = producer.get(name)
        if p is None or id(p) not in adds or uses.get(name) != 1 or p[1]._outputs[0]._shape.as_tuple() != shape:
            return None
        return p

    interior = set()
    chains = {}
    for s in reversed(steps):
        if not isinstance(s, list) or id(s) not in adds or id(s) in interior:
            continue
        shape = s[1]._outputs[0]._shape.as_tuple()
        terms, members, cur, tree = [], [], s, False
        while cur is not None:
            members.append(cur)
            a, b = cur[2]
            pa, pb = continues(a, shape), continues(b, shape)
            if pa is not None and pb is not None:  # a tree, not a chain: it keeps its own rounding order
                tree = True
                break
            if pa is None and pb is None:
                terms.extend([b, a])
                break
            cur, term = (pa, b) if pa is not None else (pb, a)
            terms.append(term)
        if tree or len(terms) < min_terms:
            continue
        terms.reverse()
        members.reverse()
        interior.update(id(m) for m in members[:-1])
        chains[id(s)] = (members, terms)
    if not chains:
        return steps
    out = []
    for s in steps:
        if not isinstance(s, list) or id(s) in interior:
            continue
        chain = chains.get(id(s))
        if chain is None:
            out.append(s)
            continue
        members, terms = chain
        kernel, args = _accumulation_kernel(terms, producer, env, s[1]._outputs[0])
        out.append([s[0], Accumulation([m[1] for m in members], kernel), args, s[3]])
    return out


def _row_of(name, producer, env):
    """`(x name, k)` if `name` is `x[k]` of a strided slice with a constant scalar index, else None."""
    p = producer.get(name)
    if p is None or p[1]._type != "StridedSlice":
        return None
    op, args = p[1], p[2]
    a = op._attrs
    if (a["shrink_axis_mask"] != 1 or a["begin_mask"] or a["end_mask"] or a["ellipsis_mask"]
            or a["new_axis_mask"]):
        return None
    begin, end, strides = (_const_value(n, env) for n in args[1:])
    if any(v is None or v.shape != (1,) for v in (begin, end, strides)) or int(strides[0]) != 1:
        return None
    dims = op._inputs[0]._shape.as_tuple()
    k = int(begin[0])
    if dims is None or None in dims or not 0 <= k < dims[0] or int(end[0]) != k + 1:
        return None
    return args[0], k


def _accumulation_kernel(terms, producer, env, out):
    """The kernel for a chain, and the names it takes: the terms, with a trailing run of consecutive
    rows of one array replaced by that array."""
    run = []
    shape = out._shape.as_tuple()
    # Reducing axis 0 adds whole rows in order; a row of one element would be reduced pairwise.
    if out.dtype in _ROW_REDUCE_DTYPES and shape and int(np.prod(shape)) >= 2:
        for name in reversed(terms):
            row = _row_of(name, producer, env)
            if row is None or run and (row[0] != run[-1][0] or row[1] != run[-1][1] - 1):
                break
            run.append(row)
    if len(run) < 2:
        return _sum_in_order, list(terms)
    run.reverse()
    head = terms[:len(terms) - len(run)]
    lo, hi = run[0][1], run[-1][1] + 1
    n_head = len(head)

    def accumulate_rows(*args):
        ts, rows = args[:n_head], args[n_head][lo:hi]
        if not ts:
            return np.add.reduce(rows, axis=0)
        acc = _sum_in_order(*ts) if n_head > 1 else ts[0]
        return np.add.reduce(np.concatenate((acc[None], rows)), axis=0)

    return accumulate_rows, head + [run[0][0]]


def _sum_in_order(*ts):
    """((t0 + t1) + t2) + ...: the first sum in a new array, the rest added into it in place."""
    acc = ts[0] + ts[1]
    for t in ts[2:]:
        acc += t
    return acc


_BIAS_ADDS = frozenset({"Add", "AddV2", "BiasAdd"})


def _conv_attrs(op):
    """A convolution op's (strides, padding, explicit_paddings, data_format, dilations)."""
    a = op._attrs
    return a["strides"], a["padding"], a["explicit_paddings"], a["data_format"], a["dilations"]


def fuse_conv_epilogues(steps, results):
    """Conv2D -> bias add -> Relu, where the convolution's and the add's values feed nothing else,
    becomes one step: the convolution kernel adding the bias and applying ReLU to each output
    block while it is in cache (bitwise the three ops' values; `nn_conv_ops.conv2d_bias_relu`).
    The bias must be a vector over the output channels: `BiasAdd` in the convolution's data
    format, or `Add`/`AddV2` of NHWC outputs."""
    uses = _use_counts(steps, results)
    consumer = {}
    for s in steps:
        for a in s[2]:
            consumer[a] = s
    fused = {}  # id(relu step) -> new step
    absorbed = set()
    for s in steps:
        _, op, args, outs = s
        if op._type != "Conv2D" or len(outs) != 1 or uses.get(outs[0]) != 1:
            continue
        add = consumer.get(outs[0])
        if add is None or add[1]._type not in _BIAS_ADDS or uses.get(add[3][0]) != 1:
            continue
        relu = consumer.get(add[3][0])
        if relu is None or relu[1]._type != "Relu":
            continue
        bias = _channel_bias(op, add, outs[0])
        if bias is None:
            continue
        attrs = _conv_attrs(op)

        def kernel(x, f, b, attrs=attrs):
            return nn_conv_ops.conv2d_bias_relu(x, f, b, True, *attrs)

        step = KernelStep([op, add[1], relu[1]], kernel, line_op=op)
        fused[id(relu)] = [relu[0], step, [args[0], args[1], bias], relu[3]]
        absorbed.update((id(s), id(add)))
    if not fused:
        return steps
    return [fused.get(id(s), s) for s in steps if id(s) not in absorbed]


def _channel_bias(conv, add, conv_out):
    """The add's other argument if it is a vector over the convolution's output channels."""
    args, op = add[2], add[1]
    if op._type == "BiasAdd":
        if args[0] != conv_out or op._attrs["data_format"] != conv._attrs["data_format"]:
            return None
        other, t = args[1], op._inputs[1]
    else:
        if conv._attrs["data_format"] != "NHWC" or conv_out not in args or args[0] == args[1]:
            return None
        k = 1 - args.index(conv_out)
        other, t = args[k], op._inputs[k]
    out = conv._outputs[0]
    shape = out._shape.as_tuple()
    if shape is None or None in shape:
        return None
    if t._shape.as_tuple() != (shape[3 if conv._attrs["data_format"] == "NHWC" else 1],):
        return None
    if t.dtype is not out.dtype or op._outputs[0]._shape.as_tuple() != shape:
        return None
    return other


def _conv_key(op, x_arg, filter_shape):
    """What a Conv2D and a Conv2DBackpropFilter must share for one's patch matrices to serve the other."""
    if filter_shape is None or None in filter_shape:
        return None
    return (x_arg, tuple(filter_shape)) + tuple(tuple(v) if isinstance(v, list) else v for v in _conv_attrs(op))


def _conv_step(step):
    """(Conv2D op, whether the step adds a bias and applies ReLU) for a convolution step, else None."""
    op = step[1]
    if isinstance(op, KernelStep):
        ops = op.ops
        if len(ops) == 3 and ops[0]._type == "Conv2D" and ops[2]._type == "Relu" and len(step[2]) == 3:
            return ops[0], True
        return None
    return (op, False) if op._type == "Conv2D" and len(step[2]) == 2 else None


def share_conv_patches(steps, results):
    """A Conv2DBackpropFilter of the same input, geometry and filter shape as a Conv2D of the plan
    (plain or with its epilogue fused) reuses the patch matrices the convolution built, instead of
    building them again: the convolution step also returns them (`nn_conv_ops.Patches`, at most
    `nn_conv_ops.MAX_KEPT_PATCHES` bytes, else nothing is kept), held until the filter gradient
    ran. Same values bitwise (the same matrices, multiplied in the same blocks)."""
    convs = {}
    for k, s in enumerate(steps):
        found = _conv_step(s) if isinstance(s, list) else None
        if found is not None:
            key = _conv_key(found[0], s[2][0], found[0]._inputs[1]._shape.as_tuple())
            if key is not None:
                convs.setdefault(key, k)
    if not convs:
        return steps
    out = list(steps)
    shared = {}  # conv step index -> patches name
    for k, s in enumerate(steps):
        if not isinstance(s, list) or isinstance(s[1], KernelStep) or s[1]._type != "Conv2DBackpropFilter":
            continue
        op = s[1]
        c = convs.get(_conv_key(op, s[2][0], op._outputs[0]._shape.as_tuple()))
        if c is None or c > k:
            continue
        if c not in shared:
            shared[c] = "t%d_patches" % steps[c][0]
        attrs = _conv_attrs(op) + (op._attrs["use_cudnn_on_gpu"],)

        def kernel(x, sizes, dy, patches, attrs=attrs):
            return nn_conv_ops._conv2d_backprop_filter_kernel(np, x, sizes, dy, *attrs, patches=patches)

        out[k] = [s[0], KernelStep([op], kernel), s[2] + [shared[c]], s[3]]
    for c, name in shared.items():
        pos, op, args, outs = steps[c]
        conv, fused = _conv_step(steps[c])
        attrs = _conv_attrs(conv)

        def kernel(x, f, b=None, attrs=attrs, relu=fused):
            return nn_conv_ops.conv2d_bias_relu(x, f, b, relu, *attrs, keep_patches=True)

        ops = op.ops if fused else [op]
        out[c] = [pos, KernelStep(ops, kernel, line_op=conv), args, outs + [name]]
    return out


def fuse_relu_pool_grads(steps, results):
    """ReluGrad(MaxPoolGrad(r, y, dy), r), where the pool read the ReLU's output `r`, its windows
    do not overlap and the MaxPoolGrad value feeds nothing else, becomes one step that routes the
    gradient with the ReLU mask folded in (`nn_conv_ops.max_pool_grad`; bitwise the two ops' values)."""
    uses = _use_counts(steps, results)
    producer = {s[3][0]: s for s in steps if s[3]}
    fused = {}
    absorbed = set()
    for s in steps:
        _, op, args, outs = s
        if op._type != "ReluGrad" or len(args) != 2:
            continue
        pool = producer.get(args[0])
        if pool is None or pool[1]._type != "MaxPoolGrad" or uses.get(args[0]) != 1 or pool[2][0] != args[1]:
            continue
        a = pool[1]._attrs
        hw = (1, 2) if a["data_format"] == "NHWC" else (2, 3)
        if any(a["strides"][d] < a["ksize"][d] for d in hw):
            continue
        attrs = (a["ksize"], a["strides"], a["padding"], a["data_format"])

        def kernel(x, y, dy, attrs=attrs):
            return nn_conv_ops.max_pool_grad(x, y, dy, *attrs, relu=True)

        fused[id(s)] = [s[0], KernelStep([pool[1], op], kernel, line_op=pool[1]), pool[2], outs]
        absorbed.add(id(pool))
    if not fused:
        return steps
    return [fused.get(id(s), s) for s in steps if id(s) not in absorbed]
