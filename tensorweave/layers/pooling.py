"""`tf.layers` pooling layers: max and average pooling over 1 or 2 spatial dimensions.

Pooling layers have no variables; like every layer they still take a unique variable/name scope
("max_pooling2d", "average_pooling2d_1", ...). 1D pooling is 2D pooling over a width of 1.
"""

from ..framework.tensor_shape import TensorShape
from .base import InputSpec, Layer
from .utils import conv_output_length, convert_data_format, normalize_data_format, normalize_padding, normalize_tuple


class _Pooling(Layer):
    """Pooling layer over `rank` spatial dimensions with `pool_function` ("max" or "avg").

    Args:
      pool_size: An integer or tuple of `rank` integers, the size of the pooling window.
      strides: An integer or tuple of `rank` integers, the strides of the pooling operation.
      padding: "valid" or "same" (case-insensitive).
      data_format: "channels_last" (default) or "channels_first".
      name: The layer's name.

    Raises:
      ValueError: For `strides=None` or an invalid `pool_size`, `strides`, `padding` or
        `data_format`.
    """

    _rank = 2
    _mode = "max"

    def __init__(self, pool_size, strides, padding="valid", data_format="channels_last", name=None, **kwargs):
        if strides is None:
            raise ValueError("Argument `strides` must not be None.")
        super().__init__(name=name, **kwargs)
        self.pool_size = normalize_tuple(pool_size, self._rank, "pool_size")
        self.strides = normalize_tuple(strides, self._rank, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self._rank + 2)

    def _pool(self, inputs, window, strides, data_format):
        from ..ops import nn_conv_ops
        pool = nn_conv_ops.max_pool if self._mode == "max" else nn_conv_ops.avg_pool
        return pool(inputs, ksize=list(window), strides=list(strides), padding=self.padding.upper(),
                    data_format=data_format)

    def call(self, inputs):
        from ..ops import array_ops
        first = self.data_format == "channels_first"
        if self._rank == 1:
            # A width-1 axis after the length axis turns this into 2D pooling.
            pad_axis = 3 if first else 2
            inputs = array_ops.expand_dims(inputs, pad_axis)
            pool_size, strides = self.pool_size + (1,), self.strides + (1,)
        else:
            pool_size, strides = self.pool_size, self.strides
        window = (1, 1) + pool_size if first else (1,) + pool_size + (1,)
        step = (1, 1) + strides if first else (1,) + strides + (1,)
        outputs = self._pool(inputs, window, step, convert_data_format(self.data_format, 4))
        if self._rank == 1:
            outputs = array_ops.squeeze(outputs, [pad_axis])
        return outputs

    def compute_output_shape(self, input_shape):
        dims = TensorShape(input_shape).with_rank(self._rank + 2).as_list()
        first = self.data_format == "channels_first"
        spatial = dims[2:] if first else dims[1:-1]
        new = [conv_output_length(d, self.pool_size[i], self.padding, self.strides[i]) for i, d in enumerate(spatial)]
        if first:
            return TensorShape(dims[:2] + new)
        return TensorShape([dims[0]] + new + [dims[-1]])


class MaxPooling1D(_Pooling):
    """Max Pooling layer for 1D inputs `[batch, length, channels]`; see `max_pooling1d`. An input of
    unknown rank is pooled as if it had rank 3 (its op checks the rank when it runs), as TF's Keras."""

    _rank = 1
    _mode = "max"
    _unknown_rank_ok = True


class AveragePooling1D(_Pooling):
    """Average Pooling layer for 1D inputs `[batch, length, channels]`; see `average_pooling1d`."""

    _rank = 1
    _mode = "avg"


class MaxPooling2D(_Pooling):
    """Max pooling layer for 2D inputs (e.g. images); see `max_pooling2d`. An input of unknown rank
    is pooled as if it had rank 4 (MaxPool checks the rank when it runs), as TF's Keras."""

    _rank = 2
    _mode = "max"
    _unknown_rank_ok = True


class AveragePooling2D(_Pooling):
    """Average pooling layer for 2D inputs (e.g. images); see `average_pooling2d`."""

    _rank = 2
    _mode = "avg"


def max_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Max Pooling layer for 1D inputs.

    Args:
      inputs: The tensor over which to pool. Must have rank 3.
      pool_size: An integer or tuple/list of a single integer, the size of the pooling window.
      strides: An integer or tuple/list of a single integer, the strides of the pooling operation.
      padding: "valid" or "same" (case-insensitive).
      data_format: "channels_last" (default) or "channels_first".
      name: A string, the name of the layer.

    Returns:
      The output tensor, of rank 3.

    Raises:
      ValueError: On invalid arguments or inputs that are not rank 3.
    """
    layer = MaxPooling1D(pool_size=pool_size, strides=strides, padding=padding, data_format=data_format, name=name)
    return layer.apply(inputs)


def average_pooling1d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Average Pooling layer for 1D inputs.

    Args:
      inputs: The tensor over which to pool. Must have rank 3.
      pool_size: An integer or tuple/list of a single integer, the size of the pooling window.
      strides: An integer or tuple/list of a single integer, the strides of the pooling operation.
      padding: "valid" or "same" (case-insensitive).
      data_format: "channels_last" (default) or "channels_first".
      name: A string, the name of the layer.

    Returns:
      The output tensor, of rank 3.

    Raises:
      ValueError: On invalid arguments or inputs that are not rank 3.
    """
    layer = AveragePooling1D(pool_size=pool_size, strides=strides, padding=padding, data_format=data_format,
                             name=name)
    return layer.apply(inputs)


def max_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Max pooling layer for 2D inputs (e.g. images).

    Args:
      inputs: The tensor over which to pool. Must have rank 4.
      pool_size: An integer or tuple/list of 2 integers: (pool_height, pool_width).
      strides: An integer or tuple/list of 2 integers, the strides of the pooling operation.
      padding: "valid" or "same" (case-insensitive).
      data_format: "channels_last" (default, `[batch, height, width, channels]`) or
        "channels_first".
      name: A string, the name of the layer.

    Returns:
      Output tensor.

    Raises:
      ValueError: On invalid arguments or inputs that are not rank 4.
    """
    layer = MaxPooling2D(pool_size=pool_size, strides=strides, padding=padding, data_format=data_format, name=name)
    return layer.apply(inputs)


def average_pooling2d(inputs, pool_size, strides, padding="valid", data_format="channels_last", name=None):
    """Average pooling layer for 2D inputs (e.g. images); "same" padding averages over the
    in-bounds elements of each window only.

    Args:
      inputs: The tensor over which to pool. Must have rank 4.
      pool_size: An integer or tuple/list of 2 integers: (pool_height, pool_width).
      strides: An integer or tuple/list of 2 integers, the strides of the pooling operation.
      padding: "valid" or "same" (case-insensitive).
      data_format: "channels_last" (default) or "channels_first".
      name: A string, the name of the layer.

    Returns:
      Output tensor.

    Raises:
      ValueError: On invalid arguments or inputs that are not rank 4.
    """
    layer = AveragePooling2D(pool_size=pool_size, strides=strides, padding=padding, data_format=data_format,
                             name=name)
    return layer.apply(inputs)
