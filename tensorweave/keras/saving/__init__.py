"""Keras model files: HDF5 models and weights as tf.keras writes them, TF-format weights checkpoints, and
models from their configs (`tf.keras.models.load_model`, `save_model`, `model_from_config`, ...)."""

from .hdf5_format import (
    load_model_from_hdf5,
    load_weights_from_hdf5_group,
    load_weights_from_hdf5_group_by_name,
    save_model_to_hdf5,
    save_weights_to_hdf5_group,
)
from .model_config import model_from_config, model_from_json
from .save import load_model, save_model

__all__ = ["load_model", "load_model_from_hdf5", "load_weights_from_hdf5_group",
           "load_weights_from_hdf5_group_by_name", "model_from_config", "model_from_json", "save_model",
           "save_model_to_hdf5", "save_weights_to_hdf5_group"]
