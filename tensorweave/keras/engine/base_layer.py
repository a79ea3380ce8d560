"""The Keras 2 `Layer` base class (graph mode), with the node bookkeeping functional models use."""

import inspect
import re
import weakref

import numpy as np

from .. import _tf as tf
from .. import backend as K

# id(tensor) -> (tensor, layer, node_index, tensor_index): how each Keras tensor was produced.
_KERAS_HISTORY = {}


def to_snake_case(name):
    """CamelCase -> snake_case, as Keras names layers."""
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    if insecure[0] != "_":
        return insecure
    return "private" + insecure


def unique_layer_name(base):
    """Returns `base`, then `base_1`, `base_2`, ... within the current graph."""
    uid = K.get_uid(base)
    return base if uid == 1 else "%s_%d" % (base, uid - 1)


# tensor -> its Keras mask (Keras sets `tensor._keras_mask`; tensorweave tensors have no `__dict__`).
_KERAS_MASKS = weakref.WeakKeyDictionary()


def get_keras_mask(tensor):
    """Returns the Keras mask a layer attached to `tensor` (Keras' `tensor._keras_mask`), or None."""
    try:
        return _KERAS_MASKS.get(tensor)
    except TypeError:
        return None


def set_keras_mask(tensor, mask):
    """Attaches the Keras mask `mask` (or None) to `tensor`."""
    try:
        if mask is None:
            _KERAS_MASKS.pop(tensor, None)
        else:
            _KERAS_MASKS[tensor] = mask
    except TypeError:
        pass


def keras_history(tensor):
    """Returns `(layer, node_index, tensor_index)` for a Keras tensor, or None."""
    entry = _KERAS_HISTORY.get(id(tensor))
    if entry is None or entry[0] is not tensor:
        return None
    return entry[1:]


def is_keras_tensor(x):
    """Whether `x` is a tensor produced by a Keras layer (or `Input`)."""
    return keras_history(x) is not None


def _flatten(x):
    if isinstance(x, (list, tuple)):
        out = []
        for item in x:
            out.extend(_flatten(item))
        return out
    if isinstance(x, dict):
        out = []
        for key in sorted(x):
            out.extend(_flatten(x[key]))
        return out
    return [x]


def _shape_of(x):
    if isinstance(x, (list, tuple)):
        return [_shape_of(t) for t in x]
    return tf.TensorShape(x.shape)


def _unwrap_single(x):
    if isinstance(x, list) and len(x) == 1:
        return x[0]
    return x


class InputSpec:
    """Specifies the rank, dtype and shape of every input to a layer.

    Args:
      dtype: Expected dtype.
      shape: Expected shape tuple (None entries unchecked).
      ndim: Expected rank.
      max_ndim: Maximum rank.
      min_ndim: Minimum rank.
      axes: Dict mapping axis index to the expected dimension.
    """

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None):
        self.dtype = dtype
        self.shape = shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = axes or {}

    def __repr__(self):
        spec = [("dtype=" + str(self.dtype)) if self.dtype else "",
                ("shape=" + str(self.shape)) if self.shape else "",
                ("ndim=" + str(self.ndim)) if self.ndim else "",
                ("max_ndim=" + str(self.max_ndim)) if self.max_ndim else "",
                ("min_ndim=" + str(self.min_ndim)) if self.min_ndim else "",
                ("axes=" + str(self.axes)) if self.axes else ""]
        return "InputSpec(%s)" % ", ".join(x for x in spec if x)


def assert_input_compatibility(input_spec, inputs, layer_name):
    """Checks `inputs` against the layer's `input_spec` as Keras 2 does.

    Raises:
      ValueError: Naming the layer, when an input does not match.
    """
    if not input_spec:
        return
    specs = input_spec if isinstance(input_spec, (list, tuple)) else [input_spec]
    inputs = _flatten(inputs)
    if len(inputs) != len(specs):
        raise ValueError("Layer " + layer_name + " expects " + str(len(specs)) + " inputs, but it received " +
                         str(len(inputs)) + " input tensors. Inputs received: " + str(inputs))
    for index, (x, spec) in enumerate(zip(inputs, specs)):
        if spec is None:
            continue
        shape = tf.TensorShape(x.shape)
        rank = shape.ndims
        prefix = "Input " + str(index) + " of layer " + layer_name + " is incompatible with the layer: "
        if spec.ndim is not None and rank is not None and rank != spec.ndim:
            raise ValueError(prefix + "expected ndim=" + str(spec.ndim) + ", found ndim=" + str(rank) +
                             ". Full shape received: " + str(shape.as_list()))
        if spec.max_ndim is not None and rank is not None and rank > spec.max_ndim:
            raise ValueError(prefix + "expected max_ndim=" + str(spec.max_ndim) + ", found ndim=" + str(rank))
        if spec.min_ndim is not None and rank is not None and rank < spec.min_ndim:
            raise ValueError(prefix + ": expected min_ndim=" + str(spec.min_ndim) + ", found ndim=" + str(rank) +
                             ". Full shape received: " + str(shape.as_list()))
        if spec.dtype is not None and x.dtype.base_dtype.name != tf.as_dtype(spec.dtype).name:
            raise ValueError(prefix + "expected dtype=" + str(spec.dtype) + ", found dtype=" +
                             str(x.dtype.base_dtype.name))
        if rank is None:
            continue
        dims = shape.as_list()
        for axis, value in spec.axes.items():
            if value is None:
                continue
            position = axis if axis >= 0 else rank + axis
            if position < 0 or position >= rank or dims[position] not in (value, None):
                raise ValueError(prefix + "expected axis " + str(axis) + " of input shape to have value " +
                                 str(value) + " but received input with shape " + str(dims))
        if spec.shape is not None:
            for spec_dim, dim in zip(spec.shape, dims):
                if spec_dim is not None and dim is not None and spec_dim != dim:
                    raise ValueError(prefix + "expected shape=" + str(spec.shape) + ", found shape=" + str(dims))


class Node:
    """One application of a layer: its input and output tensors and the call's keyword arguments."""

    def __init__(self, layer, input_tensors, output_tensors, arguments):
        self.outbound_layer = layer
        self.input_tensors = input_tensors
        self.output_tensors = output_tensors
        self.arguments = arguments
        self.inbound_layers = []
        self.node_indices = []
        self.tensor_indices = []
        for x in _flatten(input_tensors):
            history = keras_history(x)
            if history is not None:
                self.inbound_layers.append(history[0])
                self.node_indices.append(history[1])
                self.tensor_indices.append(history[2])
        self.input_shapes = [tuple(tf.TensorShape(t.shape).as_list()) for t in _flatten(input_tensors)]
        self.output_shapes = [tuple(tf.TensorShape(t.shape).as_list()) for t in _flatten(output_tensors)]


class Layer:
    """Base class of Keras layers: owns weights, and maps input tensors to output tensors in `call`.

    Args:
      trainable: Whether the layer's weights are updated in training.
      name: The layer's name (default: the snake-cased class name, made unique: `dense`, `dense_1`...).
      dtype: The dtype of its weights (default floatx()).
      input_shape: For a first layer, the input shape without the batch axis.
      batch_input_shape: The input shape with the batch axis.
      batch_size: With `input_shape`, the fixed batch size.
      input_dim: Shorthand for `input_shape=(input_dim,)`.
      weights: Initial weight values, set when the layer is built.
      activity_regularizer: Optional function of the outputs adding a loss.

    Raises:
      TypeError: For an unknown keyword argument.
    """

    _ALLOWED_KWARGS = {"input_shape", "batch_input_shape", "batch_size", "weights", "activity_regularizer",
                       "input_dim"}

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        for key in kwargs:
            if key not in self._ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", key)
        object.__setattr__(self, "_layers", [])
        self.trainable = trainable
        self.built = False
        self.supports_masking = False
        self._compute_output_and_mask_jointly = False
        self.stateful = False
        self.input_spec = None
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._losses = []
        self._updates = []
        self._inbound_nodes = []
        self._outbound_nodes = []
        self._dtype = None if dtype is None else tf.as_dtype(dtype).name
        if name is None:
            name = unique_layer_name(to_snake_case(type(self).__name__))
        self._name = name
        if "input_dim" in kwargs and "input_shape" not in kwargs:
            kwargs["input_shape"] = (kwargs["input_dim"],)
        if "input_shape" in kwargs or "batch_input_shape" in kwargs:
            if "batch_input_shape" in kwargs:
                batch_input_shape = tuple(kwargs["batch_input_shape"])
            else:
                batch_input_shape = (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
            self._batch_input_shape = batch_input_shape
        self._initial_weights = kwargs.get("weights")
        self.activity_regularizer = None
        if kwargs.get("activity_regularizer") is not None:
            from .. import regularizers
            self.activity_regularizer = regularizers.get(kwargs["activity_regularizer"])
        self._call_fn_args = set(inspect.signature(self.call).parameters)

    def __setattr__(self, name, value):
        # Track sub-layers assigned as attributes (for models and layers made of layers).
        if isinstance(value, Layer) and value is not self and name not in ("_outbound_layer",):
            layers = self.__dict__.get("_layers")
            if layers is not None and all(value is not l for l in layers):
                layers.append(value)
        elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Layer) for v in value) \
                and not name.startswith("_"):
            layers = self.__dict__.get("_layers")
            if layers is not None:
                for v in value:
                    if all(v is not l for l in layers):
                        layers.append(v)
        object.__setattr__(self, name, value)

    # ---- properties ---------------------------------------------------------------------------
    @property
    def name(self):
        """The layer's name."""
        return self._name

    @property
    def dtype(self):
        """The dtype of the layer's weights, as a string."""
        return self._dtype

    @property
    def trainable_weights(self):
        """The trainable variables of this layer and its sub-layers (empty when not trainable)."""
        if not self.trainable:
            return []
        weights = list(self._trainable_weights)
        for layer in self._layers:
            weights += [w for w in layer.trainable_weights if all(w is not x for x in weights)]
        return weights

    @property
    def non_trainable_weights(self):
        """The non-trainable variables (all variables when the layer is frozen)."""
        if self.trainable:
            weights = list(self._non_trainable_weights)
            for layer in self._layers:
                weights += [w for w in layer.non_trainable_weights if all(w is not x for x in weights)]
            return weights
        weights = list(self._trainable_weights) + list(self._non_trainable_weights)
        for layer in self._layers:
            weights += [w for w in layer.weights if all(w is not x for x in weights)]
        return weights

    @property
    def weights(self):
        """All the layer's variables: trainable ones first."""
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    @property
    def losses(self):
        """Losses added with `add_loss` (including weight regularization) here and in sub-layers."""
        losses = list(self._losses)
        for layer in self._layers:
            losses += [x for x in layer.losses if all(x is not y for y in losses)]
        return losses

    @property
    def updates(self):
        """Update ops added with `add_update` here and in sub-layers (none when not trainable)."""
        if not self.trainable and not self.stateful:
            return []
        updates = list(self._updates)
        for layer in self._layers:
            updates += [x for x in layer.updates if all(x is not y for y in updates)]
        return updates

    def _node_attr(self, attr, node_index, what):
        if not self._inbound_nodes:
            raise AttributeError("Layer " + self.name + " is not connected, no input to return." if what == "input"
                                 else "Layer " + self.name + " has no inbound nodes.")
        if len(self._inbound_nodes) > 1 and node_index is None:
            raise AttributeError("Layer " + self.name + " has multiple inbound nodes, hence the notion of \"layer "
                                 + what + "\" is ill-defined. Use `get_" + what + "_at(node_index)` instead.")
        value = getattr(self._inbound_nodes[node_index or 0], attr)
        return _unwrap_single(list(value) if isinstance(value, (list, tuple)) else [value])

    @property
    def input(self):
        """The input tensor(s) of the layer's single inbound node.

        Raises:
          AttributeError: If the layer is not connected or has several inbound nodes.
        """
        return self._node_attr("input_tensors", None, "input")

    @property
    def output(self):
        """The output tensor(s) of the layer's single inbound node.

        Raises:
          AttributeError: If the layer is not connected or has several inbound nodes.
        """
        return self._node_attr("output_tensors", None, "output")

    @property
    def input_shape(self):
        """The input shape(s) of the layer's single inbound node (tuples)."""
        if not self._inbound_nodes:
            raise AttributeError("The layer has never been called and thus has no defined input shape.")
        shapes = {str(n.input_shapes) for n in self._inbound_nodes}
        if len(shapes) == 1:
            return _unwrap_single(list(self._inbound_nodes[0].input_shapes))
        raise AttributeError('The layer "' + str(self.name) + ' has multiple inbound nodes, with different input '
                             'shapes. Hence the notion of "input shape" is ill-defined for the layer. Use '
                             '`get_input_shape_at(node_index)` instead.')

    @property
    def output_shape(self):
        """The output shape(s) of the layer's single inbound node (tuples)."""
        if not self._inbound_nodes:
            raise AttributeError("The layer has never been called and thus has no defined output shape.")
        shapes = {str(n.output_shapes) for n in self._inbound_nodes}
        if len(shapes) == 1:
            return _unwrap_single(list(self._inbound_nodes[0].output_shapes))
        raise AttributeError('The layer "%s" has multiple inbound nodes, with different output shapes. Hence the '
                             'notion of "output shape" is ill-defined for the layer. Use '
                             '`get_output_shape_at(node_index)` instead.' % self.name)

    def get_input_at(self, node_index):
        """The input tensor(s) of inbound node `node_index`."""
        return self._node_attr("input_tensors", node_index, "input")

    def get_output_at(self, node_index):
        """The output tensor(s) of inbound node `node_index`."""
        return self._node_attr("output_tensors", node_index, "output")

    # ---- building ---------------------------------------------------------------------------
    def build(self, input_shape):
        """Creates the layer's weights; subclasses override it and the base marks the layer built.

        Args:
          input_shape: A `TensorShape` (or list of them).
        """
        self.built = True

    def call(self, inputs, **kwargs):
        """The layer's computation; the base returns `inputs`."""
        return inputs

    def compute_output_shape(self, input_shape):
        """Returns the output shape for `input_shape` (the base: unchanged)."""
        return input_shape

    def compute_mask(self, inputs, mask=None):
        """Returns the output mask(s) for `inputs` and their `mask`.

        The base carries `mask` over when the layer `supports_masking`, and returns None otherwise.

        Raises:
          TypeError: If the layer does not support masking and a mask is given.
        """
        if not self.supports_masking:
            if any(m is not None for m in _flatten(mask)):
                raise TypeError("Layer " + self.name + " does not support masking, but was passed an "
                                "input_mask: " + str(mask))
            return None
        return mask

    def _collect_input_masks(self, inputs):
        masks = [get_keras_mask(x) for x in _flatten(inputs)]
        if all(m is None for m in masks):
            return None
        return masks if isinstance(inputs, (list, tuple)) else masks[0]

    def _set_mask_metadata(self, inputs, outputs, input_masks, computed):
        flat_outputs = [t for t in _flatten(outputs)]
        if self._compute_output_and_mask_jointly or (computed and all(m is not None for m in computed)):
            flat_masks = computed
        elif self.supports_masking or type(self).compute_mask is not Layer.compute_mask:
            flat_masks = _flatten(self.compute_mask(inputs, input_masks))
            if len(flat_masks) != len(flat_outputs):
                flat_masks = [None] * len(flat_outputs)
        else:
            flat_masks = [None] * len(flat_outputs)
        for out, mask in zip(flat_outputs, flat_masks):
            if tf.is_tensor(out):
                set_keras_mask(out, mask)

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=True,
                   constraint=None, **kwargs):
        """Creates a weight variable `<layer name>/<name>` and tracks it.

        Args:
          name: The variable's name.
          shape: Its shape.
          dtype: Its dtype (default: the layer's dtype, else floatx()).
          initializer: An initializer, its name or config (default glorot_uniform for floats, zeros else).
          regularizer: A regularizer, its name or config; its loss is added to `layer.losses`.
          trainable: Whether it goes to `trainable_weights`.
          constraint: Optional projection applied after optimizer updates.

        Returns:
          The variable.
        """
        from .. import constraints, initializers, regularizers
        dtype = tf.as_dtype(dtype or self._dtype or K.floatx())
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        shape = tuple(int(d) for d in shape)
        variable = tf.Variable(lambda: init(shape, dtype=dtype), dtype=dtype, name=name, trainable=trainable,
                               constraint=constraints.get(constraint))
        reg = regularizers.get(regularizer)
        if reg is not None:
            with tf.name_scope(name + "/Regularizer"):
                self.add_loss(reg(variable))
        if trainable:
            self._trainable_weights.append(variable)
        else:
            self._non_trainable_weights.append(variable)
        return variable

    def add_loss(self, losses, inputs=None):
        """Adds loss tensor(s) (scalars) to the layer.

        Args:
          losses: A tensor or list of tensors.
          inputs: Unused (compatibility).
        """
        for loss in _flatten(losses):
            if loss is None:
                continue
            if callable(loss) and not tf.is_tensor(loss):
                loss = loss()
            self._losses.append(loss)

    def add_update(self, updates, inputs=None):
        """Adds update op(s) run at each training step.

        Args:
          updates: An op/tensor, a `(variable, value)` pair, or a list of them.
          inputs: Unused (compatibility).
        """
        if isinstance(updates, tuple) and len(updates) == 2 and isinstance(updates[0], tf.Variable):
            updates = [updates]
        for update in (updates if isinstance(updates, (list, tuple)) else [updates]):
            if isinstance(update, tuple):
                update = tf.assign(update[0], update[1])
            self._updates.append(update)

    # ---- calling ----------------------------------------------------------------------------
    def __call__(self, inputs, *args, **kwargs):
        """Builds the layer if needed, applies `call` and records the node for functional models.

        Args:
          inputs: A tensor or a list of tensors.
          *args, **kwargs: Passed on to `call` (e.g. `training`, `mask`).

        Returns:
          The output tensor(s).

        Raises:
          ValueError: If the inputs do not match the layer's `input_spec`.
        """
        flat = _flatten(inputs)
        converted = []
        for x in flat:
            converted.append(x if tf.is_tensor(x) else tf.convert_to_tensor(x, dtype=self._dtype or K.floatx()))
        if any(a is not b for a, b in zip(converted, flat)):
            inputs = converted[0] if len(converted) == 1 and not isinstance(inputs, (list, tuple)) else converted
        assert_input_compatibility(self.input_spec, inputs, self.name)
        with tf.name_scope(self.name):
            if not self.built:
                if self._dtype is None:
                    first = converted[0] if converted else None
                    self._dtype = first.dtype.base_dtype.name if first is not None and \
                        first.dtype.is_floating else K.floatx()
                self.build(_shape_of(inputs))
                self.built = True
                if self._initial_weights is not None:
                    self.set_weights(self._initial_weights)
                    self._initial_weights = None
            if "mask" in kwargs and "mask" not in self._call_fn_args:
                kwargs.pop("mask")
            # The inputs' masks go to `call` (not to the node's recorded arguments).
            input_masks = kwargs["mask"] if "mask" in kwargs else self._collect_input_masks(inputs)
            call_kwargs = dict(kwargs)
            if "mask" in self._call_fn_args and "mask" not in kwargs:
                call_kwargs["mask"] = input_masks
            outputs = self.call(inputs, *args, **call_kwargs)
            computed_masks = [get_keras_mask(t) if tf.is_tensor(t) else None for t in _flatten(outputs)]
            # An input returned unchanged gets a new tensor, so that its history stays its own.
            input_ids = {id(t) for t in _flatten(inputs)}
            if isinstance(outputs, (list, tuple)):
                outputs = type(outputs)(tf.identity(t) if id(t) in input_ids else t for t in outputs)
            elif id(outputs) in input_ids:
                outputs = tf.identity(outputs)
            if self.activity_regularizer is not None:
                for out in _flatten(outputs):
                    with tf.name_scope("ActivityRegularizer"):
                        loss = self.activity_regularizer(out)
                        size = tf.cast(tf.shape(out)[0], loss.dtype)
                        self.add_loss(loss / size)
            self._set_mask_metadata(inputs, outputs, input_masks, computed_masks)
        self._add_inbound_node(inputs, outputs, kwargs)
        return outputs

    def _add_inbound_node(self, inputs, outputs, arguments):
        flat_outputs = _flatten(outputs)
        # An output that is an input unchanged (e.g. identity call) gets its own tensor.
        node = Node(self, inputs, outputs, dict(arguments))
        node_index = len(self._inbound_nodes)
        self._inbound_nodes.append(node)
        for layer in node.inbound_layers:
            layer._outbound_nodes.append(node)
        for i, t in enumerate(flat_outputs):
            if tf.is_tensor(t):
                _KERAS_HISTORY[id(t)] = (t, self, node_index, i)

    # ---- weights ------------------------------------------------------------------------------
    def get_weights(self):
        """Returns the layer's weights as a list of NumPy arrays (order of `layer.weights`)."""
        return K.batch_get_value(self.weights)

    def set_weights(self, weights):
        """Sets the layer's weights from a list of NumPy arrays.

        Args:
          weights: Arrays in the order of `layer.weights`, with matching shapes.

        Raises:
          ValueError: If the count or a shape does not match.
        """
        params = self.weights
        if len(params) != len(weights):
            raise ValueError('You called `set_weights(weights)` on layer "' + self.name + '" with a weight list '
                             'of length ' + str(len(weights)) + ', but the layer was expecting ' +
                             str(len(params)) + ' weights. Provided weights: ' + str(weights)[:50] + '...')
        tuples = []
        for p, w in zip(params, weights):
            ref_shape = K.int_shape(p)
            w = np.asarray(w)
            if ref_shape != w.shape:
                raise ValueError("Layer weight shape " + str(ref_shape) + " not compatible with provided weight "
                                 "shape " + str(w.shape))
            tuples.append((p, w))
        K.batch_set_value(tuples)

    def count_params(self):
        """Returns the number of scalars in the layer's weights.

        Raises:
          ValueError: If the layer is not built.
        """
        if not self.built:
            if type(self).build is Layer.build:
                self.built = True
            else:
                raise ValueError("You tried to call `count_params` on " + self.name + ", but the layer isn't "
                                 "built. You can build it manually via: `" + self.name +
                                 ".build(batch_input_shape)`.")
        return int(sum(K.count_params(w) for w in self.weights))

    # ---- config -------------------------------------------------------------------------------
    def get_config(self):
        """Returns the layer's config: a dict that `from_config` turns back into the layer."""
        config = {"name": self.name, "trainable": self.trainable}
        if hasattr(self, "_batch_input_shape"):
            config["batch_input_shape"] = self._batch_input_shape
        config["dtype"] = self._dtype
        return config

    @classmethod
    def from_config(cls, config):
        """Creates a layer from its config."""
        return cls(**config)
