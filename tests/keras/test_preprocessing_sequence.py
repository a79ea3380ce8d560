"""tf.keras.preprocessing.sequence against Keras-Preprocessing 1.1.0 goldens
(tests/data/make_keras_preprocessing_tf.py)."""

import json
import os
import random

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.keras.preprocessing import sequence

with open(os.path.join(os.path.dirname(__file__), "..", "data", "keras_preprocessing_tf.json")) as _f:
    GOLD = json.load(_f)


def test_namespace():
    assert tf.keras.preprocessing.sequence.pad_sequences is sequence.pad_sequences
    assert isinstance(sequence.TimeseriesGenerator([[1]] * 5, [0] * 5, length=2), tf.keras.utils.Sequence)


@pytest.mark.parametrize("name", sorted(GOLD["pad_sequences"]["cases"]))
def test_pad_sequences_golden(name):
    gold = GOLD["pad_sequences"]
    case = gold["cases"][name]
    kwargs = dict(case["kwargs"])
    if kwargs.get("dtype") == "object":
        kwargs["dtype"] = object
    seqs = case.get("seqs") or (gold["str_seqs"] if name.startswith("strings") else gold["seqs"])
    res = sequence.pad_sequences(seqs, **kwargs)
    assert str(res.dtype) == case["dtype"]
    assert res.tolist() == case["out"]


def test_pad_sequences_numpy_input_and_errors():
    res = sequence.pad_sequences(np.array([np.arange(3), np.arange(5)], dtype=object), maxlen=4)
    np.testing.assert_array_equal(res, [[0, 0, 1, 2], [1, 2, 3, 4]])
    with pytest.raises(ValueError, match="`sequences` must be iterable"):
        sequence.pad_sequences(5)
    with pytest.raises(ValueError, match="must be a list of iterables. Found non-iterable: 3"):
        sequence.pad_sequences([[1], 3])
    with pytest.raises(ValueError, match='Truncating type "middle" not understood'):
        sequence.pad_sequences([[1, 2]], truncating="middle")
    with pytest.raises(ValueError, match='Padding type "both" not understood'):
        sequence.pad_sequences([[1, 2]], padding="both")
    with pytest.raises(ValueError, match="is not compatible with `value`'s type"):
        sequence.pad_sequences([["a"]], value="x")
    with pytest.raises(ValueError, match=r"Shape of sample \(3,\) of sequence at position 1 is different from "
                                         r"expected shape \(2,\)"):
        sequence.pad_sequences([[[1, 2]], [[1, 2, 3]]])


def test_make_sampling_table_golden():
    np.testing.assert_allclose(sequence.make_sampling_table(10), GOLD["sampling_table"]["10"], rtol=1e-12)
    np.testing.assert_allclose(sequence.make_sampling_table(6, sampling_factor=1e-3),
                               GOLD["sampling_table"]["6_1e-3"], rtol=1e-12)


@pytest.mark.parametrize("name", sorted(GOLD["skipgrams"]["cases"]))
def test_skipgrams_golden(name):
    gold = GOLD["skipgrams"]
    case = gold["cases"][name]
    state = random.getstate()
    try:
        random.seed(gold["python_random_seed"])
        couples, labels = sequence.skipgrams(gold["seq"], gold["vocabulary_size"], **case["kwargs"])
    finally:
        random.setstate(state)
    assert couples == case["couples"]
    assert labels == case["labels"]


@pytest.mark.parametrize("name", sorted(GOLD["timeseries"]["cases"]))
def test_timeseries_generator_golden(name):
    gold = GOLD["timeseries"]
    case = gold["cases"][name]
    gen = sequence.TimeseriesGenerator(np.array(gold["data"]), np.array(gold["targets"]), **case["kwargs"])
    assert len(gen) == case["len"]
    np.random.seed(gold["numpy_seed"])
    for i in range(len(gen)):
        x, y = gen[i]
        np.testing.assert_array_equal(x, case["x"][i])
        np.testing.assert_array_equal(y, case["y"][i])


def test_timeseries_generator_json_and_errors():
    data = np.arange(20).reshape(10, 2)
    gen = sequence.TimeseriesGenerator(data, np.arange(10), length=3, stride=2, batch_size=2)
    config = json.loads(gen.to_json())
    assert config["class_name"] == "TimeseriesGenerator"
    assert json.loads(config["config"]["data"]) == data.tolist()
    again = sequence.timeseries_generator_from_json(gen.to_json())
    assert len(again) == len(gen)
    for i in range(len(gen)):
        np.testing.assert_array_equal(again[i][0], gen[i][0])
        np.testing.assert_array_equal(again[i][1], gen[i][1])
    with pytest.raises(ValueError, match="Data and targets have to be of same length. Data length is 10 while "
                                         "target length is 9"):
        sequence.TimeseriesGenerator(data, np.arange(9), length=3)
    with pytest.raises(ValueError, match=r"`start_index\+length=12 > end_index=9` is disallowed"):
        sequence.TimeseriesGenerator(data, np.arange(10), length=12)
    with pytest.raises(TypeError, match="Data not JSON Serializable"):
        sequence.TimeseriesGenerator([object()] * 4, [0] * 4, length=1).get_config()
