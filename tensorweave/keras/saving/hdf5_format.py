"""Keras 2 HDF5 model and weights files, laid out exactly as tf.keras (TF 1.15 / tf-keras 2.x) writes them.

A model file holds, at its root, the attributes `keras_version`, `backend`, `model_config` (the JSON of
`{'class_name', 'config'}`) and, for a compiled model, `training_config` (JSON: `optimizer_config`, `loss`,
`metrics`, `weighted_metrics`, `loss_weights`, `sample_weight_mode`); the group `model_weights`; and
the group `optimizer_weights` with the optimizer's state. A weights group (`model_weights`, or the root of
a `save_weights` file) has the attribute `layer_names` (every layer of the model, in order) and one group
per layer whose attribute `weight_names` lists its weights (`dense/kernel:0`, ...), trainable first, each
stored as a dataset under its name. An attribute too large for an HDF5 object header is split into
`<name>0`, `<name>1`, ... as Keras does.

Loading never runs code from the file: layers are built from their configs by class name (custom classes
only through `custom_objects`), and a `Lambda` layer holding marshalled Python bytecode is refused unless
`safe_mode=False`. Files are written to a temporary file next to the target and renamed over it, so a
failed save leaves any previous file intact. h5py is the `keras` extra.
"""

import json
import os
import uuid

import numpy as np

from ... import tf_logging as logging
from .. import backend as K

__all__ = ["load_model_from_hdf5", "load_weights_from_hdf5_group", "load_weights_from_hdf5_group_by_name",
           "save_model_to_hdf5", "save_optimizer_weights_to_hdf5_group", "save_weights_to_hdf5_group"]

# The Keras version tf.keras reports in TF 1.15 (`tf.keras.__version__`), written in the files.
KERAS_VERSION = "2.2.4-tf"
HDF5_OBJECT_HEADER_LIMIT = 64512
BACKEND = "tensorflow"
HDF5_EXTENSIONS = (".h5", ".keras", ".hdf5")


def h5py_module():
    """Returns the `h5py` module.

    Raises:
      ImportError: Naming the `keras` extra, when h5py is not installed.
    """
    try:
        import h5py
    except ImportError:
        raise ImportError("Keras HDF5 files (.h5) need h5py: pip install 'tensorweave[keras]'") from None
    return h5py


def is_hdf5_filepath(filepath):
    """Whether `filepath` ends in `.h5`, `.keras` or `.hdf5` (Keras' test for the HDF5 format)."""
    return str(os.fspath(filepath)).endswith(HDF5_EXTENSIONS)


def get_json_type(obj):
    """`json.dumps` default for Keras configs: configs of objects, names of functions, NumPy values.

    Raises:
      TypeError: For an object with none of these.
    """
    if hasattr(obj, "get_config"):
        return {"class_name": obj.__class__.__name__, "config": obj.get_config()}
    if type(obj).__module__ == np.__name__:
        return obj.tolist() if isinstance(obj, np.ndarray) else obj.item()
    if callable(obj) and hasattr(obj, "__name__"):
        return obj.__name__
    if hasattr(obj, "as_list"):
        return obj.as_list()
    if hasattr(obj, "as_numpy_dtype"):
        return obj.name
    raise TypeError("Not JSON Serializable:", obj)


def _ask_to_proceed_with_overwrite(filepath):
    overwrite = input("[WARNING] %s already exists - overwrite? [y/n]" % filepath).strip().lower()
    while overwrite not in ("y", "n"):
        overwrite = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
    if overwrite == "n":
        return False
    print("[TIP] Next time specify overwrite=True!")
    return True


def atomic_hdf5_write(filepath, overwrite, write_fn):
    """Runs `write_fn(h5py.File)` on a temporary file next to `filepath`, then renames it over `filepath`.

    Args:
      filepath: The target path.
      overwrite: If False and the file exists, ask on the terminal first (as Keras).
      write_fn: Fills the open file.

    Returns:
      False if the user declined to overwrite, else True.

    Raises:
      ImportError: Without h5py.
    """
    h5py = h5py_module()
    filepath = os.fspath(filepath)
    if not overwrite and os.path.isfile(filepath) and not _ask_to_proceed_with_overwrite(filepath):
        return False
    dirpath = os.path.dirname(filepath)
    if dirpath and not os.path.exists(dirpath):
        os.makedirs(dirpath)
    tmp = os.path.join(dirpath, ".%s.tmp%s" % (os.path.basename(filepath), uuid.uuid4().hex))
    try:
        with h5py.File(tmp, mode="w") as f:
            write_fn(f)
            f.flush()
        with open(tmp, "rb+") as raw:
            os.fsync(raw.fileno())
        os.replace(tmp, filepath)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    return True


def _training_config(model):
    from ..engine.training import TFOptimizer
    if not getattr(model, "_compiled", False) or model.optimizer is None:
        return None
    if isinstance(model.optimizer, TFOptimizer):
        logging.warning("TensorFlow optimizers do not make it possible to access optimizer attributes or "
                        "optimizer state after instantiation. As a result, we cannot save the optimizer as part "
                        "of the model save file. You will have to compile your model again after loading it. "
                        "Prefer using a Keras optimizer instead (see keras.io/optimizers).")
        return None
    return {"loss": model.loss, "metrics": model._compile_metrics,
            "weighted_metrics": model._compile_weighted_metrics, "sample_weight_mode": model.sample_weight_mode,
            "loss_weights": model.loss_weights,
            "optimizer_config": {"class_name": model.optimizer.__class__.__name__,
                                 "config": model.optimizer.get_config()}}


def model_metadata(model, include_optimizer=True):
    """The root attributes of a model file: `keras_version`, `backend`, `model_config`, `training_config`.

    Raises:
      NotImplementedError: For a subclassed model (its config cannot be written).
    """
    if not model._is_graph_network:
        raise NotImplementedError("Saving the model to HDF5 format requires the model to be a Functional model or "
                                  "a Sequential model. It does not work for subclassed models, because such models "
                                  "are defined via the body of a Python method, which isn't safely serializable. "
                                  "Consider using `save_weights`, in order to save the weights of the model.")
    metadata = {"keras_version": KERAS_VERSION, "backend": BACKEND,
                "model_config": {"class_name": model.__class__.__name__, "config": model.get_config()}}
    if include_optimizer:
        training_config = _training_config(model)
        if training_config is not None:
            metadata["training_config"] = training_config
    return metadata


def save_model_to_hdf5(model, filepath, overwrite=True, include_optimizer=True):
    """Saves a model (config, weights, compile arguments and optimizer state) to an HDF5 file.

    Args:
      model: A functional or Sequential model.
      filepath: The path of the file, or an open `h5py.File`.
      overwrite: Whether to replace an existing file without asking.
      include_optimizer: Whether to save the training config and the optimizer's state.

    Raises:
      ImportError: Without h5py (the `keras` extra).
      NotImplementedError: For a subclassed model.
    """
    h5py = h5py_module()
    metadata = model_metadata(model, include_optimizer)
    encoded = {}
    for key, value in metadata.items():
        if isinstance(value, (dict, list, tuple)):
            encoded[key] = json.dumps(value, default=get_json_type).encode("utf8")
        else:
            encoded[key] = value

    def write(f):
        for key, value in encoded.items():
            f.attrs[key] = value
        save_weights_to_hdf5_group(f.create_group("model_weights"), model.layers)
        if "training_config" in metadata:
            save_optimizer_weights_to_hdf5_group(f, model.optimizer)

    if isinstance(filepath, h5py.File):
        write(filepath)
        filepath.flush()
        return
    atomic_hdf5_write(filepath, overwrite, write)


def _keras_optimizer_weights(optimizer):
    """The optimizer's variables in Keras' order: `iterations`, then each kind of slot for all variables
    (Adam: every `m`, then every `v`), as Keras' optimizers create them."""
    # Keras writes no state for an optimizer that has not made its variables yet (no training step).
    weights = list(optimizer._weights) if hasattr(optimizer, "_weights") else list(optimizer.weights)
    slots = getattr(optimizer, "_slots", None)
    if not slots:
        return weights
    slot_ids = {id(s) for s in slots.values()}
    ordered = [w for w in weights if id(w) not in slot_ids]
    by_kind = {}
    for (_, slot_name), slot in slots.items():
        by_kind.setdefault(slot_name, []).append(slot)
    for kind in by_kind.values():
        ordered += kind
    return ordered if len(ordered) == len(weights) else weights


def save_optimizer_weights_to_hdf5_group(hdf5_group, optimizer):
    """Writes the optimizer's variables into the group `optimizer_weights` of `hdf5_group`."""
    symbolic_weights = _keras_optimizer_weights(optimizer)
    if not symbolic_weights:
        return
    weights_group = hdf5_group.create_group("optimizer_weights")
    weight_names = [str(w.name).encode("utf8") for w in symbolic_weights]
    save_attributes_to_hdf5_group(weights_group, "weight_names", weight_names)
    for name, val in zip(weight_names, K.batch_get_value(symbolic_weights)):
        val = np.asarray(val)
        dset = weights_group.create_dataset(name, val.shape, dtype=val.dtype)
        if not val.shape:
            dset[()] = val
        else:
            dset[:] = val


def load_optimizer_weights_from_hdf5_group(hdf5_group):
    """Returns the arrays of the group `optimizer_weights`, in the file's order."""
    weights_group = hdf5_group["optimizer_weights"]
    names = load_attributes_from_hdf5_group(weights_group, "weight_names")
    return [np.asarray(weights_group[name]) for name in names]


def set_optimizer_weights(optimizer, values):
    """Sets the optimizer's state from arrays in Keras' order (see `save_optimizer_weights_to_hdf5_group`).

    Raises:
      ValueError: If the count or a shape does not match.
    """
    symbolic = _keras_optimizer_weights(optimizer)
    if len(symbolic) != len(values):
        raise ValueError("Length of the specified weight list (" + str(len(values)) + ") does not match the "
                         "number of weights of the optimizer (" + str(len(symbolic)) + ")")
    for w, v in zip(symbolic, values):
        if K.int_shape(w) != np.shape(v):
            raise ValueError("Optimizer weight shape " + str(K.int_shape(w)) + " not compatible with provided "
                             "weight shape " + str(np.shape(v)))
    K.batch_set_value(list(zip(symbolic, values)))


def _legacy_weights(layer):
    return layer.trainable_weights + layer.non_trainable_weights


def save_weights_to_hdf5_group(f, layers):
    """Writes the weights of `layers` into the HDF5 group `f` (Keras' `model_weights` layout).

    Args:
      f: An h5py group.
      layers: The model's layers, in order.
    """
    save_attributes_to_hdf5_group(f, "layer_names", [layer.name.encode("utf8") for layer in layers])
    f.attrs["backend"] = BACKEND.encode("utf8")
    f.attrs["keras_version"] = str(KERAS_VERSION).encode("utf8")
    for layer in sorted(layers, key=lambda x: x.name):
        g = f.create_group(layer.name)
        weights = _legacy_weights(layer)
        weight_values = K.batch_get_value(weights)
        weight_names = [w.name.encode("utf8") for w in weights]
        save_attributes_to_hdf5_group(g, "weight_names", weight_names)
        for name, val in zip(weight_names, weight_values):
            val = np.asarray(val)
            dset = g.create_dataset(name, val.shape, dtype=val.dtype)
            if not val.shape:
                dset[()] = val
            else:
                dset[:] = val


def _file_versions(f):
    version = f.attrs.get("keras_version", "1")
    backend = f.attrs.get("backend")
    return (version.decode("utf8") if hasattr(version, "decode") else version,
            backend.decode("utf8") if hasattr(backend, "decode") else backend)


def _check_keras2(f):
    version, _ = _file_versions(f)
    if str(version).startswith("1"):
        raise NotImplementedError("Weights saved by Keras 1 (keras_version %r) need converting, which is not "
                                  "supported; re-save them with Keras 2." % (version,))


def _top_level(model):
    if model is None:
        return []
    return list(model.__dict__.get("_trainable_weights", [])) + \
        list(model.__dict__.get("_non_trainable_weights", []))


def load_weights_from_hdf5_group(f, layers, model=None):
    """Loads weights topologically: the i-th saved layer with weights into the i-th layer with weights.

    Args:
      f: An h5py group in Keras' `model_weights` layout.
      layers: The target layers, in order.
      model: Optional model whose own (top-level) weights the group's `top_level_model_weights` holds.

    Raises:
      ValueError: If the number of layers with weights, or of weights in a layer, differs.
      NotImplementedError: For Keras 1 files.
    """
    _check_keras2(f)
    filtered_layers = [layer for layer in layers if _legacy_weights(layer)]
    layer_names = [name for name in load_attributes_from_hdf5_group(f, "layer_names")
                   if load_attributes_from_hdf5_group(f[name], "weight_names")]
    if len(layer_names) != len(filtered_layers):
        raise ValueError("You are trying to load a weight file containing " + str(len(layer_names)) +
                         " layers into a model with " + str(len(filtered_layers)) + " layers.")
    weight_value_tuples = []
    for k, name in enumerate(layer_names):
        g = f[name]
        weight_values = [np.asarray(g[n]) for n in load_attributes_from_hdf5_group(g, "weight_names")]
        layer = filtered_layers[k]
        symbolic_weights = _legacy_weights(layer)
        if len(weight_values) != len(symbolic_weights):
            raise ValueError("Layer #" + str(k) + " (named \"" + layer.name + "\" in the current model) was found "
                             "to correspond to layer " + name + " in the save file. However the new layer " +
                             layer.name + " expects " + str(len(symbolic_weights)) + " weights, but the saved "
                             "weights have " + str(len(weight_values)) + " elements.")
        for w, v in zip(symbolic_weights, weight_values):
            if K.int_shape(w) != v.shape:
                raise ValueError("Layer weight shape " + str(K.int_shape(w)) + " not compatible with provided "
                                 "weight shape " + str(v.shape))
        weight_value_tuples += zip(symbolic_weights, weight_values)
    if "top_level_model_weights" in f:
        symbolic_weights = _top_level(model)
        g = f["top_level_model_weights"]
        weight_values = [np.asarray(g[n]) for n in load_attributes_from_hdf5_group(g, "weight_names")]
        if len(weight_values) != len(symbolic_weights):
            raise ValueError("Weight count mismatch for top-level weights when loading weights from file. Model "
                             "expects " + str(len(symbolic_weights)) + " top-level weight(s). Received " +
                             str(len(weight_values)) + " saved top-level weight(s)")
        weight_value_tuples += zip(symbolic_weights, weight_values)
    K.batch_set_value(weight_value_tuples)


def load_weights_from_hdf5_group_by_name(f, layers, skip_mismatch=False):
    """Loads weights into the layers of the same name; saved layers without a namesake are ignored.

    Args:
      f: An h5py group in Keras' `model_weights` layout.
      layers: The target layers.
      skip_mismatch: Skip (with a warning) a layer whose weight count or a weight's shape differs,
        instead of raising.

    Raises:
      ValueError: For a weight count or shape mismatch, unless `skip_mismatch`.
      NotImplementedError: For Keras 1 files.
    """
    _check_keras2(f)
    index = {}
    for layer in layers:
        if layer.name:
            index.setdefault(layer.name, []).append(layer)
    weight_value_tuples = []
    for k, name in enumerate(load_attributes_from_hdf5_group(f, "layer_names")):
        g = f[name]
        weight_values = [np.asarray(g[n]) for n in load_attributes_from_hdf5_group(g, "weight_names")]
        for layer in index.get(name, []):
            symbolic_weights = _legacy_weights(layer)
            if len(weight_values) != len(symbolic_weights):
                if skip_mismatch:
                    logging.warning("Skipping loading of weights for layer {}".format(layer.name) +
                                    " due to mismatch in number of weights ({} vs {}).".format(
                                        len(symbolic_weights), len(weight_values)))
                    continue
                raise ValueError("Layer #" + str(k) + " (named \"" + layer.name + "\") expects " +
                                 str(len(symbolic_weights)) + " weight(s), but the saved weights have " +
                                 str(len(weight_values)) + " element(s).")
            for i, value in enumerate(weight_values):
                if K.int_shape(symbolic_weights[i]) != value.shape:
                    if skip_mismatch:
                        logging.warning("Skipping loading of weights for layer {}".format(layer.name) +
                                        " due to mismatch in shape ({} vs {}).".format(
                                            K.int_shape(symbolic_weights[i]), value.shape))
                        continue
                    raise ValueError("Layer #" + str(k) + " (named \"" + layer.name + "\"), weight " +
                                     str(symbolic_weights[i].name) + " has shape {}".format(
                                         K.int_shape(symbolic_weights[i])) + ", but the saved weight has shape " +
                                     str(value.shape) + ".")
                weight_value_tuples.append((symbolic_weights[i], value))
    K.batch_set_value(weight_value_tuples)


def save_attributes_to_hdf5_group(group, name, data):
    """Stores the list `data` as the attribute `name` of `group`, split into `<name>0`, `<name>1`, ...
    when it exceeds the HDF5 object header limit.

    Raises:
      RuntimeError: If one item alone exceeds the limit.
    """
    bad_attributes = [x for x in data if len(x) > HDF5_OBJECT_HEADER_LIMIT]
    if bad_attributes:
        raise RuntimeError("The following attributes cannot be saved to HDF5 file because they are larger than "
                           "%d bytes: %s" % (HDF5_OBJECT_HEADER_LIMIT, ", ".join(str(x) for x in bad_attributes)))
    data_npy = np.asarray(data)
    num_chunks = 1
    chunked_data = np.array_split(data_npy, num_chunks)
    while any(x.nbytes > HDF5_OBJECT_HEADER_LIMIT for x in chunked_data):
        num_chunks += 1
        chunked_data = np.array_split(data_npy, num_chunks)
    if num_chunks > 1:
        for chunk_id, chunk_data in enumerate(chunked_data):
            group.attrs["%s%d" % (name, chunk_id)] = chunk_data
    else:
        group.attrs[name] = data


def load_attributes_from_hdf5_group(group, name):
    """Reads the list attribute `name` of `group` (joining the chunks `<name>0`, `<name>1`, ...)."""
    if name in group.attrs:
        return [n.decode("utf8") if hasattr(n, "decode") else n for n in group.attrs[name]]
    data = []
    chunk_id = 0
    while "%s%d" % (name, chunk_id) in group.attrs:
        data.extend(n.decode("utf8") if hasattr(n, "decode") else n for n in group.attrs["%s%d" % (name, chunk_id)])
        chunk_id += 1
    return data


def _decode_attr(value):
    return value.decode("utf-8") if hasattr(value, "decode") else value


def compile_args_from_training_config(training_config, custom_objects=None):
    """The `compile` arguments stored in a file's `training_config`.

    Raises:
      ValueError: For an unknown optimizer, loss or metric.
    """
    from .. import losses, optimizers
    from ..utils.generic_utils import get_custom_objects
    objects = dict(get_custom_objects())
    objects.update(custom_objects or {})

    def resolve(obj):
        if isinstance(obj, list):
            return [resolve(x) for x in obj]
        if isinstance(obj, dict) and "class_name" not in obj:
            return {k: resolve(v) for k, v in obj.items()}
        if isinstance(obj, str):
            return objects.get(obj, obj)
        return obj

    optimizer = optimizers.deserialize(training_config["optimizer_config"], custom_objects=objects)
    loss = training_config["loss"]
    if isinstance(loss, dict) and "class_name" in loss:
        loss = losses.deserialize(loss, custom_objects=objects)
    return {"optimizer": optimizer, "loss": resolve(loss), "metrics": resolve(training_config.get("metrics")),
            "weighted_metrics": resolve(training_config.get("weighted_metrics")),
            "loss_weights": training_config.get("loss_weights"),
            "sample_weight_mode": training_config.get("sample_weight_mode")}


def load_model_from_hdf5(filepath, custom_objects=None, compile=True, safe_mode=True):  # noqa: A002
    """Loads a model saved by `save_model_to_hdf5` (or by tf.keras).

    Args:
      filepath: The path of the file, or an open `h5py.File`.
      custom_objects: Optional dict of names to custom classes or functions (layers, losses,
        metrics, optimizers).
      compile: Whether to compile the model with the saved training config and restore the
        optimizer's state.
      safe_mode: If True, refuse `Lambda` layers whose function is stored as Python bytecode.

    Returns:
      The model; compiled when the file has a training config and `compile` is True.

    Raises:
      ImportError: Without h5py (the `keras` extra).
      ValueError: If the file holds no model config, or for an unknown class.
    """
    from ..utils.generic_utils import CustomObjectScope
    from .model_config import model_from_config
    h5py = h5py_module()
    custom_objects = dict(custom_objects or {})
    opened_new_file = not isinstance(filepath, h5py.File)
    f = h5py.File(os.fspath(filepath), mode="r") if opened_new_file else filepath
    try:
        model_config = f.attrs.get("model_config")
        if model_config is None:
            raise ValueError("No model found in config file.")
        model_config = json.loads(_decode_attr(model_config))
        model = model_from_config(model_config, custom_objects=custom_objects, safe_mode=safe_mode)
        load_weights_from_hdf5_group(f["model_weights"], model.layers, model)
        if not compile:
            return model
        training_config = f.attrs.get("training_config")
        if training_config is None:
            logging.warning("No training configuration found in save file: the model was *not* compiled. "
                            "Compile it manually.")
            return model
        training_config = json.loads(_decode_attr(training_config))
        with CustomObjectScope(custom_objects):
            model.compile(**compile_args_from_training_config(training_config, custom_objects))
            if "optimizer_weights" in f:
                _restore_optimizer(model, load_optimizer_weights_from_hdf5_group(f))
    finally:
        if opened_new_file:
            f.close()
    return model


def _restore_optimizer(model, values):
    try:
        # Building the training function creates the optimizer's slot variables.
        model._make_train_function()
    except (NotImplementedError, AttributeError):
        logging.warning("Error when creating the weights of optimizer %s, making it impossible to restore the "
                        "saved optimizer state. As a result, your model is starting with a freshly initialized "
                        "optimizer.", type(model.optimizer).__name__)
        return
    try:
        if hasattr(model.optimizer, "_slots"):
            set_optimizer_weights(model.optimizer, values)
        else:
            model.optimizer.set_weights(values)
    except (ValueError, AttributeError, NotImplementedError):
        logging.warning("Error in loading the saved optimizer state. As a result, your model is starting with a "
                        "freshly initialized optimizer.")
