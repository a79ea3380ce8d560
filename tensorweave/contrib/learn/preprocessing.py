"""`tf.contrib.learn.preprocessing`: text to word-id (or byte) arrays, as TF 1.15.

`VocabularyProcessor` maps each document to a fixed-length `int64` array of word ids, built from
a `CategoricalVocabulary`; `ByteProcessor` maps documents to their UTF-8 bytes;
`CategoricalProcessor` maps each column of rows of categories to ids.

Unlike TF, which pickles the whole processor, `VocabularyProcessor.save` writes JSON (the
vocabulary and settings): loading a pickle can run arbitrary code, so `restore` reads only these
JSON files and refuses TF's pickle files with a `ValueError`.
"""

import collections
import json
import math
import numbers
import re

import numpy as np

from ...platform import gfile as _gfile

__all__ = ["ByteProcessor", "CategoricalProcessor", "CategoricalVocabulary", "VocabularyProcessor", "tokenizer"]

# TF 1.15's text.TOKENIZER_RE: runs of capitals (not followed by lower case), a capitalised word
# followed by a capital, or runs of word characters, apostrophes and hyphens.
TOKENIZER_RE = re.compile(r"[A-Z]{2,}(?![a-z])|[A-Z][a-z]+(?=[A-Z])|[\'\w\-]+", re.UNICODE)

_FORMAT = "tensorweave.contrib.learn.VocabularyProcessor"
_FORMAT_VERSION = 1


def tokenizer(iterator):
    """Splits each string of `iterator` into tokens with TF's `TOKENIZER_RE`.

    Args:
      iterator: An iterable of strings.

    Yields:
      One list of token strings per input string.
    """
    for value in iterator:
        yield TOKENIZER_RE.findall(value)


class CategoricalVocabulary:
    """A mapping from categories (tokens) to ids; id 0 is the unknown token.

    New categories get the next id when looked up with `get` or `add`, until `freeze` is called;
    a frozen vocabulary maps unseen categories to 0.

    Args:
      unknown_token: The category of id 0.
      support_reverse: Whether to keep the id-to-category list that `reverse` needs.
    """

    def __init__(self, unknown_token="<UNK>", support_reverse=True):
        self._unknown_token = unknown_token
        self._mapping = {unknown_token: 0}
        self._support_reverse = support_reverse
        if support_reverse:
            self._reverse_mapping = [unknown_token]
        self._freq = collections.defaultdict(int)
        self._freeze = False

    def __len__(self):
        """The number of categories, the unknown token included."""
        return len(self._mapping)

    def freeze(self, freeze=True):
        """Stops (or, with `freeze=False`, resumes) adding unseen categories.

        Args:
          freeze: Whether the vocabulary is frozen.
        """
        self._freeze = freeze

    def get(self, category):
        """Returns the id of `category`, adding it first if it is unseen and not frozen.

        Args:
          category: A hashable category.

        Returns:
          Its id; 0 for an unseen category of a frozen vocabulary.
        """
        if category not in self._mapping:
            if self._freeze:
                return 0
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
        return self._mapping[category]

    def add(self, category, count=1):
        """Adds `count` occurrences of `category` (nothing once frozen, or for the unknown token).

        Args:
          category: A hashable category.
          count: How many occurrences to add.
        """
        category_id = self.get(category)
        if category_id <= 0:
            return
        self._freq[category] += count

    def trim(self, min_frequency, max_frequency=-1):
        """Keeps only the categories seen more than `min_frequency` times, renumbering them.

        The kept categories are numbered from 1 by decreasing count, ties in ascending order of
        the category, as TF.

        Args:
          min_frequency: Categories seen this many times or fewer are dropped.
          max_frequency: If positive, categories seen this many times or more are dropped too.
        """
        # Stable sorts: by category, then by decreasing count.
        ordered = sorted(self._freq.items(), key=lambda item: (isinstance(item[0], str), item[0]))
        ordered = sorted(ordered, key=lambda item: item[1], reverse=True)
        self._mapping = {self._unknown_token: 0}
        if self._support_reverse:
            self._reverse_mapping = [self._unknown_token]
        kept = []
        for category, count in ordered:
            if max_frequency > 0 and count >= max_frequency:
                continue
            if count <= min_frequency:
                break
            self._mapping[category] = len(self._mapping)
            if self._support_reverse:
                self._reverse_mapping.append(category)
            kept.append((category, count))
        self._freq = collections.defaultdict(int, kept)

    def reverse(self, class_id):
        """Returns the category of id `class_id`.

        Args:
          class_id: An id of this vocabulary.

        Returns:
          The category.

        Raises:
          ValueError: If the vocabulary was made with `support_reverse=False`.
          IndexError: If there is no such id.
        """
        if not self._support_reverse:
            raise ValueError("This vocabulary wasn't initialized with support_reverse to support reverse() "
                             "function.")
        return self._reverse_mapping[class_id]

    # JSON form, for VocabularyProcessor.save/restore.
    def _to_json(self):
        by_id = sorted(self._mapping.items(), key=lambda item: item[1])
        return {"unknown_token": self._unknown_token, "support_reverse": self._support_reverse,
                "frozen": self._freeze, "categories": [category for category, _ in by_id],
                "freq": [[category, count] for category, count in self._freq.items()]}

    @classmethod
    def _from_json(cls, data):
        vocab = cls(unknown_token=data["unknown_token"], support_reverse=data["support_reverse"])
        vocab._mapping = {}
        categories = [_hashable(category) for category in data["categories"]]
        for category in categories:
            vocab._mapping[category] = len(vocab._mapping)
        if vocab._support_reverse:
            vocab._reverse_mapping = categories
        vocab._freq = collections.defaultdict(int, ((_hashable(c), n) for c, n in data["freq"]))
        vocab._freeze = data["frozen"]
        return vocab


def _hashable(value):
    """JSON gives lists for tuples; make them tuples again so they can be dictionary keys."""
    return tuple(_hashable(v) for v in value) if isinstance(value, list) else value


# A category value that, like a float NaN, means "unknown" to CategoricalProcessor (TF's NAN).
NAN = -1


def _is_missing(value):
    if not isinstance(value, numbers.Number):
        return False
    return value == NAN or (isinstance(value, numbers.Real) and math.isnan(value))


class CategoricalProcessor:
    """Maps each column of rows of categories to ids, one `CategoricalVocabulary` per column.

    NaN and -1 (`NAN`) values are unknown: they are not added, and map to 0 (NaN of any real type,
    numpy's included; TF checks Python floats only). TF also accepts pandas frames; here `x` is
    any iterable of rows.

    Args:
      min_frequency: `fit` keeps only categories seen more than this many times (0: all).
      share: Whether all columns share one vocabulary.
      vocabularies: An optional list of one `CategoricalVocabulary` per column.

    Attributes:
      vocabularies_: The list of vocabularies, one per column (None before `fit`).
    """

    def __init__(self, min_frequency=0, share=False, vocabularies=None):
        self.min_frequency = min_frequency
        self.share = share
        self.vocabularies_ = vocabularies

    def freeze(self, freeze=True):
        """Freezes (or unfreezes) every vocabulary.

        Args:
          freeze: Whether the vocabularies are frozen.
        """
        for vocab in self.vocabularies_:
            vocab.freeze(freeze)

    def fit(self, x, unused_y=None):
        """Adds the categories of the rows of `x`, trims and freezes the vocabularies.

        Args:
          x: An iterable of rows (sequences of categories).
          unused_y: Ignored.

        Returns:
          self.

        Raises:
          TypeError: If `x` has no rows and no vocabularies were given.
        """
        for row in x:
            if self.vocabularies_ is None:
                if self.share:
                    vocab = CategoricalVocabulary()
                    self.vocabularies_ = [vocab for _ in row]
                else:
                    self.vocabularies_ = [CategoricalVocabulary() for _ in row]
            for idx, value in enumerate(row):
                if not _is_missing(value):
                    self.vocabularies_[idx].add(value)
        if self.vocabularies_ is None:
            raise TypeError("CategoricalProcessor.fit got no rows and has no vocabularies.")
        if self.min_frequency > 0:
            for vocab in self.vocabularies_:
                vocab.trim(self.min_frequency)
        self.freeze()
        return self

    def fit_transform(self, x, unused_y=None):
        """Fits, then transforms `x` (which must be iterable twice).

        Args:
          x: An iterable of rows.
          unused_y: Ignored.

        Returns:
          An iterator of `int64` arrays, as `transform`.
        """
        self.fit(x)
        return self.transform(x)

    def transform(self, x):
        """Maps each row to the ids of its categories.

        Args:
          x: An iterable of rows.

        Yields:
          An `int64` array per row (0 for unknown or missing categories).
        """
        for row in x:
            yield np.array([0 if _is_missing(value) else self.vocabularies_[idx].get(value)
                            for idx, value in enumerate(row)], dtype=np.int64)


class ByteProcessor:
    """Maps documents to fixed-length `uint8` arrays of their UTF-8 bytes, padded with 0.

    Args:
      max_document_length: The length of each array; longer documents are cut.
    """

    def __init__(self, max_document_length):
        self.max_document_length = max_document_length

    def fit(self, x):
        """Does nothing (there is nothing to learn); returns self."""
        return self

    def fit_transform(self, x):
        """The same as `transform(x)`."""
        return self.transform(x)

    def reverse(self, x):
        """Turns byte arrays back into strings.

        Args:
          x: An iterable of integer arrays.

        Yields:
          Each array's bytes, trailing zeros dropped, decoded as UTF-8 ('' if they don't decode).
        """
        for data in x:
            document = np.trim_zeros(np.asarray(data).astype(np.int8), trim="b").tobytes()
            try:
                yield document.decode("utf-8")
            except UnicodeDecodeError:
                yield ""

    def transform(self, x):
        """Turns strings into byte arrays.

        Args:
          x: An iterable of `str` (encoded as UTF-8) or `bytes`.

        Yields:
          A `uint8` array of `max_document_length` per document.
        """
        for document in x:
            if isinstance(document, str):
                document = document.encode("utf-8")
            buff = np.frombuffer(memoryview(document)[:self.max_document_length], dtype=np.uint8)
            yield np.pad(buff, (0, self.max_document_length - len(buff)), "constant")


class VocabularyProcessor:
    """Maps documents to fixed-length arrays of word ids, as TF 1.15's.

    Each document is tokenized; its first `max_document_length` tokens become their vocabulary
    ids, and shorter documents are padded with 0 (which is also the id of unknown words).

    Args:
      max_document_length: The length of each array.
      min_frequency: `fit` keeps only words seen more than this many times (0: all).
      vocabulary: A `CategoricalVocabulary` to use (default: a new, empty one).
      tokenizer_fn: A function from an iterable of documents to an iterable of token lists
        (default: `tokenizer`).

    Attributes:
      vocabulary_: The `CategoricalVocabulary`.
    """

    def __init__(self, max_document_length, min_frequency=0, vocabulary=None, tokenizer_fn=None):
        self.max_document_length = max_document_length
        self.min_frequency = min_frequency
        self.vocabulary_ = vocabulary if vocabulary else CategoricalVocabulary()
        self._tokenizer = tokenizer_fn if tokenizer_fn else tokenizer

    def fit(self, raw_documents, unused_y=None):
        """Adds the words of `raw_documents` to the vocabulary, trims it and freezes it.

        Args:
          raw_documents: An iterable of strings.
          unused_y: Ignored.

        Returns:
          self.
        """
        for tokens in self._tokenizer(raw_documents):
            for token in tokens:
                self.vocabulary_.add(token)
        if self.min_frequency > 0:
            self.vocabulary_.trim(self.min_frequency)
        self.vocabulary_.freeze()
        return self

    def fit_transform(self, raw_documents, unused_y=None):
        """Fits, then transforms `raw_documents` (which must be iterable twice).

        Args:
          raw_documents: An iterable of strings.
          unused_y: Ignored.

        Returns:
          An iterator of `int64` arrays, as `transform`.
        """
        self.fit(raw_documents)
        return self.transform(raw_documents)

    def transform(self, raw_documents):
        """Turns documents into word-id arrays.

        Args:
          raw_documents: An iterable of strings.

        Yields:
          An `int64` array of `max_document_length` per document.
        """
        for tokens in self._tokenizer(raw_documents):
            word_ids = np.zeros(self.max_document_length, np.int64)
            for idx, token in enumerate(tokens):
                if idx >= self.max_document_length:
                    break
                word_ids[idx] = self.vocabulary_.get(token)
            yield word_ids

    def reverse(self, documents):
        """Turns word-id arrays back into space-joined words.

        Args:
          documents: An iterable of integer arrays.

        Yields:
          A string per array (padding shows as the unknown token, as TF).
        """
        for item in documents:
            yield " ".join(self.vocabulary_.reverse(class_id) for class_id in item)

    def save(self, filename):
        """Writes the settings and vocabulary to `filename` as JSON (TF writes a pickle).

        A custom `tokenizer_fn` is not saved (only that there was one): pass it to `restore`.

        Args:
          filename: The path to write.

        Raises:
          TypeError: If a vocabulary category is not a JSON value (str, int, float, bool, None
            or tuples of them).
        """
        data = {"format": _FORMAT, "version": _FORMAT_VERSION,
                "max_document_length": self.max_document_length, "min_frequency": self.min_frequency,
                "custom_tokenizer": self._tokenizer is not tokenizer,
                "vocabulary": self.vocabulary_._to_json()}
        try:
            text = json.dumps(data)
        except TypeError as e:
            raise TypeError("VocabularyProcessor.save writes JSON, and a vocabulary category is not a JSON value: "
                            "%s" % e) from None
        with _gfile.GFile(filename, "w") as f:
            f.write(text)

    @classmethod
    def restore(cls, filename, tokenizer_fn=None):
        """Reads a processor that `save` wrote.

        Only the JSON files of `save` are read: TF's `save` files are pickles, and loading a pickle
        can run arbitrary code, so they are refused.

        Args:
          filename: The path `save` wrote.
          tokenizer_fn: The tokenizer function, needed when the saved processor had a custom one
            (functions are not saved).

        Returns:
          A `VocabularyProcessor`.

        Raises:
          ValueError: If the file is a pickle (TF's format) or not a file of `save`, or the saved
            processor had a custom tokenizer and `tokenizer_fn` is None.
        """
        with _gfile.GFile(filename, "rb") as f:
            raw = f.read()
        if raw[:1] == b"\x80" or raw[:1] in (b"(", b"c"):
            raise ValueError("%s looks like a pickle file (TF's VocabularyProcessor.save format); tensorweave does "
                             "not load pickles, which can run arbitrary code. Re-save the vocabulary with "
                             "tensorweave's VocabularyProcessor.save (JSON)." % filename)
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            data = None
        if not isinstance(data, dict) or data.get("format") != _FORMAT:
            raise ValueError("%s is not a VocabularyProcessor file written by tensorweave's save (JSON)." % filename)
        if data.get("version") != _FORMAT_VERSION:
            raise ValueError("%s has VocabularyProcessor file version %r; this tensorweave reads version %d."
                             % (filename, data.get("version"), _FORMAT_VERSION))
        if data["custom_tokenizer"] and tokenizer_fn is None:
            raise ValueError("%s was saved with a custom tokenizer_fn, which can't be saved; pass it as "
                             "restore(filename, tokenizer_fn=...)." % filename)
        return cls(data["max_document_length"], min_frequency=data["min_frequency"],
                   vocabulary=CategoricalVocabulary._from_json(data["vocabulary"]), tokenizer_fn=tokenizer_fn)
