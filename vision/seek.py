"""Tiles the masks lost, sought by the shape the tiles found give them (`vision.detect`, last step).

Glare can wash a glossy card to the white of a cloth's checks or a desk:
no look's mask then holds its outline, only bits of its figures. A person
still sees the tile, by its size and its straight sides: every tile of a
puzzle is the same square, and the tiles found say how a square looks at
each place in the photo (`vision.detect.shape_misfits`). So, where bits of
card lie that no tile found accounts for, a square of that look is turned
and moved until its sides run along the most colour steps
(`_best_square`), and refined like any tile, fenced off its neighbours;
it is kept when it fits the others' shape closely (`_placed`).
"""
from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from .corners import clockwise, fence, nearest_quad, refine, side_steps
from .images import across_channels

TURNS = np.arange(0, 90, 1.5)  # degrees: a square's turn is known up to a quarter
FRAME_SIDE = 56                # pixels a tile's side is sought at: enough to place it for `refine`
LEAST_BITS = 0.08              # least share of a tile the bits of card must cover to be sought from


def seek_lost(image: np.ndarray, small: np.ndarray, scale: float, mask: np.ndarray, tiles: list[np.ndarray],
              expected: Callable, misfit: Callable, most: float) -> list[np.ndarray]:
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
        `vision.detect.shape_misfits`) a tile centred at ``where`` should
        have; ``misfit(tiles, quad)``: how far ``quad`` is from it, infinite
        where it lies on a tile. A tile sought is kept up to ``most``.

    Examples
    --------
    >>> from vision.detect import form_at, misfit_among
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
    sound, tiles, squares = len(tiles), list(tiles), []
    side = float(np.sqrt(np.median([cv2.contourArea(tile) for tile in tiles]))) * scale
    for _ in range(3):  # a patch of bits of two lost tiles side by side is sought again when one is found
        found = np.zeros(mask.shape, np.uint8)
        for tile in tiles:
            cv2.fillConvexPoly(found, np.int32(np.round((tile + 0.5) * scale - 0.5)), 255)
        near = cv2.dilate(found, np.ones((3, 3), np.uint8), iterations=max(1, round(side / 20)))
        bits = cv2.morphologyEx(mask & ~near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # Bits a glared card's figures left lie apart, within a part of its side.
        reach = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(side / 8) + 1,) * 2)
        _, patches = cv2.connectedComponents(cv2.dilate(bits, reach))
        patches[bits == 0] = 0
        areas = np.bincount(patches.ravel())
        found = cv2.dilate(found, np.ones((5, 5), np.uint8))  # their sides' steps too
        added = 0
        # The largest patches first; a second patch of a tile just added gives
        # a square on it, which ``misfit`` refuses.
        for label in np.argsort(-areas[1:]) + 1:
            if areas[label] < LEAST_BITS * side ** 2:
                break
            ys, xs = np.nonzero(patches == label)
            form = expected(tiles, (np.float32([xs.mean(), ys.mean()]) + 0.5) / scale - 0.5) * scale ** 2
            # A view told by a few tiles, far from them, may give no tile's size (as `problem` allows).
            if not 0.4 < np.sqrt(max(np.linalg.det(form), 0)) / side ** 2 < 2.5:
                continue
            square = _best_square(small, patches == label, form, found)
            if square is None:
                continue
            square = (square + 0.5) / scale - 0.5
            tile = _placed(image, scale, square, tiles, misfit, most)
            if tile is not None:
                tiles.append(tile)
                squares.append(square)
                added += 1
        if not added:
            break
    # Placed again among all: a lost neighbour found later fences its side of the gap.
    for i, square in enumerate(squares, sound):
        tiles[i] = _placed(image, scale, square, tiles[:i] + tiles[i + 1:], misfit, most, tiles[i])
    return tiles


def _placed(image: np.ndarray, scale: float, square: np.ndarray, tiles: list[np.ndarray], misfit: Callable, most: float,
            kept: np.ndarray | None = None) -> np.ndarray | None:
    """``square`` refined (`refine`) to the card's edges, fenced off ``tiles``; ``kept`` unless it fits.

    A side may run on to a shadow's soft edge: sought again nearer, of the
    refinements that fit (``misfit`` up to ``most``) the one along the
    sharpest steps is kept.
    """
    shape = np.int32(np.ceil(np.float32(image.shape[:2]) * scale))
    nearest = nearest_quad([(tile + 0.5) * scale - 0.5 for tile in tiles + [square]], shape)
    x, y = np.clip(np.int32((square.mean(axis=0) + 0.5) * scale - 0.5), 0, shape[::-1] - 1)
    apart = fence(nearest, scale, nearest[y, x])  # no edge sought on a neighbour's side of the gap
    fitting = [tile for tile in (refine(image, square, reach=reach, fence=apart) for reach in (0.06, 0.03, 0.015))
               if misfit(tiles, tile) <= most]
    return max(fitting, key=lambda tile: sum(sorted(side_steps(image, tile))[1:])) if fitting else kept


def _best_square(small: np.ndarray, bits: np.ndarray, form: np.ndarray, found: np.ndarray) -> np.ndarray | None:
    """The quad of ``form`` (a tile's look here) over most of ``bits`` whose
    sides run along the most colour steps that end at its corners, on
    ``small``; None if none does. Steps on ``found`` (tiles found) do not count.

    The neighbourhood is warped so that the form is a square, then turned
    step by step: the square's sides lie along rows and columns, and how
    much step each side runs along is a box sum of the gradient across it,
    less the same just past its corners (a cloth's checks line up in long
    straight lines; a card's side ends at its corners). Of its four sides
    the three strongest count: glare may wash one out.
    """
    values, vectors = np.linalg.eigh(form)
    if values.min() <= 0:
        return None
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
    best, score = None, 0.0
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
        # tiles side by side).
        held_turned = cv2.warpAffine(held, spin, (size, size), flags=cv2.INTER_NEAREST)
        inside = cv2.boxFilter(held_turned.astype(np.float32), -1, (s, s), normalize=False)[inner, inner]
        strength[inside < min(0.8 * held_turned.sum(), 0.6 * s * s)] = 0
        y, x = np.unravel_index(int(np.argmax(strength)), strength.shape)
        if strength[y, x] > score:
            score = float(strength[y, x])
            corners = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * s / 2 + [x + reach, y + reach]
            back = cv2.invertAffineTransform(spin)
            corners = corners @ back[:, :2].T + back[:, 2]
            best = corners @ to_photo[:, :2].T + to_photo[:, 2]
    return None if best is None else clockwise(np.float32(best))


def _shifted(values: np.ndarray, across: int, along: int, axis: int) -> np.ndarray:
    """``values`` at each pixel moved by ``across`` a side lying along ``axis``
    (1: a row) and ``along`` it: out[y, x] = values[y + across, x + along] for rows."""
    dy, dx = (across, along) if axis else (along, across)
    return np.roll(values, (-dy, -dx), axis=(0, 1))
