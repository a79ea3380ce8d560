import numpy as np
import pytest

import tensorweave as tf

XS = np.array([[0.0], [1.0], [2.0], [3.0]], np.float32)
YS = (2.0 * XS + 1.0).astype(np.float32)


def model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [1, 1], initializer=tf.zeros_initializer())
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features, w) + b
    loss = tf.reduce_mean(tf.square(pred - labels))
    train_op = tf.train.GradientDescentOptimizer(params.lr).minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, predictions=pred, loss=loss, train_op=train_op,
                                      eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, pred)})


def input_fn():
    return tf.constant(XS), tf.constant(YS)


def experiment_fn(run_config, hparams):
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=run_config, params=hparams)
    return tf.contrib.learn.Experiment(estimator=estimator, train_input_fn=input_fn, eval_input_fn=input_fn,
                                       train_steps=hparams.steps, eval_steps=1)


def test_learn_runner_runs_the_guides_main(tmp_path):
    run_config = tf.contrib.learn.RunConfig(model_dir=str(tmp_path))
    hparams = tf.contrib.training.HParams(lr=0.1, steps=5)
    hparams.parse("steps=200")
    metrics, exports = tf.contrib.learn.learn_runner.run(experiment_fn=experiment_fn, run_config=run_config,
                                                         schedule="train_and_evaluate", hparams=hparams)
    assert exports == [] and metrics["global_step"] == 200
    assert metrics["mae"] < 0.05 and metrics["loss"] < 0.01
    more = tf.contrib.learn.learn_runner.run(experiment_fn, run_config=run_config, schedule="evaluate",
                                             hparams=hparams)
    assert more["global_step"] == 200


def test_errors():
    est = tf.estimator.Estimator(model_fn, params=tf.contrib.training.HParams(lr=0.1, steps=1))
    with pytest.raises(ValueError, match="`eval_metrics` must be `None` with `tf.estimator.Estimator`"):
        tf.contrib.learn.Experiment(est, input_fn, input_fn, eval_metrics={"a": None})
    exp = tf.contrib.learn.Experiment(est, input_fn, input_fn)
    with pytest.raises(ValueError, match="Schedule references non-existent task fly"):
        tf.contrib.learn.learn_runner.run(lambda config, hparams: exp, run_config=tf.contrib.learn.RunConfig(),
                                          schedule="fly")


GUIDE_MAIN = '''
import numpy as np
import tensorweave as tf

tf.flags.DEFINE_string("output_dir", "", "Optional output dir.")
tf.flags.DEFINE_string("schedule", "train_and_evaluate", "Schedule.")
tf.flags.DEFINE_string("hparams", "", "Hyper parameters.")
FLAGS = tf.flags.FLAGS
XS = np.array([[0.0], [1.0], [2.0], [3.0]], np.float32)


def make_model_fn():
    def model_fn(features, labels, mode, params):
        pred = tf.layers.dense(features, 1)
        loss = tf.losses.mean_squared_error(labels, pred)
        train_op = tf.train.GradientDescentOptimizer(params.learning_rate).minimize(
            loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode=mode, predictions=pred, loss=loss, train_op=train_op,
                                          eval_metric_ops={"mae": tf.metrics.mean_absolute_error(labels, pred)})
    return model_fn


def make_input_fn(mode, hparams):
    return lambda: (tf.constant(XS), tf.constant(2 * XS + 1))


def experiment_fn(run_config, hparams):
    estimator = tf.estimator.Estimator(model_fn=make_model_fn(), config=run_config, params=hparams)
    return tf.contrib.learn.Experiment(
        estimator=estimator, train_input_fn=make_input_fn(tf.estimator.ModeKeys.TRAIN, hparams),
        eval_input_fn=make_input_fn(tf.estimator.ModeKeys.EVAL, hparams), train_steps=hparams.steps, eval_steps=1)


def main(unused_argv):
    run_config = tf.contrib.learn.RunConfig(model_dir=FLAGS.output_dir)
    hparams = tf.contrib.training.HParams(learning_rate=0.1, steps=10)
    hparams.parse(FLAGS.hparams)
    metrics, _ = tf.contrib.learn.learn_runner.run(experiment_fn=experiment_fn, run_config=run_config,
                                                   schedule=FLAGS.schedule, hparams=hparams)
    print("global_step", metrics["global_step"])


if __name__ == "__main__":
    tf.app.run()
'''


def test_the_guides_section_13_main_runs_with_flags(tmp_path):
    import os
    import subprocess
    import sys
    script = tmp_path / "main.py"
    script.write_text(GUIDE_MAIN)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, str(script), "--output_dir", str(tmp_path / "run"),
                          "--hparams", "steps=30"], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "global_step 30" in out.stdout


def test_mode_keys():
    assert (tf.contrib.learn.ModeKeys.TRAIN, tf.contrib.learn.ModeKeys.EVAL,
            tf.contrib.learn.ModeKeys.INFER) == ("train", "eval", "infer")


def test_load_csv_with_header(tmp_path):
    # TF 1.15's base.load_csv_with_header: the header row is "n_samples,n_features,<class names...>";
    # the target is popped from each row (default: the last column).
    path = tmp_path / "iris.csv"
    path.write_text("3,2,setosa,versicolor\n5.1,3.5,0\n4.9,3.0,1\n6.2,2.9,1\n")
    ds = tf.contrib.learn.datasets.base.load_csv_with_header(str(path), target_dtype=np.int32,
                                                             features_dtype=np.float32)
    assert isinstance(ds, tf.contrib.learn.datasets.base.Dataset)
    np.testing.assert_array_equal(ds.data, np.array([[5.1, 3.5], [4.9, 3.0], [6.2, 2.9]], np.float32))
    assert ds.data.dtype == np.float32 and ds.target.dtype == np.int32 and ds.target.tolist() == [0, 1, 1]
    ds = tf.contrib.learn.datasets.base.load_csv_with_header(str(path), np.float64, np.float64, target_column=0)
    assert ds.target.tolist() == [5.1, 4.9, 6.2] and ds.data.tolist() == [[3.5, 0], [3.0, 1], [2.9, 1]]
    path.write_text("1,2\n1,2,0\n3,4,1\n")
    with pytest.raises(IndexError, match="more rows than the 1 samples"):
        tf.contrib.learn.datasets.base.load_csv_with_header(str(path), np.int32, np.float32)
    path.write_text("x,2\n1,2,0\n")
    with pytest.raises(ValueError):
        tf.contrib.learn.datasets.base.load_csv_with_header(str(path), np.int32, np.float32)


def test_load_csv_without_header_and_datasets(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("1,2,a\n3,4,b\n")
    ds = tf.contrib.learn.datasets.base.load_csv_without_header(str(path), target_dtype=str, features_dtype=np.int64)
    assert ds.data.tolist() == [[1, 2], [3, 4]] and ds.data.dtype == np.int64 and ds.target.tolist() == ["a", "b"]
    splits = tf.contrib.learn.datasets.base.Datasets(train=ds, validation=None, test=ds)
    assert splits.train is ds and splits._fields == ("train", "validation", "test")
