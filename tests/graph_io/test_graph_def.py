"""GraphDef: goldens written by real TensorFlow 2.21 (tests/data/make_tf_graphs.py) import here and
give TF's outputs; tensorweave's GraphDefs round-trip; graph_util; write_graph; damaged input."""

import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.graph_io import graph_def as gd_mod

pytest.importorskip("tensorboard.compat.proto.graph_pb2")

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "graphs")


def _load(name):
    with open(os.path.join(DATA, name + ".pb"), "rb") as f:
        return tf.GraphDef.FromString(f.read())


def _npy(name):
    return np.load(os.path.join(DATA, name + ".npy"))


def test_tf_frozen_cnn_gives_tf_outputs():
    graph_def = _load("cnn")
    assert {"FusedBatchNormV3", "DepthwiseConv2dNative", "ConcatV2", "StridedSlice"} <= {n.op for n in graph_def.node}
    with tf.Graph().as_default() as g:
        probs, pooled = tf.import_graph_def(graph_def, return_elements=["probs:0", "pooled:0"], name="")
        with tf.Session(graph=g) as sess:
            p, q = sess.run([probs, pooled], {"input:0": _npy("cnn_input")})
    np.testing.assert_allclose(p, _npy("cnn_probs"), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(q, _npy("cnn_pooled"), rtol=1e-5, atol=1e-6)


def test_tf_mlp_with_input_map_and_default_prefix():
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [None, 6], name="my_x")
        y, op = tf.import_graph_def(_load("mlp"), input_map={"x": x}, return_elements=["y:0", "y"])
        assert y.name == "import/y:0" and op.name == "import/y"
        with tf.Session(graph=g) as sess:
            out = sess.run(y, {x: _npy("mlp_input")})
    np.testing.assert_allclose(out, _npy("mlp_y"), rtol=1e-5, atol=1e-6)


def test_unsupported_op_types_are_named():
    graph_def = _load("resize")
    for node in graph_def.node:
        if node.op == "ResizeBilinear":
            node.op = "UnregisteredOpForTest"
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.NotFoundError, match="Op type not registered 'UnregisteredOpForTest'"):
            tf.import_graph_def(graph_def)


def test_tf_resize_graph_runs():
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    with tf.Graph().as_default():
        (y,) = tf.import_graph_def(_load("resize"), return_elements=["y:0"])
        assert y.shape.as_list() == [1, 8, 8, 1]
        with tf.Session() as sess:
            out = sess.run(y, {"import/x:0": x})
    # TF's legacy bilinear sampling: source coordinate i * 4/8, clamped to the last row and column
    src = np.minimum(np.arange(8) * 0.5, 3.0)
    lo, frac = np.floor(src).astype(int), src - np.floor(src)
    hi = np.minimum(lo + 1, 3)
    rows = x[0, lo, :, 0] * (1 - frac)[:, None] + x[0, hi, :, 0] * frac[:, None]
    want = rows[:, lo] * (1 - frac) + rows[:, hi] * frac
    np.testing.assert_allclose(out[0, :, :, 0], want, rtol=1e-6)


def _cnn_graph():
    g = tf.Graph()
    rng = np.random.RandomState(0)
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 6, 6, 2], name="x")
        y = tf.nn.conv2d(x, tf.constant(rng.randn(3, 3, 2, 4).astype(np.float32)), [1, 1, 1, 1], "SAME")
        y = tf.nn.relu(tf.nn.bias_add(y, tf.constant(rng.randn(4).astype(np.float32))))
        y = tf.nn.max_pool(y, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        y = tf.reshape(y, [-1, 36])
        w = tf.Variable(rng.randn(36, 3).astype(np.float32), name="w")
        out = tf.nn.softmax(tf.matmul(y, w, transpose_a=False), name="out")
        tf.cast(out * 10, tf.int32, name="as_int")
    return g, x, out, w


def test_round_trip_of_tensorweave_graph_def():
    g, x, out, _ = _cnn_graph()
    graph_def = g.as_graph_def()
    conv = [n for n in graph_def.node if n.op == "Conv2D"][0]
    assert conv.attr["T"].type == tf.float32.as_datatype_enum
    assert conv.attr["padding"].s == b"SAME" and list(conv.attr["strides"].list.i) == [1, 1, 1, 1]
    cast = [n for n in graph_def.node if n.op == "Cast"][0]
    assert cast.attr["DstT"].type == tf.int32.as_datatype_enum
    feed = np.random.RandomState(1).randn(2, 6, 6, 2).astype(np.float32)
    with tf.Session(graph=g) as sess:
        sess.run(tf.global_variables_initializer())
        expected = sess.run(out, {x: feed})
        frozen = tf.graph_util.convert_variables_to_constants(sess, graph_def, ["out", "as_int"])
    assert "w" in [n.name for n in frozen.node if n.op == "Const"]
    assert not [n for n in frozen.node if n.op in ("VariableV2", "Assign")]
    with tf.Graph().as_default() as g2:
        (y,) = tf.import_graph_def(frozen, return_elements=["out:0"], name="frozen")
        with tf.Session(graph=g2) as sess:
            np.testing.assert_allclose(sess.run(y, {"frozen/x:0": feed}), expected, rtol=1e-6)


def test_unserializable_ops_are_recorded_as_unknown_types():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [], name="x")
        tf.cond(x > 0, lambda: x * 2.0, lambda: x, name="c")
    graph_def = g.as_graph_def()
    node = [n for n in graph_def.node if n.name == "c"][0]
    assert node.op == "TensorweaveIf"
    assert b"then_fn" in node.attr[gd_mod.UNSERIALIZABLE_ATTR].s
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.UnimplementedError, match="Op 'c' of type TensorweaveIf cannot be imported"):
            tf.import_graph_def(graph_def)


def test_import_graph_def_errors():
    graph_def = _load("mlp")
    with tf.Graph().as_default():
        with pytest.raises(TypeError, match="graph_def must be a GraphDef proto."):
            tf.import_graph_def("nope")
        with pytest.raises(TypeError, match="return_elements must be a list of strings."):
            tf.import_graph_def(graph_def, return_elements="y")
        with pytest.raises(TypeError, match="input_map must be a dictionary"):
            tf.import_graph_def(graph_def, input_map=[1])
        with pytest.raises(ValueError, match="Requested return_element 'nope:0' not found in graph_def."):
            tf.import_graph_def(graph_def, return_elements=["nope:0"])
        with pytest.raises(ValueError, match=r"Attempted to map inputs that were not found in graph_def: \[zz:0\]"):
            tf.import_graph_def(graph_def, input_map={"zz:0": tf.constant(1.0)})
    bad = tf.GraphDef()
    bad.node.add(name="a", op="Identity", input=["missing"])
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Node 'a': Unknown input node 'missing'"):
            tf.import_graph_def(bad)
    cyc = tf.GraphDef()
    cyc.node.add(name="a", op="Identity", input=["b"])
    cyc.node.add(name="b", op="Identity", input=["a"])
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.UnimplementedError, match="cycle through op"):
            tf.import_graph_def(cyc)
    dup = tf.GraphDef()
    dup.node.add(name="a", op="NoOp")
    dup.node.add(name="a", op="NoOp")
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="has two nodes named 'a'"):
            tf.import_graph_def(dup)
    missing_attr = tf.GraphDef()
    missing_attr.node.add(name="p", op="Placeholder")
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="NodeDef 'p' \\(op Placeholder\\) is missing attr 'dtype'"):
            tf.import_graph_def(missing_attr)


def test_damaged_constant_is_invalid_argument():
    graph_def = _load("mlp")
    const = [n for n in graph_def.node if n.op == "Const"][0]
    const.attr["value"].tensor.tensor_shape.dim[0].size = 10 ** 12
    with tf.Graph().as_default():
        with pytest.raises(tf.errors.InvalidArgumentError, match="attr 'value' of node '%s'" % const.name):
            tf.import_graph_def(graph_def)


def test_fuzzed_graph_defs_never_crash():
    data = open(os.path.join(DATA, "cnn.pb"), "rb").read()
    rng = np.random.RandomState(0)
    allowed = (tf.errors.DataLossError, tf.errors.InvalidArgumentError, tf.errors.NotFoundError,
               tf.errors.UnimplementedError, ValueError, TypeError)
    for i in range(150):
        b = bytearray(data)
        if i % 3 == 0:
            b = b[:rng.randint(len(b))]
        else:
            for _ in range(rng.randint(1, 4)):
                b[rng.randint(len(b))] ^= 1 << rng.randint(8)
        try:
            graph_def = gd_mod.parse_graph_def(bytes(b), "cnn.pb")
            with tf.Graph().as_default():
                tf.import_graph_def(graph_def)
        except allowed:
            pass


def test_parse_graph_def_names_the_file():
    with pytest.raises(tf.errors.DataLossError, match="Unable to parse bad.pb as a GraphDef"):
        gd_mod.parse_graph_def(b"\xff\xff\xff", "bad.pb")


def test_extract_sub_graph_and_remove_training_nodes():
    graph_def = tf.GraphDef()
    graph_def.node.add(name="a", op="Placeholder")
    graph_def.node.add(name="b", op="CheckNumerics", input=["a"])
    graph_def.node.add(name="c", op="Identity", input=["a", "^b"])
    graph_def.node.add(name="d", op="Identity", input=["a"])
    graph_def.node.add(name="e", op="Add", input=["c", "d"])
    graph_def.node.add(name="z", op="NoOp")
    sub = tf.graph_util.extract_sub_graph(graph_def, ["e"])
    assert [n.name for n in sub.node] == ["a", "b", "c", "d", "e"]
    assert [n.name for n in tf.graph_util.extract_sub_graph(graph_def, ["d"]).node] == ["a", "d"]
    with pytest.raises(AssertionError, match="q is not in graph"):
        tf.graph_util.extract_sub_graph(graph_def, ["q"])
    with pytest.raises(TypeError, match="dest_nodes must be a list."):
        tf.graph_util.extract_sub_graph(graph_def, "e")
    with pytest.raises(TypeError, match="graph_def must be a graph_pb2.GraphDef proto."):
        tf.graph_util.extract_sub_graph("x", ["e"])
    pruned = tf.graph_util.remove_training_nodes(graph_def, protected_nodes=["d"])
    assert [(n.name, list(n.input)) for n in pruned.node] == [("a", []), ("d", ["a"]), ("e", ["a", "d"]), ("z", [])]


def test_write_graph_text_and_binary(tmp_path):
    g, _, _, _ = _cnn_graph()
    path = tf.train.write_graph(g, str(tmp_path / "sub"), "g.pbtxt")
    assert path == str(tmp_path / "sub" / "g.pbtxt")
    text = open(path).read()
    assert 'op: "Conv2D"' in text
    path = tf.io.write_graph(g.as_graph_def(), str(tmp_path), "g.pb", as_text=False)
    parsed = tf.GraphDef.FromString(open(path, "rb").read())
    assert parsed == g.as_graph_def()
    assert sorted(os.listdir(tmp_path)) == ["g.pb", "sub"]
    assert gd_mod.parse_graph_def(text.encode(), "g.pbtxt") == g.as_graph_def()
    with pytest.raises(TypeError, match="graph_or_graph_def must be a Graph or a GraphDef"):
        tf.train.write_graph(3, str(tmp_path), "x")


def test_as_graph_def_from_version_is_not_supported():
    with pytest.raises(NotImplementedError, match="from_version"):
        tf.Graph().as_graph_def(from_version=1)
