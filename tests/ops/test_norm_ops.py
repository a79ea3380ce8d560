"""`tf.norm` (vector and matrix norms with TF's ord/axis/keepdims rules), `tf.arg_max`/`tf.arg_min`
and the `tf.math` names of nn functions (issue 15, item 12). Expected values were recorded from
real TensorFlow by tests/data/tf_issue15_golden.py."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf

with open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "tf_issue15_golden.json")) as _f:
    GOLDEN = json.load(_f)

NORM_CASES = [
    ("v", {}), ("v", {"ord": 1}), ("v", {"ord": 2}), ("v", {"ord": "inf"}), ("v", {"ord": 3}), ("v", {"ord": 0.5}),
    ("x", {}), ("x", {"axis": 1}), ("x", {"axis": 0, "ord": 1}), ("x", {"axis": -1, "ord": "inf", "keepdims": True}),
    ("x", {"ord": "fro", "axis": [0, 1]}), ("x", {"ord": "euclidean", "axis": [0, 1], "keepdims": True}),
    ("x", {"ord": 1, "axis": [0, 1]}), ("x", {"ord": "inf", "axis": [0, 1]}), ("x", {"ord": 1, "axis": [1, 0]}),
    ("x", {"ord": "inf", "axis": [-1, -2]}), ("x", {"ord": 1, "keep_dims": True}), ("b", {"axis": [1, 2]}),
    ("b", {"ord": 1, "axis": [-2, -1]}), ("b", {"ord": 3, "axis": 2}),
]
NORM_INPUTS = {"v": np.array([3.0, -4.0, 0.0], np.float32),
               "x": np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], np.float32),
               "b": np.arange(-6.0, 6.0).reshape(2, 2, 3)}


def _kwargs(kw):
    return {k: (np.inf if v == "inf" else v) for k, v in kw.items()}


@pytest.mark.parametrize("i", range(len(NORM_CASES)), ids=["%s-%s" % c for c in NORM_CASES])
def test_norm_matches_tensorflow(i):
    name, kw = NORM_CASES[i]
    expected = GOLDEN["norm"][i]
    x = NORM_INPUTS[name]
    t = tf.norm(tf.constant(x), **_kwargs(kw))
    assert t.shape.as_list() == expected["shape"] and t.dtype == tf.as_dtype(x.dtype)
    with tf.Session() as sess:
        got = sess.run(t)
    np.testing.assert_allclose(got, expected["value"], rtol=1e-6 if x.dtype == np.float32 else 1e-13)
    # the same with a placeholder of unknown shape: same values
    p = tf.placeholder(tf.as_dtype(x.dtype))
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(tf.norm(p, **_kwargs(kw)), {p: x}), expected["value"], rtol=1e-6)


def test_norm_recorded_numbers_and_gradient():
    with tf.Session() as sess:
        assert sess.run(tf.norm([3.0, -4.0])) == 5.0
        assert sess.run(tf.norm([[1.0, -2.0], [3.0, 4.0]], ord=1, axis=[0, 1])) == 6.0        # max column sum
        assert sess.run(tf.norm([[1.0, -2.0], [3.0, 4.0]], ord=np.inf, axis=(-2, -1))) == 7.0  # max row sum
        x = tf.constant([3.0, -4.0])
        np.testing.assert_allclose(sess.run(tf.gradients(tf.norm(x), x)[0]), [0.6, -0.8])
        c = tf.norm(tf.constant([3 + 4j, 0j], tf.complex64))
        assert c.dtype == tf.complex64 and sess.run(c) == 5.0
    assert tf.norm([1.0], name="my_norm").name.startswith("my_norm/")


@pytest.mark.parametrize("kw, exc, message", [
    ({"ord": "fro"}, ValueError, "'ord' must be a supported vector norm, got fro"),
    ({"ord": "fro", "axis": 1}, ValueError, "'ord' must be a supported vector norm, got fro"),
    ({"ord": 0}, ValueError, "'ord' must be a supported vector norm, got 0"),
    ({"ord": -1}, ValueError, "'ord' must be a supported vector norm, got -1"),
    ({"ord": "nuc"}, ValueError, "'ord' must be a supported vector norm, got nuc"),
    ({"ord": -np.inf}, ValueError, "'ord' must be a supported vector norm, got -inf"),
    ({"ord": 3, "axis": [0, 1]}, ValueError,
     r"'ord' must be a supported matrix norm in \['euclidean', 'fro', 1, 2, inf\], got 3"),
    ({"axis": [0, 0]}, ValueError, r"'axis' must be None, an integer, or a tuple of 2 unique integers, got \(0, 0\)"),
    ({"axis": [0, 1, 2]}, ValueError,
     r"'axis' must be None, an integer, or a tuple of 2 unique integers, got \[0, 1, 2\]"),
    ({"axis": 1.5}, ValueError, "'axis' must be None, an integer, or a tuple of 2 unique integers, got 1.5"),
    ({"axis": (0,)}, ValueError, r"'axis' must be None, an integer, or a tuple of 2 unique integers, got \(0,\)"),
    ({"axis": 5}, ValueError, "Invalid reduction dimension 5 for input with 2 dimensions"),
    ({"keepdims": True, "keep_dims": True}, ValueError, "Cannot specify both 'keepdims' and 'keep_dims'"),
])
def test_norm_errors(kw, exc, message):
    with pytest.raises(exc, match=message):
        tf.norm(tf.constant(NORM_INPUTS["x"]), **kw)


def test_norm_of_integers_is_rejected_by_sqrt():
    with pytest.raises(TypeError, match="int32"):
        tf.norm(tf.constant([3, 4]))


def test_arg_max_and_arg_min():
    x = tf.constant([[1.0, 5.0, 3.0], [7.0, 2.0, 9.0]])
    a = tf.arg_max(x, 1)
    b = tf.arg_min(x, 0, output_type=tf.int32)
    c = tf.compat.v1.arg_max(x, dimension=0, name="am")
    assert a.op.type == "ArgMax" and a.dtype == tf.int64 and b.op.type == "ArgMin" and b.dtype == tf.int32
    assert c.op.name == "am"
    with tf.Session() as sess:
        assert sess.run(a).tolist() == [1, 2] and sess.run(b).tolist() == [0, 1, 0]
        assert sess.run(c).tolist() == [1, 0, 1]
    with pytest.raises(TypeError):
        tf.arg_max(x)    # dimension is required, as in TF
    with pytest.raises(ValueError, match=r"Expected dimension in the range \[-2, 2\), but got 2"):
        tf.arg_max(x, 2)


def test_math_names_of_nn_functions():
    assert tf.math.log_softmax is tf.nn.log_softmax
    assert tf.math.l2_normalize is tf.nn.l2_normalize
    assert tf.math.softplus is tf.nn.softplus
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(tf.math.l2_normalize([3.0, 4.0])), [0.6, 0.8])
        np.testing.assert_allclose(sess.run(tf.math.softplus([0.0])), [np.log(2.0)], rtol=1e-6)
        np.testing.assert_allclose(sess.run(tf.math.log_softmax([0.0, 0.0])), [-np.log(2.0)] * 2, rtol=1e-6)


@pytest.mark.parametrize("name,kw,expected", [  # recorded from TensorFlow 2.21
    ("x", {"axis": [0, 1]}, 9.508034), ("x", {"axis": [1, 0], "keepdims": True}, [[9.508031]]),
    ("b", {"axis": [0, 2]}, [8.90366882, 7.77337384]), ("b", {"axis": [-1, -2], "keepdims": True},
                                                       [[[9.508032]], [[7.34846923]]]),
])
def test_matrix_2_norm_matches_tensorflow(name, kw, expected):
    t = tf.norm(tf.constant(NORM_INPUTS[name]), ord=2, **kw)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(t), expected, rtol=1e-6)
