"""Ground truth beside every synthetic photo, and scoring readers against it.

A truth file (``NAME.json`` beside ``NAME.jpg``) holds the image size, the
grid, the match rule, the art set and its figures, every tile's ``edges``
``[N, E, S, W]`` in the tile's own art frame with its ``corners`` (NW, NE,
SE, SW of that frame, in pixels of the image as a user sees it, EXIF
applied), the planted ``solution`` in SPEC.md's grid form (``tile`` is
1-based in the truth list, ``rotation`` turns the tile from its art frame),
and ``params``: everything `vision.render.render_photo` needs to make the
same image again.

A detector reports corners in its own reading orientation, so a tile's
corners may start at a different one of the four. `match_tiles` pairs
detected quads with truth tiles by centre and finds that cyclic shift, so
a reader can be scored code by code.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np

from solver import Match, Puzzle, turn

from ..files import write_atomic


class TileMatch(NamedTuple):
    """A detected quad paired with truth tile ``tile`` (0-based).

    ``shift``: detected corner ``i`` is truth corner ``(i + shift) % 4``;
    ``edges``: the truth codes in the detected order (``edges[0]`` runs from
    detected corner 0 to corner 1).
    """

    tile: int
    shift: int
    edges: tuple


def save_truth(path: str | os.PathLike, truth: dict) -> None:
    """Write ``truth`` as JSON, atomically (temp file, then rename).

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "photo.json"
    >>> save_truth(path, {"rows": 3})
    >>> load_truth(path.with_suffix(".jpg"))
    {'rows': 3}
    """
    write_atomic(path, (json.dumps(truth, indent=1) + "\n").encode("utf-8"))


def load_truth(path: str | os.PathLike) -> dict:
    """Read a truth file; accepts the JSON itself or the image beside it."""
    path = Path(path)
    if path.suffix.lower() != ".json":
        path = path.with_suffix(".json")
    return json.loads(path.read_text())


def truth_puzzle(truth: dict) -> Puzzle:
    """The puzzle the photo shows, tiles in truth order.

    >>> truth = {"rows": 2, "cols": 2, "match": "signed",
    ...          "tiles": [{"edges": [1, 2, -1, -2]}] * 4}
    >>> truth_puzzle(truth).tiles[0]
    (1, 2, -1, -2)
    """
    return Puzzle(tiles=tuple(tuple(t["edges"]) for t in truth["tiles"]),
                  rows=truth["rows"], cols=truth["cols"], match=Match.parse(truth["match"]))


def truth_grid(truth: dict) -> tuple:
    """The planted solution as rows of ``(tile, quarters)``, tiles 0-based.

    >>> truth_grid({"solution": [[{"tile": 2, "rotation": 270}, {"tile": 1, "rotation": 0}]]})
    (((1, 3), (0, 0)),)
    """
    return tuple(tuple((c["tile"] - 1, c["rotation"] // 90) for c in row)
                 for row in truth["solution"])


def match_tiles(truth: dict, quads: Sequence, tolerance: float = 0.35) -> list:
    """Pair each detected quad with the truth tile under it.

    Parameters
    ----------
    truth : a truth dict (see `load_truth`).
    quads : detected corners, each ``(4, 2)``: NW, NE, SE, SW in any of the
        four cyclic starts (the detector's reading orientation).
    tolerance : the largest centre distance accepted, as a fraction of the
        truth tile's side.

    Returns
    -------
    One `TileMatch` per quad, or None where no truth tile is that close.

    Examples
    --------
    >>> truth = {"tiles": [{"edges": [1, 2, 3, 4],
    ...          "corners": [[0, 0], [10, 0], [10, 10], [0, 10]]}]}
    >>> match_tiles(truth, [np.array([[10, 0], [10, 10], [0, 10], [0, 0]])])
    [TileMatch(tile=0, shift=1, edges=(2, 3, 4, 1))]
    """
    corners = np.array([t["corners"] for t in truth["tiles"]], float)
    centres = corners.mean(axis=1)
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=1), axis=2).mean(axis=1)
    found = []
    for quad in quads:
        quad = np.asarray(quad, float).reshape(4, 2)
        gap = np.linalg.norm(centres - quad.mean(axis=0), axis=1)
        tile = int(np.argmin(gap))
        if gap[tile] > tolerance * sides[tile]:
            found.append(None)
            continue
        misfit = [np.linalg.norm(quad - np.roll(corners[tile], -s, axis=0), axis=1).sum()
                  for s in range(4)]
        shift = int(np.argmin(misfit))
        edges = turn(truth["tiles"][tile]["edges"], -shift)
        found.append(TileMatch(tile, shift, tuple(edges)))
    return found


def detected_solution(truth: dict, matches: Sequence) -> list:
    """The planted solution in detected ids (1-based) and detected-frame turns.

    ``matches`` is what `match_tiles` returned for the detector's list.
    Raises ValueError when some truth tile was not detected.

    >>> truth = {"solution": [[{"tile": 1, "rotation": 90}]]}
    >>> detected_solution(truth, [TileMatch(0, 1, (2, 3, 4, 1))])
    [[{'tile': 1, 'rotation': 180}]]
    """
    ids = {m.tile: (i, m.shift) for i, m in enumerate(matches) if m is not None}
    grid = []
    for row in truth["solution"]:
        cells = []
        for cell in row:
            if cell["tile"] - 1 not in ids:
                raise ValueError(f"truth tile {cell['tile']} was not detected")
            i, shift = ids[cell["tile"] - 1]
            # the detected frame is the art frame turned back by `shift` quarters
            cells.append({"tile": i + 1, "rotation": (cell["rotation"] + 90 * shift) % 360})
        grid.append(cells)
    return grid
