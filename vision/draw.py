"""Draw on the photo: tile numbers, and the answer (target cell and turn).

Marks are sized from the tiles themselves, so a number or a turn arrow fills
a good part of its tile and stays readable when a phone shrinks a 12 MP photo
to its screen. Corners are always in pixels of the input image.

>>> import numpy as np
>>> photo = np.full((300, 400, 3), 90, np.uint8)
>>> quad = np.array([[50, 50], [250, 50], [250, 250], [50, 250]], np.float32)
>>> number_tiles(photo, [quad]).shape
(300, 400, 3)
"""
from __future__ import annotations

import cv2
import numpy as np

# BGR colours chosen to read on any table and on any art: bold fills, white ink.
OUTLINE = (0, 200, 255)
BADGE = (40, 40, 40)
INK = (255, 255, 255)
FONT = cv2.FONT_HERSHEY_DUPLEX


def colour(image: np.ndarray) -> np.ndarray:
    """A BGR copy of ``image`` to draw on (grey photos get three channels)."""
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return image.copy()


def tile_side(corners: np.ndarray) -> float:
    """Mean side length of a tile quadrilateral, in pixels."""
    quad = np.asarray(corners, np.float64)
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))


def stroke(image: np.ndarray) -> int:
    """A line width that shows at phone size: about 1/400 of the long side."""
    return max(2, round(max(image.shape[:2]) / 400))


def text(image: np.ndarray, words: str, centre, height: float,
         ink=INK, badge=BADGE) -> None:
    """Write ``words`` centred on ``centre``, ``height`` pixels tall, on a badge."""
    scale = height / cv2.getTextSize("0", FONT, 1.0, 1)[0][1]
    thick = max(1, round(height / 9))
    (w, h), base = cv2.getTextSize(words, FONT, scale, thick)
    x, y = int(centre[0] - w / 2), int(centre[1] + h / 2)
    pad = max(2, round(height * 0.3))
    if badge is not None:
        cv2.rectangle(image, (x - pad, y - h - pad), (x + w + pad, y + base // 2 + pad),
                      badge, cv2.FILLED, cv2.LINE_AA)
    cv2.putText(image, words, (x, y), FONT, scale, ink, thick, cv2.LINE_AA)


def outline(image: np.ndarray, corners: np.ndarray, ink=OUTLINE, width: int | None = None) -> None:
    """Draw a tile's outline, its north side (the reading top) drawn twice as thick."""
    width = width or stroke(image)
    quad = np.round(np.asarray(corners, np.float64)).astype(np.int32)
    cv2.polylines(image, [quad], True, ink, width, cv2.LINE_AA)
    cv2.line(image, tuple(quad[0]), tuple(quad[1]), ink, 2 * width, cv2.LINE_AA)


def number_tiles(image: np.ndarray, corners_list: list) -> np.ndarray:
    """The photo with every tile outlined and numbered 1, 2, ... in list order.

    Parameters
    ----------
    image : ndarray
        The photo (BGR, BGRA or grey), as `vision.images.read_image` gives it.
    corners_list : list of (4, 2) arrays
        Each tile's NW, NE, SE, SW corners in ``image`` pixels; the thick side
        of each outline is its north side, the reading top.

    Returns
    -------
    ndarray
        A BGR copy of ``image`` the same size, with the marks drawn.

    Examples
    --------
    >>> photo = np.zeros((200, 200), np.uint8)
    >>> quad = np.array([[20, 20], [180, 20], [180, 180], [20, 180]])
    >>> number_tiles(photo, [quad]).shape
    (200, 200, 3)
    """
    out = colour(image)
    for number, corners in enumerate(corners_list, 1):
        outline(out, corners)
        text(out, str(number), np.mean(corners, axis=0), 0.3 * tile_side(corners))
    return out
