"""What the launcher runs in each rank: `python -m tensorweave.distribute._worker script.py args...`.

It prefixes every line the script prints with `[rank]` (when `TW_DIST_PREFIX` is "1"), records its
pid in the launcher's run directory (`TW_DIST_RUNDIR`, so a failure can be reported by rank), runs
the script as `__main__`, and on an uncaught exception prints it and aborts the whole job (so the
other ranks do not wait for this one in a collective).
"""

import os
import runpy
import socket
import sys
import traceback

__all__ = ["main", "env_rank"]


def env_rank():
    """This process's rank from the launcher's environment (MPICH/hydra, Open MPI, SLURM), or 0."""
    for key in ("PMI_RANK", "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "SLURM_PROCID"):
        if os.environ.get(key, "").isdigit():
            return int(os.environ[key])
    return 0


class _Prefixed:
    """A text stream that writes `prefix` at the start of every line."""

    def __init__(self, stream, prefix):
        self._stream = stream
        self._prefix = prefix
        self._at_line_start = True

    def write(self, text):
        if not text:
            return 0
        out = []
        for piece in text.splitlines(True):
            if self._at_line_start:
                out.append(self._prefix)
            out.append(piece)
            self._at_line_start = piece.endswith("\n")
        self._stream.write("".join(out))
        self._stream.flush()
        return len(text)

    def flush(self):
        self._stream.flush()

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _record(rundir, rank, what):
    if rundir:
        try:
            with open(os.path.join(rundir, "rank%d.%s" % (rank, what[0])), "w") as f:
                f.write(what[1])
        except OSError:
            pass


def main(argv=None):
    """Runs `argv[0]` (a script path) with arguments `argv[1:]` as this rank's program."""
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        sys.stderr.write("usage: python -m tensorweave.distribute._worker script.py [args...]\n")
        return 2
    rank = env_rank()
    rundir = os.environ.get("TW_DIST_RUNDIR")
    _record(rundir, rank, ("pid", "%d %s\n" % (os.getpid(), socket.gethostname())))
    if os.environ.get("TW_DIST_PREFIX", "1") == "1":
        sys.stdout = _Prefixed(sys.stdout, "[%d] " % rank)
        sys.stderr = _Prefixed(sys.stderr, "[%d] " % rank)
    sys.argv = list(argv)
    sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
    try:
        runpy.run_path(argv[0], run_name="__main__")
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        _record(rundir, rank, ("exit", "%d\n" % code))
        if code:
            _abort(code)
        return code
    except BaseException as e:  # noqa: BLE001 (any failure of the script ends the job)
        traceback.print_exc()
        sys.stderr.flush()
        # The error's last line also goes to the launcher's report: mpiexec may drop output still in
        # flight when the job is aborted.
        last = " ".join(traceback.format_exception_only(type(e), e)[-1].split())
        _record(rundir, rank, ("exit", "1 exception %s\n" % last))
        _abort(1)
        return 1
    _record(rundir, rank, ("exit", "0\n"))
    return 0


def _abort(code):
    mpi = sys.modules.get("mpi4py.MPI")
    if mpi is not None and mpi.COMM_WORLD.Get_size() > 1:
        sys.stdout.flush()
        sys.stderr.flush()
        mpi.COMM_WORLD.Abort(code)


if __name__ == "__main__":
    sys.exit(main())
