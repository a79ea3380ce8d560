"""The protocol buffer messages of a SavedModel, with TensorFlow's wire format.

`MetaGraphDef`, `SignatureDef`, `TensorInfo` and `AssetFileDef` are TensorBoard's copies of
TensorFlow's messages (`tensorboard.compat.proto.meta_graph_pb2`, the `tensorboard` extra).
TensorBoard has no `SavedModel` message, so it is built here, at first use, from a descriptor with
TensorFlow's field numbers (`tensorflow/core/protobuf/saved_model.proto`):

    message SavedModel {
      int64 saved_model_schema_version = 1;
      repeated MetaGraphDef meta_graphs = 2;
    }

It is added to the default descriptor pool (where TensorBoard's `MetaGraphDef` lives) under the
package `tensorweave`, so it never clashes with another copy; the package does not appear in the
bytes. protobuf is imported only when one of these is used.
"""

import threading

from ..ops._descriptors import build_once, message_class_getter

__all__ = ["saved_model_class"]  # and, on first access, any_pb2, meta_graph_pb2, tensor_shape_pb2, types_pb2

_lock = threading.Lock()
_saved_model = {}

_EXTRA = "pip install 'tensorweave[tensorboard]'"


def _import():
    try:
        from google.protobuf import any_pb2
        from tensorboard.compat.proto import meta_graph_pb2, tensor_shape_pb2, types_pb2
    except ImportError:
        raise ImportError("tf.saved_model needs protobuf and TensorBoard's protocol buffer messages: "
                          + _EXTRA) from None
    return any_pb2, meta_graph_pb2, tensor_shape_pb2, types_pb2


def __getattr__(name):
    modules = dict(zip(("any_pb2", "meta_graph_pb2", "tensor_shape_pb2", "types_pb2"), _import()))
    if name in modules:
        return modules[name]
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


def saved_model_class():
    """The `SavedModel` message class (built on first call).

    Raises:
      ImportError: If protobuf or TensorBoard (the `tensorboard` extra) is not installed.
    """
    return build_once(_lock, _saved_model, lambda: {"SavedModel": _build()})["SavedModel"]


def _build():
    _, meta_graph_pb2, _, _ = _import()
    from google.protobuf import descriptor_pb2, descriptor_pool
    pool = descriptor_pool.Default()
    full_name = "tensorweave.SavedModel"
    try:
        descriptor = pool.FindMessageTypeByName(full_name)
    except KeyError:
        meta_file = meta_graph_pb2.DESCRIPTOR
        f = descriptor_pb2.FileDescriptorProto(name="tensorweave/saved_model/saved_model.proto",
                                               package="tensorweave", syntax="proto3",
                                               dependency=[meta_file.name])
        m = f.message_type.add(name="SavedModel")
        m.field.add(name="saved_model_schema_version", number=1, label=1, type=3,  # optional int64
                    json_name="savedModelSchemaVersion")
        m.field.add(name="meta_graphs", number=2, label=3, type=11,  # repeated message
                    type_name="." + meta_graph_pb2.MetaGraphDef.DESCRIPTOR.full_name, json_name="metaGraphs")
        pool.Add(f)
        descriptor = pool.FindMessageTypeByName(full_name)
    cls = message_class_getter(pool)(descriptor)
    cls.__module__ = __name__
    return cls
