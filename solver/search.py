"""Backtracking search: fill cells from candidate tables keyed by two sides.

The representation does the work. Edge codes become small integers with a
``partner`` table; identical tiles (equal up to a turn) become one *kind* with
a count, so swapping them is never tried twice; and every kind's distinct
turns are filed in tables keyed by the codes on two neighbouring sides. The
search is then a few lines: take the next cell, read the two codes its placed
neighbours (or the border) fix, try what the table holds there.

Whole-grid turns are folded by fixing the turn of one tile that is unique and
looks different in every turn (as the MIP in the seeds fixes one block); the
pure search lays that tile first, in each cell in turn, and grows outwards
from it, always to the cell with the most sides fixed. When no tile qualifies
the solutions are deduplicated by their canonical turn. Grids above 3x3 run
the row-scan kernel in `solver.kernel` over the `(north, west)` table.
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
    seen: dict = {}  # every turn of every kind so far -> (kind, quarters)
    for t, tile in enumerate(tiles):
        tile = tuple(tile)
        if tile not in seen:
            edges.append(tile)
            members.append([])
            for q in range(4):
                seen.setdefault(turn(tile, q), (len(edges) - 1, q))
        kind, quarters = seen[tile]
        members[kind].append(t)
        kind_of.append(kind)
        offset.append(quarters)
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
    # setting up (the compiler's import, the fill orders) is not search time
    kernel = _kernel(board)
    starts = board.starts() if kernel is None else None
    watch = _Watch(timeout, progress, found.grids)
    try:
        if kernel is None:
            finished = board.search(starts, found.keep, watch)
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
        # an engine on several workers may report more before it hears to stop
        if self.limit is not None and len(self.grids) >= self.limit:
            return True
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
        self.around = self._around(self.rows, self.cols)
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

    def search(self, starts: list, keep, watch: _Watch) -> bool:
        """Run the backtracking from `starts`; True when it ran to the end.

        Cells are filled outwards from a start, each next cell the one with
        the most sides already fixed (by placed neighbours or the border), so
        after the first few every cell is looked up by two codes. When a
        tile's turn is pinned that tile is laid first, in each cell in turn:
        a few starts of one turn each instead of every tile in every turn.
        """
        cells, width = self.rows * self.cols, self.any + 2
        partner, left, active = self.partner, self.left, watch.active
        shown = [None] * cells  # the (kind, quarters, N, E, S, W) laid in each cell
        fixed = [self.fixed.get(i) for i in range(cells)]
        nodes, stop = 0, False

        def place(steps: list, i: int) -> bool:
            nonlocal nodes, stop
            if i == len(steps):
                stop = keep([entry[:2] for entry in shown])
                return stop
            cell, table, xc, xj, yc, yj, extra = steps[i]
            x = partner[shown[xc][xj]] if xc >= 0 else xj
            y = partner[shown[yc][yj]] if yc >= 0 else yj
            fix = fixed[cell]
            for entry in table[x * width + y]:
                k = entry[0]
                if fix is None:
                    if not left[k]:
                        continue
                elif fix != entry[:2]:
                    continue
                if extra and any(entry[j] != (partner[shown[c][cj]] if c >= 0 else cj)
                                 for j, c, cj in extra):
                    continue
                nodes += 1
                if active and not nodes & 1023 and watch.check(nodes, i + 1):
                    stop = True
                    raise _Timeout
                if fix is None:
                    left[k] -= 1
                shown[cell] = entry
                found = place(steps, i + 1)
                if fix is None:
                    left[k] += 1
                if found:
                    return True
            return False

        def begin(laid: list | None, steps: list) -> bool:
            nonlocal nodes
            if laid is None:
                return place(steps, 0)
            for cell, entry in laid:
                nodes += 1
                shown[cell] = entry
                if place(steps, 0):
                    return True
            return False

        if self.pinned is not None:
            left[self.pinned] -= 1
        try:
            for laid, steps in starts:
                if begin(laid, steps):
                    break
        except _Timeout:
            return False
        finally:
            self.nodes = nodes
            if self.pinned is not None:
                left[self.pinned] += 1
        return not stop

    def starts(self) -> list:
        """The ways a search begins: ``(laid, steps)``, tiles laid first and the fill after.

        ``laid`` lists ``(cell, entry)`` alternatives for the pinned tile in
        one start cell (starts where it fits nowhere are left out); with no
        pinned tile there is one start, at a hint or the centre, and ``laid``
        is None.
        """
        tables = self._side_tables()
        if self.pinned is None:
            return [(None, self._steps(tables, self._plan(self._first_cell())))]
        starts = []
        for cell in range(self.rows * self.cols):
            head, *steps = self._steps(tables, self._plan(cell))
            laid = [(cell, entry) for entry in self._pinned_entries(head)]
            if laid:
                starts.append((laid, steps))
        return starts

    def _steps(self, tables: list, plan: list) -> list:
        """A plan in the form the search reads fastest.

        ``(cell, table, xc, xj, yc, yj, extra)``: the code looked up first is
        the partner of ``shown[xc][xj]``, or ``xj`` itself when ``xc`` is -1
        (the border, or any code); likewise ``y``; ``extra`` holds
        ``(index, cell, index)`` checks of further fixed sides.
        """
        def source(found) -> tuple:
            if found is None:
                return -1, self.any
            cell, which = found
            return (cell, 2 + which) if cell >= 0 else (-1, which)

        steps = []
        for cell, pair, first, second, extra in plan:
            steps.append((cell, tables[pair]) + source(first) + source(second)
                         + (tuple((2 + side,) + source(found) for side, found in extra),))
        return steps

    def _first_cell(self) -> int:
        """Where a search with no pinned tile starts: a hint, else the centre."""
        if self.fixed:
            return min(self.fixed)
        return (self.rows // 2) * self.cols + self.cols // 2

    def _pinned_entries(self, head: tuple) -> list:
        """The pinned kind's allowed turns that fit the start cell's step.

        Nothing is placed before the start cell, so its step holds only
        constant codes (the border, or any).
        """
        _, table, _, x, _, y, extra = head
        return [e for e in table[x * (self.any + 2) + y]
                if e[0] == self.pinned and all(e[j] == code for j, _, code in extra)]

    def _plan(self, start: int) -> list:
        """The fill order from ``start`` and, per cell, where its fixed sides come from.

        A step is ``(cell, pair, first, second, extra)``: look the cell up in
        ``tables[pair]`` by the codes on sides ``pair`` and ``pair + 1``
        (``first``, ``second``), then check the ``extra`` sides. A source is
        ``(cell, side)`` of a placed neighbour, whose partner code is needed,
        or ``(-1, code)`` for the border. Hints come first after ``start``,
        then always the cell with the most fixed sides.
        """
        cells, strict, around = self.rows * self.cols, self.border != self.any, self.around
        fixed_count = [sum(n < 0 for _, n in sides) if strict else 0 for sides in around]
        placed = [False] * cells
        steps = []
        cell = start
        for _ in range(cells):
            fixed_sides = {}
            for side, n in around[cell]:
                if n < 0:
                    if strict:
                        fixed_sides[side] = (-1, self.border)
                elif placed[n]:
                    fixed_sides[side] = (n, (side + 2) % 4)
            pair = next((a for a in range(4) if a in fixed_sides and (a + 1) % 4 in fixed_sides),
                        next(iter(fixed_sides), 0))
            first, second = fixed_sides.pop(pair, None), fixed_sides.pop((pair + 1) % 4, None)
            steps.append((cell, pair, first, second, tuple(fixed_sides.items())))
            placed[cell] = True
            for _, n in around[cell]:
                if n >= 0:
                    fixed_count[n] += 1
            cell = self._next_cell(placed, fixed_count)
        return steps

    def _next_cell(self, placed: list, fixed_count: list) -> int:
        """The next cell to fill: a hint first, else the one with most sides fixed.

        Ties go to the cell that leaves the most neighbours with a side
        fixed already, so that the cell after it is fixed on two sides.
        """
        for c in self.fixed:
            if not placed[c]:
                return c
        best, most = -1, None
        for c, count in enumerate(fixed_count):
            if not placed[c]:
                primed = sum(n >= 0 and not placed[n] and fixed_count[n] > 0 for _, n in self.around[c])
                if most is None or (count, primed) > most:
                    best, most = c, (count, primed)
        return best

    @staticmethod
    def _around(rows: int, cols: int) -> list:
        """Per cell, ``(side, neighbour)`` for its four sides; -1 is off the grid."""
        return [[(side, (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1)
                 for side, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1)))]
                for r, c in (divmod(i, cols) for i in range(rows * cols))]

    def _side_tables(self) -> list:
        """tables[a][x * width + y] lists the entries showing x on side a and y on side a + 1.

        ``self.any`` in place of a code matches every code; an entry is
        ``(kind, quarters, N, E, S, W)``.
        """
        width = self.any + 2
        entries = self.table[self.any * width + self.any]
        tables = []
        for a in range(4):
            table = [[] for _ in range(width * width)]
            for entry in entries:
                for x in (entry[2 + a], self.any):
                    for y in (entry[2 + (a + 1) % 4], self.any):
                        table[x * width + y].append(entry)
            tables.append(table)
        return tables

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
