"""tf.contrib.slim.nets (the slim model zoo) against tf-slim 1.1's `nets` on TF 2.21 (goldens recorded by
tests/data/make_slim_nets_tf.py over the cases of tests/data/slim_nets_cases.py): variable names and
shapes, end points (names, order and static shapes), the logits with the same deterministic weights, a
tf-slim-written checkpoint restoring into the same network, and the errors a user can hit."""

import os

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.contrib.slim as slim
import tensorweave.contrib.slim.nets as nets
from tests.contrib.slim_goldens import Goldens
from tests.data import slim_nets_cases as cases

G = Goldens("slim_nets", cases, nets, "predictions")


@pytest.mark.parametrize("case", cases.CASES)
def test_logits_variables_end_points(case):
    G.check_case(case)


def test_restore_tf_slim_checkpoint():
    """A checkpoint written by tf-slim's saver restores into tensorweave's network and gives TF's logits."""
    G.check_checkpoint_restore()


def test_reuse():
    """reuse=True builds the same network over the existing variables."""
    with tf.Graph().as_default():
        x = tf.constant(cases.image((1, 32, 32, 3)))
        blocks = [nets.resnet_v1.resnet_v1_block("block1", base_depth=2, num_units=1, stride=2)]
        a, _ = nets.resnet_v1.resnet_v1(x, blocks, num_classes=3, scope="net")
        n = len(tf.global_variables())
        b, end_points = nets.resnet_v1.resnet_v1(x, blocks, num_classes=3, reuse=True, scope="net")
        assert len(tf.global_variables()) == n and "net/block1" in end_points
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            va, vb = sess.run([a, b])
    np.testing.assert_allclose(va, vb, rtol=1e-6)


def test_public_names():
    assert tf.contrib.slim.nets is nets and slim.nets is nets
    r1, r2, ru = nets.resnet_v1, nets.resnet_v2, nets.resnet_utils
    for name in ("resnet_v1", "resnet_v1_block", "resnet_v1_50", "resnet_v1_101", "resnet_v1_152", "resnet_v1_200"):
        assert callable(getattr(r1, name)) and callable(getattr(r2, name.replace("v1", "v2")))
    assert r1.resnet_v1_50.default_image_size == 224 and nets.vgg.vgg_16.default_image_size == 224
    assert nets.vgg.vgg_d is nets.vgg.vgg_16 and nets.vgg.vgg_e is nets.vgg.vgg_19
    block = r1.resnet_v1_block("b", base_depth=2, num_units=3, stride=2)
    assert block.scope == "b" and block.unit_fn is r1.bottleneck
    assert block.args == [{"depth": 8, "depth_bottleneck": 2, "stride": 1}] * 2 + [
        {"depth": 8, "depth_bottleneck": 2, "stride": 2}]
    assert isinstance(block, ru.Block)
    inc = nets.inception
    assert inc.inception_v1 is nets.inception_v1.inception_v1 and inc.inception_v3 is nets.inception_v3.inception_v3
    assert inc.inception_v3_base is nets.inception_v3.inception_v3_base and inc.inception_v3.default_image_size == 299


def test_resnet_utils_conv2d_same_and_subsample():
    """conv2d_same(stride 2) equals a stride-1 'SAME' convolution subsampled by 2 (TF's testConv2DSameEven)."""
    x = np.arange(1, 37, dtype=np.float32).reshape(1, 6, 6, 1)
    w = np.arange(1, 10, dtype=np.float32).reshape(3, 3, 1, 1)
    with tf.Graph().as_default():
        with slim.arg_scope([slim.conv2d], weights_initializer=tf.constant_initializer(w),
                            biases_initializer=None, activation_fn=None):
            y1 = nets.resnet_utils.conv2d_same(tf.constant(x), 1, 3, stride=1, scope="Conv")
            y2 = nets.resnet_utils.conv2d_same(tf.constant(x), 1, 3, stride=2, scope="Conv_2")
            y2_naive = slim.conv2d(tf.constant(x), 1, [3, 3], stride=2, scope="Conv_3")
        sub = nets.resnet_utils.subsample(y1, 2)
        assert nets.resnet_utils.subsample(y1, 1) is y1
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            a, b, c = sess.run([y2, sub, y2_naive])
    np.testing.assert_allclose(a, b)
    assert a.shape == (1, 3, 3, 1) and not np.allclose(a, c)  # stride-2 'SAME' pads differently on even inputs


def test_inception_final_endpoint():
    """inception_v1_base stops at the requested end point (the end points so far, in order)."""
    with tf.Graph().as_default():
        net, end_points = nets.inception_v1.inception_v1_base(tf.zeros([1, 64, 64, 3]), final_endpoint="Mixed_3b")
        assert list(end_points) == ["Conv2d_1a_7x7", "MaxPool_2a_3x3", "Conv2d_2b_1x1", "Conv2d_2c_3x3",
                                    "MaxPool_3a_3x3", "Mixed_3b"]
        assert net is end_points["Mixed_3b"] and net.shape.as_list() == [1, 8, 8, 256]
        assert tf.global_variables()[0].op.name == "InceptionV1/Conv2d_1a_7x7/weights"


def test_errors():
    r1 = nets.resnet_v1
    blocks = [r1.resnet_v1_block("block1", base_depth=1, num_units=1, stride=2),
              r1.resnet_v1_block("block2", base_depth=1, num_units=1, stride=2)]
    with tf.Graph().as_default():
        x = tf.zeros([1, 16, 16, 3])
        with pytest.raises(ValueError, match="The output_stride needs to be a multiple of 4."):
            r1.resnet_v1(x, blocks, output_stride=6)
    with tf.Graph().as_default():
        x = tf.zeros([1, 16, 16, 3])
        with pytest.raises(ValueError, match="The target output_stride cannot be reached."):
            r1.resnet_v1(x, blocks, output_stride=32)  # 4 * 2 * 2 = 16 at most
    with tf.Graph().as_default():
        x = tf.zeros([1, 16, 16, 3])
        with pytest.raises(ValueError, match="The target output_stride cannot be reached."):
            nets.resnet_v2.resnet_v2(x, blocks, include_root_block=False, output_stride=3)
    with tf.Graph().as_default():
        with pytest.raises(ValueError):  # the units need rank-4 NHWC input
            r1.resnet_v1(tf.zeros([16, 16, 3]), blocks)
    with tf.Graph().as_default():
        x = tf.zeros([1, 80, 80, 3])
        with pytest.raises(ValueError, match="Unknown final endpoint Mixed_9z"):
            nets.inception_v3.inception_v3_base(x, final_endpoint="Mixed_9z")
        with pytest.raises(ValueError, match="Unknown final endpoint Mixed_9z"):
            nets.inception_v1.inception_v1_base(x, final_endpoint="Mixed_9z")
        with pytest.raises(ValueError, match="depth_multiplier is not greater than zero."):
            nets.inception_v3.inception_v3(x, depth_multiplier=0.0)
    with tf.Graph().as_default():
        with pytest.raises(ValueError):  # fc6 is a 'VALID' 7x7 convolution over pool5's output: 32x32 is too small
            nets.vgg.vgg_a(tf.zeros([1, 32, 32, 3]), num_classes=10)


def test_example_slim_resnet(capsys):
    """examples/slim_resnet.py runs: resnet_v1_50's top-5 and the tf-slim checkpoint's logits."""
    import runpy

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    example = runpy.run_path(os.path.join(root, "examples", "slim_resnet.py"))
    example["main"](["--size", "64"])
    out = capsys.readouterr().out
    assert "resnet_v1_50 top-5 (random weights):" in out and "  5. class" in out
    np.testing.assert_allclose(example["small_resnet_logits"](), G.logits[cases.CKPT_CASE].reshape(-1), rtol=1e-4,
                               atol=1e-5)
