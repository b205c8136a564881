"""Template libraries: the printed halves of a puzzle, with the codes a person gave them.

A library is a folder a person can open and check::

    DIR/library.json        the index: match rule, the puzzle's tile count,
                            and per stored edge its code, image file, and
                            the photo/tile/side it came from
    DIR/edges/*.png         each edge crop, light-normalised, seam at the top

Writes never lose what was there: new crops go to new files (named by their
content), and the index is replaced last, in one `os.replace`. An
interrupted `add_edges` leaves the old index, which names only old files.
Adding to an existing library merges: a crop already stored keeps one entry,
with the code given last.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np

from solver.rules import Match, normalise_code

from .cli.errors import InputError
from .files import write_atomic
from .images import read_image, write_image

INDEX = "library.json"
FORMAT = "edgematch-library"
VERSION = 1


class Library(NamedTuple):
    """A loaded library: stored edge crops and their codes, index order."""

    path: Path
    match: object  # the match spec as in puzzle files ("signed", "sum:9", ...)
    codes: list
    crops: list
    entries: list  # the index rows: code, image, photo, tile, side
    tiles: int | None = None  # tiles in the puzzle, as the photos it was taught from showed it


def load_library(path: str | os.PathLike) -> Library:
    """Load the library in folder ``path``.

    Raises
    ------
    InputError
        One line naming the folder or file when it is missing or broken.
    """
    folder = Path(path)
    index = folder / INDEX
    if not index.is_file():
        raise InputError(f"{folder}: not an edgematch library (no {INDEX})")
    try:
        data = json.loads(index.read_text(encoding="utf-8"))
        if data.get("format") != FORMAT:
            raise ValueError(f"format is {data.get('format')!r}, not {FORMAT!r}")
        Match.parse(data.get("match", "signed"))
        entries = list(data["edges"])
        codes = [normalise_code(e["code"]) for e in entries]
        tiles = data.get("tiles")
        if tiles is not None and (not isinstance(tiles, int) or tiles < 1):
            raise ValueError(f"tiles is {tiles!r}, not a count of tiles")
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise InputError(f"{index}: broken library index: {error}") from None
    crops = [read_image(folder / e["image"]) for e in entries]
    return Library(folder, data.get("match", "signed"), codes, crops, entries, tiles)


def existing_library(path: str | os.PathLike) -> Library | None:
    """The library in folder ``path``, or None when none was made there yet (no folder, or an empty one).

    A folder that holds other things and no library is refused: ``--library
    ~/Documents``, mistyped, would fill it with edge images.

    >>> import tempfile
    >>> existing_library(tempfile.mkdtemp()) is None
    True
    """
    path = Path(path)
    if (path / INDEX).exists():
        return load_library(path)
    if path.is_dir() and any(path.iterdir()):
        raise InputError(f"{path}: holds other files and no {INDEX}: give a new or empty folder for a library")
    return None


def add_edges(path: str | os.PathLike, crops: Sequence[np.ndarray], codes: Sequence,
              sources: Sequence[dict], match: object = None, tiles: int | None = None) -> Library:
    """Store edge crops with their codes in the library at ``path`` (made if new).

    Parameters
    ----------
    path : str or path-like
        The library folder.
    crops : sequence of (h, w, 3) uint8 ndarrays
        Light-normalised edge crops, seam at the top (`vision.describe`).
    codes : sequence
        The code of each crop.
    sources : sequence of dict
        Where each crop came from, stored in the index for people to read
        (e.g. ``{"photo": "a.jpg", "tile": 3, "side": "E"}``).
    match : match spec, optional
        The rule the codes follow; default: the library's, else "signed".
    tiles : int, optional
        The tiles in the photo the crops come from: the puzzle's size, which
        `solve` then expects to find in a photo read with this library.

    Returns
    -------
    Library
        The library as now stored.

    Raises
    ------
    InputError
        When the folder cannot be written, or ``tiles`` is not the count the
        library was taught before (a photo of another puzzle, or one whose
        tiles were not all found).

    Examples
    --------
    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> crop = np.zeros((4, 8, 3), np.uint8)
    >>> lib = add_edges(folder, [crop], [3], [{"tile": 1, "side": "N"}])
    >>> lib = add_edges(folder, [crop + 9], [-3], [{"tile": 2, "side": "S"}])
    >>> load_library(folder).codes
    [3, -3]
    """
    folder = Path(path)
    old = existing_library(folder)
    if match is None:
        match = old.match if old else "signed"
    Match.parse(match)
    known = old.tiles if old else None
    if tiles is not None and known is not None and tiles != known:
        raise InputError(f"{folder}: its puzzle has {known} tiles, and this photo {tiles}")
    tiles = known if tiles is None else tiles
    try:
        (folder / "edges").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"{folder}: cannot write a library there: {error.strerror}") from None
    import hashlib  # here: reading a library, as every photo's solve does, loads no OpenSSL (5-15 ms)

    entries = {e["image"]: e for e in (old.entries if old else [])}
    for crop, code, source in zip(crops, codes, sources, strict=True):
        crop = np.ascontiguousarray(crop)
        image = f"edges/{hashlib.sha1(crop.tobytes()).hexdigest()[:16]}.png"
        if not (folder / image).exists():
            write_image(folder / image, crop)
        entries.pop(image, None)  # a re-labelled crop moves to the end
        entries[image] = {"code": normalise_code(code), "image": image, **source}
    size = {} if tiles is None else {"tiles": tiles}
    _write_index(folder, {"format": FORMAT, "version": VERSION, "match": match, **size,
                          "edges": list(entries.values())})
    return load_library(folder)


def _write_index(folder: Path, data: dict) -> None:
    write_atomic(folder / INDEX, (json.dumps(data, indent=1) + "\n").encode("utf-8"))
