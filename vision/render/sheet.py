"""A printable page of a puzzle's tiles with cut lines.

The witch puzzle article asks readers to print the squares in colour, cut
them out and play; `sheet_page` makes that page (A4 at 300 dpi by default)
and `save_sheet` writes it as PNG and PDF. The scanned-printout photos are
this same page, put through a scanner (`vision.render.photo`).
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import cv2
import numpy as np

from ..files import write_atomic

_MM = 1 / 25.4  # inches per millimetre


def sheet_page(tiles: list, rows: int, cols: int, title: str = "", dpi: int = 300,
               paper_mm: tuple = (210, 297), tile_mm: float = 55) -> tuple[np.ndarray, np.ndarray]:
    """Lay ``tiles`` (square BGR images, listed order) out on a white page.

    Tiles are numbered as listed (1-based), upright in their art frame, a
    few millimetres apart, each outlined by a thin cut line.

    Returns
    -------
    page : BGR uint8, ``paper_mm`` at ``dpi``.
    corners : ``(n, 4, 2)`` float, NW, NE, SE, SW of every tile on the page.

    Examples
    --------
    >>> tiles = [np.zeros((60, 60, 3), np.uint8)] * 4
    >>> page, corners = sheet_page(tiles, 2, 2, dpi=50)
    >>> page.shape, corners.shape
    ((585, 413, 3), (4, 4, 2))
    """
    px = dpi * _MM
    w, h = round(paper_mm[0] * px), round(paper_mm[1] * px)
    page = np.full((h, w, 3), 255, np.uint8)
    gap = 6 * px
    side = min(tile_mm * px, (w - 30 * px - (cols - 1) * gap) / cols,
               (h - 50 * px - (rows - 1) * gap) / rows)
    s = int(side)
    x0 = (w - cols * s - (cols - 1) * gap) / 2
    y0 = 28 * px
    font, scale = cv2.FONT_HERSHEY_SIMPLEX, dpi / 300
    if title:
        cv2.putText(page, title, (int(x0), int(16 * px)), font, 1.1 * scale, (60, 60, 60),
                    max(1, round(2 * scale)), cv2.LINE_AA)
    corners = []
    for i, tile in enumerate(tiles):
        r, c = divmod(i, cols)
        x, y = int(x0 + c * (s + gap)), int(y0 + r * (s + gap))
        page[y:y + s, x:x + s] = cv2.resize(tile, (s, s), interpolation=cv2.INTER_AREA)
        cv2.rectangle(page, (x - 1, y - 1), (x + s, y + s), (90, 90, 90), max(1, round(scale)))
        cv2.putText(page, str(i + 1), (x + s // 2 - int(10 * scale), y + s + int(gap * 0.75)),
                    font, 0.8 * scale, (120, 120, 120), max(1, round(scale)), cv2.LINE_AA)
        corners.append([[x - 0.5, y - 0.5], [x + s - 0.5, y - 0.5],
                        [x + s - 0.5, y + s - 0.5], [x - 0.5, y + s - 0.5]])
    cv2.putText(page, "cut along the grey lines", (int(x0), h - int(10 * px)), font, 0.7 * scale,
                (140, 140, 140), max(1, round(scale)), cv2.LINE_AA)
    return page, np.array(corners, float)


def save_sheet(path: str | os.PathLike, page: np.ndarray, dpi: int = 300) -> list[Path]:
    """Write ``page`` as PNG and PDF (same stem), each atomically; return both paths.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> [p.name for p in save_sheet(folder / "page.png", np.full((60, 40, 3), 255, np.uint8), 50)]
    ['page.png', 'page.pdf']
    """
    from PIL import Image

    path = Path(path)
    written = []
    picture = Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB))
    for suffix, fmt in ((".png", "PNG"), (".pdf", "PDF")):
        target = path.with_suffix(suffix)
        data = io.BytesIO()
        picture.save(data, format=fmt, resolution=dpi)
        write_atomic(target, data.getvalue())
        written.append(target)
    return written
