"""Eager dispatch (issue 24): tensorweave eager against TensorFlow 2.21 eager (plain `import tensorflow
as tf`, v2 behaviour on) and PyTorch, on 10-element float32 tensors; microseconds per call, the best
round of several thousand calls. Each implementation runs in fresh processes, interleaved round-robin
(two passes): tensorweave under this interpreter, TensorFlow and PyTorch under the benchmark
environment's (bench/.venv, `make bench-env`; reported as not installed where it is missing). Prints
ratios to PyTorch from this run and the issue's targets; quote ratios from one run only.

    python bench/eager_dispatch_bench.py [--quick] [--bench-python PY] [--json PATH] [--markdown PATH]
    python bench/eager_dispatch_bench.py --worker IMPL [--quick]   # one process (used by the driver)

`--markdown PATH` replaces (or appends) the "## Eager dispatch" section of PATH, e.g. bench/RESULTS.md
after `bench/run.py` wrote it.
"""

import argparse
import datetime
import os
import sys
from dataclasses import dataclass

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _harness as H  # noqa: E402

IMPLS = ("tensorweave", "tensorflow", "torch")
SECTION = "## Eager dispatch (issue 24)"


@dataclass(frozen=True)
class Row:
    """One row: `target_us` is the issue's target for tensorweave and `issue_torch_us` PyTorch's figure
    on the issue's machine; their quotient is the target as a ratio to PyTorch, which is what is checked
    when PyTorch ran (otherwise the absolute target)."""

    name: str
    title: str
    target_us: float = None
    issue_torch_us: float = None

    def target_ratio(self):
        return None if self.target_us is None or self.issue_torch_us is None else self.target_us / self.issue_torch_us


ROWS = (
    Row("add", "`a + b`", 2.5, 1.26),
    Row("matmul_1x1", "`tf.matmul` of two new 1x1 constants", 8.0, 7.5),
    Row("reduce_sum", "`tf.reduce_sum(x)`", 3.0, 1.40),
    Row("tape", "tape: `reduce_sum(w * x)` and its gradient w.r.t. a variable", 30.0, 27.7),
    Row("function_call", "`tf.function(lambda a, b: a + b)` call, traced already", 5.0),
    Row("mlp_step", "eager MLP training step 64-128-10, batch 32 (tape + SGD)"),
    Row("collatz_eager", "Collatz(27), eager"),
    Row("collatz_function", "Collatz(27), `tf.function`"),
)


# ---- inside a worker -------------------------------------------------------------------------
def _inputs():
    x = np.linspace(-1, 1, 10).astype(np.float32)
    return x, x[::-1].copy()


def _mlp_data():
    rng = np.random.RandomState(0)
    xv = rng.rand(32, 64).astype(np.float32)
    yv = rng.randint(0, 10, 32).astype(np.int32)
    params = [(rng.randn(64, 128) * np.sqrt(2 / 64)).astype(np.float32), np.zeros(128, np.float32),
              (rng.randn(128, 10) * np.sqrt(2 / 128)).astype(np.float32), np.zeros(10, np.float32)]
    return xv, yv, params


def _mlp_numpy_step():
    """The parameters after one SGD(0.01) step of the MLP (relu, mean sparse softmax cross entropy)."""
    xv, yv, (w1, b1, w2, b2) = _mlp_data()
    z = xv @ w1 + b1
    h = np.maximum(z, 0)
    logits = h @ w2 + b2
    e = np.exp(logits - logits.max(1, keepdims=True))
    g = e / e.sum(1, keepdims=True)
    g[np.arange(len(yv)), yv] -= 1
    g /= len(yv)
    gh = (g @ w2.T) * (z > 0)
    grads = [xv.T @ gh, gh.sum(0), h.T @ g, g.sum(0)]
    return [p - np.float32(0.01) * gp for p, gp in zip((w1, b1, w2, b2), grads)]


def _collatz_steps(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


def _check(ok, what):
    if not ok:
        raise AssertionError("%s differs from the NumPy reference" % what)


def tf_like_rows(tf):
    """{row: fn} for tensorweave eager or TensorFlow 2 eager (the same source runs on both)."""
    xa, xb = _inputs()
    a, b = tf.constant(xa), tf.constant(xb)
    w = tf.Variable(xb)

    def tape():
        with tf.GradientTape() as t:
            y = tf.reduce_sum(w * a)
        return t.gradient(y, w)

    add_fn = tf.function(lambda u, v: u + v)

    def collatz(n):
        # tf.not_equal / tf.equal: eagerly, `!=` on tensors is object identity in TF1.
        counter = 0
        while tf.not_equal(n, 1):
            if tf.equal(n % 2, 0):
                n = n // 2
            else:
                n = 3 * n + 1
            counter = counter + 1
        return counter

    collatz_fn = tf.function(collatz)
    n27 = tf.constant(27)
    xv, yv, init = _mlp_data()
    x, y = tf.constant(xv), tf.constant(yv)
    params = [tf.Variable(p) for p in init]

    def mlp_step():
        with tf.GradientTape() as t:
            h = tf.nn.relu(tf.matmul(x, params[0]) + params[1])
            logits = tf.matmul(h, params[2]) + params[3]
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
        for p, g in zip(params, t.gradient(loss, params)):
            p.assign_sub(0.01 * g)
        return loss

    _check(np.allclose((a + b).numpy(), xa + xb), "a + b")
    _check(np.allclose(tape().numpy(), xa), "the tape's gradient")
    _check(np.allclose(add_fn(a, b).numpy(), xa + xb), "the tf.function call")
    _check(np.allclose(tf.reduce_sum(a).numpy(), xa.sum(), atol=1e-6), "reduce_sum")
    _check(int(collatz(n27)) == int(collatz_fn(n27)) == _collatz_steps(27), "Collatz(27)")
    mlp_step()
    _check(all(np.allclose(p.numpy(), q, atol=1e-5) for p, q in zip(params, _mlp_numpy_step())), "the MLP step")
    return {"add": lambda: a + b,
            "matmul_1x1": lambda: tf.matmul(tf.constant([[1.0]]), tf.constant([[1.0]])),
            "reduce_sum": lambda: tf.reduce_sum(a),
            "tape": tape,
            "function_call": lambda: add_fn(a, b),
            "mlp_step": mlp_step,
            "collatz_eager": lambda: collatz(n27),
            "collatz_function": lambda: collatz_fn(n27)}


def torch_rows():
    """{row: fn} for PyTorch (no tf.function counterpart)."""
    import torch
    H.note("torch threads", torch.get_num_threads())
    xa, xb = _inputs()
    a, b = torch.from_numpy(xa), torch.from_numpy(xb)
    w = torch.tensor(xb, requires_grad=True)

    def tape():
        return torch.autograd.grad(torch.sum(w * a), w)[0]

    def collatz(n):
        counter = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            else:
                n = 3 * n + 1
            counter = counter + 1
        return counter

    n27 = torch.tensor(27, dtype=torch.int32)
    xv, yv, init = _mlp_data()
    x, y = torch.from_numpy(xv), torch.from_numpy(yv.astype(np.int64))
    params = [torch.tensor(p, requires_grad=True) for p in init]

    def mlp_step():
        h = torch.relu(x @ params[0] + params[1])
        loss = torch.nn.functional.cross_entropy(h @ params[2] + params[3], y)
        grads = torch.autograd.grad(loss, params)
        with torch.no_grad():
            for p, g in zip(params, grads):
                p.sub_(0.01 * g)
        return loss

    _check(np.allclose((a + b).numpy(), xa + xb), "a + b")
    _check(np.allclose(tape().numpy(), xa), "the gradient")
    _check(collatz(n27) == _collatz_steps(27), "Collatz(27)")
    mlp_step()
    _check(all(np.allclose(p.detach().numpy(), q, atol=1e-5) for p, q in zip(params, _mlp_numpy_step())),
           "the MLP step")
    return {"add": lambda: a + b,
            "matmul_1x1": lambda: torch.mm(torch.tensor([[1.0]]), torch.tensor([[1.0]])),
            "reduce_sum": lambda: torch.sum(a),
            "tape": tape,
            "mlp_step": mlp_step,
            "collatz_eager": lambda: collatz(n27)}


def build(impl):
    """The row functions of `impl` (imports its library in eager mode)."""
    if impl == "torch":
        return torch_rows()
    if impl == "tensorflow":
        import tensorflow as tf  # TF 2: eager by default
        return tf_like_rows(tf)
    if impl == "tensorweave":
        import tensorweave as tf
        tf.enable_eager_execution()
        return tf_like_rows(tf)
    raise ValueError("unknown implementation %r; choose from %s" % (impl, ", ".join(IMPLS)))


def worker(impl, quick):
    """Times every row `impl` has in this (fresh) process; prints one JSON line {samples: {row: [s]}}."""
    fns = build(impl)
    samples = {}
    for row in ROWS:
        if row.name in fns:
            samples[row.name] = H.measure(fns[row.name], "timed", repeat=3 if quick else 7,
                                          round_s=0.01 if quick else 0.03)
    print(H.worker_output(samples))


# ---- in the driver ---------------------------------------------------------------------------
def best_of(results):
    """{impl: {row: best seconds}} from each implementation's pooled worker results, or the error /
    not-installed reason ({impl: {"error": ..}})."""
    out = {}
    for impl, res in results.items():
        if "samples" not in res:
            out[impl] = dict(res)
            continue
        out[impl] = {row: min(s) for row, s in res["samples"].items()}
    return out


def merge(first, second):
    """Pools two workers' results for the same implementation: per row, all the rounds."""
    if first is None:
        return second
    for bad in ("not_installed", "error"):
        if bad in first or bad in second:
            return first if bad in first else second
    rows = {r: first["samples"].get(r, []) + second["samples"].get(r, [])
            for r in list(first["samples"]) + [r for r in second["samples"] if r not in first["samples"]]}
    return {"samples": rows, "notes": dict(second.get("notes", {}), **first.get("notes", {}))}


def evaluate(best):
    """The report's rows: microseconds per implementation, tensorweave / PyTorch, the target and
    whether it is met (on the ratio when PyTorch ran, else on the absolute figure)."""
    def us(impl, row):
        v = best.get(impl, {}).get(row.name)
        return None if v is None else v * 1e6

    rows = []
    for row in ROWS:
        tw, torch = us("tensorweave", row), us("torch", row)
        ratio = H._ratio(tw, torch)
        target, met = None, None
        if row.target_ratio() is not None and ratio is not None:
            target = "<= %g us (<= %.2fx PyTorch)" % (row.target_us, row.target_ratio())
            met = ratio <= row.target_ratio()
        elif row.target_us is not None:
            target = "<= %g us" % row.target_us
            met = None if tw is None else tw <= row.target_us
        rows.append({"name": row.name, "title": row.title, "tensorweave": tw, "tensorflow": us("tensorflow", row),
                     "torch": torch, "tensorweave/torch": ratio,
                     "tensorweave/tensorflow": H._ratio(tw, us("tensorflow", row)), "target": target, "met": met})
    collatz = {impl: H._ratio(us(impl, ROWS[-2]), us(impl, ROWS[-1])) for impl in ("tensorweave", "tensorflow")}
    return rows, collatz


def _cell(best, impl, value):
    info = best.get(impl, {})
    if "not_installed" in info:
        return "not installed"
    if "error" in info:
        return "error"
    return "-" if value is None else "%.2f" % value if value < 100 else "%.0f" % value


def render(rows, collatz, best, environments, command, date):
    """The Markdown section: the table, the Collatz speed-ups and the environments."""
    out = [SECTION, "",
           "Generated by `%s` on %s: microseconds per call, the best round of several thousand calls, each "
           "implementation in fresh processes interleaved round-robin; 10-element float32 tensors. TensorFlow: "
           "TF 2 eager (v2 behaviour on). Targets are issue 24's, checked as ratios to PyTorch from this run "
           "(the issue's target over the issue's PyTorch figure) where PyTorch has the row." % (command, date), ""]
    out += ["- %s" % line for line in H.environments_text(environments)]
    out += ["", "| workload | TF 2.21 eager | tensorweave eager | PyTorch | tw/PyTorch | tw/TF | target | met |",
            "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["title"], _cell(best, "tensorflow", r["tensorflow"]), _cell(best, "tensorweave", r["tensorweave"]),
            _cell(best, "torch", r["torch"]), H.fmt_ratio(r["tensorweave/torch"]),
            H.fmt_ratio(r["tensorweave/tensorflow"]), r["target"] or "-",
            "-" if r["target"] is None else {True: "yes", False: "**no**", None: "?"}[r["met"]]))
    out += ["", "Collatz(27), eager / `tf.function`: tensorweave %s, TensorFlow %s." % (
        H.fmt_ratio(collatz["tensorweave"]), H.fmt_ratio(collatz["tensorflow"]))]
    errors = ["- %s: error: %s" % (impl, info["error"]) for impl, info in best.items() if "error" in info]
    if errors:
        out += [""] + errors
    return "\n".join(out) + "\n"


def splice_section(text, section):
    """`text` with its SECTION (up to the next "## " heading) replaced by `section`, or with `section`
    appended."""
    start = text.find(SECTION)
    if start < 0:
        return text.rstrip("\n") + "\n\n" + section if text.strip() else section
    end = text.find("\n## ", start + len(SECTION))
    rest = "" if end < 0 else text[end + 1:]
    return text[:start] + section + ("\n" + rest if rest else "")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="one pass of fewer, shorter rounds")
    ap.add_argument("--bench-python", help="interpreter for TensorFlow and PyTorch (default: $TW_BENCH_PYTHON "
                    "or bench/.venv/bin/python)")
    ap.add_argument("--json", help="write the rows as JSON here")
    ap.add_argument("--markdown", help="replace or append the eager section of this Markdown file")
    ap.add_argument("--worker", metavar="IMPL", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        return worker(args.worker, args.quick)
    available = H.availability(IMPLS, bench_python=args.bench_python)
    for line in H.environments_text(available):
        print(line)
    results = {}
    for impl in H.schedule(IMPLS, 1 if args.quick else 2):
        info = available[impl]
        if "not_installed" in info:
            results[impl] = {"not_installed": info["not_installed"]}
            continue
        res = H.run_worker([impl] + (["--quick"] if args.quick else []), python=info["python"],
                           script=os.path.abspath(__file__))
        results[impl] = merge(results.get(impl), res)
    best = best_of(results)
    rows, collatz = evaluate(best)
    print("%-62s %12s %12s %12s %8s %8s  %s" % ("eager workload (us per call, best)", "TF 2.21", "tensorweave",
                                                "PyTorch", "tw/PT", "tw/TF", "target"))
    for r in rows:
        print("%-62s %12s %12s %12s %8s %8s  %s%s" % (
            r["title"][:62], _cell(best, "tensorflow", r["tensorflow"]), _cell(best, "tensorweave", r["tensorweave"]),
            _cell(best, "torch", r["torch"]), H.fmt_ratio(r["tensorweave/torch"]),
            H.fmt_ratio(r["tensorweave/tensorflow"]), r["target"] or "",
            "" if r["target"] is None else {True: "  met", False: "  NOT met", None: "  ?"}[r["met"]]))
    print("Collatz(27) eager / tf.function: tensorweave %s, TensorFlow %s"
          % (H.fmt_ratio(collatz["tensorweave"]), H.fmt_ratio(collatz["tensorflow"])))
    for impl, info in best.items():
        if "error" in info:
            print("    %s: error: %s" % (impl, info["error"]))
    command = "python bench/eager_dispatch_bench.py" + "".join(
        " " + a for a in (argv if argv is not None else sys.argv[1:]))
    date = datetime.datetime.now().isoformat(timespec="seconds")
    if args.json:
        H.write_json({"date": date, "command": command, "environments": available, "rows": rows,
                      "collatz_eager_over_function": collatz}, args.json)
    if args.markdown:
        old = open(args.markdown).read() if os.path.exists(args.markdown) else ""
        H.write_text(splice_section(old, render(rows, collatz, best, available, command, date)), args.markdown)
    return rows


if __name__ == "__main__":
    main()
