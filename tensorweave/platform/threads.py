"""BLAS thread control (through threadpoolctl, the optional `[perf]` extra) and the intra-op thread count
of `tensorweave.kernels.shard`."""

import functools
import logging
import os

_log = logging.getLogger("tensorweave")
_controller = [None, False]
_current = [None]
# The explicit intra-op thread count (a Session's ConfigProto or tensorweave.kernels.set_num_threads), or None.
_intra_op = [None]


def default_blas_threads():
    """One BLAS thread per physical core guess (half the logical CPUs), at least one.

    NumPy's OpenBLAS with one thread per hyper-thread ran medium matmuls 10-18x slower than one
    thread on 2-vCPU machines, so logical CPUs are never all used by default.
    """
    n = os.cpu_count() or 1
    return max(1, n // 2)


def set_blas_threads(n, explicit=False):
    """Limits BLAS to `n` threads for the process. Returns True if the limit was applied.

    `explicit` means `n` came from the user (ConfigProto.intra_op_parallelism_threads): without
    threadpoolctl a warning names the extra.
    """
    if _current[0] == n:
        return True
    if not _controller[1]:
        _controller[1] = True
        try:
            from threadpoolctl import ThreadpoolController
            _controller[0] = ThreadpoolController()
        except ImportError:
            _controller[0] = None
    ctl = _controller[0]
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
