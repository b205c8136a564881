"""Puzzle files: JSON, YAML and plain text, read into a `Puzzle`.

All three carry the same keys (SPEC.md): ``tiles`` and optionally ``name``,
``rows``, ``cols``, ``match``, ``order``, ``border``, ``fixed`` and
``corners``. Plain text lists one tile per line, its four codes separated by
spaces or commas; ``#`` starts a comment; a ``key: value`` line sets a key
(only the first colon splits, so ``match: sum:9`` works; a value in braces or
brackets is read as YAML, as in ``fixed: [{tile: 5, row: 1, col: 1}]``).

Every reader turns the file into one mapping plus the line each part came
from, and `puzzle_from` builds the puzzle from that, so the checks and their
messages are the same whatever the format. Every problem is a `PuzzleError`
whose message is one line, ``FILE:LINE: problem``.

>>> p = loads_puzzle("match: sum:9  # halves add up to 9\\n" + "1 2 8 7\\n" * 4, "w.txt")
>>> p.rows, p.cols, p.match.describe(), p.tiles[0]
(2, 2, 'sum:9', (1, 2, 8, 7))
"""
from __future__ import annotations

import difflib
import json
import math
import re
import sys
from pathlib import Path

import yaml

from .puzzle import SIDES, Fixed, Puzzle
from .rules import Match, normalise_code

KEYS = ("name", "rows", "cols", "match", "order", "border", "fixed", "corners", "tiles")
FORMATS = ("json", "yaml", "text")
SUFFIXES = {".json": "json", ".yaml": "yaml", ".yml": "yaml", ".txt": "text"}
# A 16x16 puzzle file is a few kB; anything far larger is not a puzzle.
MAX_BYTES = 1 << 20
TOO_DEEP = "lists nested too deeply to be a puzzle"

_HEADER = re.compile(r"^\s*([A-Za-z_][\w-]*)\s*:(.*)$")
_SPLIT = re.compile(r"[\s,]+")


class PuzzleError(ValueError):
    """A puzzle file that cannot be read: ``FILE:LINE: problem`` on one line.

    >>> str(PuzzleError("p.txt", "tile 2 has 3 edges, not 4", 7))
    'p.txt:7: tile 2 has 3 edges, not 4'
    """

    def __init__(self, source: str, problem: str, line: int | None = None) -> None:
        self.source, self.problem, self.line = source, " ".join(str(problem).split()), line
        where = f"{source}:{line}" if line else source
        super().__init__(f"{where}: {self.problem}")


def load_puzzle(path: str | Path) -> Puzzle:
    """Read a puzzle file; ``"-"`` reads puzzle text from stdin.

    The format comes from the suffix (``.json``, ``.yaml``/``.yml``,
    ``.txt``), else from the content.

    Raises
    ------
    PuzzleError
        For anything unreadable, naming the file (and line when known).
    """
    source = "<stdin>" if str(path) == "-" else str(path)
    data = sys.stdin.buffer.read(MAX_BYTES + 1) if source == "<stdin>" else _read_bytes(Path(path))
    if len(data) > MAX_BYTES:
        raise PuzzleError(source, f"larger than {MAX_BYTES // 1024} kB: not a puzzle file")
    if b"\0" in data:
        raise PuzzleError(source, "binary data, not a puzzle file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise PuzzleError(source, "binary data or not UTF-8 text, not a puzzle file") from None
    fmt = None if source == "<stdin>" else SUFFIXES.get(Path(path).suffix.lower())
    return loads_puzzle(text, source, fmt)


def _read_bytes(path: Path) -> bytes:
    if path.is_dir():
        raise PuzzleError(str(path), "is a directory, not a puzzle file")
    try:
        with path.open("rb") as f:
            return f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise PuzzleError(str(path), "no such file") from None
    except OSError as error:
        raise PuzzleError(str(path), f"cannot read: {error.strerror or error}") from None


def loads_puzzle(text: str, source: str = "<string>", fmt: str | None = None) -> Puzzle:
    """Read a puzzle from ``text`` in ``fmt`` (``json``, ``yaml``, ``text``; None: guess).

    ``source`` names the text in error messages.

    >>> loads_puzzle('{"tiles": [[1, 2, -1, -2], [1, 2, -1, -2], '
    ...              '[1, 2, -1, -2], [1, 2, -1, -2]]}', "p.json").size
    4
    """
    if not text.strip():
        raise PuzzleError(source, "empty file: no tiles")
    fmt = fmt or guess_format(text)
    if fmt not in FORMATS:
        raise PuzzleError(source, f"unknown format {fmt!r} (use {', '.join(FORMATS)})")
    data, lines = {"json": _read_json, "yaml": _read_yaml, "text": _read_text}[fmt](text, source)
    return puzzle_from(data, source, lines)


def guess_format(text: str) -> str:
    """Which format ``text`` is written in: JSON, YAML (a ``tiles:`` key) or plain text.

    >>> guess_format('{"tiles": []}'), guess_format("tiles:\\n- [1, 2, 3, 4]"), guess_format("1 2 3 4")
    ('json', 'yaml', 'text')
    """
    body = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if body and body[0].lstrip()[:1] in "{[":
        return "json"
    if any(re.match(r"^\s*tiles\s*:", line) for line in body):
        return "yaml"
    return "text"


def _read_json(text: str, source: str) -> tuple[dict, dict]:
    def no_repeats(pairs: list) -> dict:
        keys = [k for k, _ in pairs]
        repeated = next((k for k in keys if keys.count(k) > 1), None)
        if repeated is not None:
            raise PuzzleError(source, f"key {repeated!r} is given twice")
        return dict(pairs)

    try:
        data = json.loads(text, object_pairs_hook=no_repeats)
    except json.JSONDecodeError as error:
        raise PuzzleError(source, f"not valid JSON: {error.msg} (column {error.colno})", error.lineno) from None
    except RecursionError:
        raise PuzzleError(source, TOO_DEEP) from None
    # JSON is YAML's flow style, so YAML's composer can say where each part stands.
    return data, _lines_of(text)


def _read_yaml(text: str, source: str) -> tuple[dict, dict]:
    try:
        documents = list(yaml.safe_load_all(text))
    except yaml.YAMLError as error:
        mark, began = getattr(error, "problem_mark", None), getattr(error, "context_mark", None)
        problem = getattr(error, "problem", None) or "cannot parse"
        if began is not None and getattr(error, "context", None):
            problem += f" ({error.context} that began on line {began.line + 1})"
        raise PuzzleError(source, f"not valid YAML: {problem}", mark.line + 1 if mark else None) from None
    except RecursionError:
        raise PuzzleError(source, TOO_DEEP) from None
    if len(documents) != 1:
        raise PuzzleError(source, f"holds {len(documents)} YAML documents, not one puzzle")
    return documents[0], _lines_of(text)


def _lines_of(text: str) -> dict:
    """Line numbers of the top-level keys and of each tile and hint, best effort."""
    try:
        root = yaml.compose(text)
    except (yaml.YAMLError, RecursionError):
        return {}
    lines: dict = {}
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            lines[key.value] = key.start_mark.line + 1
            if isinstance(value, yaml.SequenceNode):
                for i, item in enumerate(value.value):
                    lines[(key.value, i)] = item.start_mark.line + 1
    return lines


def _read_text(text: str, source: str) -> tuple[dict, dict]:
    data: dict = {"tiles": []}
    lines: dict = {}
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        header = _HEADER.match(line)
        if header:
            key, value = header.group(1).lower(), header.group(2).strip()
            if key in lines:
                raise PuzzleError(source, f"key {key!r} is given twice", number)
            data[key], lines[key] = _header_value(key, value, source, number), number
        else:
            lines[("tiles", len(data["tiles"]))] = number
            data["tiles"].append([code for code in _SPLIT.split(line) if code])
    lines.setdefault("tiles", lines.get(("tiles", 0)))
    return data, lines


def _header_value(key: str, value: str, source: str, line: int) -> object:
    """A header value: YAML when it is quoted, a list, a mapping, a number or a flag, else text."""
    if key == "tiles":
        raise PuzzleError(source, "in plain text, list the tiles one per line, not as 'tiles:'", line)
    if not value or value[0] in "[{\"'" or key in ("rows", "cols", "corners", "fixed"):
        try:
            return yaml.safe_load(value)
        except yaml.YAMLError as error:
            raise PuzzleError(source, f"cannot read {key!r}: {getattr(error, 'problem', error)}", line) from None
    return value


def puzzle_from(data: object, source: str, lines: dict | None = None) -> Puzzle:
    """Build a puzzle from the mapping a file holds; every problem is a `PuzzleError`.

    ``lines`` maps keys (and ``("tiles", i)``) to the line they stand on.

    >>> puzzle_from({"match": "same", "tiles": [[1, 1, 1, 1]] * 4}, "p").match.kind
    'same'
    """
    lines = lines or {}

    def fail(problem: str, *keys: object) -> PuzzleError:
        """The error, at the line of the first of ``keys`` whose line is known."""
        return PuzzleError(source, problem, next((lines[k] for k in keys if k in lines), None))

    if not isinstance(data, dict):
        raise fail(f"expected a mapping with a 'tiles' list, found {_kind(data)}")
    data = _as_puzzle(data)
    for key in data:
        if key not in KEYS:
            near = difflib.get_close_matches(str(key), KEYS, n=1, cutoff=0.7)
            hint = f" (did you mean {near[0]!r}?)" if near else f" (known keys: {', '.join(KEYS)})"
            raise fail(f"unknown key {key!r}{hint}", key)
    corners = data.get("corners", False)
    if not isinstance(corners, bool):
        raise fail(f"'corners' must be true or false, not {corners!r}", "corners")
    tiles = _tiles(data, fail)
    rows, cols = _shape(data, len(tiles), fail)
    spec = data.get("match")
    try:
        match = Match.parse(spec.strip().lower() if isinstance(spec, str) else spec)
    except ValueError as error:
        raise fail(str(error), "match") from None
    border = None
    if data.get("border") is not None:
        border = _code(data["border"], "'border'", fail, "border")
    name = data.get("name")
    name = Path(source).stem if name is None else str(name)
    fixed = _fixed(data.get("fixed"), fail)
    try:
        return Puzzle(tiles=tiles, rows=rows, cols=cols, match=match, border=border,
                      fixed=fixed, corners=corners, name=name)
    except ValueError as error:
        raise fail(str(error)) from None


def _as_puzzle(data: dict) -> dict:
    """The puzzle an answer of ``edgematch solve --json`` was solved as (its tiles' edges, grid and
    rule), so the codes a photo was read as can be solved again, by another engine or exported;
    any other mapping as it is.

    >>> _as_puzzle({"input": "photo.jpg", "rows": 2, "cols": 2, "match": "sum:9", "solutions": [],
    ...             "tiles": [{"id": 1, "edges": [1, 2, 8, 7], "confidence": [0.9] * 4}]})
    {'name': 'photo', 'rows': 2, 'cols': 2, 'match': 'sum:9', 'tiles': [[1, 2, 8, 7]]}
    """
    if not {"input", "solutions"} <= set(data) or not isinstance(data.get("tiles"), list):
        return data
    return {"name": Path(str(data["input"])).stem, "rows": data.get("rows"), "cols": data.get("cols"),
            "match": data.get("match"),
            "tiles": [tile.get("edges") if isinstance(tile, dict) else tile for tile in data["tiles"]]}


def _tiles(data: dict, fail) -> tuple:
    tiles = data.get("tiles")
    if tiles is None:
        raise fail("no tiles")
    if not isinstance(tiles, list):
        raise fail(f"'tiles' must be a list of tiles, found {_kind(tiles)}", "tiles")
    if not tiles:
        raise fail("no tiles", "tiles")
    order = data.get("order", SIDES)
    if not isinstance(order, str) or sorted(order.upper()) != sorted(SIDES):
        raise fail(f"'order' must be the letters N, E, S, W in some order, not {order!r}", "order")
    if data.get("corners") and order.upper() != SIDES:
        raise fail("'order' applies to edges; corner colours are listed NW, NE, SE, SW", "order")
    where = [order.upper().index(side) for side in SIDES]
    read = []
    for i, tile in enumerate(tiles):
        if not isinstance(tile, list):
            raise fail(f"tile {i + 1} must be a list of 4 codes, found {_kind(tile)}", ("tiles", i), "tiles")
        if len(tile) != 4:
            raise fail(f"tile {i + 1} has {len(tile)} edges, not 4", ("tiles", i), "tiles")
        codes = [_code(c, f"tile {i + 1}", fail, ("tiles", i)) for c in tile]
        read.append(tuple(codes[k] for k in where))
    return tuple(read)


def _code(value: object, what: str, fail, key: object) -> object:
    try:
        return normalise_code(value)
    except ValueError as error:
        raise fail(f"{what}: {error}", key) from None


def _shape(data: dict, n: int, fail) -> tuple[int, int]:
    """Rows and columns; a square grid when neither is given."""
    given = {}
    for key in ("rows", "cols"):
        value = data.get(key)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise fail(f"{key!r} must be a whole number of at least 1, not {value!r}", key)
            given[key] = value
    if len(given) == 2:
        return given["rows"], given["cols"]
    if len(given) == 1:
        (key, value), = given.items()
        other = n // value
        if other * value != n:
            raise fail(f"{n} tiles do not fill whole {'rows' if key == 'cols' else 'columns'} "
                       f"of {value}", key)
        return (value, other) if key == "rows" else (other, value)
    side = math.isqrt(n)
    if side * side != n:
        raise fail(f"{n} tiles make no square grid: give 'rows' and 'cols'", "tiles")
    return side, side


def _fixed(hints: object, fail) -> tuple:
    """Hint tiles: 1-based tile, row, col and clockwise degrees -> 0-based `Fixed`."""
    if hints is None:
        return ()
    if not isinstance(hints, list):
        raise fail(f"'fixed' must be a list of {{tile, row, col, rotation}}, found {_kind(hints)}", "fixed")
    fixed = []
    for i, hint in enumerate(hints):
        where = (("fixed", i), "fixed")
        if not isinstance(hint, dict) or not {"tile", "row", "col"} <= set(hint) \
                or not set(hint) <= {"tile", "row", "col", "rotation"}:
            raise fail(f"fixed entry {i + 1} must have tile, row, col and optionally rotation, "
                       f"found {hint!r}", *where)
        values = [hint[k] for k in ("tile", "row", "col")] + [hint.get("rotation", 0)]
        if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
            raise fail(f"fixed entry {i + 1}: tile, row, col and rotation must be whole numbers", *where)
        tile, row, col, rotation = values
        if rotation % 90:
            raise fail(f"fixed entry {i + 1}: rotation {rotation} is not 0, 90, 180 or 270", *where)
        fixed.append(Fixed(tile - 1, row - 1, col - 1, rotation // 90 % 4))
    return tuple(fixed)


def _kind(value: object) -> str:
    return {list: "a list", dict: "a mapping", str: "text", type(None): "nothing"}.get(
        type(value), f"{type(value).__name__} {value!r}")
