"""Solver-aided reading: the most likely arrangement, given uncertain edge readings.

A photo reader is never sure. For every edge it gives *ranked candidates*,
the codes it might be with a confidence for each::

    readings[tile][side] = [(code, confidence), ...]   # best first

``tile`` is 0-based in the order the tiles were found, ``side`` is 0..3 for
N, E, S, W in the tile's reading orientation (as `solver.Puzzle` tiles list
their edges) and confidences lie in (0, 1]; they need not sum to one, and a
code left out of an edge's list is one the reader rules out.

Reading an edge as one of its candidates costs ``-log(confidence)``: little
for a sure reading, more the less likely the code. Every inner edge meets
exactly one other across a seam, so an arrangement costs one term per
seam: ``-log`` of the chance its two edges show one figure's halves, the
product of their confidences for each figure that fits there, the likelier
way round, summed over the figures. The arrangement is what is sought, not
the codes: a seam where two doubtful edges fit as either of two figures is
likelier than its likeliest reading alone says. A doubt between one
figure's two halves counts once: where the halves look alike, both edges
of any seam share it, and it is no second way to fit. Outer edges cost
nothing (or, with a ``border``, the price of reading them as the border):
an edge on the rim need not match anything, so whatever it shows is no
evidence against the arrangement. So of two arrangements that both fit the top reading, the
one that puts the reader's doubtful edges on the rim is likelier; on
rendered photos with one edge defaced this picks the right one where the
first solution found often is not. `repair` finds the arrangement of least
cost by branch and bound, filling cells in reading order as `solver.search`
does, and says which edges it read differently from the reader's first
choice.

When no choice of candidates fits everywhere, the same search runs again on
the reader's first choices alone with a price of one per *mismatched* seam:
the best partial arrangement, the one with most seams matched.

>>> tiles = [(9, 1, 3, 9), (9, 9, 4, -1), (-3, 2, 9, 9), (-4, 9, 9, -2)]
>>> readings = [[[(code, 1.0)] for code in tile] for tile in tiles]
>>> readings[0][1] = [(5, 0.6), (1, 0.4)]          # a smudge: 1 misread as 5
>>> fix = repair(readings, 2, 2)
>>> fix.fits, fix.reinterpreted
(True, [Reinterpreted(tile=0, side=1, read=5, now=1)])
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from itertools import compress
from operator import not_
from typing import NamedTuple, Sequence

from .puzzle import Placement
from .rules import Code, Match

Candidates = Sequence[tuple]  # [(code, confidence), ...], best first
Readings = Sequence[Sequence[Candidates]]  # readings[tile][side]


class Reinterpreted(NamedTuple):
    """An edge the repair reads differently: tile (0-based), side (0..3 = N, E, S, W)."""

    tile: int
    side: int
    read: Code
    now: Code


class Seam(NamedTuple):
    """The seam on side ``side`` (0..3 = N, E, S, W) of cell (``row``, ``col``), 0-based.

    Seams between cells are named from the cell west or north of them (side
    1 or 2); a side on the grid's rim names an outer edge that is not the border.
    """

    row: int
    col: int
    side: int

    @property
    def other(self) -> tuple:
        """The (row, col) of the cell across the seam."""
        return (self.row, self.col + 1) if self.side == 1 else (self.row + 1, self.col)


@dataclass
class Repair:
    """The likeliest arrangement and the readings it rests on.

    ``grid`` is rows of `Placement` (tiles 0-based, quarters clockwise);
    ``tiles`` each tile's edges as the arrangement reads them (N, E, S, W);
    ``reinterpreted`` the edges read other than the reader's first choice;
    ``mismatched`` the seams that do not fit (empty when ``fits``);
    ``cost`` the summed ``-log`` of the inner seams' chances (and of the outer edges' borders);
    ``complete`` that the search ran to the end, so nothing likelier exists.
    """

    grid: tuple
    tiles: list
    reinterpreted: list = field(default_factory=list)
    mismatched: list = field(default_factory=list)
    cost: float = 0.0
    complete: bool = False
    nodes: int = 0
    seconds: float = 0.0

    @property
    def fits(self) -> bool:
        return not self.mismatched


def top_tiles(readings: Readings) -> list:
    """Each tile's edges as the reader's first choices.

    >>> top_tiles([[[(1, .9), (2, .1)], [(3, 1.)], [(4, 1.)], [(5, 1.)]]])
    [(1, 3, 4, 5)]
    """
    return [tuple(side[0][0] for side in tile) for tile in readings]


def repair(readings: Readings, rows: int, cols: int, match: Match = Match(),
           border: Code | None = None, timeout: float | None = None,
           floor: float = 0.1) -> Repair:
    """The likeliest arrangement that fits, else the one with most seams matched.

    Parameters
    ----------
    readings : readings[tile][side] = [(code, confidence), ...]
        Ranked candidates per edge, best first (see the module docstring).
    rows, cols : int
        The grid; ``rows * cols`` tiles.
    match : Match
        Which codes fit across a seam.
    border : code, optional
        The code every outer edge must show.
    timeout : float, optional
        Seconds each of the two searches (fit, then best partial) may take
        before it returns the best it has (``complete`` is then false).
    floor : float
        Candidates less likely than ``floor`` times the edge's top reading are
        not considered: they would make everything fit everything.

    Examples
    --------
    >>> tiles = [(9, 1, 3, 9), (9, 9, 4, -1), (-3, 2, 9, 9), (-4, 9, 9, -2)]
    >>> readings = [[[(code, 1.0)] for code in tile] for tile in tiles]
    >>> readings[0][1] = [(5, 1.0)]                    # nothing fits a 5
    >>> best = repair(readings, 2, 2)
    >>> best.fits, best.mismatched, best.complete
    (False, [Seam(row=0, col=0, side=1)], True)
    """
    if len(readings) != rows * cols:
        raise ValueError(f"{len(readings)} tiles do not fill a {rows}x{cols} grid")
    if any(len(tile) != 4 or not all(tile) for tile in readings):
        raise ValueError("every tile needs four edges, each with at least one candidate")
    plausible = [[[(code, p) for code, p in side if p >= floor * side[0][1]] for side in tile]
                 for tile in readings]
    start = time.perf_counter()
    fit = _Search(plausible, rows, cols, match, border, math.inf)
    choice, complete, nodes = fit.run(timeout)
    if choice is None:  # nothing fits: count mismatched seams of the first choices, sure or not
        top = [[[(side[0][0], 1.0)] for side in tile] for tile in readings]
        fit = _Search(top, rows, cols, match, border, 1.0)
        choice, finished, more = fit.run(timeout)
        complete, nodes = complete and finished, nodes + more
        if choice is None:  # out of time before even one arrangement: the tiles as they lie
            choice = [(t, 0) for t in range(rows * cols)]
    result = fit.result(choice)
    result.complete, result.nodes = complete, nodes
    result.seconds = time.perf_counter() - start
    return result


def edge_facing(tile: int, quarters: int, side: int) -> int:
    """The edge (``tile * 4 + its own side``) that faces ``side`` once the tile is turned.

    >>> edge_facing(2, 1, 0)   # turned a quarter clockwise, tile 2's west edge faces north
    11
    """
    return tile * 4 + (side - quarters) % 4


class _Search:
    """Branch and bound over cells in reading order, edges as ``tile * 4 + side``."""

    def __init__(self, readings: Readings, rows: int, cols: int, match: Match,
                 border: Code | None, mismatch: float) -> None:
        self.readings, self.rows, self.cols, self.match = readings, rows, cols, match
        self.n = rows * cols
        self.price = [{code: -math.log(p) for code, p in reversed(side) if p > 0}
                      for tile in readings for side in tile]
        # Across each pair of edges: the likeliest code pair, and the chance the two show one
        # figure's halves, summed over the figures that fit (the arrangement is sought, not the
        # codes), each the likelier way round (a doubt between a figure's two halves is one
        # both edges of a seam share where its halves look alike, not two ways to fit).
        self.pair, likeliest, figures = {}, {}, {}
        for a, prices in enumerate(self.price):
            for code, cost in prices.items():
                mate = match.partner(code)
                figure = frozenset((code, mate))
                for b, other in enumerate(self.price):
                    if a // 4 != b // 4 and mate in other:
                        p = math.exp(-cost - other[mate])
                        figures[a, b, figure] = max(p, figures.get((a, b, figure), 0.0))
                        if p > likeliest.get((a, b), 0.0):
                            likeliest[a, b], self.pair[a, b] = p, code
        chance = [[0.0] * (4 * self.n) for _ in range(4 * self.n)]
        for (a, b, _), p in figures.items():
            chance[a][b] += p
        self.seam = [[-math.log(p) if p > 0 else math.inf for p in row] for row in chance]
        self.border = border
        self.outer = [0.0 if border is None else prices.get(border, math.inf) for prices in self.price]
        self.mismatch = mismatch  # the price of a seam that does not fit
        for row in self.seam:
            row[:] = [min(c, self.mismatch) for c in row]
        self.outer = [min(c, self.mismatch) for c in self.outer]
        # cheapest way each edge can meet some edge of another tile, for the bound: each
        # other tile's cheapest edge, as (cost, tile), cheapest first
        self.mates = [_cheapest_per_tile(sorted((row[b], b) for b in range(4 * self.n) if b // 4 != a // 4))
                      for a, row in enumerate(self.seam)]
        # with cells 0..cell-1 filled, the (cell, side) of each edge still open: the south
        # sides of those with a cell below still empty, then the last one's east side
        self.open = [[(j, 2) for j in range(max(0, cell - cols), min(cell, self.n - cols))]
                     + ([(cell - 1, 1)] if cell % cols and cell < self.n else []) for cell in range(self.n + 1)]
        # in a grid of two rows and columns or more every tile meets others on
        # at least two touching sides (a corner), in one row or column on one
        # side (an end); its half of those seams costs at least this much anywhere
        cheapest = [mates[0][0] for mates in self.mates]
        corner = 0 if self.n == 1 else 1 if min(rows, cols) == 1 else 2
        self.least = [min(sum(cheapest[t * 4 + (k + j) % 4] for j in range(corner)) for k in range(4)) / 2
                      for t in range(self.n)]

    def facing(self, cell: int, k: int, placed: list) -> list:
        """Per edge, its cost facing side k (3 = west, 0 = north) of ``cell``: a row of ``seam``, or ``outer`` on the rim.

        ``placed`` holds, per cell filled, the edges its tile turns N, E, S and W.
        """
        r, c = divmod(cell, self.cols)
        if k == 3:
            return self.outer if c == 0 else self.seam[placed[cell - 1][1]]
        return self.outer if r == 0 else self.seam[placed[cell - self.cols][2]]

    def closing(self, cell: int) -> list:
        """Per (tile, quarters), the outer edges on the east and south it settles at ``cell``."""
        if self.border is None:
            return [0.0] * (4 * self.n)
        r, c = divmod(cell, self.cols)
        return [(self.outer[edge_facing(t, q, 1)] if c == self.cols - 1 else 0.0)
                + (self.outer[edge_facing(t, q, 2)] if r == self.rows - 1 else 0.0)
                for t in range(self.n) for q in range(4)]

    def bound(self, cell: int, placed: list, used: list) -> float:
        """A lower bound on what the seams not yet between two placed tiles will cost."""
        tiles = sum(compress(self.least, map(not_, used)))
        total = 0.0
        for j, side in self.open[cell]:
            for cost, tile in self.mates[placed[j][side]]:
                if not used[tile]:
                    total += cost
                    break
        return max(total, tiles)

    def run(self, timeout: float | None) -> tuple:
        """(cheapest choice of (tile, quarters) per cell or None, ran to the end, nodes)."""
        n, rows, cols = self.n, self.rows, self.cols
        # fold whole-grid turns: each has tile 0 in a different turn
        first_turns = range(1) if rows == cols else range(2)
        choice: list = [None] * n
        used = [False] * n
        best: dict = {"cost": math.inf, "choice": None}
        nodes = 0
        deadline = None if timeout is None else time.perf_counter() + timeout

        # the edges (tile * 4 + side) a tile turned q quarters shows N, E, S and W, at t * 4 + q
        turned = [tuple(edge_facing(t, q, k) for k in range(4)) for t in range(n) for q in range(4)]
        placed: list = [None] * n  # per cell filled, its tile's edges as turned there
        # (tile, quarters, its edge facing north, facing west) for every turn tried
        turns = [(t, q, turned[t * 4 + q][0], turned[t * 4 + q][3]) for t in range(n)
                 for q in (first_turns if t == 0 else range(4))]
        closing = [self.closing(cell) for cell in range(n)]

        def place(cell: int, cost: float) -> None:
            nonlocal nodes
            if cell == n:
                best["cost"], best["choice"] = cost, list(choice)
                return
            north, west, settles = self.facing(cell, 0, placed), self.facing(cell, 3, placed), closing[cell]
            options, limit = [], best["cost"]
            for t, q, up, left in turns:
                if not used[t]:
                    step = north[up] + west[left] + settles[t * 4 + q]
                    if cost + step < limit:
                        options.append((step, t, q))
            options.sort()
            for step, t, q in options:
                nodes += 1
                if deadline is not None and not nodes & 255 and time.perf_counter() > deadline:
                    raise _Timeout
                choice[cell], placed[cell], used[t] = (t, q), turned[t * 4 + q], True
                if cost + step + self.bound(cell + 1, placed, used) < best["cost"]:
                    place(cell + 1, cost + step)
                choice[cell], placed[cell], used[t] = None, None, False

        try:
            place(0, 0.0)
        except _Timeout:
            return best["choice"], False, nodes
        return best["choice"], True, nodes

    def result(self, choice: list) -> Repair:
        """Read every edge as the arrangement needs and list what differs."""
        cols = self.cols
        now = [[side[0][0] for side in tile] for tile in self.readings]
        mismatched, cost = [], 0.0

        def settle(cell: int, side: int, edge: int, other: int) -> None:
            nonlocal cost
            r, c = divmod(cell, cols)
            if self.seam[edge][other] >= self.mismatch:
                mismatched.append(Seam(r, c, side))
                return
            cost += self.seam[edge][other]
            code = self.pair[edge, other]
            now[edge // 4][edge % 4] = code
            now[other // 4][other % 4] = self.match.partner(code)

        for cell, (t, q) in enumerate(choice):
            r, c = divmod(cell, cols)
            if c + 1 < cols:
                u, p = choice[cell + 1]
                settle(cell, 1, edge_facing(t, q, 1), edge_facing(u, p, 3))
            if r + 1 < self.rows:
                u, p = choice[cell + cols]
                settle(cell, 2, edge_facing(t, q, 2), edge_facing(u, p, 0))
        if self.border is not None:
            for cell, (t, q) in enumerate(choice):
                r, c = divmod(cell, cols)
                for k, outer in ((0, r == 0), (1, c == cols - 1), (2, r == self.rows - 1), (3, c == 0)):
                    edge = edge_facing(t, q, k)
                    if not outer:
                        continue
                    if self.outer[edge] >= self.mismatch:
                        mismatched.append(Seam(r, c, k))
                    else:
                        now[t][edge % 4] = self.border
                        cost += self.outer[edge]
        reinterpreted = [Reinterpreted(t, s, tile[s][0][0], now[t][s])
                         for t, tile in enumerate(self.readings) for s in range(4)
                         if now[t][s] != tile[s][0][0]]
        grid = tuple(tuple(Placement(*choice[r * cols + c]) for c in range(cols))
                     for r in range(self.rows))
        return Repair(grid, [tuple(edges) for edges in now], reinterpreted, mismatched, cost)


def _cheapest_per_tile(mates: list) -> list:
    """Of (cost, edge) pairs, cheapest first, each tile's first as (cost, tile).

    >>> _cheapest_per_tile([(0.1, 5), (0.2, 4), (0.3, 9)])
    [(0.1, 1), (0.3, 2)]
    """
    firsts: dict = {}
    for cost, edge in mates:
        firsts.setdefault(edge // 4, cost)
    return [(cost, tile) for tile, cost in firsts.items()]


class _Timeout(Exception):
    pass
