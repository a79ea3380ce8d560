"""`tf.keras` as in TensorFlow 1.13-1.15 (Keras 2 API), in graph mode over tensorweave sessions.

Built: the backend; the engine (Layer with masking, Input, functional/subclassed Model, Sequential;
compile, fit, evaluate and predict on NumPy arrays, tf.data datasets, generators and Sequence, the
*_generator and *_on_batch methods); `estimator.model_to_estimator`; core, convolution (1D/2D/3D,
channels_last and channels_first), pooling, normalization, embedding, recurrent (SimpleRNN, GRU, LSTM,
RNN with cells), wrapper (TimeDistributed, Bidirectional), merge, advanced-activation and noise
layers; activations, initializers, regularizers, constraints, losses, metrics, optimizers;
callbacks; model files (HDF5 in tf-keras' layout, TF checkpoints with tf-keras' keys, JSON configs);
`preprocessing` (sequence, text, image), `applications` (VGG, ResNet50, MobileNet(V2), InceptionV3,
DenseNet, Xception), `wrappers.scikit_learn`, utils and the datasets.
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
from . import estimator  # noqa: E402
from . import preprocessing  # noqa: E402
from . import applications  # noqa: E402
from . import wrappers  # noqa: E402

__all__ = ["Input", "Model", "Sequential", "activations", "applications", "backend", "callbacks", "constraints",
           "datasets", "engine", "estimator", "initializers", "layers", "losses", "metrics", "models", "optimizers",
           "preprocessing", "regularizers", "utils", "wrappers"]
