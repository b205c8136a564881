"""Backtracking search: fill cells in reading order from candidate tables.

The representation does the work. Edge codes become small integers with a
``partner`` table; identical tiles (equal up to a turn) become one *kind* with
a count, so swapping them is never tried twice; and every kind's distinct
turns are filed in a table keyed by the two codes a cell must show on its
north and west sides, which the tiles above and to the left already fix.
The search is then a few lines: look up the cell's key, try what is there.

Whole-grid turns are folded by fixing the turn of one tile that is unique and
looks different in every turn (as the MIP in the seeds fixes one block);
when no tile qualifies the solutions are deduplicated by their canonical turn.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .puzzle import Placement, Puzzle, turn


@dataclass
class Result:
    """What a search found.

    ``count`` is the number of distinct solutions found (whole-grid turns and
    swaps of identical tiles folded); ``complete`` says the search ran to the
    end, so ``count`` is exact; ``interrupted`` that Ctrl-C stopped it.
    """

    solutions: list = field(default_factory=list)
    count: int = 0
    complete: bool = False
    nodes: int = 0
    seconds: float = 0.0
    identical: list = field(default_factory=list)
    interrupted: bool = False


@dataclass(frozen=True)
class Kinds:
    """Tiles grouped into kinds of identical tiles.

    ``edges[k]`` is kind k's edges as its first tile shows them, ``count[k]``
    how many tiles share it, ``members[k]`` their indices, and
    ``offset[t]`` the quarter turns taking kind edges to tile t's edges.
    """

    edges: list
    count: list
    members: list
    kind_of: list
    offset: list


def kinds_of(tiles: list) -> Kinds:
    """Group tiles that are the same up to a turn.

    >>> kinds_of([(1, 2, 3, 4), (4, 1, 2, 3), (1, 1, 1, 1)]).members
    [[0, 1], [2]]
    """
    edges, members, kind_of, offset = [], [], [], []
    for t, tile in enumerate(tiles):
        for k, kind in enumerate(edges):
            quarters = next((q for q in range(4) if turn(kind, q) == tuple(tile)), None)
            if quarters is not None:
                members[k].append(t)
                kind_of.append(k)
                offset.append(quarters)
                break
        else:
            edges.append(tuple(tile))
            members.append([t])
            kind_of.append(len(edges) - 1)
            offset.append(0)
    return Kinds(edges, [len(m) for m in members], members, kind_of, offset)


def solve(puzzle: Puzzle, all: bool = False, timeout: float | None = None,
          limit: int | None = None, progress=None) -> Result:
    """Find one solution, or with ``all`` every distinct one.

    Grids bigger than 3x3 run on the compiled kernel (`solver.kernel`) when
    numba is installed, over all cores; smaller ones stay in pure Python,
    where they take well under a millisecond and no compiler is imported.

    Parameters
    ----------
    puzzle : Puzzle
    all : bool
        Enumerate every distinct solution instead of stopping at the first.
    timeout : float, optional
        Seconds of search after which it stops with what it has
        (``complete`` is then false).
    limit : int, optional
        Stop after this many distinct solutions.
    progress : callable, optional
        Called about once a second, after the first second, with
        ``(nodes, depth, solutions, seconds)``.

    Ctrl-C stops the search too: the result holds what was found, with
    ``complete`` false and ``interrupted`` true.

    Examples
    --------
    >>> from solver.puzzle import Puzzle
    >>> p = Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)
    >>> r = solve(p, all=True)
    >>> r.count, r.complete
    (1, True)
    """
    limit = limit if limit is not None else (None if all else 1)
    # one solution needs no folding, and pinning a turn would only hide the nearest one
    board = _Board(puzzle, fold=limit != 1)
    found = Found(board, limit)
    watch = _Watch(timeout, progress, found.grids)
    try:
        kernel = _kernel(board)
        if kernel is None:
            finished = board.search(found.keep, watch)
        else:
            finished = kernel.search(board, found.keep, watch, capacity=min(limit or 256, 256))
    except KeyboardInterrupt:
        return found.result(False, board.nodes, time.perf_counter() - watch.start, interrupted=True)
    return found.result(finished, board.nodes, time.perf_counter() - watch.start)


class Found:
    """The distinct solutions a search (or an outside engine) reports, up to ``limit``.

    ``keep`` takes a solution as (kind, quarters) per cell, drops it when it
    is a whole-grid turn of one kept before (only needed when no turn is
    pinned) and says when the limit is reached.
    """

    def __init__(self, board: "_Board", limit: int | None) -> None:
        self.board, self.limit = board, limit
        self.grids: list = []
        self.seen: set = set()

    def keep(self, choice: list) -> bool:
        board = self.board
        if board.dedupe:
            key = min(board.turned(board.picture(choice)))
            if key in self.seen:
                return False
            self.seen.add(key)
        self.grids.append(board.grid(choice))
        return self.limit is not None and len(self.grids) >= self.limit

    def result(self, finished: bool, nodes: int, seconds: float, interrupted: bool = False) -> Result:
        """The `Result`; ``finished`` says the search ran out of places to look."""
        grids, limit = self.grids, self.limit
        identical = [[m + 1 for m in members] for members in self.board.kinds.members if len(members) > 1]
        return Result(grids, len(grids), finished and (limit is None or len(grids) < limit),
                      nodes, seconds, identical, interrupted)


def _kernel(board: "_Board"):
    """The compiled kernel module when the grid is worth it and numba is there."""
    if board.rows * board.cols <= 9:
        return None
    try:
        from . import kernel
    except ImportError:
        return None
    return kernel


class _Watch:
    """The clock of a search: its deadline and its progress reports."""

    def __init__(self, timeout: float | None, progress, found: list) -> None:
        self.start = time.perf_counter()
        self.deadline = None if timeout is None else self.start + timeout
        self.progress, self.found = progress, found
        self.report_at = self.start + 1.0
        self.active = self.deadline is not None or progress is not None

    def check(self, nodes: int, depth: int) -> bool:
        """Report progress when due; True when time is up."""
        now = time.perf_counter()
        if self.progress is not None and now >= self.report_at:
            self.progress(nodes, depth, len(self.found), now - self.start)
            self.report_at = now + 1.0
        return self.deadline is not None and now > self.deadline


class _Board:
    """The integer form of a puzzle that the search runs on."""

    def __init__(self, puzzle: Puzzle, fold: bool = True) -> None:
        self.rows, self.cols = puzzle.rows, puzzle.cols
        edges = puzzle.seam_edges()
        self.kinds = kinds_of(edges)
        codes = sorted({e for tile in edges for e in tile}, key=repr)
        index = {c: i for i, c in enumerate(codes)}
        m = len(codes)
        self.any, self.none = m, m + 1
        # partner of a code with no partner is `none`, whose candidate lists are empty
        self.partner = [index.get(puzzle.partner(c), self.none) for c in codes] + [self.any, self.none]
        self.border = self.any if puzzle.border is None else index.get(puzzle.border, self.none)
        kind_edges = [tuple(index[e] for e in kind) for kind in self.kinds.edges]
        self.fixed = {f.row * self.cols + f.col: self._first_turn(
            kind_edges, self.kinds.kind_of[f.tile], f.quarters + self.kinds.offset[f.tile])
            for f in puzzle.fixed}
        # hint tiles are reported as the user fixed them, even where a symmetric
        # tile shows the same picture under another turn
        self.hints = {f.row * self.cols + f.col: Placement(f.tile, f.quarters % 4)
                      for f in puzzle.fixed}
        self.left = list(self.kinds.count)
        for kind, _ in self.fixed.values():
            self.left[kind] -= 1
        self.pinned = self._pinned_kind(puzzle) if fold else None
        self.dedupe = fold and not puzzle.fixed and self.pinned is None
        self.table = self._candidates(kind_edges, m + 2)
        self.kind_edges = kind_edges
        self.nodes = 0

    @staticmethod
    def _first_turn(kind_edges: list, kind: int, quarters: int) -> tuple:
        """(kind, q) with the smallest q that shows the same edges as ``quarters``."""
        edges = turn(kind_edges[kind], quarters)
        return kind, next(q for q in range(4) if turn(kind_edges[kind], q) == edges)

    def _pinned_kind(self, puzzle: Puzzle):
        """The kind whose turn is fixed to fold whole-grid turns, if any."""
        if puzzle.fixed:
            return None
        for k, kind in enumerate(self.kinds.edges):
            if self.kinds.count[k] == 1 and len({turn(kind, q) for q in range(4)}) == 4:
                return k
        return None

    def _allowed(self, kind: int, quarters: int) -> bool:
        if kind != self.pinned:
            return True
        return quarters == 0 if self.rows == self.cols else quarters < 2

    def _candidates(self, kind_edges: list, width: int) -> list:
        """table[north * width + west] lists (kind, quarters, N, E, S, W)."""
        table = [[] for _ in range(width * width)]
        for k, edges in enumerate(kind_edges):
            seen = set()
            for q in range(4):
                e = turn(edges, q)
                if e in seen or not self._allowed(k, q):
                    continue
                seen.add(e)
                for north in (e[0], self.any):
                    for west in (e[3], self.any):
                        table[north * width + west].append((k, q) + e)
        return table

    def search(self, keep, watch: _Watch) -> bool:
        """Run the backtracking; True when it ran to the end."""
        rows, cols, width = self.rows, self.cols, self.any + 2
        cells = rows * cols
        partner, table, left, border = self.partner, self.table, self.left, self.border
        east, south = [0] * cells, [0] * cells
        choice = [None] * cells
        fixed = [self.fixed.get(i) for i in range(cells)]
        last_col = [i % cols == cols - 1 for i in range(cells)]
        last_row = [i >= cells - cols for i in range(cells)]
        strict = border != self.any
        stop = False

        def place(i: int) -> bool:
            nonlocal stop
            if i == cells:
                stop = keep(choice)
                return stop
            north = partner[south[i - cols]] if i >= cols else border
            west = partner[east[i - 1]] if i % cols else border
            fix = fixed[i]
            for k, q, n, e, s, w in table[north * width + west]:
                if fix is None:
                    if not left[k]:
                        continue
                elif fix != (k, q):
                    continue
                if strict and ((last_col[i] and e != border) or (last_row[i] and s != border)):
                    continue
                self.nodes += 1
                if watch.active and not self.nodes & 1023 and watch.check(self.nodes, i + 1):
                    stop = True
                    raise _Timeout
                if fix is None:
                    left[k] -= 1
                east[i], south[i], choice[i] = e, s, (k, q)
                found = place(i + 1)
                if fix is None:
                    left[k] += 1
                if found:
                    return True
            return False

        try:
            place(0)
        except _Timeout:
            return False
        return not stop

    def picture(self, choice: list) -> tuple:
        """What a person sees: the edges in every cell."""
        return tuple(turn(self.kind_edges[k], q) for k, q in choice)

    def turned(self, picture: tuple):
        """The picture under each whole-grid turn that keeps the grid's shape."""
        rows, cols = self.rows, self.cols
        grid = np.empty((rows, cols), dtype=object)
        for i, edges in enumerate(picture):
            grid[divmod(i, cols)] = edges
        steps = 1 if rows == cols else 2
        for q in range(0, 4, steps):
            g = np.rot90(grid, -q)
            yield tuple(turn(e, q) for e in g.ravel())

    def grid(self, choice: list) -> tuple:
        """Placements of actual tiles: identical tiles are handed out in order."""
        hinted = {p.tile for p in self.hints.values()}
        pool = [[t for t in m if t not in hinted] for m in self.kinds.members]
        placements = []
        for i, (k, q) in enumerate(choice):
            if i in self.hints:
                placements.append(self.hints[i])
                continue
            tile = pool[k].pop(0)
            placements.append(Placement(tile, (q - self.kinds.offset[tile]) % 4))
        cols = self.cols
        return tuple(tuple(placements[r * cols:(r + 1) * cols]) for r in range(self.rows))


class _Timeout(Exception):
    pass
