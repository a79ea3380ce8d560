"""The machinery behind `bench/run.py`: timing inside a worker process, fresh worker processes,
statistics, targets, and the JSON / Markdown reports. Knows nothing about the workloads.

Each implementation of a workload ("tensorweave", "numpy", "tensorflow", plus variants such as
"tensorweave intra_op=2") runs in fresh processes (`run.py --worker NAME --impl IMPL`), each
printing one JSON line: samples in base units (seconds, or bytes for sizes) and notes.
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

# Display units: name -> base units per display unit.
UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "B": 1, "MB": 1e6}

_notes = {}


def note(key, value):
    """Records a fact about the current worker's run (reported with its samples)."""
    _notes[key] = value


@dataclass(frozen=True)
class Target:
    """The issue's target for a workload.

    kind "abs": tensorweave's median <= `limit` (base units); "numpy": tensorweave / NumPy <= `limit`;
    "tensorflow": tensorweave / TensorFlow <= `limit`.
    """

    kind: str
    limit: float
    text: str


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
      target: a Target.
      anchors: ANCHORS.md's figures in base units, {"tensorflow": .., "numpy": ..}.
      per: divides each per-call time (e.g. loop iterations per call).
      mode: "timed" (the harness times calls), "self" (the function returns its own measurement) or
        "once" (one call, returning the measurement; no warm-up).
      module: False if `graph` takes the module's name instead of the imported module.
      variants: extra implementations, e.g. ("tensorweave intra_op=1", "numpy default threads").
      about: how the workload is defined, for RESULTS.md.
    """

    name: str
    title: str
    graph: object
    numpy: object
    unit: str
    target: Target
    anchors: dict = field(default_factory=dict)
    per: int = 1
    mode: str = "timed"
    module: bool = True
    variants: tuple = ()
    about: str = ""

    def implementations(self, with_tf):
        impls = []
        if self.graph is not None:
            impls.append("tensorweave")
        if self.numpy is not None:
            impls.append("numpy")
        impls.extend(self.variants)
        if with_tf and self.graph is not None:
            impls.append("tensorflow")
        return impls


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


# ---- in the driver ---------------------------------------------------------------------------
def worker_env():
    """The environment for worker processes: this checkout first on the path, bytecode caching on."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def run_worker(args, timeout=300):
    """Runs `python bench/run.py --worker ...` with `args`; returns its JSON result, or {"error": text}."""
    cmd = [sys.executable, os.path.join(BENCH_DIR, "run.py"), "--worker"] + list(args)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=worker_env(), cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after %d s" % timeout}
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        return {"error": " | ".join(tail) or "exit status %d" % proc.returncode}
    return json.loads(lines[-1])


def merge(first, second):
    """Pools the samples of two workers' results for the same implementation (first notes win)."""
    if first is None:
        return second
    if "error" in first or "error" in second:
        return first if "error" in first else second
    notes = dict(second.get("notes", {}), **first.get("notes", {}))
    return {"samples": first["samples"] + second["samples"], "notes": notes}


def summarize(samples):
    """Median, min, max and count of `samples`."""
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples), "n": len(samples)}


def _ratio(a, b):
    return a / b if a is not None and b else None


def evaluate(workload, results):
    """One workload's entry of the report from its workers' results ({impl: worker JSON}).

    Implementations are summarized in the workload's display unit; the tensorweave/TensorFlow ratio
    is measured when TensorFlow ran, otherwise estimated through the anchors as
    (tensorweave / NumPy measured) x (NumPy anchor / TensorFlow anchor).
    """
    scale = UNITS[workload.unit]
    impls = {}
    for impl, res in results.items():
        if "error" in res:
            impls[impl] = {"error": res["error"]}
            continue
        entry = {k: (v / scale if k != "n" else v) for k, v in summarize(res["samples"]).items()}
        entry["unit"] = workload.unit
        if res.get("notes"):
            entry["notes"] = res["notes"]
        impls[impl] = entry

    def median(impl):
        return impls.get(impl, {}).get("median")

    tw, np_, tf = median("tensorweave"), median("numpy"), median("tensorflow")
    anchors = {k: v / scale for k, v in workload.anchors.items()}
    ratios = {"tensorweave/numpy": _ratio(tw, np_), "tensorweave/tensorflow": _ratio(tw, tf),
              "tensorflow_ratio_source": "measured" if tf is not None else None}
    if tf is None and tw is not None and "tensorflow" in anchors:
        if np_ is not None and "numpy" in anchors:
            ratios["tensorweave/tensorflow"] = tw / np_ * anchors["numpy"] / anchors["tensorflow"]
            ratios["tensorflow_ratio_source"] = "anchors, through NumPy"
        else:
            ratios["tensorweave/tensorflow"] = tw / anchors["tensorflow"]
            ratios["tensorflow_ratio_source"] = "anchor, absolute"
    for impl in impls:
        if impl not in ("tensorweave", "numpy", "tensorflow"):
            ratios["%s/numpy" % impl] = _ratio(median(impl), np_)

    t = workload.target
    value = {"abs": None if tw is None else tw * scale, "numpy": ratios["tensorweave/numpy"],
             "tensorflow": ratios["tensorweave/tensorflow"]}[t.kind]
    return {"name": workload.name, "title": workload.title, "about": workload.about, "unit": workload.unit,
            "implementations": impls,
            "anchors": anchors, "ratios": ratios,
            "target": {"text": t.text, "kind": t.kind, "limit": t.limit if t.kind != "abs" else t.limit / scale},
            "met": None if value is None else bool(value <= t.limit)}


def machine_info():
    """CPU, Python, NumPy, BLAS (threadpoolctl) and tensorweave versions of this machine."""
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
    return info


def _load_average():
    """The 1-minute load average (other processes competing for the CPUs), or None."""
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def build_report(entries, command, machine, tensorflow=None, quick=False, date=None):
    """The JSON report: date, command, machine (with the load average at the end), TensorFlow version
    (or None) and the workloads."""
    machine = dict(machine, load_average_at_end=_load_average())
    return {"date": date or datetime.datetime.now().isoformat(timespec="seconds"), "command": command,
            "quick": quick, "machine": machine, "tensorflow": tensorflow, "workloads": entries}


def write_json(report, path):
    with open(path, "w") as f:
        json.dump(report, f, indent=1)
        f.write("\n")


# ---- formatting ------------------------------------------------------------------------------
def fmt_value(value, unit):
    if value is None:
        return "-"
    digits = 3 if value < 10 else 1 if value < 1000 else 0
    return "%.*f %s" % (digits, value, unit)


def fmt_ratio(r):
    return "-" if r is None else "%.2fx" % r if r < 100 else "%.0fx" % r


def _met(entry):
    return {True: "yes", False: "**no**", None: "?"}[entry["met"]]


def _impl_cell(entry, impl, spread=False):
    e = entry["implementations"].get(impl)
    if e is None:
        return "-"
    if "error" in e:
        return "error"
    text = fmt_value(e["median"], e["unit"])
    if spread and e["n"] > 1:
        text += " (%s-%s)" % (fmt_value(e["min"], "").strip(), fmt_value(e["max"], "").strip())
    return text


def _tf_cells(entry):
    r = entry["ratios"]
    if "tensorflow" in entry["implementations"]:
        return _impl_cell(entry, "tensorflow"), fmt_ratio(r["tensorweave/tensorflow"])
    anchor = entry["anchors"].get("tensorflow")
    tf = "-" if anchor is None else "(anchor %s)" % fmt_value(anchor, entry["unit"])
    ratio = r["tensorweave/tensorflow"]
    return tf, "-" if ratio is None else "~%s" % fmt_ratio(ratio)


def console_line(entry):
    """One printed line: medians with min-max, the ratios, the target and whether it is met."""
    tf, tf_ratio = _tf_cells(entry)
    return "%-34s %-26s %-26s %8s %14s %8s %-16s %s" % (
        entry["name"], _impl_cell(entry, "tensorweave", True), _impl_cell(entry, "numpy", True),
        fmt_ratio(entry["ratios"]["tensorweave/numpy"]), tf, tf_ratio, entry["target"]["text"],
        _met(entry).strip("*"))


def console_header():
    return "%-34s %-26s %-26s %8s %14s %8s %-16s %s" % (
        "workload", "tensorweave med (min-max)", "numpy med (min-max)", "tw/np", "TF", "tw/TF", "target", "met")


def render_markdown(report):
    """RESULTS.md: the table, the variants (BLAS threads), machine, command, notes."""
    m = report["machine"]
    tf = report["tensorflow"]
    out = ["# Benchmark results", "",
           "Generated by `%s` on %s%s. Each implementation of each workload ran in fresh Python processes "
           "(by default two, alternating with the other implementations; each warms up, then times rounds of "
           "calls); times are the median of the rounds, with min-max in brackets. "
           "These machines are noisy (a second run can differ by up to 2x): quote the **ratios**, which "
           "compare implementations measured in the same run, not the absolute times."
           % (report["command"], report["date"], " (quick mode: fewer rounds)" if report["quick"] else ""), "",
           "Machine: %s CPUs (%s), Python %s, NumPy %s, %s, %s; 1-minute load average %s at the start, %s at "
           "the end." % (m["cpu_count"], m["cpu"], m["python"], m["numpy"], _blas_text(m["blas"]),
                         "numba %s, the `[jit]` kernels %s" % (m["numba"], "on" if m.get("jit_kernels") else "off")
                         if m.get("numba") else "numba not installed (NumPy kernels only)",
                         m.get("load_average_at_start"), m.get("load_average_at_end")),
           "TensorFlow: %s." % ("%s, measured in the same run" % tf if tf else
                                "not installed; the TF column shows ANCHORS.md's figures (same kind of machine) "
                                "and tw/TF is estimated as (tw/NumPy measured) x (NumPy anchor / TF anchor), "
                                "or against the TF anchor directly where there is no NumPy figure"),
           "", "| workload | tensorweave | NumPy by hand | tw/NumPy | TensorFlow | tw/TF | target | met |",
           "|---|---|---|---|---|---|---|---|"]
    variants = []
    for e in report["workloads"]:
        tfc, tfr = _tf_cells(e)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            e["title"], _impl_cell(e, "tensorweave", True), _impl_cell(e, "numpy", True),
            fmt_ratio(e["ratios"]["tensorweave/numpy"]), tfc, tfr, e["target"]["text"], _met(e)))
        variants += [(e, impl) for impl in e["implementations"] if impl not in ("tensorweave", "numpy", "tensorflow")]
    if variants:
        out += ["", "## Thread settings and other variants", "",
                "| workload | implementation | median (min-max) | ratio to `numpy` |", "|---|---|---|---|"]
        for e, impl in variants:
            ratio = fmt_ratio(e["ratios"]["%s/numpy" % impl])
            out.append("| %s | %s | %s | %s |" % (e["name"], impl, _impl_cell(e, impl, True), ratio))
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


def _blas_text(blas):
    if isinstance(blas, str):
        return blas
    return ", ".join("%s %s (%s, %s threads by default)" % (b["internal_api"], b["version"], b["architecture"],
                                                           b["num_threads"]) for b in blas) or "no BLAS found"
