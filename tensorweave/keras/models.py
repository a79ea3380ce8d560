"""`tf.keras.models`: `Model`, `Sequential`, model files (`save_model`, `load_model`), models from configs
(`model_from_config`, `model_from_json`) and `clone_model`."""

from .engine.base_layer import Layer, _flatten, keras_history
from .engine.input_layer import Input, InputLayer
from .engine.network import Network
from .engine.sequential import Sequential
from .engine.training import Model
from .saving.model_config import model_from_config, model_from_json
from .saving.save import load_model, save_model

__all__ = ["Model", "Sequential", "clone_model", "load_model", "model_from_config", "model_from_json",
           "save_model"]


def _clone_layer(layer):
    from .layers.core import Lambda
    if isinstance(layer, Network):
        return clone_model(layer)
    if type(layer) is Lambda:
        # The function object itself is reused: it comes from this process, not from a file.
        config = layer.get_config()
        base = {k: config[k] for k in ("name", "trainable", "dtype", "batch_input_shape") if k in config}
        return Lambda(layer.function, output_shape=layer._output_shape, arguments=dict(layer.arguments), **base)
    return layer.__class__.from_config(layer.get_config())


def _check_clone_function(clone_function):
    if not callable(clone_function):
        raise ValueError("Expected `clone_function` argument to be a callable. Received: " + str(clone_function))


def _cloned(layer, clone_function, layer_map):
    if id(layer) not in layer_map:
        new_layer = clone_function(layer)
        if not isinstance(new_layer, Layer):
            raise ValueError("`clone_function` must return a Layer instance; got " + str(new_layer) +
                             " for layer " + layer.name)
        layer_map[id(layer)] = new_layer
    return layer_map[id(layer)]


def _clone_functional_model(model, input_tensors=None, clone_function=None):
    if not model._is_graph_network:
        raise ValueError("Expected `model` argument to be a functional `Model` instance, but got a subclass model "
                         "instead.")
    clone_function = clone_function or _clone_layer
    _check_clone_function(clone_function)
    input_layers = [keras_history(x)[0] for x in model.inputs]
    if input_tensors is None:
        new_inputs = [Input(batch_shape=layer._batch_input_shape, dtype=layer.dtype, name=layer.name)
                      for layer in input_layers]
    else:
        given = _flatten(input_tensors)
        if len(given) != len(model.inputs):
            raise ValueError("Model " + model.name + " expects " + str(len(model.inputs)) + " input tensor(s), but "
                             "`input_tensors` holds " + str(len(given)) + ".")
        new_inputs = []
        for x, layer in zip(given, input_layers):
            if keras_history(x) is None:
                x = Input(tensor=x, name="input_wrapper_for_" + layer.name)
            new_inputs.append(x)
    mapping = {id(ref): x for ref, x in zip(model.inputs, new_inputs)}
    layer_map = {}

    def lookup(x):
        if isinstance(x, (list, tuple)):
            return type(x)(lookup(t) for t in x)
        return mapping[id(x)]

    for node in model._network_nodes:
        layer = node.outbound_layer
        if isinstance(layer, InputLayer) or not _flatten(node.input_tensors):
            continue
        if all(id(t) in mapping for t in _flatten(node.output_tensors)):
            continue
        new_layer = _cloned(layer, clone_function, layer_map)
        new_out = new_layer(lookup(node.input_tensors), **dict(node.arguments))
        for ref, x in zip(_flatten(node.output_tensors), _flatten(new_out)):
            mapping[id(ref)] = x
    outputs = [mapping[id(x)] for x in model.outputs]
    nested_in = model._nested_inputs
    nested_out = model._nested_outputs
    return Model(new_inputs if isinstance(nested_in, (list, tuple)) else new_inputs[0],
                 outputs if isinstance(nested_out, (list, tuple)) else outputs[0], name=model.name)


def _clone_sequential_model(model, input_tensors=None, clone_function=None):
    clone_function = clone_function or _clone_layer
    _check_clone_function(clone_function)
    layers = []
    for layer in model._stack:
        if isinstance(layer, InputLayer):
            if input_tensors is None:
                layers.append(InputLayer.from_config(layer.get_config()))
            continue
        layers.append(_cloned(layer, clone_function, {}))
    if input_tensors is None:
        return Sequential(layers=layers, name=model.name)
    given = _flatten(input_tensors)
    if len(given) != 1:
        raise ValueError("To clone a `Sequential` model, we expect at most one tensor as part of `input_tensors`.")
    x = given[0]
    history = keras_history(x)
    if history is not None:
        if not isinstance(history[0], InputLayer):
            raise ValueError("Cannot clone a `Sequential` model on top of a tensor that comes from a Keras layer "
                             "other than an `InputLayer`. Use the functional API instead.")
        input_layer = history[0]
    else:
        input_layer = keras_history(Input(tensor=x, name="input_wrapper_for_" + str(x.name).split(":")[0]))[0]
    return Sequential(layers=[input_layer] + layers, name=model.name)


def clone_model(model, input_tensors=None, clone_function=None):
    """Clones a functional or Sequential model: same architecture, new layers and new weights.

    Args:
      model: The model to clone.
      input_tensors: Optional tensor(s) to build the clone on (Keras tensors are used as they are,
        others are wrapped in an `Input`); default: new placeholders like the model's.
      clone_function: Optional `layer -> new layer` function (default: a layer of the same class
        from `layer.get_config()`; nested models are cloned recursively).

    Returns:
      The new model (uncompiled, its weights freshly initialized).

    Raises:
      ValueError: For a subclassed model, a non-model, inputs that do not fit, or a `clone_function`
        that is not callable or does not return a layer.
    """
    if isinstance(model, Sequential):
        return _clone_sequential_model(model, input_tensors, clone_function)
    if not isinstance(model, Network):
        raise ValueError("Expected `model` argument to be a `Model` instance, got " + str(model))
    return _clone_functional_model(model, input_tensors, clone_function)
