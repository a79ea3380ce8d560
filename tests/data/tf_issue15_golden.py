"""Golden values of issue 15 (item 12) produced with real TensorFlow (tensorflow.compat.v1, graph mode):
FtrlOptimizer, ProximalGradientDescentOptimizer, ProximalAdagradOptimizer (dense and sparse
gradients, float32 and float64), ExponentialMovingAverage, tf.norm and the kernels' error messages.

Run with TensorFlow installed (not a dependency of tensorweave or its tests):

    python tests/data/tf_issue15_golden.py > tests/data/tf_issue15_golden.json

tests/train/test_issue15_optimizers.py and tests/ops/test_norm_ops.py read the JSON file.
"""

import json

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()

GRADS = [np.array([[0.1, -0.2], [0.3, 0.05]]), np.array([[-0.4, 0.2], [0.0, 1.5]]),
         np.array([[0.25, 0.25], [-0.7, -0.1]])]
INIT = np.array([[1.0, 2.0], [-3.0, 0.5]])

OPTIMIZERS = {
    "ftrl": lambda: tf.train.FtrlOptimizer(0.1),
    "ftrl_l1_l2": lambda: tf.train.FtrlOptimizer(0.3, initial_accumulator_value=0.2, l1_regularization_strength=0.05,
                                                 l2_regularization_strength=0.1),
    "ftrl_power": lambda: tf.train.FtrlOptimizer(0.2, learning_rate_power=-0.3, l1_regularization_strength=0.01,
                                                 l2_regularization_strength=0.02),
    "ftrl_power0": lambda: tf.train.FtrlOptimizer(0.2, learning_rate_power=0.0, l1_regularization_strength=0.01),
    "ftrl_shrinkage": lambda: tf.train.FtrlOptimizer(0.3, l1_regularization_strength=0.05,
                                                     l2_regularization_strength=0.1,
                                                     l2_shrinkage_regularization_strength=0.05),
    "proximal_gd": lambda: tf.train.ProximalGradientDescentOptimizer(0.1),
    "proximal_gd_l1_l2": lambda: tf.train.ProximalGradientDescentOptimizer(0.3, l1_regularization_strength=0.05,
                                                                           l2_regularization_strength=0.1),
    "proximal_adagrad": lambda: tf.train.ProximalAdagradOptimizer(0.1),
    "proximal_adagrad_l1_l2": lambda: tf.train.ProximalAdagradOptimizer(0.3, initial_accumulator_value=0.2,
                                                                        l1_regularization_strength=0.05,
                                                                        l2_regularization_strength=0.1),
}


def run_optimizer(make, dtype):
    with tf.Graph().as_default():
        w = tf.Variable(INIT.astype(dtype), name="w")
        g = tf.placeholder(dtype, [2, 2])
        opt = make()
        try:
            train = opt.apply_gradients([(g, w)])
        except Exception as e:  # noqa: BLE001
            return "%s: %s" % (type(e).__name__, str(e).splitlines()[0])
        slots = {n: opt.get_slot(w, n) for n in opt.get_slot_names()}
        names = {n: s.op.name for n, s in slots.items()}
        steps = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for grad in GRADS:
                sess.run(train, {g: grad.astype(dtype)})
                steps.append({"var": sess.run(w).tolist(), **{n: sess.run(s).tolist() for n, s in slots.items()}})
        return {"slot_names": names, "steps": steps}


def run_sparse(make):
    with tf.Graph().as_default():
        w = tf.Variable(np.array([[1.0, 2.0], [-3.0, 0.5], [0.7, -0.2]], np.float32), name="w")
        loss = tf.reduce_sum(tf.gather(w, [0, 2, 0]) * tf.constant([[1.0, 2.0], [3.0, -1.0], [0.5, 0.5]]))
        train = make().minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = []
            for _ in range(2):
                sess.run(train)
                out.append(sess.run(w).tolist())
        return out


def run_ema():
    out = {}
    with tf.Graph().as_default():
        w = tf.Variable(1.0, name="w")
        w64 = tf.Variable(np.array([1.0, -2.0]), name="w64")
        step = tf.Variable(0, name="step", trainable=False)
        ema = tf.train.ExponentialMovingAverage(0.9)
        upd = ema.apply([w, w64])
        ema2 = tf.train.ExponentialMovingAverage(0.99, num_updates=step, name="ema2")
        upd2 = ema2.apply([w])
        t = tf.placeholder(tf.float32, [])
        t_read = t * 1.0
        ema3 = tf.train.ExponentialMovingAverage(0.8, zero_debias=True, name="debiased")
        upd3 = ema3.apply([t_read])
        out["names"] = [ema.average(w).name, ema.average(w64).name, ema2.average(w).name, ema3.average(t_read).name,
                        ema.average_name(w), ema2.average_name(w64)]
        out["debias_vars"] = sorted(v.op.name for v in tf.global_variables() if "debiased" in v.op.name)
        out["restore"] = sorted(ema.variables_to_restore().keys())
        out["moving_average_variables"] = [v.op.name for v in tf.moving_average_variables()]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            vals = []
            for i, (wv, tv) in enumerate([(2.0, 3.0), (5.0, -1.0), (-1.0, 4.0)]):
                sess.run([w.assign(wv), w64.assign(w64 * 3.0), step.assign(i * 5)])
                sess.run([upd, upd2, upd3], {t: tv})
                vals.append([float(sess.run(ema.average(w))), sess.run(ema.average(w64)).tolist(),
                             float(sess.run(ema2.average(w))), float(sess.run(ema3.average(t_read)))])
            out["values"] = vals
    return out


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


def _norm_kwargs(kw):
    return {k: (np.inf if v == "inf" else v) for k, v in kw.items()}


def run_norm():
    out = []
    with tf.Graph().as_default(), tf.Session() as sess:
        for name, kw in NORM_CASES:
            t = tf.norm(tf.constant(NORM_INPUTS[name]), **_norm_kwargs(kw))
            out.append({"shape": t.shape.as_list(), "value": sess.run(t).tolist()})
    return out


def _kernel_message(e):
    """The kernel's own message line of a TF runtime error (TF 2 wraps it in "Graph execution error")."""
    lines = [ln for ln in getattr(e, "message", str(e)).splitlines() if ln.strip()]
    own = [ln for ln in lines if not ln.startswith((" ", "\t", "[", "Graph execution error", "Detected at node"))]
    return own[-1] if own else lines[-1]


def run_errors():
    """Each raw op's result (`ok`) or error for bad scalars and shapes, with the kernel's message."""
    out = {}
    with tf.Graph().as_default():
        from tensorflow.python.ops import gen_training_ops as gto
        v = tf.Variable(np.ones(2, np.float32))
        a = tf.Variable(np.ones(2, np.float32))
        lin = tf.Variable(np.zeros(2, np.float32))
        g = tf.constant(np.ones(2, np.float32))
        pl = tf.placeholder(tf.float32)
        g3 = tf.placeholder_with_default(np.ones(3, np.float32), [None])
        cases = {
            "ftrl_negative_lr": lambda: gto.apply_ftrl(v, a, lin, g, -1.0, 0.0, 0.0, -0.5),
            "ftrl_lr_vector": lambda: gto.apply_ftrl(v, a, lin, g, pl, 0.0, 0.0, -0.5),
            "ftrl_grad_shape": lambda: gto.apply_ftrl(v, a, lin, g3, 1.0, 0.0, 0.0, -0.5),
            "pgd_alpha_vector": lambda: gto.apply_proximal_gradient_descent(v, pl, 0.0, 0.0, g),
            "pgd_negative_l1": lambda: gto.apply_proximal_gradient_descent(v, 1.0, -1.0, 0.0, g),
            "padagrad_zero_lr": lambda: gto.apply_proximal_adagrad(v, a, 0.0, 0.0, 0.0, g),
            "padagrad_negative_l1": lambda: gto.apply_proximal_adagrad(v, a, 1.0, -1.0, 0.0, g),
            "padagrad_negative_l2": lambda: gto.apply_proximal_adagrad(v, a, 1.0, 0.0, -1.0, g),
            "padagrad_lr_vector": lambda: gto.apply_proximal_adagrad(v, a, pl, 0.0, 0.0, g),
        }
        with tf.Session() as sess:
            for k, f in cases.items():
                sess.run(tf.global_variables_initializer())
                try:
                    sess.run(f(), {pl: [1.0, 2.0]})
                    out[k] = "ok"
                except tf.errors.OpError as e:
                    out[k] = "%s: %s" % (type(e).__name__, _kernel_message(e))
    return out


if __name__ == "__main__":
    result = {"optimizers": {}, "optimizers64": {}}
    for name, make in OPTIMIZERS.items():
        result["optimizers"][name] = run_optimizer(make, np.float32)
        result["optimizers64"][name] = run_optimizer(make, np.float64)
    result["sparse"] = {k: run_sparse(OPTIMIZERS[k]) for k in ("ftrl_l1_l2", "proximal_gd_l1_l2",
                                                                 "proximal_adagrad_l1_l2")}
    result["ema"] = run_ema()
    result["errors"] = run_errors()
    result["norm"] = run_norm()
    print(json.dumps(result, indent=1, sort_keys=True))
