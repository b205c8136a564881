"""Solve the MIP formulation with HiGHS, enumerating by no-good cuts."""
from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING

import numpy as np

from .lp import rows
from .model import Model

if TYPE_CHECKING:  # for the annotation only: imported at run time in each function (CLASH in solver.engines)
    import highspy


def search(model: Model, keep, deadline: float | None) -> tuple[bool, int]:
    """Hand each solution's true variables to ``keep``; (ran to the end, B&B nodes)."""
    import highspy  # here, not at the top: see CLASH in solver.engines
    h = quiet_highs()
    n = len(model.x)
    h.addVars(n, np.zeros(n), np.ones(n))
    h.changeColsIntegrality(n, np.arange(n, dtype=np.int32),
                            np.full(n, highspy.HighsVarType.kInteger))
    for _, row, sense, rhs in rows(model):
        _add_row(h, row, -highspy.kHighsInf if sense == "<=" else rhs, rhs)
    nodes = 0
    while True:
        if deadline is not None:
            left = deadline - time.perf_counter()
            if left <= 0:
                return False, nodes
            h.setOptionValue("time_limit", left)
        h.run()
        nodes += h.getInfo().mip_node_count
        status = h.getModelStatus()
        if status == highspy.HighsModelStatus.kInfeasible:
            return True, nodes
        if status != highspy.HighsModelStatus.kOptimal:
            return False, nodes
        on = [i for i, v in enumerate(h.getSolution().col_value) if v > 0.5]
        if keep(on):
            return False, nodes
        # no-good cut: not all of these placements again
        _add_row(h, dict.fromkeys(on, 1), -highspy.kHighsInf, len(on) - 1)


def quiet_highs() -> highspy.Highs:
    """A HiGHS instance that writes nothing to standard output.

    Since highspy 1.16 the constructor prints a banner before any option
    can be set, which would land in the middle of ``solve --json``'s
    answer, so file descriptor 1 points at the null device meanwhile.
    """
    import highspy
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
            h = highspy.Highs()
    finally:
        os.dup2(saved, 1)
        os.close(saved)
    h.setOptionValue("output_flag", False)
    return h


def _add_row(h, row: dict, lower: float, upper: float) -> None:
    index = np.fromiter(row, dtype=np.int32, count=len(row))
    value = np.fromiter(row.values(), dtype=np.float64, count=len(row))
    h.addRow(lower, upper, len(row), index, value)
