"""Op-table rows of the whole-file ops (see harness.py for the row API): ReadFile, WriteFile and
MatchingFiles (`tensorweave/ops/io_file_ops.py`). The inputs are paths of files this module writes
in a temporary directory; the references read them with Python's `open` and match patterns with
`fnmatch` over `os.listdir`, independently of `tensorweave.platform.gfile`. A scalar string output
is fetched as `bytes`, so the rows reshape it to a 1-element vector.

TF 2.21 agrees on the cases marked so: `tf.matching_files([d/*.txt, d/x, d/a*])` returns the sorted
union with duplicates ([a.txt, a.txt, x]); a pattern in a missing directory and an empty pattern
vector match nothing; `tf.write_file` creates missing directories.
"""

import atexit
import fnmatch
import os
import shutil
import tempfile

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import INTS, Row, rand

OBJ = np.dtype(object)
_DIR = tempfile.mkdtemp(prefix="tw_io_files_rows_")
atexit.register(shutil.rmtree, _DIR, True)


def _strings(values, shape=None):
    out = np.empty(len(values), dtype=object)
    for i, v in enumerate(values):
        out[i] = v
    return out.reshape(shape if shape is not None else (len(values),))


def _file(name, data):
    path = os.path.join(_DIR, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return path.encode("utf-8")


# ---- ReadFile ----------------------------------------------------------------------------------
def _read_ref(filename):
    with open(bytes(filename[()]).decode("utf-8"), "rb") as f:
        return _strings([f.read()])


def _read_inputs(dt, rng):
    data = bytes(rng.randint(0, 256, size=rng.randint(1, 300)).astype(np.uint8))
    return [_strings([_file("read/r%d.bin" % rng.randint(1000), data)], ())]


def _read_special(dt):
    return [[_strings([_file("read/empty", b"")], ())],
            [_strings([_file("read/nul", b"\x00\x00\xff\n")], ())],
            [_strings([_file("read/caf\u00e9 \u00fc.txt", "h\u00e9llo\n".encode("utf-8"))], ())]]


# ---- WriteFile -----------------------------------------------------------------------------------
def _write_then_read(filename, contents):
    with tf.control_dependencies([tf.write_file(filename, contents)]):
        return tf.reshape(tf.read_file(filename), [1])


def _write_inputs(dt, rng):
    name = os.path.join(_DIR, "write", "d%d" % rng.randint(10 ** 6), "sub", "w.bin")  # directories made by the op
    data = bytes(rng.randint(0, 256, size=rng.randint(1, 200)).astype(np.uint8))
    return [_strings([name.encode()], ()), _strings([data], ())]


def _write_special(dt):
    return [[_strings([os.path.join(_DIR, "write", "empty").encode()], ()), _strings([b""], ())],
            [_strings([os.path.join(_DIR, "write", "\u00e9t\u00e9", "x").encode("utf-8")], ()),
             _strings([b"\x00\xff"], ())]]


# ---- MatchingFiles -------------------------------------------------------------------------------
_MATCH = os.path.join(_DIR, "match")
for _name in ("a.txt", "b.txt", "c.csv", "ab.txt", "sub/d.txt", ".hidden.txt"):
    _file(os.path.join("match", _name), b"x")

_PATTERNS = ["*.txt", "?.csv", "sub/*", "[ab].txt", "none*", "a*", "sub", "*/*.txt", "c.csv", "nodir/*"]


def _matching_ref(pattern):
    out = []
    for p in pattern.reshape(-1):
        p = bytes(p).decode("utf-8")
        directory, base = os.path.split(p)
        parent, mid = os.path.split(directory)
        dirs = [directory]
        if any(ch in mid for ch in "*?["):  # one wildcard directory level (the patterns above)
            dirs = [os.path.join(parent, d) for d in sorted(os.listdir(parent)) if fnmatch.fnmatchcase(d, mid)
                    and os.path.isdir(os.path.join(parent, d))]
        for d in dirs:
            if not os.path.isdir(d):
                continue
            for n in os.listdir(d):
                if fnmatch.fnmatchcase(n, base):
                    out.append(os.path.join(d, n).encode("utf-8"))
    return _strings(sorted(out))


def _pattern(i):
    return os.path.join(_MATCH, _PATTERNS[i]).encode("utf-8")


def _matching_inputs(dt, rng):
    k = rng.randint(1, 4)
    return [_strings([_pattern(rng.randint(len(_PATTERNS))) for _ in range(k)])]


def _matching_scalar_inputs(dt, rng):
    return [_strings([_pattern(rng.randint(len(_PATTERNS)))], ())]


def _matching_special(dt):
    return [[_strings([], (0,))],                                                   # TF 2.21: []
            [_strings([_pattern(4)])],                                              # no match
            [_strings([_pattern(0), _pattern(8), _pattern(5)])],                    # sorted union, duplicates
            [_strings([_pattern(9)])]]                                              # TF 2.21: missing dir -> []


ROWS = [
    Row("ReadFile", lambda f: tf.reshape(tf.read_file(f), [1]), _read_ref, _read_inputs, dtypes=(OBJ,),
        special=_read_special, grad=False),
    Row("WriteFile", _write_then_read, lambda f, c: c.reshape(1), _write_inputs, dtypes=(OBJ,),
        special=_write_special, grad=False),
    Row("MatchingFiles", tf.matching_files, _matching_ref, _matching_inputs, dtypes=(OBJ,),
        special=_matching_special, grad=False, static_known=False),
    Row("MatchingFiles", tf.io.matching_files, _matching_ref, _matching_scalar_inputs, dtypes=(OBJ,),
        special=lambda dt: [[_strings([_pattern(1)], ())]], grad=False, static_known=False,
        name="MatchingFiles-scalar"),
]


# ---- DatasetCardinality ------------------------------------------------------------------------------
# The dataset is built from the fed input, so the count is computed when the op runs (TF 2.21 agrees:
# `cardinality(from_tensor_slices(ph).batch(3))` is ceil(n / 3), and 0 for an empty input).
def _cardinality_fn(x):
    return tf.reshape(tf.data.experimental.cardinality(tf.data.Dataset.from_tensor_slices(x).batch(3)), [1])


def _cardinality_ref(x):
    return np.array([-(-x.shape[0] // 3)], np.int64)


def _cardinality_inputs(dt, rng):
    return [rng.rand(rng.randint(1, 12), 2).astype(dt)]


ROWS.append(Row("DatasetCardinality", _cardinality_fn, _cardinality_ref, _cardinality_inputs,
                dtypes=(np.float32, np.int64), special=lambda dt: [[np.zeros((0, 2), dt)], [np.zeros((3, 0), dt)]],
                grad=False, unknown_rank=False,
                note="from_tensor_slices needs the input's rank (TF: Shape must be at least rank 1)"))


# ---- DatasetToTFRecord ---------------------------------------------------------------------------------
# The records are written, then the file is read back with ReadFile; the reference frames each record
# as TFRecord does (length, masked CRC-32C of the length, data, masked CRC-32C of the data), written
# here from the format's definition with the `crc32c` package.
_TFRECORD_OUT = os.path.join(_DIR, "written.tfrecord")


def _tfrecord_write_then_read(records):
    op = tf.data.experimental.TFRecordWriter(_TFRECORD_OUT).write(tf.data.Dataset.from_tensor_slices(records))
    with tf.control_dependencies([op]):
        return tf.reshape(tf.read_file(_TFRECORD_OUT), [1])


def _masked_crc(data):
    import crc32c
    c = crc32c.crc32c(data)
    return ((((c >> 15) | (c << 17)) & 0xFFFFFFFF) + 0xA282EAD8) & 0xFFFFFFFF


def _tfrecord_ref(records):
    out = b""
    for r in records.reshape(-1):
        r = bytes(r)
        length = len(r).to_bytes(8, "little")
        out += length + _masked_crc(length).to_bytes(4, "little") + r + _masked_crc(r).to_bytes(4, "little")
    return _strings([out])


def _tfrecord_inputs(dt, rng):
    return [_strings([bytes(rng.randint(0, 256, size=rng.randint(0, 40)).astype(np.uint8))
                      for _ in range(rng.randint(1, 5))])]


ROWS.append(Row("DatasetToTFRecord", _tfrecord_write_then_read, _tfrecord_ref, _tfrecord_inputs, dtypes=(OBJ,),
                special=lambda dt: [[_strings([], (0,))], [_strings([b""])], [_strings([b"\x00" * 3, b"abc"])]],
                grad=False, unknown_rank=False,
                note="from_tensor_slices needs the input's rank (TF: Shape must be at least rank 1)"))


# ---- Optional ops --------------------------------------------------------------------------------------
# An optional made from a value gives the value back unchanged (its gradient too); an empty one has no
# value. TF 2.21: `Optional.from_value(x).get_value()` is x and `Optional.empty(spec).has_value()` False.
def _optional_roundtrip(x):
    return tf.data.experimental.Optional.from_value(x).get_value()


def _optional_has_values(x):
    full = tf.data.experimental.Optional.from_value(x).has_value()
    empty = tf.data.experimental.Optional.empty(tf.TensorSpec([], tf.float32)).has_value()
    return tf.stack([full, empty])


def _iterator_next_as_optional(x):
    it = tf.data.Dataset.from_tensors(x).make_initializable_iterator()
    with tf.control_dependencies([it.initializer]):
        opt = tf.data.experimental.get_next_as_optional(it)
    return [tf.reshape(opt.has_value(), [1]), opt.get_value()]


def _float_inputs(dt, rng):
    return [rand(rng, (2, 3), dt)]


ROWS += [
    Row("OptionalFromValue", _optional_roundtrip, lambda x: x.copy(), _float_inputs),
    Row("OptionalGetValue", _optional_roundtrip, lambda x: x.copy(), _float_inputs, dtypes=INTS + (np.bool_,),
        special=False, grad=False, name="OptionalGetValue-ints"),
    Row("OptionalHasValue", _optional_has_values, lambda x: np.array([True, False]), _float_inputs, special=False,
        grad=False),
    Row("OptionalNone", _optional_has_values, lambda x: np.array([True, False]), _float_inputs, dtypes=(np.float32,),
        special=False, grad=False),
    Row("IteratorGetNextAsOptional", _iterator_next_as_optional, lambda x: [np.array([True]), x.copy()],
        _float_inputs, dtypes=(np.float32, np.int64), special=lambda dt: [[np.zeros((0, 3), dt)]], grad=False,
        eager=False, note="an initializable iterator is graph-only; the eager path is tested in "
        "tests/data/test_experimental_new.py"),
]
