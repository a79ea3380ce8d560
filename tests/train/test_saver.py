"""tf.train.Saver, the checkpoint state file, checkpoint readers and meta graphs."""

import json
import os
import subprocess
import sys
import time

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import tensor_bundle
from tensorweave.train import checkpoint_management


def _double(x):
    """A module-level function: a py_func over it is restored by its qualified name."""
    return (x * 2).astype(np.float32)


def _model(graph=None):
    """Two float variables, an int one and a string one, built identically in any graph."""
    with (graph or tf.get_default_graph()).as_default():
        w = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="w")
        b = tf.Variable([0.5, -1.0, 2.0], name="layer/b")
        n = tf.Variable(7, name="n")
        s = tf.Variable(["a", "bc"], name="s")
    return w, b, n, s


def _files(d):
    return sorted(os.listdir(d))


# ---- round trips ---------------------------------------------------------------------------------
def test_save_restore_round_trip_into_a_fresh_graph_and_session(tmp_path):
    w, b, n, s = _model()
    saver = tf.train.Saver()
    prefix = str(tmp_path / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([w.assign(w * 3.0), b.assign_add([1.0, 1.0, 1.0]), n.assign(42), s.assign(["x", "yz"])])
        expected = sess.run([w, b, n, s])
        assert saver.save(sess, prefix) == prefix
    assert _files(tmp_path) == ["checkpoint", "model.ckpt.data-00000-of-00001", "model.ckpt.index", "model.ckpt.meta"]

    g = tf.Graph()
    w2, b2, n2, s2 = _model(g)
    with g.as_default():
        saver2 = tf.train.Saver()
    with tf.Session(graph=g) as sess:
        saver2.restore(sess, prefix)
        got = sess.run([w2, b2, n2, s2])
    for e, v in zip(expected, got):
        np.testing.assert_array_equal(v, e)
    assert got[0].dtype == np.float32 and got[2].dtype == np.int32
    assert list(got[3]) == [b"x", b"yz"]


def test_saver_ops_have_tf_names_and_saver_def():
    _model()
    saver = tf.train.Saver(max_to_keep=3, keep_checkpoint_every_n_hours=2.0)
    sd = saver.as_saver_def()
    assert (sd.filename_tensor_name, sd.save_tensor_name, sd.restore_op_name) == (
        "save/Const:0", "save/control_dependency:0", "save/restore_all")
    assert (sd.max_to_keep, sd.keep_checkpoint_every_n_hours, sd.version) == (3, 2.0, 2)
    g = tf.get_default_graph()
    assert g.get_operation_by_name("save/SaveV2").type == "SaveV2"
    assert g.get_operation_by_name("save/RestoreV2").type == "RestoreV2"
    assert [o.name for o in g.get_operations() if o.type == "Assign" and o.name.startswith("save/")] == [
        "save/Assign", "save/Assign_1", "save/Assign_2", "save/Assign_3"]
    assert tf.train.Saver(max_to_keep=None).saver_def.filename_tensor_name == "save_1/Const:0"
    assert tf.train.Saver(name="mysaver").saver_def.restore_op_name == "mysaver/restore_all"


def test_restore_initializes_without_running_initializers(tmp_path):
    v = tf.Variable([1.0, 2.0], name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "m"))
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value v"):
            sess.run(v)
        saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0])


def test_dict_var_list_renames_and_restores_into_other_variables(tmp_path):
    a = tf.Variable([1.0, 2.0], name="a")
    c = tf.Variable(3, name="c")
    saver = tf.train.Saver({"renamed/a": a, "count": c})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"), write_meta_graph=False)
    assert tf.train.list_variables(path) == [("count", []), ("renamed/a", [2])]

    g = tf.Graph()
    with g.as_default():
        other = tf.Variable([0.0, 0.0], name="other")
        n = tf.Variable(0, name="n")
        restorer = tf.train.Saver({"renamed/a": other, "count": n})
    with tf.Session(graph=g) as sess:
        restorer.restore(sess, path)
        np.testing.assert_array_equal(sess.run(other), [1.0, 2.0])
        assert sess.run(n) == 3


def test_list_var_list_saves_a_subset_and_accepts_variable_tensors(tmp_path):
    a = tf.Variable(1.0, name="a")
    tf.Variable(2.0, name="b")
    saver = tf.train.Saver([a._ref()])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
    assert [name for name, _ in tf.train.list_variables(path)] == ["a"]


def test_restore_into_a_smaller_graph_and_reshape(tmp_path):
    v = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3), name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "m"))
    g = tf.Graph()
    with g.as_default():
        v2 = tf.Variable(np.zeros((3, 2), np.float32), name="v")
        strict = tf.train.Saver()
        loose = tf.train.Saver(reshape=True)
    with tf.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="(?s)mismatch between the current graph.*lhs shape= \\[3, 2\\] rhs shape= \\[2, 3\\]"):
            strict.restore(sess, path)
        loose.restore(sess, path)
        np.testing.assert_array_equal(sess.run(v2), np.arange(6).reshape(3, 2))


# ---- global step, state file, max_to_keep ---------------------------------------------------------
def test_global_step_paths_from_int_tensor_and_padding(tmp_path):
    gs = tf.train.get_or_create_global_step()
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    padded = tf.train.Saver(pad_step_number=True)
    base = str(tmp_path / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(gs.assign(100))
        assert saver.save(sess, base, global_step=100) == base + "-100"
        assert saver.save(sess, base, global_step=np.int64(7)) == base + "-7"
        assert saver.save(sess, base, global_step=gs) == base + "-100"
        assert saver.save(sess, base, global_step="global_step:0") == base + "-100"
        assert padded.save(sess, base, global_step=gs) == base + "-00000100"
    assert tf.train.checkpoint_exists(base + "-100")
    assert os.path.isfile(base + "-100.meta")
    assert tf.train.load_variable(base + "-100", "global_step") == 100


def test_checkpoint_state_file_latest_checkpoint_and_max_to_keep(tmp_path):
    v = tf.Variable(0.0, name="v")
    inc = v.assign_add(1.0)
    saver = tf.train.Saver(max_to_keep=2)
    base = str(tmp_path / "model.ckpt")
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    with tf.Session() as sess:
        sess.run(v.initializer)
        for step in range(1, 5):
            sess.run(inc)
            saver.save(sess, base, global_step=step)
    assert saver.last_checkpoints == [base + "-3", base + "-4"]
    assert _files(tmp_path) == ["checkpoint"] + sorted(
        "model.ckpt-%d%s" % (i, ext) for i in (3, 4) for ext in (".data-00000-of-00001", ".index", ".meta"))
    with open(tmp_path / "checkpoint") as f:
        assert f.read() == ('model_checkpoint_path: "%s-4"\nall_model_checkpoint_paths: "%s-3"\n'
                            'all_model_checkpoint_paths: "%s-4"\n' % (base, base, base))
    assert tf.train.latest_checkpoint(str(tmp_path)) == base + "-4"
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.model_checkpoint_path == base + "-4"
    assert state.all_model_checkpoint_paths == [base + "-3", base + "-4"]
    assert tf.train.load_variable(str(tmp_path), "v") == 4.0
    assert tf.train.load_variable(base + "-3", "v:0") == 3.0


def test_max_to_keep_none_keeps_every_file_and_only_the_last_in_the_state(tmp_path):
    tf.Variable(0.0, name="v")
    saver = tf.train.Saver(max_to_keep=None)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            saver.save(sess, str(tmp_path / "m"), global_step=step)
    assert saver.last_checkpoints == []
    assert len([f for f in _files(tmp_path) if f.endswith(".index")]) == 3
    state = tf.train.get_checkpoint_state(str(tmp_path))
    assert state.all_model_checkpoint_paths == [str(tmp_path / "m-2")]


def test_keep_checkpoint_every_n_hours_preserves_files(tmp_path):
    tf.Variable(0.0, name="v")
    saver = tf.train.Saver(max_to_keep=1, keep_checkpoint_every_n_hours=1e-9)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(3):
            saver.save(sess, str(tmp_path / "m"), global_step=step)
    assert saver.last_checkpoints == [str(tmp_path / "m-2")]
    assert len([f for f in _files(tmp_path) if f.endswith(".index")]) == 3


def test_relative_save_path_writes_relative_state(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    os.mkdir("ckpts")
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert saver.save(sess, "ckpts/model", global_step=5) == "ckpts/model-5"
    with open("ckpts/checkpoint") as f:
        assert f.read() == 'model_checkpoint_path: "model-5"\nall_model_checkpoint_paths: "model-5"\n'
    assert tf.train.latest_checkpoint("ckpts") == os.path.join("ckpts", "model-5")


def test_save_relative_paths_option(tmp_path):
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver(save_relative_paths=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, str(tmp_path / "m"), global_step=1, latest_filename="state")
    with open(tmp_path / "state") as f:
        assert f.read() == 'model_checkpoint_path: "m-1"\nall_model_checkpoint_paths: "m-1"\n'
    assert tf.train.latest_checkpoint(str(tmp_path), latest_filename="state") == str(tmp_path / "m-1")
    assert tf.train.latest_checkpoint(str(tmp_path)) is None


def test_recover_and_set_last_checkpoints(tmp_path):
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver(max_to_keep=2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for step in range(2):
            saver.save(sess, str(tmp_path / "m"), global_step=step)
        state = tf.train.get_checkpoint_state(str(tmp_path))
        fresh = tf.train.Saver(max_to_keep=2)
        fresh.recover_last_checkpoints(state.all_model_checkpoint_paths + [str(tmp_path / "missing")])
        assert fresh.last_checkpoints == [str(tmp_path / "m-0"), str(tmp_path / "m-1")]
        fresh.save(sess, str(tmp_path / "m"), global_step=2)
        assert fresh.last_checkpoints == [str(tmp_path / "m-1"), str(tmp_path / "m-2")]
        assert not tf.train.checkpoint_exists(str(tmp_path / "m-0"))
        fresh.set_last_checkpoints_with_time([("a", 1.0), ("b", 2.0)])
        assert fresh.last_checkpoints == ["a", "b"]
        with pytest.raises(AssertionError):
            fresh.set_last_checkpoints_with_time(("a", 1.0))


def test_write_state_false_and_latest_filename(tmp_path):
    tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        saver.save(sess, str(tmp_path / "m"), write_state=False, write_meta_graph=False)
        assert _files(tmp_path) == ["m.data-00000-of-00001", "m.index"]
        with pytest.raises(ValueError, match="'latest_filename' must not contain path components"):
            saver.save(sess, str(tmp_path / "m"), latest_filename="sub/state")
        with pytest.raises(ValueError, match="'latest_filename' collides with 'save_path'"):
            saver.save(sess, str(tmp_path / "checkpoint"))


# ---- crashes and errors --------------------------------------------------------------------------
def test_crash_during_save_keeps_the_previous_checkpoint(tmp_path, monkeypatch):
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    big = tf.Variable(np.ones((50, 50), np.float32), name="big")
    saver = tf.train.Saver()
    base = str(tmp_path / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        good = saver.save(sess, base, global_step=1)
        sess.run([v.assign([9.0, 9.0, 9.0]), big.assign(big * 5.0)])

        real_write = tensor_bundle._write_chunk
        calls = []

        def failing_write(f, data):
            calls.append(len(data))
            if len(calls) == 2:  # after the first tensor ("big"): midway through the data file
                raise OSError(28, "No space left on device")
            real_write(f, data)

        monkeypatch.setattr(tensor_bundle, "_write_chunk", failing_write)
        with pytest.raises(tf.errors.UnknownError, match="No space left on device"):
            saver.save(sess, base, global_step=2)
        monkeypatch.setattr(tensor_bundle, "_write_chunk", real_write)
    assert len(calls) == 2
    # Nothing of step 2 (no temporary file either); step 1 is intact and still the latest.
    assert _files(tmp_path) == ["checkpoint", "model.ckpt-1.data-00000-of-00001", "model.ckpt-1.index",
                                "model.ckpt-1.meta"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == good
    assert saver.last_checkpoints == [good]
    with tf.Session() as sess:
        saver.restore(sess, tf.train.latest_checkpoint(str(tmp_path)))
        np.testing.assert_array_equal(sess.run(v), [1.0, 2.0, 3.0])
        np.testing.assert_array_equal(sess.run(big), np.ones((50, 50)))


def test_crash_before_the_state_file_leaves_the_previous_latest(tmp_path, monkeypatch):
    v = tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        good = saver.save(sess, str(tmp_path / "m"), global_step=1)
        sess.run(v.assign(2.0))

        def fail(*args, **kwargs):
            raise OSError("killed")

        monkeypatch.setattr(checkpoint_management, "update_checkpoint_state_internal", fail)
        with pytest.raises(OSError, match="killed"):
            saver.save(sess, str(tmp_path / "m"), global_step=2)
    assert tf.train.latest_checkpoint(str(tmp_path)) == good
    assert tf.train.load_variable(good, "v") == 1.0
    assert tf.train.load_variable(str(tmp_path / "m-2"), "v") == 2.0


_KILLED_SAVE = """
import os, sys
import numpy as np
import tensorweave as tf
from tensorweave.ops import tensor_bundle
v = tf.Variable(np.ones((50, 50), np.float32), name="v")
saver = tf.train.Saver(max_to_keep=2)
with tf.Session() as sess:
    sess.run(v.initializer)
    saver.save(sess, sys.argv[1], global_step=1)
    real, calls = tensor_bundle._write_chunk, []

    def killed(f, data):
        calls.append(1)
        real(f, data)
        if len(calls) == {after}:
            f.flush()
            os._exit(9)  # as kill -9: no cleanup runs
    tensor_bundle._write_chunk = killed
    saver.save(sess, sys.argv[1], global_step=2)
"""


def _tmp_name(name):
    return "%s.tmp%s" % (name, "0123456789abcdef" * 2)


@pytest.mark.parametrize("after,complete", [(1, []), (2, ["model.ckpt-2.data-00000-of-00001"])],
                         ids=["in-the-data-file", "in-the-index"])
def test_the_next_save_removes_what_a_killed_save_left(tmp_path, after, complete):
    base = str(tmp_path / "model.ckpt")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = subprocess.run([sys.executable, "-c", _KILLED_SAVE.replace("{after}", str(after)), base], cwd=root,
                         env=dict(os.environ, PYTHONPATH=root), capture_output=True, text=True, timeout=120)
    assert out.returncode == 9, out.stderr
    left = [n for n in _files(tmp_path) if ".tmp" in n]
    assert len(left) == 1 and left[0].startswith("model.ckpt-2.")
    # Temporaries of another prefix, and names that are no temporary of a save, are not touched.
    for other in [_tmp_name("other.ckpt-2.index"), _tmp_name("model.ckpt-best.index"), "model.ckpt-2.index.tmpX"]:
        (tmp_path / other).write_bytes(b"x")
    v = tf.Variable(np.zeros((50, 50), np.float32), name="v")
    saver = tf.train.Saver(max_to_keep=2)
    saver.recover_last_checkpoints([base + "-1"])
    with tf.Session() as sess:
        sess.run(v.initializer)
        assert saver.save(sess, base, global_step=3) == base + "-3"
    assert _files(tmp_path) == sorted(
        ["checkpoint", _tmp_name("model.ckpt-best.index"), "model.ckpt-2.index.tmpX", _tmp_name("other.ckpt-2.index")]
        + ["model.ckpt-%d%s" % (i, ext) for i in (1, 3) for ext in (".data-00000-of-00001", ".index", ".meta")]
        + complete)  # a file renamed to its final name before the kill is no temporary
    assert tf.train.get_checkpoint_state(str(tmp_path)).all_model_checkpoint_paths == [base + "-1", base + "-3"]
    assert tf.train.load_variable(base + "-1", "v").sum() == 2500


@pytest.mark.skipif(tensor_bundle.fcntl is None, reason="live temporaries are recognised by their file lock")
def test_a_temporary_being_written_is_not_removed(tmp_path):
    import fcntl
    base = str(tmp_path / "m")
    busy = str(tmp_path / _tmp_name("m-7.data-00000-of-00001"))
    v = tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    with open(busy, "wb") as f, tf.Session() as sess:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)  # as a save in progress (another thread or process) holds it
        sess.run(v.initializer)
        saver.save(sess, base, global_step=8)
        assert os.path.exists(busy)
    # Released (its writer died), it is removed by the next save.
    with tf.Session() as sess:
        sess.run(v.initializer)
        saver.save(sess, base, global_step=9)
    assert not os.path.exists(busy)


def test_without_file_locks_only_old_temporaries_are_removed(tmp_path, monkeypatch):
    monkeypatch.setattr(tensor_bundle, "fcntl", None)
    old, new = (str(tmp_path / _tmp_name("m-%d.index" % i)) for i in (1, 2))
    for path in (old, new):
        with open(path, "wb") as f:
            f.write(b"partial")
    long_ago = time.time() - tensor_bundle.STALE_TEMPORARY_SECS - 60
    os.utime(old, (long_ago, long_ago))
    v = tf.Variable(1.0, name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        tf.train.Saver().save(sess, str(tmp_path / "m"), global_step=3)
    assert not os.path.exists(old) and os.path.exists(new)


def test_atomic_write_keeps_the_old_file_when_the_writer_fails(tmp_path):
    path = str(tmp_path / "f")
    tensor_bundle.atomic_write(path, lambda f: f.write(b"old"))

    def bad(f):
        f.write(b"new, partial")
        raise RuntimeError("crash")

    with pytest.raises(RuntimeError, match="crash"):
        tensor_bundle.atomic_write(path, bad)
    with open(path, "rb") as f:
        assert f.read() == b"old"
    assert _files(tmp_path) == ["f"]


def test_absurd_sizes_in_a_meta_graph_constant_are_data_loss(tmp_path):
    tf.constant([[1.0, 2.0], [3.0, 4.0]], name="c")
    tf.constant(["a", "b"], name="s")
    path = str(tmp_path / "g.meta")
    for which, dims in [("c", [10 ** 6, 10 ** 6]), ("s", [2 ** 40])]:
        meta = tf.train.export_meta_graph()
        node = [n for n in meta.graph_def.node if n.name == which][0]
        shape = node.attr["value"].tensor.tensor_shape
        del shape.dim[:]
        for d in dims:
            shape.dim.add(size=d)
        with open(path, "wb") as f:
            f.write(meta.SerializeToString())
        tf.reset_default_graph()
        with pytest.raises(tf.errors.DataLossError, match="Meta graph %s is damaged: .*attr 'value' of node '%s'"
                                                          % (path.replace(".", "\\."), which)):
            tf.train.import_meta_graph(path)
        tf.reset_default_graph()
        tf.constant([[1.0, 2.0], [3.0, 4.0]], name="c")
        tf.constant(["a", "b"], name="s")


def test_restore_errors(tmp_path):
    v = tf.Variable(1.0, name="v")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "m"))
    g = tf.Graph()
    with g.as_default():
        tf.Variable(1.0, name="v")
        tf.Variable(2.0, name="extra")
        saver2 = tf.train.Saver()
    with tf.Session(graph=g) as sess:
        with pytest.raises(ValueError, match="Can't load save_path when it is None."):
            saver2.restore(sess, None)
        with pytest.raises(ValueError, match="The passed save_path is not a valid checkpoint: .*nothing"):
            saver2.restore(sess, str(tmp_path / "nothing"))
        with pytest.raises(tf.errors.NotFoundError,
                           match="(?s)Variable name or other graph key that is missing.*Key extra not found in "
                                 "checkpoint"):
            saver2.restore(sess, path)
    g = tf.Graph()
    with g.as_default():
        tf.Variable(1, name="v")
        saver3 = tf.train.Saver()
    with tf.Session(graph=g) as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="tensor_name = v; expected dtype int32 does not equal original dtype float"):
            saver3.restore(sess, path)


def test_construction_and_save_errors(tmp_path):
    with pytest.raises(ValueError, match="No variables to save"):
        tf.train.Saver()
    empty = tf.train.Saver(allow_empty=True)
    with tf.Session() as sess:
        assert empty.save(sess, str(tmp_path / "e")) is None
        assert empty.restore(sess, str(tmp_path / "e")) is None
    a = tf.Variable(1.0, name="a")
    with pytest.raises(TypeError, match="Variable to save is not a Variable"):
        tf.train.Saver([a, tf.constant(1.0)])
    with pytest.raises(TypeError, match="should be passed in a dict or a list"):
        tf.train.Saver("a")
    with pytest.raises(ValueError, match="The same saveable will be restored with two names"):
        tf.train.Saver({"x": a, "y": a})
    with pytest.raises(ValueError, match="build cannot be deferred"):
        tf.train.Saver([a], defer_build=True)
    deferred = tf.train.Saver(defer_build=True)
    saver = tf.train.Saver([a])
    with tf.Session() as sess:
        with pytest.raises(RuntimeError, match="`build\\(\\)` should be called before save"):
            deferred.save(sess, str(tmp_path / "d"))
        with pytest.raises(tf.errors.FailedPreconditionError, match="uninitialized value a"):
            saver.save(sess, str(tmp_path / "u"))
        sess.run(a.initializer)
        assert saver.save(sess, str(tmp_path / "new_dir" / "m")) == str(tmp_path / "new_dir" / "m")
        assert tf.train.latest_checkpoint(str(tmp_path / "new_dir")) == str(tmp_path / "new_dir" / "m")
        with pytest.raises(ValueError, match="Parent directory of .*missing/deeper/m doesn't exist, can't save."):
            saver.save(sess, str(tmp_path / "missing" / "deeper" / "m"))
        with pytest.raises(TypeError, match="'sess' must be a Session"):
            saver.save(None, str(tmp_path / "m"))
        deferred.build()
        assert deferred.save(sess, str(tmp_path / "d")) == str(tmp_path / "d")


def test_duplicate_variable_names_raise():
    g1, g2 = tf.Graph(), tf.Graph()
    with g1.as_default():
        a = tf.Variable(1.0, name="x")
    with g2.as_default():
        b = tf.Variable(1.0, name="x")
    with pytest.raises(ValueError, match="At least two variables have the same name: x"):
        tf.train.Saver([a, b])


# ---- reading checkpoints --------------------------------------------------------------------------
def test_list_variables_load_variable_and_reader(tmp_path):
    w, b, n, s = _model()
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
    assert tf.train.list_variables(str(tmp_path)) == [("layer/b", [3]), ("n", []), ("s", [2]), ("w", [2, 3])]
    np.testing.assert_array_equal(tf.train.load_variable(path, "w:0"), np.arange(6).reshape(2, 3))
    value = tf.train.load_variable(path, "layer/b")
    assert value.dtype == np.float32 and value.flags.writeable
    n_value = tf.train.load_variable(path, "n")
    assert n_value == 7 and isinstance(n_value, np.int32)
    reader = tf.train.NewCheckpointReader(path)
    assert reader.get_variable_to_shape_map() == {"layer/b": [3], "n": [], "s": [2], "w": [2, 3]}
    assert reader.get_variable_to_dtype_map()["n"] is tf.int32
    assert reader.get_variable_to_dtype_map()["s"] is tf.string
    assert reader.has_tensor("w") and not reader.has_tensor("nope")
    assert list(reader.get_tensor("s")) == [b"a", b"bc"]
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")
    with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files for .*absent"):
        tf.train.load_variable(str(tmp_path / "absent"), "w")
    empty_dir = tmp_path / "empty"
    empty_dir.mkdir()
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file or checkpoints in given directory"):
        tf.train.list_variables(str(empty_dir))


def test_checkpoint_state_text_format_round_trip():
    state = tf.train.generate_checkpoint_state_proto("/d", "/d/m-2", ["/d/m-1"])
    assert state.all_model_checkpoint_paths == ["/d/m-1", "/d/m-2"]
    odd = tf.train.CheckpointState('/d/qu"ote\\é\n', ["/d/a"], [1.5], 2.5)
    text = str(odd)
    assert text == ('model_checkpoint_path: "/d/qu\\"ote\\\\\\303\\251\\n"\nall_model_checkpoint_paths: "/d/a"\n'
                    "all_model_checkpoint_timestamps: 1.5\nlast_preserved_timestamp: 2.5\n")
    assert tf.train.CheckpointState.FromString(text) == odd
    with pytest.raises(ValueError, match="has no field named \"bogus\""):
        tf.train.CheckpointState.FromString('bogus: "x"\n')
    rel = tf.train.generate_checkpoint_state_proto("rel", "rel/m-1")
    assert rel.model_checkpoint_path == "m-1"


def test_get_checkpoint_state_of_bad_files(tmp_path):
    with open(tmp_path / "checkpoint", "w") as f:
        f.write("garbage without colon\n")
    assert tf.train.get_checkpoint_state(str(tmp_path)) is None
    with open(tmp_path / "checkpoint", "w") as f:
        f.write('all_model_checkpoint_paths: "x"\n')
    with pytest.raises(ValueError, match="Invalid checkpoint state loaded from"):
        tf.train.get_checkpoint_state(str(tmp_path))
    tf.train.update_checkpoint_state(str(tmp_path), str(tmp_path / "gone"))
    assert tf.train.get_checkpoint_state(str(tmp_path)).model_checkpoint_path == str(tmp_path / "gone")
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    with pytest.raises(RuntimeError, match="conflicts with path used for checkpoint state"):
        tf.train.update_checkpoint_state(str(tmp_path), str(tmp_path / "checkpoint"))


def test_init_from_checkpoint(tmp_path):
    with tf.variable_scope("old"):
        tf.get_variable("w", initializer=np.float32([1.0, 2.0]))
        tf.get_variable("b", initializer=np.float32(3.0))
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        path = saver.save(sess, str(tmp_path / "m"))
    g = tf.Graph()
    with g.as_default():
        with tf.variable_scope("new"):
            w = tf.get_variable("w", [2])
            b = tf.get_variable("b", [])
        single = tf.Variable(0.0, name="single")
        tf.train.init_from_checkpoint(str(tmp_path), {"old/": "new/"})
        tf.train.init_from_checkpoint(path, {"old/b": single})
        with pytest.raises(ValueError, match="Tensor old/zz is not found"):
            tf.train.init_from_checkpoint(path, {"old/zz": single})
        init = tf.global_variables_initializer()
    with tf.Session(graph=g) as sess:
        sess.run(init)
        np.testing.assert_array_equal(sess.run(w), [1.0, 2.0])
        assert sess.run(b) == 3.0 and sess.run(single) == 3.0


# ---- meta graphs ----------------------------------------------------------------------------------
def _train_graph():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    y = tf.placeholder(tf.float32, [None, 1], name="y")
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer(0.1))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    pred = tf.identity(tf.matmul(x, w) + b, name="pred")
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    gs = tf.train.get_or_create_global_step()
    train_op = tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, global_step=gs)
    tf.add_to_collection("train_op", train_op)
    tf.add_to_collection("pred", pred)
    return x, y, pred, loss, train_op


def test_import_meta_graph_and_restore_run_the_same_computation(tmp_path):
    x, y, pred, loss, train_op = _train_graph()
    saver = tf.train.Saver()
    rng = np.random.RandomState(0)
    xs = rng.randn(8, 3).astype(np.float32)
    ys = rng.randn(8, 1).astype(np.float32)
    feed = {x: xs, y: ys}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(train_op, feed)
        path = saver.save(sess, str(tmp_path / "model"), global_step=tf.train.get_global_step())
        sess.run(train_op, feed)
        expected = sess.run([pred, loss], feed)

    tf.reset_default_graph()
    restorer = tf.train.import_meta_graph(path + ".meta")
    g = tf.get_default_graph()
    assert [v.name for v in tf.trainable_variables()] == ["w:0", "b:0"]
    assert "global_step:0" in [v.name for v in tf.global_variables()]
    assert tf.train.get_global_step().name == "global_step:0"
    assert g.get_tensor_by_name("x:0").shape.as_list() == [None, 3]
    train_op2 = tf.get_collection("train_op")[0]
    assert isinstance(train_op2, tf.Operation) and tf.get_collection("pred")[0].name == "pred:0"
    with tf.Session() as sess:
        restorer.restore(sess, path)
        assert sess.run("global_step:0") == 1
        # The momentum slots were restored too, so a second step matches the original run exactly.
        sess.run(train_op2, {"x:0": xs, "y:0": ys})
        got = sess.run(["pred:0", "loss:0"], {"x:0": xs, "y:0": ys})
    np.testing.assert_array_equal(got[0], expected[0])
    assert got[1] == expected[1]


def test_import_meta_graph_with_control_flow(tmp_path):
    x = tf.placeholder(tf.float32, [], name="x")
    v = tf.Variable(2.0, name="v")
    c = tf.cond(x > 0, lambda: x * v, lambda: x - v, name="c")
    loop = tf.while_loop(lambda i, acc: i < 5, lambda i, acc: (i + 1, acc + v * x), [0, x], name="loop")
    out = tf.identity(loop[1] + c, name="out")
    grad = tf.identity(tf.gradients(out, x)[0], name="grad")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        expected = [sess.run([out, grad], {x: val}) for val in (1.5, -2.0)]
        path = saver.save(sess, str(tmp_path / "m"))
    tf.reset_default_graph()
    restorer = tf.train.import_meta_graph(path + ".meta")
    with tf.Session() as sess:
        restorer.restore(sess, path)
        got = [sess.run(["out:0", "grad:0"], {"x:0": val}) for val in (1.5, -2.0)]
        # New gradients can be taken through the imported cond/while as well.
        g2 = tf.gradients(tf.get_default_graph().get_tensor_by_name("out:0"),
                          tf.get_default_graph().get_tensor_by_name("x:0"))[0]
        again = sess.run(g2, {"x:0": 1.5})
    np.testing.assert_allclose(got, expected)
    assert again == pytest.approx(expected[0][1])


def test_import_meta_graph_restores_py_func_by_qualified_name(tmp_path):
    x = tf.placeholder(tf.float32, [2], name="x")
    v = tf.Variable([1.0, 1.0], name="v")
    y = tf.identity(tf.py_func(_double, [x + v], tf.float32), name="y")
    tf.identity(tf.py_func(lambda a: a + 1, [x], tf.float32), name="z")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "m"))
        expected = sess.run(y, {x: [1.0, 2.0]})
    meta = tf.train.import_meta_graph.__globals__["meta_graph"].read_meta_graph_file(path + ".meta")
    records = {n.name: json.loads(n.attr["_tensorweave_py_func"].s) for n in meta.graph_def.node
               if "_tensorweave_py_func" in n.attr}
    assert records["PyFunc"] == {"name": "tests.train.test_saver:_double", "error": None}
    assert "<lambda>" in records["PyFunc_1"]["name"]
    assert "lambdas and nested functions" in records["PyFunc_1"]["error"]

    tf.reset_default_graph()
    with pytest.raises(ValueError, match="Op 'PyFunc' \\(type PyFunc\\) calls the Python function "
                                         "tests.train.test_saver:_double.*trusted_modules=\\['tests.train.test_saver'\\]"):
        tf.train.import_meta_graph(path + ".meta")
    tf.reset_default_graph()
    restorer = tf.train.import_meta_graph(path + ".meta", trusted_modules=["tests.train"])
    with tf.Session() as sess:
        restorer.restore(sess, path)
        np.testing.assert_array_equal(sess.run("y:0", {"x:0": [1.0, 2.0]}), expected)
        with pytest.raises(tf.errors.UnknownError,
                           match="py_func tests.train.test_saver:test_import_meta_graph_restores_py_func_by_"
                                 "qualified_name.<locals>.<lambda> of op 'PyFunc_1' could not be restored"):
            sess.run("z:0", {"x:0": [1.0, 2.0]})


def test_py_func_whose_module_lost_the_function_fails_clearly(tmp_path, monkeypatch):
    x = tf.placeholder(tf.float32, [2], name="x")
    tf.identity(tf.py_func(_double, [x], tf.float32), name="y")
    meta = tf.train.export_meta_graph(str(tmp_path / "g.meta"))
    assert json.loads(meta.graph_def.node[1].attr["_tensorweave_py_func"].s)["error"] is None
    tf.reset_default_graph()
    monkeypatch.delattr(__import__("tests.train.test_saver", fromlist=["_double"]), "_double")
    assert tf.train.import_meta_graph(str(tmp_path / "g.meta"), trusted_modules="tests.train.test_saver") is None
    with tf.Session() as sess:
        with pytest.raises(tf.errors.UnknownError, match="py_func tests.train.test_saver:_double .*AttributeError"):
            sess.run("y:0", {"x:0": [1.0, 2.0]})


_EVIL_MODULE = """
import os
open(os.path.join({d!r}, "imported.marker"), "w").close()


def payload(x):
    open(os.path.join({d!r}, "called.marker"), "w").close()
    return x
"""


def _crafted_meta(tmp_path, monkeypatch, edit):
    """A meta graph of `y = py_func(_double, [x])` whose nodes `edit` rewrites, with a module on sys.path
    that leaves marker files in `tmp_path` when it is imported or its `payload` is called."""
    module = "tw_evil_%s" % os.path.basename(str(tmp_path)).replace("-", "_")
    (tmp_path / (module + ".py")).write_text(_EVIL_MODULE.format(d=str(tmp_path)))
    monkeypatch.syspath_prepend(str(tmp_path))
    x = tf.placeholder(tf.float32, [2], name="x")
    tf.identity(tf.py_func(_double, [x], tf.float32, name="f"), name="y")
    meta = tf.train.export_meta_graph()
    for node in meta.graph_def.node:
        edit(node, module)
    path = tmp_path / "crafted.meta"
    path.write_bytes(meta.SerializeToString())
    tf.reset_default_graph()
    return str(path), module


def _no_marker(tmp_path, module):
    assert not os.path.exists(str(tmp_path / "imported.marker"))
    assert not os.path.exists(str(tmp_path / "called.marker"))
    assert module not in sys.modules


def test_crafted_py_func_in_a_meta_graph_runs_no_code(tmp_path, monkeypatch):
    def edit(node, module):
        if node.op == "PyFunc":
            node.attr["_tensorweave_py_func"].s = json.dumps({"name": module + ":payload", "error": None}).encode()
    path, module = _crafted_meta(tmp_path, monkeypatch, edit)
    with pytest.raises(ValueError, match="Op 'f' \\(type PyFunc\\) calls the Python function %s:payload: importing a "
                                         "meta graph imports and calls Python code only from modules the caller "
                                         "trusts. If this file is yours, pass trusted_modules=\\['%s'\\] to "
                                         "tf.train.import_meta_graph" % (module, module)):
        tf.train.import_meta_graph(path)
    _no_marker(tmp_path, module)
    # Trusting other modules (even a prefix of its name) does not trust it.
    tf.reset_default_graph()
    with pytest.raises(ValueError, match="calls the Python function %s:payload" % module):
        tf.train.import_meta_graph(path, trusted_modules=["tests", module[:-1], "tw"])
    _no_marker(tmp_path, module)
    # The caller's opt-in imports the module and runs the function.
    tf.reset_default_graph()
    tf.train.import_meta_graph(path, trusted_modules=[module])
    assert os.path.exists(str(tmp_path / "imported.marker"))
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run("y:0", {"x:0": [1.0, 2.0]}), [1.0, 2.0])
    assert os.path.exists(str(tmp_path / "called.marker"))


@pytest.mark.parametrize("name", ["os:system", "tests.train.test_saver:os.system", "tests.train.test_saver:np.save",
                                  "tests.train.test_saver:_double.__globals__", "tests.train.test_saver:json.loads"])
def test_a_trusted_module_only_gives_its_own_functions(tmp_path, monkeypatch, name):
    def edit(node, module):
        if node.op == "PyFunc":
            node.attr["_tensorweave_py_func"].s = json.dumps({"name": name, "error": None}).encode()
    path, _ = _crafted_meta(tmp_path, monkeypatch, edit)
    tf.train.import_meta_graph(path, trusted_modules=["os", "tests"])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.UnknownError, match="py_func %s of op 'f' could not be restored from the meta "
                                                         "graph: .*is not a function defined in module"
                                                         % name.replace(".", "\\.")):
            sess.run("y:0", {"x:0": [1.0, 2.0]})


def test_a_crafted_py_func_token_does_not_reach_the_graphs_own_functions(tmp_path, monkeypatch):
    calls = []

    def mine(a):
        calls.append(1)
        return a

    def edit(node, module):
        if node.op == "PyFunc":
            del node.attr["_tensorweave_py_func"]
    path, _ = _crafted_meta(tmp_path, monkeypatch, edit)
    x = tf.placeholder(tf.float32, [2], name="x0")
    tf.py_func(mine, [x], tf.float32)
    token = tf.get_default_graph().get_operations()[-1].get_attr("token")
    meta = tf.train.MetaGraphDef.FromString(open(path, "rb").read())
    for node in meta.graph_def.node:
        if node.op == "PyFunc":
            node.attr["token"].s = token.encode()
    tf.train.import_meta_graph(meta)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.UnknownError, match="records no function"):
            sess.run("y:0", {"x:0": [1.0, 2.0]})
    assert calls == []


_INJECTED_ATTR = "q=(open(%r, 'w').close())) #"


def test_a_crafted_attr_name_runs_no_code(tmp_path):
    marker = str(tmp_path / "injected.marker")
    x = tf.placeholder(tf.float32, [3], name="x")
    tf.cumsum(x, name="y")
    meta = tf.train.export_meta_graph()
    for node in meta.graph_def.node:
        if node.name == "y":
            node.attr[_INJECTED_ATTR % marker].i = 1
    tf.reset_default_graph()
    # An attr name is only compared with the kernel's parameter names: an unknown one is ignored.
    tf.train.import_meta_graph(meta)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run("y:0", {"x:0": [1.0, 2.0, 3.0]}), [1.0, 3.0, 6.0])
    assert not os.path.exists(marker)
    # Compiled plans never put an attr name into their source, whatever the graph holds.
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [3], name="x")
    axis = tf.constant(0)
    y = tf.get_default_graph()._create_op("Cumsum", [x, axis], {"exclusive": False, "reverse": False,
                                                                 _INJECTED_ATTR % marker: 1}, "y")._outputs[0]
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="unexpected keyword argument"):
            sess.run(y, {x: [1.0, 2.0, 3.0]})
    assert not os.path.exists(marker)


def test_import_with_scope_and_into_a_nonempty_graph(tmp_path):
    v = tf.Variable([3.0], name="v")
    tf.identity(v * 2.0, name="out")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "m"))
    g = tf.Graph()
    with g.as_default():
        tf.constant(0.0, name="out")
        scoped = tf.train.import_meta_graph(path + ".meta", import_scope="imported")
        plain = tf.train.import_meta_graph(path + ".meta")
        assert scoped.saver_def.restore_op_name == "imported/save/restore_all"
        assert g.get_tensor_by_name("imported/out:0").op.type == "Identity"
        assert g.get_tensor_by_name("out_1:0").op.type == "Identity"
        assert sorted(v.name for v in tf.global_variables()) == ["imported/v:0", "v:0"]
    with tf.Session(graph=g) as sess:
        scoped.restore(sess, path)
        plain.restore(sess, path)
        assert sess.run("imported/out:0") == [6.0] and sess.run("out_1:0") == [6.0]


def test_export_meta_graph_details(tmp_path):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    x2 = tf.placeholder(tf.float32, name="x2")
    x2.set_shape([4])
    with tf.device("/cpu:0"):
        c = tf.constant([[1.0, np.nan], [np.inf, -0.0]], name="c")
    tf.add(x, c, name="sum")
    tf.add_to_collection("names", "hello")
    tf.add_to_collection("numbers", 3)
    tf.add_to_collection("objects", object())
    meta = tf.train.export_meta_graph(str(tmp_path / "g.meta"), as_text=True)
    assert meta.meta_info_def.tensorflow_version == "1.15.5"
    assert list(meta.collection_def["names"].bytes_list.value) == [b"hello"]
    assert "objects" not in meta.collection_def
    tf.reset_default_graph()
    assert tf.train.import_meta_graph(str(tmp_path / "g.meta")) is None
    g = tf.get_default_graph()
    assert g.get_tensor_by_name("x2:0").shape.as_list() == [4]
    assert g.get_operation_by_name("c").device == c.op.device
    assert tf.get_collection("names") == [b"hello"] and tf.get_collection("numbers") == [3]
    with tf.Session() as sess:
        got = sess.run("sum:0", {"x:0": np.zeros((1, 2), np.float32)})
    np.testing.assert_array_equal(got, [[1.0, np.nan], [np.inf, 0.0]])
    cleared = tf.train.import_meta_graph(str(tmp_path / "g.meta"), clear_devices=True, import_scope="s")
    assert cleared is None and g.get_operation_by_name("s/c").device == ""


def test_meta_graph_errors(tmp_path):
    bad = tmp_path / "bad.meta"
    bad.write_bytes(b"\x08\x01binary proto")
    with pytest.raises(tf.errors.DataLossError,
                       match="Unable to parse %s as a MetaGraphDef" % str(bad).replace(".", "\\.")):
        tf.train.import_meta_graph(str(bad))
    meta = tf.train.export_meta_graph()
    meta.graph_def.node.add(name="n", op="NoSuchOp")
    with pytest.raises(tf.errors.NotFoundError, match="Op type not registered 'NoSuchOp' in binary running on "
                                                      "tensorweave \\(needed by op 'n'\\)"):
        tf.train.import_meta_graph(meta)
    del meta.graph_def.node[:]
    meta.graph_def.node.add(name="n", op="TensorweaveIf").attr["_tensorweave_node"].s = b'{"name": 3}'
    with pytest.raises(tf.errors.DataLossError, match="Meta graph <MetaGraphDef> holds a malformed node: "
                                                     "\\{'name': 3"):
        tf.train.import_meta_graph(meta)
    meta.graph_def.node[0].attr["_tensorweave_node"].s = b'{"name'
    with pytest.raises(tf.errors.DataLossError, match="attr _tensorweave_node of op 'n' is not JSON"):
        tf.train.import_meta_graph(meta)
    del meta.graph_def.node[:]
    with pytest.raises(TypeError, match="trusted_modules must hold module names \\(non-empty strings\\), got 3"):
        tf.train.import_meta_graph(meta, trusted_modules=["a", 3])
    with pytest.raises(TypeError, match="meta_graph_or_file must be a MetaGraphDef or the path of a .meta file"):
        tf.train.import_meta_graph(3)


def test_export_scope_strips_the_scope(tmp_path):
    with tf.name_scope("net"):
        a = tf.constant(2.0, name="a")
        tf.multiply(a, 3.0, name="m")
    tf.constant(1.0, name="outside")
    meta = tf.train.export_meta_graph(export_scope="net")
    assert [n.name for n in meta.graph_def.node] == ["a", "m/y", "m"]
    tf.reset_default_graph()
    tf.train.import_meta_graph(meta, import_scope="copy")
    with tf.Session() as sess:
        assert sess.run("copy/m:0") == 6.0
    with tf.name_scope("net2"):
        tf.multiply(tf.get_default_graph().get_tensor_by_name("copy/a:0"), 2.0, name="m")
    with pytest.raises(ValueError, match="Op 'net2/m' reads copy/a, which is outside the export scope 'net2'"):
        tf.train.export_meta_graph(export_scope="net2")


def test_ops_with_python_object_attrs_import_as_ops_failing_when_run(tmp_path):
    x = tf.placeholder(tf.float32, [2], name="x")
    g = tf.get_default_graph()
    odd = g._create_op("Identity", [x], {"python_object": object()}, "odd")._outputs[0]
    tf.add(odd, 1.0, name="uses_odd")
    tf.multiply(x, 2.0, name="fine")
    meta = tf.train.export_meta_graph(str(tmp_path / "g.meta"))
    node = [n for n in meta.graph_def.node if n.name == "odd"][0]
    assert node.op == "TensorweaveIdentity"
    assert json.loads(node.attr["_tensorweave_node"].s)["unserializable"] == \
        "attr 'python_object' holds a value of type builtins.object"
    tf.reset_default_graph()
    tf.train.import_meta_graph(str(tmp_path / "g.meta"))
    g = tf.get_default_graph()
    assert g.get_operation_by_name("odd").type == "Unrestorable"
    assert g.get_tensor_by_name("uses_odd:0").shape.as_list() == [2]
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run("fine:0", {"x:0": [1.0, 2.0]}), [2.0, 4.0])
        with pytest.raises(tf.errors.UnimplementedError,
                           match="Op 'odd' \\(type Identity\\) was not restored from the meta graph: attr "
                                 "'python_object' holds a value of type builtins.object"):
            sess.run("uses_odd:0", {"x:0": [1.0, 2.0]})


def test_import_meta_graph_and_restore_in_a_fresh_process(tmp_path):
    x = tf.placeholder(tf.float32, [2], name="x")
    v = tf.Variable([1.0, -1.0], name="v")
    tf.identity(tf.py_func(_double, [x * v], tf.float32), name="y")
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(v.assign([3.0, 4.0]))
        path = saver.save(sess, str(tmp_path / "m"), global_step=3)
    script = ("import tensorweave as tf\n"
              "saver = tf.train.import_meta_graph(tf.train.latest_checkpoint(%r) + '.meta',\n"
              "                                  trusted_modules=['tests.train.test_saver'])\n"
              "with tf.Session() as sess:\n"
              "    saver.restore(sess, tf.train.latest_checkpoint(%r))\n"
              "    print(sess.run('y:0', {'x:0': [1.0, 2.0]}).tolist())\n" % (str(tmp_path), str(tmp_path)))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, "-c", script], cwd=root, env=env, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[6.0, 16.0]"
    assert path.endswith("m-3")


def test_graph_mode_only(monkeypatch):
    tf.Variable(1.0, name="v")
    import tensorweave.eager.context as context
    monkeypatch.setattr(context, "executing_eagerly", lambda: True)
    with pytest.raises(RuntimeError, match="tf.train.Saver is not supported when eager execution is enabled"):
        tf.train.Saver()
    with pytest.raises(RuntimeError, match="Exporting/importing meta graphs is not supported when eager"):
        tf.train.export_meta_graph()
