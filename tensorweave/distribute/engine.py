"""The communication engine behind `tensorweave.distribute`: a small backend interface and its MPI
implementation (through `mpi4py`, the `[distributed]` extra).

A backend offers five collectives on NumPy arrays, issued by every rank in the same order:
`allreduce`, `broadcast`, `allgather`, `barrier` and `abort` (plus the ranks and sizes). Another
engine (gloo, say) only has to implement `Backend`.

The MPI backend issues nonblocking collectives and waits for them by polling with short sleeps, so
ranks that share cores (oversubscribed runs) yield the CPU instead of spinning in MPI's progress
loop. `TW_DIST_TIMEOUT` (seconds, default 0: none) bounds the wait of one collective.
"""

import concurrent.futures
import os
import socket
import time

import numpy as np

__all__ = ["Backend", "MPIBackend", "CollectiveError", "import_mpi"]


class CollectiveError(RuntimeError):
    """A collective failed or timed out."""


def import_mpi():
    """`mpi4py.MPI`, imported on first use.

    Raises:
      ImportError: If mpi4py is not installed, naming the `[distributed]` extra.
    """
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError("tensorweave.distribute needs mpi4py and an MPI library: install the [distributed] extra "
                          "(pip install 'tensorweave[distributed]', which brings mpi4py and mpich).") from e
    return MPI


class Backend:
    """The interface of a communication engine (every method is collective unless noted).

    Attributes:
      rank, size: This process's rank and the number of processes.
      local_rank, local_size: The same among the processes of this machine.
      cross_rank, cross_size: This machine's index and the number of machines (of equal local size).
    """

    rank = 0
    size = 1
    local_rank = 0
    local_size = 1
    cross_rank = 0
    cross_size = 1

    def allreduce(self, array, op="sum", deterministic=False):
        """The elementwise sum (`op="sum"`), minimum ("min"), maximum ("max") or product ("prod") of
        `array` over the ranks; with `deterministic`, sums add the ranks' arrays in rank order."""
        raise NotImplementedError

    def broadcast(self, array, root):
        """Rank `root`'s `array` on every rank."""
        raise NotImplementedError

    def allgather(self, array):
        """The ranks' arrays concatenated along axis 0 in rank order (their first dimensions may differ)."""
        raise NotImplementedError

    def alltoall(self, array, splits):
        """Sends rows `splits[j]` (consecutive, in order) of `array` to rank j; returns the rows
        received, concatenated in rank order, and how many came from each rank."""
        raise NotImplementedError

    def barrier(self):
        """Returns when every rank has called it."""
        raise NotImplementedError

    def allreduce_async(self, array, op="sum", deterministic=False):
        """Starts `allreduce` and returns a `concurrent.futures.Future` of its result. Asynchronous
        all-reduces complete in the order they were started, on every rank; this default runs it at once."""
        future = concurrent.futures.Future()
        try:
            future.set_result(self.allreduce(array, op, deterministic))
        except Exception as e:  # noqa: BLE001 (handed to whoever waits)
            future.set_exception(e)
        return future

    def abort(self, code=1):
        """Ends every rank of the job (not collective)."""
        raise NotImplementedError

    def shutdown(self):
        """Releases the engine (not collective)."""


_NUMPY_OPS = {"sum": np.add, "min": np.minimum, "max": np.maximum, "prod": np.multiply}


class MPIBackend(Backend):
    """The backend over `MPI.COMM_WORLD` (mpi4py).

    Args:
      comm: The communicator (default `MPI.COMM_WORLD`).
      timeout: Seconds one collective may wait (None or 0: no limit; default `TW_DIST_TIMEOUT`).
    """

    def __init__(self, comm=None, timeout=None):
        MPI = import_mpi()
        self._mpi = MPI
        self.comm = MPI.COMM_WORLD if comm is None else comm
        self.rank = self.comm.Get_rank()
        self.size = self.comm.Get_size()
        if timeout is None:
            timeout = float(os.environ.get("TW_DIST_TIMEOUT", "0") or 0)
        self.timeout = timeout or None
        self._ops = {"sum": MPI.SUM, "min": MPI.MIN, "max": MPI.MAX, "prod": MPI.PROD}
        local = self.comm.Split_type(MPI.COMM_TYPE_SHARED, key=self.rank)
        self.local_rank = local.Get_rank()
        self.local_size = local.Get_size()
        local.Free()
        cross = self.comm.Split(self.local_rank, key=self.rank)
        self.cross_rank = cross.Get_rank()
        self.cross_size = cross.Get_size()
        cross.Free()
        self.hostname = socket.gethostname()
        self._async_comm = None
        self._thread = None
        self.wait_seconds = 0.0  # time the calling thread spent waiting for collectives

    def _comm_thread(self):
        """The communication thread and its communicator (a duplicate of `comm`, so its collectives
        never interleave with the calling thread's on one communicator)."""
        if self._thread is None:
            self._async_comm = self.comm.Dup()
            self._thread = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="tw-dist-comm")
        return self._thread

    def allreduce_async(self, array, op="sum", deterministic=False):
        a = np.ascontiguousarray(array)
        if self.size == 1 or self._mpi.Query_thread() != self._mpi.THREAD_MULTIPLE:
            # One rank, or an MPI that allows no concurrent calls: run it now, on this thread.
            return super().allreduce_async(a, op, deterministic)
        pool = self._comm_thread()
        return pool.submit(self._allreduce_on, self._async_comm, a, op, deterministic)

    # -- waiting ---------------------------------------------------------------------------
    def _wait(self, req, what):
        if req.Test():
            return
        start = time.monotonic()
        try:
            self._poll(req, what, start)
        finally:
            self.wait_seconds += time.monotonic() - start

    def _poll(self, req, what, start):
        delay = 0.0
        while not req.Test():
            time.sleep(delay)
            delay = min(delay * 2 + 1e-5, 2.5e-4)
            if self.timeout is not None and time.monotonic() - start > self.timeout:
                raise CollectiveError("rank %d: %s did not complete within %g s (TW_DIST_TIMEOUT): another rank "
                                      "stopped or issued different collectives" % (self.rank, what, self.timeout))

    # -- collectives ------------------------------------------------------------------------
    def allreduce(self, array, op="sum", deterministic=False):
        a = np.ascontiguousarray(array)
        if self.size == 1:
            return a.copy()
        return self._allreduce_on(self.comm, a, op, deterministic)

    def _allreduce_on(self, comm, a, op, deterministic):
        if a.dtype == np.float16 or a.dtype == np.bool_:
            wide = np.float32 if a.dtype == np.float16 else np.int8
            return self._allreduce_on(comm, a.astype(wide), op, deterministic).astype(a.dtype)
        if deterministic or a.dtype.kind in "OSU":
            parts = self._gather_equal(a, comm)
            out = parts[0].copy()
            for p in parts[1:]:
                out = _NUMPY_OPS[op](out, p)
            return out
        out = np.empty_like(a)
        self._wait(comm.Iallreduce(a, out, op=self._ops[op]), "allreduce of %s%s" % (a.dtype, a.shape))
        return out

    def _gather_equal(self, a, comm=None):
        buf = np.empty((self.size,) + a.shape, a.dtype)
        self._wait((comm or self.comm).Iallgather(a, buf), "allgather of %s%s" % (a.dtype, a.shape))
        return list(buf)

    def broadcast(self, array, root):
        a = np.array(array, copy=True, order="C")
        if self.size == 1:
            return a
        self._wait(self.comm.Ibcast(a, root=root), "broadcast of %s%s from rank %d" % (a.dtype, a.shape, root))
        return a

    def allgather(self, array):
        a = np.ascontiguousarray(array)
        if self.size == 1:
            return a.copy()
        if a.ndim == 0:
            raise ValueError("allgather needs a tensor of rank >= 1")
        firsts = self._gather_equal(np.array([a.shape[0]], np.int64))
        firsts = [int(f[0]) for f in firsts]
        row = int(np.prod(a.shape[1:], dtype=np.int64))
        out = np.empty((sum(firsts),) + a.shape[1:], a.dtype)
        if out.size == 0:
            return out
        counts = [f * row for f in firsts]
        displs = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(int).tolist()
        self._wait(self.comm.Iallgatherv(a, [out, (counts, displs)]),
                   "allgather of %s%s" % (a.dtype, a.shape))
        return out

    def alltoall(self, array, splits):
        a = np.ascontiguousarray(array)
        splits = np.ascontiguousarray(splits, np.int64)
        if self.size == 1:
            return a.copy(), splits.copy()
        received = np.empty_like(splits)
        self._wait(self.comm.Ialltoall(splits, received), "alltoall of the splits")
        row = int(np.prod(a.shape[1:], dtype=np.int64))
        out = np.empty((int(received.sum()),) + a.shape[1:], a.dtype)

        def layout(counts):
            counts = [int(c) * row for c in counts]
            return counts, np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(int).tolist()

        self._wait(self.comm.Ialltoallv([a, layout(splits)], [out, layout(received)]),
                   "alltoall of %s%s" % (a.dtype, a.shape))
        return out, received

    def allgather_ints(self, values):
        """Every rank's int64 vector `values` (equal lengths), as a (size, len) array."""
        return np.stack(self._gather_equal(np.asarray(values, np.int64)))

    def barrier(self):
        if self.size > 1:
            self._wait(self.comm.Ibarrier(), "barrier")

    def abort(self, code=1):
        self.comm.Abort(code)

    def shutdown(self):
        if self._thread is not None:
            self._thread.shutdown(wait=True)
            self._thread = None
            self._async_comm.Free()
            self._async_comm = None
