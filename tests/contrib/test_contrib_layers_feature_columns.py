"""tf.contrib.layers feature columns (TF 1.15) used through the core feature-column functions:
they behave as the core columns they map to (derived from TF 1.15's contrib source: same
transformation, parse spec and variable names; `one_hot_column` is named "<name>_one_hot")."""

import numpy as np
import pytest

import tensorweave as tf

L = tf.contrib.layers
FC = tf.feature_column


def _features():
    return {
        "age": tf.constant([[20.0], [35.0], [61.0]]),
        "xy": tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        "color": tf.SparseTensor([[0, 0], [1, 0], [1, 1], [2, 0]], ["red", "blue", "green", "pink"], [3, 2]),
        "word": tf.SparseTensor([[0, 0], [2, 0]], ["a", "b"], [3, 1]),
    }


def test_contrib_columns_match_core_in_input_layer_and_linear_model():
    contrib_cols = [
        L.real_valued_column("age", normalizer=lambda x: x / 10.0),
        L.real_valued_column("xy", dimension=2, default_value=0.0),
        L.bucketized_column(L.real_valued_column("age"), [30.0, 50.0]),
        L.one_hot_column(L.sparse_column_with_keys("color", ["red", "green", "blue"])),
    ]
    core_cols = [
        FC.numeric_column("age", normalizer_fn=lambda x: x / 10.0),
        FC.numeric_column("xy", shape=(2,), default_value=0.0),
        FC.bucketized_column(FC.numeric_column("age"), [30.0, 50.0]),
        FC.indicator_column(FC.categorical_column_with_vocabulary_list("color", ["red", "green", "blue"])),
    ]
    assert [c.name for c in contrib_cols] == ["age", "xy", "age_bucketized", "color_one_hot"]
    linear_contrib = [L.sparse_column_with_hash_bucket("word", 7), L.sparse_column_with_keys("color", ["red", "blue"]),
                      L.real_valued_column("age")]
    linear_core = [FC.categorical_column_with_hash_bucket("word", 7),
                   FC.categorical_column_with_vocabulary_list("color", ["red", "blue"]), FC.numeric_column("age")]
    results = []
    for cols, lin in ((contrib_cols, linear_contrib), (core_cols, linear_core)):
        with tf.Graph().as_default():
            dense = FC.input_layer(_features(), cols)
            logits = FC.linear_model(_features(), lin)
            names = sorted(v.op.name for v in tf.global_variables())
            with tf.Session() as sess:
                sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
                for v in tf.global_variables():
                    v.load(np.arange(np.prod(v.shape.as_list()), dtype=np.float32).reshape(v.shape.as_list()) / 10,
                           sess)
                results.append((names,) + tuple(sess.run([dense, logits])))
    (names1, d1, l1), (names2, d2, l2) = results
    assert names1 == names2 == ["linear_model/age/weights", "linear_model/bias_weights", "linear_model/color/weights",
                                "linear_model/word/weights"]
    # input_layer concatenates in name order: age, age_bucketized, color_one_hot (=indicator), xy
    np.testing.assert_allclose(d1, d2)
    np.testing.assert_allclose(d1[:, 0], [2.0, 3.5, 6.1], rtol=1e-6)
    np.testing.assert_allclose(d1[:, 4:7], [[1, 0, 0], [0, 1, 1], [0, 0, 0]])
    np.testing.assert_allclose(l1, l2)


def test_contrib_column_parse_spec_and_errors():
    spec = FC.make_parse_example_spec([L.real_valued_column("xy", dimension=2, default_value=1.5),
                                       L.sparse_column_with_hash_bucket("w", 10, dtype=tf.int64)])
    assert spec["xy"].shape == (2,) and list(spec["xy"].default_value) == [1.5, 1.5]
    assert spec["w"].dtype == tf.int64
    with pytest.raises(NotImplementedError, match="dimension=None"):
        L.real_valued_column("a", dimension=None)
    with pytest.raises(ValueError, match="dimension must be greater than 0"):
        L.real_valued_column("a", dimension=0)
    with pytest.raises(ValueError, match="dtype must be convertible to float"):
        L.real_valued_column("a", dtype=tf.string)
    with pytest.raises(ValueError, match="Combiner must be one of"):
        L.sparse_column_with_keys("a", ["x"], combiner="max")
    with pytest.raises(NotImplementedError, match="hash_keys"):
        L.sparse_column_with_hash_bucket("a", 10, hash_keys=[[1, 2]])


def test_weighted_sparse_column_and_safe_embedding_lookup():
    col = L.weighted_sparse_column(L.sparse_column_with_keys("color", ["red", "blue"]), "w")
    assert col.name == "color_weighted_by_w"
    assert col == FC.weighted_categorical_column(FC.categorical_column_with_vocabulary_list("color", ["red", "blue"]),
                                                 "w")
    with pytest.raises(ValueError, match="dtype is not convertible to float"):
        L.weighted_sparse_column(L.sparse_column_with_keys("c", ["x"]), "w", dtype=tf.string)
    with tf.Graph().as_default():
        params = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        ids = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], tf.constant([0, 2, 1], tf.int64), [3, 2])
        got = L.safe_embedding_lookup_sparse([params], ids)
        summed = L.safe_embedding_lookup_sparse([params], ids, combiner="sum", default_id=1)
        with tf.Session() as sess:
            a, b = sess.run([got, summed])
    # "mean" by default; the empty row 1 is zeros, or the embedding of default_id
    np.testing.assert_allclose(a, [[3.0, 4.0], [0.0, 0.0], [3.0, 4.0]])
    np.testing.assert_allclose(b, [[6.0, 8.0], [3.0, 4.0], [3.0, 4.0]])


def test_sparse_column_with_vocabulary_file(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("red\ngreen\nblue\n")
    with pytest.raises(ValueError, match="vocab_size should be defined"):
        L.sparse_column_with_vocabulary_file("color", str(vocab))
    with pytest.raises(ValueError, match="Can't specify both num_oov_buckets and default_value"):
        L.sparse_column_with_vocabulary_file("color", str(vocab), num_oov_buckets=1, vocab_size=3, default_value=0)
    cols = [L.one_hot_column(L.sparse_column_with_vocabulary_file("color", str(vocab), vocab_size=3)),
            L.one_hot_column(L.sparse_column_with_vocabulary_file("word", str(vocab), vocab_size=2, default_value=0))]
    assert cols[0].categorical_column == FC.categorical_column_with_vocabulary_file("color", str(vocab), 3)
    with tf.Graph().as_default():
        dense = FC.input_layer(_features(), cols)
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            got = sess.run(dense)
    # color: red | blue, green | pink (out of vocabulary: dropped); word: a, b are out of the
    # 2-word vocabulary -> default id 0
    np.testing.assert_allclose(got, [[1, 0, 0, 1, 0], [0, 1, 1, 0, 0], [0, 0, 0, 1, 0]])
