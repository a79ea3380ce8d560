"""tf.saved_model builder and loader: the SavedModel protocol buffer, argument checks, error paths,
round trips and damaged files."""

import os

import pytest

import tensorweave as tf

pytest.importorskip("tensorboard.compat.proto.meta_graph_pb2")
from tensorboard.compat.proto import meta_graph_pb2  # noqa: E402

from tensorweave.saved_model import _protos  # noqa: E402
from tensorweave.saved_model import builder as builder_lib  # noqa: E402
from tensorweave.saved_model import loader as loader_lib  # noqa: E402

sm = tf.saved_model
GOLDEN = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_saved_model", "model")


def _pb_bytes():
    with open(os.path.join(GOLDEN, "saved_model.pb"), "rb") as f:
        return f.read()


# ---- the SavedModel message --------------------------------------------------------------------
def test_saved_model_message_is_tensorflows():
    cls = _protos.saved_model_class()
    assert cls(saved_model_schema_version=1).SerializeToString() == b"\x08\x01"
    data = _pb_bytes()
    msg = cls.FromString(data)
    assert msg.saved_model_schema_version == 1 and len(msg.meta_graphs) == 1
    assert isinstance(msg.meta_graphs[0], meta_graph_pb2.MetaGraphDef)
    assert list(msg.meta_graphs[0].meta_info_def.tags) == ["serve"]
    assert msg.SerializeToString(deterministic=True) == data  # byte for byte what TF wrote
    assert _protos.saved_model_class() is cls


def test_parse_saved_model_golden_and_text(tmp_path):
    msg = loader_lib.parse_saved_model(GOLDEN)
    assert msg.meta_graphs[0].signature_def["serving_default"].inputs["x"].name == "x:0"
    from google.protobuf import text_format
    (tmp_path / "saved_model.pbtxt").write_text(text_format.MessageToString(msg))
    assert loader_lib.parse_saved_model(str(tmp_path)) == msg
    assert sm.maybe_saved_model_directory(str(tmp_path)) and sm.loader.maybe_saved_model_directory(GOLDEN)
    assert sm.contains_saved_model(tmp_path)


def test_missing_saved_model(tmp_path):
    assert not sm.maybe_saved_model_directory(str(tmp_path))
    with pytest.raises(IOError, match="SavedModel file does not exist at: .*saved_model.pbtxt|saved_model.pb"):
        with tf.Session() as sess:
            sm.loader.load(sess, ["serve"], str(tmp_path))


def test_damaged_text_file(tmp_path):
    (tmp_path / "saved_model.pbtxt").write_text("meta_graphs { bogus: 1 }")
    with pytest.raises(tf.errors.DataLossError, match="Cannot parse file .*saved_model.pbtxt"):
        loader_lib.parse_saved_model(str(tmp_path))


def test_unknown_schema_version(tmp_path):
    (tmp_path / "saved_model.pb").write_bytes(_protos.saved_model_class()(saved_model_schema_version=7)
                                              .SerializeToString())
    with pytest.raises(tf.errors.InvalidArgumentError, match="has schema version 7; this reader knows version 1"):
        loader_lib.parse_saved_model(str(tmp_path))


def test_tags_not_found(tmp_path):
    with tf.Session() as sess:
        with pytest.raises(RuntimeError, match="MetaGraphDef associated with tags 'train' could not be found in "
                                               "SavedModel, with available tags '\\[\\{'serve'\\}\\]'"):
            sm.loader.load(sess, ["train"], GOLDEN)
        with pytest.raises(TypeError, match="tags must be a list or set of strings"):
            sm.loader.load(sess, "serve", GOLDEN)


def test_asset_name_outside_assets_dir(tmp_path):
    meta = meta_graph_pb2.MetaGraphDef()
    meta.asset_file_def.add(filename="../../etc/passwd").tensor_info.name = "a:0"
    with pytest.raises(tf.errors.InvalidArgumentError, match="is not a file of its assets directory"):
        loader_lib.get_asset_tensors(str(tmp_path), meta)
    ok = meta_graph_pb2.MetaGraphDef()
    ok.asset_file_def.add(filename="vocab.txt").tensor_info.name = "a:0"
    assert loader_lib.get_asset_tensors("/m", ok, import_scope="s") == {"s/a:0": os.path.join("/m", "assets",
                                                                                           "vocab.txt")}


def test_asset_collection_of_another_type(tmp_path):
    meta = meta_graph_pb2.MetaGraphDef()
    meta.collection_def[sm.ASSETS_KEY].any_list.value.add().Pack(meta_graph_pb2.TensorInfo(name="x:0"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="is a type.googleapis.com/.*TensorInfo, not an "
                                                             "AssetFileDef"):
        loader_lib.get_asset_tensors(str(tmp_path), meta)


def test_init_op_collection_with_two_ops():
    meta = meta_graph_pb2.MetaGraphDef()
    meta.collection_def[sm.MAIN_OP_KEY].node_list.value.extend(["a", "b"])
    with pytest.raises(RuntimeError, match="Expected exactly one SavedModel init op. Found 2"):
        loader_lib.get_init_op(meta)


# ---- builder argument checks -------------------------------------------------------------------
def test_export_dir_not_empty(tmp_path):
    (tmp_path / "x").write_text("")
    with pytest.raises(AssertionError, match="already exists, and isn't empty"):
        sm.builder.SavedModelBuilder(str(tmp_path))
    b = sm.Builder(str(tmp_path / "new" / "dir"))
    assert os.path.isdir(tmp_path / "new" / "dir") and isinstance(b, builder_lib.SavedModelBuilder)


def test_builder_checks(tmp_path):
    b = sm.builder.SavedModelBuilder(str(tmp_path / "m"))
    with pytest.raises(AssertionError, match="has not been saved yet. Please invoke "
                                             "`add_meta_graph_and_variables\\(\\)` first."):
        b.add_meta_graph(["serve"])
    x = tf.placeholder(tf.float32, [1], name="x")
    good = sm.predict_signature_def({"x": x}, {"y": x})
    with tf.Session() as sess:
        for key in ("__saved_model_init_op", "__saved_model_train_op"):
            with pytest.raises(KeyError, match='SignatureDef map key "%s" is reserved' % key):
                b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={key: good})
        no_dtype = meta_graph_pb2.SignatureDef()
        no_dtype.inputs["x"].name = "x:0"
        with pytest.raises(AssertionError, match="must have the dtype field set"):
            b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={"s": no_dtype})
        no_name = meta_graph_pb2.SignatureDef()
        no_name.outputs["y"].dtype = 1
        with pytest.raises(AssertionError, match="must have one of the 'encoding' fields"):
            b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={"s": no_name})
        with pytest.raises(TypeError, match="must be a SignatureDef protocol buffer, got dict"):
            b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={"s": {}})
        with pytest.raises(TypeError, match="tags must be a list or set of strings"):
            b.add_meta_graph_and_variables(sess, "serve")
        with pytest.raises(TypeError, match="to be an Operation but got type"):
            b.add_meta_graph_and_variables(sess, ["serve"], main_op=x)
        tf.add_to_collection(sm.LEGACY_INIT_OP_KEY, tf.no_op())
        with pytest.raises(ValueError, match="Graph already contains one or more main ops under the collection "
                                             "legacy_init_op."):
            b.add_meta_graph_and_variables(sess, ["serve"], main_op=tf.no_op())


def test_asset_tensor_checks(tmp_path):
    b = sm.builder.SavedModelBuilder(str(tmp_path / "m"))
    with tf.Session() as sess:
        with pytest.raises(TypeError, match="must be a Tensor"):
            b.add_meta_graph_and_variables(sess, ["serve"], assets_collection=["file.txt"])
        with pytest.raises(TypeError, match="must be of type constant"):
            b.add_meta_graph_and_variables(sess, ["serve"], assets_collection=[tf.placeholder(tf.string)])
        with pytest.raises(TypeError, match="must be of dtype string"):
            b.add_meta_graph_and_variables(sess, ["serve"], assets_collection=[tf.constant(1.0)])
        with pytest.raises(TypeError, match="must be a scalar"):
            b.add_meta_graph_and_variables(sess, ["serve"], assets_collection=[tf.constant(["a", "b"])])
        with pytest.raises(ValueError, match="Asset filepath tensor .* is invalid"):
            b.add_meta_graph_and_variables(sess, ["serve"], assets_collection=[tf.constant("")])


def test_asset_filename_dedup(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for d, text in ((a, "1"), (b, "2"), (c, "1")):
        d.mkdir()
        (d / "v.txt").write_text(text)
    seen = {}
    for path in (a / "v.txt", b / "v.txt", c / "v.txt"):
        name = builder_lib._asset_filename_to_add(str(path), seen)
        seen.setdefault(name, str(path))
    assert sorted(seen) == ["v.txt", "v.txt_1"]


def test_main_op():
    v = tf.Variable(1.0, name="v")
    lv = tf.Variable(2.0, name="lv", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    op = sm.main_op.main_op()
    with tf.Session() as sess:
        sess.run(op)
        assert sess.run([v, lv]) == [1.0, 2.0]
    restore = tf.no_op(name="restore_all")
    grouped = sm.main_op_with_restore("restore_all")
    assert restore in grouped.control_inputs or any(restore in o.control_inputs for o in [grouped])
