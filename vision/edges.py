"""Edge crops: the half-figure printed along each side of a rectified tile.

A tile is cut into four triangles, one per side, meeting at the centre: a
pixel belongs to the side it is nearest. Each side's crop is the half of the
tile next to that side, turned so the seam is at the top; `edge_mask` marks
its triangle. Turning every crop seam-up makes the four sides (and the sides
of every other tile) directly comparable: the figure's half always grows
down from row 0, its left end is the side's first corner clockwise.

A half-figure on real tiles can fill a third of the tile and reach into the
corners, so the crop keeps the whole half tile; the mask, not the crop,
decides which pixels speak for the side.
"""
from __future__ import annotations

import cv2
import numpy as np

SIDES = "NESW"


def edge_crops(tile: np.ndarray) -> list[np.ndarray]:
    """The four edge crops of a square tile, N, E, S, W, each seam at the top.

    Parameters
    ----------
    tile : (S, S[, C]) ndarray
        A rectified tile, N side at the top (`vision.rectify.rectify`).

    Returns
    -------
    crops : list of four (S // 2, S[, C]) ndarrays
        Views into ``tile`` turned so the side's seam is row 0. Turning the
        E side to the top is a quarter turn anticlockwise, so the left end of
        every crop is the side's first corner clockwise (NW for N, NE for E).

    Examples
    --------
    >>> tile = np.arange(16).reshape(4, 4)
    >>> [c[0].tolist() for c in edge_crops(tile)]
    [[0, 1, 2, 3], [3, 7, 11, 15], [15, 14, 13, 12], [12, 8, 4, 0]]
    """
    if tile.ndim < 2 or tile.shape[0] != tile.shape[1]:
        raise ValueError(f"a tile must be square, not {tile.shape[:2]}")
    half = tile.shape[0] // 2
    return [np.rot90(tile, side)[:half] for side in range(4)]


def edge_mask(shape: tuple, depth: float = 1.0) -> np.ndarray:
    """Where an edge crop of ``shape`` shows its own side: the side's triangle.

    Parameters
    ----------
    shape : tuple
        ``(rows, cols, ...)`` of an edge crop; rows = cols // 2.
    depth : float
        Fraction of the triangle's height kept, from the seam down; below it
        the tile's centre (often a decoration shared by all sides) is dropped.

    Returns
    -------
    mask : (rows, cols) bool ndarray

    Examples
    --------
    >>> edge_mask((3, 6)).astype(int)
    array([[1, 1, 1, 1, 1, 1],
           [0, 1, 1, 1, 1, 0],
           [0, 0, 1, 1, 0, 0]])
    """
    rows, cols = shape[:2]
    y = np.arange(rows)[:, None] + 0.5
    x = np.arange(cols)[None, :] + 0.5
    nearest_side = np.minimum(x, cols - x)
    return (y <= nearest_side) & (y <= depth * cols / 2)


def found_inside(crop: np.ndarray, inside: float) -> np.ndarray:
    """An edge crop as it shows on its tile found ``inside`` of a side within its card all round.

    A worn card is often found at its printed rule, a few hundredths of a
    side inside its cut edge: the rectified tile then shows the print
    magnified about its centre, each figure cut short at its seam and
    wider. The crop's tile centre is the middle of its bottom row.

    Parameters
    ----------
    crop : (S // 2, S[, C]) ndarray
        An edge crop, seam at the top (`edge_crops`).
    inside : float
        How far inside its card the tile was found on every side, as a
        fraction of the side.

    Returns
    -------
    crop : ndarray of the same shape

    Examples
    --------
    >>> crop = np.zeros((4, 8), np.uint8); crop[1] = 9   # a rule one row below the seam
    >>> found_inside(crop, 0.125)[0].tolist()            # a quarter narrower tile: at the seam now
    [9, 9, 9, 9, 9, 9, 9, 9]
    """
    rows, cols = crop.shape[:2]
    zoom = 1 / (1 - 2 * inside)
    about = np.float32([cols / 2, rows])  # the tile's centre stays where it is
    m = np.float32([[zoom, 0, about[0] * (1 - zoom)], [0, zoom, about[1] * (1 - zoom)]])
    return cv2.warpAffine(crop, m, (cols, rows), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
