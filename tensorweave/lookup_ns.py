"""`tf.lookup`: lookup tables and their initializers (each defined once in `ops.lookup_ops`)."""

from .ops.lookup_ops import (
                             KeyValueTensorInitializer,
                             StaticHashTable,
                             StaticVocabularyTable,
                             TextFileIndex,
                             TextFileInitializer,
)

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable", "TextFileIndex",
           "TextFileInitializer", "experimental"]

from . import lookup_experimental_ns as experimental  # noqa: E402
