"""The camera: where it looks from, and what its lens, light and sensor do.

`view` is the homography from the table to the photo: the camera turned
away from straight down by ``tilt`` degrees (a pure rotation of a pinhole
camera maps a plane by ``K R K^-1``), then zoomed and centred so the tiles
fill the frame. Light comes as low-resolution maps, cheap to upscale: the
tiles' drop shadows on the table (`shadow_map`), uneven light, vignetting,
a hand's shadow and colour cast over everything (`gain_map`), glare on
glossy card (`glare_map`). `develop` applies them, then lens blur and
sensor noise. Everything is vectorised OpenCV on uint8, so a 12-megapixel
photo takes a fraction of a second.
"""
from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np


class Level(NamedTuple):
    """How hard a difficulty makes the photo (ranges are drawn from uniformly)."""

    tilt: tuple  # degrees the camera leans from straight down
    blur: tuple  # Gaussian sigma, in thousandths of the image width
    light: float  # strength of uneven light across the frame
    vignette: float  # darkening at the corners
    shadow: float  # depth of the tiles' drop shadows
    cast: float  # colour cast (per-channel gain spread)
    noise: float  # sensor noise sigma, grey levels
    glare: float  # strength of reflections on glossy tiles
    quality: int  # JPEG quality
    jitter: float  # how far grid tiles stray (fraction of a side)
    skew: float  # degrees a grid may lie turned on the table (or the camera on its axis)
    blocker: bool  # a large soft shadow (a hand, the phone) across the scene


LEVELS = {
    "easy": Level((0, 8), (0.0, 0.15), 0.1, 0.12, 0.25, 0.03, 2.0, 0.25, 92, 0.02, 3, False),
    "normal": Level((5, 22), (0.1, 0.35), 0.25, 0.3, 0.4, 0.07, 4.0, 0.55, 85, 0.05, 12, False),
    "hard": Level((18, 35), (0.25, 0.6), 0.4, 0.45, 0.55, 0.12, 7.0, 0.95, 75, 0.09, 30, True),
}


def view(points: np.ndarray, size: tuple, tilt: float, heading: float, fill: float,
         rng: np.random.Generator) -> np.ndarray:
    """Homography from table coordinates to the photo.

    The camera leans ``tilt`` degrees towards ``heading`` (degrees around
    the vertical), and the result is scaled so ``points`` (the table points
    that must be in view) span ``fill`` of the frame, centred with a little
    random offset.

    >>> square = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], float)
    >>> m = view(square, (400, 300), 0.0, 0.0, 0.5, np.random.default_rng(0))
    >>> seen = _apply(m, square)
    >>> float(np.ptp(seen[:, 1]))  # half the frame's height, no tilt: still a square
    150.0
    """
    w, h = size
    f = 1.0 * max(w, h)  # a phone held a little back: between its 26 mm and 2x lenses
    k = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1]])
    a, t = np.radians(heading), np.radians(tilt)
    axis = np.array([np.cos(a), np.sin(a), 0.0])
    r, _ = cv2.Rodrigues(axis * t)
    h0 = k @ r @ np.linalg.inv(k)
    # a top-down start: the tiles spanning some 40 degrees of view, centred
    span = np.ptp(points, axis=0)
    s = 0.65 * min(w / span[0], h / span[1])
    mid = (points.min(axis=0) + points.max(axis=0)) / 2
    start = np.array([[s, 0, w / 2 - s * mid[0]], [0, s, h / 2 - s * mid[1]], [0, 0, 1]])
    m = h0 @ start
    seen = _apply(m, points)
    lo, hi = seen.min(axis=0), seen.max(axis=0)
    zoom = fill * min(w / (hi - lo)[0], h / (hi - lo)[1])
    room = np.array([w, h]) - zoom * (hi - lo)
    offset = room * (0.5 + rng.uniform(-0.3, 0.3, 2)) - zoom * lo
    fit = np.array([[zoom, 0, offset[0]], [0, zoom, offset[1]], [0, 0, 1]])
    return fit @ m


def _apply(m: np.ndarray, points: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(points, np.float64).reshape(-1, 1, 2), m).reshape(-1, 2)


def gain_map(size: tuple, level: Level, rng: np.random.Generator, scale: int = 8) -> np.ndarray:
    """Light falling on the scene as a per-pixel BGR gain, at 1/``scale`` size.

    Uneven light (a slope and a bright patch), vignetting, a colour cast and,
    at the hard level, the soft shadow of something between lamp and table.

    >>> gain_map((800, 600), LEVELS["easy"], np.random.default_rng(0)).shape
    (75, 100, 3)
    """
    w, h = size[0] // scale, size[1] // scale
    y, x = np.mgrid[0:1:1j * h, 0:1:1j * w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    gain = 1 + level.light * ((x - 0.5) * np.cos(a) + (y - 0.5) * np.sin(a))
    cx, cy = rng.uniform(0.2, 0.8, 2)
    gain += 0.5 * level.light * np.exp(-((x - cx) ** 2 + (y - cy) ** 2) / 0.08)
    gain *= 1 - level.vignette * ((x - 0.5) ** 2 + (y - 0.5) ** 2) * 2
    if level.blocker:
        blot = np.zeros((h, w), np.float32)
        centre = (int(rng.uniform(0, w)), int(rng.choice((0, h))))
        cv2.ellipse(blot, centre, (int(0.35 * w), int(0.3 * h)), rng.uniform(0, 180), 0, 360, 1.0, -1)
        gain *= 1 - 0.45 * cv2.GaussianBlur(blot, (0, 0), 0.05 * w)
    cast = 1 + rng.uniform(-level.cast, level.cast, 3).astype(np.float32)
    return gain[..., None] * cast


def shadow_map(size: tuple, tiles: list, depth: float, rng: np.random.Generator,
               scale: int = 4) -> np.ndarray:
    """Gain (0..1) of the tiles' soft drop shadows on the table, at 1/``scale`` size.

    >>> quad = np.array([[100, 100], [300, 100], [300, 300], [100, 300]], float)
    >>> shade = shadow_map((400, 400), [quad], 0.5, np.random.default_rng(0))
    >>> shade.shape, round(float(shade.min()), 1), float(shade[0, 0])
    ((100, 100), 0.5, 1.0)
    """
    w, h = size[0] // scale, size[1] // scale
    side = np.mean([np.linalg.norm(q[1] - q[0]) for q in tiles]) / scale
    a = rng.uniform(0, 2 * np.pi)
    drop = np.array([np.cos(a), np.sin(a)]) * 0.04 * side
    shade = np.zeros((h, w), np.float32)
    for quad in tiles:
        cv2.fillPoly(shade, [np.round((quad / scale + drop) * 16).astype(np.int32)], 1.0,
                     cv2.LINE_AA, 4)
    shade = cv2.GaussianBlur(shade, (0, 0), 0.04 * side + 0.5)
    return 1 - depth * shade


def glare_map(size: tuple, tiles: list, strength: float, rng: np.random.Generator,
              scale: int = 4) -> np.ndarray:
    """Reflections of a lamp or window on the glossy tiles (0..1), 1/``scale`` size.

    Only tiles shine: the table stays matte.

    >>> quad = np.array([[0, 0], [200, 0], [200, 200], [0, 200]], float)
    >>> glare = glare_map((400, 400), [quad], 1.0, np.random.default_rng(0))
    >>> float(glare[60:, 60:].max())
    0.0
    """
    w, h = size[0] // scale, size[1] // scale
    cover = np.zeros((h, w), np.uint8)
    for quad in tiles:
        cv2.fillPoly(cover, [np.round(quad / scale * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    spot = np.zeros((h, w), np.float32)
    for _ in range(rng.integers(1, 3)):
        cx, cy = rng.uniform(0.15, 0.85) * w, rng.uniform(0.15, 0.85) * h
        rx, ry = rng.uniform(0.05, 0.15) * w, rng.uniform(0.03, 0.1) * h
        spot = np.maximum(spot, np.exp(-((x - cx) ** 2 / rx ** 2 + (y - cy) ** 2 / ry ** 2)))
    return np.clip(1.6 * strength * spot, 0, 1) * (cover / np.float32(255))


def lit(image: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """``image`` times a low-resolution ``gain`` map (2-D or BGR), upscaled.

    >>> lit(np.full((4, 4, 3), 100, np.uint8), np.full((2, 2), 0.5, np.float32))[0, 0]
    array([50, 50, 50], dtype=uint8)
    """
    h, w = image.shape[:2]
    g = cv2.resize(np.clip(gain * 128, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    if g.ndim == 2:
        g = cv2.merge([g, g, g])
    return cv2.multiply(image, g, scale=1 / 128)


def develop(image: np.ndarray, gain: np.ndarray, glare: np.ndarray | None, blur: float,
            noise: float, rng: np.random.Generator) -> np.ndarray:
    """Apply light (gain, glare), lens blur and sensor noise to a uint8 BGR image.

    >>> grey = np.full((60, 80, 3), 100, np.uint8)
    >>> out = develop(grey, np.ones((6, 8, 3), np.float32), None, 0.0, 4.0, np.random.default_rng(0))
    >>> bool(3 < out.std() < 5), bool(abs(out.mean() - 100) < 1)
    (True, True)
    """
    h, w = image.shape[:2]
    image = lit(image, gain)
    if glare is not None:
        _shine(image, glare)
    if blur > 0.3:
        image = cv2.GaussianBlur(image, (0, 0), blur)
    if noise > 0:
        # a patch of grain repeated: a period of 509 pixels is invisible in noise,
        # and it spares drawing 36 million normal deviates
        patch = np.clip(rng.normal(128, noise, (509, 509, 3)), 0, 255).astype(np.uint8)
        dy, dx = rng.integers(0, 509, 2)
        grain = np.tile(patch, (h // 509 + 2, w // 509 + 2, 1))[dy:dy + h, dx:dx + w]
        image = cv2.addWeighted(image, 1.0, grain, 1.0, -128.0)
    return image


def _shine(image: np.ndarray, glare: np.ndarray) -> None:
    """Brighten ``image`` towards white by the low-resolution ``glare`` (0..1), in place."""
    ys, xs = np.nonzero(glare > 1 / 255)
    if len(ys) == 0:
        return
    h, w = image.shape[:2]
    k = w / glare.shape[1]
    x0, x1 = int(xs.min() * k), min(w, int((xs.max() + 1) * k))
    y0, y1 = int(ys.min() * k), min(h, int((ys.max() + 1) * k))
    full = cv2.resize((glare * 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)
    g = cv2.merge([full[y0:y1, x0:x1]] * 3)
    roi = image[y0:y1, x0:x1]
    roi[:] = cv2.add(roi, cv2.multiply(cv2.bitwise_not(roi), g, scale=1 / 255))
