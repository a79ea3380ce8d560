"""A `GraphDef` protocol buffer (TensorBoard's definition) describing a tensorweave `Graph`, for the
graph dashboard: one `NodeDef` per operation with its name, op type, inputs ("op", "op:1", "^ctrl"),
device and the attributes that have a protobuf form (types, shapes, numbers, strings, small tensors).
"""

import numpy as np

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..graph_io.graph_def import _input_name, _is_shape, _shape_proto
from ..ops.summary_ops import make_tensor_proto, proto_module

__all__ = ["graph_to_graph_def", "MAX_CONST_ELEMENTS"]

# Constants with more elements are described by their dtype and shape only.
MAX_CONST_ELEMENTS = 1024

# Attributes that hold a shape, and a list of shapes, even when written as tuples of ints.
_SHAPE_ATTRS = ("shape", "element_shape")
_SHAPE_LIST_ATTRS = ("shapes", "output_shapes", "element_shapes")


def _tensor_attr(value, attr_pb2):
    arr = np.asarray(value)
    if arr.size > MAX_CONST_ELEMENTS:
        return None
    if arr.dtype == object:
        dt = dtypes.string
    else:
        try:
            dt = dtypes.as_dtype(arr.dtype)
        except TypeError:
            return None
    return attr_pb2.AttrValue(tensor=make_tensor_proto(arr, dt))


def _attr_value(key, value, attr_pb2):
    """The `AttrValue` for one attribute, or None for values with no protobuf form (functions, tokens)."""
    if isinstance(value, dtypes.DType):
        return attr_pb2.AttrValue(type=value.as_datatype_enum)
    if isinstance(value, TensorShape) or (key in _SHAPE_ATTRS and _is_shape(value)):
        return attr_pb2.AttrValue(shape=_shape_proto(value))
    if isinstance(value, (bool, np.bool_)):
        return attr_pb2.AttrValue(b=bool(value))
    if isinstance(value, (int, np.integer)):
        return attr_pb2.AttrValue(i=int(value))
    if isinstance(value, (float, np.floating)):
        return attr_pb2.AttrValue(f=float(value))
    if isinstance(value, str):
        return attr_pb2.AttrValue(s=value.encode("utf-8"))
    if isinstance(value, bytes):
        return attr_pb2.AttrValue(s=value)
    if isinstance(value, np.ndarray):
        return _tensor_attr(value, attr_pb2)
    if isinstance(value, (list, tuple)):
        lst = attr_pb2.AttrValue.ListValue()
        if key in _SHAPE_LIST_ATTRS and all(_is_shape(v) for v in value):
            lst.shape.extend(_shape_proto(v) for v in value)
        elif all(isinstance(v, dtypes.DType) for v in value):
            lst.type.extend(v.as_datatype_enum for v in value)
        elif all(isinstance(v, (bool, np.bool_)) for v in value):
            lst.b.extend(bool(v) for v in value)
        elif all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
            lst.i.extend(int(v) for v in value)
        elif all(isinstance(v, (int, float, np.integer, np.floating)) for v in value):
            lst.f.extend(float(v) for v in value)
        elif all(isinstance(v, (str, bytes)) for v in value):
            lst.s.extend(v if isinstance(v, bytes) else v.encode("utf-8") for v in value)
        elif all(isinstance(v, TensorShape) for v in value):
            lst.shape.extend(_shape_proto(v) for v in value)
        else:
            return None
        return attr_pb2.AttrValue(list=lst)
    return None


def graph_to_graph_def(graph, add_shapes=False):
    """Describes `graph` as a `GraphDef` protocol buffer.

    Args:
      graph: A `tf.Graph`.
      add_shapes: If true, adds an "_output_shapes" list attribute to each node with the static
        shapes of its outputs (as TF's `Graph.as_graph_def(add_shapes=True)`).

    Returns:
      A `tensorboard.compat.proto.graph_pb2.GraphDef`. Attributes whose values have no protobuf form
      (Python callables, internal tokens, attributes starting with "_") are left out, and so is the
      value of a constant with more than `MAX_CONST_ELEMENTS` elements.

    Raises:
      ImportError: If the `tensorboard` extra is not installed.
    """
    feature = "tf.summary.FileWriter.add_graph"
    graph_pb2 = proto_module("graph_pb2", feature)
    attr_pb2 = proto_module("attr_value_pb2", feature)
    graph_def = graph_pb2.GraphDef()
    for op in graph.get_operations():
        node = graph_def.node.add(name=op.name, op=op.type, device=op.device or "")
        node.input.extend(_input_name(t) for t in op.inputs)
        node.input.extend("^" + c.name for c in op.control_inputs)
        for key, value in op.attrs.items():
            if key.startswith("_"):
                continue
            av = _attr_value(key, value, attr_pb2)
            if av is not None:
                node.attr[key].CopyFrom(av)
        if add_shapes and op.outputs:
            lst = attr_pb2.AttrValue.ListValue()
            lst.shape.extend(_shape_proto(t.shape) for t in op.outputs)
            node.attr["_output_shapes"].CopyFrom(attr_pb2.AttrValue(list=lst))
    return graph_def
