"""`slim.tfexample_decoder`: decode a serialized `tf.Example` into items, each produced by an
`ItemHandler` from one or more parsed features (`Tensor`, `Image`, `SparseTensor`,
`BoundingBox`, `LookupTensor`, `BackupHandler`, `ItemHandlerCallback`), as TF 1.15's slim."""

import abc

from ....framework import dtypes
from ....framework import sparse_tensor as _sparse_tensor
from . import data_decoder

__all__ = ["BackupHandler", "BoundingBox", "Image", "ItemHandler", "ItemHandlerCallback", "LookupTensor",
           "SparseTensor", "TFExampleDecoder", "Tensor"]


def _ops():
    from ....ops import array_ops, core_ops, math_ops, sparse_ops
    return array_ops, core_ops, math_ops, sparse_ops


class ItemHandler(abc.ABC):
    """Specifies the item-to-Features mapping for tf.parse_example: the feature `keys` an item
    needs, and how to turn their parsed tensors into the item (`tensors_to_item`)."""

    def __init__(self, keys):
        """Constructs the handler with the name of the tf.train.Feature keys it uses.

        Args:
          keys: the name of the TensorFlow Example Feature.
        """
        if not isinstance(keys, (tuple, list)):
            keys = [keys]
        self._keys = keys

    @property
    def keys(self):
        """The feature keys the handler reads."""
        return self._keys

    @abc.abstractmethod
    def tensors_to_item(self, keys_to_tensors):
        """Maps the given dictionary of tensors to the requested item.

        Args:
          keys_to_tensors: a mapping of TF-Example keys to parsed tensors.

        Returns:
          the final tensor representing the item being handled.
        """


class ItemHandlerCallback(ItemHandler):
    """An ItemHandler that converts the parsed tensors via a given function."""

    def __init__(self, keys, func):
        """Initializes the ItemHandler.

        Args:
          keys: a list of TF-Example keys.
          func: a function that takes as an argument a dictionary from `keys` to parsed Tensors.
        """
        super().__init__(keys)
        self._func = func

    def tensors_to_item(self, keys_to_tensors):
        return self._func(keys_to_tensors)


class BoundingBox(ItemHandler):
    """An ItemHandler that concatenates a set of parsed Tensors to Bounding Boxes: an `[N, 4]`
    tensor of (ymin, xmin, ymax, xmax) rows."""

    def __init__(self, keys=None, prefix=""):
        """Initialize the bounding box handler.

        Args:
          keys: A list of four key names representing the ymin, xmin, ymax, mmax
          prefix: An optional prefix for each of the bounding box keys. If provided, `prefix` is
            appended to each key in `keys`.

        Raises:
          ValueError: if keys is not `None` and also not a list of exactly 4 keys
        """
        if keys is None:
            keys = ["ymin", "xmin", "ymax", "xmax"]
        elif len(keys) != 4:
            raise ValueError("BoundingBox expects 4 keys but got {}".format(len(keys)))
        self._prefix = prefix
        self._full_keys = [prefix + k for k in keys]
        super().__init__(self._full_keys)

    def tensors_to_item(self, keys_to_tensors):
        """Maps the given dictionary of tensors to a concatenated list of bboxes.

        Args:
          keys_to_tensors: a mapping of TF-Example keys to parsed tensors.

        Returns:
          [num_boxes, 4] tensor of bounding box coordinates, i.e. 1 bounding box per row, in
          order [y_min, x_min, y_max, x_max].
        """
        array_ops, _, _, _ = _ops()
        sides = []
        for key in self._full_keys:
            side = keys_to_tensors[key]
            if isinstance(side, _sparse_tensor.SparseTensor):
                side = side.values
            sides.append(array_ops.expand_dims(side, 0))
        return array_ops.transpose(array_ops.concat(sides, 0))


class Tensor(ItemHandler):
    """An ItemHandler that returns a parsed Tensor (densified if sparse, reshaped to `shape` or to
    the values of the `shape_keys` features)."""

    def __init__(self, tensor_key, shape_keys=None, shape=None, default_value=0):
        """Initializes the Tensor handler.

        Args:
          tensor_key: the name of the `TFExample` feature to read the tensor from.
          shape_keys: Optional name or list of names of the TF-Example feature in which the tensor
            shape is stored. If a list, then each corresponds to one dimension of the shape.
          shape: Optional output shape of the `Tensor`. If provided, the `Tensor` is reshaped
            accordingly.
          default_value: The value used when the `tensor_key` is not found in a particular
            `TFExample`.

        Raises:
          ValueError: if both `shape_keys` and `shape` are specified.
        """
        if shape_keys and shape is not None:
            raise ValueError("Cannot specify both shape_keys and shape parameters.")
        if shape_keys and not isinstance(shape_keys, list):
            shape_keys = [shape_keys]
        self._tensor_key = tensor_key
        self._shape_keys = shape_keys
        self._shape = shape
        self._default_value = default_value
        keys = [tensor_key]
        if shape_keys:
            keys.extend(shape_keys)
        super().__init__(keys)

    def tensors_to_item(self, keys_to_tensors):
        array_ops, _, _, sparse_ops = _ops()
        from ....ops.sparse_core_ops import sparse_reshape
        tensor = keys_to_tensors[self._tensor_key]
        shape = self._shape
        if self._shape_keys:
            shape_dims = []
            for k in self._shape_keys:
                shape_dim = keys_to_tensors[k]
                if isinstance(shape_dim, _sparse_tensor.SparseTensor):
                    shape_dim = sparse_ops.sparse_tensor_to_dense(shape_dim)
                shape_dims.append(shape_dim)
            shape = array_ops.reshape(array_ops.stack(shape_dims), [-1])
        if isinstance(tensor, _sparse_tensor.SparseTensor):
            if shape is not None:
                tensor = sparse_reshape(tensor, shape)
            tensor = sparse_ops.sparse_tensor_to_dense(tensor, self._default_value)
        elif shape is not None:
            tensor = array_ops.reshape(tensor, shape)
        return tensor


class LookupTensor(Tensor):
    """An ItemHandler that returns a parsed Tensor, the result of a lookup in `table`."""

    def __init__(self, tensor_key, table, shape_keys=None, shape=None, default_value=""):
        """Initializes the LookupTensor handler.

        Args:
          tensor_key: the name of the `TFExample` feature to read the tensor from.
          table: A tf.lookup table.
          shape_keys: Optional name or list of names of the TF-Example feature in which the tensor
            shape is stored.
          shape: Optional output shape of the `Tensor`.
          default_value: The value used when the `tensor_key` is not found in a particular
            `TFExample`.

        Raises:
          ValueError: if both `shape_keys` and `shape` are specified.
        """
        self._table = table
        super().__init__(tensor_key, shape_keys, shape, default_value)

    def tensors_to_item(self, keys_to_tensors):
        return self._table.lookup(super().tensors_to_item(keys_to_tensors))


class BackupHandler(ItemHandler):
    """An ItemHandler that tries two ItemHandlers in order: the backup's item when the primary's
    item is empty."""

    def __init__(self, handler, backup):
        """Initializes the BackupHandler handler.

        Args:
          handler: The primary ItemHandler.
          backup: The backup ItemHandler.

        Raises:
          ValueError: if either is not an ItemHandler.
        """
        if not isinstance(handler, ItemHandler):
            raise ValueError("Primary handler is of type %s instead of ItemHandler" % type(handler))
        if not isinstance(backup, ItemHandler):
            raise ValueError("Backup handler is of type %s instead of ItemHandler" % type(backup))
        self._handler = handler
        self._backup = backup
        super().__init__(handler.keys + backup.keys)

    def tensors_to_item(self, keys_to_tensors):
        array_ops, _, math_ops, _ = _ops()
        from ....ops.control_flow_ops import cond
        item = self._handler.tensors_to_item(keys_to_tensors)
        return cond(pred=math_ops.equal(math_ops.reduce_prod(array_ops.shape(item)), 0),
                    true_fn=lambda: self._backup.tensors_to_item(keys_to_tensors), false_fn=lambda: item)


class SparseTensor(ItemHandler):
    """An ItemHandler for SparseTensors: the ids of the `indices_key` feature become the last
    index column of the `values_key` feature's values (densified if `densify`)."""

    def __init__(self, indices_key=None, values_key=None, shape_key=None, shape=None, densify=False,
                 default_value=0):
        """Initializes the Tensor handler.

        Args:
          indices_key: The name of the TF-Example feature that contains the ids. Defaults to
            'indices'.
          values_key: The name of the TF-Example feature that contains the values. Defaults to
            'values'.
          shape_key: The name of the TF-Example feature that contains the shape. If provided it
            would be used.
          shape: The output shape of the SparseTensor. If `shape_key` is not provided this
            `shape` would be used.
          densify: Whether to convert the SparseTensor into a dense Tensor.
          default_value: Scalar value to set when making dense for indices not specified in the
            `SparseTensor`.
        """
        indices_key = indices_key or "indices"
        values_key = values_key or "values"
        self._indices_key = indices_key
        self._values_key = values_key
        self._shape_key = shape_key
        self._shape = shape
        self._densify = densify
        self._default_value = default_value
        keys = [indices_key, values_key]
        if shape_key:
            keys.append(shape_key)
        super().__init__(keys)

    def tensors_to_item(self, keys_to_tensors):
        array_ops, _, math_ops, sparse_ops = _ops()
        indices = keys_to_tensors[self._indices_key]
        values = keys_to_tensors[self._values_key]
        if self._shape_key:
            shape = keys_to_tensors[self._shape_key]
            if isinstance(shape, _sparse_tensor.SparseTensor):
                shape = sparse_ops.sparse_tensor_to_dense(shape)
        elif self._shape:
            shape = self._shape
        else:
            shape = indices.dense_shape
        rank = array_ops.shape(indices.indices)[1]
        ids = math_ops.cast(indices.values, dtypes.int64)
        indices_columns_to_preserve = array_ops.slice(indices.indices, [0, 0], array_ops.stack([-1, rank - 1]))
        new_indices = array_ops.concat([indices_columns_to_preserve, array_ops.reshape(ids, [-1, 1])], 1)
        tensor = _sparse_tensor.SparseTensor(new_indices, values.values, shape)
        if self._densify:
            tensor = sparse_ops.sparse_tensor_to_dense(tensor, self._default_value)
        return tensor


class Image(ItemHandler):
    """An ItemHandler that decodes a parsed Tensor as an image: raw bytes when the format is
    "raw"/"RAW", JPEG when the buffer is a JPEG, else any format `decode_image` reads."""

    def __init__(self, image_key=None, format_key=None, shape=None, channels=3, dtype=dtypes.uint8, repeated=False,
                 dct_method=""):
        """Initializes the image.

        Args:
          image_key: the name of the TF-Example feature in which the encoded image is stored.
            Defaults to 'image/encoded'.
          format_key: the name of the TF-Example feature in which the image format is stored.
            Defaults to 'image/format'.
          shape: the output shape of the image as 1-D `Tensor` [height, width, channels]. If
            provided, the image is reshaped accordingly. If left as None, no reshaping is done. A
            shape should be supplied only if all the stored images have the same shape.
          channels: the number of channels in the image.
          dtype: images will be decoded at this bit depth. Different formats support different
            bit depths.
          repeated: if False, decodes a single image. If True, decodes a variable number of
            image strings from a 1D tensor of strings.
          dct_method: An optional string. Defaults to empty string. It only takes effect when
            image format is jpeg, used to specify a hint about the algorithm used for jpeg
            decompression.
        """
        image_key = image_key or "image/encoded"
        format_key = format_key or "image/format"
        super().__init__([image_key, format_key])
        self._image_key = image_key
        self._format_key = format_key
        self._shape = shape
        self._channels = channels
        self._dtype = dtypes.as_dtype(dtype)
        self._repeated = repeated
        self._dct_method = dct_method

    def tensors_to_item(self, keys_to_tensors):
        """See base class."""
        from ....ops.functional_ops import map_fn
        image_buffer = keys_to_tensors[self._image_key]
        image_format = keys_to_tensors[self._format_key]
        if self._repeated:
            return map_fn(lambda x: self._decode(x, image_format), image_buffer, dtype=self._dtype)
        return self._decode(image_buffer, image_format)

    def _decode(self, image_buffer, image_format):
        array_ops, _, math_ops, _ = _ops()
        from ....ops import image_codec_ops
        from ....ops.control_flow_ops import case, cond
        from ....ops.parsing_ops import decode_raw

        def decode_image():
            return math_ops.cast(image_codec_ops.decode_image(image_buffer, channels=self._channels), self._dtype)

        def decode_jpeg():
            return math_ops.cast(image_codec_ops.decode_jpeg(image_buffer, channels=self._channels,
                                                             dct_method=self._dct_method), self._dtype)

        def check_jpeg():
            return cond(image_codec_ops.is_jpeg(image_buffer), decode_jpeg, decode_image, name="cond_jpeg")

        def decode_raw_image():
            return decode_raw(image_buffer, out_type=self._dtype)

        pred_fn_pairs = [(math_ops.logical_or(math_ops.equal(image_format, "raw"),
                                              math_ops.equal(image_format, "RAW")), decode_raw_image)]
        image = case(pred_fn_pairs, default=check_jpeg, exclusive=True)
        image.set_shape([None, None, self._channels])
        if self._shape is not None:
            image = array_ops.reshape(image, self._shape)
        return image


def _decode_items(items_to_handlers, items, lookup):
    """Each item's handler applied to `{key: lookup(key)}` over its keys (all items if `items` is empty)."""
    if not items:
        items = items_to_handlers.keys()
    outputs = []
    for item in items:
        handler = items_to_handlers[item]
        keys_to_tensors = {key: lookup(key) for key in handler.keys}
        outputs.append(handler.tensors_to_item(keys_to_tensors))
    return outputs


class TFExampleDecoder(data_decoder.DataDecoder):
    """A decoder for TensorFlow Examples: parses a serialized `tf.Example` with
    `keys_to_features` (FixedLenFeatures reshaped to their shape) and builds each item with its
    `ItemHandler`."""

    def __init__(self, keys_to_features, items_to_handlers):
        """Constructs the decoder.

        Args:
          keys_to_features: a dictionary from TF-Example keys to either tf.io.VarLenFeature or
            tf.io.FixedLenFeature instances. See tensorflow's parsing_ops.py.
          items_to_handlers: a dictionary from items (strings) to ItemHandler instances. Note
            that the ItemHandler's are provided the keys that they use to return the final item
            Tensors.
        """
        self._keys_to_features = keys_to_features
        self._items_to_handlers = items_to_handlers

    def list_items(self):
        """See base class."""
        return list(self._items_to_handlers.keys())

    def decode(self, serialized_example, items=None):
        """Decodes the given serialized TF-example.

        Args:
          serialized_example: a serialized TF-example tensor.
          items: the list of items to decode. These must be a subset of the item keys in
            self._items_to_handlers. If `items` is left as None, then all of the items in
            self._items_to_handlers are decoded.

        Returns:
          the decoded items, a list of tensor.
        """
        array_ops, _, _, _ = _ops()
        from ....ops.parsing_ops import FixedLenFeature, parse_single_example
        example = parse_single_example(serialized_example, self._keys_to_features)
        for k in sorted(self._keys_to_features):
            v = self._keys_to_features[k]
            if isinstance(v, FixedLenFeature):
                example[k] = array_ops.reshape(example[k], v.shape)
        return _decode_items(self._items_to_handlers, items, example.__getitem__)


class TFSequenceExampleDecoder(data_decoder.DataDecoder):
    """A decoder for TensorFlow SequenceExamples: parses the context and sequence features
    (context FixedLenFeatures reshaped to their shape) and builds each item with its
    `ItemHandler`, which may read keys of both."""

    def __init__(self, keys_to_context_features, keys_to_sequence_features, items_to_handlers):
        """Constructs the decoder.

        Args:
          keys_to_context_features: A dictionary from TF-SequenceExample context keys to either
            tf.VarLenFeature or tf.FixedLenFeature instances.
          keys_to_sequence_features: A dictionary from TF-SequenceExample sequence keys to either
            tf.VarLenFeature or tf.FixedLenSequenceFeature instances.
          items_to_handlers: a dictionary from items (strings) to ItemHandler instances.

        Raises:
          ValueError: If the same key is present for context features and sequence features.
        """
        unique_keys = set(keys_to_context_features) | set(keys_to_sequence_features)
        if len(unique_keys) != len(keys_to_context_features) + len(keys_to_sequence_features):
            raise ValueError("Context and sequence keys are not unique. \n Context keys: %s \n Sequence keys: %s"
                             % (list(keys_to_context_features.keys()), list(keys_to_sequence_features.keys())))
        self._keys_to_context_features = keys_to_context_features
        self._keys_to_sequence_features = keys_to_sequence_features
        self._items_to_handlers = items_to_handlers

    def list_items(self):
        """Returns keys of items."""
        return self._items_to_handlers.keys()

    def decode(self, serialized_example, items=None):
        """Decodes the given serialized TF-SequenceExample.

        Args:
          serialized_example: A serialized TF-SequenceExample tensor.
          items: The list of items to decode. These must be a subset of the item keys in
            self._items_to_handlers. If `items` is left as None, then all of the items in
            self._items_to_handlers are decoded.

        Returns:
          The decoded items, a list of tensor.
        """
        array_ops, _, _, _ = _ops()
        from ....ops.parsing_ops import FixedLenFeature
        from ....ops.parsing_sequence_ops import parse_single_sequence_example
        context, feature_list = parse_single_sequence_example(serialized_example, self._keys_to_context_features,
                                                              self._keys_to_sequence_features)
        for k, v in self._keys_to_context_features.items():
            if isinstance(v, FixedLenFeature):
                context[k] = array_ops.reshape(context[k], v.shape)
        return _decode_items(self._items_to_handlers, items,
                             lambda key: context[key] if key in context else feature_list[key])


__all__ += ["TFSequenceExampleDecoder"]
