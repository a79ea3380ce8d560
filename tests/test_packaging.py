"""Packaging metadata (issue 15, item 21): `project.license` is an SPDX expression string, not the
TOML table setuptools deprecates (builds with a table stop working after 2027-02-18), and the build
requires a setuptools that reads the string form (>= 77, PEP 639)."""

import os
import re

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _pyproject():
    tomllib = pytest.importorskip("tomllib")
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)


def test_license_is_an_spdx_string():
    project = _pyproject()["project"]
    assert project["license"] == "Apache-2.0"
    assert not any(c.startswith("License ::") for c in project.get("classifiers", []))  # not with an SPDX license


def test_build_requires_a_setuptools_that_reads_spdx_licenses():
    requires = _pyproject()["build-system"]["requires"]
    (setuptools,) = [r for r in requires if r.startswith("setuptools")]
    m = re.fullmatch(r"setuptools>=(\d+)(\.\d+)*", setuptools.replace(" ", ""))
    assert m and int(m.group(1)) >= 77
