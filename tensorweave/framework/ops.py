"""Graph, Operation and Tensor, with TF1's naming, scopes, collections and default-graph stack."""

import contextlib
import os
import re
import sys
import threading

from . import dtypes, registry
from .device import DeviceSpec, merge_device
from .tensor_shape import TensorShape, as_shape

_PKG_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _creation_site():
    """(file, line) of the first stack frame outside tensorweave."""
    f = sys._getframe(2)
    while f is not None and f.f_code.co_filename.startswith(_PKG_DIR):
        f = f.f_back
    if f is None:
        return ("<unknown>", 0)
    return (f.f_code.co_filename, f.f_lineno)


class Tensor:
    """A symbolic handle to one output of an `Operation`, as TF1's `tf.Tensor`.

    Tensors hash and compare by identity (`==` is object identity, as in TF1).
    """

    __slots__ = ("_op", "_value_index", "_dtype", "_shape", "_consumers", "__weakref__")
    __array_priority__ = 100

    def __init__(self, op, value_index, dtype, shape):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape = shape if isinstance(shape, TensorShape) else TensorShape._from_tuple(shape)
        self._consumers = []

    @property
    def op(self):
        return self._op

    @property
    def graph(self):
        return self._op._graph

    @property
    def name(self):
        return "%s:%d" % (self._op._name, self._value_index)

    @property
    def dtype(self):
        return self._dtype

    @property
    def value_index(self):
        return self._value_index

    @property
    def device(self):
        return self._op.device

    @property
    def shape(self):
        return self._shape

    def get_shape(self):
        return self._shape

    def set_shape(self, shape):
        """Refines the static shape.

        Raises:
          ValueError: If `shape` is not compatible with the current static shape.
        """
        self._shape = self._shape.merge_with(as_shape(shape))

    def consumers(self):
        return list(self._consumers)

    def eval(self, feed_dict=None, session=None):
        """Runs this tensor in `session` (default: the default session) and returns its value."""
        return _run_using_default_session(self, feed_dict, self.graph, session)

    def _as_tf_output(self):
        return self

    def __repr__(self):
        return "<tf.Tensor '%s' shape=%s dtype=%s>" % (self.name, self._shape, self._dtype.name)

    def __str__(self):
        return 'Tensor("%s"%s, dtype=%s%s)' % (
            self.name, ", shape=%s" % (self._shape,) if self._shape.ndims is not None else "", self._dtype.name,
            ", device=%s" % self.device if self.device else "")

    # __eq__/__hash__ stay object identity (TF1 semantics), with CPython's fast built-in versions.

    def __bool__(self):
        raise TypeError(
            "Using a `tf.Tensor` as a Python `bool` is not allowed. Use `if t is not None:` instead of "
            "`if t:` to test if a tensor is defined, and use TensorFlow ops such as tf.cond to execute "
            "subgraphs conditioned on the value of a tensor.")

    __nonzero__ = __bool__

    def __len__(self):
        raise TypeError("len is not well defined for symbolic Tensors. (%s) Please call `x.shape` rather "
                        "than `len(x)` for shape information." % self.name)

    def __iter__(self):
        raise TypeError("Tensor objects are only iterable when eager execution is enabled. To iterate over this "
                        "tensor use tf.map_fn.")

    def __array__(self, dtype=None):
        raise NotImplementedError("Cannot convert a symbolic Tensor (%s) to a numpy array." % self.name)

    def __index__(self):
        raise TypeError("Cannot use a symbolic Tensor (%s) as a Python integer." % self.name)


class Operation:
    """A node of the graph, as TF1's `tf.Operation`."""

    __slots__ = ("_graph", "_name", "_type", "_inputs", "_control_inputs", "_attrs", "_outputs",
                 "_device", "_site", "_id", "_op_def", "_grad_type", "_control_outputs", "__weakref__")

    @property
    def name(self):
        return self._name

    @property
    def skip_input_indices(self):
        """Inside the op's gradient function called by `tf.gradients`: the indices of the inputs
        whose gradients nobody needs (they do not depend on the xs), which the function may leave
        None, as TF 2's gradient functions do. None when not known."""
        return _skip_input_indices.get(self)

    @property
    def type(self):
        return self._type

    @property
    def graph(self):
        return self._graph

    @property
    def inputs(self):
        return tuple(self._inputs)

    @property
    def outputs(self):
        return list(self._outputs)

    @property
    def control_inputs(self):
        return list(self._control_inputs)

    @property
    def device(self):
        return self._device

    @property
    def attrs(self):
        return self._attrs

    @property
    def op_def(self):
        return self._op_def

    @property
    def traceback(self):
        return [self._site]

    @property
    def creation_site(self):
        """'file.py:12', where the user created this op."""
        return "%s:%d" % self._site

    def get_attr(self, name):
        """Returns the attribute `name`.

        Raises:
          ValueError: If the op has no such attribute.
        """
        try:
            return self._attrs[name]
        except KeyError:
            raise ValueError("Operation '%s' has no attr named '%s'." % (self._name, name)) from None

    def values(self):
        return tuple(self._outputs)

    def colocation_groups(self):
        """The colocation groups of this op (bytes "loc:@name"): those of its `_class` attribute
        (set by `colocate_with`), else its own name."""
        groups = [g for g in self._attrs.get("_class", ()) if g.startswith(b"loc:@")]
        return groups or [("loc:@%s" % self._name).encode("utf-8")]

    def run(self, feed_dict=None, session=None):
        """Runs this op in `session` (default: the default session)."""
        _run_using_default_session(self, feed_dict, self._graph, session)

    def _add_control_input(self, op):
        if op not in self._control_inputs:
            self._control_inputs.append(op)
            op._control_outputs.append(self)
            self._graph._version += 1

    def _add_control_inputs(self, ops):
        for op in ops:
            self._add_control_input(op)

    def __repr__(self):
        return "<tf.Operation '%s' type=%s>" % (self._name, self._type)

    def __str__(self):
        return 'name: "%s"\nop: "%s"\n' % (self._name, self._type) + "".join(
            'input: "%s"\n' % t.name for t in self._inputs) + "".join(
            'input: "^%s"\n' % c.name for c in self._control_inputs)


def _run_using_default_session(fetch, feed_dict, graph, session):
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError("Cannot evaluate tensor using `eval()`: No default session is registered. Use "
                             "`with sess.as_default()` or pass an explicit session to `eval(session=sess)`")
    if session.graph is not graph:
        raise ValueError("Cannot use the given session to evaluate tensor: the tensor's graph is different "
                         "from the session's graph.")
    return session.run(fetch, feed_dict)


class GraphKeys:
    """Standard collection names, as `tf.GraphKeys`."""

    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    METRIC_VARIABLES = "metric_variables"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    VARIABLES = GLOBAL_VARIABLES


_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


# Installed by tensorweave.graph_io (a library above this layer): Graph -> GraphDef.
_graph_def_writer = None


class Graph:
    """A TF1 dataflow graph: operations in creation order, names, scopes and collections."""

    # True for the eager context's graph (`tensorweave.eager.context.EagerGraph`), whose ops run at once.
    _eager = False

    def __init__(self):
        self._ops = []
        self._ops_by_name = {}
        self._names_in_use = {}
        self._name_stack = ""
        self._control_stack = []
        self._device_stack = []
        self._colocation_stack = []
        self._gradient_override_map = {}
        self._collections = {}
        self._finalized = False
        self._version = 0
        self._seed = None
        self._lock = threading.RLock()
        self._py_funcs = {}
        self._var_store = None
        self._var_scope_stack = []
        self._building_function = False

    # ---- default graph -------------------------------------------------------------------
    def as_default(self):
        """Makes this graph the default graph inside the `with` block."""
        return _DefaultGraph(self)

    # ---- properties ----------------------------------------------------------------------
    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, value):
        self._seed = value

    @property
    def finalized(self):
        return self._finalized

    @property
    def version(self):
        return len(self._ops)

    @property
    def building_function(self):
        return self._building_function

    def finalize(self):
        """Makes the graph read-only: adding an op then raises RuntimeError."""
        self._finalized = True

    def _unsafe_unfinalize(self):
        self._finalized = False

    def as_graph_def(self, from_version=None, add_shapes=False):
        """Returns a serialized `GraphDef` representation of this graph (TensorFlow's protocol buffer:
        TF's op types and attributes, importable by TensorFlow's `tf.import_graph_def`).

        Args:
          from_version: Must be None (TF's incremental form is not supported).
          add_shapes: If true, adds an "_output_shapes" list attr to each node.

        Returns:
          A `GraphDef` protocol buffer.

        Raises:
          ImportError: If the `tensorboard` extra (protobuf messages) is not installed.
          NotImplementedError: If `from_version` is given.
        """
        if _graph_def_writer is None:
            raise ImportError("Graph.as_graph_def needs tensorweave.graph_io (import tensorweave)")
        return _graph_def_writer(self, from_version=from_version, add_shapes=add_shapes)

    def get_operations(self):
        return list(self._ops)

    def get_operation_by_name(self, name):
        """Returns the op called `name`.

        Raises:
          KeyError: If there is no such op.
          TypeError: If `name` is not a string.
        """
        if not isinstance(name, str):
            raise TypeError("Operation names are strings (or similar), not %s." % type(name).__name__)
        return self.as_graph_element(name, allow_tensor=False, allow_operation=True)

    def get_tensor_by_name(self, name):
        """Returns the tensor called `name` ("op:index").

        Raises:
          KeyError: If there is no such tensor.
          ValueError: If `name` is not of the form "op:index".
        """
        if not isinstance(name, str):
            raise TypeError("Tensor names are strings (or similar), not %s." % type(name).__name__)
        return self.as_graph_element(name, allow_tensor=True, allow_operation=False)

    def as_graph_element(self, obj, allow_tensor=True, allow_operation=True):
        """Resolves a name, Tensor, Operation or Variable to a Tensor or Operation of this graph."""
        if allow_tensor and hasattr(obj, "_as_graph_element"):
            obj = obj._as_graph_element()
        if isinstance(obj, str):
            name = obj
            if ":" in name and allow_tensor:
                try:
                    op_name, idx = name.rsplit(":", 1)
                    idx = int(idx)
                except ValueError:
                    raise ValueError("The name %r looks a like a Tensor name, but is not a valid one. Tensor "
                                     "names must be of the form \"<op_name>:<output_index>\"." % name) from None
                op = self._ops_by_name.get(op_name)
                if op is None:
                    raise KeyError("The name %r refers to a Tensor which does not exist. The operation, %r, "
                                   "does not exist in the graph." % (name, op_name))
                if idx >= len(op._outputs):
                    raise KeyError("The name %r refers to a Tensor which does not exist. The operation, %r, "
                                   "exists but only has %d outputs." % (name, op_name, len(op._outputs)))
                return op._outputs[idx]
            if ":" in name and not allow_tensor:
                raise ValueError("Name %r appears to refer to a Tensor, not a Operation." % name)
            if not allow_operation:
                raise ValueError("The name %r looks like an (invalid) Operation name, not a Tensor. Tensor "
                                 "names must be of the form \"<op_name>:<output_index>\"." % name)
            op = self._ops_by_name.get(name)
            if op is None:
                raise KeyError("The name %r refers to an Operation not in the graph." % name)
            return op
        if isinstance(obj, Tensor) and allow_tensor:
            if obj.graph is not self:
                raise ValueError("Tensor %s is not an element of this graph." % obj)
            return obj
        if isinstance(obj, Operation) and allow_operation:
            if obj._graph is not self:
                raise ValueError("Operation %s is not an element of this graph." % obj)
            return obj
        types = [t for t, ok in (("Tensor", allow_tensor), ("Operation", allow_operation)) if ok]
        raise TypeError("Can not convert a %s into a %s." % (type(obj).__name__, " or ".join(types)))

    # ---- naming --------------------------------------------------------------------------
    def get_name_scope(self):
        return self._name_stack

    def unique_name(self, name, mark_as_used=True):
        """Returns `name` under the current name scope, made unique as TF does (`a`, `a_1`, ...)."""
        if self._name_stack:
            name = self._name_stack + "/" + name
        name_key = name.lower()
        i = self._names_in_use.get(name_key, 0)
        if mark_as_used:
            self._names_in_use[name_key] = i + 1
        if i > 0:
            base_name_key = name_key
            while name_key in self._names_in_use:
                name_key = "%s_%d" % (base_name_key, i)
                i += 1
            if mark_as_used:
                self._names_in_use[name_key] = 1
            name = "%s_%d" % (name, i - 1)
        return name

    def name_scope(self, name):
        """Opens a name scope; `with` gives the scope string ending in "/" (or "" at the top).

        Raises:
          ValueError: If `name` is not a valid scope name (on entering the `with`).
        """
        return _GraphNameScope(self, name)

    # ---- scopes --------------------------------------------------------------------------
    @contextlib.contextmanager
    def control_dependencies(self, control_inputs):
        """Ops created inside run after `control_inputs` (ops or tensors); None clears them."""
        if control_inputs is None:
            old = self._control_stack
            self._control_stack = []
            try:
                yield
            finally:
                self._control_stack = old
            return
        ops = _ControlFrame()
        for c in control_inputs:
            if hasattr(c, "_as_control_op"):
                c = c._as_control_op()
            if isinstance(c, Tensor):
                c = c.op
            elif not isinstance(c, Operation):
                c = self.as_graph_element(c)
                c = c.op if isinstance(c, Tensor) else c
            if c not in ops:
                ops.append(c)
        self._control_stack.append(ops)
        try:
            yield
        finally:
            self._control_stack.pop()

    @contextlib.contextmanager
    def device(self, device_name_or_function):
        """Records a device on ops created inside (placement itself comes later).

        Args:
          device_name_or_function: A device string or `DeviceSpec` (merged field by field with the
            devices of inner scopes, in canonical form), a function of the new `Operation` (its
            result replaces the op's device: a string exactly as returned, a `DeviceSpec` as its
            string), or None (outer scopes stop applying).

        Raises:
          TypeError: When a device function returns something other than a string or `DeviceSpec`
            (as the op is created).
        """
        self._device_stack.append(device_name_or_function)
        try:
            yield
        finally:
            self._device_stack.pop()

    @contextlib.contextmanager
    def container(self, container_name):
        """Returns a context manager that specifies the resource container to use.

        Stateful ops created inside (variables) whose `container` attribute is empty get
        `container_name` instead, as in TF.

        Args:
          container_name: The container string to use in the context.

        Yields:
          The container name.
        """
        original = getattr(self, "_container", "")
        self._container = container_name
        try:
            yield container_name
        finally:
            self._container = original

    @contextlib.contextmanager
    def colocate_with(self, op, ignore_existing=False):
        """Ops created inside are placed with `op`: they take its device (when it has one, over any
        `device` scope) and join its colocation group (the `_class` attribute "loc:@name"), so the
        session places the whole group on one device. Device scopes opened outside do not apply
        inside; ones opened inside do, unless `op` has a device.

        Args:
          op: An Operation, Tensor or Variable; None (with `ignore_existing`) clears colocation.
          ignore_existing: Forget the enclosing `colocate_with` blocks.

        Raises:
          ValueError: If `op` is None and `ignore_existing` is false.
        """
        if op is None and not ignore_existing:
            raise ValueError("Trying to reset colocation (op is None) but ignore_existing is not True")
        if self._eager:
            yield
            return
        if op is not None:
            op = _op_to_colocate_with(op)
        saved = self._device_stack, self._colocation_stack
        self._device_stack = []
        stack = [] if ignore_existing else list(self._colocation_stack)
        self._colocation_stack = stack + ([op] if op is not None else [])
        try:
            yield
        finally:
            self._device_stack, self._colocation_stack = saved

    @contextlib.contextmanager
    def gradient_override_map(self, op_type_map):
        """Ops of the given types created inside use the gradient registered under the mapped name.

        Raises:
          TypeError: If the map is not str -> str.
        """
        for k, v in op_type_map.items():
            if not isinstance(k, str) or not isinstance(v, str):
                raise TypeError("Must use a mapping from string op types to string gradient names.")
        saved = dict(self._gradient_override_map)
        self._gradient_override_map.update(op_type_map)
        try:
            yield
        finally:
            self._gradient_override_map = saved

    # ---- collections ---------------------------------------------------------------------
    def add_to_collection(self, name, value):
        self._collections.setdefault(name, []).append(value)

    def add_to_collections(self, names, value):
        names = (names,) if isinstance(names, str) else set(names)
        for name in names:
            self.add_to_collection(name, value)

    def get_collection_ref(self, name):
        return self._collections.setdefault(name, [])

    def get_collection(self, name, scope=None):
        """Returns a copy of the collection, filtered by `scope` (a regex matched against names)."""
        items = self._collections.get(name, [])
        if scope is None:
            return list(items)
        regex = re.compile(scope)
        return [i for i in items if hasattr(i, "name") and regex.match(i.name)]

    @property
    def collections(self):
        """The names of the collections in this graph."""
        return self.get_all_collection_keys()

    def get_all_collection_keys(self):
        return [k for k in self._collections if isinstance(k, str)]

    def clear_collection(self, name):
        self._collections.pop(name, None)

    # ---- op creation ---------------------------------------------------------------------
    def create_op(self, op_type, inputs, dtypes=None, input_types=None, name=None, attrs=None,
                  op_def=None, compute_shapes=True, compute_device=True):
        """Adds an op of a registered type (TF's signature; `dtypes` is checked, not needed)."""
        op = self._create_op(op_type, list(inputs), dict(attrs or {}), name)
        return op

    def _create_op(self, op_type, inputs, attrs, name=None, control_inputs=()):
        if self._finalized:
            raise RuntimeError("Graph is finalized and cannot be modified.")
        op_def = registry._OPS.get(op_type) or registry.get_op_def(op_type)
        for t in inputs:
            if t._op._graph is not self:  # another graph's tensor: an error, or a function graph's capture
                inputs = self._check_inputs(op_type, op_def, inputs)
                break
        with self._lock:
            if not name:
                name = self.unique_name(op_type)
            elif name[-1] == "/":
                name = name[:-1]
            else:
                if not _VALID_OP_NAME.match(name) and not self._name_stack:
                    raise ValueError("'%s' is not a valid node name" % name)
                name = self.unique_name(name)
            op = Operation.__new__(Operation)
            op._graph = self
            op._name = name
            op._type = op_type
            op._inputs = inputs
            if attrs.get("container") == "" and getattr(self, "_container", "") and op_def.stateful:
                attrs = dict(attrs, container=self._container)  # `with tf.container(name):`
            op._attrs = attrs
            op._op_def = op_def
            op._site = _creation_site()
            op._grad_type = self._gradient_override_map.get(op_type)
            op._control_outputs = []
            op._device = _current_device(self._device_stack, op) if self._device_stack else ""
            if self._colocation_stack:
                _colocate(op, self._colocation_stack)
            ctrl = list(control_inputs)
            if self._control_stack:
                input_ops = {t._op for t in inputs}
                for frame in self._control_stack:
                    # An input created in the same block already runs after the frame's ops.
                    if any(o in frame.seen for o in input_ops):
                        continue
                    for c in frame:
                        if c not in input_ops and c not in ctrl:
                            ctrl.append(c)
            op._control_inputs = ctrl
            try:
                specs = op_def.infer(op)
            except (ValueError, TypeError) as e:
                raise type(e)("%s for '%s' (op: '%s') with input shapes: %s." % (
                    e, name, op_type, ", ".join(str(t._shape) for t in inputs))) from e
            op._outputs = [Tensor(op, i, dt, shp) for i, (dt, shp) in enumerate(specs)]
            op._id = len(self._ops)
            self._ops.append(op)
            self._ops_by_name[name] = op
            for t in inputs:
                t._consumers.append(op)
            for c in ctrl:
                c._control_outputs.append(op)
            for frame in self._control_stack:
                frame.seen.add(op)
        return op

    def _check_inputs(self, op_type, op_def, inputs):
        """Inputs must live in this graph (a function graph captures outer ones instead)."""
        for t in inputs:
            if t._op._graph is not self:
                raise ValueError("Tensor %s must be from the same graph as %s." % (t, inputs[0] if inputs else op_type))
        return inputs

    def is_feedable(self, tensor):
        return True

    def is_fetchable(self, tensor_or_op):
        return True

    def _last_id(self):
        return len(self._ops)


_valid_scope_names = set()


class _DefaultGraph:
    """`with graph.as_default():` (a class, not a generator: graph building enters these per op)."""

    __slots__ = ("_graph",)

    def __init__(self, graph):
        self._graph = graph

    def __enter__(self):
        _graph_stack.append(self._graph)
        return self._graph

    def __exit__(self, *exc):
        _graph_stack.pop()


class _GraphNameScope:
    """`with graph.name_scope(name) as scope:`."""

    __slots__ = ("_graph", "_name", "_old")

    def __init__(self, graph, name):
        self._graph = graph
        self._name = name

    def __enter__(self):
        g, name = self._graph, self._name
        if name and name not in _valid_scope_names:
            if not _VALID_SCOPE_NAME.match(name) or (not g._name_stack and not _VALID_OP_NAME.match(name)):
                raise ValueError("'%s' is not a valid scope name" % name)
            if _VALID_OP_NAME.match(name) and len(_valid_scope_names) < 4096:
                _valid_scope_names.add(name)  # valid at any depth
        self._old = g._name_stack
        if not name:
            new = ""
        elif name[-1] == "/":
            new = name[:-1]
        else:
            new = g.unique_name(name)
        g._name_stack = new
        return "" if not new else new + "/"

    def __exit__(self, *exc):
        self._graph._name_stack = self._old


class _ControlFrame(list):
    """The ops of one `control_dependencies` block, and the ops created inside it."""

    def __init__(self):
        super().__init__()
        self.seen = set()


def _op_to_colocate_with(v):
    """The Operation that `colocate_with(v)` means: v's op for a Tensor or Variable."""
    if isinstance(v, Operation):
        return v
    if isinstance(v, Tensor):
        return v._op
    op = getattr(v, "op", None)
    if isinstance(op, Operation):
        return op
    return convert_to_tensor(v)._op


def _colocate(op, stack):
    """TF's colocation of a new op: the innermost colocation op with a device gives its device, and
    the op's `_class` lists the groups of every op on the stack."""
    groups = set()
    device = None
    for c in reversed(stack):
        groups.update(c.colocation_groups())
        if device is None and c._device:
            device = c._device
    if device is not None:
        op._device = device
    op._attrs = dict(op._attrs, _class=sorted(groups))


def _device_function_result(value):
    """The device TF records for what a device function returned: a DeviceSpec's string, a string
    exactly as returned (not canonicalized; bytes decoded)."""
    if isinstance(value, DeviceSpec):
        return value.to_string()
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, str):
        return value
    raise TypeError("Expected binary or unicode string, got %r" % (value,))


def _current_device(stack, op):
    """Applies device scopes innermost first, as TF: strings fill fields not yet set, functions
    replace the device, and `device(None)` stops the outer scopes from applying."""
    op._device = ""
    for d in reversed(stack):
        if d is None:
            break
        if callable(d) and not isinstance(d, DeviceSpec):
            op._device = _device_function_result(d(op))
        else:
            op._device = merge_device(d, op._device)
    return op._device


# ---- default graph stack -----------------------------------------------------------------
_graph_stack = []
_global_default = [None]
# The class of the global default graph: `Graph`, or the eager graph after `tf.enable_eager_execution()`.
_global_default_class = [None]


def get_default_graph():
    """Returns the innermost graph made default by `as_default`, or the global default graph."""
    if _graph_stack:
        return _graph_stack[-1]
    g = _global_default[0]
    if g is None:
        g = _global_default[0] = (_global_default_class[0] or Graph)()
    return g


def reset_default_graph():
    """Replaces the global default graph with a fresh one and empties this thread's default-session stack.

    Raises:
      AssertionError: If called inside a `with graph.as_default()` block.
    """
    if _graph_stack:
        raise AssertionError("Do not use tf.reset_default_graph() to clear nested graphs. If you need a "
                             "cleared graph, exit the nesting and create a new graph.")
    _global_default[0] = (_global_default_class[0] or Graph)()
    _default_session_stack.sessions.clear()


# ---- default session stack -----------------------------------------------------------------
class _SessionStack(threading.local):
    """The sessions made default in this thread, innermost last (as TF's, each thread has its own)."""

    def __init__(self):
        self.sessions = []


_default_session_stack = _SessionStack()


def get_default_session():
    """Returns the innermost session made default in this thread (`with sess:`, `sess.as_default()`, an
    `InteractiveSession`), or None. `Tensor.eval` and `Operation.run` run in it."""
    sessions = _default_session_stack.sessions
    return sessions[-1] if sessions else None


class default_session:
    """`with default_session(sess):` makes `sess` this thread's default session inside the block
    (what `Session.as_default()` returns); `__enter__` alone makes it default until
    `remove_default_session` (an `InteractiveSession`)."""

    def __init__(self, session):
        self._session = session

    def __enter__(self):
        _default_session_stack.sessions.append(self._session)
        return self._session

    def __exit__(self, *exc):
        remove_default_session(self._session)


def remove_default_session(session):
    """Takes `session` off this thread's default-session stack (the innermost entry first)."""
    sessions = _default_session_stack.sessions
    if sessions and sessions[-1] is session:
        sessions.pop()
    elif any(s is session for s in sessions):
        sessions.remove(session)


@contextlib.contextmanager
def name_scope(name, default_name=None, values=None):
    """`tf.name_scope(name, default_name=None, values=None)`: opens a name scope (`default_name`
    when `name` is None) in the graph of `values`, which is the default graph inside the block.

    Raises:
      ValueError: If `values` come from different graphs, or both names are None with `values`.
    """
    if name is None and default_name is None and values is not None:
        raise ValueError("At least one of name (%s) and default_name (%s) must be provided." % (name, default_name))
    g = _graph_of(values)
    with g.as_default(), g.name_scope(default_name if name is None else name) as scope:
        yield scope


def _graph_of(values):
    """The graph of the tensors/ops in `values` (default graph if none).

    Raises:
      ValueError: If they belong to different graphs.
    """
    found = None
    for v in values or ():
        if type(v) is Tensor:
            g = v._op._graph
            if g is found:
                continue
        else:
            t = v._as_graph_element() if hasattr(v, "_as_graph_element") else v
            if not isinstance(t, (Tensor, Operation)):
                continue
            g = t.graph
        if found is None or _encloses(g, found):
            found = g
        elif g is not found and not _encloses(found, g):
            raise ValueError("%s must be from the same graph as %s." % (v, values[0]))
    return _graph_for(found)


_EAGER_TYPES = set()  # classes of eager values (eager tensors), registered by the eager layer
_EAGER_VARIABLE_TYPES = set()  # eager variable classes (variables.EagerVariable): operands read with `.value()`
_PLAIN_TYPES = {float, int, bool, list, tuple, str, bytes}


def _all_eager(values):
    """True if no value in `values` belongs to a graph: each is an eager tensor, or a Python/NumPy
    value (while executing eagerly, ops on them run in the eager graph)."""
    for v in values or ():
        t = type(v)
        if t in _EAGER_TYPES or t in _PLAIN_TYPES:
            continue
        if t is Tensor or isinstance(v, (Tensor, Operation)) or hasattr(v, "_as_graph_element"):
            return False
    return True


def _encloses(inner, outer):
    """True if `inner` is a function graph nested (at any depth) in `outer`."""
    g = getattr(inner, "outer_graph", None)
    while g is not None:
        if g is outer:
            return True
        g = getattr(g, "outer_graph", None)
    return False


def _graph_for(input_graph):
    """Where an op on `input_graph`'s tensors goes: that graph, unless the default graph is a
    function graph nested inside it (then the default graph, which captures the tensors)."""
    d = get_default_graph()
    if input_graph is None or input_graph is d or _encloses(d, input_graph):
        return d
    return input_graph


def control_dependencies(control_inputs):
    return get_default_graph().control_dependencies(control_inputs)


def device(device_name_or_function):
    """`tf.device`: the default graph's `Graph.device` scope (see there)."""
    return get_default_graph().device(device_name_or_function)


def colocate_with(op, ignore_existing=False):
    return get_default_graph().colocate_with(op, ignore_existing)


def container(container_name):
    """`tf.container`: the default graph's `Graph.container` scope (see there)."""
    return get_default_graph().container(container_name)


def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_collection(key, scope=None):
    return get_default_graph().get_collection(key, scope)


def get_collection_ref(key):
    return get_default_graph().get_collection_ref(key)


def get_name_scope():
    return get_default_graph().get_name_scope()


# ---- op construction helpers used by every op module --------------------------------------
_eager_run = [None]  # eager.execute.run, once eager execution is imported
_eager_make = [None]  # eager.tensor.make: (ndarray, DType) -> an eager tensor
_eager_run_typed = [None]  # eager.execute.run_typed: ops whose output dtype the caller knows


def _eager_default():
    """The default graph if it executes eagerly, else None (also before any graph exists)."""
    d = _graph_stack[-1] if _graph_stack else _global_default[0]
    return d if d is not None and d._eager else None


def apply_op(op_type, inputs, attrs=None, name=None):
    """Creates an op in the graph of its inputs and returns its output (a list if several)."""
    if inputs and type(inputs[0]) is not Tensor:
        d = _eager_default()
        if d is not None:  # straight to the kernel (eager.execute.run)
            res = _eager_run[0](op_type, inputs, attrs, name)
            if type(res) is list:  # never empty: an op without outputs gives its record
                return res[0] if len(res) == 1 else res
            outs = res._outputs
            if len(outs) == 1:
                return outs[0]
            return outs if outs else res
    g = _graph_for(inputs[0]._op._graph) if inputs else get_default_graph()
    op = g._create_op(op_type, inputs, attrs if attrs is not None else {}, name)
    outs = op._outputs
    if len(outs) == 1:
        return outs[0]
    return outs if outs else op


# ---- conversion --------------------------------------------------------------------------
_conversion_funcs = []
_skip_input_indices = {}  # op -> input indices whose gradients are not needed (set by tf.gradients)
_PYTHON_SCALARS = (float, int)
_python_scalars_direct = [True]  # until a conversion function claims Python scalars


def register_tensor_conversion_function(base_type, conversion_func, priority=100):
    """Registers `conversion_func(value, dtype=None, name=None, as_ref=False)` for `base_type`.

    Raises:
      TypeError: If `base_type` is not a type (or tuple of types) or `conversion_func` not callable.
    """
    bases = base_type if isinstance(base_type, tuple) else (base_type,)
    if not bases or not all(isinstance(b, type) for b in bases):
        raise TypeError("base_type must be a type or a tuple of types.")
    if not callable(conversion_func):
        raise TypeError("conversion_func must be callable.")
    if any(issubclass(t, b) for t in _PYTHON_SCALARS for b in bases):
        _python_scalars_direct[0] = False
    _conversion_funcs.append((priority, base_type, conversion_func))
    _conversion_funcs.sort(key=lambda t: t[0])


def convert_to_tensor(value, dtype=None, name=None, preferred_dtype=None, dtype_hint=None, as_ref=False):
    """Converts Tensors, Variables, Python values and NumPy arrays to a Tensor.

    Raises:
      ValueError: If a Tensor's dtype conflicts with `dtype`.
      TypeError: If the value cannot be converted.
    """
    if isinstance(value, Tensor):
        if dtype is not None and dtypes.as_dtype(dtype) is not value._dtype:
            raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                             % (dtypes.as_dtype(dtype).name, value._dtype.name, value))
        return value
    preferred_dtype = preferred_dtype or dtype_hint
    if _python_scalars_direct[0] and type(value) in _PYTHON_SCALARS and dtype is None and preferred_dtype is not None:
        try:  # no conversion function handles Python scalars: straight to a constant
            return _constant_fn[0](value, dtype=preferred_dtype, name=name or "Const")
        except (TypeError, ValueError):
            pass
    for _, base, fn in _conversion_funcs:
        if isinstance(value, base):
            if preferred_dtype is not None and dtype is None:
                try:
                    t = fn(value, dtype=preferred_dtype, name=name, as_ref=as_ref)
                    if t is not NotImplemented:
                        return t
                except (TypeError, ValueError):
                    pass
            t = fn(value, dtype=dtype, name=name, as_ref=as_ref)
            if t is NotImplemented:
                continue
            if dtype is not None and dtypes.as_dtype(dtype) is not t.dtype:
                raise ValueError("Tensor conversion requested dtype %s for Tensor with dtype %s: %r"
                                 % (dtypes.as_dtype(dtype).name, t.dtype.name, t))
            return t
    if preferred_dtype is not None and dtype is None:
        try:
            return _constant_fn[0](value, dtype=preferred_dtype, name=name or "Const")
        except (TypeError, ValueError):
            pass
    return _constant_fn[0](value, dtype=dtype, name=name or "Const")


_constant_fn = [None]


def convert_n_to_tensor(values, dtype=None, name=None):
    return [convert_to_tensor(v, dtype=dtype) for v in values]


def internal_convert_to_tensor(value, dtype=None, name=None, as_ref=False, preferred_dtype=None):
    return convert_to_tensor(value, dtype=dtype, name=name, preferred_dtype=preferred_dtype, as_ref=as_ref)


def is_tensor(x):
    return isinstance(x, Tensor) or hasattr(x, "_as_graph_element") and hasattr(x, "dtype")
