"""The Embedding layer."""

from ...ops.math_binary_ops import not_equal
from .. import _tf as tf
from ..engine.base_layer import Layer
from .core import _serialize


class Embedding(Layer):
    """Maps non-negative integer indices to dense vectors of size `output_dim`.

    Args:
      input_dim: Vocabulary size (largest index + 1).
      output_dim: Embedding size.
      embeddings_initializer, embeddings_regularizer, activity_regularizer, embeddings_constraint: As in `Dense`.
      mask_zero: Whether index 0 is padding: the layer then outputs a mask `inputs != 0` that
        mask-consuming layers downstream (e.g. recurrent layers) use.
      input_length: Optional fixed sequence length.
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform", embeddings_regularizer=None,
                 activity_regularizer=None, embeddings_constraint=None, mask_zero=False, input_length=None,
                 **kwargs):
        from .. import constraints, initializers, regularizers
        if "input_shape" not in kwargs and "batch_input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,) if input_length is not None else (None,)
        kwargs.setdefault("dtype", "float32")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self.input_length = input_length

    def build(self, input_shape):
        self.embeddings = self.add_weight("embeddings", shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          regularizer=self.embeddings_regularizer,
                                          constraint=self.embeddings_constraint)
        self.built = True

    def call(self, inputs):
        if inputs.dtype.base_dtype.name not in ("int32", "int64"):
            inputs = tf.cast(inputs, "int32")
        return tf.nn.embedding_lookup(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        return tf.TensorShape(input_shape).concatenate([self.output_dim])

    def get_config(self):
        from .. import constraints, initializers, regularizers
        config = {"input_dim": self.input_dim, "output_dim": self.output_dim,
                  "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
                  "embeddings_regularizer": _serialize(regularizers, self.embeddings_regularizer),
                  "activity_regularizer": _serialize(regularizers, self.activity_regularizer),
                  "embeddings_constraint": _serialize(constraints, self.embeddings_constraint),
                  "mask_zero": self.mask_zero, "input_length": self.input_length}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))
