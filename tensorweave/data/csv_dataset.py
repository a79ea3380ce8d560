"""`tf.data.experimental.CsvDataset` and `make_csv_dataset`: records of CSV files (RFC 4180 quoting, as
TF's "CSVDatasetV2" parses them) as tuples of scalars, and the batched dict-of-columns pipeline built
on it."""

import collections
import csv
import re

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.tensor_spec import TensorSpec
from ..platform import gfile
from .dataset_ops import AUTOTUNE, Dataset
from .example_datasets import _shuffle_and_repeat
from .file_readers import _DEFAULT_BUFFER, _check_compression, _FilesDataset, _open, _read_all

__all__ = ["CsvDataset", "make_csv_dataset"]

_ALLOWED = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)
_INT = re.compile(r"^\s*[+-]?\d+\s*$")
_HEX = re.compile(r"^[+-]?0[xX]")
_TYPE_NAMES = {"float32": "float", "float64": "double"}


def _invalid(msg):
    return errors.InvalidArgumentError(None, None, msg)


def _record_default(value, i):
    if isinstance(value, dtypes.DType) or (isinstance(value, type) and issubclass(value, np.generic)):
        dt = dtypes.as_dtype(value)
        if dt not in _ALLOWED:
            raise TypeError("Value passed to parameter 'record_defaults' has DataType %s not in list of allowed "
                            "values: float32, float64, int32, int64, string" % dt.name)
        return ops.convert_to_tensor(np.zeros(0, dt.as_numpy_dtype) if dt != dtypes.string
                                     else np.zeros(0, object), dtype=dt, name="record_default_%d" % i)
    t = ops.convert_to_tensor(value, name="record_default_%d" % i)
    if t.dtype not in _ALLOWED:
        raise TypeError("Value passed to parameter 'record_defaults' has DataType %s not in list of allowed values: "
                        "float32, float64, int32, int64, string" % t.dtype.name)
    if t.shape.ndims is not None and t.shape.ndims > 1:
        raise ValueError("Shape must be at most rank 1 but is rank %d" % t.shape.ndims)
    return t


# ---- parsing -------------------------------------------------------------------------------------------
class _Open(Exception):
    """A quoted field goes on past the end of the line."""


def _split(line, delim, quoted):
    """The fields of one record (str), TF's CSV rules."""
    fields = []
    i, n = 0, len(line)
    while True:
        if quoted and i < n and line[i] == '"':
            parts = []
            j = i + 1
            while True:
                k = line.find('"', j)
                if k < 0:
                    raise _Open()
                parts.append(line[j:k])
                if k + 1 < n and line[k + 1] == '"':
                    parts.append('"')
                    j = k + 2
                    continue
                break
            fields.append("".join(parts))
            if k + 1 == n:
                return fields
            if line[k + 1] != delim:
                raise _invalid("Reached end of file without closing quoted field in record")
            i = k + 2
            continue
        k = line.find(delim, i)
        field = line[i:] if k < 0 else line[i:k]
        if quoted and '"' in field:
            raise _invalid("Unquoted fields cannot have quotes inside")
        fields.append(field)
        if k < 0:
            return fields
        i = k + 1


def _records(f, chunk, delim, quoted):
    """The records (lists of str fields) of a binary file object, a quoted field spanning lines."""
    rest = b""
    pending = None
    while True:
        data = f.read(chunk)
        lines = (rest + data).split(b"\n") if data else ([rest] if rest else [])
        rest = lines.pop() if data else b""
        for raw in lines:
            line = raw.decode("utf-8", "replace")
            if line.endswith("\r"):
                line = line[:-1]
            if pending is not None:
                line = pending + "\n" + line
                pending = None
            try:
                yield _split(line, delim, quoted)
            except _Open:
                pending = line
        if not data:
            break
    if pending is not None:
        raise _invalid("Reached end of file without closing quoted field in record")


def _convert(field, dt, default, index, na_value):
    if field == "" or field == na_value:
        if default.size == 0:
            raise _invalid("Field %d is required but missing in record!" % index)
        return np.asarray(default.reshape(-1)[0], dtype=default.dtype)
    if dt == dtypes.string:
        return np.array(field.encode("utf-8"), dtype=object)
    if dt in (dtypes.int32, dtypes.int64):
        info = np.iinfo(dt.as_numpy_dtype)
        if _INT.match(field) and info.min <= int(field) <= info.max:
            return np.array(int(field), dt.as_numpy_dtype)
    else:
        s = field.strip()
        try:
            value = float(s) if "_" not in s else None
        except ValueError:
            try:
                value = float.fromhex(s) if _HEX.match(s) else None
            except ValueError:
                value = None
        if value is not None:
            return np.array(value, dt.as_numpy_dtype)
    raise _invalid("Field %d in record is not a valid %s: %s" % (index, _TYPE_NAMES.get(dt.name, dt.name), field))


class _CsvFileDataset(Dataset):

    def __init__(self, filenames, defaults, compression_type, buffer_size, header, field_delim, use_quote_delim,
                 na_value, select_cols):
        super().__init__()
        self._filenames = ops.convert_to_tensor(filenames, dtype=dtypes.string, name="filenames")
        self._defaults = defaults
        self._rest = [
            ops.convert_to_tensor("" if compression_type is None else compression_type, dtypes.string,
                                  name="compression_type"),
            ops.convert_to_tensor(_DEFAULT_BUFFER if buffer_size is None else buffer_size, dtypes.int64,
                                  name="buffer_size"),
            ops.convert_to_tensor(header, dtypes.bool_, name="header"),
            ops.convert_to_tensor(field_delim, dtypes.string, name="field_delim"),
            ops.convert_to_tensor(use_quote_delim, dtypes.bool_, name="use_quote_delim"),
            ops.convert_to_tensor(na_value, dtypes.string, name="na_value"),
            ops.convert_to_tensor([] if select_cols is None else select_cols, dtypes.int64, name="select_cols")]
        self._element_structure = tuple(TensorSpec([], d.dtype) for d in defaults)

    def _captures(self):
        return [self._filenames] + list(self._defaults) + self._rest

    def _split_captures(self, values):
        n = len(self._defaults)
        return values[0], values[1:1 + n], values[1 + n:]

    def _validate(self, capture_values):
        _, defaults, (kind, buffer_size, _, delim, _, _, select) = self._split_captures(capture_values)
        _check_compression(kind.item())
        if int(buffer_size) <= 0:
            raise _invalid("buffer_size should be positive")
        if len(delim.item()) != 1:
            raise _invalid("field_delim should be only 1 character")
        select = [int(c) for c in select.reshape(-1)]
        if select and len(select) != len(defaults):
            raise _invalid("select_cols should match output size")
        if any(b <= a for a, b in zip(select, select[1:])) or (select and select[0] < 0):
            raise _invalid("select_cols should be strictly increasing indices")
        for i, d in enumerate(defaults):
            if d.size > 1:
                raise _invalid("There should only be 1 default per field but field %d has %d" % (i, d.size))

    def _iterate(self, ctx, capture_values):
        filenames, defaults, (kind, buffer_size, header, delim, quoted, na_value, select) = \
            self._split_captures(capture_values)
        kind = kind.item().decode("ascii")
        delim = delim.item().decode("utf-8")
        na = na_value.item().decode("utf-8")
        quoted, header = bool(quoted), bool(header)
        select = [int(c) for c in select.reshape(-1)] or None
        dts = [s.dtype for s in self._element_structure]
        n = len(dts)
        for name in filenames.reshape(-1):
            path = name.decode("utf-8") if isinstance(name, bytes) else str(name)
            f = _open(path, kind, int(buffer_size))
            try:
                for r, fields in enumerate(_records(f, int(buffer_size), delim, quoted)):
                    if header and r == 0:
                        continue
                    chosen = fields if select is None else [fields[c] for c in select if c < len(fields)]
                    # Fields are converted in order before the count is checked, as TF's kernel does.
                    out = tuple(_convert(v, dt, d, i, na) for i, (v, dt, d) in enumerate(zip(chosen, dts, defaults)))
                    if len(chosen) != n:
                        raise _invalid("Expect %d fields but have %s in record"
                                       % (n, "more" if len(chosen) > n else len(chosen)))
                    yield out
            finally:
                f.close()


class CsvDataset(Dataset):
    """A Dataset comprising lines from one or more CSV files.

    Each record becomes a tuple of scalars, one per column of `record_defaults`: empty fields (or
    fields equal to `na_value`) take the column's default. Fields may be quoted (RFC 4180: `""` is a
    quote inside a quoted field, which may span lines).

    Example:

      dataset = tf.data.experimental.CsvDataset("data.csv", [tf.float32, [0], ["none"]], header=True)

    Args:
      filenames: A `tf.string` tensor (or list) of file names, or a `tf.data.Dataset` of scalar strings.
      record_defaults: A list of default values (a scalar or one-element tensor of type float32,
        float64, int32, int64 or string) or dtypes (the column is required), one per output column.
      compression_type: (Optional.) `""`, `"ZLIB"` or `"GZIP"`.
      buffer_size: (Optional.) Bytes to read at a time.
      header: (Optional.) Whether the first line of each file is a header to skip.
      field_delim: (Optional.) The one-character field delimiter (default ",").
      use_quote_delim: (Optional.) Whether double quotes delimit fields (else they are ordinary characters).
      na_value: (Optional.) A string standing for a missing value.
      select_cols: (Optional.) Sorted indices of the columns to read (as many as `record_defaults`).

    Raises:
      TypeError: If a default's dtype is not one of those five.

    From `get_next()`: `tf.errors.InvalidArgumentError` for a record with the wrong number of fields,
    a missing required field or a field that does not parse as its column's type.
    """

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None):
        super().__init__()
        with ops.name_scope("CsvDataset"):
            defaults = [_record_default(v, i) for i, v in enumerate(record_defaults)]
        self._impl = _FilesDataset(
            filenames, lambda f: _CsvFileDataset(f, defaults, compression_type, buffer_size, header, field_delim,
                                                 use_quote_delim, na_value, select_cols), None)
        self._element_structure = self._impl._element_structure = tuple(TensorSpec([], d.dtype) for d in defaults)

    def _inputs(self):
        return [self._impl]

    def _iterate(self, ctx, capture_values):
        return ctx.iterate(self._impl)


# ---- make_csv_dataset -----------------------------------------------------------------------------------
def _file_names(file_pattern, shuffle):
    if isinstance(file_pattern, list):
        if not file_pattern:
            raise ValueError("Argument `file_pattern` should not be empty.")
        names = []
        for entry in file_pattern:
            names.extend(gfile.glob(entry))
    else:
        names = list(gfile.glob(file_pattern))
    if not names:
        raise ValueError("No files match `file_pattern` %s." % (file_pattern,))
    return names if shuffle else sorted(names)


def _csv_reader(path, delim, quoted, compression_type):
    f = _open(path, compression_type or "", _DEFAULT_BUFFER)
    try:
        data = _read_all(f).decode("utf-8", "replace")
    finally:
        f.close()
    return csv.reader(data.splitlines(), delimiter=delim, quoting=csv.QUOTE_MINIMAL if quoted else csv.QUOTE_NONE)


def _infer_column_names(names, delim, quoted, compression_type):
    columns = None
    for path in names:
        first = next(_csv_reader(path, delim, quoted, compression_type), [])
        if columns is None:
            columns = first
        elif first != columns:
            raise ValueError("Failed when parsing the header row of files (%s): Files have different column names "
                             "in the header row." % path)
    return columns


def _is_int(s, bits):
    try:
        v = int(s)
    except ValueError:
        return False
    return -(1 << (bits - 1)) <= v < (1 << (bits - 1))


def _is_float(s, np_type):
    """TF's test: the value parses and is below +inf in that type (so "inf", "nan" and overflows are not)."""
    try:
        v = float(s)
    except ValueError:
        return False
    with np.errstate(over="ignore"):
        return bool(np_type(v) < np.inf)


_INFER = [(dtypes.int32, lambda s: _is_int(s, 32)), (dtypes.int64, lambda s: _is_int(s, 64)),
          (dtypes.float32, lambda s: _is_float(s, np.float32)), (dtypes.float64, lambda s: _is_float(s, np.float64)),
          (dtypes.string, lambda s: True)]


def _infer_type(value, na_value, prev):
    if value in ("", na_value):
        return prev
    kinds = [k for k, _ in _INFER]
    for i, (kind, valid) in enumerate(_INFER):
        if valid(value) and (prev is None or prev in kinds[:i + 1]):
            return kind
    return prev


def _infer_column_defaults(names, num_cols, delim, quoted, na_value, header, rows, select_columns,
                           compression_type):
    types = [None] * num_cols
    seen = 0
    for path in names:
        reader = _csv_reader(path, delim, quoted, compression_type)
        if header:
            next(reader, None)
        for fields in reader:
            if seen >= rows:
                break
            if len(fields) != num_cols and select_columns is None:
                raise ValueError("Problem inferring types: CSV row has different number of fields than expected.")
            if select_columns is not None:
                fields = [fields[i] for i in select_columns if i < len(fields)]
            for i, v in enumerate(fields):
                if i < num_cols:
                    types[i] = _infer_type(v, na_value, types[i])
            seen += 1
    types = [t or dtypes.string for t in types]
    return [np.array([b""], dtype=object) if t == dtypes.string else np.array([0], t.as_numpy_dtype) for t in types]


def _select_indices(column_names, select_columns):
    index = {n: i for i, n in enumerate(column_names)}
    out = []
    for v in select_columns:
        if isinstance(v, int):
            if v < 0 or v >= len(column_names):
                raise ValueError("Column index %d specified in `select_columns` should be > 0  and less than the "
                                 "number of columns." % v)
            out.append(v)
        elif v not in index:
            raise ValueError("Column %s specified in `select_columns` must be of one of the columns: %s."
                             % (v, index.keys()))
        else:
            out.append(index[v])
    out = sorted(set(out))
    if len(out) != len(select_columns):
        raise ValueError("Repeated column names in `select_columns`")
    return out


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=AUTOTUNE, num_parallel_reads=1, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False):
    """Reads CSV files into a dataset of batches of (features, label).

    Each element is a tuple `(features, label)` (or `features` alone without `label_name`), where
    `features` is an `OrderedDict` from column name to a batch (a 1-D tensor) of that column's values.
    Column names come from `column_names` or the files' header line; column types from
    `column_defaults` or inferred from the first `num_rows_for_inference` rows (int32, int64,
    float32, float64 or string, the narrowest that fits every value; empty fields default to 0 or "").

    Args:
      file_pattern: A glob pattern (or list of patterns) of CSV files.
      batch_size: Records per batch.
      column_names: (Optional.) The column names; default: the header line of the files.
      column_defaults: (Optional.) One default (or dtype) per selected column, as `CsvDataset`'s
        `record_defaults`; default: inferred.
      label_name: (Optional.) The column returned separately as the label.
      select_columns: (Optional.) The names or indices of the columns to read.
      field_delim: The field delimiter.
      use_quote_delim: Whether double quotes delimit fields.
      na_value: The string standing for a missing value.
      header: Whether the files start with a header line.
      num_epochs: How many times to read the files (None: forever; the last batch is then always full).
      shuffle: Whether to shuffle the files and the records.
      shuffle_buffer_size: The record shuffle buffer.
      shuffle_seed: The shuffle seed.
      prefetch_buffer_size: Batches to prefetch.
      num_parallel_reads: Files read at once (their records interleaved).
      sloppy: Allowed for compatibility (the order is deterministic).
      num_rows_for_inference: Rows read to infer the column types (0: all).
      compression_type: (Optional.) `""`, `"ZLIB"` or `"GZIP"`.
      ignore_errors: Whether records that fail to parse are skipped.

    Returns:
      A `Dataset` of `(features, label)` batches.

    Raises:
      ValueError: If no file matches, the column names cannot be determined, or `label_name` or a
        selected column is not a column.
    """
    names = _file_names(file_pattern, shuffle)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is provided.")
        column_names = _infer_column_names(names, field_delim, use_quote_delim, compression_type)
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        dupes = {c for c in column_names if column_names.count(c) > 1}
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate column names: %s."
                         % dupes)
    select = None
    if select_columns is not None:
        select = _select_indices(column_names, list(select_columns))
        column_names = [column_names[i] for i in select]
    if label_name is not None and label_name not in column_names:
        raise ValueError("`label_name` provided must be one of the columns: %s. Received: %s."
                         % (column_names, label_name))
    if column_defaults is not None:
        column_defaults = [v if isinstance(v, dtypes.DType) else ops.convert_to_tensor(v) for v in column_defaults]
        if len(column_defaults) != len(column_names):
            raise ValueError("The length of `column_defaults` should be equal to the number of columns (%d), got %d."
                             % (len(column_names), len(column_defaults)))
    else:
        total = len(column_names) if select is None else max(select) + 1
        column_defaults = _infer_column_defaults(names, total if select is None else len(column_names), field_delim,
                                                 use_quote_delim, na_value, header,
                                                 num_rows_for_inference or float("inf"), select, compression_type)
    dataset = Dataset.from_tensor_slices(names)
    if shuffle:
        dataset = dataset.shuffle(len(names), shuffle_seed)

    def filename_to_dataset(filename):
        ds = CsvDataset(filename, column_defaults, compression_type=compression_type, header=header,
                        field_delim=field_delim, use_quote_delim=use_quote_delim, na_value=na_value,
                        select_cols=select)
        if ignore_errors:
            from .experimental import ignore_errors as _ignore
            ds = ds.apply(_ignore())
        return ds

    def map_fn(*columns):
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features

    cycle = 1 if num_parallel_reads is None else num_parallel_reads
    dataset = dataset.interleave(filename_to_dataset, cycle_length=cycle, block_length=1,
                                 num_parallel_calls=num_parallel_reads)
    dataset = _shuffle_and_repeat(dataset, shuffle, shuffle_buffer_size, shuffle_seed, num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
    dataset = dataset.map(map_fn)
    return dataset.prefetch(prefetch_buffer_size)
