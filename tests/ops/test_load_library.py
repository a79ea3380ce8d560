"""tf.load_op_library: C kernels built with the system compiler (examples/zero_out and small test
libraries), their Python constructors, gradients registered in Python, and every error path."""

import inspect
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tensorweave.kernels import build_library, find_compiler
from tensorweave.ops import load_library as load_library_module

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ZERO_OUT_DIR = os.path.join(ROOT, "examples", "zero_out")
ZERO_OUT_C = os.path.join(ZERO_OUT_DIR, "zero_out.c")

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="needs a C compiler (cc/gcc/clang)")

# Ops exercising shape functions, several outputs, default names and kernel errors.
TEST_OPS_C = r"""
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "tensorweave_op.h"

static int row_sum_shape(const tw_shape* in, int n_in, tw_shape* out, int n_out, char* err, size_t err_len) {
  if (in[0].ndim != -1 && in[0].ndim != 2) {
    snprintf(err, err_len, "RowSum expects a matrix, got rank %d", in[0].ndim);
    return 1;
  }
  out[0].ndim = 1;
  out[0].dims[0] = in[0].ndim == 2 ? in[0].dims[0] : -1;
  return 0;
}

static int row_sum(const tw_tensor* in, int n_in, tw_tensor* out, int n_out, char* err, size_t err_len) {
  const double* x = (const double*)in[0].data;
  double* s = (double*)out[0].data;
  int64_t rows = in[0].shape[0], cols = in[0].shape[1];
  for (int64_t i = 0; i < rows; ++i) {
    s[i] = 0;
    for (int64_t j = 0; j < cols; ++j) {
      if (isnan(x[i * cols + j])) {
        snprintf(err, err_len, "row %lld contains NaN", (long long)i);
        return 1;
      }
      s[i] += x[i * cols + j];
    }
  }
  return 0;
}

static int scalar_and_same(const tw_shape* in, int n_in, tw_shape* out, int n_out, char* err, size_t err_len) {
  out[0].ndim = 0;
  out[1] = in[0];
  return 0;
}

static int size_and_copy(const tw_tensor* in, int n_in, tw_tensor* out, int n_out, char* err, size_t err_len) {
  int64_t n = 1;
  for (int i = 0; i < in[0].ndim; ++i) n *= in[0].shape[i];
  *(int64_t*)out[0].data = n;
  memcpy(out[1].data, in[0].data, (size_t)n * (in[0].dtype == TW_INT64 ? 8 : 4));
  return 0;
}

static int fails(const tw_tensor* in, int n_in, tw_tensor* out, int n_out, char* err, size_t err_len) {
  return 7;
}

static int unknown_shape(const tw_shape* in, int n_in, tw_shape* out, int n_out, char* err, size_t err_len) {
  out[0].ndim = 1;
  out[0].dims[0] = -1;
  return 0;
}

static const char* const x_name[] = {"x"};
static const char* const size_copy_names[] = {"size", "copy"};
static const uint32_t f64[] = {TW_TYPE(TW_DOUBLE)};
static const uint32_t f32_i64[] = {TW_TYPE(TW_FLOAT) | TW_TYPE(TW_INT64)};
static const int32_t f64_out[] = {TW_DOUBLE};
static const int32_t size_copy_types[] = {TW_INT64, TW_SAME_AS_INPUT(0)};

static const tw_op_def test_ops[] = {
    {"TwTestRowSum", 1, 1, x_name, f64, NULL, f64_out, row_sum_shape, row_sum, "Sums the rows of a matrix."},
    {"TwTestSizeAndCopy", 1, 2, NULL, f32_i64, size_copy_names, size_copy_types, scalar_and_same, size_and_copy,
     NULL},
    {"TwTestFails", 1, 1, x_name, f64, NULL, f64_out, NULL, fails, NULL},
    {"TwTestUnknownShape", 1, 1, x_name, f64, NULL, f64_out, unknown_shape, row_sum, NULL},
};

TW_OP_LIST(test_ops)
"""


def _build(tmp_path, source, name):
    src = tmp_path / (name + ".c")
    src.write_text(source)
    return build_library([str(src)], str(tmp_path / ("lib%s.so" % name)))


@pytest.fixture(scope="module")
def zero_out_module(tmp_path_factory):
    lib = build_library([ZERO_OUT_C], str(tmp_path_factory.mktemp("zero_out") / "libzero_out.so"))
    module = tf.load_op_library(lib)
    if not _has_gradient("ZeroOutFloat"):
        tf.RegisterGradient("ZeroOutFloat")(_zero_out_grad)
    return module


@pytest.fixture(scope="module")
def test_ops(tmp_path_factory):
    return tf.load_op_library(_build(tmp_path_factory.mktemp("test_ops"), TEST_OPS_C, "tw_test_ops"))


def _has_gradient(op_type):
    from tensorweave.framework import registry
    return op_type in registry._GRADIENTS


def _zero_out_grad(op, grad):
    """TF's tutorial gradient: only the first element of the input gets the gradient."""
    to_zero = op.inputs[0]
    shape = tf.shape(to_zero)
    first_grad = tf.reshape(grad, [-1])[0]
    return [tf.sparse_to_dense([tf.zeros_like(shape)], shape, first_grad, 0)]


# ---- forward -----------------------------------------------------------------------------------
def test_zero_out_matches_numpy(zero_out_module):
    x = np.array([[5, -2, 7], [1, 9, 3]], np.int32)
    y = zero_out_module.zero_out(x)
    assert y.dtype == tf.int32 and y.shape.as_list() == [2, 3] and y.op.type == "ZeroOut"
    expected = np.zeros_like(x)
    expected.flat[0] = x.flat[0]
    with tf.Session() as sess:
        out = sess.run(y)
        empty = sess.run(zero_out_module.zero_out(np.zeros([0], np.int32)))
    np.testing.assert_array_equal(out, expected)
    assert out.dtype == np.int32
    assert empty.shape == (0,)


def test_zero_out_float_keeps_dtype_and_placeholder_shape(zero_out_module):
    x = tf.placeholder(tf.float64, [None, 2])
    y = zero_out_module.zero_out_float(x)
    assert y.dtype == tf.float64 and y.shape.as_list() == [None, 2]
    with tf.Session() as sess:
        out = sess.run(y, {x: [[1.5, 2.0], [3.0, 4.0]]})
    np.testing.assert_array_equal(out, [[1.5, 0.0], [0.0, 0.0]])
    assert out.dtype == np.float64


def test_constructor_signature_name_and_doc(zero_out_module):
    fn = zero_out_module.zero_out
    assert fn.__name__ == "zero_out"
    assert list(inspect.signature(fn).parameters) == ["to_zero", "name"]
    assert "Keeps the first element of an int32 tensor" in fn.__doc__
    assert "to_zero: A `Tensor` of type `int32`." in fn.__doc__
    assert ("to_zero: A `Tensor`. Must be one of the following types: `float32`, `float64`."
            in zero_out_module.zero_out_float.__doc__)
    assert "zeroed: A `Tensor`. Has the same type as `to_zero`." in zero_out_module.zero_out_float.__doc__
    y = fn(to_zero=[1, 2], name="my_zero")
    assert y.op.name == "my_zero"
    assert fn([3]).op.name == "ZeroOut"


def test_zero_out_runs_eagerly(zero_out_module):
    with context.eager_mode():
        y = zero_out_module.zero_out([[1, 2], [3, 4]])
        np.testing.assert_array_equal(y.numpy(), [[1, 0], [0, 0]])


def test_same_library_twice_is_the_same_module(zero_out_module):
    assert tf.load_op_library(zero_out_module.__file__) is zero_out_module
    assert tf.load_op_library(os.path.join(os.path.dirname(zero_out_module.__file__), ".",
                                           "libzero_out.so")) is zero_out_module


def test_rebuilt_library_at_a_new_path_redefines_the_op(zero_out_module, tmp_path):
    again = tf.load_op_library(build_library([ZERO_OUT_C], str(tmp_path / "libzero_out2.so")))
    assert again is not zero_out_module
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(again.zero_out([4, 5])), [4, 0])


def test_shape_function_and_kernel(test_ops):
    x = np.arange(12, dtype=np.float64).reshape(3, 4)
    y = test_ops.tw_test_row_sum(x)
    assert y.shape.as_list() == [3]
    assert test_ops.tw_test_row_sum(tf.placeholder(tf.float64)).shape.ndims == 1
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(y), x.sum(axis=1))


def test_several_outputs_are_a_namedtuple_with_default_input_names(test_ops):
    fn = test_ops.tw_test_size_and_copy
    assert list(inspect.signature(fn).parameters) == ["input_0", "name"]
    out = fn(np.arange(6, dtype=np.int64).reshape(2, 3))
    assert out._fields == ("size", "copy")
    assert out.size.dtype == tf.int64 and out.size.shape.as_list() == []
    assert out.copy.dtype == tf.int64 and out.copy.shape.as_list() == [2, 3]
    with tf.Session() as sess:
        size, copy = sess.run(out)
    assert size == 6
    np.testing.assert_array_equal(copy, np.arange(6).reshape(2, 3))


# ---- gradients registered in Python ------------------------------------------------------------
def test_gradient_registered_in_python(zero_out_module):
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    y = zero_out_module.zero_out_float(x)
    dx, = tf.gradients(y * tf.constant([[5.0, 6.0], [7.0, 8.0]]), x)
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(dx), [[5.0, 0.0], [0.0, 0.0]])
        error = tf.test.compute_gradient_error(x, [2, 2], y, [2, 2])
    assert error < 1e-3


def test_op_without_gradient_raises_lookup_error(test_ops):
    x = tf.constant([[1.0, 2.0]], tf.float64)
    with pytest.raises(LookupError, match="No gradient defined for operation.*TwTestRowSum"):
        tf.gradients(test_ops.tw_test_row_sum(x), x)


# ---- errors ------------------------------------------------------------------------------------
def test_wrong_dtype_input(zero_out_module, test_ops):
    with pytest.raises(TypeError, match="Input 'to_zero' of 'ZeroOut' Op has type float32 that does not match "
                                        "expected type of int32"):
        zero_out_module.zero_out(tf.constant([1.0]))
    with pytest.raises(TypeError, match="parameter 'to_zero' has DataType int32 not in list of allowed values: "
                                        "float32, float64"):
        zero_out_module.zero_out_float(tf.constant([1]))
    with pytest.raises(TypeError, match="missing a required argument: 'to_zero'"):
        zero_out_module.zero_out()


def test_kernel_rejects_arrays_of_another_dtype(zero_out_module):
    from tensorweave.framework import registry
    kernel = registry.get_op_def("ZeroOut").kernel
    np.testing.assert_array_equal(kernel(np, np.array([3, 4], np.int32)), [3, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="ZeroOut: input 'to_zero' has dtype float32"):
        kernel(np, np.zeros(2, np.float32))


def test_kernel_error_is_invalid_argument_naming_the_op(test_ops):
    y = test_ops.tw_test_row_sum(tf.constant([[1.0, 2.0], [3.0, np.nan]], tf.float64), name="sums")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"(?s)row 1 contains NaN.*sums.*TwTestRowSum"):
            sess.run(y)
        with pytest.raises(tf.errors.InvalidArgumentError, match="The kernel of TwTestFails failed \\(returned 7\\)"):
            sess.run(test_ops.tw_test_fails([1.0]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="left output 0's shape \\(None,\\) unknown"):
            sess.run(test_ops.tw_test_unknown_shape([1.0]))


def test_shape_function_errors(test_ops):
    with pytest.raises(ValueError, match="RowSum expects a matrix, got rank 1 for 'TwTestRowSum'"):
        test_ops.tw_test_row_sum(tf.constant([1.0], tf.float64))
    x = tf.placeholder(tf.float64)
    y = test_ops.tw_test_row_sum(x)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="RowSum expects a matrix, got rank 3"):
            sess.run(y, {x: np.zeros([1, 1, 1])})


def test_missing_file_is_not_found():
    with pytest.raises(tf.errors.NotFoundError, match="./no_such_lib.so: cannot open shared object file"):
        tf.load_op_library("./no_such_lib.so")
    with pytest.raises(OSError, match="does not exist"):
        tf.load_library("./no_such_dir_or_lib")


def test_library_without_the_registration_symbol(tmp_path):
    lib = _build(tmp_path, "int not_an_op_library(void) { return 0; }\n", "plain")
    with pytest.raises(tf.errors.NotFoundError, match="undefined symbol: tw_op_list.*TW_OP_LIST"):
        tf.load_op_library(lib)


def test_library_built_for_another_abi_version(tmp_path):
    source = ('#include "tensorweave_op.h"\n'
              "int32_t tw_op_list(const tw_op_def** ops, int32_t* n) { *ops = 0; *n = 0; return 99; }\n")
    with pytest.raises(tf.errors.FailedPreconditionError, match="ABI version 99; this tensorweave loads version 1"):
        tf.load_op_library(_build(tmp_path, source, "future"))


@pytest.mark.parametrize("table, message", [
    ('{"twBad", 1, 1, NULL, types, NULL, outs, NULL, k, NULL}', "not a CamelCase op type name"),
    ('{"TwTestBadTypes", 1, 1, NULL, no_types, NULL, outs, NULL, k, NULL}', "input_types\\[0\\] = 0x0"),
    ('{"TwTestBadOut", 1, 1, NULL, types, NULL, bad_outs, NULL, k, NULL}', "output_types\\[0\\] = -3"),
    ('{"TwTestNoKernel", 1, 1, NULL, types, NULL, outs, NULL, NULL, NULL}', "kernel is NULL"),
    ('{"TwTestNoInputs", 0, 1, NULL, NULL, NULL, outs, NULL, k, NULL}', "needs a shape function"),
    ('{"TwTestBadName", 1, 1, bad_names, types, NULL, outs, NULL, k, NULL}', "input_names\\[0\\] = 'class'"),
    ('{"TwTestBadOutName", 1, 1, NULL, types, underscore, outs, NULL, k, NULL}', "output_names\\[0\\] = '_x'"),
    ('{"TwTestTwice", 1, 1, NULL, types, NULL, outs, NULL, k, NULL}, '
     '{"TwTestTwice", 1, 1, NULL, types, NULL, outs, NULL, k, NULL}', "defined twice"),
])
def test_invalid_op_descriptors(tmp_path, table, message):
    source = ('#include "tensorweave_op.h"\n'
              "static int k(const tw_tensor* i, int ni, tw_tensor* o, int no, char* e, size_t n) { return 0; }\n"
              "static const uint32_t types[] = {TW_TYPE(TW_FLOAT)};\n"
              "static const uint32_t no_types[] = {0};\n"
              "static const int32_t outs[] = {TW_FLOAT};\n"
              "static const int32_t bad_outs[] = {TW_SAME_AS_INPUT(2)};\n"
              'static const char* const bad_names[] = {"class"};\n'
              'static const char* const underscore[] = {"_x"};\n'
              "static const tw_op_def ops[] = {%s};\nTW_OP_LIST(ops)\n" % table)
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.load_op_library(_build(tmp_path, source, "bad"))


def test_op_type_tensorweave_defines_is_rejected(tmp_path):
    source = ('#include "tensorweave_op.h"\n'
              "static int k(const tw_tensor* i, int ni, tw_tensor* o, int no, char* e, size_t n) { return 0; }\n"
              "static const uint32_t types[] = {TW_TYPE(TW_FLOAT)};\n"
              "static const int32_t outs[] = {TW_FLOAT};\n"
              'static const tw_op_def ops[] = {{"Sin", 1, 1, NULL, types, NULL, outs, NULL, k, NULL}};\n'
              "TW_OP_LIST(ops)\n")
    with pytest.raises(tf.errors.AlreadyExistsError, match="Op with name Sin already registered"):
        tf.load_op_library(_build(tmp_path, source, "clash"))
    with tf.Session() as sess:
        assert sess.run(tf.sin(0.0)) == 0.0


CPP_SOURCE = r"""
#include <algorithm>
#include "tensorweave_op.h"

namespace {
int twice(const tw_tensor* in, int, tw_tensor* out, int, char*, size_t) {
  const float* x = static_cast<const float*>(in[0].data);
  int64_t n = 1;
  for (int i = 0; i < in[0].ndim; ++i) n *= in[0].shape[i];
  std::transform(x, x + n, static_cast<float*>(out[0].data), [](float v) { return 2 * v; });
  return 0;
}
const uint32_t types[] = {TW_TYPE(TW_FLOAT)};
const int32_t outs[] = {TW_SAME_AS_INPUT(0)};
const tw_op_def ops[] = {{"TwTestCppTwice", 1, 1, nullptr, types, nullptr, outs, nullptr, twice, nullptr}};
}  // namespace
TW_OP_LIST(ops)
"""


def test_cpp_library_with_hidden_visibility(tmp_path):
    if find_compiler(cplusplus=True) is None:
        pytest.skip("needs a C++ compiler")
    src = tmp_path / "twice.cc"
    src.write_text(CPP_SOURCE)
    module = tf.load_op_library(build_library(str(src), str(tmp_path / "libtwice.so"),
                                              extra_args=["-std=c++11", "-fvisibility=hidden"]))
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(module.tw_test_cpp_twice([[1.0, 2.5]])), [[2.0, 5.0]])


def test_compile_error_is_reported(tmp_path):
    with pytest.raises(RuntimeError, match="Compiling .*broken.c failed"):
        _build(tmp_path, "this is not C\n", "broken")


def test_load_library_loads_a_folder_of_libtfkernel_files(tmp_path):
    source = TEST_OPS_C.replace("TwTest", "TwFolder")
    _build(tmp_path, source, "tfkernel_folder")
    assert tf.load_library(str(tmp_path)) is None
    from tensorweave.framework import registry
    assert "TwFolderRowSum" in registry.list_ops()


def test_snake_case_matches_tensorflow_names():
    cases = {"ZeroOut": "zero_out", "MatMul": "mat_mul", "Conv2D": "conv2d", "LRNGrad": "lrn_grad",
             "BiasAddV1": "bias_add_v1", "Pass": "pass_"}
    assert {k: load_library_module.snake_case(k) for k in cases} == cases


def test_sysconfig_points_at_the_header():
    assert os.path.isfile(os.path.join(tf.sysconfig.get_include(), "tensorweave_op.h"))
    assert tf.sysconfig.get_compile_flags() == ["-I" + tf.sysconfig.get_include()]
    assert tf.sysconfig.get_link_flags() == []
    assert os.path.isfile(os.path.join(tf.sysconfig.get_lib(), "__init__.py"))


def test_doc_example_compiles_and_runs(tmp_path):
    with open(os.path.join(ROOT, "docs", "custom_ops_c_abi.md")) as f:
        doc = f.read()
    source = re.search(r"```c\n(#include \"tensorweave_op.h\".*?)```", doc, re.S).group(1)
    source = source.replace('"ZeroOut"', '"TwDocZeroOut"')
    module = tf.load_op_library(_build(tmp_path, source, "doc_zero_out"))
    with tf.Session() as sess:
        np.testing.assert_array_equal(sess.run(module.tw_doc_zero_out([[1, 2], [3, 4]])), [[1, 0], [0, 0]])


# ---- the example -------------------------------------------------------------------------------
def test_zero_out_example_end_to_end(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run([sys.executable, os.path.join(ZERO_OUT_DIR, "zero_out_example.py"), str(tmp_path)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "zero_out([[1, 2], [3, 4]]) = [[1, 0], [0, 0]]" in proc.stdout
    assert "zero_out_float(x) = [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]]" in proc.stdout
    assert "d loss / d x = [[2.0, 0.0, 0.0], [0.0, 0.0, 0.0]]" in proc.stdout
    error = float(re.search(r"gradient check error: (\S+)", proc.stdout).group(1))
    assert error < 1e-3
    assert os.path.isfile(tmp_path / "libzero_out.so")
