"""tf-slim model-zoo cases of Inception V2 and OverFeat, shared by tests/data/make_slim_nets2_tf.py (run with
tf-slim's `nets` on TensorFlow) and tests/contrib/test_slim_nets2.py (run with `tf.contrib.slim.nets`):
every builder takes `slim`, `nets` (an object with the modules inception_v2 and overfeat) and `tf`.

Variables are set as in tests/data/slim_nets_cases.py (`set_vars`, `var_value`).
"""

try:  # as tests.data.slim_nets2_cases (the test) or as a top-level module (the recording script)
    from .slim_nets_cases import image, set_vars, var_value  # noqa: F401 (re-exported)
except ImportError:
    from slim_nets_cases import image, set_vars, var_value  # noqa: F401

CKPT_CASE = "inception_v2_tiny"  # the case whose tf-slim checkpoint is in tests/data/slim_nets2_checkpoint
CASES = ("inception_v2", "inception_v2_small", "inception_v2_tiny", "inception_v2_base_4a", "inception_v2_train",
         "overfeat")


def build(case, slim, nets, tf):
    """Builds `case` (is_training=False but in "_train") over a constant image; returns (logits, end_points)."""
    v2 = nets.inception_v2
    if case.startswith("inception_v2"):
        with slim.arg_scope(v2.inception_v2_arg_scope()):
            if case == "inception_v2":  # 64x64: Mixed_5c is 2x2, the final average pool shrinks to it
                return v2.inception_v2(tf.constant(image((1, 64, 64, 3), 20)), num_classes=10, is_training=False)
            if case == "inception_v2_small":
                return v2.inception_v2(tf.constant(image((1, 48, 48, 3), 21)), num_classes=5, is_training=False,
                                       depth_multiplier=0.5, min_depth=8, spatial_squeeze=False)
            if case == "inception_v2_tiny":  # a small checkpoint
                return v2.inception_v2(tf.constant(image((1, 32, 32, 3), 25)), num_classes=3, is_training=False,
                                       depth_multiplier=0.05, min_depth=2, scope="tiny")
            if case == "inception_v2_base_4a":
                return v2.inception_v2_base(tf.constant(image((1, 40, 40, 3), 22)), final_endpoint="Mixed_4a",
                                            depth_multiplier=0.25)
            if case == "inception_v2_train":  # batch_norm with batch statistics (and update ops); no dropout
                return v2.inception_v2(tf.constant(image((2, 40, 40, 3), 23)), num_classes=4, is_training=True,
                                       dropout_keep_prob=1.0, depth_multiplier=0.25, scope="train")
    if case == "overfeat":
        with slim.arg_scope(nets.overfeat.overfeat_arg_scope()):
            return nets.overfeat.overfeat(tf.constant(image((1, 231, 231, 3), 24)), num_classes=10,
                                          is_training=False)
    raise KeyError(case)
