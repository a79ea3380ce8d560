"""tf.feature_column against values recorded from TensorFlow 2.21 (tests/data/make_feature_column_goldens.py
builds the same cases, tests/data/feature_column_cases.py, with real TF into tests/data/feature_column_goldens.json)."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tests.data import feature_column_cases as cases

fc = tf.feature_column
GOLDEN = json.load(open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "feature_column_goldens.json")))


def features():
    return cases.features(tf)


c = cases.columns(tf)
CASES = cases.input_layer_cases(tf, c)


@pytest.mark.parametrize("case", sorted(CASES))
def test_input_layer_values_and_variables_equal_tf(case):
    value, names = cases.run(tf, CASES[case])
    np.testing.assert_allclose(value, GOLDEN[case]["value"], rtol=1e-6, atol=1e-6)
    assert names == GOLDEN[case]["variables"]


def test_linear_model_equals_tf():
    with tf.Graph().as_default():
        out, assigns = cases.linear_model(tf, c)
        assert [v.name for v in tf.global_variables()] == GOLDEN["linear_model"]["variables"]
        assert [v.shape.as_list() for v in tf.global_variables()] == GOLDEN["linear_model"]["shapes"]
        np.testing.assert_allclose(cases.run_assigned(tf, out, assigns), GOLDEN["linear_model"]["value"], rtol=1e-6)


@pytest.mark.parametrize("combiner", ["mean", "sqrtn"])
def test_linear_model_sparse_combiners_equal_tf(combiner):
    with tf.Graph().as_default():
        out, assigns = cases.linear_model_combiner(tf, c, combiner)
        np.testing.assert_allclose(cases.run_assigned(tf, out, assigns), GOLDEN["linear_model_" + combiner]["value"],
                                   rtol=1e-6)


def test_make_parse_example_spec_and_names_equal_tf():
    spec = cases.parse_example_spec(tf, c)
    assert sorted(spec) == sorted(GOLDEN["parse_spec"])
    assert spec["x"] == tf.FixedLenFeature((2,), tf.float32)
    assert spec["age"] == tf.FixedLenFeature((1,), tf.float32)
    assert spec["word"] == tf.VarLenFeature(tf.string) and spec["other"] == tf.VarLenFeature(tf.string)
    assert spec["id"] == tf.VarLenFeature(tf.int64) and spec["wts"] == tf.VarLenFeature(tf.float32)
    assert cases.names(tf, c) == GOLDEN["names"]


def test_parsed_examples_feed_the_columns():
    from tensorweave.ops.example_proto import Example
    ex = Example()
    ex.features.feature["age"].float_list.value.append(30.0)
    ex.features.feature["word"].bytes_list.value.extend([b"b", b"q"])
    cols = [c["age_b"], fc.indicator_column(c["word"])]
    with tf.Graph().as_default():
        parsed = tf.parse_example(tf.constant([ex.SerializeToString()]), fc.make_parse_example_spec(cols))
        out = fc.input_layer(parsed, cols)
        with tf.Session() as s:
            s.run(tf.tables_initializer())
            value = s.run(out)
    assert value.shape == (1, 9)
    np.testing.assert_array_equal(value[0, :4], [0, 0, 1, 0])
    np.testing.assert_array_equal(value[0, 4:7], [0, 1, 0])
    assert value[0, 7:].sum() == 1.0  # "q" in one of the two OOV buckets


def test_column_errors_as_tf(tmp_path):
    with pytest.raises(ValueError, match="source_column must be a column generated with numeric_column"):
        fc.bucketized_column(c["word"], [1.0])
    with pytest.raises(ValueError, match="boundaries must be a sorted list."):
        fc.bucketized_column(fc.numeric_column("a"), [2.0, 1.0])
    with pytest.raises(ValueError, match="source_column must be one-dimensional column"):
        fc.bucketized_column(fc.numeric_column("a", shape=(2, 2)), [1.0])
    with pytest.raises(ValueError, match="hash_bucket_size must be at least 1"):
        fc.categorical_column_with_hash_bucket("a", 0)
    with pytest.raises(ValueError, match="dtype must be string or integer"):
        fc.categorical_column_with_hash_bucket("a", 3, dtype=tf.float32)
    with pytest.raises(ValueError, match="must be non-empty"):
        fc.categorical_column_with_vocabulary_list("a", [])
    with pytest.raises(ValueError, match="Duplicate keys in vocabulary_list"):
        fc.categorical_column_with_vocabulary_list("a", ["x", "x"])
    with pytest.raises(ValueError, match="Can't specify both num_oov_buckets and default_value"):
        fc.categorical_column_with_vocabulary_list("a", ["x"], default_value=0, num_oov_buckets=1)
    with pytest.raises(ValueError, match="num_buckets 0 < 1"):
        fc.categorical_column_with_identity("a", 0)
    with pytest.raises(ValueError, match=r"default_value 5 not in range \[0, 3\)"):
        fc.categorical_column_with_identity("a", 3, default_value=5)
    with pytest.raises(ValueError, match="keys must be a list with length > 1"):
        fc.crossed_column(["a"], 10)
    with pytest.raises(ValueError, match="Invalid dimension 0."):
        fc.embedding_column(c["word"], 0)
    with pytest.raises(ValueError, match="Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt`"):
        fc.embedding_column(c["word"], 2, ckpt_to_load_from="x")
    with pytest.raises(ValueError, match="does not exist"):
        fc.categorical_column_with_vocabulary_file("a", str(tmp_path / "missing.txt"))
    with pytest.raises(ValueError, match="must have the same number of buckets"):
        fc.shared_embedding_columns([c["word"], c["word_default"]], 2)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Items of feature_columns must be a _DenseColumn"):
            fc.input_layer(features(), [c["word"]])
        with pytest.raises(ValueError, match="Duplicate feature column name found"):
            fc.input_layer(features(), [c["x"], fc.numeric_column("x", shape=(2,))])
        with pytest.raises(ValueError, match="Feature nope is not in features dictionary."):
            fc.input_layer(features(), [fc.numeric_column("nope")])
        with pytest.raises(ValueError, match="cannot have rank 0"):
            fc.input_layer({"s": tf.constant(1.0)}, [fc.numeric_column("s")])
        with pytest.raises(ValueError, match="Expected feature_columns to be iterable, found dict."):
            fc.input_layer(features(), {"x": c["x"]})
        out = fc.input_layer(features(), [fc.indicator_column(fc.categorical_column_with_identity("id", 3))])
        with tf.Session() as s:
            with pytest.raises(tf.errors.InvalidArgumentError):
                s.run(out)


def test_vocabulary_file_column_and_identity_default(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("a\nb\nc\n")
    col = fc.categorical_column_with_vocabulary_file("word", str(path), num_oov_buckets=2)
    assert col._num_buckets == 5
    ident = fc.categorical_column_with_identity("id", 3, default_value=0)
    with tf.Graph().as_default():
        out = fc.input_layer(features(), [fc.indicator_column(col), fc.indicator_column(ident)])
        with tf.Session() as s:
            s.run(tf.tables_initializer())
            value = s.run(out)
    # Columns in name order: id_indicator, then word_indicator.
    np.testing.assert_array_equal(value[:, :3], [[1, 0, 0], [1, 0, 0], [0, 0, 1]])  # id 3 -> default 0
    expected = np.array(GOLDEN["indicator_vocab_oov"]["value"])  # same vocabulary and OOV buckets as the list
    np.testing.assert_array_equal(value[:, 3:], expected)


def test_cols_to_vars_and_trainable():
    with tf.Graph().as_default():
        emb = fc.embedding_column(c["word"], 2, trainable=False)
        cols_to_vars = {}
        fc.input_layer(features(), [emb, c["x"]], cols_to_vars=cols_to_vars)
        assert [v.name for v in cols_to_vars[emb]] == ["input_layer/word_embedding/embedding_weights:0"]
        assert cols_to_vars[c["x"]] == []
        assert tf.trainable_variables() == []
        assert [v.name for v in tf.get_collection(tf.GraphKeys.MODEL_VARIABLES)] == [
            "input_layer/word_embedding/embedding_weights:0"]
