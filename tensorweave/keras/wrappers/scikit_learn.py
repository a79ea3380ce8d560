"""Wrappers for the scikit-learn API (TF 1.15's `tf.keras.wrappers.scikit_learn`): `KerasClassifier` and
`KerasRegressor` build a Keras model with `build_fn` at each `fit`, and pass the other parameters to
`build_fn`, `fit`, `predict`, `predict_classes` and `evaluate` by name. scikit-learn itself is not needed
(it is in the `demo` extra); with it, the wrappers work with `clone`, `cross_val_score` and grid search."""

import copy
import types

import numpy as np

from ..engine.sequential import Sequential
from ..engine.training import Model
from ..losses import CategoricalCrossentropy, LossFunctionWrapper, categorical_crossentropy
from ..utils.generic_utils import has_arg
from ..utils.np_utils import to_categorical

__all__ = ["BaseWrapper", "KerasClassifier", "KerasRegressor"]


def _is_categorical_crossentropy(loss):
    return (isinstance(loss, CategoricalCrossentropy)
            or (isinstance(loss, LossFunctionWrapper) and loss.fn is categorical_crossentropy)
            or getattr(loss, "__name__", None) == "categorical_crossentropy"
            or (isinstance(loss, str) and loss == "categorical_crossentropy"))


class BaseWrapper:
    """Base class of the scikit-learn wrappers.

    `build_fn` is a function, an instance of a class with a `__call__` method, or None (then the subclass'
    own `__call__` builds the model); it returns a compiled Keras model. `sk_params` are model parameters
    (the arguments of `build_fn`, which must have defaults) and fitting parameters (of `Sequential.fit`,
    `predict`, `predict_classes` and `evaluate`, e.g. `epochs`, `batch_size`, `verbose`); each method gets
    the parameters its function accepts, and explicit keyword arguments of a call override them.

    Args:
      build_fn: The callable that builds and compiles the model.
      **sk_params: Model and fitting parameters.

    Raises:
      ValueError: for a parameter that none of those functions accepts.
      AttributeError: if `build_fn` is None and the class defines no `__call__`.
    """

    _estimator_type = None

    def __init__(self, build_fn=None, **sk_params):
        self.build_fn = build_fn
        self.sk_params = sk_params
        self.check_params(sk_params)

    def _build_callable(self):
        if self.build_fn is None:
            if not hasattr(self, "__call__"):
                raise AttributeError("'%s' object has no attribute '__call__': pass a `build_fn`, or define "
                                     "`__call__` in a subclass to build the model." % type(self).__name__)
            return self.__call__
        if not isinstance(self.build_fn, (types.FunctionType, types.MethodType)):
            return self.build_fn.__call__
        return self.build_fn

    def check_params(self, params):
        """Checks that every parameter is an argument of `build_fn` or of the fit/predict/evaluate methods.

        Args:
          params: Dictionary of parameters.

        Raises:
          ValueError: naming the first parameter that is not legal.
          AttributeError: if `build_fn` is None and the class defines no `__call__`.
        """
        legal_params_fns = [Sequential.fit, Sequential.predict, Sequential.predict_classes, Model.evaluate,
                            self._build_callable()]
        for params_name in params:
            if not any(has_arg(fn, params_name) for fn in legal_params_fns) and params_name != "nb_epoch":
                raise ValueError("{} is not a legal parameter".format(params_name))

    def get_params(self, **params):
        """Gets the parameters of this estimator (`deep` is accepted and ignored).

        Returns:
          A copy of `sk_params` with `build_fn`.
        """
        res = copy.deepcopy(self.sk_params)
        res.update({"build_fn": self.build_fn})
        return res

    def set_params(self, **params):
        """Sets the parameters of this estimator.

        Args:
          **params: Model and fitting parameters.

        Returns:
          self.

        Raises:
          ValueError: for a parameter that is not legal.
        """
        self.check_params(params)
        self.sk_params.update(params)
        return self

    def fit(self, x, y, **kwargs):
        """Builds a new model with `build_fn` and fits it.

        Args:
          x: Training inputs, array-like of shape `(n_samples, n_features)`.
          y: Targets, array-like of shape `(n_samples,)` or `(n_samples, n_outputs)`; integer labels are
            one-hot encoded for a model compiled with categorical cross-entropy.
          **kwargs: Arguments of `Sequential.fit`, overriding `sk_params`.

        Returns:
          The `History` of the training.
        """
        build = self._build_callable()
        self.model = build(**self.filter_sk_params(build))
        if _is_categorical_crossentropy(self.model.loss) and len(y.shape) != 2:
            y = to_categorical(y)
        fit_args = copy.deepcopy(self.filter_sk_params(Sequential.fit))
        fit_args.update(kwargs)
        return self.model.fit(x, y, **fit_args)

    def __sklearn_tags__(self):
        # scikit-learn >= 1.6 asks every estimator for its tags; this module does not import it otherwise.
        from sklearn.utils import ClassifierTags, RegressorTags, Tags, TargetTags

        return Tags(estimator_type=self._estimator_type, target_tags=TargetTags(required=True),
                    classifier_tags=ClassifierTags() if self._estimator_type == "classifier" else None,
                    regressor_tags=RegressorTags() if self._estimator_type == "regressor" else None)

    def filter_sk_params(self, fn, override=None):
        """The `sk_params` that `fn` accepts, updated with `override`.

        Args:
          fn: A callable.
          override: Dictionary of values that take precedence.

        Returns:
          A dictionary of arguments for `fn`.
        """
        res = {name: value for name, value in self.sk_params.items() if has_arg(fn, name)}
        res.update(override or {})
        return res


class KerasClassifier(BaseWrapper):
    """Implementation of the scikit-learn classifier API for Keras (see `BaseWrapper` for the arguments).

    The model's output is one probability per class (softmax) or one sigmoid unit for two classes.
    """

    _estimator_type = "classifier"

    def fit(self, x, y, **kwargs):
        """Builds a new model and fits it; `classes_` are the sorted labels of `y`.

        Args:
          x: Training inputs, array-like of shape `(n_samples, n_features)`.
          y: Labels of shape `(n_samples,)` or `(n_samples, 1)` (any sortable values), or one-hot
            `(n_samples, n_classes)`.
          **kwargs: Arguments of `Sequential.fit`, overriding `sk_params`.

        Returns:
          The `History` of the training.

        Raises:
          ValueError: for `y` of another shape.
        """
        y = np.array(y)
        if len(y.shape) == 2 and y.shape[1] > 1:
            self.classes_ = np.arange(y.shape[1])
        elif (len(y.shape) == 2 and y.shape[1] == 1) or len(y.shape) == 1:
            self.classes_ = np.unique(y)
            y = np.searchsorted(self.classes_, y)
        else:
            raise ValueError("Invalid shape for y: " + str(y.shape))
        self.n_classes_ = len(self.classes_)
        return super().fit(x, y, **kwargs)

    def predict(self, x, **kwargs):
        """Returns the predicted class labels.

        Args:
          x: Inputs, array-like of shape `(n_samples, n_features)`.
          **kwargs: Arguments of `Sequential.predict_classes`, overriding `sk_params`.

        Returns:
          The labels (from `classes_`), shape `(n_samples,)` (`(n_samples, 1)` for one sigmoid unit).
        """
        kwargs = self.filter_sk_params(Sequential.predict_classes, kwargs)
        proba = self.model.predict(x, **kwargs)
        if proba.shape[-1] > 1:
            classes = proba.argmax(axis=-1)
        else:
            classes = (proba > 0.5).astype("int32")
        return self.classes_[classes]

    def predict_proba(self, x, **kwargs):
        """Returns the class probabilities.

        Args:
          x: Inputs, array-like of shape `(n_samples, n_features)`.
          **kwargs: Arguments of `Sequential.predict_proba`, overriding `sk_params`.

        Returns:
          Array of shape `(n_samples, n_classes)`; for one sigmoid unit, the columns are `1 - p` and `p`.
        """
        kwargs = self.filter_sk_params(Sequential.predict_proba, kwargs)
        probs = self.model.predict(x, **kwargs)
        if probs.shape[1] == 1:
            probs = np.hstack([1 - probs, probs])
        return probs

    def score(self, x, y, **kwargs):
        """Returns the model's accuracy on the given data.

        Args:
          x: Inputs, array-like of shape `(n_samples, n_features)`.
          y: True labels (values of `classes_`).
          **kwargs: Arguments of `Model.evaluate`, overriding `sk_params`.

        Returns:
          The accuracy metric of `evaluate`.

        Raises:
          ValueError: if the model was not compiled with an accuracy metric.
        """
        y = np.searchsorted(self.classes_, y)
        kwargs = self.filter_sk_params(Model.evaluate, kwargs)
        loss_name = self.model.loss
        if hasattr(loss_name, "__name__"):
            loss_name = loss_name.__name__
        if loss_name == "categorical_crossentropy" and len(y.shape) != 2:
            y = to_categorical(y)
        outputs = self.model.evaluate(x, y, **kwargs)
        if not isinstance(outputs, list):
            outputs = [outputs]
        for name, output in zip(self.model.metrics_names, outputs):
            if name in ["accuracy", "acc"]:
                return output
        raise ValueError("The model is not configured to compute accuracy. You should pass "
                         "`metrics=[\"accuracy\"]` to the `model.compile()` method.")


class KerasRegressor(BaseWrapper):
    """Implementation of the scikit-learn regressor API for Keras (see `BaseWrapper` for the arguments)."""

    _estimator_type = "regressor"

    def predict(self, x, **kwargs):
        """Returns predictions for the given inputs.

        Args:
          x: Inputs, array-like of shape `(n_samples, n_features)`.
          **kwargs: Arguments of `Sequential.predict`, overriding `sk_params`.

        Returns:
          The squeezed predictions.
        """
        kwargs = self.filter_sk_params(Sequential.predict, kwargs)
        return np.squeeze(self.model.predict(x, **kwargs))

    def score(self, x, y, **kwargs):
        """Returns the negated loss of the model on the given data (higher is better, as scikit-learn wants).

        Args:
          x: Inputs, array-like of shape `(n_samples, n_features)`.
          y: True targets.
          **kwargs: Arguments of `Model.evaluate`, overriding `sk_params`.

        Returns:
          `-loss`.
        """
        kwargs = self.filter_sk_params(Model.evaluate, kwargs)
        loss = self.model.evaluate(x, y, **kwargs)
        if isinstance(loss, list):
            return -loss[0]
        return -loss
