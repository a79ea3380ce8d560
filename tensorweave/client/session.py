"""`tf.Session`: fetch/feed structures, the per-signature plan cache, and session state."""

import copy
import os
import threading
import time
import weakref

import numpy as np

from ..framework import dtypes, errors, ops
from ..kernels.shard import shard
from ..platform import fpstate, threads
from ..runtime import codegen, placement, plan, shapespec
from ..runtime.kernel_context import KernelContext
from . import config as config_lib


def _no_session():
    return None


class SessionState(KernelContext):
    """Everything a run may read or write besides feeds: variable values and per-op state
    (random streams, iterators), with the runtime's services to stateful kernels (the `ctx` they
    receive, `runtime/kernel_context.py`). It belongs to the Session, so Sessions are independent."""

    def __init__(self, session):
        super().__init__(session=session)
        self._run_local = threading.local()

    @property
    def deadline(self):
        """The `time.monotonic()` by which the run in this thread must end (RunOptions.timeout_in_ms or
        ConfigProto.operation_timeout_in_ms), or None: blocking kernels (queues) wait no longer."""
        return getattr(self._run_local, "deadline", None)

    @property
    def session(self):
        """The Session, or None once it is gone. Held weakly: the state lives on in its iterators'
        threads, and must not keep a Session its user dropped from being collected (and closed,
        which stops those threads and closes their files)."""
        return self._session_ref()

    @session.setter
    def session(self, value):
        self._session_ref = weakref.ref(value) if value is not None else _no_session


class _FetchMapper:
    """Flattens a fetch nest into unique graph elements and rebuilds results in the same shape."""

    def __init__(self, graph, fetches):
        self.elements = []
        self._index = {}
        self.structure = self._flatten(graph, fetches)
        # `flat`: how to rebuild without walking the structure (_SINGLE, list, tuple), or None.
        self.flat = None
        s = self.structure
        if isinstance(s, int):
            self.flat = _SINGLE
        elif s[0] in (list, tuple) and list(s[1]) == list(range(len(self.elements))):
            self.flat = s[0]

    def _add(self, el):
        i = self._index.get(el)
        if i is None:
            i = self._index[el] = len(self.elements)
            self.elements.append(el)
        return i

    def _flatten(self, graph, f):
        if f is None:
            raise TypeError("Fetch argument None has invalid type %s" % type(None))
        if isinstance(f, (list, tuple)) and not hasattr(f, "_fields"):
            return (type(f), tuple(self._flatten(graph, x) for x in f))
        if isinstance(f, tuple):  # namedtuple
            return ("namedtuple", type(f), tuple(self._flatten(graph, x) for x in f))
        if isinstance(f, dict):
            return ("dict", type(f), tuple((k, self._flatten(graph, v)) for k, v in f.items()))
        if hasattr(f, "_fetch_components"):
            comps, rebuild = f._fetch_components()
            return ("custom", rebuild, tuple(self._flatten(graph, c) for c in comps))
        try:
            el = graph.as_graph_element(f, allow_tensor=True, allow_operation=True)
        except TypeError:
            raise TypeError("Fetch argument %r has invalid type %r, must be a string or Tensor. (Can not "
                            "convert a %s into a Tensor or Operation.)" % (f, type(f), type(f).__name__)) from None
        except ValueError as e:
            raise ValueError("Fetch argument %r cannot be interpreted as a Tensor. (%s)" % (f, e)) from None
        except KeyError as e:
            raise ValueError("Fetch argument %r cannot be interpreted as a Tensor. (%s)" % (f, e.args[0])) from None
        return self._add(el)

    def build(self, values):
        return self._build(self.structure, values)

    def _build(self, s, values):
        if isinstance(s, int):
            return values[s]
        if s[0] == "namedtuple":
            return s[1](*[self._build(x, values) for x in s[2]])
        if s[0] == "dict":
            return s[1]((k, self._build(v, values)) for k, v in s[2])
        if s[0] == "custom":
            return s[1]([self._build(x, values) for x in s[2]])
        return s[0](self._build(x, values) for x in s[1])


class _RunEntry:
    """What a cached (fetches, feeds) signature needs at run time."""

    __slots__ = ("plan", "feed_tensors", "feed_checks", "fetch_map", "results", "compile_args", "placement", "spec")


def _expand_feeds(feed_dict):
    """The feeds of composite keys, as TF: a nested tuple of tensors (e.g. an RNN's LSTMStateTuples) is fed
    the value of the same structure; a SparseTensor or RaggedTensor its components."""
    out = {}

    def add(key, value):
        if isinstance(key, tuple):
            if not isinstance(value, (tuple, list)) or len(value) != len(key):
                raise ValueError("The feed for a tuple key must be a tuple of the same length: %d keys, value %r"
                                 % (len(key), value))
            for k, v in zip(key, value):
                add(k, v)
        elif hasattr(key, "_feed_components"):
            for k, v in zip(*key._feed_components(value)):
                out[k] = v
        else:
            out[key] = value

    for key, value in feed_dict.items():
        add(key, value)
    return out


class BaseSession:
    """The TF1 session interface shared by `Session` and `InteractiveSession`."""

    def __init__(self, target="", graph=None, config=None):
        self._graph = graph if graph is not None else ops.get_default_graph()
        self._target = target
        self._config = config if config is not None else config_lib.ConfigProto()
        self._closed = False
        self._state = SessionState(self)
        self._devices = placement.DeviceSet(self._config)
        self._cache = {}
        self._traced = {}
        self._cache_version = self._graph._version
        self.cache_hits = 0
        self.cache_misses = 0
        self._interpret = (os.environ.get("TW_DEBUG_EXECUTOR", "") not in ("", "0")
                           or self._config.experimental.executor_type == "INTERPRETER")
        n = self._config.intra_op_parallelism_threads
        if n > 0:  # also sizes tensorweave.kernels.shard's pool
            threads.set_intra_op_threads(n)
            self._thread_policy = threads.explicit_policy(n)
            threads.set_blas_threads(n, explicit=True)
        else:  # TF's 0: every core, BLAS threads as the process's calibration found fastest
            self._thread_policy = threads.default_policy(shard)
            if self._thread_policy.blas_threads is not None:
                threads.set_blas_threads(self._thread_policy.blas_threads)
        self._state.plan_options = _plan_options(self._config)
        self._state.interpret = self._interpret  # function bodies (loops, branches) follow the session
        self._default_ctx = []
        self._timeout_ms = self._config.operation_timeout_in_ms

    @property
    def graph(self):
        return self._graph

    @property
    def graph_def(self):
        return self._graph

    @property
    def sess_str(self):
        return self._target

    def list_devices(self):
        """Lists the devices this session can place ops on (CPU first).

        Returns:
          A list of objects with `name` ("/job:localhost/replica:0/task:0/device:CPU:0"),
          `device_type`, `memory_limit_bytes` and `incarnation`, as TF's `_DeviceAttributes`.
        """
        return self._devices.list_devices()

    def close(self):
        """Frees the session's state; later runs raise RuntimeError."""
        if not self._closed:
            self._closed = True
            for st in list(self._state.op_state.values()):
                close = getattr(st, "close", None)
                if close is not None:
                    close()
            self._state.variables.clear()
            self._state.op_state.clear()
            self._cache.clear()

    def as_default(self):
        """A context manager that makes this session the default one (in this thread)."""
        return ops.default_session(self)

    def __enter__(self):
        cm = ops.default_session(self)
        cm.__enter__()
        self._default_ctx.append(cm)
        g = self._graph.as_default()
        g.__enter__()
        self._default_ctx.append(g)
        return self

    def __exit__(self, exc_type, exc, tb):
        self._default_ctx.pop().__exit__(exc_type, exc, tb)
        self._default_ctx.pop().__exit__(exc_type, exc, tb)
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:  # interpreter shutdown
            pass

    # ---- running -------------------------------------------------------------------------
    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs the ops needed for `fetches` with `feed_dict` and returns their values in the same
        nest (lists, tuples, namedtuples, dicts); an Operation's value is None.

        Raises:
          RuntimeError: If the session is closed.
          TypeError: If a fetch or feed has an invalid type.
          ValueError: If a fed value has the wrong shape or cannot be converted to the tensor's dtype.
          tf.errors.OpError: If an op fails (the message names the op and where it was created).
        """
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if feed_dict and any(isinstance(k, tuple) or hasattr(k, "_feed_components") for k in feed_dict):
            feed_dict = _expand_feeds(feed_dict)
        if self._cache_version != self._graph._version:
            self._cache.clear()
            self._traced.clear()
            self._cache_version = self._graph._version
        feed_keys = tuple(feed_dict) if feed_dict else ()
        kind = type(fetches)
        # Fast key for the common fetches (a graph element, or a flat list/tuple of them); nests
        # with unhashable parts (dicts, inner lists) fail to hash and take the structural path.
        key = (kind, tuple(fetches), feed_keys) if kind is list or kind is tuple else (fetches, feed_keys)
        try:
            entry = self._cache[key]
        except (KeyError, TypeError):
            entry = self._lookup(fetches, feed_dict, feed_keys, key)
        else:
            self.cache_hits += 1
        feeds = self._convert_feeds(entry, feed_dict) if feed_keys else ()
        plan_ = entry.plan
        if entry.spec is not None:
            shapes = tuple([a.shape for a in feeds])
            plan_ = entry.spec.plans.get(shapes) or self._specialized(entry, shapes)
        traced = None
        if options is not None and options.trace_level and run_metadata is not None:
            plan_, traced = self._traced_plan(entry), []
        timeout = options.timeout_in_ms if options is not None and options.timeout_in_ms else self._timeout_ms
        if timeout > 0:  # each thread's run has its own deadline
            local = self._state._run_local
            saved, local.deadline = getattr(local, "deadline", None), time.monotonic() + timeout / 1000.0
        try:
            values = fpstate.run_quiet(plan_.fn, *((feeds,) if traced is None else (feeds, traced)))
        except Exception as e:
            op = plan_.op_for_traceback(e.__traceback__)
            err = errors.wrap_kernel_error(e, op)
            if err is e:
                raise
            raise err from errors.cause_of(e)
        finally:
            if timeout > 0:
                local.deadline = saved
        if traced is not None:
            _record_step_stats(run_metadata, plan_, traced, self._thread_policy)
        out = [None if i is None else _fetched(values[i]) for i in entry.results]
        fetch_map = entry.fetch_map
        if fetch_map.flat is not None:
            return out[0] if fetch_map.flat is _SINGLE else fetch_map.flat(out)
        return fetch_map.build(out)

    def _lookup(self, fetches, feed_dict, feed_keys, key):
        """The cache entry for a fetch structure: shared by all structures over the same elements."""
        fetch_map = _FetchMapper(self._graph, fetches)
        key2 = (tuple(fetch_map.elements), feed_keys)
        entry = self._cache.get(key2)
        if entry is None:
            self.cache_misses += 1
            entry = self._build_entry(fetch_map, feed_dict)
            self._cache[key2] = entry
        else:
            self.cache_hits += 1
        entry = _with_mapper(entry, fetch_map)
        try:
            self._cache[key] = entry
        except TypeError:  # unhashable nest: re-flattened on every run
            pass
        return entry

    def _specialized(self, entry, shapes):
        """The entry's plan for runs fed `shapes` (see runtime/shapespec.py)."""
        def compile_fn(key):
            return codegen.compile_plan(*entry.compile_args, self._state, feed_shapes=key)
        return entry.spec.plan_for(shapes, entry.plan, compile_fn)

    def _traced_plan(self, entry):
        """The entry's plan compiled again with timing around each step (kept for later traces)."""
        traced = self._traced.get(id(entry.plan))
        if traced is None:
            compile_fn = codegen.interpret_plan if self._interpret else codegen.compile_plan
            traced = compile_fn(*entry.compile_args, self._state, trace=True, placement=entry.placement)
            self._traced[id(entry.plan)] = traced
        return traced

    def _convert_feeds(self, entry, feed_dict):
        values = []
        for (npdt, fast, shape, exact, t), v in zip(entry.feed_checks, feed_dict.values()):
            if type(v) is np.ndarray and v.dtype is fast:  # dtype instances of built-in types are singletons
                a = v
            elif isinstance(v, ops.Tensor):
                raise TypeError("The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                                "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. For "
                                "reference, the tensor object was %s which was passed to the feed with key %s."
                                % (v, t))
            elif npdt is object:
                a = _to_string_array(v)
            elif type(v) is np.ndarray and v.dtype == npdt:
                a = v
            else:
                try:
                    a = np.asarray(v, dtype=npdt)
                except ValueError as e:
                    raise ValueError("Cannot feed value %r for Tensor %r of dtype %s: %s"
                                     % (v, t.name, t.dtype.name, e)) from None
                except (TypeError, OverflowError) as e:
                    raise TypeError("Type of feed value %r with type %s is not compatible with Tensor type %s. "
                                    "(%s)" % (v, type(v).__name__, t.dtype.name, e)) from None
            s = a.shape
            if s != exact and shape is not None:
                if len(s) != len(shape) or any(d is not None and d != e for d, e in zip(shape, s)):
                    raise ValueError("Cannot feed value of shape %r for Tensor %r, which has shape %r"
                                     % (s, t.name, str(t.shape)))
            values.append(a)
        return values

    def _build_entry(self, fetch_map, feed_dict):
        graph = self._graph
        feed_tensors = []
        for k in (feed_dict or ()):
            try:
                t = graph.as_graph_element(k, allow_tensor=True, allow_operation=False)
            except (TypeError, ValueError, KeyError) as e:
                msg = e.args[0] if e.args else str(e)
                raise TypeError("Cannot interpret feed_dict key as Tensor: %s" % msg) from None
            if t in feed_tensors:
                raise ValueError("Tensor %s is fed more than once." % t.name)
            feed_tensors.append(t)
        fetch_tensors = []
        targets = []
        results = []
        for el in fetch_map.elements:
            if isinstance(el, ops.Operation):
                targets.append(el)
                results.append(None)
            else:
                results.append(len(fetch_tensors))
                fetch_tensors.append(el)
        order = plan.prune_and_order(fetch_tensors, targets, feed_tensors)
        placed = placement.place(order, self._devices, self._config)  # None: every op on the CPU
        compile_fn = codegen.interpret_plan if self._interpret else codegen.compile_plan
        entry = _RunEntry()
        entry.plan = compile_fn(order, fetch_tensors, feed_tensors, self._state, placement=placed)
        entry.placement = placed
        entry.compile_args = (order, fetch_tensors, feed_tensors)
        entry.feed_tensors = feed_tensors
        entry.feed_checks = [(t.dtype.as_numpy_dtype, _fast_feed_dtype(t.dtype.as_numpy_dtype), t.shape.as_tuple(),
                              t.shape.as_tuple() if t.shape.is_fully_defined() else False, t)
                             for t in feed_tensors]
        entry.fetch_map = fetch_map
        entry.results = results
        options = self._state.plan_options
        entry.spec = (shapespec.Specializations()
                      if not self._interpret and placed is None and (options.constant_folding or options.simplify)
                      and shapespec.specializable(feed_tensors, entry.feed_checks) else None)
        return entry

    def make_callable(self, fetches, feed_list=None, accept_options=False):
        """Returns `fn(*feed_values)` running `fetches`, as `Session.make_callable`."""
        feed_list = list(feed_list or [])

        def call(*args, **kwargs):
            return self.run(fetches, dict(zip(feed_list, args)))

        return call

    def partial_run_setup(self, fetches, feeds=None):
        raise errors.UnimplementedError(None, None, "partial_run is not supported")


_SINGLE = object()
_CPU = "/job:localhost/replica:0/task:0/device:CPU:0"


def _record_step_stats(run_metadata, plan_, trace, thread_policy=None):
    """Fills `run_metadata.step_stats` (replacing what it held, as TF parses a fresh message) with one
    `NodeExecStats` per executed step; a fused kernel is one step. A first, empty `_ThreadPolicy`
    entry (as TF's `_SOURCE`) gives the session's BLAS thread decision and its calibration figures."""
    wall, perf = time.time(), time.perf_counter()
    dev = config_lib.DeviceStepStats(device=_CPU)
    if thread_policy is not None:
        dev.node_stats.append(config_lib.NodeExecStats(
            node_name="_ThreadPolicy", all_start_micros=int(wall * 1e6), op_start_rel_micros=0,
            op_end_rel_micros=0, all_end_rel_micros=0, timeline_label=thread_policy.describe(),
            thread_id=threading.get_ident()))
    for step, start, end in trace:
        op = plan_.trace_steps[step]
        if isinstance(op, list):  # a fused kernel
            name = "fusion/" + op[-1].name
            label = "%s = Fused(%s)" % (name, ", ".join(o.name for o in op))
        else:
            name = op.name
            label = "%s = %s(%s)" % (name, op.type, ", ".join(t.name for t in op.inputs))
        dur = int(round((end - start) * 1e6))
        dev.node_stats.append(config_lib.NodeExecStats(
            node_name=name, all_start_micros=int((wall - (perf - start)) * 1e6), op_start_rel_micros=0,
            op_end_rel_micros=dur, all_end_rel_micros=dur, timeline_label=label,
            thread_id=threading.get_ident()))
    run_metadata.step_stats = config_lib.StepStats(dev_stats=[dev])


def _plan_options(config):
    """The compile passes `config.graph_options.optimizer_options` asks for (see OptimizerOptions)."""
    opts = config.graph_options.optimizer_options
    l1 = opts.opt_level != config_lib.OptimizerOptions.L0
    fusion_threads = None
    if opts.global_jit_level == config_lib.OptimizerOptions.OFF:
        fusion_threads = 0
    elif config.intra_op_parallelism_threads > 0:
        fusion_threads = config.intra_op_parallelism_threads
    return codegen.PlanOptions(constant_folding=l1 or opts.do_constant_folding,
                               cse=l1 or opts.do_common_subexpression_elimination, simplify=l1,
                               fusion_threads=fusion_threads,
                               inter_op=config.inter_op_parallelism_threads >= 2)


def _fast_feed_dtype(npdt):
    """The dtype a fed ndarray may have to be used as is (None for strings: always converted)."""
    return None if npdt is object else np.dtype(npdt)


def _fetched(v):
    """What the user receives: a writable array they own (copies of shared read-only values), and
    NumPy scalars for 0-d results, as TF returns."""
    if type(v) is np.ndarray:
        if not v.flags.writeable:
            v = v.copy()
        if v.ndim == 0:
            v = v[()]
    return v


def _with_mapper(entry, fetch_map):
    """The entry (sharing its plans) for another fetch structure over the same elements."""
    e = copy.copy(entry)
    e.fetch_map = fetch_map
    return e


def _to_string_array(v):
    from ..framework.constant_op import to_numpy
    return to_numpy(v, dtypes.string)


class Session(BaseSession):
    """`tf.Session(target='', graph=None, config=None)`: runs parts of a graph.

    Variable values and other state live in the session, so two sessions on one graph are
    independent. Use as a context manager to make it the default session and close it on exit.
    """


class InteractiveSession(BaseSession):
    """A session that makes itself the default session on creation (for shells and notebooks)."""

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        ops.default_session(self).__enter__()

    def close(self):
        super().close()
        ops.remove_default_session(self)

