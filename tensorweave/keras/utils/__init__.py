"""Keras 2 utilities (`tf.keras.utils`)."""

from tensorweave.keras.utils.data_utils import get_file
from tensorweave.keras.utils.data_utils import Sequence
from tensorweave.keras.utils.data_utils import validate_file
from tensorweave.keras.utils.generic_utils import custom_object_scope
from tensorweave.keras.utils.generic_utils import CustomObjectScope
from tensorweave.keras.utils.generic_utils import deserialize_keras_object
from tensorweave.keras.utils.generic_utils import get_custom_objects
from tensorweave.keras.utils.generic_utils import Progbar
from tensorweave.keras.utils.generic_utils import serialize_keras_object
from tensorweave.keras.utils.np_utils import normalize
from tensorweave.keras.utils.np_utils import to_categorical
from tensorweave.keras.utils.vis_utils import model_to_dot
from tensorweave.keras.utils.vis_utils import plot_model

__all__ = [
    "CustomObjectScope",
    "Progbar",
    "Sequence",
    "custom_object_scope",
    "deserialize_keras_object",
    "get_custom_objects",
    "get_file",
    "model_to_dot",
    "normalize",
    "plot_model",
    "serialize_keras_object",
    "to_categorical",
    "validate_file",
]
