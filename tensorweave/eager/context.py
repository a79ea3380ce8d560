"""The eager mode switch and the eager context: the state eager kernels read and write.

Eager mode is a graph: `EagerGraph` is the default graph while executing eagerly, and its
`_create_op` runs the op at once instead of adding it (see `execute.py`). So every public op
constructor, which ends in `apply_op` or `Graph._create_op`, works unchanged in both modes, and
graph mode pays nothing: `get_default_graph()` returns an ordinary `Graph` there. Entering a graph
(`with tf.Graph().as_default():`, or tracing a `tf.function`) inside eager mode switches to graph
mode for the block, as in TF.
"""

import contextlib
import itertools

import numpy as np

from ..framework import ops
from ..framework.func_graph import FuncGraph
from ..runtime.kernel_context import KernelContext

__all__ = ["EagerContext", "EagerGraph", "KernelState", "context", "disable_eager_execution", "eager_mode",
           "enable_eager_execution", "executing_eagerly", "init_scope"]


class KernelState(KernelContext):
    """What a stateful kernel gets as `ctx` outside a Session (`runtime/kernel_context.py`, the
    interface of the Session's `SessionState`): the eager variables by key, per-op state, the
    runtime's services. A `tf.function` runs its plan with one of these over the eager variables."""

    def __init__(self, variables, op_state=None):
        super().__init__(variables, op_state)


def _hashable(v):
    if isinstance(v, list):
        return tuple(_hashable(x) for x in v)
    if isinstance(v, np.ndarray):
        return (v.dtype.str, v.shape, v.tobytes())
    try:
        hash(v)
    except TypeError:
        return id(v)
    return v


class _EagerOpState:
    """`op_state` of the eager context.

    An eager op is a new record at every call, so state a kernel keys by its op (a random stream,
    a Print counter) is kept under the op's type and attributes: a seeded random op continues one
    stream over calls, as TF's eager kernel cache does. Other keys made while an eager kernel runs
    (the compiled branches of an eager `tf.cond`, keyed by functions that die with the call) live
    for that call only.
    """

    __slots__ = ("_by_attrs", "_other", "_scratch")

    def __init__(self):
        self._by_attrs = {}
        self._other = {}
        self._scratch = None

    def _where(self, key):
        if type(key) is ops.Operation and key._graph._eager:
            return self._by_attrs, (key._type, tuple((k, _hashable(v)) for k, v in sorted(key._attrs.items())))
        return (self._other if self._scratch is None else self._scratch), key

    def get(self, key, default=None):
        d, k = self._where(key)
        return d.get(k, default)

    def __getitem__(self, key):
        d, k = self._where(key)
        return d[k]

    def __setitem__(self, key, value):
        d, k = self._where(key)
        d[k] = value

    def __contains__(self, key):
        d, k = self._where(key)
        return k in d

    def pop(self, key, *default):
        d, k = self._where(key)
        return d.pop(k, *default)

    def setdefault(self, key, value=None):
        d, k = self._where(key)
        return d.setdefault(k, value)

    def values(self):
        return list(self._by_attrs.values()) + list(self._other.values())

    def clear(self):
        self._by_attrs.clear()
        self._other.clear()


class EagerContext(KernelState):
    """The process-wide eager state: variable values (by key) and kernel state."""

    def __init__(self):
        super().__init__({}, _EagerOpState())
        self.variables_created = 0  # tf.function checks no trace after the first creates variables
        self.variable_creation_scopes = []  # lists collecting the variables a trace creates (it owns them)


_context = EagerContext()


def context():
    """The eager context (kernel state of eager ops)."""
    return _context


class _OneShotDict(dict):
    """The eager graph's py_func table: an eager PyFunc op reads its function once, right after
    `py_func` stored it, so reading removes it and the table does not grow."""

    def __getitem__(self, key):
        return self.pop(key)


class EagerGraph(ops.Graph):
    """The default graph while executing eagerly: creating an op runs it at once.

    It keeps what TF's eager context keeps: name scopes (without uniquifying names), the gradient
    override map, the random seed, variable scopes. Control dependencies are no-ops, since eager
    ops run in program order.
    """

    _eager = True

    def __init__(self):
        super().__init__()
        self._py_funcs = _OneShotDict()
        from .execute import execute_op
        self._execute_op = execute_op
        _last_eager_graph[0] = self

    def _create_op(self, op_type, inputs, attrs, name=None, control_inputs=()):
        return self._execute_op(op_type, inputs, attrs, name)

    def _custom_gradient(self, f, args, kwargs):
        """`tf.custom_gradient(f)(*args, **kwargs)` while executing eagerly: `f`'s results recorded on
        the active tapes with its gradient function (`backprop.eager_custom_gradient`)."""
        from .backprop import eager_custom_gradient
        return eager_custom_gradient(f, args, kwargs)

    def unique_name(self, name, mark_as_used=True):
        """Names are not made unique in eager mode (nothing is added to a graph)."""
        return self._name_stack + "/" + name if self._name_stack else name

    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """A no-op (eager ops run in order); callables among `control_inputs` are called, as TF."""
        for c in control_inputs or ():
            if callable(c):
                c()
        yield

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, value):
        """Setting the seed restarts the random streams, so a seeded eager program repeats."""
        self._seed = value
        _context.op_state._by_attrs.clear()

    def _last_id(self):
        return 0


_last_eager_graph = [None]


def eager_graph():
    """The eager graph eager tensors belong to: the one that is (or encloses) the default graph,
    else the last one created."""
    g = ops.get_default_graph()
    while isinstance(g, FuncGraph):
        g = g.outer_graph
    return g if g._eager else _last_eager_graph[0]


def executing_eagerly():
    """Whether ops run at once: true after `tf.enable_eager_execution()`, except inside a graph made
    default (`with g.as_default():`) or while a `tf.function` is traced.

    Returns:
      A Python bool.
    """
    return ops.get_default_graph()._eager


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Enables eager execution for the lifetime of this program, as `tf.enable_eager_execution`.

    Ops then run as they are called and return `EagerTensor`s holding their values. Call it at
    program startup: `with tf.Graph().as_default():` still builds graphs inside.

    Args:
      config, device_policy, execution_mode: Accepted for compatibility.

    Raises:
      ValueError: If graph mode has been used already (ops were added to the default graph).
    """
    if ops._global_default_class[0] is EagerGraph:
        return
    g = ops._global_default[0]
    if ops._graph_stack or (g is not None and g._ops):
        raise ValueError("tf.enable_eager_execution must be called at program startup.")
    ops._global_default_class[0] = EagerGraph
    ops._global_default[0] = EagerGraph()


def disable_eager_execution():
    """Disables eager execution, as `tf.compat.v1.disable_eager_execution`: graph mode (tensorweave's
    default) is the program's mode from now on.

    After `tf.enable_eager_execution()` the default graph becomes an ordinary, empty `tf.Graph`;
    graphs made default with `as_default()` are not affected. Otherwise this does nothing. Call it
    at program startup, before creating tensors.
    """
    if ops._global_default_class[0] is not EagerGraph:
        return
    ops._global_default_class[0] = None
    if isinstance(ops._global_default[0], EagerGraph):
        ops._global_default[0] = None


@contextlib.contextmanager
def eager_mode():
    """Executes eagerly inside the block (a fresh eager graph), whatever the program's mode; TF's
    `context.eager_mode()`. Random streams restart."""
    prev = _last_eager_graph[0]
    g = EagerGraph()
    _context.op_state.clear()
    with g.as_default():
        try:
            yield g
        finally:
            _last_eager_graph[0] = prev or g


@contextlib.contextmanager
def init_scope():
    """`tf.init_scope()`: lifts the block out of any function being traced into the outermost context
    (eager, or the outermost graph), with no control dependencies and no tape recording, where
    variables and their initial values are created."""
    from . import tape
    g = ops.get_default_graph()
    while isinstance(g, FuncGraph):
        g = g.outer_graph
    with g.as_default(), g.control_dependencies(None), tape.stop_recording():
        yield


_uids = itertools.count(1)
next_uid = _uids.__next__


def uid():
    """A process-unique integer (eager tensor ids, variable keys)."""
    return next(_uids)

