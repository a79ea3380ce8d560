"""Op-table rows of the lookup-table ops (tensorweave/ops/lookup_ops.py): tables built, initialized and
queried in one graph; the reference is a Python dict."""

import os
import tempfile

import numpy as np

import tensorweave as tf
from tests.ops.op_table.harness import FLOATS, INTS, Row

_VALUES = FLOATS + INTS


def _after(*ops):
    """Control dependencies on `ops` (nothing eagerly: they already ran)."""
    return tf.control_dependencies([] if tf.executing_eagerly() else [o for o in ops if o is not None])


def _static(keys, values, default=-1):
    return tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(keys, values), default)


def _find(keys, values, query):
    t = _static(keys, values)
    with _after(t.initializer):
        return t.lookup(query)


def _find_ref(keys, values, query):
    table = dict(zip(keys.tolist(), values.tolist()))
    return np.array([table.get(k, -1) for k in query.reshape(-1).tolist()], values.dtype).reshape(query.shape)


def _table_inputs(dt, rng):
    keys = rng.permutation(40)[:12].astype(np.int64)
    values = (rng.permutation(12) - 5).astype(dt)
    query = np.concatenate([keys[:6], rng.randint(40, 60, 4)]).reshape(2, 5).astype(np.int64)
    return keys, values, query


def _table_special(dt):
    keys = np.array([3, 1, 2], np.int64)
    out = [(keys, np.zeros(3, dt), np.zeros((0, 2), np.int64))]
    if np.dtype(dt).kind == "f":
        out.append((keys, np.array([np.nan, np.inf, -0.0], dt), np.array([2, 3, 1, 9], np.int64)))
    return out


def _size(keys, values):
    t = _static(keys, values)
    with _after(t.initializer):
        return tf.identity(t.size())


def _size_ref(keys, values):
    return np.int64(len(set(keys.tolist())))


_VOCAB = os.path.join(tempfile.mkdtemp(prefix="tw_rows_lookup_"), "vocab.txt")
with open(_VOCAB, "w") as _f:
    _f.write("hello\t10\nworld\t20\nfoo\t30\n")


def _text_file(query):
    init = tf.lookup.TextFileInitializer(_VOCAB, tf.int64, 1, tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER)
    t = tf.lookup.StaticHashTable(init, -1)
    with _after(t.initializer):
        return t.lookup(query)


def _text_file_ref(query):
    table = {10: 0, 20: 1, 30: 2}
    return np.array([table.get(k, -1) for k in query.reshape(-1).tolist()], np.int64).reshape(query.shape)


def _mutable(keys, values, query):
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.as_dtype(values.dtype), default_value=-1)
    ins = m.insert(keys, values)
    with _after(ins):
        return m.lookup(query)


def _mutable_vectors(keys, values, query):
    vals = tf.stack([values, values * 2], axis=-1)
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.as_dtype(values.dtype), default_value=[-1, -1])
    ins = m.insert(keys, vals)
    with _after(ins):
        return m.lookup(query)


def _mutable_vectors_ref(keys, values, query):
    table = {k: (v, v * 2) for k, v in zip(keys.tolist(), values.tolist())}
    flat = [table.get(k, (-1, -1)) for k in query.reshape(-1).tolist()]
    return np.array(flat, values.dtype).reshape(query.shape + (2,))


def _remove(keys, values, query):
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.as_dtype(values.dtype), default_value=-1)
    ins = m.insert(keys, values)
    with _after(ins):
        rm = m.remove(keys[:3])
    with _after(rm):
        return [m.lookup(query), tf.identity(m.size())]


def _remove_ref(keys, values, query):
    table = dict(zip(keys.tolist()[3:], values.tolist()[3:]))
    out = np.array([table.get(k, -1) for k in query.reshape(-1).tolist()], values.dtype).reshape(query.shape)
    return [out, np.int64(len(table))]


def _export(keys, values):
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.as_dtype(values.dtype), default_value=-1)
    ins = m.insert(keys, values)
    with _after(ins):
        k, v = m.export()
    # Exported in no particular order: sort by key.
    order = tf.argsort(k)
    return [tf.gather(k, order), tf.gather(v, order)]


def _export_ref(keys, values):
    order = np.argsort(keys, kind="stable")
    return [keys[order], values[order]]


def _import(keys, values, query):
    from tensorweave.framework import ops
    m = tf.lookup.experimental.MutableHashTable(tf.int64, tf.as_dtype(values.dtype), default_value=-1)
    ins = m.insert(query[0], tf.cast(query[0], values.dtype))
    with _after(ins):
        imp = ops.apply_op("LookupTableImportV2", [m.resource_handle, keys, values],
                           {"Tin": tf.int64, "Tout": tf.as_dtype(values.dtype)})
    with _after(imp):
        return [m.lookup(query), tf.identity(m.size())]


def _import_ref(keys, values, query):
    return [_find_ref(keys, values, query), np.int64(len(keys))]  # the import replaces what was inserted


def _export_inputs(dt, rng):
    return _table_inputs(dt, rng)[:2]


ROWS = [
    Row("LookupTableFindV2", _find, _find_ref, _table_inputs, dtypes=_VALUES, special=_table_special, grad=False),
    Row("HashTableV2", _size, _size_ref, _export_inputs, dtypes=(np.float32, np.int64), special=False, grad=False),
    Row("InitializeTableV2", _find, _find_ref, _table_inputs, dtypes=(np.float64,), special=False, grad=False,
        name="InitializeTableV2"),
    Row("LookupTableSizeV2", _size, _size_ref, _export_inputs, dtypes=(np.int32,), special=False, grad=False),
    Row("InitializeTableFromTextFileV2", _text_file, _text_file_ref,
        lambda dt, rng: [np.array([[20, 5], [10, 30]], np.int64)], dtypes=(np.int64,), special=False, grad=False),
    Row("MutableHashTableV2", _mutable, _find_ref, _table_inputs, dtypes=_VALUES, special=_table_special,
        grad=False),
    Row("LookupTableInsertV2", _mutable, _find_ref, _table_inputs, dtypes=(np.float32,), special=False, grad=False,
        name="LookupTableInsertV2"),
    Row("MutableHashTableOfTensorsV2", _mutable_vectors, _mutable_vectors_ref, _table_inputs, dtypes=_VALUES,
        special=False, grad=False),
    Row("LookupTableRemoveV2", _remove, _remove_ref, _table_inputs, dtypes=(np.float32, np.int64), special=False,
        grad=False),
    Row("LookupTableImportV2", _import, _import_ref, _table_inputs, dtypes=(np.float32, np.int64), special=False,
        grad=False),
    Row("LookupTableExportV2", _export, _export_ref, _export_inputs, dtypes=(np.float32, np.int32), special=False,
        grad=False, static_known=False),
]
