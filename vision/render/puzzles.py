"""Planted puzzles: lay out whole figures across every seam, then scramble.

A planted puzzle is built solved: every seam gets a figure ``k`` and a
direction (which side shows the top half, ``+k``), outer edges get halves at
random. The tiles are then shuffled and turned; the planted arrangement
undoes that, so it is a solution by construction.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from solver import Match, Placement, Puzzle, solve, turn


class Planted(NamedTuple):
    """A puzzle and the arrangement it was built from."""

    puzzle: Puzzle
    solution: tuple  # rows of Placement (tile 0-based, quarters clockwise)
    count: int | None  # distinct solutions, when uniqueness was checked


def plant(rows: int = 3, cols: int = 3, figures: int = 4, seed: int = 0,
          unique: bool = False, tries: int = 500) -> Planted:
    """Make a ``rows x cols`` puzzle of ``figures`` figures with a planted solution.

    With ``unique`` the puzzle is redrawn until the solver finds exactly one
    solution (``solve(puzzle, all=True).count == 1``).

    Examples
    --------
    >>> from solver import is_solution
    >>> p = plant(3, 3, seed=1)
    >>> is_solution(p.puzzle, p.solution)
    True
    >>> plant(3, 3, seed=1, unique=True).count
    1
    """
    rng = np.random.default_rng(seed)
    for _ in range(tries):
        try:
            planted = _plant_once(rows, cols, figures, rng)
        except ValueError:  # an outer half whose partner is on no tile
            continue
        if not unique:
            return planted
        result = solve(planted.puzzle, all=True, limit=2)
        if result.complete and result.count == 1:
            return planted._replace(count=1)
    raise ValueError(f"no {rows}x{cols} puzzle{' with a unique solution' * unique} in {tries} tries")


def _plant_once(rows: int, cols: int, figures: int, rng: np.random.Generator) -> Planted:
    def half() -> int:
        return int(rng.integers(1, figures + 1)) * int(rng.choice((-1, 1)))

    # cell[r][c] = [N, E, S, W] of the tile as it lies in the solved grid
    cell = [[[half() for _ in range(4)] for _ in range(cols)] for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                cell[r][c + 1][3] = -cell[r][c][1]
            if r + 1 < rows:
                cell[r + 1][c][0] = -cell[r][c][2]
    order = rng.permutation(rows * cols)  # order[i]: cell of tile i
    quarters = rng.integers(0, 4, rows * cols)
    tiles, grid = [None] * (rows * cols), [[None] * cols for _ in range(rows)]
    for i, where in enumerate(order):
        r, c = divmod(int(where), cols)
        q = int(quarters[i])
        tiles[i] = turn(cell[r][c], -q)  # as given; turning it q clockwise places it
        grid[r][c] = Placement(i, q)
    puzzle = Puzzle(tiles=tuple(tiles), rows=rows, cols=cols, match=Match("signed"))
    return Planted(puzzle, tuple(tuple(row) for row in grid), None)
