"""CSV decoding: the "DecodeCSV" op (`tf.decode_csv`, `tf.io.decode_csv`), with TF's field grammar
(RFC 4180 quotes when `use_quote_delim`), defaults for empty or `na_value` fields, `select_cols`, and
TF's number syntax and error messages."""

import re

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["decode_csv"]

_ALLOWED = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)
_INT = re.compile(rb"^\s*[+-]?\d+\s*$")
_FLOAT = re.compile(rb"^\s*[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)\s*$", re.IGNORECASE)
_HEX = re.compile(rb"^\s*[+-]?0[xX][0-9a-fA-F]+(\.[0-9a-fA-F]*)?([pP][+-]?\d+)?\s*$")


def _infer(op):
    records = op._inputs[0]
    for i, d in enumerate(op._inputs[1:]):
        if d._shape.ndims is not None and d._shape.ndims > 1:
            raise ValueError("Shape must be at most rank 1 but is rank %d" % d._shape.ndims)
        if d._shape.ndims == 1 and d._shape.as_tuple()[0] not in (None, 0, 1):
            raise ValueError("Shape of a default must be a length-0 or length-1 vector, or a scalar, for '%s' (op: "
                             "'DecodeCSV'): record_defaults_%d has shape %s." % (op.name, i, d._shape))
    shape = records._shape.as_tuple()
    return [(dt, shape) for dt in op._attrs["OUT_TYPE"]]


def _split(record, delim, use_quote, select, op):
    """TF's ExtractFields: the fields of one record (bytes), only those of `select` when given."""
    fields = []
    n = len(record)
    i = 0
    parsed = 0
    want = None if select is None else iter(select)
    target = None if want is None else next(want, None)
    if n == 0:
        return fields
    while i < n:
        c = record[i:i + 1]
        if c in (b"\n", b"\r"):
            i += 1
            continue
        quoted = use_quote and c == b'"'
        if quoted:
            i += 1
        field = bytearray()
        if not quoted:
            while i < n and record[i:i + 1] != delim:
                ch = record[i:i + 1]
                if (use_quote and ch == b'"') or ch in (b"\n", b"\r"):
                    raise errors.InvalidArgumentError(None, op, "Unquoted fields cannot have quotes/CRLFs inside")
                field += ch
                i += 1
            i += 1
        else:
            while i < n - 1 and (record[i:i + 1] != b'"' or record[i + 1:i + 2] != delim):
                if record[i:i + 1] != b'"':
                    field += record[i:i + 1]
                    i += 1
                else:
                    if record[i + 1:i + 2] != b'"':
                        raise errors.InvalidArgumentError(None, op,
                                                          "Quote inside a string has to be escaped by another quote")
                    field += b'"'
                    i += 2
            if not (i < n and record[i:i + 1] == b'"' and (i == n - 1 or record[i + 1:i + 2] == delim)):
                raise errors.InvalidArgumentError(None, op,
                                                  "Quoted field has to end with quote followed by delim or end")
            i += 2
        if want is None:
            fields.append(bytes(field))
        elif parsed == target:
            fields.append(bytes(field))
            target = next(want, None)
            if target is None:
                return fields
        parsed += 1
    if record[n - 1:n] == delim and (want is None or parsed == target):
        fields.append(b"")
    return fields


def _convert(field, dt, f, i, op):
    if dt is dtypes.int32 or dt is dtypes.int64:
        bits = 32 if dt is dtypes.int32 else 64
        if _INT.match(field):
            v = int(field)
            if -(1 << (bits - 1)) <= v < (1 << (bits - 1)):
                return v
        raise errors.InvalidArgumentError(None, op, "Field %d in record %d is not a valid int%d: %s"
                                          % (f, i, bits, field.decode("utf-8", "replace")))
    if _FLOAT.match(field):
        return float(field.strip())
    if _HEX.match(field):
        return float.fromhex(field.strip().decode("ascii"))
    raise errors.InvalidArgumentError(None, op, "Field %d in record %d is not a valid %s: %s"
                                      % (f, i, "float" if dt is dtypes.float32 else "double",
                                         field.decode("utf-8", "replace")))


def _kernel(xp, records, *defaults, OUT_TYPE, field_delim, use_quote_delim, na_value, select_cols):  # noqa: N803
    op = None
    delim = field_delim.encode("utf-8") if isinstance(field_delim, str) else field_delim
    if len(delim) != 1:
        raise errors.InvalidArgumentError(None, op, "field_delim should be only 1 char")
    na = na_value.encode("utf-8") if isinstance(na_value, str) else na_value
    select = list(select_cols) or None
    for f, d in enumerate(defaults):
        if d.size > 1:
            raise errors.InvalidArgumentError(None, op, "There should only be 1 default per field but field %d has %d"
                                              % (f, d.size))
    records = np.asarray(records)
    flat = records.reshape(-1)
    cols = [[] for _ in OUT_TYPE]
    for i, rec in enumerate(flat):
        rec = rec if isinstance(rec, bytes) else str(rec).encode("utf-8")
        fields = _split(rec, delim, use_quote_delim, select, op)
        if len(fields) != len(OUT_TYPE):
            raise errors.InvalidArgumentError(None, op, "Expect %d fields but have %d in record %d"
                                              % (len(OUT_TYPE), len(fields), i))
        for f, (field, dt) in enumerate(zip(fields, OUT_TYPE)):
            if not field or field == na:
                if defaults[f].size != 1:
                    raise errors.InvalidArgumentError(None, op, "Field %d is required but missing in record %d!"
                                                      % (f, i))
                cols[f].append(defaults[f].reshape(-1)[0])
            elif dt is dtypes.string:
                cols[f].append(field)
            else:
                cols[f].append(_convert(field, dt, f, i, op))
    out = []
    for col, dt in zip(cols, OUT_TYPE):
        a = np.empty(len(col), dtype=object) if dt is dtypes.string else np.zeros(len(col), dt.as_numpy_dtype)
        for k, v in enumerate(col):
            a[k] = v
        out.append(a.reshape(records.shape))
    return out[0] if len(out) == 1 else tuple(out)


register_op("DecodeCSV", infer=_infer, kernel=_kernel, grad=NO_GRADIENT)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None, na_value="",
               select_cols=None):
    """Convert CSV records to tensors. Each column maps to one tensor.

    RFC 4180 format is expected for the CSV records (https://tools.ietf.org/html/rfc4180). Note
    that we allow leading and trailing spaces with int or float field.

    Args:
      records: A `Tensor` of type `string`. Each string is a record/row in the csv and all records
        should have the same format.
      record_defaults: A list of `Tensor` objects with specific types. Acceptable types are
        `float32`, `float64`, `int32`, `int64`, `string`. One tensor per column of the input
        record, with either a scalar default value for that column or an empty vector if the column
        is required.
      field_delim: An optional `string`. Defaults to `","`. char delimiter to separate fields in a record.
      use_quote_delim: An optional `bool`. Defaults to `True`. If false, treats double quotation
        marks as regular characters inside of the string fields (ignoring RFC 4180, Section 2, Bullet 5).
      name: A name for the operation (optional).
      na_value: Additional string to recognize as NA/NaN.
      select_cols: Optional sorted list of column indices to select. If specified, only this subset
        of columns will be parsed and returned.

    Returns:
      A list of `Tensor` objects. Has the same type as `record_defaults`. Each tensor will have the
      same shape as records.

    Raises:
      ValueError: If any of the arguments is malformed.
      TypeError: If a default has a type other than those listed.
    """
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    with ops.name_scope(name, "DecodeCSV", [records]) as scope:
        records = ops.convert_to_tensor(records, dtype=dtypes.string, name="records")
        defaults = []
        for i, d in enumerate(record_defaults):
            t = ops.convert_to_tensor(d, name="record_defaults_%d" % i)
            if t.dtype not in _ALLOWED:
                raise TypeError("Value passed to parameter 'record_defaults' has DataType %s not in list of allowed "
                                "values: float32, float64, int32, int64, string" % t.dtype.name)
            defaults.append(t)
        out = ops.apply_op("DecodeCSV", [records] + defaults,
                           {"OUT_TYPE": [t.dtype for t in defaults], "field_delim": field_delim,
                            "use_quote_delim": bool(use_quote_delim), "na_value": na_value,
                            "select_cols": list(select_cols or [])}, name=scope)
        return [out] if isinstance(out, ops.Tensor) else list(out)
