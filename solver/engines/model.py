"""The seeds' placement model, shared by every outside engine.

As in the seeds' MIP and SAT formulations, ``x[cell, tile, turn]`` is true
when ``tile`` lies in ``cell`` turned ``turn`` quarters clockwise; each cell
holds one tile and each tile lies in one cell; touching sides fit.

Three things make one assignment per distinct solution, so that enumerating
assignments counts what the built-in search counts:

- a tile that looks the same under two turns gets a variable for the first
  of them only;
- identical tiles are laid in the order they are listed (tile a before tile
  b in reading order), so swapping them is not a new assignment;
- the tile whose turn the built-in search pins (`solver.search`) is pinned
  here too; when no tile can be pinned the solutions are folded afterwards.

Border and hint tiles remove variables instead of adding constraints.
"""
from __future__ import annotations

from ..puzzle import Puzzle, turn
from ..search import Found, _Board

N, E, S, W = range(4)


class Model:
    """Variables and the structure the formulations are written from.

    Attributes
    ----------
    x : list of (cell, tile, quarters)
        Variable ``i`` is ``x[i]``.
    at_cell, of_tile : list of lists of int
        The variables of each cell and of each tile.
    seams : list of (cell, side, cell, side)
        Touching sides: (a, E, a + 1, W) and (a, S, a + cols, N).
    before : list of (tile, tile)
        Identical tiles: the first lies in an earlier cell than the second.

    Examples
    --------
    >>> from solver.puzzle import Puzzle
    >>> m = Model(Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2))
    >>> len(m.x), len(m.seams), m.before
    (64, 4, [(0, 1), (1, 2), (2, 3)])
    """

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.board = board = _Board(puzzle)
        rows, cols = puzzle.rows, puzzle.cols
        self.cells = rows * cols
        self.sides = puzzle.seam_edges()
        hint = {f.row * cols + f.col: (f.tile, self.first_turn(f.tile, f.quarters)) for f in puzzle.fixed}
        hinted = {tile for tile, _ in hint.values()}
        self.x = []
        for cell in range(self.cells):
            for tile in range(puzzle.size):
                for q in self._turns(tile):
                    if cell in hint and hint[cell] != (tile, q) or cell not in hint and tile in hinted:
                        continue
                    if self._on_frame(cell, tile, q):
                        self.x.append((cell, tile, q))
        self.at_cell = [[] for _ in range(self.cells)]
        self.of_tile = [[] for _ in range(puzzle.size)]
        for i, (cell, tile, _) in enumerate(self.x):
            self.at_cell[cell].append(i)
            self.of_tile[tile].append(i)
        self.seams = [(a, E, a + 1, W) for a in range(self.cells) if a % cols < cols - 1]
        self.seams += [(a, S, a + cols, N) for a in range(self.cells - cols)]
        self.before = []
        for members in board.kinds.members:
            free = [t for t in members if t not in hinted]
            self.before += list(zip(free, free[1:]))

    def first_turn(self, tile: int, quarters: int) -> int:
        """The smallest turn showing the same edges as ``quarters``."""
        edges = turn(self.sides[tile], quarters)
        return next(q for q in range(4) if turn(self.sides[tile], q) == edges)

    def _turns(self, tile: int) -> list[int]:
        board, kinds = self.board, self.board.kinds
        turns = [q for q in range(4) if self.first_turn(tile, q) == q]
        kind = kinds.kind_of[tile]
        return [q for q in turns if board._allowed(kind, (q + kinds.offset[tile]) % 4)]

    def _on_frame(self, cell: int, tile: int, q: int) -> bool:
        """Whether the sides of ``tile`` turned ``q`` that face out show the border."""
        border = self.puzzle.border
        if border is None:
            return True
        rows, cols = self.puzzle.rows, self.puzzle.cols
        r, c = divmod(cell, cols)
        edges = self.shows(tile, q)
        out = [(r == 0, N), (c == cols - 1, E), (r == rows - 1, S), (c == 0, W)]
        return all(edges[side] == border for outer, side in out if outer)

    def shows(self, tile: int, q: int) -> tuple:
        """The edges of ``tile`` turned ``q``, N, E, S, W."""
        return turn(self.sides[tile], q)

    def codes(self) -> list:
        """Every edge code on the tiles, in a fixed order."""
        return sorted({e for edges in self.sides for e in edges}, key=repr)

    def keep(self, found: Found, on: list[int]) -> bool:
        """Hand the solution with variables ``on`` true to ``found``; True: stop."""
        kinds = self.board.kinds
        choice = [None] * self.cells
        for i in on:
            cell, tile, q = self.x[i]
            choice[cell] = (kinds.kind_of[tile], (q + kinds.offset[tile]) % 4)
        return found.keep(choice)
