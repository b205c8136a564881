"""Backtracking search: fill cells from candidate tables keyed by their placed neighbours.

The representation does the work. Edge codes become small integers with a
``partner`` table; identical tiles (equal up to a turn) become one *kind* with
a count, so swapping them is never tried twice; every kind's distinct turns
are filed in tables keyed by the codes its placed neighbours ask for; and the
tiles taken of every kind are counted in one int, so "is one left?" is one
test. The search is then a few lines: look a cell up by what its laid
neighbours ask, lay each tile still left, go on. A cell looked up by one
side is laid together with the cells that close seams onto it, from a table
of the ways they fit each other (`_Board._levels`), and a whole fill order
is written out as nested loops (`solver.loops`).

Whole-grid turns are folded by fixing the turn of one tile that is unique and
looks different in every turn (as the MIP in the seeds fixes one block); the
pure search lays that tile first, in each cell in turn, and grows outwards
from it, always to the cell with the most sides fixed. When no tile qualifies
the solutions are deduplicated by their canonical turn. Grids above 3x3 run
the compiled kernel in `solver.kernel` over the `(north, west)` table.
"""
from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from .loops import written
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
    # setting up (the compiler's import, the fill orders compiled) is not search time
    kernel = _kernel(board)
    search = board.compile() if kernel is None else None
    watch = _Watch(timeout, progress, found.choices)
    try:
        if kernel is None:
            finished = search(found.keep, watch)
        else:
            finished = kernel.search(board, found.keep, watch, capacity=min(limit or 256, 256))
    except KeyboardInterrupt:
        return found.result(False, board.nodes, time.perf_counter() - watch.start, interrupted=True)
    return found.result(finished, board.nodes, time.perf_counter() - watch.start)


class Found:
    """The distinct solutions a search (or an outside engine) reports, up to ``limit``.

    ``keep`` takes a solution as (kind, quarters) per cell, drops it when it
    is a whole-grid turn of one kept before (only needed when no turn is
    pinned) and says when the limit is reached. It keeps the choice as it
    came: handing out actual tiles is the result's work, not the search's.
    """

    def __init__(self, board: "_Board", limit: int | None) -> None:
        self.board, self.limit = board, limit
        self.choices: list = []
        self.seen: set = set()

    def keep(self, choice: list) -> bool:
        # an engine on several workers may report more before it hears to stop
        if self.limit is not None and len(self.choices) >= self.limit:
            return True
        board = self.board
        if board.dedupe:
            key = min(board.turned(board.picture(choice)))
            if key in self.seen:
                return False
            self.seen.add(key)
        self.choices.append(choice)
        return self.limit is not None and len(self.choices) >= self.limit

    def result(self, finished: bool, nodes: int, seconds: float, interrupted: bool = False) -> Result:
        """The `Result`; ``finished`` says the search ran out of places to look."""
        grids, limit = [self.board.grid(choice) for choice in self.choices], self.limit
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
        hinted = {f.tile for f in puzzle.fixed}
        # laid[k][i][q]: the i-th tile of kind k that is not a hint, placed to show turn q of k
        self.laid = [[[Placement(t, (q - self.kinds.offset[t]) % 4) for q in range(4)]
                      for t in members if t not in hinted] for members in self.kinds.members]
        self.kind_edges = kind_edges
        self.pinned = self._pinned_kind() if fold and not puzzle.fixed else None
        self.dedupe = fold and not puzzle.fixed and self.pinned is None
        self.table = self._candidates(kind_edges, m + 2)
        self.around = self._around(self.rows, self.cols)
        self.nodes = 0

    @staticmethod
    def _first_turn(kind_edges: list, kind: int, quarters: int) -> tuple:
        """(kind, q) with the smallest q that shows the same edges as ``quarters``."""
        edges = turn(kind_edges[kind], quarters)
        return kind, next(q for q in range(4) if turn(kind_edges[kind], q) == edges)

    def _pinned_kind(self):
        """The kind whose turn is fixed to fold whole-grid turns, if any.

        It must be a single tile that looks different in every turn; of those,
        the one with the fewest ways to meet neighbours on all four sides (the
        product of its edges' partners on the tiles), since it is laid first
        and its neighbours are looked up by its edges.
        """
        shows = Counter(e for edges, n in zip(self.kind_edges, self.kinds.count) for e in edges * n)
        return min((k for k, edges in enumerate(self.kind_edges)
                    if self.kinds.count[k] == 1 and len({turn(edges, q) for q in range(4)}) == 4),
                   key=lambda k: math.prod(shows[self.partner[e]] for e in self.kind_edges[k]), default=None)

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

    def compile(self):
        """The search as a function ``run(keep, watch) -> bool``, True when it ran to the end.

        Each way the search begins (`_starts`) is a list of levels written
        out as nested loops (`solver.loops`): a level looks its cells up by
        what the tiles beside them ask and lays each entry whose tiles are
        still left. Building the levels is setting up, like the fill
        orders; ``run`` is the search.
        """
        cells = self.rows * self.cols
        searches = [written(levels, cells, self.guards) for levels in self._starts()]

        def run(keep, watch: _Watch) -> bool:
            def tick(nodes: int, depth: int) -> int:
                if watch.check(nodes, depth):
                    raise _Timeout(nodes)
                return nodes + _TICK

            due = _TICK if watch.active else _NEVER
            self.nodes = 0
            try:
                for search in searches:
                    self.nodes, stop = search(self.taken, self.nodes, due, keep, tick)
                    if stop:
                        return False
            except _Timeout as stopped:
                self.nodes = stopped.args[0]
                return False
            return True
        return run

    def _starts(self) -> list:
        """The ways a search begins, each a list of levels ``(cells, table, sources)``.

        With a pinned tile, one way per cell it fits, laid there first (out
        of the counts, so it takes nothing) and left out of every other
        table; else one way, from a hint or the centre.
        """
        width = self.any + 2
        offset, self.taken, self.guards = self._count_fields()
        scales = [width ** r for r in range(4)]
        # a turned tile: (need, (kind, quarters), N, E, S, W, asks...); need is one tile
        # of its kind in the packed counts, asks[4 * r + s] the code a neighbour across
        # side s must show, times width**r for that neighbour's r-th keyed side
        turned = [(1 << offset[k], (k, q), *e, *(self.partner[c] * s for s in scales for c in e))
                  for k, q, *e in self.table[self.any * width + self.any]]
        tables: dict = {}
        if self.pinned is None:
            return [self._levels(self._order(self._first_cell()), turned, turned, tables)]
        pinned = [(0,) + tile[1:] for tile in turned if tile[1][0] == self.pinned]
        others = [tile for tile in turned if tile[1][0] != self.pinned]
        starts = [self._levels(self._order(cell), pinned, others, tables) for cell in range(self.rows * self.cols)]
        return [levels for levels in starts if levels[0][1][0]]

    def _count_fields(self) -> tuple:
        """The tiles taken of every kind packed in one int: ``(offset, taken, guards)``.

        Kind k's field, at bit ``offset[k]``, counts up from ``2**(w - 1) - 1
        - left`` in ``w`` bits, so that taking one tile more than are left
        sets its top bit: ``taken & guards`` tests every kind at once. A
        level may take several at once, never more than are left (checked
        as its table is built), which cannot carry past the top bit.
        """
        offset, taken, guards, at = [], 0, 0, 0
        for k, left in enumerate(self.left):
            left -= k == self.pinned  # laid by hand at the start
            w = left.bit_length() + 1
            offset.append(at)
            taken |= ((1 << (w - 1)) - 1 - left) << at
            guards |= 1 << (at + w - 1)
            at += w
        return offset, taken, guards

    def _levels(self, order: list, first: list, turned: list, tables: dict) -> list:
        """A fill order cut into levels ``(cells, table, sources)`` (see `solver.loops`).

        The first cell is laid alone, from ``first``. After it, a cell
        looked up by one side only is laid together with the cells after it
        that close a seam onto it and are looked up by two sides or more,
        up to three cells: the few ways that fit each other are filed once,
        where laying them one by one would try every tile that fits the
        first cell and find most leave the next one nothing. A group whose
        table would grow past ``_GROUPED`` entries is not made. ``tables``
        caches levels by their shape.
        """
        placed, shapes = set(), []
        for cell in order:
            shapes.append((cell, tuple((side, n) for side, n in self.around[cell] if n in placed)))
            placed.add(cell)
        levels = [self._level(shapes[:1], first, {})]
        i = 1
        while i < len(shapes):
            size = 1
            while len(shapes[i][1]) == 1 and size < 3 and i + size < len(shapes) \
                    and self._closes(shapes[i + size], shapes[i:i + size]):
                size += 1
            level = None
            while level is None:  # a single cell always has its level
                level = self._level(shapes[i:i + size], turned, tables)
                size -= 1
            levels.append(level)
            i += len(level[0])
        return levels

    @staticmethod
    def _closes(shape: tuple, group: list) -> bool:
        """Whether a cell ``(cell, keyed)`` is looked up by two sides or more, one facing ``group``."""
        _, keyed = shape
        return len(keyed) > 1 and any(n == c for _, n in keyed for c, _ in group)

    def _level(self, group: list, turned: list, tables: dict):
        """The level laying ``group``'s cells, each ``(cell, keyed)``; None if too big.

        Its table is keyed by the sum over its outer keyed sides (at most
        four, the r-th scaled by ``width**r``) of the code a tile shows
        there; its sources say which laid tile's ask makes up each term.
        """
        cells = tuple(cell for cell, _ in group)
        outer = [(cell, side, n) for cell, keyed in group for side, n in keyed if n not in cells]
        if len(outer) > 4:
            return None
        sources = tuple((n, _ASK + 4 * r + (side + 2) % 4) for r, (_, side, n) in enumerate(outer))
        r0, c0 = divmod(cells[0], self.cols)
        shape = tuple((divmod(cell, self.cols)[0] - r0, cell % self.cols - c0,
                       tuple(side for c, side, _ in outer if c == cell), self._frame(cell), self.fixed.get(cell))
                      for cell in cells)
        if shape not in tables:
            tables[shape] = self._table(shape, turned)
        table = tables[shape]
        return None if table is None else (cells, table, sources)

    def _frame(self, cell: int) -> tuple:
        """The sides of ``cell`` that must show the border (none when any code may)."""
        if self.border == self.any:
            return ()
        return tuple(side for side, n in self.around[cell] if n < 0)

    def _table(self, shape: tuple, turned: list):
        """The table of a level's ``shape``: every way to lay its cells that fits inside it.

        A cell shows the border on its frame sides, a hint cell only the
        hint (taken out of the counts already, so ``need`` 0), and no way
        takes more of a kind than are left. None past ``_GROUPED`` entries.
        """
        width, border = self.any + 2, self.border
        fits = []
        for dr, dc, outer, frame, fix in shape:
            tiles = [tile for tile in turned if all(tile[2 + side] == border for side in frame)]
            if fix is not None:
                tiles = [(0,) + tile[1:] for tile in tiles if tile[1] == fix]
            fits.append(tiles)
        at = {(dr, dc): j for j, (dr, dc, *_) in enumerate(shape)}
        # per cell, its seams onto cells of the level laid before it: (side, earlier cell)
        inner = [[(side, at[dr + ddr, dc + ddc]) for side, (ddr, ddc) in enumerate(_STEPS)
                  if at.get((dr + ddr, dc + ddc), j) < j] for j, (dr, dc, *_) in enumerate(shape)]
        # per cell, its tiles filed by the code on its first such seam
        by_seam = [_filed(tiles, 2 + seams[0][0]) if seams else None for tiles, seams in zip(fits, inner)]
        # per cell, its outer sides' codes and their scales: the r-th outer side counts width**r
        ranks = iter(range(4))
        scaled = [[(2 + side, width ** next(ranks)) for side in outer] for _, _, outer, _, _ in shape]
        filed: dict = {}
        left, used, entries, last = self.left, [0] * len(self.left), 0, len(shape) - 1

        def lay(j: int, laid: tuple, key: int, need: int) -> bool:
            nonlocal entries
            if inner[j]:
                side, i = inner[j][0]
                tiles = by_seam[j].get(laid[i][_ASK + (side + 2) % 4], ())  # what the laid tile asks
            else:
                tiles = fits[j]
            more_seams, scales = inner[j][1:], scaled[j]
            for tile in tiles:
                kind = tile[1][0]
                if tile[0] and used[kind] == left[kind]:
                    continue
                if more_seams and any(tile[2 + side] != laid[i][_ASK + (side + 2) % 4] for side, i in more_seams):
                    continue
                here = key
                for at, scale in scales:
                    here += tile[at] * scale
                if j == last:
                    filed.setdefault(here, []).append((need + tile[0], *laid, tile))
                    entries += 1
                    if last and entries > _GROUPED:
                        return False
                    continue
                used[kind] += tile[0] > 0
                fitted = lay(j + 1, laid + (tile,), here, need + tile[0])
                used[kind] -= tile[0] > 0
                if not fitted:
                    return False
            return True

        if not lay(0, (), 0, 0):
            return None
        size = width ** sum(map(len, scaled))
        if size > _LISTED:
            return _Sparse(filed)
        table = [()] * size
        for key, ways in filed.items():
            table[key] = ways
        return table

    def _first_cell(self) -> int:
        """Where a search with no pinned tile starts: a hint, else the centre."""
        if self.fixed:
            return min(self.fixed)
        return (self.rows // 2) * self.cols + self.cols // 2

    def _order(self, start: int) -> list:
        """The fill order from ``start``: hints next, then always the cell with most sides fixed."""
        cells, strict, around = self.rows * self.cols, self.border != self.any, self.around
        fixed_count = [sum(n < 0 for _, n in sides) if strict else 0 for sides in around]
        placed = [False] * cells
        order = []
        cell = start
        for _ in range(cells):
            order.append(cell)
            placed[cell] = True
            for _, n in around[cell]:
                if n >= 0:
                    fixed_count[n] += 1
            cell = self._next_cell(placed, fixed_count)
        return order

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
            if not placed[c] and (most is None or count >= most[0]):
                primed = sum(n >= 0 and not placed[n] and fixed_count[n] > 0 for _, n in self.around[c])
                if most is None or (count, primed) > most:
                    best, most = c, (count, primed)
        return best

    @staticmethod
    def _around(rows: int, cols: int) -> list:
        """Per cell, ``(side, neighbour)`` for its four sides; -1 is off the grid."""
        return [[(side, (r + dr) * cols + c + dc if 0 <= r + dr < rows and 0 <= c + dc < cols else -1)
                 for side, (dr, dc) in enumerate(_STEPS)]
                for r, c in (divmod(i, cols) for i in range(rows * cols))]

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
        given = [0] * len(self.laid)
        placements = []
        for i, (k, q) in enumerate(choice):
            if i in self.hints:
                placements.append(self.hints[i])
            else:
                placements.append(self.laid[k][given[k]][q])
                given[k] += 1
        cols = self.cols
        return tuple(tuple(placements[r * cols:(r + 1) * cols]) for r in range(self.rows))


def _filed(tiles: list, at: int) -> dict:
    """``tiles`` filed by ``tile[at]``."""
    filed: dict = {}
    for tile in tiles:
        filed.setdefault(tile[at], []).append(tile)
    return filed


class _Sparse(dict):
    """A table too wide for a list: keys nothing fits read as an empty list."""

    def __missing__(self, key: int) -> tuple:
        return ()


_ASK = 6  # a turned tile: need, (kind, quarters), its four codes, then its asks
_STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # the cell beyond each side: N, E, S, W
_GROUPED = 4096  # most entries in the table of cells laid together
_LISTED = 1 << 16  # widest table kept as a list
_TICK = 1024  # nodes between looks at the clock
_NEVER = 1 << 62


class _Timeout(Exception):
    pass
