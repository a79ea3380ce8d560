"""The training job the multi-process tests launch (not a test module itself).

    python -m tensorweave.distribute.run -np N tests/distribute/mlp_job.py OUTDIR [options]

It trains a small MLP with an embedding (so one gradient is IndexedSlices) with Horovod's recipe:
rank-dependent initial values made equal by `BroadcastGlobalVariablesHook(0)`, the learning rate
scaled by `hvd.size()`, `Dataset.shard(size, rank)` over a global batch of 8 rows,
`MonitoredTrainingSession` with `checkpoint_dir` (and so checkpoints and summaries) only on rank 0.
A restarted job resumes from rank 0's last checkpoint. Every rank saves its variables to
OUTDIR/<tag>_rank<r>.npz.

Options: --steps N (20), --base-lr F (0.05), --micro K (one process summing K micro-batch
gradients in order, the deterministic reference), --kill-at STEP (rank 1 kills itself there),
--mismatch (rank 1 builds one more all-reduce), --eager (also train a model eagerly with
DistributedGradientTape), --overlap and --bucket-kb KB (bucketed all-reduce overlapping the backward
pass), --bpps K (backward_passes_per_step), --tag NAME.
"""

import argparse
import os
import re
import sys

import numpy as np

import tensorweave as tf
import tensorweave.distribute as hvd
from tensorweave.eager import context

GLOBAL_BATCH = 8


def data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (64, 6)).astype(np.float32)
    ids = rng.randint(0, 10, 64).astype(np.int32)
    y = (np.sin(x.sum(1, keepdims=True)) + 0.1 * ids[:, None]).astype(np.float32)
    return x, ids, y


def model(x, ids, y, reuse=None):
    with tf.variable_scope("mlp", reuse=reuse):
        emb = tf.get_variable("emb", [10, 3])
        h = tf.concat([x, tf.gather(emb, ids)], 1)
        h = tf.layers.dense(h, 16, activation=tf.nn.relu, name="h")
        out = tf.layers.dense(h, 1, name="out")
        return tf.reduce_mean(tf.square(out - y))


def dataset(n_shards, index, per_batch, start):
    x, ids, y = data()
    ds = tf.data.Dataset.from_tensor_slices((x, ids, y)).shard(n_shards, index).batch(per_batch).repeat()
    return ds.skip(start)


class Record(tf.train.SessionRunHook):
    """Saves the trainable variables' values when the session is created, or at its end."""

    def __init__(self, path, at_end=False):
        self.path, self.at_end = path, at_end

    def _save(self, session):
        values = session.run({v.op.name.replace("/", "."): v for v in tf.trainable_variables()})
        np.savez(self.path, **values)

    def after_create_session(self, session, coord):
        if not self.at_end:
            self._save(session)

    def end(self, session):
        if self.at_end:
            self._save(session)


class KillAt(tf.train.SessionRunHook):
    def __init__(self, step, global_step):
        self.step, self.global_step = step, global_step

    def after_run(self, run_context, run_values):
        if run_context.session.run(self.global_step) >= self.step:
            os.kill(os.getpid(), 9)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("out")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--base-lr", type=float, default=0.05)
    p.add_argument("--micro", type=int, default=0)
    p.add_argument("--kill-at", type=int, default=0)
    p.add_argument("--mismatch", action="store_true")
    p.add_argument("--eager", action="store_true")
    p.add_argument("--overlap", action="store_true")
    p.add_argument("--bpps", type=int, default=1)
    p.add_argument("--bucket-kb", type=float, default=25 * 1024)
    p.add_argument("--tag", default="run")
    a = p.parse_args()
    hvd.init()
    rank, size = hvd.rank(), hvd.size()
    ckpt = os.path.join(a.out, "ckpt")
    start = 0
    latest = tf.train.latest_checkpoint(ckpt) if rank == 0 else None
    if latest:
        start = int(re.search(r"-(\d+)$", latest).group(1))
    with tf.Graph().as_default():  # every rank resumes from rank 0's step
        with tf.Session() as s:
            start = int(s.run(hvd.broadcast(tf.constant(start, tf.int64), 0)))
    if rank == 0:
        print("start step", start)

    tf.set_random_seed(1 + rank)  # ranks start different; the broadcast makes them equal
    global_step = tf.train.get_or_create_global_step()
    lr = a.base_lr * size
    opt = tf.train.GradientDescentOptimizer(lr)
    if a.micro:
        # One process, K micro-batches: gradients summed in order, divided by K (the reference of
        # deterministic=True).
        grads = None
        for k in range(a.micro):
            xb, ib, yb = tf.data.make_one_shot_iterator(
                dataset(a.micro, k, GLOBAL_BATCH // a.micro, start)).get_next()
            gv = opt.compute_gradients(model(xb, ib, yb, reuse=tf.AUTO_REUSE))
            if grads is None:
                grads, variables = [g for g, _ in gv], [v for _, v in gv]
                continue
            for i, (g, _) in enumerate(gv):
                if isinstance(g, tf.IndexedSlices):
                    grads[i] = tf.IndexedSlices(tf.concat([grads[i].values, g.values], 0),
                                                tf.concat([grads[i].indices, g.indices], 0), g.dense_shape)
                else:
                    grads[i] = grads[i] + g
        grads = [tf.IndexedSlices(g.values / float(a.micro), g.indices, g.dense_shape)
                 if isinstance(g, tf.IndexedSlices) else g / float(a.micro) for g in grads]
        train_op = opt.apply_gradients(list(zip(grads, variables)), global_step=global_step)
        loss = tf.constant(0.0)
    else:
        xb, ib, yb = tf.data.make_one_shot_iterator(
            dataset(size, rank, GLOBAL_BATCH // size, start)).get_next()
        loss = model(xb, ib, yb)
        opt = hvd.DistributedOptimizer(opt, overlap=a.overlap, bucket_cap_mb=a.bucket_kb / 1024,
                                       backward_passes_per_step=a.bpps, sparse_as_dense=a.bpps > 1)
        train_op = opt.minimize(loss, global_step=global_step)
        if a.mismatch and rank == 1:
            train_op = tf.group(train_op, hvd.allreduce(loss, name="extra"))
    tf.summary.scalar("loss", loss)

    hooks = [Record(os.path.join(a.out, "%s_init_rank%d.npz" % (a.tag, rank))),
             hvd.BroadcastGlobalVariablesHook(0),
             Record(os.path.join(a.out, "%s_bcast_rank%d.npz" % (a.tag, rank))),
             Record(os.path.join(a.out, "%s_final_rank%d.npz" % (a.tag, rank)), at_end=True),
             tf.train.StopAtStepHook(last_step=a.steps)]
    if a.kill_at and rank == 1:
        hooks.append(KillAt(a.kill_at, global_step))
    with tf.train.MonitoredTrainingSession(checkpoint_dir=ckpt if rank == 0 else None, hooks=hooks,
                                           save_checkpoint_steps=5, save_summaries_steps=5,
                                           log_step_count_steps=None) as sess:
        while not sess.should_stop():
            sess.run(train_op)
    if a.eager:
        eager_part(a, rank)


def eager_part(a, rank):
    x, _, y = data()
    with context.eager_mode():
        w = tf.Variable(np.full((6, 1), float(rank + 1), np.float32), name="w")
        hvd.broadcast_variables([w], root_rank=0)
        opt = tf.train.GradientDescentOptimizer(0.1)
        per = GLOBAL_BATCH // hvd.size()
        for step in range(3):
            rows = slice(step * GLOBAL_BATCH + rank * per, step * GLOBAL_BATCH + (rank + 1) * per)
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(x[rows]), w) - tf.constant(y[rows])))
            tape = hvd.DistributedGradientTape(tape)
            (g,) = tape.gradient(loss, [w])
            opt.apply_gradients([(g, w)])
        np.savez(os.path.join(a.out, "%s_eager_rank%d.npz" % (a.tag, rank)), w=w.numpy())


if __name__ == "__main__":
    sys.exit(main())
