"""Records tf-keras (TF 2.x, legacy Keras 2, graph mode) goldens for the merge, advanced activation,
3D convolution/pooling and channels_first layer tests (tests/keras/test_layers_merge.py,
test_layers_activation_noise.py, test_layers_conv3d.py).

Every case builds one layer on placeholders of fixed inputs, sets its weights to fixed values with
`set_weights` and stores the inputs, weights, weight names and output in keras_layers2_tf.npz.

Run with the real-TF environment: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_layers2_tf.py
"""

import os

import numpy as np

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
import tensorflow.compat.v1 as tf  # noqa: E402

tf.disable_v2_behavior()
keras = tf.keras


def _inputs():
    rng = np.random.RandomState(0)
    f = np.float32
    return {
        "a2": rng.randn(3, 4).astype(f), "b2": rng.randn(3, 4).astype(f), "c2": rng.randn(3, 4).astype(f),
        "a3": rng.randn(2, 3, 4).astype(f), "b3": rng.randn(2, 3, 4).astype(f), "d3": rng.randn(2, 4, 5).astype(f),
        "e3": rng.randn(2, 5, 3).astype(f), "s2": rng.randn(2, 4).astype(f), "u3": rng.randn(2, 1, 4).astype(f),
        "a4": rng.randn(2, 3, 4, 2).astype(f), "b4": rng.randn(2, 2, 4, 3).astype(f),
        "x3": rng.randn(2, 7, 3).astype(f), "x4": rng.randn(2, 6, 5, 3).astype(f),
        "x5": rng.randn(2, 5, 6, 4, 3).astype(f), "x5s": rng.randn(1, 3, 4, 2, 2).astype(f),
    }


def _cf(x):
    """A channels_last array as channels_first."""
    return np.ascontiguousarray(np.moveaxis(x, -1, 1))


def cases(X):
    L = keras.layers
    cf = {k: _cf(v) for k, v in X.items() if k in ("x3", "x4", "x5", "x5s")}
    return [
        # merge
        ("add", lambda: L.Add(), [X["a2"], X["b2"], X["c2"]]),
        ("add_broadcast", lambda: L.Add(), [X["a3"], X["s2"]]),
        ("add_unit", lambda: L.Add(), [X["a3"], X["u3"]]),
        ("subtract", lambda: L.Subtract(), [X["a3"], X["b3"]]),
        ("multiply", lambda: L.Multiply(), [X["a2"], X["b2"], X["c2"]]),
        ("multiply_broadcast", lambda: L.Multiply(), [X["s2"], X["a3"]]),
        ("average", lambda: L.Average(), [X["a2"], X["b2"], X["c2"]]),
        ("maximum", lambda: L.Maximum(), [X["a3"], X["b3"]]),
        ("minimum", lambda: L.Minimum(), [X["a2"], X["b2"], X["c2"]]),
        ("concat_last", lambda: L.Concatenate(), [X["a3"], X["b3"]]),
        ("concat_axis1", lambda: L.Concatenate(axis=1), [X["a3"], X["d3"].transpose(0, 2, 1)[:, :, :4]]),
        ("dot_2d", lambda: L.Dot(axes=-1), [X["a2"], X["b2"]]),
        ("dot_2d_axis1", lambda: L.Dot(axes=1, normalize=True), [X["a2"], X["b2"]]),
        ("dot_3d", lambda: L.Dot(axes=(2, 1)), [X["a3"], X["d3"]]),
        ("dot_3d_same", lambda: L.Dot(axes=1), [X["a3"], X["b3"]]),
        ("dot_3d_normalize", lambda: L.Dot(axes=(1, 2), normalize=True), [X["a3"], X["e3"]]),
        ("dot_3d_2d", lambda: L.Dot(axes=(2, 1)), [X["a3"], X["s2"]]),
        ("dot_4d", lambda: L.Dot(axes=(2, 2)), [X["a4"], X["b4"]]),
        # advanced activations
        ("leaky_relu", lambda: L.LeakyReLU(alpha=0.1), [X["x4"]]),
        ("leaky_relu_default", lambda: L.LeakyReLU(), [X["x4"]]),
        ("prelu", lambda: L.PReLU(), [X["x3"]]),
        ("prelu_shared", lambda: L.PReLU(shared_axes=[1, 2]), [X["x4"]]),
        ("elu", lambda: L.ELU(alpha=0.5), [X["x4"]]),
        ("thresholded_relu", lambda: L.ThresholdedReLU(theta=0.5), [X["x4"]]),
        ("softmax", lambda: L.Softmax(), [X["x3"]]),
        ("softmax_axis1", lambda: L.Softmax(axis=1), [X["x3"]]),
        ("relu", lambda: L.ReLU(), [X["x4"]]),
        ("relu_all", lambda: L.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.3), [X["x4"]]),
        ("relu6", lambda: L.ReLU(max_value=6.0), [3 * X["x4"]]),
        ("relu_slope", lambda: L.ReLU(negative_slope=0.2), [X["x4"]]),
        # 3D convolution and pooling
        ("conv3d", lambda: L.Conv3D(4, (3, 2, 2), activation="relu"), [X["x5"]]),
        ("conv3d_same", lambda: L.Conv3D(2, 3, strides=(2, 1, 2), padding="same"), [X["x5"]]),
        ("conv3d_dilated", lambda: L.Conv3D(2, 2, dilation_rate=(2, 1, 1)), [X["x5"]]),
        ("conv3d_cf", lambda: L.Conv3D(3, (2, 3, 2), data_format="channels_first", padding="same"), [cf["x5"]]),
        ("conv3d_transpose", lambda: L.Conv3DTranspose(2, (2, 3, 2), strides=(2, 1, 2)), [X["x5s"]]),
        ("conv3d_transpose_same", lambda: L.Conv3DTranspose(3, 3, strides=2, padding="same"), [X["x5s"]]),
        ("conv3d_transpose_outpad", lambda: L.Conv3DTranspose(2, 2, strides=(2, 3, 2), output_padding=(1, 2, 0)),
         [X["x5s"]]),
        ("conv3d_transpose_cf", lambda: L.Conv3DTranspose(2, 2, strides=2, data_format="channels_first"),
         [cf["x5s"]]),
        ("maxpool3d", lambda: L.MaxPooling3D(), [X["x5"]]),
        ("avgpool3d", lambda: L.AveragePooling3D((2, 3, 2), strides=1, padding="same"), [X["x5"]]),
        ("maxpool3d_cf", lambda: L.MaxPool3D((1, 2, 2), data_format="channels_first"), [cf["x5"]]),
        ("avgpool3d_cf", lambda: L.AvgPool3D(2, padding="same", data_format="channels_first"), [cf["x5"]]),
        ("gmax3d", lambda: L.GlobalMaxPooling3D(), [X["x5"]]),
        ("gavg3d", lambda: L.GlobalAveragePooling3D(), [X["x5"]]),
        ("gavg3d_cf", lambda: L.GlobalAveragePooling3D(data_format="channels_first"), [cf["x5"]]),
        ("upsampling1d", lambda: L.UpSampling1D(3), [X["x3"]]),
        ("upsampling3d", lambda: L.UpSampling3D((2, 1, 3)), [X["x5s"]]),
        ("upsampling3d_cf", lambda: L.UpSampling3D(2, data_format="channels_first"), [cf["x5s"]]),
        ("zeropadding1d", lambda: L.ZeroPadding1D((2, 1)), [X["x3"]]),
        ("zeropadding3d", lambda: L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))), [X["x5s"]]),
        ("zeropadding3d_cf", lambda: L.ZeroPadding3D(1, data_format="channels_first"), [cf["x5s"]]),
        ("cropping1d", lambda: L.Cropping1D((2, 1)), [X["x3"]]),
        ("cropping3d", lambda: L.Cropping3D(((1, 0), (2, 1), 1)), [X["x5"]]),
        ("cropping3d_cf", lambda: L.Cropping3D(1, data_format="channels_first"), [cf["x5"]]),
        # channels_first 1D/2D layers
        ("conv1d_cf", lambda: L.Conv1D(4, 3, strides=2, padding="same", data_format="channels_first"), [cf["x3"]]),
        ("conv1d_causal", lambda: L.Conv1D(2, 3, dilation_rate=2, padding="causal"), [X["x3"]]),
        ("conv2d_cf", lambda: L.Conv2D(4, (3, 2), strides=(1, 2), padding="same", data_format="channels_first",
                                       activation="relu"), [cf["x4"]]),
        ("conv2d_cf_dilated", lambda: L.Conv2D(2, 2, dilation_rate=2, data_format="channels_first"), [cf["x4"]]),
        ("depthwise_cf", lambda: L.DepthwiseConv2D((2, 3), depth_multiplier=2, padding="same",
                                                   data_format="channels_first"), [cf["x4"]]),
        ("separable_cf", lambda: L.SeparableConv2D(3, 2, depth_multiplier=2, data_format="channels_first"),
         [cf["x4"]]),
        ("conv2d_transpose_cf", lambda: L.Conv2DTranspose(2, (3, 2), strides=(2, 1), data_format="channels_first"),
         [cf["x4"]]),
        ("conv2d_transpose_wide", lambda: L.Conv2DTranspose(2, 2, strides=3), [X["x4"]]),
        ("conv2d_transpose_outpad", lambda: L.Conv2DTranspose(2, 3, strides=2, padding="same",
                                                              output_padding=(0, 1)), [X["x4"]]),
        ("conv2d_transpose_dilated", lambda: L.Conv2DTranspose(2, 2, dilation_rate=2), [X["x4"]]),
        ("maxpool2d_cf", lambda: L.MaxPooling2D((2, 2), padding="same", data_format="channels_first"), [cf["x4"]]),
        ("avgpool2d_cf", lambda: L.AveragePooling2D(2, strides=1, data_format="channels_first"), [cf["x4"]]),
        ("maxpool1d_cf", lambda: L.MaxPooling1D(2, data_format="channels_first"), [cf["x3"]]),
        ("avgpool1d_cf", lambda: L.AveragePooling1D(3, strides=2, padding="same", data_format="channels_first"),
         [cf["x3"]]),
        ("gmax2d_cf", lambda: L.GlobalMaxPooling2D(data_format="channels_first"), [cf["x4"]]),
        ("gavg1d_cf", lambda: L.GlobalAveragePooling1D(data_format="channels_first"), [cf["x3"]]),
        ("upsampling2d_cf", lambda: L.UpSampling2D((2, 3), data_format="channels_first"), [cf["x4"]]),
        ("zeropadding2d_cf", lambda: L.ZeroPadding2D(((1, 0), (2, 1)), data_format="channels_first"), [cf["x4"]]),
        ("cropping2d_cf", lambda: L.Cropping2D(((1, 2), 1), data_format="channels_first"), [cf["x4"]]),
        ("conv1d_causal_cf", lambda: L.Conv1D(2, 3, padding="causal", data_format="channels_first"), [cf["x3"]]),
        # separable 1D and locally-connected layers
        ("separable1d", lambda: L.SeparableConv1D(3, 2, depth_multiplier=2, padding="same", strides=2), [X["x3"]]),
        ("separable1d_causal", lambda: L.SeparableConv1D(2, 3, padding="causal", dilation_rate=2), [X["x3"]]),
        ("separable1d_cf", lambda: L.SeparableConv1D(2, 2, data_format="channels_first"), [cf["x3"]]),
        ("locally1d", lambda: L.LocallyConnected1D(3, 2, strides=2), [X["x3"]]),
        ("locally1d_cf", lambda: L.LocallyConnected1D(2, 3, data_format="channels_first"), [cf["x3"]]),
        ("locally2d", lambda: L.LocallyConnected2D(2, (2, 3), strides=(2, 1), activation="tanh"), [X["x4"]]),
        ("locally2d_cf", lambda: L.LocallyConnected2D(3, 2, data_format="channels_first"), [cf["x4"]]),
    ]


def _run(layer, xs):
    """Builds `layer` on placeholders of `xs`, sets fixed weights and returns (weights, names, output)."""
    rng = np.random.RandomState(1)
    inps = [tf.placeholder(x.dtype, x.shape) for x in xs]
    y = layer(inps if len(inps) > 1 else inps[0])
    weights = [rng.uniform(-0.5, 1.5, w.shape).astype("float32") for w in layer.get_weights()]
    layer.set_weights(weights)
    sess = keras.backend.get_session()
    return weights, [v.name for v in layer.weights], sess.run(y, dict(zip(inps, xs)))


def resize_bilinear(X, out):
    """UpSampling2D(interpolation='bilinear') as TF 1.15's Keras computes it: `backend.resize_images`, which
    calls `image_ops.resize_images_v2` (half-pixel centers) in TF 1.14/1.15 as in tf-keras 2.x."""
    for name, size, first in (("upsampling2d_bilinear", (2, 3), False), ("upsampling2d_bilinear_cf", (3, 2), True)):
        x = X["x4"]
        with tf.Graph().as_default(), tf.Session() as sess:
            y = tf.compat.v2.image.resize(x, (x.shape[1] * size[0], x.shape[2] * size[1]), method="bilinear")
            y = sess.run(y)
        out[name + "/x0"] = _cf(x) if first else x
        out[name + "/y"] = _cf(y) if first else y


def main():
    X = _inputs()
    out = {}
    for name, make, xs in cases(X):
        with tf.Graph().as_default(), tf.Session() as sess:
            keras.backend.set_session(sess)
            try:
                weights, names, y = _run(make(), xs)
            except Exception as error:  # noqa: BLE001 (an op without a CPU kernel in this layout)
                if not name.endswith("_cf"):
                    raise
                # TF has no CPU kernel for this channels_first op: record the channels_last layer on
                # the transposed inputs, transposed back (what tf-keras computes on an accelerator).
                print("%s: channels_first failed on CPU (%s); via channels_last" % (name, type(error).__name__))
                with tf.Graph().as_default(), tf.Session() as sess2:
                    keras.backend.set_session(sess2)
                    layer = make()
                    config = layer.get_config()
                    config["data_format"] = "channels_last"
                    weights, names, y = _run(type(layer).from_config(config),
                                             [np.ascontiguousarray(np.moveaxis(x, 1, -1)) for x in xs])
                    y = np.moveaxis(y, -1, 1) if y.ndim > 2 else y
        for i, x in enumerate(xs):
            out["%s/x%d" % (name, i)] = x
        out[name + "/y"] = y
        for i, (w, n) in enumerate(zip(weights, names)):
            out["%s/w%d" % (name, i)] = w
            out["%s/name%d" % (name, i)] = np.array(n)
    resize_bilinear(X, out)
    np.savez_compressed(os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_layers2_tf.npz"), **out)
    print("wrote %d arrays" % len(out))


if __name__ == "__main__":
    main()
