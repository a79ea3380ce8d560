"""tf.saved_model.signature_def_utils and utils: SignatureDef / TensorInfo protocol buffers."""

import numpy as np
import pytest

import tensorweave as tf

pytest.importorskip("tensorboard.compat.proto.meta_graph_pb2")
from tensorboard.compat.proto import meta_graph_pb2, types_pb2  # noqa: E402

sm = tf.saved_model


def test_build_tensor_info_dense():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    info = sm.utils.build_tensor_info(x)
    assert isinstance(info, meta_graph_pb2.TensorInfo)
    assert info.name == "x:0" and info.dtype == types_pb2.DT_FLOAT
    assert [d.size for d in info.tensor_shape.dim] == [-1, 4] and not info.tensor_shape.unknown_rank
    u = sm.build_tensor_info(tf.placeholder(tf.int64, name="u"))
    assert u.dtype == types_pb2.DT_INT64 and u.tensor_shape.unknown_rank


def test_build_tensor_info_bytes_equal_tensorflow():
    # The bytes TF 2.21 writes for build_tensor_info(tf.placeholder(tf.float32, [None, 4], name="x")).
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    assert sm.build_tensor_info(x).SerializeToString() == b"\n\x03x:0\x10\x01\x1a\x11\x12\x0b\x08\xff\xff\xff\xff" \
        b"\xff\xff\xff\xff\xff\x01\x12\x02\x08\x04"


def test_build_tensor_info_sparse_and_round_trip():
    sp = tf.SparseTensor(tf.constant([[0, 0]], tf.int64), tf.constant([1.5]), tf.constant([2, 3], tf.int64))
    info = sm.build_tensor_info(sp)
    assert info.WhichOneof("encoding") == "coo_sparse"
    back = sm.get_tensor_from_tensor_info(info)
    assert isinstance(back, tf.SparseTensor) and back.values is sp.values and back.indices is sp.indices
    x = tf.placeholder(tf.float32, [2], name="x")
    assert sm.utils.get_tensor_from_tensor_info(sm.build_tensor_info(x)) is x


def test_get_tensor_from_tensor_info_scope_and_errors():
    with tf.name_scope("outer"):
        x = tf.placeholder(tf.float32, [2], name="x")
    info = meta_graph_pb2.TensorInfo(name="x:0", dtype=types_pb2.DT_FLOAT)
    assert sm.get_tensor_from_tensor_info(info, import_scope="outer") is x
    with pytest.raises(KeyError, match="does not exist"):
        sm.get_tensor_from_tensor_info(info)
    with pytest.raises(ValueError, match="Invalid TensorInfo.encoding: None"):
        sm.get_tensor_from_tensor_info(meta_graph_pb2.TensorInfo(dtype=types_pb2.DT_FLOAT))


def test_build_tensor_info_errors():
    with pytest.raises(TypeError, match="expects a Tensor or SparseTensor"):
        sm.build_tensor_info(3.0)
    tf.enable_eager_execution()
    try:
        with pytest.raises(RuntimeError, match="`build_tensor_info` is not supported in eager execution."):
            sm.build_tensor_info(tf.constant(1.0))
    finally:
        tf.disable_eager_execution()


def test_predict_signature_def():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.identity(x, name="y")
    sig = sm.predict_signature_def({"x": x}, {"y": y})
    assert sig.method_name == "tensorflow/serving/predict"
    assert sig.inputs["x"].name == "x:0" and sig.outputs["y"].name == "y:0"
    assert sm.is_valid_signature(sig)
    with pytest.raises(ValueError, match="Prediction `inputs` cannot be None or empty."):
        sm.predict_signature_def({}, {"y": y})
    with pytest.raises(ValueError, match="Prediction `outputs` cannot be None or empty."):
        sm.predict_signature_def({"x": x}, None)


def test_classification_signature_def():
    ex = tf.placeholder(tf.string, [None], name="examples")
    classes = tf.placeholder(tf.string, [None, 3], name="classes")
    scores = tf.placeholder(tf.float32, [None, 3], name="scores")
    sig = sm.classification_signature_def(ex, classes, scores)
    assert sig.method_name == sm.CLASSIFY_METHOD_NAME
    assert set(sig.outputs) == {"classes", "scores"} and sig.inputs["inputs"].name == "examples:0"
    assert sm.is_valid_signature(sig)
    only_scores = sm.signature_def_utils.classification_signature_def(ex, None, scores)
    assert set(only_scores.outputs) == {"scores"} and sm.is_valid_signature(only_scores)
    floats = tf.placeholder(tf.float32, [None], name="f")
    with pytest.raises(ValueError, match="Classification `examples` cannot be None."):
        sm.classification_signature_def(None, classes, scores)
    with pytest.raises(ValueError, match="Classification `examples` must be a string Tensor. Found `examples` of"):
        sm.classification_signature_def("x", classes, scores)
    with pytest.raises(ValueError, match="Classification `classes` and `scores` cannot both be None."):
        sm.classification_signature_def(ex, None, None)
    with pytest.raises(ValueError, match="Classification input tensors must be of type string. Found tensors "
                                         "of type 1"):
        sm.classification_signature_def(floats, classes, scores)
    with pytest.raises(ValueError, match="Classification classes must be of type string Tensor."):
        sm.classification_signature_def(ex, scores, scores)
    with pytest.raises(ValueError, match="Classification scores must be a float Tensor."):
        sm.classification_signature_def(ex, classes, classes)


def test_regression_signature_def():
    ex = tf.placeholder(tf.string, [None], name="examples")
    pred = tf.placeholder(tf.float32, [None, 1], name="pred")
    sig = sm.regression_signature_def(ex, pred)
    assert sig.method_name == sm.REGRESS_METHOD_NAME and sm.is_valid_signature(sig)
    assert sig.inputs[sm.REGRESS_INPUTS].name == "examples:0" and sig.outputs[sm.REGRESS_OUTPUTS].name == "pred:0"
    with pytest.raises(ValueError, match="Regression `examples` cannot be None."):
        sm.regression_signature_def(None, pred)
    with pytest.raises(ValueError, match="Expected regression `examples` to be of type Tensor."):
        sm.regression_signature_def([1], pred)
    with pytest.raises(ValueError, match="Regression `predictions` cannot be None."):
        sm.regression_signature_def(ex, None)
    with pytest.raises(ValueError, match="Regression input tensors must be of type string."):
        sm.regression_signature_def(pred, pred)
    with pytest.raises(ValueError, match="Regression output tensors must be of type float."):
        sm.regression_signature_def(ex, tf.placeholder(tf.float64, [None]))


def test_is_valid_signature():
    assert not sm.is_valid_signature(None)
    assert not sm.is_valid_signature(meta_graph_pb2.SignatureDef(method_name=sm.PREDICT_METHOD_NAME))
    ex = tf.placeholder(tf.string, [None], name="examples")
    pred = tf.placeholder(tf.float32, [None], name="pred")
    bad = sm.build_signature_def({"inputs": sm.build_tensor_info(ex)}, {"other": sm.build_tensor_info(pred)},
                                 sm.CLASSIFY_METHOD_NAME)
    assert not sm.is_valid_signature(bad)
    bad_regress = sm.build_signature_def({"inputs": sm.build_tensor_info(pred)},
                                         {"outputs": sm.build_tensor_info(pred)}, sm.REGRESS_METHOD_NAME)
    assert not sm.is_valid_signature(bad_regress)


def test_build_signature_def_defaults():
    x = tf.placeholder_with_default(tf.constant([1.0, 2.0]), [2], name="x")
    default = tf.constant(np.array([1.0, 2.0], np.float32), name="d")
    sig = sm.build_signature_def({"x": sm.build_tensor_info(x)}, None, "m", defaults={"x": default})
    proto = sig.defaults["x"]
    assert proto.dtype == types_pb2.DT_FLOAT and [d.size for d in proto.tensor_shape.dim] == [2]
    assert np.frombuffer(proto.tensor_content, "<f4").tolist() == [1.0, 2.0]
    s = sm.build_signature_def(defaults={"s": tf.constant(["a", "bc"])}).defaults["s"]
    assert list(s.string_val) == [b"a", b"bc"]
    with pytest.raises(ValueError, match="Unable to convert object .* to TensorProto."):
        sm.build_signature_def(defaults={"x": x})


def test_op_signature_def_round_trip():
    from tensorweave.saved_model import signature_def_utils
    op = tf.no_op(name="init_all")
    sig = signature_def_utils.op_signature_def(op, "__saved_model_init_op")
    info = sig.outputs["__saved_model_init_op"]
    assert info.name == "init_all" and info.dtype == types_pb2.DT_INVALID and info.tensor_shape.unknown_rank
    assert signature_def_utils.load_op_from_signature_def(sig, "__saved_model_init_op") is op
    with pytest.raises(tf.errors.NotFoundError, match='The key "__saved_model_init_op" could not be found'):
        signature_def_utils.load_op_from_signature_def(sig, "__saved_model_init_op", import_scope="elsewhere")


def test_supervised_signatures():
    from tensorweave.saved_model import signature_def_utils
    x = tf.placeholder(tf.float32, [None], name="x")
    loss = tf.reduce_sum(x, name="loss")
    sig = signature_def_utils.supervised_train_signature_def({"x": x}, {"loss": loss})
    assert sig.method_name == "tensorflow/supervised/training" and set(sig.outputs) == {"loss"}
    ev = signature_def_utils.supervised_eval_signature_def({"x": x}, {"loss": loss}, predictions={"p": x})
    assert ev.method_name == "tensorflow/supervised/eval" and set(ev.outputs) == {"loss", "p"}
    with pytest.raises(ValueError, match="tensorflow/supervised/training `inputs` cannot be None or empty."):
        signature_def_utils.supervised_train_signature_def(None, {"loss": loss})


def test_constants():
    assert (sm.SERVING, sm.TRAINING, sm.GPU, sm.TPU) == ("serve", "train", "gpu", "tpu")
    assert sm.tag_constants.EVAL == "eval"
    assert sm.DEFAULT_SERVING_SIGNATURE_DEF_KEY == "serving_default"
    assert (sm.ASSETS_KEY, sm.MAIN_OP_KEY, sm.LEGACY_INIT_OP_KEY) == ("saved_model_assets", "saved_model_main_op",
                                                                       "legacy_init_op")
    assert (sm.SAVED_MODEL_FILENAME_PB, sm.VARIABLES_DIRECTORY, sm.VARIABLES_FILENAME) == ("saved_model.pb",
                                                                                            "variables", "variables")
    assert sm.constants.INIT_OP_SIGNATURE_KEY == "__saved_model_init_op"
    import tensorweave.compat.v1 as v1
    assert v1.saved_model.signature_constants is sm.signature_constants
