"""tf.keras.applications against Keras Applications 1.0.8 run on tf-keras (goldens recorded by
tests/data/make_keras_applications_tf.py from the cases of tests/data/keras_applications_cases.py): layer and
weight names, weight shapes, parameter counts, outputs with the same seeded weights, a tf-keras weights file
loaded by topology; preprocess_input, decode_predictions and the offline ImageNet download error."""

import hashlib
import json
import os
import urllib.error
import urllib.request

import numpy as np
import pytest

import tensorweave as tf
from tensorweave import keras
from tensorweave.keras import applications
from tensorweave.keras import backend as K
from tensorweave.keras.applications import imagenet_utils
from tests.data import keras_applications_cases as cases

DATA = os.path.join(os.path.dirname(__file__), "..", "data")
with open(os.path.join(DATA, "keras_applications_tf.json")) as _f:
    META = json.load(_f)
OUTPUTS = dict(np.load(os.path.join(DATA, "keras_applications_tf.npz")))


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


@pytest.fixture
def offline(monkeypatch, tmp_path):
    """An empty Keras cache in a temporary home and a network that refuses every download."""
    monkeypatch.setenv("HOME", str(tmp_path))

    def refuse(url, *args, **kwargs):
        raise urllib.error.URLError("network is unreachable")

    monkeypatch.setattr(urllib.request, "urlretrieve", refuse)
    return tmp_path


def _build(case, **kwargs):
    module, fn, case_kwargs, _ = cases.CASES[case]
    return getattr(getattr(applications, module), fn)(weights=kwargs.pop("weights", None), **case_kwargs, **kwargs)


def _layer_weights(model):
    return [w for layer in model.layers for w in layer.weights]


def _seeded(model):
    return cases.weights([(w.name, tuple(w.shape.as_list())) for w in _layer_weights(model)])


@pytest.mark.parametrize("case", sorted(cases.CASES))
def test_architecture_matches_tf_keras(case):
    model = _build(case)
    want = META[case]
    assert model.name == want["model_name"]
    assert [layer.name for layer in model.layers] == want["layers"]
    assert [[w.name, w.shape.as_list()] for w in _layer_weights(model)] == want["weights"]
    assert len(model.trainable_weights) == want["trainable"]
    assert model.count_params() == want["params"]
    assert list(model.output_shape) == want["output_shape"]


@pytest.mark.parametrize("case", sorted(OUTPUTS))
def test_outputs_match_tf_keras(case):
    model = _build(case)
    cases.set_weights(model, _seeded(model))
    want = OUTPUTS[case]
    got = model.predict(cases.image(cases.CASES[case][2]["input_shape"]))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * max(1.0, np.abs(want).max()))


@pytest.mark.parametrize("case", ["mobilenet_top", "mobilenet_v2_top", "densenet121_max", "inception_v3_avg"])
def test_channels_first_matches_channels_last_goldens(case):
    module, fn, kwargs, _ = cases.CASES[case]
    h, w, c = kwargs["input_shape"]
    kwargs = dict(kwargs, input_shape=(c, h, w))
    old = K.image_data_format()
    K.set_image_data_format("channels_first")
    try:
        model = getattr(getattr(applications, module), fn)(weights=None, **kwargs)
    finally:
        K.set_image_data_format(old)
    assert [layer.name for layer in model.layers] == META[case]["layers"]
    cases.set_weights(model, _seeded(model))
    got = model.predict(cases.image((h, w, c)).transpose(0, 3, 1, 2))
    np.testing.assert_allclose(got, OUTPUTS[case], rtol=1e-4, atol=1e-5 * max(1.0, np.abs(OUTPUTS[case]).max()))


def test_tf_keras_weights_file_loads_by_topology():
    path = os.path.join(DATA, "keras_applications_%s.h5" % cases.H5_CASE)
    model = _build(cases.H5_CASE, weights=path)
    for got, want in zip(K.batch_get_value(_layer_weights(model)), _seeded(model)):
        np.testing.assert_array_equal(got, want)
    got = model.predict(cases.image(cases.CASES[cases.H5_CASE][2]["input_shape"]))
    np.testing.assert_allclose(got, OUTPUTS[cases.H5_CASE], rtol=1e-4, atol=1e-6)


def test_wired_as_tf_keras_applications():
    assert tf.keras.applications.ResNet50 is applications.resnet50.ResNet50
    assert tf.keras.applications.mobilenet_v2.preprocess_input(np.array([255.0]), mode="tf")[0] == 1.0
    assert tf.keras.applications.densenet.decode_predictions is imagenet_utils.decode_predictions
    assert tf.keras.applications.Xception is applications.xception.Xception


def test_input_tensor_keras_and_plain():
    inp = keras.Input((32, 32, 3))
    model = applications.VGG16(include_top=False, weights=None, input_tensor=inp, pooling="avg")
    assert model.inputs[0] is inp
    assert model.output_shape == (None, 512)
    K.clear_session()
    inp = keras.Input((32, 32, 3))
    scaled = keras.layers.Lambda(lambda t: t * 2.0)(inp)
    model = applications.ResNet50(include_top=False, weights=None, input_tensor=scaled, pooling="max")
    assert model.inputs == [inp]
    assert imagenet_utils._get_source_inputs(scaled)[0] is inp
    K.clear_session()
    plain = tf.placeholder(tf.float32, (2, 32, 32, 3))
    model = applications.MobileNet(include_top=False, weights=None, input_tensor=plain, alpha=0.25, pooling="max")
    assert model.output_shape == (2, 256)
    x = cases.image((32, 32, 3))
    np.testing.assert_allclose(K.get_session().run(model.outputs[0], {plain: x}), model.predict(x), rtol=1e-6)


def test_inputs_of_any_size_without_top():
    model = applications.MobileNetV2(include_top=False, weights=None, alpha=0.35)
    assert model.input_shape == (None, None, None, 3)
    assert model.name == "mobilenetv2_0.35_None"
    assert model.predict(np.zeros((1, 64, 96, 3), "float32")).shape == (1, 2, 3, 1280)


@pytest.mark.parametrize("build, kwargs, message", [
    (applications.VGG16, dict(weights="no/such/file.h5"), "The `weights` argument should be either"),
    (applications.ResNet50, dict(weights="imagenet", classes=10), "`classes` should be 1000"),
    (applications.VGG19, dict(weights=None, include_top=False, input_shape=(31, 40, 3)),
     "Input size must be at least 32x32; got `input_shape=(31, 40, 3)`"),
    (applications.InceptionV3, dict(weights=None, include_top=False, input_shape=(74, 80, 3)),
     "Input size must be at least 75x75"),
    (applications.Xception, dict(weights=None, include_top=False, input_shape=(70, 80, 3)),
     "Input size must be at least 71x71"),
    (applications.DenseNet121, dict(weights="imagenet", include_top=False, input_shape=(64, 64, 1)),
     "The input must have 3 channels"),
    (applications.VGG16, dict(weights="imagenet", input_shape=(64, 64, 3)), "`input_shape` should be (224, 224, 3)"),
    (applications.VGG16, dict(weights=None, include_top=False, input_shape=(64, 64)),
     "`input_shape` must be a tuple of three integers"),
    (applications.VGG16, dict(weights=None, include_top=True, input_shape=(None, None, 3)),
     "you should specify a static `input_shape`"),
    (applications.MobileNet, dict(weights="imagenet", alpha=0.3), "alpha can be one of"),
    (applications.MobileNet, dict(weights="imagenet", depth_multiplier=2), "depth multiplier must be 1"),
    (applications.MobileNetV2, dict(weights="imagenet", alpha=0.6), "alpha can be one of"),
])
def test_argument_errors(build, kwargs, message):
    with pytest.raises(ValueError) as e:
        build(**kwargs)
    assert message in str(e.value)


def test_densenet_imagenet_needs_known_blocks():
    with pytest.raises(ValueError, match=r"no 'imagenet' weights for DenseNet blocks \[1, 2, 3, 4\]"):
        applications.densenet.DenseNet([1, 2, 3, 4], weights="imagenet")
    model = applications.densenet.DenseNet([1, 1, 1, 1], weights=None, include_top=False, input_shape=(32, 32, 3))
    assert model.name == "densenet"
    assert model.output_shape == (None, 1, 1, 68)


def test_imagenet_weights_offline_error(offline):
    with pytest.raises(Exception) as e:
        applications.MobileNet(weights="imagenet", alpha=0.25, input_shape=(128, 128, 3))
    text = str(e.value)
    assert "URL fetch failure on https://github.com/fchollet/deep-learning-models/releases/download/v0.6/" \
           "mobilenet_2_5_128_tf.h5" in text
    assert "could not be downloaded" in text and "~/.keras/models/" in text
    assert not os.path.exists(os.path.join(str(offline), ".keras", "models", "mobilenet_2_5_128_tf.h5"))


def test_imagenet_weights_from_cache(offline):
    """A cached file of the right name and hash is loaded without network access."""
    src = os.path.join(DATA, "keras_applications_%s.h5" % cases.H5_CASE)
    models_dir = os.path.join(str(offline), ".keras", "models")
    os.makedirs(models_dir)
    with open(src, "rb") as f, open(os.path.join(models_dir, "mobilenet_2_5_224_tf_no_top.h5"), "wb") as g:
        g.write(f.read())
    with pytest.warns(UserWarning, match="Weights for input shape"):
        model = applications.MobileNet(weights="imagenet", alpha=0.25, include_top=False, input_shape=(32, 32, 3))
    assert model.name == "mobilenet_0.25_224"
    np.testing.assert_allclose(model.predict(cases.image((32, 32, 3))), OUTPUTS[cases.H5_CASE], rtol=1e-4, atol=1e-6)


def _rgb():
    return np.arange(2 * 2 * 3, dtype="float64").reshape(1, 2, 2, 3) * 20.0


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_preprocess_input_values(mode, data_format):
    x = _rgb()
    if mode == "tf":
        want = x / 127.5 - 1.0
    elif mode == "torch":
        want = (x / 255.0 - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]
    else:
        want = x[..., ::-1] - [103.939, 116.779, 123.68]
    if data_format == "channels_first":
        x, want = x.transpose(0, 3, 1, 2), want.transpose(0, 3, 1, 2)
    got = imagenet_utils.preprocess_input(x.copy(), data_format=data_format, mode=mode)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(imagenet_utils.preprocess_input(x[0].copy(), data_format=data_format, mode=mode),
                               want[0], rtol=1e-12, atol=1e-12)
    sym = imagenet_utils.preprocess_input(tf.constant(x.astype("float32")), data_format=data_format, mode=mode)
    np.testing.assert_allclose(K.get_session().run(sym), want, rtol=1e-5, atol=1e-4)


def test_preprocess_input_dtypes_and_in_place():
    ints = (_rgb()).astype("uint8")
    got = applications.vgg16.preprocess_input(ints)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, ints[..., ::-1].astype("float32") - np.float32([103.939, 116.779, 123.68]),
                               rtol=1e-6)
    x = _rgb().astype("float32")
    out = applications.mobilenet.preprocess_input(x)
    assert out is x
    np.testing.assert_allclose(x, _rgb() / 127.5 - 1, rtol=1e-6)
    np.testing.assert_allclose(applications.densenet.preprocess_input(np.full((1, 1, 1, 3), 255.0)).ravel(),
                               (1 - np.array([0.485, 0.456, 0.406])) / [0.229, 0.224, 0.225], rtol=1e-12)


def test_preprocess_input_errors():
    with pytest.raises(ValueError, match="Unknown data_format channels_middle"):
        imagenet_utils.preprocess_input(_rgb(), data_format="channels_middle")
    with pytest.raises(ValueError, match="Unknown preprocessing mode 'keras'"):
        imagenet_utils.preprocess_input(_rgb(), mode="keras")


def _class_index(monkeypatch, home):
    index = {str(i): ["n%08d" % i, "class_%d" % i] for i in range(1000)}
    data = json.dumps(index).encode()
    models_dir = os.path.join(str(home), ".keras", "models")
    os.makedirs(models_dir, exist_ok=True)
    with open(os.path.join(models_dir, "imagenet_class_index.json"), "wb") as f:
        f.write(data)
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", None)
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX_HASH", hashlib.md5(data).hexdigest())


def test_decode_predictions_values(monkeypatch, offline):
    _class_index(monkeypatch, offline)
    preds = np.zeros((2, 1000), "float32")
    preds[0, [3, 999, 10]] = [0.5, 0.3, 0.2]
    preds[1, 7] = 1.0
    got = applications.resnet50.decode_predictions(preds, top=3)
    assert got[0] == [("n00000003", "class_3", np.float32(0.5)), ("n00000999", "class_999", np.float32(0.3)),
                      ("n00000010", "class_10", np.float32(0.2))]
    assert got[1][0] == ("n00000007", "class_7", np.float32(1.0))
    assert len(got[1]) == 3
    assert len(imagenet_utils.decode_predictions(preds)[0]) == 5


def test_decode_predictions_errors(monkeypatch, offline):
    with pytest.raises(ValueError, match=r"Found array with shape: \(2, 10\)"):
        imagenet_utils.decode_predictions(np.zeros((2, 10)))
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX", None)
    with pytest.raises(Exception, match="URL fetch failure on https://storage.googleapis.com/download.tensorflow.org"
                                        "/data/imagenet_class_index.json"):
        imagenet_utils.decode_predictions(np.zeros((1, 1000)))
