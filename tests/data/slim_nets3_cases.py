"""TF models-repository slim cases of MobileNet v1 and LeNet, shared by tests/data/make_slim_nets3_tf.py (run
with `research/slim/nets/{mobilenet_v1,lenet}.py` on TensorFlow) and tests/contrib/test_slim_nets3.py (run
with `tf.contrib.slim.nets`): every builder takes `slim`, `nets` (an object with the modules mobilenet_v1
and lenet) and `tf`.

Variables are set as in tests/data/slim_nets_cases.py (`set_vars`, `var_value`).
"""

try:  # as tests.data.slim_nets3_cases (the test) or as a top-level module (the recording script)
    from .slim_nets_cases import image, set_vars, var_value  # noqa: F401 (re-exported)
except ImportError:
    from slim_nets_cases import image, set_vars, var_value  # noqa: F401

CKPT_CASE = "mobilenet_v1_tiny"  # the case whose tf-slim checkpoint is in tests/data/slim_nets3_checkpoint
CASES = ("mobilenet_v1", "mobilenet_v1_075", "mobilenet_v1_tiny", "mobilenet_v1_base_os8_explicit",
         "mobilenet_v1_base_os16", "mobilenet_v1_global_pool", "mobilenet_v1_custom_defs", "mobilenet_v1_train",
         "lenet", "lenet_features")


def build(case, slim, nets, tf):
    """Builds `case` (is_training=False but in "_train") over a constant image; returns (logits, end_points)."""
    m = nets.mobilenet_v1
    if case.startswith("mobilenet_v1"):
        if case == "mobilenet_v1_train":  # batch_norm with batch statistics (and update ops); no dropout
            with slim.arg_scope(m.mobilenet_v1_arg_scope(regularize_depthwise=True)):
                return m.mobilenet_v1(tf.constant(image((2, 40, 40, 3), 37)), num_classes=4, is_training=True,
                                      dropout_keep_prob=1.0, depth_multiplier=0.25, scope="train")
        with slim.arg_scope(m.mobilenet_v1_arg_scope(is_training=False)):
            if case == "mobilenet_v1":  # 64x64: Conv2d_13 is 2x2, the final average pool shrinks to it
                return m.mobilenet_v1(tf.constant(image((1, 64, 64, 3), 30)), num_classes=10, is_training=False,
                                      depth_multiplier=0.5)
            if case == "mobilenet_v1_075":
                return m.mobilenet_v1_075(tf.constant(image((1, 48, 48, 3), 31)), num_classes=5,
                                          is_training=False, spatial_squeeze=False, global_pool=True,
                                          prediction_fn=None)
            if case == "mobilenet_v1_tiny":  # a small checkpoint
                return m.mobilenet_v1(tf.constant(image((1, 32, 32, 3), 32)), num_classes=3, is_training=False,
                                      depth_multiplier=0.08, min_depth=2, scope="tiny")
            if case == "mobilenet_v1_base_os8_explicit":  # atrous depthwise layers after stride 8, VALID + pads
                return m.mobilenet_v1_base(tf.constant(image((1, 40, 40, 3), 33)), depth_multiplier=0.25,
                                           output_stride=8, use_explicit_padding=True)
            if case == "mobilenet_v1_base_os16":
                return m.mobilenet_v1_base(tf.constant(image((1, 33, 33, 3), 34)), depth_multiplier=0.25,
                                           output_stride=16, final_endpoint="Conv2d_13_depthwise", scope="os16")
            if case == "mobilenet_v1_global_pool":  # no logits layer: the pooled features
                return m.mobilenet_v1(tf.constant(image((1, 50, 50, 3), 35)), num_classes=0, is_training=False,
                                      depth_multiplier=0.25, global_pool=True)
            if case == "mobilenet_v1_custom_defs":
                defs = [m.Conv(kernel=[3, 3], stride=2, depth=16), m.DepthSepConv(kernel=[3, 3], stride=2, depth=32),
                        m.DepthSepConv(kernel=[5, 5], stride=1, depth=24)]
                return m.mobilenet_v1_base(tf.constant(image((1, 24, 24, 3), 36)), conv_defs=defs,
                                           final_endpoint="Conv2d_2_pointwise", scope="custom")
    if case.startswith("lenet"):
        with slim.arg_scope(nets.lenet.lenet_arg_scope(weight_decay=0.0004)):
            if case == "lenet":
                return nets.lenet.lenet(tf.constant(image((2, 28, 28, 1), 38)), num_classes=10)
            if case == "lenet_features":
                return nets.lenet.lenet(tf.constant(image((1, 28, 28, 3), 39)), num_classes=0, is_training=True)
    raise KeyError(case)
