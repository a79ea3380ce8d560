"""`save_model` / `load_model`, and the work behind `Model.save`, `save_weights`, `load_weights`, `to_json`."""

import json
import os

from ...framework import errors
from . import hdf5_format, tf_format

__all__ = ["load_model", "load_weights", "model_to_json", "save_model", "save_weights"]


def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None):
    """Saves a model (architecture, weights, compile arguments, optimizer state) to an HDF5 file.

    As in TF 1.x, the default format is HDF5 whatever the file's extension.

    Args:
      model: A functional or Sequential model.
      filepath: The file's path, or an open `h5py.File`.
      overwrite: Whether to replace an existing file without asking.
      include_optimizer: Whether to save the training config and the optimizer's state.
      save_format: None or 'h5'.

    Raises:
      ImportError: Without h5py (the `keras` extra).
      NotImplementedError: For save_format='tf' (SavedModel export of Keras models is not
        supported) or a subclassed model.
      ValueError: For an unknown `save_format`.
    """
    if save_format in ("tf", "tensorflow"):
        raise NotImplementedError("Saving a Keras model in the SavedModel format (save_format='tf') is not "
                                  "supported; use save_format='h5'.")
    if save_format not in (None, "h5", "hdf5", "keras"):
        raise ValueError('Unknown format "%s". Was expecting one of {"tf", "h5"}.' % (save_format,))
    hdf5_format.save_model_to_hdf5(model, filepath, overwrite, include_optimizer)


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002
    """Loads a model saved by `save_model` / `Model.save` (or by tf.keras) from an HDF5 file.

    Args:
      filepath: The file's path, or an open `h5py.File`.
      custom_objects: Optional dict of names to custom classes or functions.
      compile: Whether to compile the model and restore the optimizer's state.
      safe_mode: If True, refuse `Lambda` layers holding Python bytecode (running it would run code
        from the file).

    Returns:
      The model.

    Raises:
      ImportError: Without h5py (the `keras` extra).
      IOError: If `filepath` is not an HDF5 file (SavedModel directories are not supported).
      ValueError: For a file without a model config, or an unknown class.
    """
    h5py = hdf5_format.h5py_module()
    if isinstance(filepath, h5py.File) or (os.path.isfile(os.fspath(filepath)) and
                                           h5py.is_hdf5(os.fspath(filepath))):
        return hdf5_format.load_model_from_hdf5(filepath, custom_objects, compile, safe_mode)
    raise IOError("Unable to load model. Filepath is not an hdf5 file (or h5py is not available) or SavedModel. "
                  "Filepath: " + str(filepath))


def _format_for_weights(filepath, save_format):
    filepath_is_h5 = hdf5_format.is_hdf5_filepath(filepath)
    if save_format is None:
        return "h5" if filepath_is_h5 else "tf"
    user_format = str(save_format).lower().strip()
    if user_format in ("tensorflow", "tf"):
        if filepath_is_h5:
            raise ValueError('save_weights got save_format="tf"/"tensorflow", but the filepath ("%s") looks like '
                             'an HDF5 file. Omit the ".h5"/".keras" when saving in TensorFlow format.' % filepath)
        return "tf"
    if user_format in ("hdf5", "h5", "keras"):
        return "h5"
    raise ValueError('Unknown format "%s". Was expecting one of {"tf", "h5"}.' % (save_format,))


def save_weights(model, filepath, overwrite=True, save_format=None):
    """Writes the model's weights: HDF5 for `.h5`/`.keras`/`.hdf5` paths or save_format='h5', else a TF
    checkpoint with tf.keras' object-based keys (see `tf_format`).

    Raises:
      ImportError: Without h5py for HDF5 (the `keras` extra).
      ValueError: For save_format='tf' with an HDF5 path, or an unknown format.
    """
    filepath = os.fspath(filepath)
    save_format = _format_for_weights(filepath, save_format)
    if save_format == "h5":
        hdf5_format.atomic_hdf5_write(filepath, overwrite,
                                      lambda f: hdf5_format.save_weights_to_hdf5_group(f, model.layers))
        return
    if not overwrite and os.path.isfile(filepath + ".index") and \
            not hdf5_format._ask_to_proceed_with_overwrite(filepath):
        return
    tf_format.save_weights_to_checkpoint(model, filepath)


def load_weights(model, filepath, by_name=False, skip_mismatch=False):
    """Loads weights written by `save_weights` or `save` (HDF5) or a TF checkpoint.

    Returns:
      For a TF checkpoint, a `CheckpointLoadStatus`; None for HDF5.

    Raises:
      ImportError: Without h5py for HDF5 (the `keras` extra).
      NotImplementedError: For by_name=True with a TF checkpoint.
      ValueError: If the file's layers or weights do not fit the model.
    """
    filepath = os.fspath(filepath)
    if hdf5_format.is_hdf5_filepath(filepath):
        save_format = "h5"
    else:
        from ...train.checkpoint_utils import CheckpointReader
        try:
            reader = CheckpointReader(filepath)
            save_format = "tf"
        except errors.DataLossError:
            save_format = "h5"
        except errors.NotFoundError:
            if not os.path.isfile(filepath):
                raise
            save_format = "h5"
    if save_format == "tf":
        if by_name:
            raise NotImplementedError("Weights may only be loaded based on topology into Models when loading "
                                      "TensorFlow-formatted weights (got by_name=True to load_weights).")
        return tf_format.load_weights_from_checkpoint(model, filepath, reader)
    h5py = hdf5_format.h5py_module()
    if not model._is_graph_network and not model.built:
        raise NotImplementedError("Unable to load weights saved in HDF5 format into a subclassed Model which has "
                                  "not created its variables yet. Call the Model first, then load the weights.")
    with h5py.File(filepath, "r") as f:
        if "layer_names" not in f.attrs and "model_weights" in f:
            f = f["model_weights"]
        if by_name:
            hdf5_format.load_weights_from_hdf5_group_by_name(f, model.layers, skip_mismatch=skip_mismatch)
        else:
            hdf5_format.load_weights_from_hdf5_group(f, model.layers, model)
    return None


def model_to_json(model, **kwargs):
    """The JSON string of `{'class_name', 'config', 'keras_version', 'backend'}` (Keras' `to_json`).

    Raises:
      NotImplementedError: For subclassed models.
    """
    if not model._is_graph_network:
        raise NotImplementedError
    config = {"class_name": model.__class__.__name__, "config": model.get_config(),
              "keras_version": hdf5_format.KERAS_VERSION, "backend": hdf5_format.BACKEND}
    return json.dumps(config, default=hdf5_format.get_json_type, **kwargs)
