"""SequenceExample parsing shared by tests/data/make_misc_io_tf.py (run with TensorFlow) and
tests/ops/test_parsing_sequence_ops.py (run with tensorweave): feature specs as JSON-able lists, the parse call
and the static shapes recorded, each taking the `tf` module."""


def features(tf, spec):
    """{key: feature} of a spec {key: ["fixed", shape, dtype, default] | ["var", dtype] |
    ["seq", shape, dtype, allow_missing(, default)]} (None: None)."""
    dtypes = {"int64": tf.int64, "float32": tf.float32, "string": tf.string, "int32": tf.int32}
    out = {}
    for key, f in (spec or {}).items():
        if f[0] == "fixed":
            out[key] = tf.FixedLenFeature(f[1], dtypes[f[2]], default_value=f[3])
        elif f[0] == "var":
            out[key] = tf.VarLenFeature(dtypes[f[1]])
        else:
            out[key] = tf.FixedLenSequenceFeature(f[1], dtypes[f[2]], allow_missing=f[3],
                                                  default_value=f[4] if len(f) > 4 else None)
    return out


def parse(tf, serialized, protos, ctx, seq, names):
    """parse_single_sequence_example of serialized[protos] (a name) or parse_sequence_example of a batch (a list
    of names)."""
    if isinstance(protos, str):
        return tf.io.parse_single_sequence_example(serialized[protos], features(tf, ctx), features(tf, seq),
                                                   example_name=names)
    return tf.io.parse_sequence_example([serialized[p] for p in protos], features(tf, ctx), features(tf, seq),
                                        example_names=names)


def static_shape(tf, t):
    """A tensor's static shape as a list (None for an unknown rank), a SparseTensor's as a dict of its parts'."""
    if isinstance(t, tf.SparseTensor):
        return {"indices": t.indices.shape.as_list(), "values": t.values.shape.as_list(),
                "dense_shape": t.dense_shape.shape.as_list()}
    return t.shape.as_list() if t.shape.ndims is not None else None
