"""`tf.estimator.add_metrics`: an Estimator with extra evaluation metrics."""

import inspect

from .model_fn import ModeKeys

__all__ = ["add_metrics"]

_VALID_METRIC_FN_ARGS = {"features", "labels", "predictions", "config"}


def _fn_args(fn):
    return tuple(inspect.signature(fn).parameters)


def add_metrics(estimator, metric_fn):
    """Creates a new `tf.estimator.Estimator` which has given metrics.

    Example:

        def my_auc(labels, predictions):
            return {'auc': tf.metrics.auc(labels, predictions['logistic'])}

        estimator = tf.estimator.DNNClassifier(...)
        estimator = tf.estimator.add_metrics(estimator, my_auc)
        estimator.train(...)
        estimator.evaluate(...)

    Args:
      estimator: A `tf.estimator.Estimator` object.
      metric_fn: A function which should obey the following signature: args can only be
        `features`, `labels`, `predictions` (the EstimatorSpec's predictions) and `config`; it
        returns a dict of `(metric_value, update_op)` tuples keyed by metric name.

    Returns:
      A new `tf.estimator.Estimator` which has a union of original metrics with given ones.

    Raises:
      ValueError: If `metric_fn` has other arguments.
    """
    from .canned._common import _CannedEstimator
    invalid_args = list(set(_fn_args(metric_fn)) - _VALID_METRIC_FN_ARGS)
    if invalid_args:
        raise ValueError("metric_fn (%s) has following not expected args: %s" % (metric_fn, invalid_args))
    model_fn = estimator.model_fn

    def new_model_fn(features, labels, mode, config):
        spec = model_fn(features, labels, mode, config)
        if mode != ModeKeys.EVAL:
            return spec
        args = _fn_args(metric_fn)
        kwargs = {k: v for k, v in (("features", features), ("labels", labels), ("predictions", spec.predictions),
                                    ("config", config)) if k in args}
        all_metrics = dict(spec.eval_metric_ops or {})
        all_metrics.update(metric_fn(**kwargs))
        return spec._replace(eval_metric_ops=all_metrics)

    # the original model function already warm-starts (a canned estimator's does)
    return _CannedEstimator(new_model_fn, model_dir=estimator.model_dir, config=estimator.config)
