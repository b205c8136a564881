"""Tiles the masks lost, sought by the shape the tiles found give them (`vision.detect`, last step).

Glare can wash a glossy card to the white of a cloth's checks or a desk:
no look's mask then holds its outline, only bits of its figures. A person
still sees the tile, by its size and its straight sides: every tile of a
puzzle is the same square, and the tiles found say how a square looks at
each place in the photo (`vision.detect.shape_misfits`). So, where bits of
card lie that no tile found accounts for, a square of that look is turned
and moved until its sides run along the most colour steps
(`_best_square`), and refined like any tile; it is kept when it fits the
others' shape closely and its sides are card edges.
"""
from __future__ import annotations

import cv2
import numpy as np

from .corners import clockwise, refine

TURNS = np.arange(0, 90, 1.5)  # degrees: a square's turn is known up to a quarter
FRAME_SIDE = 56                # pixels a tile's side is sought at: enough to place it for `refine`
LEAST_BITS = 0.08              # least share of a tile the bits of card must cover to be sought from


def seek_lost(image: np.ndarray, small: np.ndarray, scale: float, mask: np.ndarray, tiles: list[np.ndarray],
              expected, fits) -> list[np.ndarray]:
    """Tiles found where bits of card (``mask`` on ``small``, of ``scale``) lie
    outside ``tiles`` (full-resolution quads, all sound).

    ``expected(tiles, where)`` gives the form (J J^T, as in
    `vision.detect.shape_misfits`) a tile centred at ``where`` should have;
    ``fits(tiles, quad)`` whether ``quad`` is a tile by the others' shape.
    """
    tiles = list(tiles)
    side = float(np.sqrt(np.median([cv2.contourArea(tile) for tile in tiles]))) * scale
    found = np.zeros(mask.shape, np.uint8)
    for tile in tiles:
        cv2.fillConvexPoly(found, np.int32(np.round((tile + 0.5) * scale - 0.5)), 255)
    near = cv2.dilate(found, np.ones((3, 3), np.uint8), iterations=max(1, round(side / 20)))
    bits = cv2.morphologyEx(mask & ~near, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    _, labels, stats, centres = cv2.connectedComponentsWithStats(bits)
    found = cv2.dilate(found, np.ones((5, 5), np.uint8))  # their sides' steps too
    # The largest patches first; a second patch of a tile just added gives a
    # square on it, which `fits` refuses.
    for label in 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA]):
        if stats[label, cv2.CC_STAT_AREA] < LEAST_BITS * side ** 2:
            break
        form = expected(tiles, (centres[label] + 0.5) / scale - 0.5) * scale ** 2
        square = _best_square(small, labels == label, form, found)
        if square is not None:
            tile = refine(image, (square + 0.5) / scale - 0.5)
            if fits(tiles, tile):
                tiles.append(tile)
    return tiles


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
        across, down = (np.abs(cv2.Sobel(turned, cv2.CV_32F, dx, 1 - dx, ksize=3)).max(axis=2) for dx in (1, 0))
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
        # The square must hold most of the bits.
        held_turned = cv2.warpAffine(held, spin, (size, size), flags=cv2.INTER_NEAREST)
        inside = cv2.boxFilter(held_turned.astype(np.float32), -1, (s, s), normalize=False)[inner, inner]
        strength[inside < 0.8 * held_turned.sum()] = 0
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
