"""`Network`: a graph of layers (functional models) or a subclassed model's container."""

from .. import _tf as tf
from .. import backend as K
from .base_layer import (
    Layer,
    Node,
    _flatten,
    get_keras_mask,
    keras_history,
    set_keras_mask,
    to_snake_case,
    unique_layer_name,
)


class Network(Layer):
    """A layer made of layers: either a graph from `inputs` to `outputs`, or a subclass with `call`.

    Args:
      inputs: Keras input tensor(s) (from `Input`), for a functional network.
      outputs: Keras output tensor(s) computed from `inputs`.
      name: The model's name (default `model`, `model_1`, ...; subclasses: their snake-cased class name).

    Raises:
      ValueError: If an output cannot be reached from the inputs through Keras layers, or a
        tensor is not a Keras tensor.
    """

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", None)
        outputs = kwargs.pop("outputs", None)
        if len(args) >= 1:
            inputs = args[0]
        if len(args) >= 2:
            outputs = args[1]
        name = kwargs.pop("name", None)
        trainable = kwargs.pop("trainable", True)
        if name is None:
            base = "model" if type(self).__name__ in ("Model", "Network", "Functional") else \
                to_snake_case(type(self).__name__)
            name = unique_layer_name(base)
        super().__init__(name=name, trainable=trainable, **kwargs)
        self._is_graph_network = False
        self._compute_output_and_mask_jointly = True
        self.inputs = []
        self.outputs = []
        self._network_nodes = []
        if inputs is not None and outputs is not None:
            self._init_graph_network(inputs, outputs)

    def _init_graph_network(self, inputs, outputs):
        self._nested_inputs = inputs
        self._nested_outputs = outputs
        self.inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        self.outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        for x in self.inputs + self.outputs:
            if keras_history(x) is None:
                raise ValueError("Input tensors to a Model must come from `tf.keras.Input`. Received: " + str(x) +
                                 " (missing previous layer metadata).")
        input_ids = {id(t) for t in self.inputs}
        nodes = []
        seen = set()
        layer_indices = {}
        input_layers = [keras_history(t)[0] for t in self.inputs]

        def visit(tensor, path):
            layer, node_index, _ = keras_history(tensor)
            node = layer._inbound_nodes[node_index]
            if id(node) in path:
                raise ValueError("The tensor " + str(tensor) + " at layer \"" + layer.name +
                                 "\" is part of a cycle.")
            if id(node) in seen:
                return
            layer_indices.setdefault(id(layer), (len(layer_indices), layer))
            if id(tensor) not in input_ids:
                inbound = _flatten(node.input_tensors)
                if not inbound and all(layer is not l for l in input_layers):
                    raise ValueError("Graph disconnected: cannot obtain value for tensor " + str(tensor) +
                                     " at layer \"" + layer.name + "\". The following previous layers were "
                                     "accessed without issue: " + str([l.name for _, l in layer_indices.values()
                                                                       if l is not layer]))
                for x in inbound:
                    if keras_history(x) is None:
                        raise ValueError("Output tensors to a Model must be the output of a Keras `Layer` "
                                         "(thus holding past layer metadata). Found: " + str(x))
                    visit(x, path | {id(node)})
            seen.add(id(node))
            nodes.append(node)

        for x in self.outputs:
            visit(x, set())
        for x in self.inputs:
            visit(x, set())
        # Keras' layer order: by decreasing depth, then by traversal order.
        node_depth, layer_depth = {}, {}
        producers = {id(t): n for n in nodes for t in _flatten(n.output_tensors)}
        for node in reversed(nodes):
            depth = max(node_depth.setdefault(id(node), 0), layer_depth.get(id(node.outbound_layer), 0))
            layer_depth[id(node.outbound_layer)] = depth
            node_depth[id(node)] = depth
            if id(node) in {id(keras_history(t)[0]._inbound_nodes[keras_history(t)[1]]) for t in self.inputs}:
                continue
            for t in _flatten(node.input_tensors):
                producer = producers.get(id(t))
                if producer is not None:
                    node_depth[id(producer)] = max(depth + 1, node_depth.get(id(producer), 0))
        self._node_depths = node_depth
        layers = [l for _, l in sorted(layer_indices.values(), key=lambda p: (-layer_depth[id(p[1])], p[0]))]
        self._network_nodes = nodes
        object.__setattr__(self, "_layers", layers)
        self._is_graph_network = True
        self.built = True
        self.input_names = [keras_history(x)[0].name for x in self.inputs]
        self.output_names = []
        for x in self.outputs:
            name = keras_history(x)[0].name
            self.output_names.append(name)
        # The network's own node (Keras tensors keep the history of the layers that made them).
        self._inbound_nodes.append(Node(self, self._nested_inputs, self._nested_outputs, {}))

    @property
    def layers(self):
        """The model's layers, in graph order (functional models include their `InputLayer`s)."""
        return list(self._layers)

    def get_layer(self, name=None, index=None):
        """Returns a layer by name or index.

        Raises:
          ValueError: If no such layer exists.
        """
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError("Was asked to retrieve layer at index " + str(index) + " but model only has " +
                                 str(len(self.layers)) + " layers.")
            return self.layers[index]
        if not name:
            raise ValueError("Provide either a layer name or layer index.")
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError("No such layer: " + name)

    @property
    def weights(self):
        """All the model's variables, layer by layer (TF 1.15's Network order, which `get_weights`,
        `set_weights` and weight lists exchanged with TensorFlow follow), then its own."""
        out, seen = [], set()
        for w in [w for layer in self._layers for w in layer.weights] + \
                list(self._trainable_weights) + list(self._non_trainable_weights):
            if id(w) not in seen:
                seen.add(id(w))
                out.append(w)
        return out

    variables = weights

    def reset_states(self):
        """Resets the states of the model's stateful layers (stateful RNNs)."""
        for layer in self.layers:
            if hasattr(layer, "reset_states") and getattr(layer, "stateful", False):
                layer.reset_states()

    @property
    def state_updates(self):
        """Updates of stateful layers."""
        return [u for layer in self.layers if getattr(layer, "stateful", False) for u in layer.updates]

    def build(self, input_shape):
        """Builds a subclassed model by calling it on placeholders of `input_shape`.

        Raises:
          ValueError: For a graph network built twice or an unknown shape.
        """
        if self._is_graph_network:
            self.built = True
            return
        if input_shape is None:
            raise ValueError("Input shape must be defined when calling build on a model subclass network.")
        if isinstance(input_shape, list) and input_shape and isinstance(input_shape[0], (list, tuple,
                                                                                           tf.TensorShape)):
            x = [K.placeholder(shape=tuple(tf.TensorShape(s).as_list())) for s in input_shape]
        else:
            x = K.placeholder(shape=tuple(tf.TensorShape(input_shape).as_list()))
        self.call(x)
        self.built = True

    def call(self, inputs, training=None, mask=None):
        """Runs the layer graph on new `inputs` (for functional models).

        Raises:
          NotImplementedError: For a subclassed model that does not override `call`.
        """
        if not self._is_graph_network:
            raise NotImplementedError("When subclassing the `Model` class, you should implement a `call` method.")
        return self._run_internal_graph(inputs, training=training, mask=mask)

    def compute_mask(self, inputs, mask):
        """The output masks of a functional model for `inputs` and their `mask` (runs the graph)."""
        if not self._is_graph_network:
            return None
        outputs = self._run_internal_graph(inputs, mask=mask)
        masks = [get_keras_mask(x) for x in _flatten(outputs)]
        return masks if isinstance(self._nested_outputs, (list, tuple)) else masks[0]

    def _run_internal_graph(self, inputs, training=None, mask=None):
        flat_in = _flatten(inputs)
        if len(flat_in) != len(self.inputs):
            raise ValueError("Model " + self.name + " expects " + str(len(self.inputs)) + " input(s), but it "
                             "received " + str(len(flat_in)) + " input tensors.")
        mapping = {id(ref): x for ref, x in zip(self.inputs, flat_in)}
        if mask is not None:
            for x, m in zip(flat_in, _flatten(mask)):
                if m is not None:
                    set_keras_mask(x, m)

        def lookup(x):
            if isinstance(x, (list, tuple)):
                return type(x)(lookup(t) for t in x)
            return mapping[id(x)]

        for node in self._network_nodes:
            if not _flatten(node.input_tensors):
                continue
            if all(id(t) in mapping for t in _flatten(node.output_tensors)):
                continue
            kwargs = dict(node.arguments)
            if training is not None and "training" in node.outbound_layer._call_fn_args:
                kwargs.setdefault("training", training)
            new_in = lookup(node.input_tensors)
            new_out = node.outbound_layer(new_in, **kwargs)
            for ref, x in zip(_flatten(node.output_tensors), _flatten(new_out)):
                mapping[id(ref)] = x
        outputs = [mapping[id(x)] for x in self.outputs]
        if isinstance(self._nested_outputs, (list, tuple)):
            return outputs
        return outputs[0]

    def compute_output_shape(self, input_shape):
        """Output shape(s) for `input_shape` (functional models: the outputs' static shapes)."""
        if self._is_graph_network:
            shapes = [tf.TensorShape(x.shape) for x in self.outputs]
            return shapes[0] if len(shapes) == 1 else shapes
        return super().compute_output_shape(input_shape)

    def get_config(self):
        """Returns the network's config (graph networks: layers and connectivity).

        Raises:
          NotImplementedError: For subclassed models.
        """
        if not self._is_graph_network:
            raise NotImplementedError
        node_ids = {id(n) for n in self._network_nodes}

        def kept_index(layer, raw):
            return sum(1 for n in layer._inbound_nodes[:raw] if id(n) in node_ids)

        layer_configs = []
        for layer in self.layers:
            inbound = []
            for node in layer._inbound_nodes:
                if id(node) not in node_ids or not node.inbound_layers:
                    continue
                inbound.append([[l.name, kept_index(l, ni), ti, dict(node.arguments)] for l, ni, ti in
                                zip(node.inbound_layers, node.node_indices, node.tensor_indices)])
            layer_configs.append({"name": layer.name, "class_name": type(layer).__name__,
                                  "config": layer.get_config(), "inbound_nodes": inbound})

        def endpoint(x):
            layer, ni, ti = keras_history(x)
            return [layer.name, kept_index(layer, ni), ti]

        return {"name": self.name, "layers": layer_configs,
                "input_layers": [endpoint(x) for x in self.inputs],
                "output_layers": [endpoint(x) for x in self.outputs]}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates a functional model (new layers, same connectivity) from `get_config()`.

        Args:
          config: The dict from `get_config`.
          custom_objects: Optional dict name -> class for custom layers.

        Returns:
          A new model.

        Raises:
          ValueError: For an unknown layer class.
        """
        from .. import layers as layers_module
        created = {}
        kept_nodes = {}

        def output_of(name, node_index, tensor_index):
            return _flatten(kept_nodes[name][node_index].output_tensors)[tensor_index]

        for layer_config in config["layers"]:
            class_name = layer_config["class_name"]
            layer_cls = (custom_objects or {}).get(class_name) or getattr(layers_module, class_name, None)
            if layer_cls is None:
                raise ValueError("Unknown layer: " + class_name)
            layer = layer_cls.from_config(layer_config["config"])
            created[layer_config["name"]] = layer
            kept_nodes[layer_config["name"]] = list(layer._inbound_nodes)
            for node_data in layer_config["inbound_nodes"]:
                inputs = [output_of(name, ni, ti) for name, ni, ti, _ in node_data]
                kwargs = node_data[0][3] if node_data else {}
                before = len(layer._inbound_nodes)
                layer(inputs[0] if len(inputs) == 1 else inputs, **kwargs)
                kept_nodes[layer_config["name"]] += layer._inbound_nodes[before:]
        inputs = [output_of(*entry) for entry in config["input_layers"]]
        outputs = [output_of(*entry) for entry in config["output_layers"]]
        return cls(inputs=inputs if len(inputs) > 1 else inputs[0],
                   outputs=outputs if len(outputs) > 1 else outputs[0], name=config.get("name"))

    def _nodes_by_depth(self):
        grouped = {}
        for node in self._network_nodes:
            grouped.setdefault(self._node_depths.get(id(node), 0), []).append(node)
        return grouped

    def summary(self, line_length=None, positions=None, print_fn=None):
        """Prints a table of the model's layers, output shapes and parameter counts (Keras 2 format).

        Args:
          line_length: Total line width (default 65, or 98 with a 'Connected to' column).
          positions: Column end positions, as fractions or absolute widths.
          print_fn: Function printing each line (default `print`).

        Raises:
          ValueError: If the model is not built yet.
        """
        if not self.built or (not self._is_graph_network and not self.inputs):
            raise ValueError("This model has not yet been built. Build the model first by calling `build()` or "
                             "calling `fit()` with some data, or specify an `input_shape` argument in the first "
                             "layer(s) for automatic build.")
        print_fn = print_fn or print
        sequential_like = True
        relevant = []
        if self._is_graph_network and type(self).__name__ != "Sequential":
            for nodes in self._nodes_by_depth().values():
                if len(nodes) > 1 or (len(nodes) == 1 and len(nodes[0].inbound_layers) > 1):
                    sequential_like = False
                    break
                relevant += nodes
            if sequential_like:
                for layer in self.layers:
                    if sum(1 for n in layer._inbound_nodes if any(n is r for r in relevant)) > 1:
                        sequential_like = False
                        break
        relevant = list(self._network_nodes)
        if sequential_like:
            line_length = line_length or 65
            positions = positions or [.45, .85, 1.]
            to_display = ["Layer (type)", "Output Shape", "Param #"]
        else:
            line_length = line_length or 98
            positions = positions or [.33, .55, .67, 1.]
            to_display = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        if positions[-1] <= 1:
            positions = [int(line_length * p) for p in positions]

        def print_row(fields):
            line = ""
            for i, field in enumerate(fields):
                if i > 0:
                    line = line[:-1] + " "
                line += str(field)
                line = line[:positions[i]]
                line += " " * (positions[i] - len(line))
            print_fn(line)

        def output_shape(layer):
            try:
                return layer.output_shape
            except AttributeError:
                return "multiple"

        print_fn('Model: "{}"'.format(self.name))
        print_fn("_" * line_length)
        print_row(to_display)
        print_fn("=" * line_length)
        layers = self.layers
        for i, layer in enumerate(layers):
            fields = [layer.name + " (" + type(layer).__name__ + ")", output_shape(layer), layer.count_params()]
            if sequential_like:
                print_row(fields)
            else:
                connections = []
                for node in layer._inbound_nodes:
                    if relevant and all(node is not r for r in relevant):
                        continue
                    for inbound, ni, ti in zip(node.inbound_layers, node.node_indices, node.tensor_indices):
                        connections.append("{}[{}][{}]".format(inbound.name, ni, ti))
                print_row(fields + [connections[0] if connections else ""])
                for extra in connections[1:]:
                    print_row(["", "", "", extra])
            print_fn("=" * line_length if i == len(layers) - 1 else "_" * line_length)
        trainable = int(sum(K.count_params(w) for w in self.trainable_weights))
        non_trainable = int(sum(K.count_params(w) for w in self.non_trainable_weights))
        print_fn("Total params: {:,}".format(trainable + non_trainable))
        print_fn("Trainable params: {:,}".format(trainable))
        print_fn("Non-trainable params: {:,}".format(non_trainable))
        print_fn("_" * line_length)

    # ---- saving (tensorweave/keras/saving) ----------------------------------------------------
    def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None):
        """Saves the model (config, weights, compile arguments, optimizer state) to an HDF5 file.

        As in TF 1.x, the format is HDF5 whatever the extension; see `tf.keras.models.save_model`.

        Args:
          filepath: The file's path, or an open `h5py.File`.
          overwrite: Whether to replace an existing file without asking.
          include_optimizer: Whether to save the training config and the optimizer's state.
          save_format: None or 'h5' ('tf', SavedModel, is not supported).

        Raises:
          ImportError: Without h5py (`pip install 'tensorweave[keras]'`).
          NotImplementedError: For a subclassed model or save_format='tf'.
        """
        from ..saving import save as saving
        saving.save_model(self, filepath, overwrite, include_optimizer, save_format)

    def save_weights(self, filepath, overwrite=True, save_format=None):
        """Saves the weights: HDF5 for `.h5`/`.keras`/`.hdf5` paths or save_format='h5', else a TF
        checkpoint with tf.keras' object-based keys (`layer_with_weights-0/kernel/.ATTRIBUTES/...`, and
        the object graph TF needs, and the optimizer's state), which tf-keras reads.

        Args:
          filepath: The HDF5 file's path or the checkpoint prefix.
          overwrite: Whether to replace an existing file without asking.
          save_format: None, 'h5' or 'tf'.

        Raises:
          ImportError: Without h5py for HDF5 (`pip install 'tensorweave[keras]'`).
          ValueError: For save_format='tf' with an HDF5 path, or an unknown format.
        """
        from ..saving import save as saving
        saving.save_weights(self, filepath, overwrite, save_format)

    def load_weights(self, filepath, by_name=False, skip_mismatch=False):
        """Loads weights from an HDF5 file (weights or whole model) or a TF checkpoint.

        Args:
          filepath: The HDF5 file's path or the checkpoint prefix.
          by_name: HDF5 only: load into the layers of the same name instead of by topology.
          skip_mismatch: With `by_name`, skip layers whose weight count or shapes differ.

        A TF checkpoint's optimizer state is restored when the model is compiled.

        Returns:
          For a TF checkpoint, a status object (`assert_consumed()`, `expect_partial()`, ...); else None.

        Raises:
          ImportError: Without h5py for HDF5 (`pip install 'tensorweave[keras]'`).
          NotImplementedError: For by_name=True with a TF checkpoint.
          ValueError: If the saved layers or weights do not fit the model.
        """
        from ..saving import save as saving
        return saving.load_weights(self, filepath, by_name, skip_mismatch)

    def to_json(self, **kwargs):
        """Returns the model's config as JSON: `{'class_name', 'config', 'keras_version', 'backend'}`.

        Args:
          **kwargs: Passed to `json.dumps`.

        Raises:
          NotImplementedError: For subclassed models.
        """
        from ..saving import save as saving
        return saving.model_to_json(self, **kwargs)
