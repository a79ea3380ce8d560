"""`tf.test`: the numerical gradient checker and test helpers."""

import numpy as np

from ..framework import dtypes, ops
from ..gradients.gradient_checker import compute_gradient, compute_gradient_error

__all__ = ["GradientCheckResult", "check_gradients", "compute_gradient", "compute_gradient_error",
           "is_gpu_available", "is_built_with_cuda"]


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """Whether the GPU backend finds a GPU device (this imports CuPy when it is installed).

    Args:
      cuda_only: Count only CUDA devices (CuPy's), not a GPU backend registered otherwise.
      min_cuda_compute_capability: A (major, minor) tuple: count only CUDA devices at least that
        capable.

    Returns:
      True if such a device exists.
    """
    from ..backends import cupy_backend, get_backend
    b = get_backend("GPU")
    if b is None or b.device_count() == 0:
        return False
    cuda = isinstance(b, cupy_backend.CupyBackend)
    if min_cuda_compute_capability is None:
        return cuda or not cuda_only
    return cuda and any(b.compute_capability(i) >= tuple(min_cuda_compute_capability)
                        for i in range(b.device_count()))


def is_built_with_cuda():
    """Whether the GPU backend (CuPy for CUDA, the `gpu` extra) is installed."""
    from ..backends import cupy_backend
    return cupy_backend.cupy_installed()


class GradientCheckResult:
    """The worst element of a `check_gradients` run.

    Attributes:
      name: What was checked (the function's name).
      max_error: The largest |theoretical - numerical| over every checked Jacobian entry (inf if an
        entry is not finite); 0.0 when nothing was checked.
      input_index, input_name: The input of the worst entry.
      input_element: Its element index (a tuple) in that input.
      output_index, output_element: The output and its element index.
      theoretical, numerical: The two derivatives at that entry (d output_element / d input_element).
      errors: `{(input_index, output_index): max error}` for every pair checked.
    """

    def __init__(self, name, input_names):
        self.name = name
        self._input_names = input_names
        self.max_error = 0.0
        self.input_index = self.input_name = self.input_element = None
        self.output_index = self.output_element = self.theoretical = self.numerical = None
        self.errors = {}

    def _add(self, i, j, x_shape, y_shape, theoretical, numerical):
        diff = np.abs(theoretical.astype(np.float64) - numerical.astype(np.float64))
        diff[~np.isfinite(diff)] = np.inf
        if not diff.size:
            return
        k = int(np.argmax(diff))
        err = float(diff.flat[k])
        self.errors[(i, j)] = err
        if self.input_index is None or err > self.max_error:
            row, col = np.unravel_index(k, diff.shape)
            self.max_error = err
            self.input_index, self.input_name, self.output_index = i, self._input_names[i], j
            self.input_element = tuple(int(d) for d in np.unravel_index(row, x_shape))
            self.output_element = tuple(int(d) for d in np.unravel_index(col, y_shape))
            self.theoretical = float(theoretical[row, col])
            self.numerical = float(numerical[row, col])

    def __str__(self):
        if self.input_index is None:
            return "gradient check of %s: no Jacobian entries checked" % self.name
        return ("gradient check of %s: max abs error %.3g at input %d ('%s') element %s, output %d element %s: "
                "theoretical %.6g, numerical %.6g" % (
                    self.name, self.max_error, self.input_index, self.input_name, self.input_element,
                    self.output_index, self.output_element, self.theoretical, self.numerical))

    __repr__ = __str__


def check_gradients(fn, inputs, wrt=None, delta=None, tolerance=None):
    """Compares the symbolic gradients of `fn` with central differences at `inputs`.

    Builds `fn` on placeholders in a new graph, then for every input in `wrt` and every
    floating-point output runs `compute_gradient` (full Jacobians, so keep the inputs small) and
    reports the worst Jacobian entry.

    Example:
      result = tf.test.check_gradients(tf_mod, [x, y], tolerance=1e-3)
      print(result)  # gradient check of tf_mod: max abs error 1.2e-05 at input 0 ('x') element (2,), ...

    Args:
      fn: A function of one tensor per input returning a tensor or a list of tensors, such as a
        `tf.custom_op` constructor (pass attrs with a lambda or functools.partial).
      inputs: A NumPy array, or a list of them (one per argument of `fn`): the point checked.
      wrt: The indices of the inputs to differentiate (default: every floating-point input).
      delta: The finite-difference step (default: 1e-6 for a float64 input, else 1e-3).
      tolerance: If given, raise AssertionError (with the report) when the max error exceeds it.

    Returns:
      A `GradientCheckResult` (its str() is the report).

    Raises:
      AssertionError: If `tolerance` is given and the max error exceeds it (or is not finite).
      ValueError: If an input in `wrt` is out of range or not floating-point.
      LookupError: If an op on the path has no gradient.
    """
    from ..client.session import Session
    from ..ops import core_ops

    arrays = [np.asarray(a) for a in (inputs if isinstance(inputs, (list, tuple)) else [inputs])]
    decl = getattr(fn, "_tw_declaration", None)
    names = ([s.name for s in decl.inputs] if decl is not None and len(decl.inputs) == len(arrays)
             else ["input_%d" % i for i in range(len(arrays))])
    dts = [dtypes.as_dtype(a.dtype) for a in arrays]
    if wrt is None:
        wrt = [i for i, dt in enumerate(dts) if dt.is_floating]
    for i in wrt:
        if not 0 <= i < len(arrays):
            raise ValueError("check_gradients: wrt index %d is out of range for %d inputs" % (i, len(arrays)))
        if not dts[i].is_floating:
            raise ValueError("check_gradients: input %d ('%s') has dtype %s; only floating-point inputs can be "
                             "checked" % (i, names[i], dts[i].name))
    result = GradientCheckResult(getattr(fn, "__name__", repr(fn)), names)
    g = ops.Graph()
    with g.as_default():
        phs = [core_ops.placeholder(dt, a.shape, name=n) for dt, a, n in zip(dts, arrays, names)]
        out = fn(*phs)
        outs = [ops.convert_to_tensor(y) for y in (out if isinstance(out, (list, tuple)) else [out])]
        with Session(graph=g) as sess:
            values = sess.run(outs, dict(zip(phs, arrays)))
            for i in wrt:
                feed = {p: a for k, (p, a) in enumerate(zip(phs, arrays)) if k != i}
                d = delta if delta is not None else (1e-6 if dts[i] is dtypes.float64 else 1e-3)
                for j, (y, v) in enumerate(zip(outs, values)):
                    if not y.dtype.is_floating:
                        continue
                    y_shape = np.shape(v)
                    theoretical, numerical = compute_gradient(phs[i], arrays[i].shape, y, y_shape,
                                                              x_init_value=arrays[i], delta=d, extra_feed_dict=feed)
                    result._add(i, j, arrays[i].shape, y_shape, theoretical, numerical)
    if tolerance is not None and not result.max_error <= tolerance:
        raise AssertionError("%s, above the tolerance %g" % (result, tolerance))
    return result


from .test_case import (Benchmark, StubOutForTesting, TestCase, assert_equal_graph_def,  # noqa: E402
                        benchmark_config, disable_with_predicate, get_temp_dir, gpu_device_name,
                        is_built_with_gpu_support, is_built_with_rocm, is_built_with_xla, main,
                        with_eager_op_as_function)

__all__ += ["Benchmark", "StubOutForTesting", "TestCase", "assert_equal_graph_def", "benchmark_config",
            "disable_with_predicate", "get_temp_dir", "gpu_device_name", "is_built_with_gpu_support",
            "is_built_with_rocm", "is_built_with_xla", "main", "with_eager_op_as_function"]
