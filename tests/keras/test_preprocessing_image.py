"""tf.keras.preprocessing.image against Keras-Preprocessing 1.1.0 goldens
(tests/data/make_keras_preprocessing_tf.py), seeded like Keras through NumPy's global generator."""

import json
import os
import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras.preprocessing import image

pytest.importorskip("PIL")
pytest.importorskip("scipy")
from PIL import Image  # noqa: E402

_DATA = os.path.join(os.path.dirname(__file__), "..", "data")
with open(os.path.join(_DATA, "keras_preprocessing_tf.json")) as _f:
    GOLD = json.load(_f)
ARR = dict(np.load(os.path.join(_DATA, "keras_preprocessing_tf.npz")))
IMG = ARR["img"]


def test_namespace():
    assert tf.keras.preprocessing.image.ImageDataGenerator is image.ImageDataGenerator
    assert isinstance(image.ImageDataGenerator().flow(np.zeros((2, 3, 3, 1))), tf.keras.utils.Sequence)


@pytest.mark.parametrize("name", sorted(GOLD["affine"]))
def test_apply_affine_transform_golden(name):
    res = image.apply_affine_transform(IMG, **GOLD["affine"][name])
    np.testing.assert_allclose(res, ARR["affine_" + name], rtol=1e-5, atol=1e-3)


def test_affine_channels_first_channel_shift_brightness_golden():
    cf = np.ascontiguousarray(IMG.transpose(2, 0, 1))
    np.testing.assert_allclose(image.apply_affine_transform(cf, theta=30, row_axis=1, col_axis=2, channel_axis=0),
                               ARR["affine_cf_rotate"], rtol=1e-5, atol=1e-3)
    np.testing.assert_allclose(image.apply_channel_shift(IMG, 40.0, channel_axis=2), ARR["channel_shift"])
    np.testing.assert_array_equal(image.apply_brightness_shift(IMG, 1.4), ARR["brightness"])
    assert image.apply_affine_transform(IMG) is IMG


@pytest.mark.parametrize("name", sorted(GOLD["random_transform"]))
def test_get_random_transform_golden(name):
    case = GOLD["random_transform"][name]
    params = image.ImageDataGenerator(**case["kwargs"]).get_random_transform(tuple(case["shape"]), seed=case["seed"])
    assert params.keys() == case["params"].keys()
    for key, value in case["params"].items():
        if value is None:
            assert params[key] is None
        else:
            np.testing.assert_allclose(float(params[key]), value, rtol=1e-12, err_msg=key)


def test_random_transform_golden():
    gen = image.ImageDataGenerator(**GOLD["random_transform"]["full"]["kwargs"])
    np.testing.assert_allclose(gen.random_transform(IMG.copy(), seed=7), ARR["random_transform_full"], atol=1e-3)


def test_flow_seeded_golden():
    x, y, sw = ARR["flow_x"], ARR["flow_y"], ARR["flow_sw"]
    it = image.ImageDataGenerator(**GOLD["flow_kwargs"]).flow(x, y, batch_size=4, seed=13, sample_weight=sw)
    assert len(it) == 3
    for i in range(4):
        bx, by, bw = next(it)
        np.testing.assert_allclose(bx, ARR["flow_next%d_x" % i], rtol=1e-4, atol=1e-4)
        np.testing.assert_array_equal(by, ARR["flow_next%d_y" % i])
        np.testing.assert_array_equal(bw, ARR["flow_next%d_w" % i])
    it = image.ImageDataGenerator(**GOLD["flow_kwargs"]).flow(x, y, batch_size=4, seed=13)
    bx, by = it[2]
    np.testing.assert_allclose(bx, ARR["flow_item2_x"], rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(by, ARR["flow_item2_y"])


def test_flow_validation_split_golden():
    x = ARR["flow_x"]
    ysplit = np.array([0, 1] * 5)
    gen = image.ImageDataGenerator(validation_split=0.3, horizontal_flip=True)
    for subset, key in (("validation", "split_val"), ("training", "split_train")):
        bx, by = next(gen.flow(x, ysplit, batch_size=10, seed=2, subset=subset))
        np.testing.assert_allclose(bx, ARR[key + "_x"])
        np.testing.assert_array_equal(by, ARR[key + "_y"])


def test_fit_golden():
    x = ARR["flow_x"]
    gen = image.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True)
    gen.fit(x)
    np.testing.assert_allclose(gen.mean, ARR["fit_mean"], rtol=1e-5)
    np.testing.assert_allclose(gen.std, ARR["fit_std"], rtol=1e-5)
    np.testing.assert_allclose(gen.standardize(x[0].copy()), ARR["fit_standardized"], rtol=1e-4, atol=1e-5)
    with pytest.warns(UserWarning, match="overrides setting of `featurewise_center`"):
        zca = image.ImageDataGenerator(zca_whitening=True, zca_epsilon=1e-3)
    zca.fit(ARR["zca_x"])
    np.testing.assert_allclose(zca.principal_components, ARR["zca_components"], rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(zca.standardize(ARR["zca_x"][1].copy()), ARR["zca_standardized"], rtol=1e-3,
                               atol=1e-3)
    aug = image.ImageDataGenerator(featurewise_center=True, rotation_range=30, horizontal_flip=True)
    aug.fit(x, augment=True, rounds=2, seed=4)
    np.testing.assert_allclose(aug.mean, ARR["fit_augment_mean"], rtol=1e-5)


def _write_dir(tmp_path):
    for cls, names in GOLD["dir_files"].items():
        for j, fname in enumerate(names):
            path = tmp_path / cls / fname
            path.parent.mkdir(parents=True, exist_ok=True)
            Image.fromarray(ARR["dir_%s_%d" % (cls, j)], "RGB").save(str(path))
    (tmp_path / "dogs" / "notes.txt").write_text("not an image")


@pytest.mark.parametrize("name", sorted(GOLD["directory"]))
def test_flow_from_directory_golden(tmp_path, name, capsys):
    _write_dir(tmp_path)
    case = GOLD["directory"][name]
    gen = image.ImageDataGenerator(rescale=1.0 / 255, horizontal_flip=True, validation_split=0.4)
    it = gen.flow_from_directory(str(tmp_path), **case["kwargs"])
    assert "Found %d images belonging to" % len(case["filenames"]) in capsys.readouterr().out
    assert [f.replace(os.sep, "/") for f in it.filenames] == case["filenames"]
    assert it.classes.tolist() == case["classes"] and it.class_indices == case["class_indices"]
    assert len(it) == case["len"]
    batch = next(it)
    if case["kwargs"].get("class_mode", "categorical") is None:
        np.testing.assert_allclose(batch, ARR["dir_%s_x" % name], rtol=1e-6)
    else:
        np.testing.assert_allclose(batch[0], ARR["dir_%s_x" % name], rtol=1e-6)
        np.testing.assert_allclose(batch[1], ARR["dir_%s_y" % name], rtol=1e-6)


def test_flow_from_directory_save_to_dir(tmp_path):
    _write_dir(tmp_path / "data")
    (tmp_path / "out").mkdir()
    it = image.ImageDataGenerator().flow_from_directory(str(tmp_path / "data"), target_size=(4, 4), batch_size=2,
                                                        shuffle=False, save_to_dir=str(tmp_path / "out"),
                                                        save_prefix="aug")
    bx, _ = next(it)
    saved = sorted(os.listdir(tmp_path / "out"))
    assert len(saved) == 2 and all(f.startswith("aug_") and f.endswith(".png") for f in saved)
    back = image.img_to_array(image.load_img(str(tmp_path / "out" / saved[0])))
    assert back.shape == (4, 4, 3)


def test_load_save_array_roundtrip(tmp_path):
    px = np.arange(4 * 6 * 3, dtype=np.uint8).reshape(4, 6, 3) * 3
    path = str(tmp_path / "a.png")
    image.save_img(path, px.astype("float32"), scale=False)
    img = image.load_img(path)
    assert img.size == (6, 4) and img.mode == "RGB"
    np.testing.assert_array_equal(image.img_to_array(img), px)
    assert image.img_to_array(img, data_format="channels_first").shape == (3, 4, 6)
    gray = image.load_img(path, color_mode="grayscale", target_size=(2, 3), interpolation="bilinear")
    assert gray.size == (3, 2) and gray.mode == "L"
    np.testing.assert_array_equal(image.img_to_array(gray), np.asarray(Image.open(path).convert("L").resize(
        (3, 2), Image.BILINEAR), "float32")[..., None])
    assert image.load_img(path, color_mode="rgba").mode == "RGBA"
    with pytest.warns(UserWarning, match="grayscale is deprecated"):
        assert image.load_img(path, grayscale=True).mode == "L"
    # scale=True maps [min, max] (min clipped at 0 from below) to [0, 255]
    x = np.array([[[-1.0], [1.0]]])
    np.testing.assert_array_equal(np.asarray(image.array_to_img(x)), [[0, 255]])
    np.testing.assert_array_equal(np.asarray(image.array_to_img(np.ones((1, 2, 4)) * 9, scale=False)),
                                  np.full((1, 2, 4), 9))
    with pytest.warns(UserWarning, match="The JPG format does not support RGBA images, converting to RGB."):
        image.save_img(str(tmp_path / "b.jpg"), np.ones((2, 2, 4)) * 100, file_format="jpeg")
    assert image.load_img(str(tmp_path / "b.jpg")).size == (2, 2)
    assert [f for f in os.listdir(tmp_path) if f.startswith(".tmp")] == []


def test_random_helpers_seeded():
    cf = np.ascontiguousarray(IMG.transpose(2, 0, 1))
    np.random.seed(3)
    theta = np.random.uniform(-40, 40)
    np.random.seed(3)
    np.testing.assert_allclose(image.random_rotation(cf, 40),
                               image.apply_affine_transform(cf, theta=theta, row_axis=1, col_axis=2, channel_axis=0))
    np.random.seed(4)
    tx, ty = np.random.uniform(-0.2, 0.2) * 7, np.random.uniform(-0.1, 0.1) * 9
    np.random.seed(4)
    np.testing.assert_allclose(image.random_shift(cf, 0.1, 0.2),
                               image.apply_affine_transform(cf, tx=tx, ty=ty, row_axis=1, col_axis=2, channel_axis=0))
    np.random.seed(5)
    shear = np.random.uniform(-15, 15)
    np.random.seed(5)
    np.testing.assert_allclose(image.random_shear(cf, 15),
                               image.apply_affine_transform(cf, shear=shear, row_axis=1, col_axis=2, channel_axis=0))
    np.random.seed(6)
    zx, zy = np.random.uniform(0.7, 1.2, 2)
    np.random.seed(6)
    np.testing.assert_allclose(image.random_zoom(cf, (0.7, 1.2)),
                               image.apply_affine_transform(cf, zx=zx, zy=zy, row_axis=1, col_axis=2, channel_axis=0))
    np.random.seed(7)
    shift = np.random.uniform(-30, 30)
    np.random.seed(7)
    np.testing.assert_allclose(image.random_channel_shift(cf, 30), image.apply_channel_shift(cf, shift))
    np.random.seed(8)
    factor = np.random.uniform(0.5, 1.5)
    np.random.seed(8)
    np.testing.assert_array_equal(image.random_brightness(IMG, (0.5, 1.5)), image.apply_brightness_shift(IMG, factor))
    np.testing.assert_array_equal(image.random_zoom(cf, (1, 1)), cf)


def test_standardize_and_flips_without_fit():
    gen = image.ImageDataGenerator(featurewise_center=True, preprocessing_function=lambda v: v + 1.0, rescale=0.5)
    with pytest.warns(UserWarning, match="hasn't been fit on any training data"):
        np.testing.assert_allclose(gen.standardize(np.full((2, 2, 1), 3.0)), np.full((2, 2, 1), 2.0))
    gen = image.ImageDataGenerator(horizontal_flip=True, vertical_flip=True)
    out = gen.apply_transform(IMG, {"flip_horizontal": True, "flip_vertical": True})
    np.testing.assert_array_equal(out, IMG[::-1, ::-1])
    x = np.arange(24, dtype="float32").reshape(1, 2, 3, 4)
    batch = next(image.ImageDataGenerator(data_format="channels_first", vertical_flip=True).flow(
        np.repeat(x, 3, axis=0)[:, :1], batch_size=3, shuffle=False, seed=0))
    assert batch.shape == (3, 1, 3, 4)
    np.random.seed(0)  # reseeded once per batch; each image draws (horizontal, vertical) flips in turn
    flips = [np.random.random() < 0.5 for _ in range(6)][1::2]
    assert all(np.array_equal(b, x[0, :1, ::-1] if f else x[0, :1]) for b, f in zip(batch, flips))


def test_flow_misc_inputs_and_shuffle_order():
    x = np.arange(5 * 2 * 2 * 1, dtype="float32").reshape(5, 2, 2, 1)
    misc = np.arange(5) * 10
    it = image.ImageDataGenerator().flow((x, misc), np.arange(5), batch_size=2, shuffle=True, seed=1)
    (bx, bm), by = it[0]
    np.random.seed(1)
    order = np.random.permutation(5)
    np.testing.assert_array_equal(by, order[:2])
    np.testing.assert_array_equal(bm, order[:2] * 10)
    np.testing.assert_array_equal(bx, x[order[:2]])
    with pytest.raises(ValueError, match="Asked to retrieve element 3, but the Sequence has length 3"):
        it[3]


def test_image_errors():
    with pytest.raises(ValueError, match="`data_format` should be `\"channels_last\"`"):
        image.ImageDataGenerator(data_format="nhwc")
    with pytest.raises(ValueError, match="`validation_split` must be strictly between 0 and 1.  Received: 1.5"):
        image.ImageDataGenerator(validation_split=1.5)
    with pytest.raises(ValueError, match="`zoom_range` should be a float or a tuple or list of two floats"):
        image.ImageDataGenerator(zoom_range=[0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="`brightness_range should be tuple or list of two floats"):
        image.ImageDataGenerator(brightness_range=0.5)
    with pytest.raises(ValueError, match="`zoom_range` should be a tuple or list of two floats"):
        image.random_zoom(IMG, [0.5])
    with pytest.raises(ValueError, match="`brightness_range should be tuple or list of two floats"):
        image.random_brightness(IMG, [0.5])
    with pytest.raises(ValueError, match=r"Input to `.fit\(\)` should have rank 4"):
        image.ImageDataGenerator(featurewise_center=True).fit(np.zeros((2, 3, 3)))
    gen = image.ImageDataGenerator(validation_split=0.5)
    with pytest.raises(ValueError, match="should have rank 4"):
        gen.flow(np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match=r"`x` \(images tensor\) and `y` \(labels\) should have the same length"):
        gen.flow(np.zeros((2, 3, 3, 1)), [1])
    with pytest.raises(ValueError, match="`x` \\(images tensor\\) and `sample_weight` should have the same length"):
        gen.flow(np.zeros((2, 3, 3, 1)), [1, 2], sample_weight=[1.0])
    with pytest.raises(ValueError, match="All of the arrays in `x` should have the same length"):
        gen.flow((np.zeros((2, 3, 3, 1)), np.zeros(3)))
    with pytest.raises(ValueError, match='Invalid subset name: test; expected "training" or "validation"'):
        gen.flow(np.zeros((2, 3, 3, 1)), subset="test")
    with pytest.raises(ValueError, match="Training and validation subsets have different number of classes"):
        gen.flow(np.zeros((4, 3, 3, 1)), np.array([0, 0, 1, 1]), subset="training")
    with pytest.raises(ValueError, match="Expected image array to have rank 3"):
        image.array_to_img(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="Unsupported channel number: 2"):
        image.array_to_img(np.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="Invalid data_format: nchw"):
        image.array_to_img(np.zeros((2, 2, 1)), data_format="nchw")
    with pytest.raises(ValueError, match="Unknown data_format: nchw"):
        image.img_to_array(np.zeros((2, 2)), data_format="nchw")
    with pytest.raises(ValueError, match="Unsupported image shape"):
        image.img_to_array(np.zeros((2, 2, 2, 2)))


def test_file_errors(tmp_path):
    path = str(tmp_path / "a.png")
    image.save_img(path, np.zeros((2, 2, 3)))
    with pytest.raises(ValueError, match='color_mode must be "grayscale", "rgb", or "rgba"'):
        image.load_img(path, color_mode="cmyk")
    with pytest.raises(ValueError, match="Invalid interpolation method cubic specified"):
        image.load_img(path, target_size=(3, 3), interpolation="cubic")
    with pytest.raises(ValueError, match="Unknown image file extension"):
        image.save_img(str(tmp_path / "a.unknownext"), np.zeros((2, 2, 3)))
    gen = image.ImageDataGenerator(validation_split=0.5)
    with pytest.raises(ValueError, match='Invalid color mode: cmyk; expected "rgb", "rgba", or "grayscale".'):
        gen.flow_from_directory(str(tmp_path), color_mode="cmyk")
    with pytest.raises(ValueError, match="Invalid class_mode: other; expected one of"):
        gen.flow_from_directory(str(tmp_path), class_mode="other")
    with pytest.raises(ValueError, match='Invalid subset name: test; expected "training" or "validation"'):
        gen.flow_from_directory(str(tmp_path), subset="test")


def test_missing_extras_raise_import_error_naming_them(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)
    monkeypatch.setitem(sys.modules, "scipy", None)
    with pytest.raises(ImportError, match=r"pip install tensorweave\[image\]"):
        image.array_to_img(np.zeros((2, 2, 3)))
    with pytest.raises(ImportError, match=r"pip install tensorweave\[special\]"):
        image.apply_affine_transform(IMG, theta=10)
    # flips and channel shifts need neither extra
    gen = image.ImageDataGenerator(horizontal_flip=True, channel_shift_range=5.0)
    assert gen.random_transform(IMG.copy(), seed=1).shape == IMG.shape


def test_flow_feeds_model_fit():
    x = ARR["flow_x"][:8] / 255.0
    y = np.eye(2, dtype="float32")[np.arange(8) % 2]
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(6, 5, 3)),
                                 tf.keras.layers.Dense(2, activation="softmax")])
    model.compile("sgd", "categorical_crossentropy")
    before = model.get_weights()[0].copy()
    it = image.ImageDataGenerator(horizontal_flip=True).flow(x, y, batch_size=4, seed=1)
    history = model.fit_generator(it, steps_per_epoch=len(it), epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2 and np.isfinite(history.history["loss"]).all()
    assert not np.allclose(model.get_weights()[0], before)
    assert it.total_batches_seen >= 4
