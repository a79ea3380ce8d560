"""What the modules that build protocol buffer messages from descriptors at first use share
(`bundle_proto`, `example_proto`, `saved_model._protos`): the JSON name of a field, the message class
of a descriptor on every protobuf runtime, and the build-once cache. protobuf is imported only by
the functions that need it.
"""

__all__ = ["build_once", "json_name", "message_class_getter"]


def json_name(name):
    """protoc's JSON name of a field: "bytes_list" -> "bytesList"."""
    head, *rest = name.split("_")
    return head + "".join(w.capitalize() for w in rest)


def message_class_getter(pool):
    """A function from a message descriptor in `pool` to its message class."""
    from google.protobuf import message_factory
    get_class = getattr(message_factory, "GetMessageClass", None)
    if get_class is None:  # protobuf < 4.21
        get_class = message_factory.MessageFactory(pool).GetPrototype
    return get_class


def build_once(lock, cache, build):
    """Fills the dict `cache` from `build()` on the first call (under `lock`, once); returns `cache`."""
    if not cache:
        with lock:
            if not cache:
                cache.update(build())
    return cache
