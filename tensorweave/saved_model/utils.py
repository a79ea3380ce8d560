"""`tf.saved_model.utils`: `TensorInfo` protocol buffers from tensors and back."""

from ..framework import dtypes, ops
from ..framework.sparse_tensor import SparseTensor
from . import _protos

__all__ = ["build_tensor_info", "build_tensor_info_from_op", "get_element_from_tensor_info",
           "get_tensor_from_tensor_info"]


def _check_graph_mode(what):
    from ..eager.context import executing_eagerly
    if executing_eagerly():
        raise RuntimeError("`%s` is not supported in eager execution." % what)


def _shape_proto(shape):
    proto = _protos.tensor_shape_pb2.TensorShapeProto()
    if shape.ndims is None:
        proto.unknown_rank = True
        return proto
    for d in shape.as_list():
        proto.dim.add(size=-1 if d is None else d)
    return proto


def build_tensor_info(tensor):
    """Utility function to build TensorInfo proto from a Tensor.

    Args:
      tensor: Tensor or SparseTensor whose name, dtype and shape are used to build the
        TensorInfo. For SparseTensors, the names of the three constituent Tensors are used.

    Returns:
      A TensorInfo protocol buffer constructed based on the supplied argument.

    Raises:
      RuntimeError: If eager execution is enabled.
      TypeError: If `tensor` is neither a Tensor nor a SparseTensor (nor a Variable).
    """
    _check_graph_mode("build_tensor_info")
    if hasattr(tensor, "_as_graph_element") and not isinstance(tensor, (ops.Tensor, SparseTensor)):
        tensor = tensor._as_graph_element()  # a Variable: its value
    if isinstance(tensor, SparseTensor):
        info = _protos.meta_graph_pb2.TensorInfo(dtype=dtypes.as_dtype(tensor.dtype).as_datatype_enum,
                                                 tensor_shape=_shape_proto(tensor.get_shape()))
        info.coo_sparse.values_tensor_name = tensor.values.name
        info.coo_sparse.indices_tensor_name = tensor.indices.name
        info.coo_sparse.dense_shape_tensor_name = tensor.dense_shape.name
        return info
    if not isinstance(tensor, ops.Tensor):
        raise TypeError("build_tensor_info expects a Tensor or SparseTensor, got %r" % (tensor,))
    return _protos.meta_graph_pb2.TensorInfo(name=tensor.name, dtype=tensor.dtype.as_datatype_enum,
                                             tensor_shape=_shape_proto(tensor.shape))


def build_tensor_info_from_op(op):
    """Builds a TensorInfo naming an Op (dtype DT_INVALID, unknown shape), as the init and train
    op signatures hold.

    Args:
      op: An Op whose name is used to build the TensorInfo.

    Returns:
      A TensorInfo protocol buffer.

    Raises:
      RuntimeError: If eager execution is enabled.
    """
    _check_graph_mode("build_tensor_info_from_op")
    shape = _protos.tensor_shape_pb2.TensorShapeProto(unknown_rank=True)
    return _protos.meta_graph_pb2.TensorInfo(dtype=0, tensor_shape=shape, name=op.name)


def _scoped(name, import_scope):
    return import_scope.rstrip("/") + "/" + name if import_scope else name


def get_tensor_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """Returns the Tensor or SparseTensor described by a TensorInfo proto.

    Args:
      tensor_info: A TensorInfo proto describing a Tensor or SparseTensor.
      graph: The tf.Graph in which tensors are looked up. If None, the current default graph is
        used.
      import_scope: If not None, names in `tensor_info` are prefixed with this string before
        lookup.

    Returns:
      The Tensor or SparseTensor in `graph` described by `tensor_info`.

    Raises:
      KeyError: If `tensor_info` does not correspond to a tensor in `graph`.
      ValueError: If `tensor_info` is malformed.
    """
    graph = graph or ops.get_default_graph()

    def get(name):
        return graph.get_tensor_by_name(_scoped(name, import_scope))

    encoding = tensor_info.WhichOneof("encoding")
    if encoding == "name":
        return get(tensor_info.name)
    if encoding == "coo_sparse":
        sp = tensor_info.coo_sparse
        return SparseTensor(get(sp.indices_tensor_name), get(sp.values_tensor_name), get(sp.dense_shape_tensor_name))
    raise ValueError("Invalid TensorInfo.encoding: %s. Expected `coo_sparse` or `name` for a dense tensor "
                     "(`composite_tensor` is not supported by tensorweave)." % encoding)


def get_element_from_tensor_info(tensor_info, graph=None, import_scope=None):
    """Returns the Op or Tensor in the graph named by a TensorInfo proto.

    Args:
      tensor_info: A TensorInfo proto describing an Op or Tensor by name.
      graph: The tf.Graph in which to look (default: the default graph).
      import_scope: If not None, names in `tensor_info` are prefixed with this string before
        lookup.

    Returns:
      The Op or Tensor in `graph` described by `tensor_info`.

    Raises:
      KeyError: If `tensor_info` does not correspond to an op or tensor in `graph`.
    """
    graph = graph or ops.get_default_graph()
    return graph.as_graph_element(_scoped(tensor_info.name, import_scope))
