"""`tf.layers.Layer` (TF1's Keras-based base layer) and `tf.layers.InputSpec`.

A layer owns a variable scope ("dense", "conv2d_1", ... unless named), captured on its first call;
its variables are made by `tf.get_variable` inside that scope, so `reuse`, enclosing variable
scopes and `tf.make_template` behave as in TF1. The ops of each call go into the name scope the
variable scope first opened. Update ops (`add_update`) are added to `GraphKeys.UPDATE_OPS` and
losses (`add_loss`, weight and activity regularizers) to `GraphKeys.REGULARIZATION_LOSSES`.
"""

import re

from ..framework import dtypes, ops
from ..variable_scopes import VariableScope, get_variable, variable_scope

_ALLOWED_KWARGS = frozenset({"input_shape", "batch_input_shape", "batch_size", "weights", "activity_regularizer",
                             "autocast"})


def _to_snake_case(name):
    intermediate = re.sub("(.)([A-Z][a-z0-9]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()


def _add_elements_to_collection(elements, collection_name):
    collection = ops.get_collection_ref(collection_name)
    present = {id(e) for e in collection}
    for element in elements:
        if id(element) not in present:
            collection.append(element)
            present.add(id(element))


class InputSpec:
    """Specifies the rank, dtype and shape of every input to a layer.

    Args:
      dtype: Expected dtype of the input.
      shape: Expected shape tuple (None entries are free).
      ndim: Expected rank.
      max_ndim: Maximum rank.
      min_ndim: Minimum rank.
      axes: Dictionary mapping integer axes to a specific dimension value.
    """

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None):
        self.dtype = dtype
        self.shape = shape
        self.ndim = len(shape) if shape is not None else ndim
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.axes = axes or {}

    def __repr__(self):
        spec = [("dtype=" + str(self.dtype)) if self.dtype else "", ("shape=" + str(self.shape)) if self.shape else "",
                ("ndim=" + str(self.ndim)) if self.ndim else "", ("max_ndim=" + str(self.max_ndim))
                if self.max_ndim else "", ("min_ndim=" + str(self.min_ndim)) if self.min_ndim else "",
                ("axes=" + str(self.axes)) if self.axes else ""]
        return "InputSpec(%s)" % ", ".join(x for x in spec if x)


def _assert_input_compatibility(spec, x, layer_name, unknown_rank_ok=False):
    """Checks `x` against `spec` with Keras' messages. With `unknown_rank_ok` (layers that work on
    any rank, as TF's Keras lets them), an input of unknown rank passes unchecked.

    Raises:
      ValueError: If the input's rank or a constrained dimension does not match.
      TypeError: If the input's dtype does not match.
    """
    if spec is None:
        return
    prefix = "Input 0 of layer " + layer_name + " is incompatible with the layer: "
    shape = x.shape
    ndim = shape.ndims
    if ndim is None and unknown_rank_ok:
        return
    if (spec.ndim is not None or spec.min_ndim is not None or spec.max_ndim is not None) and ndim is None:
        raise ValueError(prefix + "its rank is undefined, but the layer requires a defined rank.")
    if spec.ndim is not None and ndim != spec.ndim:
        raise ValueError(prefix + "expected ndim=%d, found ndim=%d. Full shape received: %s"
                         % (spec.ndim, ndim, shape.as_list()))
    if spec.max_ndim is not None and ndim is not None and ndim > spec.max_ndim:
        raise ValueError(prefix + "expected max_ndim=%d, found ndim=%d" % (spec.max_ndim, ndim))
    if spec.min_ndim is not None and ndim is not None and ndim < spec.min_ndim:
        raise ValueError(prefix + "expected min_ndim=%d, found ndim=%d. Full shape received: %s"
                         % (spec.min_ndim, ndim, shape.as_list()))
    if spec.dtype is not None and x.dtype.base_dtype.name != dtypes.as_dtype(spec.dtype).name:
        raise ValueError(prefix + "expected dtype=%s, found dtype=%s" % (dtypes.as_dtype(spec.dtype).name,
                                                                          x.dtype.name))
    if spec.axes and ndim is not None:
        dims = shape.as_list()
        for axis, value in spec.axes.items():
            if value is not None and dims[int(axis)] not in (value, None):
                raise ValueError(prefix + "expected axis %d of input shape to have value %d but received input "
                                 "with shape %s" % (axis, value, dims))
    if spec.shape is not None and ndim is not None:
        for spec_dim, dim in zip(spec.shape, shape.as_list()):
            if spec_dim is not None and dim is not None and spec_dim != dim:
                raise ValueError(prefix + "expected shape=%s, found shape=%s" % (spec.shape, shape.as_list()))


class Layer:
    """Base layer class: `tf.layers.Layer`.

    Subclasses implement `build(input_shape)` (creating weights with `add_weight`) and
    `call(inputs, **kwargs)`; `__call__`/`apply` wrap them in the layer's variable scope.

    Args:
      trainable: Whether the layer's variables go into TRAINABLE_VARIABLES.
      name: The layer's name, also its variable scope (default: the snake-cased class name,
        made unique by the variable scope).
      dtype: The layer's (variables') dtype; default: the dtype of the first inputs.
      activity_regularizer: Optional `outputs -> loss`, divided by the batch size.

    Raises:
      TypeError: For an unknown keyword argument.
    """

    # Whether an input of unknown rank skips the input spec's rank checks (the layer works on any
    # rank and leaves the check to its ops, as TF's Keras Flatten and max pooling do).
    _unknown_rank_ok = False

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        for key in kwargs:
            if key not in _ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", key)
        self.trainable = trainable
        self.built = False
        self.input_spec = None
        self.activity_regularizer = kwargs.get("activity_regularizer")
        self._dtype = None if dtype is None else dtypes.as_dtype(dtype)
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._updates = []
        self._losses = []
        self._base_name = _to_snake_case(type(self).__name__)
        self._name = name.name if isinstance(name, VariableScope) else name
        if isinstance(name, str) and name:
            self._base_name = name
        self._scope = None
        self._current_scope = None
        if scope:
            with variable_scope(scope) as captured:
                self._scope = captured

    # ---- properties --------------------------------------------------------------------------
    @property
    def name(self):
        if self._name is None and self._scope is not None:
            return self._scope.name.rsplit("/", 1)[-1]
        return self._name or self._base_name

    @property
    def dtype(self):
        return None if self._dtype is None else self._dtype.name

    @property
    def scope_name(self):
        """The full name of the layer's variable scope.

        Raises:
          ValueError: If the layer has not been called yet.
        """
        if self._scope is None:
            raise ValueError("No name available for layer scope because the layer \"%s\" has not been used yet. "
                             "The scope name is determined the first time the layer instance is called. You must "
                             "therefore call the layer before querying `scope_name`." % self.name)
        return self._scope.name

    @property
    def trainable_weights(self):
        return list(self._trainable_weights) if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return list(self._non_trainable_weights)
        return self._trainable_weights + self._non_trainable_weights

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights
    variables = weights

    @property
    def updates(self):
        return list(self._updates)

    @property
    def losses(self):
        return list(self._losses)

    # ---- API for subclasses -------------------------------------------------------------------
    def build(self, input_shape):
        """Creates the layer's variables; called once, on the first call."""
        self.built = True

    def call(self, inputs, **kwargs):
        """The layer's computation."""
        return inputs

    def compute_output_shape(self, input_shape):
        """The output shape for an input shape (default: the shape of `call`'s result)."""
        raise NotImplementedError

    def add_update(self, updates, inputs=None):
        """Records update ops (run them via `GraphKeys.UPDATE_OPS` or `layer.updates`)."""
        updates = updates if isinstance(updates, (list, tuple)) else [updates]
        self._updates.extend(u for u in updates if u is not None)

    def add_loss(self, losses, inputs=None):
        """Records losses; they also go into `GraphKeys.REGULARIZATION_LOSSES`."""
        losses = losses if isinstance(losses, (list, tuple)) else [losses]
        new = [ops.convert_to_tensor(x) for x in losses if x is not None]
        self._losses.extend(new)
        _add_elements_to_collection(new, ops.GraphKeys.REGULARIZATION_LOSSES)

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=None,
                   constraint=None, use_resource=None, synchronization=None, aggregation=None, partitioner=None,
                   **kwargs):
        """Creates (or, when reusing, gets) the variable `<layer scope>/<name>` with `tf.get_variable`.

        Args:
          name: The variable's name within the layer's scope.
          shape: Its shape.
          dtype: Its dtype (default: the layer's dtype, else float32).
          initializer: Its initializer (default: the variable scope's, else glorot_uniform).
          regularizer: Optional `variable -> loss`, applied once when the variable is created.
          trainable: Whether it is trainable (also requires `layer.trainable`); default True.
          constraint: Optional projection applied by optimizers.

        Returns:
          The variable.

        Raises:
          TypeError: For an unknown keyword argument.
          ValueError: On variable reuse conflicts.
        """
        from ..variables import global_variables
        for key in kwargs:
            if key not in ("experimental_autocast", "collections", "caching_device"):
                raise TypeError("Unknown keyword argument:", key)
        if trainable is None:
            trainable = True
        dtype = dtypes.as_dtype(dtype or self._dtype or dtypes.float32)
        existing = {id(v) for v in global_variables()}
        reuse = True if self.built else self._reuse
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with ops.name_scope(scope.original_name_scope or None):
                variable = get_variable(name, shape=shape, dtype=dtype, initializer=initializer,
                                        trainable=trainable and self.trainable, constraint=constraint,
                                        partitioner=partitioner, collections=kwargs.get("collections"))
                if regularizer is not None and id(variable) not in existing:
                    with ops.name_scope(name + "/Regularizer"):
                        loss = regularizer(variable)
                    if loss is not None:
                        self.add_loss(loss)
        target = self._trainable_weights if trainable else self._non_trainable_weights
        if all(v is not variable for v in target):
            target.append(variable)
        return variable

    add_variable = add_weight

    # ---- calling ---------------------------------------------------------------------------
    def _set_scope(self, scope=None):
        if self._scope is None:
            if self._reuse:
                with variable_scope(scope if scope is not None else self._base_name) as captured:
                    self._scope = captured
            else:
                with variable_scope(scope, default_name=self._base_name) as captured:
                    self._scope = captured

    def _activity_loss(self, outputs):
        from ..ops import array_ops, math_ops
        with ops.name_scope("ActivityRegularizer"):
            loss = self.activity_regularizer(outputs)
            batch_size = math_ops.cast(array_ops.shape(outputs)[0], loss.dtype)
            self.add_loss(math_ops.truediv(loss, batch_size))

    def __call__(self, inputs, *args, **kwargs):
        """Applies the layer to `inputs`, creating (or reusing) its variables on the first call.

        Raises:
          ValueError: If the inputs do not match the layer's input spec, or on a variable reuse
            conflict.
        """
        scope = kwargs.pop("scope", None)
        inputs = ops.convert_to_tensor(inputs)
        _assert_input_compatibility(self.input_spec, inputs, self.name, self._unknown_rank_ok)
        self._set_scope(scope)
        reuse = True if self.built else self._reuse
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as vs:
            self._current_scope = vs
            with ops.name_scope(vs.original_name_scope or None):
                if not self.built:
                    if self._dtype is None:
                        self._dtype = inputs.dtype.base_dtype
                    self.build(inputs.shape)
                    self.built = True
                outputs = self.call(inputs, *args, **kwargs)
                if self.activity_regularizer is not None:
                    self._activity_loss(outputs)
        _add_elements_to_collection(self._updates, ops.GraphKeys.UPDATE_OPS)
        return outputs

    def apply(self, inputs, *args, **kwargs):
        """Same as `__call__`."""
        return self.__call__(inputs, *args, **kwargs)

