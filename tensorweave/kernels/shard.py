"""`shard`: TensorFlow's `Shard` work sharder, for kernels written in Python.

`shard(total, cost_per_unit, work)` splits the index range `[0, total)` into contiguous blocks and
calls `work(start, limit)` once per block, on a process-wide worker pool; the calling thread runs
the first block itself and returns when every block is done. How many blocks comes from the
estimated cost `total * cost_per_unit` (one unit is about a nanosecond): work cheaper than
`MIN_COST_PER_SHARD` runs inline in one call, as TF's Shard does below its minimum cost per shard.
The minimum is 100 us here rather than TF's 10 us because handing a block to a Python thread costs
tens of microseconds.

Threads only run in parallel while the work releases the GIL: NumPy does inside its loops on
large arrays, and numba functions compiled with `nogil=True` (see `tensorweave.kernels.jit`) do
for their whole call. So a per-block body is typically one such call on a slice:

    @tensorweave.kernels.jit
    def _row_max(x, out, start, limit):
        for i in range(start, limit):
            out[i] = x[i].max()

    out = np.empty(len(x), x.dtype)
    shard(len(x), x.shape[1] * 2, lambda start, limit: _row_max(x, out, start, limit))

The pool has `num_threads() - 1` workers; `num_threads()` is set by `set_num_threads(n)` or a
Session's `ConfigProto(intra_op_parallelism_threads=n)`, else by the `TW_NUM_THREADS` environment
variable, else it is the number of CPUs this process may run on. A `shard` called from inside a
block (nested) runs inline, so blocks never wait on the pool they run on.
"""

import operator
import threading
from concurrent.futures import ThreadPoolExecutor

from ..platform import threads

__all__ = ["MIN_COST_PER_SHARD", "num_threads", "set_num_threads", "shard"]

MIN_COST_PER_SHARD = 100_000

_lock = threading.Lock()
_pool = [None, 0]  # the executor and the thread count it was made for
_local = threading.local()


def num_threads():
    """Returns how many threads `shard` uses (the caller's included)."""
    return threads.intra_op_threads()


def set_num_threads(n):
    """Sets how many threads `shard` uses, the calling thread included.

    Args:
      n: A positive int, or None to go back to the default ($TW_NUM_THREADS, else the CPU count).

    Raises:
      ValueError: If `n` is not positive.
    """
    if n is not None and operator.index(n) < 1:
        raise ValueError("The number of threads must be positive, got %d." % n)
    threads.set_intra_op_threads(n)


def _executor(n):
    """The pool with `n - 1` workers, made on first use and remade when `n` changes."""
    with _lock:
        if _pool[0] is None or _pool[1] != n:
            old = _pool[0]
            _pool[0] = ThreadPoolExecutor(max_workers=n - 1, thread_name_prefix="tw-intra-op")
            _pool[1] = n
            if old is not None:
                old.shutdown(wait=False)
        return _pool[0]


def _run_block(work, start, limit):
    """Runs one block with nested `shard` calls inline; returns the exception it raised, if any."""
    outer = getattr(_local, "active", False)
    _local.active = True
    try:
        work(start, limit)
    except BaseException as e:  # handed to the caller, which re-raises it
        return e
    finally:
        _local.active = outer
    return None


def shard(total, cost_per_unit, work, max_parallelism=None):
    """Calls `work(start, limit)` over contiguous blocks covering `[0, total)`, in parallel.

    Every index in `[0, total)` is in exactly one block; blocks have equal sizes except the last,
    which may be smaller. Small work (`total * cost_per_unit < 2 * MIN_COST_PER_SHARD`), a single
    thread, and calls made from inside a block run as one inline call `work(0, total)`.

    Args:
      total: The number of units of work (a non-negative int); 0 calls nothing.
      cost_per_unit: The estimated cost of one unit, in about-nanoseconds (values below 1 count as 1).
      work: `work(start, limit)`, called once per block. Blocks run concurrently on different threads,
        so they must write disjoint outputs.
      max_parallelism: At most this many blocks (default: `num_threads()`).

    Raises:
      ValueError: If `total` is negative.
      Exception: The exception raised by the first failing block (in block order), re-raised once
        every block has finished.
    """
    total = operator.index(total)
    if total < 0:
        raise ValueError("total must be non-negative, got %d." % total)
    if total == 0:
        return
    n = threads_n = num_threads()
    if max_parallelism is not None:
        n = min(n, max(1, operator.index(max_parallelism)))
    cost = max(1, cost_per_unit)
    num_blocks = int(max(1, min(n, total * cost // MIN_COST_PER_SHARD)))
    if num_blocks == 1 or getattr(_local, "active", False):
        work(0, total)
        return
    block = -(-total // num_blocks)
    pool = _executor(threads_n)
    pending = []
    for start in range(block, total, block):
        limit = min(start + block, total)
        try:
            pending.append(pool.submit(_run_block, work, start, limit))
        except RuntimeError:  # the pool was just replaced by set_num_threads: run the block here
            pending.append((start, limit))
    errors = [_run_block(work, 0, block)]
    for p in pending:
        errors.append(_run_block(work, *p) if isinstance(p, tuple) else p.result())
    for e in errors:
        if e is not None:
            raise e
