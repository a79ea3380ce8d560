"""Dataset iterator ops (TF's `gen_dataset_ops`): "OneShotIterator", "IteratorV2", "MakeIterator",
"IteratorGetNext", the string-handle conversions and "DatasetToSingleElement", with their raw
constructors. `tf.data.Iterator` (`data/iterator_ops.py`) builds on them.

A handle is a string scalar naming an iterator's running state in `ctx.op_state`, so two sessions
on one graph iterate independently and closing a session closes its iterators. The ops know
datasets only through the `dataset` attribute's `_iterator_state(ctx, capture_values)`, which
returns that state: an object with `get_next()` (the next element as a tuple of arrays, None at the
end) and `close()`. So this module imports nothing from `tensorweave.data`.
"""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.registry import NO_GRADIENT, register_op

__all__ = ["dataset_to_single_element", "iterator_from_string_handle", "iterator_get_next", "iterator_to_string_handle",
           "iterator_v2", "make_iterator", "one_shot_iterator"]

_STATE_KEY = "tf.data.iterator"


def _handle_value(key):
    return np.array(key, dtype=object)


def _handle_key(handle):
    key = handle[()] if isinstance(handle, np.ndarray) else handle
    return key if isinstance(key, bytes) else str(key).encode("utf-8")


def _handle_infer(op):
    return [(dtypes.string, ())]


def _install(ctx, key, dataset, capture_values):
    st = dataset._iterator_state(ctx, capture_values)
    with ctx.lock:
        old = ctx.op_state.get((_STATE_KEY, key))
        ctx.op_state[(_STATE_KEY, key)] = st
    if old is not None:
        old.close()
    return st


# ---- OneShotIterator: a handle whose iterator is made on first use ------------------------------
def _one_shot_kernel(ctx, op, *capture_values, dataset, key):
    if (_STATE_KEY, key) not in ctx.op_state:
        with ctx.lock:
            if (_STATE_KEY, key) not in ctx.op_state:
                ctx.op_state[(_STATE_KEY, key)] = dataset._iterator_state(ctx, capture_values)
    return _handle_value(key)


register_op("OneShotIterator", infer=_handle_infer, kernel=_one_shot_kernel, grad=NO_GRADIENT, stateful=True)


def one_shot_iterator(captures, dataset, key, name="OneShotIterator"):
    """The handle of an iterator over `dataset` made on first use from the values of `captures`."""
    return ops.apply_op("OneShotIterator", list(captures), {"dataset": dataset, "key": key}, name=name)


# ---- IteratorV2: the handle of an iterator initialised by MakeIterator --------------------------
def _iterator_kernel(ctx, op, key):
    return _handle_value(key)


register_op("IteratorV2", infer=_handle_infer, kernel=_iterator_kernel, grad=NO_GRADIENT, stateful=True)


def iterator_v2(key, name="Iterator"):
    """The handle naming the iterator state `key` (bytes), which `make_iterator` initialises."""
    return ops.apply_op("IteratorV2", [], {"key": key}, name=name)


# ---- MakeIterator: (re)initialises the iterator a handle names ----------------------------------
def _make_iterator_infer(op):
    return []


def _make_iterator_kernel(ctx, op, handle, *capture_values, dataset):
    _install(ctx, _handle_key(handle), dataset, capture_values)


register_op("MakeIterator", infer=_make_iterator_infer, kernel=_make_iterator_kernel, grad=NO_GRADIENT,
            stateful=True)


def make_iterator(handle, captures, dataset, name="MakeIterator"):
    """An op that (re)starts the iterator `handle` names over `dataset` (given `captures`' values)."""
    return ops.apply_op("MakeIterator", [handle] + list(captures), {"dataset": dataset}, name=name)


# ---- IteratorGetNext ----------------------------------------------------------------------------------
def _get_next_infer(op):
    return list(op._attrs["output_specs"])


def _compatible(shape, static):
    if static is None:
        return True
    return len(shape) == len(static) and all(d is None or d == s for d, s in zip(static, shape))


def _get_next_kernel(ctx, op, handle, output_specs):
    key = _handle_key(handle)
    st = ctx.op_state.get((_STATE_KEY, key))
    if st is None:
        raise errors.FailedPreconditionError(
            None, op, "GetNext() failed because the iterator has not been initialized. Ensure that you have run the "
            "initializer operation for this iterator before getting the next element.")
    el = st.get_next()
    if el is None:
        raise errors.OutOfRangeError(None, op, "End of sequence")
    if len(el) != len(output_specs):
        raise errors.InvalidArgumentError(None, op, "Number of components does not match: expected %d types but got "
                                          "%d." % (len(output_specs), len(el)))
    out = []
    for i, (v, (dt, shape)) in enumerate(zip(el, output_specs)):
        a = np.asarray(v)
        if a.dtype != dt.as_numpy_dtype:
            raise errors.InvalidArgumentError(None, op, "Data type mismatch at component %d: expected %s but got %s."
                                              % (i, dt.name, _dtype_name(a.dtype)))
        if not _compatible(a.shape, shape):
            raise errors.InvalidArgumentError(None, op, "Incompatible shapes at component %d: expected %s but got %s."
                                              % (i, list(shape), list(a.shape)))
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)


def _dtype_name(npdt):
    try:
        return dtypes.as_dtype(npdt).name
    except TypeError:
        return str(npdt)


register_op("IteratorGetNext", infer=_get_next_infer, kernel=_get_next_kernel, grad=NO_GRADIENT, stateful=True)


def iterator_get_next(handle, output_specs, name="IteratorGetNext"):
    """The components of the next element of the iterator `handle` names (`output_specs`: a
    `(dtype, shape)` per component); a Tensor, a list of them, or an Operation for none."""
    return ops.apply_op("IteratorGetNext", [handle], {"output_specs": list(output_specs)}, name=name)


# ---- string handles -----------------------------------------------------------------------------------
register_op("IteratorToStringHandle", infer=_handle_infer, kernel=lambda xp, handle: handle, grad=NO_GRADIENT)
register_op("IteratorFromStringHandleV2", infer=_handle_infer, kernel=lambda xp, handle: handle, grad=NO_GRADIENT)


def iterator_to_string_handle(handle, name="IteratorToStringHandle"):
    """A string scalar naming the iterator `handle` names (to feed `iterator_from_string_handle`)."""
    return ops.apply_op("IteratorToStringHandle", [handle], name=name)


def iterator_from_string_handle(string_handle, name="IteratorFromStringHandleV2"):
    """The handle of the iterator a string scalar tensor names."""
    return ops.apply_op("IteratorFromStringHandleV2", [string_handle], name=name)


# ---- DatasetToSingleElement -----------------------------------------------------------------------------
def _single_infer(op):
    return list(op._attrs["output_specs"])


def _single_kernel(ctx, op, *capture_values, dataset, output_specs):
    st = dataset._iterator_state(ctx, capture_values)
    try:
        first = st.get_next()
        if first is None:
            raise errors.InvalidArgumentError(None, op, "Dataset was empty.")
        if st.get_next() is not None:
            raise errors.InvalidArgumentError(None, op, "Dataset had more than one element.")
    finally:
        st.close()
    out = [np.asarray(v) for v in first]
    return out[0] if len(out) == 1 else tuple(out)


register_op("DatasetToSingleElement", infer=_single_infer, kernel=_single_kernel, grad=NO_GRADIENT, stateful=True)


def dataset_to_single_element(captures, dataset, output_specs, name="DatasetToSingleElement"):
    """The components of `dataset`'s only element (given `captures`' values); running it raises
    InvalidArgumentError if the dataset does not have exactly one element."""
    return ops.apply_op("DatasetToSingleElement", list(captures),
                        {"dataset": dataset, "output_specs": list(output_specs)}, name=name)
