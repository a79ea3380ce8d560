"""`tf.data` pipelines: source datasets (from_tensors, from_tensor_slices, range,
from_generator, list_files) and the dataset a variant tensor holds."""

import numpy as np

from ..framework import dtypes, errors, ops
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_spec import TensorSpec
from . import structure
from .dataset_base import Dataset, _int64
from .dataset_runtime import _invalid, _readonly_view, _scalar
from .structure import SparseTensorSpec


# ---- sources ---------------------------------------------------------------------------------------
def _glob(pattern):
    from ..platform import gfile
    return gfile.glob(pattern)


class _TensorDataset(Dataset):
    """One element."""

    def __init__(self, element):
        super().__init__()
        with ops.name_scope("tensors"):
            element = structure.normalize_element(element)
        self._element_structure = structure.structure_of(element)
        self._components = structure.to_components(self._element_structure, element)

    def _captures(self):
        return self._components

    def _iterate(self, ctx, capture_values):
        return iter([tuple(_readonly_view(v) for v in capture_values)])


def _slice_sparse(indices, values, dense_shape, i):
    rows = indices[:, 0] == i
    return (np.ascontiguousarray(indices[rows, 1:]), values[rows], dense_shape[1:].copy())


class _TensorSliceDataset(Dataset):
    """Slices along the first dimension."""

    def __init__(self, element):
        super().__init__()
        with ops.name_scope("tensors"):
            element = structure.normalize_element(element)
        specs = []
        batch_dim = TensorShape([None])
        for leaf in structure.flatten(element):
            shape = TensorShape(leaf.shape)
            if shape.ndims == 0:
                raise ValueError("Shape must be at least rank 1 but is rank 0 for 'TensorSliceDataset'; slicing "
                                 "needs every component to have a first dimension.")
            if shape.ndims is not None:
                if not batch_dim.is_compatible_with(shape[:1]):
                    raise ValueError("Dimensions %s and %s are not compatible" % (batch_dim[0], shape[0]))
                batch_dim = batch_dim.merge_with(shape[:1])
            spec = structure.spec_of(leaf)
            sub = shape[1:]
            specs.append(SparseTensorSpec(sub, spec.dtype) if isinstance(spec, SparseTensorSpec)
                         else TensorSpec(sub, spec.dtype))
        self._full_structure = structure.structure_of(element)
        self._element_structure = structure.pack_sequence_as(element, specs)
        self._components = structure.to_components(self._full_structure, element)

    def _captures(self):
        return self._components

    def _validate(self, capture_values):
        self._length(capture_values)

    def _length(self, capture_values):
        sizes = []
        i = 0
        for spec in structure.flatten(self._full_structure):
            if isinstance(spec, SparseTensorSpec):
                sizes.append(int(capture_values[i + 2][0]))
                i += 3
            else:
                sizes.append(capture_values[i].shape[0])
                i += 1
        if any(s != sizes[0] for s in sizes):
            raise _invalid("All components must have the same size in the 0th dimension, got %s" % sizes)
        return sizes[0] if sizes else 0

    def _iterate(self, ctx, capture_values):
        n = self._length(capture_values)
        specs = structure.flatten(self._full_structure)
        if not any(isinstance(s, SparseTensorSpec) for s in specs):
            comps = [_readonly_view(c) for c in capture_values]
            return (tuple([c[i, ...] for c in comps]) for i in range(n))
        return self._iterate_sparse(specs, capture_values, n)

    def _iterate_sparse(self, specs, capture_values, n):
        for i in range(n):
            out = []
            j = 0
            for spec in specs:
                if isinstance(spec, SparseTensorSpec):
                    out.extend(_slice_sparse(capture_values[j], capture_values[j + 1], capture_values[j + 2], i))
                    j += 3
                else:
                    out.append(capture_values[j][i, ...])
                    j += 1
            yield tuple(out)


class _RangeDataset(Dataset):
    """int64 values start, start + step, ... below stop."""

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1:
            start, stop, step = 0, args[0], 1
        elif len(args) == 2:
            start, stop, step = args[0], args[1], 1
        elif len(args) == 3:
            start, stop, step = args
        else:
            raise ValueError("Invalid arguments to RangeDataset: %s" % (args,))
        self._args = [_int64(start, "start"), _int64(stop, "stop"), _int64(step, "step")]
        self._element_structure = TensorSpec([], dtypes.int64)

    def _captures(self):
        return self._args

    def _validate(self, capture_values):
        if int(capture_values[2]) == 0:
            raise _invalid("step must be a non-zero integer.")

    def _iterate(self, ctx, capture_values):
        start, stop, step = (int(v) for v in capture_values)
        return ((np.asarray(i, np.int64),) for i in range(start, stop, step))


class _GeneratorDataset(Dataset):
    """Elements from a Python generator, checked against `output_types`/`output_shapes`."""

    def __init__(self, generator, output_types, output_shapes, args):
        super().__init__()
        if not callable(generator):
            raise TypeError("`generator` must be callable.")
        self._generator = generator
        self._element_structure = structure.from_legacy(output_types, output_shapes)
        self._types_nest = structure.get_types(self._element_structure)
        if args is None:
            self._args = []
        else:
            args = tuple(args) if isinstance(args, (list, tuple)) else (args,)
            self._args = [ops.convert_to_tensor(a, name="generator_arg") for a in args]

    def _captures(self):
        return self._args

    def _iterate(self, ctx, capture_values):
        args = [_scalar(v) if v.ndim == 0 else v for v in capture_values]
        try:
            it = iter(self._generator(*args))
        except Exception as e:
            raise errors.from_python_exception(e)(None, None, "%s: %s" % (type(e).__name__, e)) from e
        return self._checked(it)

    def _checked(self, it):
        specs = structure.flatten(self._element_structure)
        try:
            while True:
                try:
                    value = next(it)
                except StopIteration:
                    return
                except Exception as e:
                    raise errors.from_python_exception(e)(None, None, "%s: %s" % (type(e).__name__, e)) from e
                yield self._convert(value, specs)
        finally:
            close = getattr(it, "close", None)
            if close is not None:
                close()

    def _convert(self, value, specs):
        try:
            flat = structure.flatten_up_to(self._types_nest, value)
        except (TypeError, ValueError):
            raise _invalid("TypeError: `generator` yielded an element that did not match the expected structure. The "
                           "expected structure was %s, but the yielded element was %s." % (self._types_nest, value))
        out = []
        for v, spec in zip(flat, specs):
            dt = spec.dtype
            try:
                if dt is dtypes.string:
                    from ..framework.constant_op import to_numpy
                    a = to_numpy(v, dtypes.string)
                else:
                    a = np.asarray(v, dtype=dt.as_numpy_dtype)
            except (TypeError, ValueError, OverflowError):
                raise _invalid("TypeError: `generator` yielded an element that could not be converted to the expected "
                               "type. The expected type was %s, but the yielded element was %s." % (dt.name, v))
            if not spec.shape.is_compatible_with(TensorShape(a.shape)):
                raise _invalid("ValueError: `generator` yielded an element of shape %s where an element of shape %s "
                               "was expected." % (TensorShape(a.shape), spec.shape))
            out.append(a)
        return tuple(out)


class _MatchingFilesDataset(Dataset):
    """The sorted file names matching glob patterns."""

    def __init__(self, patterns):
        super().__init__()
        self._patterns = ops.convert_to_tensor(patterns, dtype=dtypes.string, name="file_pattern")
        self._element_structure = TensorSpec([], dtypes.string)

    def _captures(self):
        return [self._patterns]

    def _validate(self, capture_values):
        if not self._match(capture_values[0]):
            raise _invalid("No files matched pattern: %s"
                           % ", ".join(p.decode("utf-8", "replace") for p in capture_values[0].ravel()))

    @staticmethod
    def _match(patterns):
        names = []
        for p in patterns.ravel():
            p = p.decode("utf-8") if isinstance(p, bytes) else str(p)
            names.extend(_glob(p))
        return sorted(names)

    def _iterate(self, ctx, capture_values):
        return ((np.array(n.encode("utf-8"), dtype=object),) for n in self._match(capture_values[0]))


class _VariantDataset(Dataset):
    """A dataset carried as an element component (a `window`): its value holds its elements."""

    def __init__(self, variant, element_spec):
        super().__init__()
        self._variant = variant
        self._element_structure = element_spec

    def _captures(self):
        return [self._variant]

    def _iterate(self, ctx, capture_values):
        return iter(capture_values[0][()])
