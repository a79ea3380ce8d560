"""tf.feature_column cases shared by tests/data/make_feature_column_goldens.py (run with TensorFlow) and
tests/feature_column/test_feature_column.py (run with tensorweave): every builder takes the `tf` module, so the
same TF1 program is recorded with TensorFlow and checked with tensorweave."""

import numpy as np

VOCAB = ["a", "b", "c"]


def features(tf):
    return {
        "x": tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]),
        "age": tf.constant([[-3.0], [15.0], [70.0]]),
        "word": tf.constant([["a", "c"], ["z", ""], ["b", "b"]]),
        "id": tf.constant([[0], [3], [2]], tf.int64),
        "wts": tf.constant([[0.5, 2.0], [1.0, 0.0], [3.0, 1.0]]),
        "ints": tf.constant([[10, 20], [30, -1], [20, 20]], tf.int64),
    }


def columns(tf):
    fc = tf.feature_column
    x = fc.numeric_column("x", shape=(2,))
    age = fc.numeric_column("age", normalizer_fn=lambda t: t / 10.0)
    age_b = fc.bucketized_column(fc.numeric_column("age"), boundaries=[0.0, 18.0, 65.0])
    word = fc.categorical_column_with_vocabulary_list("word", VOCAB, num_oov_buckets=2)
    word_default = fc.categorical_column_with_vocabulary_list("word", VOCAB, default_value=0)
    ints = fc.categorical_column_with_vocabulary_list("ints", [10, 20, 30])
    ident = fc.categorical_column_with_identity("id", num_buckets=4)
    hashed = fc.categorical_column_with_hash_bucket("word", 7)
    hashed_int = fc.categorical_column_with_hash_bucket("ints", 5, dtype=tf.int64)
    weighted = fc.weighted_categorical_column(fc.categorical_column_with_vocabulary_list("word", VOCAB), "wts")
    return dict(x=x, age=age, age_b=age_b, word=word, word_default=word_default, ints=ints, ident=ident,
                hashed=hashed, hashed_int=hashed_int, weighted=weighted)


def _shared_sources(tf, c):
    return [c["word"], tf.feature_column.categorical_column_with_vocabulary_list("ints", [10, 20, 30],
                                                                                num_oov_buckets=2)]


def input_layer_cases(tf, c):
    """{name: build}: each build() makes an input_layer over features(tf) of columns made from `c`."""
    fc = tf.feature_column

    def layer(cols):
        return lambda: fc.input_layer(features(tf), cols())

    return {
        "numeric": layer(lambda: [c["x"], c["age"]]),
        "bucketized": layer(lambda: [c["age_b"]]),
        "indicator_vocab_oov": layer(lambda: [fc.indicator_column(c["word"])]),
        "indicator_vocab_default": layer(lambda: [fc.indicator_column(c["word_default"])]),
        "indicator_ints": layer(lambda: [fc.indicator_column(c["ints"])]),
        "indicator_identity": layer(lambda: [fc.indicator_column(c["ident"])]),
        "indicator_hashed": layer(lambda: [fc.indicator_column(c["hashed"])]),
        "indicator_hashed_int": layer(lambda: [fc.indicator_column(c["hashed_int"])]),
        "indicator_weighted": layer(lambda: [fc.indicator_column(c["weighted"])]),
        "indicator_bucketized": layer(lambda: [fc.indicator_column(c["age_b"])]),
        "embedding_mean": layer(lambda: [fc.embedding_column(
            c["word"], 3, initializer=tf.constant_initializer(np.arange(15.0).reshape(5, 3)))]),
        "embedding_sqrtn_weighted": layer(lambda: [fc.embedding_column(
            c["weighted"], 2, combiner="sqrtn", initializer=tf.constant_initializer(np.arange(6.0).reshape(3, 2)))]),
        "embedding_sum_identity": layer(lambda: [fc.embedding_column(
            c["ident"], 2, combiner="sum", initializer=tf.constant_initializer(np.arange(8.0).reshape(4, 2)))]),
        "mixed_sorted": layer(lambda: [
            c["x"], fc.indicator_column(c["ident"]), c["age_b"],
            fc.embedding_column(c["word"], 2, initializer=tf.ones_initializer())]),
        "shared_embedding": layer(lambda: fc.shared_embedding_columns(
            _shared_sources(tf, c), 2, initializer=tf.constant_initializer(np.arange(10.0).reshape(5, 2)))),
        "crossed": layer(lambda: [fc.indicator_column(fc.crossed_column(["word", c["ident"]], 11))]),
        "crossed_bucketized": layer(lambda: [fc.indicator_column(fc.crossed_column([c["age_b"], "word"], 13))]),
    }


def run(tf, build):
    """(value, sorted variable names) of build() in a fresh graph."""
    g = tf.Graph()
    with g.as_default():
        tf.set_random_seed(1)
        out = build()
        with tf.Session() as s:
            s.run([tf.global_variables_initializer(), tf.tables_initializer()])
            v = s.run(out)
            names = sorted(vv.name for vv in tf.global_variables())
    return v, names


def linear_model(tf, c):
    """(out, assigns): a 2-unit linear_model, variable i assigned arange * 0.1 + i."""
    out = tf.feature_column.linear_model(features(tf), [c["x"], c["age_b"], c["word"], c["weighted"]], units=2)
    assigns = []
    for i, var in enumerate(tf.global_variables()):
        shape = var.shape.as_list()
        assigns.append(tf.assign(var, (np.arange(np.prod(shape)).reshape(shape) * 0.1 + i).astype(np.float32)))
    return out, assigns


def linear_model_combiner(tf, c, combiner):
    """(out, assigns): a 1-unit linear_model with `sparse_combiner`, every variable assigned arange + 1."""
    out = tf.feature_column.linear_model(features(tf), [c["word"], c["weighted"]], units=1, sparse_combiner=combiner)
    assigns = [tf.assign(var, (np.arange(np.prod(var.shape.as_list())).reshape(var.shape.as_list()) + 1.0)
                         .astype(np.float32)) for var in tf.global_variables()]
    return out, assigns


def run_assigned(tf, out, assigns):
    with tf.Session() as s:
        s.run([tf.global_variables_initializer(), tf.tables_initializer()])
        s.run(assigns)
        return s.run(out)


def parse_example_spec(tf, c):
    fc = tf.feature_column
    return fc.make_parse_example_spec([c["x"], c["age_b"], fc.embedding_column(c["word"], 2), c["weighted"],
                                       fc.indicator_column(c["ident"]), fc.crossed_column(["word", "other"], 10)])


def names(tf, c):
    """The names of some columns and of columns made from them."""
    fc = tf.feature_column
    return {
        "x": c["x"].name, "age_b": c["age_b"].name, "word": c["word"].name, "weighted": c["weighted"].name,
        "indicator": fc.indicator_column(c["word"]).name, "embedding": fc.embedding_column(c["word"], 2).name,
        "crossed": fc.crossed_column(["word", c["ident"]], 11).name,
        "shared": [col.name for col in fc.shared_embedding_columns(_shared_sources(tf, c), 2)],
    }
