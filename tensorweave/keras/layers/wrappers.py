"""Keras 2 layer wrappers (TF 1.15's `tf.keras.layers`): `Wrapper`, `TimeDistributed`, `Bidirectional`."""

import copy

from ...ops.array_permute_ops import reverse
from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import InputSpec, Layer, is_keras_tensor
from ..utils.generic_utils import has_arg
from .recurrent import _deserialize_layer, _serialize_layer

__all__ = ["Bidirectional", "TimeDistributed", "Wrapper"]


class Wrapper(Layer):
    """Base class of the layers that wrap another layer.

    Args:
      layer: The wrapped `Layer`.
      **kwargs: Base `Layer` arguments.

    Raises:
      ValueError: If `layer` is not a `Layer`.
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Layer " + str(layer) + " supplied to wrapper is not a supported layer type. Please "
                             "ensure wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            if self.layer._dtype is None:
                self.layer._dtype = self._dtype
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def get_config(self):
        config = {"layer": _serialize_layer(self.layer)}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates the wrapper and its layer from `get_config()`."""
        config = copy.deepcopy(config)
        layer = _deserialize_layer(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


def _shape_tuple(tensor, start, prefix):
    """`prefix + shape(tensor)[start:]`, static where known (a list for `tf.reshape`)."""
    static = K.int_shape(tensor)[start:]
    if all(d is not None for d in static):
        return list(prefix) + list(static)
    dynamic = tf.shape(tensor)
    dims = [d if d is not None else dynamic[start + i] for i, d in enumerate(static)]
    return tf.stack(list(prefix) + dims)


class TimeDistributed(Wrapper):
    """Applies `layer` to every time step (axis 1) of its input.

    The batch and time axes are merged, `layer` runs once on `(batch * time, ...)` and the result is
    split back to `(batch, time, ...)`. A mask `(batch, time)` reaches `layer` merged the same way.

    Args:
      layer: The `Layer` to apply.

    Raises:
      ValueError: If `layer` is not a `Layer`; at build time, for an input of rank below 3.
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `TimeDistributed` layer with a `Layer` instance. You passed: "
                             + str(layer))
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    def build(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        if len(dims) < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape ` with at least 3 "
                             "dimensions, received: " + str(dims))
        self.input_spec = InputSpec(shape=[None, None] + dims[2:])
        super().build(tuple([dims[0]] + dims[2:]))

    def compute_output_shape(self, input_shape):
        dims = tf.TensorShape(input_shape).as_list()
        child = tf.TensorShape(self.layer.compute_output_shape(tf.TensorShape([dims[0]] + dims[2:]))).as_list()
        return tf.TensorShape([child[0], dims[1]] + child[1:])

    def _inner_mask(self, mask):
        if mask is None:
            return None
        return tf.reshape(mask, _shape_tuple(mask, 2, [-1]))

    def call(self, inputs, training=None, mask=None):
        kwargs = {}
        if has_arg(self.layer.call, "training"):
            kwargs["training"] = training
        input_length = K.int_shape(inputs)[1] or tf.shape(inputs)[1]
        inner_inputs = tf.reshape(inputs, _shape_tuple(inputs, 2, [-1]))
        if has_arg(self.layer.call, "mask") and mask is not None:
            kwargs["mask"] = self._inner_mask(mask)
        y = self.layer(inner_inputs, **kwargs)
        out_static = K.int_shape(y)[1:]
        if isinstance(input_length, int) and all(d is not None for d in out_static):
            return tf.reshape(y, [-1, input_length] + list(out_static))
        return tf.reshape(y, _shape_tuple(y, 1, [-1, input_length]))

    def compute_mask(self, inputs, mask=None):
        inner_mask = self._inner_mask(mask)
        inner_inputs = tf.reshape(inputs, _shape_tuple(inputs, 2, [-1]))
        output_mask = None
        if self.layer.supports_masking or type(self.layer).compute_mask is not Layer.compute_mask:
            output_mask = self.layer.compute_mask(inner_inputs, inner_mask)
        if output_mask is None:
            if mask is None:
                return None
            output_mask = mask
            for _ in range(2, len(K.int_shape(mask))):
                output_mask = K.max(tf.cast(output_mask, "int32"), axis=-1) > 0
            return output_mask
        input_length = K.int_shape(inputs)[1] or tf.shape(inputs)[1]
        shape = K.int_shape(output_mask)[1:]
        if isinstance(input_length, int) and all(d is not None for d in shape):
            return tf.reshape(output_mask, [-1, input_length] + list(shape))
        return tf.reshape(output_mask, _shape_tuple(output_mask, 1, [-1, input_length]))


class Bidirectional(Wrapper):
    """Runs a recurrent layer forwards and a copy of it backwards, and merges their outputs.

    The copies are made from `layer`'s config and named `forward_<name>` and `backward_<name>`; the
    backward one runs with `go_backwards` flipped and its sequence output is reversed back in time.

    Args:
      layer: A recurrent layer (`RNN`, `LSTM`, `GRU`, ...).
      merge_mode: 'concat' (default), 'sum', 'mul', 'ave', or None (a list of both outputs).
      weights: Optional initial weights (forward ones, then backward ones).
      backward_layer: Optional layer to use for the backward direction (its `go_backwards` must
        differ from `layer`'s; `stateful`, `return_sequences` and `return_state` must match).

    Call arguments:
      inputs: A tensor `(batch, time, ...)`, or `[inputs, *forward_states, *backward_states]`.
      mask, training: Passed to both layers.
      initial_state: Optional list: the forward layer's states, then the backward layer's.

    Raises:
      ValueError: For a `layer` that is not a Layer, an unknown `merge_mode`, or a mismatching
        `backward_layer`.
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Bidirectional` layer with a `Layer` instance. You passed: " +
                             str(layer))
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError("`backward_layer` need to be a `Layer` instance. You passed: " + str(backward_layer))
        if merge_mode not in ["sum", "mul", "ave", "concat", None]:
            raise ValueError("Invalid merge mode. Merge mode should be one of {\"sum\", \"mul\", \"ave\", "
                             "\"concat\", None}")
        Layer.__init__(self, **kwargs)
        # The wrapped layer is a template: only the forward and backward copies hold weights.
        object.__setattr__(self, "layer", layer)
        self.forward_layer = self._recreate_layer_from_config(layer)
        if backward_layer is None:
            self.backward_layer = self._recreate_layer_from_config(layer, go_backwards=True)
        else:
            self.backward_layer = backward_layer
            self._backward_layer_config = _serialize_layer(backward_layer)
        self.forward_layer._name = "forward_" + self.forward_layer.name
        self.backward_layer._name = "backward_" + self.backward_layer.name
        self._verify_layer_config()
        for sub in (self.forward_layer, self.backward_layer):
            if getattr(sub, "zero_output_for_mask", None) is not None:
                sub.zero_output_for_mask = sub.return_sequences
        self.merge_mode = merge_mode
        if weights:
            self._initial_weights = weights
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self.input_spec = layer.input_spec

    def _verify_layer_config(self):
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different `go_backwards` value.")
        for attr in ("stateful", "return_sequences", "return_state"):
            forward_value = getattr(self.forward_layer, attr)
            backward_value = getattr(self.backward_layer, attr)
            if forward_value != backward_value:
                raise ValueError("Forward layer and backward layer are expected to have the same value for "
                                 "attribute " + attr + ", got " + str(forward_value) + " and " +
                                 str(backward_value))

    @staticmethod
    def _recreate_layer_from_config(layer, go_backwards=False):
        config = layer.get_config()
        if go_backwards:
            config["go_backwards"] = not config["go_backwards"]
        if has_arg(type(layer).from_config, "custom_objects"):
            custom_objects = {}
            cell = getattr(layer, "cell", None)
            if cell is not None:
                custom_objects[type(cell).__name__] = type(cell)
                for c in getattr(cell, "cells", []):
                    custom_objects[type(c).__name__] = type(c)
            return type(layer).from_config(config, custom_objects=custom_objects)
        return type(layer).from_config(config)

    def compute_output_shape(self, input_shape):
        output_shape = self.forward_layer.compute_output_shape(input_shape)
        state_shape = None
        if self.return_state:
            state_shape = list(output_shape[1:])
            output_shape = output_shape[0]
        output_shape = tf.TensorShape(output_shape)
        if self.merge_mode == "concat":
            dims = output_shape.as_list()
            dims[-1] = dims[-1] * 2 if dims[-1] is not None else None
            output_shape = tf.TensorShape(dims)
        elif self.merge_mode is None:
            output_shape = [output_shape, copy.copy(output_shape)]
        if self.return_state:
            if self.merge_mode is None:
                return output_shape + state_shape + copy.copy(state_shape)
            return [output_shape] + state_shape + copy.copy(state_shape)
        return output_shape

    def __call__(self, inputs, initial_state=None, constants=None, **kwargs):
        """Applies the layer; `initial_state` holds the forward states, then the backward ones.

        Raises:
          NotImplementedError: If `constants` are given.
          ValueError: If `initial_state` has an odd length or mixes Keras and non-Keras tensors.
        """
        if constants is not None:
            raise NotImplementedError("Bidirectional `constants` are not supported.")
        if isinstance(inputs, list):
            if len(inputs) > 1:
                initial_state = inputs[1:]
            inputs = inputs[0]
        if initial_state is None:
            return super().__call__(inputs, **kwargs)
        if not isinstance(initial_state, (list, tuple)):
            initial_state = [initial_state]
        initial_state = list(initial_state)
        if len(initial_state) % 2:
            raise ValueError("When passing `initial_state` to a Bidirectional RNN, the state should be a list "
                             "containing the states of the underlying RNNs. Found: " + str(initial_state))
        flags = {is_keras_tensor(s) for s in initial_state}
        if len(flags) > 1:
            raise ValueError("The initial state of a Bidirectional layer cannot be specified with a mix of Keras "
                             "tensors and non-Keras tensors (a \"Keras tensor\" is a tensor that was returned by a "
                             "Keras layer, or by `Input`)")
        if flags == {True}:
            original = self.input_spec
            self.input_spec = [None] * (1 + len(initial_state))
            try:
                return super().__call__([inputs] + initial_state, **kwargs)
            finally:
                self.input_spec = original
        kwargs["initial_state"] = initial_state
        return super().__call__(inputs, **kwargs)

    def build(self, input_shape):
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        for sub in (self.forward_layer, self.backward_layer):
            if not sub.built:
                if sub._dtype is None:
                    sub._dtype = self._dtype
                with tf.name_scope(sub.name):
                    sub.build(input_shape)
                sub.built = True
        self.built = True

    def call(self, inputs, training=None, mask=None, initial_state=None):
        kwargs = {}
        if has_arg(self.forward_layer.call, "training"):
            kwargs["training"] = training
        if has_arg(self.forward_layer.call, "mask"):
            kwargs["mask"] = mask[0] if isinstance(mask, list) else mask
        if isinstance(inputs, list):
            initial_state = inputs[1:]
            inputs = inputs[0]
        forward_state = backward_state = None
        if initial_state:
            half = len(initial_state) // 2
            forward_state, backward_state = list(initial_state[:half]), list(initial_state[half:])
        if forward_state is not None:
            y = self.forward_layer(inputs, initial_state=forward_state, **kwargs)
            y_rev = self.backward_layer(inputs, initial_state=backward_state, **kwargs)
        else:
            y = self.forward_layer(inputs, **kwargs)
            y_rev = self.backward_layer(inputs, **kwargs)
        states = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = reverse(y_rev, [0 if getattr(self.forward_layer, "time_major", False) else 1])
        if self.merge_mode == "concat":
            output = K.concatenate([y, y_rev])
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if self.return_state:
            return (output if self.merge_mode is None else [output]) + states
        return output

    def reset_states(self, states=None):
        """Resets the states of both (stateful) layers; `states`: forward ones, then backward ones.

        Raises:
          AttributeError: If the layer is not stateful.
          ValueError: If `states` is not a list or tuple.
        """
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if states is None:
            self.forward_layer.reset_states()
            self.backward_layer.reset_states()
            return
        if not isinstance(states, (list, tuple)):
            raise ValueError("Unrecognized value for `states`. Expected `states` to be list or tuple. Received: "
                             + str(states))
        half = len(states) // 2
        self.forward_layer.reset_states(states[:half])
        self.backward_layer.reset_states(states[half:])

    def compute_mask(self, inputs, mask):
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask = [mask, mask] if not self.merge_mode else mask
        else:
            output_mask = [None, None] if not self.merge_mode else None
        if self.return_state:
            state_mask = [None for _ in self.forward_layer.states]
            if isinstance(output_mask, list):
                return output_mask + state_mask * 2
            return [output_mask] + state_mask * 2
        return output_mask

    def get_config(self):
        config = {"merge_mode": self.merge_mode}
        if hasattr(self, "_backward_layer_config"):
            config["backward_layer"] = self._backward_layer_config
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Re-creates the layer (and its backward layer, if custom) from `get_config()`."""
        config = copy.deepcopy(config)
        config["layer"] = _deserialize_layer(config["layer"], custom_objects=custom_objects)
        backward = config.pop("backward_layer", None)
        if backward is not None:
            config["backward_layer"] = _deserialize_layer(backward, custom_objects=custom_objects)
        return cls(**config)
