"""tf-slim model-zoo cases shared by tests/data/make_slim_nets_tf.py (run with tf-slim's `nets` on
TensorFlow) and tests/contrib/test_slim_nets.py (run with `tf.contrib.slim.nets`): every builder takes
`slim`, `nets` (an object with the modules vgg, alexnet, resnet_utils, resnet_v1, resnet_v2,
inception_v1, inception_v3) and `tf`.

Every variable is set from `var_value(name, shape)`: a RandomState seeded by the crc32 of the name, scaled
by 1/sqrt(fan_in) for weights, so the values do not depend on the order variables are created in.
"""

import zlib

import numpy as np

CKPT_CASE = "resnet_v1_small"  # the case whose tf-slim checkpoint is stored in tests/data/slim_nets_checkpoint
CASES = ("resnet_v1_small", "resnet_v1_small_os4", "resnet_v1_50", "resnet_v2_small", "resnet_v2_small_os8",
         "resnet_v2_50_nopool", "vgg_a", "vgg_16", "vgg_19", "alexnet_v2", "inception_v1", "inception_v3",
         "inception_v3_small", "inception_v3_base_6a", "resnet_v2_small_train")


def image(shape, seed=7):
    return np.random.RandomState(seed).uniform(-1.0, 1.0, shape).astype(np.float32)


_PERIOD = 65521  # big weights repeat a block of this (prime) many draws: vgg's fc6 alone has 100M


def _normal(rs, shape):
    n = int(np.prod(shape))
    return np.resize(rs.standard_normal(min(n, _PERIOD)).astype(np.float32), shape)


def var_value(name, shape):
    """The deterministic float32 value of the variable `name` (without ':0') of `shape`."""
    rs = np.random.RandomState(zlib.crc32(name.encode()) & 0x7FFFFFFF)
    leaf = name.rsplit("/", 1)[-1]
    if leaf == "moving_variance":
        return rs.uniform(0.5, 1.5, shape).astype(np.float32)
    if leaf == "gamma":
        return 1.0 + np.float32(0.1) * _normal(rs, shape)
    if leaf in ("beta", "biases", "moving_mean"):
        return np.float32(0.1) * _normal(rs, shape)
    fan_in = int(np.prod(shape[:-1])) if len(shape) > 1 else 1
    return _normal(rs, shape) * np.float32(np.sqrt(1.0 / fan_in))


def set_vars(tf, sess):
    """Loads `var_value` into every global variable."""
    for v in tf.global_variables():
        v.load(var_value(v.op.name, v.shape.as_list()), sess)


def _small_blocks(block_fn):
    return [block_fn("block1", base_depth=4, num_units=2, stride=2),
            block_fn("block2", base_depth=8, num_units=2, stride=1)]


def build(case, slim, nets, tf):
    """Builds `case` (is_training=False but in "_train") over a constant image; returns (logits, end_points)."""
    r1, r2 = nets.resnet_v1, nets.resnet_v2
    if case.startswith("resnet"):
        with slim.arg_scope(nets.resnet_utils.resnet_arg_scope()):
            if case == "resnet_v1_small":
                return r1.resnet_v1(tf.constant(image((1, 32, 32, 3))), _small_blocks(r1.resnet_v1_block),
                                    num_classes=5, is_training=False, scope="resnet_v1_small")
            if case == "resnet_v1_small_os4":  # atrous: block1's stride is replaced by rate 2 in block2
                blocks = [r1.resnet_v1_block("block1", base_depth=4, num_units=2, stride=2),
                          r1.resnet_v1_block("block2", base_depth=4, num_units=2, stride=2)]
                return r1.resnet_v1(tf.constant(image((2, 33, 33, 3), 8)), blocks, num_classes=3, is_training=False,
                                    global_pool=False, output_stride=4, scope="small_os4")
            if case == "resnet_v1_50":
                return r1.resnet_v1_50(tf.constant(image((1, 32, 32, 3))), num_classes=10, is_training=False)
            if case == "resnet_v2_small":
                return r2.resnet_v2(tf.constant(image((1, 32, 32, 3))), _small_blocks(r2.resnet_v2_block),
                                    num_classes=5, is_training=False)
            if case == "resnet_v2_small_os8":
                blocks = [r2.resnet_v2_block("block1", base_depth=4, num_units=2, stride=2),
                          r2.resnet_v2_block("block2", base_depth=4, num_units=1, stride=2),
                          r2.resnet_v2_block("block3", base_depth=8, num_units=2, stride=1)]
                return r2.resnet_v2(tf.constant(image((1, 40, 40, 3), 9)), blocks, num_classes=4, is_training=False,
                                    output_stride=8, scope="small_os8")
            if case == "resnet_v2_small_train":  # batch_norm with batch statistics (and update ops)
                return r2.resnet_v2(tf.constant(image((3, 24, 24, 3), 14)), _small_blocks(r2.resnet_v2_block),
                                    num_classes=5, is_training=True, scope="train")
            if case == "resnet_v2_50_nopool":
                return r2.resnet_v2_50(tf.constant(image((1, 32, 32, 3))), num_classes=None, is_training=False,
                                       global_pool=False)
    x = tf.constant(image((1, 224, 224, 3), 10))
    if case in ("vgg_a", "vgg_16", "vgg_19"):
        with slim.arg_scope(nets.vgg.vgg_arg_scope()):
            return getattr(nets.vgg, case)(x, num_classes=10, is_training=False)
    if case == "alexnet_v2":
        with slim.arg_scope(nets.alexnet.alexnet_v2_arg_scope()):
            return nets.alexnet.alexnet_v2(x, num_classes=10, is_training=False)
    if case == "inception_v1":
        with slim.arg_scope(nets.inception_v1.inception_v1_arg_scope()):
            return nets.inception_v1.inception_v1(x, num_classes=10, is_training=False)
    v3 = nets.inception_v3
    with slim.arg_scope(v3.inception_v3_arg_scope()):
        if case == "inception_v3":  # the smallest input with the auxiliary head (Mixed_6e is 5x5)
            return v3.inception_v3(tf.constant(image((1, 107, 107, 3), 11)), num_classes=10, is_training=False)
        if case == "inception_v3_small":
            return v3.inception_v3(tf.constant(image((1, 75, 75, 3), 12)), num_classes=6, is_training=False,
                                   depth_multiplier=0.25, min_depth=8, create_aux_logits=False,
                                   spatial_squeeze=False)
        if case == "inception_v3_base_6a":
            return v3.inception_v3_base(tf.constant(image((1, 80, 80, 3), 13)), final_endpoint="Mixed_6a",
                                        depth_multiplier=0.5)
    raise KeyError(case)
