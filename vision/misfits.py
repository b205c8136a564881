"""Is this a puzzle? How far each tile found is from the shape the others give it.

Square cards lying on one table look, under perspective, like quadrilaterals
whose shape changes smoothly across the photo. A tile found right agrees with
the view of the table the others give it; one that lost a strip to the table
or grew onto its shadow does not. `problem` says in one line what keeps a set
of tiles from being a puzzle: the count, tiles lying across each other, far
from the others' size, far from square, or out of the others' view.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

import cv2
import numpy as np

from .blocks import side_lengths
from .seek import form_in_view, mean_sides, overlaps, table_view

MISFIT = 0.14         # most a tile may be stretched from the shape the others give it (`shape_misfits`)
ON_LINE = 0.1         # tiles whose centres lie this close to one line, in sides, tell no change across it


def problem(tiles: list[np.ndarray], count: int | None = None) -> str | None:
    """What keeps the tiles found from being a puzzle, in one line, or None.

    Checks the count (``count`` when given, else any square grid of at
    least 3x3; another count is taken for a 3x3 that lost or gained tiles,
    and four tiles for a 3x3 block cut in quarters, far likelier in a photo
    than a 2x2 puzzle, which a library that knows its size lets through)
    and then tiles lying across each other, far from the others' size or far
    from square. `detect` and `solve` both report a photo with this line
    (exit 3).

    Parameters
    ----------
    tiles : list of (4, 2) arrays
        Corners in reading order, as `find_tiles` gives them (ids = index + 1).
    count : int, optional
        How many tiles the puzzle has (rows x cols).

    Examples
    --------
    >>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> problem([square + 20 * i for i in range(8)])
    'found 8 tiles, expected 9'
    >>> problem([square, square + 5])
    'found 2 tiles, expected 9; tiles 1 and 2 overlap'
    >>> problem([square + 20 * i for i in range(9)]) is None
    True
    >>> problem([square + 20 * i for i in range(4)]), problem([square + 20 * i for i in range(4)], count=4)
    ('found 4 tiles, expected 9', None)
    """
    found = len(tiles)
    if count is None:  # any square grid; a count that is none is most likely a 3x3 short
        count = found if found >= 9 and round(found ** 0.5) ** 2 == found else max(9, round(found ** 0.5) ** 2)
    troubles = [] if found == count else [f"found {found or 'no'} tile{'' if found == 1 else 's'}, expected {count}"]
    shape = _misfit(tiles)
    return "; ".join(troubles + ([shape] if shape else [])) or None


def _misfit(tiles: list[np.ndarray]) -> str | None:
    """The first tile lying across another, far from the others' size, or far from square.

    Remembered for the last few tile sets, by their corners exactly as given
    (values, type and shape): `find_tiles` judges the tiles it returns, and
    `solve` and `detect` then ask again of the same corners (a 12 MP photo's
    nine tiles: 10-25 ms, most of it fitting the view nine times).
    """
    corners = [np.asarray(tile) for tile in tiles]
    return _judged(tuple((quad.dtype.str, quad.shape, quad.tobytes()) for quad in corners))


@lru_cache(maxsize=8)
def _judged(corners: tuple) -> str | None:
    """`_misfit` of the tiles whose corners are given as (type, shape, bytes) each."""
    tiles = [np.frombuffer(data, kind).reshape(shape) for kind, shape, data in corners]
    areas = np.float32([cv2.contourArea(np.float32(tile)) for tile in tiles])
    if (pair := lying_across(tiles)) is not None:
        return f"tiles {pair[0] + 1} and {pair[1] + 1} overlap"
    typical = float(np.median(areas)) if len(tiles) else 0.0
    for i, tile in enumerate(tiles):
        if not 0.4 < areas[i] / typical < 2.5:
            return f"tile {i + 1} is {areas[i] / typical:.1f} times the size of the others"
        if sides_ratio(tile) > 2.0:
            return f"tile {i + 1} is not square (sides 1:{sides_ratio(tile):.1f})"
    # Found right, tiles agree with the view of the table the others give each within about a tenth.
    misfits = view_misfits(tiles) if len(tiles) >= 4 else np.zeros(len(tiles))
    worst = int(np.argmax(misfits)) if len(tiles) else 0
    if len(tiles) and misfits[worst] > MISFIT:
        return f"tile {worst + 1} is not the shape of the others ({100 * misfits[worst]:.0f}% off)"
    return None


def lying_across(tiles: list[np.ndarray], share: float = 0.1) -> tuple[int, int] | None:
    """The first two of ``tiles`` (indices) that lie across each other: sharing more than ``share`` of
    the smaller's area (a tenth unless told); None.

    >>> card = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> lying_across([card, card + [20, 0], card + [25, 0]]), lying_across([card, card + [10, 0]])
    ((1, 2), None)
    >>> lying_across([card, card + [9.5, 0]]), lying_across([card, card + [9.5, 0]], share=0.04)
    (None, (0, 1))
    """
    areas = [cv2.contourArea(np.float32(tile)) for tile in tiles]
    for (i, first), (j, second) in combinations(enumerate(tiles), 2):
        shared, _ = cv2.intersectConvexConvex(np.float32(first), np.float32(second))
        if shared > share * min(areas[i], areas[j]):
            return i, j
    return None


def sides_ratio(quad: np.ndarray) -> float:
    """The longest side over the shortest."""
    sides = side_lengths(np.float32(quad))
    return float(sides.max() / sides.min())


def view_misfits(tiles: list[np.ndarray]) -> np.ndarray:
    """How far each tile is from the shape the others give it on the table they lie on (`misfit_among`).

    A size fitted linear across the photo (`shape_misfits`) bends where the
    view is steep: a big tile in the foreground, beyond the others, is
    called far off though found right (hard 1708 at its true corners: 16%
    off, 0.4% in the view), and one stretched over the table there passes
    (hard 1766: 8% off, 21% in the view). The view of the table fitted to
    the others (`form_at`) holds there, under any slant.

    >>> squares = [np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]) + 20 * i for i in range(6)]
    >>> squares[2][1:3, 0] += 4  # one side 1.4 times as long as it should be
    >>> np.round(view_misfits(squares), 2).tolist()
    [0.0, 0.0, 0.4, 0.0, 0.0, 0.0]
    """
    tiles = [np.float32(tile) for tile in tiles]
    return np.array([misfit_among(tiles[:i] + tiles[i + 1:], tile) for i, tile in enumerate(tiles)])


def misfit_among(tiles: list[np.ndarray], quad: np.ndarray) -> float:
    """How far ``quad`` is from the shape ``tiles`` give it (as `shape_misfits`); infinite on one of them.

    >>> squares = [np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]) + [20 * i, 0] for i in range(5)]
    >>> tall = np.float32([[0, 0], [10, 0], [10, 12], [0, 12]]) + [100, 0]
    >>> round(misfit_among(squares, tall), 2), misfit_among(squares, squares[0] + 2)
    (0.2, inf)
    """
    quad = np.float32(quad)
    if overlaps(quad, tiles, 0.1):
        return np.inf
    return stretch_from(tile_forms(quad[None])[0], form_at(tiles, quad.mean(axis=0)))


def form_at(tiles: list[np.ndarray], where: np.ndarray) -> np.ndarray:
    """The form (``J J^T`` of `shape_misfits`) ``tiles`` give a tile centred at ``where``: a
    square of theirs on the table they lie on (`vision.seek.table_view`), or, when no one view
    of a table fits them, as `shape_misfits` fits it across the photo.

    >>> squares = [np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]) + [20 * i, 0] for i in range(5)]
    >>> form_at(squares, (45, 5)).round(1).tolist()  # a 10 pixel square: J = 10 I
    [[100.0, 0.0], [0.0, 100.0]]
    """
    view = table_view(tiles)
    # A view that misses the tiles it is fitted to (a few tiles, one a little off, bend it) is
    # no better a guess than the linear fit.
    if view is not None and \
            stretches_from(tiles, [form_in_view(view, tile.mean(axis=0)) for tile in tiles]).max() <= MISFIT / 2:
        return form_in_view(view, where)
    dot = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) + np.float32(where)
    return expected_forms(list(tiles) + [dot], fitted=3)[-1]


def shape_misfits(tiles: list[np.ndarray], fitted: int = 6) -> np.ndarray:
    """How far each tile is from the square the others say it should be (0 = exactly).

    Square tiles lying on one table look, under perspective, like
    parallelograms that change smoothly across the photo, each turned its
    own way. ``J J^T``, with ``J`` the tile's two mean side vectors, does not
    change with the turn: it is fitted across the photo (`expected_forms`)
    and the tile's own is compared with it. Returns, per tile, the largest
    relative stretch either way, e.g. 0.25 for a tile a quarter longer or
    shorter one way than expected.

    >>> squares = [np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]) + 20 * i for i in range(6)]
    >>> squares[2][1:3, 0] += 4  # one side 1.4 times as long as it should be
    >>> np.round(shape_misfits(squares), 2).tolist()
    [0.0, 0.0, 0.4, 0.0, 0.0, 0.0]
    """
    return stretches_from(tiles, expected_forms(tiles, fitted))


def stretches_from(tiles: list[np.ndarray], expected: np.ndarray) -> np.ndarray:
    """Each tile's `stretch_from` from its expected form."""
    return np.array([stretch_from(form, e) for form, e in zip(tile_forms(np.float32(tiles)), expected)])


def tile_forms(quads: np.ndarray) -> np.ndarray:
    """``J J^T`` per quad (n, 2, 2): J's columns are the mean across and down sides."""
    jacobians = mean_sides(quads)
    return jacobians @ jacobians.transpose(0, 2, 1)


def expected_forms(tiles: list[np.ndarray], fitted: int = 6) -> np.ndarray:
    """Each tile's form as the others give it, leaving the tile itself out.

    Under perspective one over a tile's side changes linearly across the
    photo, and its shape (the form over the side squared) smoothly: both
    are fitted linear in the centre, or taken as the others' median when
    there are fewer than ``fitted`` or they lie on one line (`off_line_without`).

    >>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> tiles = [square + [40 * i, 0.2 * (i == 1)] for i in range(3)] + [square + [40, 60]]
    >>> tiles[1][2:, 1] += 1  # the middle of three tiles on a line a tenth taller
    >>> expected_forms(tiles, fitted=3)[-1].round().tolist()  # the fourth: their median, no fit across
    [[100.0, 0.0], [0.0, 100.0]]
    """
    quads = np.float32(tiles)
    forms = tile_forms(quads)
    sides = np.sqrt(np.sqrt(np.maximum(np.linalg.det(forms), 1e-12)))
    seen = np.c_[1 / sides, (forms / sides[:, None, None] ** 2).reshape(-1, 4)]
    centres = quads.mean(axis=1)
    where = np.c_[centres / np.abs(quads).max(), np.ones(len(quads))]
    # Enough tiles (each tile's others: all but itself), not on one line, tell how the view changes
    # across the photo. Through tiles on a line the change across it is set by a pixel or two (hard
    # 5297: three tiles 2 px off one line over 880 px gave the others 0 to 5,000 times a card's size).
    fitted_across = off_line_without(centres) / np.median(sides) > ON_LINE if len(quads) > fitted \
        else np.zeros(len(quads), bool)
    expected = []
    for i in range(len(quads)):
        others = np.arange(len(quads)) != i
        if fitted_across[i]:
            fit, *_ = np.linalg.lstsq(where[others], seen[others], rcond=None)
            inverse_side, *shape = where[i] @ fit
        else:
            inverse_side, *shape = np.median(seen[others], axis=0)
        expected.append(np.float32(shape) / max(inverse_side, 1e-6) ** 2)
    return np.float32(expected).reshape(-1, 2, 2)


def off_line_without(points: np.ndarray) -> np.ndarray:
    """For each of ``points`` (n, 2), how far the others lie off the line nearest them: the root
    mean square distance.

    >>> off_line_without(np.float32([[0, 0], [10, 1], [20, 0], [30, 30]])).round(2).tolist()
    [3.81, 6.53, 2.81, 0.47]
    """
    points = np.float64(points)
    others = max(len(points) - 1, 1)
    sums = points.sum(axis=0) - points
    outer = points[:, :, None] * points[:, None, :]
    spread = (outer.sum(axis=0) - outer) / others - sums[:, :, None] * sums[:, None, :] / others ** 2
    return np.sqrt(np.maximum(np.linalg.eigvalsh(spread)[:, 0], 0))


def stretch_from(form: np.ndarray, expected: np.ndarray) -> float:
    """The largest relative stretch either way of ``form`` from ``expected``."""
    values, vectors = np.linalg.eigh(expected)
    if values.min() <= 0:
        return np.inf
    whiten = vectors @ np.diag(values ** -0.5) @ vectors.T
    stretch = np.sqrt(np.maximum(np.linalg.eigvalsh(whiten @ form @ whiten), 1e-12))
    return float(np.expm1(np.abs(np.log(stretch)).max()))
