"""`tf.Variable`: TF1 reference variables in graphs, eager variables while executing eagerly, and the
variable collection helpers.

An eager variable's value lives in the eager context under a unique key; its handle (an eager tensor
whose op is a "VariableV2" named by that key) is the reference input of assign and optimizer ops, so
the same kernels update it at once, and graphs traced by `tf.function` read and update it at each
call.
"""

import weakref

from .eager import context, tape
from .eager.tensor import _CPU, EagerTensor, _numpy_text, make, make_handle
from .framework import dtypes, ops, registry, tensor_util
from .framework.func_graph import FuncGraph, outermost_graph
from .framework.ops import GraphKeys
from .framework.tensor_shape import as_shape, unknown_shape
from .ops import core_ops, state_ops


class Variable:
    """A TF1 variable: a VariableV2 op whose value lives in each Session, an `initializer` (Assign of
    `initial_value`) and a `read` snapshot used when the variable appears in expressions.

    Args:
      initial_value: A tensor or Python/NumPy value, or a callable returning one.
      trainable: Also add to the TRAINABLE_VARIABLES collection.
      collections: Collections to add to (default GLOBAL_VARIABLES).
      validate_shape: If false, the shape may change by assignment.
      name: Name (default "Variable", made unique).
      dtype: Element type (converted initial value).
      expected_shape, caching_device, constraint, use_resource, ...: Accepted for compatibility.

    Raises:
      ValueError: If `initial_value` is None.
    """

    def __new__(cls, *args, **kwargs):
        # While executing eagerly (or tracing a tf.function in eager mode) tf.Variable makes an eager
        # variable, which holds its value.
        if cls is Variable and outermost_graph()._eager:
            return object.__new__(EagerVariable)
        return object.__new__(cls)

    def __init__(self, initial_value=None, trainable=True, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None, synchronization=None,
                 aggregation=None, shape=None):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        # Variables are created outside any cond branch or loop body, as TF's init_scope does, under
        # the name scope in force where they were asked for.
        here = ops.get_default_graph()
        g = outermost_graph(here)
        if g is here:
            self._init(g, initial_value, trainable, collections, validate_shape, name, dtype, constraint, shape)
            return
        scope = here.get_name_scope()
        with g.as_default(), g.name_scope(scope + "/" if scope else None):
            self._init(g, initial_value, trainable, collections, validate_shape, name, dtype, constraint, shape)

    def _init(self, g, initial_value, trainable, collections, validate_shape, name, dtype, constraint, shape):
        if collections is None:
            collections = [GraphKeys.GLOBAL_VARIABLES]
        collections = list(collections)
        if trainable and GraphKeys.TRAINABLE_VARIABLES not in collections:
            collections.append(GraphKeys.TRAINABLE_VARIABLES)
        init_from_fn = callable(initial_value)
        with g.control_dependencies(None):
            with ops.name_scope(name, "Variable", [] if init_from_fn else [initial_value]) as scope:
                if init_from_fn:
                    with g.name_scope("Initializer"):
                        iv = ops.convert_to_tensor(initial_value(), name="initial_value", dtype=dtype)
                else:
                    iv = ops.convert_to_tensor(initial_value, name="initial_value", dtype=dtype)
                self._initial_value = iv
                var_shape = iv.shape if validate_shape else None
                if shape is not None:
                    var_shape = shape
                self._variable = state_ops.variable_op_v2(var_shape, iv.dtype, name=scope)
                self._initializer_op = state_ops.assign(self._variable, iv, validate_shape=validate_shape,
                                                        name="Assign").op
                self._snapshot = core_ops.identity(self._variable, name="read")
        self._trainable = trainable
        self._constraint = constraint
        self._save_slice_info = None
        g.add_to_collections(collections, self)

    # ---- identity --------------------------------------------------------------------------
    @property
    def name(self):
        return self._variable.name

    @property
    def op(self):
        return self._variable.op

    @property
    def graph(self):
        return self._variable.graph

    @property
    def dtype(self):
        return self._variable.dtype

    @property
    def shape(self):
        return self._variable.shape

    def get_shape(self):
        return self._variable.shape

    @property
    def device(self):
        return self._variable.device

    @property
    def trainable(self):
        return self._trainable

    @property
    def constraint(self):
        return self._constraint

    @property
    def initializer(self):
        """The op that assigns the initial value."""
        return self._initializer_op

    @property
    def initial_value(self):
        return self._initial_value

    def _ref(self):
        return self._variable

    def _as_graph_element(self):
        return self._variable

    def _grad_tensor(self):
        return self._variable

    # ---- reading and writing ----------------------------------------------------------------
    def value(self):
        """The snapshot tensor (`name/read`) used wherever the variable is read."""
        return self._snapshot

    def read_value(self):
        """A new Identity op reading the current value."""
        return core_ops.identity(self._variable, name="read")

    def initialized_value(self):
        """The value if initialized in the running session, else the initial value."""
        with ops.get_default_graph().control_dependencies(None):
            return ops.apply_op("VariableOrInitial", [self._variable, self._initial_value])

    def eval(self, session=None):
        """The value in `session` (default: the default session)."""
        return self._variable.eval(session=session)

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """Assigns `value`; returns the new value (or the op if `read_value` is false)."""
        t = state_ops.assign(self._variable, value, use_locking=use_locking, name=name)
        return t if read_value else t.op

    def assign_add(self, delta, use_locking=False, name=None, read_value=True):
        t = state_ops.assign_add(self._variable, delta, use_locking=use_locking, name=name)
        return t if read_value else t.op

    def assign_sub(self, delta, use_locking=False, name=None, read_value=True):
        t = state_ops.assign_sub(self._variable, delta, use_locking=use_locking, name=name)
        return t if read_value else t.op

    def _scatter(self, kind, sparse_delta, use_locking, name):
        from .framework.indexed_slices import IndexedSlices
        from .ops import scatter_ops
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("sparse_delta is not IndexedSlices: %s" % (sparse_delta,))
        return getattr(scatter_ops, "scatter_" + kind)(self._variable, sparse_delta.indices, sparse_delta.values,
                                                       use_locking=use_locking, name=name)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Assigns the `IndexedSlices` `sparse_delta` to this variable's rows (`tf.scatter_update`).

        Raises:
          TypeError: If `sparse_delta` is not an `IndexedSlices`.
        """
        return self._scatter("update", sparse_delta, use_locking, name)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        """Adds the `IndexedSlices` `sparse_delta` to this variable's rows (`tf.scatter_add`)."""
        return self._scatter("add", sparse_delta, use_locking, name)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        """Subtracts the `IndexedSlices` `sparse_delta` from this variable's rows (`tf.scatter_sub`)."""
        return self._scatter("sub", sparse_delta, use_locking, name)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        """Multiplies this variable's rows by the `IndexedSlices` `sparse_delta` (`tf.scatter_mul`)."""
        return self._scatter("mul", sparse_delta, use_locking, name)

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        """Divides this variable's rows by the `IndexedSlices` `sparse_delta` (`tf.scatter_div`)."""
        return self._scatter("div", sparse_delta, use_locking, name)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        """The minimum of this variable's rows and the `IndexedSlices` `sparse_delta` (`tf.scatter_min`)."""
        return self._scatter("min", sparse_delta, use_locking, name)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        """The maximum of this variable's rows and the `IndexedSlices` `sparse_delta` (`tf.scatter_max`)."""
        return self._scatter("max", sparse_delta, use_locking, name)

    def batch_scatter_update(self, sparse_delta, use_locking=False, name=None):
        """`tf.batch_scatter_update` of this variable with the `IndexedSlices` `sparse_delta`.

        Raises:
          TypeError: If `sparse_delta` is not an `IndexedSlices`.
        """
        from .framework.indexed_slices import IndexedSlices
        from .tf1_misc import batch_scatter_update
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("sparse_delta is not IndexedSlices: %s" % (sparse_delta,))
        return batch_scatter_update(self, sparse_delta.indices, sparse_delta.values, use_locking=use_locking,
                                    name=name)

    def scatter_nd_update(self, indices, updates, name=None):
        """`tf.scatter_nd_update` of this variable."""
        from .ops import scatter_ops
        return scatter_ops.scatter_nd_update(self._variable, indices, updates, use_locking=True, name=name)

    def scatter_nd_add(self, indices, updates, name=None):
        """`tf.scatter_nd_add` of this variable."""
        from .ops import scatter_ops
        return scatter_ops.scatter_nd_add(self._variable, indices, updates, use_locking=True, name=name)

    def scatter_nd_sub(self, indices, updates, name=None):
        """`tf.scatter_nd_sub` of this variable."""
        from .ops import scatter_ops
        return scatter_ops.scatter_nd_sub(self._variable, indices, updates, use_locking=True, name=name)

    def count_up_to(self, limit):
        """Increments this variable until it reaches `limit` (`tf.count_up_to`): returns its value before
        the increment; running it at `limit` raises `OutOfRangeError`."""
        from .ops.state_count_ops import count_up_to
        return count_up_to(self, limit)

    def load(self, value, session=None):
        """Writes `value` into the variable in `session` by feeding the initializer.

        Raises:
          ValueError: If there is no session.
        """
        if session is None:
            session = ops.get_default_session()
            if session is None:
                raise ValueError("Either session argument should be provided or default session should be "
                                 "established")
        session.run(self._initializer_op, {self._initializer_op.inputs[1]: value})

    def set_shape(self, shape):
        self._variable.set_shape(shape)
        self._snapshot.set_shape(shape)

    def to_proto(self, export_scope=None):
        return None

    def __repr__(self):
        return "<tf.Variable '%s' shape=%s dtype=%s_ref>" % (self.name, self.shape, self.dtype.name)

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __bool__(self):
        return bool(self._snapshot)

    def __iter__(self):
        raise TypeError("'Variable' object is not iterable.")

    def __array__(self, dtype=None):
        return self._snapshot.__array__(dtype)

    __array_priority__ = 100


def _delegate(name):
    if name in ("__neg__", "__abs__", "__invert__"):
        def method(self):
            return getattr(self.value(), name)()
    else:
        def method(self, other):
            return getattr(self.value(), name)(other)
    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
              "__rtruediv__", "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__", "__pow__", "__rpow__",
              "__matmul__", "__rmatmul__", "__neg__", "__abs__", "__invert__", "__and__", "__rand__", "__or__",
              "__ror__", "__xor__", "__rxor__", "__lt__", "__le__", "__gt__", "__ge__", "__getitem__"):
    setattr(Variable, _name, _delegate(_name))


def _convert_variable(v, dtype=None, name=None, as_ref=False):
    t = v._variable if as_ref else v._snapshot
    if dtype is not None and dtypes.as_dtype(dtype) is not t.dtype:
        raise ValueError("Incompatible type conversion requested to type '%s' for variable of type '%s'"
                         % (dtypes.as_dtype(dtype).name, t.dtype.name))
    return t


ops.register_tensor_conversion_function(Variable, _convert_variable)
VariableV1 = Variable
RefVariable = Variable


# ---- eager variables ---------------------------------------------------------------------------
def _initial_tensor(value, dtype):
    """The initial value as an eager tensor; a constant graph tensor (made inside a traced function)
    is folded.

    Raises:
      ValueError: If it is a graph tensor whose value depends on the function's inputs.
    """
    if callable(value):
        value = value()
    if isinstance(value, ops.Tensor) and not isinstance(value, EagerTensor):
        folded = tensor_util.constant_value(value)
        if folded is None:
            raise ValueError("A tf.Variable created inside a tf.function needs an initial value that does not "
                             "depend on the function's inputs (pass a callable or a constant), got %s." % value)
        value = folded
    return ops.convert_to_tensor(value, dtype=dtype)


class EagerVariable(Variable):
    """A variable holding its value (TF's ResourceVariable in eager mode): reads and assignments
    happen at once.

    Created by `tf.Variable(...)` while executing eagerly (also inside a `tf.function` trace, lifted
    to the eager context). Not added to collections, as in TF's eager mode.

    Args: as `tf.Variable`.

    Raises:
      ValueError: If `initial_value` is None, or `shape` does not fit it.
    """

    def __init__(self, initial_value=None, trainable=True, collections=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None, expected_shape=None,
                 import_scope=None, constraint=None, use_resource=None, synchronization=None,
                 aggregation=None, shape=None):
        if initial_value is None:
            raise ValueError("initial_value must be specified.")
        here = ops.get_default_graph()
        scope = here.get_name_scope()
        with context.init_scope():
            g = ops.get_default_graph()
            with g.name_scope(scope + "/" if scope else None), ops.name_scope(name, "Variable") as full:
                iv = _initial_tensor(initial_value, dtype)
        if shape is not None:
            var_shape = as_shape(shape)
            if not var_shape.is_compatible_with(iv.shape):
                raise ValueError("The initial value's shape (%s) is not compatible with the explicitly supplied "
                                 "`shape` argument (%s)." % (iv.shape, var_shape))
        else:
            var_shape = iv.shape if validate_shape else unknown_shape()
        ctx = context.context()
        self._name = full[:-1]
        self._unique_id = "%s_%d" % (self._name, context.uid())
        self._handle = make_handle(self._unique_id, self._name, iv.dtype, var_shape, self)
        ctx.variables[self._unique_id] = state_ops._freeze(iv._value)
        weakref.finalize(self, ctx.variables.pop, self._unique_id, None)
        ctx.variables_created += 1
        for scope in ctx.variable_creation_scopes:
            scope.append(self)
        self._initial_value = iv
        self._trainable = trainable
        self._constraint = constraint
        self._save_slice_info = None

    # ---- identity ----------------------------------------------------------------------------
    @property
    def name(self):
        return self._name + ":0"

    @property
    def op(self):
        return self._handle._op

    @property
    def graph(self):
        return context.eager_graph()

    @property
    def dtype(self):
        return self._handle._dtype

    @property
    def shape(self):
        return self._handle._shape

    def get_shape(self):
        return self._handle._shape

    @property
    def device(self):
        return _CPU

    @property
    def handle(self):
        return self._handle

    @property
    def initializer(self):
        """None: an eager variable is initialized when created."""
        return None

    def _ref(self):
        return self._handle

    def _as_graph_element(self):
        return self._handle

    def _grad_tensor(self):
        return self._handle

    @property
    def _variable(self):
        return self._handle

    @property
    def _snapshot(self):
        return self.value()

    # ---- reading and writing --------------------------------------------------------------------
    def value(self):
        """The current value: an eager tensor (recorded by tapes) when executing eagerly, a read op
        when a graph is being built (a `tf.function` trace reads the variable at each call)."""
        g = ops.get_default_graph()
        if not g._eager:
            return _graph_read(g, self._handle)
        t = make(context.context().read_variable(self._unique_id), self._handle._dtype)
        if tape._stack:
            tape.variable_read(self, t, _read_grad)
        return t

    def read_value(self):
        return self.value()

    def initialized_value(self):
        return self.value()

    def numpy(self):
        """The current value as a NumPy array (a copy)."""
        return self.value().numpy()

    def eval(self, session=None):
        raise NotImplementedError("eval is not supported when eager execution is enabled, is .numpy() the method "
                                  "you want?")

    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Assigns `value` now; returns the new value (None if `read_value` is false)."""
        t = state_ops.assign(self, value, use_locking=use_locking, name=name)
        return t if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        t = state_ops.assign_add(self, delta, use_locking=use_locking, name=name)
        return t if read_value else None

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        t = state_ops.assign_sub(self, delta, use_locking=use_locking, name=name)
        return t if read_value else None

    def load(self, value, session=None):
        """Assigns `value` (eager variables need no session)."""
        self.assign(value)

    def set_shape(self, shape):
        raise NotImplementedError("ResourceVariable does not implement set_shape()")

    def __float__(self):
        return float(self.value())

    def __int__(self):
        return int(self.value())

    def __index__(self):
        return self.value().__index__()

    def __repr__(self):
        if not ops.get_default_graph()._eager:
            return "<tf.Variable '%s' shape=%s dtype=%s>" % (self.name, self.shape, self.dtype.name)
        return "<tf.Variable '%s' shape=%s dtype=%s, numpy=%s>" % (
            self.name, self.shape, self.dtype.name, _numpy_text(self.value(), True))


ops._EAGER_VARIABLE_TYPES.add(EagerVariable)


def _read_grad(op, grad):
    """d/dvar read(var) = identity."""
    return [grad]


def _graph_read(g, handle):
    """A read of the variable at this point of graph `g`. Inside a cond branch or loop body the
    value is read there (fresh at each iteration) while its gradient goes to a read in the
    function's top graph that the body captures, so gradients reach the variable through the
    If/While op."""
    fresh = ops.apply_op("RefRead", [handle])
    if not isinstance(g, FuncGraph) or not isinstance(g.outer_graph, FuncGraph):
        return fresh
    top = g.outer_graph
    while isinstance(top.outer_graph, FuncGraph):
        top = top.outer_graph
    with top.as_default():
        outer = ops.apply_op("RefRead", [handle])
    with g.gradient_override_map({"IdentityN": "EagerVariableNestedRead"}):
        return ops.apply_op("IdentityN", [fresh, g.capture(outer)])[0]


@registry.RegisterGradient("EagerVariableNestedRead")
def _nested_read_grad(op, grad, unused_grad):
    """The fresh read (output 0) passes its gradient to the captured outer read (input 1)."""
    return [None, grad]


# ---- collections -------------------------------------------------------------------------------
def global_variables(scope=None):
    """Variables in the GLOBAL_VARIABLES collection (filtered by `scope`, a name regex)."""
    return ops.get_collection(GraphKeys.GLOBAL_VARIABLES, scope)


all_variables = global_variables


def trainable_variables(scope=None):
    return ops.get_collection(GraphKeys.TRAINABLE_VARIABLES, scope)


def local_variables(scope=None):
    return ops.get_collection(GraphKeys.LOCAL_VARIABLES, scope)


def model_variables(scope=None):
    return ops.get_collection(GraphKeys.MODEL_VARIABLES, scope)


def moving_average_variables(scope=None):
    return ops.get_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, scope)


def variables_initializer(var_list, name="init"):
    """An op running the initializers of `var_list` (a NoOp when empty)."""
    if var_list:
        return core_ops.group(*[v.initializer for v in var_list], name=name)
    return core_ops.no_op(name=name)


def global_variables_initializer():
    """An op initializing every global variable (named "init")."""
    return variables_initializer(global_variables())


def initialize_all_variables():
    """Deprecated alias of `global_variables_initializer`."""
    return global_variables_initializer()


def local_variables_initializer():
    return variables_initializer(local_variables())


initialize_local_variables = local_variables_initializer


def initialize_variables(var_list, name="init"):
    return variables_initializer(var_list, name)


def is_variable_initialized(variable):
    return state_ops.is_variable_initialized(variable)


def report_uninitialized_variables(var_list=None, name="report_uninitialized_variables"):
    """A 1-D string tensor with the names of the variables not initialized in the running session."""
    if var_list is None:
        var_list = global_variables() + local_variables()
    with ops.name_scope(name) as scope:
        return state_ops._report_op([v._ref() if hasattr(v, "_ref") else v for v in var_list], scope)

