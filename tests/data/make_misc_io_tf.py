"""Records TensorFlow's results for tests/ops/test_parsing_sequence_ops.py and test_io_misc_ops.py into
tests/data/misc_io_tf.json (run once with a TensorFlow environment: /work/tfenv/bin/python
tests/data/make_misc_io_tf.py; the tests never import TensorFlow).

Recorded: `tf.io.parse_single_sequence_example` / `tf.io.parse_sequence_example` on SequenceExamples
built here (values, static shapes, run-time error classes and messages, build-time errors), and
`tf.io.decode_compressed` on valid, concatenated and corrupt ZLIB/GZIP data.
"""

import base64
import gzip
import json
import os
import sys
import zlib

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import misc_io_cases as cases  # noqa: E402

_OUT = os.path.join(HERE, "misc_io_tf.json")


def _feature(kind, values):
    if kind == "b":
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=[v.encode() for v in values]))
    if kind == "f":
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


# A proto spec: {"context": {key: [kind, values]}, "lists": {key: [kind, [values per step]]}}
PROTOS = {
    "s1": {"context": {"len": ["i", [3]], "name": ["b", ["ab"]], "w": ["f", [1.0, 2.0]]},
           "lists": {"tok": ["i", [[1], [2], [3]]], "emb": ["f", [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]],
                     "var": ["b", [["a"], ["b", "c"], []]]}},
    "s2": {"context": {"len": ["i", [1]], "w": ["f", [3.0, 4.0]]},
           "lists": {"tok": ["i", [[7]]], "emb": ["f", [[9.0, 9.0]]], "var": ["b", [["z"]]]}},
    "s3": {"context": {"len": ["i", [0]]}, "lists": {"tok": ["i", []], "var": ["b", []]}},
    "s4": {"context": {"len": ["i", [2]], "name": ["b", ["q"]]},
           "lists": {"tok": ["i", [[4], [5]]], "emb": ["f", [[0.5, -0.5], [1.5, -1.5]]],
                     "var": ["b", [["x", "y", "z"], ["w"]]], "str": ["b", [["u"], ["v"]]]}},
}


def serialize(spec):
    return tf.train.SequenceExample(
        context=tf.train.Features(feature={k: _feature(*v) for k, v in spec["context"].items()}),
        feature_lists=tf.train.FeatureLists(feature_list={
            k: tf.train.FeatureList(feature=[_feature(v[0], step) for step in v[1]])
            for k, v in spec["lists"].items()})).SerializeToString()


CTX = {"len": ["fixed", [], "int64", None], "name": ["fixed", [], "string", "dflt"], "w": ["var", "float32"]}
SEQ = {"tok": ["seq", [], "int64", False], "emb": ["seq", [2], "float32", True], "var": ["var", "string"],
       "miss": ["seq", [], "int64", True]}

# (case name, proto names (one: single; a list: batch), context spec, sequence spec, example names)
CASES = [
    ("single_all", "s1", CTX, SEQ, None),
    ("single_s2", "s2", CTX, SEQ, None),
    ("single_empty_lists", "s3", {"len": CTX["len"]}, {"tok": SEQ["tok"], "var": SEQ["var"]}, None),
    ("single_context_only", "s1", CTX, None, None),
    ("single_seq_only", "s4", None, {"str": ["seq", [], "string", False], "var": SEQ["var"]}, None),
    ("single_named", "s1", None, {"tok": SEQ["tok"]}, "myname"),
    ("batch_all", ["s1", "s2"], CTX, SEQ, None),
    ("batch_three", ["s4", "s1", "s2"], {"len": CTX["len"], "w": CTX["w"]},
     {"emb": SEQ["emb"], "var": SEQ["var"], "tok": SEQ["tok"]}, ["a", "b", "c"]),
    ("batch_one", ["s2"], {"name": CTX["name"]}, {"var": SEQ["var"]}, None),
    ("batch_empty_list", ["s3", "s2"], {"len": CTX["len"]}, {"tok": SEQ["tok"], "var": SEQ["var"]}, None),
    ("batch_2d_context", ["s1", "s2"], {"w": ["fixed", [1, 2], "float32", None]}, None, None),
    # run-time errors
    ("err_missing_context", "s2", {"q": ["fixed", [], "int64", None]}, None, None),
    ("err_missing_context_batch", ["s1", "s2"], {"q": ["fixed", [], "int64", None]}, None, ["n1", "n2"]),
    ("err_missing_list", "s2", None, {"nope": ["seq", [], "int64", False]}, None),
    ("err_missing_list_batch", ["s1", "s2"], None, {"nope": ["seq", [], "int64", False]}, ["n1", "n2"]),
    ("err_list_type", "s2", None, {"tok": ["seq", [], "float32", False]}, None),
    ("err_list_type_batch", ["s1", "s2"], None, {"tok": ["seq", [], "float32", False]}, ["n1", "n2"]),
    ("err_list_size", "s2", None, {"emb": ["seq", [3], "float32", False]}, None),
    ("err_list_size_batch", ["s1", "s2"], None, {"emb": ["seq", [3], "float32", False]}, ["n1", "n2"]),
    ("err_context_size", "s2", {"w": ["fixed", [3], "float32", None]}, None, None),
    ("err_context_type", "s2", {"w": ["fixed", [2], "int64", None]}, None, None),
    ("err_context_type_batch", ["s1", "s2"], {"w": ["fixed", [2], "int64", None]}, None, ["n1", "n2"]),
    ("err_sparse_list_type", "s2", None, {"var": ["var", "int64"]}, None),
    ("err_corrupt", "corrupt", {"w": ["var", "float32"]}, None, None),
    ("err_corrupt_batch", ["s1", "corrupt"], {"w": ["var", "float32"]}, None, ["n1", "n2"]),
]

# Build-time errors: (case name, single?, context spec, sequence spec)
BUILD_ERRORS = [
    ("none_single", True, None, None),
    ("none_batch", False, None, None),
    ("seq_default", True, None, {"x": ["seq", [], "int64", False, 3]}),
    ("seq_in_context", True, {"x": ["seq", [], "int64", False]}, None),
    ("fixed_in_seq", True, None, {"x": ["fixed", [], "int64", None]}),
    ("int32", True, {"x": ["var", "int32"]}, None),
    ("int32_seq", True, None, {"x": ["seq", [], "int32", True]}),
]


def _value(v):
    if isinstance(v, tf.SparseTensorValue):
        return {"indices": v.indices.tolist(), "values": _value(v.values), "dense_shape": v.dense_shape.tolist()}
    v = np.asarray(v)
    if v.dtype == object or v.dtype.kind == "S":
        return {"dtype": "string", "shape": list(v.shape), "value": [b.decode() for b in v.reshape(-1)]}
    return {"dtype": v.dtype.name, "shape": list(v.shape), "value": v.reshape(-1).tolist()}


def _error_message(e):
    lines = str(e).splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Node:"):
            return lines[i + 1]
    return lines[0]


def record_sequences(serialized):
    out = {}
    sess = tf.Session()
    for name, protos, ctx, seq, names in CASES:
        result = cases.parse(tf, serialized, protos, ctx, seq, names)
        static = [{k: cases.static_shape(tf, t) for k, t in d.items()} for d in result]
        try:
            values = sess.run(result)
            out[name] = {"values": [{k: _value(v) for k, v in d.items()} for d in values], "static": static}
        except tf.errors.OpError as e:
            out[name] = {"error": type(e).__name__, "message": _error_message(e)}
    build = {}
    for name, single, ctx, seq in BUILD_ERRORS:
        fn = tf.io.parse_single_sequence_example if single else tf.io.parse_sequence_example
        try:
            fn(serialized["s1"] if single else [serialized["s1"]], cases.features(tf, ctx), cases.features(tf, seq))
            build[name] = None
        except (ValueError, TypeError) as e:
            build[name] = {"error": type(e).__name__, "message": str(e)}
    return out, build


COMPRESSED = [
    ("zlib", "ZLIB", [zlib.compress(b"hello world" * 3), zlib.compress(b""), zlib.compress(b"abc")]),
    ("gzip", "GZIP", [gzip.compress(b"hello world" * 3), gzip.compress(b""), gzip.compress(b"abc")]),
    ("none", "", [b"raw bytes", b""]),
    ("gzip_members", "GZIP", [gzip.compress(b"one") + gzip.compress(b"two")]),
    ("zlib_no_checksum", "ZLIB", [zlib.compress(b"hello world" * 3)[:-4]]),
    ("zlib_truncated", "ZLIB", [zlib.compress(b"hello world" * 3)[:10]]),
    ("gzip_truncated", "GZIP", [gzip.compress(b"hello world" * 3)[:20]]),
    ("zlib_trailing_junk", "ZLIB", [zlib.compress(b"abc") + b"junk"]),
    ("zlib_twice", "ZLIB", [zlib.compress(b"abc") + zlib.compress(b"def")]),
    ("gzip_trailing_junk", "GZIP", [gzip.compress(b"abc") + b"junk"]),
    ("empty_input", "ZLIB", [b""]),
    ("zlib_bad", "ZLIB", [b"notzlib"]),
    ("gzip_bad", "GZIP", [b"notgzip"]),
    ("gzip_of_zlib", "GZIP", [zlib.compress(b"abc")]),
    ("zlib_of_gzip", "ZLIB", [gzip.compress(b"abc")]),
    ("matrix", "ZLIB", [[zlib.compress(b"a"), zlib.compress(b"bb")], [zlib.compress(b""), zlib.compress(b"ccc")]]),
]


def record_compressed():
    out = {}
    sess = tf.Session()
    for name, ctype, data in COMPRESSED:
        t = tf.io.decode_compressed(data, compression_type=ctype)
        entry = {"type": ctype, "input": [base64.b64encode(b).decode() for b in np.array(data, object).reshape(-1)],
                 "shape": list(np.shape(np.array(data, object)))}
        try:
            entry["output"] = [base64.b64encode(b).decode() for b in sess.run(t).reshape(-1)]
        except tf.errors.OpError as e:
            entry["error"], entry["message"] = type(e).__name__, _error_message(e)
        out[name] = entry
    return out


def main():
    serialized = {name: serialize(spec) for name, spec in PROTOS.items()}
    serialized["corrupt"] = b"garbage\xff"
    seq, build = record_sequences(serialized)
    result = {"protos": {k: base64.b64encode(v).decode() for k, v in serialized.items()},
              "cases": [[c[0], c[1], c[2], c[3], c[4]] for c in CASES], "sequence": seq,
              "build_errors": [list(b) for b in BUILD_ERRORS], "build": build, "compressed": record_compressed(),
              "tensorflow": tf.__version__}
    with open(_OUT, "w") as f:
        json.dump(result, f, indent=0, sort_keys=True)


if __name__ == "__main__":
    main()
