"""Figures of our own, drawn procedurally with OpenCV.

A figure is drawn whole, upright, in figure units: ``u`` runs -1..1 across
it and ``v`` runs -1..1 down it, with its waist (the cut line) at ``v = 0``.
The top half (``v < 0``) is the head end, the bottom half the legs end, and
every kind makes the two look clearly different. `figure_image` renders one
into a premultiplied colour image and an alpha mask; `vision.render.tiles`
cuts it at the waist and lays each half on a tile edge.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Callable, NamedTuple

import cv2
import numpy as np

_SHIFT = 4  # sub-pixel bits for cv2 drawing
_ONE = 1 << _SHIFT


class Palette(NamedTuple):
    """A figure's colours (BGR): body, second (clothes, fins), accent, detail."""

    body: tuple
    second: tuple
    accent: tuple
    detail: tuple


class Pen:
    """Draws antialiased shapes in figure units onto a colour image and its alpha.

    The colour image is premultiplied by alpha (shapes are drawn over black),
    so compositing is ``under * (1 - alpha) + colour``.

    >>> colour, alpha = np.zeros((20, 20, 3), np.uint8), np.zeros((20, 20), np.uint8)
    >>> Pen(colour, alpha, (10, 10), (10, 10)).ellipse((0, 0), (0.5, 0.5), (0, 0, 255))
    >>> int(alpha[10, 10]), int(alpha[0, 0]), colour[10, 10].tolist()
    (255, 0, [0, 0, 255])
    """

    def __init__(self, colour: np.ndarray, alpha: np.ndarray, centre: tuple,
                 half: tuple, lean: float = 0.0) -> None:
        self.colour, self.alpha = colour, alpha
        self.centre, self.half = np.asarray(centre, float), np.asarray(half, float)
        self.lean = lean  # degrees clockwise the whole figure leans about its centre
        a = np.radians(lean)
        self._turn = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
        self.outline = max(1, round(0.018 * half[0]))

    def _px(self, points) -> np.ndarray:
        pts = self.centre + (np.asarray(points, float).reshape(-1, 2) * self.half) @ self._turn
        return np.round(pts * _ONE).astype(np.int32)

    def poly(self, points, colour: tuple, outline: bool = True) -> None:
        pts = [self._px(points)]
        cv2.fillPoly(self.colour, pts, colour, cv2.LINE_AA, _SHIFT)
        cv2.fillPoly(self.alpha, pts, 255, cv2.LINE_AA, _SHIFT)
        if outline:
            self._stroke(pts, True, _dark(colour), self.outline)

    def ellipse(self, centre, axes, colour: tuple, angle: float = 0.0,
                outline: bool = True) -> None:
        c = self._px(centre)[0]
        a = np.round(np.asarray(axes, float) * self.half * _ONE).astype(int)
        box = (tuple(int(x) for x in c), tuple(int(x) for x in a))
        angle += self.lean
        cv2.ellipse(self.colour, box[0], box[1], angle, 0, 360, colour, -1, cv2.LINE_AA, _SHIFT)
        cv2.ellipse(self.alpha, box[0], box[1], angle, 0, 360, 255, -1, cv2.LINE_AA, _SHIFT)
        if outline:
            cv2.ellipse(self.colour, box[0], box[1], angle, 0, 360, _dark(colour),
                        self.outline, cv2.LINE_AA, _SHIFT)

    def line(self, points, colour: tuple, width: float) -> None:
        """A polyline ``width`` figure units thick (through smoothed points)."""
        pts = [_smooth(self._px(points))]
        thick = max(1, round(width * self.half[0]))
        self._stroke(pts, False, colour, thick)
        cv2.polylines(self.alpha, pts, False, 255, thick, cv2.LINE_AA, _SHIFT)

    def _stroke(self, pts, closed: bool, colour: tuple, thick: int) -> None:
        cv2.polylines(self.colour, pts, closed, colour, thick, cv2.LINE_AA, _SHIFT)


def _dark(colour: tuple, f: float = 0.35) -> tuple:
    return tuple(int(c * f) for c in colour)


def _light(colour: tuple, f: float = 0.55) -> tuple:
    return tuple(int(c + (255 - c) * f) for c in colour)


def _smooth(pts: np.ndarray, steps: int = 8) -> np.ndarray:
    """Catmull-Rom spline through ``pts`` (so tails and stalks curve)."""
    if len(pts) < 3:
        return pts
    p = np.vstack([pts[:1], pts, pts[-1:]]).astype(float)
    t = np.linspace(0, 1, steps, endpoint=False)[:, None]
    out = []
    for i in range(1, len(p) - 2):
        p0, p1, p2, p3 = p[i - 1], p[i], p[i + 1], p[i + 2]
        out.append(0.5 * (2 * p1 + (p2 - p0) * t + (2 * p0 - 5 * p1 + 4 * p2 - p3) * t ** 2
                          + (3 * p1 - p0 - 3 * p2 + p3) * t ** 3))
    out.append(p[-2:-1])
    return np.round(np.vstack(out)).astype(np.int32)


def _mirror(points) -> list:
    return [(-u, v) for u, v in points]


# --- the kinds -------------------------------------------------------------
# Each draws one whole upright figure. Top half (v < 0): head; bottom: legs.

def witch(pen: Pen, p: Palette) -> None:
    """Hat, green face and cape on top; skirt, striped legs and broom below."""
    pen.line([(-0.95, 0.42), (0.0, 0.38), (0.7, 0.33)], (40, 80, 130), 0.07)
    pen.poly([(0.62, 0.22), (0.98, 0.12), (0.98, 0.58), (0.62, 0.44)], (60, 170, 215))
    for x in (-0.16, 0.1):
        for y0 in (0.62, 0.72, 0.82):
            pen.poly([(x, y0), (x + 0.1, y0), (x + 0.1, y0 + 0.06), (x, y0 + 0.06)], p.accent, False)
            pen.poly([(x, y0 + 0.05), (x + 0.1, y0 + 0.05), (x + 0.1, y0 + 0.1), (x, y0 + 0.1)],
                     (30, 30, 30), False)
        pen.poly([(x - 0.02, 0.9), (x + 0.12, 0.9), (x + 0.25, 0.99), (x - 0.02, 0.99)], (25, 25, 25))
    # one robe from shoulders to hem, so no outline runs along the waist
    pen.poly([(-0.4, -0.28), (0.4, -0.28), (0.55, 0.0), (0.62, 0.55), (0.4, 0.6), (0.2, 0.54),
              (0.0, 0.62), (-0.2, 0.54), (-0.4, 0.6), (-0.62, 0.55), (-0.55, 0.0)], p.body)
    pen.poly([(-0.22, 0.1), (0.22, 0.1), (0.3, 0.5), (-0.3, 0.5)], p.second)
    pen.poly([(-0.62, 0.5), (0.62, 0.5), (0.62, 0.55), (-0.62, 0.55)], p.accent, False)
    pen.poly([(-0.4, -0.25), (-0.85, -0.12), (-0.9, -0.02), (-0.45, -0.08)], p.body)
    pen.ellipse((-0.9, -0.06), (0.07, 0.07), p.detail)
    pen.poly([(-0.34, -0.62), (-0.42, -0.3), (0.42, -0.3), (0.34, -0.62)], p.accent)
    pen.ellipse((0.0, -0.45), (0.24, 0.2), p.detail)
    pen.ellipse((-0.09, -0.5), (0.05, 0.04), (250, 250, 250))
    pen.ellipse((0.09, -0.5), (0.05, 0.04), (250, 250, 250))
    pen.ellipse((-0.08, -0.5), (0.02, 0.03), (20, 20, 20), outline=False)
    pen.ellipse((0.1, -0.5), (0.02, 0.03), (20, 20, 20), outline=False)
    pen.poly([(0.0, -0.47), (0.12, -0.38), (0.0, -0.4)], _dark(p.detail, 0.75))
    pen.line([(-0.1, -0.33), (0.0, -0.31), (0.1, -0.34)], (40, 30, 120), 0.03)
    pen.ellipse((0.0, -0.64), (0.58, 0.07), _dark(p.body, 0.45))
    pen.poly([(-0.3, -0.64), (0.3, -0.64), (0.18, -0.85), (0.35, -1.0), (0.05, -0.92)],
             _dark(p.body, 0.45))
    pen.poly([(-0.28, -0.7), (0.28, -0.7), (0.26, -0.64), (-0.26, -0.64)], p.accent, False)


def frog(pen: Pen, p: Palette) -> None:
    """Frog seen from above: bulging eyes and front legs; big hind legs and webbed feet."""
    for s in (1, -1):
        m = (lambda pts, s=s: pts if s > 0 else _mirror(pts))
        pen.poly(m([(0.25, 0.15), (0.75, 0.25), (0.85, 0.5), (0.45, 0.62), (0.2, 0.45)]), p.body)
        pen.poly(m([(0.45, 0.55), (0.8, 0.48), (0.72, 0.9), (0.6, 0.95)]), p.body)
        pen.poly(m([(0.6, 0.86), (0.9, 0.8), (0.98, 1.0), (0.78, 0.99), (0.68, 1.0), (0.5, 0.99)]),
                 _light(p.body, 0.3))
        pen.poly(m([(0.25, -0.3), (0.62, -0.42), (0.78, -0.6), (0.7, -0.66), (0.52, -0.52), (0.22, -0.42)]),
                 p.body)
        pen.poly(m([(0.72, -0.6), (0.95, -0.72), (0.88, -0.55), (0.98, -0.58), (0.8, -0.48)]),
                 _light(p.body, 0.3))
    pen.ellipse((0.0, 0.05), (0.42, 0.62), p.body)
    pen.ellipse((0.0, -0.55), (0.36, 0.3), p.body)
    pen.ellipse((0.0, -0.05), (0.2, 0.35), _light(p.second, 0.2), outline=False)
    for u, v, r in ((-0.18, 0.2, 0.07), (0.15, 0.35, 0.09), (0.0, 0.48, 0.06), (0.25, 0.05, 0.05)):
        pen.ellipse((u, v), (r, r), p.accent)
    for s in (-1, 1):
        pen.ellipse((0.2 * s, -0.8), (0.15, 0.14), p.body)
        pen.ellipse((0.2 * s, -0.82), (0.1, 0.09), (235, 245, 250))
        pen.ellipse((0.2 * s, -0.82), (0.03, 0.07), (15, 15, 15), outline=False)
    pen.line([(-0.22, -0.42), (0.0, -0.36), (0.22, -0.42)], _dark(p.body), 0.03)


def cat(pen: Pen, p: Palette) -> None:
    """Sitting cat: ears, eyes and whiskers on top; haunches, paws and tail below."""
    pen.line([(0.35, 0.75), (0.75, 0.7), (0.9, 0.35), (0.75, 0.12)], p.body, 0.16)
    pen.line([(0.35, 0.75), (0.75, 0.7), (0.9, 0.35), (0.75, 0.12)], _dark(p.body, 0.5), 0.02)
    pen.ellipse((0.0, 0.38), (0.5, 0.52), p.body)
    for u in (-0.18, 0.18):
        pen.ellipse((u, 0.88), (0.14, 0.1), p.second)
    for v in (0.2, 0.4, 0.6):
        pen.line([(-0.48, v), (-0.3, v + 0.05)], p.accent, 0.05)
        pen.line([(0.48, v), (0.3, v + 0.05)], p.accent, 0.05)
    pen.poly([(-0.32, -0.2), (0.32, -0.2), (0.4, 0.05), (-0.4, 0.05)], p.body)
    pen.ellipse((0.0, 0.0), (0.18, 0.3), p.second, outline=False)
    pen.poly([(-0.38, -0.6), (-0.36, -0.98), (-0.1, -0.78)], p.body)
    pen.poly([(0.38, -0.6), (0.36, -0.98), (0.1, -0.78)], p.body)
    pen.poly([(-0.32, -0.68), (-0.31, -0.88), (-0.17, -0.77)], (170, 150, 240), False)
    pen.poly([(0.32, -0.68), (0.31, -0.88), (0.17, -0.77)], (170, 150, 240), False)
    pen.ellipse((0.0, -0.52), (0.42, 0.34), p.body)
    pen.poly([(-0.05, -0.7), (0.05, -0.7), (0.0, -0.58)], p.accent, False)
    for s in (-1, 1):
        pen.ellipse((0.17 * s, -0.56), (0.1, 0.08), p.detail)
        pen.ellipse((0.17 * s, -0.56), (0.025, 0.07), (10, 10, 10), outline=False)
        for dv in (-0.04, 0.02, 0.08):
            pen.line([(0.12 * s, -0.38), (0.6 * s, -0.4 + dv * 2)], (235, 235, 235), 0.012)
    pen.poly([(-0.06, -0.44), (0.06, -0.44), (0.0, -0.37)], (150, 120, 230))
    pen.line([(-0.1, -0.3), (0.0, -0.34), (0.1, -0.3)], (40, 40, 40), 0.025)


def fish(pen: Pen, p: Palette) -> None:
    """Fish swimming up: head, eye and side fins on top; scales and forked tail below."""
    pen.poly([(0.0, 0.62), (0.55, 1.0), (0.3, 0.98), (0.0, 0.8), (-0.3, 0.98), (-0.55, 1.0)], p.second)
    for s in (-1, 1):
        pen.poly([(0.3 * s, -0.3), (0.85 * s, -0.55), (0.7 * s, -0.15), (0.35 * s, 0.0)], p.second)
        pen.poly([(0.28 * s, 0.35), (0.6 * s, 0.55), (0.25 * s, 0.55)], p.second)
    pen.ellipse((0.0, -0.05), (0.4, 0.78), p.body)
    for v in (0.1, 0.28, 0.46):
        for u in (-0.2, 0.0, 0.2):
            pen.ellipse((u, v), (0.08, 0.06), _dark(p.body, 0.75), outline=False)
            pen.ellipse((u, v - 0.015), (0.08, 0.05), p.body, outline=False)
    pen.poly([(-0.36, -0.25), (0.36, -0.25), (0.3, -0.18), (-0.3, -0.18)], p.accent, False)
    pen.line([(-0.3, -0.4), (0.0, -0.3), (0.3, -0.4)], _dark(p.body), 0.03)
    for s in (-1, 1):
        pen.ellipse((0.17 * s, -0.6), (0.11, 0.1), (245, 245, 245))
        pen.ellipse((0.17 * s, -0.6), (0.05, 0.05), (15, 15, 15), outline=False)
    pen.ellipse((0.0, -0.8), (0.08, 0.05), _dark(p.accent, 0.6))


def bird(pen: Pen, p: Palette) -> None:
    """Bird from above: beak, eyes and spread wings on top; fanned tail and claws below."""
    for s in (-1, 1):
        m = (lambda pts, s=s: pts if s > 0 else _mirror(pts))
        pen.poly(m([(0.15, -0.45), (0.98, -0.78), (0.9, -0.56), (0.98, -0.5), (0.85, -0.3),
                    (0.92, -0.24), (0.5, -0.14), (0.2, -0.14)]), p.second)
        pen.poly(m([(0.2, -0.35), (0.7, -0.56), (0.55, -0.26), (0.2, -0.2)]), p.accent, False)
        pen.line(m([(0.12, 0.55), (0.18, 0.72), (0.28, 0.78)]), (40, 90, 180), 0.04)
        pen.line(m([(0.18, 0.72), (0.14, 0.82)]), (40, 90, 180), 0.03)
    for a in (-0.5, -0.25, 0.0, 0.25, 0.5):
        pen.poly([(0.0, 0.35), (a - 0.12, 0.98), (a + 0.12, 0.98)], p.second)
    pen.ellipse((0.0, 0.05), (0.26, 0.6), p.body)
    pen.ellipse((0.0, 0.15), (0.15, 0.35), _light(p.body, 0.35), outline=False)
    pen.ellipse((0.0, -0.62), (0.22, 0.2), p.body)
    pen.poly([(-0.08, -0.78), (0.08, -0.78), (0.0, -1.0)], (40, 170, 240))
    for s in (-1, 1):
        pen.ellipse((0.1 * s, -0.66), (0.05, 0.05), (245, 245, 245))
        pen.ellipse((0.1 * s, -0.67), (0.025, 0.03), (10, 10, 10), outline=False)


def rocket(pen: Pen, p: Palette) -> None:
    """Rocket: nose cone and porthole on top; fins, nozzle and flame below."""
    pen.ellipse((0.0, 0.92), (0.2, 0.16), (40, 200, 255), outline=False)
    pen.ellipse((0.0, 0.86), (0.1, 0.12), (200, 250, 255), outline=False)
    for s in (-1, 1):
        pen.poly([(0.2 * s, 0.2), (0.62 * s, 0.62), (0.62 * s, 0.85), (0.22 * s, 0.62)], p.second)
    pen.poly([(-0.14, 0.62), (0.14, 0.62), (0.2, 0.78), (-0.2, 0.78)], (90, 90, 100))
    pen.poly([(-0.25, -0.5), (0.25, -0.5), (0.25, 0.65), (-0.25, 0.65)], p.body)
    pen.poly([(-0.25, 0.3), (0.25, 0.3), (0.25, 0.38), (-0.25, 0.38)], p.accent, False)
    pen.poly([(-0.25, -0.5), (-0.2, -0.75), (0.0, -1.0), (0.2, -0.75), (0.25, -0.5)], p.second)
    pen.ellipse((0.0, -0.25), (0.14, 0.12), p.accent)
    pen.ellipse((0.0, -0.25), (0.09, 0.08), (230, 200, 120))
    pen.ellipse((-0.03, -0.28), (0.03, 0.025), (255, 255, 255), outline=False)
    pen.poly([(-0.04, -0.45), (0.04, -0.45), (0.04, 0.6), (-0.04, 0.6)], _light(p.body, 0.35), False)


def car(pen: Pen, p: Palette) -> None:
    """Car from the side: roof, windows and driver on top; doors and wheels below."""
    pen.poly([(-0.45, -0.2), (-0.3, -0.7), (0.25, -0.7), (0.5, -0.2)], p.body)
    for u0, u1 in ((-0.36, -0.05), (0.02, 0.36)):
        pen.poly([(u0 + (0.08 if u0 < 0 else 0), -0.62), (u1 - (0.0 if u0 < 0 else 0.12), -0.62),
                  (u1, -0.26), (u0, -0.26)], (230, 200, 150))
    pen.ellipse((-0.2, -0.42), (0.08, 0.09), p.detail)
    pen.poly([(-0.95, -0.22), (0.98, -0.22), (0.98, 0.5), (-0.95, 0.5)], p.body)
    pen.poly([(-0.95, 0.15), (0.98, 0.15), (0.98, 0.22), (-0.95, 0.22)], p.accent, False)
    pen.poly([(0.86, -0.15), (0.98, -0.15), (0.98, -0.03), (0.86, -0.03)], (120, 240, 250))
    pen.poly([(-0.95, -0.15), (-0.88, -0.15), (-0.88, -0.03), (-0.95, -0.03)], (60, 60, 220))
    for u in (-0.55, 0.55):
        pen.ellipse((u, 0.55), (0.24, 0.3), (30, 30, 30))
        pen.ellipse((u, 0.55), (0.11, 0.14), (200, 200, 205))
    pen.line([(0.0, -0.18), (0.0, 0.45)], _dark(p.body), 0.02)


def shield(pen: Pen, p: Palette) -> None:
    """Emblem: a star over a laurel arc on top; a striped shield point below."""
    for s in (-1, 1):
        for k in range(5):
            a = np.radians(200 + 25 * k) if s < 0 else np.radians(340 - 25 * k)
            u, v = 0.72 * np.cos(a), -0.25 + 0.6 * np.sin(a)
            pen.ellipse((u, v), (0.12, 0.06), p.accent, angle=np.degrees(a) + 90)
    pen.poly([(-0.55, -0.02), (0.55, -0.02), (0.55, 0.35), (0.0, 0.98), (-0.55, 0.35)], p.body)
    for u in (-0.3, 0.0, 0.3):
        pen.poly([(u - 0.08, 0.02), (u + 0.08, 0.02), (u + 0.08, 0.6 - abs(u) * 0.6),
                  (u - 0.08, 0.6 - abs(u) * 0.6)], p.second, False)
    pen.poly([(-0.62, -0.12), (0.62, -0.12), (0.62, 0.1), (-0.62, 0.1)], p.second)
    r = np.array([0.5 if k % 2 == 0 else 0.2 for k in range(10)])
    a = np.radians(-90 + 36 * np.arange(10))
    pen.poly(np.c_[r * np.cos(a), -0.55 + r * np.sin(a) * 0.85], p.detail)
    pen.ellipse((0.0, -0.55), (0.1, 0.085), p.accent)


# --- decorations: centre objects that belong to no edge ---------------------

def football(pen: Pen) -> None:
    """A black-and-white ball."""
    pen.ellipse((0, 0), (0.9, 0.9), (245, 245, 245))
    a = np.radians(-90 + 72 * np.arange(5))
    pen.poly(np.c_[0.32 * np.cos(a), 0.32 * np.sin(a)], (25, 25, 25), False)
    for k in range(5):
        c = 0.78 * np.array([np.cos(a[k]), np.sin(a[k])])
        pen.poly(c + np.c_[0.2 * np.cos(a + np.pi), 0.2 * np.sin(a + np.pi)], (25, 25, 25), False)
        pen.line([0.32 * np.array([np.cos(a[k]), np.sin(a[k])]), c * 0.8], (25, 25, 25), 0.04)


def snowflake(pen: Pen) -> None:
    """A six-armed snowflake."""
    for k in range(6):
        d = np.array([np.cos(np.pi * k / 3), np.sin(np.pi * k / 3)])
        n = np.array([-d[1], d[0]])
        pen.line([(0, 0), 0.95 * d], (250, 245, 235), 0.08)
        for t in (0.45, 0.7):
            pen.line([t * d, t * d + 0.25 * (d + n)], (250, 245, 235), 0.06)
            pen.line([t * d, t * d + 0.25 * (d - n)], (250, 245, 235), 0.06)


def paw(pen: Pen) -> None:
    """A paw print: a pad and four toes."""
    brown = (40, 60, 110)
    pen.ellipse((0, 0.3), (0.48, 0.4), brown, outline=False)
    for u, v in ((-0.6, -0.25), (-0.22, -0.62), (0.22, -0.62), (0.6, -0.25)):
        pen.ellipse((u, v), (0.2, 0.26), brown, outline=False)


DECOR: dict[str, Callable[[Pen], None]] = {f.__name__: f for f in (football, snowflake, paw)}


@lru_cache(maxsize=8)
def decor_image(name: str, size: int) -> tuple[np.ndarray, np.ndarray]:
    """A decoration centred on a ``size`` square, about a quarter of it across.

    Cached and shared: callers must not write into the arrays.

    >>> colour, alpha = decor_image("football", 100)
    >>> float(alpha[50, 50]), float(alpha[5, 5])
    (1.0, 0.0)
    """
    r = 0.13 * size
    return paint(DECOR[name], (size, size), (size / 2, size / 2), (r, r))


KINDS: dict[str, Callable[[Pen, Palette], None]] = {
    f.__name__: f for f in (witch, frog, cat, fish, bird, rocket, car, shield)
}


def paint(draw: Callable[[Pen], None], shape: tuple, centre: tuple,
          half: tuple, lean: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Run ``draw(pen)`` on a blank ``shape`` (rows, cols) canvas.

    Returns ``(colour, alpha)``: colour float32 BGR premultiplied by alpha,
    alpha float32 in 0..1, lit softly from the upper left so the flat
    shapes get some volume, with a painter's uneven brushwork on top.

    >>> colour, alpha = paint(lambda pen: pen.ellipse((0, 0), (1, 1), (0, 200, 0)),
    ...                       (40, 40), (20, 20), (10, 10))
    >>> float(alpha[20, 20]), float(alpha[0, 0]), bool(colour[20, 20, 1] > 150)
    (1.0, 0.0, True)
    """
    colour = np.zeros((*shape, 3), np.uint8)
    alpha = np.zeros(shape, np.uint8)
    draw(Pen(colour, alpha, centre, half, lean))
    a = alpha.astype(np.float32) / 255
    v = (np.arange(shape[0], dtype=np.float32)[:, None] - centre[1]) / half[1]
    u = (np.arange(shape[1], dtype=np.float32)[None, :] - centre[0]) / half[0]
    light = np.clip(1.15 - 0.28 * np.hypot(u + 0.3, v + 0.5), 0.7, 1.2)
    grain = max(4, int(half[0]) // 12)
    strokes = np.random.default_rng(shape).uniform(-1, 1, (shape[0] // grain + 2, shape[1] // grain + 2))
    light = light * (1 + 0.08 * cv2.resize(strokes.astype(np.float32), shape[::-1],
                                           interpolation=cv2.INTER_CUBIC))
    shaded = np.minimum(colour.astype(np.float32) * light[..., None], 255 * a[..., None])
    return shaded, a


@lru_cache(maxsize=64)
def figure_image(kind: str, palette: Palette, width: int, depth: int,
                 span: float, offset: float = 0.0, lean: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Render a whole figure, waist on row ``depth``, into a ``2*depth x width`` strip.

    The figure spans ``span`` of the width, its centre ``offset`` of the
    width right of the middle and leaning ``lean`` degrees clockwise (cards
    seldom stand their figures square on the seam). Returns premultiplied
    colour and alpha as `paint` does; cached and shared, so callers must not
    write into them.

    Examples
    --------
    >>> colour, alpha = figure_image("frog", PALETTES["green"], 300, 100, 0.7)
    >>> colour.shape, alpha.shape, float(alpha[100, 150])
    ((200, 300, 3), (200, 300), 1.0)
    """
    return paint(lambda pen: KINDS[kind](pen, palette), (2 * depth, width),
                 (width * (0.5 + offset), depth), (span * width / 2, depth * 0.98), lean)


def bgr(hex_rgb: str) -> tuple:
    """OpenCV's BGR triple for a ``#rrggbb`` colour.

    >>> bgr("#ff8000")
    (0, 128, 255)
    """
    r, g, b = (int(hex_rgb[i:i + 2], 16) for i in (1, 3, 5))
    return (b, g, r)


def palette(body: str, second: str, accent: str, detail: str) -> Palette:
    """A palette from ``#rrggbb`` strings (stored BGR, as OpenCV draws).

    >>> palette("#ff0000", "#00ff00", "#0000ff", "#ffffff").body
    (0, 0, 255)
    """
    return Palette(*(bgr(c) for c in (body, second, accent, detail)))


PALETTES: dict[str, Palette] = {
    "red": palette("#d2232a", "#7a1f8c", "#f5c518", "#7cc242"),
    "blue": palette("#1f5fd1", "#163a7a", "#f0e040", "#f2c9a0"),
    "green": palette("#3aa83a", "#e8e070", "#1d5e1d", "#9ad0f0"),
    "yellow": palette("#f2c311", "#c46a10", "#7a3b0c", "#3a8a2a"),
    "purple": palette("#7b3fb5", "#2b1a4a", "#ff8c1a", "#8fd14f"),
    "orange": palette("#f08a24", "#fff1dc", "#9c4a0a", "#3cb04a"),
    "pink": palette("#e8719a", "#ffffff", "#a0204a", "#40a0e0"),
    "white": palette("#f2f2f0", "#d93030", "#2050c0", "#e0b070"),
    "black": palette("#2a2a2e", "#c8c8c8", "#e0b020", "#60c0e0"),
    "teal": palette("#1aa5a5", "#f07a30", "#0d5555", "#f0e0a0"),
}
