"""`InputLayer` and `Input`: the entry points of functional models."""

from .. import _tf as tf
from .. import backend as K
from .base_layer import Layer


class InputLayer(Layer):
    """A layer holding a placeholder (or a given tensor) as the input of a model.

    Args:
      input_shape: Shape without the batch axis.
      batch_size: Optional fixed batch size.
      dtype: Its dtype (default floatx()).
      input_tensor: Optional existing tensor to use instead of a placeholder.
      sparse: Unsupported; must be False.
      name: Its name (default `input_1`, `input_2`, ...).
      batch_input_shape: Shape with the batch axis (instead of `input_shape`).

    Raises:
      ValueError: If both `input_shape` and `batch_input_shape` are given, or `sparse` is True.
    """

    def __init__(self, input_shape=None, batch_size=None, dtype=None, input_tensor=None, sparse=False, name=None,
                 **kwargs):
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        if kwargs:
            raise ValueError("Unrecognized keyword arguments:", list(kwargs))
        if sparse:
            raise ValueError("Sparse inputs are not supported.")
        if input_shape is not None and batch_input_shape is not None:
            raise ValueError("Only provide the input_shape OR batch_input_shape argument to InputLayer, not both "
                             "at the same time.")
        if name is None:
            name = "input_%d" % K.get_uid("input")
        if input_tensor is not None and dtype is None:
            dtype = input_tensor.dtype.base_dtype.name
        dtype = dtype or K.floatx()
        super().__init__(dtype=dtype, name=name)
        self.built = True
        self.sparse = sparse
        if input_tensor is None:
            if batch_input_shape is None:
                if input_shape is None:
                    raise ValueError("An Input layer should be passed either a `shape` or a `tensor` argument.")
                batch_input_shape = (batch_size,) + tuple(input_shape)
            batch_input_shape = tuple(batch_input_shape)
            with tf.name_scope(""):
                input_tensor = tf.placeholder(dtype, shape=batch_input_shape, name=self.name)
            self.is_placeholder = True
        else:
            self.is_placeholder = False
            batch_input_shape = tuple(tf.TensorShape(input_tensor.shape).as_list())
        self._batch_input_shape = batch_input_shape
        self._add_inbound_node([], [input_tensor], {})

    def get_config(self):
        """Returns `{'batch_input_shape', 'dtype', 'sparse', 'name'}`."""
        return {"batch_input_shape": self._batch_input_shape, "dtype": self._dtype, "sparse": self.sparse,
                "name": self.name}


def Input(shape=None, batch_size=None, name=None, dtype=None, sparse=False, tensor=None,  # noqa: N802
          **kwargs):
    """Creates a Keras input tensor (a placeholder wrapped by an `InputLayer`).

    Args:
      shape: Shape without the batch axis, e.g. `(32,)`.
      batch_size: Optional fixed batch size.
      name: Optional name (unique in the model).
      dtype: Its dtype (default floatx()).
      sparse: Unsupported; must be False.
      tensor: Optional existing tensor to wrap.
      **kwargs: `batch_shape` (shape with the batch axis).

    Returns:
      The input tensor.

    Raises:
      ValueError: If neither `shape`, `batch_shape` nor `tensor` is given.
    """
    batch_shape = kwargs.pop("batch_shape", None)
    if kwargs:
        raise TypeError("Unrecognized keyword arguments:", list(kwargs))
    if shape is None and batch_shape is None and tensor is None:
        raise ValueError("Please provide to Input either a `shape` or a `batch_shape` argument. Note that `shape` "
                         "does not include the batch dimension.")
    if batch_shape is not None:
        layer = InputLayer(batch_input_shape=batch_shape, name=name, dtype=dtype, sparse=sparse, input_tensor=tensor)
    else:
        layer = InputLayer(input_shape=shape, batch_size=batch_size, name=name, dtype=dtype, sparse=sparse,
                           input_tensor=tensor)
    return layer._inbound_nodes[0].output_tensors[0]
