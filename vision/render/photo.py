"""Synthetic photos of planted puzzles, with exact ground truth.

`render_photo` goes puzzle -> tile art -> layout on a table -> camera ->
light and sensor, and returns the image as a user sees it with its truth
(see `vision.render.truth`). The puzzle depends only on ``seed``, rows,
cols, ``unique`` and the art, so photos that differ only in layout,
difficulty or table show the very same tiles. `save_photo` writes the
JPEG (optionally as a phone does: pixels stored turned, EXIF Orientation
set) and the truth JSON beside it.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import cv2
import numpy as np

from solver import Puzzle

from ..files import write_atomic
from .camera import LEVELS, Level, develop, gain_map, glare_map, lit, shadow_map, view
from .puzzles import Planted, given, plant
from .scene import (LAYOUTS, TABLES, card_alpha, draw_keyboard, keyboard_at, lay_out, paste,
                    table_texture)
from .sets import ART_SETS
from .sheet import sheet_page
from .tiles import draw_tile

_ORIENTATION = {0: 1, 90: 6, 180: 3, 270: 8}  # display turn (clockwise) -> EXIF tag


def render_photo(seed: int = 0, layout: str = "scattered", difficulty: str = "normal",
                 art: str = "witches", rows: int = 3, cols: int = 3,
                 size: tuple = (4000, 3000), unique: bool = False, table: str | None = None,
                 exif: int = 0, puzzle: Puzzle | None = None) -> tuple[np.ndarray, dict]:
    """Render a photo of a scrambled planted puzzle.

    Parameters
    ----------
    seed : picks the puzzle, the tile art variation and the scene.
    layout : ``scattered``, ``loose`` (grid with gaps), ``touching`` (grid,
        no gaps) or ``scan`` (a printed sheet on a flatbed scanner).
    difficulty : ``easy``, ``normal`` or ``hard`` (`camera.LEVELS`).
    art : an art set name (`sets.ART_SETS`).
    rows, cols : the puzzle grid.
    size : ``(width, height)`` of the photo as seen.
    unique : redraw the puzzle until it has exactly one solution.
    table : ``wood``, ``cloth``, ``dark`` or ``white``; None picks one.
    exif : clockwise turn a viewer applies when showing the saved JPEG
        (0, 90, 180, 270); recorded for `save_photo`, the image returned is
        already as seen.
    puzzle : a puzzle to draw (`vision.render.puzzles.given`) instead of
        one planted; ``rows``, ``cols`` and ``unique`` are then its own.

    Returns
    -------
    image : BGR uint8, ``height x width``.
    truth : dict, see `vision.render.truth`.

    Examples
    --------
    >>> image, truth = render_photo(seed=3, layout="loose", size=(640, 480))
    >>> image.shape, len(truth["tiles"]), truth["params"]["seed"]
    ((480, 640, 3), 9, 3)
    """
    _check(layout, difficulty, art, table, exif, size)
    planted = _planted(art, rows, cols, seed, unique, puzzle)
    rows, cols = planted.puzzle.rows, planted.puzzle.cols
    rng = np.random.default_rng([seed, LAYOUTS.index(layout), list(LEVELS).index(difficulty),
                                 size[0], size[1]])
    level = LEVELS[difficulty]
    by_seed = TABLES[rng.integers(len(TABLES))]  # drawn always, so naming it changes nothing else
    table = table or by_seed
    if layout == "scan":
        image, corners, camera = _scan(planted, art, seed, size, level, rng)
        table = "scanner"
    else:
        image, corners, camera = _table_photo(planted, art, seed, layout, table, size, level, rng)
    params = {"seed": seed, "layout": layout, "difficulty": difficulty, "art": art,
              "rows": rows, "cols": cols, "size": list(size), "unique": unique,
              "table": None if table == "scanner" else table, "exif": exif}
    return image, truth_of(planted, art, corners, size, params, camera)


def render_sheet(seed: int = 0, art: str = "witches", rows: int = 3, cols: int = 3,
                 unique: bool = False, dpi: int = 300, puzzle: Puzzle | None = None) -> tuple[np.ndarray, dict]:
    """A printable A4 page of the puzzle `render_photo` makes for the same seed (or of ``puzzle``).

    Returns the page (BGR uint8) and its truth (corners in page pixels).

    >>> page, truth = render_sheet(seed=2, dpi=60)
    >>> page.shape, truth["solution"][0][0]["tile"] > 0
    ((702, 496, 3), True)
    """
    _check("scan", "easy", art, None, 0, (160, 160))
    planted = _planted(art, rows, cols, seed, unique, puzzle)
    rows, cols = planted.puzzle.rows, planted.puzzle.cols
    page, corners = sheet_page(puzzle_tiles(planted, art, _sheet_tile_px(dpi), seed), rows, cols,
                               f"edgematch  {art}  {f'#{seed}' if puzzle is None else puzzle.name}", dpi=dpi)
    params = {"seed": seed, "art": art, "rows": rows, "cols": cols, "unique": unique,
              "sheet": True, "dpi": dpi, "exif": 0}
    size = (page.shape[1], page.shape[0])
    return page, truth_of(planted, art, corners, size, params, {"dpi": dpi})


def puzzle_tiles(planted: Planted, art: str, tile_px: int, seed: int) -> list:
    """The tile art of every tile of ``planted``, as listed.

    >>> [t.shape for t in puzzle_tiles(plant(2, 2, seed=1), "frogs", 64, seed=1)]
    [(64, 64, 3), (64, 64, 3), (64, 64, 3), (64, 64, 3)]
    """
    return [draw_tile(edges, ART_SETS[art], tile_px, seed=seed * 1000 + i)
            for i, edges in enumerate(planted.puzzle.tiles)]


def truth_of(planted: Planted, art: str, corners: np.ndarray, size: tuple, params: dict,
             camera: dict) -> dict:
    """The truth dict of a rendering (see `vision.render.truth`).

    >>> planted = plant(2, 2, seed=1)
    >>> truth = truth_of(planted, "frogs", np.zeros((4, 4, 2)), (640, 480), {"seed": 1}, {})
    >>> truth["figures"][0]["kind"], len(truth["solution"]), truth["solution"][0][0]["tile"] >= 1
    ('frog', 2, True)
    """
    figures = ART_SETS[art].figures
    return {
        "width": int(size[0]), "height": int(size[1]),
        "rows": planted.puzzle.rows, "cols": planted.puzzle.cols, "match": "signed",
        "art": art,
        "figures": [{"code": k, "kind": f.kind, "colour": f.colour, "top": k, "bottom": -k}
                    for k, f in enumerate(figures, 1)],
        "tiles": [{"edges": list(edges), "corners": np.round(quad, 2).tolist()}
                  for edges, quad in zip(planted.puzzle.tiles, corners)],
        "solution": [[{"tile": p.tile + 1, "rotation": p.rotation} for p in row]
                     for row in planted.solution],
        "count": planted.count,
        "params": params,
        "camera": camera,
    }


def _planted(art: str, rows: int, cols: int, seed: int, unique: bool, puzzle: Puzzle | None) -> Planted:
    """The puzzle to draw: ``puzzle`` in the art's figures, else one planted for ``seed``."""
    figures = len(ART_SETS[art].figures)
    return plant(rows, cols, figures, seed=seed, unique=unique) if puzzle is None else given(puzzle, figures)


def _check(layout: str, difficulty: str, art: str, table: str | None, exif: int, size: tuple) -> None:
    for value, allowed, what in ((layout, LAYOUTS, "layout"), (difficulty, tuple(LEVELS), "difficulty"),
                                 (art, tuple(ART_SETS), "art set"), (exif, tuple(_ORIENTATION), "exif turn")):
        if value not in allowed:
            raise ValueError(f"unknown {what} {value!r} (use {', '.join(map(str, allowed))})")
    if table is not None and table not in TABLES:
        raise ValueError(f"unknown table {table!r} (use {', '.join(TABLES)})")
    if not (160 <= min(size) and max(size) <= 12000):
        raise ValueError(f"photo size {size[0]}x{size[1]} is outside 160 to 12000 pixels a side")


def _table_photo(planted: Planted, art: str, seed: int, layout: str, table: str, size: tuple,
                 level: Level, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, dict]:
    """Tiles laid out on a table and photographed: the image, tile corners, camera settings."""
    p = planted.puzzle
    quads = lay_out(layout, p.rows, p.cols, level.jitter, rng)
    skew = rng.uniform(-level.skew, level.skew)
    quads = _turned(quads, skew)
    keep = quads.reshape(-1, 2)
    keyboard = None
    if table == "white":
        keyboard = keyboard_at(quads, rng)
        # frame the tiles and the keyboard's near part: the rest runs out of the picture
        near = keyboard[np.argsort(np.abs(keyboard[:, 1] - quads[..., 1].mean()))[:2]].mean(axis=0)
        keep = np.vstack([keep, near + 0.3 * (keyboard.mean(axis=0) - near)])
    tilt = rng.uniform(*level.tilt)
    h = view(keep, size, tilt, rng.uniform(0, 360), rng.uniform(0.7, 0.9), rng)
    image = _table_image(table, h, size, keyboard, rng)
    seen = np.array([cv2.perspectiveTransform(q.reshape(-1, 1, 2), h).reshape(4, 2) for q in quads])
    image = lit(image, shadow_map(size, seen, level.shadow, rng))
    side = np.linalg.norm(seen[:, 1] - seen[:, 0], axis=1).mean()
    edge = np.array([0.0, 0.012 * side])
    # art drawn at about the size it is seen (capped: upscaling a little only softens it)
    tiles = puzzle_tiles(planted, art, int(np.clip(1.1 * side, 64, 640)), seed)
    alpha = card_alpha(tiles[0].shape[0])
    for tile, quad in zip(tiles, seen):
        paste(image, tile, quad, alpha, edge)
    gloss = level.glare * ART_SETS[art].card.gloss
    blur = rng.uniform(*level.blur) * size[0] / 1000
    image = develop(image, gain_map(size, level, rng), glare_map(size, seen, gloss, rng),
                    blur, level.noise, rng)
    camera = {"tilt": round(float(tilt), 2), "skew": round(float(skew), 2), "blur": round(float(blur), 2),
              "noise": level.noise, "glare": round(float(gloss), 2), "quality": level.quality}
    return image, seen, camera


def _turned(points: np.ndarray, degrees: float) -> np.ndarray:
    """``points`` turned ``degrees`` clockwise about their middle."""
    m = cv2.getRotationMatrix2D((0.0, 0.0), -degrees, 1.0)[:, :2]
    mid = points.reshape(-1, 2).mean(axis=0)
    return (points - mid) @ m.T + mid


def _table_image(table: str, h: np.ndarray, size: tuple, keyboard: np.ndarray | None,
                 rng: np.random.Generator) -> np.ndarray:
    """The table surface as the camera sees it (texture drawn in table units, warped)."""
    w, hh = size
    frame = np.float64([[0, 0], [w, 0], [w, hh], [0, hh]]).reshape(-1, 1, 2)
    region = cv2.perspectiveTransform(frame, np.linalg.inv(h)).reshape(-1, 2)
    lo, hi = region.min(axis=0) - 0.5, region.max(axis=0) + 0.5
    # under a megapixel of texture: the table is smooth next to the tiles' print
    unit = min(np.sqrt(0.7e6 / np.prod(hi - lo)), 300)
    shape = (int((hi - lo)[1] * unit) + 1, int((hi - lo)[0] * unit) + 1)
    texture = table_texture(table, shape, unit, rng)
    if keyboard is not None:
        draw_keyboard(texture, (keyboard - lo) * unit)
    to_texture = np.array([[unit, 0, -unit * lo[0]], [0, unit, -unit * lo[1]], [0, 0, 1]])
    return cv2.warpPerspective(texture, h @ np.linalg.inv(to_texture), size, flags=cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REFLECT)


def _sheet_tile_px(dpi: float) -> int:
    return max(64, round(dpi * 55 / 25.4))  # sheet_page's 55 mm tiles


def _scan(planted: Planted, art: str, seed: int, size: tuple, level: Level,
          rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, dict]:
    """The printed sheet on a flatbed: white page, slight skew, even light."""
    p = planted.puzzle
    w, h = size
    long_side = max(w, h) * rng.uniform(0.9, 0.97)
    dpi = 300 * long_side / 3508
    tiles = puzzle_tiles(planted, art, _sheet_tile_px(dpi), seed)
    page, corners = sheet_page(tiles, p.rows, p.cols, f"edgematch  {art}  #{seed}", dpi=round(dpi))
    turn = 90 if w > h else 0  # a portrait page scanned into a landscape frame lies sideways
    skew = rng.uniform(-1, 1) * level.skew / 10  # a page lies much straighter than loose tiles
    ph, pw = page.shape[:2]
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), -(turn + skew), 1.0)
    m[:, 2] += np.array([w / 2, h / 2]) - np.array([pw / 2, ph / 2]) + rng.uniform(-0.02, 0.02, 2) * size
    image = np.full((h, w, 3), int(rng.uniform(200, 225)), np.uint8)  # the scanner lid
    cv2.warpAffine(page, m, size, dst=image, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    seen = cv2.transform(corners.reshape(-1, 1, 2), m).reshape(-1, 4, 2)
    calm = level._replace(light=0.04, vignette=0.0, blocker=False, cast=level.cast / 3)
    blur = rng.uniform(0.2, 0.6) * (1 + max(w, h) / 4000)
    image = develop(image, gain_map(size, calm, rng), None, blur, level.noise / 2, rng)
    camera = {"skew": round(float(skew), 2), "dpi": round(dpi, 1), "blur": round(float(blur), 2),
              "noise": level.noise / 2, "quality": level.quality}
    return image, seen, camera


def save_photo(path: str | os.PathLike, image: np.ndarray, truth: dict,
               quality: int | None = None) -> Path:
    """Write ``image`` and its truth JSON beside it (same stem); return the JSON path.

    A ``.jpg`` is written with Pillow at the difficulty's quality; when
    ``truth["params"]["exif"]`` is a turn, its pixels are stored turned back
    and the EXIF Orientation tag tells viewers to turn them, as phones do.
    Other suffixes go through OpenCV (no EXIF turn possible).

    >>> import tempfile, pathlib
    >>> image, truth = render_photo(seed=1, size=(320, 240), exif=90)
    >>> save_photo(pathlib.Path(tempfile.mkdtemp()) / "phone.jpg", image, truth).name
    'phone.json'
    """
    from PIL import Image

    from .truth import save_truth

    path = Path(path)
    quality = quality or truth["camera"]["quality"]
    turn = truth["params"]["exif"]
    if path.suffix.lower() in (".jpg", ".jpeg"):
        stored = np.ascontiguousarray(np.rot90(image, turn // 90))
        picture = Image.fromarray(cv2.cvtColor(stored, cv2.COLOR_BGR2RGB))
        tags = Image.Exif()
        tags[0x0112] = _ORIENTATION[turn]
        tags[0x0110] = "edgematch render"
        data = io.BytesIO()
        picture.save(data, format="JPEG", quality=quality, exif=tags.tobytes())
        write_atomic(path, data.getvalue())
    else:
        if turn:
            raise ValueError(f"{path}: an EXIF turn needs a .jpg file")
        ok, data = cv2.imencode(path.suffix, image)
        if not ok:
            raise ValueError(f"{path}: cannot write images of this type")
        write_atomic(path, data.tobytes())
    truth = dict(truth, image=path.name)
    save_truth(path.with_suffix(".json"), truth)
    return path.with_suffix(".json")
