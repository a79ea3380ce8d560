"""`tf.keras.callbacks`: the callback protocol, `History`, `BaseLogger` and `ProgbarLogger`."""

import logging
import sys
import time

import numpy as np


class Callback:
    """Base class of callbacks: hooks called by `fit` (the base does nothing).

    Attributes:
      params: Dict of training parameters (batch_size, epochs, samples, steps, verbose,
        do_validation, metrics).
      model: The model being trained.
    """

    def __init__(self):
        self.validation_data = None
        self.model = None
        self.params = {}

    def set_params(self, params):
        """Stores the training parameters."""
        self.params = params

    def set_model(self, model):
        """Stores the model."""
        self.model = model

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of an epoch."""

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of an epoch; `logs` has the epoch's (and validation) metrics."""

    def on_batch_begin(self, batch, logs=None):
        """Called before each training batch; `logs` has 'batch' and 'size'."""

    def on_batch_end(self, batch, logs=None):
        """Called after each training batch; `logs` has the batch's loss and metrics."""

    def on_train_batch_begin(self, batch, logs=None):
        """Same as `on_batch_begin` (called together with it)."""

    def on_train_batch_end(self, batch, logs=None):
        """Same as `on_batch_end` (called together with it)."""

    def on_train_begin(self, logs=None):
        """Called at the start of training."""

    def on_train_end(self, logs=None):
        """Called at the end of training."""


class CallbackList:
    """A container calling each hook on a list of callbacks in order.

    Args:
      callbacks: A list of `Callback` instances.
    """

    def __init__(self, callbacks=None):
        self.callbacks = list(callbacks or [])

    def append(self, callback):
        """Adds a callback."""
        self.callbacks.append(callback)

    def set_params(self, params):
        """Calls `set_params` on each callback."""
        for c in self.callbacks:
            c.set_params(params)

    def set_model(self, model):
        """Calls `set_model` on each callback."""
        for c in self.callbacks:
            c.set_model(model)

    def on_epoch_begin(self, epoch, logs=None):
        """Calls `on_epoch_begin` on each callback."""
        logs = logs if logs is not None else {}
        for c in self.callbacks:
            c.on_epoch_begin(epoch, logs)

    def on_epoch_end(self, epoch, logs=None):
        """Calls `on_epoch_end` on each callback."""
        logs = logs if logs is not None else {}
        for c in self.callbacks:
            c.on_epoch_end(epoch, logs)

    def on_batch_begin(self, batch, logs=None):
        """Calls `on_batch_begin` and `on_train_batch_begin` on each callback."""
        logs = logs if logs is not None else {}
        for c in self.callbacks:
            c.on_batch_begin(batch, logs)
            c.on_train_batch_begin(batch, logs)

    def on_batch_end(self, batch, logs=None):
        """Calls `on_batch_end` and `on_train_batch_end` on each callback."""
        logs = logs if logs is not None else {}
        for c in self.callbacks:
            c.on_batch_end(batch, logs)
            c.on_train_batch_end(batch, logs)

    def on_train_begin(self, logs=None):
        """Calls `on_train_begin` on each callback."""
        for c in self.callbacks:
            c.on_train_begin(logs if logs is not None else {})

    def on_train_end(self, logs=None):
        """Calls `on_train_end` on each callback."""
        for c in self.callbacks:
            c.on_train_end(logs if logs is not None else {})

    def __iter__(self):
        return iter(self.callbacks)


class BaseLogger(Callback):
    """Averages the batch metrics over each epoch (weighted by batch size) into the epoch logs.

    Args:
      stateful_metrics: Names of metrics whose last value is kept instead of averaged.
    """

    def __init__(self, stateful_metrics=None):
        super().__init__()
        self.stateful_metrics = set(stateful_metrics or [])

    def on_epoch_begin(self, epoch, logs=None):
        self.seen = 0
        self.totals = {}

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        batch_size = logs.get("size", 0)
        num_steps = logs.get("num_steps", 1)
        self.seen += batch_size * num_steps
        for k, v in logs.items():
            if k in ("batch", "size", "num_steps"):
                continue
            if k in self.stateful_metrics:
                self.totals[k] = v
            elif k in self.totals:
                self.totals[k] += v * batch_size
            else:
                self.totals[k] = v * batch_size

    def on_epoch_end(self, epoch, logs=None):
        if logs is None:
            return
        for k in self.params.get("metrics", []):
            if k in self.totals:
                logs[k] = self.totals[k] if k in self.stateful_metrics else self.totals[k] / self.seen


class History(Callback):
    """Records the epoch logs: `history.history[name]` is the list of per-epoch values."""

    def on_train_begin(self, logs=None):
        self.epoch = []
        self.history = {}

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        self.epoch.append(epoch)
        for k, v in logs.items():
            self.history.setdefault(k, []).append(v)


def _format_value(v):
    return " %.4f" % v if abs(v) > 1e-3 else " %.4e" % v


class ProgbarLogger(Callback):
    """Prints progress: a Keras progress bar (verbose=1) or one line per epoch (verbose=2).

    Args:
      count_mode: 'samples' or 'steps'.
      stateful_metrics: Names of metrics not averaged over the epoch.

    Raises:
      ValueError: For an unknown `count_mode`.
    """

    def __init__(self, count_mode="samples", stateful_metrics=None):
        super().__init__()
        if count_mode not in ("samples", "steps"):
            raise ValueError("Unknown `count_mode`: " + str(count_mode))
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics or [])

    def on_train_begin(self, logs=None):
        self.verbose = self.params["verbose"]
        self.epochs = self.params["epochs"]

    def on_epoch_begin(self, epoch, logs=None):
        if self.verbose:
            print("Epoch %d/%d" % (epoch + 1, self.epochs))
            sys.stdout.flush()
        self.target = self.params["steps"] if self.use_steps else self.params["samples"]
        self.seen = 0
        self._start = time.time()
        self.progbar = None
        if self.verbose == 1:
            from .utils.generic_utils import Progbar
            self.progbar = Progbar(target=self.target, verbose=1, stateful_metrics=self.stateful_metrics,
                                   unit_name="step" if self.use_steps else "sample")
        self.log_values = []

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self.seen += 1 if self.use_steps else logs.get("size", 0)
        self.log_values = [(k, logs[k]) for k in self.params["metrics"] if k in logs]
        if self.progbar is not None and (self.target is None or self.seen < self.target):
            self.progbar.update(self.seen, self.log_values)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.verbose == 1:
            values = [(k, logs[k]) for k in self.params["metrics"] if k in logs and k.startswith("val_")]
            self.progbar.update(self.seen, self.log_values + values)
        elif self.verbose == 2:
            info = " - %.0fs" % (time.time() - self._start)
            for k in self.params["metrics"]:
                if k in logs:
                    info += " - %s:" % k + _format_value(float(np.mean(logs[k])))
            print(info)
            sys.stdout.flush()


def _monitor_op(mode, monitor):
    if mode not in ("auto", "min", "max"):
        raise ValueError("Unknown `mode`: %r; expected 'auto', 'min' or 'max'" % (mode,))
    if mode == "max" or (mode == "auto" and ("acc" in monitor or monitor.startswith("fmeasure"))):
        return np.greater, 1
    return np.less, -1


class EarlyStopping(Callback):
    """Stops training when a monitored quantity has stopped improving.

    Args:
      monitor: Name of the quantity in the epoch logs.
      min_delta: Smallest change counted as an improvement.
      patience: Epochs without improvement after which training stops.
      verbose: Verbosity mode.
      mode: 'auto', 'min' or 'max'.
      baseline: Value the quantity must beat; training stops if it does not within `patience`.
      restore_best_weights: Whether to restore the weights of the best epoch when stopping.

    Raises:
      ValueError: For an unknown `mode`.
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.monitor_op, sign = _monitor_op(mode, monitor)
        self.min_delta *= sign

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        if self.baseline is not None:
            self.best = self.baseline
        else:
            self.best = np.inf if self.monitor_op == np.less else -np.inf

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            logging.warning("Early stopping conditioned on metric `%s` which is not available. Available metrics "
                            "are: %s", self.monitor, ",".join(sorted(logs or {})))
            return
        if self.monitor_op(current - self.min_delta, self.best):
            self.best = current
            self.wait = 0
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = epoch
                self.model.stop_training = True
                if self.restore_best_weights and self.best_weights is not None:
                    if self.verbose > 0:
                        print("Restoring model weights from the end of the best epoch.")
                    self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print("Epoch %05d: early stopping" % (self.stopped_epoch + 1))


class ReduceLROnPlateau(Callback):
    """Reduces the optimizer's learning rate when a monitored quantity stops improving.

    Args:
      monitor: Name of the quantity in the epoch logs.
      factor: Factor the learning rate is multiplied by (`new_lr = lr * factor`).
      patience: Epochs without improvement after which the rate is reduced.
      verbose: Verbosity mode.
      mode: 'auto', 'min' or 'max'.
      min_delta: Threshold for counting an improvement.
      cooldown: Epochs to wait after a reduction before resuming normal operation.
      min_lr: Lower bound on the learning rate.

    Raises:
      ValueError: For `factor >= 1.0` or an unknown `mode`.
    """

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
        if kwargs:
            raise TypeError("Unexpected keyword arguments: %s" % sorted(kwargs))
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        if mode not in ("auto", "min", "max"):
            raise ValueError("Unknown `mode`: %r; expected 'auto', 'min' or 'max'" % (mode,))
        self.monitor = monitor
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.mode = mode
        self.cooldown_counter = 0
        self.wait = 0
        self._reset()

    def _reset(self):
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        """Whether the callback is in its cooldown period."""
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        from . import backend as K
        logs = logs if logs is not None else {}
        logs["lr"] = K.get_value(self.model.optimizer.lr)
        current = logs.get(self.monitor)
        if current is None:
            logging.warning("Reduce LR on plateau conditioned on metric `%s` which is not available. Available "
                            "metrics are: %s", self.monitor, ",".join(sorted(logs)))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = float(K.get_value(self.model.optimizer.lr))
                if old_lr > self.min_lr:
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    K.set_value(self.model.optimizer.lr, new_lr)
                    if self.verbose > 0:
                        print("\nEpoch %05d: ReduceLROnPlateau reducing learning rate to %s." % (epoch + 1, new_lr))
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class LearningRateScheduler(Callback):
    """Sets the learning rate at the start of each epoch from `schedule(epoch[, lr])`.

    Args:
      schedule: A function of the epoch index (and, optionally, the current learning rate) that
        returns the new learning rate as a float.
      verbose: Verbosity mode.

    Raises:
      ValueError: If the optimizer has no `lr`, or `schedule` returns a non-float.
    """

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        from . import backend as K
        try:
            lr_var = self.model.optimizer.lr
        except AttributeError:
            raise ValueError('Optimizer must have a "lr" attribute.') from None
        try:
            lr = self.schedule(epoch, float(K.get_value(lr_var)))
        except TypeError:
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError('The output of the "schedule" function should be float.')
        K.set_value(lr_var, lr)
        if self.verbose > 0:
            print("\nEpoch %05d: LearningRateScheduler setting learning rate to %s." % (epoch + 1, lr))

    def on_epoch_end(self, epoch, logs=None):
        from . import backend as K
        if logs is not None:
            logs["lr"] = K.get_value(self.model.optimizer.lr)


class TerminateOnNaN(Callback):
    """Stops training when a batch loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print("Batch %d: Invalid loss, terminating training" % batch)
            self.model.stop_training = True


class CSVLogger(Callback):
    """Streams the epoch logs to a CSV file (flushed after each epoch).

    Args:
      filename: Path of the CSV file.
      separator: Field separator.
      append: Whether to append to an existing file instead of overwriting it.
    """

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = filename
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True
        self.csv_file = None

    def on_train_begin(self, logs=None):
        import os
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        self.csv_file = open(self.filename, mode, newline="")

    def on_epoch_end(self, epoch, logs=None):
        import collections
        import csv
        logs = logs or {}

        def handle_value(k):
            is_zero_dim_ndarray = isinstance(k, np.ndarray) and k.ndim == 0
            if isinstance(k, str):
                return k
            if hasattr(k, "__iter__") and not is_zero_dim_ndarray:
                return '"[%s]"' % (", ".join(map(str, k)))
            return k

        if self.keys is None:
            self.keys = sorted(logs.keys())
        if self.model.stop_training:
            logs = dict((k, logs[k]) if k in logs else (k, "NA") for k in self.keys)
        if not self.writer:
            class CustomDialect(csv.excel):
                delimiter = self.sep
            fieldnames = ["epoch"] + self.keys
            self.writer = csv.DictWriter(self.csv_file, fieldnames=fieldnames, dialect=CustomDialect)
            if self.append_header:
                self.writer.writeheader()
        row_dict = collections.OrderedDict({"epoch": epoch})
        row_dict.update((key, handle_value(logs[key])) for key in self.keys)
        self.writer.writerow(row_dict)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        if self.csv_file is not None:
            self.csv_file.close()
        self.csv_file = None
        self.writer = None


class LambdaCallback(Callback):
    """A callback built from plain functions.

    Args:
      on_epoch_begin: `f(epoch, logs)`.
      on_epoch_end: `f(epoch, logs)`.
      on_batch_begin: `f(batch, logs)`.
      on_batch_end: `f(batch, logs)`.
      on_train_begin: `f(logs)`.
      on_train_end: `f(logs)`.
    """

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None, on_batch_end=None,
                 on_train_begin=None, on_train_end=None, **kwargs):
        super().__init__()
        self.__dict__.update(kwargs)
        noop2 = lambda a, logs: None  # noqa: E731
        noop1 = lambda logs: None  # noqa: E731
        self.on_epoch_begin = on_epoch_begin or noop2
        self.on_epoch_end = on_epoch_end or noop2
        self.on_batch_begin = on_batch_begin or noop2
        self.on_batch_end = on_batch_end or noop2
        self.on_train_begin = on_train_begin or noop1
        self.on_train_end = on_train_end or noop1



class ModelCheckpoint(Callback):
    """Saves the model after every `period` epochs.

    With `save_weights_only=False`, the whole model (`model.save`: an HDF5 file, as in TF 1.x). With
    `save_weights_only=True`, the weights: an HDF5 file for a `.h5`/`.keras`/`.hdf5` path
    (`model.save_weights`), else a TF checkpoint keyed by variable names (`tf.train.Saver`), which
    `model.load_weights` reads.

    Args:
      filepath: Checkpoint prefix; may hold `str.format` fields filled from `epoch` (1-based) and the
        epoch logs, e.g. `'weights.{epoch:02d}-{val_loss:.2f}'`.
      monitor: Quantity compared by `save_best_only`.
      verbose: Verbosity mode.
      save_best_only: Only save when the monitored quantity improves.
      save_weights_only: Whether to save only the weights.
      mode: 'auto', 'min' or 'max'.
      period: Epochs between checkpoints.

    Raises:
      ValueError: For an unknown `mode`.
    """

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False, save_weights_only=False,
                 mode="auto", period=1):
        super().__init__()
        self.monitor = monitor
        self.verbose = verbose
        self.filepath = str(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.period = period
        self.epochs_since_last_save = 0
        self.monitor_op, _ = _monitor_op(mode, monitor)
        self.best = np.inf if self.monitor_op == np.less else -np.inf
        self._saver = None

    def set_model(self, model):
        self.model = model
        self._saver = None

    def _save(self, filepath):
        from . import backend as K
        from ._tf import train
        from .saving.hdf5_format import is_hdf5_filepath
        if not self.save_weights_only:
            self.model.save(filepath, overwrite=True)
            return
        if is_hdf5_filepath(filepath):
            self.model.save_weights(filepath, overwrite=True)
            return
        if self._saver is None:
            self._saver = train.Saver(var_list=list(self.model.weights), max_to_keep=None)
        self._saver.save(K.get_session(), filepath, write_meta_graph=False)

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        self.epochs_since_last_save += 1
        if self.epochs_since_last_save < self.period:
            return
        self.epochs_since_last_save = 0
        filepath = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                print("Can save best model only with %s available, skipping." % self.monitor)
            elif self.monitor_op(current, self.best):
                if self.verbose > 0:
                    print("\nEpoch %05d: %s improved from %0.5f to %0.5f, saving model to %s"
                          % (epoch + 1, self.monitor, self.best, current, filepath))
                self.best = current
                self._save(filepath)
            elif self.verbose > 0:
                print("\nEpoch %05d: %s did not improve from %0.5f" % (epoch + 1, self.monitor, self.best))
        else:
            if self.verbose > 0:
                print("\nEpoch %05d: saving model to %s" % (epoch + 1, filepath))
            self._save(filepath)


class TensorBoard(Callback):
    """Writes TensorBoard event files: the graph, the losses and metrics as scalars, and histograms
    (and, with `write_images`, images) of the model's weights.

    As TF 1.15's graph-mode callback, epoch values are written under `epoch_<name>` at step `epoch`
    (`update_freq='epoch'`) or at the number of samples seen so far, and with `update_freq='batch'` or
    an integer N, batch values under `batch_<name>` at the index of the batch (counted over all
    epochs), after each batch or whenever N more samples have been seen. Weight histograms
    (`<weight name with ':' as '_'>`, TF's histogram buckets) are written at the end of every
    `histogram_freq`-th epoch, at step `epoch`; TF 1.15 writes them while evaluating the validation
    data, with histograms of the layers' outputs, which this callback does not write.

    Args:
      log_dir: Directory of the event files.
      histogram_freq: Every how many epochs to write the weight histograms (0: never).
      batch_size: Accepted (TF uses it to compute embeddings, which are not supported).
      write_graph: Whether to write the session's graph (a `GraphDef` event).
      write_grads: Must be False (gradient histograms are not supported).
      write_images: Whether to write the weights as images too (with `histogram_freq`): 2-D kernels
        as one image (transposed to be wide), 3-D kernels as one image per output channel, biases
        as a one-pixel-high image.
      embeddings_freq: Must be 0 (the embedding projector is not supported).
      embeddings_layer_names, embeddings_metadata, embeddings_data: Must be None.
      update_freq: 'epoch', 'batch', or an integer number of samples between batch summaries.
      profile_batch: Accepted; tensorweave has no profiler, so no profile is written.

    Raises:
      NotImplementedError: For `write_grads`, `embeddings_freq` or embeddings arguments.
      ValueError: For a bad `update_freq` or a negative `histogram_freq`.
    """

    def __init__(self, log_dir="./logs", histogram_freq=0, batch_size=32, write_graph=True, write_grads=False,
                 write_images=False, embeddings_freq=0, embeddings_layer_names=None, embeddings_metadata=None,
                 embeddings_data=None, update_freq="epoch", profile_batch=2):
        super().__init__()
        if write_grads:
            raise NotImplementedError("TensorBoard(write_grads=True) is not supported: gradient histograms need "
                                      "the validation data run with the gradients, which is not built.")
        if embeddings_freq or embeddings_layer_names is not None or embeddings_metadata is not None or \
                embeddings_data is not None:
            raise NotImplementedError("TensorBoard embeddings (embeddings_freq and the embeddings_* arguments) "
                                      "are not supported.")
        if update_freq == "batch":
            update_freq = 1
        if update_freq != "epoch" and (isinstance(update_freq, bool) or not isinstance(update_freq, int) or
                                       update_freq < 1):
            raise ValueError("`update_freq` must be 'epoch', 'batch' or a positive integer, got %r."
                             % (update_freq,))
        if histogram_freq < 0:
            raise ValueError("`histogram_freq` must be >= 0, got %r." % (histogram_freq,))
        self.log_dir = log_dir
        self.histogram_freq = histogram_freq
        self.batch_size = batch_size
        self.write_graph = write_graph
        self.write_grads = write_grads
        self.write_images = write_images
        self.embeddings_freq = embeddings_freq
        self.update_freq = update_freq
        self.profile_batch = profile_batch
        self.writer = None
        self.merged = None
        self._merged_graph = None
        self._samples_seen = 0
        self._samples_seen_at_last_write = 0
        self._total_batches_seen = 0

    def _make_summary_ops(self, graph):
        from ..ops.array_permute_ops import transpose
        from ..ops.array_shape_ops import reshape, squeeze
        from ..ops.summary_ops import histogram, image, merge
        from . import backend as K
        summaries = []
        with graph.as_default(), graph.name_scope(None):
            for layer in self.model.layers:
                for weight in layer.weights:
                    name = weight.name.replace(":", "_")
                    summaries.append(histogram(name, weight, collections=[]))
                    if not self.write_images:
                        continue
                    img = squeeze(weight)
                    shape = K.int_shape(img)
                    if len(shape) == 2:
                        if shape[0] > shape[1]:
                            img = transpose(img)
                            shape = K.int_shape(img)
                        img = reshape(img, [1, shape[0], shape[1], 1])
                    elif len(shape) == 3:
                        if K.image_data_format() == "channels_last":
                            img = transpose(img, perm=[2, 0, 1])
                            shape = K.int_shape(img)
                        img = reshape(img, [shape[0], shape[1], shape[2], 1])
                    elif len(shape) == 1:
                        img = reshape(img, [1, shape[0], 1, 1])
                    else:
                        continue
                    summaries.append(image(name, img, collections=[]))
            self.merged = merge(summaries) if summaries else None
        self._merged_graph = graph

    def set_model(self, model):
        self.model = model
        self.merged = None
        self._merged_graph = None

    def on_train_begin(self, logs=None):
        from ..summary import FileWriter
        from . import backend as K
        if self.writer is not None:
            self.writer.close()
        graph = K.get_session().graph
        if self.histogram_freq and self._merged_graph is not graph:
            self._make_summary_ops(graph)
        self.writer = FileWriter(self.log_dir, graph if self.write_graph else None)

    def _write_scalars(self, step, logs):
        from ..summary import Summary
        summary = Summary()
        for name, value in logs.items():
            summary.value.add(tag=name, simple_value=float(np.asarray(value).item()))
        self.writer.add_summary(summary, step)
        self.writer.flush()

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self._samples_seen += logs.get("size", 1)
        if self.update_freq != "epoch" and \
                self._samples_seen - self._samples_seen_at_last_write >= self.update_freq:
            self._write_scalars(self._total_batches_seen, {"batch_" + k: v for k, v in logs.items()
                                                           if k not in ("batch", "size", "num_steps")})
            self._samples_seen_at_last_write = self._samples_seen
        self._total_batches_seen += 1

    def on_epoch_end(self, epoch, logs=None):
        from . import backend as K
        logs = logs or {}
        step = epoch if self.update_freq == "epoch" else self._samples_seen
        self._write_scalars(step, {"epoch_" + k: v for k, v in logs.items()
                                   if k not in ("batch", "size", "num_steps")})
        if self.histogram_freq and epoch % self.histogram_freq == 0 and self.merged is not None:
            self.writer.add_summary(K.get_session().run(self.merged), epoch)
            self.writer.flush()

    def on_train_end(self, logs=None):
        if self.writer is not None:
            self.writer.close()
            self.writer = None


__all__ = ["BaseLogger", "CSVLogger", "Callback", "CallbackList", "EarlyStopping", "History", "LambdaCallback",
           "LearningRateScheduler", "ModelCheckpoint", "ProgbarLogger", "ReduceLROnPlateau", "TensorBoard",
           "TerminateOnNaN"]
