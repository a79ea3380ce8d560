"""The real protobuf classes behind `tf.train.Example` and friends, importable by name so messages pickle."""


def __getattr__(name):
    from ..ops.example_proto import message_classes
    try:
        return message_classes()[name]
    except KeyError:
        raise AttributeError("module %r has no attribute %r" % (__name__, name)) from None
