"""Check an arrangement against the rules, independently of the search.

This module shares nothing with `solver.search` but the puzzle model: it
turns tiles by index arithmetic of its own and checks every seam, so a bug in
the search cannot hide in the check.
"""
from __future__ import annotations

from .puzzle import Puzzle


def problems(puzzle: Puzzle, grid) -> list[str]:
    """Everything wrong with ``grid`` as a solution of ``puzzle``; empty if none.

    ``grid`` is rows of ``(tile, quarters)`` pairs, tiles 0-based.

    Examples
    --------
    >>> from solver.puzzle import Puzzle
    >>> p = Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)
    >>> problems(p, [[(0, 0), (1, 0)], [(2, 0), (3, 0)]])
    []
    """
    rows, cols = puzzle.rows, puzzle.cols
    found = []
    if len(grid) != rows or any(len(row) != cols for row in grid):
        return [f"grid is not {rows}x{cols}"]
    used = sorted(int(tile) for row in grid for tile, _ in row)
    if used != list(range(puzzle.size)):
        return ["grid does not use every tile exactly once"]
    sides = puzzle.seam_edges()

    def side(r: int, c: int, k: int):
        tile, quarters = grid[r][c]
        # a clockwise turn by q shows on side k what was on side k - q
        return sides[tile][(k - quarters) % 4]

    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols and not puzzle.fits(side(r, c, 1), side(r, c + 1, 3)):
                found.append(f"seam between row {r + 1} col {c + 1} and col {c + 2} does not fit")
            if r + 1 < rows and not puzzle.fits(side(r, c, 2), side(r + 1, c, 0)):
                found.append(f"seam between col {c + 1} row {r + 1} and row {r + 2} does not fit")
    if puzzle.border is not None:
        outer = [(0, c, 0) for c in range(cols)] + [(rows - 1, c, 2) for c in range(cols)]
        outer += [(r, 0, 3) for r in range(rows)] + [(r, cols - 1, 1) for r in range(rows)]
        found += [f"outer edge of row {r + 1} col {c + 1} is not the border"
                  for r, c, k in outer if side(r, c, k) != puzzle.border]
    for f in puzzle.fixed:
        if tuple(grid[f.row][f.col]) != (f.tile, f.quarters % 4):
            found.append(f"hint tile {f.tile + 1} is not at row {f.row + 1} col {f.col + 1}")
    return found


def is_solution(puzzle: Puzzle, grid) -> bool:
    """True when ``grid`` solves ``puzzle``."""
    return not problems(puzzle, grid)
