"""`tf.io`: TFRecord files, `Example` parsing and raw decoding."""

from ..ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, decode_raw, parse_example,
                               parse_single_example)
from ..graph_io import write_graph
from .tf_record import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "TFRecordCompressionType", "TFRecordOptions",
           "TFRecordWriter", "VarLenFeature", "decode_raw", "parse_example", "parse_single_example",
           "tf_record_iterator", "write_graph"]
