"""`tensorflow.examples.tutorials.mnist.input_data` / `tf.contrib.learn.datasets.mnist` on idx files
written here, and TensorFlow-Examples' k-means and random-forest programs (TF 1.x versions, with
`import tensorweave as tf`, smaller step counts) on a synthetic 28x28 three-class data set."""

import gzip
import os
import struct

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.contrib.learn.datasets import base, mnist
from tensorweave.examples.tutorials.mnist import input_data


def _write_idx(path, array, magic):
    with gzip.open(path, "wb") as f:
        f.write(struct.pack(">I", magic))
        for d in array.shape:
            f.write(struct.pack(">I", d))
        f.write(array.astype(np.uint8).tobytes())


def _images(labels, rng):
    """Class c lights up rows 9c..9c+8 of a 28x28 image, plus noise."""
    x = rng.randint(0, 40, (len(labels), 28, 28))
    for i, c in enumerate(labels):
        x[i, 9 * c:9 * c + 9, :] += 200
    return np.clip(x, 0, 255).astype(np.uint8)


@pytest.fixture
def data_dir(tmp_path):
    rng = np.random.RandomState(0)
    train_labels = rng.randint(0, 3, 5600)  # the programs keep read_data_sets' 5000 validation images
    test_labels = rng.randint(0, 3, 150)
    _write_idx(tmp_path / "train-images-idx3-ubyte.gz", _images(train_labels, rng), 2051)
    _write_idx(tmp_path / "train-labels-idx1-ubyte.gz", train_labels, 2049)
    _write_idx(tmp_path / "t10k-images-idx3-ubyte.gz", _images(test_labels, rng), 2051)
    _write_idx(tmp_path / "t10k-labels-idx1-ubyte.gz", test_labels, 2049)
    return str(tmp_path), train_labels, test_labels


def test_read_data_sets_as_tf(data_dir):
    path, train_labels, test_labels = data_dir
    ds = input_data.read_data_sets(path, one_hot=True, validation_size=100)
    assert ds.train.images.shape == (5500, 784) and ds.train.images.dtype == np.float32
    assert ds.validation.num_examples == 100 and ds.test.num_examples == 150
    assert ds.train.labels.shape == (5500, 10) and ds.train.labels.dtype == np.float64  # TF's one-hot rows
    np.testing.assert_array_equal(ds.validation.labels.argmax(1), train_labels[:100])
    np.testing.assert_array_equal(ds.test.labels.argmax(1), test_labels)
    assert 0.0 <= ds.test.images.min() and ds.test.images.max() <= 1.0
    raw = mnist.read_data_sets(path, dtype=tf.uint8, reshape=False, validation_size=0)
    assert raw.train.images.shape == (5600, 28, 28, 1) and raw.train.images.dtype == np.uint8
    np.testing.assert_allclose(ds.test.images, raw.test.images.reshape(150, 784) / np.float32(255), rtol=1e-6)
    np.testing.assert_array_equal(raw.train.labels, train_labels)


def test_next_batch_wraps_epochs_and_repeats_with_a_seed(data_dir):
    path, train_labels, _ = data_dir

    def batches():
        with tf.Graph().as_default():
            tf.set_random_seed(7)
            ds = mnist.read_data_sets(path, validation_size=5000)
            return [ds.train.next_batch(256) for _ in range(4)], ds.train.epochs_completed

    first, epochs = batches()
    second, _ = batches()
    assert epochs == 1  # 4 x 256 > 600
    for (x1, y1), (x2, y2) in zip(first, second):
        np.testing.assert_array_equal(x1, x2)
        np.testing.assert_array_equal(y1, y2)
    seen = np.concatenate([y for _, y in first[:2]] + [first[2][1][:600 - 512]])
    np.testing.assert_array_equal(np.sort(seen), np.sort(train_labels[5000:]))  # an epoch: each example once
    ordered = mnist.read_data_sets(path, validation_size=0).train
    np.testing.assert_array_equal(ordered.next_batch(5, shuffle=False)[1], train_labels[:5])
    fake = mnist.read_data_sets(path, fake_data=True, one_hot=True)
    images, labels = fake.train.next_batch(2, fake_data=True)
    assert len(images[0]) == 784 and labels[0] == [1] + [0] * 9


def test_errors(data_dir, tmp_path):
    path, _, _ = data_dir
    with pytest.raises(ValueError, match=r"Validation size should be between 0 and 5600. Received: 5601."):
        mnist.read_data_sets(path, validation_size=5601)
    with pytest.raises(TypeError, match="Invalid image dtype"):
        mnist.read_data_sets(path, dtype=tf.int32, validation_size=0)
    with open(os.path.join(path, "train-images-idx3-ubyte.gz"), "rb") as f:
        with pytest.raises(ValueError, match="Invalid magic number 2051 in MNIST label file"):
            mnist.extract_labels(f)
    with pytest.raises(OSError, match="missing.gz is not in .* could not be downloaded .* copy the file into"):
        base.maybe_download("missing.gz", str(tmp_path / "nowhere"), "file:///nonexistent/missing.gz")
    assert not [n for n in os.listdir(tmp_path / "nowhere")]  # no partial file left


def test_tensorflow_examples_kmeans_program(data_dir):
    path, _, _ = data_dir
    from tensorweave.contrib.factorization import KMeans
    tf.reset_default_graph()
    mnist_ = input_data.read_data_sets(path, one_hot=True)
    full_data_x = mnist_.train.images
    num_steps, k, num_classes, num_features = 10, 6, 10, 784
    X = tf.placeholder(tf.float32, shape=[None, num_features])  # noqa: N806 (the program's names)
    Y = tf.placeholder(tf.float32, shape=[None, num_classes])  # noqa: N806
    kmeans = KMeans(inputs=X, num_clusters=k, distance_metric="cosine", use_mini_batch=True)
    training_graph = kmeans.training_graph()
    if len(training_graph) > 6:  # Tensorflow 1.4+
        (all_scores, cluster_idx, scores, cluster_centers_initialized, cluster_centers_var, init_op,
         train_op) = training_graph
    else:
        (all_scores, cluster_idx, scores, cluster_centers_initialized, init_op, train_op) = training_graph
    cluster_idx = cluster_idx[0]
    avg_distance = tf.reduce_mean(scores)
    init_vars = tf.global_variables_initializer()
    sess = tf.Session()
    sess.run(init_vars, feed_dict={X: full_data_x})
    sess.run(init_op, feed_dict={X: full_data_x})
    for _ in range(1, num_steps + 1):
        _, d, idx = sess.run([train_op, avg_distance, cluster_idx], feed_dict={X: full_data_x})
    counts = np.zeros(shape=(k, num_classes))
    for i in range(len(idx)):
        counts[idx[i]] += mnist_.train.labels[i]
    labels_map = [np.argmax(c) for c in counts]
    labels_map = tf.convert_to_tensor(labels_map)
    cluster_label = tf.nn.embedding_lookup(labels_map, cluster_idx)
    correct_prediction = tf.equal(cluster_label, tf.cast(tf.argmax(Y, 1), tf.int32))
    accuracy_op = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    test_x, test_y = mnist_.test.images, mnist_.test.labels
    accuracy = sess.run(accuracy_op, feed_dict={X: test_x, Y: test_y})
    sess.close()
    assert d < 0.2 and accuracy > 0.95


def test_tensorflow_examples_random_forest_program(data_dir):
    path, _, _ = data_dir
    from tensorweave.contrib.tensor_forest.python import tensor_forest
    from tensorweave.python.ops import resources
    tf.reset_default_graph()
    mnist_ = input_data.read_data_sets(path, one_hot=False)
    num_steps, batch_size, num_classes, num_features, num_trees, max_nodes = 20, 128, 10, 784, 4, 100
    X = tf.placeholder(tf.float32, shape=[None, num_features])  # noqa: N806 (the program's names)
    Y = tf.placeholder(tf.int32, shape=[None])  # noqa: N806
    hparams = tensor_forest.ForestHParams(num_classes=num_classes, num_features=num_features, num_trees=num_trees,
                                          max_nodes=max_nodes).fill()
    forest_graph = tensor_forest.RandomForestGraphs(hparams)
    train_op = forest_graph.training_graph(X, Y)
    loss_op = forest_graph.training_loss(X, Y)
    infer_op, _, _ = forest_graph.inference_graph(X)
    correct_prediction = tf.equal(tf.argmax(infer_op, 1), tf.cast(Y, tf.int64))
    accuracy_op = tf.reduce_mean(tf.cast(correct_prediction, tf.float32))
    init_vars = tf.group(tf.global_variables_initializer(),
                         resources.initialize_resources(resources.shared_resources()))
    sess = tf.Session()
    sess.run(init_vars)
    for _ in range(1, num_steps + 1):
        batch_x, batch_y = mnist_.train.next_batch(batch_size)
        _, loss = sess.run([train_op, loss_op], feed_dict={X: batch_x, Y: batch_y})
    test_x, test_y = mnist_.test.images, mnist_.test.labels
    accuracy = sess.run(accuracy_op, feed_dict={X: test_x, Y: test_y})
    sess.close()
    assert accuracy > 0.9
