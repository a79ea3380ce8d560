"""Lists defined outside a converted function (module globals, closures, `global`/`nonlocal`
names, attributes) keep Python's semantics: `append` appends to them in place and never turns
their name into a local of the converted function (issue 15, item 2)."""

import numpy as np
import pytest

import tensorweave as tf
from tests.autograph.ag_testing import run

ag = tf.autograph

TRACES = []
DECLARED = []
TYPED_GLOBAL = []


def record_global(x):
    TRACES.append(x)
    return x + 1


def record_global_in_staged_loop(n):
    i = tf.constant(0)
    while i < n:
        TRACES.append(i)
        i += 1
    return i


def record_global_in_staged_branch(c):
    if c:
        TRACES.append(1)
        y = tf.constant(1)
    else:
        TRACES.append(2)
        y = tf.constant(2)
    return y


def record_declared_global(x):
    global DECLARED
    DECLARED.append(x)
    return x * 2


def typed_global(n):
    # set_element_type on a name the function does not define is ignored, as TF does: the
    # module's list stays a Python list.
    ag.set_element_type(TYPED_GLOBAL, tf.int32)
    TYPED_GLOBAL.append(n)
    return n


def make_closure_recorder():
    rec = []

    def h(x):
        rec.append(x)
        return x * 2
    return h, rec


def make_nonlocal_recorder():
    rec = []
    calls = 0

    def h(x):
        nonlocal rec, calls
        rec.append(x)
        calls += 1
        return x * 3

    def count():
        return calls
    return h, rec, count


def make_nonlocal_counter_in_staged_loop():
    calls = 0

    def h(n):
        nonlocal calls
        i = tf.constant(0)
        while i < n:
            calls += 1
            i += 1
        return i
    return h


class Recorder:
    def __init__(self):
        self.x = []
        self.inner = type("Inner", (), {})()
        self.inner.items = []

    def method(self, v):
        self.x.append(v)
        self.inner.items.append(v + 1)
        return v

    def in_staged_loop(self, n):
        i = tf.constant(0)
        while i < n:
            self.x.append(i)
            i += 1
        return i


@pytest.fixture(autouse=True)
def _clear_globals():
    del TRACES[:], DECLARED[:], TYPED_GLOBAL[:]
    yield
    del TRACES[:], DECLARED[:], TYPED_GLOBAL[:]


def test_module_global_append_keeps_python_semantics():
    x = tf.constant(1.0)
    y = ag.to_graph(record_global)(x)
    assert TRACES == [x] and run(y) == 2.0
    assert "converted_call(TRACES.append, (x,)" in ag.to_code(record_global)
    assert "TRACES = " not in ag.to_code(record_global)


@pytest.mark.parametrize("wrap", [tf.function, tf.contrib.eager.defun], ids=["tf.function", "defun"])
def test_module_global_append_under_tf_function(wrap):
    f = wrap(record_global)
    out = f(tf.constant(1.0))
    assert len(TRACES) == 1 and tf.is_tensor(TRACES[0])
    assert run(out) == 2.0


def test_module_global_append_in_staged_loop_and_branch():
    out = ag.to_graph(record_global_in_staged_loop)(tf.constant(3))
    assert run(out) == 3 and len(TRACES) == 1   # the body is traced once
    del TRACES[:]
    p = tf.placeholder(tf.bool, [])
    y = ag.to_graph(record_global_in_staged_branch)(p)
    assert TRACES == [1, 2]                      # both branches traced once
    assert run(y, {p: True}) == 1 and run(y, {p: False}) == 2


def test_declared_global_append():
    x = tf.constant(2.0)
    y = ag.to_graph(record_declared_global)(x)
    assert DECLARED == [x] and run(y) == 4.0


def test_set_element_type_on_a_global_is_ignored():
    assert ag.to_graph(typed_global)(5) == 5
    assert TYPED_GLOBAL == [5] and isinstance(TYPED_GLOBAL, list)


@pytest.mark.parametrize("wrap", [ag.to_graph, tf.function, tf.contrib.eager.defun],
                         ids=["to_graph", "tf.function", "defun"])
def test_closure_append(wrap):
    h, rec = make_closure_recorder()
    y = wrap(h)(tf.constant(2.0))
    assert len(rec) == 1 and tf.is_tensor(rec[0]) and run(y) == 4.0


def test_nonlocal_append_and_counter():
    h, rec, count = make_nonlocal_recorder()
    x = tf.constant(1.0)
    y = ag.to_graph(h)(x)
    assert rec == [x] and count() == 1 and run(y) == 3.0


def test_nonlocal_counter_in_staged_loop():
    out = ag.to_graph(make_nonlocal_counter_in_staged_loop())(tf.constant(4))
    assert run(out) == 4


def test_attribute_append_keeps_python_semantics():
    r = Recorder()
    v = tf.constant(1)
    assert ag.to_graph(Recorder.method)(r, v) is v
    assert r.x == [v] and len(r.inner.items) == 1 and run(r.inner.items[0]) == 2
    r = Recorder()
    out = ag.to_graph(Recorder.in_staged_loop)(r, tf.constant(3))
    assert run(out) == 3 and len(r.x) == 1


def test_local_lists_still_become_tensor_arrays():
    def local(n):
        out = []
        ag.set_element_type(out, tf.int32)
        for i in tf.range(n):
            out.append(i * 2)
        return ag.stack(out)
    np.testing.assert_array_equal(run(ag.to_graph(local)(tf.constant(3))), [0, 2, 4])


# ---- the other converters: globals, closures, attributes and nonlocal names ----------------------

class _Config:
    count = 0


CONFIG = _Config()
COUNTER = 0


def global_attribute_in_staged_loop(n):
    i = tf.constant(0)
    CONFIG.count = tf.constant(0)
    while i < n:
        CONFIG.count = CONFIG.count + 2
        i += 1
    return CONFIG.count


def global_attribute_in_staged_branch(c):
    if c:
        CONFIG.count = tf.constant(10)
    else:
        CONFIG.count = tf.constant(20)
    return CONFIG.count


def declared_global_in_staged_loop(n):
    global COUNTER
    COUNTER = tf.constant(0)
    i = tf.constant(0)
    while i < n:
        COUNTER += 3
        i += 1
    return i


def make_closure_reader():
    scale = tf.constant(5)
    seen = {}

    def h(n):
        total = tf.constant(0)
        for i in tf.range(n):
            total += scale
            seen["last"] = i
            if i > 100:
                break
        return total
    return h, seen


def test_global_attribute_in_staged_control_flow():
    out = ag.to_graph(global_attribute_in_staged_loop)(tf.constant(3))
    assert run(out) == 6 and run(CONFIG.count) == 6
    p = tf.placeholder(tf.bool, [])
    out = ag.to_graph(global_attribute_in_staged_branch)(p)
    assert run(out, {p: True}) == 10 and run(out, {p: False}) == 20


def test_declared_global_in_staged_loop():
    out = ag.to_graph(declared_global_in_staged_loop)(tf.constant(4))
    assert run([out, COUNTER]) == [4, 12]


def test_closure_read_and_item_write_in_staged_loop():
    h, seen = make_closure_reader()
    out = ag.to_graph(h)(tf.constant(3))
    assert run(out) == 15 and tf.is_tensor(seen["last"])
