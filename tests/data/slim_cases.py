"""tf-slim cases shared by tests/data/make_slim_goldens.py (run with tf-slim on TensorFlow) and
tests/contrib/test_slim_layers.py / test_slim_losses_metrics.py (run with tensorweave): every builder takes
the `slim` and `tf` modules, so the same TF1 program is recorded with TensorFlow and checked with tensorweave.
"""

import numpy as np

MODEL_X = np.random.RandomState(1).normal(size=(2, 8, 8, 3)).astype(np.float32)
BN_X4 = np.random.RandomState(2).normal(size=(4, 3, 3, 2)).astype(np.float32) * 2 + 1
BN_X2 = np.random.RandomState(3).normal(size=(6, 5)).astype(np.float32) * 3 - 1
# the batch_norm cases also run with `is_training` fed through a placeholder (True and False)
BN_FEED_CASES = ("default4", "nofused4", "noupd4", "default2", "weights4")


def set_vars(tf, sess):
    """Loads a RandomState(0) stream into the variables in sorted-name order (moving variances in U(0.5, 1.5))."""
    rs = np.random.RandomState(0)
    for v in sorted(tf.global_variables(), key=lambda v: v.op.name):
        shape = v.shape.as_list()
        val = rs.uniform(0.5, 1.5, shape) if v.op.name.endswith("moving_variance") else rs.normal(size=shape) * 0.3
        v.load(val.astype(np.float32), sess)


def model(slim, tf):
    """The test model's logits over tf.constant(MODEL_X)."""
    x = tf.constant(MODEL_X)
    with slim.arg_scope([slim.conv2d, slim.fully_connected], weights_regularizer=slim.l2_regularizer(0.01)):
        with slim.arg_scope([slim.conv2d], normalizer_fn=slim.batch_norm, normalizer_params={"decay": 0.9}):
            net = slim.conv2d(x, 4, [3, 3], scope="conv1", outputs_collections="end_points")
        net = slim.max_pool2d(net, [2, 2], scope="pool1", outputs_collections="end_points")
        net = slim.conv2d(net, 5, 3, rate=2, scope="conv2")
        net = slim.avg_pool2d(net, [2, 2], stride=1, padding="SAME", scope="pool2")
        net = slim.conv2d_transpose(net, 3, [3, 3], stride=2, scope="deconv", outputs_collections="end_points")
        net = slim.separable_conv2d(net, 6, [3, 3], depth_multiplier=2, scope="sep")
        net = slim.separable_conv2d(net, None, [3, 3], depth_multiplier=1, stride=2, scope="dw")
        net = slim.repeat(net, 2, slim.conv2d, 4, [1, 1], scope="rep")
        net = slim.stack(net, slim.conv2d, [(3, [1, 1]), (2, [3, 3])], scope="stk")
        net = slim.layer_norm(net, scope="ln")
        net = slim.conv2d(net, 3, [2, 2], padding="VALID", activation_fn=tf.nn.tanh, biases_initializer=None,
                          scope="valid")
        net = slim.flatten(net)
        net = slim.fully_connected(net, 7, scope="fc", normalizer_fn=slim.batch_norm)
        net = slim.dropout(net, 0.5, is_training=False)
        return slim.fully_connected(net, 3, activation_fn=None, scope="logits")


def bn_cases(tf):
    """{name: (x, batch_norm kwargs)}."""
    return {
        "default4": (BN_X4, dict()),
        "nofused4": (BN_X4, dict(fused=False, scale=True)),
        "default2": (BN_X2, dict(scale=True, decay=0.9)),
        "nofused2": (BN_X2, dict(fused=False, center=False, epsilon=0.01)),
        "noupd4": (BN_X4, dict(updates_collections=None, decay=0.5)),
        "noupd_nofused4": (BN_X4, dict(updates_collections=None, decay=0.5, fused=False)),
        "inference4": (BN_X4, dict(is_training=False, scale=True)),
        "params4": (BN_X4, dict(scale=True, param_initializers={
            "beta": tf.constant_initializer(0.25), "gamma": tf.constant_initializer(1.5),
            "moving_mean": tf.constant_initializer(0.5), "moving_variance": tf.constant_initializer(2.0)})),
        "act4": (BN_X4, dict(activation_fn=tf.nn.relu, decay=0.8)),
        "weights4": (BN_X4, dict(scale=True, batch_weights=np.array([1.0, 2.0, 0.0, 1.0], np.float32))),
        "weights2_noupd": (BN_X2, dict(batch_weights=np.arange(6, dtype=np.float32), updates_collections=None)),
    }


def bn_runs(cases):
    """The (name, mode) runs of the batch_norm cases: mode "const", and "feed_true"/"feed_false" for some."""
    return [(name, mode) for name in cases for mode in ("const", "feed_true", "feed_false")
            if mode == "const" or name in BN_FEED_CASES]


def batch_norm(slim, tf, x, kw, mode):
    """slim.batch_norm over tf.constant(x), `is_training` fed unless mode is "const": (y, feed)."""
    feed = {}
    kw2 = dict(kw)
    if mode != "const":
        flag = tf.placeholder(tf.bool, [])
        kw2["is_training"] = flag
        feed = {flag: mode == "feed_true"}
    return slim.batch_norm(tf.constant(x), **kw2), feed


def run_batch_norm(tf, y, feed):
    """Runs y with its update ops once: (y, moving mean, moving variance)."""
    upd = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run([y] + upd, feed)[0]
        mv = [v for v in tf.global_variables() if "moving" in v.op.name]
        mean, var = sess.run(mv)
    return out, mean, var


def layer_norms(slim, tf):
    """(x, y1, y2): two layer_norm layers over tf.constant(BN_X4)."""
    x = tf.constant(BN_X4)
    y1 = slim.layer_norm(x, begin_norm_axis=1, begin_params_axis=-1, scope="ln1")
    y2 = slim.layer_norm(x, begin_norm_axis=-1, begin_params_axis=-2, center=False, activation_fn=tf.nn.relu,
                         scope="ln2")
    return x, y1, y2


def misc_layers(slim, tf):
    x = tf.constant(BN_X4)
    return {
        "unit_norm": slim.unit_norm(x, 2),
        "softmax": slim.softmax(x),
        "one_hot": slim.one_hot_encoding(tf.constant([0, 2, 1]), 4, on_value=2.0, off_value=-1.0),
        "bias_add": slim.bias_add(x, activation_fn=tf.nn.relu, scope="ba"),
        "conv1d": slim.convolution(tf.constant(BN_X2.reshape(2, 5, 3)), 2, 2, stride=2, scope="c1d"),
        "conv_nchw_pool": slim.max_pool2d(tf.transpose(x, [0, 3, 1, 2]), 2, padding="SAME", data_format="NCHW"),
        "avg_nchw_pool": slim.avg_pool2d(tf.transpose(x, [0, 3, 1, 2]), [2, 1], stride=[1, 2],
                                         data_format="NCHW"),
        "deconv_valid": slim.conv2d_transpose(x, 2, [2, 3], stride=[2, 1], padding="VALID", scope="dv"),
        "sep_rate": slim.separable_conv2d(x, 3, [2, 2], depth_multiplier=1, rate=2, scope="sr"),
    }


def extra_layers(slim, tf):
    """(v, outs, sp): a 5-D input, the outputs of the other layers, and a dense_to_sparse result."""
    rs = np.random.RandomState(7)
    v = tf.constant(rs.normal(size=(2, 4, 5, 3, 2)).astype(np.float32))
    x = tf.constant(BN_X4)
    outs = {
        "conv3d": slim.conv3d(v, 3, [2, 3, 1], padding="VALID", scope="c3"),
        "conv3d_rate": slim.convolution3d(v, 2, 2, rate=2, activation_fn=None, scope="c3r"),
        "max_pool3d": slim.max_pool3d(v, [2, 2, 1], stride=[1, 2, 1]),
        "avg_pool3d": slim.avg_pool3d(v, 2, padding="SAME"),
        "instance_norm": slim.instance_norm(x, scope="in1"),
        "instance_norm_nchw": slim.instance_norm(tf.transpose(x, [0, 3, 1, 2]), data_format="NCHW",
                                                 activation_fn=tf.nn.relu, scope="in2"),
        "maxout": slim.maxout(tf.constant(BN_X2[:, :4]), 2),
        "images_to_sequence": slim.images_to_sequence(x),
        "sequence_to_images": slim.sequence_to_images(tf.constant(rs.normal(size=(5, 6, 2)).astype(np.float32)), 3),
        "elu": slim.elu(tf.constant(BN_X2), 3, scope="el"),
        "in_plane": slim.conv2d_in_plane(x, [2, 3], stride=[1, 2], scope="ip"),
        "conv3d_transpose": slim.conv3d_transpose(v, 2, [2, 1, 3], stride=[2, 1, 2], scope="c3t"),
        "conv3d_transpose_valid": slim.conv3d_transpose(v, 1, 2, stride=2, padding="VALID", activation_fn=None,
                                                        scope="c3tv"),
        "pool_max": slim.pool(x, [2, 2], "MAX", padding="SAME", stride=[1, 2]),
        "pool_avg_dilated": slim.pool(x, 2, "AVG", dilation_rate=2),
        "group_norm": slim.group_norm(tf.constant(rs.normal(size=(2, 3, 3, 6)).astype(np.float32)) * 3 + 1,
                                      groups=3, scope="gn"),
        "group_norm_nchw": slim.group_norm(v, groups=2, channels_axis=1, reduction_axes=(-2, -1), center=False,
                                           mean_close_to_zero=True, scope="gn2"),
    }
    sp = slim.dense_to_sparse(tf.constant([[1, 0, 3], [0, 0, 5]]))
    return v, outs, sp


def losses(slim, tf):
    """{name: loss}, "total" last (slim.losses.get_total_loss without regularization losses)."""
    rs = np.random.RandomState(4)
    logits = tf.constant(rs.normal(size=(4, 3)).astype(np.float32))
    onehot = tf.constant(np.eye(3, dtype=np.float32)[[0, 2, 1, 1]])
    sparse = tf.constant([0, 2, 1, 1])
    w = tf.constant([1., 0., 2., 0.5])
    pred = tf.constant(rs.uniform(0.1, 0.9, size=(4, 3)).astype(np.float32))
    lab = tf.constant(rs.uniform(size=(4, 3)).astype(np.float32))
    L = slim.losses
    outs = {
        "softmax": L.softmax_cross_entropy(logits, onehot),
        "softmax_w_ls": L.softmax_cross_entropy(logits, onehot, weights=w, label_smoothing=0.1),
        "sigmoid": L.sigmoid_cross_entropy(logits, onehot, weights=2.0, label_smoothing=0.2),
        "sparse": L.sparse_softmax_cross_entropy(logits, sparse, weights=w),
        "log": L.log_loss(pred, onehot, weights=w[:, None]),
        "hinge": L.hinge_loss(logits, onehot),
        "mse": L.mean_squared_error(pred, lab, weights=w[:, None] * tf.ones([4, 3])),
        "absdiff": L.absolute_difference(pred, lab, weights=0.0),
        "cosine": L.cosine_distance(tf.nn.l2_normalize(pred, 1), tf.nn.l2_normalize(lab, 1), dim=1),
        "pairwise": L.mean_pairwise_squared_error(pred, lab, weights=w),
        "weighted": L.compute_weighted_loss(pred, weights=w[:, None]),
    }
    outs["total"] = L.get_total_loss(add_regularization_losses=False)
    return outs


def streaming_metrics(slim, tf):
    """(p, lab, wt, metrics): three float32 [6] placeholders and {name: (value, update)}."""
    p = tf.placeholder(tf.float32, [6])
    lab = tf.placeholder(tf.float32, [6])
    wt = tf.placeholder(tf.float32, [6])
    M = slim.metrics
    return p, lab, wt, {
        "accuracy": M.streaming_accuracy(tf.round(p), lab, weights=wt),
        "mean": M.streaming_mean(p, weights=wt),
        "recall": M.streaming_recall(tf.round(p), lab),
        "precision": M.streaming_precision(tf.round(p), lab, weights=wt),
        "auc": M.streaming_auc(p, lab, num_thresholds=50),
        "auc_pr": M.streaming_auc(p, lab, curve="PR", num_thresholds=50),
        "mse": M.streaming_mean_squared_error(p, lab),
        "mae": M.streaming_mean_absolute_error(p, lab, weights=wt),
        "rmse": M.streaming_root_mean_squared_error(p, lab),
    }


def metric_inputs():
    rs = np.random.RandomState(8)
    p = rs.uniform(size=8).astype(np.float32)
    lab = rs.uniform(size=8) > 0.5
    w = rs.uniform(size=8).astype(np.float32)
    logits = rs.normal(size=(8, 4)).astype(np.float32)
    logits2 = rs.normal(size=(8, 4)).astype(np.float32)
    cls = rs.randint(0, 4, size=8).astype(np.int64)
    norm = rs.uniform(1, 2, size=8).astype(np.float32)
    return p, lab, w, logits, logits2, cls, norm


def more_metrics(slim, tf):
    p, lab, w, logits, logits2, cls, norm = [tf.constant(v) for v in metric_inputs()]
    M = slim.metrics
    return {
        "tp": M.streaming_true_positives(p > 0.5, lab, weights=w),
        "tn": M.streaming_true_negatives(p > 0.5, lab),
        "fp": M.streaming_false_positives(p > 0.5, lab, weights=w),
        "fn": M.streaming_false_negatives(p > 0.5, lab),
        "mean_tensor": M.streaming_mean_tensor(logits),
        "mre": M.streaming_mean_relative_error(p, tf.cast(lab, tf.float32), norm),
        "cos": M.streaming_mean_cosine_distance(tf.nn.l2_normalize(logits, 1), tf.nn.l2_normalize(logits2, 1), 1),
        "iou": M.streaming_mean_iou(tf.argmax(logits, 1), cls, 4),
        "pct_less": M.streaming_percentage_less(p, 0.4, weights=w),
        "prec_thr": M.streaming_precision_at_thresholds(p, lab, [0.2, 0.5, 0.8]),
        "rec_thr": M.streaming_recall_at_thresholds(p, lab, [0.2, 0.5, 0.8], weights=w),
        "sens": M.streaming_sensitivity_at_specificity(p, lab, 0.5, num_thresholds=20),
        "spec": M.streaming_specificity_at_sensitivity(p, lab, 0.5, num_thresholds=20),
        "recall_at_k": M.streaming_recall_at_k(logits, tf.cast(cls, tf.int32), 2),
        "sp_prec_k": M.streaming_sparse_precision_at_k(logits, cls, 2),
        "sp_rec_k": M.streaming_sparse_recall_at_k(logits, cls, 2, class_id=1),
    }


def optimize_loss(slim, tf):
    """(w, loss, gs, train_op, train_op2): an SGD optimize_loss with clipping and summaries, and an Adam one
    with a decayed learning rate, over the same loss."""
    x = tf.constant(np.random.RandomState(6).normal(size=(5, 3)).astype(np.float32))
    w = tf.get_variable("w", initializer=tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2) / 6))
    loss = tf.reduce_sum(tf.square(tf.matmul(x, w) - 1.0))
    gs = tf.train.get_or_create_global_step()
    train_op = slim.optimize_loss(loss, gs, learning_rate=0.05, optimizer="SGD",
                                  clip_gradients=1.0, summaries=["loss", "gradient_norm"])
    train_op2 = slim.optimize_loss(loss, gs, learning_rate=0.1, optimizer="Adam",
                                   learning_rate_decay_fn=lambda lr, g: tf.train.exponential_decay(lr, g, 1, 0.5),
                                   name="Opt2")
    return w, loss, gs, train_op, train_op2
