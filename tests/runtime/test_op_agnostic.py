"""The runtime and the backends know no op by name: what they need is a trait of the op's record."""

import ast
import pathlib

import tensorweave
from tensorweave.framework import registry

_PACKAGE = pathlib.Path(tensorweave.__file__).parent


def _string_literals(path):
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node.lineno, node.value


def test_no_op_type_literal_in_runtime_or_backends():
    op_types = set(registry.list_ops())
    found = []
    for layer in ("runtime", "backends"):
        for path in sorted((_PACKAGE / layer).rglob("*.py")):
            for line, value in _string_literals(path):
                # Whole literals and the words of docstrings/messages that name an op type as code.
                if value in op_types:
                    found.append("%s:%d: %r" % (path.relative_to(_PACKAGE), line, value))
    assert found == []


def test_the_checker_sees_op_type_literals(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text('KINDS = frozenset({"MatMul", "NotAnOp"})\n')
    assert [v for _, v in _string_literals(probe) if v in set(registry.list_ops())] == ["MatMul"]
