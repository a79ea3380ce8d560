"""tf.keras.wrappers.scikit_learn: KerasClassifier / KerasRegressor parameter routing, fit / predict /
predict_proba / score against NumPy on fixed-weight models (SGD with learning rate 0 keeps the weights), and
scikit-learn's clone / cross_val_score when scikit-learn is installed (the `demo` extra)."""

import numpy as np
import pytest

from tensorweave import keras
from tensorweave.keras import backend as K
from tensorweave.keras.wrappers.scikit_learn import KerasClassifier, KerasRegressor

L = keras.layers
RNG = np.random.RandomState(0)
X = RNG.uniform(-1, 1, (12, 4)).astype("float32")
W3 = RNG.uniform(-1, 1, (4, 3)).astype("float32")
B3 = np.float32([0.1, -0.2, 0.05])
W1 = RNG.uniform(-1, 1, (4, 1)).astype("float32")


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _softmax(z):
    e = np.exp(z - z.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def build_classifier(units=3, loss="categorical_crossentropy", metrics=("accuracy",), activation="softmax"):
    """A fixed-weight linear classifier (`units` 3 with W3/B3, 1 with W1 and a sigmoid)."""
    kernel, bias = (W3, B3) if units == 3 else (W1, np.zeros(1, "float32"))
    model = keras.Sequential([L.Dense(units, activation=activation, input_shape=(4,),
                                      kernel_initializer=keras.initializers.Constant(kernel),
                                      bias_initializer=keras.initializers.Constant(bias))])
    model.compile(keras.optimizers.SGD(lr=0.0), loss, metrics=list(metrics))
    return model


def build_regressor(scale=1.0):
    model = keras.Sequential([L.Dense(1, input_shape=(4,), kernel_initializer=keras.initializers.Constant(W1 * scale),
                                      bias_initializer="zeros")])
    model.compile(keras.optimizers.SGD(lr=0.0), "mse")
    return model


LABELS = np.array(["b", "a", "c", "a", "b", "c", "c", "a", "b", "b", "a", "c"])


def test_classifier_values():
    clf = KerasClassifier(build_classifier, epochs=1, batch_size=4, verbose=0)
    history = clf.fit(X, LABELS)
    assert history.params["epochs"] == 1
    np.testing.assert_array_equal(clf.classes_, ["a", "b", "c"])
    assert clf.n_classes_ == 3
    probs = _softmax(X @ W3 + B3)
    np.testing.assert_allclose(clf.predict_proba(X), probs, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(clf.predict(X), np.array(["a", "b", "c"])[probs.argmax(-1)])
    want = np.mean(np.array(["a", "b", "c"])[probs.argmax(-1)] == LABELS)
    assert clf.score(X, LABELS) == pytest.approx(want, abs=1e-6)


def test_classifier_one_hot_and_sparse_targets():
    one_hot = np.eye(3, dtype="float32")[[0, 2, 1, 1, 0, 2, 2, 0, 1, 1, 0, 2]]
    clf = KerasClassifier(build_classifier, epochs=1, verbose=0)
    clf.fit(X, one_hot)
    np.testing.assert_array_equal(clf.classes_, [0, 1, 2])
    sparse = KerasClassifier(build_classifier, loss="sparse_categorical_crossentropy", epochs=1, verbose=0)
    sparse.fit(X, LABELS.reshape(-1, 1))
    np.testing.assert_array_equal(sparse.predict(X[:3]), np.array(["a", "b", "c"])[(X[:3] @ W3 + B3).argmax(-1)])


def test_binary_classifier_probabilities():
    y = np.array([0, 1] * 6)
    clf = KerasClassifier(build_classifier, units=1, loss="binary_crossentropy", activation="sigmoid",
                          epochs=1, verbose=0)
    clf.fit(X, y)
    p = 1 / (1 + np.exp(-(X @ W1)))
    np.testing.assert_allclose(clf.predict_proba(X), np.hstack([1 - p, p]), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(clf.predict(X), (p > 0.5).astype("int32"))
    assert clf.score(X, y) == pytest.approx(np.mean((p[:, 0] > 0.5) == y), abs=1e-6)


def test_regressor_values():
    y = RNG.uniform(-1, 1, 12).astype("float32")
    reg = KerasRegressor(build_regressor, scale=2.0, epochs=1, batch_size=12, verbose=0)
    reg.fit(X, y)
    pred = (X @ (2 * W1))[:, 0]
    np.testing.assert_allclose(reg.predict(X), pred, rtol=1e-5, atol=1e-6)
    assert reg.predict(X).shape == (12,)
    assert reg.score(X, y) == pytest.approx(-np.mean((pred - y) ** 2), rel=1e-5)


def test_params_routing_and_overrides():
    calls = []

    class Builder:
        def __call__(self, units=3):
            calls.append(units)
            return build_classifier(units=units)

    builder = Builder()
    clf = KerasClassifier(builder, units=3, epochs=2, verbose=0)
    history = clf.fit(X, LABELS, epochs=1)
    assert calls == [3] and history.params["epochs"] == 1
    params = clf.get_params(deep=False)
    assert params == {"build_fn": builder, "units": 3, "epochs": 2, "verbose": 0}
    assert clf.set_params(epochs=3, batch_size=5) is clf
    assert clf.sk_params == {"units": 3, "epochs": 3, "verbose": 0, "batch_size": 5}
    assert clf.filter_sk_params(build_classifier, {"metrics": ()}) == {"units": 3, "metrics": ()}


def test_subclass_call_builds_the_model():
    class Clf(KerasClassifier):
        def __call__(self, units=3):
            return build_classifier(units=units)

    clf = Clf(units=3, epochs=1, verbose=0)
    clf.fit(X, LABELS)
    np.testing.assert_allclose(clf.predict_proba(X[:2]), _softmax(X[:2] @ W3 + B3), rtol=1e-5, atol=1e-6)


def test_errors():
    with pytest.raises(ValueError, match="^colour is not a legal parameter$"):
        KerasClassifier(build_classifier, colour="red")
    clf = KerasClassifier(build_classifier, epochs=1, verbose=0)
    with pytest.raises(ValueError, match="^shuffle_twice is not a legal parameter$"):
        clf.set_params(shuffle_twice=True)
    with pytest.raises(ValueError, match=r"Invalid shape for y: \(12, 1, 1\)"):
        clf.fit(X, np.zeros((12, 1, 1)))
    no_acc = KerasClassifier(build_classifier, metrics=(), epochs=1, verbose=0)
    no_acc.fit(X, LABELS)
    with pytest.raises(ValueError, match="The model is not configured to compute accuracy"):
        no_acc.score(X, LABELS)
    with pytest.raises(AttributeError, match="'KerasRegressor' object has no attribute '__call__': pass a `build_fn`"):
        KerasRegressor(epochs=1)


def test_sklearn_clone_and_cross_val_score():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone, is_classifier, is_regressor
    from sklearn.model_selection import KFold, cross_val_score

    assert is_classifier(KerasClassifier(build_classifier)) and is_regressor(KerasRegressor(build_regressor))
    assert sklearn.__version__
    clf = KerasClassifier(build_classifier, epochs=1, batch_size=4, verbose=0)
    twin = clone(clf)
    assert twin is not clf and twin.get_params() == clf.get_params()
    scores = cross_val_score(clf, X, LABELS, cv=KFold(3))
    pred = np.array(["a", "b", "c"])[(X @ W3 + B3).argmax(-1)]
    want = []
    for train, test in KFold(3).split(X):
        assert len(np.unique(LABELS[train])) == 3  # each fold's classifier knows every label
        want.append(np.mean(pred[test] == LABELS[test]))
    np.testing.assert_allclose(scores, want, atol=1e-6)
    reg_scores = cross_val_score(KerasRegressor(build_regressor, epochs=1, verbose=0), X, X[:, 0], cv=KFold(2))
    for score, (train, test) in zip(reg_scores, KFold(2).split(X)):
        assert score == pytest.approx(-np.mean(((X[test] @ W1)[:, 0] - X[test, 0]) ** 2), rel=1e-5)
