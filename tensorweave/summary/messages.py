"""`tf.Summary`, `tf.Event`, `tf.SessionLog` and the other summary messages: TensorBoard's protobuf
classes, loaded on first use so that `import tensorweave` does not need the `tensorboard` extra."""

from ..ops.summary_ops import proto_module

__all__ = ["Summary", "SummaryDescription", "SummaryMetadata", "HistogramProto", "Event", "LogMessage", "SessionLog",
           "TaggedRunMetadata", "LazyMessageClass"]


class LazyMessageClass:
    """Stands for a protobuf message class of `tensorboard.compat.proto` until it is first used.

    Calling it builds a message, attribute access reaches the class (`Summary.FromString`,
    `Summary.Value`, `SessionLog.START`), and `isinstance(m, Summary)` checks against the real class.
    """

    def __init__(self, module, name):
        self._module = module
        self._name = name

    def _cls(self):
        cls = proto_module(self._module, "tf." + self._name)
        for part in self._name.split("."):
            cls = getattr(cls, part)
        return cls

    def __call__(self, *args, **kwargs):
        return self._cls()(*args, **kwargs)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._cls(), name)

    def __instancecheck__(self, obj):
        return isinstance(obj, self._cls())

    def __subclasscheck__(self, cls):
        return issubclass(cls, self._cls())

    def __eq__(self, other):
        if isinstance(other, LazyMessageClass):
            return (self._module, self._name) == (other._module, other._name)
        return self._cls() is other

    def __hash__(self):
        return hash((self._module, self._name))

    def __repr__(self):
        return "<class 'tensorboard.compat.proto.%s.%s'>" % (self._module, self._name)


Summary = LazyMessageClass("summary_pb2", "Summary")
SummaryDescription = LazyMessageClass("summary_pb2", "SummaryDescription")
SummaryMetadata = LazyMessageClass("summary_pb2", "SummaryMetadata")
HistogramProto = LazyMessageClass("summary_pb2", "HistogramProto")
Event = LazyMessageClass("event_pb2", "Event")
SessionLog = LazyMessageClass("event_pb2", "SessionLog")
LogMessage = LazyMessageClass("event_pb2", "LogMessage")
TaggedRunMetadata = LazyMessageClass("event_pb2", "TaggedRunMetadata")
