"""`tf.contrib.training`: `HParams`, the seed-era hyper-parameter container, the queue bucketing
`bucket` and `bucket_by_sequence_length`, the rejection sampler `stratified_sample`, and
`create_train_op` (with the gradient helpers `add_gradients_summaries`, `clip_gradient_norms` and
`multiply_gradients`)."""

import json as _json
import re as _re

from .training_ops import (
    add_gradients_summaries,
    bucket,
    bucket_by_sequence_length,
    clip_gradient_norms,
    create_train_op,
    multiply_gradients,
    stratified_sample,
)

__all__ = ["HParams", "add_gradients_summaries", "bucket", "bucket_by_sequence_length", "clip_gradient_norms",
           "create_train_op", "multiply_gradients", "stratified_sample"]

# name=value pairs; a value is a [list], a quoted string, or anything up to the next comma.
_PAIR = _re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\s*=\s*(?P<value>\[[^\]]*\]|\"[^\"]*\"|'[^']*'|[^,]*)\s*(,|$)")


def _cast(name, value, kind):
    """Parses the string `value` as the type `kind` of hyper-parameter `name`.

    Raises:
      ValueError: If it does not parse.
    """
    try:
        if kind is bool:
            low = value.lower()
            if low in ("true", "1"):
                return True
            if low in ("false", "0"):
                return False
            raise ValueError(value)
        if kind is int:
            return int(value)
        if kind is float:
            return float(value)
        return value.strip("\"'")
    except ValueError:
        raise ValueError("Could not parse hparam '%s' of type '%s' with value '%s'." % (name, kind.__name__, value)) \
            from None


class HParams:
    """Hyper-parameters as attributes, parsed from "name=value,..." strings or JSON.

    Args:
      hparam_def: Unused (protobuf form of older TF versions).
      model_structure: Unused.
      **kwargs: The hyper-parameters and their default values (their types fix the parsing).

    Example:
      hparams = tf.contrib.training.HParams(learning_rate=0.1, layers=[64, 32])
      hparams.parse("learning_rate=0.3,layers=[8,8]")
    """

    def __init__(self, hparam_def=None, model_structure=None, **kwargs):
        self._types = {}
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name, value):
        """Adds a hyper-parameter.

        Raises:
          ValueError: If it exists already or its name is taken by a method.
        """
        if getattr(self, name, None) is not None or name in self._types:
            raise ValueError("Hyperparameter name is reserved: %s" % name)
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError("Multi-valued hyperparameters cannot be empty: %s" % name)
            self._types[name] = (type(value[0]), True)
        else:
            self._types[name] = (type(value), False)
        setattr(self, name, list(value) if isinstance(value, tuple) else value)

    def set_hparam(self, name, value):
        """Sets an existing hyper-parameter, checking its type.

        Raises:
          KeyError: If it does not exist. ValueError: If the type does not fit.
        """
        kind, is_list = self._types[name]
        if is_list != isinstance(value, (list, tuple)):
            raise ValueError("Must not pass a list for single-valued parameter: %s" % name if not is_list
                             else "Must pass a list for multi-valued parameter: %s." % name)
        items = value if is_list else [value]
        for v in items:
            if not isinstance(v, kind) and not (kind is float and isinstance(v, int) and not isinstance(v, bool)):
                raise ValueError("Could not cast hparam '%s' of type '%s' from value %r" % (name, kind.__name__, v))
        setattr(self, name, [kind(v) for v in items] if is_list else kind(value))

    def del_hparam(self, name):
        """Removes a hyper-parameter (no error if absent)."""
        if name in self._types:
            del self._types[name]
            delattr(self, name)

    def parse(self, values):
        """Overrides values from a "name=value,name=[v1,v2],..." string; returns self.

        Raises:
          ValueError: For unknown names, malformed strings or values of the wrong type.
        """
        pos = 0
        values = values.strip()
        while pos < len(values):
            m = _PAIR.match(values, pos)
            if not m or m.end() == pos:
                raise ValueError("Could not parse hparam string %r at position %d" % (values, pos))
            name, raw = m.group("name"), m.group("value").strip()
            if name not in self._types:
                raise ValueError("Unknown hyperparameter type for %s" % name)
            kind, is_list = self._types[name]
            if is_list:
                if not (raw.startswith("[") and raw.endswith("]")):
                    raise ValueError("Must pass a list for multi-valued parameter: %s." % name)
                inner = raw[1:-1].strip()
                setattr(self, name, [_cast(name, v.strip(), kind) for v in inner.split(",")] if inner else [])
            else:
                if raw.startswith("["):
                    raise ValueError("Must not pass a list for single-valued parameter: %s" % name)
                setattr(self, name, _cast(name, raw, kind))
            pos = m.end()
        return self

    def override_from_dict(self, values_dict):
        """Sets each (name, value) of the dict; returns self."""
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def parse_json(self, values_json):
        """Overrides values from a JSON object string; returns self."""
        return self.override_from_dict(_json.loads(values_json))

    def values(self):
        """The hyper-parameters as a dict."""
        return {name: getattr(self, name) for name in self._types}

    def to_json(self, indent=None, separators=None, sort_keys=False):
        """The hyper-parameters as a JSON string."""
        return _json.dumps(self.values(), indent=indent, separators=separators, sort_keys=sort_keys)

    def get(self, key, default=None):
        """The value of `key`, or `default` if there is no such hyper-parameter."""
        return getattr(self, key) if key in self._types else default

    def __contains__(self, key):
        return key in self._types

    def __str__(self):
        return str(sorted(self.values().items()))

    def __repr__(self):
        return "HParams(%s)" % ", ".join("%s=%r" % kv for kv in sorted(self.values().items()))
