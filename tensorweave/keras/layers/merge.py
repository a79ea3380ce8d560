"""Merge layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot and their
functional forms."""

from ...ops.math_reduce_ops import reduce_all
from .. import _tf as tf
from .. import backend as K
from ..engine.base_layer import Layer


def _as_tuple(shape):
    """A `TensorShape` (or tuple) as a tuple of ints/None, or None when the rank is unknown."""
    if shape is None:
        return None
    shape = tf.TensorShape(shape)
    if shape.ndims is None:
        return None
    return tuple(shape.as_list())


def _as_tuples(input_shape):
    if not isinstance(input_shape, (list, tuple)) or (input_shape and not all(
            s is None or isinstance(s, (tf.TensorShape, list, tuple)) for s in input_shape)):
        return None
    return [_as_tuple(s) for s in input_shape]


def _check_mask_lists(inputs, mask):
    if not isinstance(mask, (list, tuple)):
        raise ValueError("`mask` should be a list.")
    if not isinstance(inputs, (list, tuple)):
        raise ValueError("`inputs` should be a list.")
    if len(mask) != len(inputs):
        raise ValueError("The lists `inputs` and `mask` should have the same length.")


class _Merge(Layer):
    """Generic merge layer for elementwise merge functions (`Add`, `Average`, ...).

    Inputs of lower rank get unit axes inserted after the batch axis, then broadcast as NumPy does.
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self._reshape_required = False

    def _merge_function(self, inputs):
        raise NotImplementedError

    def _compute_elemwise_op_output_shape(self, shape1, shape2):
        """The broadcast shape of two shapes without their batch axis (None when a rank is unknown).

        Raises:
          ValueError: If the shapes cannot be broadcast together.
        """
        if None in [shape1, shape2]:
            return None
        if len(shape1) < len(shape2):
            return self._compute_elemwise_op_output_shape(shape2, shape1)
        if not shape2:
            return shape1
        output_shape = list(shape1[:-len(shape2)])
        for i, j in zip(shape1[-len(shape2):], shape2):
            if i is None or j is None:
                output_shape.append(None)
            elif i == 1:
                output_shape.append(j)
            elif j == 1:
                output_shape.append(i)
            else:
                if i != j:
                    raise ValueError("Operands could not be broadcast together with shapes " + str(shape1) +
                                     " " + str(shape2))
                output_shape.append(i)
        return tuple(output_shape)

    def _output_shape_without_batch(self, shapes):
        output_shape = None if shapes[0] is None else shapes[0][1:]
        for shape in shapes[1:]:
            output_shape = self._compute_elemwise_op_output_shape(output_shape,
                                                                  None if shape is None else shape[1:])
        return output_shape

    def build(self, input_shape):
        shapes = _as_tuples(input_shape)
        if shapes is None:
            raise ValueError("A merge layer should be called on a list of inputs.")
        if len(shapes) < 2:
            raise ValueError("A merge layer should be called on a list of at least 2 inputs. Got " +
                             str(len(shapes)) + " inputs.")
        batch_sizes = {s[0] for s in shapes if s} - {None}
        if len(batch_sizes) > 1:
            raise ValueError("Can not merge tensors with different batch sizes. Got tensors with shapes : " +
                             str(shapes))
        self._output_shape_without_batch(shapes)
        self._reshape_required = None in shapes or len(set(map(len, shapes))) != 1
        self.built = True

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs.")
        if not self._reshape_required:
            return self._merge_function(inputs)
        ranks = [K.ndim(x) for x in inputs]
        if None in ranks:
            raise NotImplementedError("Merging inputs of different or unknown ranks needs every rank to be "
                                      "known; got ranks %s." % ranks)
        top = max(ranks)
        reshaped = []
        for x, rank in zip(inputs, ranks):
            for _ in range(top - rank):
                x = tf.expand_dims(x, axis=1)
            reshaped.append(x)
        return self._merge_function(reshaped)

    def compute_output_shape(self, input_shape):
        """Returns the broadcast output shape.

        Raises:
          ValueError: If the shapes cannot be broadcast together.
        """
        shapes = _as_tuples(input_shape)
        output_shape = self._output_shape_without_batch(shapes)
        if output_shape is None:
            return tf.TensorShape(None)
        batch_sizes = {s[0] for s in shapes if s is not None} - {None}
        batch = list(batch_sizes)[0] if len(batch_sizes) == 1 else None
        return tf.TensorShape((batch,) + tuple(output_shape))

    def compute_mask(self, inputs, mask=None):
        """The logical AND of the inputs' masks (None when no input has one).

        Args:
          inputs: The list of input tensors.
          mask: None or a list of masks (None entries for unmasked inputs).

        Returns:
          A boolean tensor or None.

        Raises:
          ValueError: If `mask` or `inputs` is not a list, or their lengths differ.
        """
        if mask is None:
            return None
        _check_mask_lists(inputs, mask)
        if all(m is None for m in mask):
            return None
        masks = [tf.expand_dims(m, axis=0) for m in mask if m is not None]
        return reduce_all(K.concatenate(masks, axis=0), axis=0, keepdims=False)


class Add(_Merge):
    """Adds a list of inputs (same shapes, or broadcastable ones).

    Raises:
      ValueError: If called on fewer than 2 inputs or on shapes that cannot be broadcast.
    """

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = output + x
        return output


class Subtract(_Merge):
    """Subtracts two inputs: `inputs[0] - inputs[1]`.

    Raises:
      ValueError: If not called on exactly 2 inputs.
    """

    def build(self, input_shape):
        super().build(input_shape)
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs")

    def _merge_function(self, inputs):
        if len(inputs) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs")
        return inputs[0] - inputs[1]


class Multiply(_Merge):
    """Multiplies a list of inputs elementwise."""

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = output * x
        return output


class Average(_Merge):
    """Averages a list of inputs elementwise."""

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = output + x
        return output / len(inputs)


class Maximum(_Merge):
    """The elementwise maximum of a list of inputs."""

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = tf.maximum(output, x)
        return output


class Minimum(_Merge):
    """The elementwise minimum of a list of inputs."""

    def _merge_function(self, inputs):
        output = inputs[0]
        for x in inputs[1:]:
            output = tf.minimum(output, x)
        return output


class Concatenate(_Merge):
    """Concatenates a list of inputs along `axis`.

    Args:
      axis: The concatenation axis (default -1).

    Raises:
      ValueError: If called on fewer than 2 inputs, or on shapes that differ outside `axis`.
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def build(self, input_shape):
        shapes = _as_tuples(input_shape)
        if shapes is None or len(shapes) < 2:
            raise ValueError("A `Concatenate` layer should be called on a list of at least 2 inputs")
        self.built = True
        if all(shape is None for shape in shapes):
            return
        reduced = set()
        for shape in shapes:
            if shape is None:
                continue
            shape = list(shape)
            try:
                del shape[self.axis]
            except IndexError:
                raise ValueError("A `Concatenate` layer requires inputs with matching shapes except for the "
                                 "concat axis. Got inputs shapes: %s" % (shapes,)) from None
            reduced.add(tuple(shape))
        ranks = {len(shape) for shape in reduced}
        compatible = len(ranks) == 1 and all(
            len({shape[i] for shape in reduced} - {None}) <= 1 for i in range(next(iter(ranks))))
        if not compatible:
            raise ValueError("A `Concatenate` layer requires inputs with matching shapes except for the "
                             "concat axis. Got inputs shapes: %s" % (shapes,))

    def _merge_function(self, inputs):
        return K.concatenate(inputs, axis=self.axis)

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A `Concatenate` layer should be called on a list of inputs.")
        return self._merge_function(inputs)

    def compute_output_shape(self, input_shape):
        """The input shape with the sizes along `axis` summed.

        Raises:
          ValueError: If `input_shape` is not a list of shapes.
        """
        shapes = _as_tuples(input_shape)
        if not shapes or shapes[0] is None:
            raise ValueError("A `Concatenate` layer should be called on a list of inputs.")
        output_shape = list(shapes[0])
        for shape in shapes[1:]:
            if output_shape[self.axis] is None or shape is None or shape[self.axis] is None:
                output_shape[self.axis] = None
                break
            output_shape[self.axis] += shape[self.axis]
        return tf.TensorShape(output_shape)

    def compute_mask(self, inputs, mask=None):
        """The concatenated masks (all-True for unmasked inputs), reduced with AND over the last axis.

        Raises:
          ValueError: If `mask` or `inputs` is not a list, or their lengths differ.
        """
        if mask is None:
            return None
        _check_mask_lists(inputs, mask)
        if all(m is None for m in mask):
            return None
        masks = []
        for input_i, mask_i in zip(inputs, mask):
            if mask_i is None:
                masks.append(tf.cast(tf.ones_like(input_i), tf.bool))
            elif K.ndim(mask_i) < K.ndim(input_i):
                masks.append(tf.expand_dims(mask_i, axis=-1))
            else:
                masks.append(mask_i)
        concatenated = K.concatenate(masks, axis=self.axis)
        return reduce_all(concatenated, axis=-1, keepdims=False)

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def _batch_dot(x, y, axes):
    """Batchwise dot product contracting `x`'s axis `axes[0]` with `y`'s axis `axes[1]` (both non-batch,
    non-negative): the result has `x`'s other axes, then `y`'s other non-batch axes; a rank-1 result
    becomes `(batch, 1)`."""
    nx, ny = K.ndim(x), K.ndim(y)
    ax, ay = axes
    x_keep = [i for i in range(1, nx) if i != ax]
    y_keep = [i for i in range(1, ny) if i != ay]
    xt = tf.transpose(x, [0] + x_keep + [ax])
    yt = tf.transpose(y, [0, ay] + y_keep)
    xs, ys = tf.shape(x), tf.shape(y)
    batch = xs[0]
    x_static, y_static = K.int_shape(x), K.int_shape(y)
    x_free = [x_static[i] if x_static[i] is not None else xs[i] for i in x_keep]
    y_free = [y_static[i] if y_static[i] is not None else ys[i] for i in y_keep]
    depth = x_static[ax] if x_static[ax] is not None else xs[ax]
    x2 = tf.reshape(xt, tf.stack([batch, -1, depth]))
    y2 = tf.reshape(yt, tf.stack([batch, depth, -1]))
    out = tf.matmul(x2, y2)
    if not x_free and not y_free:
        out = tf.reshape(out, tf.stack([batch, 1]))
    else:
        out = tf.reshape(out, tf.stack([batch] + x_free + y_free))
    static = [x_static[0]] + [x_static[i] for i in x_keep] + [y_static[i] for i in y_keep]
    out.set_shape(static if len(static) > 1 else static + [1])
    return out


class Dot(_Merge):
    """Dot product between the samples of two tensors along `axes`.

    For inputs `a` and `b` of shape `(batch, n)`, the output has shape `(batch, 1)`: `sum(a * b, 1)`.

    Args:
      axes: An int, or a pair of ints: the axes of the first and second input to contract (their sizes
        must match). Negative values count from the end.
      normalize: Whether to L2-normalize the samples along the contracted axes first (the result is
        then the cosine similarity).

    Raises:
      TypeError: If `axes` is neither an int nor a list/tuple.
      ValueError: If `axes` is not a pair of ints, the layer is not called on 2 inputs, the contracted
        sizes differ, or an axis is the batch axis.
    """

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError("Invalid type for `axes` - should be a list or an int.")
            if len(axes) != 2:
                raise ValueError("Invalid format for `axes` - should contain two elements.")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError("Invalid format for `axes` - list elements should be \"int\".")
        self.axes = axes
        self.normalize = normalize

    def _axes_for(self, rank1, rank2):
        if isinstance(self.axes, int):
            axes = [self.axes % rank1, self.axes % rank2] if self.axes < 0 else [self.axes] * 2
        else:
            axes = [a % r if a < 0 else a for a, r in zip(self.axes, (rank1, rank2))]
        if axes[0] == 0 or axes[1] == 0:
            raise ValueError("Cannot do a dot product along the batch axis (axes=%s)." % (self.axes,))
        if axes[0] >= rank1 or axes[1] >= rank2:
            raise ValueError("Invalid axes %s for inputs of ranks %d and %d." % (self.axes, rank1, rank2))
        return axes

    def build(self, input_shape):
        shapes = _as_tuples(input_shape)
        if shapes is None or len(shapes) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs.")
        self.built = True
        shape1, shape2 = shapes
        if shape1 is None or shape2 is None:
            return
        axes = self._axes_for(len(shape1), len(shape2))
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError("Dimension incompatibility %s != %s. Layer shapes: %s, %s"
                             % (shape1[axes[0]], shape2[axes[1]], shape1, shape2))

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 2:
            raise ValueError("A `Dot` layer should be called on exactly 2 inputs")
        x1, x2 = inputs
        if K.ndim(x1) is None or K.ndim(x2) is None:
            raise ValueError("A `Dot` layer needs inputs of known rank.")
        axes = self._axes_for(K.ndim(x1), K.ndim(x2))
        if self.normalize:
            x1 = tf.nn.l2_normalize(x1, axis=axes[0])
            x2 = tf.nn.l2_normalize(x2, axis=axes[1])
        return _batch_dot(x1, x2, axes)

    def compute_output_shape(self, input_shape):
        """`x`'s shape without the contracted axis, then `y`'s without its batch and contracted axes.

        Raises:
          ValueError: If `input_shape` is not a list of 2 shapes.
        """
        shapes = _as_tuples(input_shape)
        if shapes is None or len(shapes) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs.")
        shape1, shape2 = list(shapes[0]), list(shapes[1])
        axes = self._axes_for(len(shape1), len(shape2))
        shape1.pop(axes[0])
        shape2.pop(axes[1])
        shape2.pop(0)
        output_shape = shape1 + shape2
        if len(output_shape) == 1:
            output_shape += [1]
        return tf.TensorShape(output_shape)

    def compute_mask(self, inputs, mask=None):
        """Dot drops masks: returns None."""
        return None

    def get_config(self):
        config = super().get_config()
        config.update({"axes": self.axes, "normalize": self.normalize})
        return config


def add(inputs, **kwargs):
    """Functional interface to the `Add` layer.

    Args:
      inputs: A list of input tensors (at least 2).
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, the sum of the inputs.
    """
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    """Functional interface to the `Subtract` layer.

    Args:
      inputs: A list of exactly 2 input tensors.
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, `inputs[0] - inputs[1]`.
    """
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    """Functional interface to the `Multiply` layer.

    Args:
      inputs: A list of input tensors (at least 2).
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, the elementwise product of the inputs.
    """
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    """Functional interface to the `Average` layer.

    Args:
      inputs: A list of input tensors (at least 2).
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, the average of the inputs.
    """
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    """Functional interface to the `Maximum` layer.

    Args:
      inputs: A list of input tensors (at least 2).
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, the elementwise maximum of the inputs.
    """
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    """Functional interface to the `Minimum` layer.

    Args:
      inputs: A list of input tensors (at least 2).
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, the elementwise minimum of the inputs.
    """
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    """Functional interface to the `Concatenate` layer.

    Args:
      inputs: A list of input tensors (at least 2).
      axis: The concatenation axis.
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, the concatenation of the inputs along `axis`.
    """
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes, normalize=False, **kwargs):
    """Functional interface to the `Dot` layer.

    Args:
      inputs: A list of 2 input tensors.
      axes: An int or pair of ints, the axes to contract.
      normalize: Whether to L2-normalize along the contracted axes first.
      **kwargs: Standard layer keyword arguments.

    Returns:
      A tensor, the batchwise dot product of the inputs.
    """
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)

