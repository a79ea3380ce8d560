"""TF-slim's model zoo in tensorweave: ResNet-50 v1 from `tf.contrib.slim.nets` (randomly initialised)
classifying an image into ImageNet's 1000 classes (top-5 class ids with their probabilities), then a
small ResNet v1 restored from a checkpoint written by TensorFlow's tf-slim
(tests/data/slim_nets_checkpoint, recorded by tests/data/make_slim_nets_tf.py).

    python examples/slim_resnet.py [--image FILE.png|jpg] [--size 224] [--checkpoint PATH]

Without `--image` a synthetic image (a colour gradient with a disc) is used. The random weights make
the classes meaningless; with the ImageNet checkpoint of slim's resnet_v1_50 (`resnet_v1_50.ckpt`)
passed as `--checkpoint-50` the same program gives real predictions (slim's v1 ResNets expect
VGG-style preprocessing: RGB in [0, 255] minus the channel means).
"""

import argparse
import os

import numpy as np

import tensorweave as tf
import tensorweave.contrib.slim as slim
from tensorweave.contrib.slim.nets import resnet_v1

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SMALL_CKPT = os.path.join(ROOT, "tests", "data", "slim_nets_checkpoint", "model.ckpt")
_RGB_MEANS = np.array([123.68, 116.78, 103.94], np.float32)


def synthetic_image(size):
    """A [size, size, 3] uint8 image: a colour gradient with a bright disc."""
    y, x = np.mgrid[0:size, 0:size] / float(size)
    img = np.stack([x, y, 1.0 - x], -1) * 200.0
    img[(x - 0.5) ** 2 + (y - 0.4) ** 2 < 0.05] = 250.0
    return img.astype(np.uint8)


def load_image(path, size):
    """The image file at `path`, decoded and resized to [size, size, 3] uint8 by tensorweave's image ops."""
    with tf.Graph().as_default():
        img = tf.image.decode_image(tf.read_file(path), channels=3, expand_animations=False)
        img = tf.image.resize_images(img, [size, size])
        with tf.Session() as sess:
            return np.clip(sess.run(img), 0, 255).astype(np.uint8)


def classify(image, checkpoint=None, top=5):
    """resnet_v1_50's top-`top` (class id, logit, probability) triples for one [h, w, 3] uint8 image."""
    with tf.Graph().as_default():
        x = tf.constant(image.astype(np.float32)[None] - _RGB_MEANS)
        with slim.arg_scope(resnet_v1.resnet_arg_scope()):
            _, end_points = resnet_v1.resnet_v1_50(x, num_classes=1000, is_training=False)
        logits = tf.squeeze(end_points["resnet_v1_50/logits"], [1, 2])
        probs = tf.squeeze(end_points["predictions"], [1, 2])
        with tf.Session() as sess:
            if checkpoint:
                tf.train.Saver().restore(sess, checkpoint)
            else:
                sess.run(tf.global_variables_initializer())
            z, p = (a[0] for a in sess.run([logits, probs]))
    order = np.argsort(-z)[:top]
    return [(int(i), float(z[i]), float(p[i])) for i in order]


def small_resnet_logits(checkpoint=SMALL_CKPT):
    """The logits of the small two-block ResNet v1 of the checkpoint written by tf-slim, on a fixed image."""
    with tf.Graph().as_default():
        blocks = [resnet_v1.resnet_v1_block("block1", base_depth=4, num_units=2, stride=2),
                  resnet_v1.resnet_v1_block("block2", base_depth=8, num_units=2, stride=1)]
        x = tf.constant(np.random.RandomState(7).uniform(-1.0, 1.0, (1, 32, 32, 3)).astype(np.float32))
        with slim.arg_scope(resnet_v1.resnet_arg_scope()):
            logits, _ = resnet_v1.resnet_v1(x, blocks, num_classes=5, is_training=False, scope="resnet_v1_small")
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, checkpoint)
            return sess.run(tf.squeeze(logits, [1, 2]))[0]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", help="an image file (PNG, JPEG, GIF or BMP); default: a synthetic image")
    parser.add_argument("--size", type=int, default=224, help="the input size (default 224)")
    parser.add_argument("--checkpoint-50", help="a checkpoint of slim's resnet_v1_50 (default: random weights)")
    parser.add_argument("--checkpoint", default=SMALL_CKPT, help="the small ResNet's tf-slim checkpoint")
    args = parser.parse_args(argv)
    image = load_image(args.image, args.size) if args.image else synthetic_image(args.size)
    print("resnet_v1_50 top-5 (%s weights):" % ("checkpoint" if args.checkpoint_50 else "random"))
    for rank, (cls, logit, prob) in enumerate(classify(image, args.checkpoint_50), 1):
        print("  %d. class %4d  logit=%.4g  p=%.5f" % (rank, cls, logit, prob))
    logits = small_resnet_logits(args.checkpoint)
    print("small resnet_v1 restored from %s: logits %s" % (args.checkpoint, np.array2string(logits, precision=5)))


if __name__ == "__main__":
    main()
