"""`tf.train.Optimizer`: computes gradients, creates slot variables and applies the updates."""

import collections.abc

import numpy as np

from ..framework import constant_op, dtypes, ops
from ..framework.func_graph import outermost_graph
from ..framework.indexed_slices import IndexedSlices
from ..framework.ops import GraphKeys
from ..ops import core_ops, state_ops
from ..variables import Variable, trainable_variables


def _var_key(var):
    """The key of `var` in the slot dictionaries (eager variables' names need not be unique)."""
    uid = getattr(var, "_unique_id", None)
    if uid is not None:
        return uid
    return (var.op.graph, var.op.name)


def _flatten(x):
    """The variables of `var_list` in order: a variable or tensor is itself; a dict gives its values
    by sorted key; any other iterable (list, tuple, `dict.values()`, generator...) its items."""
    if isinstance(x, (Variable, ops.Tensor, str, bytes)):
        return [x]
    if isinstance(x, dict):
        return [y for k in sorted(x) for y in _flatten(x[k])]
    if isinstance(x, collections.abc.Iterable):
        return [y for item in x for y in _flatten(item)]
    return [x]


def _cast(x, dtype):
    """`x` as a tensor of `dtype`: itself when it has that dtype, a converted constant when it is a
    constant (what a Cast of it would produce), else a Cast op."""
    t = ops.convert_to_tensor(x)
    if t.dtype is dtype:
        return t
    if t.op.type == "Const":
        return constant_op.constant(t.op.get_attr("value").astype(dtype.as_numpy_dtype), dtype=dtype,
                                    name=t.op.name.rsplit("/", 1)[-1])
    from ..ops import math_ops
    return math_ops.cast(t, dtype)


# ---- the things an optimizer can update -----------------------------------------------------------
class _RefVariableProcessor:
    """Updates a `Variable` with the optimizer's dense update (IndexedSlices are densified first)."""

    def __init__(self, v):
        self._v = v

    def target(self):
        return self._v._ref()

    def update_op(self, optimizer, g):
        if isinstance(g, ops.Tensor):
            update_op = optimizer._apply_dense(g, self._v)
            if self._v.constraint is not None:
                new_value = update_op.outputs[0] if update_op.outputs else self._v.read_value()
                with ops.control_dependencies([update_op]):
                    return self._v.assign(self._v.constraint(new_value))
            return update_op
        if self._v.constraint is not None:
            raise RuntimeError("Cannot use a constraint function on a sparse variable.")
        return optimizer._apply_sparse_duplicate_indices(g, self._v)


class _TensorProcessor:
    """A plain tensor: gradients can be computed for it, but it cannot be updated."""

    def __init__(self, v):
        self._v = v

    def target(self):
        return self._v

    def update_op(self, optimizer, g):
        raise NotImplementedError("Trying to update a Tensor ", self._v)


def _get_processor(v):
    if isinstance(v, Variable):
        return _RefVariableProcessor(v)
    if isinstance(v, ops.Tensor):
        return _TensorProcessor(v)
    raise NotImplementedError("Trying to optimize unsupported type ", v)


class Optimizer:
    """Base class for optimizers, as `tf.train.Optimizer`.

    Subclasses implement `_create_slots(var_list)`, `_prepare()`, `_apply_dense(grad, var)` and
    optionally `_finish(update_ops, name_scope)`; `minimize` = `compute_gradients` + `apply_gradients`.
    Sparse (IndexedSlices) gradients are summed into a dense tensor and applied with `_apply_dense`.

    Args:
      use_locking: Hold the session lock during updates.
      name: The optimizer's name, used for its ops and slot variables.

    Raises:
      ValueError: If `name` is empty.
    """

    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}
        self._non_slot_dict = {}

    def get_name(self):
        return self._name

    # ---- the public API ----------------------------------------------------------------------
    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                 colocate_gradients_with_ops=False, name=None, grad_loss=None):
        """Adds ops to minimize `loss` by updating `var_list` (`compute_gradients` + `apply_gradients`).

        Args:
          loss: A `Tensor` to minimize (or a callable returning it).
          global_step: Optional `Variable` incremented by one after the variables are updated.
          var_list: Variables to update: any iterable of them (a list, `dict.values()`, a generator;
            default: the trainable variables).
          gate_gradients: `GATE_NONE`, `GATE_OP` or `GATE_GRAPH`.
          aggregation_method, colocate_gradients_with_ops: Passed to `tf.gradients`.
          name: Name of the returned op (default: the optimizer's name).
          grad_loss: Optional gradient of `loss`.

        Returns:
          An `Operation` that updates the variables (and increments `global_step`); None when
          executing eagerly, where the updates are applied at once (`loss` must then be a callable).

        Raises:
          ValueError: If there are no variables, no variable gets a gradient, or `loss` is not a float.
        """
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients, aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        if not [v for g, v in grads_and_vars if g is not None]:
            raise ValueError("No gradients provided for any variable, check your graph for ops that do not support "
                             "gradients, between variables %s and loss %s."
                             % ([str(v) for _, v in grads_and_vars], loss))
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP, aggregation_method=None,
                          colocate_gradients_with_ops=False, grad_loss=None):
        """Computes the gradients of `loss` for the variables in `var_list`.

        Args:
          loss: A `Tensor` (or a callable returning it).
          var_list: Variables: any iterable of them (a list, `dict.values()`, a generator; default:
            TRAINABLE_VARIABLES + TRAINABLE_RESOURCE_VARIABLES).
          gate_gradients: `GATE_NONE`, `GATE_OP` or `GATE_GRAPH` (all gradients computed before any is
            used).
          aggregation_method, colocate_gradients_with_ops: Passed to `tf.gradients`.
          grad_loss: Optional gradient of `loss`.

        Returns:
          A list of `(gradient, variable)` pairs; the gradient is a Tensor, an IndexedSlices or None.

        Raises:
          ValueError: If `gate_gradients` is invalid, `loss` is not a float tensor, or there are no
            variables.
          RuntimeError: If executing eagerly and `loss` is not a callable.
          NotImplementedError: If `var_list` holds something that is neither a Variable nor a Tensor.
        """
        if callable(loss) and ops.get_default_graph()._eager:
            return self._compute_gradients_eager(loss, var_list, gate_gradients, grad_loss)
        if callable(loss):
            loss = loss()
        if ops.get_default_graph()._eager:
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a function when eager "
                               "execution is enabled.")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             "Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            var_list = trainable_variables() + ops.get_collection(GraphKeys.TRAINABLE_RESOURCE_VARIABLES)
        else:
            var_list = _flatten(var_list)
        processors = [_get_processor(v) for v in var_list]
        if not var_list:
            raise ValueError("No variables to optimize.")
        from ..gradients.gradients_impl import gradients
        grads = gradients(loss, [p.target() for p in processors], grad_ys=grad_loss,
                          gate_gradients=gate_gradients == Optimizer.GATE_OP, aggregation_method=aggregation_method,
                          colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            grads = _gate(grads)
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def _compute_gradients_eager(self, loss, var_list, gate_gradients, grad_loss):
        """`compute_gradients` of a loss function when executing eagerly: a GradientTape records
        `loss()`; without `var_list`, the trainable variables it read are differentiated."""
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, Optimizer.GATE_OP, "
                             "Optimizer.GATE_GRAPH.  Not %s" % gate_gradients)
        from ..eager.backprop import GradientTape
        with GradientTape() as tape:
            if var_list is not None:
                var_list = _flatten(var_list)
                tape.watch(var_list)
            loss_value = loss()
        if var_list is None:
            var_list = list(tape.watched_variables())
        grads = tape.gradient(loss_value, var_list, None if grad_loss is None else [grad_loss])
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Applies gradients to variables (the second half of `minimize`).

        Args:
          grads_and_vars: `(gradient, variable)` pairs; pairs with a None gradient are skipped.
          global_step: Optional `Variable` incremented by one after the updates.
          name: Name of the returned op (default: the optimizer's name).

        Returns:
          An `Operation` that applies the gradients (and increments `global_step`); None when
          executing eagerly, where they are applied at once.

        Raises:
          TypeError: If a gradient is not convertible to a Tensor or IndexedSlices.
          ValueError: If `grads_and_vars` is empty or no variable has a gradient.
        """
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None and not isinstance(g, IndexedSlices):
                try:
                    g = ops.convert_to_tensor(g)
                except (TypeError, ValueError):
                    raise TypeError("Gradient must be convertible to a Tensor or IndexedSlices, or None: %s"
                                    % (g,)) from None
            converted.append((g, v, _get_processor(v)))
        var_list = [v for g, v, _ in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: %s." % ([str(v) for _, v, _ in converted],))
        graph = var_list[0].graph
        default = ops.get_default_graph()
        if graph._eager or outermost_graph(default) is outermost_graph(graph):
            # Eager variables are updated where we are: at once, or in the tf.function being traced; graph
            # variables in the function body being built (a cond branch, a loop body), if that is where we are.
            graph = default
        with graph.as_default():
            with graph.control_dependencies(None):
                self._create_slots(var_list)
            update_ops = []
            with ops.name_scope(name, self._name) as name:
                self._prepare()
                for grad, var, processor in converted:
                    if grad is None:
                        continue
                    with ops.name_scope("update_" + var.op.name):
                        update_ops.append(processor.update_op(self, grad))
                if global_step is None:
                    apply_updates = self._finish(update_ops, name)
                else:
                    with ops.control_dependencies([self._finish(update_ops, "update")]):
                        apply_updates = state_ops.assign_add(global_step, 1, name=name).op
            if graph._eager:
                return None  # as TF: the updates are done, there is no op to return
            if not outermost_graph(graph)._eager:
                train_ops = graph.get_collection_ref(GraphKeys.TRAIN_OP)
                if apply_updates not in train_ops:
                    train_ops.append(apply_updates)
        return apply_updates

    def get_slot(self, var, name):
        """Returns the slot variable `name` ("m", "momentum", ...) created for `var`, or None."""
        named_slots = self._slots.get(name)
        if not named_slots:
            return None
        return named_slots.get(_var_key(var))

    def get_slot_names(self):
        """Returns the sorted names of the slots this optimizer created."""
        return sorted(self._slots)

    def variables(self):
        """The optimizer's slot and non-slot variables in the default graph, sorted by name."""
        current = ops.get_default_graph()
        found = [v for v in self._non_slot_dict.values() if v.op.graph is current]
        for slots in self._slots.values():
            found.extend(v for v in slots.values() if v.op.graph is current)
        return sorted(found, key=lambda v: v.name)

    # ---- for subclasses ------------------------------------------------------------------------
    @staticmethod
    def _call_if_callable(param):
        return param() if callable(param) else param

    def _valid_dtypes(self):
        return (dtypes.float16, dtypes.float32, dtypes.float64)

    def _assert_valid_dtypes(self, tensors):
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError("Invalid type %r for %s, expected: %s." % (dtype, t.name, list(valid)))

    def _create_slots(self, var_list):
        """Creates the slot variables `var_list` needs (none by default)."""

    def _prepare(self):
        """Creates the hyper-parameter tensors, in the optimizer's name scope."""

    def _apply_dense(self, grad, var):
        """Returns the op applying the dense gradient `grad` to `var`."""
        raise NotImplementedError()

    def _apply_sparse_duplicate_indices(self, grad, var):
        """Applies an IndexedSlices gradient: repeated indices are summed into a dense gradient."""
        return self._apply_dense(ops.convert_to_tensor(grad), var)

    def _finish(self, update_ops, name_scope):
        """Returns the op that groups `update_ops`, named `name_scope`."""
        return core_ops.group(*update_ops, name=name_scope)

    # ---- slots ---------------------------------------------------------------------------------
    def _slot_dict(self, slot_name):
        return self._slots.setdefault(slot_name, {})

    def _get_or_make_slot(self, var, val, slot_name, op_name):
        """The slot `slot_name` of `var`, created with initial value `val` (a tensor or a callable)."""
        named_slots = self._slot_dict(slot_name)
        key = _var_key(var)
        if key not in named_slots:
            named_slots[key] = _create_slot(var, val, op_name, var.get_shape().is_fully_defined())
        return named_slots[key]

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name, op_name):
        """The slot `slot_name` of `var`, created with `initializer(shape, dtype)`."""
        shape = shape.as_list() if hasattr(shape, "as_list") else list(shape)
        dtype = dtypes.as_dtype(dtype)
        return self._get_or_make_slot(var, lambda: initializer(shape, dtype=dtype), slot_name, op_name)

    def _zeros_slot(self, var, slot_name, op_name):
        """The slot `slot_name` of `var`, created filled with zeros."""
        return self._get_or_make_slot(var, _filled(var, 0), slot_name, op_name)

    def _filled_slot(self, var, value, slot_name, op_name):
        """The slot `slot_name` of `var`, created filled with `value`."""
        return self._get_or_make_slot(var, _filled(var, value), slot_name, op_name)

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        """A variable of the optimizer not tied to one variable (e.g. Adam's `beta1_power`)."""
        graph = outermost_graph(colocate_with.graph)
        key = (name, graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with graph.as_default():
                v = Variable(initial_value, name=name, trainable=False)
            self._non_slot_dict[key] = v
        return v

    def _get_non_slot_variable(self, name, graph=None):
        return self._non_slot_dict.get((name, None if graph is None else outermost_graph(graph)))

    def _non_slot_variables(self):
        return self._non_slot_dict.values()


def _filled(var, value):
    """A callable giving the initial value of a slot of `var` filled with `value`."""
    dtype = var.dtype.base_dtype
    shape = var.get_shape()
    if shape.is_fully_defined():
        dims = tuple(shape.as_list())
        return lambda: constant_op.constant(np.full(dims, value, dtype=dtype.as_numpy_dtype), dtype=dtype,
                                            name="zeros" if value == 0 else "Const")
    if value == 0:
        return lambda: core_ops.zeros_like(var.initialized_value())
    if value == 1:
        return lambda: core_ops.ones_like(var.initialized_value())
    from ..ops import math_ops
    return lambda: math_ops.multiply(core_ops.ones_like(var.initialized_value()),
                                     constant_op.constant(value, dtype=dtype))


def _create_slot(primary, val, op_name, validate_shape):
    """A non-trainable variable named `<primary's op name>/<op_name>` (made unique), in
    GLOBAL_VARIABLES, outside any name scope and control dependencies."""
    graph = primary.op.graph
    with graph.as_default(), graph.name_scope(None), graph.control_dependencies(None):
        return Variable(val, name=primary.op.name + "/" + op_name, trainable=False, validate_shape=validate_shape)


def _gate(grads):
    """Each gradient, made to wait until every gradient is computed (GATE_GRAPH)."""
    present = [g for g in grads if g is not None]
    if not present:
        return grads
    with ops.name_scope(None, "tuple", [g.values if isinstance(g, IndexedSlices) else g for g in present]):
        gate = core_ops.group(*[g.op for g in present])
        out = []
        with ops.control_dependencies([gate]):
            for g in grads:
                if g is None:
                    out.append(None)
                elif isinstance(g, IndexedSlices):
                    out.append(IndexedSlices(core_ops.identity(g.values), g.indices, g.dense_shape))
                else:
                    out.append(core_ops.identity(g))
    return out
