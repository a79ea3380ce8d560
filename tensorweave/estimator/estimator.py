"""`tf.estimator.Estimator`: trains, evaluates and predicts with a `model_fn`, checkpointing in `model_dir`."""

import copy
import inspect
import os

from .. import tf_logging as logging
from ..framework import ops
from ..train.session_run_hook import SessionRunHook
from .model_fn import EstimatorSpec, ModeKeys
from .run_config import RunConfig

__all__ = ["Estimator"]


class _DatasetInitializerHook(SessionRunHook):
    """Runs a dataset iterator's initializer once the session exists."""

    def __init__(self, iterator):
        self._iterator = iterator

    def begin(self):
        self._initializer = self._iterator.initializer

    def after_create_session(self, session, coord):
        session.run(self._initializer)



class _StopAfterNEvalsHook(SessionRunHook):
    """Requests a stop after `num_evals` runs of the evaluation update op."""

    def __init__(self, num_evals):
        self._num_evals = num_evals
        self._evals_completed = 0

    def before_run(self, run_context):
        return None

    def after_run(self, run_context, run_values):
        self._evals_completed += 1
        if self._evals_completed >= self._num_evals:
            run_context.request_stop()

    def end(self, session):
        pass


def _fn_args(fn):
    return tuple(inspect.signature(fn).parameters)


def _reads_input(tensors):
    """True if a tensor of `tensors` depends on an iterator or queue (then the input ends by itself)."""
    seen = set()
    stack = [t.op for t in tensors]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type.startswith("Iterator") or "Queue" in op.type or op.type in ("PyFunc", "EagerPyFunc"):
            return True
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return False


class Estimator:
    """Estimator class to train and evaluate TensorFlow models.

    The `Estimator` object wraps a model which is specified by a `model_fn`, which, given inputs
    and a number of other parameters, returns the ops necessary to perform training, evaluation,
    or predictions. All outputs (checkpoints, event files, etc.) are written to `model_dir`; each
    call builds a fresh graph and restores the latest checkpoint of `model_dir`.

    Args:
      model_fn: Model function. Follows the signature `model_fn(features, labels, mode, params,
        config)` (only `features` is required) and returns an `EstimatorSpec`.
      model_dir: Directory to save model parameters, graph and etc. If `None`, the model_dir in
        `config` will be used if set; if both are unset a temporary directory is used.
      config: `estimator.RunConfig` configuration object.
      params: `dict` of hyper parameters that will be passed into `model_fn`.
      warm_start_from: Not supported (must be None).

    Raises:
      ValueError: parameters of `model_fn` don't match `params`, or `model_dir` differs from
        `config.model_dir`.
    """

    def __init__(self, model_fn, model_dir=None, config=None, params=None, warm_start_from=None):
        if config is None:
            config = RunConfig()
        elif not isinstance(config, RunConfig):
            raise ValueError("config must be an instance of `RunConfig`, but provided {}.".format(config))
        if model_dir is not None:
            model_dir = os.fspath(model_dir)
            if config.model_dir is not None and config.model_dir != model_dir:
                raise ValueError("`model_dir` are set both in constructor and `RunConfig`, but with different "
                                 "values. In constructor: '{}', in `RunConfig`: '{}' ".format(
                                     model_dir, config.model_dir))
        model_dir = model_dir or config.model_dir
        if model_dir is None:
            import tempfile  # only here: `import tensorweave` does not need it
            model_dir = tempfile.mkdtemp()
            logging.warning("Using temporary folder as model directory: %s", model_dir)
        if warm_start_from is not None:
            raise NotImplementedError("warm_start_from is not supported by tensorweave.")
        self._config = config.replace(model_dir=model_dir)
        self._model_dir = model_dir
        logging.info("Using config: %s", {k: getattr(self._config, k) for k in RunConfig._REPLACEABLE[:9]})
        if model_fn is None:
            raise ValueError("model_fn must be provided to Estimator.")
        args = _fn_args(model_fn)
        if "features" not in args:
            raise ValueError("model_fn ({}) must include features argument.".format(model_fn))
        if params is not None and "params" not in args:
            raise ValueError("model_fn ({}) does not include params argument, required by "
                             "Estimator to pass params ({}).".format(model_fn, params))
        self._model_fn = model_fn
        self._params = copy.deepcopy(params or {})  # a dict or an HParams, copied as TF does

    # ---- properties -----------------------------------------------------------------------
    @property
    def model_dir(self):
        return self._model_dir

    @property
    def config(self):
        return self._config

    @property
    def params(self):
        return copy.deepcopy(self._params)

    @property
    def model_fn(self):
        """Returns the `model_fn` bound to `self.params` and `self.config`."""
        def public_model_fn(features, labels, mode, config):
            return self._call_model_fn(features, labels, mode, config)
        return public_model_fn

    def latest_checkpoint(self):
        """Finds the filename of the latest saved checkpoint file in `model_dir` (None if none)."""
        from ..train.checkpoint_management import latest_checkpoint
        return latest_checkpoint(self._model_dir)

    def get_variable_names(self):
        """Returns list of all variable names in this model (from the latest checkpoint)."""
        from ..train.checkpoint_utils import list_variables
        return [name for name, _ in list_variables(self._model_dir)]

    def get_variable_value(self, name):
        """Returns value of the variable given by name (from the latest checkpoint)."""
        from ..train.checkpoint_utils import load_variable
        return load_variable(self._model_dir, name)

    # ---- graph building ---------------------------------------------------------------------
    def _call_model_fn(self, features, labels, mode, config):
        args = _fn_args(self._model_fn)
        kwargs = {}
        if "labels" in args:
            kwargs["labels"] = labels
        elif labels is not None:
            raise ValueError("model_fn does not take labels, but input_fn returns labels.")
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = config
        logging.info("Calling model_fn.")
        spec = self._model_fn(features=features, **kwargs)
        logging.info("Done calling model_fn.")
        if not isinstance(spec, EstimatorSpec):
            raise ValueError("model_fn should return an EstimatorSpec.")
        return spec

    def _get_features_and_labels(self, input_fn, mode):
        from ..data.dataset_ops import Dataset
        kwargs = {}
        fn_args = _fn_args(input_fn)
        if "mode" in fn_args:
            kwargs["mode"] = mode
        if "params" in fn_args:
            kwargs["params"] = self.params
        if "config" in fn_args:
            kwargs["config"] = self.config
        result = input_fn(**kwargs)
        hooks = []
        if isinstance(result, Dataset):
            iterator = result.make_initializable_iterator()
            hooks.append(_DatasetInitializerHook(iterator))
            result = iterator.get_next()
        if isinstance(result, (list, tuple)):
            if len(result) != 2:
                raise ValueError("input_fn should return (features, labels) as a len 2 tuple.")
            return result[0], result[1], hooks
        return result, None, hooks

    def _new_graph(self, input_fn, mode):
        from ..ops.random_ops import set_random_seed
        from ..train import training_util
        g = ops.Graph()
        ctx = g.as_default()
        ctx.__enter__()
        try:
            if self._config.tf_random_seed is not None:
                set_random_seed(self._config.tf_random_seed)
            global_step = training_util.create_global_step(g)
            features, labels, input_hooks = self._get_features_and_labels(input_fn, mode)
            spec = self._call_model_fn(features, labels, mode, self.config)
        except BaseException:
            ctx.__exit__(None, None, None)
            raise
        return ctx, global_step, features, spec, input_hooks

    def _scaffold_with_saver(self, scaffold):
        from ..train.monitored_session import Scaffold
        from ..train.saver import Saver
        if scaffold.saver is not None or ops.get_collection(ops.GraphKeys.SAVERS):
            return scaffold
        saver = Saver(sharded=True, max_to_keep=self._config.keep_checkpoint_max,
                      keep_checkpoint_every_n_hours=self._config.keep_checkpoint_every_n_hours, allow_empty=True)
        ops.add_to_collection(ops.GraphKeys.SAVERS, saver)
        return Scaffold(saver=saver, copy_from_scaffold=scaffold)

    # ---- train ------------------------------------------------------------------------------
    def train(self, input_fn, hooks=None, steps=None, max_steps=None, saving_listeners=None):
        """Trains a model given training data `input_fn`.

        Args:
          input_fn: A function that provides input data for training as minibatches: it returns a
            `tf.data.Dataset` of `(features, labels)` or a tuple `(features, labels)` of tensors or
            dicts of tensors.
          hooks: List of `tf.train.SessionRunHook` subclass instances. Used for callbacks inside the
            training loop.
          steps: Number of steps for which to train the model. If `None`, train forever or train
            until `input_fn` generates the `tf.errors.OutOfRange` error or `StopIteration`
            exception. `steps` works incrementally.
          max_steps: Number of total steps for which to train model. If set, `steps` must be
            `None`. Training stops once the global step reaches it; if the checkpoint is already
            there, `train` returns at once.
          saving_listeners: list of `CheckpointSaverListener` objects. Used for callbacks that run
            immediately before or after checkpoint savings.

        Returns:
          `self`, for chaining.

        Raises:
          ValueError: If both `steps` and `max_steps` are not `None`, or either is not positive.
        """
        from ..train import basic_session_run_hooks as hooks_lib
        from ..train.monitored_session import MonitoredTrainingSession
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError("Must specify steps > 0, given: {}".format(steps))
        if max_steps is not None and max_steps <= 0:
            raise ValueError("Must specify max_steps > 0, given: {}".format(max_steps))
        if max_steps is not None:
            start_step = self._checkpoint_global_step()
            if max_steps <= start_step:
                logging.info("Skipping training since max_steps has already saved.")
                return self
        all_hooks = list(hooks or [])
        if steps is not None or max_steps is not None:
            all_hooks.append(hooks_lib.StopAtStepHook(steps, max_steps))
        ctx, global_step, _, spec, input_hooks = self._new_graph(input_fn, ModeKeys.TRAIN)
        try:
            from ..summary import scalar
            if not any(getattr(s, "op", s).name.split("/")[-1].startswith("loss")
                       for s in ops.get_collection(ops.GraphKeys.SUMMARIES)):
                scalar("loss", spec.loss)
            worker_hooks = input_hooks + list(all_hooks) + list(spec.training_hooks)
            worker_hooks.append(hooks_lib.NanTensorHook(spec.loss))
            bar = hooks_lib.progress_bar_hook_if_terminal(spec.loss, max_steps, steps)
            if bar is not None:
                worker_hooks.append(bar)
            if self._config.log_step_count_steps is not None:
                worker_hooks.append(hooks_lib.LoggingTensorHook({"loss": spec.loss, "step": global_step},
                                                                every_n_iter=self._config.log_step_count_steps))
            scaffold = self._scaffold_with_saver(spec.scaffold)
            chief_hooks = list(spec.training_chief_hooks)
            if self._config.save_checkpoints_secs or self._config.save_checkpoints_steps:
                chief_hooks.append(hooks_lib.CheckpointSaverHook(
                    self._model_dir, save_secs=self._config.save_checkpoints_secs,
                    save_steps=self._config.save_checkpoints_steps, scaffold=scaffold, listeners=saving_listeners))
            loss = None
            with MonitoredTrainingSession(checkpoint_dir=self._model_dir, scaffold=scaffold, hooks=worker_hooks,
                                          chief_only_hooks=chief_hooks, save_checkpoint_secs=0,
                                          save_summaries_steps=self._config.save_summary_steps,
                                          config=self._config.session_config,
                                          log_step_count_steps=self._config.log_step_count_steps) as mon_sess:
                while not mon_sess.should_stop():
                    _, loss = mon_sess.run([spec.train_op, spec.loss])
            logging.info("Loss for final step: %s.", loss)
        finally:
            ctx.__exit__(None, None, None)
        return self

    def _checkpoint_global_step(self):
        from ..train.checkpoint_utils import load_variable
        ckpt = self.latest_checkpoint()
        if ckpt is None:
            return 0
        try:
            return int(load_variable(self._model_dir, ops.GraphKeys.GLOBAL_STEP))
        except Exception:  # a checkpoint without a global step starts at 0
            return 0

    # ---- evaluate ---------------------------------------------------------------------------
    def evaluate(self, input_fn, steps=None, hooks=None, checkpoint_path=None, name=None):
        """Evaluates the model given evaluation data `input_fn`.

        For each step, calls `input_fn`'s next batch and runs the metrics' update ops, until `steps`
        batches are processed or the input is exhausted. The results are also written as summaries
        to `model_dir/eval` (or `model_dir/eval_<name>`).

        Args:
          input_fn: A function that constructs the input data for evaluation (as for `train`).
          steps: Number of steps for which to evaluate model. If `None`, evaluates until `input_fn`
            raises an end-of-input exception.
          hooks: List of `tf.train.SessionRunHook` subclass instances. Used for callbacks inside the
            evaluation call.
          checkpoint_path: Path of a specific checkpoint to evaluate. If `None`, the latest
            checkpoint in `model_dir` is used. If there are no checkpoints in `model_dir`,
            evaluation is run with newly initialized `Variables` instead of ones restored from
            checkpoint.
          name: Name of the evaluation if user needs to run multiple evaluations on different data
            sets, such as on training data vs test data.

        Returns:
          A dict containing the evaluation metrics specified in `model_fn` keyed by name, as well as
          an entry `global_step` which contains the value of the global step for which this
          evaluation was performed, and `loss` (the mean loss per batch).

        Raises:
          ValueError: If `steps <= 0`, or a metric is named `loss`.
        """
        from ..metrics import mean
        from ..ops.core_ops import group
        from ..train import basic_session_run_hooks as hooks_lib
        from ..train.monitored_session import ChiefSessionCreator, MonitoredSession
        if steps is not None and steps <= 0:
            raise ValueError("Must specify steps > 0, given: {}".format(steps))
        if checkpoint_path is None:
            checkpoint_path = self.latest_checkpoint()
            if checkpoint_path is None:
                logging.info("Could not find trained model in model_dir: %s, running initialization to evaluate.",
                             self._model_dir)
        ctx, global_step, _, spec, input_hooks = self._new_graph(input_fn, ModeKeys.EVAL)
        try:
            if "loss" in spec.eval_metric_ops:
                raise ValueError("Metric with name \"loss\" is not allowed, because Estimator already defines a "
                                 "default metric with the same name.")
            loss_metric = mean(spec.loss)
            eval_dict = {"loss": loss_metric[0]}
            update_ops = [loss_metric[1]]
            for key, (value, update) in spec.eval_metric_ops.items():
                eval_dict[key] = value
                update_ops.append(update)
            eval_dict[ops.GraphKeys.GLOBAL_STEP] = global_step
            update_op = group(*update_ops)
            all_hooks = input_hooks + list(hooks or []) + list(spec.evaluation_hooks)
            if steps is not None:
                all_hooks.append(_StopAfterNEvalsHook(steps))
            final_hook = hooks_lib.FinalOpsHook(eval_dict)
            all_hooks.append(final_hook)
            scaffold = self._scaffold_with_saver(spec.scaffold)
            logging.info("Starting evaluation")
            creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_filename_with_path=checkpoint_path,
                                          config=self._config.session_config)
            with MonitoredSession(session_creator=creator, hooks=all_hooks) as session:
                while not session.should_stop():
                    session.run(update_op)
            results = final_hook.final_ops_values
        finally:
            ctx.__exit__(None, None, None)
        logging.info("Finished evaluation")
        logging.info("Saving dict for global step %d: %s", results[ops.GraphKeys.GLOBAL_STEP],
                     ", ".join("%s = %s" % (k, results[k]) for k in sorted(results)))
        output_dir = os.path.join(self._model_dir, "eval" if not name else "eval_" + name)
        self._write_dict_to_summary(output_dir, results, results[ops.GraphKeys.GLOBAL_STEP])
        return results

    @staticmethod
    def _write_dict_to_summary(output_dir, dictionary, current_global_step):
        import numpy as np

        from ..summary.messages import Summary
        from ..summary.writer import FileWriterCache
        logging.info("Saving metrics for step: %d", current_global_step)
        summary_proto = Summary()
        for key in sorted(dictionary):
            if key == ops.GraphKeys.GLOBAL_STEP:
                continue
            value = np.asarray(dictionary[key])
            if value.shape == () and np.issubdtype(value.dtype, np.number):
                summary_proto.value.add(tag=key, simple_value=float(value))
            else:
                logging.warning("Skipping summary for %s, must be a float or np.float32.", key)
        writer = FileWriterCache.get(output_dir)
        writer.add_summary(summary_proto, int(current_global_step))
        writer.flush()

    # ---- export -----------------------------------------------------------------------------
    def export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra=None, as_text=False,
                           checkpoint_path=None, experimental_mode=ModeKeys.PREDICT):
        """Exports inference graph as a `SavedModel` into the given dir.

        Builds a new graph: calls `serving_input_receiver_fn` to obtain feature `Tensor`s, calls
        this `Estimator`'s `model_fn` in PREDICT mode on them, restores the latest checkpoint (or
        `checkpoint_path`) and writes a SavedModel tagged "serve" whose signatures come from the
        `export_outputs` of the `EstimatorSpec` (default: a `PredictOutput` of `predictions`
        under "serving_default"), to `export_dir_base/<timestamp>` (written under a temporary
        name and renamed). Real TensorFlow and TensorFlow Serving load it.

        Args:
          export_dir_base: A string containing a directory in which to create timestamped
            subdirectories containing exported `SavedModel`s.
          serving_input_receiver_fn: A function that takes no argument and returns a
            `tf.estimator.export.ServingInputReceiver` or `TensorServingInputReceiver`.
          assets_extra: A dict specifying how to populate the assets.extra directory within the
            exported `SavedModel`, or `None` if no extra assets are needed: {destination path
            relative to assets.extra: source file path}.
          as_text: whether to write the `SavedModel` proto in text format.
          checkpoint_path: The checkpoint path to export. If `None` (the default), the most recent
            checkpoint found within the model directory is chosen.
          experimental_mode: `tf.estimator.ModeKeys` value indicating with mode will be exported;
            only PREDICT is supported.

        Returns:
          The path to the exported directory as a bytes object.

        Raises:
          ValueError: if no `serving_input_receiver_fn` is provided, or no checkpoint can be found.
          NotImplementedError: If `experimental_mode` is not PREDICT.
        """
        if experimental_mode != ModeKeys.PREDICT:
            raise NotImplementedError("tensorweave exports only the PREDICT mode (got experimental_mode=%r)."
                                      % (experimental_mode,))
        from .export import export_saved_model
        return export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra=assets_extra,
                                  as_text=as_text, checkpoint_path=checkpoint_path)

    def export_savedmodel(self, export_dir_base, serving_input_receiver_fn, assets_extra=None, as_text=False,
                          checkpoint_path=None, strip_default_attrs=False):
        """Exports inference graph as a `SavedModel` into the given dir (the TF 1.x name of
        `export_saved_model`).

        Args:
          export_dir_base: A string containing a directory in which to create timestamped
            subdirectories containing exported `SavedModel`s.
          serving_input_receiver_fn: A function that takes no argument and returns a
            `tf.estimator.export.ServingInputReceiver` or `TensorServingInputReceiver`.
          assets_extra: A dict specifying how to populate the assets.extra directory within the
            exported `SavedModel`, or `None` if no extra assets are needed.
          as_text: whether to write the `SavedModel` proto in text format.
          checkpoint_path: The checkpoint path to export. If `None` (the default), the most recent
            checkpoint found within the model directory is chosen.
          strip_default_attrs: Boolean. If `True`, default-valued attributes will be removed from
            the `NodeDef`s.

        Returns:
          The path to the exported directory as a bytes object.

        Raises:
          ValueError: if no `serving_input_receiver_fn` is provided, or no checkpoint can be found.
        """
        from .export import export_saved_model
        return export_saved_model(self, export_dir_base, serving_input_receiver_fn, assets_extra=assets_extra,
                                  as_text=as_text, checkpoint_path=checkpoint_path,
                                  strip_default_attrs=strip_default_attrs)

    # ---- predict ----------------------------------------------------------------------------
    def predict(self, input_fn, predict_keys=None, hooks=None, checkpoint_path=None, yield_single_examples=True):
        """Yields predictions for given features.

        Runs the `PREDICT` graph until the input is exhausted (an `OutOfRangeError` from a
        dataset); an `input_fn` of plain tensors (no dataset or queue) gives one batch.

        Args:
          input_fn: A function that constructs the features (a `Dataset`, features, or
            `(features, labels)` whose labels are ignored).
          predict_keys: list of `str`, name of the keys to predict. If `None`, returns all.
          hooks: List of `tf.train.SessionRunHook` subclass instances.
          checkpoint_path: Path of a specific checkpoint to predict. If `None`, the latest checkpoint
            in `model_dir` is used; without one, the variables are initialized.
          yield_single_examples: If `False`, yields the whole batch as returned by the `model_fn`
            instead of decomposing the batch into individual elements.

        Yields:
          Evaluated values of `predictions` tensors.

        Raises:
          ValueError: If a key of `predict_keys` is not in the predictions, or batch sizes differ.
        """
        from ..train.monitored_session import ChiefSessionCreator, MonitoredSession
        if checkpoint_path is None:
            checkpoint_path = self.latest_checkpoint()
            if checkpoint_path is None:
                logging.info("Could not find trained model in model_dir: %s, running initialization to predict.",
                             self._model_dir)

        def input_features(**kwargs):
            result = input_fn(**kwargs)
            if isinstance(result, (list, tuple)) and len(result) == 2:
                return result[0]
            return result
        input_features.__signature__ = inspect.signature(input_fn)

        ctx, _, features, spec, input_hooks = self._new_graph(input_features, ModeKeys.PREDICT)
        try:
            predictions = spec.predictions
            if predict_keys is not None:
                if isinstance(predict_keys, str):
                    predict_keys = [predict_keys]
                if not isinstance(predictions, dict):
                    raise ValueError("predict_keys argument is not valid in case of non-dict predictions.")
                missing = [k for k in predict_keys if k not in predictions]
                if missing:
                    raise ValueError("Expected to run at least one output from {}, provided {}.".format(
                        sorted(predictions), predict_keys))
                predictions = {k: predictions[k] for k in predict_keys}
            feature_tensors = list(features.values()) if isinstance(features, dict) else [features]
            once = not input_hooks and not _reads_input([t for t in feature_tensors if isinstance(t, ops.Tensor)])
            scaffold = self._scaffold_with_saver(spec.scaffold)
            creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_filename_with_path=checkpoint_path,
                                          config=self._config.session_config)
            with MonitoredSession(session_creator=creator,
                                  hooks=input_hooks + list(hooks or []) + list(spec.prediction_hooks)) as session:
                while not session.should_stop():
                    preds = session.run(predictions)
                    if not yield_single_examples:
                        yield preds
                    elif not isinstance(preds, dict):
                        yield from preds
                    else:
                        sizes = {k: v.shape[0] for k, v in preds.items()}
                        if len(set(sizes.values())) != 1:
                            raise ValueError("Batch length of predictions should be same. {}".format(sizes))
                        for i in range(next(iter(sizes.values()))):
                            yield {k: v[i] for k, v in preds.items()}
                    if once:
                        break
        finally:
            ctx.__exit__(None, None, None)
