"""tf.keras.optimizers: the Keras optimizers of TF 1.15 (OptimizerV2 update formulas).

Each optimizer builds its hyperparameters (`learning_rate`/`lr`, `decay`, ...) as non-trainable
variables on first use, so `tf.keras.backend.set_value(opt.lr, v)` works; `iterations` counts the
applied steps. `get_updates(loss, params)` returns the update ops (Keras), while `apply_gradients`
and `minimize` make the optimizers usable as `tf.train`-style optimizers in plain TF1 graphs.
"""

import numpy as np

from ..framework import dtypes, ops
from ..gradients.gradients_impl import gradients as _gradients
from ..ops import clip_ops, core_ops, math_ops, state_ops
from ..variables import Variable

__all__ = ["Adadelta", "Adagrad", "Adam", "Adamax", "Nadam", "Optimizer", "RMSprop", "SGD", "deserialize", "get",
           "serialize"]


def _session():
    try:
        from . import backend
        return backend.get_session()
    except (ImportError, AttributeError):
        sess = ops.get_default_session()
        if sess is None:
            raise ValueError("No default session is registered; run inside `with tf.Session():`")
        return sess


class Optimizer:
    """Base class of the Keras optimizers.

    Args:
      name: Name prefix of the optimizer's variables.
      **kwargs: `clipnorm` (clip each gradient's norm), `clipvalue` (clip each gradient's values),
        `lr` (legacy alias of `learning_rate`), `decay` (inverse-time learning-rate decay).

    Raises:
      TypeError: For an unexpected keyword argument.
      ValueError: For a negative `clipnorm`, `clipvalue` or `decay`.
    """

    _HYPER_ORDER = ()

    def __init__(self, name, **kwargs):
        allowed = {"clipnorm", "clipvalue", "lr", "decay"}
        for k in kwargs:
            if k not in allowed:
                raise TypeError("Unexpected keyword argument passed to optimizer: " + str(k))
            if k != "lr" and kwargs[k] is not None and kwargs[k] < 0:
                raise ValueError("Expected {} >= 0, received: {}".format(k, kwargs[k]))
        object.__setattr__(self, "_hyper", {})
        object.__setattr__(self, "_hyper_vars", {})
        self._name = name
        self._initial_decay = float(kwargs.pop("decay", 0.0))
        self.clipnorm = kwargs.pop("clipnorm", None)
        self.clipvalue = kwargs.pop("clipvalue", None)
        self._iterations = None
        self._slots = {}
        self._weights = []

    # -- hyperparameters ----------------------------------------------------------------------
    def _set_hyper(self, name, value):
        if name in self._hyper_vars:
            self._hyper_vars[name].load(value, _session())
        self._hyper[name] = value

    def _get_hyper(self, name, dtype=None):
        if name not in self._hyper_vars:
            value = self._hyper[name]
            if isinstance(value, Variable):
                var = value
            else:
                with ops.name_scope(self._name + "/"):
                    var = Variable(np.float32(value), trainable=False, name=name, dtype=dtypes.float32)
            self._hyper_vars[name] = var
        var = self._hyper_vars[name]
        if dtype is not None and dtypes.as_dtype(dtype).base_dtype != var.dtype.base_dtype:
            return math_ops.cast(var, dtype)
        return var

    def __getattr__(self, name):
        if name == "lr":
            name = "learning_rate"
        hyper = self.__dict__.get("_hyper", {})
        if name in hyper:
            return self._get_hyper(name)
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        if name == "lr":
            name = "learning_rate"
        if name in self.__dict__.get("_hyper", {}):
            self._set_hyper(name, value)
        else:
            object.__setattr__(self, name, value)

    @property
    def iterations(self):
        """The int64 step counter variable."""
        if self._iterations is None:
            with ops.name_scope(self._name + "/"):
                self._iterations = Variable(np.int64(0), trainable=False, name="iter", dtype=dtypes.int64)
            self._weights.insert(0, self._iterations)
        return self._iterations

    # -- slots -------------------------------------------------------------------------------------
    def add_slot(self, var, slot_name, initializer="zeros"):
        """Returns (creating it once) the slot variable `slot_name` for `var`."""
        key = (id(var), slot_name)
        if key not in self._slots:
            shape = var.shape.as_list()
            dtype = var.dtype.base_dtype
            if initializer == "zeros":
                init = np.zeros(shape, dtype.as_numpy_dtype)
            else:
                init = np.full(shape, initializer, dtype.as_numpy_dtype)
            base = var.op.name if var.op is not None else "var"
            slot = Variable(init, trainable=False, name=base + "/" + slot_name, dtype=dtype)
            self._slots[key] = slot
            self._weights.append(slot)
        return self._slots[key]

    def get_slot(self, var, slot_name):
        """Returns the slot variable `slot_name` of `var`."""
        return self._slots[(id(var), slot_name)]

    @property
    def weights(self):
        """The optimizer's variables: `iterations` then the slot variables in creation order."""
        self.iterations  # noqa: B018
        return list(self._weights)

    def variables(self):
        """Same as `weights`."""
        return self.weights

    def get_weights(self):
        """Returns the current values of `weights` as NumPy arrays."""
        return _session().run(self.weights)

    def set_weights(self, weights):
        """Sets `weights` from a list of NumPy arrays.

        Raises:
          ValueError: If the number of arrays or their shapes do not match.
        """
        params = self.weights
        if len(params) != len(weights):
            raise ValueError("You called `set_weights(weights)` on optimizer " + self._name + " with a weight list "
                             "of length " + str(len(weights)) + ", but the optimizer was expecting " +
                             str(len(params)) + " weights. Provided weights: " + str(weights)[:50] + "...")
        sess = _session()
        for p, w in zip(params, weights):
            if tuple(p.shape.as_list()) != tuple(np.shape(w)):
                raise ValueError("Optimizer weight shape " + str(tuple(p.shape.as_list())) + " not compatible "
                                 "with provided weight shape " + str(np.shape(w)))
            p.load(w, sess)

    # -- gradients and updates ---------------------------------------------------------------------
    def get_gradients(self, loss, params):
        """Returns the gradients of `loss` with respect to `params`, clipped per `clipnorm`/`clipvalue`.

        Raises:
          ValueError: If a parameter has no gradient.
        """
        params = list(params)
        grads = _gradients(loss, params)
        for g, p in zip(grads, params):
            if g is None:
                raise ValueError("Variable {} has `None` for gradient. Please make sure that all of your ops "
                                 "have a gradient defined (i.e. are differentiable). Common ops without "
                                 "gradient: K.argmax, K.round, K.eval.".format(p))
        return self._clip(grads)

    def _clip(self, grads):
        out = []
        for g in grads:
            if g is None:
                out.append(g)
                continue
            g = ops.convert_to_tensor(g)
            if self.clipnorm is not None:
                g = clip_ops.clip_by_norm(g, self.clipnorm)
            if self.clipvalue is not None:
                g = clip_ops.clip_by_value(g, -self.clipvalue, self.clipvalue)
            out.append(g)
        return out

    def get_updates(self, loss, params):
        """Returns `[apply_op]`: one op applying a step to `params` and incrementing `iterations`."""
        grads = self.get_gradients(loss, params)
        return [self.apply_gradients(list(zip(grads, params)))]

    def minimize(self, loss, var_list=None, grad_loss=None, name=None):
        """Adds ops that minimize `loss` over `var_list` (default: the trainable variables)."""
        if var_list is None:
            var_list = ops.get_collection(ops.GraphKeys.TRAINABLE_VARIABLES)
        if callable(var_list):
            var_list = var_list()
        var_list = list(var_list)
        grads = _gradients(loss, var_list, grad_ys=grad_loss)
        pairs = [(g, v) for g, v in zip(self._clip(grads), var_list) if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable: %s." % ([v.name for v in var_list],))
        return self.apply_gradients(pairs, name=name)

    def apply_gradients(self, grads_and_vars, name=None):
        """Applies `(gradient, variable)` pairs and increments `iterations`; returns the op."""
        pairs = [(ops.convert_to_tensor(g), v) for g, v in grads_and_vars if g is not None]
        if not pairs:
            raise ValueError("No gradients provided for any variable: %s." % ([v.name for _, v in grads_and_vars],))
        iterations = self.iterations
        with ops.name_scope(name or self._name):
            for _, v in pairs:
                self._create_slots(v)
            step = math_ops.cast(iterations, dtypes.float32)
            new_values = []
            extra = self._prepare(step)
            for g, v in pairs:
                new_values.extend(self._updates(g, v, step))
            new_values.extend(extra)
            tensors = [t for _, t in new_values]
            with ops.control_dependencies(tensors):
                assigns = [state_ops.assign(var, value) for var, value in new_values]
            with ops.control_dependencies(assigns):
                inc = state_ops.assign_add(iterations, np.int64(1))
            return core_ops.group(*(assigns + [inc]))

    def _decayed_lr(self, dtype, step):
        lr = self._get_hyper("learning_rate", dtype)
        if self._initial_decay > 0.:
            decay = math_ops.cast(self._get_hyper("decay"), dtype)
            lr = lr / (1. + decay * math_ops.cast(step, dtype))
        return lr

    def _create_slots(self, var):
        pass

    def _prepare(self, step):
        return []

    def _updates(self, grad, var, step):
        raise NotImplementedError

    # -- config --------------------------------------------------------------------------------
    def _serialize_hyperparameter(self, name):
        value = self._hyper[name]
        if isinstance(value, Variable) or name in self._hyper_vars:
            return float(_session().run(self._get_hyper(name)))
        return value

    def get_config(self):
        """Returns the optimizer's configuration (a dict)."""
        config = {"name": self._name}
        if self.clipnorm is not None:
            config["clipnorm"] = self.clipnorm
        if self.clipvalue is not None:
            config["clipvalue"] = self.clipvalue
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Creates an optimizer from `get_config`'s dict."""
        config = dict(config)
        if "lr" in config:
            config["learning_rate"] = config.pop("lr")
        return cls(**config)


def _f(x, dtype):
    return math_ops.cast(x, dtype)


class SGD(Optimizer):
    """Stochastic gradient descent with optional (Nesterov) momentum.

    Updates: `velocity = momentum * velocity - lr * g`; `w += velocity` (or, with Nesterov,
    `w += momentum * velocity - lr * g`); without momentum `w -= lr * g`.

    Args:
      learning_rate: Float >= 0 (alias `lr`).
      momentum: Float >= 0.
      nesterov: Whether to apply Nesterov momentum.
      name: Variable name prefix.
      **kwargs: `clipnorm`, `clipvalue`, `decay`.
    """

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        learning_rate = kwargs.pop("lr", learning_rate)
        super().__init__(name, **kwargs)
        self._hyper["learning_rate"] = learning_rate
        self._hyper["decay"] = self._initial_decay
        if isinstance(momentum, (int, float)) and (momentum < 0 or momentum > 1):
            raise ValueError("`momentum` must be between [0, 1].")
        self._momentum = not (isinstance(momentum, (int, float)) and momentum == 0)
        self._hyper["momentum"] = momentum
        self.nesterov = nesterov

    def _create_slots(self, var):
        if self._momentum:
            self.add_slot(var, "momentum")

    def _updates(self, grad, var, step):
        dtype = var.dtype.base_dtype
        lr = self._decayed_lr(dtype, step)
        if not self._momentum:
            return [(var, var - lr * grad)]
        momentum = self._get_hyper("momentum", dtype)
        accum = self.get_slot(var, "momentum")
        new_accum = accum * momentum - lr * grad
        if self.nesterov:
            return [(accum, new_accum), (var, var + new_accum * momentum - lr * grad)]
        return [(accum, new_accum), (var, var + new_accum)]

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._serialize_hyperparameter("decay"),
                       "momentum": self._serialize_hyperparameter("momentum"), "nesterov": self.nesterov})
        return config


class RMSprop(Optimizer):
    """RMSprop: `ms = rho * ms + (1 - rho) * g ** 2`; `w -= lr * g / (sqrt(ms) + epsilon)`.

    With `momentum > 0`: `mom = momentum * mom + lr * g / sqrt(ms + epsilon)`; `w -= mom`.
    With `centered`, `ms` is replaced by `ms - mg ** 2` (`mg` the moving average of `g`).

    Args:
      learning_rate: Float >= 0 (alias `lr`).
      rho: Discounting factor for the history of squared gradients.
      momentum: Float >= 0.
      epsilon: Small constant for numerical stability.
      centered: Whether to normalize by the estimated variance of the gradient.
      name: Variable name prefix.
      **kwargs: `clipnorm`, `clipvalue`, `decay`.
    """

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False, name="RMSprop",
                 **kwargs):
        learning_rate = kwargs.pop("lr", learning_rate)
        super().__init__(name, **kwargs)
        self._hyper["learning_rate"] = learning_rate
        self._hyper["decay"] = self._initial_decay
        self._hyper["rho"] = rho
        self._momentum = not (isinstance(momentum, (int, float)) and momentum == 0)
        self._hyper["momentum"] = momentum
        self.epsilon = epsilon if epsilon is not None else 1e-7
        self.centered = centered

    def _create_slots(self, var):
        self.add_slot(var, "rms")
        if self._momentum:
            self.add_slot(var, "momentum")
        if self.centered:
            self.add_slot(var, "mg")

    def _updates(self, grad, var, step):
        dtype = var.dtype.base_dtype
        lr = self._decayed_lr(dtype, step)
        rho = self._get_hyper("rho", dtype)
        eps = _f(self.epsilon, dtype)
        rms = self.get_slot(var, "rms")
        new_rms = rho * rms + (1. - rho) * math_ops.square(grad)
        out = [(rms, new_rms)]
        denom = new_rms
        if self.centered:
            mg = self.get_slot(var, "mg")
            new_mg = rho * mg + (1. - rho) * grad
            out.append((mg, new_mg))
            denom = new_rms - math_ops.square(new_mg)
        if self._momentum:
            mom = self.get_slot(var, "momentum")
            new_mom = self._get_hyper("momentum", dtype) * mom + lr * grad / math_ops.sqrt(denom + eps)
            out += [(mom, new_mom), (var, var - new_mom)]
        else:
            out.append((var, var - lr * grad / (math_ops.sqrt(denom) + eps)))
        return out

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._serialize_hyperparameter("decay"),
                       "rho": self._serialize_hyperparameter("rho"),
                       "momentum": self._serialize_hyperparameter("momentum"),
                       "epsilon": self.epsilon, "centered": self.centered})
        return config


class Adagrad(Optimizer):
    """Adagrad: `accum += g ** 2`; `w -= lr * g / (sqrt(accum) + epsilon)`.

    Args:
      learning_rate: Float >= 0 (alias `lr`).
      initial_accumulator_value: Starting value of the accumulators, >= 0.
      epsilon: Small constant for numerical stability.
      name: Variable name prefix.
      **kwargs: `clipnorm`, `clipvalue`, `decay`.

    Raises:
      ValueError: If `initial_accumulator_value` is negative.
    """

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, name="Adagrad", **kwargs):
        if initial_accumulator_value < 0.0:
            raise ValueError("initial_accumulator_value must be non-negative: %s" % initial_accumulator_value)
        learning_rate = kwargs.pop("lr", learning_rate)
        super().__init__(name, **kwargs)
        self._hyper["learning_rate"] = learning_rate
        self._hyper["decay"] = self._initial_decay
        self._initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon if epsilon is not None else 1e-7

    def _create_slots(self, var):
        self.add_slot(var, "accumulator", float(self._initial_accumulator_value))

    def _updates(self, grad, var, step):
        dtype = var.dtype.base_dtype
        lr = self._decayed_lr(dtype, step)
        acc = self.get_slot(var, "accumulator")
        new_acc = acc + math_ops.square(grad)
        return [(acc, new_acc), (var, var - lr * grad / (math_ops.sqrt(new_acc) + _f(self.epsilon, dtype)))]

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._serialize_hyperparameter("decay"),
                       "initial_accumulator_value": self._initial_accumulator_value, "epsilon": self.epsilon})
        return config


class Adadelta(Optimizer):
    """Adadelta (Zeiler, 2012).

    `accum = rho * accum + (1 - rho) * g ** 2`;
    `update = sqrt(accum_update + eps) / sqrt(accum + eps) * g`;
    `accum_update = rho * accum_update + (1 - rho) * update ** 2`; `w -= lr * update`.

    Args:
      learning_rate: Float >= 0 (alias `lr`).
      rho: Decay rate.
      epsilon: Small constant for numerical stability.
      name: Variable name prefix.
      **kwargs: `clipnorm`, `clipvalue`, `decay`.
    """

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, name="Adadelta", **kwargs):
        learning_rate = kwargs.pop("lr", learning_rate)
        super().__init__(name, **kwargs)
        self._hyper["learning_rate"] = learning_rate
        self._hyper["decay"] = self._initial_decay
        self._hyper["rho"] = rho
        self.epsilon = epsilon if epsilon is not None else 1e-7

    def _create_slots(self, var):
        self.add_slot(var, "accum_grad")
        self.add_slot(var, "accum_var")

    def _updates(self, grad, var, step):
        dtype = var.dtype.base_dtype
        lr = self._decayed_lr(dtype, step)
        rho = self._get_hyper("rho", dtype)
        eps = _f(self.epsilon, dtype)
        accum = self.get_slot(var, "accum_grad")
        accum_update = self.get_slot(var, "accum_var")
        new_accum = rho * accum + (1. - rho) * math_ops.square(grad)
        update = math_ops.sqrt(accum_update + eps) * math_ops.rsqrt(new_accum + eps) * grad
        new_accum_update = rho * accum_update + (1. - rho) * math_ops.square(update)
        return [(accum, new_accum), (accum_update, new_accum_update), (var, var - lr * update)]

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._serialize_hyperparameter("decay"),
                       "rho": self._serialize_hyperparameter("rho"), "epsilon": self.epsilon})
        return config


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2014), optionally AMSGrad.

    With `t = iterations + 1`: `lr_t = lr * sqrt(1 - beta_2 ** t) / (1 - beta_1 ** t)`;
    `m = beta_1 * m + (1 - beta_1) * g`; `v = beta_2 * v + (1 - beta_2) * g ** 2`;
    `w -= lr_t * m / (sqrt(v) + epsilon)` (`v` replaced by its running maximum with AMSGrad).

    Args:
      learning_rate: Float >= 0 (alias `lr`).
      beta_1: Exponential decay rate of the first moment estimates.
      beta_2: Exponential decay rate of the second moment estimates.
      epsilon: Small constant for numerical stability.
      amsgrad: Whether to apply AMSGrad.
      name: Variable name prefix.
      **kwargs: `clipnorm`, `clipvalue`, `decay`.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False, name="Adam",
                 **kwargs):
        learning_rate = kwargs.pop("lr", learning_rate)
        super().__init__(name, **kwargs)
        self._hyper["learning_rate"] = learning_rate
        self._hyper["decay"] = self._initial_decay
        self._hyper["beta_1"] = beta_1
        self._hyper["beta_2"] = beta_2
        self.epsilon = epsilon if epsilon is not None else 1e-7
        self.amsgrad = amsgrad

    def _create_slots(self, var):
        self.add_slot(var, "m")
        self.add_slot(var, "v")
        if self.amsgrad:
            self.add_slot(var, "vhat")

    def _updates(self, grad, var, step):
        dtype = var.dtype.base_dtype
        lr = self._decayed_lr(dtype, step)
        b1 = self._get_hyper("beta_1", dtype)
        b2 = self._get_hyper("beta_2", dtype)
        t = _f(step, dtype) + 1.
        lr_t = lr * math_ops.sqrt(1. - math_ops.pow(b2, t)) / (1. - math_ops.pow(b1, t))
        m = self.get_slot(var, "m")
        v = self.get_slot(var, "v")
        new_m = b1 * m + (1. - b1) * grad
        new_v = b2 * v + (1. - b2) * math_ops.square(grad)
        out = [(m, new_m), (v, new_v)]
        denom_v = new_v
        if self.amsgrad:
            vhat = self.get_slot(var, "vhat")
            denom_v = math_ops.maximum(vhat, new_v)
            out.append((vhat, denom_v))
        out.append((var, var - lr_t * new_m / (math_ops.sqrt(denom_v) + _f(self.epsilon, dtype))))
        return out

    def get_config(self):
        config = super().get_config()
        config.update({"learning_rate": self._serialize_hyperparameter("learning_rate"),
                       "decay": self._serialize_hyperparameter("decay"),
                       "beta_1": self._serialize_hyperparameter("beta_1"),
                       "beta_2": self._serialize_hyperparameter("beta_2"),
                       "epsilon": self.epsilon, "amsgrad": self.amsgrad})
        return config


class Adamax(Adam):
    """Adamax, the infinity-norm variant of Adam.

    `m = beta_1 * m + (1 - beta_1) * g`; `u = max(beta_2 * u, |g|)`;
    `w -= lr / (1 - beta_1 ** t) * m / (u + epsilon)` with `t = iterations + 1`.

    Args:
      learning_rate: Float >= 0 (alias `lr`).
      beta_1, beta_2: Exponential decay rates.
      epsilon: Small constant for numerical stability.
      name: Variable name prefix.
      **kwargs: `clipnorm`, `clipvalue`, `decay`.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Adamax", **kwargs):
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon, name=name,
                         **kwargs)

    def _updates(self, grad, var, step):
        dtype = var.dtype.base_dtype
        lr = self._decayed_lr(dtype, step)
        b1 = self._get_hyper("beta_1", dtype)
        b2 = self._get_hyper("beta_2", dtype)
        t = _f(step, dtype) + 1.
        m = self.get_slot(var, "m")
        v = self.get_slot(var, "v")
        new_m = b1 * m + (1. - b1) * grad
        new_v = math_ops.maximum(b2 * v, math_ops.abs(grad))
        new_var = var - lr / (1. - math_ops.pow(b1, t)) * new_m / (new_v + _f(self.epsilon, dtype))
        return [(m, new_m), (v, new_v), (var, new_var)]

    def get_config(self):
        config = super().get_config()
        config.pop("amsgrad")
        return config


class Nadam(Adam):
    """Nadam: Adam with Nesterov momentum and the momentum schedule of Dozat (2015).

    Args:
      learning_rate: Float >= 0 (alias `lr`).
      beta_1, beta_2: Exponential decay rates.
      epsilon: Small constant for numerical stability.
      name: Variable name prefix.
      **kwargs: `clipnorm`, `clipvalue`, `decay`.
    """

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, name="Nadam", **kwargs):
        kwargs["decay"] = kwargs.pop("schedule_decay", kwargs.get("decay", 0.004))
        super().__init__(learning_rate=learning_rate, beta_1=beta_1, beta_2=beta_2, epsilon=epsilon, name=name,
                         **kwargs)
        self._m_cache = None

    def _prepare(self, step):
        if self._m_cache is None:
            with ops.name_scope(self._name + "/"):
                self._m_cache = Variable(np.float32(1.0), trainable=False, name="momentum_cache",
                                         dtype=dtypes.float32)
            self._weights.append(self._m_cache)
        dtype = dtypes.float32
        b1 = self._get_hyper("beta_1", dtype)
        decay_base = 0.96
        local_step = step + 1.
        next_step = step + 2.
        self._mc_t = b1 * (1. - 0.5 * math_ops.pow(decay_base, 0.004 * local_step))
        self._mc_t1 = b1 * (1. - 0.5 * math_ops.pow(decay_base, 0.004 * next_step))
        self._m_sched_new = self._m_cache * self._mc_t
        self._m_sched_next = self._m_sched_new * self._mc_t1
        self._b2_pow = math_ops.pow(self._get_hyper("beta_2", dtype), local_step)
        return [(self._m_cache, self._m_sched_new)]

    def _decayed_lr(self, dtype, step):
        return self._get_hyper("learning_rate", dtype)

    def _updates(self, grad, var, step):
        dtype = var.dtype.base_dtype
        lr = self._decayed_lr(dtype, step)
        b1 = self._get_hyper("beta_1", dtype)
        b2 = self._get_hyper("beta_2", dtype)
        mc_t, mc_t1 = _f(self._mc_t, dtype), _f(self._mc_t1, dtype)
        m = self.get_slot(var, "m")
        v = self.get_slot(var, "v")
        g_prime = grad / (1. - _f(self._m_sched_new, dtype))
        new_m = b1 * m + (1. - b1) * grad
        m_prime = new_m / (1. - _f(self._m_sched_next, dtype))
        new_v = b2 * v + (1. - b2) * math_ops.square(grad)
        v_prime = new_v / (1. - _f(self._b2_pow, dtype))
        m_bar = (1. - mc_t) * g_prime + mc_t1 * m_prime
        new_var = var - lr * m_bar / (math_ops.sqrt(v_prime) + _f(self.epsilon, dtype))
        return [(m, new_m), (v, new_v), (var, new_var)]

    def get_config(self):
        config = super().get_config()
        config.pop("amsgrad")
        config.pop("decay", None)
        return config


sgd = SGD
rmsprop = RMSprop
adagrad = Adagrad
adadelta = Adadelta
adam = Adam
adamax = Adamax
nadam = Nadam

_OBJECTS = {"sgd": SGD, "rmsprop": RMSprop, "adagrad": Adagrad, "adadelta": Adadelta, "adam": Adam,
            "adamax": Adamax, "nadam": Nadam}


def serialize(optimizer):
    """Returns `{"class_name": ..., "config": ...}` for an optimizer."""
    return {"class_name": optimizer.__class__.__name__, "config": optimizer.get_config()}


def deserialize(config, custom_objects=None):
    """Builds an optimizer from `serialize`'s dict (class names are matched case-insensitively).

    Raises:
      ValueError: `Unknown optimizer: <name>` for an unknown class name.
    """
    name = config["class_name"]
    cls = (custom_objects or {}).get(name) or _OBJECTS.get(str(name).lower())
    if cls is None:
        raise ValueError("Unknown optimizer: " + str(name))
    return cls.from_config(dict(config.get("config", {})))


def get(identifier):
    """Returns an optimizer from an instance, a name ("adam", ...) or a config dict.

    Raises:
      ValueError: If `identifier` cannot be interpreted.
    """
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": str(identifier), "config": {}})
    if hasattr(identifier, "apply_gradients") and hasattr(identifier, "minimize"):
        return identifier
    raise ValueError("Could not interpret optimizer identifier: " + str(identifier))
