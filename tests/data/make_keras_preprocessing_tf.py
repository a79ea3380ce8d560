"""Records tf.keras.preprocessing goldens (sequence, text, image) for tests/keras/test_preprocessing_*.py.

TF 1.15's `tf.keras.preprocessing` is Keras-Preprocessing 1.1.0; TF 2.21's tf_keras carries later changes to
the image transforms (center offset `size / 2 - 0.5` instead of `+ 0.5`, swapped row/column matrix, new
default axes), so the goldens come from the Keras-Preprocessing 1.1.0 sources (git tag 1.1.0 of
keras-team/keras-preprocessing), run in the side env; SciPy and Pillow (which the side env lacks) come
from the project venv (same Python and NumPy versions). The text and sequence results are also checked
against tf_keras 2.21, which agrees with 1.1.0 on them.

Run:
  git -C <keras-preprocessing clone> archive 1.1.0 keras_preprocessing | tar -x -C /tmp/kp110
  TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_preprocessing_tf.py /tmp/kp110 \
      /work/main/.venv/lib/python3.11/site-packages
"""

import json
import os
import random
import sys
import tempfile

import numpy as np

KP_ROOT, VENV_SITE = sys.argv[1], sys.argv[2]
sys.path.insert(0, KP_ROOT)
sys.path.append(VENV_SITE)  # scipy, PIL only; everything else resolves in the side env first
np.unicode_ = np.str_  # Keras-Preprocessing 1.1.0 predates NumPy 2

from keras_preprocessing import image as kimage  # noqa: E402
from keras_preprocessing import sequence as kseq  # noqa: E402
from keras_preprocessing import text as ktext  # noqa: E402
from PIL import Image  # noqa: E402
from tf_keras.src.preprocessing import sequence as tfk_seq  # noqa: E402
from tf_keras.src.preprocessing import text as tfk_text  # noqa: E402
from tf_keras.src.utils import data_utils as tfk_data_utils  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
out = {}
arrays = {}


def tolist(a):
    return np.asarray(a).tolist()


# ---- sequence -------------------------------------------------------------------------------
SEQS = [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10], []]
pad = {}
for name, kwargs in {
    "default": {},
    "maxlen3_post_post": {"maxlen": 3, "padding": "post", "truncating": "post"},
    "maxlen4_pre_post_value": {"maxlen": 4, "truncating": "post", "value": -1},
    "maxlen2_post_pre": {"maxlen": 2, "padding": "post"},
    "float": {"dtype": "float32", "value": 0.5, "maxlen": 6},
}.items():
    res = kseq.pad_sequences(SEQS, **kwargs)
    assert np.array_equal(res, tfk_data_utils.pad_sequences(SEQS, **kwargs))
    pad[name] = {"kwargs": kwargs, "out": tolist(res), "dtype": str(res.dtype)}
STR_SEQS = [["a", "bb"], ["ccc"], ["d", "e", "f"]]
res = kseq.pad_sequences(STR_SEQS, maxlen=3, dtype=object, value="<pad>", padding="post")
pad["strings_object"] = {"kwargs": {"maxlen": 3, "dtype": "object", "value": "<pad>", "padding": "post"},
                         "out": tolist(res), "dtype": "object"}
res = kseq.pad_sequences(STR_SEQS, dtype="<U3", value="-")
pad["strings_u3"] = {"kwargs": {"dtype": "<U3", "value": "-"}, "out": tolist(res), "dtype": str(res.dtype)}
VEC_SEQS = [np.arange(6).reshape(3, 2).tolist(), [[9, 9]]]
res = kseq.pad_sequences(VEC_SEQS, maxlen=2, dtype="float64")
pad["vectors"] = {"seqs": VEC_SEQS, "kwargs": {"maxlen": 2, "dtype": "float64"}, "out": tolist(res),
                  "dtype": "float64"}
out["pad_sequences"] = {"seqs": SEQS, "str_seqs": STR_SEQS, "cases": pad}

out["sampling_table"] = {"10": tolist(kseq.make_sampling_table(10)),
                         "6_1e-3": tolist(kseq.make_sampling_table(6, sampling_factor=1e-3))}
assert np.allclose(kseq.make_sampling_table(10), tfk_seq.make_sampling_table(10))

SG_SEQ = [1, 2, 3, 0, 4, 5, 6, 7, 2]
skip = {}
for name, kwargs in {
    "default": {"window_size": 2, "seed": 42},
    "categorical": {"window_size": 1, "categorical": True, "seed": 3, "negative_samples": 0.5},
    "no_shuffle": {"window_size": 2, "shuffle": False, "negative_samples": 0.0},
    "table": {"window_size": 2, "seed": 11, "sampling_table": kseq.make_sampling_table(10, 0.05).tolist()},
}.items():
    random.seed(1234)
    couples, labels = kseq.skipgrams(SG_SEQ, 10, **kwargs)
    random.seed(1234)
    assert (couples, labels) == tuple(tfk_seq.skipgrams(SG_SEQ, 10, **kwargs))
    skip[name] = {"kwargs": kwargs, "couples": couples, "labels": labels}
out["skipgrams"] = {"seq": SG_SEQ, "vocabulary_size": 10, "python_random_seed": 1234, "cases": skip}

TS_DATA = np.arange(60, dtype=np.float64).reshape(30, 2)
TS_TARGETS = np.arange(30) * 10
ts = {}
for name, kwargs in {
    "basic": {"length": 5, "batch_size": 4},
    "rate_stride": {"length": 6, "sampling_rate": 2, "stride": 3, "batch_size": 3, "start_index": 2,
                    "end_index": 25},
    "reverse": {"length": 4, "reverse": True, "batch_size": 5},
    "shuffle": {"length": 3, "shuffle": True, "batch_size": 4},
}.items():
    gen = kseq.TimeseriesGenerator(TS_DATA, TS_TARGETS, **kwargs)
    np.random.seed(5)
    batches = [gen[i] for i in range(len(gen))]
    ts[name] = {"kwargs": kwargs, "len": len(gen), "x": [tolist(b[0]) for b in batches],
                "y": [tolist(b[1]) for b in batches]}
out["timeseries"] = {"data": tolist(TS_DATA), "targets": tolist(TS_TARGETS), "numpy_seed": 5, "cases": ts}

# ---- text -----------------------------------------------------------------------------------
TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "Dogs and cats: living together?",
         "the THE the, cat; dog", "A new-line\nand\ttab"]
out["text_to_word_sequence"] = {
    "default": [ktext.text_to_word_sequence(t) for t in TEXTS],
    "no_lower_custom": [ktext.text_to_word_sequence(t, filters=".!", lower=False, split=" ") for t in TEXTS],
    "split_comma": ktext.text_to_word_sequence("a,b,,c d", filters="", split=","),
}
out["hashing_trick_md5"] = [ktext.hashing_trick(t, 17, hash_function="md5") for t in TEXTS]
assert out["hashing_trick_md5"] == [tfk_text.hashing_trick(t, 17, hash_function="md5") for t in TEXTS]
tok_cases = {}
QUERY = ["the cat and the unknown zebra", "dog dog homework", "", "living mat"]
for name, kwargs in {
    "default": {},
    "num_words": {"num_words": 5},
    "oov": {"oov_token": "<OOV>"},
    "oov_num_words": {"oov_token": "<OOV>", "num_words": 6},
    "char": {"char_level": True, "num_words": 8},
}.items():
    tok = ktext.Tokenizer(**kwargs)
    tok.fit_on_texts(TEXTS)
    seqs = tok.texts_to_sequences(QUERY)
    case = {"kwargs": kwargs, "word_counts": list(tok.word_counts.items()), "word_index": tok.word_index,
            "word_docs": dict(tok.word_docs), "index_docs": {str(k): v for k, v in tok.index_docs.items()},
            "document_count": tok.document_count, "sequences": seqs, "texts": tok.sequences_to_texts(seqs),
            "fit_sequences": tok.texts_to_sequences(TEXTS), "json": tok.to_json()}
    for mode in ("binary", "count", "tfidf", "freq"):
        case["matrix_" + mode] = tolist(tok.texts_to_matrix(QUERY, mode=mode))
    ref = tfk_text.Tokenizer(**kwargs)
    ref.fit_on_texts(TEXTS)
    assert ref.texts_to_sequences(QUERY) == seqs and ref.word_index == tok.word_index
    tok_cases[name] = case
tok = ktext.Tokenizer()
tok.fit_on_texts([["Hello", "World"], ["hello", "again"]])
tok_cases["token_lists"] = {"word_index": tok.word_index, "sequences": tok.texts_to_sequences([["HELLO", "x"]])}
tok = ktext.Tokenizer(num_words=6)
tok.fit_on_sequences([[1, 2, 2], [2, 5], [3]])
tok_cases["fit_on_sequences"] = {"tfidf": tolist(tok.sequences_to_matrix([[1, 2, 2, 9], [5]], mode="tfidf")),
                                 "document_count": tok.document_count}
out["tokenizer"] = {"texts": TEXTS, "query": QUERY, "cases": tok_cases}

# ---- image ----------------------------------------------------------------------------------
rng = np.random.RandomState(0)
IMG = rng.uniform(0, 255, (7, 9, 3)).astype(np.float32)
arrays["img"] = IMG
affine = {}
for name, kwargs in {
    "rotate": {"theta": 30},
    "shift": {"tx": 1.5, "ty": -2.25},
    "shear": {"shear": 20},
    "zoom": {"zx": 0.8, "zy": 1.3},
    "all_constant": {"theta": -15, "tx": 1, "ty": 2, "shear": 10, "zx": 1.1, "zy": 0.9, "fill_mode": "constant",
                     "cval": 7.0},
    "reflect_order0": {"theta": 45, "fill_mode": "reflect", "order": 0},
    "wrap": {"tx": 3, "fill_mode": "wrap"},
}.items():
    arrays["affine_" + name] = kimage.apply_affine_transform(IMG, **kwargs)
    affine[name] = kwargs
IMG_CF = np.ascontiguousarray(IMG.transpose(2, 0, 1))
arrays["affine_cf_rotate"] = kimage.apply_affine_transform(IMG_CF, theta=30, row_axis=1, col_axis=2,
                                                           channel_axis=0)
arrays["channel_shift"] = kimage.apply_channel_shift(IMG, 40.0, channel_axis=2)
arrays["brightness"] = kimage.apply_brightness_shift(IMG, 1.4)
out["affine"] = affine

GEN_KW = {"rotation_range": 25, "width_shift_range": 0.2, "height_shift_range": 0.15, "shear_range": 12,
          "zoom_range": 0.25, "channel_shift_range": 20.0, "horizontal_flip": True, "vertical_flip": True,
          "brightness_range": [0.6, 1.3], "fill_mode": "nearest"}
gen = kimage.ImageDataGenerator(**GEN_KW)
params = {}
for name, (kw, seed, shape) in {
    "full": (GEN_KW, 7, (7, 9, 3)),
    "list_shift": ({"width_shift_range": [-2, 0, 3], "height_shift_range": [0.1, 0.3]}, 3, (7, 9, 3)),
    "int_shift": ({"width_shift_range": 4, "height_shift_range": 2, "zoom_range": [0.5, 0.9]}, 21, (7, 9, 3)),
    "channels_first": (dict(GEN_KW, data_format="channels_first"), 7, (3, 7, 9)),
}.items():
    p = kimage.ImageDataGenerator(**kw).get_random_transform(shape, seed=seed)
    params[name] = {"kwargs": kw, "seed": seed, "shape": shape,
                    "params": {k: (None if v is None else float(v)) for k, v in p.items()}}
out["random_transform"] = params
arrays["random_transform_full"] = gen.random_transform(IMG.copy(), seed=7)

X = rng.uniform(0, 255, (10, 6, 5, 3)).astype(np.float32)
Y = np.arange(10) % 3
SW = np.linspace(0.1, 1.0, 10)
arrays["flow_x"], arrays["flow_y"], arrays["flow_sw"] = X, Y, SW
FLOW_KW = {"rotation_range": 20, "width_shift_range": 0.1, "zoom_range": 0.2, "horizontal_flip": True,
           "channel_shift_range": 10.0, "rescale": 1.0 / 255, "samplewise_center": True,
           "samplewise_std_normalization": True}
out["flow_kwargs"] = FLOW_KW
it = kimage.ImageDataGenerator(**FLOW_KW).flow(X, Y, batch_size=4, seed=13, sample_weight=SW)
for i in range(4):  # the iterator wraps around the epoch (4 + 4 + 2, then 4 again)
    bx, by, bw = next(it)
    arrays["flow_next%d_x" % i], arrays["flow_next%d_y" % i], arrays["flow_next%d_w" % i] = bx, by, bw
it = kimage.ImageDataGenerator(**FLOW_KW).flow(X, Y, batch_size=4, seed=13)
bx, by = it[2]
arrays["flow_item2_x"], arrays["flow_item2_y"] = bx, by
gen_fit = kimage.ImageDataGenerator(featurewise_center=True, featurewise_std_normalization=True)
gen_fit.fit(X)
arrays["fit_mean"], arrays["fit_std"] = gen_fit.mean, gen_fit.std
arrays["fit_standardized"] = gen_fit.standardize(X[0].copy())
gen_zca = kimage.ImageDataGenerator(zca_whitening=True, zca_epsilon=1e-3)
small = X[:, :3, :2, :] / 255.0
gen_zca.fit(small)
arrays["zca_x"], arrays["zca_components"] = small, gen_zca.principal_components
arrays["zca_standardized"] = gen_zca.standardize(small[1].copy())
gen_aug = kimage.ImageDataGenerator(featurewise_center=True, rotation_range=30, horizontal_flip=True)
gen_aug.fit(X, augment=True, rounds=2, seed=4)
arrays["fit_augment_mean"] = gen_aug.mean
gen_split = kimage.ImageDataGenerator(validation_split=0.3, horizontal_flip=True)
Ysplit = np.array([0, 1] * 5)
arrays["split_val_x"], arrays["split_val_y"] = next(gen_split.flow(X, Ysplit, batch_size=10, seed=2,
                                                                   subset="validation"))
arrays["split_train_x"], arrays["split_train_y"] = next(gen_split.flow(X, Ysplit, batch_size=10, seed=2,
                                                                       subset="training"))

# flow_from_directory over PNGs written from the arrays stored here (the test writes the same files).
tmp = tempfile.mkdtemp()
files = {"cats": ["c1.png", "c2.png", "sub/c3.png"], "dogs": ["d1.png", "d2.png"], "zebras": ["z1.png"]}
for cls, names in files.items():
    for j, fname in enumerate(names):
        key = "dir_%s_%d" % (cls, j)
        px = rng.randint(0, 256, (5 + j, 4 + 2 * j, 3)).astype(np.uint8)
        arrays[key] = px
        path = os.path.join(tmp, cls, fname)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        Image.fromarray(px, "RGB").save(path)
with open(os.path.join(tmp, "dogs", "notes.txt"), "w") as f:
    f.write("not an image")
out["dir_files"] = files
dgen = kimage.ImageDataGenerator(rescale=1.0 / 255, horizontal_flip=True, validation_split=0.4)
dir_cases = {"categorical": {"target_size": [6, 5], "batch_size": 4, "seed": 9},
             "sparse_gray_bilinear": {"target_size": [4, 4], "color_mode": "grayscale", "class_mode": "sparse",
                                      "interpolation": "bilinear", "batch_size": 6, "shuffle": False, "seed": 5},
             "binary_classes": {"target_size": [5, 5], "classes": ["dogs", "zebras"], "class_mode": "binary",
                                "batch_size": 3, "seed": 1},
             "training_subset": {"target_size": [5, 4], "subset": "training", "batch_size": 8, "shuffle": False,
                                 "seed": 6},
             "validation_subset_input": {"target_size": [5, 4], "subset": "validation", "class_mode": "input",
                                         "batch_size": 8, "seed": 3},
             "none_rgba": {"target_size": [3, 3], "color_mode": "rgba", "class_mode": None, "batch_size": 2,
                           "shuffle": False, "seed": 7}}
dir_out = {}
for name, kw in dir_cases.items():
    it = dgen.flow_from_directory(tmp, **kw)
    batch = next(it)
    if isinstance(batch, tuple):
        arrays["dir_%s_x" % name], arrays["dir_%s_y" % name] = batch
    else:
        arrays["dir_%s_x" % name] = batch
    dir_out[name] = {"kwargs": kw, "filenames": it.filenames, "classes": tolist(it.classes),
                     "class_indices": it.class_indices, "len": len(it)}
out["directory"] = dir_out

with open(os.path.join(HERE, "keras_preprocessing_tf.json"), "w") as f:
    json.dump(out, f, indent=1, sort_keys=True)
np.savez_compressed(os.path.join(HERE, "keras_preprocessing_tf.npz"), **arrays)
print("wrote", len(out), "json groups and", len(arrays), "arrays")
