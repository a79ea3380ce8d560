"""The op table (tests/ops/op_table/): every row's generic checks, and the coverage gate: every op
type the package registers has a row or an exemption (tests/ops/op_table/exemptions.py)."""

import importlib
import pathlib
import subprocess
import sys

import pytest

from tests.ops.op_table import harness
from tests.ops.op_table.exemptions import EXEMPT

_TABLE_DIR = pathlib.Path(__file__).parent / "op_table"
ROW_MODULES = sorted(p.stem for p in _TABLE_DIR.glob("rows_*.py"))


def _collect_rows():
    rows = []
    for name in ROW_MODULES:
        module = importlib.import_module("tests.ops.op_table." + name)
        rows.extend(module.ROWS)
    return rows


ROWS = _collect_rows()
CASES = harness.cases(ROWS)


def _registered_op_types():
    """The op types `import tensorweave` registers, in a fresh interpreter (ops other tests register
    at runtime, such as custom ops, do not count)."""
    code = "import tensorweave\nfrom tensorweave.framework import registry\nprint('\\n'.join(registry.list_ops()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=str(_TABLE_DIR.parents[2]))
    return set(out.stdout.split())


@pytest.fixture(scope="module")
def registered():
    return _registered_op_types()


@pytest.mark.parametrize("row,check,dtype", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_op(row, check, dtype):
    harness.run_case(row, check, dtype)


def test_row_names_are_unique():
    names = [r.name for r in ROWS]
    assert sorted({n for n in names if names.count(n) > 1}) == []


def test_every_registered_op_type_has_a_row_or_an_exemption(registered):
    covered = {r.op_type for r in ROWS} | set(EXEMPT)
    missing = sorted(registered - covered)
    assert missing == [], "op types with neither a row nor an exemption: %s" % ", ".join(missing)


def test_rows_and_exemptions_name_registered_types_once(registered):
    rows = {r.op_type for r in ROWS}
    assert sorted(rows - registered) == [], "rows of unregistered op types"
    assert sorted(set(EXEMPT) - registered) == [], "exemptions of unregistered op types"
    assert sorted(rows & set(EXEMPT)) == [], "op types with both a row and an exemption"
    assert all(isinstance(v, str) and len(v) > 20 for v in EXEMPT.values()), "exemptions need a specific reason"
