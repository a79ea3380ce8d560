"""The launcher: `python -m tensorweave.distribute.run -np 4 [-H host1:2,host2:2] train.py [args...]`.

It wraps the MPI launcher (`mpiexec` next to the running Python, as a virtual environment with the
`[distributed]` extra has it, else the one on PATH), and:

- sets one BLAS/OpenMP thread and one tensorweave intra-op thread per rank (`--threads N` to change);
- forwards the environment to every rank (hydra's default; over ssh on other machines too);
- prefixes each line a rank prints with `[rank] ` (`--no-prefix` to turn it off);
- when a rank fails, the MPI launcher stops the others at once, and this launcher names the rank
  (its pid, host and exit code or signal) and exits with a non-zero status;
- `--timeout S` stops the whole job after S seconds (exit status 124).

Plain `mpiexec -n 4 python train.py` and SLURM's `srun python train.py` work too (without the
prefixes and the failure report).
"""

import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

__all__ = ["main", "find_mpiexec", "build_command"]

_PID_RE = re.compile(r"PID (\d+) RUNNING AT (\S+)")
_EXIT_RE = re.compile(r"EXIT CODE: (\d+)")
_SIGNAL_RE = re.compile(r"signal (\d+)")


def find_mpiexec():
    """The `mpiexec` to run: the one beside `sys.executable` (a virtual environment's), else PATH's.

    Raises:
      FileNotFoundError: If there is none, naming the `[distributed]` extra.
    """
    here = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    if os.path.exists(here):
        return here
    found = shutil.which("mpiexec") or shutil.which("mpirun")
    if found is None:
        raise FileNotFoundError("No mpiexec found beside %s or on PATH: install the [distributed] extra "
                                "(pip install 'tensorweave[distributed]', which brings mpich)." % sys.executable)
    return found


def _parser():
    p = argparse.ArgumentParser(prog="python -m tensorweave.distribute.run",
                                description="Runs a tensorweave training script on several processes over MPI.")
    p.add_argument("-np", "-n", "--num-proc", dest="np", type=int, required=True, help="number of processes")
    p.add_argument("-H", "--hosts", dest="hosts", default=None,
                   help="hosts and their process counts, host1:2,host2:2 (default: this machine)")
    p.add_argument("--hostfile", default=None, help="a file of hosts, one 'host:n' a line")
    p.add_argument("--threads", type=int, default=1, help="BLAS/OpenMP and intra-op threads per rank (default 1)")
    p.add_argument("--no-prefix", action="store_true", help="do not prefix output lines with the rank")
    p.add_argument("--timeout", type=float, default=None, help="stop the job after this many seconds")
    p.add_argument("--mpiexec", default=None, help="the MPI launcher to wrap (default: found as find_mpiexec)")
    p.add_argument("--mpi-args", default="", help="extra arguments for mpiexec (one string)")
    p.add_argument("script", help="the Python script every rank runs")
    p.add_argument("args", nargs=argparse.REMAINDER, help="the script's arguments")
    return p


def build_command(options, rundir):
    """The mpiexec command line and environment for parsed `options`."""
    mpiexec = options.mpiexec or find_mpiexec()
    cmd = [mpiexec, "-n", str(options.np)]
    if options.hosts:
        cmd += ["-hosts", options.hosts]
    if options.hostfile:
        cmd += ["-f", options.hostfile]
    cmd += options.mpi_args.split()
    cmd += [sys.executable, "-u", "-m", "tensorweave.distribute._worker", options.script] + list(options.args)
    env = dict(os.environ)
    threads = str(max(1, options.threads))
    for key in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS", "TW_NUM_THREADS"):
        env[key] = threads
    env["TW_DIST_RUNDIR"] = rundir
    env["TW_DIST_PREFIX"] = "0" if options.no_prefix else "1"
    env["PYTHONUNBUFFERED"] = "1"
    return cmd, env


def _read_rank_files(rundir):
    pids, exits = {}, {}
    for name in os.listdir(rundir):
        m = re.match(r"rank(\d+)\.(pid|exit)$", name)
        if not m:
            continue
        path = os.path.join(rundir, name)
        with open(path) as f:
            text = f.read().split()
        if m.group(2) == "pid" and text:
            pids[int(m.group(1))] = (int(text[0]), text[1] if len(text) > 1 else "?")
        elif text:
            exits[int(m.group(1))] = (int(text[0]), os.path.getmtime(path), " ".join(text[1:]))
    return pids, exits


def _failure_report(rundir, seen, rc, np_):
    pids, exits = _read_rank_files(rundir)
    failed = sorted((mtime, r, code, why) for r, (code, mtime, why) in exits.items() if code != 0)
    if failed:
        _, r, code, why = failed[0]
        pid, host = pids.get(r, (None, "?"))
        if why.split(" ", 1)[0] == "exception":
            detail = why[len("exception"):].strip()
            what = "raised an exception" + (" (%s)" % detail if detail else "")
        else:
            what = "exited with code %d" % code
        return "rank %d (pid %s on %s) %s" % (r, pid, host, what)
    by_pid = {pid: r for r, (pid, _) in pids.items()}
    if seen.get("pid") in by_pid:
        r = by_pid[seen["pid"]]
        how = ("was killed by signal %d" % seen["signal"]) if seen.get("signal") else \
            "exited with code %s" % seen.get("exit", "?")
        return "rank %d (pid %d on %s) %s" % (r, seen["pid"], seen.get("host", "?"), how)
    missing = [r for r in range(np_) if r not in pids]
    if missing:
        return "rank(s) %s did not start" % ", ".join(map(str, missing))
    return "a rank failed (mpiexec exit status %d)" % rc


def main(argv=None):
    """Runs the launcher; returns the job's exit status."""
    options = _parser().parse_args(sys.argv[1:] if argv is None else argv)
    if options.np < 1:
        sys.stderr.write("tensorweave.distribute.run: -np must be >= 1\n")
        return 2
    rundir = tempfile.mkdtemp(prefix="tw_dist_")
    try:
        cmd, env = build_command(options, rundir)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                start_new_session=True)
        seen = {}
        timed_out = []

        def watchdog():
            if proc.wait_timeout_event.wait(options.timeout):
                return
            timed_out.append(True)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except OSError:
                pass

        proc.wait_timeout_event = threading.Event()
        if options.timeout:
            threading.Thread(target=watchdog, daemon=True).start()
        out = sys.stdout.buffer
        for line in iter(proc.stdout.readline, b""):
            text = line.decode("utf-8", "replace")
            m = _PID_RE.search(text)
            if m and "pid" not in seen:
                seen["pid"], seen["host"] = int(m.group(1)), m.group(2)
            m = _EXIT_RE.search(text)
            if m and "exit" not in seen:
                seen["exit"] = int(m.group(1))
            if "EXIT STRING" in text:
                m = _SIGNAL_RE.search(text)
                if m:
                    seen["signal"] = int(m.group(1))
            out.write(line)
            out.flush()
        rc = proc.wait()
        proc.wait_timeout_event.set()
        if timed_out:
            sys.stderr.write("tensorweave.distribute.run: the job ran past --timeout %g s and was stopped\n"
                             % options.timeout)
            return 124
        if rc != 0:
            time.sleep(0.05)
            sys.stderr.write("tensorweave.distribute.run: %s; the other ranks were stopped (exit status %d)\n"
                             % (_failure_report(rundir, seen, rc, options.np), rc))
        return rc
    finally:
        shutil.rmtree(rundir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
