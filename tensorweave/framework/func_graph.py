"""Function graphs: the bodies of `cond` branches and `while_loop` bodies, traced into graphs of
their own. Outer tensors a body uses are captured as extra inputs; variables, variable scopes,
collections and the random seed are shared with the outermost graph."""

from . import ops


class FuncGraph(ops.Graph):
    """A graph traced from a Python function, nested in `outer_graph`.

    `inputs` are the placeholders of the explicit arguments; `captures` maps each outer tensor the
    body used to the placeholder standing for it inside.
    """

    def __init__(self, name, outer_graph):
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph
        self.inputs = []
        self.outputs = []
        self.captures = {}  # tensor of outer_graph -> placeholder here
        self._by_original = {}  # any enclosing graph's tensor -> placeholder here
        root = outer_graph
        while isinstance(root, FuncGraph):
            root = root.outer_graph
        self.root_graph = root
        # Shared with the outermost graph: one variable store, scopes, collections and seed.
        self._var_store = root._var_store
        self._var_scope_stack = root._var_scope_stack
        self._collections = root._collections
        self._seed = root._seed
        self._gradient_override_map = dict(outer_graph._gradient_override_map)
        self._device_stack = list(outer_graph._device_stack)

    @property
    def seed(self):
        return self.root_graph.seed

    @seed.setter
    def seed(self, value):
        self.root_graph.seed = value

    def _last_id(self):
        return self.root_graph._last_id() + len(self._ops)

    def _check_inputs(self, op_type, op_def, inputs):
        refs = op_def.ref_inputs
        out = []
        for i, t in enumerate(inputs):
            if t._op._graph is not self and i not in refs:
                t = self.capture(t)
            out.append(t)
        return out

    def capture(self, tensor):
        """The placeholder standing for the outer `tensor` inside this graph (made on first use).
        A tensor of a graph further out is first captured by the graphs in between.

        Raises:
          ValueError: If `tensor` belongs to no enclosing graph.
        """
        if tensor.graph is self:
            return tensor
        inner = self._by_original.get(tensor)
        if inner is not None:
            return inner
        if tensor.op._op_def.variable_read:
            # A variable is read where it is used, each time the body runs, not once at entry.
            inner = ops.apply_op("RefRead", [tensor]) if ops.get_default_graph() is self else None
            if inner is None:
                with self.as_default():
                    inner = ops.apply_op("RefRead", [tensor])
            return inner
        if tensor.graph is self.outer_graph:
            outer_t = tensor
        elif isinstance(self.outer_graph, FuncGraph):
            outer_t = self.outer_graph.capture(tensor)
        else:
            raise ValueError("Tensor %s must be from the same graph as the function %s." % (tensor, self.name))
        inner = self.captures.get(outer_t)
        if inner is None:
            with self.as_default(), self.name_scope(None):
                inner = ops.apply_op("Placeholder", [], {"dtype": tensor.dtype, "shape": tensor.shape.as_tuple()},
                                     name="capture")
            self.captures[outer_t] = inner
        self._by_original[tensor] = inner
        return inner

    @property
    def external_captures(self):
        """The outer tensors captured, in capture order."""
        return list(self.captures.keys())

    @property
    def internal_captures(self):
        return list(self.captures.values())


def outermost_graph(graph=None):
    """The non-function graph enclosing `graph` (default graph): where variables are created."""
    g = graph or ops.get_default_graph()
    while isinstance(g, FuncGraph):
        g = g.outer_graph
    return g
