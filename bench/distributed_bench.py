"""The distributed row of `make bench`: the MLP SGD step (784-512-512-10, batch 128 per rank:
weak scaling) with 1, 2 and 4 ranks on this machine, started through the launcher, and the
all-reduce time per step with and without overlap.

    python bench/distributed_bench.py [--ranks 1,2,4] [--steps 20] [--json out.json]

`distributed_rows(ranks, steps)` returns the rows (dicts) for a bench runner; `main` prints them as
a Markdown table. Each job's rank 0 prints one `RESULT {json}` line (the worker: `--worker`).
Columns: step = median wall time of one `Session.run(train)`; exposed all-reduce = time the step
thread waited for collectives (with overlap: for bucket results not yet there); total all-reduce =
time inside collectives on any thread (with overlap, partly hidden behind the backward pass).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZES = [784, 512, 512, 10]
BATCH = 128


def worker(steps, overlap):
    """One rank of a bench job: trains the MLP and (rank 0) prints its timings."""
    import tensorweave as tf
    import tensorweave.distribute as hvd
    from tensorweave.ops import collective_ops

    hvd.init()
    rng = np.random.RandomState(hvd.rank())
    xv = rng.rand(BATCH, SIZES[0]).astype(np.float32)
    yv = rng.randint(0, SIZES[-1], BATCH).astype(np.int32)
    x = tf.placeholder(tf.float32, [BATCH, SIZES[0]])
    y = tf.placeholder(tf.int32, [BATCH])
    h = x
    for i, (a, b) in enumerate(zip(SIZES[:-1], SIZES[1:])):
        w = tf.Variable(rng.randn(a, b).astype(np.float32) * np.float32(np.sqrt(2.0 / a)), name="w%d" % i)
        h = tf.matmul(h, w) + tf.Variable(np.zeros(b, np.float32), name="b%d" % i)
        if i < len(SIZES) - 2:
            h = tf.nn.relu(h)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=h))
    opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.01 * hvd.size()), overlap=overlap)
    train = opt.minimize(loss)
    backend = collective_ops.get_backend()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(hvd.broadcast_global_variables(0))
        feed = {x: xv, y: yv}
        for _ in range(3):
            sess.run(train, feed)
        times, exposed, total = [], [], []
        for _ in range(steps):
            w0 = getattr(backend, "wait_seconds", 0.0)
            b0 = collective_ops.stats["bucket_wait_seconds"]
            t0 = time.perf_counter()
            sess.run(train, feed)
            times.append(time.perf_counter() - t0)
            waited = getattr(backend, "wait_seconds", 0.0) - w0
            bucket = collective_ops.stats["bucket_wait_seconds"] - b0
            total.append(waited)
            exposed.append(bucket if overlap else waited)
    if hvd.rank() == 0:
        params = sum(a * b + b for a, b in zip(SIZES[:-1], SIZES[1:]))
        result = {"ranks": hvd.size(), "overlap": overlap, "step_ms": 1e3 * statistics.median(times),
                  "exposed_allreduce_ms": 1e3 * statistics.median(exposed),
                  "total_allreduce_ms": 1e3 * statistics.median(total), "gradient_mb": params * 4 / 1e6}
        print("RESULT " + json.dumps(result), flush=True)


def distributed_rows(ranks=(1, 2, 4), steps=20, timeout=300):
    """Runs the bench jobs; returns one dict per (ranks, overlap) with the worker's timings and
    `efficiency` (the 1-rank step time / this step time: weak scaling). One rank runs without overlap only."""
    rows = []
    for n in ranks:
        for overlap in ((False,) if n == 1 else (False, True)):  # one rank has nothing to overlap
            cmd = [sys.executable, "-m", "tensorweave.distribute.run", "-np", str(n), "--no-prefix",
                   "--timeout", str(timeout), os.path.abspath(__file__), "--worker", "--steps", str(steps)]
            if overlap:
                cmd.append("--overlap")
            env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
            out = subprocess.run(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 timeout=timeout + 30).stdout.decode("utf-8", "replace")
            lines = [ln for ln in out.splitlines() if ln.startswith("RESULT ")]
            if not lines:
                raise RuntimeError("bench job with %d ranks failed:\n%s" % (n, out))
            rows.append(json.loads(lines[-1][len("RESULT "):]))
    base = [r["step_ms"] for r in rows if r["ranks"] == 1]
    for r in rows:
        r["efficiency"] = base[0] / r["step_ms"] if base else float("nan")
    return rows


def table(rows):
    """The rows as a Markdown table."""
    out = ["| ranks | overlap | step (ms) | exposed all-reduce (ms/step) | total all-reduce (ms/step) | "
           "weak-scaling efficiency |", "|---|---|---|---|---|---|"]
    for r in rows:
        out.append("| %d | %s | %.1f | %.2f | %.2f | %.0f%% |" % (
            r["ranks"], "on" if r["overlap"] else "off", r["step_ms"], r["exposed_allreduce_ms"],
            r["total_allreduce_ms"], 100 * r["efficiency"]))
    return "\n".join(out)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--overlap", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--ranks", default="1,2,4")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--json", default=None, help="also write the rows to this JSON file")
    a = p.parse_args(argv)
    if a.worker:
        worker(a.steps, a.overlap)
        return 0
    rows = distributed_rows([int(n) for n in a.ranks.split(",")], a.steps)
    print("distributed: MLP %s SGD step, batch %d per rank, %d cores on this machine" % (
        "-".join(map(str, SIZES)), BATCH, os.cpu_count()))
    print(table(rows))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
