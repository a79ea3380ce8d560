"""`tf.graph_util`: GraphDef transformations (TensorFlow's `graph_util_impl`)."""

import re

from ..framework import dtypes, ops
from ..ops.summary_ops import proto_module
from . import graph_def as _graph_def
from .graph_def import import_graph_def
from .tensor_proto import make_tensor_proto

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "import_graph_def", "must_run_on_cpu",
           "remove_training_nodes", "tensor_shape_from_node_def_name"]

_VARIABLE_OPS = ("Variable", "VariableV2", "VarHandleOp")


def _graph_def_class(feature):
    return proto_module("graph_pb2", feature).GraphDef


def _node_name(n):
    return n[1:] if n.startswith("^") else n.split(":")[0]


def extract_sub_graph(graph_def, dest_nodes):
    """Extracts the subgraph that can reach any of the nodes in `dest_nodes`.

    Args:
      graph_def: A `GraphDef` proto.
      dest_nodes: A list of node names (strings).

    Returns:
      The `GraphDef` of the nodes `dest_nodes` depend on (inputs and control inputs), in their
      original order.

    Raises:
      TypeError: If `graph_def` is not a `GraphDef`, or `dest_nodes` is not a list of strings.
      AssertionError: If a node of `dest_nodes` is not in the graph.
    """
    graph_def_cls = _graph_def_class("tf.graph_util.extract_sub_graph")
    if not isinstance(graph_def, graph_def_cls):
        raise TypeError("graph_def must be a graph_pb2.GraphDef proto.")
    if isinstance(dest_nodes, str):
        raise TypeError("dest_nodes must be a list.")
    name_to_node = {_node_name(n.name): n for n in graph_def.node}
    for d in dest_nodes:
        assert d in name_to_node, "%s is not in graph" % d
    keep, stack = set(), list(dest_nodes)
    while stack:
        name = stack.pop()
        if name in keep:
            continue
        keep.add(name)
        stack.extend(_node_name(i) for i in name_to_node[name].input if _node_name(i) in name_to_node)
    out = graph_def_cls()
    for n in graph_def.node:
        if n.name in keep:
            out.node.add().CopyFrom(n)
    out.library.CopyFrom(graph_def.library)
    out.versions.CopyFrom(graph_def.versions)
    return out


def convert_variables_to_constants(sess, input_graph_def, output_node_names, variable_names_whitelist=None,
                                   variable_names_blacklist=None):
    """Replaces the variables the outputs need by constants holding their current values.

    Args:
      sess: An active `Session` on the graph `input_graph_def` describes.
      input_graph_def: A `GraphDef`.
      output_node_names: The names of the result nodes.
      variable_names_whitelist: If given, only these variables are converted.
      variable_names_blacklist: Variables not to convert.

    Returns:
      The frozen `GraphDef`: the subgraph the outputs need, with variables as `Const` nodes (and
      `ReadVariableOp`s of resource variables as `Identity`).

    Raises:
      TypeError, AssertionError: As `extract_sub_graph`.
      tf.errors.FailedPreconditionError: If a variable to convert is not initialized in `sess`.
    """
    graph_def_cls = _graph_def_class("tf.graph_util.convert_variables_to_constants")
    inference = extract_sub_graph(input_graph_def, output_node_names)
    names = []
    for node in inference.node:
        if node.op in _VARIABLE_OPS:
            name = node.name
            if (variable_names_whitelist is not None and name not in variable_names_whitelist) or \
                    (variable_names_blacklist is not None and name in variable_names_blacklist):
                continue
            names.append(name)
    values = dict(zip(names, sess.run([n + ":0" for n in names]))) if names else {}
    out = graph_def_cls()
    resource_vars = {n.name for n in inference.node if n.op == "VarHandleOp" and n.name in values}
    for node in inference.node:
        new = out.node.add()
        if node.name in values:
            dtype = dtypes.as_dtype(node.attr["dtype"].type)
            new.op = "Const"
            new.name = node.name
            new.attr["dtype"].type = dtype.as_datatype_enum
            new.attr["value"].tensor.CopyFrom(make_tensor_proto(values[node.name], dtype))
            if node.device:
                new.device = node.device
        elif node.op == "ReadVariableOp" and _node_name(node.input[0]) in resource_vars:
            new.op = "Identity"
            new.name = node.name
            new.input.extend(node.input)
            new.attr["T"].CopyFrom(node.attr["dtype"])
        else:
            new.CopyFrom(node)
    out.library.CopyFrom(inference.library)
    out.versions.CopyFrom(inference.versions)
    return out


def remove_training_nodes(input_graph, protected_nodes=None):
    """Prunes out nodes that are not needed for inference (TF's rules): `CheckNumerics` nodes are
    removed, and `Identity` nodes spliced out unless protected, with control inputs, or used as a
    control input.

    Args:
      input_graph: A `GraphDef`.
      protected_nodes: Names of nodes to keep.

    Returns:
      The pruned `GraphDef`.
    """
    graph_def_cls = _graph_def_class("tf.graph_util.remove_training_nodes")
    protected_nodes = protected_nodes or []
    names_to_remove = {n.name for n in input_graph.node if n.op == "CheckNumerics" and n.name not in protected_nodes}
    after_removal = []
    for node in input_graph.node:
        if node.name in names_to_remove:
            continue
        new = type(node)()
        new.CopyFrom(node)
        del new.input[:]
        new.input.extend(i for i in node.input if re.sub(r"^\^", "", i) not in names_to_remove)
        after_removal.append(new)
    control_input_names, with_control = set(), set()
    for node in after_removal:
        for i in node.input:
            if "^" in i:
                control_input_names.add(i.replace("^", ""))
                with_control.add(node.name)
    splice = {n.name: n.input[0] for n in after_removal
              if n.op == "Identity" and n.input and n.name not in protected_nodes and n.name not in with_control}
    splice = {k: v for k, v in splice.items() if k not in control_input_names}
    out = graph_def_cls()
    for node in after_removal:
        if node.name in splice:
            continue
        new = out.node.add()
        new.CopyFrom(node)
        del new.input[:]
        for full in node.input:
            name = re.sub(r"^\^", "", full)
            while name in splice:
                full = splice[name]
                name = re.sub(r"^\^", "", full)
            new.input.append(full)
    return out


def tensor_shape_from_node_def_name(graph, input_name):
    """The static shape of tensor `input_name` ("op" means "op:0") of `graph`.

    Returns:
      A `TensorShape`.
    """
    if ":" not in input_name:
        input_name += ":0"
    return graph.get_tensor_by_name(input_name).shape


# The ops `must_run_on_cpu(..., pin_variables_on_cpu=True)` pins (TF's list).
_VARIABLE_RELATED_OPS = ("Assign", "AssignAdd", "AssignSub", "Queue", "ScatterAdd", "ScatterSub", "ScatterUpdate",
                         "TruncatedNormal", "Variable", "VariableV2")


def must_run_on_cpu(node, pin_variables_on_cpu=False):
    """Whether a node must run on the CPU by TF's rule: string or int32 constants, int32 DynamicStitch and
    int32-source Cast (and, if asked, the variable ops).

    Args:
      node: An `Operation` or a `NodeDef`.
      pin_variables_on_cpu: Also pin the variable-related ops.

    Returns:
      A bool.
    """
    if isinstance(node, ops.Operation):
        node_def = proto_module("node_def_pb2", "tf.graph_util.must_run_on_cpu").NodeDef(name=node.name, op=node.type)
        _graph_def._node_def(node, node_def, False)  # with the dtype attrs TF's NodeDef has
        node = node_def
    op = node.op

    def attr_type(name):
        return dtypes.as_dtype(node.attr[name].type) if name in node.attr else None

    if pin_variables_on_cpu and op in _VARIABLE_RELATED_OPS:
        return True

    if op == "Const":
        return attr_type("dtype") in (dtypes.string, dtypes.int32)
    if op in ("DynamicStitch", "ParallelDynamicStitch"):
        return attr_type("T") == dtypes.int32
    if op == "Cast":
        return attr_type("SrcT") == dtypes.int32
    return False
