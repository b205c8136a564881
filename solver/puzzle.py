"""The puzzle model: tiles, the grid they go in, and the rule their edges follow.

A tile is four codes clockwise from the top, ``(N, E, S, W)``. Turning a tile
a quarter clockwise moves each code one side on: ``turn((N, E, S, W), 1) ==
(W, N, E, S)``. A placement is a tile and the quarter turns it gets; a grid is
rows of placements. Everything else (files, search, photos) speaks this.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple, Sequence


from .rules import Code, Match

SIDES = "NESW"
MAX_SIDE = 16


def turn(edges: Sequence, quarters: int) -> tuple:
    """Edges of a tile turned ``quarters`` times 90 degrees clockwise.

    >>> turn((1, -4, -3, 2), 1)
    (2, 1, -4, -3)
    """
    # under a clockwise turn the code on side k comes from side k - 1
    edges, q = tuple(edges), quarters % 4
    return edges[-q:] + edges[:-q] if q else edges


class Placement(NamedTuple):
    """Tile ``tile`` (0-based index in the puzzle) turned ``quarters`` clockwise."""

    tile: int
    quarters: int

    @property
    def rotation(self) -> int:
        """The turn in clockwise degrees, as SPEC.md reports it."""
        return 90 * self.quarters


Grid = tuple  # tuple of rows, each a tuple of Placement


class Fixed(NamedTuple):
    """A hint piece: tile (0-based) at (row, col) (0-based) turned ``quarters``."""

    tile: int
    row: int
    col: int
    quarters: int


@dataclass(frozen=True)
class Puzzle:
    """An edge-matching puzzle.

    ``tiles`` hold codes in ``N, E, S, W`` order, or corner colours
    ``NW, NE, SE, SW`` when ``corners`` is true (touching corners must be
    equal; `seam_edges` turns those into edge codes).

    >>> p = Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)
    >>> p.size
    4
    """

    tiles: tuple
    rows: int
    cols: int
    match: Match = Match()
    border: Code | None = None
    fixed: tuple = ()
    corners: bool = False
    name: str = ""

    def __post_init__(self) -> None:
        problems = validate(self)
        if problems:
            raise ValueError(problems[0])

    @property
    def size(self) -> int:
        return self.rows * self.cols

    def seam_edges(self) -> list[tuple]:
        """Each tile's four edge codes, the thing that meets across a seam.

        For corner puzzles an edge is the pair of corner colours along it,
        clockwise, so a fitting edge is the same pair reversed.
        """
        if not self.corners:
            return [tuple(t) for t in self.tiles]
        return [tuple((t[k], t[(k + 1) % 4]) for k in range(4)) for t in self.tiles]

    def partner(self, edge: object) -> object:
        """The edge code that fits ``edge`` across a seam (None: nothing fits)."""
        if self.corners:
            return (edge[1], edge[0])
        return self.match.partner(edge)

    def fits(self, a: object, b: object) -> bool:
        """True when edge codes ``a`` and ``b`` may face each other across a seam."""
        return self.partner(a) == b


def shape_problem(rows: int, cols: int) -> str | None:
    """Why no puzzle has a ``rows`` x ``cols`` grid, or None.

    >>> shape_problem(0, 3)
    'grid 0x3 is outside 2x2 to 16x16'
    """
    if not (2 <= rows <= MAX_SIDE and 2 <= cols <= MAX_SIDE):
        return f"grid {rows}x{cols} is outside 2x2 to {MAX_SIDE}x{MAX_SIDE}"
    return None


def validate(puzzle: Puzzle) -> list[str]:
    """Problems that make ``puzzle`` unsolvable as stated, worst first."""
    rows, cols, n = puzzle.rows, puzzle.cols, len(puzzle.tiles)
    if shape := shape_problem(rows, cols):
        return [shape]
    if n != rows * cols:
        return [f"{n} tiles do not fill a {rows}x{cols} grid ({rows * cols} needed)"]
    for i, tile in enumerate(puzzle.tiles, 1):
        if len(tile) != 4:
            return [f"tile {i} has {len(tile)} edges, not 4"]
    if puzzle.corners and puzzle.border is not None:
        return ["'border' does not apply to a corner-colour puzzle"]
    problems = _unmatched(puzzle)
    taken: dict = {}
    for f in puzzle.fixed:
        if not (0 <= f.tile < n):
            problems.append(f"fixed tile {f.tile + 1} is not one of tiles 1..{n}")
        elif not (0 <= f.row < rows and 0 <= f.col < cols):
            problems.append(f"fixed cell row {f.row + 1}, col {f.col + 1} is outside the {rows}x{cols} grid")
        elif (f.row, f.col) in taken:
            problems.append(f"row {f.row + 1}, col {f.col + 1} is fixed twice")
        elif f.tile in taken.values():
            problems.append(f"tile {f.tile + 1} is fixed twice")
        taken[(f.row, f.col)] = f.tile
    return problems


def _unmatched(puzzle: Puzzle) -> list[str]:
    if puzzle.corners:
        return []
    codes = {c for t in puzzle.tiles for c in t}
    problems = []
    for code in sorted(codes, key=str):
        if code == puzzle.border:
            continue
        partner = puzzle.match.partner(code)
        if partner is None:
            problems.append(f"code {code!r} has no partner under match {puzzle.match.describe()!r}")
        elif partner not in codes:
            problems.append(f"code {code!r} has no partner: {partner!r} is on no tile")
    return problems
