"""Photo to answer: the whole path, one step per module.

    read_image -> find_tiles -> rectify -> normalise -> edge crops -> describe
    -> read (library) or zerolabel (none) -> solve, or repair -> draw

`photo_edges` runs the steps up to the edge crops (shared by `solve` and
`label`); `solve_photo` the rest. Tiles are rectified small (`describe.SIZE`)
because reading needs no more, so reading costs little next to decoding the
photo.
"""
from __future__ import annotations

import math
import os
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import NamedTuple

import numpy as np
# Not used here: numpy loads numpy.ma on the first percentile a photo needs (10 ms). The
# photo path is imported while OpenCV fills its Lab tables on the other core
# (`vision.lab.ready_lab`) and the main thread would wait for them: loaded now, it is free.
import numpy.ma  # noqa: F401

from solver import Match, Puzzle, Result, solve
from solver.repair import repair

from . import detect, draw, misfits
from .cli.errors import NotRecognised
from .describe import SIZE, Looks, describe, normalise_veiled, tile_crops
from .images import colourless, in_image, in_photo, read_photo, write_image
from .library import Library, load_library
from .read import Reading, library_looks, read_edges
from .taught import read_as_taught
from .rectify import inset, rectify


REPAIR_SECONDS = 5.0  # re-reading search time when no --timeout is given


class PhotoEdges(NamedTuple):
    """A photo's tiles, found and cut into edge crops (tiles 0-based, reading order)."""

    image: np.ndarray
    corners: list  # (4, 2) float32 per tile: NW, NE, SE, SW in reading orientation
    tiles: list  # light-normalised rectified tiles, BGR
    crops: list  # 4 per tile, N E S W, seam at the top
    veils: list  # per crop, the glare veil left on it (`describe.normalise_veiled`)


def photo_edges(image: np.ndarray, drawing: str | os.PathLike | None = None,
                corners: list | None = None, count: int | None = None,
                name: str | os.PathLike | None = None) -> PhotoEdges:
    """Find the tiles of a photo and cut out their edges.

    ``corners``, when given, are the tiles' (4, 2) corners (NW, NE, SE, SW
    in reading orientation) and nothing is sought: e.g. a photo's truth, to
    measure reading apart from finding. ``count``, when known (a library
    knows its puzzle's), is how many tiles there must be (a block the tiles
    found cut into another grid is laid in it: `vision.detect.counted_cards`);
    else any square grid of them is a puzzle. ``name``, the photo's, begins
    the message when no puzzle is found, so a user with several knows which.

    Raises
    ------
    NotRecognised
        When the tiles found make no puzzle (`vision.misfits.problem`); the
        photo with what was found numbered on it is then written to
        ``drawing``, when given.

    Examples
    --------
    >>> from vision.render import render_photo
    >>> image, truth = render_photo(seed=14, layout="scan", art="witches", size=(1200, 900))
    >>> edges = photo_edges(image)
    >>> len(edges.corners), len(edges.crops), edges.crops[0].shape
    (9, 36, (48, 96, 3))
    """
    corners = detect.counted_cards(image, detect.find_tiles(image), count) if corners is None \
        else [np.float32(c) for c in corners]
    trouble = misfits.problem(corners, count)
    if trouble:
        if drawing is not None:
            write_image(drawing, draw.number_tiles(image, corners))
        raise NotRecognised((f"{name}: " if name is not None else "") + trouble
                            + (f" (see {drawing})" if drawing is not None else ""))
    tiles, veils = normalise_veiled([rectify(image, inset(c), size=SIZE) for c in corners])
    return PhotoEdges(image, corners, tiles, tile_crops(tiles), tile_crops(veils))


def grid_shape(n: int) -> tuple[int, int]:
    """The most nearly square grid of ``n`` tiles.

    >>> grid_shape(9), grid_shape(12), grid_shape(7)
    ((3, 3), (3, 4), (1, 7))
    """
    rows = max(r for r in range(1, math.isqrt(n) + 1) if n % r == 0)
    return rows, n // rows


def solve_photo(path: str | os.PathLike, library: str | os.PathLike | Library | None = None,
                all: bool = False, out: str | os.PathLike | None = None,
                timeout: float | None = None, corners: list | None = None,
                decoding: Future | None = None) -> dict:
    """Solve the puzzle in a photo; write the annotated photo; return SPEC's JSON.

    Parameters
    ----------
    path : str or path-like
        The photo or scan.
    library : folder, Library or None
        Templates to read the edges with; None reads with no templates
        (`vision.zerolabel`), and codes are then group numbers.
    all : bool
        Find every distinct solution, not just the first.
    out : str or path-like, optional
        The annotated image; default ``NAME.solved.png`` beside the photo.
    timeout : float, optional
        Seconds the search may take.
    corners : list of (4, 2) arrays, optional
        The tiles' corners, when known: then they are not sought (`photo_edges`).
    decoding : Future, optional
        The photo being read already (`vision.images.read_ahead` of ``path``),
        started by a caller that knew early that a photo was coming.

    A big JPEG is read shrunk (`vision.images.read_photo`), its tiles found
    and read there (`vision.detect.photo_tiles`); the corners reported are
    the photo's own pixels all the same.

    Returns
    -------
    dict
        SPEC.md's ``solve --json`` document. ``count`` 0 means nothing fits
        (exit 1); then ``annotated`` shows the best partial arrangement.
        When the top reading fitted nowhere but a likely re-reading did, or
        the library knew the photo's tiles (`vision.taught`) and an edge
        read otherwise, ``reinterpreted`` lists those edges, as
        ``{"tile": id, "side": "N", "read": code, "now": code}``. ``warnings``
        lists what may make the answer wrong (a photo with no colour, read
        with no library or against one taught in colour).

    Raises
    ------
    InputError
        The photo or library cannot be read (exit 2).
    NotRecognised
        No puzzle in the photo (exit 3); the annotated image shows what was found.

    Examples
    --------
    >>> import tempfile, vision
    >>> samples = Path(vision.__file__).parents[1] / "samples"
    >>> answer = solve_photo(samples / "photos" / "witches-touching-normal.jpg",
    ...                      library=samples / "library" / "witches",
    ...                      out=Path(tempfile.mkdtemp()) / "answer.png")
    >>> answer["count"], len(answer["tiles"]), Path(answer["annotated"]).exists()
    (1, 9, True)
    """
    from .cli.report import solution_json

    path = Path(path)
    out = Path(out) if out else path.with_name(path.stem + ".solved.png")
    # One helper thread: it loads the library, then OpenCV's font, which OpenCV keeps per
    # thread, so it draws the answer too. Started before the photo is waited for: the core
    # the decode leaves idle does that work, rather than sharing both with the tiles' search.
    with ThreadPoolExecutor(1) as helper:
        known = helper.submit(_library_looks, library)
        helper.submit(draw.ready_font)
        photo = read_photo(path) if decoding is None else decoding.result()
        try:
            found = corners is None
            if found:
                photo, corners = detect.photo_tiles(photo, path)
            else:
                corners = [in_image(c, photo.shrink) for c in corners]
        finally:
            library, stored = known.result()  # a broken library is reported before a photo with no puzzle
        image = photo.image
        if found and library:  # a block cut into another grid is laid in the library's count
            corners = detect.counted_cards(image, corners, library.tiles)
        # what the answer is drawn on, made on the helper while the edges are cut and read and the answer
        # sought (with no library, once `unlabelled_reading` has moved any tile found a little off)
        corners = [np.float32(c) for c in corners]  # as `photo_edges` takes them, so the backdrop has its tiles
        ground = helper.submit(_backdrop, image, corners) if library else None
        edges = photo_edges(image, drawing=out, corners=corners, count=library.tiles if library else None,
                            name=path)
        rows, cols = grid_shape(len(edges.corners))
        match = Match.parse(library.match) if library else Match()
        if library is None:  # first, since it may move tiles found a little off
            edges, reading = unlabelled_reading(image, edges)
            ground = helper.submit(_backdrop, image, edges.corners)
        taught = []  # edges the library's taught tiles read otherwise
        if library is not None:
            reading, taught = read_as_taught(read_edges(describe(edges.crops, edges.veils), library,
                                                        stored=stored), library)
        puzzle, result, fix = _search(reading, rows, cols, match, all, timeout,
                                      likeliest=library is not None)
        if taught:
            fix = replace(fix, reinterpreted=taught + fix.reinterpreted)
        drawing = helper.submit(_drawing, edges, puzzle, result, fix, ground).result()
    write_image(out, drawing)
    document = solution_json(str(path), puzzle, result,
                             corners=[in_photo(c, photo.shrink) for c in edges.corners],
                             confidence=reading.confidence,
                             annotated=str(out))
    if fix is not None and fix.reinterpreted:
        document["reinterpreted"] = [{"tile": e.tile + 1, "side": "NESW"[e.side], "read": e.read, "now": e.now}
                                     for e in fix.reinterpreted]
    if colourless(image) and (library is None or not colourless(np.vstack(library.crops))):
        document["warnings"] = ["the photo has no colour, so figures that differ only in colour look alike:"
                                " check the answer, or photograph the tiles in colour"]
    return document


def unlabelled_reading(image: np.ndarray, edges: PhotoEdges) -> tuple[PhotoEdges, Reading]:
    """Read a photo's edges with no library, as `solve_photo` does.

    Tiles found a little off are realigned first (`vision.zerolabel.realigned`)
    and cut again if any moved; then the halves are grouped and paired
    (`vision.zerolabel.read_unlabelled`). Returns the edges as read and the
    reading, codes signed figure numbers.
    """
    from .zerolabel import read_unlabelled, realigned, seam_reading

    moved = realigned(image, edges.corners)
    if any(not np.array_equal(a, b) for a, b in zip(moved, edges.corners)):
        edges = photo_edges(image, corners=moved)
    rows, cols = grid_shape(len(edges.corners))
    seams, slack = seam_reading(image, edges.corners)
    return edges, read_unlabelled(edges.crops, rows, cols, seams=seams, slack=slack)


def _library_looks(library: str | os.PathLike | Library | None) -> tuple[Library | None, Looks | None]:
    """The library, loaded when given as a folder, and its edges' looks; None, None for none."""
    if library is None:
        return None, None
    if isinstance(library, (str, os.PathLike)):
        library = load_library(library)
    return library, library_looks(library)


def _search(reading, rows: int, cols: int, match: Match, all: bool, timeout: float | None,
            likeliest: bool = False):
    """Solve the top reading; when it fits nowhere, the likeliest re-reading that does.

    With ``likeliest`` (a library's readings, whose confidences are worth
    weighing) the likeliest arrangement is sought straight away: of several
    that fit, the one that puts doubtful edges on the rim wins.

    Returns the puzzle as finally read, the search result, and the repair
    (None when the top reading solved).
    """
    start = time.perf_counter()
    if not likeliest:
        try:
            puzzle = Puzzle(tiles=tuple(reading.tiles), rows=rows, cols=cols, match=match)
            result = solve(puzzle, all=all, timeout=timeout)
            if result.solutions or not result.complete:
                return puzzle, result, None
        except ValueError:  # a code read with no partner on any tile: only a re-reading can fit
            pass
    left = REPAIR_SECONDS if timeout is None else max(0.0, timeout - (time.perf_counter() - start))
    fix = repair(reading.candidates, rows, cols, match, timeout=left)
    if fix.fits:
        try:
            puzzle = Puzzle(tiles=tuple(fix.tiles), rows=rows, cols=cols, match=match)
            # one answer is the likeliest arrangement itself; all of them need the search
            result = solve(puzzle, all=True, timeout=left) if all else Result(solutions=[fix.grid], count=1)
        except ValueError:  # an outer edge keeps a code no tile partners: the repair's arrangement stands
            puzzle = SimpleNamespace(tiles=tuple(fix.tiles), rows=rows, cols=cols, match=match)
            result = Result(solutions=[fix.grid], count=1)
    else:  # nothing fits: report the top reading (a Puzzle may refuse its partnerless codes)
        puzzle = SimpleNamespace(tiles=tuple(reading.tiles), rows=rows, cols=cols, match=match)
        result = Result(count=0, complete=fix.complete)
    # stats are the whole search: first try, repair and the final solve
    return puzzle, replace(result, nodes=result.nodes + fix.nodes,
                           seconds=time.perf_counter() - start), fix


def _backdrop(image: np.ndarray, corners: list) -> draw.Backdrop:
    """`draw.backdrop` of the tiles at ``corners``, for the grid they make (`grid_shape`)."""
    return draw.backdrop(image, corners, *grid_shape(len(corners)))


def _drawing(edges: PhotoEdges, puzzle, result, fix, ground: Future) -> np.ndarray:
    """The answer drawn on the photo (on ``ground``, `draw.backdrop`'s); when nothing fits, the best partial arrangement."""
    if result.solutions:
        grid = result.solutions[0]
    elif fix is not None:
        grid = fix.grid
    else:  # the search stopped before finding anything: show what was read
        return draw.number_tiles(edges.image, edges.corners)
    return draw.annotate(edges.image, edges.corners, grid,
                         reinterpreted=fix.reinterpreted if fix else (),
                         mismatched=fix.mismatched if fix and not result.solutions else (),
                         ground=ground.result())
