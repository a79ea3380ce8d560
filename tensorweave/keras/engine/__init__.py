"""The Keras engine: layers, networks and training."""

from .base_layer import InputSpec, Layer
from .input_layer import Input, InputLayer
from .network import Network
from .training import Model
from .sequential import Sequential

__all__ = ["InputSpec", "Layer", "Input", "InputLayer", "Network", "Model", "Sequential"]
