"""Op-table rows of tensorweave/ops/spectral_nd_ops.py (FFTND, IFFTND, RFFTND, IRFFTND),
io_misc_ops.py (DecodeCompressed, DecodeJSONExample, Timestamp) and parsing_sequence_ops.py
(ParseSequenceExampleV2); see harness.py for the row API.

References: the N-D DFTs are explicit complex128 matrix products per axis (no np.fft), the inverse real
transform's Hermitian extension built by hand; decompression by Python's `zlib.decompress` /
`gzip.decompress` (the kernel streams with `zlib.decompressobj`); JSON Examples against the binary
serialization of the same `tf.train.Example` built directly; SequenceExamples against the Python lists
they were built from."""

import base64
import gzip
import json
import zlib

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import COMPLEX, FLOATS, Row, rand
from tests.ops.op_table.rows_signal import _cin, _re_im
from tests.ops.op_table.rows_signal import _dft as _signal_dft

OBJ = np.dtype(object)
_TOL = {"complex64": 2e-5, "float32": 2e-5, "complex128": 1e-12, "float64": 1e-12}
_REAL = (np.float32, np.float64)
_C_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}
_R_OF = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}


# ---- N-D FFTs ------------------------------------------------------------------------------------------
def _dft(x, axes, inverse=False):
    return _signal_dft(x, axes, inverse)


def _fit(x, sizes, axes):
    for n, ax in zip(sizes, axes):
        x = np.take(x, np.arange(min(n, x.shape[ax])), axis=ax)
        pad = [(0, 0)] * x.ndim
        pad[ax] = (0, n - x.shape[ax])
        x = np.pad(x, pad)
    return x


def _c2c_ref(fl, axes, inverse):
    def ref(x):
        ax = [a % x.ndim for a in axes]
        return _dft(_fit(x, fl, ax), ax, inverse).astype(x.dtype)
    return ref


def _rfft_ref(fl, axes):
    def ref(x):
        ax = [a % x.ndim for a in axes]
        y = _dft(_fit(x, fl, ax), ax)
        return np.take(y, np.arange(fl[-1] // 2 + 1), axis=ax[-1]).astype(_C_OF[x.dtype])
    return ref


def _irfft(y, fl, ax):
    """Hermitian extension along the last axis of `ax` (non-negative axes), then an inverse DFT over all of them,
    real part (float64)."""
    y = _fit(y, list(fl[:-1]) + [fl[-1] // 2 + 1], ax)
    n = fl[-1]
    z = np.moveaxis(_dft(y, ax[:-1], inverse=True), ax[-1], -1)
    full = np.zeros(z.shape[:-1] + (n,), np.complex128)
    full[..., :z.shape[-1]] = z
    full[..., 0] = full[..., 0].real
    if n % 2 == 0:
        full[..., n // 2] = full[..., n // 2].real
    k = np.arange(1, (n + 1) // 2)
    full[..., n - k] = np.conj(full[..., k])
    return np.moveaxis(_dft(full, [full.ndim - 1], inverse=True).real, -1, ax[-1])


def _irfft_ref(fl, axes):
    def ref(y):
        return _irfft(y, fl, [a % y.ndim for a in axes]).astype(_R_OF[y.dtype])
    return ref


def _c_special(*shape):
    def special(dt):
        bad = np.zeros(shape, dt)
        bad.flat[0] = np.nan
        return [(np.zeros((0,) + shape[1:], dt),), (bad,)]
    return special


def _complex_grad_fn(fn, real_out):
    """grad_fn: a real function of float64 (re, im) through `fn` (complex results mixed to real)."""
    def g(re, im):
        z = tf.complex(re, im)
        y = fn(z)
        return y if real_out else tf.real(y) * 0.8 + tf.imag(y) * 0.3
    return g


def _rfft_grad_fn(fn):
    def g(x):
        y = fn(x)
        return tf.real(y) * 0.6 - tf.imag(y) * 1.1
    return g


def _c2c_row(op, raw, fl, axes, shape, inverse, name=None):
    fn = (lambda z: raw(z, fl, axes))
    return Row(op, fn, _c2c_ref(fl, axes, inverse), _cin(*shape), dtypes=COMPLEX, rtol=_TOL, atol=_TOL,
               special=_c_special(*shape), signed_zeros=False, grad=[0, 1], grad_inputs=_re_im(*shape),
               grad_fn=_complex_grad_fn(fn, False), name=name)


def _rfft_row(fl, axes, shape, name=None):
    def fn(x):
        return tf.rfftnd(x, fl, axes, Tcomplex=tf.complex64 if x.dtype == tf.float32 else tf.complex128)
    return Row("RFFTND", fn, _rfft_ref(fl, axes), lambda dt, rng: [rand(rng, shape, dt)], dtypes=_REAL, rtol=_TOL,
               atol=_TOL, special=False, grad_fn=_rfft_grad_fn(fn), name=name)


def _irfft_row(fl, axes, shape, name=None):
    def fn(y):
        return tf.irfftnd(y, fl, axes, Treal=tf.float32 if y.dtype == tf.complex64 else tf.float64)
    return Row("IRFFTND", fn, _irfft_ref(fl, axes), _cin(*shape), dtypes=COMPLEX, rtol=_TOL, atol=_TOL,
               special=False, grad=[0, 1], grad_inputs=_re_im(*shape), grad_fn=_complex_grad_fn(fn, True),
               name=name)


FFT_ROWS = [
    _c2c_row("FFTND", tf.fftnd, [3, 4], [1, 2], (2, 3, 4), False),
    _c2c_row("FFTND", tf.fftnd, [3, 5], [0, -1], (2, 3, 4), False, name="FFTND-crop-pad"),
    _c2c_row("IFFTND", tf.ifftnd, [2, 3, 4], [0, 1, 2], (2, 3, 4), True),
    _c2c_row("IFFTND", tf.ifftnd, [4, 2], [2, 0], (2, 3, 4), True, name="IFFTND-reversed-axes"),
    _rfft_row([3, 6], [1, 2], (2, 3, 6)),
    _rfft_row([3, 5], [2, 0], (2, 3, 4), name="RFFTND-crop-pad-odd"),
    _irfft_row([3, 6], [1, 2], (2, 3, 4)),
    _irfft_row([4, 5], [2, 0], (2, 3, 4), name="IRFFTND-odd-reversed-axes"),
]


# ---- DecodeCompressed, DecodeJSONExample, Timestamp ---------------------------------------------------
def _payloads(rng, n=4):
    return [rng.bytes(int(rng.randint(0, 40))) * int(rng.randint(1, 4)) for _ in range(n)]


def _compressed_row(ctype, compress, decompress):
    def inputs(dt, rng):
        return [np.array([compress(p) for p in _payloads(rng)], object).reshape(2, 2)]

    def ref(x):
        out = np.empty(x.size, object)
        out[:] = [decompress(bytes(b)) for b in x.reshape(-1)]
        return out.reshape(x.shape)

    def special(dt):
        return [[np.array([], object)], [np.array([compress(b"")], object)]]

    return Row("DecodeCompressed", lambda s: tf.io.decode_compressed(s, compression_type=ctype), ref, inputs,
               dtypes=(OBJ,), special=special, grad=False, name="DecodeCompressed" + ("-" + ctype if ctype else ""))


def _identity(b):
    return b


_JSON_EXAMPLES = {}


def _json_example(rng):
    key = "k%d" % rng.randint(100)
    kind = rng.randint(3)
    if kind == 0:
        vals = [int(v) for v in rng.randint(-2 ** 40, 2 ** 40, rng.randint(0, 4))]
        text = {"int64List": {"value": [str(v) for v in vals]}}
        feature = tf.train.Feature(int64_list=tf.train.Int64List(value=vals))
    elif kind == 1:
        vals = [float(np.float32(v)) for v in rng.uniform(-5, 5, rng.randint(0, 4))]
        text = {"floatList": {"value": vals}}
        feature = tf.train.Feature(float_list=tf.train.FloatList(value=vals))
    else:
        vals = [b"w%d" % rng.randint(1000) for _ in range(rng.randint(0, 3))]
        text = {"bytesList": {"value": [base64.b64encode(v).decode() for v in vals]}}
        feature = tf.train.Feature(bytes_list=tf.train.BytesList(value=vals))
    s = json.dumps({"features": {"feature": {key: text}}})
    _JSON_EXAMPLES[s] = tf.train.Example(features=tf.train.Features(feature={key: feature})).SerializeToString()
    return s


def _json_ref(x):
    out = np.empty(x.size, object)
    out[:] = [_JSON_EXAMPLES[bytes(b).decode() if isinstance(b, bytes) else b] for b in x.reshape(-1)]
    return out.reshape(x.shape)


def _json_special(dt):
    _JSON_EXAMPLES["{}"] = b""
    return [[np.array([], object)], [np.array([b"{}"], object)]]


IO_ROWS = [
    _compressed_row("ZLIB", zlib.compress, zlib.decompress),
    _compressed_row("GZIP", gzip.compress, gzip.decompress),
    _compressed_row("", _identity, _identity),
    Row("DecodeJSONExample", tf.io.decode_json_example, _json_ref,
        lambda dt, rng: [np.array([_json_example(rng).encode() for _ in range(3)], object)], dtypes=(OBJ,),
        special=_json_special, grad=False),
    # The clock is read when the op runs: any time after 2017 makes the indicator 1.
    Row("Timestamp", lambda x: x + tf.cast(tf.timestamp() > 1.5e9, x.dtype), lambda x: x + np.ones((), x.dtype),
        lambda dt, rng: [rand(rng, (3, 2), dt)], dtypes=FLOATS, rtol=0, atol=0),
]


# ---- ParseSequenceExampleV2 -----------------------------------------------------------------------------
_SEQUENCES = {}  # serialized SequenceExample -> the Python values it was built from

_CTX = {"id": tf.FixedLenFeature([], tf.int64, default_value=-1), "tags": tf.VarLenFeature(tf.string)}
_SEQ = {"x": tf.FixedLenSequenceFeature([2], tf.float32, allow_missing=True), "w": tf.VarLenFeature(tf.int64)}


def _sequence_example(rng, with_id=True):
    t = int(rng.randint(0, 4))
    vals = {"id": [int(rng.randint(-9, 9))] if with_id else [],
            "tags": [b"t%d" % rng.randint(10) for _ in range(rng.randint(0, 3))],
            "x": [[float(np.float32(v)) for v in rng.uniform(-2, 2, 2)] for _ in range(t)],
            "w": [[int(v) for v in rng.randint(-5, 5, rng.randint(0, 3))] for _ in range(int(rng.randint(0, 3)))]}
    ctx = {"tags": tf.train.Feature(bytes_list=tf.train.BytesList(value=vals["tags"]))}
    if with_id:
        ctx["id"] = tf.train.Feature(int64_list=tf.train.Int64List(value=vals["id"]))
    lists = {"w": tf.train.FeatureList(feature=[tf.train.Feature(int64_list=tf.train.Int64List(value=v))
                                                for v in vals["w"]])}
    if t:
        lists["x"] = tf.train.FeatureList(feature=[tf.train.Feature(float_list=tf.train.FloatList(value=v))
                                                   for v in vals["x"]])
    s = tf.train.SequenceExample(context=tf.train.Features(feature=ctx),
                                 feature_lists=tf.train.FeatureLists(feature_list=lists)).SerializeToString()
    _SEQUENCES[s] = vals
    return s


def _single_fn(s):
    c, f = tf.io.parse_single_sequence_example(s, _CTX, _SEQ)
    return [c["id"], c["tags"].indices, c["tags"].values, c["tags"].dense_shape, f["x"], f["w"].indices,
            f["w"].values, f["w"].dense_shape]


def _ctx_sparse(rows, batch):
    idx = [([i] if batch else []) + [j] for i, r in enumerate(rows) for j in range(len(r))]
    vals = [v for r in rows for v in r]
    width = max([len(r) for r in rows], default=0)
    shape = ([len(rows)] if batch else []) + [width]
    values = np.empty(len(vals), object)
    values[:] = vals
    return [np.array(idx, np.int64).reshape(-1, len(shape)), values, np.array(shape, np.int64)]


def _list_sparse(rows, batch):
    idx = [([i] if batch else []) + [t, j] for i, r in enumerate(rows) for t, step in enumerate(r)
           for j in range(len(step))]
    vals = [v for r in rows for step in r for v in step]
    shape = ([len(rows)] if batch else []) + [max([len(r) for r in rows], default=0),
                                              max([len(s) for r in rows for s in r], default=0)]
    return [np.array(idx, np.int64).reshape(-1, len(shape)), np.array(vals, np.int64), np.array(shape, np.int64)]


def _single_ref(s):
    v = _SEQUENCES[bytes(s[()])]
    return ([np.int64(v["id"][0] if v["id"] else -1)] + _ctx_sparse([v["tags"]], False) +
            [np.array(v["x"], np.float32).reshape(-1, 2)] + _list_sparse([v["w"]], False))


def _batch_fn(s):
    c, f, n = tf.io.parse_sequence_example(s, _CTX, _SEQ)
    return [c["id"], c["tags"].indices, c["tags"].values, c["tags"].dense_shape, f["x"], n["x"], f["w"].indices,
            f["w"].values, f["w"].dense_shape]


def _batch_ref(s):
    vs = [_SEQUENCES[bytes(b)] for b in s]
    longest = max([len(v["x"]) for v in vs], default=0)
    x = np.zeros((len(vs), longest, 2), np.float32)
    for i, v in enumerate(vs):
        x[i, :len(v["x"])] = np.array(v["x"], np.float32).reshape(-1, 2)
    return ([np.array([v["id"][0] if v["id"] else -1 for v in vs], np.int64)] + _ctx_sparse([v["tags"] for v in vs],
                                                                                            True) +
            [x, np.array([len(v["x"]) for v in vs], np.int64)] + _list_sparse([v["w"] for v in vs], True))


PARSE_ROWS = [
    Row("ParseSequenceExampleV2", _single_fn, _single_ref,
        lambda dt, rng: [np.array(_sequence_example(rng), object)], dtypes=(OBJ,),
        special=lambda dt: [[np.array(_sequence_example(np.random.RandomState(k), k != 1), object)] for k in range(3)],
        grad=False, static_known=False, name="ParseSequenceExampleV2-single"),
    Row("ParseSequenceExampleV2", _batch_fn, _batch_ref,
        lambda dt, rng: [np.array([_sequence_example(rng, i != 1) for i in range(3)], object)], dtypes=(OBJ,),
        special=lambda dt: [[np.array([_sequence_example(np.random.RandomState(7), False)], object)]],
        grad=False, static_known=False, name="ParseSequenceExampleV2-batch"),
]

ROWS = FFT_ROWS + IO_ROWS + PARSE_ROWS
