"""`Sequential`: a linear stack of layers."""

from .base_layer import Layer, _flatten, keras_history
from .input_layer import Input, InputLayer
from .training import Model


class Sequential(Model):
    """A model that is a linear stack of layers.

    Args:
      layers: Optional list of layers to add.
      name: Optional name (default `sequential`, `sequential_1`, ...).
    """

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        object.__setattr__(self, "_stack", [])
        self._input_layer = None
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self):
        """The stacked layers (without the implicit `InputLayer`)."""
        return [l for l in self._stack if not isinstance(l, InputLayer)]

    def add(self, layer):
        """Adds a layer on top of the stack.

        Args:
          layer: A `Layer` instance (or an `InputLayer`).

        Raises:
          TypeError: If `layer` is not a layer.
          ValueError: If the layer has several outputs, or its name is already in the model.
        """
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Found: " + str(layer))
        if any(l.name == layer.name for l in self._stack):
            raise ValueError('All layers added to a Sequential model should have unique names. Name "%s" is '
                             'already the name of a layer in this model. Update the `name` argument to pass a '
                             'unique name.' % layer.name)
        self.built = False
        if not self._stack:
            if isinstance(layer, InputLayer):
                self._stack.append(layer)
                self._init_from(layer._inbound_nodes[-1].output_tensors[0], None)
                return
            if hasattr(layer, "_batch_input_shape"):
                x = Input(batch_shape=layer._batch_input_shape, dtype=layer.dtype, name=layer.name + "_input")
                self._stack.append(keras_history(x)[0])
                self._stack.append(layer)
                self._init_from(x, layer)
                return
            self._stack.append(layer)
            return
        self._stack.append(layer)
        if self.outputs:
            self._init_from(self.inputs[0], layer, self.outputs[0])

    def _init_from(self, x, layer, previous=None):
        output = x if previous is None else previous
        if layer is not None:
            output = layer(output)
            if len(_flatten(output)) != 1:
                raise ValueError("All layers in a Sequential model should have a single output tensor. For "
                                 "multi-output layers, use the functional API.")
        self._inbound_nodes = []
        self._init_graph_network(x, output)
        object.__setattr__(self, "_layers", list(self._stack))
        self.train_function = self.test_function = self.predict_function = None
        self._graph_compiled = False
        if self._compiled:
            self._compile_graph()

    def pop(self):
        """Removes the last layer.

        Raises:
          TypeError: If there are no layers.
        """
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        self._stack.pop()
        layers = list(self._stack)
        if not self.layers:
            self.inputs, self.outputs = [], []
            self._inbound_nodes = []
            object.__setattr__(self, "_layers", layers)
            self._is_graph_network = False
            self.built = False
            return
        if not self.inputs:
            object.__setattr__(self, "_layers", layers)
            return
        x = self.inputs[0]
        output = x
        for layer in self.layers:
            output = layer(output)
        self._inbound_nodes = []
        self._init_graph_network(x, output)
        object.__setattr__(self, "_layers", layers)
        self.train_function = self.test_function = self.predict_function = None
        self._graph_compiled = False

    def build(self, input_shape=None):
        """Builds the model for inputs of `input_shape` (with the batch axis).

        Raises:
          ValueError: If no input shape is known.
        """
        if self.inputs:
            self.built = True
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        from ..backend import floatx
        shape = tuple(input_shape.as_list() if hasattr(input_shape, "as_list") else input_shape)
        first = self._stack[0]
        x = Input(batch_shape=shape, dtype=first.dtype or floatx(), name=first.name + "_input")
        self._stack.insert(0, keras_history(x)[0])
        output = x
        for layer in self._stack[1:]:
            output = layer(output)
        self._inbound_nodes = []
        self._init_graph_network(x, output)
        object.__setattr__(self, "_layers", list(self._stack))
        if self._compiled:
            self._compile_graph()

    def _build_from_data(self, x):
        import numpy as np
        a = np.asarray(x if not isinstance(x, (list, tuple)) else x[0])
        self.build((None,) + a.shape[1:])

    def call(self, inputs, training=None, mask=None):
        """Applies the layers in order to `inputs`."""
        if self._is_graph_network:
            return super().call(inputs, training=training)
        output = inputs
        for layer in self.layers:
            kwargs = {"training": training} if training is not None and "training" in layer._call_fn_args else {}
            output = layer(output, **kwargs)
        return output

    def get_config(self):
        """Returns `{'name', 'layers': [{'class_name', 'config'}, ...]}`."""
        return {"name": self.name, "layers": [{"class_name": type(l).__name__, "config": l.get_config()}
                                              for l in self.layers]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates the model from `get_config()` (new layers).

        Raises:
          ValueError: For an unknown layer class.
        """
        from .. import layers as layers_module
        model = cls(name=config.get("name"))
        for layer_config in config["layers"]:
            class_name = layer_config["class_name"]
            layer_cls = (custom_objects or {}).get(class_name) or getattr(layers_module, class_name, None)
            if layer_cls is None:
                raise ValueError("Unknown layer: " + class_name)
            model.add(layer_cls.from_config(layer_config["config"]))
        return model

    def predict_proba(self, x, batch_size=32, verbose=0):
        """Same as `predict` (probabilities)."""
        return self.predict(x, batch_size=batch_size, verbose=verbose)

    def predict_classes(self, x, batch_size=32, verbose=0):
        """Class indices: argmax for several units, `> 0.5` for one."""
        proba = self.predict(x, batch_size=batch_size, verbose=verbose)
        if proba.shape[-1] > 1:
            return proba.argmax(axis=-1)
        return (proba > 0.5).astype("int32")
