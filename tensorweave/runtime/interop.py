"""Inter-op parallelism: two independent heavy matrix products of a plan run at the same time.

With one BLAS thread per call (the Session's default on machines where more threads per call are
pathological), a step's independent matmuls, e.g. a layer's weight gradient and input gradient in
backprop, can use two cores at once: NumPy releases the GIL inside BLAS. The plan hoists the
second product next to the first (its inputs are ready there) and runs the pair concurrently; the
values are the same as run one after the other.

It is opt-in (`ConfigProto(inter_op_parallelism_threads=2)` or more): on the 2-vCPU machines this
was measured on, two concurrent single-threaded matmuls were no faster than one after the other
(the MLP step: 7.10 ms paired vs 6.84 ms plain, best of 8 alternating rounds), as the two vCPUs
share one core's vector units.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

from ..platform import fpstate, threads
from .plan import Step

# Products smaller than this many multiply-adds are not worth a hand-off to another thread (~20 us).
MIN_MULTIPLY_ADDS = 1 << 21
_WINDOW = 12  # how far ahead to look for a partner


class ParallelPair:
    """Two steps run concurrently: `steps[0]` on the calling thread, `steps[1]` on the pool."""

    def __init__(self, first, second):
        self.steps = (first, second)


def enabled():
    """Pairs run when two cores are there and each BLAS call is held to one thread."""
    return threads.intra_op_threads() >= 2 and threads.blas_threads() == 1


def _heavy(step):
    if not isinstance(step, Step):
        return False
    cost = step.op._op_def.cost
    return cost is not None and cost(step.op) >= MIN_MULTIPLY_ADDS


def pair_steps(steps):
    """Returns `steps` with independent heavy ops (by their records' `cost`: multiply-adds) paired as
    steps of a `ParallelPair`."""
    out = []
    taken = set()
    produced_at = {}
    for k, s in enumerate(steps):
        if isinstance(s, Step):
            for o in s.outs:
                produced_at[o] = k
    for k, s in enumerate(steps):
        if id(s) in taken:
            continue
        partner = None
        if _heavy(s):
            for j in range(k + 1, min(len(steps), k + 1 + _WINDOW)):
                t = steps[j]
                if id(t) in taken or not _heavy(t):
                    continue
                # t runs at k: every input must exist before k (a feed, constant, or earlier step).
                if all(produced_at.get(a, -1) < k for a in t.args):
                    partner = t
                    break
        if partner is None:
            out.append(s)
            continue
        taken.add(id(partner))
        out.append(Step(s.pos, ParallelPair(s, partner), s.args + partner.args, s.outs + partner.outs))
    return out


_pool = [None]
_lock = threading.Lock()


def _executor():
    with _lock:
        if _pool[0] is None:
            _pool[0] = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tw-inter-op")
        return _pool[0]


def run_pair(first, second):
    """Runs `second()` on the inter-op thread while `first()` runs here; returns both results.
    If both raise, the first one's error is raised (after the second finished)."""
    future = _executor().submit(fpstate.run_quiet, second)  # pool threads do not inherit the FP state
    try:
        a = first()
    except BaseException:
        future.exception()  # wait for it; its own error, if any, is superseded
        raise
    return a, future.result()
