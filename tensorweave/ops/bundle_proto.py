"""The protocol buffer messages of TensorFlow's tensor bundle (V2 checkpoint) index:
`BundleHeaderProto`, `BundleEntryProto`, and the messages they use (`TensorShapeProto`,
`TensorSliceProto`, `VersionDef`, the `DataType` enum).

They are built at first use with protobuf's descriptor API from definitions equal to TensorFlow's
(`tensorflow/core/protobuf/tensor_bundle.proto`, `framework/tensor_shape.proto`,
`framework/tensor_slice.proto`, `framework/versions.proto`, `framework/types.proto`: package
`tensorflow`, proto3, the same field names and numbers), in a private descriptor pool so they never
clash with TensorFlow's or TensorBoard's copies in the same process. The bytes are TensorFlow's.
Only protobuf is needed (the `data` extra).
"""

import threading

from ._descriptors import build_once, json_name, message_class_getter

__all__ = ["data_type_name", "message_classes"]

_lock = threading.Lock()
_classes = {}

_OPTIONAL, _REPEATED = 1, 3
_INT64, _INT32, _FIXED32, _BOOL, _STRING, _MESSAGE, _ENUM = 3, 5, 7, 8, 9, 11, 14

# tensorflow/core/framework/types.proto (the values tensorweave can meet in a checkpoint and more).
_DATA_TYPES = [("DT_INVALID", 0), ("DT_FLOAT", 1), ("DT_DOUBLE", 2), ("DT_INT32", 3), ("DT_UINT8", 4),
               ("DT_INT16", 5), ("DT_INT8", 6), ("DT_STRING", 7), ("DT_COMPLEX64", 8), ("DT_INT64", 9),
               ("DT_BOOL", 10), ("DT_QINT8", 11), ("DT_QUINT8", 12), ("DT_QINT32", 13), ("DT_BFLOAT16", 14),
               ("DT_QINT16", 15), ("DT_QUINT16", 16), ("DT_UINT16", 17), ("DT_COMPLEX128", 18), ("DT_HALF", 19),
               ("DT_RESOURCE", 20), ("DT_VARIANT", 21), ("DT_UINT32", 22), ("DT_UINT64", 23)]

_NAMES = ("BundleHeaderProto", "BundleEntryProto", "TensorShapeProto", "TensorSliceProto", "VersionDef")


def _build():
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool
    except ImportError:
        raise ImportError("TensorFlow checkpoints need protobuf and crc32c: pip install 'tensorweave[data]'") from None

    def message(file_proto, name, fields, nested=(), enums=(), oneofs=()):
        m = file_proto.message_type.add(name=name)
        _fill(m, fields, nested, enums, oneofs)
        return m

    def _fill(m, fields, nested, enums, oneofs):
        for ename, values in enums:
            e = m.enum_type.add(name=ename)
            for vname, number in values:
                e.value.add(name=vname, number=number)
        for nname, nfields, noneofs in nested:
            _fill(m.nested_type.add(name=nname), nfields, (), (), noneofs)
        for oname in oneofs:
            m.oneof_decl.add(name=oname)
        for fname, number, label, ftype, type_name, *oneof in fields:
            f = m.field.add(name=fname, number=number, label=label, type=ftype, json_name=json_name(fname))
            if type_name:
                f.type_name = type_name
            if ftype in (_INT64, _INT32) and label == _REPEATED:
                f.options.packed = True
            if oneof:
                f.oneof_index = oneof[0]

    def file(name, deps=()):
        return descriptor_pb2.FileDescriptorProto(name=name, package="tensorflow", syntax="proto3",
                                                  dependency=list(deps))

    types = file("tensorflow/core/framework/types.proto")
    enum = types.enum_type.add(name="DataType")
    for vname, number in _DATA_TYPES:
        enum.value.add(name=vname, number=number)

    shape = file("tensorflow/core/framework/tensor_shape.proto")
    message(shape, "TensorShapeProto",
            [("dim", 2, _REPEATED, _MESSAGE, ".tensorflow.TensorShapeProto.Dim"),
             ("unknown_rank", 3, _OPTIONAL, _BOOL, None)],
            nested=[("Dim", [("size", 1, _OPTIONAL, _INT64, None), ("name", 2, _OPTIONAL, _STRING, None)], ())])

    slice_ = file("tensorflow/core/framework/tensor_slice.proto")
    message(slice_, "TensorSliceProto",
            [("extent", 1, _REPEATED, _MESSAGE, ".tensorflow.TensorSliceProto.Extent")],
            nested=[("Extent", [("start", 1, _OPTIONAL, _INT64, None),
                                ("length", 2, _OPTIONAL, _INT64, None, 0)], ("has_length",))])

    versions = file("tensorflow/core/framework/versions.proto")
    message(versions, "VersionDef", [("producer", 1, _OPTIONAL, _INT32, None),
                                     ("min_consumer", 2, _OPTIONAL, _INT32, None),
                                     ("bad_consumers", 3, _REPEATED, _INT32, None)])

    bundle = file("tensorflow/core/protobuf/tensor_bundle.proto",
                  [types.name, shape.name, slice_.name, versions.name])
    message(bundle, "BundleHeaderProto",
            [("num_shards", 1, _OPTIONAL, _INT32, None),
             ("endianness", 2, _OPTIONAL, _ENUM, ".tensorflow.BundleHeaderProto.Endianness"),
             ("version", 3, _OPTIONAL, _MESSAGE, ".tensorflow.VersionDef")],
            enums=[("Endianness", [("LITTLE", 0), ("BIG", 1)])])
    message(bundle, "BundleEntryProto",
            [("dtype", 1, _OPTIONAL, _ENUM, ".tensorflow.DataType"),
             ("shape", 2, _OPTIONAL, _MESSAGE, ".tensorflow.TensorShapeProto"),
             ("shard_id", 3, _OPTIONAL, _INT32, None),
             ("offset", 4, _OPTIONAL, _INT64, None),
             ("size", 5, _OPTIONAL, _INT64, None),
             ("crc32c", 6, _OPTIONAL, _FIXED32, None),
             ("slices", 7, _REPEATED, _MESSAGE, ".tensorflow.TensorSliceProto")])

    pool = descriptor_pool.DescriptorPool()
    for f in (types, shape, slice_, versions, bundle):
        pool.Add(f)
    get_class = message_class_getter(pool)
    return {name: get_class(pool.FindMessageTypeByName("tensorflow." + name)) for name in _NAMES}


def data_type_name(value):
    """TF's name of a DataType enum value ("DT_FLOAT"), or the number for an unknown one."""
    return _DATA_TYPE_NAMES.get(value, str(value))


_DATA_TYPE_NAMES = {number: name for name, number in _DATA_TYPES}


def message_classes():
    """The message classes, by name (`"BundleHeaderProto"`, `"BundleEntryProto"`, `"TensorShapeProto"`,
    `"TensorSliceProto"`, `"VersionDef"`), built on first call.

    Returns:
      A dict from message name to `google.protobuf` message class.

    Raises:
      ImportError: If protobuf (`tensorweave[data]`) is not installed.
    """
    return build_once(_lock, _classes, _build)
