"""The "DatasetToTFRecord" op (TF's `gen_experimental_dataset_ops.dataset_to_tf_record`): writes the
scalar string elements of a dataset as the records of a TFRecord file.

The op knows the dataset only through its `dataset` attribute (`_iterator_state(ctx, capture_values)`,
as the iterator ops) and the file format through its `write_records` attribute, a function
`(path, compression_type, records) -> None` that `tensorweave.data` provides; so this module imports
neither `tensorweave.data` nor `tensorweave.io`.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["dataset_to_tf_record"]


def _infer(op):
    for t, what in ((op._inputs[-2], "filename"), (op._inputs[-1], "compression_type")):
        if t.dtype != dtypes.string:
            raise TypeError("Input '%s' of 'DatasetToTFRecord' Op has type %s that does not match expected type of "
                            "string." % (what, t.dtype.name))
        if t._shape.ndims not in (None, 0):
            raise ValueError("Shape must be rank 0 but is rank %d" % t._shape.ndims)
    return []


def _text(v):
    v = v[()] if isinstance(v, np.ndarray) else v
    return v.decode("utf-8") if isinstance(v, bytes) else str(v)


def _kernel(ctx, op, *inputs, dataset, write_records):
    capture_values, filename, compression = inputs[:-2], inputs[-2], inputs[-1]
    st = dataset._iterator_state(ctx, capture_values)

    def records():
        while True:
            el = st.get_next()
            if el is None:
                return
            v = el[0][()] if isinstance(el[0], np.ndarray) else el[0]
            yield v if isinstance(v, bytes) else str(v).encode("utf-8")
    try:
        write_records(_text(filename), _text(compression), records())
    except errors.OpError as e:
        raise type(e)(None, op, e.message) from None
    finally:
        st.close()


register_op("DatasetToTFRecord", infer=_infer, kernel=_kernel, grad=NO_GRADIENT, stateful=True)


def dataset_to_tf_record(captures, dataset, filename, compression_type, write_records, name=None):
    """An op writing `dataset`'s string elements to the TFRecord file `filename`.

    Args:
      captures: The dataset's captured tensors.
      dataset: The dataset (its elements are scalar strings).
      filename: A scalar string tensor.
      compression_type: A scalar string tensor: "", "ZLIB" or "GZIP".
      write_records: `(path, compression_type, records) -> None`.
      name: Op name.

    Returns:
      The Operation.
    """
    with ops.name_scope(name, "DatasetToTFRecord", list(captures) + [filename, compression_type]) as scope:
        return ops.apply_op("DatasetToTFRecord", list(captures) + [filename, compression_type],
                            {"dataset": dataset, "write_records": write_records}, name=scope)
