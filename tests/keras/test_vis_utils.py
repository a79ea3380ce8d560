"""`tf.keras.utils.model_to_dot` / `plot_model`: the nodes, labels and edges of the pydot graph (when
pydot is installed), and Keras' ImportError when pydot or Graphviz is missing."""

import shutil
import sys

import pytest

from tensorweave import keras
from tensorweave.keras import backend as K
from tensorweave.keras.utils import vis_utils


@pytest.fixture(autouse=True)
def _clear():
    K.clear_session()
    yield
    K.clear_session()


def _sequential():
    return keras.Sequential([keras.layers.Dense(4, input_shape=(3,), name="a"), keras.layers.Dense(2, name="b")])


def _labels(dot):
    return {n.get_name(): n.get("label").strip('"') for n in dot.get_nodes() if n.get("label")}


def _edges(dot):
    return {(e.get_source(), e.get_destination()) for e in dot.get_edges()}


def test_missing_pydot_raises_keras_import_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "pydot", None)
    with pytest.raises(ImportError, match=r"Failed to import pydot. You must install pydot and graphviz for "
                                          r"`pydotprint` to work"):
        keras.utils.model_to_dot(_sequential())
    with pytest.raises(ImportError, match=r"tensorweave\[plot\]"):
        keras.utils.plot_model(_sequential(), "model.png")


def test_sequential_nodes_labels_and_edges():
    pytest.importorskip("pydot", reason="model_to_dot needs the [plot] extra")
    model = _sequential()
    dot = keras.utils.model_to_dot(model, show_shapes=True, rankdir="LR")
    assert dot.get("rankdir") == "LR"
    inp, a, b = (str(id(layer)) for layer in model._layers)
    labels = _labels(dot)
    assert labels == {inp: "a_input: InputLayer\n|{input:|output:}|{{(?, 3)}|{(?, 3)}}",
                      a: "a: Dense\n|{input:|output:}|{{(?, 3)}|{(?, 4)}}",
                      b: "b: Dense\n|{input:|output:}|{{(?, 4)}|{(?, 2)}}"}
    assert _edges(dot) == {(inp, a), (a, b)}
    plain = keras.utils.model_to_dot(model, show_layer_names=False)
    assert sorted(_labels(plain).values()) == ["Dense", "Dense", "InputLayer"]


def test_functional_branches_nested_models_and_subclassed():
    pytest.importorskip("pydot", reason="model_to_dot needs the [plot] extra")
    inp = keras.Input((3,), name="x")
    left = keras.layers.Dense(2, name="left")(inp)
    right = keras.layers.Dense(2, name="right")(inp)
    inner = _sequential()
    nested_out = inner(inp)
    model = keras.Model(inp, [left, right, nested_out])
    dot = keras.utils.model_to_dot(model)
    ids = {layer.name: str(id(layer)) for layer in model._layers}
    assert sorted(_labels(dot).values()) == ["left: Dense", "right: Dense", "sequential: Sequential", "x: InputLayer"]
    assert _edges(dot) == {(ids["x"], ids["left"]), (ids["x"], ids["right"]), (ids["x"], ids["sequential"])}
    expanded = keras.utils.model_to_dot(model, expand_nested=True)
    (cluster,) = expanded.get_subgraphs()
    assert sorted(_labels(cluster).values()) == ["a: Dense", "a_input: InputLayer", "b: Dense"]
    assert (ids["x"], str(id(inner._layers[0]))) in _edges(expanded)

    class Sub(keras.Model):
        def call(self, inputs):
            return inputs

    sub = Sub(name="custom")
    dot = keras.utils.model_to_dot(sub)
    assert list(_labels(dot).values()) == ["custom"]


def test_plot_model_writes_the_image_or_names_graphviz(tmp_path):
    pytest.importorskip("pydot", reason="plot_model needs the [plot] extra")
    path = tmp_path / "model.png"
    if shutil.which("dot") is None:
        with pytest.raises(ImportError, match=r"Graphviz's `dot` program could not be run"):
            keras.utils.plot_model(_sequential(), str(path))
        assert not path.exists()
        return
    keras.utils.plot_model(_sequential(), str(path), show_shapes=True)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert vis_utils.plot_model is keras.utils.plot_model
