"""TF1 names programs use (issue 15, item 12): `tf.disable_v2_behavior`, `tf.disable_eager_execution`,
`tf.compat.v1` as the API itself (`import tensorweave.compat.v1 as tf`), and
`tf.train.summary_iterator`."""

import os
import subprocess
import sys

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.eager import context
from tensorweave.framework import ops

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _python(code):
    """Runs `code` in a fresh interpreter (a fresh module cache); returns its stdout."""
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_import_compat_v1_as_tf_runs_a_tf1_program():
    out = _python(
        "import tensorweave.compat.v1 as tf\n"
        "tf.disable_v2_behavior()\n"
        "x = tf.placeholder(tf.float32, [None])\n"
        "y = tf.reduce_sum(x * 2)\n"
        "with tf.Session() as s:\n"
        "    print(s.run(y, {x: [1, 2, 3]}))\n"
        "import tensorweave\n"
        "print(tf is tensorweave, tf.compat.v1 is tf)\n")
    assert out.split() == ["12.0", "True", "True"]


def test_submodules_imported_through_compat_v1_are_the_modules_themselves():
    out = _python(
        "import sys\n"
        "from tensorweave.compat.v1.nn import relu\n"
        "import tensorweave.compat.v1.train as train\n"
        "from tensorweave.compat.v1.framework import dtypes\n"
        "import tensorweave.compat.v1.math as m\n"
        "import tensorweave as tf\n"
        "print(relu is tf.nn.relu, train is tf.train, dtypes is sys.modules['tensorweave.framework.dtypes'],\n"
        "      m is tf.math)\n"
        "p = 'tensorweave.compat.v1.'\n"
        "dup = [k for k, v in sys.modules.items() if k.startswith(p)\n"
        "       and v is not sys.modules.get('tensorweave.' + k[len(p):]) and v is not tf.math]\n"
        "print(dup)\n"
        "try:\n"
        "    import tensorweave.compat.v1.no_such_module\n"
        "except ModuleNotFoundError as e:\n"
        "    print(e.name)\n")
    assert out.splitlines() == ["True True True True", "[]", "tensorweave.compat.v1.no_such_module"]


def test_disable_eager_execution_after_enable():
    prev_class, prev_graph = ops._global_default_class[0], ops._global_default[0]
    try:
        ops._global_default_class[0], ops._global_default[0] = None, None
        tf.enable_eager_execution()
        assert tf.executing_eagerly()
        tf.disable_eager_execution()
        assert not tf.executing_eagerly()
        x = tf.constant(2.0) * 3
        assert isinstance(x, tf.Tensor) and type(tf.get_default_graph()) is tf.Graph
        with tf.Session() as sess:
            assert sess.run(x) == 6.0
        with pytest.raises(ValueError, match="must be called at program startup"):
            tf.enable_eager_execution()     # graph mode has been used: as TF
        ops._global_default[0] = None
        tf.enable_eager_execution()
        tf.disable_v2_behavior()
        assert not tf.executing_eagerly()
    finally:
        ops._global_default_class[0], ops._global_default[0] = prev_class, prev_graph


def test_disable_calls_in_graph_mode_change_nothing():
    g = tf.get_default_graph()
    a = tf.constant(1.0)
    tf.disable_v2_behavior()
    tf.compat.v1.disable_eager_execution()
    assert tf.get_default_graph() is g and a.graph is g and not tf.executing_eagerly()
    with g.as_default():
        tf.disable_eager_execution()
        assert tf.get_default_graph() is g
    with context.eager_mode():
        tf.disable_eager_execution()   # only the program's mode: an eager block stays eager
        assert tf.executing_eagerly()


# ---- tf.train.summary_iterator ---------------------------------------------------------------------
def test_summary_iterator_reads_back_what_a_file_writer_wrote(tmp_path):
    writer = tf.summary.FileWriter(str(tmp_path))
    for step, loss in enumerate([0.5, 0.25, 0.125]):
        writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=loss)]), step)
    writer.close()
    (path,) = [os.path.join(tmp_path, f) for f in os.listdir(tmp_path)]
    events = list(tf.train.summary_iterator(path))
    assert isinstance(events[0], tf.Event) and events[0].file_version == "brain.Event:2"
    got = [(e.step, v.tag, v.simple_value) for e in events for v in e.summary.value]
    assert got == [(0, "loss", 0.5), (1, "loss", 0.25), (2, "loss", 0.125)]


def test_summary_iterator_errors(tmp_path):
    it = tf.train.summary_iterator(str(tmp_path / "missing"))
    with pytest.raises(tf.errors.NotFoundError):
        next(it)
    bad = tmp_path / "events.bad"
    bad.write_bytes(b"\x01\x02\x03")
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 0"):
        list(tf.train.summary_iterator(str(bad)))


def test_summary_iterator_reads_scalars_logged_by_a_session(tmp_path):
    x = tf.placeholder(tf.float32, [])
    s = tf.summary.scalar("x", x)
    with tf.Session() as sess, tf.summary.FileWriter(str(tmp_path)) as writer:
        for i in range(2):
            writer.add_summary(sess.run(s, {x: i * 1.5}), i)
    (path,) = [os.path.join(tmp_path, f) for f in os.listdir(tmp_path)]
    values = [v.simple_value for e in tf.train.summary_iterator(path) for v in e.summary.value]
    np.testing.assert_allclose(values, [0.0, 1.5])


def test_message_classes_loggers_and_aliases_of_tf_compat_v1():
    import logging
    assert tf.NameAttrList(name="f").name == "f"
    assert tf.TensorInfo(name="x:0").name == "x:0"
    assert tf.LogMessage(level=tf.LogMessage.WARN, message="m").message == "m"
    assert isinstance(tf.MetaGraphDef(), tf.MetaGraphDef) and tf.MetaGraphDef is tf.train.MetaGraphDef
    assert tf.OpError is tf.errors.OpError
    assert tf.get_logger() is logging.getLogger("tensorflow")
    assert tf.QUANTIZED_DTYPES == tf.dtypes.QUANTIZED_DTYPES and tf.qint8 in tf.QUANTIZED_DTYPES
    assert tf.dtypes.as_string is tf.as_string and tf.dtypes.complex is tf.complex
    assert tf.sparse.SparseConditionalAccumulator is tf.SparseConditionalAccumulator
