"""A GraphDef of string and ragged ops written by TensorFlow 2.21 (tests/data/make_strings_graph.py)
imports into tensorweave and computes TensorFlow's recorded outputs."""

import json
import os

import numpy as np
import pytest

import tensorweave as tf
from tensorweave.graph_io.graph_def import parse_graph_def

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "graphs")


def _decode(rec):
    if rec["dtype"] == "string":
        flat = [bytes.fromhex(v) for v in rec["values"]]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        return out.reshape(rec["shape"])
    return np.array(rec["values"], dtype=rec["dtype"]).reshape(rec["shape"])


@pytest.fixture(scope="module")
def golden():
    with open(os.path.join(DATA, "strings_outputs.json")) as f:
        return json.load(f)


def test_tf_graph_def_of_string_ops_runs(golden):
    pytest.importorskip("google.protobuf")
    with open(os.path.join(DATA, "strings.pb"), "rb") as f:
        gd = parse_graph_def(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(gd, name="")
        x = g.get_tensor_by_name("input:0")
        names = golden["tensors"]
        fetches = {k: g.get_tensor_by_name(v) for k, v in names.items()}
        feed = np.empty(len(golden["input"]), dtype=object)
        feed[:] = [bytes.fromhex(v) for v in golden["input"]]
        with tf.Session(graph=g) as s:
            got = s.run(fetches, {x: feed})
    for k, rec in golden["outputs"].items():
        want = _decode(rec)
        have = np.asarray(got[k])
        assert have.shape == want.shape, k
        if want.dtype.kind == "f":
            np.testing.assert_allclose(have, want, rtol=1e-6, err_msg=k)
        else:
            np.testing.assert_array_equal(have, want, err_msg=k)
