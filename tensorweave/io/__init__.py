"""`tf.io`: TFRecord files, `Example` parsing and raw decoding."""

from ..ops.parsing_ops import (FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, decode_raw, parse_example,
                               parse_single_example)
from ..graph_io import write_graph
from .tf_record import TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "TFRecordCompressionType", "TFRecordOptions",
           "TFRecordWriter", "VarLenFeature", "decode_raw", "parse_example", "parse_single_example",
           "tf_record_iterator", "write_graph"]

# [base64]
from ..ops.string_basic_ops import decode_base64, encode_base64
__all__ += ["decode_base64", "encode_base64"]
# [sparse serialization]
from ..ops.sparse_serialize_ops import (deserialize_many_sparse, parse_tensor, serialize_many_sparse,  # noqa: E402
                                        serialize_sparse, serialize_tensor)
__all__ += ["deserialize_many_sparse", "parse_tensor", "serialize_many_sparse", "serialize_sparse",
            "serialize_tensor"]
from ..ops.sparse_feature_ops import SparseFeature  # noqa: E402
__all__ += ["SparseFeature"]
# [image codecs]
from ..ops.image_codec_ops import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,  # noqa: E402
                                   decode_jpeg, decode_png, decode_webp, encode_jpeg, encode_png, extract_jpeg_shape,
                                   is_jpeg)
__all__ += ["decode_and_crop_jpeg", "decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png",
            "decode_webp", "encode_jpeg", "encode_png", "extract_jpeg_shape", "is_jpeg"]
# [queues, readers, files]
from ..ops.data_flow_ops import PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue  # noqa: E402
from ..ops.parsing_csv_ops import decode_csv  # noqa: E402
__all__ += ["PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue", "decode_csv"]
from . import gfile  # noqa: E402
from .files import match_filenames_once, matching_files, read_file, write_file  # noqa: E402
__all__ += ["gfile", "match_filenames_once", "matching_files", "read_file", "write_file"]
# [sequence examples, compressed and JSON decoding]
from ..ops.io_misc_ops import decode_compressed, decode_json_example  # noqa: E402
from ..ops.parsing_sequence_ops import parse_sequence_example, parse_single_sequence_example  # noqa: E402
__all__ += ["decode_compressed", "decode_json_example", "parse_sequence_example", "parse_single_sequence_example"]
