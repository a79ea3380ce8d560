"""The machinery behind `bench/run.py` and `bench/eager_dispatch_bench.py`: timing inside a worker
process, the interpreter of each implementation, fresh worker processes interleaved round-robin,
statistics, targets, and the JSON / Markdown reports. Knows nothing about the workloads.

Each implementation of a workload ("tensorweave", "tensorflow", "torch", "numpy", plus variants such
as "tensorweave intra_op=2") runs in fresh processes (`run.py --worker NAME --impl IMPL`), each
printing one JSON line: samples in base units (seconds, or bytes for sizes) and notes. tensorweave and
NumPy run under the driver's interpreter (the project's `.venv` under `make bench`); TensorFlow and
PyTorch under the benchmark environment's (`bench/.venv`, built by `make bench-env`). An implementation
whose interpreter or package is missing is reported as not installed; ratios compare only
implementations measured in the same run (stored anchors from other machines are informational).
"""

import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field

BENCH_DIR = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH_DIR)
# The benchmark environment's interpreter (TensorFlow, tf-keras, PyTorch); TW_BENCH_PYTHON overrides it.
BENCH_PYTHON = os.environ.get("TW_BENCH_PYTHON") or os.path.join(BENCH_DIR, ".venv", "bin", "python")

# Display units: name -> base units per display unit.
UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "B": 1, "MB": 1e6, "GFLOP/s": 1e9}

# The libraries an implementation's first word names, in the order a workload's workers run.
LIBRARIES = ("tensorweave", "tensorflow", "torch", "numpy")
# Libraries that run in the benchmark environment, with the distributions that provide them.
BENCH_ENV_PACKAGES = {"tensorflow": ("tensorflow", "tensorflow-cpu"), "torch": ("torch",)}
TITLES = {"tensorweave": "tensorweave", "tensorflow": "TensorFlow", "torch": "PyTorch", "numpy": "NumPy"}

_notes = {}


def note(key, value):
    """Records a fact about the current worker's run (reported with its samples)."""
    _notes[key] = value


@dataclass(frozen=True)
class Target:
    """One of the issue's targets for a workload.

    kind "abs": tensorweave's median <= `limit` (base units; >= with `higher`); any other kind names
    the implementation measured in the same run that tensorweave is compared with ("tensorflow",
    "torch", "numpy", "numpy default threads", ...): tensorweave / it <= `limit` (>= with `higher`).
    """

    kind: str
    limit: float
    text: str
    higher: bool = False


@dataclass(frozen=True)
class Workload:
    """One row of the table.

    Args:
      name: identifier used by `--only`, `--worker` and the JSON.
      title: the row's text.
      graph: `graph(tf)` builds the graph version with the module `tf` (tensorweave, or TensorFlow's
        `compat.v1`) and returns the function to measure; None if there is none.
      numpy: `numpy()` returns the hand-written NumPy function to measure; None if there is none.
      unit: display unit (a key of UNITS).
      target: a Target, or a tuple of Targets that must all be met.
      anchors: figures measured on other machines, in base units ({"tensorflow": .., "numpy": ..});
        shown for information, never used for ratios or targets.
      per: divides each per-call time (e.g. loop iterations per call).
      mode: "timed" (the harness times calls), "self" (the function returns its own measurement) or
        "once" (one call, returning the measurement; no warm-up).
      module: False if `graph` takes the module's name instead of the imported module.
      variants: extra implementations, e.g. ("tensorweave intra_op=1", "numpy default threads",
        "torch script=1"); options after the first word go to the session config (tensorweave) or
        as keyword arguments to `torch` (PyTorch).
      about: how the workload is defined, for RESULTS.md.
      torch: `torch(**options)` returns the PyTorch function to measure (same math, CPU, float32,
        PyTorch's default threads); None if there is none.
      work: if set, the work one call does (e.g. floating-point operations): samples are reported as
        rates (work per second, `unit` e.g. "GFLOP/s"), for which higher is better.
      skip: implementations not to run (e.g. ("tensorflow",) where its measurement means nothing).
    """

    name: str
    title: str
    graph: object
    numpy: object
    unit: str
    target: object
    anchors: dict = field(default_factory=dict)
    per: int = 1
    mode: str = "timed"
    module: bool = True
    variants: tuple = ()
    about: str = ""
    torch: object = None
    work: float = None
    skip: tuple = ()

    def implementations(self):
        """Every implementation of this workload, in the order their workers run, less `skip`."""
        impls = []
        if self.graph is not None:
            impls += ["tensorweave", "tensorflow"]
        if self.torch is not None:
            impls.append("torch")
        if self.numpy is not None:
            impls.append("numpy")
        return [impl for impl in impls + list(self.variants) if impl not in self.skip]

    def targets(self):
        return self.target if isinstance(self.target, tuple) else (self.target,)


def library(impl):
    """The library an implementation runs: its first word ("tensorweave intra_op=2" -> "tensorweave")."""
    return impl.split()[0]


def impl_options(impl):
    """The key=value options after an implementation's first word, as a dict of strings."""
    options = {}
    for option in impl.split()[1:]:
        key, sep, value = option.partition("=")
        if not sep or not key:
            raise ValueError("implementation option %r of %r is not key=value" % (option, impl))
        options[key] = value
    return options


# ---- inside a worker -------------------------------------------------------------------------
def measure(fn, mode="timed", repeat=7, round_s=0.2, per=1):
    """Samples of `fn` in base units: per-call times (averaged over a round) or returned values.

    "timed": a warm-up call, then the number of calls per round is chosen so a round lasts about
    `round_s`, then `repeat` rounds. "self": a warm-up call, then `repeat` calls, each returning the
    seconds it measured itself. "once": one call returning its value.
    """
    if mode == "once":
        return [fn()]
    if mode == "self":
        fn()
        return [fn() / per for _ in range(repeat)]
    t0 = time.perf_counter()
    fn()
    first = time.perf_counter() - t0
    t0 = time.perf_counter()
    fn()
    one = max(min(first, time.perf_counter() - t0), 1e-7)
    number = max(1, min(100000, int(round_s / one)))
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter() - t0) / number / per)
    return samples


def worker_output(samples, **extra):
    """The JSON line a worker prints."""
    return json.dumps(dict(samples=samples, notes=dict(_notes), **extra))


# ---- interpreters ----------------------------------------------------------------------------
def interpreter(impl, bench_python=None, driver_python=None):
    """The Python that runs `impl`'s workers: the benchmark environment's for TensorFlow and PyTorch,
    the driver's own (the project's `.venv` under `make bench`) for tensorweave and NumPy."""
    if library(impl) in BENCH_ENV_PACKAGES:
        return os.path.abspath(bench_python or BENCH_PYTHON)
    return driver_python or sys.executable


_PROBE = """\
import importlib.metadata as md, importlib.util, json, sys
version = None
for dist in sys.argv[2:]:
    try:
        version = md.version(dist)
        break
    except md.PackageNotFoundError:
        pass
print(json.dumps({"found": importlib.util.find_spec(sys.argv[1]) is not None, "version": version}))
"""


def probe(lib, python, exists=os.path.exists, run=subprocess.run):
    """Whether `lib` can run under `python`: {"python": path, "version": version or None}, or
    {"not_installed": reason} when the interpreter or the package is missing. Imports nothing."""
    if not exists(python):
        return {"not_installed": "no interpreter %s (`make bench-env` builds bench/.venv)" % _short(python)}
    dists = BENCH_ENV_PACKAGES.get(lib, (lib,))
    try:
        proc = run([python, "-c", _PROBE, lib] + list(dists), capture_output=True, text=True, timeout=60,
                   env=worker_env(), cwd=ROOT)
        found = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else None
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError):
        found = None
    if not found or not found.get("found"):
        return {"not_installed": "%s has no %s package" % (_short(python), lib)}
    return {"python": python, "version": found.get("version")}


def availability(libs, bench_python=None, driver_python=None, prober=probe):
    """{library: probe result} for each of `libs` under its interpreter."""
    return {lib: prober(lib, interpreter(lib, bench_python, driver_python)) for lib in libs}


def _short(path):
    rel = os.path.relpath(path, ROOT) if os.path.isabs(path) else path
    return path if rel.startswith("..") else rel


# ---- in the driver ---------------------------------------------------------------------------
def worker_env():
    """The environment for worker processes: this checkout first on the path, bytecode caching on,
    TensorFlow's C++ logging quiet, tf.keras = tf-keras (Keras 2)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    env.setdefault("TF_USE_LEGACY_KERAS", "1")
    return env


def run_worker(args, timeout=300, python=None, script=None):
    """Runs `python SCRIPT --worker ARGS` (default: this interpreter, bench/run.py) in a fresh process;
    returns its JSON result, or {"error": text}."""
    cmd = [python or sys.executable, script or os.path.join(BENCH_DIR, "run.py"), "--worker"] + list(args)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=worker_env(), cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %d s" % timeout}
    except OSError as e:
        return {"error": "cannot start %s: %s" % (cmd[0], e)}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"error": " | ".join(tail) or "exit status %d" % proc.returncode}
    return json.loads(lines[-1])


def schedule(impls, passes):
    """The order workers run in: round-robin over the implementations, `passes` times
    (tw, tf, torch, numpy, tw, tf, ...), so drifts in machine load hit every implementation alike."""
    return [impl for _ in range(passes) for impl in impls]


def run_workload(name, impls, passes, available, worker_args=(), runner=None):
    """Runs `impls` of workload `name` in fresh processes in `schedule` order and pools each
    implementation's samples. An implementation whose library `available` reports as not installed
    is not run: its result is {"not_installed": reason}. Returns {impl: result} in `impls` order."""
    runner = runner or run_worker
    results = {}
    for impl in schedule(impls, passes):
        info = available.get(library(impl), {})
        if "not_installed" in info:
            results[impl] = {"not_installed": info["not_installed"]}
            continue
        res = runner([name, "--impl", impl] + list(worker_args), python=info.get("python"))
        results[impl] = merge(results.get(impl), res)
    return results


def merge(first, second):
    """Pools the samples of two workers' results for the same implementation (first notes win)."""
    if first is None:
        return second
    for bad in ("not_installed", "error"):
        if bad in first or bad in second:
            return first if bad in first else second
    notes = dict(second.get("notes", {}), **first.get("notes", {}))
    return {"samples": first["samples"] + second["samples"], "notes": notes}


def summarize(samples):
    """Median, min, max and count of `samples`."""
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "n": len(samples)}


def _ratio(a, b):
    return a / b if a is not None and b else None


def combine_met(values):
    """All targets met: False if any is missed, None if any could not be evaluated, else True."""
    values = list(values)
    if any(v is False for v in values):
        return False
    if any(v is None for v in values):
        return None
    return True


def evaluate(workload, results):
    """One workload's entry of the report from its workers' results ({impl: worker JSON}).

    Implementations are summarized in the workload's display unit (as rates if `workload.work`).
    Ratios are tensorweave over each other implementation measured in this run ("tensorweave/torch"),
    and each variant over NumPy ("numpy default threads/numpy"); anchors are only carried along.
    """
    scale = UNITS[workload.unit]
    impls = {}
    for impl, res in results.items():
        if "error" in res or "not_installed" in res:
            impls[impl] = {k: v for k, v in res.items() if k in ("error", "not_installed")}
            continue
        samples = [workload.work / s for s in res["samples"]] if workload.work else res["samples"]
        entry = {k: (v / scale if k != "n" else v) for k, v in summarize(samples).items()}
        entry["unit"] = workload.unit
        if res.get("notes"):
            entry["notes"] = res["notes"]
        impls[impl] = entry

    def median(impl):
        return impls.get(impl, {}).get("median")

    tw = median("tensorweave")
    ratios = {"tensorweave/%s" % lib: _ratio(tw, median(lib)) for lib in LIBRARIES[1:]}
    for impl in impls:
        if impl not in LIBRARIES:
            ratios["tensorweave/%s" % impl] = _ratio(tw, median(impl))
            ratios["%s/numpy" % impl] = _ratio(median(impl), median("numpy"))
    targets = []
    for t in workload.targets():
        value = tw if t.kind == "abs" else ratios.get("tensorweave/%s" % t.kind)
        limit = t.limit / scale if t.kind == "abs" else t.limit
        met = None if value is None else bool(value >= limit if t.higher else value <= limit)
        targets.append({"text": t.text, "kind": t.kind, "limit": limit, "higher": t.higher, "value": value,
                        "met": met})
    return {"name": workload.name, "title": workload.title, "about": workload.about, "unit": workload.unit,
            "implementations": impls, "anchors": {k: v / scale for k, v in workload.anchors.items()},
            "ratios": ratios, "target": " and ".join(t["text"] for t in targets), "targets": targets,
            "met": combine_met(t["met"] for t in targets)}


def thread_policy():
    """tensorweave's Session thread policy decision in this process (what a Session with the default
    ConfigProto decides: `tensorweave.platform.threads.default_policy(shard).describe()`), or None
    where there is none."""
    try:
        from tensorweave.kernels.shard import shard
        from tensorweave.platform.threads import default_policy
        return default_policy(shard).describe()
    except (ImportError, AttributeError):
        return None


def machine_info():
    """CPU model and count, Python, NumPy, BLAS (threadpoolctl), numba and tensorweave's thread policy."""
    import numpy
    info = {"cpu_count": os.cpu_count(), "cpu": platform.processor() or platform.machine(),
            "python": platform.python_version(), "numpy": numpy.__version__, "platform": platform.platform(),
            "load_average_at_start": _load_average()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(ln.split(":", 1)[1].strip() for ln in f if ln.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        from threadpoolctl import threadpool_info
        info["blas"] = [{k: d.get(k) for k in ("internal_api", "version", "num_threads", "architecture",
                                                "threading_layer")} for d in threadpool_info()]
    except ImportError:
        info["blas"] = "threadpoolctl not installed"
    try:
        import numba
        info["numba"] = numba.__version__
    except ImportError:
        info["numba"] = None
    info["jit_kernels"] = bool(info["numba"]) and os.environ.get("TW_JIT_KERNELS", "1").strip() != "0"
    info["thread_policy"] = thread_policy()
    return info


def _load_average():
    """The 1-minute load average (other processes competing for the CPUs), or None."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def build_report(entries, command, machine, environments=None, quick=False, date=None):
    """The JSON report: date, command, machine (with the load average at the end), the libraries'
    interpreters and versions or why they are not installed (`availability`), and the workloads."""
    machine = dict(machine, load_average_at_end=_load_average())
    return {"date": date or datetime.datetime.now().isoformat(timespec="seconds"), "command": command,
            "quick": quick, "machine": machine, "environments": dict(environments or {}), "workloads": entries}


def write_json(report, path):
    write_text(json.dumps(report, indent=1) + "\n", path)


def write_text(text, path):
    """Writes `text` to `path` atomically (a temporary file, then os.replace)."""
    tmp = "%s.tmp%d" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


# ---- formatting ------------------------------------------------------------------------------
def fmt_value(value, unit):
    if value is None:
        return "-"
    digits = 3 if value < 10 else 1 if value < 1000 else 0
    return "%.*f %s" % (digits, value, unit)


def fmt_ratio(r):
    if r is None:
        return "-"
    return "%.3fx" % r if r < 0.1 else "%.2fx" % r if r < 100 else "%.0fx" % r


def _met(met):
    return {True: "yes", False: "**no**", None: "?"}[met]


def _impl_cell(entry, impl, spread=False):
    e = entry["implementations"].get(impl)
    if e is None:
        return "-"
    if "not_installed" in e:
        return "not installed"
    if "error" in e:
        return "error"
    text = fmt_value(e["median"], e["unit"])
    if spread and e["n"] > 1:
        text += " (%s-%s)" % (fmt_value(e["min"], "").strip(), fmt_value(e["max"], "").strip())
    return text


_CONSOLE = "%-28s %-28s %-13s %-13s %-13s %7s %7s %7s %-32s %s"


def console_header():
    return _CONSOLE % ("workload", "tensorweave med (min-max)", "TensorFlow", "PyTorch", "NumPy", "tw/TF", "tw/PT",
                       "tw/NP", "target", "met")


def console_line(entry):
    """One printed line: tensorweave's median with min-max, the others' medians, ratios, target, met."""
    r = entry["ratios"]
    return _CONSOLE % (entry["name"], _impl_cell(entry, "tensorweave", True), _impl_cell(entry, "tensorflow"),
                       _impl_cell(entry, "torch"), _impl_cell(entry, "numpy"), fmt_ratio(r["tensorweave/tensorflow"]),
                       fmt_ratio(r["tensorweave/torch"]), fmt_ratio(r["tensorweave/numpy"]), entry["target"],
                       _met(entry["met"]).strip("*"))


def environments_text(environments, driver_python=None):
    """One line per library: the interpreter and version it ran under, or why it did not run."""
    out = []
    for lib, info in environments.items():
        if "not_installed" in info:
            out.append("%s: not installed (%s)" % (TITLES.get(lib, lib), info["not_installed"]))
        else:
            version = " %s" % info["version"] if info.get("version") else ""
            out.append("%s%s under %s" % (TITLES.get(lib, lib), version, _short(info["python"])))
    return out


def render_markdown(report):
    """RESULTS.md: the table, the variants (thread settings), machine, environments, anchors, notes."""
    m = report["machine"]
    envs = report.get("environments", {})
    out = ["# Benchmark results", "",
           "Generated by `%s` on %s%s. Each implementation of each workload ran in fresh Python processes, "
           "interleaved round-robin (tensorweave, TensorFlow, PyTorch, NumPy, then again; each process warms up, "
           "then times rounds of calls); times are the median of the rounds, with min-max in brackets. "
           "TensorFlow runs `tensorflow.compat.v1` with `disable_v2_behavior()` (graph mode, tf-keras for "
           "tf.keras), PyTorch runs on the CPU with its default threads. Every ratio compares implementations "
           "measured in this run; these machines are noisy (a second run can differ by up to 2x in absolute "
           "times), so quote the **ratios**."
           % (report["command"], report["date"], " (quick mode: fewer rounds)" if report["quick"] else ""), "",
           "Machine: %s, %s logical CPUs; BLAS: %s; Python %s, NumPy %s, %s; 1-minute load average %s at the "
           "start, %s at the end." % (m["cpu"], m["cpu_count"], _blas_text(m["blas"]), m["python"], m["numpy"],
                                      "numba %s, the `[jit]` kernels %s" % (m["numba"], "on" if m.get("jit_kernels")
                                                                           else "off")
                                      if m.get("numba") else "numba not installed (NumPy kernels only)",
                                      m.get("load_average_at_start"), m.get("load_average_at_end")), "",
           "tensorweave's Session thread policy (`default_policy(shard).describe()` in the driver process): %s." % (
               m.get("thread_policy") or "not available in this checkout"), ""]
    out += ["- %s" % line for line in environments_text(envs)]
    out += ["", "| workload | tensorweave | TensorFlow | PyTorch | NumPy by hand | tw/TF | tw/PyTorch | tw/NumPy "
            "| target | met |", "|---|---|---|---|---|---|---|---|---|---|"]
    variants, anchored = [], []
    for e in report["workloads"]:
        r = e["ratios"]
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            e["title"], _impl_cell(e, "tensorweave", True), _impl_cell(e, "tensorflow", True),
            _impl_cell(e, "torch", True), _impl_cell(e, "numpy", True), fmt_ratio(r["tensorweave/tensorflow"]),
            fmt_ratio(r["tensorweave/torch"]), fmt_ratio(r["tensorweave/numpy"]),
            e["target"] + _target_values(e), _met(e["met"])))
        variants += [(e, impl) for impl in e["implementations"] if impl not in LIBRARIES]
        if e.get("anchors"):
            anchored.append(e)
    if variants:
        out += ["", "## Thread settings and other variants", "",
                "| workload | implementation | median (min-max) | tensorweave / it | it / `numpy` |",
                "|---|---|---|---|---|"]
        for e, impl in variants:
            out.append("| %s | %s | %s | %s | %s |" % (
                e["name"], impl, _impl_cell(e, impl, True), fmt_ratio(e["ratios"]["tensorweave/%s" % impl]),
                fmt_ratio(e["ratios"]["%s/numpy" % impl])))
    if anchored:
        out += ["", "## Stored anchors (informational)", "",
                "Figures measured on other machines (ANCHORS.md, issue notes); not used for any ratio or target.",
                "", "| workload | TensorFlow anchor | NumPy anchor |", "|---|---|---|"]
        for e in anchored:
            a = e["anchors"]
            out.append("| %s | %s | %s |" % (e["name"], fmt_value(a.get("tensorflow"), e["unit"]),
                                              fmt_value(a.get("numpy"), e["unit"])))
    notes = [(e, impl, k, v) for e in report["workloads"] for impl, d in e["implementations"].items()
             for k, v in d.get("notes", {}).items()]
    errors = [(e, impl, d["error"]) for e in report["workloads"] for impl, d in e["implementations"].items()
              if "error" in d]
    about = ["- `%s`: %s" % (e["name"], e["about"]) for e in report["workloads"] if e.get("about")]
    if about:
        out += ["", "## Workloads", ""] + about
    if notes or errors:
        out += ["", "## Notes", ""]
        out += ["- %s, %s: %s = %s" % (e["name"], impl, k, v) for e, impl, k, v in notes]
        out += ["- %s, %s: error: %s" % (e["name"], impl, msg) for e, impl, msg in errors]
    return "\n".join(out) + "\n"


def _target_values(entry):
    """The measured value behind each target, e.g. " (1.31x; 0.92x)", or "" when none was measured."""
    values = [t["value"] for t in entry["targets"]]
    if all(v is None for v in values):
        return ""
    return " (%s)" % "; ".join("-" if t["value"] is None else fmt_value(t["value"], entry["unit"])
                               if t["kind"] == "abs" else fmt_ratio(t["value"]) for t in entry["targets"])


def _blas_text(blas):
    if isinstance(blas, str):
        return blas
    return ", ".join("%s %s (%s, %s threads by default)" % (b["internal_api"], b["version"], b["architecture"],
                                                           b["num_threads"]) for b in blas) or "no BLAS found"
