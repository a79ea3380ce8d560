"""`tensorweave.python.*`: TF 1.x's `tensorflow.python.*` import paths.

tests/data/python_paths_tf.json (tests/data/make_python_paths_tf.py, from TF's own modules) says which
names each TF module has and under which `tf.compat.v1` API names TF exports each; every name a
tensorweave module exports must be a name of TF's module, and where TF exports it, the very object
tensorweave has at that API path. The rest checks values through the TF 1.x import style.
"""

import importlib
import json
import os
import pkgutil
import subprocess
import sys

import numpy as np
import pytest

import tensorweave as tf
import tensorweave.python

_JSON = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data", "python_paths_tf.json")
with open(_JSON) as _f:
    TF_NAMES = json.load(_f)
GEN_OPS = TF_NAMES.pop("gen_ops")

# Modules and names TF 1.15 had that TF 2.21's modules (the recorded ones) no longer have.
_EXTRA_OK = {"tensorflow.python.layers.base", "tensorflow.python.layers.normalization"}
_TF115_ONLY = {("tensorflow.python.framework.ops", "Tensor"), ("tensorflow.python.ops.variables", "Variable"),
               ("tensorflow.python.ops.control_flow_ops", "cond"), ("tensorflow.python.ops.control_flow_ops", "case"),
               ("tensorflow.python.ops.control_flow_ops", "while_loop"),
               ("tensorflow.python.ops.control_flow_ops", "Assert"),
               ("tensorflow.python.pywrap_tensorflow", "NewCheckpointReader"),
               ("tensorflow.python.framework.graph_util", "convert_variables_to_constants")}


def _modules():
    names = []
    for info in pkgutil.walk_packages(tensorweave.python.__path__, "tensorweave.python."):
        if not info.ispkg and not info.name.rsplit(".", 1)[-1].startswith("_"):
            names.append(info.name)
    return sorted(names)


MODULES = _modules()


def _resolve(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def test_the_common_modules_are_there():
    short = {m[len("tensorweave.python."):] for m in MODULES}
    for m in ["framework.ops", "framework.dtypes", "framework.tensor_shape", "framework.constant_op",
              "framework.graph_util", "framework.tensor_util", "framework.test_util", "ops.array_ops", "ops.math_ops",
              "ops.nn_ops", "ops.init_ops", "ops.variable_scope", "ops.control_flow_ops", "ops.rnn_cell_impl",
              "ops.state_ops", "ops.gen_array_ops", "ops.gen_math_ops", "ops.gen_nn_ops", "training.training_util",
              "training.moving_averages", "training.optimizer", "training.session_run_hook", "platform.gfile",
              "platform.tf_logging", "client.device_lib", "client.timeline", "layers.core", "summary.summary"]:
        assert m in short
    assert len(MODULES) >= 30


@pytest.mark.parametrize("module", MODULES)
def test_every_name_is_tfs(module):
    mod = importlib.import_module(module)
    tf_module = "tensorflow." + module[len("tensorweave."):]
    recorded = TF_NAMES.get(tf_module)
    assert recorded is not None or tf_module in _EXTRA_OK
    assert mod.__all__ and len(set(mod.__all__)) == len(mod.__all__)
    gen = GEN_OPS.get(module.rsplit(".", 1)[-1], {})
    for name in mod.__all__:
        value = getattr(mod, name)
        if tf_module in _EXTRA_OK:
            continue
        if name in gen and value.__module__.endswith("_gen_op_wrapper"):
            assert value.__name__ == name and GEN_OPS[module.rsplit(".", 1)[-1]][name]["op"] in value.__doc__
            continue
        if (tf_module, name) in _TF115_ONLY:
            continue
        assert name in recorded, "%s.%s is not a name of TF's module" % (module, name)
        api = recorded[name]
        if isinstance(api, dict):
            assert value == api["const"] and type(value) is type(api["const"])
        elif api:
            found = [p for p in api if _resolve(p) is not None]
            if found:
                assert any(_resolve(p) is value for p in found), (module, name, found)


def test_import_tensorweave_does_not_load_the_package():
    code = "import sys, tensorweave; print(any(m.split('.')[:2] == ['tensorweave', 'python'] for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_tf1_program_written_with_python_paths():
    from tensorweave.python.framework import constant_op, dtypes, ops, tensor_shape, tensor_util
    from tensorweave.python.ops import (
        array_ops,
        control_flow_ops,
        init_ops,
        math_ops,
        nn_ops,
        state_ops,
        variable_scope,
        variables,
    )
    from tensorweave.python.training import moving_averages, training_util
    with ops.Graph().as_default() as g:
        assert ops.get_default_graph() is g
        x = array_ops.placeholder(dtypes.float32, shape=[None, 3])
        assert x.shape.as_list() == tensor_shape.TensorShape([None, 3]).as_list()
        with variable_scope.variable_scope("layer"):
            w = variable_scope.get_variable("w", [3, 2], initializer=init_ops.constant_initializer(0.5))
            b = variable_scope.get_variable("b", [2], initializer=init_ops.zeros_initializer())
        y = nn_ops.relu(math_ops.matmul(x, w) + b - 1.0)
        total = math_ops.reduce_sum(array_ops.concat([y, -y], axis=1), axis=0)
        step = training_util.get_or_create_global_step()
        bump = state_ops.assign_add(step, 1)
        avg = variables.Variable(0.0, trainable=False)
        update = moving_averages.assign_moving_average(avg, 10.0, decay=0.9, zero_debias=False)
        pick = control_flow_ops.cond(math_ops.greater(step, 0), lambda: constant_op.constant(1),
                                     lambda: constant_op.constant(-1))
        assert tensor_util.constant_value(constant_op.constant([1, 2])).tolist() == [1, 2]
        assert w.name == "layer/w:0" and ops.get_collection(ops.GraphKeys.GLOBAL_VARIABLES)[0] is w
        with tf.Session() as sess:
            sess.run(variables.global_variables_initializer())
            xs = np.array([[1.0, 2.0, 3.0], [0.0, 1.0, 0.0]], np.float32)
            np.testing.assert_allclose(sess.run(total, {x: xs}), [2.0, 2.0, -2.0, -2.0])
            assert sess.run(pick) == -1
            sess.run(bump)
            assert sess.run(pick) == 1
            assert sess.run(update) == pytest.approx(1.0)


def test_platform_training_and_client_paths(tmp_path):
    from tensorweave.python import pywrap_tensorflow
    from tensorweave.python.client import device_lib, timeline
    from tensorweave.python.framework import graph_io, graph_util
    from tensorweave.python.ops import rnn, rnn_cell_impl
    from tensorweave.python.platform import gfile, tf_logging
    from tensorweave.python.training import session_run_hook
    path = str(tmp_path / "a.txt")
    with gfile.GFile(path, "w") as f:
        f.write("hello")
    assert gfile.Exists(path) and gfile.ListDirectory(str(tmp_path)) == ["a.txt"]
    assert tf_logging.get_verbosity() in (tf_logging.DEBUG, tf_logging.INFO, tf_logging.WARN, tf_logging.ERROR,
                                          tf_logging.FATAL)
    assert (tf_logging.DEBUG, tf_logging.INFO, tf_logging.WARN, tf_logging.ERROR) == (10, 20, 30, 40)
    assert issubclass(session_run_hook.SessionRunHook, object)
    assert session_run_hook.SessionRunArgs(fetches=[1]).fetches == [1]
    devices = device_lib.list_local_devices()
    assert devices[0].name == "/device:CPU:0" and devices[0].device_type == "CPU"
    assert devices[0].memory_limit == 268435456 and devices[0].incarnation != 0
    assert 'name: "/device:CPU:0"' in repr(devices[0])
    config = tf.ConfigProto(device_count={"CPU": 2, "GPU": 0})
    assert [d.name for d in device_lib.list_local_devices(config)] == ["/device:CPU:0", "/device:CPU:1"]
    with tf.Graph().as_default():
        cell = rnn_cell_impl.BasicLSTMCell(4)
        inputs = tf.zeros([2, 5, 3])
        outputs, state = rnn.dynamic_rnn(cell, inputs, dtype=tf.float32)
        assert isinstance(state, rnn_cell_impl.LSTMStateTuple) and outputs.shape.as_list() == [2, 5, 4]
        v = tf.Variable([1.0, 2.0], name="v")
        out = tf.identity(v * 2.0, name="out")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            frozen = graph_util.convert_variables_to_constants(sess, sess.graph.as_graph_def(), ["out"])
            meta = tf.RunMetadata()
            sess.run(out, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE), run_metadata=meta)
            saved = tf.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
            graph_io.write_graph(sess.graph, str(tmp_path), "graph.pbtxt")
    assert "v" in [n.name for n in frozen.node if n.op == "Const"]
    reader = pywrap_tensorflow.NewCheckpointReader(saved)
    np.testing.assert_array_equal(reader.get_tensor("v"), [1.0, 2.0])
    assert 'name: "out"' in (tmp_path / "graph.pbtxt").read_text()
    trace = json.loads(timeline.Timeline(meta.step_stats).generate_chrome_trace_format())
    assert any(e.get("args", {}).get("name") == "mul" and e["name"] == "Mul" for e in trace["traceEvents"])


def test_device_lib_rejects_a_missing_gpu():
    from tensorweave.python.client import device_lib
    config = tf.ConfigProto(gpu_options=tf.GPUOptions(visible_device_list="99"))
    with pytest.raises(tf.errors.InvalidArgumentError, match="'visible_device_list' listed an invalid GPU id '99'"):
        device_lib.list_local_devices(config)


def _run(t):
    with tf.Session() as sess:
        return sess.run(t)


def test_gen_math_ops_values():
    from tensorweave.python.ops import gen_math_ops as g
    a = np.array([[1.0, -2.0], [3.0, 4.0]], np.float32)
    b = np.array([[0.5, 1.0], [2.0, -1.0]], np.float32)
    with tf.Graph().as_default():
        got = _run([g.mat_mul(a, b, transpose_b=True), g.batch_mat_mul_v2(a[None], b[None], adj_x=True),
                    g.cast(a, tf.int32), g._sum(a, 1, keep_dims=True), g.mean(a, [0, 1]), g._max(a, 0), g._min(a, 1),
                    g.prod(a, 0), g.arg_max(a, 1), g.arg_min(a, 0), g.add_v2(a, b), g.select(a > 0, a, b),
                    g.sigmoid_grad(a, b), g.tanh_grad(a, b), g.rsqrt_grad(a, b), g.sqrt_grad(a, b)])
    want = [a @ b.T, (a.T @ b)[None], a.astype(np.int32), a.sum(1, keepdims=True), a.mean(), a.max(0), a.min(1),
            a.prod(0), a.argmax(1), a.argmin(0), a + b, np.where(a > 0, a, b),
            b * a * (1 - a), b * (1 - a * a), -0.5 * b * a ** 3, 0.5 * b / a]
    for x, y in zip(got, want):
        np.testing.assert_allclose(x, y, rtol=1e-6)
    assert got[8].dtype == np.int64 and got[2].dtype == np.int32
    assert g.mat_mul.__name__ == "mat_mul" and "transpose_a" in g.mat_mul.__doc__


def test_gen_nn_ops_values():
    from tensorweave.python.ops import gen_nn_ops as g
    x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1) - 5.0
    f = np.ones((2, 2, 1, 1), np.float32)
    grads = np.array([1.0, -2.0, 3.0], np.float32)
    feats = np.array([-1.0, 0.5, 7.0], np.float32)
    logits = np.array([[1.0, 2.0, 3.0]], np.float32)
    labels = np.array([[0.0, 0.0, 1.0]], np.float32)
    with tf.Graph().as_default():
        xe = tf.constant(x)
        got = _run([g.relu_grad(grads, feats), g.relu6_grad(grads, feats), g.elu_grad(grads, feats),
                    g.softplus_grad(grads, feats), g.conv2d(x, f, [1, 1, 1, 1], "VALID"),
                    g.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                    g.avg_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                    g.bias_add(x, [1.0]), g.bias_add_grad(x),
                    g.softmax_cross_entropy_with_logits(logits, labels).loss,
                    g.sparse_softmax_cross_entropy_with_logits(logits, [2]).loss,
                    g.max_pool_grad(xe, tf.nn.max_pool(xe, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                                    np.ones((1, 2, 2, 1), np.float32), [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                    g.conv2d_backprop_input([1, 4, 4, 1], f, np.ones((1, 3, 3, 1), np.float32), [1, 1, 1, 1],
                                            "VALID")])
    xs = x[0, :, :, 0]
    log_softmax = logits[0] - np.log(np.exp(logits[0]).sum())
    want = [grads * (feats > 0), grads * ((feats > 0) & (feats < 6)), np.where(feats > 0, grads, grads * (feats + 1)),
            grads / (1 + np.exp(-feats)),
            (xs[:3, :3] + xs[1:, :3] + xs[:3, 1:] + xs[1:, 1:])[None, :, :, None],
            np.array([[5.0, 7.0], [13.0, 15.0]])[None, :, :, None] - 5.0,
            np.array([[2.5, 4.5], [10.5, 12.5]])[None, :, :, None] - 5.0, x + 1.0, [x.sum()],
            [-log_softmax[2]], [-log_softmax[2]],
            np.array([[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 0], [0, 1, 0, 1]], np.float32)[None, :, :, None],
            np.array([[1, 2, 2, 1], [2, 4, 4, 2], [2, 4, 4, 2], [1, 2, 2, 1]], np.float32)[None, :, :, None]]
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    with tf.Graph().as_default():
        bn = g._fused_batch_norm(x, [2.0], [1.0], [], [], epsilon=0.0, is_training=True)
        assert type(bn).__name__ == "_FusedBatchNormOutput" and bn._fields[:3] == ("y", "batch_mean", "batch_variance")
        y, mean, var = _run([bn.y, bn.batch_mean, bn.batch_variance])
    np.testing.assert_allclose(mean, [x.mean()], rtol=1e-6)
    np.testing.assert_allclose(y, 2.0 * (x - x.mean()) / x.std() + 1.0, rtol=1e-4, atol=1e-5)
    assert var[0] == pytest.approx(x.var() * 16 / 15, rel=1e-5)  # TF's batch variance is the unbiased one


def test_gen_array_ops_values():
    from tensorweave.python.ops import gen_array_ops as g
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    with tf.Graph().as_default():
        got = _run([g.identity(a), g.reshape(a, [3, 2]), g.concat_v2([a, a], 1), g.pack([a, a], axis=1),
                    g.shape(a), g.shape(a, out_type=tf.int64), g.expand_dims(a, 0), g.squeeze(a[None], [0]),
                    g.transpose(a, [1, 0]), g.fill([2, 2], 7), g.gather_v2(a, [1, 0], 0), g.pad(a, [[1, 0], [0, 1]]),
                    g.rank(a), g.size(a), g._slice(a, [0, 1], [2, 2]), g.stop_gradient(a), g.zeros_like(a),
                    g.ones_like(a), g.broadcast_gradient_args([2, 1, 3], [4, 3])])
        parts = _run(g.unpack(a, num=2))
    want = [a, a.reshape(3, 2), np.concatenate([a, a], 1), np.stack([a, a], 1), [2, 3], [2, 3], a[None], a, a.T,
            np.full((2, 2), 7), a[[1, 0]], np.pad(a, [[1, 0], [0, 1]]), 2, 6, a[:, 1:3], a, 0 * a, 0 * a + 1]
    for x, y in zip(got, want):
        np.testing.assert_array_equal(x, y)
    assert got[5].dtype == np.int64 and got[4].dtype == np.int32
    assert [r.tolist() for r in got[-1]] == [[1], [0]]
    assert [p.tolist() for p in parts] == [[0, 1, 2], [3, 4, 5]]


def test_gen_wrapper_errors():
    from tensorweave.python.ops import gen_math_ops as g
    with pytest.raises(TypeError, match="missing a required argument: 'b'"):
        g.mat_mul([[1.0]])
    with pytest.raises(TypeError, match="unexpected keyword argument 'grad_a'"):  # a TF 2.x-only attribute
        g.mat_mul([[1.0]], [[1.0]], grad_a=True)
    with tf.Graph().as_default():
        with pytest.raises(ValueError):
            g.mat_mul([[1.0, 2.0]], [[1.0, 2.0]])  # inner dimensions 2 and 1


def test_layers_and_constants_paths():
    from tensorweave.python.layers import core, layers, normalization
    from tensorweave.python.saved_model import signature_constants, tag_constants
    assert core.Dense is tf.layers.Dense and layers.conv2d is tf.layers.conv2d
    assert normalization.BatchNormalization is tf.layers.BatchNormalization
    assert tag_constants.SERVING == "serve" and signature_constants.PREDICT_METHOD_NAME == "tensorflow/serving/predict"
    with tf.Graph().as_default():
        y = core.dense(tf.ones([2, 3]), 4, kernel_initializer=tf.ones_initializer())
        np.testing.assert_array_equal(_run_init(y), np.full((2, 4), 3.0))


def _run_init(t):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(t)
