"""MetaGraphDef as TensorFlow's protocol buffer: TF's golden (tests/data/make_tf_meta_graph.py) imports,
restores and trains here; tensorweave's own meta graphs (with tf.cond / tf.while_loop) round-trip; the
ops of TF's sharded saver; and the reader survives damaged files."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.ops import io_ops, string_ops
from tensorweave.train import meta_graph

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_meta_graph")
EXPECTED = json.load(open(os.path.join(DATA, "expected.json")))


@pytest.mark.parametrize("name", ["model.ckpt-0.meta", "model.pbtxt"])
def test_tensorflow_golden_imports_restores_and_trains(name):
    with tf.Graph().as_default():
        saver = tf.train.import_meta_graph(os.path.join(DATA, name))
        assert [v.name for v in tf.global_variables()] == ["w:0", "b:0", "global_step:0"]
        assert [v.name for v in tf.trainable_variables()] == ["w:0", "b:0"]
        assert tf.get_collection("my_numbers") == [3, 4]
        assert [t.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)] == ["loss_1:0"]
        train_op = tf.get_collection(tf.GraphKeys.TRAIN_OP)[0]
        with tf.Session() as sess:
            saver.restore(sess, os.path.join(DATA, "model.ckpt-0"))
            feed = {"x:0": EXPECTED["x"], "y:0": EXPECTED["y"]}
            np.testing.assert_allclose(sess.run("loss:0", feed), EXPECTED["loss_before"], rtol=1e-6)
            sess.run(train_op, feed)
            loss, w, b = sess.run(["loss:0", "w:0", "b:0"], feed)
            np.testing.assert_allclose(loss, EXPECTED["loss_after"], rtol=1e-6)
            np.testing.assert_allclose(w, EXPECTED["w_after"], rtol=1e-6)
            np.testing.assert_allclose(b, EXPECTED["b_after"], rtol=1e-6)
            assert sess.run(tf.train.get_global_step()) == EXPECTED["global_step_after"]


def test_export_is_tensorflows_message_with_saver_def_and_collections(tmp_path):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable(np.ones((2, 1), np.float32), name="w")
    loss = tf.reduce_sum(tf.matmul(x, w), name="loss")
    step = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=step)
    tf.add_to_collection(tf.GraphKeys.TRAIN_OP, train)
    tf.summary.scalar("loss", loss)
    tf.add_to_collection("floats", 0.5)
    saver = tf.train.Saver(max_to_keep=3)
    meta = saver.export_meta_graph(str(tmp_path / "m.meta"), strip_default_attrs=True)
    from tensorboard.compat.proto import meta_graph_pb2, variable_pb2
    assert isinstance(meta, meta_graph_pb2.MetaGraphDef)
    assert meta_pb_from(tmp_path / "m.meta") == meta
    sd = meta.saver_def
    assert (sd.filename_tensor_name, sd.save_tensor_name, sd.restore_op_name, sd.max_to_keep, sd.version) == \
        ("save/Const:0", "save/control_dependency:0", "save/restore_all", 3, 2)
    kinds = {k: v.WhichOneof("kind") for k, v in meta.collection_def.items()}
    assert kinds == {"variables": "bytes_list", "trainable_variables": "bytes_list", "global_step": "bytes_list",
                     "train_op": "node_list", "summaries": "node_list", "floats": "float_list"}
    vd = variable_pb2.VariableDef.FromString(meta.collection_def["trainable_variables"].bytes_list.value[0])
    assert (vd.variable_name, vd.initializer_name, vd.snapshot_name, vd.trainable) == ("w:0", "w/Assign", "w/read:0",
                                                                                       True)
    assert meta.meta_info_def.tensorflow_git_version.startswith("tensorweave-")
    # as_text writes the text format, which reads back to the same message.
    tf.train.export_meta_graph(str(tmp_path / "m.pbtxt"), as_text=True, saver_def=saver.as_saver_def())
    assert meta_graph.read_meta_graph_file(str(tmp_path / "m.pbtxt")).saver_def == sd


def meta_pb_from(path):
    return meta_graph.read_meta_graph_file(str(path))


def test_round_trip_with_cond_and_while_loop_and_training(tmp_path):
    x = tf.placeholder(tf.float32, [3], name="x")
    v = tf.Variable([1.0, 2.0, 3.0], name="v")
    c = tf.cond(tf.reduce_sum(x) > 0.0, lambda: x * v, lambda: x - v)
    _, w = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0), [tf.constant(0), c])
    y = tf.reduce_sum(w, name="y")
    train = tf.train.GradientDescentOptimizer(0.01).minimize(y, name="train")
    tf.add_to_collection(tf.GraphKeys.TRAIN_OP, train)
    saver = tf.train.Saver()
    feed = [1.0, 2.0, -0.5]
    with tf.Session() as sess:
        sess.run(v.initializer)
        path = saver.save(sess, str(tmp_path / "m"))
        before = sess.run(y, {x: feed})
        sess.run(train, {x: feed})
        after = sess.run(v)
    meta = meta_graph.read_meta_graph_file(path + ".meta")
    assert any(n.op == "TensorweaveIf" for n in meta.graph_def.node)
    assert any(n.op == "TensorweaveWhile" for n in meta.graph_def.node)
    with tf.Graph().as_default():
        restorer = tf.train.import_meta_graph(path + ".meta")
        with tf.Session() as sess:
            restorer.restore(sess, path)
            assert sess.run("y:0", {"x:0": feed}) == before
            sess.run(tf.get_collection(tf.GraphKeys.TRAIN_OP)[0], {"x:0": feed})
            np.testing.assert_array_equal(sess.run(tf.global_variables()[0]), after)


def test_sharded_save_ops():
    with tf.Session() as sess:
        assert sess.run(io_ops.sharded_filename("a/b", 1, 3)) == b"a/b-00001-of-00003"
        assert sess.run(string_ops.string_join(["a", ["x", "y"]], separator="-")).tolist() == [b"a-x", b"a-y"]
        assert sess.run(string_ops.static_regex_full_match(["s3://a", "/tmp"], "^s3://.*")).tolist() == [True, False]
        r0, r1 = sess.run(tf.get_default_graph()._create_op(
            "BroadcastGradientArgs", [tf.constant([5, 1]), tf.constant([1])], {}, "bga")._outputs)
        assert r0.tolist() == [1] and r1.tolist() == [0, 1]
        with pytest.raises(tf.errors.InvalidArgumentError, match="Input shapes do not match: \\[2\\] vs. \\[3\\]"):
            p = tf.placeholder(tf.string, [None])
            sess.run(string_ops.string_join([p, tf.constant(["a", "b", "c"])]), {p: ["a", "b"]})
    with pytest.raises(ValueError, match="Invalid pattern: \\(, error"):
        string_ops.static_regex_full_match("a", "(")


def test_merge_v2_checkpoints_writes_one_data_file_per_shard(tmp_path):
    a = np.arange(3, dtype=np.float32)
    b = np.ones((2, 2), np.int64)
    with tf.Session() as sess:
        p0, p1 = str(tmp_path / "tmp" / "part-0"), str(tmp_path / "tmp" / "part-1")
        os.makedirs(str(tmp_path / "tmp"))
        sess.run(io_ops.save_v2(p0, ["a"], [""], [a]))
        sess.run(io_ops.save_v2(p1, ["b"], [""], [b]))
        sess.run(io_ops.merge_v2_checkpoints([p0, p1], str(tmp_path / "ckpt")))
    assert sorted(os.listdir(str(tmp_path))) == ["ckpt.data-00000-of-00002", "ckpt.data-00001-of-00002", "ckpt.index"]
    reader = tf.train.load_checkpoint(str(tmp_path / "ckpt"))
    np.testing.assert_array_equal(reader.get_tensor("a"), a)
    np.testing.assert_array_equal(reader.get_tensor("b"), b)


def _tensorweave_meta_graph_bytes():
    """A tensorweave meta graph with TensorweaveIf/TensorweaveWhile records, variables, a train op."""
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        w = tf.Variable(np.ones((2, 3), np.float32), name="w")
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.matmul(x, w), lambda: tf.matmul(x, w) * 2.0)
        _, total = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * 2.0), [0, tf.reduce_sum(y)])
        tf.train.GradientDescentOptimizer(0.1).minimize(total)
        tf.add_to_collection("my_numbers", 3)
        return tf.train.Saver().export_meta_graph().SerializeToString()


# What a damaged file may raise: DataLossError (undecodable or inconsistent data) or
# InvalidArgumentError (a graph TF's importer would refuse too: an unknown input, a missing attr,
# shapes an op refuses), NotFoundError for an op type that is not registered (as TF) and
# UnimplementedError where TF says so too (a cycle, resource variables). Never a bare
# ValueError/TypeError/KeyError/IndexError from inside the importer.
_FILE_ERRORS = (tf.errors.DataLossError, tf.errors.InvalidArgumentError, tf.errors.NotFoundError,
                tf.errors.UnimplementedError)


@pytest.mark.parametrize("source", ["tensorflow", "tensorweave"])
def test_fuzzed_meta_graph_files_raise_data_loss_or_invalid_argument(tmp_path, source):
    if source == "tensorflow":
        data = open(os.path.join(DATA, "model.ckpt-0.meta"), "rb").read()
    else:
        data = _tensorweave_meta_graph_bytes()
    rng = np.random.RandomState(0)
    path = str(tmp_path / "f.meta")
    cases = [data[:n] for n in rng.randint(0, len(data), 60)]
    for _ in range(240):
        b = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            i = rng.randint(len(b))
            b[i] ^= 1 << rng.randint(8)
        cases.append(bytes(b))
    for case in cases:
        with open(path, "wb") as f:
            f.write(case)
        with tf.Graph().as_default():
            try:
                tf.train.import_meta_graph(path)
            except _FILE_ERRORS as e:
                assert path in e.message or "<MetaGraphDef>" not in e.message, e.message
            except Exception as e:  # noqa: BLE001 (the test reports any other class)
                pytest.fail("damaged meta graph raised %s: %s" % (type(e).__name__, e))


def _golden():
    return meta_graph.read_meta_graph_file(os.path.join(DATA, "model.ckpt-0.meta"))


def test_inconsistent_meta_graph_raises_invalid_argument_naming_the_file(tmp_path):
    path = str(tmp_path / "m.meta")

    def write_and_import(meta):
        with open(path, "wb") as f:
            f.write(meta.SerializeToString())
        with tf.Graph().as_default():
            tf.train.import_meta_graph(path)

    meta = _golden()
    node = next(n for n in meta.graph_def.node if n.op == "MatMul")
    node.input[0] = "no_such_node"
    with pytest.raises(tf.errors.InvalidArgumentError, match="Meta graph %s cannot be imported: Node '%s': Unknown "
                       "input node 'no_such_node'" % (path, node.name)):
        write_and_import(meta)
    meta = _golden()
    node = next(n for n in meta.graph_def.node if n.op == "Const")
    del node.attr["value"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Meta graph %s cannot be imported: NodeDef '%s' "
                       "\\(op Const\\) is missing attr 'value'" % (path, node.name)):
        write_and_import(meta)
    meta = _golden()
    meta.collection_def["my_numbers"].Clear()
    meta.collection_def["my_numbers"].node_list.value.append("no_op_here:0")
    with pytest.raises(tf.errors.DataLossError, match="Meta graph %s is damaged: it names 'no_op_here:0', which is "
                       "not in its graph" % path):
        write_and_import(meta)
    meta = _golden()
    meta.collection_def["my_numbers"].Clear()
    meta.collection_def["my_numbers"].node_list.value.append("zeros_1:7")
    with pytest.raises(tf.errors.InvalidArgumentError, match="Meta graph %s cannot be imported: The name 'zeros_1:7' "
                       "refers to a Tensor which does not exist" % path):
        write_and_import(meta)
    meta = _golden()
    meta.graph_def.node[0].op = "NoSuchOp"
    with pytest.raises(tf.errors.NotFoundError, match="Op type not registered 'NoSuchOp' in binary running on "
                       "tensorweave"):
        write_and_import(meta)
    meta = _golden()
    meta.saver_def.restore_op_name = "nowhere"
    with pytest.raises(tf.errors.DataLossError, match="Meta graph %s is damaged: it names 'nowhere'" % path):
        write_and_import(meta)
