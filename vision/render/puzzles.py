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


def given(puzzle: Puzzle, figures: int = 4, seconds: float = 10.0) -> Planted:
    """A puzzle of the user's (a file, `edgematch generate`'s) as an art set draws it, with an answer.

    Art draws figure ``k``'s top half for code ``+k`` and its bottom half for
    ``-k``, so the puzzle's halves are numbered so: each pair of codes that fit
    (under its own rule) becomes a figure, in the order of its first code, the
    first code its top half. The answer is the search's first solution;
    ``count`` is 1 when the search proved it the only one within ``seconds``.

    Raises ValueError when the art cannot draw it: more figures than the art
    has, a code that fits itself (``same``), a border or corner colours.

    >>> from solver import Match
    >>> witch = Puzzle(tiles=((1, 2, 8, 7), (2, 8, 7, 1), (7, 1, 2, 8), (8, 7, 1, 2)), rows=2, cols=2,
    ...                match=Match.parse("sum:9"))
    >>> drawn = given(witch)
    >>> drawn.puzzle.tiles[0], drawn.puzzle.match.kind
    ((1, 2, -1, -2), 'signed')
    """
    if puzzle.border is not None or puzzle.corners:
        raise ValueError("a border or corner colours are no figures the art sets draw")
    halves, count = {}, 0  # code -> signed figure number, figures numbered so far
    for code in sorted({c for tile in puzzle.tiles for c in tile}, key=lambda c: (isinstance(c, str), c)):
        if code in halves:
            continue
        partner = puzzle.match.partner(code)
        if partner == code:
            raise ValueError(f"code {code} fits itself, not a figure's other half, and the art sets draw halves")
        count += 1
        halves[code] = count
        if partner is not None:
            halves[partner] = -count
    if count > figures:
        raise ValueError(f"{count} figures, and the art sets draw {figures}")
    drawn = Puzzle(tiles=tuple(tuple(halves[c] for c in tile) for tile in puzzle.tiles),
                   rows=puzzle.rows, cols=puzzle.cols, name=puzzle.name)
    found = solve(puzzle, all=True, limit=2, timeout=seconds)
    if not found.solutions:
        raise ValueError(f"no arrangement fits{'' if found.complete else f' found in {seconds:g} s'},"
                         " so there is no answer to draw")
    return Planted(drawn, found.solutions[0], 1 if found.complete and found.count == 1 else None)
