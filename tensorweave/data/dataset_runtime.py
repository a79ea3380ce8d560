"""`tf.data` pipelines: the running side, what an iterator's pipeline sees (`IteratorContext`,
the resources it closes, capture collection) and the constants the datasets share."""

import contextlib
import threading

import numpy as np

from ..framework import errors
from ..framework.errors import _invalid_argument as _invalid  # noqa: F401 (the family's modules import it here)

AUTOTUNE = -1
_AUTOTUNE_PREFETCH = 16  # the buffer prefetch(AUTOTUNE) uses
_JOIN_TIMEOUT = 60.0


# ---- the running side: what an iterator's pipeline sees ---------------------------------------
def close_iterator(it):
    """Closes a pipeline iterator (generator or class) if it can be closed; idempotent."""
    close = getattr(it, "close", None)
    if close is not None:
        try:
            close()
        except ValueError:  # a generator running in another thread: it ends with its owner
            pass


class _Resources:
    """The threads and pools of one iterator's pipeline, all closed when the iterator is."""

    def __init__(self):
        self._lock = threading.Lock()
        self._items = {}
        self.closed = False

    def add(self, res):
        with self._lock:
            if self.closed:
                raise errors.CancelledError(None, None, "The iterator was closed.")
            self._items[id(res)] = res

    def discard(self, res):
        with self._lock:
            self._items.pop(id(res), None)

    def close(self):
        with self._lock:
            self.closed = True
            items = list(self._items.values())
            self._items.clear()
        for res in items:
            res.close()


class IteratorContext:
    """What a running pipeline sees.

    Attributes:
      state: The Session's `SessionState` (variables, per-op state).

    A dataset reads the values of its captured graph tensors through `ctx.capture_values(ds)`,
    iterates an input dataset with `ctx.iterate(ds)` (or `with ctx.open(ds) as it:` to close it
    on exit), keeps per-initialisation state with `ctx.dataset_state(ds, factory)`, runs traced
    functions with `ctx.call(function, args)` and registers background resources (anything with
    `close()`) with `ctx.register` so they are closed with the iterator.
    """

    def __init__(self, state, env, resources=None):
        self.state = state
        self._env = env
        self._resources = resources if resources is not None else _Resources()
        self._dataset_state = {}
        self._lock = threading.Lock()

    def capture_values(self, dataset):
        return [self._env[t] for t in dataset._captures()]

    def iterate(self, dataset):
        """A fresh iterator over `dataset`'s elements (flat tuples of arrays)."""
        return iter(dataset._iterate(self, self.capture_values(dataset)))

    @contextlib.contextmanager
    def open(self, dataset):
        it = self.iterate(dataset)
        try:
            yield it
        finally:
            close_iterator(it)

    def validate(self, dataset):
        """Checks the runtime arguments of `dataset` and its inputs (as TF's dataset kernels do when an
        iterator is initialised)."""
        for d in _walk(dataset):
            d._validate(self.capture_values(d))

    def nested(self, dataset, values):
        """The context of a dataset a function returned, given the function's outputs (the values of
        `dataset`'s captures); it shares this iterator's resources."""
        ctx = IteratorContext(self.state, dict(zip(_all_captures(dataset), values)), self._resources)
        ctx.validate(dataset)
        return ctx

    def dataset_state(self, dataset, factory):
        """Per-initialisation state of `dataset` (a shuffle's seed stream, a memory cache)."""
        with self._lock:
            st = self._dataset_state.get(id(dataset))
            if st is None:
                st = self._dataset_state[id(dataset)] = (dataset, factory())
            return st[1]

    def call(self, function, args):
        """Runs a traced `Function` on a list of arrays; returns the tuple of its outputs."""
        return self.state.call_function(function, args)

    def register(self, resource):
        self._resources.add(resource)

    def unregister(self, resource):
        self._resources.discard(resource)

    def close(self):
        self._resources.close()


def _walk(dataset):
    """`dataset` and all its input datasets, each once."""
    seen = []
    stack = [dataset]
    while stack:
        d = stack.pop()
        if any(d is s for s in seen):
            continue
        seen.append(d)
        stack.extend(d._inputs())
    return seen


def _all_captures(dataset):
    """The graph tensors a dataset and its inputs need, each once, in a fixed order."""
    out = []
    seen = set()
    for d in _walk(dataset):
        for t in d._captures():
            if t not in seen:
                seen.add(t)
                out.append(t)
    return out


def _annotated(e, what, index):
    """`e` (a tf.errors exception) with the element it came from named in its message."""
    msg = "%s\n\t [[while running the %s function on element %d of its input]]" % (e.message, what, index)
    return type(e)(e.node_def, e.op, msg)


def _scalar(value):
    """A Python int/float/bytes from a 0-d array."""
    return value[()] if isinstance(value, np.ndarray) else value


def _readonly(a):
    """`a`, made read-only if it is an array (values kept by a cache are shared with users)."""
    if isinstance(a, np.ndarray) and a.flags.writeable:
        a.flags.writeable = False
    return a


def _readonly_view(a):
    """A read-only view of `a` (a fed array stays the user's: elements sliced from it are copied
    when fetched rather than shared)."""
    if isinstance(a, np.ndarray) and a.flags.writeable:
        a = a.view()
        a.flags.writeable = False
    return a
