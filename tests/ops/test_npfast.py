"""The reshaped NumPy calls give the obvious calls' values bitwise."""

import numpy as np
import pytest

from tensorweave.ops import _npfast

SPECIAL = [0.0, -0.0, np.nan, -np.nan, np.inf, -np.inf, 1e-45, -1e-45, 1.5, -2.5, 3e38, -3e38]


def _bits(a):
    return np.asarray(a).view("i%d" % np.asarray(a).dtype.itemsize)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int32])
@pytest.mark.parametrize("size", [0, 7, _npfast._ROW, 3 * _npfast._ROW + 5])
def test_relu_is_maximum_with_zero_bitwise(dtype, size):
    with np.errstate(over="ignore"):  # 3e38 is inf in float16
        values = np.resize(np.array(SPECIAL if np.dtype(dtype).kind == "f" else [0, -3, 7], dtype), size)
    x = values.reshape(-1, 1) if size else values
    expected = np.maximum(x, np.zeros((), dtype))
    got = _npfast.relu(x)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(_bits(got), _bits(expected))
    inplace = x.copy()
    assert _npfast.relu(inplace, out=inplace) is inplace
    np.testing.assert_array_equal(_bits(inplace), _bits(expected))


def test_relu_of_a_strided_view():
    x = np.random.RandomState(0).randn(4 * _npfast._ROW).astype(np.float32)[::2]
    np.testing.assert_array_equal(_npfast.relu(x), np.maximum(x, 0))


@pytest.mark.parametrize("channels", [3, 32, 300])
def test_add_channels_is_broadcast_add_bitwise(channels):
    rng = np.random.RandomState(channels)
    block = rng.randn(2, 5, 7, channels).astype(np.float32)
    bias = rng.randn(channels).astype(np.float32)
    expected = block + bias
    _npfast.add_channels(block, bias)
    np.testing.assert_array_equal(_bits(block), _bits(expected))
