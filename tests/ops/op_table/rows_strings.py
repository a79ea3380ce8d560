"""Op-table rows of the string and ragged ops (tensorweave/ops/string_*_ops.py, ragged_*_ops.py; see
harness.py for the row API).

References are written with Python's `bytes`/`str` methods, `base64`, explicit loops over rows and
NumPy; the hash rows look up TensorFlow's own values recorded in tests/data/strings_goldens.json
(tests/data/make_strings_goldens.py). Special cases marked "TF 2.21" are inputs whose outputs were
printed by real TensorFlow 2.21 and agree with the references here. A scalar string output is
fetched as `bytes`, so rows whose output is a scalar reshape it to a 1-element vector. No string op
is differentiable (grad=False checks that `tf.gradients` gives None).
"""

import base64
import itertools
import json
import math
import os
import struct

import numpy as np

import tensorweave as tf
from tensorweave.framework import ops as tf_ops
from tests.ops.op_table.harness import FLOATS, INTS, Row

OBJ = np.dtype(object)
S = (OBJ,)

with open(os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "data", "strings_goldens.json")) as _f:
    GOLD = json.load(_f)
POOL = [bytes.fromhex(h) for h in GOLD["strings"]]
BUCKETS = GOLD["num_buckets"]


def _strings(values, shape=None):
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out.reshape(shape if shape is not None else (len(values),))


def _map(fn, dtype=object):
    def ref(x):
        flat = [fn(bytes(v)) for v in x.reshape(-1)]
        return _strings(flat, x.shape) if dtype is object else np.array(flat, dtype).reshape(x.shape)
    return ref


WORDS = [b"Hello", b"wORLD", b"", b" pad ", b"caf\xc3\xa9", b"\xff\xfe", b"a\tb\n", b"MiXeD 123", b"\x00z"]


def _words(rng, shape, pool=WORDS):
    n = int(np.prod(shape))
    return _strings([pool[rng.randint(len(pool))] for _ in range(n)], shape)


def _words_inputs(shape):
    return lambda dt, rng: [_words(rng, shape)]


def _str_special(*cases):
    """special(dt): each case is a list of strings (one 1-D input), plus an empty vector."""
    return lambda dt: [[_strings([])]] + [[_strings(list(c))] for c in cases]


# ---- StringLength / Lower / Upper / Strip --------------------------------------------------------
def _utf8_chars(s):
    """UTF-8 characters as TF counts them: bytes that are not continuation bytes 0b10xxxxxx."""
    b = np.frombuffer(s, np.uint8)
    return int(np.count_nonzero((b & 0xC0) != 0x80))


_CASE_SPECIAL = _str_special([b"ABC xyz", "\u00c9COLE".encode(), b"A\xffB", b"\xc3"],
                             ["stra\u00dfe".encode(), "\u0130".encode(), b"123"])


# ---- Substr --------------------------------------------------------------------------------------
def _substr_ref(x, pos, length):
    shape = np.broadcast_shapes(x.shape, pos.shape)
    xs, ps, ls = (np.broadcast_to(a, shape).reshape(-1) for a in (x, pos, length))
    out = []
    for s, p, n in zip(xs, ps, ls):
        s = bytes(s)
        p = int(p) if p >= 0 else len(s) + int(p)
        out.append(s[p:] if n < 0 else s[p:p + int(n)])
    return _strings(out, shape)


def _substr_inputs(dt, rng):
    x = _strings([b"HelloWorld", b"abc", b"tensorweave!", b"xy", b"0123456789", b"q"], (2, 3))
    lens = np.array([len(v) for v in x.reshape(-1)]).reshape(2, 3)
    pos = np.array([[rng.randint(-n, n + 1) for n in row] for row in lens], dt)
    return [x, pos, rng.randint(-1, 5, size=(2, 3)).astype(dt)]


def _substr_special(dt):
    # TF 2.21: substr("Hello", -2, 5) = "lo"; substr("Hello", 5, 1) = ""; substr("Hello", 1, -1) = "ello".
    return [[_strings([b"Hello", b"Hello", b"Hello", b""]), np.array([-2, 5, 1, 0], dt), np.array([5, 1, -1, 3], dt)],
            [_strings([]), np.zeros(0, dt), np.zeros(0, dt)]]


def _substr_bcast_inputs(dt, rng):
    return [_strings([b"ten", b"eleven", b"abc", b"defg"], (2, 2)), np.array([1, 2], dt), np.array([3, 1], dt)]


def _substr_utf8_ref(x, pos, length):
    out = []
    for s, p, n in zip(x.reshape(-1), pos.reshape(-1), length.reshape(-1)):
        chars = bytes(s).decode("utf-8")
        p = int(p) if p >= 0 else len(chars) + int(p)
        out.append(chars[p:p + max(int(n), 0)].encode("utf-8"))
    return _strings(out, x.shape)


def _substr_utf8_inputs(dt, rng):
    words = ["h\u00e9llo", "\u65e5\u672c\u8a9e\u306e", "abc", "\U0001F600x\u00fc"]
    x = _strings([w.encode() for w in words])
    pos = np.array([rng.randint(-len(w), len(w) + 1) for w in words], dt)
    return [x, pos, rng.randint(-1, 4, size=4).astype(dt)]


# ---- regex ---------------------------------------------------------------------------------------
def _digits_to_hash(s):
    """Every run of ASCII digits replaced by "#" (the rewrite of pattern "[0-9]+")."""
    return b"".join(b"#" if k else bytes(g) for k, g in itertools.groupby(s, key=lambda c: 48 <= c <= 57))


def _regex_inputs(dt, rng):
    pool = [b"a1b22c333", b"", b"no digits", b"42", b"x9\n8y", b"\xff7\xfe"]
    return [_words(rng, (2, 3), pool)]


def _full_match_ref(x, p):
    def match(v):
        body = v[:-1] if v[-1:].isdigit() else v
        return bool(body) and all(ch in b"abc" for ch in body)
    return np.array([match(bytes(v)) for v in x.reshape(-1)], bool).reshape(x.shape)


def _full_match_inputs(dt, rng):
    pool = [b"abc", b"ab7", b"c12", b"", b"aXb", b"b\n", b"cab9"]
    return [_words(rng, (3, 2), pool), _strings([b"[a-c]+[0-9]?"], ())]


# ---- AsString ------------------------------------------------------------------------------------
def _c_float(v, spec="f"):
    v = float(v)
    if math.isnan(v):
        return ("-nan" if math.copysign(1.0, v) < 0 else "nan").encode()
    if math.isinf(v):
        return b"inf" if v > 0 else b"-inf"
    return format(v, "." + "6" + spec).encode()


def _as_string_float_ref(x):
    return _strings([_c_float(v) for v in x.reshape(-1)], x.shape)


def _as_string_sci_ref(x):
    return _strings([_c_float(v, "e") for v in x.reshape(-1)], x.shape)


def _as_string_int_ref(x):
    return _strings([str(int(v)).rjust(5, " ").encode() for v in x.reshape(-1)], x.shape)


def _as_string_bool_ref(x):
    return _strings([b"true" if v else b"false" for v in x.reshape(-1)], x.shape)


def _floats(lo=-1e4, hi=1e4):
    return lambda dt, rng: [rng.uniform(lo, hi, (2, 3)).astype(dt)]


# ---- StringToNumber ------------------------------------------------------------------------------
def _to_number_inputs(dt, rng):
    vals = rng.uniform(-1e3, 1e3, 6)
    texts = [repr(float(v)).encode() for v in vals[:3]] + [("%e" % v).encode() for v in vals[3:]]
    return [_strings(texts, (2, 3))]


def _to_float_ref(x):
    return np.array([float(bytes(v)) for v in x.reshape(-1)], np.float32).reshape(x.shape)


def _to_number_special(dt):
    # TF 2.21: "1." 1, ".5" 0.5, "Infinity" inf, "-INF" -inf, "+inf" inf, "01" 1, "1e400" inf (float32),
    # "4e-46" 0, " 2" 2, "-3e2" -300, "NaN" nan.
    return [[_strings([])], [_strings([b"1.", b".5", b"Infinity", b"-INF", b"+inf", b"01", b"1e400", b"4e-46",
                                      b" 2", b"-3e2", b"NaN"])]]


def _to_int_inputs(dt, rng):
    return [_strings([str(int(v)).encode() for v in rng.randint(-2 ** 31, 2 ** 31 - 1, 6)], (3, 2))]


def _to_int_ref(x):
    return np.array([int(bytes(v)) for v in x.reshape(-1)], np.int32).reshape(x.shape)


# ---- base64 --------------------------------------------------------------------------------------
def _b64_encode_ref(x):
    return _map(lambda s: base64.b64encode(s).replace(b"+", b"-").replace(b"/", b"_").rstrip(b"="))(x)


def _b64_decode_ref(x):
    return _map(lambda s: base64.b64decode((s + b"=" * (-len(s) % 4)).replace(b"-", b"+").replace(b"_", b"/")))(x)


def _b64_decode_inputs(dt, rng):
    raw = _words(rng, (2, 3), WORDS + [bytes(range(256))[:50], b"?>~"])
    enc = [base64.urlsafe_b64encode(bytes(v)) for v in raw.reshape(-1)]
    return [_strings([e.rstrip(b"=") if i % 2 else e for i, e in enumerate(enc)], (2, 3))]


# ---- hashes (TF's recorded values) ---------------------------------------------------------------
def _pool_inputs(dt, rng):
    return [_strings([POOL[rng.randint(len(POOL))] for _ in range(12)], (3, 4))]


def _gold_ref(table):
    lookup = dict(zip(POOL, GOLD[table]))
    return lambda x: np.array([lookup[bytes(v)] for v in x.reshape(-1)], np.int64).reshape(x.shape)


def _all_pool(dt):
    return [[_strings(POOL)], [_strings([])]]


def _fingerprint_ref(x):
    lookup = dict(zip(POOL, GOLD["fingerprint"]))
    return np.array([list(bytes.fromhex(lookup[bytes(v)])) for v in x.reshape(-1)], np.uint8).reshape(-1, 8)


def _fingerprint_numeric_ref(x):
    import farmhash
    rows = np.ascontiguousarray(x).reshape(x.shape[0], -1)
    return np.array([list(struct.pack("<Q", farmhash.fingerprint64(r.tobytes()))) for r in rows], np.uint8)


# ---- ReduceJoin / UnsortedSegmentJoin ------------------------------------------------------------
def _reduce_join_rows_ref(x):
    return _strings([b"".join(bytes(v) for v in row) for row in x], (x.shape[0],))


def _reduce_join_all_ref(order):
    def ref(x):
        t = np.transpose(x, order)
        return _strings([b"|".join(bytes(v) for v in t.reshape(-1))], (1,))
    return ref


def _segment_join_ref(x, ids):
    out = [[] for _ in range(3)]
    for s, i in zip(x, ids):
        out[int(i)].append(bytes(s))
    return _strings([b",".join(p) for p in out])


def _segment_join_inputs(dt, rng):
    return [_words(rng, (6,)), rng.randint(0, 3, size=6).astype(dt)]


# ---- StringSplit / StringSplitV2 -----------------------------------------------------------------
def _sparse_ref(rows):
    idx = [(i, j) for i, r in enumerate(rows) for j in range(len(r))]
    vals = [t for r in rows for t in r]
    return [np.array(idx, np.int64).reshape(-1, 2), _strings(vals),
            np.array([len(rows), max([len(r) for r in rows], default=0)], np.int64)]


def _split_v1_ref(x):
    return _sparse_ref([[t for t in bytes(s).split(b" ") if t] for s in x])


def _split_v1_noskip_ref(x):
    return _sparse_ref([bytes(s).replace(b";", b",").split(b",") if bytes(s) else [] for s in x])


def _split_v2_ref(x):
    return _sparse_ref([bytes(s).split() for s in x])


def _split_v2_sep_ref(x):
    return _sparse_ref([bytes(s).split(b"<>") for s in x])


def _split_inputs(dt, rng):
    pool = [b"hello world", b"a  b", b"", b" x ", b"one", b"a<>b<><>c", b"<>", b"p,q;r,,"]
    return [_words(rng, (5,), pool)]


def _split_special(dt):
    # TF 2.21: string_split(["hello world", "a  b", "", " x "]) -> indices [[0,0],[0,1],[1,0],[1,1],[3,0]].
    return [[_strings([b"hello world", b"a  b", b"", b" x "])], [_strings([])], [_strings([b"", b""])]]


def _split_v1_fn(skip_empty, sep):
    def fn(x):
        sp = tf.string_split(x, sep, skip_empty=skip_empty)
        return [sp.indices, sp.values, sp.dense_shape]
    return fn


def _split_v2_fn(sep):
    def fn(x):
        sp = tf.strings.split(x, sep=sep)
        return [sp.indices, sp.values, sp.dense_shape]
    return fn


# ---- unicode -------------------------------------------------------------------------------------
TEXTS = ["h\u00e9llo", "", "\u65e5\u672c\u8a9e", "\U0001F600!", "abc", "\u00fc\u00df\u0394"]


def _texts(rng, n=5):
    return _strings([TEXTS[rng.randint(len(TEXTS))].encode() for _ in range(n)])


def _decode_ref(x):
    rows = [[ord(c) for c in bytes(s).decode("utf-8")] for s in x]
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return [splits, np.array([c for r in rows for c in r], np.int32)]


def _decode_offsets_ref(x):
    splits, chars = _decode_ref(x)
    offs = []
    for s in x:
        pos = 0
        for c in bytes(s).decode("utf-8"):
            offs.append(pos)
            pos += len(c.encode("utf-8"))
    return [splits, chars, np.array(offs, np.int64)]


def _decode_special(dt):
    # TF 2.21: b"\xffa\xe2\x82b\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80" decodes to
    # [65533, 97, 65533, 98] + [65533] * 9 (one replacement per maximal invalid subsequence).
    return [[_strings([])], [_strings([b"\xffa\xe2\x82b\xc0\xaf\xed\xa0\x80\xf4\x90\x80\x80"])]]


def _decode_special_ref(x):
    if x.size and bytes(x[0]).startswith(b"\xff"):
        return [np.array([0, 13], np.int64), np.array([65533, 97, 65533, 98] + [65533] * 9, np.int32)]
    return _decode_ref(x)


def _decode_fn(op_type):
    def fn(x):
        return tf_ops.apply_op(op_type, [x], {"input_encoding": "UTF-8", "errors": "replace", "replacement_char": 65533,
                                              "replace_control_characters": False, "Tsplits": tf.int64})
    return fn


def _encode_inputs(dt, rng):
    rows = [[ord(c) for c in TEXTS[rng.randint(len(TEXTS))]] for _ in range(4)]
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return [np.array([c for r in rows for c in r], np.int32), splits]


def _encode_ref(encoding):
    def ref(values, splits):
        return _strings([
            "".join(chr(int(c)) if 0 <= c <= 0x10FFFF and not 0xD800 <= c <= 0xDFFF else "\ufffd"
                    for c in values[splits[i]:splits[i + 1]]).encode(encoding) for i in range(len(splits) - 1)])
    return ref


def _encode_special(dt):
    # TF 2.21: [[104, 233], [], [0x1F600, 0x110000, 0xD800]] -> ["h\xc3\xa9", "", "\xf0\x9f\x98\x80" + U+FFFD * 2].
    return [[np.array([104, 233, 0x1F600, 0x110000, 0xD800], np.int32), np.array([0, 2, 2, 5], np.int64)],
            [np.zeros(0, np.int32), np.array([0], np.int64)]]


def _encode_fn(encoding):
    def fn(values, splits):
        return tf_ops.apply_op("UnicodeEncode", [values, splits], {"output_encoding": encoding, "errors": "replace",
                                                                   "replacement_char": 65533, "Tsplits": tf.int64})
    return fn


def _transcode_ref(x):
    return _map(lambda s: s.decode("utf-8").encode("utf-16-be"))(x)


# ---- StringNGrams --------------------------------------------------------------------------------
def _ngram_inputs(dt, rng):
    rows = [[b"a", b"b", b"c", b"d"][:rng.randint(0, 5)] for _ in range(4)]
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return [_strings([t for r in rows for t in r]), splits]


def _ngram_ref(width, pad):
    def ref(data, splits):
        out, out_splits = [], [0]
        for i in range(len(splits) - 1):
            toks = [bytes(t) for t in data[splits[i]:splits[i + 1]]]
            if pad:
                toks = [b"<"] * (width - 1) + toks + [b">"] * (width - 1)
            grams = [b" ".join(toks[k:k + width]) for k in range(len(toks) - width + 1)]
            out.extend(grams)
            out_splits.append(out_splits[-1] + len(grams))
        return [_strings(out), np.array(out_splits, np.int64)]
    return ref


def _ngram_fn(width, pad):
    def fn(data, splits):
        return tf_ops.apply_op("StringNGrams", [data, splits], {
            "separator": " ", "ngram_widths": [width], "left_pad": "<" if pad else "",
            "right_pad": ">" if pad else "", "pad_width": -1 if pad else 0, "preserve_short_sequences": False})
    return fn


# ---- StringFormat --------------------------------------------------------------------------------
def _format_ref(x):
    return _strings([("x=[%s]!" % " ".join(str(int(v)) for v in x)).encode()])


# ---- ragged --------------------------------------------------------------------------------------
def _ragged_inputs(dt, rng):
    lengths = rng.randint(0, 4, size=4)
    values = (rng.uniform(-5, 5, (int(lengths.sum()), 2)) * 4).astype(dt)
    return [values, np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)]


def _to_tensor_ref(values, splits):
    width = int(max(np.diff(splits), default=0))
    out = np.full((len(splits) - 1, width) + values.shape[1:], 0, values.dtype)
    for i in range(len(splits) - 1):
        row = values[splits[i]:splits[i + 1]]
        out[i, :len(row)] = row
    return out


def _to_tensor_fn(values, splits):
    return tf.RaggedTensor.from_row_splits(values, splits, validate=False).to_tensor()


def _to_tensor_grad_inputs(rng):
    return [rng.uniform(-1, 1, (6, 2)), np.array([0, 2, 2, 5, 6], np.int64)]


def _to_tensor_default_inputs(dt, rng):
    return [rng.uniform(-1, 1, (3, 2)).astype(dt), np.array([0, 1, 1, 3], np.int64),
            rng.uniform(-1, 1, (2,)).astype(dt)]


def _to_tensor_default_fn(values, splits, default):
    """A default value broadcast along the rows, and an output shape truncating the longest row."""
    rt = tf.RaggedTensor.from_row_splits(values, splits, validate=False)
    return tf_ops.apply_op("RaggedTensorToTensor", [tf.constant(np.array([3, 2, -1], np.int64)), values, default,
                                                    rt.row_splits], {"row_partition_types": ["ROW_SPLITS"]})


def _to_tensor_default_ref(values, splits, default):
    out = np.empty((len(splits) - 1, 2) + values.shape[1:], values.dtype)
    out[...] = default
    for i in range(len(splits) - 1):
        row = values[splits[i]:splits[i + 1]][:2]
        out[i, :len(row)] = row
    return out


def _to_sparse_ref(values, splits):
    idx, vals = [], []
    for i in range(len(splits) - 1):
        for j in range(int(splits[i + 1] - splits[i])):
            for k in range(values.shape[1]):
                idx.append((i, j, k))
                vals.append(values[splits[i] + j, k])
    width = int(max(np.diff(splits), default=0))
    return [np.array(idx, np.int64).reshape(-1, 3), np.array(vals, values.dtype),
            np.array([len(splits) - 1, width, values.shape[1]], np.int64)]


def _to_sparse_fn(values, splits):
    st = tf.RaggedTensor.from_row_splits(values, splits, validate=False).to_sparse()
    return [st.indices, st.values, st.dense_shape]


def _ragged_special(dt):
    return [[np.zeros((0, 2), dt), np.array([0, 0, 0], np.int64)], [np.zeros((0, 2), dt), np.array([0], np.int64)]]


def _range_inputs(dt, rng):
    starts = rng.randint(-5, 5, size=4).astype(dt)
    return [starts, (starts + rng.randint(-3, 8, size=4)).astype(dt), np.array([1, 2, -1, 3], dt)]


def _range_ref(starts, limits, deltas):
    rows = []
    for a, b, d in zip(starts, limits, deltas):
        r, v = [], a
        while (v < b) if d > 0 else (v > b):
            r.append(v)
            v = a + len(r) * d
        rows.append(r)
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return [splits, np.array([v for r in rows for v in r], starts.dtype)]


def _range_fn(starts, limits, deltas):
    return tf_ops.apply_op("RaggedRange", [starts, limits, deltas], {"Tsplits": tf.int64})


def _range_special(dt):
    # TF 2.21: ragged.range([5, 0], [0, 5], [-2, 2]) -> [[5, 3, 1], [0, 2, 4]].
    return [[np.array([5, 0], dt), np.array([0, 5], dt), np.array([-2, 2], dt)],
            [np.zeros(0, dt), np.zeros(0, dt), np.zeros(0, dt)]]


# ---- RaggedCross ---------------------------------------------------------------------------------
def _cross_inputs(dt, rng):
    rows = [[b"a", b"b", b"c"][:rng.randint(0, 4)] for _ in range(4)]
    splits = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    return [_strings([t for r in rows for t in r]), splits, rng.randint(0, 9, size=(4, 2)).astype(np.int64)]


def _cross_ref(values, splits, dense):
    out, out_splits = [], [0]
    for r in range(len(splits) - 1):
        for v in values[splits[r]:splits[r + 1]]:
            for d in dense[r]:
                out.append(bytes(v) + b"_X_" + str(int(d)).encode())
        out_splits.append(len(out))
    return [_strings(out), np.array(out_splits, np.int64)]


def _cross_fn(values, splits, dense):
    return tf_ops.apply_op("RaggedCross", [values, splits, dense], {
        "input_order": "RD", "hashed_output": False, "num_buckets": 0, "hash_key": 0xDECAFCAFFE,
        "out_row_splits_type": tf.int64})


# ---- RaggedFillEmptyRows -------------------------------------------------------------------------
def _fill_inputs(dt, rng):
    rowids = np.sort(rng.randint(0, 6, size=5)).astype(np.int64)
    return [rowids, rand_values(rng, 5, dt), np.array(6, np.int64), np.array(-7, dt)]


def rand_values(rng, n, dt):
    return (rng.uniform(-5, 5, n) * 4).astype(dt)


def _fill_ref(rowids, values, nrows, default):
    out_rows, out_vals, empty, reverse = [], [], [], [0] * len(rowids)
    for r in range(int(nrows)):
        members = [k for k in range(len(rowids)) if rowids[k] == r]
        empty.append(not members)
        for k in members:
            reverse[k] = len(out_vals)
            out_rows.append(r)
            out_vals.append(values[k])
        if not members:
            out_rows.append(r)
            out_vals.append(default)
    return [np.array(out_rows, np.int64), np.array(out_vals, values.dtype), np.array(empty, bool),
            np.array(reverse, np.int64)]


def _fill_fn(rowids, values, nrows, default):
    return list(tf.ragged_fill_empty_rows(rowids, values, nrows, default))


def _fill_grad_fn(rowids, values, nrows, default):
    # 5 values in rows 0, 0, 2, 2, 5 of 6 plus a default in rows 1, 3, 4: a static length of 8.
    return tf.reshape(tf.ragged_fill_empty_rows(rowids, values, nrows, default)[1], [8])


def _fill_grad_inputs(rng):
    return [np.array([0, 0, 2, 2, 5], np.int64), rng.uniform(-1, 1, 5), np.array(6, np.int64),
            np.array(0.5)]


def _fill_grad_op_ref(reverse, grad):
    d = grad[reverse]
    return [d, np.array(grad.sum() - d.sum(), grad.dtype)]


_NO_GRAD = dict(grad=False)

ROWS = [
    Row("StringLength", lambda x: tf.strings.length(x), _map(len, np.int32), _words_inputs((2, 4)), dtypes=S,
        special=_CASE_SPECIAL, **_NO_GRAD),
    Row("StringLength", lambda x: tf.strings.length(x, unit="UTF8_CHAR"), _map(_utf8_chars, np.int32),
        _words_inputs((3, 2)), dtypes=S, special=_CASE_SPECIAL, name="StringLength-utf8", **_NO_GRAD),
    Row("StringLower", lambda x: tf.strings.lower(x), _map(bytes.lower), _words_inputs((2, 4)), dtypes=S,
        special=_CASE_SPECIAL, **_NO_GRAD),
    Row("StringLower", lambda x: tf.strings.lower(x, encoding="utf-8"),
        _map(lambda s: s.decode("utf-8", "replace").lower().encode()), _words_inputs((4,)), dtypes=S,
        special=_CASE_SPECIAL, name="StringLower-utf8", **_NO_GRAD),
    Row("StringUpper", lambda x: tf.strings.upper(x), _map(bytes.upper), _words_inputs((2, 4)), dtypes=S,
        special=_CASE_SPECIAL, **_NO_GRAD),
    Row("StringUpper", lambda x: tf.strings.upper(x, encoding="utf-8"),
        _map(lambda s: s.decode("utf-8", "replace").upper().encode()), _words_inputs((4,)), dtypes=S,
        special=_CASE_SPECIAL, name="StringUpper-utf8", **_NO_GRAD),
    Row("StringStrip", lambda x: tf.strings.strip(x), _map(bytes.strip), _words_inputs((3, 3)), dtypes=S,
        special=_str_special([b" \t a b \n", b"\x0b x \x0c", b"\r\n", b"\xa0x\xa0"]), **_NO_GRAD),
    Row("Substr", lambda x, p, n: tf.strings.substr(x, p, n), _substr_ref, _substr_inputs, dtypes=INTS,
        special=_substr_special, **_NO_GRAD),
    Row("Substr", lambda x, p, n: tf.strings.substr(x, p, n), _substr_ref, _substr_bcast_inputs, dtypes=INTS,
        special=False, name="Substr-broadcast", **_NO_GRAD),
    Row("Substr", lambda x, p, n: tf.strings.substr(x, p, n, unit="UTF8_CHAR"), _substr_utf8_ref,
        _substr_utf8_inputs, dtypes=(np.int32,), special=False, name="Substr-utf8", **_NO_GRAD),
    Row("StaticRegexReplace", lambda x: tf.strings.regex_replace(x, "[0-9]+", "#"), _map(_digits_to_hash),
        _regex_inputs, dtypes=S, special=_str_special([b"1a22", b"", b"\n3\n"]), **_NO_GRAD),
    Row("StaticRegexReplace", lambda x: tf.strings.regex_replace(x, "o", "0", replace_global=False),
        _map(lambda s: s.replace(b"o", b"0", 1)), _words_inputs((2, 3)), dtypes=S,
        special=_str_special([b"foo boo", b"o"]), name="StaticRegexReplace-first", **_NO_GRAD),
    Row("RegexReplace", lambda x: tf.strings.regex_replace(x, tf.constant("[0-9]+"), tf.constant("#")),
        _map(_digits_to_hash), _regex_inputs, dtypes=S, special=_str_special([b"1a22", b""]), **_NO_GRAD),
    Row("RegexFullMatch", lambda x, p: tf.strings.regex_full_match(x, p), _full_match_ref, _full_match_inputs,
        dtypes=S, special=lambda dt: [[_strings([]), _strings([b"[a-c]+[0-9]?"], ())]], **_NO_GRAD),
    Row("AsString", lambda x: tf.as_string(x), _as_string_float_ref, _floats(), dtypes=FLOATS,
        special=lambda dt: [[np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, 1e4], dt)],
                            [np.zeros(0, dt)]], **_NO_GRAD),
    Row("AsString", lambda x: tf.as_string(x, scientific=True), _as_string_sci_ref, _floats(), dtypes=FLOATS,
        special=False, name="AsString-scientific", **_NO_GRAD),
    Row("AsString", lambda x: tf.as_string(x, width=5), _as_string_int_ref,
        lambda dt, rng: [rng.randint(-9999, 9999, size=(3, 2)).astype(dt)], dtypes=INTS + (np.int8, np.int16),
        special=lambda dt: [[np.array([0, -1, np.iinfo(dt).min, np.iinfo(dt).max], dt)]], name="AsString-int",
        **_NO_GRAD),
    Row("AsString", lambda x: tf.as_string(x), _as_string_bool_ref, lambda dt, rng: [rng.rand(2, 2) < 0.5],
        dtypes=(np.bool_,), special=False, name="AsString-bool", **_NO_GRAD),
    Row("StringToNumber", lambda x: tf.strings.to_number(x), _to_float_ref, _to_number_inputs, dtypes=S,
        special=_to_number_special, **_NO_GRAD),
    Row("StringToNumber", lambda x: tf.strings.to_number(x, out_type=tf.int32), _to_int_ref, _to_int_inputs,
        dtypes=S, special=lambda dt: [[_strings([b"010", b" 12 ", b"-0", b"-2147483648", b"+5"])]],
        name="StringToNumber-int32", **_NO_GRAD),
    Row("EncodeBase64", lambda x: tf.io.encode_base64(x), _b64_encode_ref, _words_inputs((2, 3)), dtypes=S,
        special=_str_special([b"hello", b"", b"a?>~"]), **_NO_GRAD),
    Row("DecodeBase64", lambda x: tf.io.decode_base64(x), _b64_decode_ref, _b64_decode_inputs, dtypes=S,
        special=_str_special([b"aGVsbG8", b"YT8-fg", b"YT8-fg==", b"", b"YR"]), **_NO_GRAD),
    Row("StringToHashBucket", lambda x: tf.strings.to_hash_bucket(x, BUCKETS), _gold_ref("legacy"), _pool_inputs,
        dtypes=S, special=_all_pool, **_NO_GRAD),
    Row("StringToHashBucketFast", lambda x: tf.strings.to_hash_bucket_fast(x, BUCKETS), _gold_ref("fast"),
        _pool_inputs, dtypes=S, special=_all_pool, **_NO_GRAD),
    Row("StringToHashBucketStrong", lambda x: tf.strings.to_hash_bucket_strong(x, BUCKETS, GOLD["key"]),
        _gold_ref("strong"), _pool_inputs, dtypes=S, special=_all_pool, **_NO_GRAD),
    Row("Fingerprint", lambda x: tf.fingerprint(x), _fingerprint_ref,
        lambda dt, rng: [_strings([POOL[rng.randint(len(POOL))] for _ in range(6)])], dtypes=S,
        special=_all_pool, **_NO_GRAD),
    Row("Fingerprint", lambda x: tf.fingerprint(x), _fingerprint_numeric_ref,
        lambda dt, rng: [(rng.uniform(-9, 9, (3, 2, 2)) * 10).astype(dt)], dtypes=(np.float32, np.int64, np.uint8),
        special=lambda dt: [[np.zeros((2, 0), dt)]], name="Fingerprint-numeric", **_NO_GRAD),
    Row("ReduceJoin", lambda x: tf.strings.reduce_join(x, axis=1), _reduce_join_rows_ref, _words_inputs((3, 4)),
        dtypes=S, special=lambda dt: [[_strings([], (2, 0))], [_strings([], (0, 3))]], **_NO_GRAD),
    Row("ReduceJoin", lambda x: tf.reshape(tf.strings.reduce_join(x, axis=[0, 1], separator="|"), [1]),
        _reduce_join_all_ref((1, 0)), _words_inputs((2, 3)), dtypes=S, special=False, name="ReduceJoin-axes01",
        **_NO_GRAD),
    Row("UnsortedSegmentJoin", lambda x, i: tf.strings.unsorted_segment_join(x, i, 3, separator=","),
        _segment_join_ref, _segment_join_inputs, dtypes=INTS, special=False, **_NO_GRAD),
    Row("StringSplit", _split_v1_fn(True, " "), _split_v1_ref, _split_inputs, dtypes=S, special=_split_special,
        static_known=False, **_NO_GRAD),
    Row("StringSplit", _split_v1_fn(False, ",;"), _split_v1_noskip_ref, _split_inputs, dtypes=S,
        special=_split_special, static_known=False, name="StringSplit-noskip", **_NO_GRAD),
    Row("StringSplitV2", _split_v2_fn(None), _split_v2_ref, _split_inputs, dtypes=S, special=_split_special,
        static_known=False, **_NO_GRAD),
    Row("StringSplitV2", _split_v2_fn("<>"), _split_v2_sep_ref, _split_inputs, dtypes=S, special=_split_special,
        static_known=False, name="StringSplitV2-sep", **_NO_GRAD),
    Row("UnicodeDecode", _decode_fn("UnicodeDecode"), _decode_special_ref, lambda dt, rng: [_texts(rng)], dtypes=S,
        special=_decode_special, static_known=False, **_NO_GRAD),
    Row("UnicodeDecodeWithOffsets", _decode_fn("UnicodeDecodeWithOffsets"), _decode_offsets_ref,
        lambda dt, rng: [_texts(rng)], dtypes=S, special=lambda dt: [[_strings([])], [_strings([b"", b"a"])]],
        static_known=False, **_NO_GRAD),
    Row("UnicodeEncode", _encode_fn("UTF-8"), _encode_ref("utf-8"), _encode_inputs, dtypes=S,
        special=_encode_special, **_NO_GRAD),
    Row("UnicodeEncode", _encode_fn("UTF-16-BE"), _encode_ref("utf-16-be"), _encode_inputs, dtypes=S,
        special=_encode_special, name="UnicodeEncode-utf16", **_NO_GRAD),
    Row("UnicodeTranscode", lambda x: tf.strings.unicode_transcode(x, "UTF-8", "UTF-16-BE"), _transcode_ref,
        lambda dt, rng: [_texts(rng).reshape(5)], dtypes=S, special=lambda dt: [[_strings([])]], **_NO_GRAD),
    Row("StringNGrams", _ngram_fn(2, False), _ngram_ref(2, False), _ngram_inputs, dtypes=S,
        special=lambda dt: [[_strings([]), np.array([0, 0], np.int64)]], static_known=False, **_NO_GRAD),
    Row("StringNGrams", _ngram_fn(3, True), _ngram_ref(3, True), _ngram_inputs, dtypes=S, special=False,
        static_known=False, name="StringNGrams-pad", **_NO_GRAD),
    Row("StringFormat", lambda x: tf.reshape(tf.strings.format("x={}!", x), [1]), _format_ref,
        lambda dt, rng: [rng.randint(-50, 50, size=5).astype(dt)], dtypes=INTS, special=False, **_NO_GRAD),
    Row("RaggedTensorToTensor", _to_tensor_fn, _to_tensor_ref, _ragged_inputs, dtypes=FLOATS + INTS,
        special=_ragged_special, static_known=False, grad_inputs=_to_tensor_grad_inputs,
        grad_fn=lambda v, s: tf.reshape(_to_tensor_fn(v, s), [4, 3, 2])),
    Row("RaggedTensorToTensor", _to_tensor_default_fn, _to_tensor_default_ref, _to_tensor_default_inputs,
        dtypes=FLOATS, special=False, static_known=False, name="RaggedTensorToTensor-default",
        grad_inputs=lambda rng: _to_tensor_default_inputs(np.float64, rng),
        grad_fn=lambda v, s, d: tf.reshape(_to_tensor_default_fn(v, s, d), [3, 2, 2])),
    Row("RaggedTensorToSparse", _to_sparse_fn, _to_sparse_ref, _ragged_inputs, dtypes=FLOATS + INTS,
        special=_ragged_special, static_known=False, **_NO_GRAD),
    Row("RaggedCross", _cross_fn, _cross_ref, _cross_inputs, dtypes=S,
        special=lambda dt: [[_strings([]), np.array([0, 0], np.int64), np.zeros((1, 2), np.int64)]],
        static_known=False, **_NO_GRAD),
    Row("RaggedFillEmptyRows", _fill_fn, _fill_ref, _fill_inputs, dtypes=FLOATS + INTS,
        special=lambda dt: [[np.zeros(0, np.int64), np.zeros(0, dt), np.array(2, np.int64), np.array(1, dt)]],
        static_known=False, grad=[1, 3], grad_inputs=_fill_grad_inputs, grad_fn=_fill_grad_fn),
    Row("RaggedFillEmptyRowsGrad", lambda r, g: list(tf.ragged_fill_empty_rows_grad(r, g)), _fill_grad_op_ref,
        lambda dt, rng: [np.array([0, 1, 3, 5], np.int64), rand_values(rng, 7, dt)], dtypes=(np.float32, np.float64),
        special=lambda dt: [[np.zeros(0, np.int64), np.zeros(2, dt)]], rtol=1e-5, grad=None,
        note="TF registers no gradient for RaggedFillEmptyRowsGrad (tf.gradients raises LookupError, as in TF)"),
    Row("RaggedRange", _range_fn, _range_ref, _range_inputs, dtypes=INTS + (np.float32, np.float64),
        special=_range_special, static_known=False, **_NO_GRAD),
]
