"""`tf.train.Example` and friends: protocol buffer messages with TensorFlow's wire format. The parsing
ops (`parsing_ops.py`) decode them; `tf.train` exports the stand-ins defined here.

The messages are built at first use from descriptors equal to TensorFlow's
`tensorflow/core/example/feature.proto` and `example.proto` (package `tensorflow`, proto3), in a
private descriptor pool so they never clash with TensorFlow's or TensorBoard's own copies in the same
process. They are real `google.protobuf` message classes: `SerializeToString`, `FromString`,
`ParseFromString`, `text_format` and `json_format` all work, and the bytes are TensorFlow's.

Building from descriptors (rather than shipping generated `*_pb2.py` files, or depending on the
`tensorboard` package that carries them) needs only `protobuf` (the `data` extra) and works with
every protobuf runtime (upb, C++, pure Python).

The names exported here are lightweight stand-ins: `tf.train.Example(...)` constructs the real
message, `tf.train.Example.FromString` and every other class attribute forward to it, and
`isinstance(m, tf.train.Example)` checks against it. protobuf is imported only when one is used.
"""

import threading

from ._descriptors import build_once, json_name, message_class_getter

__all__ = ["BytesList", "Example", "Feature", "FeatureList", "FeatureLists", "Features", "FloatList",
           "Int64List", "SequenceExample", "message_classes"]

_lock = threading.Lock()
_classes = {}

_LABEL_OPTIONAL, _LABEL_REPEATED = 1, 3
_TYPE_FLOAT, _TYPE_INT64, _TYPE_STRING, _TYPE_MESSAGE, _TYPE_BYTES = 2, 3, 9, 11, 12


def _build():
    try:
        from google.protobuf import descriptor_pb2, descriptor_pool
    except ImportError:
        raise ImportError("tf.train.Example needs protobuf: pip install 'tensorweave[data]'") from None

    def message(file_proto, name, fields, maps=()):
        m = file_proto.message_type.add(name=name)
        for entry_name, value_type in maps:
            e = m.nested_type.add(name=entry_name)
            e.options.map_entry = True
            e.field.add(name="key", number=1, label=_LABEL_OPTIONAL, type=_TYPE_STRING, json_name="key")
            e.field.add(name="value", number=2, label=_LABEL_OPTIONAL, type=_TYPE_MESSAGE, type_name=value_type,
                        json_name="value")
        for fname, number, label, ftype, type_name, oneof in fields:
            f = m.field.add(name=fname, number=number, label=label, type=ftype, json_name=json_name(fname))
            if type_name:
                f.type_name = type_name
            if ftype in (_TYPE_FLOAT, _TYPE_INT64):
                f.options.packed = True
            if oneof is not None:
                if not m.oneof_decl:
                    m.oneof_decl.add(name="kind")
                f.oneof_index = 0
        return m

    feature = descriptor_pb2.FileDescriptorProto(name="tensorflow/core/example/feature.proto",
                                                 package="tensorflow", syntax="proto3")
    message(feature, "BytesList", [("value", 1, _LABEL_REPEATED, _TYPE_BYTES, None, None)])
    message(feature, "FloatList", [("value", 1, _LABEL_REPEATED, _TYPE_FLOAT, None, None)])
    message(feature, "Int64List", [("value", 1, _LABEL_REPEATED, _TYPE_INT64, None, None)])
    message(feature, "Feature", [
        ("bytes_list", 1, _LABEL_OPTIONAL, _TYPE_MESSAGE, ".tensorflow.BytesList", 0),
        ("float_list", 2, _LABEL_OPTIONAL, _TYPE_MESSAGE, ".tensorflow.FloatList", 0),
        ("int64_list", 3, _LABEL_OPTIONAL, _TYPE_MESSAGE, ".tensorflow.Int64List", 0)])
    message(feature, "Features",
            [("feature", 1, _LABEL_REPEATED, _TYPE_MESSAGE, ".tensorflow.Features.FeatureEntry", None)],
            maps=[("FeatureEntry", ".tensorflow.Feature")])
    message(feature, "FeatureList", [("feature", 1, _LABEL_REPEATED, _TYPE_MESSAGE, ".tensorflow.Feature", None)])
    message(feature, "FeatureLists",
            [("feature_list", 1, _LABEL_REPEATED, _TYPE_MESSAGE, ".tensorflow.FeatureLists.FeatureListEntry", None)],
            maps=[("FeatureListEntry", ".tensorflow.FeatureList")])

    example = descriptor_pb2.FileDescriptorProto(name="tensorflow/core/example/example.proto",
                                                 package="tensorflow", syntax="proto3",
                                                 dependency=["tensorflow/core/example/feature.proto"])
    message(example, "Example", [("features", 1, _LABEL_OPTIONAL, _TYPE_MESSAGE, ".tensorflow.Features", None)])
    message(example, "SequenceExample", [
        ("context", 1, _LABEL_OPTIONAL, _TYPE_MESSAGE, ".tensorflow.Features", None),
        ("feature_lists", 2, _LABEL_OPTIONAL, _TYPE_MESSAGE, ".tensorflow.FeatureLists", None)])

    pool = descriptor_pool.DescriptorPool()
    pool.Add(feature)
    pool.Add(example)
    get_class = message_class_getter(pool)
    classes = {name: get_class(pool.FindMessageTypeByName("tensorflow." + name)) for name in _NAMES}
    for cls in classes.values():
        cls.__module__ = "tensorweave.io._messages"  # where pickle finds the class again
    return classes


def message_classes():
    """The real protobuf message classes, by name (`"Example"`, `"Feature"`, ...), built on first call.

    Returns:
      A dict from message name to `google.protobuf` message class.

    Raises:
      ImportError: If protobuf (`tensorweave[data]`) is not installed.
    """
    return build_once(_lock, _classes, _build)


class _MessageProxyType(type):
    """Metaclass of the stand-ins: calls, attributes and isinstance checks go to the real message class."""

    def __call__(cls, *args, **kwargs):
        return message_classes()[cls.__name__](*args, **kwargs)

    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(message_classes()[cls.__name__], name)

    def __instancecheck__(cls, obj):
        return bool(_classes) and isinstance(obj, _classes[cls.__name__])

    def __subclasscheck__(cls, sub):
        return sub is cls or (bool(_classes) and issubclass(sub, _classes[cls.__name__]))

    def __repr__(cls):
        return "<class 'tensorflow.%s' (protocol buffer message)>" % cls.__name__


def _stand_in(name, doc):
    return _MessageProxyType(name, (), {"__doc__": doc, "__module__": "tensorweave.train", "__qualname__": name})


BytesList = _stand_in("BytesList", "A list of byte strings (`value`), as TensorFlow's `tf.train.BytesList`.")
FloatList = _stand_in("FloatList", "A packed list of float32 (`value`), as TensorFlow's `tf.train.FloatList`.")
Int64List = _stand_in("Int64List", "A packed list of int64 (`value`), as TensorFlow's `tf.train.Int64List`.")
Feature = _stand_in("Feature", "One of `bytes_list`, `float_list`, `int64_list` (a oneof `kind`).")
Features = _stand_in("Features", "A map `feature` from string keys to `Feature`.")
FeatureList = _stand_in("FeatureList", "A repeated `Feature` (`feature`), one per time step.")
FeatureLists = _stand_in("FeatureLists", "A map `feature_list` from string keys to `FeatureList`.")
Example = _stand_in("Example", "`features`: a `Features` map; the record type `tf.parse_example` reads.")
SequenceExample = _stand_in("SequenceExample", "`context` (`Features`) and `feature_lists` (`FeatureLists`).")

_NAMES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList", "FeatureLists", "Example",
          "SequenceExample")
