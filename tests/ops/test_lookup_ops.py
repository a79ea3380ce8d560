"""tf.lookup tables: values and errors recorded from TensorFlow 2.21 (tf.compat.v1, graph mode), per session
state, eager use and tf.tables_initializer."""

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context


@pytest.fixture
def vocab(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("hello\t10\nworld\t20\nfoo\t30\n")
    return str(path)


def test_static_hash_table_needs_its_initializer_and_names_ops_as_tf():
    with tf.Graph().as_default():
        t = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b", "c"],
                                                                          tf.constant([1, 2, 3], tf.int64)), -1)
        out = t.lookup(tf.constant(["a", "x", "c"]))
        assert out.name == "hash_table_Lookup/LookupTableFindV2:0" and out.shape.as_list() == [3]
        assert t.name == "hash_table" and t.resource_handle.name == "hash_table:0"
        assert t.resource_handle.dtype == tf.resource
        assert t.initializer.name == "key_value_init/InitializeTableV2"
        assert tf.get_collection(tf.GraphKeys.TABLE_INITIALIZERS) == [t.initializer]
        init = tf.tables_initializer()
        assert init.name == "init_all_tables"
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized."):
                sess.run(out)
            sess.run(init)
            np.testing.assert_array_equal(sess.run(out), [1, -1, 3])
            assert sess.run(t.size()) == 3
            sess.run(init)  # initializing again with the same data is fine
        with tf.Session() as other:  # tables are per session
            with pytest.raises(tf.errors.FailedPreconditionError, match="Table not initialized."):
                other.run(out)
        with pytest.raises(TypeError, match="Signature mismatch. Keys must be dtype <dtype: 'string'>, got "
                                            "<dtype: 'int32'>."):
            t.lookup(tf.constant([1]))


def test_duplicate_keys_and_reinitialization_with_other_data_fail_as_tf():
    with tf.Graph().as_default():
        t = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 2]), -1)
        same = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "a"], [1, 1]), -1)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="HashTable has different value for same key. Key a has 1 and trying to add "
                                     "value 2"):
                sess.run(t.initializer)
            sess.run(same.initializer)
            assert sess.run(same.size()) == 1
        keys = tf.placeholder(tf.string, [None])
        t2 = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, tf.constant([1, 2])), 0)
        with tf.Session() as sess:
            sess.run(t2.initializer, {keys: ["x", "y"]})
            with pytest.raises(tf.errors.FailedPreconditionError,
                               match="Table was already initialized with different data."):
                sess.run(t2.initializer, {keys: ["x", "z"]})


def test_sparse_keys_give_a_sparse_result():
    with tf.Graph().as_default():
        t = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer([3, 5], [30.0, 50.0],
                                                                          key_dtype=tf.int64), 0.0)
        sp = tf.SparseTensor([[0, 0], [1, 2]], tf.constant([5, 4], tf.int64), [2, 3])
        out = t.lookup(sp)
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            v = sess.run(out)
        assert isinstance(out, tf.SparseTensor)
        np.testing.assert_array_equal(v.values, [50.0, 0.0])
        np.testing.assert_array_equal(v.indices, [[0, 0], [1, 2]])


def test_text_file_initializer_columns_whole_line_and_line_number(vocab):
    with tf.Graph().as_default():
        by_column = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(vocab, tf.string, 0, tf.int64, 1), -1)
        by_line = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), -1)
        short = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(vocab, tf.string, 0, tf.int64, 1,
                                                                        vocab_size=2), -1)
        too_long = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(vocab, tf.string, 0, tf.int64, 1,
                                                                           vocab_size=5), -1)
        bad_column = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(vocab, tf.string, 3, tf.int64, 1), -1)
        missing = tf.lookup.StaticHashTable(tf.lookup.TextFileInitializer(vocab + ".nope", tf.string, 0, tf.int64,
                                                                          1), -1)
        assert vocab in [c.decode() if isinstance(c, bytes) else c for c in
                         tf.Session().run(tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS))]
        with tf.Session() as sess:
            sess.run([by_column.initializer, by_line.initializer, short.initializer])
            np.testing.assert_array_equal(sess.run(by_column.lookup(tf.constant(["world", "zz"]))), [20, -1])
            np.testing.assert_array_equal(sess.run(by_line.lookup(tf.constant(["hello\t10", "x"]))), [0, -1])
            assert sess.run(short.size()) == 2
            with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid vocab_size in .*: expected 5 but got 3"):
                sess.run(too_long.initializer)
            with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid number of columns"):
                sess.run(bad_column.initializer)
            with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
                sess.run(missing.initializer)
    with pytest.raises(ValueError, match="Signature mismatch. Keys must be dtype <dtype: 'int64'>, got "
                                         "<dtype: 'string'>."):
        tf.lookup.TextFileInitializer(vocab, tf.string, tf.lookup.TextFileIndex.LINE_NUMBER, tf.int64, 1)
    with pytest.raises(ValueError, match="Invalid vocab_size 0."):
        tf.lookup.TextFileInitializer(vocab, tf.string, 0, tf.int64, 1, vocab_size=0)


def test_static_vocabulary_table_hashes_oov_keys_as_tf(vocab):
    # Values recorded from TF 2.21: FarmHash Fingerprint64 buckets after the vocabulary.
    with tf.Graph().as_default():
        words = tf.lookup.StaticVocabularyTable(tf.lookup.TextFileInitializer(
            vocab, tf.string, 0, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER), num_oov_buckets=3)
        ints = tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant([5, 7], tf.int64), tf.constant([0, 1], tf.int64)), num_oov_buckets=4)
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            np.testing.assert_array_equal(sess.run(words.lookup(tf.constant(["foo", "unk", "zzz", "hello"]))),
                                          [2, 4, 3, 0])
            assert sess.run(words.size()) == 6
            np.testing.assert_array_equal(sess.run(ints.lookup(tf.constant([5, 6, 7, 100], tf.int64))), [0, 5, 1, 5])
    with pytest.raises(ValueError, match="oov_buckets must be > 0."):
        tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(["a"], tf.constant([0], tf.int64)), 0)
    with pytest.raises(TypeError, match="Invalid value dtype, expected <dtype: 'int64'> but got <dtype: 'int32'>."):
        tf.lookup.StaticVocabularyTable(tf.lookup.KeyValueTensorInitializer(["a"], [0]), 1)


def test_mutable_hash_table_insert_remove_export_and_vector_values():
    with tf.Graph().as_default():
        m = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, default_value=-1.0)
        vec = tf.lookup.experimental.MutableHashTable(tf.int64, tf.int32, default_value=[0, 0])
        with tf.Session() as sess:
            sess.run(m.insert(["p", "q"], [1.5, 2.5]))
            found, size = sess.run([m.lookup(["q", "r"]), m.size()])
            np.testing.assert_array_equal(found, [2.5, -1.0])
            assert size == 2
            keys, values = sess.run(m.export())
            assert dict(zip(keys.tolist(), values.tolist())) == {b"p": 1.5, b"q": 2.5}
            sess.run(m.insert(["p"], [9.0]))
            sess.run(m.remove(tf.constant(["q", "missing"])))
            assert sess.run(m.size()) == 1 and sess.run(m.lookup(["p"]))[0] == 9.0
            with pytest.raises(tf.errors.InvalidArgumentError, match=r"Expected shape \[1\] for value, got \[2\]"):
                sess.run(m.insert(["a"], [1.0, 2.0]))
            sess.run(vec.insert(tf.constant([4], tf.int64), [[1, 2]]))
            np.testing.assert_array_equal(sess.run(vec.lookup(tf.constant([[4, 5]], tf.int64))), [[[1, 2], [0, 0]]])
            assert vec.lookup(tf.constant([[4, 5]], tf.int64)).shape.as_list() == [1, 2, 2]


def test_tables_work_eagerly():
    with context.eager_mode():
        t = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2]), -1)
        np.testing.assert_array_equal(t.lookup(tf.constant(["b", "z"])).numpy(), [2, -1])
        m = tf.lookup.experimental.MutableHashTable(tf.string, tf.int32, -1)
        m.insert(["k"], [7])
        assert m.lookup(tf.constant(["k"])).numpy()[0] == 7 and m.size().numpy() == 1


def test_tables_initializer_without_tables_is_a_no_op():
    with tf.Graph().as_default():
        op = tf.tables_initializer()
        assert op.type == "NoOp" and op.name == "init_all_tables"
        assert tf.initialize_all_tables is tf.tables_initializer
        assert tf.initializers.tables_initializer is tf.tables_initializer


def test_saver_saves_and_restores_mutable_tables_under_tfs_checkpoint_names(tmp_path):
    prefix = str(tmp_path / "model.ckpt")
    with tf.Graph().as_default():
        m = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=-1, name="words")
        skipped = tf.lookup.experimental.MutableHashTable(tf.int64, tf.float32, -1.0, checkpoint=False)
        v = tf.Variable(3.0, name="v")
        saver = tf.train.Saver()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run([m.insert(["a", "b"], tf.constant([1, 2], tf.int64)),
                      skipped.insert(tf.constant([1], tf.int64), [1.0])])
            saver.save(sess, prefix)
        names = dict(tf.train.list_variables(prefix))
        assert sorted(names) == ["v", "words-keys", "words-values"]
        with tf.Session() as sess:
            saver.restore(sess, prefix)
            np.testing.assert_array_equal(sess.run(m.lookup(["b", "a", "z"])), [2, 1, -1])
            assert sess.run(v) == 3.0 and sess.run(skipped.size()) == 0


def test_string_values_come_back_as_bytes():
    with tf.Graph().as_default():
        t = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(
            tf.constant([1, 2], tf.int64), ["x", "y"]), "none")
        with tf.Session() as sess:
            sess.run(tf.tables_initializer())
            out = sess.run(t.lookup(tf.constant([2, 5], tf.int64)))
    assert out.tolist() == [b"y", b"none"] and all(isinstance(x, bytes) for x in out)
