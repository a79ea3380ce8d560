"""`Saver(sharded=True)` as TF's sharded V2 saver: one SaveV2 per device under
`<prefix>_temp/part-<k>-of-<n>` (ShardedFilename), merged by MergeV2Checkpoints into one data file
per shard; byte-equal to what TF 2.21 wrote for the same variables on two CPU devices
(tests/data/make_tf_checkpoint.py -> tests/data/tf_checkpoint/sharded.ckpt.*)."""

import os

import numpy as np

import tensorweave as tf

GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_checkpoint")
TWO_CPUS = tf.ConfigProto(device_count={"CPU": 2})


def _read(path):
    with open(path, "rb") as f:
        return f.read()


def test_sharded_saver_builds_tf_sharded_save_graph():
    with tf.Graph().as_default() as g:
        tf.Variable([1.0], name="a")
        saver = tf.train.Saver(sharded=True)
        types = [(op.name, op.type) for op in g.get_operations() if op.name.startswith("save/")]
    assert saver.saver_def.sharded
    assert (saver.saver_def.filename_tensor_name, saver.saver_def.save_tensor_name,
            saver.saver_def.restore_op_name) == ("save/Const:0", "save/Identity:0", "save/restore_all")
    for expected in [("save/StaticRegexFullMatch", "StaticRegexFullMatch"), ("save/Select", "Select"),
                     ("save/StringJoin", "StringJoin"), ("save/num_shards", "Const"),
                     ("save/ShardedFilename/shard", "Const"), ("save/ShardedFilename", "ShardedFilename"),
                     ("save/SaveV2", "SaveV2"), ("save/MergeV2Checkpoints/checkpoint_prefixes", "Pack"),
                     ("save/MergeV2Checkpoints", "MergeV2Checkpoints"), ("save/restore_shard", "NoOp")]:
        assert expected in types


def test_sharded_save_on_one_device_writes_one_shard_and_no_temporary_directory(tmp_path):
    with tf.Graph().as_default():
        a = tf.Variable(np.arange(3, dtype=np.float32), name="a")
        c = tf.Variable([b"x", b"yz"], name="c")
        saver = tf.train.Saver(sharded=True)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, str(tmp_path / "model.ckpt"), global_step=3)
            assert prefix == str(tmp_path / "model.ckpt-3")
            assert sorted(os.listdir(str(tmp_path))) == ["checkpoint", "model.ckpt-3.data-00000-of-00001",
                                                         "model.ckpt-3.index", "model.ckpt-3.meta"]
            sess.run([a.assign([0.0, 0.0, 0.0]), c.assign([b"", b""])])
            saver.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run(a), [0.0, 1.0, 2.0])
            assert sess.run(c).tolist() == [b"x", b"yz"]


def test_sharded_save_on_two_cpu_devices_matches_tensorflow_bytes(tmp_path):
    with tf.Graph().as_default():
        with tf.device("/cpu:0"):
            a = tf.Variable(np.array([1.0, 2.0], dtype=np.float32), name="a")
        with tf.device("/cpu:1"):
            b = tf.Variable(np.array([[3, 4]], dtype=np.int64), name="b")
        saver = tf.train.Saver(sharded=True)
        with tf.Session(config=TWO_CPUS) as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, str(tmp_path / "sharded.ckpt"), write_meta_graph=False, write_state=False)
            assert sorted(os.listdir(str(tmp_path))) == ["sharded.ckpt.data-00000-of-00002",
                                                         "sharded.ckpt.data-00001-of-00002", "sharded.ckpt.index"]
            for name in os.listdir(str(tmp_path)):
                assert _read(str(tmp_path / name)) == _read(os.path.join(GOLDEN, name)), name
            sess.run([a.assign([0.0, 0.0]), b.assign([[0, 0]])])
            saver.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run(a), [1.0, 2.0])
            np.testing.assert_array_equal(sess.run(b), [[3, 4]])
    with tf.Graph().as_default():
        a = tf.Variable(np.zeros(2, np.float32), name="a")
        b = tf.Variable(np.zeros((1, 2), np.int64), name="b")
        saver = tf.train.Saver()  # an unsharded saver restores the sharded checkpoint
        with tf.Session() as sess:
            saver.restore(sess, os.path.join(GOLDEN, "sharded.ckpt"))
            np.testing.assert_array_equal(sess.run(b), [[3, 4]])


def test_sharded_saver_meta_graph_round_trips(tmp_path):
    with tf.Graph().as_default():
        with tf.device("/cpu:1"):
            tf.Variable([5.0, 6.0], name="v")
        saver = tf.train.Saver(sharded=True)
        with tf.Session(config=TWO_CPUS) as sess:
            sess.run(tf.global_variables_initializer())
            prefix = saver.save(sess, str(tmp_path / "m"))
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(prefix + ".meta")
        assert saver.saver_def.sharded
        with tf.Session(config=TWO_CPUS) as sess:
            saver.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run("v:0"), [5.0, 6.0])
            again = saver.save(sess, str(tmp_path / "again"))
    assert tf.train.load_variable(again, "v").tolist() == [5.0, 6.0]
    assert not os.path.exists(str(tmp_path / "again_temp"))
