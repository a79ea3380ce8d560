"""SavedModels written here load here; the one TensorFlow 2.21 wrote (tests/data/make_tf_saved_model.py)
loads and runs its signature with TF's outputs; damaged files raise DataLossError or
InvalidArgumentError."""

import json
import os
import shutil

import numpy as np
import pytest

import tensorweave as tf

pytest.importorskip("tensorboard.compat.proto.meta_graph_pb2")

sm = tf.saved_model
DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_saved_model")
GOLDEN = os.path.join(DATA, "model")


def _run_signature(sess, meta, feeds, key="serving_default"):
    sig = meta.signature_def[key]
    fetches = {k: sm.get_tensor_from_tensor_info(v, sess.graph) for k, v in sig.outputs.items()}
    return sess.run(fetches, {sm.get_tensor_from_tensor_info(sig.inputs[k], sess.graph): v for k, v in feeds.items()})


def test_tensorflow_golden_loads_and_runs(tmp_path):
    # Copy it elsewhere: the loader must feed the asset tensor the path of the copy, not TF's original path.
    export_dir = str(tmp_path / "model")
    shutil.copytree(GOLDEN, export_dir)
    x = np.load(os.path.join(DATA, "x.npy"))
    expected = np.load(os.path.join(DATA, "expected.npz"))
    with open(os.path.join(DATA, "golden.json")) as f:
        info = json.load(f)
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        meta = sm.loader.load(sess, [sm.tag_constants.SERVING], export_dir)
        assert meta.signature_def["serving_default"].method_name == info["method_name"]
        got = _run_signature(sess, meta, {"x": x})
        for k in ("logits", "probs", "scaled"):
            np.testing.assert_allclose(got[k], expected[k], rtol=1e-6, atol=1e-7)
        assert got["asset_path"].decode() == os.path.join(export_dir, "assets", "vocab.txt")
        assert sorted(v.op.name for v in tf.global_variables()) == info["variables"]


def test_simple_save_round_trip(tmp_path):
    export_dir = str(tmp_path / "m")
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\nb\n")
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]], name="w")
    b = tf.Variable([0.5], name="b")
    asset = tf.constant(str(vocab), name="asset")
    tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, asset)
    path_var = tf.Variable(asset, trainable=False, collections=[tf.GraphKeys.LOCAL_VARIABLES], name="path")
    y = tf.add(tf.matmul(x, w), b, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(b.assign([1.5]))
        sm.simple_save(sess, export_dir, {"x": x}, {"y": y, "path": path_var.value()},
                       legacy_init_op=tf.local_variables_initializer())
    vocab.unlink()
    assert sorted(os.listdir(export_dir)) == ["assets", "saved_model.pb", "variables"]
    assert os.listdir(os.path.join(export_dir, "assets")) == ["vocab.txt"]
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        meta = sm.load(sess, ["serve"], export_dir)
        got = _run_signature(sess, meta, {"x": [[1.0, 1.0]]})
        np.testing.assert_array_equal(got["y"], [[4.5]])
        assert got["path"].decode() == os.path.join(export_dir, "assets", "vocab.txt")
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        meta = sm.load(sess, ["serve"], export_dir, import_scope="imported")
        sig = meta.signature_def["serving_default"]
        y2 = sm.get_tensor_from_tensor_info(sig.outputs["y"], import_scope="imported")
        assert y2.name == "imported/y:0"
        assert sess.run(y2, {"imported/x:0": [[2.0, 0.0]]}).tolist() == [[3.5]]


def test_builder_several_meta_graphs_and_text(tmp_path):
    export_dir = str(tmp_path / "m")
    builder = sm.builder.SavedModelBuilder(export_dir)
    with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
        v = tf.Variable(3.0, name="v")
        x = tf.placeholder(tf.float32, [], name="x")
        out = tf.multiply(x, v, name="out")
        sess.run(v.initializer)
        builder.add_meta_graph_and_variables(sess, ["serve"], {"serving_default": sm.predict_signature_def(
            {"x": x}, {"out": out})})
        with pytest.raises(AssertionError, match="has already been saved. Please invoke `add_meta_graph\\(\\)`"):
            builder.add_meta_graph_and_variables(sess, ["x"])
    with tf.Graph().as_default():
        v = tf.Variable(0.0, name="v")
        x = tf.placeholder(tf.float32, [], name="x")
        out = tf.add(x, v, name="out")
        builder.add_meta_graph(["train", "gpu"], {"add": sm.predict_signature_def({"x": x}, {"out": out})})
    path = builder.save(as_text=True)
    assert path == os.path.join(export_dir, "saved_model.pbtxt")
    for tags, key, expected in ((["serve"], "serving_default", 6.0), (["gpu", "train"], "add", 5.0)):
        with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
            meta = sm.loader.load(sess, tags, export_dir)
            assert float(_run_signature(sess, meta, {"x": 2.0}, key)["out"]) == expected


def test_loaded_model_runs_in_tensorflow_layout(tmp_path):
    """The file layout and the meta graph's pieces are TensorFlow's."""
    export_dir = str(tmp_path / "m")
    x = tf.placeholder(tf.float32, [None], name="x")
    v = tf.Variable(2.0, name="v")
    with tf.Session() as sess:
        sess.run(v.initializer)
        sm.simple_save(sess, export_dir, {"x": x}, {"y": x * v})
    msg = sm.loader.parse_saved_model(export_dir)
    meta = msg.meta_graphs[0]
    assert msg.saved_model_schema_version == 1 and list(meta.meta_info_def.tags) == ["serve"]
    assert meta.saver_def.restore_op_name and meta.graph_def.node
    assert tf.train.list_variables(os.path.join(export_dir, "variables", "variables")) == [("v", [])]


@pytest.mark.parametrize("damage", ["truncate", "flip"])
def test_damaged_saved_model_pb(tmp_path, damage):
    with open(os.path.join(GOLDEN, "saved_model.pb"), "rb") as f:
        data = f.read()
    rng = np.random.RandomState(0 if damage == "truncate" else 1)
    outcomes = set()
    for trial in range(60):
        export_dir = tmp_path / ("m%d" % trial)
        shutil.copytree(GOLDEN, export_dir)
        if damage == "truncate":
            bad = data[:rng.randint(0, len(data))]
        else:
            buf = bytearray(data)
            for _ in range(rng.randint(1, 4)):
                i = rng.randint(len(buf))
                buf[i] ^= 1 << rng.randint(8)
            bad = bytes(buf)
        (export_dir / "saved_model.pb").write_bytes(bad)
        with tf.Graph().as_default() as g, tf.Session(graph=g) as sess:
            try:
                meta = sm.loader.load(sess, ["serve"], str(export_dir))
            except (tf.errors.DataLossError, tf.errors.InvalidArgumentError, tf.errors.NotFoundError) as e:
                outcomes.add(type(e).__name__)
                continue
            except RuntimeError as e:  # the damage changed the tag: the message says which tags there are
                assert "could not be found in SavedModel" in str(e)
                outcomes.add("RuntimeError")
                continue
            outcomes.add("loaded")
            assert meta.meta_info_def.tags
    assert "DataLossError" in outcomes
