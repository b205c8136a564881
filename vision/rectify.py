"""Warp a tile, found as a quadrilateral in the photo, to an upright square.

Readers cut tiles a little inside their corners (`inset`): the card's rim
shows no figure.
"""
from __future__ import annotations

import cv2
import numpy as np

INSET = 0.03  # of the tile's side, trimmed all round before reading


def rectify(image: np.ndarray, corners: np.ndarray, size: int = 256) -> np.ndarray:
    """The tile inside ``corners`` as a ``size`` x ``size`` square, N side at the top.

    Parameters
    ----------
    image : ndarray
        The photo (any number of channels).
    corners : (4, 2) array
        The tile's NW, NE, SE, SW corners in ``image`` pixels
        (`vision.detect.find_tiles` gives them in this order).
    size : int
        Side of the square, in pixels.

    Returns
    -------
    tile : (size, size[, C]) ndarray
        Same dtype as ``image``; NW corner at the top left.

    Examples
    --------
    >>> photo = np.zeros((100, 100), np.uint8)
    >>> photo[20:60, 30:70] = 255
    >>> square = [[29.5, 19.5], [69.5, 19.5], [69.5, 59.5], [29.5, 59.5]]  # pixel 30's left edge is 29.5
    >>> tile = rectify(photo, square, size=40)
    >>> tile.shape, int(tile.min())
    ((40, 40), 255)
    """
    corners = np.float32(corners)
    shrink = np.sqrt(cv2.contourArea(corners)) / size
    # Work on the tile's own box: a 48 MP photo is never copied or blurred whole.
    margin = 2 + int(2 * shrink)
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + margin + 1
    box = image[y0:y1, x0:x1]
    if shrink > 2:  # warps have no INTER_AREA: smooth first so a big tile does not alias
        box = cv2.GaussianBlur(box, (0, 0), 0.4 * shrink)
    # Corners lie on pixel edges, half a pixel from the centres OpenCV samples at: so every
    # side's first row is read half a row in, not the N and W at the line and the E and S a row in.
    target = np.float32([[0, 0], [size, 0], [size, size], [0, size]]) - 0.5
    warp = cv2.getPerspectiveTransform(corners - np.float32([x0, y0]), target)
    return cv2.warpPerspective(box, warp, (size, size), flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def inset(corners: np.ndarray, fraction: float = INSET) -> np.ndarray:
    """A tile's corners drawn in towards its centre by ``fraction`` of its side.

    The card's rim shows no figure, and it is where a corner found a little
    off lets the table into the edge crops; trimming it halved the misreads of
    tiles found 2% off on rendered photos.

    >>> inset(np.float32([[0, 0], [100, 0], [100, 100], [0, 100]]))[0].tolist()
    [3.0, 3.0]
    """
    corners = np.asarray(corners, np.float32)
    centre = corners.mean(axis=0)
    return centre + (corners - centre) * (1 - 2 * fraction)
