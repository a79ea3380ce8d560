"""`tf.data.experimental` transformations: `scan`, `take_while`, `unique`, `group_by_window`,
`bucket_by_sequence_length`, `choose_from_datasets`, `sample_from_datasets`, `assert_cardinality`, and
`get_structure`. Each returns a function `Dataset -> Dataset` for `Dataset.apply` (the two dataset
combinators return a `Dataset`)."""

import random

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from . import structure
from .dataset_ops import Dataset, StructuredFunction, _UnaryDataset, close_iterator
from .dataset_runtime import _invalid
from .structure import DatasetSpec, SparseTensorSpec

__all__ = ["assert_cardinality", "bucket_by_sequence_length", "choose_from_datasets", "get_structure",
           "group_by_window", "sample_from_datasets", "scan", "take_while", "unique"]


def _scalar_spec(spec, dtype):
    return isinstance(spec, TensorSpec) and spec.dtype == dtype and spec.shape.is_compatible_with(TensorShape([]))


def _relaxed(old, new):
    """The most specific spec compatible with both shapes (same dtype)."""
    if old.shape.is_compatible_with(new.shape) and old.shape == new.shape:
        return old
    if old.shape.ndims is None or new.shape.ndims is None or old.shape.ndims != new.shape.ndims:
        return TensorSpec(None, old.dtype)
    return TensorSpec([a if a == b else None for a, b in zip(old.shape.as_list(), new.shape.as_list())], old.dtype)


def _state_fixed_point(state_spec, trace, new_state, structure_message, dtype_message):
    """Traces `trace(state_spec)` (a `StructuredFunction`), relaxing the state's shapes until its spec is a fixed
    point, as TF does (at most 8 tries). `new_state(fn)` is the traced new state; a new state of another structure
    or dtype raises TypeError(`structure_message(old, new)` / `dtype_message(old_spec, new_spec)`).

    Returns:
      The last traced function and the state spec it was traced with.
    """
    for _ in range(8):
        fn = trace(state_spec)
        new = new_state(fn)
        try:
            structure.assert_same_structure(state_spec, new)
        except (TypeError, ValueError):
            raise TypeError(structure_message(state_spec, new)) from None
        old_flat, new_flat = structure.flatten(state_spec), structure.flatten(new)
        for a, b in zip(old_flat, new_flat):
            if a.dtype != b.dtype:
                raise TypeError(dtype_message(a, b))
        relaxed = [_relaxed(a, b) for a, b in zip(old_flat, new_flat)]
        if all(r.shape == a.shape for r, a in zip(relaxed, old_flat)):
            break
        state_spec = structure.pack_sequence_as(state_spec, relaxed)
    return fn, state_spec


# ---- scan ---------------------------------------------------------------------------------------------
class _ScanDataset(_UnaryDataset):

    def __init__(self, input_dataset, initial_state, scan_func):
        super().__init__(input_dataset)
        with ops.name_scope("initial_state"):
            state = structure.map_structure(lambda v: ops.convert_to_tensor(v), initial_state)
        self._state = structure.flatten(state)
        state_spec = structure.structure_of(state)

        def new_state(fn):
            out = fn.output_structure
            if not isinstance(out, tuple) or len(out) != 2:
                raise TypeError("Invalid `scan_func`. `scan_func` should return a pair consisting of new state and "
                                "the output value but its return type is %s." % (out,))
            return out[0]

        self._fn, _ = _state_fixed_point(
            state_spec,
            lambda spec: StructuredFunction(scan_func, "Dataset_scan", (spec, input_dataset._element_structure)),
            new_state,
            lambda old, new: "Invalid `scan_func`. The element classes for the new state must match the initial "
                             "state. Expected %s, got %s." % (old, new),
            lambda a, b: "Invalid `scan_func`. The element types for the new state must match the initial state. "
                         "Expected %r, got %r." % (a.dtype, b.dtype))
        self._element_structure = self._fn.output_structure[1]

    def _captures(self):
        return self._state + self._fn.captures

    def _functions(self):
        return [self._fn]

    def _iterate(self, ctx, capture_values):
        n = len(self._state)
        state, captures = list(capture_values[:n]), list(capture_values[n:])
        with ctx.open(self._input) as it:
            for el in it:
                out = ctx.call(self._fn.function, state + list(el) + captures)
                state = list(out[:n])
                yield tuple(out[n:])


def scan(initial_state, scan_func):
    """A transformation that scans a function across an input dataset, carrying a state.

    Args:
      initial_state: A nest of tensors: the initial state.
      scan_func: A function `(state, element) -> (new_state, output_element)`; the new state has the
        initial state's structure and dtypes (its shapes may change: they are relaxed).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      TypeError: If `scan_func` does not return a pair, or the new state's structure or dtypes differ.
    """
    return lambda dataset: _ScanDataset(dataset, initial_state, scan_func)


# ---- take_while ---------------------------------------------------------------------------------------
class _TakeWhileDataset(_UnaryDataset):

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._fn = StructuredFunction(predicate, "Dataset_take_while", input_dataset._element_structure)
        if not _scalar_spec(self._fn.output_structure, dtypes.bool_):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return "
                             "type is%s." % (self._fn.output_structure,))

    def _captures(self):
        return self._fn.captures

    def _functions(self):
        return [self._fn]

    def _iterate(self, ctx, capture_values):
        with ctx.open(self._input) as it:
            for el in it:
                if not ctx.call(self._fn.function, list(el) + capture_values)[0]:
                    return
                yield el


def take_while(predicate):
    """A transformation that stops the dataset at the first element for which `predicate` is false.

    Args:
      predicate: A function from an element to a scalar `tf.bool` tensor.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return lambda dataset: _TakeWhileDataset(dataset, predicate)


# ---- unique ---------------------------------------------------------------------------------------------
class _UniqueDataset(_UnaryDataset):

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        spec = input_dataset._element_structure
        if not isinstance(spec, TensorSpec):
            raise TypeError("`tf.data.Dataset.unique` does not support the element structure %s -- only a single "
                            "tensor component is supported." % (spec,))
        if spec.dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
            raise TypeError("`tf.data.Dataset.unique` does not support type %r -- only `tf.int32`, `tf.int64`, and "
                            "`tf.string` are supported." % (spec.dtype,))

    def _iterate(self, ctx, capture_values):
        seen = set()
        with ctx.open(self._input) as it:
            for el in it:
                a = np.asarray(el[0])
                key = (a.shape, tuple(a.reshape(-1).tolist()))
                if key not in seen:
                    seen.add(key)
                    yield el


def unique():
    """A transformation that keeps the first occurrence of each element (elements must be one tensor of
    `tf.int32`, `tf.int64` or `tf.string`, of any shape).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      TypeError: (when applied) for another element type.
    """
    return _UniqueDataset


# ---- group_by_window ---------------------------------------------------------------------------------------
class _GroupByWindowDataset(_UnaryDataset):

    def __init__(self, input_dataset, key_func, reduce_func, window_size_func):
        super().__init__(input_dataset)
        spec = input_dataset._element_structure
        self._key_fn = StructuredFunction(key_func, "Dataset_group_by_window_key", spec)
        if not _scalar_spec(self._key_fn.output_structure, dtypes.int64):
            raise ValueError("Invalid `key_func`. `key_func` must return a single tf.int64 tensor. Got type=%s and "
                             "shape=%s" % (getattr(self._key_fn.output_structure, "dtype", None),
                                           getattr(self._key_fn.output_structure, "shape", None)))
        self._size_fn = StructuredFunction(window_size_func, "Dataset_group_by_window_size", TensorSpec([],
                                                                                                        dtypes.int64))
        if not _scalar_spec(self._size_fn.output_structure, dtypes.int64):
            raise ValueError("Invalid `window_size_func`. `window_size_func` must return a single tf.int64 scalar "
                             "tensor but its return type is %s." % (self._size_fn.output_structure,))
        self._reduce_fn = StructuredFunction(reduce_func, "Dataset_group_by_window_reduce",
                                             (TensorSpec([], dtypes.int64), DatasetSpec(spec)), returns_dataset=True)
        self._element_structure = self._reduce_fn.dataset._element_structure

    def _captures(self):
        return self._key_fn.captures + self._size_fn.captures + self._reduce_fn.captures

    def _functions(self):
        return [self._key_fn, self._size_fn, self._reduce_fn]

    def _iterate(self, ctx, capture_values):
        nk, ns = len(self._key_fn.captures), len(self._size_fn.captures)
        kc, sc, rc = capture_values[:nk], capture_values[nk:nk + ns], capture_values[nk + ns:]
        groups = {}
        sizes = {}

        def reduce(key, members):
            holder = np.empty((), dtype=object)
            holder[()] = members
            values = ctx.call(self._reduce_fn.function, [np.array(key, np.int64), holder] + list(rc))
            inner = ctx.nested(self._reduce_fn.dataset, values)
            sub = inner.iterate(self._reduce_fn.dataset)
            try:
                yield from sub
            finally:
                close_iterator(sub)

        with ctx.open(self._input) as it:
            for el in it:
                key = int(ctx.call(self._key_fn.function, list(el) + list(kc))[0])
                if key not in sizes:
                    size = int(ctx.call(self._size_fn.function, [np.array(key, np.int64)] + list(sc))[0])
                    if size <= 0:
                        raise _invalid("Window size must be greater than zero, but got %d." % size)
                    sizes[key] = size
                group = groups.setdefault(key, [])
                group.append(tuple(el))
                if len(group) == sizes[key]:
                    del groups[key]
                    yield from reduce(key, group)
        for key in sorted(groups):  # TF keeps the groups in a std::map: flushed in key order
            yield from reduce(key, groups.pop(key))


def group_by_window(key_func, reduce_func, window_size=None, window_size_func=None):
    """A transformation that groups windows of elements by key and reduces them.

    Elements are grouped by `key_func(element)` (a `tf.int64` scalar); when a group holds its window
    size of elements, `reduce_func(key, window_dataset)` makes a dataset of them whose elements are
    output. At the end of the input, the incomplete groups are reduced too.

    Args:
      key_func: A function from an element to a scalar `tf.int64` key.
      reduce_func: A function `(key, window_dataset) -> Dataset`.
      window_size: A `tf.int64` scalar: the elements per window (exclusive with `window_size_func`).
      window_size_func: A function from a key to its `tf.int64` window size.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      ValueError: If neither or both of `window_size` and `window_size_func` are given.
    """
    if (window_size is None) == (window_size_func is None):
        raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be specified.")
    if window_size is not None:
        size = ops.convert_to_tensor(window_size, dtype=dtypes.int64, name="window_size")

        def window_size_func(_):
            return size
    return lambda dataset: _GroupByWindowDataset(dataset, key_func, reduce_func, window_size_func)


def bucket_by_sequence_length(element_length_func, bucket_boundaries, bucket_batch_sizes, padded_shapes=None,
                              padding_values=None, pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """A transformation that buckets elements by length and batches each bucket (padded).

    Element `x` goes to bucket `i` where `bucket_boundaries[i-1] <= element_length_func(x) <
    bucket_boundaries[i]`; each bucket is batched by `bucket_batch_sizes[i]` with `padded_batch`.

    Args:
      element_length_func: A function from an element to its `tf.int32` length.
      bucket_boundaries: Increasing upper length boundaries (ints).
      bucket_batch_sizes: Batch sizes, one more than the boundaries.
      padded_shapes: (Optional.) Shapes to pad to (default: each batch's longest).
      padding_values: (Optional.) Values to pad with.
      pad_to_bucket_boundary: Whether to pad each bucket to its boundary minus one (then elements must
        be shorter than the last boundary).
      no_padding: Whether to batch without padding.
      drop_remainder: Whether to drop each bucket's last smaller batch.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      ValueError: If `len(bucket_batch_sizes) != len(bucket_boundaries) + 1`.
    """
    from ..ops import array_ops, math_ops
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError("`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                         "`len(bucket_batch_sizes)=%d` and `len(bucket_boundaries)=%d`."
                         % (len(bucket_batch_sizes), len(bucket_boundaries)))
    batch_sizes = ops.convert_to_tensor(bucket_batch_sizes, dtype=dtypes.int64)

    def element_to_bucket_id(*args):
        seq_length = element_length_func(*args)
        boundaries = list(bucket_boundaries)
        buckets_min = [np.iinfo(np.int32).min] + boundaries
        buckets_max = boundaries + [np.iinfo(np.int32).max]
        seq_length = math_ops.cast(seq_length, dtypes.int32)
        conditions_c = math_ops.logical_and(math_ops.less_equal(buckets_min, seq_length),
                                            math_ops.less(seq_length, buckets_max))
        return math_ops.reduce_min(array_ops.where(conditions_c))

    def window_size_fn(bucket_id):
        return array_ops.gather(batch_sizes, bucket_id)

    def make_padded_shapes(shapes, none_filler=None):
        padded = []
        for shape in structure.flatten(shapes):
            shape = TensorShape(shape)
            shape = [none_filler if d is None else d for d in shape.as_list()]
            padded.append(shape)
        return structure.pack_sequence_as(shapes, padded)

    def batching_fn(bucket_id, grouped_dataset):
        if no_padding:
            return grouped_dataset.batch(window_size_fn(bucket_id), drop_remainder=drop_remainder)
        shapes = make_padded_shapes(padded_shapes or grouped_dataset.output_shapes)
        batched = grouped_dataset.padded_batch(window_size_fn(bucket_id), shapes, padding_values,
                                               drop_remainder=drop_remainder)
        if not pad_to_bucket_boundary:
            return batched
        # Dimensions padded to the batch's longest are padded further, to the bucket's boundary - 1.
        from ..ops import check_ops
        check = check_ops.assert_less(
            bucket_id, ops.convert_to_tensor(len(bucket_batch_sizes) - 1, dtype=dtypes.int64),
            message="When pad_to_bucket_boundary=True, elements must have length < max(bucket_boundaries).")
        with ops.control_dependencies([check]):
            target = array_ops.gather(ops.convert_to_tensor(list(bucket_boundaries), dtype=dtypes.int64),
                                      bucket_id) - 1
        flat_shapes = structure.flatten(shapes)
        flat_values = (structure.flatten_up_to(shapes, padding_values) if padding_values is not None
                       else [None] * len(flat_shapes))

        def pad(*components):
            out = []
            for x, shape, value in zip(components, flat_shapes, flat_values):
                if None not in shape:
                    out.append(x)
                    continue
                size = array_ops.shape(x, out_type=dtypes.int64)
                zero = ops.convert_to_tensor(0, dtype=dtypes.int64)
                rows = [array_ops.stack([zero, zero])]
                for i, d in enumerate(shape):
                    extra = zero if d is not None else math_ops.maximum(zero, target - size[i + 1])
                    rows.append(array_ops.stack([zero, extra]))
                if value is None:
                    value = "" if x.dtype == dtypes.string else 0
                out.append(array_ops.pad(x, array_ops.stack(rows), constant_values=value))
            return structure.pack_sequence_as(shapes, out) if len(out) > 1 or structure.is_nested(shapes) else out[0]
        return batched.map(lambda *c: pad(*c) if len(c) > 1 else pad(*structure.flatten(c[0])))

    def apply(dataset):
        return dataset.apply(group_by_window(element_to_bucket_id, batching_fn, window_size_func=window_size_fn))
    return apply


# ---- choose_from_datasets / sample_from_datasets ------------------------------------------------------------
def _check_same_specs(datasets):
    first = datasets[0]._element_structure
    for d in datasets[1:]:
        if d._element_structure != first and not _compatible(first, d._element_structure):
            raise TypeError("Invalid `datasets`. `datasets` must have compatible element specs.\n Dataset 0 "
                            "element_spec=%s.\nDataset %d element_spec=%s." % (first, datasets.index(d),
                                                                               d._element_structure))


def _compatible(a, b):
    try:
        structure.assert_same_structure(a, b)
    except (TypeError, ValueError):
        return False
    return all(x.dtype == y.dtype for x, y in zip(structure.flatten(a), structure.flatten(b)))


def _common_structure(datasets):
    specs = [structure.flatten(d._element_structure) for d in datasets]
    out = []
    for parts in zip(*specs):
        s = parts[0]
        for p in parts[1:]:
            if isinstance(s, TensorSpec):
                s = _relaxed(s, p)
        out.append(s)
    return structure.pack_sequence_as(datasets[0]._element_structure, out)


class _DirectedInterleaveDataset(Dataset):
    """Elements of `datasets` in the order of the indices a selector yields; an exhausted input is
    skipped when selected again, and the dataset ends when the selector or every input ends."""

    def __init__(self, selector, datasets):
        super().__init__()
        self._selector = selector
        self._datasets = list(datasets)
        self._element_structure = _common_structure(self._datasets)

    def _inputs(self):
        return [self._selector] + self._datasets

    def _indices(self, ctx, capture_values):
        with ctx.open(self._selector) as it:
            for el in it:
                yield int(el[0])

    def _iterate(self, ctx, capture_values):
        its = [ctx.iterate(d) for d in self._datasets]
        live = [True] * len(its)
        try:
            indices = self._indices(ctx, capture_values)
            for i in indices:
                if i < 0 or i >= len(its):
                    raise _invalid("Selector index out of range: %d >= %d" % (i, len(its)))
                if not live[i]:
                    if not any(live):
                        return
                    continue
                el = next(its[i], None)
                if el is None:
                    live[i] = False
                    close_iterator(its[i])
                    if not any(live):
                        return
                    continue
                yield el
        finally:
            for it in its:
                close_iterator(it)


def choose_from_datasets(datasets, choice_dataset):
    """A dataset that takes each element from the dataset a `choice_dataset` element names.

    Args:
      datasets: A list of datasets of compatible structure.
      choice_dataset: A dataset of scalar `tf.int64` indices into `datasets`.

    Returns:
      A `Dataset`: for each index, the next element of that dataset (an exhausted one is skipped).

    Raises:
      TypeError: If `choice_dataset` does not hold `tf.int64` scalars or the datasets' structures differ.
      ValueError: If `datasets` is empty.
    """
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not isinstance(choice_dataset, Dataset) or not _scalar_spec(choice_dataset._element_structure, dtypes.int64):
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` tensors but "
                        "are %s." % (getattr(choice_dataset, "_element_structure", choice_dataset),))
    datasets = list(datasets)
    _check_same_specs(datasets)
    return _DirectedInterleaveDataset(choice_dataset, datasets)


class _SampleDataset(_DirectedInterleaveDataset):

    def __init__(self, datasets, weights, seed, stop_on_empty_dataset=False):
        super().__init__(None, datasets)
        from ..ops.random_ops import get_seed
        n = len(datasets)
        self._stop_on_empty = bool(stop_on_empty_dataset)
        if isinstance(weights, Dataset):
            spec = weights.element_spec
            if (not isinstance(spec, TensorSpec) or not spec.dtype.is_floating
                    or not spec.shape.is_compatible_with(TensorShape([n]))):
                raise TypeError("Invalid `weights`. The element spec of `weights` should be compatible with "
                                "`TensorSpec(shape=(%d,), dtype=tf.float32)` but is %s." % (n, spec))
            self._weights_ds, self._weights = weights, None
        else:
            w = [1.0 / n] * n if weights is None else weights
            self._weights_ds = None
            self._weights = ops.convert_to_tensor(w, dtype=dtypes.float32, name="weights")
            shape = self._weights.shape
            if shape.ndims not in (None, 1) or (shape.ndims == 1 and shape.as_list()[0] not in (None, n)):
                raise ValueError("Invalid `weights`. `weights` should have the same length as `datasets` but got "
                                 "`len(weights)=%s` vs. `len(datasets)=%d`." % (shape.as_list()[0] if shape.ndims
                                                                               else shape, n))
        self._seeds = get_seed(seed)

    def _inputs(self):
        return list(self._datasets) + ([self._weights_ds] if self._weights_ds is not None else [])

    def _captures(self):
        return [self._weights] if self._weights is not None else []

    def _check(self, w):
        if w.size != len(self._datasets):
            raise _invalid("weights must have %d elements, got %d" % (len(self._datasets), w.size))
        if np.any(w < 0) or not np.all(np.isfinite(w)):
            raise _invalid("weights must be finite and non-negative, got %s" % w.tolist())
        return w

    def _validate(self, capture_values):
        if self._weights is not None:
            self._check(np.asarray(capture_values[0], np.float64).reshape(-1))

    def _seed_stream(self):
        seed, seed2 = self._seeds
        if seed is None and seed2 is None:
            return {"stream": random.Random()}
        return {"stream": random.Random((int(seed) << 32) ^ int(seed2))}

    def _weight_stream(self, ctx, capture_values):
        if self._weights_ds is None:
            w = np.asarray(capture_values[0], np.float64).reshape(-1)
            while True:
                yield w
        with ctx.open(self._weights_ds) as it:
            for el in it:
                yield self._check(np.asarray(el[0], np.float64).reshape(-1))

    def _iterate(self, ctx, capture_values):
        # Choosing an exhausted input again and drawing anew (TF) samples the live inputs in proportion
        # to their weights: drawn here directly. Inputs of weight 0 are never drawn, so the dataset ends
        # when every input of positive weight is exhausted (or, with `stop_on_empty_dataset`, when the
        # first chosen input is exhausted), or when a dataset of weights ends.
        rng = random.Random(ctx.dataset_state(self, self._seed_stream)["stream"].getrandbits(64))
        its = [ctx.iterate(d) for d in self._datasets]
        live = np.ones(len(its))
        weights = self._weight_stream(ctx, capture_values)
        try:
            for w in weights:
                w = w * live
                while w.sum() > 0:
                    i = min(int(np.searchsorted(np.cumsum(w / w.sum()), rng.random(), side="right")), len(w) - 1)
                    if w[i] <= 0:
                        continue
                    el = next(its[i], None)
                    if el is not None:
                        yield el
                        break
                    if self._stop_on_empty:
                        return
                    live[i] = w[i] = 0.0
                    close_iterator(its[i])
                else:
                    return
        finally:
            close_iterator(weights)
            for it in its:
                close_iterator(it)


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False):
    """A dataset that samples each element from one of `datasets`, chosen at random by `weights`.

    An exhausted dataset is no longer chosen; the result ends when all are exhausted. The choices
    are reproducible with a seed (`seed`, and the graph seed of `tf.set_random_seed`); the sequence is
    tensorweave's own, not TensorFlow's.

    Args:
      datasets: A list of datasets of compatible structure.
      weights: (Optional.) A list or 1-D tensor of `len(datasets)` non-negative weights (default: uniform),
        or a `Dataset` of such vectors (one per output element; the result ends with it).
      seed: (Optional.) The op seed.
      stop_on_empty_dataset: Whether the result ends as soon as a chosen dataset is exhausted.

    Returns:
      A `Dataset`.

    Raises:
      TypeError: If the datasets' structures differ, or a `Dataset` of weights has the wrong element type.
      ValueError: If `datasets` is empty or `weights` has the wrong shape.
    """
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    datasets = list(datasets)
    _check_same_specs(datasets)
    return _SampleDataset(datasets, weights, seed, stop_on_empty_dataset)


# ---- assert_cardinality, get_structure ------------------------------------------------------------------------
class _AssertCardinalityDataset(_UnaryDataset):

    def __init__(self, input_dataset, expected):
        super().__init__(input_dataset)
        self._expected = ops.convert_to_tensor(expected, dtype=dtypes.int64, name="expected_cardinality")

    def _captures(self):
        return [self._expected]

    def _iterate(self, ctx, capture_values):
        expected = int(capture_values[0])
        n = 0
        with ctx.open(self._input) as it:
            for el in it:
                n += 1
                if expected >= 0 and n > expected:
                    raise errors.FailedPreconditionError(
                        None, None, "Input dataset was expected to contain %d elements but contained at least %d "
                        "elements." % (expected, n))
                yield el
        if expected == -1:
            raise errors.FailedPreconditionError(None, None, "Input dataset was expected to contain an infinite number "
                                                 "of elements but contained only %d elements." % n)
        if n < expected:
            raise errors.FailedPreconditionError(None, None, "Input dataset was expected to contain %d elements but "
                                                 "contained only %d elements." % (expected, n))


def assert_cardinality(expected_cardinality):
    """A transformation that checks the number of elements of a dataset as it is read.

    Args:
      expected_cardinality: The expected number of elements (`INFINITE_CARDINALITY` for infinite).

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`; reading past a wrong count raises
      `tf.errors.FailedPreconditionError`, and `cardinality` of the result is `expected_cardinality`.
    """
    return lambda dataset: _AssertCardinalityDataset(dataset, expected_cardinality)


def get_structure(dataset_or_iterator):
    """The element structure (nest of `tf.TensorSpec`) of a dataset or iterator.

    Raises:
      TypeError: If the argument is neither.
    """
    try:
        return dataset_or_iterator.element_spec
    except AttributeError:
        raise TypeError("Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a `tf.data.Dataset` or "
                        "tf.data.Iterator object, but got %s." % type(dataset_or_iterator)) from None


# ---- from_list ---------------------------------------------------------------------------------------------------
class _ListDataset(Dataset):

    def __init__(self, elements):
        super().__init__()
        if not elements:
            raise ValueError("Invalid `elements`. `elements` should not be empty. If you want an empty dataset, use "
                             "`tf.data.Dataset.range(0)`.")
        if not isinstance(elements, list):
            raise ValueError("Invalid `elements`. `elements` must be a list.")
        with ops.name_scope("from_list"):
            elements = [structure.normalize_element(e) for e in elements]
        specs = [structure.structure_of(e) for e in elements]
        for s in specs[1:]:
            structure.assert_same_structure(specs[0], s)
        flat = [structure.flatten(s) for s in specs]
        if any(not isinstance(x, TensorSpec) for x in flat[0]):
            raise NotImplementedError("from_list: elements with SparseTensor or Dataset components are not supported.")
        merged = []
        for i in range(len(flat[0])):
            m = flat[0][i]
            for f in flat[1:]:
                if f[i].dtype != m.dtype:
                    raise TypeError("No common supertype of %s and %s." % (m, f[i]))
                m = _relaxed(m, f[i])
            merged.append(m)
        self._width = len(merged)
        self._tensors = [t for e in elements for t in structure.flatten(e)]
        self._element_structure = structure.pack_sequence_as(specs[0], merged)

    def _captures(self):
        return self._tensors

    def _iterate(self, ctx, capture_values):
        w = self._width
        for i in range(0, len(capture_values), w):
            yield tuple(capture_values[i:i + w])


def from_list(elements, name=None):
    """Creates a `Dataset` comprising the given list of elements (which may differ in shape).

    Example: `from_list([(1, "a"), (2, "b")])` yields `(1, b"a")` then `(2, b"b")`, and
    `from_list([[1], [2, 3]])` yields `[1]` then `[2, 3]`.

    Args:
      elements: A non-empty list of elements of the same nested structure and dtypes.
      name: (Optional.) Unused.

    Returns:
      A `Dataset` of the elements.

    Raises:
      ValueError: If `elements` is empty or not a list.
      TypeError: If the elements' dtypes differ.
    """
    return _ListDataset(elements)


# ---- group_by_reducer ----------------------------------------------------------------------------------------
class Reducer:
    """A reducer for `group_by_reducer`: `init_func(key)` makes a group's initial state,
    `reduce_func(state, element)` folds an element into it, `finalize_func(state)` makes the output
    element (a tuple state is passed to `finalize_func` as positional arguments).

    Args:
      init_func: A function from a `tf.int64` key to the initial state.
      reduce_func: A function `(state, element) -> new state` (same structure and dtypes).
      finalize_func: A function from a state to an output element.
    """

    def __init__(self, init_func, reduce_func, finalize_func):
        self._init_func = init_func
        self._reduce_func = reduce_func
        self._finalize_func = finalize_func

    @property
    def init_func(self):
        return self._init_func

    @property
    def reduce_func(self):
        return self._reduce_func

    @property
    def finalize_func(self):
        return self._finalize_func


class _GroupByReducerDataset(_UnaryDataset):

    def __init__(self, input_dataset, key_func, reducer):
        super().__init__(input_dataset)
        spec = input_dataset._element_structure
        self._key_fn = StructuredFunction(key_func, "Dataset_group_by_reducer_key", spec)
        out = self._key_fn.output_structure
        if not _scalar_spec(out, dtypes.int64):
            raise ValueError("Invalid `key_func`. Expected `key_func` to return a scalar tf.int64 tensor, but instead "
                             "`key_func` has output types=%r and shapes=%s." % (getattr(out, "dtype", out),
                                                                                 getattr(out, "shape", None)))
        self._init_fn = StructuredFunction(reducer.init_func, "Dataset_group_by_reducer_init",
                                           TensorSpec([], dtypes.int64))
        self._reduce_fn, state_spec = _state_fixed_point(
            self._init_fn.output_structure,
            lambda state: StructuredFunction(reducer.reduce_func, "Dataset_group_by_reducer_reduce", (state, spec)),
            lambda fn: fn.output_structure,
            lambda old, new: "Invalid `reducer`. The structure of the new state %s does not match the structure of "
                             "the old state %s." % (new, old),
            lambda a, b: "Invalid `reducer`. The element types for the new state %r do not match the element types "
                         "of the old state %r." % (b.dtype, a.dtype))
        self._finalize_fn = StructuredFunction(reducer.finalize_func, "Dataset_group_by_reducer_finalize", state_spec)
        self._element_structure = self._finalize_fn.output_structure

    def _captures(self):
        return self._key_fn.captures + self._init_fn.captures + self._reduce_fn.captures + self._finalize_fn.captures

    def _functions(self):
        return [self._key_fn, self._init_fn, self._reduce_fn, self._finalize_fn]

    def _iterate(self, ctx, capture_values):
        fns = (self._key_fn, self._init_fn, self._reduce_fn, self._finalize_fn)
        caps, i = [], 0
        for f in fns:
            caps.append(list(capture_values[i:i + len(f.captures)]))
            i += len(f.captures)
        kc, ic, rc, fc = caps
        states = {}
        with ctx.open(self._input) as it:
            for el in it:
                key = int(ctx.call(self._key_fn.function, list(el) + kc)[0])
                state = states.get(key)
                if state is None:
                    state = list(ctx.call(self._init_fn.function, [np.array(key, np.int64)] + ic))
                states[key] = list(ctx.call(self._reduce_fn.function, state + list(el) + rc))
        for key in sorted(states):  # TF keeps the groups in a std::map: output in key order
            yield tuple(ctx.call(self._finalize_fn.function, states[key] + fc))


def group_by_reducer(key_func, reducer):
    """A transformation that groups elements by key and reduces each group with `reducer`.

    Each group's state starts as `reducer.init_func(key)` and folds in the group's elements with
    `reducer.reduce_func`; when the input ends, one element per group (in key order) is output:
    `reducer.finalize_func(state)`.

    Args:
      key_func: A function from an element to a scalar `tf.int64` key.
      reducer: A `tf.data.experimental.Reducer`.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.
    """
    return lambda dataset: _GroupByReducerDataset(dataset, key_func, reducer)


# ---- dense_to_sparse_batch -----------------------------------------------------------------------------------
class _DenseToSparseBatchDataset(_UnaryDataset):

    def __init__(self, input_dataset, batch_size, row_shape):
        super().__init__(input_dataset)
        spec = input_dataset._element_structure
        if not isinstance(spec, TensorSpec):
            raise TypeError("Invalid `input_dataset`. DenseToSparseDataset requires an input whose elements have a "
                            "single component, but the given dataset has the element structure %s." % (spec,))
        row = TensorShape(row_shape)
        if not row.is_fully_defined():
            raise ValueError("`row_shape` must be fully defined, got %s." % row)
        self._row = [int(d) for d in row.as_list()]
        self._batch_size = ops.convert_to_tensor(batch_size, dtype=dtypes.int64, name="batch_size")
        self._element_structure = SparseTensorSpec([None] + self._row, spec.dtype)

    def _captures(self):
        return [self._batch_size]

    def _validate(self, capture_values):
        if int(capture_values[0]) <= 0:
            raise _invalid("Batch size must be greater than zero.")

    def _emit(self, batch):
        rank = len(self._row)
        indices, values = [], []
        for b, x in enumerate(batch):
            positions = list(np.ndindex(*x.shape))
            idx = np.array(positions, np.int64).reshape(len(positions), rank)
            indices.append(np.concatenate([np.full((idx.shape[0], 1), b), idx], axis=1))
            values.append(x.reshape(-1))
        ind = np.concatenate(indices).astype(np.int64) if indices else np.zeros((0, rank + 1), np.int64)
        vals = np.concatenate(values) if values else np.zeros(0)
        return (ind.reshape(-1, rank + 1), vals.astype(batch[0].dtype if batch else vals.dtype),
                np.array([len(batch)] + self._row, np.int64))

    def _iterate(self, ctx, capture_values):
        size = int(capture_values[0])
        shape_str = "[%s]" % ",".join(str(d) for d in self._row)
        batch = []
        with ctx.open(self._input) as it:
            for el in it:
                x = np.asarray(el[0])
                if x.ndim != len(self._row):
                    raise _invalid("Input element had shape ([%s]) that is incompatible with the row shape (%s)."
                                   % (",".join(str(d) for d in x.shape), shape_str))
                if any(d > r for d, r in zip(x.shape, self._row)):
                    raise errors.DataLossError(None, None, "Input element had shape ([%s]) that is larger than the "
                                               "row shape (%s)." % (",".join(str(d) for d in x.shape), shape_str))
                batch.append(x)
                if len(batch) == size:
                    yield self._emit(batch)
                    batch = []
        if batch:
            yield self._emit(batch)


def dense_to_sparse_batch(batch_size, row_shape):
    """A transformation that batches elements of different shapes into a `tf.SparseTensor`.

    Element `i` of a batch fills row `i` of a sparse tensor of dense shape `[n] + row_shape` (every
    entry of the element becomes a stored value, zeros included).

    Args:
      batch_size: Elements per batch (a `tf.int64` scalar).
      row_shape: The fully defined dense shape of a row; every element must have its rank and fit in it.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      ValueError: If `row_shape` has unknown or negative dimensions.
    """
    return lambda dataset: _DenseToSparseBatchDataset(dataset, batch_size, row_shape)


# ---- rejection_resample ---------------------------------------------------------------------------------------
def _acceptance_probs_with_mixing(initial_probs, target_probs):
    """(per-class acceptance probabilities, probability of drawing from the original data): TF's
    `_calculate_acceptance_probs_with_mixing`."""
    from ..ops import math_ops
    ratio = target_probs / (initial_probs + np.finfo(np.float32).tiny)
    max_ratio, min_ratio = math_ops.reduce_max(ratio), math_ops.reduce_min(ratio)
    return (ratio - min_ratio) / (max_ratio - min_ratio), min_ratio


def _estimate_initial_dist_ds(target_dist_t, class_values_ds, batch_size=32, smoothing_constant=10):
    """A dataset of the class distribution estimated from the class values seen so far (counted per
    batch of 32, starting from `smoothing_constant` per class), one per input element, as TF does."""
    from ..ops import array_ops, math_ops
    num_classes = target_dist_t.shape.as_list()[0] or array_ops.shape(target_dist_t)[0]
    initial_counts = array_ops.fill([num_classes], np.int64(smoothing_constant))

    def update(counts, c):
        counts = counts + math_ops.reduce_sum(array_ops.one_hot(c, num_classes, dtype=dtypes.int64), 0)
        dist = math_ops.cast(counts, dtypes.float32) / math_ops.cast(math_ops.reduce_sum(counts), dtypes.float32)
        return counts, array_ops.tile(array_ops.expand_dims(dist, 0), [array_ops.shape(c)[0], 1])
    return class_values_ds.batch(batch_size).apply(scan(initial_counts, update)).unbatch()


def rejection_resample(class_func, target_dist, initial_dist=None, seed=None):
    """A transformation that resamples a dataset to reach a target class distribution.

    Elements are kept by rejection sampling (each class accepted with a probability computed from the
    initial and target distributions) mixed with elements drawn from the original data, as TF does;
    without `initial_dist` the initial distribution is estimated from the class values seen so far.
    The random draws are reproducible with a seed but are tensorweave's own, not TensorFlow's.

    Args:
      class_func: A function from an element to its scalar `tf.int32` (or int64) class in `[0, num_classes)`.
      target_dist: A float tensor of shape `[num_classes]`: the target distribution.
      initial_dist: (Optional.) A float tensor of shape `[num_classes]`: the input's class distribution.
      seed: (Optional.) The random seed.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`, whose elements are `(class, element)` pairs.
    """
    from ..framework import tensor_util
    from ..ops import array_ops, math_ops, random_ops

    def apply(dataset):
        target_t = math_ops.cast(ops.convert_to_tensor(target_dist, name="target_dist"), dtypes.float32)
        prob_original_static = None
        if initial_dist is not None:
            initial_t = math_ops.cast(ops.convert_to_tensor(initial_dist, name="initial_dist"), dtypes.float32)
            acceptance, prob_of_original = _acceptance_probs_with_mixing(initial_t, target_t)
            initial_ds = Dataset.from_tensors(initial_t).repeat()
            acceptance_ds = Dataset.from_tensors(acceptance).repeat()
            prob_of_original_ds = Dataset.from_tensors(prob_of_original).repeat()
            init_static, target_static = tensor_util.constant_value(initial_t), tensor_util.constant_value(target_t)
            if init_static is not None and target_static is not None:
                prob_original_static = np.min(target_static / init_static)
        else:
            initial_ds = _estimate_initial_dist_ds(target_t, dataset.map(class_func))
            both = initial_ds.map(lambda initial: _acceptance_probs_with_mixing(initial, target_t))
            acceptance_ds = both.map(lambda accept, _: accept)
            prob_of_original_ds = both.map(lambda _, prob: prob)

        def gather_and_copy(acceptance_prob, data):
            class_val = class_func(*data) if isinstance(data, tuple) else class_func(data)
            return class_val, array_ops.gather(acceptance_prob, class_val), data

        filtered = Dataset.zip((acceptance_ds, dataset)).map(gather_and_copy).filter(
            lambda unused_class, p, unused_data: random_ops.random_uniform([], seed=seed, dtype=p.dtype) < p)
        filtered = filtered.map(lambda class_value, _, data: (class_value, data)).prefetch(3)

        def add_class_value(*x):
            return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)

        if prob_original_static == 1:
            return dataset.map(add_class_value)
        if prob_original_static == 0:
            return filtered
        return sample_from_datasets([dataset.map(add_class_value), filtered],
                                    weights=prob_of_original_ds.map(lambda prob: array_ops.stack([prob, 1.0 - prob])),
                                    seed=seed, stop_on_empty_dataset=True)
    return apply


# ---- pad_to_cardinality -----------------------------------------------------------------------------------------
def pad_to_cardinality(cardinality, mask_key="valid"):
    """A transformation that pads a dataset of dicts with filler elements up to `cardinality` elements.

    Real elements get `element[mask_key] = True`; the fillers are zeros (empty strings, False) of each
    component's shape with `mask_key` False. The input must have a known, finite cardinality of at
    most `cardinality` (checked in eager mode, as TF does).

    Args:
      cardinality: The number of elements to pad to.
      mask_key: The key marking real (True) and filler (False) elements.

    Returns:
      A function `Dataset -> Dataset` for `Dataset.apply`.

    Raises:
      ValueError: (when applied) If the elements are not dicts, or in eager mode if the input's
        cardinality is unknown, infinite or larger than `cardinality`.
    """
    from ..eager import context
    from ..ops import array_ops
    from .cardinality import cardinality as _cardinality

    def apply(dataset):
        if context.executing_eagerly():
            n = int(_cardinality(dataset).numpy())
            if n < 0:
                raise ValueError("The dataset passed into `pad_to_cardinality` must have a known cardinalty, but has "
                                 "cardinality %d" % n)
            if n > cardinality:
                raise ValueError("The dataset passed into `pad_to_cardinality` must have a cardinalty less than the "
                                 "target cardinality (%d), but has cardinality %d" % (cardinality, n))
        if not isinstance(dataset.element_spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a dictionary.")
        padding = cardinality - _cardinality(dataset)
        filler = structure.map_structure(lambda spec: array_ops.zeros(spec.shape, spec.dtype), dataset.element_spec)
        filler = dict(filler)
        filler[mask_key] = False
        filler_ds = Dataset.from_tensors(filler).repeat(padding)

        def valid(x):
            x = dict(x)
            x[mask_key] = True
            return x
        return dataset.map(valid).concatenate(filler_ds)
    return apply
