"""`tf.data` pipelines: batching (batch, padded_batch, unbatch, window) and order and count
(shuffle, repeat, take, skip, shard)."""

import collections
import itertools
import random

import numpy as np

from ..framework import dtypes, ops, tensor_util
from ..framework.tensor_shape import TensorShape, as_shape
from ..framework.tensor_spec import TensorSpec
from . import structure
from .dataset_base import _bool_arg, _int64, _static_int
from .dataset_runtime import _invalid
from .dataset_transformations import _UnaryDataset
from .structure import DatasetSpec, SparseTensorSpec


# ---- batching ----------------------------------------------------------------------------------
def _batch_dense(arrays, component):
    try:
        return np.stack(arrays)
    except ValueError:
        first = np.shape(arrays[0])
        for i, a in enumerate(arrays):
            if np.shape(a) != first:
                raise _invalid("Cannot batch tensors with different shapes in component %d. First element had shape "
                               "%s and element %d had shape %s." % (component, list(first), i, list(np.shape(a))))
        raise


def _batch_sparse(parts, component):
    """Stacks SparseTensor values (indices, values, dense_shape) along a new first dimension."""
    ranks = {len(p[2]) for p in parts}
    if len(ranks) != 1:
        raise _invalid("Cannot batch SparseTensors of different ranks in component %d." % component)
    rank = ranks.pop()
    idx = [np.concatenate([np.full((len(p[0]), 1), b, np.int64), np.reshape(p[0], (-1, rank))], axis=1)
           for b, p in enumerate(parts)]
    indices = np.concatenate(idx, axis=0) if idx else np.zeros((0, rank + 1), np.int64)
    values = np.concatenate([p[1] for p in parts])
    shape = np.max(np.stack([p[2] for p in parts]), axis=0) if rank else np.zeros([0], np.int64)
    return [indices.astype(np.int64), values, np.concatenate([[len(parts)], shape]).astype(np.int64)]


def _batch_elements(elements, specs):
    out = []
    j = 0
    for spec in specs:
        if isinstance(spec, SparseTensorSpec):
            out.extend(_batch_sparse([e[j:j + 3] for e in elements], j))
            j += 3
        else:
            out.append(_batch_dense([e[j] for e in elements], j))
            j += 1
    return tuple(out)


def _batched_structure(element_structure, batch_dim):
    def batched(spec):
        if isinstance(spec, DatasetSpec):
            raise TypeError("Batching a dataset of datasets is not supported.")
        return type(spec)(TensorShape([batch_dim]).concatenate(spec.shape), spec.dtype)
    return structure.map_structure(batched, element_structure)


class _BatchDataset(_UnaryDataset):

    def __init__(self, input_dataset, batch_size, drop_remainder):
        super().__init__(input_dataset)
        self._batch_size = _int64(batch_size, "batch_size")
        self._drop_remainder = _bool_arg(drop_remainder, "drop_remainder")
        drop = tensor_util.constant_value(self._drop_remainder)
        batch_dim = _static_int(self._batch_size) if drop else None
        self._element_structure = _batched_structure(input_dataset._element_structure, batch_dim)

    def _captures(self):
        return [self._batch_size, self._drop_remainder]

    def _validate(self, capture_values):
        if int(capture_values[0]) <= 0:
            raise _invalid("Batch size must be greater than zero.")

    def _iterate(self, ctx, capture_values):
        size = int(capture_values[0])
        drop = bool(capture_values[1])
        specs = structure.flatten(self._input._element_structure)
        with ctx.open(self._input) as it:
            while True:
                batch = list(itertools.islice(it, size))
                if not batch or (drop and len(batch) < size):
                    return
                yield _batch_elements(batch, specs)


def _padded_shape_tensor(shape, name):
    if ops.is_tensor(shape):
        return ops.convert_to_tensor(shape, dtype=dtypes.int64, name=name)
    shape = as_shape(shape)
    if shape.ndims is None:
        raise ValueError("Padded shape %s must have a known rank." % shape)
    return ops.convert_to_tensor([-1 if d is None else d for d in shape.as_list()], dtype=dtypes.int64, name=name)


class _PaddedBatchDataset(_UnaryDataset):

    def __init__(self, input_dataset, batch_size, padded_shapes, padding_values, drop_remainder):
        super().__init__(input_dataset)
        in_structure = input_dataset._element_structure
        specs = structure.flatten(in_structure)
        for spec in specs:
            if not isinstance(spec, TensorSpec):
                raise TypeError("padded_batch supports dense tensor components only, got %s" % (spec,))
        if padded_shapes is None:
            for spec in specs:
                if spec.shape.ndims is None:
                    raise ValueError("You must provide `padded_shapes` for components of unknown rank.")
            padded_shapes = structure.map_structure(lambda s: [None] * s.shape.ndims, in_structure)
        flat_shapes = structure.flatten_up_to(in_structure, padded_shapes)
        self._shapes = []
        out_shapes = []
        for i, (spec, shape) in enumerate(zip(specs, flat_shapes)):
            t = _padded_shape_tensor(shape, "padded_shape_%d" % i)
            static = tensor_util.constant_value_as_shape(t)
            if not static.is_compatible_with(spec.shape):
                raise ValueError("The padded shape %s is not compatible with the corresponding input component shape "
                                 "%s." % (static, spec.shape))
            self._shapes.append(t)
            out_shapes.append(static)
        if padding_values is None:
            flat_values = [None] * len(specs)
        else:
            flat_values = structure.flatten_up_to(in_structure, padding_values)
        self._values = []
        for i, (spec, v) in enumerate(zip(specs, flat_values)):
            if v is None:
                v = np.array(b"" if spec.dtype is dtypes.string else 0).astype(structure.np_dtype(spec.dtype))
            t = ops.convert_to_tensor(v, name="padding_value_%d" % i)
            if not t.shape.is_compatible_with(TensorShape([])):
                raise ValueError("Padding value should be a scalar, but is not: %s" % (t,))
            if t.dtype is not spec.dtype:
                raise TypeError("Padding value tensor (%s) does not match output type: %s" % (t, spec.dtype))
            self._values.append(t)
        self._batch_size = _int64(batch_size, "batch_size")
        self._drop_remainder = _bool_arg(drop_remainder, "drop_remainder")
        drop = tensor_util.constant_value(self._drop_remainder)
        batch_dim = _static_int(self._batch_size) if drop else None
        self._element_structure = structure.pack_sequence_as(
            in_structure, [TensorSpec(TensorShape([batch_dim]).concatenate(s), spec.dtype)
                           for s, spec in zip(out_shapes, specs)])

    def _captures(self):
        return [self._batch_size, self._drop_remainder] + self._shapes + self._values

    def _validate(self, capture_values):
        if int(capture_values[0]) <= 0:
            raise _invalid("Batch size must be greater than zero.")

    def _iterate(self, ctx, capture_values):
        size = int(capture_values[0])
        drop = bool(capture_values[1])
        n = len(self._shapes)
        shapes = capture_values[2:2 + n]
        values = capture_values[2 + n:]
        with ctx.open(self._input) as it:
            while True:
                batch = list(itertools.islice(it, size))
                if not batch or (drop and len(batch) < size):
                    return
                yield tuple(self._pad([e[j] for e in batch], shapes[j], values[j], j) for j in range(n))

    @staticmethod
    def _pad(arrays, padded_shape, value, component):
        rank = len(padded_shape)
        target = []
        for d in range(rank):
            sizes = [np.shape(a)[d] if np.ndim(a) == rank else None for a in arrays]
            if None in sizes:
                raise _invalid("All elements in a batch must have the same rank as the padded shape for component %d: "
                               "expected rank %d." % (component, rank))
            want = int(padded_shape[d])
            if want < 0:
                target.append(max(sizes))
            else:
                if max(sizes) > want:
                    raise _invalid("Attempted to pad to a smaller size than the input element.")
                target.append(want)
        out = np.full([len(arrays)] + target, value[()] if isinstance(value, np.ndarray) else value,
                      dtype=np.asarray(arrays[0]).dtype)
        for i, a in enumerate(arrays):
            out[(i,) + tuple(slice(0, s) for s in np.shape(a))] = a
        return out


class _UnbatchDataset(_UnaryDataset):

    def __init__(self, input_dataset):
        super().__init__(input_dataset)
        specs = structure.flatten(input_dataset._element_structure)
        for spec in specs:
            if not isinstance(spec, TensorSpec):
                raise TypeError("unbatch supports dense tensor components only, got %s" % (spec,))
            if spec.shape.ndims == 0:
                raise ValueError("Cannot unbatch an input with scalar components.")
        self._element_structure = structure.map_structure(lambda s: TensorSpec(s.shape[1:], s.dtype),
                                                          input_dataset._element_structure)

    def _iterate(self, ctx, capture_values):
        with ctx.open(self._input) as it:
            for el in it:
                sizes = {np.shape(c)[0] for c in el}
                if len(sizes) != 1:
                    raise _invalid("Input element must have the same batch size in each component. Component sizes: %s"
                                   % [np.shape(c)[0] for c in el])
                for i in range(sizes.pop()):
                    yield tuple(c[i, ...] for c in el)


class _WindowDataset(_UnaryDataset):

    def __init__(self, input_dataset, size, shift, stride, drop_remainder):
        super().__init__(input_dataset)
        self._size = _int64(size, "size")
        self._shift = _int64(size if shift is None else shift, "shift")
        self._stride = _int64(stride, "stride")
        self._drop_remainder = _bool_arg(drop_remainder, "drop_remainder")
        self._element_structure = structure.map_structure(DatasetSpec, input_dataset._element_structure)

    def _captures(self):
        return [self._size, self._shift, self._stride, self._drop_remainder]

    def _validate(self, capture_values):
        for name, v in zip(("size", "shift", "stride"), capture_values[:3]):
            if int(v) <= 0:
                raise _invalid("Window %s must be greater than zero, but got %d." % (name, int(v)))

    def _iterate(self, ctx, capture_values):
        size, shift, stride = (int(v) for v in capture_values[:3])
        drop = bool(capture_values[3])
        widths = [len(s._component_specs()) for s in structure.flatten(self._input._element_structure)]
        buf = collections.deque()
        base = 0  # input index of buf[0]
        start = 0
        exhausted = False
        with ctx.open(self._input) as it:
            while True:
                last = start + (size - 1) * stride
                while not exhausted and base + len(buf) <= last:
                    el = next(it, None)
                    if el is None:
                        exhausted = True
                    else:
                        buf.append(el)
                members = [buf[i - base] for i in range(start, last + 1, stride) if i < base + len(buf)]
                if not members or (drop and len(members) < size):
                    return
                out = []
                j = 0
                for w in widths:
                    holder = np.empty((), dtype=object)
                    holder[()] = [tuple(m[j:j + w]) for m in members]
                    out.append(holder)
                    j += w
                yield tuple(out)
                start += shift
                while buf and base < start:
                    buf.popleft()
                    base += 1


# ---- order and count ---------------------------------------------------------------------------
class _ShuffleDataset(_UnaryDataset):

    def __init__(self, input_dataset, buffer_size, seed, reshuffle_each_iteration):
        super().__init__(input_dataset)
        from ..ops.random_ops import get_seed
        self._buffer_size = _int64(buffer_size, "buffer_size")
        self._seeds = get_seed(seed)
        self._reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)

    def _captures(self):
        return [self._buffer_size]

    def _validate(self, capture_values):
        if int(capture_values[0]) <= 0:
            raise _invalid("buffer_size must be greater than zero.")

    def _seed_stream(self):
        seed, seed2 = self._seeds
        if seed is None and seed2 is None:
            return {"stream": random.Random(), "fixed": None}
        return {"stream": random.Random((int(seed) << 32) ^ int(seed2)), "fixed": None}

    def _iterate(self, ctx, capture_values):
        size = int(capture_values[0])
        st = ctx.dataset_state(self, self._seed_stream)
        if self._reshuffle:
            epoch_seed = st["stream"].getrandbits(64)
        else:
            if st["fixed"] is None:
                st["fixed"] = st["stream"].getrandbits(64)
            epoch_seed = st["fixed"]
        rng = random.Random(epoch_seed)
        buf = []
        with ctx.open(self._input) as it:
            for el in it:
                if len(buf) < size:
                    buf.append(el)
                    continue
                i = rng.randrange(len(buf))
                out, buf[i] = buf[i], el
                yield out
        while buf:
            i = rng.randrange(len(buf))
            buf[i], buf[-1] = buf[-1], buf[i]
            yield buf.pop()


class _RepeatDataset(_UnaryDataset):

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = _int64(-1 if count is None else count, "count")

    def _captures(self):
        return [self._count]

    def _iterate(self, ctx, capture_values):
        count = int(capture_values[0])
        epoch = 0
        while count < 0 or epoch < count:
            produced = False
            with ctx.open(self._input) as it:
                for el in it:
                    produced = True
                    yield el
            if not produced:  # an empty input repeated forever is empty
                return
            epoch += 1


class _TakeDataset(_UnaryDataset):

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = _int64(count, "count")

    def _captures(self):
        return [self._count]

    def _iterate(self, ctx, capture_values):
        count = int(capture_values[0])
        if count == 0:
            return
        with ctx.open(self._input) as it:
            for i, el in enumerate(it):
                yield el
                if i + 1 == count:
                    return


class _SkipDataset(_UnaryDataset):

    def __init__(self, input_dataset, count):
        super().__init__(input_dataset)
        self._count = _int64(count, "count")

    def _captures(self):
        return [self._count]

    def _iterate(self, ctx, capture_values):
        count = int(capture_values[0])
        with ctx.open(self._input) as it:
            if count < 0:
                for _ in it:
                    pass
                return
            for _ in itertools.islice(it, count):
                pass
            yield from it


class _ShardDataset(_UnaryDataset):

    def __init__(self, input_dataset, num_shards, index):
        super().__init__(input_dataset)
        self._num_shards = _int64(num_shards, "num_shards")
        self._index = _int64(index, "index")

    def _captures(self):
        return [self._num_shards, self._index]

    def _validate(self, capture_values):
        n, i = int(capture_values[0]), int(capture_values[1])
        if n <= 0:
            raise _invalid("Number of shards must be greater than zero (currently num_shards = %d)." % n)
        if not 0 <= i < n:
            raise _invalid("Index must be between 0 and %d (currently index = %d)." % (n - 1, i))

    def _iterate(self, ctx, capture_values):
        n, index = int(capture_values[0]), int(capture_values[1])
        with ctx.open(self._input) as it:
            yield from itertools.islice(it, index, None, n)
