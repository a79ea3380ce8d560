"""`Model`: a `Network` with Keras 2 training (compile / fit / evaluate / predict) over NumPy data."""

import numpy as np

from .. import _tf as tf
from .. import backend as K
from .network import Network

_NOT_COMPILED = "You must compile your model before training/testing. Use `model.compile(optimizer, loss)`."


class TFOptimizer:
    """Wraps a `tf.train.Optimizer` so that Keras can use it.

    Args:
      optimizer: A `tf.train.Optimizer`.
    """

    def __init__(self, optimizer, iterations=None):
        self.optimizer = optimizer
        with tf.name_scope(type(self).__name__):
            self.iterations = iterations if iterations is not None else \
                K.variable(0, dtype="int64", name="iterations")
        self.updates = []
        self.weights = []

    def get_updates(self, loss, params):
        """Returns `[apply_gradients op]` for `loss` with respect to `params`."""
        grads = self.optimizer.compute_gradients(loss, params)
        self.updates = [self.optimizer.apply_gradients(grads, global_step=self.iterations)]
        return self.updates

    def get_config(self):
        """Raises NotImplementedError: TF optimizers cannot be serialized."""
        raise NotImplementedError


def _get_optimizer(identifier):
    if isinstance(identifier, tf.train.Optimizer):
        return TFOptimizer(identifier)
    from .. import optimizers
    return optimizers.get(identifier)


def _fn_name(fn):
    name = getattr(fn, "__name__", None) or type(fn).__name__
    return name


def _binary_accuracy(y_true, y_pred):
    return K.mean(tf.cast(tf.equal(y_true, tf.round(y_pred)), K.floatx()), axis=-1)


def _categorical_accuracy(y_true, y_pred):
    return tf.cast(tf.equal(tf.argmax(y_true, -1), tf.argmax(y_pred, -1)), K.floatx())


def _sparse_categorical_accuracy(y_true, y_pred):
    if K.ndim(y_true) == K.ndim(y_pred):
        y_true = tf.squeeze(y_true, [-1])
    pred = tf.cast(tf.argmax(y_pred, -1), K.floatx())
    return tf.cast(tf.equal(tf.cast(y_true, K.floatx()), pred), K.floatx())


def _is_sparse_loss(fn, identifier):
    return identifier in ("sparse_categorical_crossentropy",) or \
        _fn_name(fn) == "sparse_categorical_crossentropy"


def _to_list(x):
    if x is None:
        return []
    if isinstance(x, (list, tuple)):
        return list(x)
    return [x]


def _slice(arrays, index):
    return [None if a is None else a[index] for a in arrays]


def _batches(size, batch_size):
    num_batches = int(np.ceil(size / float(batch_size)))
    return [(i * batch_size, min(size, (i + 1) * batch_size)) for i in range(num_batches)]


class Model(Network):
    """A network with training: `Model(inputs, outputs)`, or a subclass defining `call`.

    Args:
      inputs: Keras input tensor(s).
      outputs: Keras output tensor(s).
      name: Optional name.
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.optimizer = None
        self._compiled = False
        self.stop_training = False
        self.history = None
        self.train_function = self.test_function = self.predict_function = None
        self.metrics_names = ["loss"]

    # ---- compile --------------------------------------------------------------------------------
    def compile(self, optimizer, loss=None, metrics=None, loss_weights=None, sample_weight_mode=None,
                weighted_metrics=None, target_tensors=None, **kwargs):
        """Configures the model for training.

        Args:
          optimizer: An optimizer name, a Keras optimizer or a `tf.train.Optimizer`.
          loss: A loss name or function, or a list / dict (by output name) of them.
          metrics: Metric names/functions, or a list of lists / dict by output name.
          loss_weights: A list or dict of scalars weighting each output's loss.
          sample_weight_mode: None (per-sample weights) or 'temporal' (per-timestep), or a list/dict.
          weighted_metrics: Metrics also weighted by the sample weights.
          target_tensors: Unsupported (must be None).

        Raises:
          ValueError: For a bad `loss`, `loss_weights` or an unknown output name.
        """
        for key in kwargs:
            raise TypeError("Invalid keyword argument(s) in `compile`: %s" % (key,))
        if target_tensors is not None:
            raise ValueError("`target_tensors` is not supported.")
        self.optimizer = _get_optimizer(optimizer)
        self.loss = loss
        self._compile_metrics = metrics
        self._compile_weighted_metrics = weighted_metrics
        self.loss_weights = loss_weights
        self.sample_weight_mode = sample_weight_mode
        self._compiled = True
        self.train_function = self.test_function = self.predict_function = None
        if self._is_graph_network:
            self._compile_graph()

    def _per_output(self, value, what, default=None):
        n = len(self.outputs)
        if isinstance(value, dict):
            for key in value:
                if key not in self.output_names:
                    raise ValueError("Unknown entry in " + what + " dictionary: \"" + key + "\". Only expected the "
                                     "following keys: " + str(self.output_names))
            return [value.get(name, default) for name in self.output_names]
        if isinstance(value, (list, tuple)) and what != "metrics":
            if len(value) != n:
                raise ValueError("When passing a list as " + what + ", it should have one entry per model "
                                 "outputs. The model has " + str(n) + " outputs, but you passed " + what + "=" +
                                 str(value))
            return list(value)
        return [value] * n

    def _compile_graph(self):
        from .. import losses as losses_module
        if self.loss is None:
            raise ValueError("The model cannot be compiled because it has no loss to optimize.")
        n = len(self.outputs)
        loss_ids = self._per_output(self.loss, "loss")
        if any(l is None for l in loss_ids):
            raise ValueError("Output(s) without a loss are not supported.")
        self.loss_functions = [losses_module.get(l) for l in loss_ids]
        weights = self._per_output(self.loss_weights, "loss_weights", 1.0) if self.loss_weights is not None \
            else [1.0] * n
        modes = self._per_output(self.sample_weight_mode, "sample_weight_mode")
        self._sparse_targets = [_is_sparse_loss(fn, ident) for fn, ident in zip(self.loss_functions, loss_ids)]
        metrics = self._compile_metrics
        if isinstance(metrics, dict):
            metrics = self._per_output(metrics, "metrics", [])
        elif metrics and isinstance(metrics, (list, tuple)) and isinstance(metrics[0], (list, tuple)):
            metrics = list(metrics)
        else:
            metrics = [list(metrics or [])] * n
        metrics = [_to_list(m) for m in metrics]
        weighted = self._compile_weighted_metrics
        weighted = [list(weighted or [])] * n if not isinstance(weighted, dict) else \
            [_to_list(x) for x in self._per_output(weighted, "weighted_metrics", [])]

        self.targets, self.sample_weights, self._output_losses = [], [], []
        metric_names, metric_tensors = [], []
        with tf.name_scope("training"):
            total = None
            for i, (y_pred, fn, w, mode) in enumerate(zip(self.outputs, self.loss_functions, weights, modes)):
                name = self.output_names[i]
                rank = K.ndim(y_pred)
                y_true = tf.placeholder(y_pred.dtype.base_dtype, shape=(None,) * rank, name=name + "_target")
                sw_shape = (None, None) if mode == "temporal" else (None,)
                sw = tf.placeholder(K.floatx(), shape=sw_shape, name=name + "_sample_weights")
                self.targets.append(y_true)
                self.sample_weights.append(sw)
                with tf.name_scope(name + "_loss"):
                    per_sample = fn(y_true, y_pred)
                    extra = K.ndim(per_sample) - len(sw_shape)
                    if extra and extra > 0:
                        per_sample = tf.reduce_mean(per_sample, axis=list(range(len(sw_shape), K.ndim(per_sample))))
                    output_loss = tf.reduce_mean(per_sample * sw)
                self._output_losses.append(output_loss)
                term = output_loss if w == 1.0 else output_loss * tf.constant(w, output_loss.dtype.base_dtype)
                total = term if total is None else total + term
                prefix = "" if n == 1 else name + "_"
                for m, is_weighted in [(m, False) for m in metrics[i]] + [(m, True) for m in weighted[i]]:
                    metric_fn, metric_name = self._resolve_metric(m, fn, loss_ids[i], y_pred)
                    full_name = prefix + ("weighted_" if is_weighted else "") + metric_name
                    if full_name in metric_names:
                        continue
                    with tf.name_scope(prefix + metric_name):
                        values = metric_fn(y_true, y_pred)
                        if is_weighted:
                            if K.ndim(values) > len(sw_shape):
                                values = tf.reduce_mean(values, axis=-1)
                            value = tf.reduce_sum(values * sw) / tf.maximum(tf.reduce_sum(sw), K.epsilon())
                        else:
                            value = tf.reduce_mean(tf.cast(values, K.floatx()))
                    metric_names.append(full_name)
                    metric_tensors.append(value)
            extra_losses = self.losses
            if extra_losses:
                total = total + tf.add_n([tf.cast(l, total.dtype.base_dtype) for l in extra_losses])
        self.total_loss = total
        # As Keras: the weights trained are those trainable at compile time.
        self._collected_trainable_weights = self.trainable_weights
        self.metrics_names = ["loss"] + ([name + "_loss" for name in self.output_names] if n > 1 else []) + \
            metric_names
        self._metric_tensors = metric_tensors
        self._graph_compiled = True

    def _resolve_metric(self, metric, loss_fn, loss_id, y_pred):
        if metric in ("accuracy", "acc"):
            shape = K.int_shape(y_pred)
            if _fn_name(loss_fn) == "binary_crossentropy" or (shape and shape[-1] == 1):
                return _binary_accuracy, "acc"
            if _is_sparse_loss(loss_fn, loss_id):
                return _sparse_categorical_accuracy, "acc"
            return _categorical_accuracy, "acc"
        if metric in ("crossentropy", "ce"):
            from .. import losses as losses_module
            shape = K.int_shape(y_pred)
            if _fn_name(loss_fn) == "binary_crossentropy" or (shape and shape[-1] == 1):
                return losses_module.get("binary_crossentropy"), "ce"
            if _is_sparse_loss(loss_fn, loss_id):
                return losses_module.get("sparse_categorical_crossentropy"), "ce"
            return losses_module.get("categorical_crossentropy"), "ce"
        from .. import metrics as metrics_module
        fn = metrics_module.get(metric)
        return fn, _fn_name(fn)

    # ---- subclassed models: build the graph from the first data --------------------------------
    def _build_from_data(self, x):
        arrays = _to_list(x) if not isinstance(x, dict) else [x[k] for k in sorted(x)]
        inputs = []
        for i, a in enumerate(arrays):
            a = np.asarray(a)
            inputs.append(tf.placeholder(K.floatx(), shape=(None,) + a.shape[1:], name="input_%d" % (i + 1)))
        outputs = self(inputs if len(inputs) > 1 else inputs[0])
        self.inputs = inputs
        self.outputs = _to_list(outputs)
        self._nested_outputs = outputs
        self.input_names = ["input_%d" % (i + 1) for i in range(len(inputs))]
        self.output_names = ["output_%d" % (i + 1) for i in range(len(self.outputs))]
        self.built = True
        if self._compiled:
            self._compile_graph()

    def _ensure_graph(self, x):
        if not self.inputs:
            if self._is_graph_network:
                raise ValueError("The model has no inputs.")
            self._build_from_data(x)

    # ---- data --------------------------------------------------------------------------------
    def _standardize_arrays(self, data, names, shapes, what, check_shapes=None):
        if data is None:
            return [None] * len(names)
        if isinstance(data, dict):
            for key in data:
                if key not in names:
                    raise ValueError("No data provided for \"" + key + "\". Need data for each key in: " +
                                     str(names))
            missing = [n for n in names if n not in data]
            if missing:
                raise ValueError("No data provided for \"" + missing[0] + "\". Need data for each key in: " +
                                 str(names))
            arrays = [data[n] for n in names]
        elif isinstance(data, (list, tuple)):
            arrays = list(data)
            if len(arrays) != len(names):
                raise ValueError("Error when checking model " + what + ": the list of Numpy arrays that you are "
                                 "passing to your model is not the size the model expected. Expected to see " +
                                 str(len(names)) + " array(s), but instead got the following list of " +
                                 str(len(arrays)) + " arrays: " + str(arrays)[:200] + "...")
        else:
            if len(names) != 1:
                raise ValueError("Error when checking model " + what + ": the list of Numpy arrays that you are "
                                 "passing to your model is not the size the model expected. Expected to see " +
                                 str(len(names)) + " array(s), but instead got the following list of 1 arrays: " +
                                 str(data)[:200] + "...")
            arrays = [data]
        out = []
        for i, (a, name, shape) in enumerate(zip(arrays, names, shapes)):
            a = np.asarray(a)
            if shape is not None and a.ndim == 1 and len(shape) == 2:
                a = np.expand_dims(a, 1)
            if shape is not None and (check_shapes is None or check_shapes[i]):
                if a.ndim != len(shape):
                    raise ValueError("Error when checking " + what + ": expected " + name + " to have " +
                                     str(len(shape)) + " dimensions, but got array with shape " + str(a.shape))
                for dim, ref in zip(a.shape[1:], shape[1:]):
                    if ref is not None and dim != ref:
                        raise ValueError("Error when checking " + what + ": expected " + name + " to have shape " +
                                         str(tuple(shape[1:])) + " but got array with shape " + str(a.shape[1:]))
            out.append(a)
        return out

    def _standardize_user_data(self, x, y=None, sample_weight=None, class_weight=None):
        self._ensure_graph(x)
        if y is not None and not getattr(self, "_graph_compiled", False):
            if not self._compiled:
                raise RuntimeError(_NOT_COMPILED)
            self._compile_graph()
        xs = self._standardize_arrays(x, self.input_names, [K.int_shape(t) for t in self.inputs], "input")
        if y is None:
            return xs, None, None
        ys = self._standardize_arrays(y, self.output_names, [K.int_shape(t) for t in self.outputs], "target",
                                      [not s for s in self._sparse_targets])
        lengths = {len(a) for a in xs}
        if len(lengths) > 1:
            raise ValueError("All input arrays (x) should have the same number of samples. Got array shapes: " +
                             str([a.shape for a in xs]))
        target_lengths = {len(a) for a in ys}
        if len(target_lengths) > 1:
            raise ValueError("All target arrays (y) should have the same number of samples. Got array shapes: " +
                             str([a.shape for a in ys]))
        if lengths != target_lengths:
            raise ValueError("Input arrays should have the same number of samples as target arrays. Found " +
                             str(list(lengths)[0]) + " input samples and " + str(list(target_lengths)[0]) +
                             " target samples.")
        if isinstance(sample_weight, dict):
            sws = [sample_weight.get(n) for n in self.output_names]
        elif isinstance(sample_weight, (list, tuple)):
            sws = list(sample_weight)
        else:
            sws = [sample_weight] * len(ys)
        class_weights = [class_weight.get(n) for n in self.output_names] if isinstance(class_weight, dict) and \
            any(n in class_weight for n in self.output_names) else [class_weight] * len(ys)
        out_sws = []
        for sw, cw, yv, sw_ph in zip(sws, class_weights, ys, self.sample_weights):
            if sw is not None:
                sw = np.asarray(sw, dtype=K.floatx())
                if sw.ndim > len(sw_ph.shape):
                    sw = sw.reshape(sw.shape[:len(sw_ph.shape)])
                if len(sw) != len(yv):
                    raise ValueError("Found a sample_weight array with shape " + str(sw.shape) + " for an input "
                                     "with shape " + str(yv.shape) + ". sample_weight cannot be broadcast.")
            elif cw:
                classes = np.argmax(yv, axis=1) if yv.ndim == 2 and yv.shape[1] > 1 else \
                    yv.reshape(len(yv), -1)[:, 0].astype("int64")
                missing = set(classes.tolist()) - set(cw)
                if missing:
                    raise ValueError("`class_weight` must contain all classes in the data. The classes %s exist "
                                     "in the data but not in `class_weight`." % missing)
                sw = np.asarray([cw[c] for c in classes], dtype=K.floatx())
            else:
                shape = (len(yv),) if len(sw_ph.shape) == 1 else yv.shape[:2]
                sw = np.ones(shape, dtype=K.floatx())
            out_sws.append(sw)
        return xs, ys, out_sws

    # ---- functions -----------------------------------------------------------------------------
    def _phase_inputs(self, value):
        phase = K.learning_phase()
        if isinstance(phase, int):
            return [], []
        return [phase], [value]

    def _make_train_function(self):
        if self.train_function is None:
            phase, _ = self._phase_inputs(1)
            with tf.name_scope("training"):
                with tf.name_scope(type(self.optimizer).__name__):
                    updates = self.optimizer.get_updates(loss=self.total_loss, params=self._collected_trainable_weights)
                updates = list(updates) + list(self.updates)
            outputs = [self.total_loss] + (self._output_losses if len(self.outputs) > 1 else []) + \
                self._metric_tensors
            self.train_function = K.function(self.inputs + self.targets + self.sample_weights + phase, outputs,
                                             updates=updates)

    def _make_test_function(self):
        if self.test_function is None:
            phase, _ = self._phase_inputs(0)
            outputs = [self.total_loss] + (self._output_losses if len(self.outputs) > 1 else []) + \
                self._metric_tensors
            self.test_function = K.function(self.inputs + self.targets + self.sample_weights + phase, outputs)

    def _make_predict_function(self):
        if self.predict_function is None:
            phase, _ = self._phase_inputs(0)
            self.predict_function = K.function(self.inputs + phase, self.outputs)

    # ---- batch methods --------------------------------------------------------------------------
    def _check_compiled(self):
        if not self._compiled:
            raise RuntimeError(_NOT_COMPILED)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None, reset_metrics=True):
        """Runs one gradient update on a single batch.

        Args:
          x: Input array(s) (array, list, or dict by input name).
          y: Target array(s).
          sample_weight: Optional per-sample weights.
          class_weight: Optional dict class -> weight.
          reset_metrics: Must be True: the metrics returned are those of this batch.

        Returns:
          The scalar loss, or `[loss, ...metrics]` when the model has metrics or several outputs.

        Raises:
          RuntimeError: If the model is not compiled.
          ValueError: If `reset_metrics` is False (metrics accumulated over batches are not supported).
        """
        self._check_compiled()
        if not reset_metrics:
            raise ValueError("reset_metrics=False is not supported.")
        xs, ys, sws = self._standardize_user_data(x, y, sample_weight, class_weight)
        self._make_train_function()
        outs = self.train_function(xs + ys + sws + self._phase_inputs(1)[1])
        outs = [np.float32(o) if np.ndim(o) == 0 else o for o in outs]
        return outs[0] if len(outs) == 1 else outs

    def test_on_batch(self, x, y=None, sample_weight=None, reset_metrics=True):
        """Returns the loss (and metrics) on a single batch, without updating weights.

        Raises:
          RuntimeError: If the model is not compiled.
          ValueError: If `reset_metrics` is False.
        """
        self._check_compiled()
        if not reset_metrics:
            raise ValueError("reset_metrics=False is not supported.")
        xs, ys, sws = self._standardize_user_data(x, y, sample_weight)
        self._make_test_function()
        outs = self.test_function(xs + ys + sws + self._phase_inputs(0)[1])
        return outs[0] if len(outs) == 1 else outs

    def predict_on_batch(self, x):
        """Returns the predictions for a single batch (an array, or a list for several outputs)."""
        xs, _, _ = self._standardize_user_data(x)
        self._make_predict_function()
        outs = self.predict_function(xs + self._phase_inputs(0)[1])
        return outs[0] if len(outs) == 1 else outs

    # ---- loops -------------------------------------------------------------------------------
    def _test_loop(self, ins, batch_size, verbose=0, steps=None):
        self._make_test_function()
        phase = self._phase_inputs(0)[1]
        n = len(ins[0])
        totals = None
        seen = 0
        progbar = None
        if verbose == 1:
            from ..utils.generic_utils import Progbar
            progbar = Progbar(target=steps if steps else n, unit_name="step" if steps else "sample")
        spans = [(0, n)] * steps if steps else _batches(n, batch_size)
        for step, (start, end) in enumerate(spans):
            outs = self.test_function(_slice(ins, slice(start, end)) + phase)
            size = 1 if steps else end - start
            if totals is None:
                totals = [0.0] * len(outs)
            for i, o in enumerate(outs):
                totals[i] += float(o) * size
            seen += size
            if progbar is not None:
                progbar.update(step + 1 if steps else end, list(zip(self.metrics_names, [float(o) for o in outs])))
        results = [t / seen for t in totals]
        return results[0] if len(results) == 1 else results

    def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None, steps=None):
        """Returns the loss (and metric) values on `x`, `y`, averaged over samples.

        Args:
          x, y: Input and target arrays.
          batch_size: Samples per batch (default 32).
          verbose: 0 or 1 (progress bar).
          sample_weight: Optional per-sample weights.
          steps: Optional number of steps (each on all of the data).

        Returns:
          A scalar loss, or `[loss, ...]` in the order of `model.metrics_names`.

        Raises:
          RuntimeError: If the model is not compiled.
        """
        self._check_compiled()
        xs, ys, sws = self._standardize_user_data(x, y, sample_weight)
        return self._test_loop(xs + ys + sws, batch_size or 32, verbose, steps)

    def predict(self, x, batch_size=None, verbose=0, steps=None):
        """Returns the model's outputs for `x`, computed in batches (learning phase 0).

        Args:
          x: Input array(s).
          batch_size: Samples per batch (default 32).
          verbose: Unused (no progress bar).
          steps: Optional number of steps (each on all of the data).

        Returns:
          An array, or a list of arrays for several outputs.
        """
        xs, _, _ = self._standardize_user_data(x)
        self._make_predict_function()
        phase = self._phase_inputs(0)[1]
        n = len(xs[0])
        results = None
        for start, end in ([(0, n)] * steps if steps else _batches(n, batch_size or 32)):
            outs = self.predict_function(_slice(xs, slice(start, end)) + phase)
            if results is None:
                results = [[] for _ in outs]
            for r, o in zip(results, outs):
                r.append(o)
        if results is None:
            results = [[np.zeros((0,) + tuple(K.int_shape(o)[1:]))] for o in self.outputs]
        results = [np.concatenate(r) for r in results]
        return results[0] if len(results) == 1 else results

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, **kwargs):
        """Trains the model for a number of epochs on NumPy data.

        Args:
          x: Input array(s): an array, a list, or a dict by input name.
          y: Target array(s).
          batch_size: Samples per gradient update (default 32).
          epochs: Index of the last epoch to train.
          verbose: 0 (silent), 1 (progress bar) or 2 (one line per epoch).
          callbacks: A list of `tf.keras.callbacks.Callback`.
          validation_split: Fraction of the data (taken from the end, before shuffling) held out.
          validation_data: `(x_val, y_val)` or `(x_val, y_val, val_sample_weights)`.
          shuffle: Whether to shuffle the training data before each epoch.
          class_weight: Optional dict class -> weight.
          sample_weight: Optional per-sample weights.
          initial_epoch: Epoch at which to start (for resuming).
          steps_per_epoch: Optional number of steps per epoch (each step on all of the data).
          validation_steps: With `steps_per_epoch`, the number of validation steps.

        Returns:
          A `History` object; `history.history` maps 'loss', metric names and their 'val_'
          counterparts to per-epoch values.

        Raises:
          RuntimeError: If the model is not compiled.
          ValueError: For inconsistent data.
        """
        from .. import callbacks as cbks
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self._check_compiled()
        batch_size = batch_size or 32
        xs, ys, sws = self._standardize_user_data(x, y, sample_weight, class_weight)
        val_ins = None
        if validation_data is not None:
            if len(validation_data) == 2:
                vx, vy = validation_data
                vsw = None
            elif len(validation_data) == 3:
                vx, vy, vsw = validation_data
            else:
                raise ValueError("When passing validation_data, it must contain 2 (x_val, y_val) or 3 (x_val, "
                                 "y_val, val_sample_weights) items, however it contains %d items" %
                                 len(validation_data))
            vxs, vys, vsws = self._standardize_user_data(vx, vy, vsw)
            val_ins = vxs + vys + vsws
        elif validation_split and 0.0 < validation_split < 1.0:
            split_at = int(len(xs[0]) * (1.0 - validation_split))
            val_ins = _slice(xs + ys + sws, slice(split_at, None))
            xs, ys, sws = _slice(xs, slice(0, split_at)), _slice(ys, slice(0, split_at)), \
                _slice(sws, slice(0, split_at))
        ins = xs + ys + sws
        self._make_train_function()
        if val_ins is not None:
            self._make_test_function()
        num_samples = len(ins[0])
        out_labels = list(self.metrics_names)
        callback_metrics = out_labels + (["val_" + n for n in out_labels] if val_ins is not None else [])
        self.history = cbks.History()
        callback_list = [cbks.BaseLogger()] + list(callbacks or []) + [self.history]
        if verbose:
            callback_list.append(cbks.ProgbarLogger(count_mode="steps" if steps_per_epoch else "samples"))
        callback_list = cbks.CallbackList(callback_list)
        callback_list.set_model(self)
        callback_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps_per_epoch,
                                  "samples": num_samples, "verbose": verbose, "do_validation": val_ins is not None,
                                  "metrics": callback_metrics})
        if verbose and val_ins is not None and not steps_per_epoch:
            print("Train on %d samples, validate on %d samples" % (num_samples, len(val_ins[0])))
        elif verbose and not steps_per_epoch:
            print("Train on %d samples" % num_samples)
        self.stop_training = False
        phase = self._phase_inputs(1)[1]
        callback_list.on_train_begin()
        for epoch in range(initial_epoch, epochs):
            callback_list.on_epoch_begin(epoch)
            epoch_logs = {}
            if steps_per_epoch:
                spans = [(None, None)] * steps_per_epoch
            else:
                index = np.arange(num_samples)
                if shuffle == "batch":
                    batch_starts = np.arange(0, num_samples, batch_size)
                    np.random.shuffle(batch_starts)
                    index = np.concatenate([index[s:s + batch_size] for s in batch_starts]) if num_samples else index
                elif shuffle:
                    np.random.shuffle(index)
                spans = _batches(num_samples, batch_size)
            totals, seen = {}, 0
            for batch_index, (start, end) in enumerate(spans):
                if start is None:
                    batch_ins, size = ins, 1
                else:
                    batch_ins = _slice(ins, index[start:end])
                    size = end - start
                batch_logs = {"batch": batch_index, "size": size}
                callback_list.on_batch_begin(batch_index, batch_logs)
                outs = self.train_function(batch_ins + phase)
                for label, o in zip(out_labels, outs):
                    batch_logs[label] = float(o)
                    totals[label] = totals.get(label, 0.0) + float(o) * size
                seen += size
                callback_list.on_batch_end(batch_index, batch_logs)
                if self.stop_training:
                    break
            for label in out_labels:
                if label in totals:
                    epoch_logs[label] = totals[label] / seen
            if val_ins is not None:
                val_outs = self._test_loop(val_ins, batch_size, 0, validation_steps if steps_per_epoch else None)
                for label, o in zip(out_labels, _to_list(val_outs)):
                    epoch_logs["val_" + label] = o
            callback_list.on_epoch_end(epoch, epoch_logs)
            if self.stop_training:
                break
        callback_list.on_train_end()
        return self.history
