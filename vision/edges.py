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
