"""Corners to sub-pixel accuracy at full resolution (`vision.detect`, step 4).

Each side's edge is found along the side's normal (the outermost line of
steps running the side: `_outermost_line`, or of fainter ones beside it
where a printed border is the table's colour: `_cut_edge`; a side the
mask turned is sought along the others: `_squared`) and a line is fitted
to it (on the card's face, not the band of its cut side: `_face_sides`);
the corners are where the lines meet. Sides found inside a printed frame
the table's colour, all round the card, are moved out to its cut edge
(`_framed`). Only the strips along the sides are read.
"""
from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import NamedTuple

import cv2
import numpy as np

from .images import across_channels


def refine(image: np.ndarray, quad: np.ndarray, rounds: int = 2, reach: float = 0.06,
           outline: bool = True, fence=None, tile: bool = True, framed: bool = False) -> np.ndarray:
    """Corners to sub-pixel accuracy: fit a line to each side's edge, intersect.

    Along each side the image is sampled on short normals, ``reach`` times
    the side long; on each normal one strong colour step is an edge point,
    and a robust line through the points is the side. On the ``outline`` of
    a tile or block (table outside) it is the step on the outermost line of
    steps running the side (`_outermost_line`): the mask may have stopped at
    a printed border the colour of the table; beyond that, a line of fainter
    sharp steps running beside it is the card's cut edge (`_cut_edge`). On a
    seam inside a block it is the step nearest the even split: not the
    printed border just beyond it. On a ``tile`` (not a block, whose sides
    perspective turns more), a rough side far from parallel to the one
    opposite is sought again along it and square to its neighbours
    (`_squared`). A ``framed`` outline, as the mask gave it, found inside
    a printed frame the table's colour, worn at the cut edge (vintage card
    on wood), is moved out to the cut edge where the frame shows on three
    sides at least (`_framed`); not a square sought or reshaped, whose
    shadow's rim may pass for a frame's cut edge. ``fence(points)``, if given, marks points
    on other tiles: no edge is looked for beyond them. Reads only strips
    along the sides, so it works at full resolution.
    """
    quad = clockwise(np.float32(quad))
    lengths = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    side = float(np.mean(lengths))
    reach = first = max(4.0, reach * side)
    # A card's cut side shows at most about a fortieth of a tile's side thick
    # (the reach is a share of a tile's side, the shortest side a tile's or more).
    band = min(0.4 * reach, 0.025 * float(lengths.min()))
    for done in range(rounds):
        last = outline and done == rounds - 1  # the sides are near: the card's face is sought (`_face_sides`)
        # The face's edge is read off the same strips as the side's, where `_face_sides` asks for it.
        faced = _face_read(quad) if last else [False] * 4
        lines, faces = [], []
        ends = np.roll(quad, -1, axis=0)
        for start, end, strip, read in zip(quad, ends, _strips(image, quad, ends, reach, fence, outline), faced):
            line, face = _edge_lines(strip, outline, face=read)
            rough = (end - start) / np.linalg.norm(end - start)
            # A side turned off the rough one followed art, not the tile's edge.
            turned = line and abs(line[1][0] * rough[1] - line[1][1] * rough[0]) > 0.1
            lines.append(line if line and not turned else (start, end - start))
            faces.append(face)
        most = 2 * reach  # further, a line followed something else
        if outline and tile and done == 0:
            squared = _squared(image, quad, lines, reach, fence)
            most += 0.2 * side * any(a is not b for a, b in zip(squared, lines))  # a side turned swings a corner
            lines = squared
        if last:
            lines = _face_sides(image, quad, lines, faces, band)
        corners = corners_of(lines)
        if corners is None or np.max(np.abs(corners - quad)) > most:
            return quad
        quad = corners
        reach = max(3.0, reach / 2)
    return _framed(image, quad, first, fence) if outline and framed else quad


def _facing_down(quad: np.ndarray) -> list[bool]:
    """Which sides of ``quad`` (clockwise) face down the photo: those running leftward.

    >>> _facing_down(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]))
    [False, False, True, False]
    """
    sides = zip(quad, np.roll(quad, -1, axis=0))
    return [bool((start - end)[0] > 0.3 * np.linalg.norm(end - start)) for start, end in sides]


def _face_read(quad: np.ndarray) -> list[bool]:
    """Which sides of ``quad`` `_face_sides` reads the face's edge on: those facing down and the ones opposite.

    >>> _face_read(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]))
    [True, False, True, False]
    """
    down = _facing_down(quad)
    return [down[i] or down[i - 2] for i in range(4)]


def _face_sides(image: np.ndarray, quad: np.ndarray, lines: list, faces: list, width: float) -> list:
    """``lines`` with the sides facing down the photo moved in from the card's cut side to its face.

    Seen from in front, a card's cut side shows as a thin band below it
    (about a hundredth of a side): a step stronger than the outer one just
    inside it (`_face_edge`), or, where the face's step is the weaker, a
    second line of steps at most ``width`` pixels inside the outer one
    (`_band`). A printed border shows such a step on every side, a cut side
    only on the sides facing the camera: a side moves in only when the one
    opposite shows no step as far in. ``faces``: each side's face edge as `_edge_lines` reads it,
    where `_face_read` asks for it (None elsewhere, or where none was found).
    """
    sides = list(zip(quad, np.roll(quad, -1, axis=0)))
    down = _facing_down(quad)
    insets = [_apart(line, face) if face else 0.0 for line, face in zip(lines, faces)]
    moved = list(lines)
    for i, (start, end) in enumerate(sides):
        if not down[i]:
            continue
        if insets[i] > 0.5 and insets[i - 2] < 0.5 * insets[i]:
            moved[i] = faces[i]
            continue
        # Where the face's step is the weaker one (a stronger one `_face_edge` takes, a shadow's soft
        # rim outside the card's edge shows one too); opposite, a printed rule's fainter echo keeps it.
        inset, strength = _band(image, lines[i], start, end, width)
        if inset > 0.5 and 0.5 <= strength <= 1 \
                and _band(image, lines[i - 2], *sides[i - 2], width + 1)[0] < 0.5 * inset:
            p, u = lines[i]
            u = _along(u, start, end)
            moved[i] = (p + inset * np.float32([-u[1], u[0]]), u)
    return moved


def _band(image: np.ndarray, line, start: np.ndarray, end: np.ndarray, width: float,
          samples: int = 32) -> tuple[float, float]:
    """How far inside ``line`` (point, direction), at most ``width`` pixels, a second line of steps runs
    beside it along the side from ``start`` to ``end``, and how strong its step is against the side's
    own; (0, 0) where none does.

    The steps across the side are taken on each normal and their median
    over the normals kept: art touches the edge here and there, but the
    band of a card's cut side runs all along it. The second step counts
    where it is a peak of its own, a fifth as strong as the side's own at
    least, with a dip before it.

    >>> image = np.full((40, 40, 3), 30, np.uint8); image[10:30, 10:30] = 200; image[28:30, 10:30] = 120
    >>> side = (np.float32([30, 29.5]), np.float32([-1, 0]))  # the S side, at the band's outer edge
    >>> [round(x, 1) for x in _band(image, side, np.float32([29.5, 29.5]), np.float32([9.5, 29.5]), 4)]
    [2.0, 0.9]
    """
    offsets = np.arange(-2, width + 1.5, 0.5, dtype=np.float32)
    step = _steps_across(image, line, start, end, offsets, samples=samples)
    if step is None:
        return 0.0, 0.0  # a side the photo's edge cuts: the table past it is not seen
    at = offsets[:-1] + 0.25  # between the rows
    outer = np.abs(at) <= 0.5  # the line's own step
    inner = (at > 0.5) & (at <= width)
    peak = np.zeros(len(step), bool)
    peak[1:-1] = (step[1:-1] > step[:-2]) & (step[1:-1] >= step[2:])
    own = max(float(step[outer].max()), 1e-6)
    found = np.nonzero(inner & peak & (step >= 0.2 * own))[0]
    if not len(found):
        return 0.0, 0.0
    k = found[np.argmax(step[found])]
    if step[np.nonzero(outer)[0].max():k + 1].min() > 0.6 * step[k]:
        return 0.0, 0.0  # no dip between: one soft step, not two
    return float(at[k] + 0.5 * _vertex(step, k)), float(step[k] / own)


FRAME = (0.35, 1.35)  # a printed frame's width, in reaches (0.06 of a tile's side: 2-8% of it)


def _framed(image: np.ndarray, quad: np.ndarray, reach: float, fence) -> np.ndarray:
    """``quad`` moved out to the card's cut edge where its sides were found inside a printed frame.

    A frame the table's colour (worn vintage card's brown on wood, a dark
    frame on a dark table) leaves the mask, and the sides, at the frame's
    inner edge or a rule inside it; the worn cut edge past it shows as a
    faint line of steps, on most of the side but not on 70% of it, as
    `_cut_edge` asks. What tells a frame from a plank's seam or a shadow
    past a side is that it is printed all round the card: on three sides
    at least, the median step profile across the side (`_steps_across`)
    peaks at the cut edge and next as far in, at the frame's inner edge
    (`_frame_pair`), the cut edge at the side found or a frame's width
    past it. Of the widths three sides agree on, the one moving the sides
    furthest out wins, as the outermost line does in `_outermost_line`.
    Where the three were all found inside the frame, so was the fourth.
    ``reach``: a share of a tile's side, as in `refine`.
    """
    sides = list(zip(quad, np.roll(quad, -1, axis=0)))
    peaks = _sides_peaks(image, sides, reach, fence)
    if any(p is None for p in peaks):
        return quad
    widths = {round(float(b - a) * 2) / 2 for at, _ in peaks for a, b in zip(at, at[1:])
              if a <= 0.5 and FRAME[0] * reach <= b - a <= FRAME[1] * reach}
    best, moves = (0.0, 0.0), None
    for width in sorted(widths):
        chosen = [_frame_pair(p, width) for p in peaks]
        # A worn cut edge may show on too few normals on one side: three sides tell. Of the frames
        # the steps allow, the outermost (as `_outermost_line`): a printed rule inside one makes another.
        shown = [c for c in chosen if c]
        score = (sum(c[0] for c in shown), sum(c[1] for c in shown))
        if len(shown) >= 3 and score > best:
            best, moves = score, [c[0] if c else None for c in chosen]
    if moves is None or max(m or 0 for m in moves) < 1:
        return quad
    # Where the three sides that show it were all seen inside the frame, the mask stopped at it
    # all round: so did the fourth.
    shown = [m for m in moves if m is not None]
    moves = [float(np.median(shown)) if m is None and min(shown) >= 1 else m or 0.0 for m in moves]
    return _moved_out(quad, sides, moves)


def _moved_out(quad: np.ndarray, sides: list, moves: list[float]) -> np.ndarray:
    """``quad`` with each of its ``sides`` (start, end) moved out by its entry of ``moves``, in pixels;
    ``quad`` itself where the lines meet in no four corners."""
    lines = []
    for (start, end), move in zip(sides, moves):
        u = _along(end - start, start, end)
        lines.append((start - move * np.float32([-u[1], u[0]]), u))
    corners = corners_of(lines)
    return quad if corners is None else corners


OUT = 0.09   # most a side is moved out to a card's faint cut edge, in sides (`cut_edges`)
GRAIN = 2.0  # how many times the table's usual step past it that edge's step is at least (`cut_edges`)


def cut_edges(image: np.ndarray, quad: np.ndarray, fence=None, ruled: bool = False,
              banded: bool = False) -> np.ndarray:
    """``quad`` with each side moved out to the outermost faint line of steps within `OUT` of a side past it.

    A vintage card's worn frame is near the colour of wood: a tile sought
    or outlined on such a card stops at the frame's printed inner line, 3-9%
    of a side inside the card (hard vintage 2385: eight cards 4-7% off), and
    `_framed`'s pairs of peaks on three sides do not show (the frame's cut
    edge against the wood is faint). Past a side, the median step profile
    across it (`_steps_across`) is flat on bare table; a line of steps `GRAIN`
    times as sharp as the table's usual step there, and a fifth of the
    side's own at least, is the card's cut edge. Points nearer another tile
    (``fence``) count as flat: a neighbour's edge is not taken. ``ruled``:
    only sides found at a printed rule move, those with no frame's inner
    edge a frame's width (`FRAME`) inside them (`_peaks`) on a card showing
    one inside another side: a side found at the cut edge shows the frame's
    inner edge or rule there, and what lies past it is a shadow's rim or the
    wood's grain; a card with no frame (hard meadow 62) shows none.
    ``banded``: only sides whose band out to the cut edge shows the card's
    frame move (`_frame_bands`).

    >>> image = np.full((80, 80, 3), 90, np.uint8); image[10:70, 10:70] = 140; image[14:66, 14:66] = 220
    >>> frame = np.float32([[14, 14], [66, 14], [66, 66], [14, 66]]) - 0.5  # on the frame's inner line
    >>> (cut_edges(image, frame) + 0.5).round(1).tolist()  # out to the card's cut edge
    [[10.0, 10.0], [70.0, 10.0], [70.0, 70.0], [10.0, 70.0]]
    """
    quad = clockwise(np.float32(quad))
    sides = list(zip(quad, np.roll(quad, -1, axis=0)))
    far = OUT * float(np.mean([np.linalg.norm(end - start) for start, end in sides]))
    at = np.arange(-2 * far, 2.0, 0.5, dtype=np.float32)  # outward is negative; the table past ``far``
    spans = [((start, end - start), start, end) for start, end in sides]
    moves = [_cut_edge_past(step, at, far) for step in _steps_across_all(image, spans, at, fence)]
    if ruled and any(moves):  # the frames' checks, read only where a side would move
        # A frameless card (a cloth's check past it) shows no frame's inner edge on any side: the
        # sides that would move are read first, the others only while none of those shows one.
        inner = {k: _framed_inside(image, *sides[k], fence) for k in range(4) if moves[k]}
        framed = any(inner.values()) or any(_framed_inside(image, *sides[k], fence) for k in range(4) if not moves[k])
        moves = [move if move and not inner[k] and framed and _sharpest_here(image, *sides[k], fence) else 0.0
                 for k, move in enumerate(moves)]
    moves = _frame_bands(image, sides, moves) if banded and any(moves) else moves
    return _moved_out(quad, sides, moves)


def _cut_edge_past(step: np.ndarray | None, at: np.ndarray, far: float) -> float:
    """How far out past a side the outermost line of steps within ``far`` pixels of it lies that
    `cut_edges` takes for the card's cut edge (0 where none does), on the side's step profile ``step``
    across the rows ``at`` (`_steps_across`, None where unread; outward negative, the table past ``far``)."""
    if step is None:
        return 0.0
    middle = at[:-1] + 0.25  # between the rows
    own = float(step[np.abs(middle) <= 1].max())
    least = max(0.2 * own, GRAIN * float(np.median(step[middle < -far])), 1e-6)
    peak = np.zeros(len(step), bool)
    peak[1:-1] = (step[1:-1] > step[:-2]) & (step[1:-1] >= step[2:]) & (step[1:-1] >= least)
    found = np.nonzero(peak & (middle < -1.5) & (middle >= -far))[0]
    return float(-middle[found[0]] - 0.5 * _vertex(step, found[:1])[0]) if len(found) else 0.0


FRAMED = 0.5  # how much nearer the frame's colour than the face's a band moved across lies, at most (`_frame_bands`)


def _frame_bands(image: np.ndarray, sides: list, moves: list[float]) -> list[float]:
    """``moves`` (pixels out, one a side) kept only where the band moved across shows the card's frame.

    A worn frame in shadow is as dark as the table past it: a side is found
    at the frame's inner edge, where a print runs along it (hard vintage
    loose 4296: the car cabin's red body line, 6.3% inside, read as the
    shield), and the band out to the cut edge is the frame, coloured as the
    band as wide just inside the sides that stay. On a white desk a side at
    its cut edge has a shadow's rim past it (hard vintage 3785: moved 9% out
    onto it) across a band of desk, not of frame. A move is kept where the
    band's median colour is less than `FRAMED` times as far from the frame's
    as from the face's just inside the side, and what lies past the cut edge
    is nearer the band's colour than the face's: the table, not the next
    card's face (touching worn cards show no step where their frames meet:
    a side moved across both frames lands 4-5% past its card's edge); none
    where no side stays. And a frame runs round the card: inside every side
    that stays, the band as wide differs from the face past it by more than
    the band moved across differs from the frame. A frameless card's soft
    drop shadow on a white page (the serengeti catalogue picture), a dark
    rim and a ramp to white, is near the pale art inside its other sides,
    but that art runs on past a frame's width inside one of them at least
    (6-8 apart, the shadow 18-29 from it; worn frames 20-170 apart).

    >>> image = np.full((100, 100, 3), 60, np.uint8); image[10:90, 10:90] = 50; image[16:84, 16:84] = 200
    >>> found = np.float32([[16, 10], [90, 10], [90, 90], [16, 90]]) - 0.5  # W side at the frame's inner edge
    >>> _frame_bands(image, list(zip(found, np.roll(found, -1, axis=0))), [0.0, 0.0, 0.0, 6.0])
    [0.0, 0.0, 0.0, 6.0]
    >>> image[:, :10] = 230; image[:, 4:10] = 170  # a white desk; the card's shadow's rim past the W side
    >>> cut = np.float32([[10, 10], [90, 10], [90, 90], [10, 90]]) - 0.5  # every side at the cut edge
    >>> _frame_bands(image, list(zip(cut, np.roll(cut, -1, axis=0))), [0.0, 0.0, 0.0, 6.0])
    [0.0, 0.0, 0.0, 0.0]
    >>> image = np.full((100, 120, 3), 250, np.uint8); image[10:90, 10:90] = 205  # a frameless card on white
    >>> image[10:90, 86:90] = 130; image[12:92, 90:96] = 190  # a dark rim inside its E side, a shadow past it
    >>> _frame_bands(image, list(zip(cut, np.roll(cut, -1, axis=0))), [0.0, 6.0, 0.0, 0.0])
    [0.0, 0.0, 0.0, 0.0]
    """
    kept = list(moves)
    stay = [j for j in range(4) if not moves[j]]
    for i, ((start, end), move) in enumerate(zip(sides, moves)):
        if not move:
            continue
        frames = [_rows_colour(image, *sides[j], 1.5, move - 1.5) for j in stay]
        beyond = [_rows_colour(image, *sides[j], move + 1.5, 2 * move + 1.5) for j in stay]
        band = _rows_colour(image, start, end, -1.5, 1.5 - move)
        wide = max(3.0, move / 2)
        face = _rows_colour(image, start, end, 2.0, 2.0 + wide)
        past = _rows_colour(image, start, end, -move - 2.0, -move - 2.0 - wide)
        if not frames or any(c is None for c in frames + beyond + [band, face, past]):
            kept[i] = 0.0
            continue
        frame = np.median(frames, axis=0)
        framed = np.linalg.norm(band - frame) < FRAMED * np.linalg.norm(band - face) and \
            min(np.linalg.norm(f - b) for f, b in zip(frames, beyond)) > np.linalg.norm(band - frame)
        kept[i] = move if framed and np.linalg.norm(past - band) < np.linalg.norm(past - face) else 0.0
    return kept


def _rows_colour(image: np.ndarray, start: np.ndarray, end: np.ndarray, near: float, far: float,
                 samples: int = 32) -> np.ndarray | None:
    """The median colour of the rows ``near`` to ``far`` pixels inside the side from ``start`` to ``end``
    (negative: outside), on the middle eight tenths of it; None where the photo's edge cuts them."""
    u = _along(end - start, start, end)
    rows = np.arange(min(near, far), max(near, far) + 0.01, 0.5, dtype=np.float32)
    along = start + np.linspace(0.1, 0.9, samples, dtype=np.float32)[:, None] * (end - start)
    sampled = _strip(image, along, rows, np.float32([-u[1], u[0]]))
    if sampled is None:
        return None
    strip = sampled[1]
    return np.median(strip.reshape(-1, strip.shape[-1] if strip.ndim == 3 else 1), axis=0)


def _strip(image: np.ndarray, along: np.ndarray, rows: np.ndarray, inward: np.ndarray) -> tuple | None:
    """The photo read on normals to a side: at each of the points ``along`` it (n, 2), ``rows``
    pixels ``inward`` (a unit vector); the points (rows, n, 2) and the colours there (float32),
    or None where the photo's edge cuts them.

    >>> image = np.arange(25, dtype=np.uint8).reshape(5, 5)
    >>> _, strip = _strip(image, np.float32([[1, 1], [2, 1]]), np.float32([0, 1]), np.float32([0, 1]))
    >>> strip.tolist(), _strip(image, np.float32([[1, 1]]), np.float32([-2]), np.float32([0, 1]))
    ([[6.0, 7.0], [11.0, 12.0]], None)
    """
    points = _normals(image, along, rows, inward)
    if points is None:
        return None
    return points, cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR).astype(np.float32)


def _normals(image: np.ndarray, along: np.ndarray, rows: np.ndarray, inward: np.ndarray) -> np.ndarray | None:
    """The points (rows, n, 2) `_strip` reads the photo at, or None where the photo's edge cuts them."""
    points = along[None] + rows[:, None, None] * inward
    flat = points.reshape(-1, 2)  # one axis: numpy's reduction over two costs more than the strip's few points
    if flat.min() < 0 or np.any(flat.max(axis=0) > np.float32(image.shape[1::-1]) - 1):
        return None
    return points


def _sharpest_here(image: np.ndarray, start: np.ndarray, end: np.ndarray, fence=None) -> bool:
    """Whether the side from ``start`` to ``end`` steps more sharply than anything a frame's width
    (`FRAME`, in reaches of 0.06 of the side) inside it (`_steps_across`).

    At a printed rule the rule is the sharpest step about. At a worn frame's cut edge the frame's inner
    edge or rule inside is sharper, though it may blur into one broad step `_peaks` does not part (hard
    vintage 2385: twice the side's own; the side, at the cut edge, was moved 7% out onto the grain).

    >>> image = np.full((140, 140), 100, np.uint8); image[20:120, 20:120] = 120; image[25:115, 25:115] = 200
    >>> at_cut, at_rule = np.float32([[19.5, 19.5], [119.5, 19.5]]), np.float32([[24.5, 24.5], [114.5, 24.5]])
    >>> _sharpest_here(image, *at_cut), _sharpest_here(image, *at_rule)  # the top side, run clockwise
    (False, True)
    """
    near, far = _frame_band(start, end)
    at = np.arange(-2.0, far + 2.0, 0.5, dtype=np.float32)
    middle = at[:-1] + 0.25
    step = _steps_across(image, (start, end - start), start, end, at, fence)
    frame = (middle >= near) & (middle <= far)
    return step is not None and float(step[np.abs(middle) <= 1].max()) > float(step[frame].max(initial=0.0))


def _framed_inside(image: np.ndarray, start: np.ndarray, end: np.ndarray, fence=None) -> bool:
    """Whether a peak of the side's step profile (`_peaks`) lies a frame's width (`FRAME`, in reaches
    of 0.06 of the side) inside the side from ``start`` to ``end``: the frame's inner edge or its rule
    past the card's cut edge."""
    near, far = _frame_band(start, end)
    peaks = _sides_peaks(image, [(start, end)], _side_reach(start, end), fence)[0]
    return peaks is None or bool(np.any((peaks[0] >= near) & (peaks[0] <= far)))


def _sides_peaks(image: np.ndarray, sides: list, reach: float, fence) -> list:
    """`_peaks` of the step profile across each of ``sides`` (start, end; `_steps_across_all`), a
    frame's width (`FRAME`, in ``reach`` pixels) and a little more inside it and as far out: `_peaks`
    reads the table's grain there."""
    far = FRAME[1] * reach + 3
    at = np.arange(-far, far, 0.5, dtype=np.float32)
    spans = [((start, end - start), start, end) for start, end in sides]
    return [_peaks(at[:-1] + 0.25, step) for step in _steps_across_all(image, spans, at, fence)]


def _side_reach(start: np.ndarray, end: np.ndarray) -> float:
    """A reach of the side from ``start`` to ``end``, in pixels: 0.06 of its length, as `refine`'s."""
    return 0.06 * float(np.linalg.norm(end - start))


def _frame_band(start: np.ndarray, end: np.ndarray) -> tuple[float, float]:
    """How far inside the side from ``start`` to ``end`` a printed frame's inner edge may lie, nearest
    and furthest, in pixels (`FRAME`, in reaches of 0.06 of the side)."""
    reach = _side_reach(start, end)
    return FRAME[0] * reach, FRAME[1] * reach


def _frame_pair(peaks: tuple, width: float):
    """(how far out the cut edge lies, how sure) for a frame ``width`` wide: the outermost pair of
    ``peaks`` (positions inward, strengths) next to each other that far apart, the outer one at the
    side or past it; None if none."""
    at, strength = peaks
    for k in range(len(at) - 1):  # the outermost first
        if at[k] > 0.5 or -width + max(1.0, 0.1 * width) < at[k] < -0.5:
            continue  # the side found lies at the cut edge, or on the frame's inner edge or inside it: not within
        # The frame's inner edge is the next step in: a rule further in makes no frame.
        if abs(at[k + 1] - at[k] - width) <= max(1.0, 0.1 * width):
            return max(0.0, -float(at[k])), float(min(strength[k], strength[k + 1]))
    return None


def _peaks(at: np.ndarray, step: np.ndarray, least: float = 0.25, dip: float = 0.6, grain: float = 3.0):
    """Positions (``at``, sub-pixel, outermost first) and strengths of the peaks of a side's step
    profile: ``least`` as strong as the side's own step at least and ``grain`` times the table's usual
    step outside (a wood's grain, a cloth's weave), with a dip on either side of it. None where unread."""
    if step is None:
        return None
    own = max(float(step[np.abs(at) <= 1].max()), 1e-6)
    least = max(least * own, grain * float(np.median(step[at < -1])))
    k = np.nonzero((step[1:-1] > step[:-2]) & (step[1:-1] >= step[2:]) & (step[1:-1] >= least))[0] + 1
    kept = [i for i in k if step[max(0, i - 6):i].min() < dip * step[i] and step[i + 1:i + 7].min() < dip * step[i]]
    k = np.int64(kept)
    return at[k] + 0.5 * _vertex(step, k), step[k]


def _steps_across(image: np.ndarray, line, start: np.ndarray, end: np.ndarray, at: np.ndarray, fence=None,
                  samples: int = 32):
    """The median over ``samples`` normals along the side from ``start`` to ``end`` of the colour step
    from each row ``at`` pixels inside ``line`` (point, direction) to the next; None where the photo's
    edge cuts the rows. Rows past the middle of a gap to the next tile (``fence``) count as flat."""
    return _steps_across_all(image, [(line, start, end)], at, fence, samples)[0]


def _steps_across_all(image: np.ndarray, spans: list, at: np.ndarray, fence=None, samples: int = 32) -> list:
    """`_steps_across` of each of ``spans`` (line, start, end), read on the same rows ``at``.

    The spans' normals are read side by side in one remap and one median:
    every normal is its own column, so each span's profile is the one it
    gives read alone (a tile's four sides in a fourth of the calls).

    >>> image = np.full((40, 40), 30, np.uint8); image[10:30, 10:30] = 200
    >>> quad = np.float32([[9.5, 9.5], [29.5, 9.5], [29.5, 29.5], [9.5, 29.5]])
    >>> spans = [((start, end - start), start, end) for start, end in zip(quad, np.roll(quad, -1, axis=0))]
    >>> at = np.arange(-2, 2.5, 0.5, dtype=np.float32)
    >>> [bool(np.all(_steps_across(image, *span, at) == profile)) for span, profile
    ...  in zip(spans, _steps_across_all(image, spans, at))]
    [True, True, True, True]
    """
    read = []
    for line, start, end in spans:
        p, u = line
        u = _along(u, start, end)
        inward = np.float32([-u[1], u[0]])  # corners run clockwise
        ends = [np.dot(corner - p, u) for corner in (start, end)]
        along = p + np.linspace(ends[0], ends[1], samples + 2, dtype=np.float32)[1:-1, None] * u
        read.append(_normals(image, along, at, inward))
    seen = [points for points in read if points is not None]
    if not seen:
        return [None] * len(spans)
    points = np.concatenate(seen, axis=1)
    strip = cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR).astype(np.float32)
    step = np.diff(strip, axis=0)
    step = np.sqrt(across_channels(np.add, step * step)) if step.ndim == 3 else np.abs(step)
    if fence is not None:
        step[np.logical_or.accumulate(fence(points[:-1])[::-1], axis=0)[::-1]] = 0
    profiles = iter(np.median(step.reshape(len(step), len(seen), samples), axis=2).T)
    return [None if points is None else next(profiles) for points in read]


def _vertex(step: np.ndarray, rows: np.ndarray, columns: np.ndarray | None = None) -> np.ndarray:
    """How far (in rows, half a row at most) the peaks of ``step`` at ``rows`` (of ``columns``, where
    given) lie off their row: the vertex of a parabola through each and its neighbours."""
    left, mid, right = (step[rows + d] if columns is None else step[rows + d, columns] for d in (-1, 0, 1))
    return np.clip(0.5 * (left - right) / np.minimum(left - 2 * mid + right, -1e-6), -0.5, 0.5)


def _along(u: np.ndarray, start: np.ndarray, end: np.ndarray) -> np.ndarray:
    """The direction ``u`` of a side's line as a unit vector running from ``start`` towards ``end``."""
    return u / np.linalg.norm(u) * np.sign(np.dot(u, end - start))


def _squared(image: np.ndarray, quad: np.ndarray, lines: list, reach: float, fence) -> list:
    """``lines`` with a side far from parallel to the side opposite sought again along other ways.

    Art the table's colour bites into the mask, turning a rough side off the
    card's edge, past where `_edge_lines` looks. A card's opposite sides look
    near parallel, and its adjacent sides near square, under any ordinary
    view: the side is sought again along the opposite side and square to
    the adjacent ones, and the line running along the sharpest step all the
    way is kept (`contrast`).
    """
    sides = list(zip(quad, np.roll(quad, -1, axis=0)))
    ways = [_along(line[1], start, end) for line, (start, end) in zip(lines, sides)]  # each its side's way, clockwise
    squared = list(lines)
    for i, (start, end) in enumerate(sides):
        own, opposite = ways[i], ways[(i + 2) % 4]
        if abs(own[0] * opposite[1] - own[1] * opposite[0]) < 0.05:
            continue
        across = ways[(i + 1) % 4] - ways[i - 1]  # the adjacent sides, pointing one way
        best = 1.5 * contrast(image, lines[i], start, end)  # clearly sharper, not glare's or grain's luck
        # Through either end of the rough side or its middle: one end may be right.
        ways_through = [(along / np.linalg.norm(along) * (1 if np.dot(along, end - start) > 0 else -1), through)
                        for along, through in product((opposite, np.float32([across[1], -across[0]])),
                                                      (start, end, (start + end) / 2))]
        starts, ends = zip(*[(through + np.dot(start - through, along) * along,
                              through + np.dot(end - through, along) * along) for along, through in ways_through])
        for (along, _), strip in zip(ways_through, _strips(image, starts, ends, reach, fence)):  # the six in one read
            again, _ = _edge_lines(strip, True)
            if not again or abs(again[1][0] * along[1] - again[1][1] * along[0]) > 0.1 * np.linalg.norm(again[1]):
                continue  # turned off the way it was sought: art, not the card's edge
            (p, u), middle = again, (start + end) / 2
            if fence is not None and fence(np.float32([[p + np.dot(middle - p, u) / np.dot(u, u) * u]])).all():
                continue  # the next tile's edge across a gap
            sharp = contrast(image, again, start, end)
            if sharp > best:
                squared[i], best = again, sharp
    return squared


def contrast(image: np.ndarray, line, start: np.ndarray, end: np.ndarray, samples: int = 48) -> float:
    """How sharp a step ``line`` (point, direction) runs along all of the side from ``start`` to ``end``:
    the colour step across it that three quarters of the side reach.

    >>> image = np.zeros((40, 40, 3), np.uint8); image[:, 20:] = 100  # a step down the middle
    >>> side = (np.float32([19.5, 0]), np.float32([0, 1]))
    >>> round(contrast(image, side, np.float32([19.5, 5]), np.float32([19.5, 35])))
    173
    """
    return float(contrasts(image, [(line, start, end)], samples)[0])


def contrasts(image: np.ndarray, spans: list, samples: int = 48) -> np.ndarray:
    """`contrast` of each of ``spans`` (line, start, end), the same values, read at once.

    One remap and one percentile for all: a photo's first look checks 150
    or so spans (`side_steps`, `vision.detect._astray`), each read alone
    costing more in calls than in pixels.

    >>> image = np.zeros((40, 40, 3), np.uint8); image[:, 20:] = 100
    >>> on, off = ((np.float32([x, 0]), np.float32([0, 1])) for x in (19.5, 9.5))
    >>> contrasts(image, [(on, np.float32([19.5, 5]), np.float32([19.5, 35])),
    ...                   (off, np.float32([9.5, 5]), np.float32([9.5, 35]))]).round().tolist()
    [173.0, 0.0]
    """
    at = []
    for (p, u), start, end in spans:
        u = u / np.linalg.norm(u)
        normal = np.float32([-u[1], u[0]])
        ends = [np.dot(corner - p, u) for corner in (start, end)]
        points = p + np.linspace(*ends, samples, dtype=np.float32)[1:-1, None] * u
        at.append(np.float32([points + 1.5 * normal, points - 1.5 * normal]))
    at = np.concatenate(at, axis=1)  # (inside and outside, every span's points, x and y)
    inside, outside = cv2.remap(image, at[..., 0], at[..., 1], cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    steps = np.linalg.norm((inside - outside).reshape(len(spans), samples - 2, -1), axis=2)
    return np.percentile(steps, 25, axis=1)


def sharpness(image: np.ndarray, quads: list[np.ndarray]) -> float:
    """The median over the quads' sides of how sharp a step runs along each (`contrast`).

    A card's cut edge against the table is sharp all along; a line through
    a gap's flat middle is not.

    >>> image = np.zeros((40, 40, 3), np.uint8); image[10:30, 10:30] = 200
    >>> card = np.float32([[10, 10], [30, 10], [30, 30], [10, 30]]) - 0.5
    >>> sharpness(image, [card]) > 100, sharpness(image, [card + 5]) > 100
    (True, False)
    """
    return float(np.median([side_steps(image, quad) for quad in quads]))


def side_steps(image: np.ndarray, quad: np.ndarray) -> list[float]:
    """How sharp a step runs along each of the quad's sides (`contrast`), from its first corner on.

    >>> image = np.zeros((40, 40, 3), np.uint8); image[10:30, 10:30] = 200
    >>> half = np.float32([[10, 10], [30, 10], [30, 20], [10, 20]]) - 0.5  # S side across the card's flat middle
    >>> [round(step) for step in side_steps(image, half)]
    [346, 346, 0, 346]
    """
    sides = zip(quad, np.roll(quad, -1, axis=0))
    return contrasts(image, [((start, end - start), start, end) for start, end in sides]).tolist()


def _apart(line, other) -> float:
    """How far ``other``'s point lies from ``line`` (point, direction), in pixels."""
    (p, u), (q, _) = line, other
    u = u / np.linalg.norm(u)
    return float(abs((q[0] - p[0]) * u[1] - (q[1] - p[1]) * u[0]))


def nearest_quad(quads: list[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    """For each pixel of an image of ``shape``, a label of the nearest quad (float32, for `fence`).

    >>> labels = nearest_quad([np.float32([[1, 1], [3, 1], [3, 3], [1, 3]]) + [x, 0] for x in (0, 10)], (5, 15))
    >>> bool(labels[2, 6] == labels[2, 2] != labels[2, 8])  # the gap split at its middle
    True
    """
    free = np.full(shape[:2], 255, np.uint8)
    for quad in quads:
        cv2.fillConvexPoly(free, np.int32(np.round(quad)), 0)
    _, nearest = cv2.distanceTransformWithLabels(free, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_CCOMP)
    return nearest.astype(np.float32)


def fence(nearest: np.ndarray, scale: float, own: float):
    """Marks full-resolution points nearer another block than ``own`` (`refine`).

    ``nearest``: for each working-scale pixel, the label of the nearest block.
    """
    def elsewhere(points: np.ndarray) -> np.ndarray:
        at = points * scale + (0.5 * scale - 0.5)
        return cv2.remap(nearest, at[..., 0], at[..., 1], cv2.INTER_NEAREST) != own
    return elsewhere


class _Strip(NamedTuple):
    """One side's strip of normals as `_strips` read it: where it lies (the side's ``start``, unit
    ``along`` and ``inward`` vectors, its ``length``, the normals at ``t`` along it, the rows at
    ``offsets`` inward) and the colour ``step`` from each row to the next, with the ``strong`` peaks
    and, on an outline, the ``faint`` sharp ones (else None)."""
    start: np.ndarray
    along: np.ndarray
    inward: np.ndarray
    length: float
    t: np.ndarray
    offsets: np.ndarray
    step: np.ndarray
    strong: np.ndarray
    faint: np.ndarray | None


def _strips(image: np.ndarray, starts: np.ndarray, ends: np.ndarray, reach: float, fence=None,
            outermost: bool = True, samples: int = 48) -> list[_Strip]:
    """Each side from ``starts`` to ``ends`` (n, 2; a tile's run clockwise) read on ``samples`` normals
    ``reach`` pixels either side of it.

    The strips have the same shape (the reach is the tile's), so they are read
    side by side as one: one remap, blur and step profile for a tile's four
    sides, not one a side. Every normal is its own column, so each side's
    numbers are those of its strip read alone.

    >>> image = np.zeros((40, 40), np.uint8); image[10:30, 10:30] = 200
    >>> quad = np.float32([[9, 9], [30, 9], [30, 30], [9, 30]])  # on the table, a pixel out
    >>> strips = _strips(image, quad, np.roll(quad, -1, axis=0), 4)
    >>> [int(np.argmax(strip.step[:, 10])) for strip in strips]  # rows 4 (the side) to 5 (in)
    [4, 4, 4, 4]
    """
    starts, ends = np.float32(starts), np.float32(ends)
    lengths = [float(np.linalg.norm(end - start)) for start, end in zip(starts, ends)]
    along = (ends - starts) / np.float32(lengths)[:, None]
    inward = np.stack([-along[:, 1], along[:, 0]], axis=1)  # corners run clockwise
    t = np.linspace(0.1, 0.9, samples, dtype=np.float32) * np.float32(lengths)[:, None]  # (side, normal)
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    points = starts[None, :, None] + t[None, :, :, None] * along[None, :, None] \
        + offsets[:, None, None, None] * inward[None, :, None]
    points = points.reshape(len(offsets), len(starts) * samples, 2)  # the sides' normals side by side
    strip = cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    strip = cv2.GaussianBlur(strip, (1, 5), 1.0)  # across the side: against noise, symmetric
    step = np.diff(strip, axis=0)
    step = np.sqrt(across_channels(np.add, step * step)) if step.ndim == 3 else np.abs(step)
    peak = np.zeros(step.shape, bool)
    peak[1:-1] = (step[1:-1] >= step[:-2]) & (step[1:-1] >= step[2:])
    if fence is not None:  # not beyond the next tile, when it lies within reach
        outside = fence(points)[: len(offsets) // 2 + 1][::-1]
        peak[: len(outside)] &= ~np.logical_or.accumulate(outside, axis=0)[::-1]
    most = step.max(axis=0)
    strong = peak & (step >= 0.4 * most)
    faint = peak & (step >= 0.15 * most) & _sharp(step) if outermost else None
    return [_Strip(starts[k], along[k], inward[k], lengths[k], t[k], offsets, *(
        None if a is None else a[:, k * samples:(k + 1) * samples] for a in (step, strong, faint)))
        for k in range(len(starts))]


def _edge_lines(strip: _Strip, outermost: bool, face: bool = False) -> tuple:
    """(point, direction) of the side's edge on its ``strip`` (`_strips`), or None; and with
    ``face``, on an outline, that of the card's face edge inside a thin band of its cut side
    (`_face_edge`), where there is one, read off the same strip (else None).
    """
    start, along, inward, length, t, offsets, step, strong, faint = strip
    samples = step.shape[1]
    columns = np.arange(samples)
    if outermost:
        best = _outermost_line(strong, tilt=0.06 * length)
        best = _cut_edge(faint, best, 0.1 * length)
    else:
        distance = np.abs(offsets[:-1] + 0.5)[:, None]
        best = np.where(strong, distance, np.inf).argmin(axis=0)

    def fitted(best: np.ndarray):
        """The line through the steps ``best`` picks on each normal, or None where too few are strong."""
        strength = step[best, columns]
        keep = (strength > 0.5 * np.median(strength)) & (best > 0) & (best < len(step) - 1)
        if keep.sum() < samples // 4:
            return None
        b, kept = best[keep], columns[keep]
        offset = offsets[b] + 0.5 + _vertex(step, b, kept)
        edge = start + t[kept, None] * along + offset[:, None] * inward
        vx, vy, x, y = cv2.fitLine(edge.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        return np.float32([x, y]), np.float32([vx, vy])

    faced = fitted(_face_edge(step, strong, best, 0.02 * length)) if face and outermost else None
    return fitted(best), faced


def _outermost_line(strong: np.ndarray, tilt: float, near: float = 1.5, share: float = 0.8) -> np.ndarray:
    """On each normal (a column of ``strong``), the step on the outermost straight line of steps.

    Every line across the strip rising or falling at most ``tilt`` rows from
    end to end is scored by the normals with a strong step within ``near``
    rows of it; of the lines scoring at least ``share`` of the best, the
    outermost (lowest rows) is the card's edge: a card's edge runs the whole
    side, while a cloth's checks or a shadow beside it run part of it.
    Normals with no step on that line get row 0 (none).

    >>> strong = np.zeros((9, 30), bool)
    >>> strong[5] = True; strong[1, :12] = True  # a side's edge, and a check's corner outside it
    >>> set(_outermost_line(strong, tilt=2).tolist())
    {5}
    """
    rows, columns = strong.shape
    # Most sides: the outermost steps mostly lie on a line already (a check
    # or a crumb beside the side pushes out a few); that line, fitted to them
    # twice, leaving out the ones off it, is the outermost good line.
    first = np.argmax(strong, axis=0)
    on = np.ones(columns, bool)
    for _ in range(2):
        straight = _straight(first, on)
        on = np.abs(straight - first) <= max(1.0, rows / 64)
        if on.mean() < share:
            break
    else:
        hits = strong & (np.abs(np.arange(rows)[:, None] - straight) <= near)
        return np.where(hits.any(axis=0), np.argmax(hits, axis=0), 0)
    step = max(1, rows // 32)  # wide strips (big photos) are scored on a coarser set of lines
    near += (step - 1) / 2
    near_step = cv2.dilate(strong.astype(np.uint8), np.ones((2 * int(near) + 1, 1), np.uint8)) > 0
    middles = np.arange(0, rows, step, dtype=np.float32)
    rises = np.arange(-(tilt // step), tilt // step + 1, dtype=np.float32) * step
    along = np.linspace(-0.5, 0.5, columns, dtype=np.float32)
    line = np.rint(middles[:, None, None] + rises[None, :, None] * along).astype(np.intp)
    inside = (line >= 0) & (line < rows)
    score = (near_step[np.clip(line, 0, rows - 1), np.arange(columns)] & inside).sum(axis=2)  # (middle, rise)
    middle, rise = np.nonzero(score >= share * score.max())
    # The outermost ridge of good lines; on it, the line that fits best
    # (most steps near it, then most right on it).
    ridge = middle <= middle.min() + near / step
    middle, rise = middle[ridge], rise[ridge]
    on = line[middle, rise]
    exact = (strong[np.clip(on, 0, rows - 1), np.arange(columns)] & (on >= 0) & (on < rows)).sum(axis=1)
    best = np.argmax(score[middle, rise] * (columns + 1) + exact)
    hits = strong & (np.abs(np.arange(rows)[:, None] - on[best]) <= near)
    return np.where(hits.any(axis=0), np.argmax(hits, axis=0), 0)


def _straight(rows: np.ndarray, on: np.ndarray) -> np.ndarray:
    """On every normal, the row of the least-squares line through ``rows`` (one a normal) where ``on``.

    The sums written out: a tenth of `np.polyfit`'s cost on a side's few dozen normals.

    >>> _straight(np.array([3, 4, 9, 6]), np.array([True, True, False, True])).tolist()
    [3.0, 4.0, 5.0, 6.0]
    """
    x = np.arange(len(rows), dtype=np.float64)
    x_on, rows_on = x[on], rows[on]
    # Sums over the count: `np.mean`'s own arithmetic, without its overhead on a few dozen normals.
    mean_x, mean_row = x_on.sum() / len(x_on), rows_on.sum(dtype=np.float64) / len(x_on)
    dx = x_on - mean_x
    slope = dx @ (rows_on - mean_row) / max(dx @ dx, 1e-9)
    return mean_row + slope * (x - mean_x)


def _sharp(step: np.ndarray, near: int = 4) -> np.ndarray:
    """Where a step is sharp: a good share of the change within ``near`` rows
    of it happens there (a card's cut edge, not a shadow's soft rim)."""
    around = cv2.blur(step, (1, 2 * near + 1), borderType=cv2.BORDER_REPLICATE) * (2 * near + 1)
    return step >= 0.15 * around


def _cut_edge(faint: np.ndarray, line: np.ndarray, width: float, share: float = 0.7) -> np.ndarray:
    """``line`` moved out to a line of fainter steps running beside it, and so on outward.

    A printed border the colour of the table leaves only a faint step at
    the card's cut edge (worn, here and there), outside the border's strong
    inner one (and a thin printed rule inside that): a line of faint steps
    parallel to ``line``, at most ``width`` rows out of it, on at least
    ``share`` of its normals and on twice as many as the lines around
    (a wood's grain or a cloth's weave), is taken instead.

    >>> faint = np.zeros((24, 20), bool)
    >>> faint[16] = faint[12] = True; faint[4, :6] = True  # border, cut edge, a crumb
    >>> set(_cut_edge(faint, np.full(20, 16), width=12).tolist())
    {12}
    """
    outs = np.arange(2, int(width) + 1)[:, None]
    normals = np.arange(faint.shape[1])[:, None]
    on = line > 0
    while on.sum() >= 2 and len(outs) > 2:
        straight = _straight(line, on)  # the line, not its jitter
        top = int(min(max(straight.max(), 1), len(faint) - 1))  # rows outside it, but the strip's edge
        moved = straight - outs  # (outs, normals)
        # The rows within 1.5 of a moved line are among the four round it: only those are read.
        rows = np.floor(moved).astype(np.intp)[..., None] + np.arange(-1, 3)  # (outs, normals, 4)
        near = (rows >= 1) & (rows <= top) & (np.abs(rows - moved[..., None]) <= 1.5)
        near &= faint[np.clip(rows, 0, len(faint) - 1), normals]
        shares = near.any(axis=2)[:, on].mean(axis=1)
        found = np.nonzero(shares >= share)[0]
        found = found[shares[found] >= 2 * np.median(shares)] if len(found) else found  # most sides: none
        if not len(found):
            return line
        hits = near[found[0]]  # (normals, 4): the outermost row near the line on each normal
        on = hits.any(axis=1)
        line = np.where(on, rows[found[0], normals[:, 0], np.argmax(hits, axis=1)], 0)
    return line


def _face_edge(step: np.ndarray, strong: np.ndarray, outer: np.ndarray, width: float) -> np.ndarray:
    """On each normal (a column of ``step``), the step that is the card's face edge.

    A stronger step than the ``outer`` one, at most ``width`` further in, is
    the face's edge beyond a band of the card's cut side.

    >>> step = np.float32([[0], [5], [0], [9], [0], [0], [0], [8]])
    >>> _face_edge(step, step > 4, np.array([1]), 3).tolist(), _face_edge(step, step > 4, np.array([3]), 3).tolist()
    ([3], [3])
    """
    rows = np.arange(len(step))[:, None]
    inner = strong & (rows > outer) & (rows <= outer + width)
    face = np.where(inner, step, 0).argmax(axis=0)
    columns = np.arange(step.shape[1])
    return np.where(step[face, columns] > step[outer, columns], face, outer)


def corners_of(lines: Sequence) -> np.ndarray | None:
    """Where each of four side ``lines`` (point, direction) meets the one before it (float32 corners),
    or None where two are parallel.

    >>> corners_of([(np.float32([0, 0]), np.float32([1, 0])), (np.float32([4, 0]), np.float32([0, 1])),
    ...             (np.float32([0, 2]), np.float32([1, 0])), (np.float32([0, 0]), np.float32([0, 1]))]).tolist()
    [[0.0, 0.0], [4.0, 0.0], [4.0, 2.0], [0.0, 2.0]]
    """
    corners = [meet(lines[i - 1], lines[i]) for i in range(4)]
    return None if any(c is None for c in corners) else np.float32(corners)


def meet(first, second):
    (p, u), (q, v) = first, second
    cross = u[0] * v[1] - u[1] * v[0]
    if abs(cross) < 1e-3:
        return None
    s = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / cross
    return p + s * u


def clockwise(quad: np.ndarray) -> np.ndarray:
    """The quad's corners clockwise as seen (image y grows downward)."""
    x, y = quad[:, 0], quad[:, 1]
    turning = np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return quad if turning > 0 else quad[::-1].copy()
