"""`tf.data` pipelines: element-wise transformations (map, filter, flat_map,
interleave, zip, concatenate) and cache and prefetch (whose prefetching thread the parallel map
uses too)."""

import collections
import contextlib
import itertools
import os
import threading

import numpy as np

from ..framework import dtypes, errors, ops, tensor_util
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from ..platform import fpstate, gfile
from . import cache_format, structure
from .dataset_base import Dataset, StructuredFunction, _int64
from .dataset_runtime import (
    _AUTOTUNE_PREFETCH,
    _JOIN_TIMEOUT,
    AUTOTUNE,
    _annotated,
    _invalid,
    _readonly,
    _scalar,
    close_iterator,
)


# ---- transformations -------------------------------------------------------------------------------
class _UnaryDataset(Dataset):
    """A transformation of one input dataset."""

    def __init__(self, input_dataset):
        super().__init__()
        if not isinstance(input_dataset, Dataset):
            raise TypeError("Expected a Dataset, got %r" % (input_dataset,))
        self._input = input_dataset
        self._element_structure = input_dataset._element_structure

    def _inputs(self):
        return [self._input]


class _ConcatenateDataset(Dataset):

    def __init__(self, first, second):
        super().__init__()
        if not isinstance(second, Dataset):
            raise TypeError("`dataset` must be a Dataset, got %r" % (second,))
        a, b = first._element_structure, second._element_structure
        try:
            structure.assert_same_structure(a, b)
        except (TypeError, ValueError):
            raise TypeError("Two datasets to concatenate have different structures %s and %s"
                            % (first.output_types, second.output_types)) from None
        if first.output_types != second.output_types:
            raise TypeError("Two datasets to concatenate have different types %s and %s"
                            % (first.output_types, second.output_types))
        fa, fb = structure.flatten(a), structure.flatten(b)
        if any(type(x) is not type(y) for x, y in zip(fa, fb)):
            raise TypeError("Two datasets to concatenate have different classes %s and %s"
                            % (first.output_classes, second.output_classes))
        self._first, self._second = first, second
        self._element_structure = structure.pack_sequence_as(
            a, [x.most_specific_compatible_type(y) for x, y in zip(fa, fb)])

    def _inputs(self):
        return [self._first, self._second]

    def _iterate(self, ctx, capture_values):
        with ctx.open(self._first) as it:
            yield from it
        with ctx.open(self._second) as it:
            yield from it


class _ZipDataset(Dataset):

    def __init__(self, datasets):
        super().__init__()
        flat = structure.flatten(datasets)
        if not flat or not all(isinstance(d, Dataset) for d in flat):
            raise TypeError("The argument to `Dataset.zip()` must be a nested structure of `Dataset` objects.")
        self._datasets = flat
        self._element_structure = structure.pack_sequence_as(datasets, [d._element_structure for d in flat])

    def _inputs(self):
        return list(self._datasets)

    def _iterate(self, ctx, capture_values):
        with contextlib.ExitStack() as stack:
            its = [stack.enter_context(ctx.open(d)) for d in self._datasets]
            while True:
                out = []
                for it in its:
                    el = next(it, None)
                    if el is None:
                        return
                    out.extend(el)
                yield tuple(out)


class _MapDataset(_UnaryDataset):

    def __init__(self, input_dataset, map_func, num_parallel_calls):
        super().__init__(input_dataset)
        self._fn = StructuredFunction(map_func, "Dataset_map", input_dataset._element_structure)
        self._element_structure = self._fn.output_structure
        if num_parallel_calls is not None and ops.is_tensor(num_parallel_calls):
            value = tensor_util.constant_value(num_parallel_calls)
            if value is None:
                raise ValueError("num_parallel_calls must be a Python integer or a constant tensor.")
            num_parallel_calls = int(value)
        self._num_parallel_calls = num_parallel_calls

    def _captures(self):
        return self._fn.captures

    def _functions(self):
        return [self._fn]

    def _validate(self, capture_values):
        n = self._num_parallel_calls
        if n is not None and n <= 0 and n != AUTOTUNE:
            raise _invalid("num_parallel_calls must be greater than zero.")

    def _iterate(self, ctx, capture_values):
        n = self._num_parallel_calls
        if n == AUTOTUNE:
            n = os.cpu_count() or 1
        if n is None:
            return _MapIterator(ctx, self._input, self._fn.function, capture_values)
        return _ParallelMapIterator(ctx, self._input, self._fn.function, capture_values, n)


class _MapIterator:
    """Applies a traced function to each input element in the consumer's thread. An error names the
    input element; the iterator can go on after it, as TF's does."""

    def __init__(self, ctx, input_dataset, function, captures):
        self._ctx = ctx
        self._input = ctx.iterate(input_dataset)
        self._function = function
        self._captures = list(captures)
        self._index = 0

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._input)
        index = self._index
        self._index += 1
        try:
            return self._ctx.call(self._function, list(element) + self._captures)
        except errors.OpError as e:
            raise _annotated(e, "map", index) from e

    def close(self):
        close_iterator(self._input)


class _ParallelMapIterator:
    """Applies a traced function to the input elements on `parallel` worker threads. Each worker
    takes the next input element (in turn, under a lock), runs the function, and files the result
    under the element's index; the consumer takes results in index order, so the output keeps the
    input order. Workers run ahead of the consumer by up to `2 * parallel` elements. An error is
    delivered at its element's position, naming it, and the iterator goes on after it."""

    def __init__(self, ctx, input_dataset, function, captures, parallel):
        self._ctx = ctx
        self._input = ctx.iterate(input_dataset)
        self._function = function
        self._captures = list(captures)
        self._parallel = parallel
        self._window = 2 * parallel
        self._cond = threading.Condition()
        self._results = {}
        self._taken = 0  # input elements handed to workers
        self._consumed = 0  # results returned
        self._exhausted = False
        self._stop = False
        self._threads = []
        ctx.state.compile_function(function)  # compiled once here, before the worker threads call it
        ctx.register(self)

    def __iter__(self):
        return self

    def _start(self):
        for _ in range(self._parallel):
            t = threading.Thread(target=self._work, name="tensorweave-data-map", daemon=True)
            t.start()
            self._threads.append(t)

    def _work(self):
        cond = self._cond
        with fpstate.quiet():
            while True:
                with cond:
                    while not self._stop and not self._exhausted and self._taken - self._consumed >= self._window:
                        cond.wait()
                    if self._stop or self._exhausted:
                        return
                    index = self._taken
                    try:
                        element = next(self._input)
                    except StopIteration:
                        self._exhausted = True
                        cond.notify_all()
                        return
                    except Exception as e:  # the input's error, in its place
                        self._taken += 1
                        self._results[index] = _Raised(e)
                        cond.notify_all()
                        continue
                    self._taken += 1
                try:
                    out = self._ctx.call(self._function, list(element) + self._captures)
                except errors.OpError as e:
                    out = _Raised(_annotated(e, "map", index))
                except Exception as e:
                    out = _Raised(e)
                with cond:
                    self._results[index] = out
                    cond.notify_all()

    def __next__(self):
        if not self._threads:
            if self._stop:
                raise StopIteration
            self._start()
        cond = self._cond
        with cond:
            while (self._consumed not in self._results and not self._stop
                   and not (self._exhausted and self._consumed >= self._taken)):
                cond.wait()
            out = self._results.pop(self._consumed, None)
            if out is None:
                done = True
            else:
                done = False
                self._consumed += 1
                cond.notify_all()
        if done:
            self.close()
            raise StopIteration
        if type(out) is _Raised:
            raise out.error
        return out

    def close(self):
        with self._cond:
            if self._stop:
                return
            self._stop = True
            self._results.clear()
            self._cond.notify_all()
        me = threading.current_thread()
        for t in self._threads:
            if t is not me:
                t.join(_JOIN_TIMEOUT)
        self._ctx.unregister(self)
        close_iterator(self._input)


class _FilterDataset(_UnaryDataset):

    def __init__(self, input_dataset, predicate):
        super().__init__(input_dataset)
        self._fn = StructuredFunction(predicate, "Dataset_filter", input_dataset._element_structure)
        out = self._fn.output_structure
        if (not isinstance(out, TensorSpec) or out.dtype is not dtypes.bool_
                or not out.shape.is_compatible_with(TensorShape([]))):
            raise ValueError("`predicate` return type must be convertible to a scalar boolean tensor. Was %s." % (out,))

    def _captures(self):
        return self._fn.captures

    def _functions(self):
        return [self._fn]

    def _iterate(self, ctx, capture_values):
        fn = self._fn.function
        with ctx.open(self._input) as it:
            for i, el in enumerate(it):
                try:
                    keep = ctx.call(fn, list(el) + capture_values)[0]
                except errors.OpError as e:
                    raise _annotated(e, "filter", i) from e
                if keep:
                    yield el


class _FlatMapDataset(_UnaryDataset):

    def __init__(self, input_dataset, map_func):
        super().__init__(input_dataset)
        self._fn = StructuredFunction(map_func, "Dataset_flat_map", input_dataset._element_structure,
                                      returns_dataset=True)
        self._element_structure = self._fn.dataset._element_structure

    def _captures(self):
        return self._fn.captures

    def _functions(self):
        return [self._fn]

    def _open_element(self, ctx, el, capture_values, index):
        try:
            values = ctx.call(self._fn.function, list(el) + capture_values)
            inner = ctx.nested(self._fn.dataset, values)
        except errors.OpError as e:
            raise _annotated(e, "flat_map", index) from e
        return inner.iterate(self._fn.dataset)

    def _iterate(self, ctx, capture_values):
        with ctx.open(self._input) as it:
            for i, el in enumerate(it):
                sub = self._open_element(ctx, el, capture_values, i)
                try:
                    yield from sub
                finally:
                    close_iterator(sub)


class _InterleaveDataset(_FlatMapDataset):

    def __init__(self, input_dataset, map_func, cycle_length, block_length, num_parallel_calls):
        _UnaryDataset.__init__(self, input_dataset)
        self._fn = StructuredFunction(map_func, "Dataset_interleave", input_dataset._element_structure,
                                      returns_dataset=True)
        self._element_structure = self._fn.dataset._element_structure
        self._cycle_length = _int64(cycle_length, "cycle_length")
        self._block_length = _int64(block_length, "block_length")
        self._parallel = num_parallel_calls is not None

    def _captures(self):
        return self._fn.captures + [self._cycle_length, self._block_length]

    def _validate(self, capture_values):
        if int(capture_values[-2]) <= 0 and int(capture_values[-2]) != AUTOTUNE:
            raise _invalid("cycle_length must be greater than zero.")
        if int(capture_values[-1]) <= 0:
            raise _invalid("block_length must be greater than zero.")

    def _iterate(self, ctx, capture_values):
        fn_caps = capture_values[:-2]
        cycle_length = int(capture_values[-2])
        if cycle_length == AUTOTUNE:
            cycle_length = os.cpu_count() or 1
        block_length = int(capture_values[-1])
        cycle = [None] * cycle_length
        opened = collections.deque()  # read-ahead elements (parallel): the next input elements, opened
        counter = itertools.count()
        state = {"end": False}

        def open_next(it):
            if opened:
                return opened.popleft()
            return next_input(it)

        def next_input(it):
            if state["end"]:
                return None
            el = next(it, None)
            if el is None:
                state["end"] = True
                return None
            sub = self._open_element(ctx, el, fn_caps, next(counter))
            if self._parallel:
                sub = _Prefetcher(ctx, sub, block_length, start=True)
            return sub

        with ctx.open(self._input) as it:
            try:
                ci = bi = num_open = 0
                while not state["end"] or num_open > 0 or opened:
                    if self._parallel:
                        while len(opened) + num_open < cycle_length and not state["end"]:
                            sub = next_input(it)
                            if sub is not None:
                                opened.append(sub)
                    cur = cycle[ci]
                    if cur is not None:
                        el = next(cur, None)
                        if el is not None:
                            bi += 1
                            if bi == block_length:
                                ci, bi = (ci + 1) % cycle_length, 0
                            yield el
                            continue
                        close_iterator(cur)
                        cycle[ci] = None
                        num_open -= 1
                        ci, bi = (ci + 1) % cycle_length, 0
                    elif not state["end"] or opened:
                        sub = open_next(it)
                        if sub is not None:
                            cycle[ci] = sub
                            num_open += 1
                    else:
                        ci, bi = (ci + 1) % cycle_length, 0
            finally:
                for sub in list(cycle) + list(opened):
                    if sub is not None:
                        close_iterator(sub)


# ---- cache and prefetch --------------------------------------------------------------------------
class _CacheDataset(_UnaryDataset):

    def __init__(self, input_dataset, filename):
        super().__init__(input_dataset)
        self._filename = ops.convert_to_tensor(filename, dtype=dtypes.string, name="filename")

    def _captures(self):
        return [self._filename]

    def _iterate(self, ctx, capture_values):
        filename = _scalar(capture_values[0])
        filename = filename.decode("utf-8") if isinstance(filename, bytes) else str(filename)
        if filename:
            return self._file_cache(ctx, filename)
        return self._memory_cache(ctx)

    def _memory_cache(self, ctx):
        st = ctx.dataset_state(self, dict)
        if "elements" in st:
            yield from st["elements"]
            return
        elements = []
        with ctx.open(self._input) as it:
            for el in it:
                el = tuple(_readonly(np.asarray(c)) for c in el)
                elements.append(el)
                yield el
        st["elements"] = elements

    def _file_cache(self, ctx, prefix):
        """Reads the cache files of `prefix` if they exist, else writes them while passing the input
        through (`cache_format`: plain bytes, no pickle); a partial cache is removed."""
        index = cache_format.index_filename(prefix)
        data = cache_format.data_filename(prefix)
        width = len(structure.component_specs(self._element_structure))
        if gfile.exists(index):
            yield from cache_format.read_cache(prefix, width)
            return
        tmp = data + ".tmp-%d-%d" % (os.getpid(), threading.get_ident())
        try:
            f = gfile.open_raw(tmp, "wb", os_errors=True)
        except (OSError, errors.OpError) as e:
            raise errors.NotFoundError(None, None, "Failed to create cache file %s: %s" % (tmp, e)) from e
        complete = False
        count = 0
        try:
            with f, ctx.open(self._input) as it:
                f.write(cache_format.MAGIC)
                for el in it:
                    f.write(b"".join(cache_format.encode_component(c, "component %d of element %d" % (j, count))
                                     for j, c in enumerate(el)))
                    count += 1
                    yield el
            complete = True
        finally:
            if complete:
                gfile.rename(tmp, data, overwrite=True)
                cache_format.write_index(index, count, width)
            elif gfile.exists(tmp):
                gfile.remove(tmp)


class _PrefetchDataset(_UnaryDataset):

    def __init__(self, input_dataset, buffer_size):
        super().__init__(input_dataset)
        self._buffer_size = _int64(buffer_size, "buffer_size")

    def _captures(self):
        return [self._buffer_size]

    def _validate(self, capture_values):
        if int(capture_values[0]) < 0 and int(capture_values[0]) != AUTOTUNE:
            raise _invalid("buffer_size must be >= 0 or AUTOTUNE, got %d" % int(capture_values[0]))

    def _iterate(self, ctx, capture_values):
        size = int(capture_values[0])
        if size == 0:
            return ctx.iterate(self._input)
        if size == AUTOTUNE:
            size = _AUTOTUNE_PREFETCH
        return _Prefetcher(ctx, ctx.iterate(self._input), size)


class _Raised:
    __slots__ = ("error",)

    def __init__(self, error):
        self.error = error


class _Prefetcher:
    """Runs an iterator on a background thread into a bounded buffer. Errors reach the consumer in
    order; the thread ends when the input does or `close()` is called."""

    def __init__(self, ctx, it, buffer_size, start=False):
        self._ctx = ctx
        self._it = it
        self._size = max(1, buffer_size)
        self._buf = collections.deque()
        self._cond = threading.Condition()
        self._done = False
        self._stop = False
        self._thread = None
        ctx.register(self)
        if start:
            self._start()

    def _start(self):
        self._thread = threading.Thread(target=self._run, name="tensorweave-data-prefetch", daemon=True)
        self._thread.start()

    def _run(self):
        try:
            with fpstate.quiet():
                while not self._stop:
                    try:
                        el = next(self._it)
                    except StopIteration:
                        break
                    except Exception as e:  # delivered to the consumer in order
                        el = _Raised(e)
                    with self._cond:
                        while len(self._buf) >= self._size and not self._stop:
                            self._cond.wait()
                        if self._stop:
                            break
                        self._buf.append(el)
                        self._cond.notify_all()
        finally:
            close_iterator(self._it)
            with self._cond:
                self._done = True
                self._cond.notify_all()

    def __iter__(self):
        return self

    def __next__(self):
        if self._thread is None:
            if self._stop:
                raise StopIteration
            self._start()
        with self._cond:
            while not self._buf and not self._done:
                self._cond.wait()
            if not self._buf:
                self._ctx.unregister(self)
                raise StopIteration
            el = self._buf.popleft()
            self._cond.notify_all()
        if type(el) is _Raised:
            raise el.error
        return el

    def close(self):
        with self._cond:
            self._stop = True
            self._buf.clear()
            self._cond.notify_all()
        t = self._thread
        if t is not None and t is not threading.current_thread():
            t.join(_JOIN_TIMEOUT)
        elif t is None:
            close_iterator(self._it)
        self._ctx.unregister(self)
