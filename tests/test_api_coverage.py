"""tools/api_coverage.py: the coverage report of TF's recorded `tf.compat.v1` names."""

import importlib.util
import os
import types

import tensorweave as tf

_TOOL = os.path.join(os.path.dirname(__file__), os.pardir, "tools", "api_coverage.py")


def _tool():
    spec = importlib.util.spec_from_file_location("api_coverage", _TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_names_resolve_by_attribute_access():
    tool = _tool()
    assert tool.offered(tf, "nn.relu") and tool.offered(tf, "train.Saver") and tool.offered(tf, "float32")
    assert not tool.offered(tf, "nn.no_such_op") and not tool.offered(tf, "no_such_module.x")


def test_report_counts_by_module_and_lists_missing_names():
    tool = _tool()
    fake = types.SimpleNamespace(a=1, m=types.SimpleNamespace(b=2))
    cov = tool.coverage(fake, ["a", "z", "m.b", "m.c", "m.d"])
    assert cov == {"": (["a"], ["z"]), "m": (["m.b"], ["m.c", "m.d"])}
    text, have, total = tool.report("test list", cov)
    assert (have, total) == (2, 5) and "**2 of 5 names: 40.0%**" in text
    assert "| m | 1 | 2 |" in text and "- **m** (2): `c`, `d`" in text and "- **(top level)** (1): `z`" in text


def test_the_recorded_list_is_tfs_and_readable():
    header, names = _tool().read_names()
    assert header.startswith("tf.compat.v1 public names") and "2.21.0" in header
    assert len(names) > 2000 and "image.resize_images" in names and "nn.relu" in names
    assert not any(n.startswith(("raw_ops.", "keras.", "compat.")) for n in names)
