"""examples/keras_digits.py: a short run reaches the Estimator digits demo's accuracy threshold (> 0.8
after about 120 steps, tests/test_examples.py) and writes TensorBoard logs that TensorBoard reads."""

import os
import runpy
import sys

import pytest

EXAMPLES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "examples")


def _module():
    sys.path.insert(0, EXAMPLES)
    try:
        import keras_digits
    finally:
        sys.path.remove(EXAMPLES)
    return keras_digits


def test_short_run_reaches_the_estimator_demo_accuracy_and_logs(tmp_path):
    pytest.importorskip("sklearn", reason="the digits demo needs the [demo] extra")
    lines = []
    accuracy, history = _module().run(str(tmp_path), epochs=5, log=lines.append)  # 5 x 23 = 115 steps
    assert accuracy > 0.8
    assert lines == ["test accuracy: %.4f after 5 epochs (360 test images)" % accuracy]
    assert history.history["val_acc"][-1] == pytest.approx(accuracy, rel=1e-6)
    pytest.importorskip("tensorboard", reason="reading the logs needs the [tensorboard] extra")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    acc = EventAccumulator(str(tmp_path), size_guidance={"scalars": 0, "histograms": 0})
    acc.Reload()
    tags = acc.Tags()
    assert {"epoch_loss", "epoch_acc", "epoch_val_loss", "epoch_val_acc"} <= set(tags["scalars"])
    assert [e.step for e in acc.Scalars("epoch_val_acc")] == [0, 1, 2, 3, 4]
    assert acc.Scalars("epoch_val_acc")[-1].value == pytest.approx(accuracy, rel=1e-6)
    assert tags["histograms"] and tags["graph"]


def test_script_prints_progress_and_accuracy(tmp_path, capsys, monkeypatch):
    pytest.importorskip("sklearn", reason="the digits demo needs the [demo] extra")
    monkeypatch.setattr(sys, "argv", ["keras_digits.py", "--epochs", "1", "--verbose", "2",
                                      "--log_dir", str(tmp_path)])
    runpy.run_path(os.path.join(EXAMPLES, "keras_digits.py"), run_name="__main__")
    out = capsys.readouterr().out.splitlines()
    assert out[:2] == ["Train on 1437 samples, validate on 360 samples", "Epoch 1/1"]
    assert out[2].startswith(" - ") and " - val_acc: " in out[2]
    assert out[3].startswith("test accuracy: ")
    assert out[4] == "TensorBoard logs in %s" % tmp_path
