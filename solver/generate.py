"""New puzzles: plant a solution, cut it into tiles, keep it if it is the only one.

A planted puzzle starts from the seams: every seam of the grid gets a figure
(or a colour), the tiles are what the cells then show, and shuffling and
turning them hides the answer. `generate` keeps drawing planted puzzles until
a full enumeration finds exactly one solution.

Two styles:

- Scramble Squares: ``figures`` figures, each seam shows ``+k`` on one side
  and ``-k`` on the other (match ``signed``); outer edges show halves too.
- Eternity: ``frame`` > 0 gives a grey border (code 0) on every outer edge,
  ``frame`` colours on the seams between rim tiles and ``figures`` colours
  inside (match ``same``), like Eternity II.
"""
from __future__ import annotations

import random

from .puzzle import Fixed, Placement, Puzzle, shape_problem, turn
from .rules import Match
from .search import solve

BORDER = 0


def planted(rows: int, cols: int, figures: int = 4, frame: int = 0,
            rng: random.Random | None = None) -> tuple[Puzzle, tuple]:
    """A random puzzle and a solution planted in it.

    Parameters
    ----------
    rows, cols : int
        Grid size.
    figures : int
        Figures (signed style) or inner colours (Eternity style).
    frame : int
        Frame colours; 0 for the Scramble Squares style.
    rng : random.Random, optional

    Returns
    -------
    puzzle : Puzzle
    solution : tuple
        Rows of `Placement`, as `solver.solve` reports them.

    Examples
    --------
    >>> from solver import is_solution
    >>> p, grid = planted(4, 5, figures=4, rng=random.Random(1))
    >>> is_solution(p, grid)
    True
    """
    if shape := shape_problem(rows, cols):  # no redraw would mend it
        raise ValueError(shape)
    rng = rng or random.Random()
    while True:  # redraw until every code has a partner on some tile
        try:
            return _plant(rows, cols, figures, frame, rng)
        except ValueError:
            continue


def _plant(rows: int, cols: int, figures: int, frame: int, rng: random.Random) -> tuple:
    def seam(rim: bool) -> int:
        if frame:
            return rng.randint(1, frame) if rim else frame + rng.randint(1, figures)
        return rng.choice((-1, 1)) * rng.randint(1, figures)

    outer = BORDER if frame else None
    # across[r][c]: the code the cell (r, c) shows west; down[r][c]: shows north
    across = [[outer if c in (0, cols) and frame else seam(r in (0, rows - 1))
               for c in range(cols + 1)] for r in range(rows)]
    down = [[outer if r in (0, rows) and frame else seam(c in (0, cols - 1))
             for c in range(cols)] for r in range(rows + 1)]
    match = Match("same") if frame else Match("signed")
    facing = (lambda code: code) if frame else (lambda code: -code)
    laid = [(down[r][c], facing(across[r][c + 1]), facing(down[r + 1][c]), across[r][c])
            for r in range(rows) for c in range(cols)]
    order = list(range(rows * cols))
    rng.shuffle(order)
    turns = [rng.randrange(4) for _ in order]
    # tile i is laid tile order[i] turned back by turns[i]
    tiles = tuple(turn(laid[cell], -q) for cell, q in zip(order, turns))
    puzzle = Puzzle(tiles=tiles, rows=rows, cols=cols, match=match, border=outer,
                    name=f"{'eternity' if frame else 'signed'}-{rows}x{cols}")
    place = {cell: Placement(i, q % 4) for i, (cell, q) in enumerate(zip(order, turns))}
    grid = tuple(tuple(place[r * cols + c] for c in range(cols)) for r in range(rows))
    return puzzle, grid


def generate(rows: int, cols: int, figures: int = 4, frame: int = 0, hints: int = 0,
             seed: int | None = None, tries: int = 200, timeout: float | None = None) -> Puzzle:
    """A puzzle with exactly one solution, proved by enumerating them all.

    Parameters
    ----------
    rows, cols, figures, frame : int
        As for `planted`.
    hints : int
        Tiles of the planted solution given as fixed hint pieces.
    seed : int, optional
        Makes the puzzle reproducible.
    tries : int
        Planted puzzles to draw before giving up.
    timeout : float, optional
        Seconds of enumeration allowed per try.

    Raises
    ------
    ValueError
        When no unique puzzle turned up in ``tries`` draws.

    Examples
    --------
    >>> p = generate(3, 3, figures=4, seed=7)
    >>> solve(p, all=True).count
    1
    """
    rng = random.Random(seed)
    for _ in range(tries):
        puzzle, grid = planted(rows, cols, figures, frame, rng)
        if hints:
            cells = rng.sample(range(rows * cols), hints)
            fixed = tuple(Fixed(grid[c // cols][c % cols].tile, c // cols, c % cols,
                                grid[c // cols][c % cols].quarters) for c in sorted(cells))
            puzzle = Puzzle(puzzle.tiles, rows, cols, puzzle.match, puzzle.border, fixed,
                            name=puzzle.name)
        found = solve(puzzle, all=True, limit=2, timeout=timeout)
        if found.complete and found.count == 1:
            return puzzle
    raise ValueError(f"no {rows}x{cols} puzzle with {figures} figures had a unique solution "
                     f"in {tries} tries (try more figures or hints)")


def as_data(puzzle: Puzzle) -> dict:
    """``puzzle`` as the JSON puzzle file of SPEC.md (1-based ids and hint cells).

    >>> as_data(Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2))["tiles"][0]
    [1, 2, -1, -2]
    """
    data = {"name": puzzle.name, "rows": puzzle.rows, "cols": puzzle.cols,
            "match": puzzle.match.describe(), "tiles": [list(t) for t in puzzle.tiles]}
    if puzzle.border is not None:
        data["border"] = puzzle.border
    if puzzle.fixed:
        data["fixed"] = [{"tile": f.tile + 1, "row": f.row + 1, "col": f.col + 1,
                          "rotation": 90 * f.quarters} for f in puzzle.fixed]
    return data
