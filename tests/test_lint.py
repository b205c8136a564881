"""Lint: no unused imports or variables, no undefined names, no name defined twice.

pyflakes reads the source without running it, so a helper defined twice in
one module (the second silently shadowing the first), an import left
behind by a refactor or a variable assigned and never read fails here,
with every message listed, rather than surviving review.
"""
from __future__ import annotations

import io
from pathlib import Path

import pytest
from pyflakes.api import checkRecursive
from pyflakes.reporter import Reporter

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ("solver", "vision", "benchmarks", "tests")


def test_the_code_has_nothing_pyflakes_flags():
    messages = io.StringIO()
    checkRecursive([str(ROOT / folder) for folder in CHECKED], Reporter(messages, messages))
    if messages.getvalue():
        pytest.fail("pyflakes:\n" + messages.getvalue(), pytrace=False)
