"""`tf.train.ExponentialMovingAverage`: shadow variables that track moving averages of variables
and tensors, as TF 1.x's `moving_averages.py`."""

from ..eager.context import init_scope
from ..eager.tensor import EagerTensor
from ..framework import dtypes, ops
from ..framework.ops import GraphKeys
from ..ops import core_ops, init_ops, math_ops, state_ops
from ..variable_scopes import get_variable, get_variable_scope, variable_scope
from ..variables import Variable, global_variables, moving_average_variables, trainable_variables

_FLOAT_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _ref(x):
    return x._ref() if isinstance(x, Variable) else x


def _zero_debias(unbiased_var, value, decay):
    """The zero-debiased update of `unbiased_var` (a slot of a tensor): a biased average and a step
    counter in variables named "<slot>/biased" and "<slot>/local_step"; the slot gets
    `biased / (1 - (1 - decay) ** local_step)`."""
    with variable_scope(unbiased_var.op.name, values=[unbiased_var, value, decay]):
        with init_scope():
            scope = get_variable_scope()

            def unique(name):
                if scope.reuse:
                    return name
                names = {v.op.name for v in global_variables()}
                full_name = scope.name + "/" + name
                if full_name not in names:
                    return name
                idx = 1
                while full_name + "_%d" % idx in names:
                    idx += 1
                return name + "_%d" % idx

            biased_var = get_variable(unique("biased"), initializer=init_ops.zeros_initializer(),
                                      shape=unbiased_var.get_shape(), dtype=unbiased_var.dtype.base_dtype,
                                      trainable=False)
            local_step = get_variable(unique("local_step"), shape=[], dtype=unbiased_var.dtype.base_dtype,
                                      initializer=init_ops.zeros_initializer(), trainable=False)
    update_biased = state_ops.assign_sub(_ref(biased_var), (biased_var - value) * decay)
    update_local_step = state_ops.assign_add(_ref(local_step), 1)
    # `decay` is `1 - decay` here, so the exponent's base is `1.0 - decay`.
    bias_factor = 1 - math_ops.pow(1.0 - decay, update_local_step)
    return state_ops.assign(_ref(unbiased_var), update_biased / bias_factor, name=ops.get_name_scope() + "/")


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
    """Updates the moving average `variable` with `value`:
    `variable -= (1 - decay) * (variable - value)`, computed in `variable`'s dtype.

    With `zero_debias` the average is divided by `1 - decay ** t` after `t` updates (the debiased
    estimate of Adam), using two extra variables next to `variable`.

    Args:
      variable: A float Variable (the average).
      value: A tensor of the same shape: the new value.
      decay: A float tensor or Python number (float32 when converted).
      zero_debias: Debias the average (see above).
      name: Name of the returned op (default "AssignMovingAvg").

    Returns:
      The updated average (a tensor).
    """
    with ops.name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        decay = ops.convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype != variable.dtype.base_dtype:
            decay = math_ops.cast(decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, decay)
        return state_ops.assign_sub(_ref(variable), (variable - value) * decay, name=scope)


class ExponentialMovingAverage:
    """Maintains moving averages of variables (and tensors) with an exponential decay, as TF1's
    `tf.train.ExponentialMovingAverage`.

    `apply(var_list)` creates a shadow variable per variable, initialized to the variable's initial
    value (zeros for a tensor), and returns an op that updates every average:

        shadow_variable -= (1 - decay) * (shadow_variable - variable)

    With `num_updates`, the decay is `min(decay, (1 + num_updates) / (10 + num_updates))`.
    `average(var)` gives the shadow variable, and `variables_to_restore()` maps the shadow variables'
    names to the variables, to restore a model with its averaged weights:

        ema = tf.train.ExponentialMovingAverage(decay=0.999)
        with tf.control_dependencies([opt_op]):
            training_op = ema.apply([w, b])
        ...
        saver = tf.train.Saver(ema.variables_to_restore())

    Args:
      decay: The decay (a float, usually close to 1: 0.999, 0.9999).
      num_updates: Optional count of updates (e.g. the global step) to make the decay smaller early.
      zero_debias: Debias the averages of tensors (not of variables; see `assign_moving_average`).
      name: The name of the averages' ops and the suffix of the shadow variables' names.
    """

    def __init__(self, decay, num_updates=None, zero_debias=False, name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}

    @property
    def name(self):
        """The name of this ExponentialMovingAverage object."""
        return self._name

    def _create_slot(self, var):
        """The shadow variable "<var's op name>/<name>" of `var`: its initial value for a variable,
        zeros for a tensor."""
        prefix = var.op.name
        if isinstance(var, Variable):
            val = var.initialized_value()   # outside the slot's scope, as TF's apply
            with variable_scope(None, default_name=prefix + "/" + self._name, auxiliary_name_scope=False):
                return get_variable("", initializer=val, trainable=False,
                                    validate_shape=val.get_shape().is_fully_defined())
        shape = var.get_shape()
        if shape.is_fully_defined():
            with variable_scope(None, default_name=prefix + "/" + self._name, auxiliary_name_scope=False):
                return get_variable("", initializer=init_ops.zeros_initializer(), shape=shape,
                                    dtype=var.dtype.base_dtype, trainable=False)
        val = core_ops.zeros_like(var)
        with variable_scope(None, default_name=prefix + "/" + self._name, auxiliary_name_scope=False):
            return get_variable("", initializer=val, trainable=False, validate_shape=False)

    def apply(self, var_list=None):
        """Maintains moving averages of variables: creates the shadow variables of those in `var_list`
        that have none yet and returns the op that updates all their averages.

        Args:
          var_list: Variables or tensors (float16, float32 or float64): any iterable of them
            (default: the trainable variables).

        Returns:
          An op (named after this object) that updates all the moving averages.

        Raises:
          TypeError: If a variable or tensor is not a float, or is an eager tensor.
        """
        if var_list is None:
            var_list = trainable_variables()
        var_list = list(var_list)
        for v in var_list:
            if isinstance(v, EagerTensor) and not isinstance(v, Variable):
                raise TypeError("tf.train.ExponentialMovingAverage does not support non-Variable tensors when eager "
                                "execution is enabled.")
        zero_debias_true = set()
        for var in var_list:
            if var.dtype.base_dtype not in _FLOAT_DTYPES:
                raise TypeError("The variables must be half, float, or double: %s" % var.name)
            if id(var) not in self._averages:
                with init_scope():
                    avg = self._create_slot(var)
                    if isinstance(var, Variable):
                        ops.add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                    elif self._zero_debias:
                        zero_debias_true.add(id(avg))
                self._averages[id(var)] = (var, avg)
        with ops.name_scope(self._name) as scope:
            decay = ops.convert_to_tensor(self._decay, name="decay")
            if self._num_updates is not None:
                num_updates = math_ops.cast(self._num_updates, dtypes.float32, name="num_updates")
                decay = math_ops.minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[id(var)][1]
                updates.append(assign_moving_average(avg, var, decay, id(avg) in zero_debias_true))
            return core_ops.group(*updates, name=scope)

    def average(self, var):
        """The shadow variable of `var`, or None if `apply` has not been called for it."""
        entry = self._averages.get(id(var))
        return entry[1] if entry is not None and entry[0] is var else None

    def average_name(self, var):
        """The name of the shadow variable of `var` (the name it will get if `apply` has not created it
        yet): "<var's op name>/<name>". Use it to restore averages with a `Saver`.

        Args:
          var: A `Variable` object.

        Returns:
          A string: the name of the variable that will be (or was) used for the average of `var`.
        """
        avg = self.average(var)
        if avg is not None:
            return avg.op.name
        return ops.get_default_graph().unique_name(var.op.name + "/" + self._name, mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """A map of names to variables for a `Saver` that restores the moving averages into the
        variables: the averaged variables under their averages' names, every other global variable
        under its own name.

        Args:
          moving_avg_variables: The variables whose averages to restore (default: the trainable
            variables and the MOVING_AVERAGE_VARIABLES collection).

        Returns:
          A dict from checkpoint names to variables.
        """
        name_map = {}
        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables()
            moving_avg_variables += moving_average_variables()
        moving_avg_variables = list({id(v): v for v in moving_avg_variables}.values())
        for v in moving_avg_variables:
            name_map[self.average_name(v)] = v
        names = {v.name for v in moving_avg_variables}
        for v in global_variables():
            if v.name not in names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
