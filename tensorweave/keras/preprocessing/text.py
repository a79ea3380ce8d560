"""`tf.keras.preprocessing.text`: word splitting, hashing and the `Tokenizer` (Keras-Preprocessing 1.1
semantics, as TF 1.15 ships). A tokenizer is saved as JSON only (`to_json` / `tokenizer_from_json`)."""

import collections
import hashlib
import json
import warnings

import numpy as np

__all__ = ["Tokenizer", "hashing_trick", "one_hot", "text_to_word_sequence", "tokenizer_from_json"]

_FILTERS = '!"#$%&()*+,-./:;<=>?@[\\]^_`{|}~\t\n'


def text_to_word_sequence(text, filters=_FILTERS, lower=True, split=" "):
    """Splits a text into a list of words.

    Args:
      text: A string.
      filters: Characters to remove (each is replaced by `split`).
      lower: Whether to lowercase the text.
      split: The word separator.

    Returns:
      A list of non-empty words.
    """
    if lower:
        text = text.lower()
    text = text.translate(str.maketrans({c: split for c in filters}))
    return [i for i in text.split(split) if i]


def one_hot(text, n, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    """Encodes a text as a list of word indices in `[1, n)` by hashing with Python's `hash`.

    Python salts `hash` of strings per process (`PYTHONHASHSEED`), so the indices are not reproducible
    across runs, as Keras documents; use `hashing_trick(..., hash_function='md5')` for stable ones.

    Args:
      text: A string.
      n: The size of the vocabulary (indices are in `[1, n - 1]`).
      filters, lower, split: As `text_to_word_sequence`.
      analyzer: Optional callable splitting a text into words (replaces the three above).

    Returns:
      A list of ints.
    """
    return hashing_trick(text, n, hash_function=hash, filters=filters, lower=lower, split=split, analyzer=analyzer)


def _md5(word):
    return int(hashlib.md5(word.encode()).hexdigest(), 16)


def hashing_trick(text, n, hash_function=None, filters=_FILTERS, lower=True, split=" ", analyzer=None):
    """Encodes a text as a list of word indices `hash_function(word) % (n - 1) + 1`.

    Args:
      text: A string.
      n: The size of the hashing space.
      hash_function: None (Python's `hash`, not stable across processes), 'md5' (stable, as Keras) or a
        callable from a string to an int.
      filters, lower, split: As `text_to_word_sequence`.
      analyzer: Optional callable splitting a text into words.

    Returns:
      A list of ints in `[1, n - 1]`.
    """
    if hash_function is None:
        hash_function = hash
    elif hash_function == "md5":
        hash_function = _md5
    if analyzer is None:
        seq = text_to_word_sequence(text, filters=filters, lower=lower, split=split)
    else:
        seq = analyzer(text)
    return [hash_function(w) % (n - 1) + 1 for w in seq]


class Tokenizer:
    """Turns texts into sequences of word indices or into bag-of-words matrices.

    Words are indexed by decreasing count (ties in order of first appearance), from 1; index 0 is
    reserved, and the `oov_token` (if any) gets index 1.

    Args:
      num_words: If set, only words with an index below `num_words` are kept in sequences and matrices.
      filters: Characters removed from the texts.
      lower: Whether to lowercase the texts.
      split: The word separator.
      char_level: Whether every character is a token.
      oov_token: Optional token that replaces out-of-vocabulary words in `texts_to_sequences`.
      analyzer: Optional callable splitting a text into words.
      **kwargs: `document_count` (used by `tokenizer_from_json`) and the deprecated `nb_words`.

    Raises:
      TypeError: For any other keyword argument.
    """

    def __init__(self, num_words=None, filters=_FILTERS, lower=True, split=" ", char_level=False, oov_token=None,
                 analyzer=None, **kwargs):
        if "nb_words" in kwargs:
            warnings.warn("The `nb_words` argument in `Tokenizer` has been renamed `num_words`.")
            num_words = kwargs.pop("nb_words")
        document_count = kwargs.pop("document_count", 0)
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self.word_counts = collections.OrderedDict()
        self.word_docs = collections.defaultdict(int)
        self.filters = filters
        self.split = split
        self.lower = lower
        self.num_words = num_words
        self.document_count = document_count
        self.char_level = char_level
        self.oov_token = oov_token
        self.index_docs = collections.defaultdict(int)
        self.word_index = {}
        self.index_word = {}
        self.analyzer = analyzer

    def _split(self, text):
        if self.char_level or isinstance(text, list):
            if self.lower:
                text = [t.lower() for t in text] if isinstance(text, list) else text.lower()
            return text
        if self.analyzer is None:
            return text_to_word_sequence(text, filters=self.filters, lower=self.lower, split=self.split)
        return self.analyzer(text)

    def fit_on_texts(self, texts):
        """Updates the vocabulary from a list of texts (strings, or lists of tokens).

        Args:
          texts: A list of strings or of lists of strings.
        """
        for text in texts:
            self.document_count += 1
            seq = self._split(text)
            for w in seq:
                self.word_counts[w] = self.word_counts.get(w, 0) + 1
            for w in set(seq):
                self.word_docs[w] += 1
        wcounts = list(self.word_counts.items())
        wcounts.sort(key=lambda x: x[1], reverse=True)
        sorted_voc = [] if self.oov_token is None else [self.oov_token]
        sorted_voc.extend(wc[0] for wc in wcounts)
        self.word_index = dict(zip(sorted_voc, range(1, len(sorted_voc) + 1)))
        self.index_word = {c: w for w, c in self.word_index.items()}
        for w, c in list(self.word_docs.items()):
            self.index_docs[self.word_index[w]] = c

    def fit_on_sequences(self, sequences):
        """Updates the document counts from sequences of word indices (needed for 'tfidf' matrices).

        Args:
          sequences: A list of lists of ints.
        """
        self.document_count += len(sequences)
        for seq in sequences:
            for i in set(seq):
                self.index_docs[i] += 1

    def texts_to_sequences(self, texts):
        """Turns texts into lists of word indices (unknown words dropped, or the `oov_token`'s index).

        Args:
          texts: A list of strings or of lists of strings.

        Returns:
          A list of lists of ints.
        """
        return list(self.texts_to_sequences_generator(texts))

    def texts_to_sequences_generator(self, texts):
        """Yields the word-index list of each text (as `texts_to_sequences`)."""
        num_words = self.num_words
        oov_token_index = self.word_index.get(self.oov_token)
        for text in texts:
            vect = []
            for w in self._split(text):
                i = self.word_index.get(w)
                if i is not None:
                    if num_words and i >= num_words:
                        if oov_token_index is not None:
                            vect.append(oov_token_index)
                    else:
                        vect.append(i)
                elif self.oov_token is not None:
                    vect.append(oov_token_index)
            yield vect

    def sequences_to_texts(self, sequences):
        """Turns lists of word indices back into space-separated texts.

        Args:
          sequences: A list of lists of ints.

        Returns:
          A list of strings.
        """
        return list(self.sequences_to_texts_generator(sequences))

    def sequences_to_texts_generator(self, sequences):
        """Yields the text of each sequence (as `sequences_to_texts`)."""
        num_words = self.num_words
        oov_token_index = self.word_index.get(self.oov_token)
        for seq in sequences:
            vect = []
            for num in seq:
                word = self.index_word.get(num)
                if word is not None:
                    if num_words and num >= num_words:
                        if oov_token_index is not None:
                            vect.append(self.index_word[oov_token_index])
                    else:
                        vect.append(word)
                elif self.oov_token is not None:
                    vect.append(self.index_word[oov_token_index])
            yield " ".join(vect)

    def texts_to_matrix(self, texts, mode="binary"):
        """Turns texts into a `(len(texts), num_words)` matrix (see `sequences_to_matrix`)."""
        return self.sequences_to_matrix(self.texts_to_sequences(texts), mode=mode)

    def sequences_to_matrix(self, sequences, mode="binary"):
        """Turns lists of word indices into a bag-of-words matrix.

        Args:
          sequences: A list of lists of ints.
          mode: 'binary', 'count', 'tfidf' or 'freq'.

        Returns:
          A float64 array of shape `(len(sequences), num_words)` (`len(word_index) + 1` columns when
          `num_words` is not set).

        Raises:
          ValueError: Without `num_words` nor a fitted vocabulary, for 'tfidf' before any fit, or for an
            unknown mode.
        """
        if not self.num_words:
            if self.word_index:
                num_words = len(self.word_index) + 1
            else:
                raise ValueError("Specify a dimension (`num_words` argument), or fit on some text data first.")
        else:
            num_words = self.num_words
        if mode == "tfidf" and not self.document_count:
            raise ValueError("Fit the Tokenizer on some data before using tfidf mode.")
        if mode not in ("binary", "count", "tfidf", "freq"):
            raise ValueError("Unknown vectorization mode: %s" % mode)
        x = np.zeros((len(sequences), num_words))
        for i, seq in enumerate(sequences):
            if not seq:
                continue
            counts = collections.defaultdict(int)
            for j in seq:
                if j >= num_words:
                    continue
                counts[j] += 1
            for j, c in list(counts.items()):
                if mode == "count":
                    x[i][j] = c
                elif mode == "freq":
                    x[i][j] = c / len(seq)
                elif mode == "binary":
                    x[i][j] = 1
                else:
                    tf_ = 1 + np.log(c)
                    idf = np.log(1 + self.document_count / (1 + self.index_docs.get(j, 0)))
                    x[i][j] = tf_ * idf
        return x

    def get_config(self):
        """Returns the tokenizer's configuration; the vocabulary tables are JSON strings.

        The `analyzer` callable is not part of it.
        """
        return {
            "num_words": self.num_words, "filters": self.filters, "lower": self.lower, "split": self.split,
            "char_level": self.char_level, "oov_token": self.oov_token, "document_count": self.document_count,
            "word_counts": json.dumps(self.word_counts), "word_docs": json.dumps(self.word_docs),
            "index_docs": json.dumps(self.index_docs), "index_word": json.dumps(self.index_word),
            "word_index": json.dumps(self.word_index),
        }

    def to_json(self, **kwargs):
        """Returns a JSON string with the class name and `get_config()` (kwargs go to `json.dumps`)."""
        return json.dumps({"class_name": self.__class__.__name__, "config": self.get_config()}, **kwargs)


def tokenizer_from_json(json_string):
    """Rebuilds a `Tokenizer` from the output of its `to_json` (plain JSON; no code is run).

    Args:
      json_string: The JSON string.

    Returns:
      A `Tokenizer`.

    Raises:
      ValueError: If the string is not a tokenizer configuration.
    """
    tokenizer_config = json.loads(json_string)
    config = tokenizer_config.get("config") if isinstance(tokenizer_config, dict) else None
    if not isinstance(config, dict) or "word_index" not in config:
        raise ValueError("Not a Tokenizer configuration: expected a JSON object with a 'config' holding "
                         "'word_index'.")
    config = dict(config)
    word_counts = collections.OrderedDict(json.loads(config.pop("word_counts")))
    word_docs = collections.defaultdict(int, json.loads(config.pop("word_docs")))
    index_docs = collections.defaultdict(int, {int(k): v for k, v in json.loads(config.pop("index_docs")).items()})
    index_word = {int(k): v for k, v in json.loads(config.pop("index_word")).items()}
    word_index = json.loads(config.pop("word_index"))
    tokenizer = Tokenizer(**config)
    tokenizer.word_counts = word_counts
    tokenizer.word_docs = word_docs
    tokenizer.index_docs = index_docs
    tokenizer.word_index = word_index
    tokenizer.index_word = index_word
    return tokenizer
