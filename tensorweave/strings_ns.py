"""`tf.strings`: string operations (defined in `ops.string_*_ops`)."""

from .ops.string_basic_ops import as_string, lower, regex_full_match, regex_replace, substr, upper
from .ops.string_basic_ops import string_length as length
from .ops.string_basic_ops import string_strip as strip
from .ops.string_basic_ops import string_to_number as to_number
from .ops.string_hash_ops import string_to_hash_bucket as to_hash_bucket
from .ops.string_hash_ops import string_to_hash_bucket_fast as to_hash_bucket_fast
from .ops.string_hash_ops import string_to_hash_bucket_strong as to_hash_bucket_strong
from .ops.string_join_ops import reduce_join, unsorted_segment_join
from .ops.string_misc_ops import bytes_split, ngrams
from .ops.string_misc_ops import string_format as format  # noqa: A004
from .ops.string_ops import string_join as join
from .ops.string_split_ops import split
from .ops.string_unicode_ops import (
                                   unicode_decode,
                                   unicode_decode_with_offsets,
                                   unicode_encode,
                                   unicode_split,
                                   unicode_split_with_offsets,
                                   unicode_transcode,
)

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "ngrams", "reduce_join",
           "regex_full_match", "regex_replace", "split", "strip", "substr", "to_hash_bucket", "to_hash_bucket_fast",
           "to_hash_bucket_strong", "to_number", "unicode_decode", "unicode_decode_with_offsets", "unicode_encode",
           "unicode_split", "unicode_split_with_offsets", "unicode_transcode", "unsorted_segment_join", "upper"]
