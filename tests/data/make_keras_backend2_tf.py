"""Records tf.keras.backend goldens (the Keras 2 functions of tests/keras/test_backend_more.py) from TF 2.21's
tf_keras backend in graph mode, into keras_backend2_tf.npz. Inputs are recorded too; the tests rebuild the
same calls.

Run: TF_USE_LEGACY_KERAS=1 /work/tfenv/bin/python tests/data/make_keras_backend2_tf.py
"""

import os

import numpy as np
import tensorflow.compat.v1 as tf
from tf_keras.src import backend as K

tf.disable_v2_behavior()

rng = np.random.RandomState(0)
IN = {
    "x23": rng.uniform(-2, 2, (2, 3)).astype("float32"),
    "x234": rng.uniform(-2, 2, (2, 3, 4)).astype("float32"),
    "img": rng.uniform(-1, 1, (2, 5, 6, 3)).astype("float32"),
    "img_cf": rng.uniform(-1, 1, (2, 3, 5, 6)).astype("float32"),
    "seq": rng.uniform(-1, 1, (2, 7, 3)).astype("float32"),
    "vol": rng.uniform(-1, 1, (2, 4, 5, 4, 2)).astype("float32"),
    "k1": rng.uniform(-1, 1, (3, 3, 4)).astype("float32"),
    "k2": rng.uniform(-1, 1, (3, 2, 3, 4)).astype("float32"),
    "k2t": rng.uniform(-1, 1, (3, 3, 4, 3)).astype("float32"),
    "dk": rng.uniform(-1, 1, (3, 3, 3, 2)).astype("float32"),
    "pk": rng.uniform(-1, 1, (1, 1, 6, 4)).astype("float32"),
    "k3": rng.uniform(-1, 1, (2, 3, 2, 2, 3)).astype("float32"),
    "lk1": rng.uniform(-1, 1, (3, 9, 2)).astype("float32"),
    "lk2": rng.uniform(-1, 1, (6, 12, 2)).astype("float32"),
    "gamma": rng.uniform(0.5, 1.5, (3,)).astype("float32"),
    "beta": rng.uniform(-0.5, 0.5, (3,)).astype("float32"),
    "bias3": rng.uniform(-1, 1, (3,)).astype("float32"),
    "bias_cf": rng.uniform(-1, 1, (5, 6, 3)).astype("float32"),
    "probs": rng.dirichlet(np.ones(5), size=(2, 6)).astype("float32"),
    "labels": np.array([[1, 2, 0], [3, 3, 1]], "int32"),
    "cond": np.array([[True, False, True], [False, False, True]]),
}
x = {k: tf.constant(v) for k, v in IN.items()}
R = {}
R["any"] = K.any(x["x23"] > 1, axis=1)
R["all"] = K.all(x["x23"] > -1.5, axis=0, keepdims=True)
R["var"] = K.var(x["x234"], axis=1)
R["std"] = K.std(x["x234"], axis=[0, 2], keepdims=True)
R["logsumexp"] = K.logsumexp(x["x234"], axis=-1)
R["round"] = K.round(x["x23"] * 2)
R["sign"] = K.sign(x["x23"])
R["sin"], R["cos"] = K.sin(x["x23"]), K.cos(x["x23"])
R["less"] = K.less(x["x23"], 0.5)
R["arange"] = K.arange(2, 11, 3)
R["arange_neg"] = K.arange(-3)
R["arange_f"] = K.arange(5, dtype="float32")
R["tile"] = K.tile(x["x23"], [2, 3])
R["one_hot"] = K.one_hot(x["labels"], 4)
R["l2_normalize"] = K.l2_normalize(x["x234"], axis=1)
R["cumsum"], R["cumprod"] = K.cumsum(x["x23"], axis=1), K.cumprod(x["x23"], axis=0)
R["reverse"] = K.reverse(x["x234"], [0, 2])
R["temporal_padding"] = K.temporal_padding(x["seq"], (2, 1))
R["spatial_2d_padding"] = K.spatial_2d_padding(x["img"], ((1, 0), (2, 3)), data_format="channels_last")
R["spatial_2d_padding_cf"] = K.spatial_2d_padding(x["img_cf"], ((0, 1), (1, 1)), data_format="channels_first")
R["spatial_3d_padding"] = K.spatial_3d_padding(x["vol"], ((1, 0), (0, 1), (1, 1)), data_format="channels_last")
R["resize_nearest"] = K.resize_images(x["img"], 2, 3, "channels_last")
R["resize_bilinear"] = K.resize_images(x["img"], 2, 2, "channels_last", interpolation="bilinear")
R["resize_bilinear_cf"] = K.resize_images(x["img_cf"], 3, 2, "channels_first", interpolation="bilinear")
R["resize_volumes"] = K.resize_volumes(x["vol"], 2, 1, 3, "channels_last")
R["repeat_elements"] = K.repeat_elements(x["x234"], 3, axis=1)
R["conv1d_valid"] = K.conv1d(x["seq"], x["k1"], strides=2)
R["conv1d_same_dil"] = K.conv1d(x["seq"], x["k1"], padding="same", dilation_rate=2)
R["conv1d_causal"] = K.conv1d(x["seq"], x["k1"], padding="causal", dilation_rate=2)
R["conv1d_cf"] = K.conv1d(tf.transpose(x["seq"], [0, 2, 1]), x["k1"], data_format="channels_first")
R["conv2d_valid"] = K.conv2d(x["img"], x["k2"], strides=(2, 1))
R["conv2d_same_dil"] = K.conv2d(x["img"], x["k2"], padding="same", dilation_rate=(2, 2))
R["conv2d_cf"] = K.conv2d(x["img_cf"], x["k2"], padding="same", data_format="channels_first")
R["conv2d_transpose"] = K.conv2d_transpose(x["img"], x["k2t"], (2, 10, 12, 4), strides=(2, 2), padding="same")
R["conv2d_transpose_valid"] = K.conv2d_transpose(x["img"], x["k2t"], (None, 11, 13, 4), strides=(2, 2))
R["conv2d_transpose_cf"] = K.conv2d_transpose(x["img_cf"], x["k2t"], (2, 4, 7, 8), padding="valid",
                                              data_format="channels_first")
R["conv2d_transpose_dil"] = K.conv2d_transpose(x["img"], x["k2t"], (2, 5, 6, 4), padding="same",
                                               dilation_rate=(2, 2))
R["depthwise"] = K.depthwise_conv2d(x["img"], x["dk"], strides=(1, 2), padding="same")
R["depthwise_cf"] = K.depthwise_conv2d(x["img_cf"], x["dk"], data_format="channels_first")
R["separable"] = K.separable_conv2d(x["img"], x["dk"], x["pk"], padding="same", dilation_rate=(2, 2))
R["separable_cf"] = K.separable_conv2d(x["img_cf"], x["dk"], x["pk"], strides=(2, 2),
                                       data_format="channels_first")
R["conv3d"] = K.conv3d(x["vol"], x["k3"], strides=(1, 2, 1), padding="same")
R["conv3d_cf"] = K.conv3d(tf.transpose(x["vol"], [0, 4, 1, 2, 3]), x["k3"], data_format="channels_first")
R["pool2d_max"] = K.pool2d(x["img"], (2, 3), strides=(2, 2), padding="same")
R["pool2d_avg"] = K.pool2d(x["img"], (2, 2), strides=(1, 2), pool_mode="avg")
R["pool2d_avg_cf"] = K.pool2d(x["img_cf"], (3, 2), strides=(2, 2), padding="same", pool_mode="avg",
                              data_format="channels_first")
R["pool3d_max"] = K.pool3d(x["vol"], (2, 2, 2), strides=(2, 2, 2))
R["pool3d_avg_cf"] = K.pool3d(tf.transpose(x["vol"], [0, 4, 1, 2, 3]), (2, 3, 2), strides=(1, 1, 2),
                              padding="same", pool_mode="avg", data_format="channels_first")
R["local_conv1d"] = K.local_conv1d(x["seq"], x["lk1"], (3,), (2,), data_format="channels_last")
R["local_conv2d"] = K.local_conv2d(x["img"], x["lk2"], (2, 2), (2, 2), (2, 3), data_format="channels_last")
R["local_conv2d_cf"] = K.local_conv2d(x["img_cf"], x["lk2"], (2, 2), (2, 2), (2, 3), data_format="channels_first")
R["bias_add"] = K.bias_add(x["img"], x["bias3"], data_format="channels_last")
R["bias_add_cf"] = K.bias_add(x["img_cf"], x["bias3"], data_format="channels_first")
R["bias_add_full_cf"] = K.bias_add(x["img_cf"], x["bias_cf"], data_format="channels_first")
R["bias_add_full"] = K.bias_add(x["img"], tf.reshape(x["bias_cf"], (5, 6, 3)) * 2.0, data_format="channels_last")
out, mean, var = K.normalize_batch_in_training(x["img"], x["gamma"], x["beta"], [0, 1, 2], epsilon=1e-3)
R["nbt_012"], R["nbt_012_mean"], R["nbt_012_var"] = out, mean, var
out, mean, var = K.normalize_batch_in_training(x["img_cf"], x["gamma"], x["beta"], [0, 2, 3], epsilon=1e-3)
R["nbt_023"], R["nbt_023_mean"], R["nbt_023_var"] = out, mean, var
out, mean, var = K.normalize_batch_in_training(x["x23"], None, None, [0])
R["nbt_2d"], R["nbt_2d_mean"], R["nbt_2d_var"] = out, mean, var
out, mean, var = K.normalize_batch_in_training(x["x234"], tf.constant([1.5, 0.5, 2.0]), None, [0, 2])
R["nbt_3d"], R["nbt_3d_mean"], R["nbt_3d_var"] = out, mean, var
R["bn_4d"] = K.batch_normalization(x["img"], x["beta"] * 0.1, x["gamma"], x["beta"], x["gamma"], axis=-1)
R["bn_2d"] = K.batch_normalization(x["x23"], x["beta"] * 0.1, x["gamma"], None, x["gamma"], epsilon=0.01)
R["map_fn"] = K.map_fn(lambda r: r * 2.0 + 1.0, x["x23"])
R["foldl"] = K.foldl(lambda a, r: a * 0.5 + r, x["x23"])
R["foldr"] = K.foldr(lambda a, r: a * 0.5 + r, x["x23"], initializer=tf.ones([3]))
R["in_top_k"] = K.in_top_k(x["x23"], tf.constant([2, 0]), 2)
R["softsign"] = K.softsign(x["x23"])
R["switch_cond"] = K.switch(x["cond"], x["x23"], -x["x23"])
R["switch_rank3"] = K.switch(x["cond"], x["x234"], tf.zeros([2, 3, 4]))
R["switch_scalar"] = K.switch(tf.constant(False), lambda: x["x23"], lambda: x["x23"] * 3.0)
input_length = tf.constant([[6], [5]])
label_length = tf.constant([[3], [2]])
R["ctc_batch_cost"] = K.ctc_batch_cost(x["labels"], x["probs"], input_length, label_length)
decoded, log_prob = K.ctc_decode(x["probs"], tf.constant([6, 5]))
R["ctc_greedy"], R["ctc_greedy_logprob"] = decoded[0], log_prob
decoded, log_prob = K.ctc_decode(x["probs"], tf.constant([6, 5]), greedy=False, beam_width=4, top_paths=2)
R["ctc_beam0"], R["ctc_beam1"], R["ctc_beam_logprob"] = decoded[0], decoded[1], log_prob
sp = K.ctc_label_dense_to_sparse(x["labels"], tf.constant([2, 3]))
R["dense_to_sparse_indices"], R["dense_to_sparse_values"] = sp.indices, sp.values
R["eye"] = K.eye(3)
avg = tf.Variable(np.zeros(3, "float32"))
upd = K.moving_average_update(avg, x["gamma"], 0.9)
R["random_binomial"] = K.random_binomial((4, 5), p=0.3, seed=5)
R["truncated_normal"] = K.truncated_normal((3, 4), mean=1.0, stddev=2.0, seed=7)
R["random_uniform_variable"] = K.random_uniform_variable((2, 3), -1.0, 2.0, seed=3)
R["random_normal_variable"] = K.random_normal_variable((2, 3), 0.5, 2.0, seed=4)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    results = sess.run(R)
    results["moving_average_1"] = sess.run(upd)
    results["moving_average_2"] = sess.run(upd)
out = {"in_" + k: v for k, v in IN.items()}
out.update({"out_" + k: np.asarray(v) for k, v in results.items()})
np.savez_compressed(os.path.join(os.path.dirname(os.path.abspath(__file__)), "keras_backend2_tf.npz"), **out)
print("wrote", len(out), "arrays")
