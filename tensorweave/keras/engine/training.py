"""`Model`: a `Network` with Keras 2 training (compile / fit / evaluate / predict, the `*_generator`
methods) over NumPy arrays, `tf.data` datasets, generators and `keras.utils.Sequence`."""

import collections
import collections.abc
import logging
import queue
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ...data.cardinality import INFINITE as _INFINITE
from ...data.cardinality import cardinality as _cardinality
from ...data.dataset_base import Dataset as _Dataset
from ...data.iterator_ops import Iterator as _Iterator
from ...framework import errors
from .. import _tf as tf
from .. import backend as K
from ..utils.data_utils import Sequence
from .base_layer import get_keras_mask
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
    if isinstance(identifier, TFOptimizer):
        return identifier
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


# ---- data sources: tf.data datasets and iterators, generators, `keras.utils.Sequence` -------------
def _is_source(x):
    """Whether `x` is data the loops read batch by batch (rather than NumPy arrays sliced in batches)."""
    return isinstance(x, (_Dataset, _Iterator, Sequence, collections.abc.Iterator))


def _check_source_arguments(x, y, sample_weight, validation_split):
    if isinstance(x, (_Dataset, _Iterator)):
        if y is not None:
            raise ValueError("You passed a dataset or dataset iterator (%s) as input `x` to your model. In that "
                             "case, you should not specify a target (`y`) argument, since the dataset or dataset "
                             "iterator generates both input data and target data. Received: %s" % (x, y))
        if sample_weight is not None:
            raise ValueError("`sample_weight` argument is not supported when input `x` is a dataset or a dataset "
                             "iterator. Instead, you can provide sample_weight as the third element of your "
                             "dataset, i.e. (inputs, targets, sample_weight). Received: x=%s, sample_weight=%s"
                             % (x, sample_weight))
        if validation_split:
            raise ValueError("`validation_split` argument is not supported when input `x` is a dataset or a "
                             "dataset iterator. Received: x=%s, validation_split=%f" % (x, validation_split))
        return
    if y is not None:
        raise ValueError("`y` argument is not supported when data is a generator or Sequence instance. Instead "
                         "pass targets as the second element of the generator.")
    if sample_weight is not None:
        raise ValueError("`sample_weight` argument is not supported when data is a generator or Sequence "
                         "instance. Instead pass sample weights as the third element of the generator.")
    if validation_split:
        raise ValueError("If your data is in the form of a Python generator, you cannot use `validation_split`.")


def _should_run_validation(validation_freq, epoch):
    if isinstance(validation_freq, int) and not isinstance(validation_freq, bool):
        if validation_freq < 1:
            raise ValueError("`validation_freq` can not be less than 1.")
        return (epoch + 1) % validation_freq == 0
    if not isinstance(validation_freq, collections.abc.Container):
        raise ValueError("`validation_freq` must be an Integer or `collections.abc.Container` (e.g. list, tuple, "
                         "etc.)")
    return epoch + 1 in validation_freq


def _unpack_element(element):
    """`(x, y, sample_weight)` from a generator output or dataset element, as Keras reads them."""
    if not isinstance(element, tuple):
        return element, None, None
    if len(element) not in (1, 2, 3):
        raise ValueError("Output of generator should be a tuple of 1 or 2 or 3 elements: (input,) or "
                         "(input, target) or (input, target, sample_weights). Received {}".format(element))
    return tuple(element) + (None,) * (3 - len(element))


class _DatasetFeed:
    """Reads the elements of a `tf.data` dataset (through one initializable iterator built once) or of
    a user's iterator, as NumPy values from the Keras session."""

    def __init__(self, data):
        session = K.get_session()
        self._session = session
        with session.graph.as_default():
            if isinstance(data, _Iterator):
                iterator, self._initializer = data, None
            else:
                iterator = data.make_initializable_iterator()
                self._initializer = iterator.initializer
            self._next = iterator.get_next()
        self._fresh = False

    def reset(self):
        """The next `get` starts from the dataset's first element (a user's iterator is left as is)."""
        self._fresh = False

    def get(self):
        """The next element, or None at the end of the data."""
        if not self._fresh and self._initializer is not None:
            self._session.run(self._initializer)
        self._fresh = True
        try:
            return self._session.run(self._next)
        except errors.OutOfRangeError:
            return None

    def end_pass(self):
        pass

    def stop(self):
        pass


class _SequenceFeed:
    """Reads the batches of a `keras.utils.Sequence` pass after pass, in order (shuffled per pass if
    `shuffle`), with `workers` threads computing up to `max_queue_size` batches ahead within the pass;
    `on_epoch_end` is called between passes, when no batch of the next pass has been computed."""

    def __init__(self, sequence, shuffle, workers, max_queue_size):
        self._sequence = sequence
        self._shuffle = shuffle
        self._ahead = max(1, int(max_queue_size))
        self._executor = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="keras_sequence") \
            if workers > 0 else None
        self._pending = collections.deque()
        self._order = None
        self._next = 0

    def _pass_complete(self):
        return self._order is not None and self._next == len(self._order) and not self._pending

    def end_pass(self):
        """Calls the sequence's `on_epoch_end` if the current pass has been read to its end."""
        if self._pass_complete():
            self._order = None
            self._sequence.on_epoch_end()

    def reset(self):
        """The next `get` starts a new pass (after `on_epoch_end` if the last pass was complete)."""
        self.end_pass()
        for future in self._pending:
            future.cancel()
        self._pending.clear()
        self._order = None

    def _fill(self):
        while len(self._pending) < self._ahead and self._next < len(self._order):
            self._pending.append(self._executor.submit(self._sequence.__getitem__, self._order[self._next]))
            self._next += 1

    def get(self):
        """The next batch (the sequence's data never ends: a new pass follows each pass)."""
        self.end_pass()
        if self._order is None:
            self._order = list(range(len(self._sequence)))
            if not self._order:
                raise ValueError("The `keras.utils.Sequence` %r has no batches (its `__len__` is 0)."
                                 % (self._sequence,))
            if self._shuffle:
                random.shuffle(self._order)
            self._next = 0
        if self._executor is None:
            index = self._order[self._next]
            self._next += 1
            return self._sequence[index]
        self._fill()
        future = self._pending.popleft()
        self._fill()
        return future.result()

    def stop(self):
        for future in self._pending:
            future.cancel()
        self._pending.clear()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None


_END = object()


class _GeneratorFeed:
    """Reads a Python generator (any iterator) on `workers` threads into a queue of `max_queue_size`
    items (with 0 workers, on the calling thread). `next` is called under a lock, so one generator may
    be read by several threads; the generator's exceptions are raised by `get`."""

    def __init__(self, generator, workers, max_queue_size):
        self._generator = generator
        self._done = False
        self._threads = []
        if workers > 0:
            self._queue = queue.Queue(maxsize=max(1, int(max_queue_size)))
            self._lock = threading.Lock()
            self._stop = threading.Event()
            self._exhausted = False
            self._ends = 0
            self._threads = [threading.Thread(target=self._run, name="keras_generator_%d" % i, daemon=True)
                             for i in range(workers)]
            for thread in self._threads:
                thread.start()

    def _put(self, item):
        while not self._stop.is_set():
            try:
                self._queue.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _run(self):
        error = None
        while not self._stop.is_set():
            with self._lock:
                if self._exhausted:
                    break
                try:
                    item = next(self._generator)
                except StopIteration:
                    self._exhausted = True
                    break
                except BaseException as e:  # handed to the consumer, which raises it
                    self._exhausted = True
                    error = e
                    break
            if not self._put(("item", item)):
                return
        # Each thread's last item marks its end: the data ends when every thread's end has been read,
        # so no item put by a slower thread is lost.
        self._put(("error", error) if error is not None else ("end", None))

    def reset(self):
        pass

    def end_pass(self):
        pass

    def get(self):
        """The next item, or None once the generator is exhausted."""
        if self._done:
            return None
        if not self._threads:
            try:
                return next(self._generator)
            except StopIteration:
                self._done = True
                return None
        while True:
            kind, value = self._queue.get()
            if kind == "item":
                return value
            if kind == "error":
                self._done = True
                raise value
            self._ends += 1
            if self._ends == len(self._threads):
                self._done = True
                return None

    def stop(self):
        """Ends the worker threads (each ends after its current `next`)."""
        if not self._threads:
            return
        self._stop.set()
        for thread in self._threads:
            while thread.is_alive():
                try:
                    while True:
                        self._queue.get_nowait()
                except queue.Empty:
                    pass
                thread.join(timeout=0.05)
        self._threads = []
        self._done = True


def _check_generator_like(data, method):
    if not _is_source(data):
        raise ValueError("`%s` expects a generator, a `keras.utils.Sequence` or a `tf.data` dataset or iterator; "
                         "got %s." % (method, type(data).__name__))


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
          target_tensors: Optional tensors used as the targets instead of placeholders (a tensor, a
            list with one per output, or a dict by output name): `model.total_loss` and the
            training ops then run without feeds (the sample weights default to ones). Arrays given
            to `fit` / `evaluate` as `y` are fed in their place.

        Raises:
          ValueError: For a bad `loss`, `loss_weights`, `target_tensors` or an unknown output name.
        """
        for key in kwargs:
            raise TypeError("Invalid keyword argument(s) in `compile`: %s" % (key,))
        self._target_tensors = target_tensors
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

        given_targets = getattr(self, "_target_tensors", None)
        if given_targets is not None:
            if not isinstance(given_targets, (list, tuple, dict)):
                given_targets = [given_targets]
            if isinstance(given_targets, dict):
                given_targets = self._per_output(given_targets, "target_tensors")
            elif len(given_targets) != n:
                raise ValueError("When passing a list as `target_tensors`, it should have one entry per model "
                                 "output. The model has %d outputs, but you passed target_tensors=%s"
                                 % (n, given_targets))
        self.targets, self.sample_weights, self._output_losses = [], [], []
        metric_names, metric_tensors = [], []
        with tf.name_scope("training"):
            total = None
            for i, (y_pred, fn, w, mode) in enumerate(zip(self.outputs, self.loss_functions, weights, modes)):
                name = self.output_names[i]
                rank = K.ndim(y_pred)
                sw_shape = (None, None) if mode == "temporal" else (None,)
                if given_targets is None or given_targets[i] is None:
                    y_true = tf.placeholder(y_pred.dtype.base_dtype, shape=(None,) * rank, name=name + "_target")
                    sw = tf.placeholder(K.floatx(), shape=sw_shape, name=name + "_sample_weights")
                else:
                    y_true = tf.convert_to_tensor(given_targets[i])
                    if not self._sparse_targets[i]:
                        if y_true.dtype.base_dtype != y_pred.dtype.base_dtype:
                            y_true = tf.cast(y_true, y_pred.dtype.base_dtype)
                        if K.ndim(y_true) == rank - 1:
                            y_true = tf.expand_dims(y_true, -1)
                    ones = tf.ones_like(y_pred[(slice(None),) * len(sw_shape) + (0,) * (rank - len(sw_shape))],
                                        dtype=K.floatx())
                    sw = tf.placeholder_with_default(ones, shape=sw_shape, name=name + "_sample_weights")
                self.targets.append(y_true)
                self.sample_weights.append(sw)
                with tf.name_scope(name + "_loss"):
                    per_sample = fn(y_true, y_pred)
                    # As TF 1.15: the output's Keras mask (e.g. `(batch, time)`) weights the loss.
                    mask = get_keras_mask(y_pred)
                    if mask is not None and K.ndim(mask) == K.ndim(per_sample):
                        per_sample = per_sample * tf.cast(mask, per_sample.dtype.base_dtype)
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

    def _standardize_user_data(self, x, y=None, sample_weight=None, class_weight=None, targets_required=False):
        if targets_required and y is None:
            raise ValueError("No target data (`y`) was given: training and evaluating on NumPy inputs need "
                             "targets (a dataset, generator or `Sequence` gives them with the inputs).")
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
            # As TF 1.15: a stateful layer (an RNN with stateful=True) carries its state across
            # evaluate and predict batches too.
            self.test_function = K.function(self.inputs + self.targets + self.sample_weights + phase, outputs,
                                            updates=self.state_updates)

    def _make_predict_function(self):
        if self.predict_function is None:
            phase, _ = self._phase_inputs(0)
            self.predict_function = K.function(self.inputs + phase, self.outputs, updates=self.state_updates)

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
        xs, ys, sws = self._standardize_user_data(x, y, sample_weight, class_weight, targets_required=True)
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
        xs, ys, sws = self._standardize_user_data(x, y, sample_weight, targets_required=True)
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
    def _open_feed(self, data, steps, steps_name, epochs=1, shuffle=False, workers=1, max_queue_size=10):
        """A feed reading `data` and the number of steps per pass (None: until the data ends)."""
        if isinstance(data, _Dataset):
            with K.get_session().graph.as_default():
                size = int(K.get_session().run(_cardinality(data)))
            if steps is None:
                if size == _INFINITE:
                    raise ValueError("When passing an infinitely repeating dataset, you must specify the `%s` "
                                     "argument." % (steps_name,))
                steps = size if size >= 0 else None
            elif size >= 0 and steps * epochs > size:
                if epochs > 1:
                    raise ValueError("The dataset you passed contains %s batches, but you passed `epochs=%s` and "
                                     "`%s=%s`, which is a total of %s steps. We cannot draw that many steps from "
                                     "this dataset. We suggest to set `%s=%s`." % (
                                         size, epochs, steps_name, steps, steps * epochs, steps_name,
                                         size // epochs))
                raise ValueError("The dataset you passed contains %s batches, but you passed `%s=%s`. We cannot "
                                 "draw that many steps from this dataset. We suggest to set `%s=%s`."
                                 % (size, steps_name, steps, steps_name, size))
            return _DatasetFeed(data), steps
        if isinstance(data, _Iterator):
            if steps is None:
                raise ValueError("When using a Dataset iterator as input to a model, you should specify the `%s` "
                                 "argument." % (steps_name,))
            return _DatasetFeed(data), steps
        if isinstance(data, Sequence):
            if not len(data):
                raise ValueError("The `keras.utils.Sequence` %r has no batches (its `__len__` is 0)." % (data,))
            return _SequenceFeed(data, shuffle, workers, max_queue_size), len(data) if steps is None else steps
        if steps is None:
            if steps_name == "validation_steps":
                raise ValueError("Please specify the `validation_steps` argument.")
            raise ValueError("Please specify the number of steps via the `%s` argument." % (steps_name,))
        return _GeneratorFeed(data, workers, max_queue_size), steps

    def _feed_batches(self, feed, steps, mode, class_weight=None, steps_name="steps", total_steps=None):
        """Yields `(model inputs, batch size)` for `steps` batches of `feed` (all of it if None)."""
        step = 0
        while steps is None or step < steps:
            element = feed.get()
            if element is None:
                if steps is not None:
                    logging.warning("Your dataset ran out of data; interrupting training. Make sure that your "
                                    "dataset can generate at least `%s * epochs` batches (in this case, %d "
                                    "batches). You may need to use the repeat() function when building your "
                                    "dataset." % (steps_name, total_steps or steps))
                    if mode == "train":
                        self.stop_training = True
                return
            x, y, sample_weight = _unpack_element(element)
            if mode == "predict":
                xs, _, _ = self._standardize_user_data(x)
                yield xs, len(xs[0])
            else:
                if y is None:
                    raise ValueError("The data must give targets to %s the model: its elements should be "
                                     "`(inputs, targets)` or `(inputs, targets, sample_weights)`, got inputs only."
                                     % ("train" if mode == "train" else "evaluate"))
                xs, ys, sws = self._standardize_user_data(x, y, sample_weight, class_weight)
                yield xs + ys + sws, len(xs[0])
            step += 1

    def _aggregate_test(self, batches, verbose=0, steps=None):
        """Runs the test function on each batch; returns the sample-weighted averages."""
        phase = self._phase_inputs(0)[1]
        totals, seen, progbar = None, 0, None
        if verbose == 1:
            from ..utils.generic_utils import Progbar
            progbar = Progbar(target=steps, unit_name="step")
        for step, (ins, size) in enumerate(batches):
            self._make_test_function()  # here: a subclassed model is built by its first batch
            outs = self.test_function(ins + phase)
            if totals is None:
                totals = [0.0] * len(outs)
            for i, o in enumerate(outs):
                totals[i] += float(o) * size
            seen += size
            if progbar is not None:
                progbar.update(step + 1, list(zip(self.metrics_names, [float(o) for o in outs])))
        if totals is None:
            raise ValueError("The data gave no batch to evaluate the model on.")
        if progbar is not None and steps is None:
            progbar.target = step + 1
            progbar.update(step + 1)
        results = [t / seen for t in totals]
        return results[0] if len(results) == 1 else results

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

    def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None, steps=None, callbacks=None,
                 max_queue_size=10, workers=1, use_multiprocessing=False):
        """Returns the loss (and metric) values on the data, averaged over samples.

        Args:
          x: Input array(s), or a `tf.data` dataset / iterator, a generator or a `keras.utils.Sequence`
            giving `(inputs, targets)` or `(inputs, targets, sample_weights)` batches.
          y: Target array(s) (None when `x` gives the targets).
          batch_size: Samples per batch for arrays (default 32).
          verbose: 0 or 1 (progress bar).
          sample_weight: Optional per-sample weights for arrays.
          steps: Number of batches to read from a dataset or generator (default: all of a dataset or
            `Sequence`); for arrays, the number of steps each on all of the data.
          callbacks: Must be None (callbacks during evaluation are not supported).
          max_queue_size: Batches read ahead from a generator or `Sequence`.
          workers: Threads reading a generator or `Sequence` (0: the calling thread).
          use_multiprocessing: Accepted; the workers are threads.

        Returns:
          A scalar loss, or `[loss, ...]` in the order of `model.metrics_names`.

        Raises:
          RuntimeError: If the model is not compiled.
          ValueError: For inconsistent data, or a generator without `steps`.
          NotImplementedError: For `callbacks`.
        """
        self._check_compiled()
        if callbacks:
            raise NotImplementedError("Callbacks in `evaluate` are not supported.")
        if _is_source(x):
            _check_source_arguments(x, y, sample_weight, None)
            feed, steps = self._open_feed(x, steps, "steps", workers=workers, max_queue_size=max_queue_size)
            try:
                return self._aggregate_test(self._feed_batches(feed, steps, "test"), verbose, steps)
            finally:
                feed.stop()
        xs, ys, sws = self._standardize_user_data(x, y, sample_weight, targets_required=True)
        return self._test_loop(xs + ys + sws, batch_size or 32, verbose, steps)

    def predict(self, x, batch_size=None, verbose=0, steps=None, callbacks=None, max_queue_size=10, workers=1,
                use_multiprocessing=False):
        """Returns the model's outputs for `x`, computed in batches (learning phase 0).

        Args:
          x: Input array(s), or a `tf.data` dataset / iterator, a generator or a `keras.utils.Sequence`
            (of inputs, or of tuples whose first element is the inputs).
          batch_size: Samples per batch for arrays (default 32).
          verbose: Unused (no progress bar).
          steps: Number of batches to read from a dataset or generator (default: all of a dataset or
            `Sequence`); for arrays, the number of steps each on all of the data.
          callbacks: Must be None (callbacks during prediction are not supported).
          max_queue_size: Batches read ahead from a generator or `Sequence`.
          workers: Threads reading a generator or `Sequence` (0: the calling thread).
          use_multiprocessing: Accepted; the workers are threads.

        Returns:
          An array, or a list of arrays for several outputs.

        Raises:
          ValueError: For a generator without `steps`.
          NotImplementedError: For `callbacks`.
        """
        if callbacks:
            raise NotImplementedError("Callbacks in `predict` are not supported.")
        feed = None
        if _is_source(x):
            feed, steps = self._open_feed(x, steps, "steps", workers=workers, max_queue_size=max_queue_size)
            batches = self._feed_batches(feed, steps, "predict")
        else:
            xs, _, _ = self._standardize_user_data(x)
            n = len(xs[0])
            batches = ((_slice(xs, slice(start, end)), end - start)
                       for start, end in ([(0, n)] * steps if steps else _batches(n, batch_size or 32)))
        results = None
        try:
            for ins, _ in batches:
                self._make_predict_function()
                outs = self.predict_function(ins + self._phase_inputs(0)[1])
                if results is None:
                    results = [[] for _ in outs]
                for r, o in zip(results, outs):
                    r.append(o)
        finally:
            if feed is not None:
                feed.stop()
        if results is None:
            results = [[np.zeros((0,) + tuple(K.int_shape(o)[1:]))] for o in self.outputs]
        results = [np.concatenate(r) for r in results]
        return results[0] if len(results) == 1 else results

    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            steps_per_epoch=None, validation_steps=None, validation_freq=1, max_queue_size=10, workers=1,
            use_multiprocessing=False, **kwargs):
        """Trains the model for a number of epochs.

        Args:
          x: Input array(s) (an array, a list, or a dict by input name), or a `tf.data` dataset or
            iterator, a generator or a `keras.utils.Sequence` giving `(inputs, targets)` or
            `(inputs, targets, sample_weights)` batches.
          y: Target array(s) (None when `x` gives the targets).
          batch_size: Samples per gradient update for arrays (default 32).
          epochs: Index of the last epoch to train.
          verbose: 0 (silent), 1 (progress bar) or 2 (one line per epoch).
          callbacks: A list of `tf.keras.callbacks.Callback`.
          validation_split: Fraction of the array data (taken from the end, before shuffling) held out.
          validation_data: `(x_val, y_val)`, `(x_val, y_val, val_sample_weights)`, or a dataset,
            iterator, generator or `Sequence`.
          shuffle: Whether to shuffle the training arrays before each epoch ('batch': shuffle in batch
            chunks), or the batch order of a `Sequence`.
          class_weight: Optional dict class -> weight.
          sample_weight: Optional per-sample weights for arrays.
          initial_epoch: Epoch at which to start (for resuming).
          steps_per_epoch: Batches per epoch read from a dataset or generator (default: a dataset's
            size, which is then read afresh each epoch, or a `Sequence`'s length; required for a
            generator or an infinite dataset). For arrays: steps per epoch, each on all of the data.
          validation_steps: Batches of validation data per validation (required for a generator).
          validation_freq: Run validation every this many epochs, or at the (1-based) epochs listed.
          max_queue_size: Batches read ahead from a generator or `Sequence`.
          workers: Threads reading a generator or `Sequence` (0: the calling thread).
          use_multiprocessing: Accepted; the workers are threads.

        Returns:
          A `History` object; `history.history` maps 'loss', metric names and their 'val_'
          counterparts to per-epoch values (averaged over the epoch's samples).

        Raises:
          RuntimeError: If the model is not compiled.
          ValueError: For inconsistent data, missing `steps_per_epoch` / `validation_steps`, or a
            bad `validation_freq`.
        """
        from .. import callbacks as cbks
        if kwargs:
            raise TypeError("Unrecognized keyword arguments: " + str(kwargs))
        self._check_compiled()
        _should_run_validation(validation_freq, 0)
        feeds, train_feed, split_ins = [], None, None
        try:
            if _is_source(x):
                _check_source_arguments(x, y, sample_weight, validation_split)
                reset_each_epoch = steps_per_epoch is None
                train_feed, steps_per_epoch = self._open_feed(x, steps_per_epoch, "steps_per_epoch",
                                                              epochs - initial_epoch, shuffle, workers, max_queue_size)
                feeds.append(train_feed)
                total = None if steps_per_epoch is None else steps_per_epoch * (epochs - initial_epoch)

                def epoch_batches():
                    if reset_each_epoch:
                        train_feed.reset()
                    return self._feed_batches(train_feed, steps_per_epoch, "train", class_weight, "steps_per_epoch",
                                              total)

                num_samples, use_steps = None, True
            else:
                batch_size = batch_size or 32
                xs, ys, sws = self._standardize_user_data(x, y, sample_weight, class_weight, targets_required=True)
                if validation_data is None and validation_split and 0.0 < validation_split < 1.0:
                    split_at = int(len(xs[0]) * (1.0 - validation_split))
                    split_ins = _slice(xs + ys + sws, slice(split_at, None))
                    xs, ys, sws = _slice(xs, slice(0, split_at)), _slice(ys, slice(0, split_at)), \
                        _slice(sws, slice(0, split_at))
                ins = xs + ys + sws
                num_samples, use_steps = len(ins[0]), bool(steps_per_epoch)

                def epoch_batches():
                    if steps_per_epoch:
                        return ((ins, 1) for _ in range(steps_per_epoch))
                    index = np.arange(num_samples)
                    if shuffle == "batch":
                        starts = np.arange(0, num_samples, batch_size)
                        np.random.shuffle(starts)
                        index = np.concatenate([index[s:s + batch_size] for s in starts]) if num_samples else index
                    elif shuffle:
                        np.random.shuffle(index)
                    return ((_slice(ins, index[start:end]), end - start)
                            for start, end in _batches(num_samples, batch_size))

            run_validation = None
            num_val = None
            if split_ins is not None:
                run_validation = lambda: self._test_loop(split_ins, batch_size, 0)  # noqa: E731
                num_val = len(split_ins[0])
            elif validation_data is not None and _is_source(validation_data):
                val_feed, validation_steps = self._open_feed(validation_data, validation_steps, "validation_steps",
                                                             workers=workers, max_queue_size=max_queue_size)
                feeds.append(val_feed)

                def run_validation():
                    val_feed.reset()
                    return self._aggregate_test(self._feed_batches(val_feed, validation_steps, "test"))

            elif validation_data is not None:
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
                val_steps = validation_steps if steps_per_epoch and not _is_source(x) else None
                run_validation = lambda: self._test_loop(val_ins, batch_size or 32, 0, val_steps)  # noqa: E731
                num_val = len(val_ins[0])
            return self._fit_loop(epoch_batches, run_validation, epochs, initial_epoch, verbose, callbacks,
                                  validation_freq, batch_size, steps_per_epoch, num_samples, num_val, use_steps, feeds,
                                  train_feed, cbks)
        finally:
            for f in feeds:
                f.stop()

    def _fit_loop(self, epoch_batches, run_validation, epochs, initial_epoch, verbose, callbacks, validation_freq,
                  batch_size, steps, num_samples, num_val, use_steps, feeds, train_feed, cbks):
        out_labels = list(self.metrics_names)
        do_validation = run_validation is not None
        callback_metrics = out_labels + (["val_" + n for n in out_labels] if do_validation else [])
        self.history = cbks.History()
        callback_list = [cbks.BaseLogger()] + list(callbacks or []) + [self.history]
        if verbose:
            callback_list.append(cbks.ProgbarLogger(count_mode="steps" if use_steps else "samples"))
        callback_list = cbks.CallbackList(callback_list)
        if getattr(self, "_graph_compiled", False):
            self._make_train_function()  # before the callbacks see the graph (TensorBoard writes it)
        callback_list.set_model(self)
        callback_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": steps,
                                  "samples": num_samples, "verbose": verbose, "do_validation": do_validation,
                                  "metrics": callback_metrics})
        if verbose and not use_steps:
            if do_validation and num_val is not None:
                print("Train on %d samples, validate on %d samples" % (num_samples, num_val))
            else:
                print("Train on %d samples" % num_samples)
        self.stop_training = False
        train_function = None
        phase = self._phase_inputs(1)[1]
        callback_list.on_train_begin()
        try:
            for epoch in range(initial_epoch, epochs):
                callback_list.on_epoch_begin(epoch)
                epoch_logs = {}
                totals, seen = [0.0] * len(out_labels), 0
                for batch_index, (batch_ins, size) in enumerate(epoch_batches()):
                    batch_logs = {"batch": batch_index, "size": size}
                    callback_list.on_batch_begin(batch_index, batch_logs)
                    if train_function is None:  # here: a subclassed model is built by its first batch
                        self._make_train_function()
                        train_function = self.train_function
                    outs = train_function(batch_ins + phase)
                    for i, (label, o) in enumerate(zip(out_labels, outs)):
                        o = float(o)
                        batch_logs[label] = o
                        totals[i] += o * size
                    seen += size
                    callback_list.on_batch_end(batch_index, batch_logs)
                    if self.stop_training:
                        break
                if use_steps and steps is None and seen and not self.stop_training:
                    # The data ended: its number of batches is now known (as TF: the progress bar
                    # completes this epoch and has a target in the next ones).
                    steps = batch_index + 1
                    params = callback_list.callbacks[0].params
                    params["steps"] = steps
                    for cb in callback_list:
                        if isinstance(cb, cbks.ProgbarLogger) and getattr(cb, "progbar", None) is not None:
                            cb.target = cb.progbar.target = steps
                if seen:
                    for label, total in zip(out_labels, totals):
                        epoch_logs[label] = total / seen
                if do_validation and _should_run_validation(validation_freq, epoch) and not self.stop_training:
                    for label, o in zip(out_labels, _to_list(run_validation())):
                        epoch_logs["val_" + label] = o
                callback_list.on_epoch_end(epoch, epoch_logs)
                if train_feed is not None:
                    train_feed.end_pass()
                if self.stop_training:
                    break
        finally:
            for f in feeds:
                f.stop()
            callback_list.on_train_end()
        return self.history

    def fit_generator(self, generator, steps_per_epoch=None, epochs=1, verbose=1, callbacks=None,
                      validation_data=None, validation_steps=None, validation_freq=1, class_weight=None,
                      max_queue_size=10, workers=1, use_multiprocessing=False, shuffle=True, initial_epoch=0):
        """Trains the model on batches from a generator, a `keras.utils.Sequence` or a dataset.

        The same as `fit(generator, ...)`; see `fit` for the arguments.

        Returns:
          A `History` object.

        Raises:
          ValueError: If `generator` is not a generator, `Sequence`, dataset or iterator, or `fit`'s
            errors.
        """
        _check_generator_like(generator, "fit_generator")
        return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs, verbose=verbose,
                        callbacks=callbacks, validation_data=validation_data, validation_steps=validation_steps,
                        validation_freq=validation_freq, class_weight=class_weight, max_queue_size=max_queue_size,
                        workers=workers, use_multiprocessing=use_multiprocessing, shuffle=shuffle,
                        initial_epoch=initial_epoch)

    def evaluate_generator(self, generator, steps=None, callbacks=None, max_queue_size=10, workers=1,
                           use_multiprocessing=False, verbose=0):
        """Evaluates the model on batches from a generator, a `keras.utils.Sequence` or a dataset.

        The same as `evaluate(generator, ...)`; see `evaluate` for the arguments.

        Returns:
          A scalar loss, or `[loss, ...]` in the order of `model.metrics_names`.

        Raises:
          ValueError: If `generator` is not a generator, `Sequence`, dataset or iterator, or
            `evaluate`'s errors.
        """
        _check_generator_like(generator, "evaluate_generator")
        return self.evaluate(generator, steps=steps, callbacks=callbacks, max_queue_size=max_queue_size,
                             workers=workers, use_multiprocessing=use_multiprocessing, verbose=verbose)

    def predict_generator(self, generator, steps=None, callbacks=None, max_queue_size=10, workers=1,
                          use_multiprocessing=False, verbose=0):
        """Predicts on batches from a generator, a `keras.utils.Sequence` or a dataset.

        The same as `predict(generator, ...)`; see `predict` for the arguments.

        Returns:
          An array, or a list of arrays for several outputs.

        Raises:
          ValueError: If `generator` is not a generator, `Sequence`, dataset or iterator, or
            `predict`'s errors.
        """
        _check_generator_like(generator, "predict_generator")
        return self.predict(generator, steps=steps, callbacks=callbacks, max_queue_size=max_queue_size,
                            workers=workers, use_multiprocessing=use_multiprocessing, verbose=verbose)
