"""TensorFlow's error classes and codes (`tf.errors`)."""

import re

OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class OpError(Exception):
    """A runtime error raised while running an op, as `tf.errors.OpError`.

    Args:
      node_def: Unused (kept for TF's signature).
      op: The `Operation` that failed, or None.
      message: The message.
      error_code: One of the codes in this module.
    """

    def __init__(self, node_def, op, message, error_code=UNKNOWN):
        super().__init__(message)
        self._node_def = node_def
        self._op = op
        self._message = message
        self._error_code = error_code

    @property
    def message(self):
        return self._message

    @property
    def op(self):
        return self._op

    @property
    def node_def(self):
        return self._node_def

    @property
    def error_code(self):
        return self._error_code

    def __str__(self):
        return self._message

    def __reduce__(self):
        return (type(self), (self._node_def, None, self._message))


def _make(name, code):
    def __init__(self, node_def, op, message, *args):
        OpError.__init__(self, node_def, op, message, code)

    cls = type(name, (OpError,), {"__init__": __init__, "__doc__": "TF's `%s` (code %d)." % (name, code)})
    return cls


CancelledError = _make("CancelledError", CANCELLED)
UnknownError = _make("UnknownError", UNKNOWN)
InvalidArgumentError = _make("InvalidArgumentError", INVALID_ARGUMENT)
DeadlineExceededError = _make("DeadlineExceededError", DEADLINE_EXCEEDED)
NotFoundError = _make("NotFoundError", NOT_FOUND)
AlreadyExistsError = _make("AlreadyExistsError", ALREADY_EXISTS)
PermissionDeniedError = _make("PermissionDeniedError", PERMISSION_DENIED)
ResourceExhaustedError = _make("ResourceExhaustedError", RESOURCE_EXHAUSTED)
FailedPreconditionError = _make("FailedPreconditionError", FAILED_PRECONDITION)
AbortedError = _make("AbortedError", ABORTED)
OutOfRangeError = _make("OutOfRangeError", OUT_OF_RANGE)
UnimplementedError = _make("UnimplementedError", UNIMPLEMENTED)
InternalError = _make("InternalError", INTERNAL)
UnavailableError = _make("UnavailableError", UNAVAILABLE)
DataLossError = _make("DataLossError", DATA_LOSS)
UnauthenticatedError = _make("UnauthenticatedError", UNAUTHENTICATED)

_BY_CODE = {i: c for i, c in enumerate([
    None, CancelledError, UnknownError, InvalidArgumentError, DeadlineExceededError, NotFoundError,
    AlreadyExistsError, PermissionDeniedError, ResourceExhaustedError, FailedPreconditionError,
    AbortedError, OutOfRangeError, UnimplementedError, InternalError, UnavailableError, DataLossError,
    UnauthenticatedError]) if c is not None}


def exception_type_from_error_code(error_code):
    """Returns the `OpError` subclass for a code."""
    return _BY_CODE[error_code]


def error_code_from_exception_type(cls):
    """Returns the code of an `OpError` subclass."""
    for code, c in _BY_CODE.items():
        if c is cls:
            return code
    return UNKNOWN


def _invalid_argument(message):
    """An `InvalidArgumentError` with `message` for a kernel to raise (the runtime adds the op and where
    it was created: `wrap_kernel_error`)."""
    return InvalidArgumentError(None, None, message)


def describe_op(op):
    """How error messages name an op: `'name' (op: Type, defined at file:line)`."""
    return "'%s' (op: %s, defined at %s)" % (op.name, op.type, op.creation_site)


# NumPy's message for operands of two shapes that do not broadcast, e.g. "(2,3) (4,)".
_NUMPY_BROADCAST = re.compile(r"operands could not be broadcast together with shapes \(([\d,]*)\) \(([\d,]*)\) ?$")


def _tf_message(exc):
    """TF's text for a NumPy error that has one: two shapes that do not broadcast become TF's
    `Incompatible shapes: [2,3] vs. [4]`. None for other errors."""
    m = _NUMPY_BROADCAST.match(str(exc)) if type(exc) is ValueError else None
    if m is None:
        return None
    return "Incompatible shapes: [%s] vs. [%s]" % (m.group(1).rstrip(","), m.group(2).rstrip(","))


def wrap_kernel_error(exc, op):
    """Turns an exception raised by `op`'s kernel into the matching tf.errors class naming the op
    (`op` None: the op recorded on the exception as `_tw_op`, if any). An OpError that already names
    its op is returned as it is; callers raise the result `from cause_of(exc)` unless it is `exc`.
    An OpError given a new message keeps `exc`'s traceback (the kernel's frames).

    A KeyError from an op whose record has the `variable_read` trait (its value is a lookup in the
    session's variables) means the variable was never initialized. NumPy's broadcasting error (an
    element-wise op's operands fed with shapes that do not broadcast) gets TF's text.
    """
    if op is None:
        op = getattr(exc, "_tw_op", None)
    where = "\n\t [[node %s ]]" % describe_op(op) if op is not None else ""
    if isinstance(exc, KeyError) and op is not None and getattr(op._op_def, "variable_read", False):
        return FailedPreconditionError(None, op, "Attempting to use uninitialized value %s%s" % (op.name, where))
    if isinstance(exc, OpError):
        if "[[node " in exc.message:
            return exc
        return type(exc)(exc.node_def, exc.op or op, exc.message + where).with_traceback(exc.__traceback__)
    cls = InvalidArgumentError
    if isinstance(exc, MemoryError):
        cls = ResourceExhaustedError
    elif isinstance(exc, NotImplementedError):
        cls = UnimplementedError
    elif isinstance(exc, RecursionError):
        cls = InternalError
    msg = _tf_message(exc) or "%s: %s" % (type(exc).__name__, exc)
    return cls(None, op, msg + where)


def cause_of(exc):
    """What the error `wrap_kernel_error(exc, ...)` is raised from: `exc`, or for an OpError (whose
    message the new error repeats, a py_func's with the user's traceback) what `exc` was raised
    from, so that the message and the traceback print once."""
    return exc.__cause__ if isinstance(exc, OpError) else exc


def from_python_exception(exc):
    """Maps a Python exception raised by user code (py_func) to TF's class, as TF's py_func does."""
    if isinstance(exc, OpError):
        return type(exc)
    if isinstance(exc, (ValueError, TypeError)):
        return InvalidArgumentError
    if isinstance(exc, StopIteration):
        return OutOfRangeError
    if isinstance(exc, NotImplementedError):
        return UnimplementedError
    if isinstance(exc, MemoryError):
        return ResourceExhaustedError
    return UnknownError


# The file layer below (platform.gfile) raises these classes; it cannot import them itself.
from ..platform import gfile as _gfile  # noqa: E402 (after the classes it installs)

_gfile.install_error_classes({_n: globals()[_n] for _n in _gfile.ERROR_NAMES})
