"""`tf.estimator.inputs.pandas_input_fn`: an input function feeding a pandas `DataFrame` (and a
`Series` or `DataFrame` of targets) to an `Estimator`. Needs the `pandas` extra.

As `numpy_input_fn` here, the batches come from a `tf.data` pipeline over the frame's columns (TF
1.x fills a queue from threads); batches, dtypes, the final partial batch and the end of input
after `num_epochs` are TF's.
"""

import numpy as np

__all__ = ["pandas_input_fn"]


def _import_pandas():
    try:
        import pandas
    except ImportError:
        raise ImportError("tf.estimator.inputs.pandas_input_fn needs pandas: pip install 'tensorweave[pandas]'") \
            from None
    return pandas


def _get_unique_target_key(features, target_column_name):
    target_key = target_column_name
    while target_key in features:
        target_key += "_n"
    return target_key


def _column_values(series):
    values = np.asarray(series.values)
    if values.dtype == object:  # strings
        values = np.array([v.encode() if isinstance(v, str) else v for v in values], dtype=object)
    return values


def pandas_input_fn(x, y=None, batch_size=128, num_epochs=1, shuffle=None, queue_capacity=1000, num_threads=1,
                    target_column="target"):
    """Returns input function that would feed Pandas DataFrame into the model.

    Note: `y`'s index must match `x`'s index.

    Args:
      x: pandas `DataFrame` object.
      y: pandas `Series` object or `DataFrame`. `None` if absent.
      batch_size: int, size of batches to return.
      num_epochs: int, number of epochs to iterate over data. If not `None`, read attempts that
        would exceed this value will raise `OutOfRangeError`.
      shuffle: bool, whether to read the records in random order.
      queue_capacity: int, size of the read queue (the shuffle buffer). If `None`, it will be set
        roughly to the size of `x`.
      num_threads: Integer, accepted for compatibility (TF's enqueue threads).
      target_column: str, name to give the target column `y`. This parameter is not used when `y`
        is a `DataFrame`.

    Returns:
      Function, that has signature of ()->(dict of `features`, `target`)

    Raises:
      ImportError: if pandas is not installed (the `pandas` extra).
      ValueError: if `x` already contains a column with the same name as `y`, or if the indexes of
        `x` and `y` don't match, or if `shuffle` is not a bool.
      TypeError: `shuffle` is ok but `target_column` is not a string.
    """
    pd = _import_pandas()
    if not isinstance(shuffle, bool):
        raise ValueError("shuffle must be provided and explicitly set as boolean (it is recommended to set it as "
                         "True for training); got {}".format(shuffle))
    if not isinstance(target_column, str):
        raise TypeError("target_column must be a string type")
    x = x.copy()
    features = {str(c): _column_values(x[c]) for c in x.columns}
    target = None
    if y is not None:
        if target_column in x:
            raise ValueError("Cannot use name %s for target column: DataFrame already has a column with that name: "
                             "%s" % (target_column, x.columns))
        if not np.array_equal(x.index, y.index):
            raise ValueError("Index for x and y are mismatched.\nIndex for x: %s\nIndex for y: %s\n"
                             % (x.index, y.index))
        if isinstance(y, pd.DataFrame):
            target = {}
            for column in list(y):
                target[_get_unique_target_key(features, str(column))] = (str(column), _column_values(y[column]))
        else:
            target = _column_values(y)
    if queue_capacity is None:
        queue_capacity = 4 * len(x) if shuffle else len(x)
    from .inputs import numpy_input_fn
    y_arrays = {k: v for k, (_, v) in target.items()} if isinstance(target, dict) else target
    numpy_fn = numpy_input_fn(features, y_arrays, batch_size=batch_size, num_epochs=num_epochs, shuffle=shuffle,
                              queue_capacity=max(int(queue_capacity), 1), num_threads=num_threads)

    def input_fn():
        """Pandas input function."""
        result = numpy_fn()
        if isinstance(target, dict):
            batch_features, batch_target = result
            return batch_features, {target[k][0]: v for k, v in batch_target.items()}
        return result

    return input_fn
