"""Tiles the masks lost, sought by the shape the tiles found give them (`vision.detect`, last step).

Glare can wash a glossy card to the white of a cloth's checks or a desk:
no look's mask then holds its outline, only bits of its figures. A person
still sees the tile, by its size and its straight sides: every tile of a
puzzle is the same square on one table, and the tiles found say how the
table is seen (`table_view`), so how a square looks at each place in the
photo (`form_in_view`), even far from them. So, where bits of
card lie that no tile found accounts for, a square of that look is turned
and moved until its sides run along the most colour steps
(`_best_squares`; a cloth's checks may lead one astray, so the best of
other turns are tried next), and refined like any tile, fenced off its neighbours;
it is kept when it fits the others' shape closely (`_placed`) and two of
its sides at least run along a card's edge (`_card_sides`): glare on a table
(a lamp on wood, a cloth's lit checks) leaves bits too, but no square
there has two sides along steps that end at its corners. Nor is a tile
kept that stops short of its card, card past a side (`_short_of_card`: a
side along a check's edge, the other along a figure's line).
"""
from __future__ import annotations

from typing import Callable, Sequence

import cv2
import numpy as np

from .corners import clockwise, cut_edges, fence, nearest_quad, refine, sharpness, side_steps
from .images import across_channels

TURNS = np.arange(0, 90, 1.5)  # degrees: a square's turn is known up to a quarter
FRAME_SIDE = 56                # pixels a tile's side is sought at: enough to place it for `refine`
LEAST_BITS = 0.08              # least share of a tile the bits of card must cover to be sought from
FRUITLESS = 12                 # patches in a row, largest first, holding no card, past which the rest are grain (`seek_lost`)
IN_VAIN = 8                    # squares refined in vain in one search, past which what bits are left are grain (`seek_lost`)
GROUPED = 1 / 8                # how far apart bits of one patch may lie, in sides (`seek_lost`'s ``reach``)
EDGE = 0.25                    # least step along a card's side, to the usual along the sound tiles' (`_card_sides`)
PAST = (0.03, 0.2)             # where a side's line is looked at past its corners, in sides (`edge_steps`)
APART = 15                     # degrees between the turns of squares tried on one patch of bits (`_apart`)
SHIFT = 0.08                   # how far off and how much smaller or larger a sought square is refined from too (`_placed`)
FAR = 0.2                      # how far off it is refined from last, when nothing nearer found its card (`_placed`)
ALL_ROUND = 1.5                # how much further from the view a tile with a card's edge all round may be (`_placed`)
PAST_SIDE = (0.05, 0.2)        # the strip past a tile's side looked at for card, in sides (`_short_of_card`)
SPREAD = 0.25                  # how much more than a tile the hull of one card's bits may cover (`_cards_under`)
LAID_REACH = 0.03              # how far a block's cell is refined out to its card's edge, in sides (`laid_cards`)
GAP_REACH = 0.12               # how far a cell of loose cards run into a block is refined, in sides (`cells_apart`)
OVERLAP = 0.05                 # most of a lost card's area that may lie on a sound tile, its corners a little off (`overlaps`)
PLAIN = 3.0                   # most median |Laplacian| (grey levels) over bits that are lit table, not card (`_plain`)
UNIT = np.float32([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])  # a tile on the table, sides of 1, NW first


def seek_lost(image: np.ndarray, small: np.ndarray, scale: float, mask: np.ndarray, tiles: list[np.ndarray],
              expected: Callable, misfit: Callable, most: float, framed: bool = False,
              reach: float = GROUPED) -> list[np.ndarray]:
    """``tiles`` and those found where bits of card lie outside them.

    Parameters
    ----------
    image : (rows, cols, 3) uint8 ndarray
        The photo; ``small`` is its working copy, ``scale`` times as large.
    mask : (rows, cols) uint8 ndarray
        Card on ``small`` (255), as a look sees it: bits of the lost tiles' figures.
    tiles : list of (4, 2) float32 ndarrays
        The sound tiles, in ``image`` pixels.
    expected, misfit : callables
        ``expected(tiles, where)``: the form (J J^T, as in
        `vision.misfits.shape_misfits`) a tile centred at ``where`` should
        have; ``misfit(tiles, quad)``: how far ``quad`` is from it, infinite
        where it lies on a tile. A tile sought is kept up to ``most``.
    framed : bool
        Whether a tile sought is judged short of its card (`_short_of_card`)
        from its card's cut edges (`vision.corners.cut_edges`): placed on a
        worn frame's inner line, the wood-coloured frame past it is card.
    reach : float
        How far apart (in sides) bits may lie and be sought from as one patch.

    Examples
    --------
    >>> from vision.misfits import form_at, misfit_among
    >>> photo = np.full((200, 200, 3), 120, np.uint8)
    >>> cards = [np.float32([[x, y], [x + 40, y], [x + 40, y + 40], [x, y + 40]]) - 0.5
    ...          for y in (20, 80, 140) for x in (20, 80, 140)]
    >>> for card in cards:
    ...     _ = cv2.fillConvexPoly(photo, np.int32(card + 0.5), (230, 230, 230))
    ...     _ = cv2.circle(photo, tuple(np.int32(card[0] + 20.5)), 8, (40, 90, 200), -1)  # a figure
    >>> figure = cv2.circle(np.zeros((200, 200), np.uint8), (160, 160), 9, 255, -1)  # all the last card shows
    >>> tiles = seek_lost(photo, photo, 1.0, figure, cards[:8], form_at, misfit_among, 0.07)
    >>> len(tiles), np.round(tiles[-1]).tolist()
    (9, [[140.0, 140.0], [180.0, 140.0], [180.0, 180.0], [140.0, 180.0]])
    """
    return on_card(image, scale, mask, lost_laid(image, small, scale, mask, tiles, expected, misfit, most, reach),
                   len(tiles), framed)


def lost_laid(image: np.ndarray, small: np.ndarray, scale: float, mask: np.ndarray, tiles: list[np.ndarray],
              expected: Callable, misfit: Callable, most: float, reach: float = GROUPED) -> list[np.ndarray]:
    """``tiles`` and the squares laid on lost cards' edges where bits of card on ``mask`` lie outside them,
    each placed again among all: `seek_lost` before it drops those short of their card (`on_card`).

    The search does not depend on how those are judged, so a caller judging
    one search both ways makes it once (`vision.detect._sought`). Arguments
    as `seek_lost`'s.
    """
    sound, tiles, squares = len(tiles), list(tiles), []
    side = float(np.sqrt(np.median([cv2.contourArea(tile) for tile in tiles]))) * scale
    usual = sharpness(image, tiles)
    # A patch that held no card holds none tried again unchanged in a later
    # pass: it counts as fruitless untried. And past `IN_VAIN` squares
    # refined in vain the search ends: a wood's grain yields squares it
    # keeps, each clearing `FRUITLESS` and starting another pass (hard
    # vintage 1377: over 5 minutes). On 434 rendered photos a lost card's
    # square came within 5 refined in vain, and no patch tried again held one.
    barren, in_vain = set(), 0
    detail, plain_too = _detail(small), False
    added = 1
    # Bits of lost tiles side by side are sought again when one is found (a tile found covers bits: they run out).
    while added and in_vain < IN_VAIN:
        found = _filled(mask.shape, tiles, scale)
        patches, areas = _patches_left(mask, found, side, reach)
        found = cv2.dilate(found, np.ones((5, 5), np.uint8))  # their sides' steps too
        added, fruitless = 0, 0
        # The largest patches first; a second patch of a tile just added gives
        # a square on it, which ``misfit`` refuses. A wood's grain or a cloth's
        # weave leaves hundreds of patches, each square tried on them refined
        # 15 times: past `FRUITLESS` in a row that hold no card, the rest are
        # taken for more of it (lost cards' bits lay tiles within the first 6
        # patches tried on 100 hard photos; one on wood took 20 minutes).
        order = np.argsort(-areas[1:]) + 1
        order = order[areas[order] >= LEAST_BITS * side ** 2]
        # A cloth's white checks lit brighter than the border's are card to the
        # colour look: plain patches as large as a lost card's bits, whose
        # squares spent the search's `IN_VAIN` before the card's bits came
        # (hard vintage loose 2644 on red gingham: eight of nine, exit 3). Bits
        # that show print or a card's grain are sought first, while they yield
        # cards; plain ones only then (a card's plain face may be all a look kept).
        plain = {label for label in order if _plain(detail, patches == label)}
        for label in [label for label in order if plain_too or label not in plain]:
            if fruitless == FRUITLESS or in_vain >= IN_VAIN:
                break
            ys, xs = np.nonzero(patches == label)
            patch = ys.tobytes() + xs.tobytes()
            if patch in barren:
                fruitless += 1
                continue
            where = (np.float32([xs.mean(), ys.mean()]) + 0.5) / scale - 0.5
            form = expected(tiles, where) * scale ** 2
            # A view told by a few tiles, far from them, may give no tile's size (as `problem` allows).
            if not 0.4 < np.sqrt(max(np.linalg.det(form), 0)) / side ** 2 < 2.5:
                continue
            laid = len(tiles)
            for k, square in enumerate(_best_squares(small, patches == label, form, found)[:IN_VAIN - in_vain]):
                square = (square + 0.5) / scale - 0.5
                # Only the patch's strongest square is also refined from `FAR` off: the search gives up sooner.
                tile = _lost_card(image, scale, square, tiles, misfit, most, usual, far_too=k == 0, sound=sound)
                if tile is not None:
                    squares.append((square, list(tiles) if k == 0 else None))  # and what it was placed among
                    tiles.append(tile)
                    added += 1
                    break
                in_vain += 1
            if len(tiles) > laid:
                fruitless = 0
            else:
                barren.add(patch)
                fruitless += 1
        if not added and not plain_too and plain:
            plain_too, added = True, 1
    # Placed again among all: a lost neighbour found later fences its side of the gap. Not where it was
    # placed among the same tiles, from as far (`FAR`): placed so again, it lies where it lay.
    for i, (square, among) in enumerate(squares, sound):
        others = tiles[:i] + tiles[i + 1:]
        if among is None or not _same_quads(others, among):
            tiles[i] = _placed(image, scale, square, others, misfit, most, usual, tiles[i])
    return tiles


def _same_quads(quads: Sequence[np.ndarray], others: Sequence[np.ndarray]) -> bool:
    """Whether ``quads`` and ``others`` are the same corners in the same order.

    >>> square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    >>> _same_quads([square, square + 2], [square, square + 2]), _same_quads([square], [square + 2])
    (True, False)
    """
    return len(quads) == len(others) and all(np.array_equal(a, b) for a, b in zip(quads, others))


def on_card(image: np.ndarray, scale: float, mask: np.ndarray, tiles: list[np.ndarray], sound: int,
            framed: bool = False) -> list[np.ndarray]:
    """``tiles`` (the first ``sound`` sound, the rest laid by `lost_laid` on ``mask``, ``scale`` of ``image``)
    less those laid short of their card (`_short_of_card`, judged from their cut edges where ``framed``,
    as `seek_lost` says).

    >>> mask = np.zeros((100, 100), np.uint8); mask[20:80, 20:60] = 255  # a card
    >>> card = np.float32([[20, 20], [60, 20], [60, 60], [20, 60]]) - 0.5
    >>> whole, photo = np.float32([[20, 20], [60, 20], [60, 80], [20, 80]]) - 0.5, np.zeros((100, 100, 3), np.uint8)
    >>> [len(on_card(photo, 1.0, mask, [card + [40, 0], laid], 1)) for laid in (card, whole)]  # the first short
    [1, 2]
    """
    # A square placed short of its card (a side along a check's edge, another along a figure's) leaves card past it.
    fences = _fences(image, scale, tiles) if framed else None
    return tiles[:sound] + [tile for i, tile in enumerate(tiles[sound:], sound)
                            if not _short_of_card(mask, scale, cut_edges(image, tile, fences[i]) if framed else tile,
                                                  tiles[:i] + tiles[i + 1:])]


def _patches_left(mask: np.ndarray, found: np.ndarray, side: float, reach: float = GROUPED) \
        -> tuple[np.ndarray, np.ndarray]:
    """The bits of card on ``mask`` that no tile found (``found``, filled on the mask's scale) accounts
    for, grouped into patches (bits ``reach`` of a side apart), with each patch's area in pixels (label 0,
    none): tiles ``side`` wide."""
    near = cv2.dilate(found, np.ones((3, 3), np.uint8), iterations=max(1, round(side / 20)))
    bits = cv2.morphologyEx(mask & ~near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    # Bits a glared card's figures left lie apart, within a part of its side.
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(side * reach) + 1,) * 2)
    _, patches = cv2.connectedComponents(cv2.dilate(bits, disk))
    patches[bits == 0] = 0
    return patches, np.bincount(patches.ravel())


def _detail(small: np.ndarray) -> np.ndarray:
    """How much fine detail (print, a card's grain) each pixel of the working copy ``small`` shows:
    the magnitude of the Laplacian of its lightly smoothed grey."""
    grey = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    return np.abs(cv2.Laplacian(grey, cv2.CV_32F))


def _plain(detail: np.ndarray, bits: np.ndarray) -> bool:
    """Whether the pixels ``bits`` (bool, on `_detail`'s ``detail``) show no print: most of them
    under `PLAIN`.

    >>> detail = _detail(np.full((20, 20, 3), 230, np.uint8))
    >>> bits = np.zeros((20, 20), bool); bits[5:15, 5:15] = True
    >>> _plain(detail, bits), _plain(detail + 9, bits)
    (True, False)
    """
    return float(np.median(detail[bits])) < PLAIN


def cut_out(image: np.ndarray, scale: float, tiles: list[np.ndarray], ruled: bool = False,
            banded: bool = False, which: list[bool] | None = None) -> list[np.ndarray]:
    """``tiles`` each moved out to its card's cut edges (`cut_edges`, ``ruled`` and ``banded`` as there),
    not past the middle of a gap to another of them (`_fences`); only those ``which`` marks, when given,
    the others as they are."""
    which = [True] * len(tiles) if which is None else which
    return [cut_edges(image, tile, apart, ruled, banded) if moved else tile
            for tile, apart, moved in zip(tiles, _fences(image, scale, tiles), which)]


def cells_apart(image: np.ndarray, scale: float, cells: list[np.ndarray]) -> list[np.ndarray]:
    """Each of ``cells`` (a block's, photo pixels) refined alone as a tile, `GAP_REACH` of a side either
    way, not past the middle between it and the others (`_fences`, told at the working ``scale``).

    Loose cards a look ran into one block (a checked cloth's dark slivers
    in the gaps joining their frames) are cut into even cells across the
    gaps: each card lies inside its cell, a few hundredths of a side in,
    further than a seam's short refine reaches.

    >>> photo = np.zeros((60, 110, 3), np.uint8)
    >>> for x in (10, 60):
    ...     photo[10:50, x:x + 40] = 200                                 # two cards 10 px apart
    >>> cells = [np.float32([[5, 5], [55, 5], [55, 55], [5, 55]]) + [x, 0] for x in (0, 50)]
    >>> [np.round(cell[0]).tolist() for cell in cells_apart(photo, 1.0, cells)]  # NW corners
    [[10.0, 10.0], [60.0, 10.0]]
    """
    # Cells touch: shrunk, they part, and the fences run along the seams between them.
    shrunk = [(cell - cell.mean(axis=0)) * 0.9 + cell.mean(axis=0) for cell in cells]
    return [refine(image, cell, reach=GAP_REACH, fence=apart)
            for cell, apart in zip(cells, _fences(image, scale, shrunk))]


def _fences(image: np.ndarray, scale: float, quads: list[np.ndarray]) -> list[Callable]:
    """For each of ``quads`` (photo pixels), a `fence` marking the points nearer another of them: no edge
    is sought past the middle of a gap (``scale``: the working copy's, where the gaps are told)."""
    shape = np.int32(np.ceil(np.float32(image.shape[:2]) * scale))
    nearest = nearest_quad([(quad + 0.5) * scale - 0.5 for quad in quads], shape)
    centres = [np.clip(np.int32((quad.mean(axis=0) + 0.5) * scale - 0.5), 0, shape[::-1] - 1) for quad in quads]
    return [fence(nearest, scale, nearest[y, x]) for x, y in centres]


def _lost_card(image: np.ndarray, scale: float, square: np.ndarray, tiles: list[np.ndarray], misfit: Callable,
               most: float, usual: float, far_too: bool = True, sound: int | None = None) -> np.ndarray | None:
    """``square`` laid on a lost card's edges (`_placed`), kept when a card's edge runs along two of its
    sides at least (`_card_sides`) and it lies on none of the first ``sound`` of ``tiles`` (all unless
    told) past `OVERLAP` (`overlaps`); else None.

    Only on the sound tiles: two lost neighbours in a block, sought one
    after the other, may lie on each other more (hard vintage touching
    2931: 8.5%, the first 16% off), and are placed again among all once
    the search ends."""
    tile = _placed(image, scale, square, tiles, misfit, most, usual, far_too=far_too)
    if tile is None or overlaps(tile, tiles[:sound]):
        return None
    return tile if _card_sides(edge_steps(image, tile, tiles), usual) >= 2 else None


def overlaps(quad: np.ndarray, quads: Sequence[np.ndarray], share: float = OVERLAP) -> bool:
    """Whether more than ``share`` of ``quad``'s area lies on one of ``quads``.

    Cards lie apart; a square on bare wood between two found cards, along
    their shadows' steps, may reach over a corner of one (hard vintage
    3225: 9.9% of it): a lost card may lie on a tile found by its corners
    found a little off, `OVERLAP`, no more.

    >>> card = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> overlaps(card + [9, 0], [card]), overlaps(card + [10, 0], [card])
    (True, False)
    """
    quad = np.float32(quad)
    area = cv2.contourArea(quad)
    return any(cv2.intersectConvexConvex(quad, np.float32(other))[0] > share * area for other in quads)


def laid_cards(image: np.ndarray, scale: float, block: np.ndarray, squares: list[np.ndarray], misfit: Callable,
               most: float) -> list[np.ndarray]:
    """Each of ``squares`` (the cells of ``block``, in photo pixels) laid on its own card's edges (`_placed`).

    Cards laid edge to edge by hand each sit a little turned and off the
    even grid, so no straight seam runs all across the block: a look sees
    it whole, as one tile, or cut where art fakes straighter seams. Each
    cell is refined as a lost card is, fenced off the others and kept
    where it fits their shape (``misfit``, up to ``most``).
    """
    usual = sharpness(image, [block])  # the block's outline runs along card edges; its cells' seams may not show
    cards = list(squares)
    # Once each, in reading order: the cards placed before fence their side
    # of the seams (a second round won no photo and doubled the time). A
    # cell lies within a few hundredths of its card: one short reach, not
    # three (as many photos won, a third of the refining).
    for i, square in enumerate(squares):
        cards[i] = _placed(image, scale, square, cards[:i] + cards[i + 1:], misfit, most, usual, cards[i],
                           (LAID_REACH,), far_too=False)
    return cards


def laid_from_neighbours(image: np.ndarray, scale: float, block: np.ndarray, cards: list[np.ndarray], side: int,
                         misfit: Callable, most: float) -> list[np.ndarray] | None:
    """``cards`` (`laid_cards` of ``block``'s ``side`` x ``side`` cells, row by row) each laid again,
    in that order, from the neighbour above and the one to its left when it has a card's edge all
    round, moved a side of that card towards it; the cards, when every one then has a card's edge
    all round (`_card_sides`), else None.

    Cards laid by hand off the even grid, each its own way (a column a
    fifth of a side lower than the next, hard frogs 2815), leave cells a
    tenth of a side or more off their cards, beyond a short reach; a
    neighbour laid on its own card's edges is a better start: the next
    card lies a side of it further, along the seam they share. Where a
    cell laid on art's lines also has a card's edge all round (frogs
    meeting on a card fake its sides), the start along sharper steps
    wins (the three sharpest sides, as `_placed` ranks its starts).
    """
    usual = sharpness(image, [block])
    cards = [np.float32(card) for card in cards]
    centres = np.float32([card.mean(axis=0) for card in cards])

    def sharp(tile):
        return float(sum(sorted(side_steps(image, tile))[1:]))

    edged = [_edged_round(image, card, cards[:i] + cards[i + 1:], usual) for i, card in enumerate(cards)]
    for i in range(len(cards)):
        row, col = divmod(i, side)
        tried = [(edged[i], sharp(cards[i]) if edged[i] else 0.0, cards[i])]
        others = [card for k, card in enumerate(cards) if edged[k] and k != i]
        for j in (i - side, i - 1):  # the neighbours above and to the left, settled before it
            if j < 0 or not edged[j] or abs(j // side - row) + abs(j % side - col) != 1:
                continue
            # The neighbour's side vector nearest the way to this cell: its own turn, not the block's.
            ways = mean_sides(cards[j][None])[0].T
            ways = np.concatenate([ways, -ways])
            way = ways[int(np.argmin(np.linalg.norm(ways - (centres[i] - centres[j]), axis=1)))]
            start = cards[j] + way
            tile = _placed(image, scale, start, others, misfit, most, usual, None, (2 * LAID_REACH,), far_too=False)
            if tile is not None and _edged_round(image, tile, cards[:i] + cards[i + 1:], usual):
                tried.append((True, sharp(tile), tile))
        edged[i], _, cards[i] = max(tried, key=lambda found: found[:2])
    return cards if all(edged) else None


def _filled(shape: tuple, tiles: Sequence[np.ndarray], scale: float) -> np.ndarray:
    """A mask of ``shape`` (a look's, ``scale`` times the photo's size) with ``tiles`` (photo pixels) filled in.

    >>> int(_filled((10, 10), [np.float32([[2, 2], [6, 2], [6, 6], [2, 6]])], 0.5).sum() // 255)  # pixels 1 to 3 square
    9
    """
    mask = np.zeros(shape, np.uint8)
    for tile in tiles:
        cv2.fillConvexPoly(mask, np.int32(np.round((np.float32(tile) + 0.5) * scale - 0.5)), 255)
    return mask


def _short_of_card(mask: np.ndarray, scale: float, tile: np.ndarray, others: Sequence[np.ndarray]) -> bool:
    """Whether card on ``mask`` (a look's, ``scale`` times the photo's size)
    where none of ``others`` lies covers most of a strip just past a side of
    ``tile`` (`PAST_SIDE` of a side out): the tile stops short of its card.

    Most of the whole strip, not of what the others leave of it: a look
    that closes the narrow gap to a neighbour found on its worn frame's
    inner line leaves a sliver of card there (hard vintage 3316).

    >>> mask = np.zeros((100, 100), np.uint8); mask[20:80, 20:60] = 255  # a card
    >>> card = np.float32([[20, 20], [60, 20], [60, 60], [20, 60]]) - 0.5
    >>> _short_of_card(mask, 1.0, card, []), _short_of_card(mask, 1.0, card, [card + [0, 40]])
    (True, False)
    """
    small = (np.float32(tile) + 0.5) * scale - 0.5
    elsewhere = cv2.dilate(_filled(mask.shape, others, scale), np.ones((5, 5), np.uint8))  # corners found a little off
    for start, end in zip(small, np.roll(small, -1, axis=0)):
        out = np.float32([end[1] - start[1], start[0] - end[0]])  # clockwise corners: a quarter turn back
        near, far = PAST_SIDE
        strip = np.int32(np.round([start + near * out, end + near * out, end + far * out, start + far * out]))
        whole = cv2.fillConvexPoly(np.zeros(mask.shape, np.uint8), strip, 255)
        if cv2.countNonZero(mask & whole & ~elsewhere) > 0.5 * cv2.countNonZero(whole):
            return True
    return False


def table_view(tiles: Sequence[np.ndarray], rounds: int = 5) -> np.ndarray | None:
    """The homography taking the photo to the table, on which every one of ``tiles`` is a square of side 1.

    All tiles are one square on one plane, so a single homography takes
    each to it, turned and moved its own way. Fitted in turns (as a point
    set is registered): each tile, taken to the table, is matched by the
    square nearest it (turned and moved, not scaled), and the homography
    refitted to all those squares' corners, starting from the largest
    tile's own. Unlike a size fitted linear across the photo, it holds for
    a tile far from those found, under any slant. None when a tile comes
    out mirrored (no one view of a table fits them).

    Examples
    --------
    >>> slant = cv2.getPerspectiveTransform(np.float32([[0, 0], [4, 0], [4, 4], [0, 4]]),
    ...                                     np.float32([[0, 0], [400, 0], [440, 320], [-40, 320]]))  # table to photo
    >>> tiles = [cv2.perspectiveTransform((UNIT + [x, y])[None], slant)[0] for x, y in ((1, 1), (3, 1), (2, 3))]
    >>> far = cv2.perspectiveTransform((UNIT + [1, 3])[None], slant)[0]  # a tile where none was found
    >>> form = form_in_view(table_view(tiles), far.mean(axis=0))
    >>> np.round(form / (mean_sides(far) @ mean_sides(far).T), 2).tolist()  # as it is
    [[1.0, 1.0], [1.0, 1.0]]
    """
    quads = np.float32(tiles)
    to_table = cv2.getPerspectiveTransform(quads[int(np.argmax([cv2.contourArea(quad) for quad in quads]))], UNIT)
    corners = quads.reshape(-1, 1, 2)
    for _ in range(rounds):
        squares = _nearest_squares(cv2.perspectiveTransform(corners, to_table).reshape(-1, 4, 2))
        if squares is None:
            return None
        to_table, _ = cv2.findHomography(corners, np.float32(squares).reshape(-1, 1, 2))
        if to_table is None:
            return None
    return to_table


def _nearest_squares(on_table: np.ndarray) -> np.ndarray | None:
    """The squares of side 1 nearest each clockwise quad (n, 4, 2) on the table, turned and moved, not
    scaled; None when a quad is mirrored.

    >>> _nearest_squares(np.float32([[[0, 0], [2, 0], [2, 2], [0, 2]]])).round(2).tolist()
    [[[0.5, 0.5], [1.5, 0.5], [1.5, 1.5], [0.5, 1.5]]]
    """
    u, _, vt = np.linalg.svd(mean_sides(on_table))  # the turns taking UNIT nearest each quad, all at once
    turns = u @ vt
    if (np.linalg.det(turns) < 0).any():
        return None
    return UNIT @ np.swapaxes(turns, -1, -2) + on_table.mean(axis=1, keepdims=True)


def square_in_view(view: np.ndarray, quad: np.ndarray) -> np.ndarray | None:
    """The photo of the square on the table nearest ``quad`` (clockwise, photo pixels), in the
    `table_view` ``view``: a tile's place and turn, its shape as the view gives it there.

    >>> view = np.diag(np.float32([0.1, 0.1, 1]))  # tiles 10 pixels wide
    >>> square_in_view(view, np.float32([[0, 0], [14, 0], [14, 10], [0, 10]])).round(1).tolist()
    [[2.0, 0.0], [12.0, 0.0], [12.0, 10.0], [2.0, 10.0]]
    """
    on_table = cv2.perspectiveTransform(np.float32(quad).reshape(1, 4, 2), view)
    square = _nearest_squares(on_table)
    return None if square is None else cv2.perspectiveTransform(np.float32(square), np.linalg.inv(view))[0]


def relaid(image: np.ndarray, scale: float, tiles: list[np.ndarray], misfit: Callable, most: float,
           fewest: int = 6) -> list[np.ndarray] | None:
    """``tiles`` with those off the view the others agree on laid again as lost
    cards are (`_placed`), each from the square of that view nearest it
    (`square_in_view`); None when fewer than ``fewest`` agree or one cannot be
    laid so.

    The others agree when each is within ``most`` of the shape the rest of
    them give it (``misfit``); the worst is left out first, as it skews what
    the others are told. The lost-tile search may place every card but a
    sound tile it started from: a card's mask grown onto a check's edge
    gives that tile a tenth off, and the eight others, sought along card
    edges, say where its square lies (hard frogs 2269 on red checks).
    """
    tiles = [np.float32(tile) for tile in tiles]
    kept, off = list(range(len(tiles))), []
    while True:
        misfits = [misfit([tiles[j] for j in kept if j != i], tiles[i]) for i in kept]
        if max(misfits) <= most:
            break
        if len(kept) <= fewest:
            return None
        off.append(kept.pop(int(np.argmax(misfits))))
    return _laid_again(image, scale, tiles, off, misfit, most)


def edged_again(image: np.ndarray, scale: float, tiles: list[np.ndarray], sound: int, misfit: Callable,
                most: float) -> list[np.ndarray] | None:
    """``tiles`` with those sought (past the first ``sound``) that lack a card's edge all round
    (`edge_steps`, `_card_sides`) laid again as lost cards are, each from the square nearest it in the
    view all the others give (`square_in_view`); None when one cannot be laid so.

    A square sought on few tiles' view may settle on three card edges and a
    check's line (hard sports scattered 3756 on blue gingham: a card 8.9%
    off, turned a few degrees, its fourth side on a dark check), fitting
    their shape but tilting the view the nine must agree on. The eight
    others, found later, place its square better: 2.1% off, edges all round.

    >>> squares = [np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]) + [20 * i + 5, 5] for i in range(3)]
    >>> photo = np.zeros((20, 70, 3), np.uint8)
    >>> for square in squares:
    ...     _ = cv2.fillConvexPoly(photo, np.int32(square), (200, 200, 200))
    >>> again = edged_again(photo, 1.0, squares, 1, lambda tiles, quad: 0.0, 0.07)
    >>> all(np.abs(a - b).max() < 1 for a, b in zip(again, squares))  # edged all round already: as they were
    True
    """
    tiles = [np.float32(tile) for tile in tiles]
    usual = sharpness(image, tiles[:sound])
    off = [i for i in range(sound, len(tiles)) if not _edged_round(image, tiles[i], tiles[:i] + tiles[i + 1:], usual)]
    return _laid_again(image, scale, tiles, off, misfit, most)


def _laid_again(image: np.ndarray, scale: float, tiles: list[np.ndarray], off: list[int], misfit: Callable,
                most: float) -> list[np.ndarray] | None:
    """``tiles`` with those at indices ``off`` laid again as lost cards (`_lost_card`), in turn, each
    from the square nearest it in the view the rest give (`square_in_view`); None when one cannot be."""
    tiles = list(tiles)
    usual = sharpness(image, tiles)
    sound = [tile for i, tile in enumerate(tiles) if i not in off]
    for i in off:
        view = table_view(sound)
        square = None if view is None else square_in_view(view, tiles[i])
        tile = None if square is None else _lost_card(image, scale, square, sound, misfit, most, usual)
        if tile is None:
            return None
        tiles[i] = tile
        sound.append(tile)
    return tiles


def form_in_view(view: np.ndarray, where: np.ndarray) -> np.ndarray:
    """The form (J J^T, as in `vision.misfits.shape_misfits`) of a tile centred at ``where`` in the
    photo whose `table_view` is ``view``: the photo of a square of side 1 on the table there.

    >>> form_in_view(np.diag(np.float32([0.1, 0.1, 1])), (50, 50)).round(1).tolist()  # tiles 10 pixels wide
    [[100.0, 0.0], [0.0, 100.0]]
    """
    centre = cv2.perspectiveTransform(np.float32(where).reshape(1, 1, 2), view).reshape(2)
    jacobian = mean_sides(cv2.perspectiveTransform((UNIT + centre)[None], np.linalg.inv(view))[0])
    return jacobian @ jacobian.T


def mean_sides(quads: np.ndarray) -> np.ndarray:
    """The mean across (N and S) and down (W and E) sides of clockwise quads (..., 4, 2), as the
    columns of (..., 2, 2): the linear map taking `UNIT` nearest each quad, less a move.

    >>> mean_sides(np.float32([[0, 0], [4, 0], [4, 2], [0, 2]])).tolist()  # 4 across, 2 down
    [[4.0, 0.0], [0.0, 2.0]]
    """
    return np.swapaxes(quads - quads.mean(axis=-2, keepdims=True), -1, -2) @ UNIT


def _placed(image: np.ndarray, scale: float, square: np.ndarray, tiles: list[np.ndarray], misfit: Callable, most: float,
            usual: float, kept: np.ndarray | None = None, reaches: tuple = (0.06, 0.03, 0.015),
            far_too: bool = True) -> np.ndarray | None:
    """``square`` refined (`refine`) to the card's edges, fenced off ``tiles``; ``kept`` unless it fits.

    A side may run on to a shadow's soft edge: sought again nearer. The
    square's size and place come from a view fitted to a few tiles, at the
    small copy's scale: a card far from them may be a tenth smaller, or lie
    a little off it (a side along a plank's seam or a figure's outline), so
    when the square itself finds no card's edge all round (`_card_sides`),
    one is sought from a little smaller, larger and off each way too, and
    then (``far_too``) from `FAR` off each way: a cloth's checks, sharper
    than a blurred card's edges, or the gap between two lost cards whose
    bits make one patch, may hold the square a fifth of a side or more off
    its card (hard frogs 1793, vintage 2056). Kept: of the refinements that fit
    (``misfit`` up to ``most``, or `ALL_ROUND` times that with a card's
    edge all round), one with a card's edge all round first, then one with
    it on three sides (from a start off the square only where none nearer
    has), then the one along the sharpest steps, less as much as it is off
    the view (`table_view` tells a tile's shape within a few hundredths: a
    refinement along a shadow's or a plank's step as sharp as the card's is
    further off it). Each start is refined out to each of ``reaches``
    (shares of a side).
    """
    apart = _fences(image, scale, tiles + [square])[-1]  # no edge sought on a neighbour's side of the gap
    centre, across, down = square.mean(axis=0), square[1] - square[0], square[3] - square[0]
    near = [centre + (square - centre) * (1 + sign * SHIFT) for sign in (-1, 1)] \
        + [square + SHIFT * sign * way for way in (across, down) for sign in (-1, 1)]
    far = [square + FAR * sign * way for way in (across, down) for sign in (-1, 1)] if far_too else []
    fitting = []  # (a card's edge all round it, on three sides at least, the three sharpest steps along its sides, less, the tile)
    for ring, starts in enumerate(([square], near, far)):
        three = any(found[1] for found in fitting)  # a refinement with a card's edge on three sides
        for tile in (refine(image, start, reach=reach, fence=apart) for start in starts for reach in reaches):
            stretch, edged = misfit(tiles, tile), _card_sides(edge_steps(image, tile, tiles), usual)
            # From a start off the square a card's edge all round counts, as it was sought for that,
            # or on three sides where none nearer had that (glare may wash a side out).
            if (stretch <= most and (ring == 0 or (edged >= 3 and not three))) \
                    or (stretch <= ALL_ROUND * most and edged == 4):
                fitting.append((edged == 4, edged >= 3, (1 - stretch) * sum(sorted(side_steps(image, tile))[1:]), tile))
        if any(whole for whole, _, _, _ in fitting):
            break  # starts further off only when none nearer finds a card's edge all round
    return max(fitting, key=lambda found: found[:3])[3] if fitting else kept


def edge_steps(image: np.ndarray, quad: np.ndarray, others: Sequence[np.ndarray] = ()) -> np.ndarray:
    """How sharp a card's edge runs along each of the quad's sides: the step
    along it (`side_steps`), or 0 where its line runs on past a corner, at
    half that step or more, over bare table: not into one of the ``others``.

    A card's side ends at its corners; a wood's grain, a plank's seam or a
    cloth's check runs on. (A seam of a block, or a side of a loose grid,
    runs on along the next tile's.)

    >>> image = np.zeros((90, 90, 3), np.uint8); image[30:60, 30:60] = 200
    >>> card = np.float32([[30, 30], [60, 30], [60, 60], [30, 60]]) - 0.5
    >>> (edge_steps(image, card) > 0).tolist(), (edge_steps(image, card + [0, 15]) > 0).tolist()
    ([True, True, True, True], [False, False, False, False])
    >>> image[30:60, 60:] = 200  # a card just right of it, no seam between: N and S run on into it
    >>> (edge_steps(image, card) > 0).tolist(), (edge_steps(image, card, [card + [30, 0]]) > 0).tolist()
    ([False, False, False, True], [True, False, True, True])
    """
    quad = np.float32(quad)
    steps = np.float32(side_steps(image, quad))
    near, far = PAST
    for i, (start, end) in enumerate(zip(quad, np.roll(quad, -1, axis=0))):
        along = end - start
        # the side's line past its end and past its start, as two sides of a quad (`side_steps`)
        past = np.float32([end + near * along, end + far * along, start - near * along, start - far * along])
        beyond = side_steps(image, past)
        over_table = [not on_any(point, others, 0.05 * float(np.linalg.norm(along))) for point in past[1::2]]
        if any(2 * step > steps[i] and bare for step, bare in zip(beyond[::2], over_table)):
            steps[i] = 0
    return steps


def on_any(point: np.ndarray, quads: Sequence[np.ndarray], margin: float = 0.0) -> bool:
    """Whether ``point`` lies in one of ``quads``, or within ``margin`` pixels of it.

    >>> card = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> on_any(np.float32([5, 5]), [card]), on_any(np.float32([12, 5]), [card]), on_any(np.float32([12, 5]), [card], 3)
    (True, False, True)
    """
    return any(cv2.pointPolygonTest(np.float32(quad), tuple(map(float, point)), True) >= -margin for quad in quads)


def edged_all_round(image: np.ndarray, tiles: list[np.ndarray], sound: list[np.ndarray]) -> bool:
    """Whether every one of ``tiles`` has all four sides along a card's edge
    (`edge_steps`) `EDGE` times as sharp as the usual side of the ``sound``
    tiles (`sharpness`): found by its own edges, as surely as they are.

    >>> image = np.zeros((90, 90, 3), np.uint8); image[30:60, 30:60] = 200
    >>> card = np.float32([[30, 30], [60, 30], [60, 60], [30, 60]]) - 0.5
    >>> edged_all_round(image, [card], [card]), edged_all_round(image, [card + [0, 15]], [card])
    (True, False)
    """
    usual = sharpness(image, sound)
    return all(_edged_round(image, tile, sound + tiles[:i] + tiles[i + 1:], usual) for i, tile in enumerate(tiles))


def _edged_round(image: np.ndarray, tile: np.ndarray, others: Sequence[np.ndarray], usual: float) -> bool:
    """Whether a card's edge runs along all four sides of ``tile`` (`_card_sides` of its `edge_steps`
    beside ``others``), against the ``usual`` side's step."""
    return _card_sides(edge_steps(image, tile, others), usual) == 4


def _card_sides(edges: np.ndarray, usual: float) -> int:
    """How many of a tile's `edge_steps` are a card's edge: `EDGE` times as sharp as the ``usual`` side at least.

    Glare washes out a card's side or two, seldom three; a square the
    others' shape placed on bare table has a side along a wood's grain or a
    check at most, and that runs on past its corners: a tile sought needs two.
    """
    return int(np.sum(np.float32(edges) >= EDGE * usual))


def _best_squares(small: np.ndarray, bits: np.ndarray, form: np.ndarray, found: np.ndarray) -> list[np.ndarray]:
    """The quads of ``form`` (a tile's look here) over most of ``bits`` whose
    sides run along the most colour steps that end at its corners, on
    ``small``: the best of each turn, strongest first, turned apart (`_apart`);
    none if no square's sides do. Steps on ``found`` (tiles found) do not count.

    The neighbourhood is warped so that the form is a square, then turned
    step by step: the square's sides lie along rows and columns, and how
    much step each side runs along is a box sum of the gradient across it,
    less the same just past its corners (a cloth's checks line up in long
    straight lines; a card's side ends at its corners). Of its four sides
    the three strongest count: glare may wash one out.
    """
    values, vectors = np.linalg.eigh(form)
    if values.min() <= 0:
        return []
    shape = vectors @ np.diag(np.sqrt(values)) @ vectors.T  # a unit square to the tile's look, up to a turn
    ys, xs = np.nonzero(bits)
    centre = np.float32([xs.mean(), ys.mean()])
    s = int(round(min(FRAME_SIDE, np.sqrt(np.linalg.det(shape)))))  # the side in the frame: refine makes it exact
    h, past, beyond = s // 2, max(2, s // 20), max(3, s // 4)
    reach = h + past + beyond
    half = int(round(0.8 * s)) + reach  # the square's centre lies within 0.8 of a side of the bits'
    size = 2 * half + 1
    # Pixels of the square frame (side ``side``, centred) to the photo's.
    to_photo = np.c_[shape / s, centre - shape @ np.float32([half, half]) / s]
    to_frame = cv2.invertAffineTransform(to_photo)
    flat = cv2.warpAffine(small, to_frame, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    held = cv2.warpAffine(bits.astype(np.uint8), to_frame, (size, size), flags=cv2.INTER_NEAREST)
    off = cv2.warpAffine(found, to_frame, (size, size), flags=cv2.INTER_NEAREST)
    inner = slice(reach, size - reach)
    cards = _cards_under(held, s)
    best = []  # (how strongly its sides run along steps, turn, the square) per turn
    for turn in TURNS:
        spin = cv2.getRotationMatrix2D((half, half), float(turn), 1.0)
        turned = cv2.warpAffine(flat, spin, (size, size), borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        away = cv2.warpAffine(off, spin, (size, size), flags=cv2.INTER_NEAREST) > 0
        across, down = (across_channels(np.maximum, np.abs(cv2.Sobel(turned, cv2.CV_32F, dx, 1 - dx, ksize=3)))
                        for dx in (1, 0))
        across[away] = down[away] = 0
        sides = []
        for steps, axis in ((down, 1), (across, 0)):  # N and S sides lie along rows, W and E along columns
            along = (int(0.8 * s), 1) if axis else (1, int(0.8 * s))
            short = (beyond, 1) if axis else (1, beyond)
            full, ends = cv2.boxFilter(steps, -1, along), cv2.boxFilter(steps, -1, short)
            for sign in (-1, 1):  # the side before the centre, and after
                line = _shifted(full, sign * h, 0, axis)
                tips = [_shifted(ends, sign * h, tip * (h + past + beyond // 2), axis) for tip in (-1, 1)]
                sides.append((line - (tips[0] + tips[1]) / 2)[inner, inner])
        strength = np.sort(np.stack(sides), axis=0)[1:].sum(axis=0)  # the three strongest
        # The square must hold most of the bits, or be mostly bits (of lost
        # tiles side by side); bits on several cards (`_cards_under`), the
        # square on one of them holding its share.
        held_turned = cv2.warpAffine(held, spin, (size, size), flags=cv2.INTER_NEAREST)
        bits_held = float(held_turned.sum())
        inside = cv2.boxFilter(held_turned.astype(np.float32), -1, (s, s), normalize=False)[inner, inner]
        strength[inside < min(0.8 * bits_held / cards, 0.6 * s * s)] = 0
        y, x = np.unravel_index(int(np.argmax(strength)), strength.shape)
        if strength[y, x] > 0:
            corners = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * s / 2 + [x + reach, y + reach]
            back = cv2.invertAffineTransform(spin)
            corners = corners @ back[:, :2].T + back[:, 2]
            best.append((float(strength[y, x]), turn, clockwise(np.float32(corners @ to_photo[:, :2].T + to_photo[:, 2]))))
    return _apart(best)


def _cards_under(bits: np.ndarray, side: int) -> int:
    """How many cards of ``side`` pixels the ``bits`` (uint8 mask, 1 = bit) lie on, at least.

    Bits more than a tile could hold lie on several; so do sparse bits (a
    glared card's figures) spread over more than a card: the hull of two
    lost cards' figures side by side covers more than one tile, and a
    card's own, however scattered, at most a little over its square.

    >>> bits = np.zeros((100, 100), np.uint8)
    >>> bits[10:14, 10:14] = bits[10:14, 36:40] = bits[36:40, 10:14] = 1  # figures of one card of 30
    >>> _cards_under(bits, 30), _cards_under(np.roll(bits, 40, axis=1) | bits, 30)  # and of one beside it
    (1, 2)
    """
    points = cv2.findNonZero(bits)
    if points is None:
        return 1
    spread = cv2.contourArea(cv2.convexHull(points)) / side ** 2 - SPREAD  # a card's blurred rim, a shadow's bit
    return int(max(np.ceil(bits.sum() / side ** 2), np.ceil(spread), 1))


def _apart(squares: list[tuple[float, float, np.ndarray]]) -> list[np.ndarray]:
    """Of ``squares`` (strength, turn in degrees, corners), those turned `APART` from every stronger one kept, strongest first.

    A cloth's checks run two straight ways: a square turned their way may
    find steps along its sides where a card lies turned another way.

    >>> squares = [(5.0, 3.0), (4.0, 6.0), (3.0, 45.0), (2.0, 88.5)]  # 88.5 degrees is 4.5 from 3 (a quarter turn)
    >>> [float(corners[0, 0]) for corners in _apart([(strength, turn, np.full((4, 2), turn)) for strength, turn in squares])]
    [3.0, 45.0]
    """
    kept = []
    for strength, turn, corners in sorted(squares, key=lambda square: -square[0]):
        if all(min((turn - other) % 90, (other - turn) % 90) >= APART for _, other, _ in kept):
            kept.append((strength, turn, corners))
    return [corners for _, _, corners in kept]


def _shifted(values: np.ndarray, across: int, along: int, axis: int) -> np.ndarray:
    """``values`` at each pixel moved by ``across`` a side lying along ``axis``
    (1: a row) and ``along`` it: out[y, x] = values[y + across, x + along] for rows."""
    dy, dx = (across, along) if axis else (along, across)
    return np.roll(values, (-dy, -dx), axis=(0, 1))
