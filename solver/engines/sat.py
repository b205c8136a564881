"""Solve the SAT formulation with CaDiCaL (python-sat), enumerating by blocking clauses.

python-sat cannot interrupt CaDiCaL, so a search with a deadline runs in a
child process that sends each solution as it finds it and is ended when time
is up: the solutions found so far are kept.
"""
from __future__ import annotations

import multiprocessing
import time

from pysat.solvers import Solver

from ..puzzle import Puzzle
from .cnf import clauses
from .model import Model


def search(model: Model, keep, deadline: float | None) -> tuple[bool, int]:
    """Hand each solution's true variables to ``keep``; (ran to the end, decisions)."""
    if deadline is None:
        return _enumerate(model, keep)
    reader, writer = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("spawn").Process(
        target=_send_all, args=(model.puzzle, writer), daemon=True)
    child.start()
    writer.close()
    try:
        while True:
            left = deadline - time.perf_counter()
            if left <= 0 or not reader.poll(left):
                return False, 0
            try:
                message = reader.recv()
            except EOFError:
                raise RuntimeError("the SAT solver's process ended without an answer") from None
            if isinstance(message, int):  # the end: the solver's decisions
                return True, message
            if keep(message):
                return False, 0
    finally:
        child.terminate()
        child.join()


def _enumerate(model: Model, keep) -> tuple[bool, int]:
    _, cs = clauses(model)
    n = len(model.x)
    with Solver(name="cadical195", bootstrap_with=cs) as sat:
        while sat.solve():
            on = [v - 1 for v in sat.get_model()[:n] if v > 0]
            if keep(on):
                return False, sat.accum_stats().get("decisions", 0)
            sat.add_clause([-(i + 1) for i in on])
        return True, sat.accum_stats().get("decisions", 0)


def _send_all(puzzle: Puzzle, writer) -> None:
    """In the child: send every solution, then the decision count."""
    _, decisions = _enumerate(Model(puzzle), lambda on: writer.send(on))
    writer.send(decisions)
