"""Models from their configs: `model_from_config`, `model_from_json`, and the layer deserializer they use.

Configs written by tensorweave and by tf.keras (TF 1.15, and tf-keras 2.x, which adds a few keys with
neutral defaults such as `groups=1` or `ragged=False`) are accepted. Classes are found by name among the
built-in layers and models, then `custom_objects` and the global custom objects; nothing is imported or
executed from the config itself (a `Lambda` holding bytecode is refused unless `safe_mode=False`).
"""

import inspect
import json

__all__ = ["deserialize_layer", "model_from_config", "model_from_json"]

# Keys tf-keras 2.x adds to layer configs, with the value that means "as in Keras 2 / TF 1.15".
_NEUTRAL_TF2_KEYS = {"ragged": False, "optional": False, "groups": 1, "synchronized": False}


def _lookup(class_name, custom_objects):
    from .. import layers as layers_module
    from ..engine import network
    from ..engine.sequential import Sequential
    from ..engine.training import Model
    from ..utils.generic_utils import get_custom_objects
    if custom_objects and class_name in custom_objects:
        return custom_objects[class_name]
    if class_name in get_custom_objects():
        return get_custom_objects()[class_name]
    builtins = {"Model": Model, "Functional": Model, "Sequential": Sequential, "Network": network.Network}
    if class_name in builtins:
        return builtins[class_name]
    cls = getattr(layers_module, class_name, None) if not class_name.startswith("_") else None
    if isinstance(cls, type) and issubclass(cls, network.Layer):  # a file names only layer classes
        return cls
    raise ValueError("Unknown layer: " + str(class_name))


def _normalize(class_name, config):
    config = dict(config)
    for key, neutral in _NEUTRAL_TF2_KEYS.items():
        if key in config:
            if config[key] != neutral:
                raise ValueError("Layer " + str(config.get("name")) + " (" + class_name + ") has " + key + "=" +
                                 repr(config[key]) + ", which is not supported.")
            del config[key]
    if class_name in ("BatchNormalization", "LayerNormalization") and isinstance(config.get("axis"), list):
        if len(config["axis"]) != 1:
            raise ValueError("Layer " + str(config.get("name")) + " (" + class_name + ") normalizes over the axes " +
                             str(config["axis"]) + "; only one axis is supported.")
        config["axis"] = config["axis"][0]
    return config


def deserialize_layer(layer_config, custom_objects=None, safe_mode=True):
    """Builds a layer (or model) from `{'class_name', 'config'}`.

    Args:
      layer_config: The serialized layer.
      custom_objects: Optional dict of names to custom classes or functions.
      safe_mode: If True, refuse `Lambda` layers holding Python bytecode.

    Returns:
      The new layer.

    Raises:
      ValueError: For an unknown class, an improper config, or an unsupported tf-keras 2.x setting.
    """
    from ..utils.generic_utils import CustomObjectScope
    if not isinstance(layer_config, dict) or "class_name" not in layer_config or "config" not in layer_config:
        raise ValueError("Improper config format: " + str(layer_config))
    class_name = layer_config["class_name"]
    cls = _lookup(class_name, custom_objects)
    model = _model_from_class_config(cls, layer_config["config"], custom_objects, safe_mode)
    if model is not None:
        return model
    config = _normalize(class_name, layer_config["config"])
    if not hasattr(cls, "from_config"):
        with CustomObjectScope(custom_objects or {}):
            return cls(**config)
    params = inspect.signature(cls.from_config).parameters
    kwargs = {}
    if "custom_objects" in params:
        kwargs["custom_objects"] = custom_objects
    if "safe_mode" in params:
        kwargs["safe_mode"] = safe_mode
    with CustomObjectScope(custom_objects or {}):
        return cls.from_config(config, **kwargs)


def _sequential_from_config(cls, config, custom_objects, safe_mode):
    if isinstance(config, list):  # Keras 2.0-2.2 wrote the layer list alone.
        config = {"layers": config}
    model = cls(name=config.get("name"))
    for layer_config in config["layers"]:
        model.add(deserialize_layer(layer_config, custom_objects, safe_mode))
    if not model.inputs and config.get("build_input_shape"):
        model.build(tuple(config["build_input_shape"]))
    return model


def _functional_from_config(cls, config, custom_objects, safe_mode):
    from ..engine.base_layer import _flatten
    created = {}
    new_nodes = {}
    pending = []

    def output_of(name, node_index, tensor_index):
        return _flatten(new_nodes[name][node_index].output_tensors)[tensor_index]

    def ready(node_data):
        return all(entry[0] in new_nodes and entry[1] < len(new_nodes[entry[0]]) for entry in node_data)

    def process(layer, node_data):
        inputs = [output_of(*entry[:3]) for entry in node_data]
        kwargs = (node_data[0][3] if len(node_data[0]) > 3 else {}) if node_data else {}
        before = len(layer._inbound_nodes)
        layer(inputs[0] if len(inputs) == 1 else inputs, **kwargs)
        new_nodes[layer.name] += layer._inbound_nodes[before:]

    for layer_data in config["layers"]:
        layer = deserialize_layer({"class_name": layer_data["class_name"], "config": layer_data["config"]},
                                  custom_objects, safe_mode)
        name = layer_data.get("name", layer.name)
        if name in created:
            raise ValueError("The name \"" + name + "\" is used 2 times in the model. All layer names should be "
                             "unique.")
        created[name] = layer
        # An InputLayer made its node when it was built; other layers get theirs when called below.
        new_nodes[name] = list(layer._inbound_nodes)
        pending += [(layer, node_data) for node_data in layer_data["inbound_nodes"]]
    # Nodes are applied in config order; one whose inputs come from a later node waits for it.
    while pending:
        remaining = []
        for layer, data in pending:
            if ready(data):
                process(layer, data)
            else:
                remaining.append((layer, data))
        if len(remaining) == len(pending):
            raise ValueError("Graph disconnected: cannot rebuild the nodes of layers " +
                             str(sorted({layer.name for layer, _ in remaining})))
        pending = remaining
    inputs = [output_of(*entry[:3]) for entry in config["input_layers"]]
    outputs = [output_of(*entry[:3]) for entry in config["output_layers"]]
    return cls(inputs=inputs if len(inputs) > 1 else inputs[0],
               outputs=outputs if len(outputs) > 1 else outputs[0], name=config.get("name"))


def _model_from_class_config(cls, config, custom_objects, safe_mode):
    """A Sequential or functional model of class `cls` from its config; None when `cls` is no such model."""
    from ..engine.network import Network
    from ..engine.sequential import Sequential
    if not isinstance(cls, type):
        return None
    if issubclass(cls, Sequential):
        return _sequential_from_config(cls, config, custom_objects, safe_mode)
    if issubclass(cls, Network) and isinstance(config, dict) and "input_layers" in config:
        return _functional_from_config(cls, config, custom_objects, safe_mode)
    return None


def model_from_config(config, custom_objects=None, safe_mode=True):
    """Instantiates a Keras model from its config `{'class_name', 'config'}`.

    Args:
      config: The model's config (as in a model file or `model.to_json()`).
      custom_objects: Optional dict of names to custom classes or functions.
      safe_mode: If True, refuse `Lambda` layers holding Python bytecode.

    Returns:
      A new model (fresh weights).

    Raises:
      TypeError: If `config` is a list (a Sequential's layer list alone needs `Sequential.from_config`).
      ValueError: For an unknown class or an improper config.
    """
    if isinstance(config, list):
        raise TypeError("`model_from_config` expects a dictionary, not a list. Maybe you meant to use "
                        "`Sequential.from_config(config)`?")
    return deserialize_layer(config, custom_objects=custom_objects, safe_mode=safe_mode)


def model_from_json(json_string, custom_objects=None, safe_mode=True):
    """Instantiates a model from the JSON string `model.to_json()` returns.

    Args:
      json_string: The JSON string.
      custom_objects: Optional dict of names to custom classes or functions.
      safe_mode: If True, refuse `Lambda` layers holding Python bytecode.

    Returns:
      A new model (fresh weights).

    Raises:
      ValueError: For invalid JSON, an unknown class or an improper config.
    """
    try:
        config = json.loads(json_string)
    except json.JSONDecodeError as e:
        raise ValueError("Invalid JSON model config: " + str(e)) from None
    return model_from_config(config, custom_objects=custom_objects, safe_mode=safe_mode)
