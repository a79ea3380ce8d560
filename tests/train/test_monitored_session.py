"""Tests for tf.train.MonitoredTrainingSession, MonitoredSession, SingularMonitoredSession and Scaffold."""

import glob
import os

import numpy as np
import pytest

import tensorweave as tf


def _model(lr=0.1):
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(1.0, name="w")
    loss = tf.square(w)
    train_op = tf.train.GradientDescentOptimizer(lr).minimize(loss, global_step=gs)
    return gs, w, loss, train_op


def _event_scalars(logdir, tag):
    loader = pytest.importorskip("tensorboard.backend.event_processing.event_file_loader")
    out = []
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        for ev in loader.LegacyEventFileLoader(path).Load():
            for v in ev.summary.value:
                if v.tag == tag:
                    out.append((ev.step, v.simple_value))
    return out


def test_stops_at_last_step_and_saves_checkpoints(tmp_path):
    d = str(tmp_path)
    gs, w, _, train_op = _model()
    steps = 0
    with tf.train.MonitoredTrainingSession(checkpoint_dir=d, hooks=[tf.train.StopAtStepHook(last_step=5)]) as sess:
        while not sess.should_stop():
            sess.run(train_op)
            steps += 1
    assert steps == 5
    assert tf.train.latest_checkpoint(d) == os.path.join(d, "model.ckpt-5")
    assert os.path.exists(os.path.join(d, "model.ckpt-0.index"))
    assert tf.train.load_variable(d, "w") == pytest.approx(0.8 ** 5, rel=1e-5)


def test_restores_and_continues_global_step(tmp_path):
    d = str(tmp_path)
    _, _, _, train_op = _model()
    with tf.train.MonitoredTrainingSession(checkpoint_dir=d, hooks=[tf.train.StopAtStepHook(num_steps=3)]) as sess:
        while not sess.should_stop():
            sess.run(train_op)
    tf.reset_default_graph()
    gs, w, _, train_op = _model()
    hooks = [tf.train.StopAtStepHook(num_steps=2)]
    with tf.train.SingularMonitoredSession(checkpoint_dir=d, hooks=hooks) as sess:
        assert sess.run(gs) == 3
        np.testing.assert_allclose(sess.run(w), 0.8 ** 3, rtol=1e-6)
        values = []
        while not sess.should_stop():
            sess.run(train_op)
            values.append(sess.raw_session().run(gs))
    assert values == [4, 5]
    # A SingularMonitoredSession restores but saves nothing by itself.
    assert tf.train.latest_checkpoint(d) == os.path.join(d, "model.ckpt-3")


def test_save_checkpoint_steps_and_summaries(tmp_path):
    d = str(tmp_path)
    _, _, loss, train_op = _model()
    tf.summary.scalar("loss", loss)
    with tf.train.MonitoredTrainingSession(checkpoint_dir=d, save_checkpoint_steps=2, save_summaries_steps=2,
                                           hooks=[tf.train.StopAtStepHook(last_step=5)]) as sess:
        while not sess.should_stop():
            sess.run(train_op)
    tf.summary.FileWriterCache.get(d).flush()
    steps = sorted(int(p.split("-")[-1].split(".")[0]) for p in glob.glob(os.path.join(d, "model.ckpt-*.index")))
    assert steps == [0, 2, 4, 5]
    scalars = _event_scalars(d, "loss")
    # The summary runs with the train op: the loss before the step at global steps 1, 3, 5.
    assert [s for s, _ in scalars] == [1, 3, 5]
    np.testing.assert_allclose([v for _, v in scalars], [1.0, 0.8 ** 4, 0.8 ** 8], rtol=1e-5)


def test_out_of_range_stops_and_hooks_end(tmp_path):
    ds = tf.data.Dataset.from_tensor_slices(np.arange(3, dtype=np.float32))
    x = ds.make_one_shot_iterator().get_next()
    hook = tf.train.FinalOpsHook(tf.constant(7))
    seen = []
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
        while not sess.should_stop():
            seen.append(sess.run(x))
    assert seen == [0.0, 1.0, 2.0]
    assert sess.should_stop()
    assert hook.final_ops_values == 7


def test_run_after_stop_raises():
    _model()
    with tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(num_steps=0)]) as sess:
        sess.run(tf.train.get_global_step())
        assert sess.should_stop()
        with pytest.raises(RuntimeError, match="Run called even after should_stop requested"):
            sess.run(tf.train.get_global_step())


def test_scaffold_init_fn_and_finalize():
    w = tf.Variable(1.0, name="w")
    assign = w.assign(4.0)
    calls = []

    def init_fn(scaffold, sess):
        calls.append(scaffold)
        sess.run(assign)

    scaffold = tf.train.Scaffold(init_fn=init_fn)
    with tf.train.SingularMonitoredSession(scaffold=scaffold) as sess:
        assert sess.run(w) == 4.0
        assert sess.raw_session().run(w) == 4.0
    assert calls == [scaffold]
    assert tf.get_default_graph().finalized
    assert scaffold.saver is not None and scaffold.init_op is not None
    with pytest.raises(RuntimeError):
        tf.constant(1.0)


def test_uninitialized_variables_raise():
    w = tf.Variable(1.0, name="w")
    scaffold = tf.train.Scaffold(init_op=tf.no_op())
    with pytest.raises(RuntimeError, match="Init operations did not make model ready"):
        tf.train.MonitoredSession(tf.train.ChiefSessionCreator(scaffold=scaffold))
    del w


def test_hook_feeds_and_conflicts():
    p = tf.placeholder(tf.float32, [])
    y = p * 2.0

    class Feed(tf.train.SessionRunHook):
        def before_run(self, run_context):
            return tf.train.SessionRunArgs(fetches=None, feed_dict={p: 3.0})

    with tf.train.MonitoredSession(hooks=[Feed()]) as sess:
        assert sess.run(y) == 6.0
        with pytest.raises(RuntimeError, match="Same tensor is fed by a SessionRunHook and user"):
            sess.run(y, feed_dict={p: 1.0})


def test_the_default_local_init_op_initializes_lookup_tables_as_tf():
    with tf.Graph().as_default():
        table = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
        out = table.lookup(tf.constant(["b", "z"]))
        with tf.train.MonitoredSession() as sess:
            assert sess.run(out).tolist() == [2, -1]
