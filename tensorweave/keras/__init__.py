"""`tf.keras` as in TensorFlow 1.13-1.15 (Keras 2 API), in graph mode over tensorweave sessions.

So far: the backend, the engine (Layer, Input, functional/subclassed Model, Sequential; compile, fit
on NumPy arrays, evaluate, predict, *_on_batch), the core, convolution, pooling, normalization and
embedding layers (channels_last), activations, initializers, regularizers, constraints, losses,
metrics, optimizers, the callbacks (ModelCheckpoint for weights in the TF checkpoint format), utils and
the datasets whose cache files are not pickles. Not yet: recurrent, merge and advanced-activation
layers, masking, HDF5 model files.
"""

from . import backend
from . import callbacks
from . import engine
from . import layers
from . import models
from .engine.input_layer import Input
from .engine.sequential import Sequential
from .engine.training import Model
from . import activations, constraints, initializers, losses, metrics, optimizers, regularizers  # noqa: E402
from . import datasets, utils  # noqa: E402

__all__ = ["Input", "Model", "Sequential", "activations", "backend", "callbacks", "constraints", "datasets",
           "engine", "initializers", "layers", "losses", "metrics", "models", "optimizers", "regularizers",
           "utils"]
