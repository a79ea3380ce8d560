"""TensorFlow's graph file formats: `GraphDef` protocol buffers (`Graph.as_graph_def`,
`tf.import_graph_def`, `tf.train.write_graph`, `tf.graph_util`) and `TensorProto` values
(`tf.make_tensor_proto`, `tf.make_ndarray`). The messages are TensorBoard's compatibility protos
(the `[tensorboard]` extra), loaded on first use."""

from ..framework import ops as _ops
from ..summary.messages import LazyMessageClass as _Lazy
from . import graph_util
from .graph_def import graph_to_graph_def, import_graph_def, write_graph
from .tensor_proto import make_ndarray, make_tensor_proto

__all__ = ["graph_to_graph_def", "import_graph_def", "write_graph", "make_ndarray", "make_tensor_proto",
           "graph_util", "GraphDef", "NodeDef", "AttrValue", "NameAttrList", "TensorProto"]

GraphDef = _Lazy("graph_pb2", "GraphDef")
NodeDef = _Lazy("node_def_pb2", "NodeDef")
AttrValue = _Lazy("attr_value_pb2", "AttrValue")
NameAttrList = _Lazy("attr_value_pb2", "NameAttrList")
TensorProto = _Lazy("tensor_pb2", "TensorProto")

# Graph.as_graph_def (framework/, a lower layer) writes through this library.
_ops._graph_def_writer = graph_to_graph_def
