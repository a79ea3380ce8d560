"""Records TF's values for tests/train/test_train_misc.py into tests/data/train_misc_tf.json.

Run with the reference TensorFlow: /work/tfenv/bin/python tests/data/make_train_misc_tf.py
(AdagradDA over several steps, dense and sparse; replica_device_setter placements; ClusterSpec;
warm_start with vocabulary remapping), over the cases of tests/data/train_misc_cases.py.
"""
import json
import os
import sys
import tempfile

import numpy as np
import tensorflow.compat.v1 as tf

tf.disable_v2_behavior()
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import train_misc_cases as cases  # noqa: E402

out = {}
# AdagradDA dense & sparse
for l1, l2 in cases.DA_L1_L2:
    for dt in (np.float32, np.float64):
        tf.reset_default_graph()
        gs, var, emb, opt, train = cases.adagrad_da(tf, l1, l2, dt)
        with tf.Session() as s:
            s.run(tf.global_variables_initializer())
            hist = []
            for i in range(3):
                s.run(train)
                hist.append([s.run(var).tolist(), s.run(emb).tolist(),
                             s.run(opt.get_slot(var, "gradient_accumulator")).tolist(),
                             s.run(opt.get_slot(emb, "gradient_squared_accumulator")).tolist()])
            out["da_%s_%s_%s" % (l1, l2, np.dtype(dt).name)] = hist
            slots = sorted(opt.get_slot_names())
        out["da_slots"] = slots
        out["da_slot_names"] = [v.op.name for v in tf.global_variables()]
out["rds"] = cases.replica_device_setter_devices(tf)
# ClusterSpec
c = cases.cluster_spec(tf)
out["cs"] = [c.jobs, c.num_tasks("ps"), c.num_tasks("worker"), c.task_indices("worker"), c.task_address("worker", 3),
             c.job_tasks("ps"), str(c.as_dict()), repr(c)]
try:
    c.job_tasks("worker")
except Exception as ex:
    out["cs_sparse_job_tasks"] = [type(ex).__name__, str(ex)]
for bad in cases.cluster_spec_bad_calls(tf, c):
    try:
        bad()
        out.setdefault("cs_err", []).append(None)
    except Exception as ex:
        out.setdefault("cs_err", []).append([type(ex).__name__, str(ex)])
out["cs_bool"] = [bool(tf.train.ClusterSpec({})), bool(c), c == tf.train.ClusterSpec(c.as_dict()),
                  str(tf.train.ClusterSpec({"a": []}).as_dict())]
# warm_start with vocab
d = tempfile.mkdtemp()
cases.write_warm_dir(tf, d)
res = {}
for mode in cases.WARM_MODES:
    try:
        res[mode] = cases.warm(tf, d, mode)
    except Exception as ex:
        res[mode] = [type(ex).__name__, str(ex)[:300]]
out["ws"] = res
for l1 in cases.DA_VECTOR_L1:
    tf.reset_default_graph()
    vec, train = cases.adagrad_da_vector(tf, l1)
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        hist = []
        for i in range(3):
            s.run(train)
            hist.append(s.run(vec).tolist())
    out["da_vector_%s" % l1] = hist
# the raw op and its errors
tf.reset_default_graph()
v = tf.Variable(np.array([1.0, -2.0, 0.5], np.float32))
a = tf.Variable(np.array([0.1, 0.2, -0.3], np.float32))
b = tf.Variable(np.array([0.5, 0.5, 0.5], np.float32))
upd = tf.raw_ops.ApplyAdagradDA(var=v._ref(), gradient_accumulator=a._ref(), gradient_squared_accumulator=b._ref(),
                                grad=np.array([0.3, -0.7, 1.1], np.float32), lr=np.float32(0.1),
                                l1=np.float32(0.05), l2=np.float32(0.1), global_step=np.int64(4))
with tf.Session() as s:
    s.run(tf.global_variables_initializer())
    out["da_raw"] = [s.run(upd).tolist()] + [x.tolist() for x in s.run([a, b])]
try:
    tf.raw_ops.ApplyAdagradDA(var=v._ref(), gradient_accumulator=a._ref(), gradient_squared_accumulator=b._ref(),
                              grad=np.array([0.3, -0.7, 1.1], np.float32), lr=np.float32(0.1),
                              l1=np.float32(0.05), l2=np.float32(0.1), global_step=np.int32(4))
except Exception as ex:
    out["da_step_dtype_error"] = [type(ex).__name__, str(ex)]
# SdcaFprint and SdcaShrinkL1
FPRINT_POOL = ["", "a", "hello", "example_id_42", "\u00e9t\u00e9", "x" * 100]
tf.reset_default_graph()
with tf.Session() as s:
    out["sdca_pool"] = FPRINT_POOL
    out["sdca_fprint"] = s.run(tf.train.sdca_fprint(tf.constant(FPRINT_POOL))).tolist()
    shrink = {}
    for l1, l2 in cases.SHRINK_L1_L2:
        w1, w2 = cases.shrink_variables(tf)
        s.run(tf.variables_initializer([w1, w2]))
        s.run(tf.train.sdca_shrink_l1([w1, w2], l1=l1, l2=l2))
        shrink["%s_%s" % (l1, l2)] = [[repr(float(x)) for x in s.run(w1)], s.run(w2).tolist()]
    out["sdca_shrink"] = shrink
json.dump(out, open(os.path.join(HERE, "train_misc_tf.json"), "w"), indent=0, sort_keys=True)
print("done")
