"""tf.keras.preprocessing.text against Keras-Preprocessing 1.1.0 goldens
(tests/data/make_keras_preprocessing_tf.py)."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras.preprocessing import text

with open(os.path.join(os.path.dirname(__file__), "..", "data", "keras_preprocessing_tf.json")) as _f:
    GOLD = json.load(_f)
TEXTS = GOLD["tokenizer"]["texts"]
QUERY = GOLD["tokenizer"]["query"]


def test_namespace():
    assert tf.keras.preprocessing.text.Tokenizer is text.Tokenizer


def test_text_to_word_sequence_golden():
    gold = GOLD["text_to_word_sequence"]
    assert [text.text_to_word_sequence(t) for t in TEXTS] == gold["default"]
    assert [text.text_to_word_sequence(t, filters=".!", lower=False, split=" ") for t in TEXTS] == \
        gold["no_lower_custom"]
    assert text.text_to_word_sequence("a,b,,c d", filters="", split=",") == gold["split_comma"]


def test_hashing_trick_md5_golden_and_one_hot_range():
    assert [text.hashing_trick(t, 17, hash_function="md5") for t in TEXTS] == GOLD["hashing_trick_md5"]
    assert text.hashing_trick("a b a", 5, hash_function=len) == [2, 2, 2]
    # one_hot uses Python's salted `hash` (not reproducible across processes, as Keras documents):
    # within a process equal words get equal indices in [1, n - 1].
    res = text.one_hot("x y x z", 7)
    assert len(res) == 4 and res[0] == res[2] and all(1 <= i <= 6 for i in res)
    assert text.one_hot("A b", 7, analyzer=str.split) == [hash(w) % 6 + 1 for w in ["A", "b"]]


@pytest.mark.parametrize("name", ["default", "num_words", "oov", "oov_num_words", "char"])
def test_tokenizer_golden(name):
    case = GOLD["tokenizer"]["cases"][name]
    tok = text.Tokenizer(**case["kwargs"])
    tok.fit_on_texts(TEXTS)
    assert [list(kv) for kv in tok.word_counts.items()] == case["word_counts"]  # first-seen order
    assert tok.word_index == case["word_index"]
    assert dict(tok.word_docs) == case["word_docs"]
    assert {str(k): v for k, v in tok.index_docs.items()} == case["index_docs"]
    assert tok.document_count == case["document_count"]
    seqs = tok.texts_to_sequences(QUERY)
    assert seqs == case["sequences"]
    assert list(tok.texts_to_sequences_generator(QUERY)) == seqs
    assert tok.sequences_to_texts(seqs) == case["texts"]
    assert tok.texts_to_sequences(TEXTS) == case["fit_sequences"]
    for mode in ("binary", "count", "tfidf", "freq"):
        np.testing.assert_allclose(tok.texts_to_matrix(QUERY, mode=mode), case["matrix_" + mode], rtol=1e-12)
    # Keras' JSON loads into an equal tokenizer and ours round-trips.
    for source in (case["json"], tok.to_json()):
        again = text.tokenizer_from_json(source)
        assert again.word_index == tok.word_index and again.num_words == tok.num_words
        assert again.texts_to_sequences(QUERY) == seqs
        np.testing.assert_allclose(again.texts_to_matrix(QUERY, mode="tfidf"), case["matrix_tfidf"], rtol=1e-12)
    assert json.loads(tok.to_json())["config"].keys() == json.loads(case["json"])["config"].keys()


def test_tokenizer_token_lists_and_fit_on_sequences_golden():
    gold = GOLD["tokenizer"]["cases"]
    tok = text.Tokenizer()
    tok.fit_on_texts([["Hello", "World"], ["hello", "again"]])
    assert tok.word_index == gold["token_lists"]["word_index"]
    assert tok.texts_to_sequences([["HELLO", "x"]]) == gold["token_lists"]["sequences"]
    tok = text.Tokenizer(num_words=6)
    tok.fit_on_sequences([[1, 2, 2], [2, 5], [3]])
    assert tok.document_count == gold["fit_on_sequences"]["document_count"]
    np.testing.assert_allclose(tok.sequences_to_matrix([[1, 2, 2, 9], [5]], mode="tfidf"),
                               gold["fit_on_sequences"]["tfidf"], rtol=1e-12)


def test_tokenizer_analyzer_and_nb_words():
    tok = text.Tokenizer(analyzer=lambda s: s.split("-"))
    tok.fit_on_texts(["a-b-a", "b-c"])
    assert tok.word_index == {"a": 1, "b": 2, "c": 3}  # ties keep first-seen order
    assert tok.texts_to_sequences(["c-a"]) == [[tok.word_index["c"], tok.word_index["a"]]]
    with pytest.warns(UserWarning, match="renamed `num_words`"):
        assert text.Tokenizer(nb_words=3).num_words == 3


def test_tokenizer_errors():
    with pytest.raises(TypeError, match="Unrecognized keyword arguments: {'bogus': 1}"):
        text.Tokenizer(bogus=1)
    with pytest.raises(ValueError, match="Specify a dimension \\(`num_words` argument\\), or fit on some text"):
        text.Tokenizer().sequences_to_matrix([[1]])
    with pytest.raises(ValueError, match="Fit the Tokenizer on some data before using tfidf mode."):
        text.Tokenizer(num_words=3).sequences_to_matrix([[1]], mode="tfidf")
    tok = text.Tokenizer()
    tok.fit_on_texts(["a b"])
    with pytest.raises(ValueError, match="Unknown vectorization mode: onehot"):
        tok.texts_to_matrix(["a"], mode="onehot")
    with pytest.raises(ValueError, match="Not a Tokenizer configuration"):
        text.tokenizer_from_json('{"class_name": "Tokenizer"}')
    with pytest.raises(ValueError, match="Not a Tokenizer configuration"):
        text.tokenizer_from_json("[1, 2]")
