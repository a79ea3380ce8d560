"""The bench/ scripts (a directory, not a package) for the tests that use them."""

import os
import sys

BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench")
sys.path.insert(0, BENCH)

import _harness as H  # noqa: E402
import run as bench_run  # noqa: E402
