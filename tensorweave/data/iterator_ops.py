"""`tf.data.Iterator`: iterators over datasets, built on the iterator ops of `ops/iterator_ops.py`.

An iterator's running state (an `IteratorState`: the pipeline's Python iterator and its threads,
made by `Dataset._iterator_state`) lives in the Session (`SessionState.op_state`, keyed by the
iterator's handle), so two sessions on one graph iterate independently, and closing a session closes
its iterators. A handle is a string scalar naming that state: `get_next()` reads the iterator its
handle names, which is what `Iterator.from_string_handle` feeds.
"""

import itertools
import threading

import numpy as np

from ..framework import dtypes, errors, ops
from ..ops import iterator_ops as iterator_gen
from . import structure
from .dataset_ops import Dataset, IteratorContext, close_iterator
from .dataset_runtime import _all_captures, _walk

__all__ = ["EagerIterator", "Iterator", "IteratorState", "make_one_shot_iterator", "make_initializable_iterator",
           "get_single_element"]

_handles = itertools.count()


class IteratorState:
    """One initialised iterator in a Session: the Python iterator over `dataset` built from the
    values of its captured tensors, with the threads it started. `close()` ends them."""

    def __init__(self, session_state, dataset, capture_values):
        self.dataset = dataset
        self._ctx = IteratorContext(session_state, dict(zip(_all_captures(dataset), capture_values)))
        self._ctx.validate(dataset)
        self._it = None
        self._lock = threading.Lock()
        self._finished = False

    def get_next(self):
        """The next element (a tuple of arrays), or None at the end."""
        with self._lock:
            if self._finished:
                return None
            if self._it is None:
                self._it = self._ctx.iterate(self.dataset)
            try:
                return next(self._it)
            except StopIteration:
                self._finished = True
                self._ctx.close()
                return None

    def close(self):
        self._finished = True
        it, self._it = self._it, None
        if it is not None:
            close_iterator(it)
        self._ctx.close()


def _executing_eagerly():
    from ..eager import context
    return context.executing_eagerly()


def _check_capturable(dataset):
    """Raises ValueError, as TF's one-shot iterator does, if the dataset needs a placeholder or a
    stateful op's value (which a one-shot iterator could not capture by value)."""
    datasets = []
    stack = [dataset]
    while stack:
        d = stack.pop()
        if any(d is x for x in datasets):
            continue
        datasets.append(d)
        stack.extend(_walk(d))
        for fn in d._functions():
            if fn.dataset is not None:
                stack.append(fn.dataset)
            for op in fn.graph.get_operations():
                if op.type in ("RefRead", "VariableV2"):
                    _raise_stateful(op)
    seen = set()
    stack = [t.op for t in _all_captures_deep(datasets)]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type == "Placeholder":
            raise ValueError("Cannot capture a placeholder (name:%s, type:Placeholder) by value." % op.name)
        if op._op_def.stateful:
            _raise_stateful(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)


def _all_captures_deep(datasets):
    out = []
    for d in datasets:
        out.extend(t for t in d._captures() if not hasattr(t.graph, "outer_graph"))
    return out


def _raise_stateful(op):
    raise ValueError("Failed to create a one-shot iterator for a dataset. `Dataset.make_one_shot_iterator()` does "
                     "not support datasets that capture stateful objects, such as a `Variable` or `LookupTable`. In "
                     "these cases, use `Dataset.make_initializable_iterator()`. (Original error: Cannot capture a "
                     "stateful node (name:%s, type:%s) by value.)" % (op.name, op.type))


def make_one_shot_iterator(dataset):
    """Creates an `Iterator` over `dataset`, initialised automatically on first use.

    Args:
      dataset: A `tf.data.Dataset`.

    Returns:
      An `Iterator` (it has no initializer; it cannot be re-initialised); in eager mode an
      `EagerIterator`.

    Raises:
      ValueError: If the dataset captures a placeholder or a stateful object (a variable).
    """
    if not isinstance(dataset, Dataset):
        raise TypeError("Expected a tf.data.Dataset, got %r" % (dataset,))
    if _executing_eagerly():
        return EagerIterator(dataset)
    _check_capturable(dataset)
    key = b"one_shot_iterator_%d" % next(_handles)
    handle = iterator_gen.one_shot_iterator(_all_captures(dataset), dataset, key)
    return Iterator._from_spec(handle, None, dataset.element_spec)


# ---- the Iterator class -------------------------------------------------------------------------------
class Iterator:
    """Represents the state of iterating through a `Dataset`, as `tf.data.Iterator`.

    Create one with `dataset.make_one_shot_iterator()`, `dataset.make_initializable_iterator()`,
    `Iterator.from_structure` (reinitialisable from several datasets of one structure) or
    `Iterator.from_string_handle` (chosen per run by feeding a handle). `get_next()` returns
    the tensors of the next element; each `Session.run` of them advances the iterator.

    Args:
      iterator_resource: The string handle tensor naming the iterator state.
      initializer: The initializer op, or None.
      output_types, output_shapes, output_classes: The element structure.
    """

    def __init__(self, iterator_resource, initializer, output_types, output_shapes, output_classes):
        self._iterator_resource = iterator_resource
        self._initializer = initializer
        self._element_spec = structure.from_legacy(output_types, output_shapes, output_classes)

    @classmethod
    def _from_spec(cls, iterator_resource, initializer, element_spec):
        it = cls.__new__(cls)
        it._iterator_resource = iterator_resource
        it._initializer = initializer
        it._element_spec = element_spec
        return it

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None, output_classes=None):
        """Creates an uninitialised iterator for elements of the given structure; initialise it with
        `make_initializer(dataset)` for any dataset of a compatible structure.

        Args:
          output_types: A nest of `tf.DType`.
          output_shapes: A nest of `tf.TensorShape` (default: unknown).
          shared_name: If set, the name of the iterator state (iterators with the same shared name
            in one session share it).
          output_classes: A nest of classes (`tf.Tensor`, `tf.SparseTensor`).

        Returns:
          An `Iterator`.
        """
        spec = structure.from_legacy(output_types, output_shapes, output_classes)
        key = (shared_name.encode("utf-8") if isinstance(shared_name, str) else shared_name) if shared_name \
            else b"iterator_%d" % next(_handles)
        handle = iterator_gen.iterator_v2(key)
        return Iterator._from_spec(handle, None, spec)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None, output_classes=None):
        """Creates an iterator that reads whichever iterator `string_handle` (a string scalar tensor,
        typically a placeholder fed with `sess.run(other_iterator.string_handle())`) names.

        Args:
          string_handle: A scalar string tensor.
          output_types, output_shapes, output_classes: The element structure.

        Returns:
          An `Iterator`.
        """
        spec = structure.from_legacy(output_types, output_shapes, output_classes)
        string_handle = ops.convert_to_tensor(string_handle, dtype=dtypes.string)
        handle = iterator_gen.iterator_from_string_handle(string_handle)
        return Iterator._from_spec(handle, None, spec)

    @property
    def initializer(self):
        """The op that (re)initialises this iterator.

        Raises:
          ValueError: If the iterator has no initializer (one-shot, from_structure).
        """
        if self._initializer is None:
            raise ValueError("Iterator does not have an initializer.")
        return self._initializer

    def make_initializer(self, dataset, name=None):
        """Returns an op that (re)initialises this iterator to iterate over `dataset`.

        Args:
          dataset: A `Dataset` with a structure compatible with this iterator's.
          name: Op name (default "make_initializer").

        Returns:
          An `Operation`.

        Raises:
          TypeError: If the dataset's structure, types, shapes or classes are incompatible.
        """
        if not isinstance(dataset, Dataset):
            raise TypeError("Expected a tf.data.Dataset, got %r" % (dataset,))
        mine, theirs = self._element_spec, dataset.element_spec
        try:
            structure.assert_same_structure(mine, theirs)
        except (TypeError, ValueError) as e:
            raise TypeError("Expected output structure %s but got dataset with output structure %s. (%s)"
                            % (self.output_types, dataset.output_types, e)) from None
        if self.output_types != dataset.output_types:
            raise TypeError("Expected output types %r but got dataset with output types %r."
                            % (self.output_types, dataset.output_types))
        if self.output_classes != dataset.output_classes:
            raise TypeError("Expected output classes %r but got dataset with output classes %r."
                            % (self.output_classes, dataset.output_classes))
        if not structure.is_compatible(mine, theirs):
            raise TypeError("Expected output shapes compatible with %r but got dataset with output shapes %r."
                            % (self.output_shapes, dataset.output_shapes))
        with ops.name_scope(name, "make_initializer") as scope:
            return iterator_gen.make_iterator(self._iterator_resource, _all_captures(dataset), dataset, name=scope)

    def get_next(self, name=None):
        """Returns the nest of tensors of the next element; each run of them advances the iterator
        and raises `tf.errors.OutOfRangeError` at the end.

        Args:
          name: Op name (default "IteratorGetNext").

        Returns:
          A nest of tensors (SparseTensors) of this iterator's structure.
        """
        specs = [(dt, shape.as_tuple()) for dt, shape in structure.component_specs(self._element_spec)]
        outs = iterator_gen.iterator_get_next(self._iterator_resource, specs, name=name or "IteratorGetNext")
        if isinstance(outs, ops.Tensor):
            outs = [outs]
        elif isinstance(outs, ops.Operation):
            outs = []
        return structure.from_components(self._element_spec, outs)

    def string_handle(self, name=None):
        """Returns a string scalar tensor naming this iterator (feed it to `from_string_handle`)."""
        return iterator_gen.iterator_to_string_handle(self._iterator_resource, name=name or "IteratorToStringHandle")

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def output_types(self):
        return structure.get_types(self._element_spec)

    @property
    def output_shapes(self):
        return structure.get_shapes(self._element_spec)

    @property
    def output_classes(self):
        return structure.get_classes(self._element_spec)


def make_initializable_iterator(dataset, shared_name=None):
    """Creates an `Iterator` over `dataset` that must be initialised with `iterator.initializer`;
    running the initializer again (e.g. with new placeholder feeds) restarts it.

    Args:
      dataset: A `tf.data.Dataset`.
      shared_name: If set, the name of the iterator state in the session.

    Returns:
      An `Iterator`.

    Raises:
      RuntimeError: In eager mode.
    """
    if not isinstance(dataset, Dataset):
        raise TypeError("Expected a tf.data.Dataset, got %r" % (dataset,))
    if _executing_eagerly():
        raise RuntimeError("dataset.make_initializable_iterator is not supported when eager execution is enabled. "
                           "Use `for element in dataset` instead.")
    it = Iterator.from_structure(dataset.output_types, dataset.output_shapes, shared_name, dataset.output_classes)
    it._element_spec = dataset.element_spec
    it._initializer = iterator_gen.make_iterator(it._iterator_resource, _all_captures(dataset), dataset)
    return it


# ---- eager iteration ---------------------------------------------------------------------------------
class EagerIterator:
    """Python iteration over a dataset in eager mode (`for element in dataset`): elements are nests
    of eager tensors. Its state lives in the eager context; it ends its threads when exhausted,
    closed or garbage collected.

    Args:
      dataset: A `Dataset` built in eager mode.
    """

    def __init__(self, dataset):
        from ..eager import context, tensor
        self._make = tensor.make
        captures = [np.asarray(t.numpy()) for t in _all_captures(dataset)]
        self._state = IteratorState(context.context(), dataset, captures)
        self._spec = dataset.element_spec
        self._components = structure.component_specs(self._spec)

    def __iter__(self):
        return self

    def __next__(self):
        el = self._state.get_next()
        if el is None:
            self._state.close()
            raise StopIteration
        comps = [self._make(np.asarray(v), dt) for v, (dt, _) in zip(el, self._components)]
        return structure.from_components(self._spec, comps)

    def get_next(self, name=None):
        """The next element.

        Raises:
          OutOfRangeError: At the end.
        """
        try:
            return next(self)
        except StopIteration:
            raise errors.OutOfRangeError(None, None, "End of sequence") from None

    next = get_next

    @property
    def element_spec(self):
        return self._spec

    @property
    def output_types(self):
        return structure.get_types(self._spec)

    @property
    def output_shapes(self):
        return structure.get_shapes(self._spec)

    @property
    def output_classes(self):
        return structure.get_classes(self._spec)

    def close(self):
        self._state.close()

    def __del__(self):
        try:
            self._state.close()
        except Exception:  # interpreter shutdown
            pass


def get_single_element(dataset):
    """Returns the single element of `dataset` as a nest of tensors.

    Args:
      dataset: A `Dataset` with exactly one element.

    Returns:
      A nest of tensors; running it raises `InvalidArgumentError` if the dataset does not have
      exactly one element.
    """
    if not isinstance(dataset, Dataset):
        raise TypeError("`dataset` must be a `tf.data.Dataset` object.")
    specs = [(dt, shape.as_tuple()) for dt, shape in structure.component_specs(dataset.element_spec)]
    outs = iterator_gen.dataset_to_single_element(_all_captures(dataset), dataset, specs)
    if isinstance(outs, ops.Tensor):
        outs = [outs]
    return structure.from_components(dataset.element_spec, outs)


class NumpyIterator:
    """Iterates over the elements of a dataset as nests of NumPy values (`Dataset.as_numpy_iterator()`,
    eager mode): arrays, NumPy scalars, and `bytes` for string scalars.

    Args:
      dataset: A `Dataset` built in eager mode.

    Raises:
      RuntimeError: In graph mode.
    """

    def __init__(self, dataset):
        if not _executing_eagerly():
            raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in eager mode.")
        self._iterator = EagerIterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        def to_numpy(t):
            v = t.numpy()
            if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "OS":
                return v.item()
            return bytes(v) if isinstance(v, np.bytes_) else v
        return structure.map_structure(to_numpy, next(self._iterator))

    next = __next__
