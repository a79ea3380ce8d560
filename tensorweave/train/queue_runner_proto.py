"""TF's `QueueRunnerDef` protocol buffer (tensorflow/core/protobuf/queue_runner.proto), built from a
descriptor on first use: how meta graphs store the QUEUE_RUNNERS collection. TensorBoard's protos,
which tensorweave uses for the other messages, do not include it."""

import threading

from ..ops._descriptors import build_once, message_class_getter

__all__ = ["QueueRunnerDef"]

_lock = threading.Lock()
_cache = {}


def _build():
    from google.protobuf import descriptor_pb2, descriptor_pool
    fdp = descriptor_pb2.FieldDescriptorProto
    codes = descriptor_pb2.FileDescriptorProto(name="tensorflow/core/protobuf/error_codes.proto",
                                               package="tensorflow.error", syntax="proto3")
    enum = codes.enum_type.add(name="Code")
    for i, name in enumerate(["OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
                              "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
                              "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
                              "UNAUTHENTICATED"]):
        enum.value.add(name=name, number=i if name != "UNAUTHENTICATED" else 16)
    qr = descriptor_pb2.FileDescriptorProto(name="tensorflow/core/protobuf/queue_runner.proto",
                                            package="tensorflow", syntax="proto3", dependency=[codes.name])
    m = qr.message_type.add(name="QueueRunnerDef")
    for name, number, label, ftype, type_name in [
            ("queue_name", 1, fdp.LABEL_OPTIONAL, fdp.TYPE_STRING, None),
            ("enqueue_op_name", 2, fdp.LABEL_REPEATED, fdp.TYPE_STRING, None),
            ("close_op_name", 3, fdp.LABEL_OPTIONAL, fdp.TYPE_STRING, None),
            ("cancel_op_name", 4, fdp.LABEL_OPTIONAL, fdp.TYPE_STRING, None),
            ("queue_closed_exception_types", 5, fdp.LABEL_REPEATED, fdp.TYPE_ENUM, ".tensorflow.error.Code")]:
        f = m.field.add(name=name, number=number, label=label, type=ftype)
        if type_name:
            f.type_name = type_name
            f.options.packed = True
    pool = descriptor_pool.DescriptorPool()
    pool.Add(codes)
    pool.Add(qr)
    return {"QueueRunnerDef": message_class_getter(pool)(pool.FindMessageTypeByName("tensorflow.QueueRunnerDef"))}


def QueueRunnerDef(*args, **kwargs):  # noqa: N802 (the message's name)
    """A new `QueueRunnerDef` message (the class built on first use; protobuf is the `[data]` extra)."""
    return message_class()(*args, **kwargs)


def message_class():
    """The `QueueRunnerDef` message class.

    Raises:
      ImportError: If protobuf (`tensorweave[data]`) is not installed.
    """
    try:
        return build_once(_lock, _cache, _build)["QueueRunnerDef"]
    except ImportError:
        raise ImportError("Queue runners in meta graphs need protobuf: pip install tensorweave[data]") from None
