"""What the canned estimators share: `WarmStartSettings`, warm-starting inside the model function,
the estimator base class and the checks of their arguments."""

import collections
import os

from ... import tf_logging as logging
from ...framework import ops
from ...train.session_run_hook import SessionRunHook
from ..estimator import Estimator
from ..model_fn import ModeKeys

__all__ = ["WarmStartSettings"]


class WarmStartSettings(collections.namedtuple("WarmStartSettings", [
        "ckpt_to_initialize_from", "vars_to_warm_start", "var_name_to_vocab_info", "var_name_to_prev_var_name"])):
    """Settings for warm-starting an Estimator (`tf.estimator.WarmStartSettings`).

    Args:
      ckpt_to_initialize_from: A checkpoint prefix or a directory holding checkpoints.
      vars_to_warm_start: A regular expression over the trainable variables' names (default
        ".*": all of them), a list of names or expressions, or `None`.
      var_name_to_vocab_info: A dict from variable name to `tf.train.VocabInfo`.
      var_name_to_prev_var_name: A dict from variable name to its name in the checkpoint.

    Raises:
      ValueError: If `ckpt_to_initialize_from` is None.
    """

    def __new__(cls, ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
                var_name_to_prev_var_name=None):
        if not ckpt_to_initialize_from:
            raise ValueError("`ckpt_to_initialize_from` MUST be set in WarmStartSettings")
        return super().__new__(cls, ckpt_to_initialize_from, vars_to_warm_start, var_name_to_vocab_info or {},
                               var_name_to_prev_var_name or {})


def _get_default_warm_start_settings(warm_start_from):
    if warm_start_from is None:
        return None
    if isinstance(warm_start_from, (str, bytes, os.PathLike)):
        path = os.fsdecode(warm_start_from)
        from ...platform import gfile
        saved_model_variables = os.path.join(path, "variables", "variables")
        if gfile.exists(saved_model_variables + ".index"):  # a SavedModel directory: its variables
            logging.info("Warm-starting from a SavedModel")
            return WarmStartSettings(ckpt_to_initialize_from=saved_model_variables)
        return WarmStartSettings(ckpt_to_initialize_from=path)
    if isinstance(warm_start_from, WarmStartSettings):
        return warm_start_from
    raise ValueError("warm_start_from must be a string or a WarmStartSettings, instead got {}".format(
        type(warm_start_from)))


class _TablesInitializerHook(SessionRunHook):
    """Initializes the graph's lookup tables (label vocabularies, vocabulary feature columns) once
    the session exists, as TF's default `Scaffold.local_init_op` does."""

    def begin(self):
        from ...ops.lookup_ops import tables_initializer
        self._init = tables_initializer()

    def after_create_session(self, session, coord):
        session.run(self._init)


def _with_table_initializers(spec):
    if not ops.get_collection(ops.GraphKeys.TABLE_INITIALIZERS) or any(
            isinstance(h, _TablesInitializerHook) for h in spec.evaluation_hooks):
        return spec
    hook = _TablesInitializerHook()
    return spec._replace(training_hooks=spec.training_hooks + (hook,),
                         evaluation_hooks=spec.evaluation_hooks + (hook,),
                         prediction_hooks=spec.prediction_hooks + (hook,))


class _CannedEstimator(Estimator):
    """An `Estimator` whose model function is a canned one; warm-starts its TRAIN graphs."""

    def __init__(self, model_fn, model_dir=None, config=None, warm_start_from=None):
        settings = _get_default_warm_start_settings(warm_start_from)

        def _model_fn(features, labels, mode, config):
            spec = _with_table_initializers(model_fn(features, labels, mode, config))
            if settings is not None and mode == ModeKeys.TRAIN:
                from ...train.warm_starting import warm_start
                warm_start(settings.ckpt_to_initialize_from, settings.vars_to_warm_start,
                           settings.var_name_to_vocab_info or None, settings.var_name_to_prev_var_name or None)
            return spec

        super().__init__(_model_fn, model_dir=model_dir, config=config)
        self._warm_start_settings = settings


def _check_features(features):
    if not isinstance(features, dict):
        raise ValueError("features should be a dictionary of `Tensor`s. Given type: {}".format(type(features)))


def _check_partitioner(partitioner, name):
    if partitioner is not None:
        raise NotImplementedError("tensorweave's canned estimators do not partition variables ({} must be None)."
                                  .format(name))


def _check_feature_columns(feature_columns, what="feature_columns"):
    from ...feature_column.columns import _FeatureColumn
    feature_columns = list(feature_columns or [])
    for column in feature_columns:
        if not isinstance(column, _FeatureColumn):
            raise ValueError("Items of {} must be a _FeatureColumn. Given (type {}): {}.".format(
                what, type(column), column))
    return feature_columns


def _values(features):
    return [v for v in features.values() if isinstance(v, ops.Tensor)]
