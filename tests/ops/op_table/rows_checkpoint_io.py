"""Op-table rows of the small ops TF's savers and gradient graphs put in the files TensorFlow writes
(see harness.py for the row API): BroadcastGradientArgs (every gradient of a broadcasting binary
op in a TF meta graph), and ShardedFilename, StringJoin and StaticRegexFullMatch (the temporary
shard names of TF's sharded `Saver`). None has a public `tf.*` name in TF 1.x either: `fn` calls the
module functions TF's generated wrappers stand for (`gen_array_ops.broadcast_gradient_args`,
`gen_io_ops.sharded_filename`, `tf.strings.join`, `gen_string_ops.static_regex_full_match`).

The special cases marked "TF 2.21" are inputs run through real TensorFlow 2.21 (CPU), whose
printed outputs agree with the references here. A scalar string output is fetched as `bytes`, not
an array, so rows whose output is a scalar string reshape it to a 1-element vector.
"""

import numpy as np

import tensorweave as tf
from tensorweave.ops import array_shape_ops, io_ops, string_ops
from tests.ops.op_table.harness import INTS, Row

OBJ = np.dtype(object)


def _as_vector(t):
    """A scalar string as a 1-element vector (a fetched scalar string is `bytes`, not an array)."""
    return tf.reshape(t, [1])


def _strings(values, shape=None):
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out.reshape(shape if shape is not None else (len(values),))


# ---- BroadcastGradientArgs ---------------------------------------------------------------------
def _bcast_args_ref(s0, s1):
    """The reduction axes of each input, from NumPy's broadcast of the two shapes: an axis of the
    broadcast shape is reduced for an input that does not have it or has it as 1."""
    a, b = tuple(int(d) for d in s0), tuple(int(d) for d in s1)
    dt = s0.dtype
    if a == b:
        return [np.zeros(0, dt), np.zeros(0, dt)]
    out = np.broadcast_shapes(a, b)
    n = len(out)

    def axes(x):
        aligned = dict(zip(range(n - len(x), n), x))
        return np.array([i for i in range(n) if aligned.get(i, 1) == 1], dt)
    return [axes(a), axes(b)]


def _bcast_args_inputs(dt, rng):
    out = rng.randint(1, 5, size=4)
    keep0, keep1 = rng.randint(0, 5), rng.randint(0, 5)
    s0, s1 = out[4 - keep0:].copy(), out[4 - keep1:].copy()
    s0[rng.rand(keep0) < 0.4] = 1
    s1[rng.rand(keep1) < 0.4] = 1
    return [s0.astype(dt), s1.astype(dt)]


# Inputs run through TF 2.21's BroadcastGradientArgs: (s0, s1) -> (r0, r1) as TF printed them.
_BCAST_TF_CASES = [([2, 3], [1, 3]),        # [], [0]
                   ([1, 1], [1, 2]),        # [0, 1], [0]
                   ([1], [1]),              # [], []
                   ([2, 1, 4], [3, 1]),     # [1], [0, 2]
                   ([], [5]),               # [0], []
                   ([0, 3], [1, 3]),        # [], [0]
                   ([0], [1]),              # [], [0]
                   ([2, 3], [2, 3])]        # [], []


def _bcast_args_special(dt):
    return [[np.array(a, dt), np.array(b, dt)] for a, b in _BCAST_TF_CASES]


# ---- ShardedFilename ---------------------------------------------------------------------------
def _sharded_filename_ref(basename, shard, num_shards):
    def five(k):
        k = int(k)
        return ("-" if k < 0 else "") + str(abs(k)).rjust(5 - (k < 0), "0")
    return _strings([bytes(basename[()]) + b"-" + five(shard).encode() + b"-of-" + five(num_shards).encode()])


def _sharded_filename_inputs(dt, rng):
    n = rng.randint(1, 20)
    return [_strings([b"/tmp/model.ckpt_temp_%d/part" % rng.randint(100)], ()), np.array(rng.randint(n), np.int32),
            np.array(n, np.int32)]


def _sharded_filename_special(dt):
    def case(base, shard, n):
        return [_strings([base], ()), np.array(shard, np.int32), np.array(n, np.int32)]
    return [case(b"", 0, 1), case(b"a/b", 1, 3),                      # TF 2.21: b'a/b-00001-of-00003'
            case("caf\u00e9/\u00fc".encode(), 7, 8), case(b"\xff\x00raw", 0, 1),
            case(b"s3://bucket/x.part", 123456, 1234567), case(b"p", -3, 2)]


# ---- StringJoin --------------------------------------------------------------------------------
def _join_ref(separator):
    def ref(*arrays):
        shape = next((a.shape for a in arrays if a.ndim), ())
        cols = [a.reshape(-1) if a.ndim else np.full(int(np.prod(shape)), a[()], dtype=object) for a in arrays]
        rows = [separator.encode().join(bytes(c[i]) for c in cols) for i in range(int(np.prod(shape)))]
        return _strings(rows, shape)
    return ref


def _words(rng, shape):
    alphabet = [b"a", b"bc", b"", b"d\xc3\xa9", b"\x00", b"xyz/"]
    n = int(np.prod(shape))
    return _strings([alphabet[rng.randint(len(alphabet))] * rng.randint(1, 3) for _ in range(n)], shape)


def _join_inputs(dt, rng):
    return [_words(rng, (2, 3)), _strings([b"-"], ()), _words(rng, (2, 3))]


def _join_special(dt):
    return [[_strings([], (0,)), _strings([b"x"], ()), _strings([], (0,))],
            [_strings([b"a", b"bb"]), _strings([b"-"], ()), _strings([b"c", b"d"])],   # TF 2.21 (sep ""): a-c, bb-d
            [_strings([b""] * 3), _strings([b""], ()), _strings([b""] * 3)]]


def _join_scalars_inputs(dt, rng):
    return [_words(rng, ()), _words(rng, ())]


# ---- StaticRegexFullMatch ----------------------------------------------------------------------
def _s3_ref(x):
    """RE2's full match of "^s3://.*" (TF's sharded saver's pattern): "." matches no newline."""
    flat = [bytes(v) for v in x.reshape(-1)]
    return np.array([v.startswith(b"s3://") and b"\n" not in v[5:] for v in flat], bool).reshape(x.shape)


def _digits_ref(x):
    """Full match of "[a-c]+[0-9]?": one or more of a, b, c, then at most one digit."""
    def match(v):
        body = v[:-1] if v[-1:].isdigit() else v
        return bool(body) and all(ch in b"abc" for ch in body)
    return np.array([match(bytes(v)) for v in x.reshape(-1)], bool).reshape(x.shape)


def _match_inputs(dt, rng):
    pool = [b"s3://bucket/ckpt", b"/tmp/model", b"s3:/x", b"gs://b", b"s3://", b"abc", b"ab7", b"c12", b"", b"aXb"]
    return [_strings([pool[rng.randint(len(pool))] for _ in range(6)], (3, 2))]


def _match_special(dt):
    # TF 2.21: [["s3://x", "/tmp"], ["s3:/", "s3://\n"]] -> [[True, False], [False, False]].
    return [[_strings([], (0,))], [_strings([b"s3://x", b"/tmp", b"s3:/", b"s3://\n"], (2, 2))],
            [_strings([b"\xff", b"a\n", b"S3://", b"s3://a\nb", b"c\n"], (5,))]]


ROWS = [
    Row("BroadcastGradientArgs", lambda s0, s1: list(array_shape_ops.broadcast_gradient_args(s0, s1)),
        _bcast_args_ref, _bcast_args_inputs, dtypes=INTS, special=_bcast_args_special, grad=False,
        static_known=False, note="outputs are (?,) vectors, as TF's shape function says"),
    Row("ShardedFilename", lambda b, s, n: _as_vector(io_ops.sharded_filename(b, s, n)),
        _sharded_filename_ref, _sharded_filename_inputs, dtypes=(OBJ,), special=_sharded_filename_special,
        grad=False),
    Row("StringJoin", lambda a, b, c: string_ops.string_join([a, b, c]), _join_ref(""), _join_inputs,
        dtypes=(OBJ,), special=_join_special, grad=False),
    Row("StringJoin", lambda a, b: _as_vector(string_ops.string_join([a, b], separator="::")),
        lambda a, b: _join_ref("::")(a, b).reshape(1), _join_scalars_inputs, dtypes=(OBJ,),
        special=lambda dt: [[_strings([b""], ()), _strings([b""], ())]], grad=False, name="StringJoin-scalars"),
    Row("StaticRegexFullMatch", lambda x: string_ops.static_regex_full_match(x, "^s3://.*"), _s3_ref, _match_inputs,
        dtypes=(OBJ,), special=_match_special, grad=False),
    Row("StaticRegexFullMatch", lambda x: string_ops.static_regex_full_match(x, "[a-c]+[0-9]?"), _digits_ref,
        _match_inputs, dtypes=(OBJ,), special=_match_special, grad=False, name="StaticRegexFullMatch-class"),
]
