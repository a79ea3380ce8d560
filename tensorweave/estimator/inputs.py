"""`tf.estimator.inputs`: input functions that feed NumPy arrays to an `Estimator`.

TF 1.x builds `numpy_input_fn` on a queue filled by threads; here the same batches come from a
`tf.data` pipeline (`from_tensor_slices` -> `repeat` -> `shuffle` -> `batch`) read by a one-shot
iterator, so no queue runner is needed. Batches, dtypes, static shapes, the final partial batch and
the end of input (`OutOfRangeError` after `num_epochs`) are TF's.
"""

import collections

import numpy as np

_TARGET_KEY = "__target_key__"
_DIRECT_KEY = "__direct_np_input__"


def _get_unique_target_key(features):
    target_key = _TARGET_KEY
    while target_key in features:
        target_key += "_n"
    return target_key


def _validate_and_convert_features(x):
    if isinstance(x, dict):
        if not x:
            raise ValueError("x cannot be an empty dict")
        return collections.OrderedDict(sorted((k, np.asarray(v)) for k, v in x.items()))
    if isinstance(x, np.ndarray):
        if x.size == 0:
            raise ValueError("x cannot be an empty array")
        return collections.OrderedDict({_DIRECT_KEY: x})
    raise TypeError("x must be a dict or array; got {}".format(type(x).__name__))


def numpy_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1):
    """Returns an input function that feeds dicts of NumPy arrays into the model, as TF1's
    `tf.estimator.inputs.numpy_input_fn`.

    The input function returns `features` (a dict with the keys of `x`, or a tensor when `x` is an
    array) and, when `y` is given, `targets` (a dict with the keys of `y`, or a tensor). Arrays
    are split along their first dimension into batches of `batch_size`; with `num_epochs=None` the
    data repeats forever and every batch is full (static batch size), otherwise the last batch may
    be smaller and reading past the last epoch raises `OutOfRangeError`.

    Example:

        age = np.arange(4) * 1.0
        height = np.arange(32, 36)
        x = {'age': age, 'height': height}
        y = np.arange(-32, -28)
        with tf.Session() as session:
            input_fn = numpy_input_fn(x, y, batch_size=2, shuffle=False, num_epochs=1)
            features, target = input_fn()

    Args:
      x: A NumPy array, or a dict of NumPy arrays (array-likes are converted), all with the same
        length.
      y: None, a NumPy array, or a dict of NumPy arrays, with the length of `x`.
      batch_size: Integer, size of batches to return.
      num_epochs: Integer, number of epochs to iterate over data. If `None` will run forever.
      shuffle: Boolean, if True shuffles the queue. Avoid shuffle at prediction time.
      queue_capacity: Integer, the size of the shuffle buffer (TF's queue capacity).
      num_threads: Integer, accepted for compatibility (TF's enqueue threads; the pipeline here keeps
        the data's order unless `shuffle`).

    Returns:
      A function `input_fn()` returning `features` or `(features, targets)`.

    Raises:
      ValueError: If `shuffle` is not a bool. When `input_fn` is called: if `x` or `y` is an empty
        dict or array, if keys are in both `x` and `y`, or if the lengths of `x` and `y` differ.
      TypeError: When `input_fn` is called, if `x` is not a dict or array.
    """
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is recommended to set it as "
                         "True for training); got {}".format(shuffle))

    def input_fn():
        """Numpy input function."""
        from ..data.dataset_ops import Dataset
        ordered_dict_data = _validate_and_convert_features(x)
        feature_keys = list(ordered_dict_data.keys())

        if y is None:
            target_keys = None
        elif isinstance(y, dict):
            if not y:
                raise ValueError("y cannot be empty dict, use None instead.")
            ordered_dict_y = collections.OrderedDict(sorted((k, np.asarray(v)) for k, v in y.items()))
            target_keys = list(ordered_dict_y.keys())
            duplicate_keys = set(feature_keys).intersection(set(target_keys))
            if duplicate_keys:
                raise ValueError("{} duplicate keys are found in both x and y: {}".format(len(duplicate_keys),
                                                                                         duplicate_keys))
            ordered_dict_data.update(ordered_dict_y)
        else:
            target_keys = _get_unique_target_key(ordered_dict_data)
            ordered_dict_data[target_keys] = np.asarray(y)

        if any(v.ndim == 0 for v in ordered_dict_data.values()) or \
                len(set(v.shape[0] for v in ordered_dict_data.values())) != 1:
            shape_dict_of_x = {k: ordered_dict_data[k].shape for k in feature_keys}
            if target_keys is None:
                shape_of_y = None
            elif isinstance(target_keys, str):
                shape_of_y = ordered_dict_data[target_keys].shape
            else:
                shape_of_y = {k: ordered_dict_data[k].shape for k in target_keys}
            raise ValueError("Length of tensors in x and y is mismatched. All elements in x and y must have the same "
                             "length.\nShapes in x: {}\nShapes in y: {}\n".format(shape_dict_of_x, shape_of_y))

        dataset = Dataset.from_tensor_slices(dict(ordered_dict_data)).repeat(num_epochs)
        if shuffle:
            dataset = dataset.shuffle(queue_capacity)
        dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)
        batch = dataset.make_one_shot_iterator().get_next()

        if isinstance(x, np.ndarray):
            features = batch[_DIRECT_KEY]
        else:
            features = {k: batch[k] for k in feature_keys}
        if target_keys is None:
            return features
        if isinstance(target_keys, str):
            return features, batch[target_keys]
        return features, {k: batch[k] for k in target_keys}

    return input_fn
