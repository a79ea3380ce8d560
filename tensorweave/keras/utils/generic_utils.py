"""Generic Keras 2 utilities: custom objects, (de)serialization, Progbar."""

import inspect
import os
import re
import sys
import time

import numpy as np

_GLOBAL_CUSTOM_OBJECTS = {}


class CustomObjectScope(object):
    """Provides a scope that changes to `_GLOBAL_CUSTOM_OBJECTS` cannot escape.

    Code within a `with` statement will be able to access custom objects
    by name. Changes to global custom objects persist within the enclosing
    `with` statement. At end of the `with` statement, global custom objects
    are reverted to state at beginning of the `with` statement.

    Args:
      *args: dictionaries mapping names to custom classes or functions.
    """

    def __init__(self, *args):
        self.custom_objects = args
        self.backup = None

    def __enter__(self):
        self.backup = _GLOBAL_CUSTOM_OBJECTS.copy()
        for objects in self.custom_objects:
            _GLOBAL_CUSTOM_OBJECTS.update(objects)
        return self

    def __exit__(self, *args, **kwargs):
        _GLOBAL_CUSTOM_OBJECTS.clear()
        _GLOBAL_CUSTOM_OBJECTS.update(self.backup)


def custom_object_scope(*args):
    """Provides a scope that changes to `_GLOBAL_CUSTOM_OBJECTS` cannot escape.

    Args:
      *args: Variable length list of dictionaries of name, class pairs to add
        to custom objects.

    Returns:
      Object of type `CustomObjectScope`.
    """
    return CustomObjectScope(*args)


def get_custom_objects():
    """Retrieves a live reference to the global dictionary of custom objects.

    Updating and clearing custom objects using `custom_object_scope` is
    preferred, but `get_custom_objects` can be used to directly access
    `_GLOBAL_CUSTOM_OBJECTS`.

    Returns:
      Global dictionary of names to classes (`_GLOBAL_CUSTOM_OBJECTS`).
    """
    return _GLOBAL_CUSTOM_OBJECTS


def serialize_keras_class_and_config(cls_name, cls_config):
    """Returns the serialization of the class with the given config.

    Args:
      cls_name: class name.
      cls_config: the config dict.

    Returns:
      `{'class_name': cls_name, 'config': cls_config}`.
    """
    return {"class_name": cls_name, "config": cls_config}


def serialize_keras_object(instance):
    """Serializes a Keras object to a JSON-compatible representation.

    Args:
      instance: object with a `get_config` method, or a named function/class.

    Returns:
      `None` for `None`; a `{'class_name', 'config'}` dict for objects with
      `get_config`; else the object's `__name__`.

    Raises:
      ValueError: if the object cannot be serialized.
    """
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        return serialize_keras_class_and_config(instance.__class__.__name__, instance.get_config())
    if hasattr(instance, "__name__"):
        return instance.__name__
    raise ValueError("Cannot serialize", instance)


def class_and_config_for_serialized_keras_object(
    config, module_objects=None, custom_objects=None, printable_module_name="object"
):
    """Returns the class name and config for a serialized keras object.

    Args:
      config: dict with `'class_name'` and `'config'` keys.
      module_objects: dict of names to built-in objects.
      custom_objects: dict of names to user objects.
      printable_module_name: name used in error messages.

    Returns:
      A tuple `(cls, cls_config)`.

    Raises:
      ValueError: for an improper config or an unknown class name.
    """
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError("Improper config format: " + str(config))
    class_name = config["class_name"]
    if custom_objects and class_name in custom_objects:
        cls = custom_objects[class_name]
    elif class_name in _GLOBAL_CUSTOM_OBJECTS:
        cls = _GLOBAL_CUSTOM_OBJECTS[class_name]
    else:
        module_objects = module_objects or {}
        cls = module_objects.get(class_name)
        if cls is None:
            raise ValueError("Unknown " + printable_module_name + ": " + class_name)
    return (cls, config["config"])


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None, printable_module_name="object"):
    """Turns the serialized form of a Keras object back into an actual object.

    Lookup order for names: `custom_objects`, then the global custom objects,
    then `module_objects`.

    Args:
      identifier: `None`, a `{'class_name', 'config'}` dict or a name string.
      module_objects: dict of names to built-in objects.
      custom_objects: dict of names to user objects.
      printable_module_name: name used in error messages (e.g.
        `'activation function'`).

    Returns:
      The deserialized object (a class given by name is instantiated with no
      arguments).

    Raises:
      ValueError: if the identifier cannot be interpreted or the name is
        unknown.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        (cls, cls_config) = class_and_config_for_serialized_keras_object(
            identifier, module_objects, custom_objects, printable_module_name
        )
        custom_objects = custom_objects or {}
        if hasattr(cls, "from_config"):
            arg_spec = inspect.getfullargspec(cls.from_config)
            if "custom_objects" in arg_spec.args:
                return cls.from_config(
                    cls_config, custom_objects=dict(list(_GLOBAL_CUSTOM_OBJECTS.items()) + list(custom_objects.items()))
                )
            with CustomObjectScope(custom_objects):
                return cls.from_config(cls_config)
        with CustomObjectScope(custom_objects):
            return cls(**cls_config)
    if isinstance(identifier, str):
        object_name = identifier
        if custom_objects and object_name in custom_objects:
            obj = custom_objects.get(object_name)
        elif object_name in _GLOBAL_CUSTOM_OBJECTS:
            obj = _GLOBAL_CUSTOM_OBJECTS[object_name]
        else:
            obj = (module_objects or {}).get(object_name)
            if obj is None:
                # Keras 2 (TF 1.15) has no space after the colon here.
                raise ValueError("Unknown " + printable_module_name + ":" + object_name)
        if inspect.isclass(obj):
            return obj()
        return obj
    raise ValueError("Could not interpret serialized " + printable_module_name + ": " + str(identifier))


def get_keras_object(identifier, deserialize, printable_module_name):
    """What the `get` of initializers, regularizers and constraints returns: None for None, the
    object `deserialize` builds for a config dict or a class name, a callable as it is.

    Raises:
      ValueError: If `identifier` is none of these.
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": str(identifier), "config": {}})
    if callable(identifier):
        return identifier
    raise ValueError("Could not interpret %s identifier: %s" % (printable_module_name, identifier))


class Progbar(object):
    """Displays a progress bar (Keras 2 / TF 1.15 format).

    Args:
      target: Total number of steps expected, None if unknown.
      width: Progress bar width on screen.
      verbose: Verbosity mode, 0 (silent), 1 (verbose), 2 (semi-verbose).
      interval: Minimum visual progress update interval (in seconds).
      stateful_metrics: Iterable of string names of metrics that should *not*
        be averaged over time. Metrics in this list will be displayed as-is.
        All others will be averaged by the progbar before display.
      unit_name: Display name for step counts (usually "step" or "sample").
    """

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None, unit_name="step"):
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.unit_name = unit_name
        if stateful_metrics:
            self.stateful_metrics = set(stateful_metrics)
        else:
            self.stateful_metrics = set()

        self._dynamic_display = (
            (hasattr(sys.stdout, "isatty") and sys.stdout.isatty())
            or "ipykernel" in sys.modules
            or "posix" in sys.modules
            or "PYCHARM_HOSTED" in os.environ
        )
        self._total_width = 0
        self._seen_so_far = 0
        self._values = {}
        self._values_order = []
        self._start = time.time()
        self._last_update = 0

    def update(self, current, values=None):
        """Updates the progress bar.

        Args:
          current: Index of current step.
          values: List of tuples: `(name, value_for_last_step)`. If `name` is in
            `stateful_metrics`, `value_for_last_step` will be displayed as-is.
            Else, an average of the metric over time will be displayed.
        """
        values = values or []
        for k, v in values:
            if k not in self._values_order:
                self._values_order.append(k)
            if k not in self.stateful_metrics:
                if k not in self._values:
                    self._values[k] = [v * (current - self._seen_so_far), current - self._seen_so_far]
                else:
                    self._values[k][0] += v * (current - self._seen_so_far)
                    self._values[k][1] += current - self._seen_so_far
            else:
                self._values[k] = v
        self._seen_so_far = current

        now = time.time()
        info = " - %.0fs" % (now - self._start)
        if self.verbose == 1:
            if now - self._last_update < self.interval and self.target is not None and current < self.target:
                return

            prev_total_width = self._total_width
            if self._dynamic_display:
                sys.stdout.write("\b" * prev_total_width)
                sys.stdout.write("\r")
            else:
                sys.stdout.write("\n")

            if self.target is not None:
                numdigits = int(np.log10(self.target)) + 1
                bar = ("%" + str(numdigits) + "d/%d [") % (current, self.target)
                prog = float(current) / self.target
                prog_width = int(self.width * prog)
                if prog_width > 0:
                    bar += "=" * (prog_width - 1)
                    if current < self.target:
                        bar += ">"
                    else:
                        bar += "="
                bar += "." * (self.width - prog_width)
                bar += "]"
            else:
                bar = "%7d/Unknown" % current

            self._total_width = len(bar)
            sys.stdout.write(bar)

            if current:
                time_per_unit = (now - self._start) / current
            else:
                time_per_unit = 0
            if self.target is not None and current < self.target:
                eta = time_per_unit * (self.target - current)
                if eta > 3600:
                    eta_format = "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
                elif eta > 60:
                    eta_format = "%d:%02d" % (eta // 60, eta % 60)
                else:
                    eta_format = "%ds" % eta
                info = " - ETA: %s" % eta_format
            else:
                if time_per_unit >= 1 or time_per_unit == 0:
                    info += " %.0fs/%s" % (time_per_unit, self.unit_name)
                elif time_per_unit >= 1e-3:
                    info += " %.0fms/%s" % (time_per_unit * 1e3, self.unit_name)
                else:
                    info += " %.0fus/%s" % (time_per_unit * 1e6, self.unit_name)

            for k in self._values_order:
                info += " - %s:" % k
                if isinstance(self._values[k], list):
                    avg = np.mean(self._values[k][0] / max(1, self._values[k][1]))
                    if abs(avg) > 1e-3:
                        info += " %.4f" % avg
                    else:
                        info += " %.4e" % avg
                else:
                    info += " %s" % self._values[k]

            self._total_width += len(info)
            if prev_total_width > self._total_width:
                info += " " * (prev_total_width - self._total_width)

            if self.target is not None and current >= self.target:
                info += "\n"

            sys.stdout.write(info)
            sys.stdout.flush()

        elif self.verbose == 2:
            if self.target is not None and current >= self.target:
                numdigits = int(np.log10(self.target)) + 1
                count = ("%" + str(numdigits) + "d/%d") % (current, self.target)
                info = count + info
                for k in self._values_order:
                    info += " - %s:" % k
                    avg = np.mean(self._values[k][0] / max(1, self._values[k][1]))
                    if avg > 1e-3:
                        info += " %.4f" % avg
                    else:
                        info += " %.4e" % avg
                info += "\n"
                sys.stdout.write(info)
                sys.stdout.flush()

        self._last_update = now

    def add(self, n, values=None):
        """Advances the progress bar by `n` steps.

        Args:
          n: Number of steps to add.
          values: As in `update`.
        """
        self.update(self._seen_so_far + n, values)


def has_arg(fn, name, accept_all=False):
    """Checks if a callable accepts a given keyword argument.

    Args:
      fn: Callable to inspect.
      name: Check if `fn` can be called with `name` as a keyword argument.
      accept_all: What to return if there is no parameter called `name` but the
        function accepts a `**kwargs` argument.

    Returns:
      bool, whether `fn` accepts a `name` keyword argument.
    """
    arg_spec = inspect.getfullargspec(fn)
    if accept_all and arg_spec.varkw is not None:
        return True
    return name in arg_spec.args or name in arg_spec.kwonlyargs


def make_batches(size, batch_size):
    """Returns a list of batch indices (tuples of indices).

    Args:
      size: Integer, total size of the data to slice into batches.
      batch_size: Integer, batch size.

    Returns:
      A list of `(start, stop)` tuples.
    """
    num_batches = int(np.ceil(size / float(batch_size)))
    return [(i * batch_size, min(size, (i + 1) * batch_size)) for i in range(0, num_batches)]


def slice_arrays(arrays, start=None, stop=None):
    """Slices an array or list of arrays.

    Args:
      arrays: Single array or list of arrays.
      start: can be an integer index (start index) or a list/array of indices.
      stop: integer (stop index); should be None if `start` was a list.

    Returns:
      `arrays[start:stop]` (or `arrays[start]` for an index list), applied to
      each array of a list.

    Raises:
      ValueError: If the value of start is a list and stop is not None.
    """
    if arrays is None:
        return [None]
    if isinstance(start, list) and stop is not None:
        raise ValueError("The stop argument has to be None if the value of start is a list.")
    if isinstance(arrays, list):
        if hasattr(start, "__len__"):
            if hasattr(start, "shape"):
                start = start.tolist()
            return [None if x is None else x[start] for x in arrays]
        return [None if x is None or not hasattr(x, "__getitem__") else x[start:stop] for x in arrays]
    if hasattr(start, "__len__"):
        if hasattr(start, "shape"):
            start = start.tolist()
        return arrays[start]
    # Keras 2 tests `start` here (so a single array with an int start gives
    # `[None]`); the array is what must be sliceable.
    if hasattr(arrays, "__getitem__"):
        return arrays[start:stop]
    return [None]


def to_list(x):
    """Normalizes a list/tensor into a list.

    Args:
      x: target object to be normalized.

    Returns:
      `x` if it is a list, else `[x]`.
    """
    if isinstance(x, list):
        return x
    return [x]


def to_snake_case(name):
    """Converts a CamelCase name to snake_case (private names get 'private').

    Args:
      name: the name to convert.

    Returns:
      The snake_case name.
    """
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    if insecure[0] != "_":
        return insecure
    return "private" + insecure
