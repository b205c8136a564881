"""The table and where the tiles lie on it.

Layouts place tiles in *table units* (a tile's side is 1) and return each
tile's corners NW, NE, SE, SW of its art frame. Tables are textures drawn in
the same units (wood planks, cloth, dark stone, a white desk with a keyboard
beside the tiles) and warped into the photo with the camera's homography,
so their grain shows the same perspective as the tiles.
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

LAYOUTS = ("scattered", "loose", "touching", "scan")
TABLES = ("wood", "cloth", "dark", "white")
_UNIT = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])


def square(centre, degrees: float) -> np.ndarray:
    """Corners NW, NE, SE, SW of a unit tile at ``centre`` turned ``degrees`` clockwise.

    >>> square((0, 0), 90).round(2).tolist()
    [[0.5, -0.5], [0.5, 0.5], [-0.5, 0.5], [-0.5, -0.5]]
    """
    a = np.radians(degrees)
    r = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return np.asarray(centre, float) + _UNIT @ r.T


def lay_out(layout: str, rows: int, cols: int, jitter: float,
            rng: np.random.Generator) -> np.ndarray:
    """Tile corners in table units, shape ``(rows*cols, 4, 2)``.

    ``scattered``: anywhere, any angle, no two overlapping; ``loose``: a grid
    with gaps, each tile a little astray; ``touching``: a grid with no gaps.
    Grid tiles lie in list order (reading order) at random quarter turns.

    Examples
    --------
    >>> quads = lay_out("touching", 2, 3, 0.0, np.random.default_rng(0))
    >>> quads.shape, float(np.ptp(quads[..., 0]))
    ((6, 4, 2), 3.0)
    """
    n = rows * cols
    turns = 90.0 * rng.integers(0, 4, n)

    def grid(gap: float, wobble: np.ndarray) -> np.ndarray:  # wobble: dx, dy, degrees per tile
        at = np.array([(i % cols, i // cols) for i in range(n)]) * (1 + gap) + wobble[:, :2]
        return np.array([square(at[i], turns[i] + wobble[i, 2]) for i in range(n)])

    still = np.zeros((n, 3))
    if layout == "touching":
        return grid(0.0, still)
    if layout == "loose":
        gap = rng.uniform(0.15, 0.4)
        for _ in range(100):
            quads = grid(gap, rng.uniform(-1, 1, (n, 3)) * [gap * 0.25, gap * 0.25, 60 * jitter])
            if not _overlapping(quads):
                return quads
        return grid(gap, still)
    if layout == "scattered":
        width = np.sqrt(n * 2.6 * 4 / 3)  # about as close as people leave loose tiles
        while True:
            centres: list = []
            for _ in range(2000):
                c = rng.uniform(0, 1, 2) * [width, width * 0.75]
                if all(np.hypot(*(c - d)) > 1.5 for d in centres):
                    centres.append(c)
                    if len(centres) == n:
                        return np.array([square(c, rng.uniform(0, 360)) for c in centres])
            width *= 1.1
    raise ValueError(f"unknown layout {layout!r} (use {', '.join(LAYOUTS)})")


def _overlapping(quads: np.ndarray) -> bool:
    polys = [q.astype(np.float32) for q in quads]
    return any(cv2.intersectConvexConvex(a, b)[0] > 1e-6
               for i, a in enumerate(polys) for b in polys[i + 1:])


def keyboard_at(quads: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Where a keyboard lies beside the tiles: its corners, table units.

    >>> quads = lay_out("touching", 3, 3, 0.0, np.random.default_rng(0))
    >>> board = keyboard_at(quads, np.random.default_rng(1))
    >>> bool(board[:, 1].max() < -0.5 or board[:, 1].min() > 2.5)  # clear of the tiles
    True
    >>> small = lay_out("touching", 2, 2, 0.0, np.random.default_rng(0))  # narrower than the keyboard
    >>> board = keyboard_at(small, np.random.default_rng(1))
    >>> bool(board[:, 0].min() <= small[..., 0].min() and board[:, 0].max() >= small[..., 0].max())
    True
    """
    lo, hi = quads.reshape(-1, 2).min(axis=0), quads.reshape(-1, 2).max(axis=0)
    w, h = 4.6, 1.6
    # within a tile of the tiles' ends; wider than a few tiles (a 2x2) it overhangs both
    x = rng.uniform(*sorted((lo[0] - 1, hi[0] - w + 1)))
    y = lo[1] - 0.5 - h if rng.random() < 0.5 else hi[1] + 0.5
    return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]])


def table_texture(kind: str, shape: tuple, unit: float, rng: np.random.Generator) -> np.ndarray:
    """A table surface, BGR uint8 of ``shape`` (rows, cols); ``unit``: pixels per tile side.

    >>> table_texture("wood", (90, 120), 30.0, np.random.default_rng(0)).shape
    (90, 120, 3)
    """
    h, w = shape
    y = (np.arange(h, dtype=np.float32) / unit)[:, None]
    x = (np.arange(w, dtype=np.float32) / unit)[None, :]
    if kind == "wood":
        plank = np.floor(y / 2.3)
        streaks = _blotch(shape, (3, int(40 * h / unit)), rng)  # long grain along the planks
        figure = np.sin(2 * np.pi * (1.6 * y + 1.2 * _blotch(shape, (5, 8), rng) + 0.3 * x * np.sin(plank)))
        tone = 0.86 + 0.07 * streaks + 0.05 * figure + 0.06 * np.sin(plank * 12.9898)
        seam = np.abs(y / 2.3 - np.round(y / 2.3)) * 2.3 * unit < 1.2
        tone = np.where(seam, tone * 0.55, tone)
        base = np.array(rng.choice([(70, 120, 175), (45, 75, 120), (105, 155, 200)]), np.float32)
        return _u8(tone[..., None] * base)
    if kind == "cloth":
        weave = 0.94 + 0.06 * np.sin(2 * np.pi * 40 * x) * np.sin(2 * np.pi * 40 * y)
        folds = 1 + 0.07 * _blotch(shape, (4, 4), rng)
        if rng.random() < 0.5:  # gingham check
            check = ((np.floor(x / 0.45) % 2) + (np.floor(y / 0.45) % 2)) / 2
            ink = np.array(rng.choice([(170, 60, 40), (40, 40, 180), (60, 130, 60)]), np.float32)
            colour = 245 + (ink - 245) * check[..., None]
        else:  # plain linen
            colour = np.array(rng.choice([(95, 130, 60), (110, 95, 160), (170, 190, 205)]), np.float32)
        return _u8(colour * (weave * folds)[..., None])
    if kind == "dark":
        tone = 36 + 10 * _blotch(shape, (10, 10), rng) + 6 * rng.random(shape, np.float32)
        return _u8(tone[..., None] * np.array([1.0, 1.0, 1.08], np.float32))
    if kind == "white":
        tone = 236 + 6 * _blotch(shape, (4, 4), rng)
        return _u8(tone[..., None] * np.array([0.99, 1.0, 1.0], np.float32))
    raise ValueError(f"unknown table {kind!r} (use {', '.join(TABLES)})")


def draw_keyboard(texture: np.ndarray, corners: np.ndarray) -> None:
    """Draw a dark keyboard with rows of keys into ``corners`` (texture pixels).

    >>> desk = np.full((100, 200, 3), 235, np.uint8)
    >>> draw_keyboard(desk, np.array([[10, 10], [190, 10], [190, 70], [10, 70]], float))
    >>> int(desk[40, 100].max()) < 120
    True
    """
    (x0, y0), (x1, y1) = corners[0], corners[2]
    pts = np.round(corners * 16).astype(np.int32)
    cv2.fillPoly(texture, [pts], (48, 46, 44), cv2.LINE_AA, 4)
    w, h = x1 - x0, y1 - y0
    key = w / 16
    for r in range(5):
        for c in range(15):
            kx, ky = x0 + 0.04 * w + c * key, y0 + 0.08 * h + r * key * 1.05
            if ky + key * 0.85 > y1:
                break
            cv2.rectangle(texture, (int(kx), int(ky)), (int(kx + key * 0.85), int(ky + key * 0.85)),
                          (78, 76, 74), -1, cv2.LINE_AA)
            cv2.rectangle(texture, (int(kx + 2), int(ky + 2)),
                          (int(kx + key * 0.85 - 2), int(ky + key * 0.6)), (92, 90, 88), -1, cv2.LINE_AA)


def _blotch(shape: tuple, cells: tuple, rng: np.random.Generator) -> np.ndarray:
    """Smooth random variation in -1..1 with about ``cells`` bumps across."""
    small = rng.uniform(-1, 1, (cells[1] + 1, cells[0] + 1)).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def _u8(a: np.ndarray) -> np.ndarray:
    return np.clip(a, 0, 255).astype(np.uint8)


@lru_cache(maxsize=8)
def card_alpha(size: int) -> np.ndarray:
    """Alpha of a card with slightly rounded corners, uint8 ``size x size``.

    >>> a = card_alpha(100)
    >>> int(a[0, 0]), int(a[50, 0]), int(a[50, 50])
    (0, 255, 255)
    """
    r = max(2, round(0.03 * size))
    a = np.zeros((size, size), np.uint8)
    cv2.rectangle(a, (r, 0), (size - 1 - r, size - 1), 255, -1)
    cv2.rectangle(a, (0, r), (size - 1, size - 1 - r), 255, -1)
    for cx in (r, size - 1 - r):
        for cy in (r, size - 1 - r):
            cv2.circle(a, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return a


def paste(image: np.ndarray, tile: np.ndarray, quad: np.ndarray,
          alpha: np.ndarray | None = None, edge: tuple | None = None) -> None:
    """Warp ``tile`` (square BGR) onto ``quad`` (NW, NE, SE, SW pixels) of ``image``.

    ``alpha`` shapes the card (rounded corners); ``edge`` is a thickness
    vector in pixels: the card's cut side (grey-brown board) shows there.

    >>> image = np.zeros((100, 100, 3), np.uint8)
    >>> tile = np.full((50, 50, 3), 200, np.uint8)
    >>> paste(image, tile, np.array([[20, 20], [80, 20], [80, 80], [20, 80]], float))
    >>> int(image[50, 50, 0]), int(image[10, 10, 0])
    (200, 0)
    """
    s = tile.shape[0]
    side = np.linalg.norm(quad[1] - quad[0])
    if side < 0.7 * s:  # shrink first: a warp alone would alias
        k = max(8, int(side * 1.2))
        tile = cv2.resize(tile, (k, k), interpolation=cv2.INTER_AREA)
        alpha = None if alpha is None else cv2.resize(alpha, (k, k), interpolation=cv2.INTER_AREA)
        s = k
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int) - 3, 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 3, [w, h])
    if edge is not None:
        body = np.vstack([quad, quad + edge])
        hull = cv2.convexHull(np.round(body * 16).astype(np.int32))
        cv2.fillPoly(image, [hull], (120, 138, 155), cv2.LINE_AA, 4)  # grey-brown board
    src = np.float32([[-0.5, -0.5], [s - 0.5, -0.5], [s - 0.5, s - 0.5], [-0.5, s - 0.5]])
    m = cv2.getPerspectiveTransform(src, np.float32(quad - [x0, y0]))
    card = cv2.cvtColor(tile, cv2.COLOR_BGR2BGRA)
    if alpha is not None:
        card[..., 3] = alpha
    warped = cv2.warpPerspective(card, m, (int(x1 - x0), int(y1 - y0)), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = warped[..., 3].astype(np.float32) / 255
    region = image[y0:y1, x0:x1]
    region[:] = cv2.blendLinear(np.ascontiguousarray(warped[..., :3]), region, a, 1 - a)
