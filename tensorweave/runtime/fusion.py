"""Elementwise fusion: a chain of elementwise ops on one large shape runs as one fused kernel.

The fused kernel runs the ops' own NumPy kernels block by block (blocks of rows of the output,
each a few hundred KB so the chain's intermediates stay in cache) and spreads the blocks over a
small thread pool (NumPy releases the GIL inside ufunc loops). Each element goes through the very
same kernel calls as unfused, so fused results are bitwise identical to the plain path.

numexpr was measured as the alternative the issue suggested: on this kind of machine (AMD EPYC,
AVX2) it ran the benchmark's 50-op tanh/exp chain on 1M float32 5x slower than NumPy's vectorised
ufuncs with one thread and 2.5x slower with two, and a pure arithmetic chain 5x slower; blocked
NumPy on two threads ran the transcendental chain in ~0.55x of plain NumPy's time.

Which ops qualify is a trait of their records (`elementwise`; `transcendental` for the expensive
ones). Fusion only pays where the arithmetic is expensive per element (transcendental functions): cheap
arithmetic on large arrays is memory-bound and NumPy's whole-array calls are already at memory
speed, so groups of cheap ops are left alone (see `_worth_fusing`).
"""

import itertools

import numpy as np

from ..framework import dtypes
from ..kernels.shard import shard
from ..platform import fpstate

_FUSABLE_DTYPES = frozenset({dtypes.float16, dtypes.float32, dtypes.float64, dtypes.bool_, dtypes.int32,
                             dtypes.int64})

# A group is fused when it holds this many expensive element evaluations (and two threads exist).
MIN_EXPENSIVE_ELEMENTS = 1 << 19
# Target elements per block: intermediates of 64K float32 (256 KB) stay in L2.
BLOCK_ELEMENTS = 1 << 16

_counter = itertools.count()


class FusedGroup:
    """A set of elementwise steps of one output shape, run as one kernel."""

    def __init__(self, shape):
        self.shape = shape
        self.steps = []
        self.members = set()  # output names produced inside the group
        self.sealed = False
        self.kernel = None  # the fused kernel and its traceback lines, once compiled
        self.line_ops = {}

    @property
    def ops(self):
        return [s.op for s in self.steps]

    @property
    def line_op(self):
        """The op an error of the fused kernel is reported against when no block line says better."""
        return self.steps[-1].op


def _shape_of(op):
    out = op._outputs[0]
    s = out._shape.as_tuple()
    if s is None or None in s or not s:
        return None
    return s


def _fusable(op):
    d = op._op_def
    if not d.elementwise or len(op._outputs) != 1 or d.stateful:
        return False
    if op._outputs[0].dtype not in _FUSABLE_DTYPES:
        return False
    shape = _shape_of(op)
    if shape is None:
        return False
    for t in op._inputs:
        ts = t._shape.as_tuple()
        if ts is None or len(ts) > len(shape) or t.dtype not in _FUSABLE_DTYPES:
            return False
    return True


def _worth_fusing(group, n_threads):
    if len(group.steps) < 2 or n_threads < 2:
        return False
    size = int(np.prod(group.shape))
    expensive = sum(1 for s in group.steps if s.op._op_def.transcendental)
    return expensive * size >= MIN_EXPENSIVE_ELEMENTS and group.shape[0] >= 2


def find_groups(steps, n_threads):
    """Partitions `steps` (in execution order) into plain steps and fused groups.

    A fusable op joins the group of its inputs' producers when the shapes match and no op outside
    the group has consumed that group's values yet (the group runs at its last member's place, so
    it must stay convex); two such groups meeting at one op merge.

    Returns:
      A list whose items are steps or `FusedGroup`s, in an order that honours every dependency.
    """
    group_of = {}  # out name -> group
    items = []  # steps and groups, each once
    place = {}  # id(item) -> index of the step it runs at (a group: its last member's)
    merged = set()
    for k, step in enumerate(steps):
        _, op, args, outs = step
        producers = [group_of[a] for a in args if a in group_of]
        if not _fusable(op):
            for g in producers:
                g.sealed = True
            items.append(step)
            place[id(step)] = k
            continue
        shape = _shape_of(op)
        target = None
        for g in producers:
            if g is target:
                continue
            if g.sealed or g.shape != shape:
                g.sealed = True
            elif target is None:
                target = g
            else:  # two open groups meet here: one group, running here
                target.steps = sorted(target.steps + g.steps, key=lambda st: st.pos)
                target.members.update(g.members)
                for o in g.members:
                    group_of[o] = target
                merged.add(id(g))
        if target is None:
            target = FusedGroup(shape)
            items.append(target)
        target.steps.append(step)
        target.members.update(outs)
        place[id(target)] = k  # the group now runs here, after every input of this op
        for o in outs:
            group_of[o] = target
    out = []
    for it in sorted((it for it in items if id(it) not in merged), key=lambda it: place[id(it)]):
        if isinstance(it, FusedGroup) and not _worth_fusing(it, n_threads):
            out.extend(it.steps)
        else:
            out.append(it)
    return out


def group_inputs(group):
    """The names the group reads from outside, in first-use order."""
    seen = []
    for s in group.steps:
        for a in s.args:
            if a not in group.members and a not in seen:
                seen.append(a)
    return seen


def build_kernel(group, inputs, outputs, input_shapes, n_threads, call_source):
    """Generates the fused kernel `fn(*inputs) -> output` (a tuple when several) for `group`.

    Args:
      group: The FusedGroup.
      inputs: Names of the group's inputs (the kernel's parameters).
      outputs: Names of the group's values needed outside it.
      input_shapes: Static shape of each input (a tuple), to decide which inputs are sliced per block.
      n_threads: Threads to spread blocks over.
      call_source: `call_source(env, k, op, arg_names)`: the source of step k's kernel call, binding
        what it needs in `env` (the plan compiler's, so fused steps are called as plain ones are).

    Returns:
      `(fn, filename, {line: op})`.
    """
    shape = group.shape
    rows = shape[0]
    row_elems = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    rows_per_block = max(1, BLOCK_ELEMENTS // max(1, row_elems))
    nblocks = -(-rows // rows_per_block)
    env = {"np": np, "XP": np, "_run_blocks": _run_blocks}
    params = ["p%d" % i for i in range(len(inputs))]
    lines = ["def _fused(%s):" % ", ".join(params)]
    for k, name in enumerate(outputs):
        dt = _dtype_of(group, name)
        env["DT%d" % k] = dt
        lines.append("    o%d = np.empty(%r, DT%d)" % (k, tuple(shape), k))
    lines.append("    def _blk(s, e):")
    local = {}
    for name, p, ishape in zip(inputs, params, input_shapes):
        local[name] = p
        if len(ishape) == len(shape) and ishape[0] == rows and rows > 1:
            lines.append("        b%s = %s[s:e]" % (p, p))
            local[name] = "b" + p
    line_ops = {}
    for idx, (pos, op, args, outs) in enumerate(group.steps):
        call = call_source(env, idx, op, [local[a] for a in args])
        local[outs[0]] = "v%d" % idx
        lines.append("        v%d = %s" % (idx, call))
        line_ops[len(lines)] = op
    for k, name in enumerate(outputs):
        lines.append("        o%d[s:e] = %s" % (k, local[name]))
    lines.append("    _run_blocks(_blk, %d, %d, %d)" % (rows, rows_per_block, min(n_threads, nblocks)))
    lines.append("    return %s" % ", ".join("o%d" % k for k in range(len(outputs))))
    filename = "<tensorweave-fused-%d>" % next(_counter)
    # Generated kernel source (names and numbers made here), not file data.
    exec(compile("\n".join(lines) + "\n", filename, "exec"), env)
    return env["_fused"], filename, line_ops


def _dtype_of(group, name):
    for _, op, _, outs in group.steps:
        if outs[0] == name:
            return op._outputs[0].dtype.as_numpy_dtype
    raise KeyError(name)


def _run_blocks(blk, rows, rows_per_block, n_threads):
    """Runs `blk(start, end)` over row blocks of `rows_per_block`, the blocks spread over `n_threads`
    intra-op threads (`tensorweave.kernels.shard`; one contiguous run of blocks per thread)."""
    def work(start, limit):
        with fpstate.quiet():  # pool threads do not inherit the run's floating-point state
            for s in range(start * rows_per_block, min(limit * rows_per_block, rows), rows_per_block):
                blk(s, min(s + rows_per_block, rows))

    nblocks = -(-rows // rows_per_block)
    # Each block is worth far more than shard's minimum cost: it splits whenever threads allow.
    shard(nblocks, 1 << 30, work, max_parallelism=n_threads)
