"""Whether an answer's seams join in the photo: a check on zero-label answers.

With no library, a reading that fits is not yet an answer: random 3x3
puzzles fit loosely, and a grouping with a stray edge, or a pairing that
took the wrong halves for one figure, can fit anyway. Then the solver lays
tiles whose halves do not continue each other across the seams. So every
seam of the assembled answer is read again from the photo: how well the
two edges' colours continue across it (`vision.zerolabel.seam_continuation`),
against how well the other tiles' edges would continue into each of them.
A true seam's partner is among the best few (its half is printed a handful
of times); a made-up seam's is anywhere. An answer with several seams
whose partner is worse than most alternatives (`ASTRAY`, `REFUSE`) is
refused: a photo with no solution exits 1, where a made-up answer would
have exited 0. It is a check for answers made up plainly (5 of 21 wrong
answers on rendered photos, 1 right one of 271 refused): the makers'
catalogue shots' made-up answers mostly join at the cut edge as well as a
right answer's do (serengeti and the dolls' seams have none doubtful; the
balloons' three, all around one tile), so they pass it.

An answer the reader had to stretch for (a pairing less likely than its
grouping's likeliest, or an edge re-read) is held to more: a few broken
seams, whose colours differ all along and whose partner is not among the
likely (`APART`, `ASIDE`, `BREAK`), refuse it. A true seam's colours meet
somewhere along it, the figure's or the ground's; a made-up one on the
makers' shots (a rose against a kitten, a checked envelope against a
chevron: the balloons' three) differ everywhere. Right answers have such
seams too (a side found 2% off shows the table, witches' thin printed
lines read a pixel apart), but seldom when the reading was stretched,
and only then is the check made.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np

from solver import Puzzle, solve
from solver.repair import edge_facing

ASTRAY = 0.5  # a seam is doubtful when more than this share of the other tiles' edges continue better into each side
REFUSE = 5  # an answer with this many doubtful seams is refused: right answers on rendered photos had 3 at most
# (seeds 603-614, 76 of them), 4 (20-33, 93) and, but one with 5, 4 (615-630, 102); the wrong ones that fitted 0 to 7
# (5 of 21 had 5 or more). Lookalikes and witches seams, thin lines on plain ground, say little either way
APART = 0.85  # a seam is broken when its colours differ this badly (`vision.zerolabel.seam_continuation`, 0 to 1) ...
ASIDE = 0.3  # ... and more than this share of the other tiles' edges continue better into each side (`astray`)
BREAK = 3  # a stretched answer with this many broken seams is refused: the makers' shots' made-up ones had 3 (the
# balloons: one tile's three seams, each past both limits by 0.09 or more) to 7 (kittens, tiles cut at pixel edges);
# the 9 right answers stretched to fit on seeds 0-19 and 1201-1220 (pixel-edge tiles) 2 at most, 6 of them none


def seam_edges(grid: Sequence[Sequence[tuple[int, int]]]) -> list[tuple[int, int]]:
    """The two edges meeting across each inner seam of an arrangement, row by row.

    Edge ``4 * tile + side`` is side ``side`` (N E S W) of tile ``tile`` as
    photographed; a placed tile turned ``q`` quarters clockwise shows side
    ``k - q`` on its side ``k``. Each seam is (west or north edge, east or
    south edge).

    Parameters
    ----------
    grid : rows of (tile, quarters)
        An arrangement, as `solver.solve` gives it (tiles 0-based).

    Returns
    -------
    seams : list of (int, int)

    Examples
    --------
    >>> seam_edges([[(0, 0), (1, 1)]])  # tile 1 turned once: its W side shows its S edge
    [(1, 6)]
    """
    rows, cols = len(grid), len(grid[0])

    def edge(r: int, c: int, side: int) -> int:
        tile, quarters = grid[r][c]
        return edge_facing(int(tile), int(quarters), side)

    seams = []
    for r in range(rows):
        for c in range(cols):
            if c + 1 < cols:
                seams.append((edge(r, c, 1), edge(r, c + 1, 3)))
            if r + 1 < rows:
                seams.append((edge(r, c, 2), edge(r + 1, c, 0)))
    return seams


def astray(continuation: np.ndarray, seams: Sequence[tuple[int, int]]) -> np.ndarray:
    """How far from the best each seam's join is: the share of alternatives that continue better.

    For a seam between edges ``a`` and ``b``, the share of the other tiles'
    edges that would continue into ``a`` better than ``b`` does, and into
    ``b`` better than ``a`` does; the lesser of the two, so a seam is
    doubtful only when neither edge would take its partner among its
    likely ones.

    Parameters
    ----------
    continuation : (n, n) ndarray
        How badly each edge's seam continues into each other's
        (`vision.zerolabel.seam_continuation`), edges 4 to a tile.
    seams : sequence of (int, int)
        `seam_edges` of an answer.

    Returns
    -------
    share : (len(seams),) ndarray, 0 (the best join there is) to 1

    Examples
    --------
    >>> c = np.full((8, 8), 0.5); c[0, 4] = c[4, 0] = 0.1; c[1, 5] = c[5, 1] = 0.9
    >>> astray(c, [(0, 4), (1, 5)]).tolist()
    [0.0, 0.75]
    """
    tile = np.arange(len(continuation)) // 4
    share = []
    for a, b in seams:
        gap = continuation[a, b]
        into_a = (continuation[a, tile != tile[a]] < gap).mean()
        into_b = (continuation[tile != tile[b], b] < gap).mean()
        share.append(min(into_a, into_b))
    return np.array(share)


def doubtful(grid: Sequence[Sequence[tuple[int, int]]], continuation: np.ndarray, share: float = ASTRAY,
             apart: float = 0.0) -> list[tuple[int, int]]:
    """The seams of an answer whose two halves do not continue each other.

    A seam is doubtful when more than ``share`` of the other tiles' edges
    continue better into each of its sides (`astray`), and its colours
    differ by more than ``apart`` (`vision.zerolabel.seam_continuation`);
    broken, by `joins`' measure, past `ASIDE` and `APART`.

    Examples
    --------
    >>> c = np.full((8, 8), 0.5); c[1, 7] = c[7, 1] = 0.9
    >>> doubtful([[(0, 0), (1, 0)]], c), doubtful([[(0, 0), (1, 0)]], c, ASIDE, apart=0.95)
    ([(1, 7)], [])
    """
    seams = seam_edges(grid)
    return [seam for seam, astray_share in zip(seams, astray(continuation, seams))
            if astray_share > share and continuation[seam] > apart]


def joins(grid: Sequence[Sequence[tuple[int, int]]], continuation: np.ndarray, stretched: bool = False,
          joining: np.ndarray | None = None, refuse: int = REFUSE) -> bool:
    """Whether an answer's seams join in the photo: fewer than ``refuse`` (`REFUSE`) doubtful seams, and when
    ``stretched``, fewer than `BREAK` broken ones (`doubtful` past `ASIDE` and `APART`).

    Parameters
    ----------
    grid : rows of (tile, quarters)
        The answer, as `solver.solve` gives it.
    continuation : (n, n) ndarray
        `vision.zerolabel.seam_continuation` of the photo's edges.
    stretched : bool
        Whether the reading was stretched to fit: a pairing less likely
        than its grouping's likeliest, or an edge re-read.
    joining : (n, n) ndarray, optional
        The same, each edge's seam read where the two join best
        (`vision.zerolabel.joining_gaps`): when given, a seam is counted
        doubtful only when it is so both as read and there. Sides found
        a row or two apart put one edge of a true seam on a thin printed
        border and its partner past it (lookalikes); read with slack
        alone, vintage's wide plain frame let other edges join as well as
        a true partner, and right answers were refused. Broken seams are
        counted as read: with that slack a stretched answer made up from
        a near tie passed.
    refuse : int
        Doubtful seams that refuse the answer: fewer than `REFUSE` for a
        reading in doubt about its groups (`vision.zerolabel.refusal`).

    Examples
    --------
    >>> c = np.full((36, 36), 0.5)
    >>> grid = [[(3 * r + c, 0) for c in range(3)] for r in range(3)]
    >>> joins(grid, c)
    True
    >>> for a, b in seam_edges(grid)[:5]:
    ...     c[a, b] = c[b, a] = 0.9
    >>> joins(grid, c)
    False
    """
    seams = set(doubtful(grid, continuation))
    if joining is not None:  # doubtful as read and still where the two join best
        seams &= set(doubtful(grid, joining))
    if len(seams) >= refuse:
        return False
    return not stretched or len(doubtful(grid, continuation, ASIDE, APART)) < BREAK


def answer_joins(tiles: Sequence[Sequence[int]], rows: int, cols: int, continuation: np.ndarray,
                 timeout: float | None = None, stretched: bool = False, joining: np.ndarray | None = None,
                 refuse: int = REFUSE) -> bool:
    """Whether the answer `solver.solve` gives for a reading joins in the photo (`joins`).

    It is the arrangement `edgematch solve` would show; a reading with
    none joins vacuously (it does not fit, and is judged as such).

    Parameters
    ----------
    tiles : sequence of (N, E, S, W) codes
        The reading's codes, tile by tile.
    rows, cols : int
        The puzzle's grid.
    continuation : (n, n) ndarray
        `vision.zerolabel.seam_continuation` of the photo's edges.
    timeout : float, optional
        Seconds the solver may take.
    stretched : bool
        Whether the reading was stretched to fit (`joins`).
    joining : (n, n) ndarray, optional
        ``continuation`` with each seam read where it joins best (`joins`).
    refuse : int
        Doubtful seams that refuse the answer (`joins`).

    Examples
    --------
    >>> tiles = [(1, -1, 1, -1)] * 9
    >>> answer_joins(tiles, 3, 3, np.full((36, 36), 0.5))
    True
    """
    found = solve(Puzzle(tiles=tuple(map(tuple, tiles)), rows=rows, cols=cols), timeout=timeout).solutions
    return not found or joins(found[0], continuation, stretched, joining, refuse)
