"""The examples run: the guide's quadratic fit, and a short run of the digits CNN demo."""

import glob
import io
import os
import runpy
import shlex
import subprocess
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples")


def test_quadratic_fit_converges(capsys):
    runpy.run_path(os.path.join(EXAMPLES, "quadratic_fit.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "array(" in out


def test_digits_demo_short_run_writes_checkpoints_and_summaries(tmp_path):
    pytest.importorskip("sklearn", reason="the digits demo needs the [demo] extra")
    sys.path.insert(0, EXAMPLES)
    try:
        import digits_cnn
    finally:
        sys.path.remove(EXAMPLES)
    lines = []
    metrics = digits_cnn.run(str(tmp_path), steps=120, log=lines.append)
    assert metrics["global_step"] == 120
    assert metrics["accuracy"] > 0.8
    assert lines and lines[0].startswith("test accuracy:")
    assert glob.glob(str(tmp_path / "model.ckpt-120.index"))
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    acc = EventAccumulator(str(tmp_path), size_guidance={"images": 0, "scalars": 0})
    acc.Reload()
    tags = acc.Tags()
    assert "loss" in tags["scalars"] and "batch_accuracy" in tags["scalars"]
    images = [t for t in tags["images"] if t.startswith("predictions")]
    assert images
    first = acc.Images(images[0])[0]
    assert first.width > 0 and first.height > 0


# ---- issue 15, item 22: the demo's progress bar and TensorBoard command ------------------------------
class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("kwargs, total", [({"max_steps": 30}, 30), ({"steps": 25}, 25)])
def test_estimator_progress_bar_reaches_the_last_step(monkeypatch, tmp_path, kwargs, total):
    pytest.importorskip("tqdm", reason="the progress bar needs the [progress] extra")
    import tensorweave as tf

    def model_fn(features, labels, mode):
        w = tf.Variable(1.0)
        loss = tf.square(w - features)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

    stderr = _Terminal()
    monkeypatch.setattr(sys, "stderr", stderr)
    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(lambda: (tf.constant(2.0), None), **kwargs)
    frames = stderr.getvalue().split("\r")
    last = [f for f in frames if "step" in f and "|" in f][-1]
    assert " %d/%d " % (total, total) in last and "100%" in last


def test_progress_bar_hook_ends_at_the_final_global_step():
    pytest.importorskip("tqdm", reason="the progress bar needs the [progress] extra")
    import tensorweave as tf
    from tensorweave.train.basic_session_run_hooks import ProgressBarHook
    step = tf.train.get_or_create_global_step()
    w = tf.Variable(1.0)
    loss = tf.square(w)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
    out = io.StringIO()
    hooks = [ProgressBarHook(loss, total_steps=600, stream=out), tf.train.StopAtStepHook(last_step=600)]
    with tf.train.MonitoredTrainingSession(hooks=hooks) as sess:
        while not sess.should_stop():
            sess.run(train)
    assert "600/600" in out.getvalue().split("\r")[-1]


def _digits_module():
    sys.path.insert(0, EXAMPLES)
    try:
        import digits_cnn
    finally:
        sys.path.remove(EXAMPLES)
    return digits_cnn


def test_demo_tensorboard_command_runs_from_a_fresh_shell(tmp_path):
    pytest.importorskip("tensorboard", reason="the demo's summaries need the [tensorboard] extra")
    command = _digits_module().tensorboard_command(str(tmp_path / "run dir"))
    argv = shlex.split(command)
    assert argv[-2:] == ["--logdir", str(tmp_path / "run dir")]
    assert os.path.isabs(argv[0])
    assert argv[0] == os.path.join(os.path.dirname(sys.executable), "tensorboard") or argv[1:3] == ["-m",
                                                                                                    "tensorboard.main"]
    # A fresh shell: no PATH, no activated virtualenv. The command's program runs (--version_tb
    # prints the version and exits instead of serving).
    out = subprocess.run(argv[:-2] + ["--version_tb"], env={}, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip()


def test_demo_main_prints_a_working_tensorboard_command(monkeypatch, tmp_path, capsys):
    digits_cnn = _digits_module()
    monkeypatch.setattr(digits_cnn, "run", lambda model_dir, steps: None)
    monkeypatch.setattr(sys, "argv", ["digits_cnn.py", "--model_dir", str(tmp_path), "--steps", "3"])
    digits_cnn.main()
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "look at the run with:  " + digits_cnn.tensorboard_command(str(tmp_path))
    assert "--logdir " + str(tmp_path) in out[-1] and not out[-1].startswith("look at the run with:  tensorboard ")


def _example(name):
    sys.path.insert(0, EXAMPLES)
    try:
        return __import__(name)
    finally:
        sys.path.remove(EXAMPLES)


def test_char_lstm_learns_and_samples(tmp_path):
    char_lstm = _example("char_lstm")
    lines = []
    first, last, text = char_lstm.run(steps=60, logdir=str(tmp_path), log=lines.append)
    assert last < first * 0.85
    assert text.startswith("Beautiful ") and len(text) == len("Beautiful ") + 120
    assert lines[0].startswith("step 1: loss") and lines[-1].startswith("sample: ")
    assert glob.glob(str(tmp_path / "events.out.tfevents.*"))


def test_seq2seq_attention_learns_to_reverse_digits(tmp_path):
    seq2seq_attention = _example("seq2seq_attention")
    first, last, greedy, beam = seq2seq_attention.run(steps=200, logdir=str(tmp_path), log=lambda s: None)
    assert last < first * 0.2
    assert greedy > 0.6 and beam > 0.6
