"""Tile art: a square card with a half-figure on each edge.

Each half lies with its cut line on the tile edge and reaches inward, so two
tiles whose edges fit show one whole figure across their seam. The rule
that makes this hold for every side and turn: turn the tile so the side is
at the bottom, lay a top half there upright and a bottom half upside down,
and turn back. The two tiles of a seam are then one rigid picture cut in two.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

import cv2
import numpy as np

from .art import bgr, decor_image, figure_image
from .sets import ArtSet, Card, Figure


def draw_tile(edges: Sequence[int], art: ArtSet, size: int = 600,
              seed: int = 0) -> np.ndarray:
    """Draw a tile whose sides ``[N, E, S, W]`` show the halves ``edges``.

    Code ``+k`` is the top half of ``art.figures[k-1]``, ``-k`` its bottom half.

    Parameters
    ----------
    edges : four signed codes, clockwise from the top.
    art : the art set (figures and card style).
    size : side of the square tile image in pixels.
    seed : varies the background texture and wear from tile to tile.

    Returns
    -------
    BGR uint8 image, ``size x size``.

    Examples
    --------
    >>> from vision.render.sets import ART_SETS
    >>> draw_tile([1, -2, 3, -4], ART_SETS["witches"], size=200).shape
    (200, 200, 3)
    """
    rng = np.random.default_rng(seed)
    card = art.card
    tile = background(card, size, rng)
    depth = round(card.depth * size)
    for side, code in enumerate(edges):
        figure = art.figures[abs(code) - 1]
        (y, x), colour, clear = half_layer(figure, code > 0, side, size, depth, card.span, card.offset,
                                             card.lean)
        _over(tile[y:y + colour.shape[0], x:x + colour.shape[1]], colour, clear)
    if card.decor:
        (y, x), colour, clear = _layer(*decor_image(card.decor, size))
        _over(tile[y:y + colour.shape[0], x:x + colour.shape[1]], colour, clear)
    if card.border:
        _frame(tile, bgr(card.border), size)
    if card.worn:
        tile = _wear(tile, rng)
    _card_edge(tile)
    return np.clip(tile, 0, 255, out=tile).astype(np.uint8)


@lru_cache(maxsize=512)
def half_layer(figure: Figure, top: bool, side: int, size: int, depth: int,
               span: float, offset: float = 0.0, lean: float = 0.0) -> tuple[tuple, np.ndarray, np.ndarray]:
    """The top or bottom half of ``figure`` as it lies on ``side`` of a tile.

    Returns the top-left corner in the tile of the part where it is drawn,
    its premultiplied colour there and ``1 - alpha`` (cached and shared).
    """
    colour, alpha = figure_image(figure.kind, figure.palette, size, depth, span, offset, lean)
    rows = slice(0, depth) if top else slice(depth, 2 * depth)
    colour, alpha = colour[rows], alpha[rows]
    if not top:
        colour, alpha = colour[::-1, ::-1], alpha[::-1, ::-1]
    # the half lies at the bottom of np.rot90(tile, m); turning back by m puts it on `side`
    m = (side - 2) % 4
    corner = {0: (size - depth, 0), 1: (0, 0), 2: (0, 0), 3: (0, size - depth)}[m]
    return _layer(np.rot90(colour, -m), np.rot90(alpha, -m), corner)


def _layer(colour: np.ndarray, alpha: np.ndarray, corner: tuple = (0, 0)) -> tuple:
    """Crop a premultiplied layer at ``corner`` to where it is drawn: (origin, colour, 1 - alpha)."""
    ys, xs = np.nonzero(alpha > 0)
    y0, y1, x0, x1 = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    origin = (corner[0] + int(y0), corner[1] + int(x0))
    return (origin, np.ascontiguousarray(colour[y0:y1, x0:x1]),
            np.ascontiguousarray(1 - alpha[y0:y1, x0:x1, None]))


def _over(under: np.ndarray, colour: np.ndarray, clear: np.ndarray) -> None:
    """Premultiplied ``colour`` over ``under``, in place."""
    under *= clear
    under += colour


def background(card: Card, size: int, rng: np.random.Generator) -> np.ndarray:
    """The card's printed background, float32 BGR (a new array)."""
    kind, a, b = card.background
    if kind in ("plain", "gradient"):
        return _smooth_background(card.background, size).copy()
    # mottled: soft blotches, different on every tile
    t = cv2.resize(rng.random((6, 6)).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    tile = _blend(a, b, np.clip(t, 0, 1))
    if kind == "meadow":
        _strew(tile, rng)
    return tile


def _strew(tile: np.ndarray, rng: np.random.Generator) -> None:
    """Scatter leaves, blossoms and specks over a background: busy, and no edge's figure."""
    size = tile.shape[0]
    for _ in range(rng.integers(40, 70)):
        x, y = (int(v) for v in rng.uniform(0, size, 2))
        r = max(2, int(size * rng.uniform(0.01, 0.03)))
        kind = rng.random()
        if kind < 0.5:  # a leaf
            green = (rng.uniform(20, 60), rng.uniform(90, 170), rng.uniform(40, 90))
            cv2.ellipse(tile, (x, y), (r, max(1, r // 3)), rng.uniform(0, 180), 0, 360, green, -1,
                        cv2.LINE_AA)
        elif kind < 0.8:  # a blossom: petals round a yellow heart
            petal = [(250, 250, 250), (200, 160, 250), (120, 200, 250)][rng.integers(3)]
            for k in range(5):
                a = 2 * np.pi * k / 5
                cv2.circle(tile, (int(x + r * np.cos(a)), int(y + r * np.sin(a))), max(1, r // 2), petal, -1,
                           cv2.LINE_AA)
            cv2.circle(tile, (x, y), max(1, r // 3), (40, 200, 240), -1, cv2.LINE_AA)
        else:  # a speck of light
            cv2.circle(tile, (x, y), max(1, r // 3), (150, 250, 250), -1, cv2.LINE_AA)


@lru_cache(maxsize=16)
def _smooth_background(background: tuple, size: int) -> np.ndarray:
    kind, a, b = background
    x = np.linspace(0, 1, size, dtype=np.float32)
    t = x[:, None] * 0.7 + x[None, :] * 0.3 if kind == "gradient" else np.zeros((size, size), np.float32)
    return _blend(a, b, t)


def _blend(a: str, b: str, t: np.ndarray) -> np.ndarray:
    """Colour ``a`` where ``t`` is 0 to ``b`` where it is 1, float32 BGR."""
    a, b = np.array(bgr(a), np.float32), np.array(bgr(b), np.float32)
    return cv2.transform(t.astype(np.float32)[..., None], np.c_[b - a, a])  # per channel: (b-a) t + a


def _frame(tile: np.ndarray, colour: tuple, size: int) -> None:
    w = max(2, round(0.03 * size))
    thin = max(1, round(0.006 * size))
    cv2.rectangle(tile, (w // 2, w // 2), (size - 1 - w // 2, size - 1 - w // 2), colour, w)
    cv2.rectangle(tile, (w + 2 * thin, w + 2 * thin), (size - 1 - w - 2 * thin,) * 2,
                  colour, thin, cv2.LINE_AA)


def _wear(tile: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Fade and yellow the print, add paper grain, scratches and rubbed edges."""
    size = tile.shape[0]
    grey = tile.mean(axis=2, keepdims=True)
    sepia = grey * np.array([0.78, 0.93, 1.08], np.float32)
    tile = 0.55 * tile + 0.45 * sepia + np.array([-8, 4, 14], np.float32)
    grain = cv2.resize(rng.normal(0, 1, (size // 3, size // 3)).astype(np.float32), (size, size))
    tile += 9 * grain[..., None]
    scratches = np.zeros_like(tile)
    for _ in range(rng.integers(4, 9)):
        p = rng.uniform(0, size, 2)
        q = p + rng.normal(0, size / 6, 2)
        cv2.line(scratches, tuple(int(v) for v in p), tuple(int(v) for v in q), (1, 1, 1), 1, cv2.LINE_AA)
    tile += (230 - tile) * (0.5 * scratches)
    i = np.arange(size)
    e = np.minimum(i, size - 1 - i)
    d = np.minimum(e[:, None], e[None, :]).astype(np.float32)  # distance to the nearest edge
    # rubbed patches along the edges show the grey-brown board under the print
    patches = np.clip(cv2.resize(rng.uniform(-1, 2, (12, 12)).astype(np.float32), (size, size),
                                 interpolation=cv2.INTER_CUBIC), 0, 1)
    rub = np.exp(-d / (0.01 * size)) * patches
    tile += (np.array([170, 190, 205], np.float32) - tile) * (0.6 * rub)[..., None]
    return tile


def _card_edge(tile: np.ndarray) -> None:
    """Darken the cut rim a little, as the edge of real card shows."""
    w = max(1, tile.shape[0] // 150)
    for view in (tile[:w], tile[-w:], tile[:, :w], tile[:, -w:]):
        view *= 0.75
