"""`tf.keras.layers`: the core layers, `Input`, `InputLayer`, `InputSpec` and the `Layer` base."""

from ..engine.base_layer import InputSpec, Layer
from ..engine.input_layer import Input, InputLayer
from .core import Activation, Dense, Dropout, Flatten, Lambda, Permute, RepeatVector, Reshape

__all__ = ["Activation", "Dense", "Dropout", "Flatten", "Input", "InputLayer", "InputSpec", "Lambda", "Layer",
           "Permute", "RepeatVector", "Reshape"]
