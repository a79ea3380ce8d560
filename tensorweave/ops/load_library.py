"""`tf.load_op_library`: ops whose kernels are compiled C or C++, loaded from a shared library.

The library follows the small C ABI of `tensorweave/include/tensorweave_op.h` (documented in
docs/custom_ops_c_abi.md): it exports `tw_op_list`, a table of op descriptors (type name, inputs
with their allowed dtypes, outputs with their dtypes, an optional shape function, the kernel). Each
op becomes a registered op type; `load_op_library` returns a module whose attributes are the ops'
snake_case constructors (`ZeroOut` -> `zero_out(to_zero, name=None)`), as TensorFlow's does.
Gradients are registered in Python with `@tf.RegisterGradient("ZeroOut")`.

Kernels are called through ctypes, which releases the GIL for the call: NumPy allocates the
outputs (shaped by the shape function) and the kernel fills them.
"""

import ctypes
import errno
import inspect
import keyword
import os
import re
import threading
import types
from collections import namedtuple

import numpy as np

from ..framework import dtypes, errors, ops, registry

__all__ = ["load_library", "load_op_library"]

ABI_VERSION = 1
MAX_RANK = 32
_ERR_LEN = 1024
_MAX_ARGS = 256


# tw_tensor and tw_shape arrays are built as NumPy structured arrays (much cheaper per call than
# ctypes structures) and handed to C by address.
_TENSOR = np.dtype([("data", np.uintp), ("dtype", np.int32), ("ndim", np.int32), ("shape", np.uintp)], align=True)
_SHAPE = np.dtype([("ndim", np.int32), ("dims", np.int64, (MAX_RANK,))], align=True)
_SHAPE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                             ctypes.c_char_p, ctypes.c_size_t)
_KERNEL_FN = _SHAPE_FN  # the same C signature, over tw_tensor arrays


class _OpDef(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("num_inputs", ctypes.c_int32), ("num_outputs", ctypes.c_int32),
                ("input_names", ctypes.POINTER(ctypes.c_char_p)), ("input_types", ctypes.POINTER(ctypes.c_uint32)),
                ("output_names", ctypes.POINTER(ctypes.c_char_p)), ("output_types", ctypes.POINTER(ctypes.c_int32)),
                ("shape_fn", _SHAPE_FN), ("kernel", _KERNEL_FN), ("doc", ctypes.c_char_p)]


# The element types of the ABI, by TensorFlow DataType number.
_TYPES = {d.as_datatype_enum: d for d in (dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int8, dtypes.int16,
                                          dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16, dtypes.bool_,
                                          dtypes.complex64, dtypes.complex128)}
_ENUM_OF_NP = {np.dtype(d.as_numpy_dtype): e for e, d in _TYPES.items()}
_OP_NAME = re.compile(r"^[A-Z][A-Za-z0-9_]*$")

_lock = threading.Lock()
_local = threading.local()
_loaded = {}  # library key -> module
_library_ops = {}  # op type -> path of the library that defined it


def snake_case(op_type):
    """The Python function name TensorFlow generates for `op_type` ("MatMul" -> "mat_mul", "Conv2D" -> "conv2d")."""
    out = []
    for i, c in enumerate(op_type):
        if c.isupper() and i > 0 and op_type[i - 1] != "_" and (
                op_type[i - 1].islower() or (i + 1 < len(op_type) and op_type[i + 1].islower())):
            out.append("_")
        out.append(c.lower())
    name = "".join(out)
    return name + "_" if keyword.iskeyword(name) else name


def _type_names(allowed):
    return ", ".join(d.name for d in allowed)


def _error_text(buf, what, rc):
    text = buf.value.decode("utf-8", "replace").strip()
    return text or "%s failed (returned %d)" % (what, rc)


class _LibraryOp:
    """One op of a loaded library: its registry `infer` and `kernel`, and its Python constructor."""

    def __init__(self, path, d):
        self.path = path
        self.type = d.name.decode("utf-8", "replace") if d.name else None
        if self.type is None or not _OP_NAME.match(self.type):
            self._bad("its name %r is not a CamelCase op type name" % self.type)
        n_in, n_out = d.num_inputs, d.num_outputs
        if not 0 <= n_in <= _MAX_ARGS or not 1 <= n_out <= _MAX_ARGS:
            self._bad("num_inputs=%d, num_outputs=%d: an op has 0..%d inputs and 1..%d outputs"
                      % (n_in, n_out, _MAX_ARGS, _MAX_ARGS))
        self.input_names = self._names(d.input_names, n_in, "input")
        self.output_names = self._names(d.output_names, n_out, "output")
        if n_in and not d.input_types:
            self._bad("input_types is NULL")
        self.input_types = []
        for i in range(n_in):
            mask = d.input_types[i]
            allowed = tuple(t for e, t in sorted(_TYPES.items()) if mask >> e & 1)
            if not allowed or mask & ~sum(1 << e for e in _TYPES):
                self._bad("input_types[%d] = 0x%x is not a nonempty set of TW_TYPE bits" % (i, mask))
            self.input_types.append(allowed)
        if not d.output_types:
            self._bad("output_types is NULL")
        self.output_types = []
        for i in range(n_out):
            t = d.output_types[i]
            if t < 0 and -1 - t < n_in:
                self.output_types.append(-1 - t)
            elif t in _TYPES:
                self.output_types.append(_TYPES[t])
            else:
                self._bad("output_types[%d] = %d is neither a TW_* type nor TW_SAME_AS_INPUT(i) of an input"
                          % (i, t))
        self.shape_fn = d.shape_fn if d.shape_fn else None
        if self.shape_fn is None and n_in == 0:
            self._bad("an op without inputs needs a shape function")
        if not d.kernel:
            self._bad("kernel is NULL")
        self.c_kernel = d.kernel
        self.doc = d.doc.decode("utf-8", "replace") if d.doc else ""
        self.outputs_tuple = namedtuple(self.type, self.output_names) if n_out > 1 else None

    def _bad(self, what):
        raise errors.InvalidArgumentError(None, None, "%s: op %s in tw_op_list: %s." % (self.path, self.type, what))

    def _names(self, ptr, n, kind):
        if not ptr:
            return ["%s_%d" % (kind, i) for i in range(n)]
        names = []
        for i in range(n):
            raw = ptr[i]
            name = raw.decode("utf-8", "replace") if raw else None
            if (not name or not name.isidentifier() or keyword.iskeyword(name) or name.startswith("_")
                    or name == "name" or name in names):
                self._bad("%s_names[%d] = %r is not a distinct Python identifier (without a leading _, "
                          "not 'name')" % (kind, i, name))
            names.append(name)
        return names

    # ---- dtypes and shapes ----
    def check_dtype(self, i, dtype):
        """Raises TypeError, as TF's op constructors do, if input `i` may not have `dtype`."""
        allowed = self.input_types[i]
        if dtype in allowed:
            return
        if len(allowed) == 1:
            raise TypeError("Input '%s' of '%s' Op has type %s that does not match expected type of %s."
                            % (self.input_names[i], self.type, dtype.name, allowed[0].name))
        raise TypeError("Value passed to parameter '%s' has DataType %s not in list of allowed values: %s"
                        % (self.input_names[i], dtype.name, _type_names(allowed)))

    def output_shapes(self, shapes, exc):
        """Runs the shape function on `shapes` (tuples with None for unknown sizes, or None for an
        unknown rank); raises `exc(message)` if it fails or returns no valid shape."""
        if self.shape_fn is None:
            return [shapes[0]] * len(self.output_types)
        n_in, n_out = len(shapes), len(self.output_types)
        table = np.zeros(n_in + n_out, _SHAPE)
        table["ndim"] = -1
        for i, shape in enumerate(shapes):
            if shape is None:
                continue
            if len(shape) > MAX_RANK:
                raise exc("%s supports inputs of rank at most %d, got rank %d" % (self.type, MAX_RANK, len(shape)))
            table["ndim"][i] = len(shape)
            table["dims"][i, :len(shape)] = [-1 if size is None else size for size in shape]
        err = _error_buffer()
        address = table.ctypes.data
        rc = self.shape_fn(address, n_in, address + n_in * _SHAPE.itemsize, n_out, err, _ERR_LEN)
        if rc:
            raise exc(_error_text(err, "The shape function of %s" % self.type, rc))
        result = []
        for i, (ndim, dims) in enumerate(table[n_in:].tolist()):
            if ndim == -1:
                result.append(None)
                continue
            dims = dims[:max(0, min(ndim, MAX_RANK))]
            if not 0 <= ndim <= MAX_RANK or any(size < -1 for size in dims):
                raise exc("The shape function of %s returned an invalid shape for output %d (rank %d, sizes %s)"
                          % (self.type, i, ndim, dims))
            result.append(tuple(None if size == -1 else size for size in dims))
        return result

    def output_dtypes(self, input_dtypes):
        return [input_dtypes[t] if isinstance(t, int) else t for t in self.output_types]

    # ---- registry entry points ----
    def infer(self, op):
        inputs = op._inputs
        if len(inputs) != len(self.input_types):
            raise ValueError("%s takes %d inputs, got %d" % (self.type, len(self.input_types), len(inputs)))
        in_dtypes = [t.dtype.base_dtype for t in inputs]
        for i, dt in enumerate(in_dtypes):
            self.check_dtype(i, dt)
        shapes = self.output_shapes([t._shape.as_tuple() for t in inputs], ValueError)
        return list(zip(self.output_dtypes(in_dtypes), shapes))

    def kernel(self, xp, *arrays):  # host only: library ops have no accelerator kernels
        arrays = [np.asarray(a, order="C") for a in arrays]
        enums = []
        for i, a in enumerate(arrays):
            e = _ENUM_OF_NP.get(a.dtype)
            if e is None or _TYPES[e] not in self.input_types[i]:
                raise errors.InvalidArgumentError(None, None, "%s: input '%s' has dtype %s, expected one of: %s"
                                                  % (self.type, self.input_names[i], a.dtype,
                                                     _type_names(self.input_types[i])))
            enums.append(e)
        shapes = self.output_shapes([a.shape for a in arrays], lambda m: errors.InvalidArgumentError(None, None, m))
        for i, shape in enumerate(shapes):
            if shape is None or None in shape:
                raise errors.InvalidArgumentError(None, None, "The shape function of %s left output %d's shape %s "
                                                  "unknown for input shapes %s"
                                                  % (self.type, i, shape, [a.shape for a in arrays]))
        out_dtypes = self.output_dtypes([_TYPES[e] for e in enums])
        outputs = [np.empty(s, d.as_numpy_dtype) for s, d in zip(shapes, out_dtypes)]
        everything = arrays + outputs
        sizes = np.array([size for a in everything for size in a.shape] or [0], np.int64)
        at = sizes.ctypes.data
        records = []
        for a, e in zip(everything, enums + [d.as_datatype_enum for d in out_dtypes]):
            records.append((a.ctypes.data, e, a.ndim, at))
            at += 8 * a.ndim
        table = np.array(records, _TENSOR)
        err = _error_buffer()
        address = table.ctypes.data
        rc = self.c_kernel(address, len(arrays), address + len(arrays) * _TENSOR.itemsize, len(outputs), err,
                           _ERR_LEN)
        if rc:
            raise errors.InvalidArgumentError(None, None, _error_text(err, "The kernel of %s" % self.type, rc))
        return outputs[0] if len(outputs) == 1 else tuple(outputs)

    # ---- the Python constructor ----
    def constructor(self):
        """The op's snake_case function: `fn(<input names>..., name=None)`."""
        P = inspect.Parameter
        sig = inspect.Signature([P(n, P.POSITIONAL_OR_KEYWORD) for n in self.input_names]
                                + [P("name", P.POSITIONAL_OR_KEYWORD, default=None)])
        spec = self

        def op_constructor(*args, **kwargs):
            bound = sig.bind(*args, **kwargs)
            values = [bound.arguments[n] for n in spec.input_names]
            with ops.name_scope(bound.arguments.get("name"), spec.type, values) as scope:
                tensors = []
                for i, v in enumerate(values):
                    allowed = spec.input_types[i]
                    t = ops.convert_to_tensor(v, name=spec.input_names[i],
                                              preferred_dtype=allowed[0] if len(allowed) == 1 else None)
                    spec.check_dtype(i, t.dtype.base_dtype)
                    tensors.append(t)
                out = ops.apply_op(spec.type, tensors, name=scope)
            return spec.outputs_tuple(*out) if spec.outputs_tuple else out

        op_constructor.__name__ = op_constructor.__qualname__ = snake_case(self.type)
        op_constructor.__signature__ = sig
        op_constructor.__doc__ = self._docstring()
        return op_constructor

    def _docstring(self):
        args = []
        for n, allowed in zip(self.input_names, self.input_types):
            kinds = (" of type `%s`." % allowed[0].name if len(allowed) == 1 else
                     ". Must be one of the following types: %s." % ", ".join("`%s`" % d.name for d in allowed))
            args.append("      %s: A `Tensor`%s" % (n, kinds))
        outs = []
        for n, t in zip(self.output_names, self.output_types):
            kind = "Has the same type as `%s`" % self.input_names[t] if isinstance(t, int) else "Of type `%s`" % t.name
            outs.append("      %s: A `Tensor`. %s." % (n, kind))
        return ("%s\n\n    Op %s, loaded from %s.\n\n    Args:\n%s\n      name: A name for the operation (optional)."
                "\n\n    Returns:\n%s\n" % (self.doc or "The %s op." % self.type, self.type, self.path,
                                            "\n".join(args), "\n".join(outs)))


def _error_buffer():
    """This thread's buffer for C error messages, emptied."""
    buf = getattr(_local, "err", None)
    if buf is None:
        buf = _local.err = ctypes.create_string_buffer(_ERR_LEN)
    buf[0] = b"\0"
    return buf


def _read_op_list(lib, path):
    try:
        op_list = lib.tw_op_list
    except AttributeError:
        raise errors.NotFoundError(
            None, None, "%s: undefined symbol: tw_op_list (a tensorweave op library exports its ops with "
            "TW_OP_LIST(table) from tensorweave_op.h; see tf.sysconfig.get_include())" % path) from None
    op_list.restype = ctypes.c_int32
    op_list.argtypes = [ctypes.POINTER(ctypes.POINTER(_OpDef)), ctypes.POINTER(ctypes.c_int32)]
    table = ctypes.POINTER(_OpDef)()
    count = ctypes.c_int32(0)
    version = op_list(ctypes.byref(table), ctypes.byref(count))
    if version != ABI_VERSION:
        raise errors.FailedPreconditionError(
            None, None, "%s was built for tensorweave op ABI version %d; this tensorweave loads version %d: "
            "rebuild it against tf.sysconfig.get_include()" % (path, version, ABI_VERSION))
    if count.value < 0 or (count.value and not table):
        raise errors.InvalidArgumentError(None, None, "%s: tw_op_list returned an invalid table (%d ops)"
                                          % (path, count.value))
    specs = [_LibraryOp(path, table[i]) for i in range(count.value)]
    seen = set()
    for s in specs:
        if s.type in seen:
            raise errors.InvalidArgumentError(None, None, "%s: op %s is defined twice in tw_op_list" % (path, s.type))
        seen.add(s.type)
    return specs


def load_op_library(library_filename):
    """Loads a shared library of custom ops and kernels (compiled against `tensorweave_op.h`).

    The path goes to the platform's dynamic loader as is (so a bare file name is searched on the
    library path, not in the working directory, as with TensorFlow: write "./libzero_out.so").
    Each op in the library's `tw_op_list` becomes an op type; loading the same file again returns
    the same module. An op type already defined by another loaded library is redefined by this one
    (its gradient stays registered); one defined by tensorweave itself is rejected.

    Args:
      library_filename: Path to the library.

    Returns:
      A module whose attributes are the ops' constructors, named in snake_case
      (`zero_out_module.zero_out(x)` for op type "ZeroOut").

    Raises:
      NotFoundError: If the library cannot be loaded, or does not export `tw_op_list`.
      FailedPreconditionError: If it was built for another version of the ABI.
      InvalidArgumentError: If an op descriptor in it is invalid.
      AlreadyExistsError: If it defines an op type that tensorweave already has.
    """
    path = os.fspath(library_filename)
    key = os.path.realpath(path) if os.path.exists(path) else path
    with _lock:
        module = _loaded.get(key)
        if module is not None:
            return module
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise errors.NotFoundError(None, None, str(e)) from None
        specs = _read_op_list(lib, path)
        for s in specs:
            if s.type not in _library_ops and s.type in registry.list_ops():
                raise errors.AlreadyExistsError(None, None, "%s: Op with name %s already registered" % (path, s.type))
        name = os.path.splitext(os.path.basename(path))[0]
        module = types.ModuleType(name, "Ops loaded from %s: %s." % (path, ", ".join(s.type for s in specs)))
        module.__file__ = path
        module._library = lib
        for s in specs:
            registry.register_op(s.type, infer=s.infer, kernel=s.kernel, override=s.type in _library_ops)
            _library_ops[s.type] = path
            setattr(module, snake_case(s.type), s.constructor())
        _loaded[key] = module
        return module


def load_library(library_location):
    """Loads a custom-op library, or every library named `libtfkernel*` in a folder.

    Args:
      library_location: Path to a library file or to a folder of them.

    Returns:
      None (use `load_op_library` to get the ops' constructors).

    Raises:
      OSError: If `library_location` does not exist.
      NotFoundError: If a library cannot be loaded (see `load_op_library` for the others).
    """
    path = os.fspath(library_location)
    if os.path.isdir(path):
        files = sorted(os.path.join(path, f) for f in os.listdir(path) if f.startswith("libtfkernel"))
    elif os.path.exists(path):
        files = [path]
    else:
        raise OSError(errno.ENOENT, "The file or folder to load kernel libraries from does not exist.", path)
    for f in files:
        load_op_library(f)
