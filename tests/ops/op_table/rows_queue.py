"""Op-table rows of the queue, reader and CSV ops (tensorweave/ops/data_flow_ops.py, reader_ops.py,
parsing_csv_ops.py); see harness.py for the row API.

A queue or reader op's output is a handle (or nothing), so each `fn` builds a small pipeline with the
public API, ordered by control dependencies so that one run never blocks: enqueue, then size /
close / dequeue; the values dequeued (or read) are checked against the input itself (or the bytes
written to the files here), never against the kernels. Blocking across threads, timeouts, close
semantics and TF's error messages are tested in tests/ops/test_queue_ops.py and
tests/ops/test_queue_readers.py.
"""

import atexit
import csv
import os
import shutil
import struct
import tempfile

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import BOOL, FLOATS, INTS, Row, rand

OBJ = np.dtype(object)
DTYPES = FLOATS + INTS + (np.complex64, np.uint8) + BOOL


def _after(dep, build):
    with tf.control_dependencies([dep]):
        return build()


def _x(dt, rng):
    return [rand(rng, (3, 2), dt)]


def _special(dt):
    dt = np.dtype(dt)
    if dt.kind == "f":
        return [[np.array([[np.nan, np.inf], [-np.inf, -0.0], [0.0, 1.0]], dt)]]
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return [[np.array([[info.min, info.max], [0, 1], [info.max, info.min]], dt)]]
    return []


# ---- queues ----------------------------------------------------------------------------------------------
def _fifo(x):
    """enqueue_many, then size, then dequeue_many(2), then dequeue."""
    q = tf.FIFOQueue(5, [x.dtype], shapes=[[2]])
    size = _after(q.enqueue_many([x]), q.size)
    first = _after(size, lambda: q.dequeue_many(2))
    rest = _after(first, q.dequeue)
    return [first, rest, size]


def _fifo_ref(x):
    return [x[:2].copy(), x[2].copy(), np.int32(3)]


def _enqueue_one(x):
    q = tf.FIFOQueue(2, [x.dtype, tf.int32], shapes=[[3, 2], []])
    return list(_after(q.enqueue((x, 7)), q.dequeue))


def _close_up_to(x):
    """enqueue_many, close, then is_closed and dequeue_up_to(5): the 3 elements left."""
    q = tf.FIFOQueue(5, [x.dtype], shapes=[[2]])
    close = _after(q.enqueue_many([x]), q.close)
    return [_after(close, lambda: q.dequeue_up_to(5)), _after(close, q.is_closed)]


def _shuffle(x):
    """Elements enqueued with their index come out in some order; put back in order by the index."""
    q = tf.RandomShuffleQueue(10, 0, [x.dtype, tf.int32], shapes=[[2], []], seed=3)
    close = _after(q.enqueue_many([x, tf.range(3)]), q.close)
    values, index = _after(close, lambda: q.dequeue_many(3))
    return [tf.gather(values, tf.invert_permutation(index)), tf.reduce_sum(index)]


def _padding(x):
    """Rows of lengths 2 and 1 dequeued as one batch padded with zeros."""
    q = tf.PaddingFIFOQueue(5, [x.dtype], shapes=[[None]])
    second = _after(q.enqueue(x[0]), lambda: q.enqueue(x[1, :1]))
    return _after(second, lambda: q.dequeue_many(2))


def _padding_ref(x):
    out = np.zeros((2, 2), x.dtype)
    out[0] = x[0]
    out[1, 0] = x[1, 0]
    return out


def _priority(x):
    q = tf.PriorityQueue(5, [x.dtype], shapes=[[2]])
    enq = q.enqueue_many((tf.constant([2, 0, 1], tf.int64), x))
    return list(_after(enq, lambda: q.dequeue_many(3)))


def _priority_ref(x):
    return [np.array([0, 1, 2], np.int64), x[[1, 2, 0]].copy()]


SHAPES_NOTE = "a batch's size is known only at run time"
QUEUE_ROWS = [
    Row("FIFOQueueV2", _fifo, _fifo_ref, _x, dtypes=DTYPES, special=_special, grad=False),
    Row("QueueEnqueueManyV2", _fifo, _fifo_ref, _x, dtypes=(np.float64, np.int32), special=False, grad=False),
    Row("QueueDequeueManyV2", _fifo, _fifo_ref, _x, dtypes=(np.float32, np.int64), special=False, grad=False),
    Row("QueueSizeV2", _fifo, _fifo_ref, _x, dtypes=(np.float16,), special=False, grad=False),
    Row("QueueEnqueueV2", _enqueue_one, lambda x: [x.copy(), np.int32(7)], _x, dtypes=DTYPES, special=_special,
        grad=False),
    Row("QueueDequeueV2", _enqueue_one, lambda x: [x.copy(), np.int32(7)], _x, dtypes=(np.float32, np.bool_),
        special=False, grad=False),
    Row("QueueCloseV2", _close_up_to, lambda x: [x.copy(), np.bool_(True)], _x, dtypes=(np.float64, np.int8),
        special=False, grad=False, static_known=False),
    Row("QueueIsClosedV2", _close_up_to, lambda x: [x.copy(), np.bool_(True)], _x, dtypes=(np.int32,),
        special=False, grad=False, static_known=False),
    Row("QueueDequeueUpToV2", _close_up_to, lambda x: [x.copy(), np.bool_(True)], _x, dtypes=DTYPES,
        special=_special, grad=False, static_known=False),
    Row("RandomShuffleQueueV2", _shuffle, lambda x: [x.copy(), np.int32(3)], _x, dtypes=DTYPES, special=_special,
        grad=False),
    Row("PaddingFIFOQueueV2", _padding, _padding_ref, _x, dtypes=DTYPES, special=_special, grad=False,
        static_known=False),
    Row("PriorityQueueV2", _priority, _priority_ref, _x, dtypes=DTYPES, special=_special, grad=False),
]


# ---- readers: files written here, read back ------------------------------------------------------------------
_DIR = tempfile.mkdtemp(prefix="tw_rows_queue_")
atexit.register(shutil.rmtree, _DIR, True)


def _write(name, data):
    path = os.path.join(_DIR, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


TEXT = [_write("a.txt", b"header\nfirst\r\n\nlast"), _write("b.txt", b"header\nonly\n")]
FIXED = [_write("a.bin", bytes(range(23))), _write("b.bin", bytes(range(100, 110)))]
RECORDS = [b"abc", b"", b"\x00" * 70]


def _tfrecord(path, payloads):
    import crc32c

    def masked(b):
        c = crc32c.crc32c(b)
        return (((c >> 15) | (c << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    out = b""
    for p in payloads:
        head = struct.pack("<Q", len(p))
        out += head + struct.pack("<I", masked(head)) + p + struct.pack("<I", masked(p))
    return _write(path, out)


TFRECORD = [_tfrecord("r.tfrecord", RECORDS)]


def _files(paths):
    return lambda dt, rng: [np.array([p.encode() for p in paths], object)]


def _queue_of(files):
    q = tf.FIFOQueue(5, tf.string)
    return q, _after(q.enqueue_many([files]), q.close)


def _read_twice(reader_fn, up_to=None):
    """Two reads in a row (read_up_to(up_to) when given) of a reader over the closed queue of `files`."""
    def fn(files):
        q, closed = _queue_of(files)
        r = reader_fn()
        first = _after(closed, lambda: r.read(q) if up_to is None else r.read_up_to(q, up_to))
        second = _after(first[1], lambda: r.read(q) if up_to is None else r.read_up_to(q, up_to))
        out = list(first) + list(second)
        # A fetched scalar string is `bytes`, not an array: single reads are checked as 1-vectors.
        return out if up_to is not None else [tf.reshape(t, [1]) for t in out]
    return fn


def _keys(path, suffixes):
    return np.array([path + (b":%d" % s if s is not None else b"") for s in suffixes], object)


def _vec(*values):
    return np.array(list(values), object)


def _text_ref(files):
    a, b = files
    # skip_header_lines=1; read_up_to stops at the end of a file; "\r\n" and "\n" are stripped.
    return [_keys(a, [2, 3, 4]), _vec(b"first", b"", b"last"), _keys(b, [2]), _vec(b"only")]


def _text_read_ref(files):
    a = files[0]
    return [_vec(a + b":2"), _vec(b"first"), _vec(a + b":3"), _vec(b"")]


def _fixed_ref(files):
    # record 4 bytes, header 2, footer 3, hop 5: records start at 2, 7, 12 while start + 4 <= size - 3.
    with open(files[0], "rb") as f:
        a = f.read()
    with open(files[1], "rb") as f:
        b = f.read()
    return [_keys(files[0], [0, 1, 2]), _vec(a[2:6], a[7:11], a[12:16]), _keys(files[1], [0]), _vec(b[2:6])]


def _whole_ref(files):
    contents = []
    for p in files:
        with open(p, "rb") as f:
            contents.append(f.read())
    return [_vec(files[0]), _vec(contents[0]), _vec(files[1]), _vec(contents[1])]


def _tfrecord_ref(files):
    offsets, pos = [], 0
    for p in RECORDS:
        offsets.append(pos)
        pos += 16 + len(p)
    return [_keys(files[0], offsets[:2]), _vec(*RECORDS[:2]), _keys(files[0], offsets[2:]), _vec(*RECORDS[2:])]


def _counts(files):
    q, closed = _queue_of(files)
    r = tf.IdentityReader()
    keys, _ = _after(closed, lambda: r.read_up_to(q, 1))
    produced = _after(keys, r.num_records_produced)
    completed = _after(keys, r.num_work_units_completed)
    reset = _after(produced, lambda: _after(completed, r.reset))
    return [keys, produced, completed, _after(reset, r.num_records_produced)]


READER_NOTE = "read_up_to's batch size is known only at run time"
READER_ROWS = [
    Row("TextLineReaderV2", _read_twice(lambda: tf.TextLineReader(skip_header_lines=1), 10), _text_ref,
        _files(TEXT), dtypes=(OBJ,), special=False, grad=False, static_known=False),
    Row("ReaderReadUpToV2", _read_twice(lambda: tf.TextLineReader(skip_header_lines=1), 10), _text_ref,
        _files(TEXT), dtypes=(OBJ,), special=False, grad=False, static_known=False),
    Row("ReaderReadV2", _read_twice(lambda: tf.TextLineReader(skip_header_lines=1)), _text_read_ref, _files(TEXT),
        dtypes=(OBJ,), special=False, grad=False),
    Row("WholeFileReaderV2", _read_twice(tf.WholeFileReader), _whole_ref, _files(TEXT), dtypes=(OBJ,),
        special=False, grad=False),
    Row("FixedLengthRecordReaderV2",
        _read_twice(lambda: tf.FixedLengthRecordReader(4, header_bytes=2, footer_bytes=3, hop_bytes=5), 10),
        _fixed_ref, _files(FIXED), dtypes=(OBJ,), special=False, grad=False, static_known=False),
    Row("TFRecordReaderV2", _read_twice(tf.TFRecordReader, 2), _tfrecord_ref, _files(TFRECORD), dtypes=(OBJ,),
        special=False, grad=False, static_known=False),
    # IdentityReader: one record per work unit (the work itself); the counters, then reset.
    Row("IdentityReaderV2", _counts, lambda f: [f[:1].copy(), np.int64(1), np.int64(0), np.int64(0)],
        _files(TEXT), dtypes=(OBJ,), special=False, grad=False, static_known=False),
    Row("ReaderNumRecordsProducedV2", _counts, lambda f: [f[:1].copy(), np.int64(1), np.int64(0), np.int64(0)],
        _files(TEXT), dtypes=(OBJ,), special=False, grad=False, static_known=False),
    Row("ReaderNumWorkUnitsCompletedV2", _counts, lambda f: [f[:1].copy(), np.int64(1), np.int64(0), np.int64(0)],
        _files(TEXT), dtypes=(OBJ,), special=False, grad=False, static_known=False),
    Row("ReaderResetV2", _counts, lambda f: [f[:1].copy(), np.int64(1), np.int64(0), np.int64(0)],
        _files(TEXT), dtypes=(OBJ,), special=False, grad=False, static_known=False),
]


# ---- DecodeCSV: Python's csv module as the reference ---------------------------------------------------------
def _csv_ref(defaults, types, na="", select=None):
    def ref(records):
        rows = [next(csv.reader([r.decode()])) if r else [] for r in records.reshape(-1)]
        out = []
        cols = select if select is not None else range(len(defaults))
        for j, (col, d, t) in enumerate(zip(cols, defaults, types)):
            vals = []
            for row in rows:
                field = row[col]
                if field == "" or field == na:
                    vals.append(d)
                elif t is object:
                    vals.append(field.encode())
                else:
                    vals.append(t(field))
            a = np.empty(len(vals), object) if t is object else np.array(vals, t)
            if t is object:
                a[:] = vals
            out.append(a.reshape(records.shape))
        return out
    return ref


def _records(*rows):
    return lambda dt, rng: [np.array([r.encode() for r in rows], object)]


CSV_RECORDS = _records('1,2.5,"a,b",7', '-3,,"say ""hi""",8', ' 4 ,1e-3,,-9', "0,-inf,x,0")
def _csv_defaults():
    return [[0], [1.5], ["dflt"], tf.constant([], tf.int64)]
CSV_TYPES = (np.int32, np.float32, object, np.int64)
CSV_DEFAULT_VALUES = (0, 1.5, b"dflt", None)


def _csv_special(dt):
    # Quotes only, empty quoted fields, a NaN.
    return [[np.array([b'"5","nan","","3"', b'"-1",0,"""","12"'], object).reshape(2, 1)]]


CSV_ROWS = [
    Row("DecodeCSV", lambda r: tf.decode_csv(r, _csv_defaults()), _csv_ref(CSV_DEFAULT_VALUES, CSV_TYPES),
        CSV_RECORDS, dtypes=(OBJ,), special=_csv_special, grad=False),
    Row("DecodeCSV", lambda r: tf.io.decode_csv(r, [[0.0], tf.constant([7], tf.int64), [""]], na_value="NA",
                                                select_cols=[0, 2, 3]),
        _csv_ref((0.0, 7, b""), (np.float32, np.int64, object), na="NA", select=[0, 2, 3]),
        _records("1.5,x,NA,NA", "NA,y,3,z,w,v"), dtypes=(OBJ,), special=False, grad=False,
        name="DecodeCSV-select_na"),
    Row("DecodeCSV", lambda r: tf.decode_csv(r, [tf.constant([], tf.float64), [""]], field_delim="\t",
                                             use_quote_delim=False),
        lambda r: [np.array([1.25, -2.0]), np.array([b'"q"', b"a b"], object)],
        _records('1.25\t"q"', "-2\ta b"), dtypes=(OBJ,), special=False, grad=False, name="DecodeCSV-tab_noquote"),
]


# ---- accumulators ------------------------------------------------------------------------------------------
def _dense_accumulator(x):
    """Two gradients, their mean; then a global step of 5 makes a gradient of step 1 stale."""
    acc = tf.ConditionalAccumulator(x.dtype, shape=[3])
    second = _after(acc.apply_grad(x), lambda: acc.apply_grad(x * 3))
    n = _after(second, acc.num_accumulated)
    mean = _after(n, lambda: acc.take_grad(2))
    stale = _after(_after(mean, lambda: acc.set_global_step(5)), lambda: acc.apply_grad(x, local_step=1))
    return [mean, n, _after(stale, acc.num_accumulated)]


def _dense_ref(x):
    return [((x.astype(np.longdouble) + x.astype(np.longdouble) * 3) / 2).astype(x.dtype), np.int32(2), np.int32(0)]


def _sparse_accumulator(x):
    """Rows 0 and 2, then row 2 again: each index's mean over the gradients that had it."""
    acc = tf.SparseConditionalAccumulator(x.dtype, shape=[4, 2])
    first = acc.apply_grad([0, 2], x[:2], grad_shape=[4, 2])
    second = _after(first, lambda: acc.apply_indexed_slices_grad(
        tf.IndexedSlices(x[2:], tf.constant([2], tf.int64), tf.constant([4, 2], tf.int64))))
    n = _after(second, acc.num_accumulated)
    taken = _after(n, lambda: acc.take_grad(2))
    stale = _after(_after(taken[0], lambda: acc.set_global_step(5)), lambda: acc.apply_grad([1], x[:1]))
    return list(taken) + [n, _after(stale, acc.num_accumulated)]


def _sparse_ref(x):
    mean = ((x[1].astype(np.longdouble) + x[2]) / 2).astype(x.dtype)
    return [np.array([0, 2], np.int64), np.stack([x[0], mean]), np.array([4, 2], np.int64), np.int32(2), np.int32(0)]


def _vector_special(dt):
    return [[np.array([np.nan, -np.inf, -0.0], dt)]]


ACCUMULATOR_ROWS = [
    Row(name, _dense_accumulator, _dense_ref, lambda dt, rng: [rand(rng, (3,), dt)], special=_vector_special,
        grad=False)
    for name in ("ResourceConditionalAccumulator", "ResourceAccumulatorApplyGradient",
                 "ResourceAccumulatorTakeGradient", "ResourceAccumulatorNumAccumulated",
                 "ResourceAccumulatorSetGlobalStep")
] + [
    Row(name, _sparse_accumulator, _sparse_ref, _x, special=_special, grad=False, static_known=False)
    for name in ("SparseConditionalAccumulator", "SparseAccumulatorApplyGradient", "SparseAccumulatorTakeGradient",
                 "AccumulatorNumAccumulated", "AccumulatorSetGlobalStep")
]


# ---- SparseTensorsMap: how batching queues carry SparseTensors ----------------------------------------------
def _sparse_map_two(v):
    """Two SparseTensors of different dense shapes stored, then taken (second first) as one batch."""
    from tensorweave.ops import data_flow_sparse_map_ops as maps
    h1 = maps.add_sparse_to_tensors_map(tf.SparseTensor([[0], [2]], v[:2], [3]), shared_name="rows_map")
    h2 = maps.add_sparse_to_tensors_map(tf.SparseTensor([[1]], v[2:3], [5]), shared_name="rows_map")
    sp = maps.take_many_sparse_from_tensors_map(h1.op, tf.stack([h2, h1]), rank=1)
    return [sp.indices, sp.values, sp.dense_shape]


def _sparse_map_two_ref(v):
    return [np.array([[0, 1], [1, 0], [1, 2]], np.int64), v[[2, 0, 1]].copy(), np.array([2, 5], np.int64)]


def _sparse_map_many(v):
    """A minibatch split into its rows, then taken back whole."""
    from tensorweave.ops import data_flow_sparse_map_ops as maps
    handles = maps.add_many_sparse_to_tensors_map(tf.SparseTensor([[0, 1], [1, 0], [1, 2]], v[:3], [2, 3]))
    sp = maps.take_many_sparse_from_tensors_map(handles.op, handles, rank=1)
    return [sp.indices, sp.values, sp.dense_shape]


def _sparse_map_many_ref(v):
    return [np.array([[0, 1], [1, 0], [1, 2]], np.int64), v[:3].copy(), np.array([2, 3], np.int64)]


def _values(dt, rng):
    return [rand(rng, (4,), dt)]


def _values_special(dt):
    return [[np.array([np.nan, -np.inf, -0.0, 1.0], dt)]] if np.dtype(dt).kind == "f" else []


MAP_NOTE = "a SparseTensorsMap lives in a Session: TF1's queue batching of SparseTensors is graph-only here"
SPARSE_MAP_ROWS = [
    Row("AddSparseToTensorsMap", _sparse_map_two, _sparse_map_two_ref, _values, dtypes=FLOATS + INTS,
        special=_values_special, grad=False, eager=False, static_known=False, note=MAP_NOTE),
    Row("TakeManySparseFromTensorsMap", _sparse_map_two, _sparse_map_two_ref, _values, dtypes=(np.float32, np.int64),
        special=False, grad=False, eager=False, static_known=False, note=MAP_NOTE),
    Row("AddManySparseToTensorsMap", _sparse_map_many, _sparse_map_many_ref, _values, dtypes=FLOATS + INTS,
        special=_values_special, grad=False, eager=False, static_known=False, note=MAP_NOTE),
]

ROWS = QUEUE_ROWS + READER_ROWS + CSV_ROWS + ACCUMULATOR_ROWS + SPARSE_MAP_ROWS
