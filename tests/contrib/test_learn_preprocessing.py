"""tf.contrib.learn.preprocessing. The expected values are worked out by hand from TF 1.15's
documented behaviour (text.py / categorical_vocabulary.py and their tests): ids from 1 in order of
first appearance, 0 for unknown words and padding, `min_frequency` trimming that renumbers by
decreasing count (ties alphabetical), and `freeze` after `fit`."""

import json
import pickle

import numpy as np
import pytest

import tensorweave as tf

pre = tf.contrib.learn.preprocessing


def test_tokenizer_regex():
    # TF's TOKENIZER_RE: runs of capitals, capitalised words before a capital, [\'\w\-]+ runs.
    docs = ["a b c", "a\nb\nc", "a, b - c", "фыв выф", "HTMLParser isGood", "CamelCase", "don't re-use it"]
    assert list(pre.tokenizer(docs)) == [["a", "b", "c"], ["a", "b", "c"], ["a", "b", "-", "c"], ["фыв", "выф"],
                                         ["HTML", "Parser", "isGood"], ["Camel", "Case"], ["don't", "re-use", "it"]]


def test_vocabulary_processor_fit_transform_pads_and_cuts():
    vp = pre.VocabularyProcessor(max_document_length=4)
    out = list(vp.fit_transform(["b a", "a c d e f", "b"]))
    # First-appearance ids: b=1, a=2, c=3, d=4, e=5, f=6; padded with 0 to 4, cut after 4 tokens.
    assert [o.tolist() for o in out] == [[1, 2, 0, 0], [2, 3, 4, 5], [1, 0, 0, 0]]
    assert all(o.dtype == np.int64 and o.shape == (4,) for o in out)
    assert len(vp.vocabulary_) == 7  # <UNK> plus six words (f was added by fit, though cut by transform)
    # fit froze the vocabulary: unseen words are 0 and are not added.
    assert [o.tolist() for o in vp.transform(["z a zz"])] == [[0, 2, 0, 0]]
    assert len(vp.vocabulary_) == 7
    assert list(vp.reverse([[1, 2, 0]])) == ["b a <UNK>"]


def test_min_frequency_trims_and_renumbers():
    # TF's testVocabularyProcessor: counts a=b=c=3, "-"=1; min_frequency=1 drops "-".
    vp = pre.VocabularyProcessor(max_document_length=4, min_frequency=1)
    assert [o.tolist() for o in vp.fit_transform(["a b c", "a\nb\nc", "a, b - c"])] == [
        [1, 2, 3, 0], [1, 2, 3, 0], [1, 2, 0, 3]]
    # Renumbered by decreasing count, ties in alphabetical order: z(3)=1, b(2)=2, y(2)=3; x(1) dropped.
    vp = pre.VocabularyProcessor(max_document_length=5, min_frequency=1)
    assert [o.tolist() for o in vp.fit_transform(["x y z", "z b y", "z b"])] == [
        [0, 3, 1, 0, 0], [1, 2, 3, 0, 0], [1, 2, 0, 0, 0]]
    assert vp.vocabulary_.reverse(1) == "z" and vp.vocabulary_.reverse(3) == "y"


def test_existing_frozen_vocabulary_and_custom_tokenizer():
    # TF's testExistingVocabularyProcessor: characters as tokens through tokenizer_fn=list.
    vocab = pre.CategoricalVocabulary()
    vocab.get("A")
    vocab.get("B")
    vocab.freeze()
    vp = pre.VocabularyProcessor(max_document_length=4, vocabulary=vocab, tokenizer_fn=list)
    assert [o.tolist() for o in vp.fit_transform(["ABC", "CBABAF"])] == [[1, 2, 0, 0], [0, 2, 1, 2]]
    assert len(vocab) == 3


def test_categorical_vocabulary_counts_trim_and_reverse():
    vocab = pre.CategoricalVocabulary()
    assert [vocab.get(1), vocab.get("a"), vocab.get(2), vocab.get(1)] == [1, 2, 3, 1]
    vocab.freeze()
    assert vocab.get(4) == 0 and len(vocab) == 4
    # TF's testCountsTrim: counts c=5, a=10, b=5, d=12; trim(7, 11) drops d (>= 11) and b, c (<= 7).
    vocab = pre.CategoricalVocabulary()
    for word, count in [("c", 5), ("a", 10), ("b", 5), ("d", 12)]:
        vocab.add(word, count)
    vocab.trim(7, 11)
    vocab.freeze()
    assert (vocab.get("b"), vocab.get("c"), vocab.get("d"), vocab.get("a"), len(vocab)) == (0, 0, 0, 1, 2)
    assert vocab.reverse(0) == "<UNK>" and vocab.reverse(1) == "a"
    with pytest.raises(ValueError, match="wasn't initialized with support_reverse"):
        pre.CategoricalVocabulary(support_reverse=False).reverse(0)


def test_save_restore_round_trip(tmp_path):
    vp = pre.VocabularyProcessor(max_document_length=3, min_frequency=1)
    docs = ["x y z", "z b y", "z b"]
    expected = [o.tolist() for o in vp.fit_transform(docs)]
    path = str(tmp_path / "vocab")
    vp.save(path)
    data = json.loads(open(path).read())  # a JSON file, not a pickle
    assert data["max_document_length"] == 3 and data["vocabulary"]["categories"] == ["<UNK>", "z", "b", "y"]
    restored = pre.VocabularyProcessor.restore(path)
    assert (restored.max_document_length, restored.min_frequency) == (3, 1)
    assert [o.tolist() for o in restored.transform(docs)] == expected
    assert [o.tolist() for o in restored.transform(["new z"])] == [[0, 1, 0]]  # still frozen
    assert len(restored.vocabulary_) == 4 and list(restored.reverse([[1, 2]])) == ["z b"]


def test_save_restore_custom_tokenizer_and_non_string_categories(tmp_path):
    vp = pre.VocabularyProcessor(max_document_length=3, tokenizer_fn=lambda docs: (list(d) for d in docs))
    vp.fit([[4, 5], [5, 6]])
    path = str(tmp_path / "vocab.json")
    vp.save(path)
    with pytest.raises(ValueError, match="saved with a custom tokenizer_fn"):
        pre.VocabularyProcessor.restore(path)
    restored = pre.VocabularyProcessor.restore(path, tokenizer_fn=lambda docs: (list(d) for d in docs))
    assert [o.tolist() for o in restored.transform([[6, 4, 7]])] == [[3, 1, 0]]
    vp = pre.VocabularyProcessor(max_document_length=2, tokenizer_fn=lambda docs: ([object()] for _ in docs))
    vp.fit(["a"])
    with pytest.raises(TypeError, match="writes JSON"):
        vp.save(str(tmp_path / "bad.json"))


def test_restore_refuses_pickles_and_foreign_files(tmp_path):
    pickled = tmp_path / "tf_vocab.pkl"
    pickled.write_bytes(pickle.dumps({"max_document_length": 3}, protocol=2))  # TF's save format
    with pytest.raises(ValueError, match="looks like a pickle file.*does not load pickles"):
        pre.VocabularyProcessor.restore(str(pickled))
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}')
    with pytest.raises(ValueError, match="is not a VocabularyProcessor file written by tensorweave"):
        pre.VocabularyProcessor.restore(str(other))
    other.write_text("not json")
    with pytest.raises(ValueError, match="is not a VocabularyProcessor file"):
        pre.VocabularyProcessor.restore(str(other))


def test_byte_processor():
    bp = pre.ByteProcessor(max_document_length=4)
    out = list(bp.fit_transform(["abc", "é", b"hello"]))
    # UTF-8 bytes, padded with 0 or cut to 4.
    assert [o.tolist() for o in out] == [[97, 98, 99, 0], [195, 169, 0, 0], [104, 101, 108, 108]]
    assert out[0].dtype == np.uint8
    assert list(bp.reverse(out)) == ["abc", "é", "hell"]
    assert list(bp.reverse([np.array([195, 0, 0, 0], np.uint8)])) == [""]  # a cut UTF-8 sequence


def test_categorical_processor():
    # TF's categorical_test: per-column vocabularies, NaN / -1 unknown (0), frozen after fit.
    proc = pre.CategoricalProcessor()
    rows = [["0", "a"], [1, "b"], [float("nan"), "a"], [-1, "c"], [1, "a"]]
    assert [r.tolist() for r in proc.fit_transform(rows)] == [[1, 1], [2, 2], [0, 1], [0, 3], [2, 1]]
    assert [r.tolist() for r in proc.transform([["new", "b"]])] == [[0, 2]]
    shared = pre.CategoricalProcessor(share=True, min_frequency=1)
    # One vocabulary for both columns; counts x=3, y=1, z=2: y dropped, then x=1, z=2.
    assert [r.tolist() for r in shared.fit_transform([["x", "z"], ["z", "x"], ["x", "y"]])] == [
        [1, 2], [2, 1], [1, 0]]
    assert shared.vocabularies_[0] is shared.vocabularies_[1]
    with pytest.raises(TypeError, match="got no rows"):
        pre.CategoricalProcessor().fit([])
