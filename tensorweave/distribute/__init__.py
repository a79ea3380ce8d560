"""Data-parallel training across processes and machines with Horovod's API:
`import tensorweave.distribute as hvd`.

    hvd.init()
    opt = hvd.DistributedOptimizer(tf.train.AdamOptimizer(0.001 * hvd.size()))
    train_op = opt.minimize(loss, global_step=global_step)
    hooks = [hvd.BroadcastGlobalVariablesHook(0), tf.train.StopAtStepHook(last_step=1000)]
    checkpoint_dir = "/tmp/train_logs" if hvd.rank() == 0 else None
    with tf.train.MonitoredTrainingSession(checkpoint_dir=checkpoint_dir, hooks=hooks) as sess:
        while not sess.should_stop():
            sess.run(train_op)

Launch with `python -m tensorweave.distribute.run -np 4 train.py` (or `mpiexec -n 4 python
train.py`, or `srun`). The collectives run on MPI through mpi4py (the `[distributed]` extra); see
docs/distributed.md.
"""

import os

from ..eager import context as _context
from ..framework import ops as _ops
from ..framework.indexed_slices import IndexedSlices
from ..ops import collective_ops as _collective
from ..ops import array_shape_ops as _array_shape
from ..ops import control_flow_ops as _control_flow
from ..ops import core_ops as _core
from ..ops import init_ops as _init_ops
from ..ops import math_binary_ops as _math_binary
from ..ops import math_unary_ops as _math_unary
from ..ops import state_ops as _state_ops
from ..train.optimizer import Optimizer as _Optimizer
from ..train.session_run_hook import SessionRunHook as _SessionRunHook
from ..variable_scopes import get_variable as _get_variable
from ..variable_scopes import variable_scope as _variable_scope
from ..variables import global_variables as _global_variables

__all__ = ["init", "shutdown", "is_initialized", "rank", "size", "local_rank", "local_size", "cross_rank",
           "cross_size", "is_homogeneous", "mpi_threads_supported", "mpi_enabled", "mpi_built", "gloo_enabled",
           "gloo_built", "nccl_built", "Average", "Sum", "Adasum", "Min", "Max", "Product", "Compression",
           "allreduce", "allgather", "broadcast", "alltoall", "broadcast_variables", "broadcast_global_variables",
           "BroadcastGlobalVariablesHook", "DistributedOptimizer", "DistributedGradientTape", "barrier"]

# Reduction ops (Horovod's hvd.Average, hvd.Sum, ...).
Average = "average"
Sum = "sum"
Adasum = "adasum"
Min = "min"
Max = "max"
Product = "product"

_engine = {"backend": None}


def init(comm=None, deterministic=None):
    """Starts the communication engine; call once in every process before any other function here.

    Args:
      comm: An `mpi4py` communicator to run on (default `MPI.COMM_WORLD`), or a
        `tensorweave.distribute.engine.Backend`.
      deterministic: With True, all-reduce sums add the ranks' values in rank order (an all-gather
        then a sum), so results do not depend on MPI's reduction order. Default: the environment
        variable `TW_DIST_DETERMINISTIC` ("1"), else False.

    Raises:
      ImportError: If mpi4py is missing (the `[distributed]` extra).
    """
    from . import engine
    if deterministic is None:
        deterministic = os.environ.get("TW_DIST_DETERMINISTIC", "0") not in ("", "0", "false", "False")
    if isinstance(comm, engine.Backend):
        backend = comm
    else:
        backend = engine.MPIBackend(comm)
    _engine["backend"] = backend
    _collective.set_backend(backend, deterministic)


def shutdown():
    """Stops the engine: collectives fail with "not initialized" until `init` is called again."""
    backend = _engine["backend"]
    if backend is not None:
        backend.shutdown()
    _engine["backend"] = None
    _collective.set_backend(None)


def is_initialized():
    """Whether `init` has been called (and not `shutdown`)."""
    return _engine["backend"] is not None


def _backend():
    backend = _engine["backend"]
    if backend is None:
        raise ValueError("Horovod has not been initialized; use hvd.init().")
    return backend


def rank():
    """This process's rank in [0, size()).

    Raises:
      ValueError: If `init` was not called.
    """
    return _backend().rank


def size():
    """The number of processes.

    Raises:
      ValueError: If `init` was not called.
    """
    return _backend().size


def local_rank():
    """This process's rank among the processes of its machine."""
    return _backend().local_rank


def local_size():
    """The number of processes on this machine."""
    return _backend().local_size


def cross_rank():
    """This machine's index among the machines (processes of equal local rank)."""
    return _backend().cross_rank


def cross_size():
    """The number of processes with this process's local rank (the number of machines when homogeneous)."""
    return _backend().cross_size


def is_homogeneous():
    """Whether every machine runs the same number of processes."""
    b = _backend()
    return b.size == b.local_size * b.cross_size


def mpi_threads_supported():
    """Whether the MPI library allows calls from several threads (MPI_THREAD_MULTIPLE)."""
    from .engine import import_mpi
    mpi = import_mpi()
    return mpi.Query_thread() == mpi.THREAD_MULTIPLE


def mpi_enabled():
    """True: the collectives run on MPI."""
    return True


def mpi_built():
    """True: the MPI engine is available (when mpi4py imports)."""
    return True


def gloo_enabled():
    """False: there is no gloo engine."""
    return False


def gloo_built():
    """False: there is no gloo engine."""
    return False


def nccl_built():
    """False: there is no NCCL engine."""
    return False


def barrier():
    """Returns when every process has called it (outside graphs).

    Raises:
      ValueError: If `init` was not called.
    """
    _backend().barrier()


# ---- compression ---------------------------------------------------------------------------------
class _NoneCompressor:
    """No compression: tensors are sent as they are."""

    @staticmethod
    def compress(tensor):
        """Returns `(tensor, None)`."""
        return tensor, None

    @staticmethod
    def decompress(tensor, ctx):
        """Returns `tensor`."""
        return tensor


class _FP16Compressor:
    """Sends floating-point tensors as float16 and casts the result back."""

    @staticmethod
    def compress(tensor):
        """Returns `(tensor cast to float16 if it is floating point, its dtype)`."""
        t = _ops.convert_to_tensor(tensor)
        if t.dtype.is_floating and t.dtype.name != "float16":
            return _math_unary.cast(t, "float16"), t.dtype
        return t, t.dtype

    @staticmethod
    def decompress(tensor, ctx):
        """Returns `tensor` cast back to the dtype `ctx` recorded."""
        if ctx is not None and tensor.dtype != ctx:
            return _math_unary.cast(tensor, ctx)
        return tensor


class Compression:
    """Gradient compression for the all-reduce: `Compression.none` or `Compression.fp16`."""

    none = _NoneCompressor
    fp16 = _FP16Compressor


# ---- collectives -------------------------------------------------------------------------------
def _reduce_op(average, op):
    if average is not None and op is not None:
        raise ValueError("The op parameter supersedes average; give only one of them.")
    if op is None:
        op = Average if average is None or average else Sum
    if op == Adasum:
        raise NotImplementedError("allreduce: op=Adasum is not implemented by tensorweave.distribute")
    if op not in _collective.REDUCE_OPS:
        raise ValueError("op must be one of hvd.Average, hvd.Sum, hvd.Min, hvd.Max, hvd.Product; got %r" % (op,))
    return op


def allreduce(tensor, average=None, device_dense="", device_sparse="", compression=Compression.none, op=None,
              prescale_factor=1.0, postscale_factor=1.0, name=None):
    """Reduces a tensor over all processes (graph op or eager), as `hvd.allreduce`.

    An `IndexedSlices` is all-gathered instead (values and indices), as Horovod does; with
    `op=Average` its values are divided by `size()`.

    Args:
      tensor: A tensor or `IndexedSlices`, of the same shape and dtype on every process.
      average: Deprecated form of `op` (True: Average, False: Sum).
      device_dense, device_sparse: Ignored (devices of the reduction in Horovod).
      compression: `Compression.none` or `Compression.fp16`.
      op: `hvd.Average` (default), `hvd.Sum`, `hvd.Min`, `hvd.Max` or `hvd.Product`.
      prescale_factor, postscale_factor: Multiply the tensor before / the result after the reduction.
      name: A name for the operation (optional).

    Returns:
      A tensor (or `IndexedSlices`) of the same shape and dtype: the reduction over the processes.

    Raises:
      ValueError: If both `average` and `op` are given, or `op` is unknown.
      NotImplementedError: For `op=Adasum`.
    """
    op = _reduce_op(average, op)
    n = _backend().size
    if isinstance(tensor, IndexedSlices):
        if op not in (Average, Sum):
            raise NotImplementedError("allreduce of IndexedSlices supports only hvd.Average and hvd.Sum")
        values = _collective.allgather(tensor.values)
        indices = _collective.allgather(tensor.indices)
        if op == Average:
            values = values / _ops.convert_to_tensor(n, dtype=values.dtype)
        return IndexedSlices(values, indices, dense_shape=tensor.dense_shape)
    compressed, ctx = compression.compress(tensor)
    reduced = _collective.allreduce(compressed, op, prescale_factor, postscale_factor, name=name)
    return compression.decompress(reduced, ctx)


def allgather(tensor, name=None):
    """Concatenates `tensor` from every process along dimension 0 in rank order, as `hvd.allgather`.

    Args:
      tensor: A tensor of rank >= 1 (the first dimension may differ between processes).
      name: A name for the operation (optional).

    Returns:
      The concatenated tensor.
    """
    _backend()
    return _collective.allgather(tensor, name=name)


def broadcast(tensor, root_rank, name=None):
    """Gives every process rank `root_rank`'s value of `tensor`, as `hvd.broadcast`.

    Args:
      tensor: A tensor of the same shape and dtype on every process.
      root_rank: The rank whose value is sent.
      name: A name for the operation (optional).

    Returns:
      A tensor holding the root's value.

    Raises:
      ValueError: If `root_rank` is not a rank.
    """
    n = _backend().size
    if not 0 <= int(root_rank) < n:
        raise ValueError("root_rank %d is not in [0, %d)" % (int(root_rank), n))
    return _collective.broadcast(tensor, root_rank, name=name)


def alltoall(tensor, splits=None, name=None):
    """Sends consecutive row blocks of `tensor` to every process and gathers what they send, as
    `hvd.alltoall`.

    Args:
      tensor: A tensor of rank >= 1.
      splits: How many rows go to each process (a vector with one entry per process); default:
        the first dimension split evenly.
      name: A name for the operation (optional).

    Returns:
      `(received, received_splits)`: the rows received, concatenated in rank order, and how many
      came from each process.
    """
    _backend()
    return _collective.alltoall(tensor, splits, name=name)


def broadcast_variables(variables, root_rank):
    """Assigns rank `root_rank`'s values to `variables` on every process.

    Args:
      variables: Variables, in the same order on every process.
      root_rank: The rank whose values are sent.

    Returns:
      The op that assigns every variable (graph mode), or None after assigning them (eager).
    """
    variables = list(variables)
    if _ops.get_default_graph()._eager:
        for v in variables:
            v.assign(broadcast(v.read_value(), root_rank))
        return None
    assigns = [_state_ops.assign(v, broadcast(v, root_rank)) for v in variables]
    return _core.group(*assigns)


def broadcast_global_variables(root_rank):
    """Assigns rank `root_rank`'s values to every global variable, as `hvd.broadcast_global_variables`.

    Args:
      root_rank: The rank whose values are sent.

    Returns:
      The op that assigns them.

    Raises:
      RuntimeError: When executing eagerly (use `broadcast_variables`).
    """
    if _context.executing_eagerly():
        raise RuntimeError("hvd.broadcast_global_variables() does not support eager execution; use "
                           "hvd.broadcast_variables(model.variables, root_rank) instead.")
    return broadcast_variables(_global_variables(), root_rank)


class BroadcastGlobalVariablesHook(_SessionRunHook):
    """A `SessionRunHook` that broadcasts rank `root_rank`'s global variables once the session is
    created (after initialization or a restore from a checkpoint), so every rank starts equal.

    Args:
      root_rank: The rank whose values are sent.
      device: Ignored (the device of the broadcast in Horovod).
    """

    def __init__(self, root_rank, device=""):
        super().__init__()
        self.root_rank = root_rank
        self.bcast_op = None
        self.device = device

    def begin(self):
        """Builds the broadcast op (once per graph)."""
        if not self.bcast_op or self.bcast_op.graph != _ops.get_default_graph():
            self.bcast_op = broadcast_global_variables(self.root_rank)

    def after_create_session(self, session, coord):
        """Runs the broadcast."""
        session.run(self.bcast_op)


# ---- optimizers and tapes ----------------------------------------------------------------------
def _allreduce_grads(grads, compression, sparse_as_dense, op, prefix):
    out = []
    for i, g in enumerate(grads):
        if g is None:
            out.append(None)
            continue
        if sparse_as_dense and isinstance(g, IndexedSlices):
            g = _ops.convert_to_tensor(g)
        out.append(allreduce(g, compression=compression, op=op, name="%s_Allreduce_%d" % (prefix, i)))
    return out


def _bucketed_grads(grads, compression, sparse_as_dense, op, bucket_bytes):
    """Dense gradients all-reduced in overlapping buckets; IndexedSlices all-gathered as usual."""
    out = [None] * len(grads)
    dense, ctxs = [None] * len(grads), [None] * len(grads)
    for i, g in enumerate(grads):
        if g is None:
            continue
        if sparse_as_dense and isinstance(g, IndexedSlices):
            g = _ops.convert_to_tensor(g)
        if isinstance(g, IndexedSlices):
            out[i] = allreduce(g, op=op, name="Distributed_Allreduce_%d" % i)
        else:
            dense[i], ctxs[i] = compression.compress(g)
    reduced = _collective.bucketed_allreduce(dense, op, bucket_bytes)
    for i, r in enumerate(reduced):
        if r is not None:
            out[i] = compression.decompress(r, ctxs[i])
    return out


class _LocalAggregation:
    """Horovod's local gradient aggregation (`backward_passes_per_step` > 1, graph mode): gradients
    are summed into local variables on every pass, all-reduced every `passes`-th pass (then the
    counter resets and, with `average`, the sums are divided by `passes`), and applied only then;
    the global step still advances on every pass."""

    def __init__(self, passes, average, sparse_as_dense, reduce_fn, name):
        self.passes = passes
        self.average = average
        self.sparse_as_dense = sparse_as_dense
        self.reduce_fn = reduce_fn
        self.name = name
        self.counter = None
        self.reduced_now = None

    def _dense(self, g):
        if isinstance(g, IndexedSlices):
            if not self.sparse_as_dense:
                raise ValueError("IndexedSlices are not supported when `backward_passes_per_step` > 1 and "
                                 "`sparse_as_dense` is False.")
            return _ops.convert_to_tensor(g)
        return g

    def compute_gradients(self, grads, variables):
        grads = [None if g is None else self._dense(g) for g in grads]
        keep = [i for i, g in enumerate(grads) if g is not None]
        local = [_ops.GraphKeys.LOCAL_VARIABLES]
        with _variable_scope("aggregation_variables_%s%d" % (self.name, rank())):
            self.counter = _get_variable("aggregation_counter", shape=(), dtype="int32", trainable=False,
                                         initializer=_init_ops.zeros_initializer(), collections=local)
            # A gradient has its variable's shape (statically known even where the gradient's is not).
            sums = [_get_variable(str(i), shape=variables[i].shape.as_list(), dtype=grads[i].dtype, trainable=False,
                                  initializer=_init_ops.zeros_initializer(), collections=local) for i in keep]

        def clear():
            return _core.group(*[a.assign(_array_shape.zeros(a.shape.as_list(), a.dtype)) for a in sums])

        # The counter is read once, at the start of the run; later decisions use the value its
        # increment returns (`counted`): after the all-reduce resets it, it is 0 exactly when
        # `counted` reached `passes`.
        cleared = _control_flow.cond(_math_binary.equal(self.counter.read_value(), 0), clear, _core.no_op)
        with _ops.control_dependencies([cleared]):
            added = [a.assign_add(grads[i]) for a, i in zip(sums, keep)]
        with _ops.control_dependencies(added):
            counted = self.counter.assign_add(1)

        def reduce_now():
            values = [a.read_value() for a in sums]
            reduced = self.reduce_fn(values, [variables[i] for i in keep])
            with _ops.control_dependencies([r.op for r in reduced]):
                reset = self.counter.assign(0)
            with _ops.control_dependencies([reset]):
                return [r / float(self.passes) if self.average else _core.identity(r) for r in reduced]

        self.reduced_now = _math_binary.equal(counted, self.passes)
        with _ops.control_dependencies([counted]):
            out = _control_flow.cond(self.reduced_now, reduce_now,
                                     lambda: [_core.identity(grads[i]) for i in keep])
        if not isinstance(out, (list, tuple)):
            out = [out]
        result = [None] * len(grads)
        for i, r in zip(keep, out):
            result[i] = r
        return result

    def apply_gradients(self, apply_fn, grads_and_vars, global_step):
        deps = [g for g, _ in grads_and_vars if g is not None]
        with _ops.control_dependencies(deps):
            applied = _control_flow.cond(self.reduced_now, lambda: _core.group(apply_fn()), _core.no_op)

        def step():
            return _core.group(global_step.assign_add(1)) if global_step is not None else _core.no_op()

        with _ops.control_dependencies([applied]):
            return _control_flow.cond(self.reduced_now, _core.no_op, step)


class DistributedOptimizer(_Optimizer):
    """An optimizer that averages the gradients of all processes before applying them, as
    `hvd.DistributedOptimizer`: `compute_gradients` all-reduces each gradient (IndexedSlices are
    all-gathered unless `sparse_as_dense`), `apply_gradients` is the wrapped optimizer's.

    Args:
      optimizer: The `tf.train.Optimizer` to wrap.
      name: Optional name (default "Distributed" + the optimizer's class name).
      use_locking: Passed to the base class.
      device_dense, device_sparse: Ignored.
      compression: `Compression.none` or `Compression.fp16`.
      sparse_as_dense: Convert IndexedSlices gradients to dense tensors before the all-reduce.
      backward_passes_per_step: Sum the gradients of this many `minimize` runs locally and all-reduce
        and apply them once, on the last of them (graph mode; the global step advances every run).
      op: `hvd.Average` (default) or `hvd.Sum`.
      overlap: (tensorweave) All-reduce the dense gradients in buckets started during the backward
        pass on a communication thread (`collective_ops.bucketed_allreduce`) instead of one
        all-reduce per gradient after it. Default (None): on when `size() > 1`.
      bucket_cap_mb: (tensorweave) The bucket size limit with `overlap`, in MiB (default 25).

      average_aggregated_gradients: With `backward_passes_per_step` > 1, divide the locally summed
        gradients by `backward_passes_per_step`.

    Raises:
      ValueError: If `backward_passes_per_step` is not positive.
    """

    def __init__(self, optimizer, name=None, use_locking=False, device_dense="", device_sparse="",
                 compression=Compression.none, sparse_as_dense=False, backward_passes_per_step=1, op=Average,
                 overlap=None, bucket_cap_mb=25, average_aggregated_gradients=False):
        if int(backward_passes_per_step) <= 0:
            raise ValueError("backward_passes_per_step must be > 0")
        self._aggregation = None
        if backward_passes_per_step > 1:
            self._aggregation = _LocalAggregation(int(backward_passes_per_step), average_aggregated_gradients,
                                                  sparse_as_dense, self._reduce, "")
        if name is None:
            name = "Distributed%s" % type(optimizer).__name__
        super().__init__(use_locking, name)
        self._optimizer = optimizer
        self._compression = compression
        self._sparse_as_dense = sparse_as_dense
        self._op = _reduce_op(None, op)
        self._overlap = overlap
        self._bucket_bytes = int(bucket_cap_mb * 2 ** 20)

    def compute_gradients(self, *args, **kwargs):
        """The wrapped optimizer's `compute_gradients`, with every gradient all-reduced.

        Returns:
          A list of `(gradient, variable)` pairs.
        """
        grads_and_vars = self._optimizer.compute_gradients(*args, **kwargs)
        grads, variables = zip(*grads_and_vars) if grads_and_vars else ((), ())
        if self._aggregation is not None:
            if _ops.get_default_graph()._eager:
                raise NotImplementedError("DistributedOptimizer: backward_passes_per_step > 1 needs graph mode")
            reduced = self._aggregation.compute_gradients(list(grads), list(variables))
        else:
            reduced = self._reduce(grads, variables)
        return list(zip(reduced, variables))

    def _reduce(self, grads, variables):
        with _ops.name_scope(self._name + "_Allreduce"):
            overlap = size() > 1 if self._overlap is None else self._overlap
            if overlap and not _ops.get_default_graph()._eager:
                return _bucketed_grads(grads, self._compression, self._sparse_as_dense, self._op, self._bucket_bytes)
            return _allreduce_grads(grads, self._compression, self._sparse_as_dense, self._op, "Distributed")

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """The wrapped optimizer's `apply_gradients` (with `backward_passes_per_step` > 1: only on the
        runs that all-reduced, the global step advancing on the others)."""
        if self._aggregation is None:
            return self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name)
        grads_and_vars = list(grads_and_vars)
        return self._aggregation.apply_gradients(
            lambda: self._optimizer.apply_gradients(grads_and_vars, global_step=global_step, name=name),
            grads_and_vars, global_step)

    def get_slot(self, *args, **kwargs):
        """The wrapped optimizer's `get_slot`."""
        return self._optimizer.get_slot(*args, **kwargs)

    def get_slot_names(self, *args, **kwargs):
        """The wrapped optimizer's `get_slot_names`."""
        return self._optimizer.get_slot_names(*args, **kwargs)

    def variables(self, *args, **kwargs):
        """The wrapped optimizer's `variables`."""
        return self._optimizer.variables(*args, **kwargs)


class DistributedGradientTape:
    """A `GradientTape` whose `gradient` all-reduces the gradients over the processes (eager), as
    `hvd.DistributedGradientTape`.

    Args:
      gradtape: The `tf.GradientTape` that recorded the computation.
      device_dense, device_sparse: Ignored.
      compression: `Compression.none` or `Compression.fp16`.
      sparse_as_dense: Convert IndexedSlices gradients to dense tensors before the all-reduce.
      op: `hvd.Average` (default) or `hvd.Sum`.
    """

    def __init__(self, gradtape, device_dense="", device_sparse="", compression=Compression.none,
                 sparse_as_dense=False, op=Average):
        self._tape = gradtape
        self._compression = compression
        self._sparse_as_dense = sparse_as_dense
        self._op = _reduce_op(None, op)

    def __getattr__(self, name):
        return getattr(self._tape, name)

    def __enter__(self):
        self._tape.__enter__()
        return self

    def __exit__(self, *exc):
        return self._tape.__exit__(*exc)

    def gradient(self, target, sources, output_gradients=None):
        """The tape's gradients of `target` w.r.t. `sources`, all-reduced over the processes.

        Returns:
          Gradients in the structure of `sources` (a list when `sources` is a list or tuple).
        """
        grads = self._tape.gradient(target, sources, output_gradients)
        single = not isinstance(grads, (list, tuple))
        reduced = _allreduce_grads([grads] if single else list(grads), self._compression, self._sparse_as_dense,
                                   self._op, "DistributedGradientTape")
        return reduced[0] if single else reduced
