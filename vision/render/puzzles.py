"""Planted puzzles for photos: `solver.generate.planted`, kept with its answer.

The photo's truth needs the planted arrangement itself, and a seed that
fixes the puzzle whatever the scene, so this wraps the solver's planting
with a seeded generator and, for ``unique``, keeps drawing until the search
proves the answer is the only one.
"""
from __future__ import annotations

import random
import time
from typing import NamedTuple

from solver import Puzzle, solve
from solver.generate import planted


class Planted(NamedTuple):
    """A puzzle and the arrangement it was built from."""

    puzzle: Puzzle
    solution: tuple  # rows of Placement (tile 0-based, quarters clockwise)
    count: int | None  # distinct solutions, when uniqueness was checked


def plant(rows: int = 3, cols: int = 3, figures: int = 4, seed: int = 0,
          unique: bool = False, tries: int = 500, seconds: float = 30.0) -> Planted:
    """Make a ``rows x cols`` puzzle of ``figures`` figures with a planted solution.

    With ``unique`` the puzzle is redrawn until the solver finds exactly one
    solution (``solve(puzzle, all=True).count == 1``), for at most ``tries``
    draws and ``seconds`` of search; then it gives up with ValueError.

    Examples
    --------
    >>> from solver import is_solution
    >>> p = plant(3, 3, seed=1)
    >>> is_solution(p.puzzle, p.solution)
    True
    >>> plant(3, 3, seed=1, unique=True).count
    1
    """
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    for _ in range(tries):
        puzzle, grid = planted(rows, cols, figures, rng=rng)
        if not unique:
            return Planted(puzzle, grid, None)
        left = deadline - time.monotonic()
        if left <= 0:
            break
        found = solve(puzzle, all=True, limit=2, timeout=left)
        if found.complete and found.count == 1:
            return Planted(puzzle, grid, 1)
    raise ValueError(f"no {rows}x{cols} puzzle with a unique solution turned up "
                     f"in {tries} tries or {seconds:g} seconds")
