"""`tf.keras.callbacks`: the callback protocol, `History`, `BaseLogger` and `ProgbarLogger`."""

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
        if self.progbar is not None and self.seen < self.target:
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
