"""The tiles a library was taught: a photo of the same puzzle holds the same tiles.

`edgematch label` stores every edge with the photo, tile and side it came
from, so a library taught from a photo of all of a puzzle's tiles knows
each tile's four codes. A later photo of that puzzle shows the same tiles,
scrambled and turned: each tile is read as the taught tile and turn its
four edges fit best, every taught tile used once (an assignment). An edge
glare blew out is then told by the three beside it. Where the photo's
edges do not read as the taught tiles (another puzzle with the same
figures, a tile not taught), the reading is left as it was.
"""
from __future__ import annotations

from collections import defaultdict

import numpy as np

from solver import puzzle
from solver.repair import Reinterpreted

from .library import Library
from .read import FLOOR, Reading

AGREED = 0.85  # of a photo's edges: the least share whose top reading the taught tiles must give
CLEAR = 1e-6   # how much cheaper a photo tile's cheapest taught tile is than its next, to be taken at once


def taught_tiles(library: Library) -> list[list[tuple]]:
    """Each photo's complete tile set in ``library``: per photo, a list of (N, E, S, W) codes.

    A photo counts when it taught all four sides of as many tiles as the
    library's puzzle has; a side taught twice keeps the code given last.

    Examples
    --------
    >>> rows = [{"code": c, "photo": "a.jpg", "tile": t, "side": s}
    ...         for t, codes in ((1, (1, 2, -1, -2)), (2, (2, 1, -2, -1))) for s, c in zip("NESW", codes)]
    >>> taught_tiles(Library(None, "signed", [], [], rows, tiles=2))
    [[(1, 2, -1, -2), (2, 1, -2, -1)]]
    >>> taught_tiles(Library(None, "signed", [], [], rows[:-1], tiles=2))
    []
    """
    photos: dict = defaultdict(lambda: defaultdict(dict))
    for entry in library.entries:
        if {"photo", "tile", "side"} <= entry.keys():
            photos[entry["photo"]][entry["tile"]][entry["side"]] = entry["code"]
    return [[tuple(sides[s] for s in "NESW") for _, sides in sorted(tiles.items())]
            for tiles in photos.values()
            if len(tiles) == library.tiles and all(len(sides) == 4 for sides in tiles.values())]


def as_taught(reading: Reading, tiles: list[tuple]) -> tuple[list[tuple], float] | None:
    """The codes of the taught ``tiles`` a photo's tiles read as, each taught tile once.

    Parameters
    ----------
    reading : Reading
        `vision.read.read_edges` of the photo, as many tiles as ``tiles``.
    tiles : list of (N, E, S, W) codes
        One photo's taught tiles (`taught_tiles`).

    Returns
    -------
    (codes, agreed) or None
        Per photo tile the (N, E, S, W) codes of the taught tile it is,
        turned as it lies, and the share of edges whose top reading they
        keep; None when the tile counts differ or under `AGREED` of the
        edges agree (the photo is not of these tiles).

    Notes
    -----
    An edge's likelihoods count for the share of it glare left to see
    (``reading.seen``), the rest spread evenly over the taught codes: an
    edge blown out whole says nothing, where its reading alone, sure of a
    wrong figure's colour, would outvote a tile's sure edges (frogs 4453:
    an edge 11% seen gave its true code 0.00 and turned its tile).

    Examples
    --------
    >>> sure = lambda codes: [[(c, 0.9)] for c in codes]
    >>> reading = Reading(tiles=[(-2, 1, 2, -1), (1, 2, -1, -2)], confidence=[],
    ...                   candidates=[sure((-2, 1, 2, -1)), sure((1, 2, -1, -2))])
    >>> as_taught(reading, [(1, 2, -1, -2), (2, -1, -2, 1)])
    ([(-2, 1, 2, -1), (1, 2, -1, -2)], 1.0)
    >>> as_taught(reading, [(1, 1, 1, 1), (2, 2, 2, 2)]) is None
    True
    """
    if len(tiles) != len(reading.tiles) or _most_agreeing(reading, tiles) < AGREED:
        return None
    even = 1 / len({code for tile in tiles for code in tile})
    seen = reading.seen or [(1.0,) * 4] * len(tiles)
    cost = np.empty((len(tiles), len(tiles), 4))  # photo tile, taught tile, turn
    for i, (sides, shares) in enumerate(zip(reading.candidates, seen)):
        likely = [dict(candidates) for candidates in sides]  # a code not kept is less likely than FLOOR
        for j, taught in enumerate(tiles):
            for turn in range(4):
                cost[i, j, turn] = -sum(np.log(share * likely[s].get(taught[(s + turn) % 4], FLOOR)
                                               + (1 - share) * even)
                                        for s, share in enumerate(shares))
    rows, cols = _assigned(cost.min(axis=2))
    turns = cost[rows, cols].argmin(axis=1)
    codes = [tuple(tiles[j][(s + turn) % 4] for s in range(4)) for j, turn in zip(cols, turns)]
    agreed = float(np.mean([a == b for read, got in zip(reading.tiles, codes) for a, b in zip(read, got)]))
    return (codes, agreed) if agreed >= AGREED else None


def _assigned(cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The photo tiles (rows of ``cost``) and the taught tiles (columns) assigned them, each once,
    at the least total ``cost``, as `scipy.optimize.linear_sum_assignment` gives them.

    A photo of the taught puzzle, read cleanly, has each tile's cheapest
    taught tile cheaper than its next by `CLEAR` at least, and no two the
    same: no other assignment then costs as little (none goes under the sum
    of each row's least), and scipy, whose import
    costs a fresh process about half a second of CPU (a 12 MP solve's
    quarter), is not needed. (Every sample photo with its art's library.)

    Examples
    --------
    >>> [c.tolist() for c in _assigned(np.float64([[5, 1, 9], [1, 5, 9], [9, 9, 1]]))]  # each its cheapest
    [[0, 1, 2], [1, 0, 2]]
    >>> [c.tolist() for c in _assigned(np.float64([[1, 2, 9], [1, 9, 9], [9, 9, 1]]))]  # two want the first
    [[0, 1, 2], [1, 0, 2]]
    """
    cheapest = cost.argmin(axis=1)
    ranked = np.sort(cost, axis=1)
    clear = len(cost) < 2 or np.min(ranked[:, 1] - ranked[:, 0]) > CLEAR  # no tie scipy might break otherwise
    if clear and len(set(cheapest.tolist())) == len(cheapest):
        return np.arange(len(cost)), cheapest
    from scipy.optimize import linear_sum_assignment

    return linear_sum_assignment(cost)


def _most_agreeing(reading: Reading, tiles: list[tuple]) -> float:
    """The largest share of a photo's edges whose top reading any assignment to the taught
    ``tiles`` could keep: each photo tile as the taught tile and turn it agrees with most.

    `as_taught` keeps the share of one assignment, so it keeps no more:
    under `AGREED` here, the photo is not of these tiles, and the
    assignment need not be made (nor scipy loaded: `_assigned`). A photo
    of another puzzle with the same figures agrees 0.42-0.58 with its
    tiles (`as_taught`'s share).

    Examples
    --------
    >>> reading = Reading(tiles=[(-2, 1, 2, -1), (1, 2, -1, -2)], confidence=[], candidates=[])
    >>> _most_agreeing(reading, [(1, 2, -1, -2), (2, -1, -2, 1)])  # both tiles could be either, turned
    1.0
    >>> _most_agreeing(reading, [(1, 1, 1, 1), (2, 2, 2, 2)])
    0.25
    """
    best = sum(max(sum(a == b for a, b in zip(read, puzzle.turn(taught, quarters)))
                   for taught in tiles for quarters in range(4))
               for read in reading.tiles)
    return best / (4 * len(reading.tiles)) if reading.tiles else 0.0


def read_as_taught(reading: Reading, library: Library) -> tuple[Reading, list[Reinterpreted]]:
    """``reading`` with each tile's codes the taught tile's it reads as, and the edges that changed.

    Of the library's taught tile sets (`taught_tiles`) the one most edges
    agree with is taken (`as_taught`); with none, ``reading`` is returned
    as it is. Each edge then keeps one candidate, its taught code: the
    search places tiles, not readings. Its confidence is what the edge
    alone gave that code, so a blown edge still shows as doubtful.

    Examples
    --------
    >>> rows = [{"code": c, "photo": "a.jpg", "tile": t, "side": s}
    ...         for t, codes in ((1, (1, 2, -1, -2)), (2, (2, 1, -2, -1))) for s, c in zip("NESW", codes)]
    >>> library = Library(None, "signed", [], [], rows, tiles=2)
    >>> sure = [[(c, 0.9)] for c in (2, 1, -2, -1)]
    >>> blown = Reading(tiles=[(1, 2, -1, 2), (2, 1, -2, -1)], confidence=[],
    ...                 candidates=[[[(1, 0.9)], [(2, 0.9)], [(-1, 0.9)], [(2, 0.3), (-2, 0.2)]], sure])
    >>> taught, changed = read_as_taught(blown, library)
    >>> taught.tiles[0], taught.confidence[0]
    ((1, 2, -1, -2), (0.9, 0.9, 0.9, 0.2))
    >>> changed
    [Reinterpreted(tile=0, side=3, read=2, now=-2)]
    """
    fits = [fit for tiles in taught_tiles(library) if (fit := as_taught(reading, tiles)) is not None]
    if not fits:
        return reading, []
    codes, _ = max(fits, key=lambda fit: fit[1])
    alone = [[dict(candidates).get(code, 0.0) for candidates, code in zip(sides, tile)]
             for sides, tile in zip(reading.candidates, codes)]
    changed = [Reinterpreted(t, s, reading.tiles[t][s], code) for t, tile in enumerate(codes)
               for s, code in enumerate(tile) if code != reading.tiles[t][s]]
    return reading._replace(tiles=codes, confidence=[tuple(round(c, 4) for c in tile) for tile in alone],
                            candidates=[[[(code, max(c, FLOOR))] for code, c in zip(tile, sure)]
                                        for tile, sure in zip(codes, alone)]), changed
