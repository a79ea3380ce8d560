"""Writes tests/data/graphs/strings.pb (a GraphDef of TensorFlow's string and ragged ops, built by
real TensorFlow) and tests/data/graphs/strings_outputs.json (what TensorFlow computed for INPUT).

    /work/tfenv/bin/python tests/data/make_strings_graph.py

Made with TensorFlow 2.21 (CPU), `tf.compat.v1` with v2 behaviour disabled. Strings are stored as
hex in the JSON file.
"""

import json
import os

import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "graphs")
INPUT = ["Hello World", "caf\u00e9 42", "", "  tensor weave  ", "\u65e5\u672c 7"]


def _jsonable(v):
    v = np.asarray(v)
    flat = [x.hex() if isinstance(x, bytes) else (bool(x) if v.dtype == bool else float(x) if v.dtype.kind == "f"
                                                  else int(x)) for x in v.reshape(-1)]
    return {"shape": list(v.shape), "dtype": v.dtype.name if v.dtype != object else "string", "values": flat}


def main():
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.string, [None], name="input")
        outs = {
            "lower": tf.strings.lower(x),
            "upper_utf8": tf.strings.upper(x, encoding="utf-8"),
            "length_utf8": tf.strings.length(x, unit="UTF8_CHAR"),
            "strip": tf.strings.strip(x),
            "substr": tf.strings.substr(x, 0, 4),
            "regex_static": tf.strings.regex_replace(x, "[0-9]+", "<\\0>"),
            "regex_dynamic": tf.strings.regex_replace(x, tf.constant("o"), tf.constant("0")),
            "full_match": tf.strings.regex_full_match(x, tf.constant(".*[0-9]")),
            "base64": tf.io.decode_base64(tf.io.encode_base64(x, pad=True)),
            "as_string": tf.as_string(tf.strings.length(x), width=3, fill="0"),
            "to_number": tf.strings.to_number(tf.as_string(tf.cast(tf.strings.length(x), tf.float32) / 4.0)),
            "hash": tf.strings.to_hash_bucket(x, 1000),
            "hash_fast": tf.strings.to_hash_bucket_fast(x, 1000),
            "hash_strong": tf.strings.to_hash_bucket_strong(x, 1000, [7, 11]),
            "fingerprint": tf.fingerprint(x),
            "reduce_join": tf.reshape(tf.strings.reduce_join(x, separator="|"), [1]),
            "join": tf.strings.join([x, x], separator="+"),
        }
        sp = tf.string_split(x)
        outs.update(split_indices=sp.indices, split_values=sp.values, split_shape=sp.dense_shape)
        sp2 = tf.strings.split(x, sep="e")
        outs.update(split2_indices=sp2.indices, split2_values=sp2.values, split2_shape=sp2.dense_shape)
        chars = tf.strings.unicode_decode(x, "UTF-8")
        outs.update(decode_values=chars.values, decode_splits=chars.row_splits,
                    encode=tf.strings.unicode_encode(chars, "UTF-16-BE"),
                    dense=chars.to_tensor(default_value=-1),
                    transcode=tf.strings.unicode_transcode(x, "UTF-8", "UTF-32-BE"))
        # (Ragged tensors built from value row ids would need TF 2.21's DenseBincount: constant ones here.)
        words = tf.ragged.constant([["a", "b", "c"], [], ["d"], ["e", "f"], ["g"]])
        grams = tf.strings.ngrams(words, 2, pad_values="#")
        outs.update(ngram_values=grams.values, ngram_splits=grams.row_splits)
        crossed = tf.ragged.cross_hashed([words, tf.reshape(x, [-1, 1])], 50)
        outs.update(cross_values=crossed.values, cross_splits=crossed.row_splits)
        named = tf.ragged.cross([words, tf.reshape(x, [-1, 1])])
        outs.update(cross_names=named.values)
        names = {k: v.name for k, v in outs.items()}
        with tf.Session(graph=g) as s:
            vals = s.run(outs, {x: np.array(INPUT, dtype=object)})
    with open(os.path.join(OUT, "strings.pb"), "wb") as f:
        f.write(g.as_graph_def().SerializeToString())
    data = {"input": [s.encode().hex() for s in INPUT], "tensors": names,
            "outputs": {k: _jsonable(v) for k, v in vals.items()}, "tf_version": tf.__version__}
    with open(os.path.join(OUT, "strings_outputs.json"), "w") as f:
        json.dump(data, f, indent=0)


if __name__ == "__main__":
    main()
