"""Records tf-keras HDF5 model files and predictions for tests/keras/test_saving.py, and checks that
files written by tensorweave load in tf-keras.

Run with the real-TF environment (TF 2.x, legacy Keras 2, graph mode; h5py installed there):

  TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_h5_tf.py
      writes tests/data/keras_h5/{seq_mlp,functional}{.h5,_weights.h5}, seq_mlp_ckpt.* (a TF-format
      `save_weights` checkpoint) and expected.npz (the inputs and tf-keras' predictions).

  TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_h5_tf.py --check DIR
      loads every DIR/<name>.h5 that tensorweave wrote (`keras.models.load_model`; for
      DIR/weights_<name>.h5: `model_from_json(weights_<name>.json)` (or, when that JSON is
      {"model_config", "training_config"}, the model compiled as the training config says) then
      `load_weights`; tf-keras reads
      `*.weights.h5` as its newer format, hence the prefix; likewise DIR/ckpt_<name>.index, a TF-format
      `save_weights` checkpoint, with `assert_existing_objects_matched`) and compares tf-keras'
      predictions with the ones tensorweave stored in DIR/<name>.npz (`x0`, `x1`, ... inputs,
      `y0`, ... outputs; with `train_x0...`, `train_y0...` and `after0...`: one more
      `train_on_batch` step, which needs the restored optimizer state, then the predictions).
      tests/keras/test_saving.py writes such a DIR when TW_KERAS_H5_EXPORT=DIR is set.
"""

import glob
import json
import os
import sys

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
keras = tf.keras

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_h5")


def data():
    rng = np.random.RandomState(0)
    return {
        "mlp_x": rng.randn(5, 4).astype("float32"),
        "mlp_y": np.eye(3, dtype="float32")[[0, 2, 1, 1, 0]],
        "img": rng.randn(4, 6, 6, 1).astype("float32"),
        "tok": rng.randint(0, 10, size=(4, 5)).astype("int32"),
        "f_y0": rng.randn(4, 3).astype("float32"),
        "f_y1": rng.randn(4, 2).astype("float32"),
    }


def seq_mlp():
    L = keras.layers
    model = keras.Sequential([L.Dense(8, activation="relu", input_shape=(4,), name="hidden"),
                              L.Dense(3, activation="softmax", name="probs")])
    model.compile(optimizer=keras.optimizers.legacy.Adam(0.01), loss="categorical_crossentropy", metrics=["acc"])
    return model


def functional():
    L = keras.layers
    img = keras.Input((6, 6, 1), name="img")
    tok = keras.Input((5,), dtype="int32", name="tok")
    x = L.Conv2D(2, 3, activation="relu", name="conv")(img)
    x = L.BatchNormalization(name="bn")(x)
    x = L.Flatten(name="flat_img")(x)
    x = L.Dropout(0.5, name="drop")(x)
    out0 = L.Dense(3, name="out_img")(x)
    e = L.Embedding(10, 4, name="emb")(tok)
    e = L.Flatten(name="flat_tok")(e)
    out1 = L.Dense(2, activation="tanh", name="out_tok")(e)
    model = keras.Model([img, tok], [out0, out1], name="two_inputs")
    model.compile(optimizer=keras.optimizers.legacy.SGD(0.05, momentum=0.9), loss=["mse", "mae"],
                  loss_weights=[1.0, 0.5])
    return model


def write():
    os.makedirs(OUT, exist_ok=True)
    d = data()
    tf.set_random_seed(1)
    expected = {k: v for k, v in d.items()}

    model = seq_mlp()
    model.train_on_batch(d["mlp_x"], d["mlp_y"])
    model.save(os.path.join(OUT, "seq_mlp.h5"))
    model.save_weights(os.path.join(OUT, "seq_mlp_weights.h5"))
    model.save_weights(os.path.join(OUT, "seq_mlp_ckpt"))
    expected["seq_pred"] = model.predict(d["mlp_x"])
    # One more step continues from the saved optimizer state (Adam moments, iterations).
    expected["seq_loss2"] = np.float32(model.train_on_batch(d["mlp_x"], d["mlp_y"])[0])
    expected["seq_pred2"] = model.predict(d["mlp_x"])

    keras.backend.clear_session()
    tf.set_random_seed(2)
    model = functional()
    model.train_on_batch([d["img"], d["tok"]], [d["f_y0"], d["f_y1"]])
    model.save(os.path.join(OUT, "functional.h5"))
    model.save_weights(os.path.join(OUT, "functional_weights.h5"))
    p0, p1 = model.predict([d["img"], d["tok"]])
    expected["fun_pred0"], expected["fun_pred1"] = p0, p1
    # [total, out_img loss, out_tok loss]; the Dropout branch trains on a random mask, the out_tok branch
    # is deterministic.
    expected["fun_losses2"] = np.float32(model.train_on_batch([d["img"], d["tok"]], [d["f_y0"], d["f_y1"]]))
    p0, p1 = model.predict([d["img"], d["tok"]])
    expected["fun_after0"], expected["fun_after1"] = p0, p1
    np.savez(os.path.join(OUT, "expected.npz"), **expected)
    os.remove(os.path.join(OUT, "checkpoint"))
    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(OUT, "*")))
    print("wrote", sorted(os.listdir(OUT)), total, "bytes")


def check(directory):
    failures = 0
    paths = sorted(glob.glob(os.path.join(directory, "*.h5")) + glob.glob(os.path.join(directory, "ckpt_*.index")))
    for path in paths:
        name = os.path.splitext(os.path.basename(path))[0]
        keras.backend.clear_session()
        if name.startswith(("weights_", "ckpt_")):
            with open(os.path.join(directory, name + ".json")) as f:
                arch = json.load(f)
            if "training_config" in arch:
                # A checkpoint with optimizer state: compiled first, the slots restore when created.
                model = keras.models.model_from_config(arch["model_config"])
                tc = arch["training_config"]
                model.compile(keras.optimizers.deserialize(tc["optimizer_config"], use_legacy_optimizer=True),
                              tc["loss"])
            else:
                model = keras.models.model_from_config(arch)
            status = model.load_weights(os.path.splitext(path)[0] if name.startswith("ckpt_") else path)
            if status is not None:
                status.assert_existing_objects_matched()
        else:
            model = keras.models.load_model(path)
        ref = np.load(os.path.join(directory, name + ".npz"))
        xs = [ref["x%d" % i] for i in range(len(model.inputs))]
        pred = model.predict(xs if len(xs) > 1 else xs[0])
        pred = pred if isinstance(pred, list) else [pred]
        ok = all(np.allclose(p, ref["y%d" % i], atol=1e-5) for i, p in enumerate(pred))
        msg = "predictions " + ("match" if ok else "DIFFER")
        if "train_x0" in ref.files:
            tx = [ref["train_x%d" % i] for i in range(len(model.inputs))]
            ty = [ref["train_y%d" % i] for i in range(len(model.outputs))]
            model.train_on_batch(tx if len(tx) > 1 else tx[0], ty if len(ty) > 1 else ty[0])
            after = model.predict(xs if len(xs) > 1 else xs[0])
            after = after if isinstance(after, list) else [after]
            ok_train = all(np.allclose(p, ref["after%d" % i], atol=1e-5) for i, p in enumerate(after))
            msg += "; after one more train step " + ("match" if ok_train else "DIFFER")
            ok = ok and ok_train
        failures += not ok
        print(os.path.basename(path) + ": " + msg)
    print("OK" if not failures else "%d FAILED" % failures)
    return failures


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        sys.exit(1 if check(sys.argv[2]) else 0)
    write()
