"""Records tf-keras (TF 2.x, legacy Keras 2, graph mode) goldens for tests/keras/test_layers_conv.py.

Run with the real-TF environment: TF_USE_LEGACY_KERAS=1 python tests/data/make_keras_layers_tf.py
"""

import os

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
keras = tf.keras


def cases():
    rng = np.random.RandomState(0)
    x4 = rng.randn(2, 6, 5, 3).astype("float32")
    x3 = rng.randn(2, 7, 3).astype("float32")
    ids = np.array([[0, 3, 1], [4, 2, 2]], dtype="int32")
    L = keras.layers
    return [
        ("conv2d", lambda: L.Conv2D(4, (3, 2), strides=(1, 2), padding="same", activation="relu"), x4),
        ("conv2d_valid", lambda: L.Conv2D(2, 3, dilation_rate=2), np.tile(x4, (1, 2, 2, 1))),
        ("conv1d", lambda: L.Conv1D(4, 3, strides=2, padding="same"), x3),
        ("conv1d_dilated", lambda: L.Conv1D(2, 2, dilation_rate=2, activation="tanh"), x3),
        ("maxpool2d", lambda: L.MaxPooling2D((2, 2), padding="same"), x4),
        ("avgpool2d", lambda: L.AveragePooling2D(2, strides=1), x4),
        ("maxpool1d", lambda: L.MaxPooling1D(2), x3),
        ("avgpool1d", lambda: L.AveragePooling1D(3, strides=2, padding="same"), x3),
        ("gmax2d", lambda: L.GlobalMaxPooling2D(), x4),
        ("gavg2d", lambda: L.GlobalAveragePooling2D(), x4),
        ("gmax1d", lambda: L.GlobalMaxPooling1D(), x3),
        ("gavg1d", lambda: L.GlobalAveragePooling1D(), x3),
        ("depthwise", lambda: L.DepthwiseConv2D((2, 3), depth_multiplier=2, padding="same"), x4),
        ("upsampling2d", lambda: L.UpSampling2D((2, 3)), x4),
        ("zeropadding2d", lambda: L.ZeroPadding2D(((1, 0), (2, 1))), x4),
        ("cropping2d", lambda: L.Cropping2D(((1, 2), 1)), x4),
        ("separable", lambda: L.SeparableConv2D(3, 2, depth_multiplier=2, padding="same", strides=2), x4),
        ("conv2d_transpose", lambda: L.Conv2DTranspose(2, (3, 2), strides=(2, 1)), x4),
        ("conv2d_transpose_same", lambda: L.Conv2DTranspose(3, 3, strides=2, padding="same"), x4),
        ("layernorm", lambda: L.LayerNormalization(), x4),
        ("layernorm2", lambda: L.LayerNormalization(axis=[1, 2]), x4),
        ("bn", lambda: L.BatchNormalization(), x4),
        ("embedding", lambda: L.Embedding(5, 3), ids),
    ]


def main():
    out = {}
    for name, make, x in cases():
        rng = np.random.RandomState(1)
        with tf.Graph().as_default(), tf.Session() as sess:
            keras.backend.set_session(sess)
            layer = make()
            inp = tf.placeholder(x.dtype, x.shape)
            y = layer(inp)
            weights = [rng.uniform(0.5, 1.5, w.shape).astype("float32") for w in layer.get_weights()]
            layer.set_weights(weights)
            out[name + "/x"] = x
            out[name + "/y"] = sess.run(y, {inp: x})
            for i, (w, v) in enumerate(zip(weights, layer.weights)):
                out["%s/w%d" % (name, i)] = w
                out["%s/name%d" % (name, i)] = np.array(v.name)
    bn_training(out)
    np.savez(os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_layers_tf.npz"), **out)




def bn_training(out):
    """One training-mode BatchNormalization step (4-D input and 2-D input): outputs and moving stats."""
    rng = np.random.RandomState(2)
    for name, x in (("bn_train4d", rng.randn(4, 3, 2, 3).astype("float32")),
                    ("bn_train2d", rng.randn(5, 3).astype("float32"))):
        with tf.Graph().as_default(), tf.Session() as sess:
            keras.backend.set_session(sess)
            layer = keras.layers.BatchNormalization(momentum=0.9)
            inp = tf.placeholder("float32", x.shape)
            y = layer(inp, training=True)
            sess.run(tf.global_variables_initializer())
            out[name + "/x"] = x
            out[name + "/y"] = sess.run([y] + layer.updates, {inp: x})[0]
            out[name + "/moving"] = np.stack(sess.run([layer.moving_mean, layer.moving_variance]))


if __name__ == "__main__":
    main()
