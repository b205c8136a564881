"""Solve the SAT formulation with CaDiCaL (python-sat), enumerating by blocking clauses."""
from __future__ import annotations

import threading
import time

from pysat.solvers import Solver

from .cnf import clauses
from .model import Model


def search(model: Model, keep, deadline: float | None) -> tuple[bool, int]:
    """Hand each solution's true variables to ``keep``; (ran to the end, decisions)."""
    _, cs = clauses(model)
    n = len(model.x)
    with Solver(name="cadical195", bootstrap_with=cs) as sat:
        while True:
            timer = None
            if deadline is not None:
                timer = threading.Timer(max(deadline - time.perf_counter(), 0), sat.interrupt)
                timer.start()
            answer = sat.solve_limited(expect_interrupt=True)
            if timer is not None:
                timer.cancel()
            decisions = sat.accum_stats().get("decisions", 0)
            if answer is None:
                return False, decisions
            if not answer:
                return True, decisions
            on = [v - 1 for v in sat.get_model()[:n] if v > 0]
            if keep(on):
                return False, decisions
            sat.add_clause([-(i + 1) for i in on])
