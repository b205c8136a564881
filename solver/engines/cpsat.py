"""Solve the MIP formulation's rows with OR-Tools CP-SAT, enumerating all solutions."""
from __future__ import annotations

import time

from .lp import rows
from .model import Model


def search(model: Model, keep, deadline: float | None, first: bool = False) -> tuple[bool, int]:
    """Hand each solution's true variables to ``keep``; (ran to the end, branches)."""
    from ortools.sat.python import cp_model  # here, not at the top: see CLASH in solver.engines
    cp = cp_model.CpModel()
    x = [cp.NewBoolVar(f"x{i}") for i in range(len(model.x))]
    for _, row, sense, rhs in rows(model):
        total = sum(c * x[i] for i, c in row.items())
        cp.Add(total == rhs) if sense == "=" else cp.Add(total <= rhs)
    solver = cp_model.CpSolver()
    if deadline is not None:
        solver.parameters.max_time_in_seconds = max(deadline - time.perf_counter(), 0.001)
    if not first:
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1

    class Collect(cp_model.CpSolverSolutionCallback):
        stopped = False

        def on_solution_callback(self) -> None:
            if keep([i for i, v in enumerate(x) if self.BooleanValue(v)]) or first:
                self.stopped = True
                self.StopSearch()

    collect = Collect()
    status = solver.Solve(cp, collect)
    finished = status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not collect.stopped
    return finished, solver.NumBranches()
