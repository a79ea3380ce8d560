"""BLAS thread control (through threadpoolctl, the optional `[perf]` extra) and the intra-op thread count
of `tensorweave.kernels.shard`."""

import functools
import logging
import os
import threading
import time

import numpy as np

_log = logging.getLogger("tensorweave")
_controller = [None, False]
_current = [None]
# The explicit intra-op thread count (a Session's ConfigProto or tensorweave.kernels.set_num_threads), or None.
_intra_op = [None]


class ThreadPolicy:
    """How many BLAS threads a Session uses, and why.

    Attributes:
      blas_threads: The BLAS thread limit (None: BLAS threads are not controlled, no threadpoolctl).
      source: "explicit" (ConfigProto.intra_op_parallelism_threads), "calibrated" (measured in this
        process), "single-cpu" or "uncontrolled".
      timings: {threads: seconds of the calibration matmul} for a calibrated policy.
      calibration_seconds: What the calibration cost.
    """

    __slots__ = ("blas_threads", "source", "timings", "calibration_seconds")

    def __init__(self, blas_threads, source, timings=None, calibration_seconds=0.0):
        self.blas_threads = blas_threads
        self.source = source
        self.timings = dict(timings or {})
        self.calibration_seconds = calibration_seconds

    def describe(self):
        """One line for step stats and benchmark reports."""
        text = "blas_threads=%s (%s" % (self.blas_threads, self.source)
        if self.timings:
            text += ": " + ", ".join(_config_text(c) + " %.3f ms" % (t * 1e3) for c, t in sorted(
                self.timings.items(), key=lambda item: _config_key(item[0])))
            text += "; calibration %.1f ms" % (self.calibration_seconds * 1e3)
        return text + ")"

    def __repr__(self):
        return "ThreadPolicy(%s)" % self.describe()


# More threads must beat fewer by this factor to be chosen: a tie (or noise) keeps the cores free
# for the intra-op pool and avoids oversubscription.
_MARGIN = 1.1


# A configuration is a BLAS thread count (int), or SHARDED: one BLAS thread per block of a GEMM split
# over the intra-op pool (what kernels that shard their GEMMs do).
SHARDED = "sharded"


def _config_key(config):
    """Preference order on ties: one plain thread, then the intra-op pool, then more BLAS threads."""
    return (1, 0) if config == SHARDED else ((0, 0) if config == 1 else (2, config))


def _config_text(config):
    if config == SHARDED:
        return "1 thread per intra-op block"
    return "%d BLAS thread%s" % (config, "" if config == 1 else "s")


def choose_blas_threads(timings, margin=_MARGIN):
    """The configuration to use from measured `timings` ({config: seconds for one matmul}, a config
    being a BLAS thread count or `SHARDED`): the fastest, unless a preferred one (fewer threads;
    the intra-op pool before BLAS threads) is within `margin` of it.

    Returns:
      A BLAS thread count: the chosen count, or 1 for SHARDED (kernels then shard their GEMMs
      over the intra-op pool, see `gemm_shards`).

    Raises:
      ValueError: If `timings` is empty.
    """
    if not timings:
        raise ValueError("choose_blas_threads needs at least one timing")
    best = min(timings, key=lambda c: (timings[c], _config_key(c)))
    for c in sorted(timings, key=_config_key):
        if _config_key(c) < _config_key(best) and timings[c] <= timings[best] * margin:
            best = c
            break
    return 1 if best == SHARDED else best


def gemm_shards():
    """How many blocks kernels may split GEMM-heavy work into (convolutions, large matmuls): the
    intra-op threads when BLAS runs one thread, else 1 (BLAS already runs each GEMM on several
    threads; splitting over the pool as well would oversubscribe the cores)."""
    return intra_op_threads() if _current[0] == 1 else 1


def calibration_candidates(cpus):
    """The thread counts a calibration compares: 1, half the CPUs (a physical-core guess) and all."""
    return sorted({1, max(1, cpus // 2), max(1, cpus)})


def _time_matmul(ctl, config, a, out, shard=None, warm=False):
    """Seconds of one matmul `a @ a` into `out` under `config` (a BLAS thread count, or SHARDED:
    rows split over the intra-op pool by `shard`, one BLAS thread each); `warm` runs one untimed
    first (thread start-up)."""
    if config == SHARDED:
        def run():
            shard(len(a), 1 << 30, lambda s, e: np.matmul(a[s:e], a, out=out[s:e]))
        limit = 1
    else:
        def run():
            np.matmul(a, a, out=out)
        limit = config
    with ctl.limit(limits=limit, user_api="blas"):
        if warm:
            run()
        t0 = time.perf_counter()
        run()
        return time.perf_counter() - t0


def calibrate(size=256, reps=3, shard=None):
    """Measures a medium float32 matmul (`size`^3) under each candidate BLAS thread count and split
    over the intra-op pool with one BLAS thread per block, and returns the ThreadPolicy it implies.
    A few milliseconds; needs threadpoolctl. `shard` is `tensorweave.kernels.shard.shard` (passed
    in: this module sits below it); without it the pool is not measured.

    On some machines two BLAS threads on two vCPUs ran medium matmuls 10-18x slower than one, on
    others 2x faster: no fixed default is right everywhere, so the process measures once.
    """
    cpus = _usable_cpus()
    ctl = _get_controller()
    if ctl is None:
        return ThreadPolicy(None, "uncontrolled")
    if cpus < 2:
        return ThreadPolicy(1, "single-cpu")
    a = np.random.RandomState(0).rand(size, size).astype(np.float32)
    t0 = time.perf_counter()
    timings = {}
    candidates = calibration_candidates(cpus)
    if shard is not None and intra_op_threads() >= 2:
        candidates.insert(1, SHARDED)
    # Rounds over the candidates in turn, so that a burst of other work on the machine hits them
    # alike; a candidate 3x slower than the best so far has lost and is not timed again.
    out = np.empty_like(a)
    for r in range(reps):
        for config in candidates:
            if r and timings[config] > 3 * min(timings.values()):
                continue
            t = _time_matmul(ctl, config, a, out, shard, warm=not r)
            timings[config] = min(t, timings.get(config, t))
    return ThreadPolicy(choose_blas_threads(timings), "calibrated", timings, time.perf_counter() - t0)


_policy = [None]
_policy_lock = threading.Lock()


def default_policy(shard=None):
    """The process's BLAS thread policy for sessions without an explicit thread count: calibrated
    on first use (TW_BLAS_THREADS=n fixes it to n without measuring); `shard` as in `calibrate`."""
    if _policy[0] is None:
        with _policy_lock:
            if _policy[0] is None:
                env = os.environ.get("TW_BLAS_THREADS", "").strip()
                if env.isdigit() and int(env) > 0:
                    _policy[0] = ThreadPolicy(int(env), "explicit")
                else:
                    _policy[0] = calibrate(shard=shard)
    return _policy[0]


def explicit_policy(n):
    return ThreadPolicy(n, "explicit")


def _get_controller():
    if not _controller[1]:
        _controller[1] = True
        try:
            from threadpoolctl import ThreadpoolController
            _controller[0] = ThreadpoolController()
        except ImportError:
            _controller[0] = None
    return _controller[0]


def set_blas_threads(n, explicit=False):
    """Limits BLAS to `n` threads for the process. Returns True if the limit was applied.

    `explicit` means `n` came from the user (ConfigProto.intra_op_parallelism_threads): without
    threadpoolctl a warning names the extra.
    """
    if _current[0] == n:
        return True
    ctl = _get_controller()
    if ctl is None:
        if explicit:
            _log.warning("intra_op_parallelism_threads=%d needs threadpoolctl: pip install "
                         "'tensorweave[perf]'", n)
        return False
    ctl.limit(limits=n, user_api="blas")
    _current[0] = n
    return True


def blas_threads():
    """The BLAS thread limit this module set, or None when BLAS threads are not controlled."""
    return _current[0]


def set_intra_op_threads(n):
    """Sets the intra-op thread count (`tensorweave.kernels.shard`'s pool size); None restores the default."""
    _intra_op[0] = None if n is None else max(1, int(n))


def intra_op_threads():
    """The intra-op thread count: the explicit one, else $TW_NUM_THREADS, else the CPUs this process may use."""
    if _intra_op[0] is not None:
        return _intra_op[0]
    env = os.environ.get("TW_NUM_THREADS", "")
    if env.strip().isdigit() and int(env) > 0:
        return int(env)
    return _usable_cpus()


@functools.lru_cache(maxsize=None)
def _usable_cpus():
    """The CPUs this process may use (asked once: sharded kernels call `intra_op_threads` per run)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return os.cpu_count() or 1
