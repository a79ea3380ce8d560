"""Elementwise fusion: a chain of elementwise ops on one large shape runs as one fused kernel.

The fused kernel runs the ops' own NumPy kernels block by block (blocks of `BLOCK_BYTES` per value,
so the chain's intermediates stay in a core's L2 cache) and spreads the blocks over the intra-op
threads (NumPy releases the GIL inside ufunc loops); each thread takes the next block as it gets
free, so a core busy with other work slows its thread alone. An op that declares a `ufunc`
(registry trait) is called as that ufunc with `out=`: into the output's block, or into one of the
thread's scratch buffers, reused once no live value can alias it, so a block allocates nothing and
its buffers stay hot in cache (allocating each intermediate cost ~30% of the chain). Each element
goes through the very same ufunc loops as unfused (`out=` only where the loop for the inputs'
dtypes yields the op's dtype), so fused results are bitwise identical to the plain path.

Which groups fuse (`_worth_fusing`): ones whose values are larger than half a core's L2 cache
(read from the OS), on any number of threads: there each unfused op streams its input and output
through memory, where fused blocks stay in cache; and, with two threads or more, ones whose
transcendental work is worth handing blocks to the threads.

Measured alternatives, on a 2-vCPU Xeon (AVX-512) shared with other work, the benchmark's 50-op
`exp(tanh(y + 1) * 0.5) * 0.3` chain on 1M float32: blocked with `out=` ~0.65x of NumPy's time on
one thread (whole-array NumPy calls allocate and stream every intermediate); a numba
`parallel=True` loop of the same chain gave NumPy's bits but ran ~20x slower than NumPy (scalar
libm calls, no SIMD); numexpr earlier ran it 2.5-5x slower than NumPy (AMD EPYC, AVX2).
"""

import itertools
import os
import threading

import numpy as np

from ..framework import dtypes
from ..kernels.shard import shard
from ..platform import fpstate

_FUSABLE_DTYPES = frozenset({dtypes.float16, dtypes.float32, dtypes.float64, dtypes.bool_, dtypes.int32,
                             dtypes.int64})

# A group of expensive ops is fused when it holds this many expensive element evaluations (and two
# threads exist): a transcendental evaluation costs 0.3-1 ns per element with NumPy's SIMD loops, so
# this is 150-500 us of work, several times the 15-50 us of handing blocks to the intra-op threads.
MIN_EXPENSIVE_ELEMENTS = 1 << 19
# Bytes per block and value: a block's live values (an input's slice, a scratch buffer or two, the
# output's block) stay in a core's L2 (1-2 MB); times measured flat from 128 KB to 512 KB per value.
BLOCK_BYTES = 1 << 18

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
        # A block slices the inputs of the full shape: every input's shape must be known to tell them.
        if ts is None or None in ts or len(ts) > len(shape) or t.dtype not in _FUSABLE_DTYPES:
            return False
    return True


def cache_bytes():
    """The size of one core's L2 cache in bytes (from the OS), or 1 MiB where the OS does not say."""
    if _cache[0] is None:
        _cache[0] = _os_cache_bytes() or (1 << 20)
    return _cache[0]


_cache = [None]


def _os_cache_bytes():
    try:
        n = os.sysconf("SC_LEVEL2_CACHE_SIZE")
        if n > 0:
            return n
    except (AttributeError, ValueError, OSError):
        pass
    try:
        with open("/sys/devices/system/cpu/cpu0/cache/index2/size") as f:
            text = f.read().strip().upper()
        scale = {"K": 1 << 10, "M": 1 << 20}.get(text[-1:], 1)
        return int(text.rstrip("KM")) * scale
    except (OSError, ValueError):
        return None


def _itemsize(group):
    return max(np.dtype(s.op._outputs[0].dtype.as_numpy_dtype).itemsize for s in group.steps)


def _worth_fusing(group, n_threads):
    """Whether `group` runs faster fused: an unfused op's input and output together exceed a core's
    L2 cache, so each unfused op streams them through memory while the fused blocks stay in cache
    (on any thread count: cheap arithmetic is memory-bound there, a 15-op `(x + 1) * 2 - 3` chain
    ran 1.3x faster fused at L2 / 2 per value, 2.4x at L2), or, with two threads or more, its
    expensive work pays for handing blocks to the threads."""
    if len(group.steps) < 2 or group.shape[0] < 2:
        return False
    size = int(np.prod(group.shape))
    if 2 * size * _itemsize(group) >= cache_bytes():
        return True
    expensive = sum(1 for s in group.steps if s.op._op_def.transcendental)
    return n_threads >= 2 and expensive * size >= MIN_EXPENSIVE_ELEMENTS


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

    Each block runs the group's steps in order. A step whose op declares a `ufunc` (registry trait)
    calls that ufunc with `out=`: into the output's block when its value is a kernel output, else
    into a scratch buffer of the calling thread that is reused once no live value can alias it
    (a plain kernel's result may be a view of its inputs). Other steps call their kernel as the
    plan does.

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
    shape = tuple(group.shape)
    size = int(np.prod(shape))
    # Flat blocks when every input is the whole shape (C order) or a single element: blocks then
    # need not follow rows, and an N-D shape with huge rows still gets cache-sized blocks.
    flat = len(shape) > 1 and all(tuple(s) == shape or int(np.prod(s)) == 1 for s in input_shapes)
    if flat:
        block_shape = (size,)
        input_shapes = [(size,) if tuple(s) == shape else () for s in input_shapes]
    else:
        block_shape = shape
    rows = block_shape[0]
    row_elems = int(np.prod(block_shape[1:])) if len(block_shape) > 1 else 1
    rows_per_block = min(rows, max(1, BLOCK_BYTES // _itemsize(group) // max(1, row_elems)))
    nblocks = -(-rows // rows_per_block)
    env = {"np": np, "XP": np, "_run_blocks": _run_blocks}
    params = ["p%d" % i for i in range(len(inputs))]
    lines = ["def _fused(%s):" % ", ".join(params)]
    if flat:
        for p, ishape in zip(params, input_shapes):
            lines.append("    %s = %s.reshape(%r)" % (p, p, ishape))
    out_of = {}
    for k, name in enumerate(outputs):
        dt = _dtype_of(group, name)
        env["DT%d" % k] = dt
        lines.append("    o%d = np.empty(%r, DT%d)" % (k, tuple(block_shape), k))
        out_of[name] = k
    body = []
    local = {}
    for name, p, ishape in zip(inputs, params, input_shapes):
        local[name] = p
        if len(ishape) == len(block_shape) and ishape[0] == rows and rows > 1:
            body.append("        b%s = %s[s:e]" % (p, p))
            local[name] = "b" + p
    for k in range(len(outputs)):
        body.append("        w%d = o%d[s:e]" % (k, k))
    last_use = {}
    for idx, step in enumerate(group.steps):
        for a in step.args:
            last_use[a] = idx
    scratch = []  # dtype of each scratch buffer
    free = []  # scratch buffers no live value aliases
    aliases = {}  # value name -> scratch buffers it may alias
    direct = set()  # outputs computed straight into the output's block
    step_lines = []
    for idx, (pos, op, args, outs) in enumerate(group.steps):
        name = outs[0]
        ufunc = _out_ufunc(op)
        if ufunc is None:  # the result may be (a view of) an input: it keeps the inputs' buffers
            call = call_source(env, idx, op, [local[a] for a in args])
            aliases[name] = set().union(*(aliases.get(a, set()) for a in args))
        for a in args:  # a ufunc's input dying here may share its buffer with the result (exact overlap)
            if last_use.get(a) == idx and a not in outputs:
                dead = aliases.pop(a, set())
                free.extend(b for b in dead if b not in free and not any(b in s for s in aliases.values()))
        if ufunc is not None:
            env["UF%d" % idx] = ufunc
            if name in out_of:
                dest = "w%d" % out_of[name]
                direct.add(name)
                aliases[name] = set()
            else:
                dt = np.dtype(op._outputs[0].dtype.as_numpy_dtype)
                buf = next((b for b in free if scratch[b] == dt), None)
                if buf is None:
                    buf = len(scratch)
                    scratch.append(dt)
                else:
                    free.remove(buf)
                dest = "B%d" % buf
                aliases[name] = {buf}
            call = "UF%d(%s, out=%s)" % (idx, ", ".join(local[a] for a in args), dest)
        local[name] = "v%d" % idx
        body.append("        v%d = %s" % (idx, call))
        step_lines.append((len(body), op))
    for k, name in enumerate(outputs):
        if name not in direct:
            body.append("        w%d[...] = %s" % (k, local[name]))
    bufs = ["B%d" % b for b in range(len(scratch))]
    lines.append("    def _blk(%s):" % ", ".join(["s", "e"] + bufs))
    if bufs:
        lines.append("        if e - s != %d:" % rows_per_block)
        lines.append("            %s = %s" % (", ".join(bufs), ", ".join("%s[:e - s]" % b for b in bufs)))
    head = len(lines)
    lines.extend(body)
    line_ops = {head + n: op for n, op in step_lines}
    env["SCRATCH"] = tuple(((rows_per_block,) + tuple(block_shape[1:]), dt) for dt in scratch)
    lines.append("    _run_blocks(_blk, %d, %d, %d, SCRATCH)" % (rows, rows_per_block, min(n_threads, nblocks)))
    results = ["o%d" % k for k in range(len(outputs))]
    if flat:
        results = ["o%d.reshape(%r)" % (k, shape) for k in range(len(outputs))]
    lines.append("    return %s" % ", ".join(results))
    filename = "<tensorweave-fused-%d>" % next(_counter)
    # Generated kernel source (names and numbers made here), not file data.
    exec(compile("\n".join(lines) + "\n", filename, "exec"), env)
    return env["_fused"], filename, line_ops


def _out_ufunc(op):
    """The NumPy ufunc a fused kernel may call with `out=` for `op`, or None: the op's `ufunc` trait,
    where that ufunc's loop for the inputs' dtypes gives the op's output dtype (so the result has
    the bits the plain call's has)."""
    trait = op._op_def.ufunc
    name = trait(op) if callable(trait) else trait
    ufunc = getattr(np, name, None) if name else None
    if not isinstance(ufunc, np.ufunc) or ufunc.nout != 1 or ufunc.nin != len(op._inputs):
        return None
    in_types = tuple(np.dtype(t.dtype.as_numpy_dtype) for t in op._inputs)
    out_type = np.dtype(op._outputs[0].dtype.as_numpy_dtype)
    try:
        loop = ufunc.resolve_dtypes(in_types + (None,))
    except (AttributeError, TypeError):  # NumPy < 1.24, or no loop for these types
        return None
    if loop[-1] != out_type or loop[:-1] != in_types:
        return None
    return ufunc


def _dtype_of(group, name):
    for _, op, _, outs in group.steps:
        if outs[0] == name:
            return op._outputs[0].dtype.as_numpy_dtype
    raise KeyError(name)


def _run_blocks(blk, rows, rows_per_block, n_threads, scratch=()):
    """Runs `blk(start, end, *buffers)` over row blocks of `rows_per_block` on `n_threads` intra-op
    threads (`tensorweave.kernels.shard`). Each thread makes its own `scratch` buffers (`(shape,
    dtype)` pairs) once and takes the next block until none is left, so a thread slowed by other
    work on its core takes fewer blocks instead of holding the others up."""
    nblocks = -(-rows // rows_per_block)
    lock = threading.Lock()
    taken = [0]

    def take():
        with lock:
            b = taken[0]
            taken[0] = b + 1
        return b

    def work(start, limit):
        buffers = [np.empty(shape, dt) for shape, dt in scratch]
        with fpstate.quiet():  # pool threads do not inherit the run's floating-point state
            while True:
                b = take()
                if b >= nblocks:
                    return
                s = b * rows_per_block
                blk(s, min(s + rows_per_block, rows), *buffers)

    n = max(1, min(n_threads, nblocks))
    # One unit per thread, each worth far more than shard's minimum cost: it splits whenever threads allow.
    shard(n, 1 << 30, work, max_parallelism=n)
