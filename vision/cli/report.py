"""What `solve` says: SPEC.md's JSON for scripts, a table and how-to lines for people.

`solution_json` builds the document; `human_text` reads it out, so every solve
path (typed-in puzzles, photos) says the same things the same way.

>>> from solver import Puzzle, solve
>>> p = Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)
>>> doc = solution_json("p.json", p, solve(p))
>>> doc["solutions"][0]["grid"][0]
[{'tile': 1, 'rotation': 0}, {'tile': 2, 'rotation': 0}]
>>> print(human_text(doc).splitlines()[-1])
Tiles 1, 2, 3 and 4 are identical, so any can take another's place.
"""
from __future__ import annotations

import json
from typing import Sequence

from solver import Puzzle, Result

_TURNS = {0: "no turn", 90: "turn it 90° clockwise", 180: "turn it 180°",
          270: "turn it 90° anticlockwise"}


def solution_json(input: str, puzzle: Puzzle, result: Result, *,
                  corners: Sequence | None = None, confidence: Sequence | None = None,
                  annotated: str | None = None) -> dict:
    """The answer for one input as SPEC.md's ``solve --json`` document.

    Parameters
    ----------
    input : str
        The input as the user named it.
    puzzle, result : Puzzle, Result
        What was solved and what the search found.
    corners : sequence, optional
        Photos: each tile's NW, NE, SE, SW corners in image pixels.
    confidence : sequence, optional
        Photos: each tile's four edge-reading confidences.
    annotated : str, optional
        Photos: the path of the annotated image.

    Returns
    -------
    dict
        ``input``, ``rows``, ``cols``, ``match`` (the rule the codes follow:
        with ``tiles``, a puzzle file `solver.formats` reads back, so a
        photo's reading can go to ``--engine`` or ``export``), ``tiles``,
        ``solutions``, ``count``, ``complete``, ``stats``; ``identical`` (groups of 1-based ids of tiles
        that look the same) when there are any; ``interrupted`` (true) when
        Ctrl-C stopped the search; ``annotated`` when given.
    """
    tiles = [{"id": i, "edges": [_plain(e) for e in edges]} for i, edges in enumerate(puzzle.tiles, 1)]
    for key, values in (("corners", corners), ("confidence", confidence)):
        if values is not None:
            for tile, value in zip(tiles, values):
                tile[key] = [[float(x), float(y)] for x, y in value] if key == "corners" \
                    else [float(v) for v in value]
    document = {
        "input": str(input),
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "match": puzzle.match.describe(),
        "tiles": tiles,
        "solutions": [{"grid": [[{"tile": int(p.tile) + 1, "rotation": 90 * (int(p.quarters) % 4)}
                                 for p in row] for row in grid]} for grid in result.solutions],
        "count": result.count,
        "complete": bool(result.complete),
        "stats": {"seconds": round(result.seconds, 6), "nodes": int(result.nodes)},
    }
    if result.identical:
        document["identical"] = [[int(t) for t in group] for group in result.identical]
    if getattr(result, "interrupted", False):
        document["interrupted"] = True
    if annotated is not None:
        document["annotated"] = str(annotated)
    return document


def json_text(value: object, width: int = 100, _depth: int = 0) -> str:
    """JSON indented by two, but any part that fits on a line kept on one.

    >>> print(json_text({"tiles": [{"id": 1, "edges": [1, -4, -3, 2]}], "count": 1}, width=50))
    {
      "tiles": [{"id": 1, "edges": [1, -4, -3, 2]}],
      "count": 1
    }
    """
    flat = json.dumps(value)
    if not isinstance(value, (list, dict)) or not value or len(flat) + 2 * _depth <= width:
        return flat
    pad = "  " * (_depth + 1)
    if isinstance(value, dict):
        parts = [f"{pad}{json.dumps(str(k))}: {json_text(v, width, _depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(parts) + "\n" + "  " * _depth + "}"
    parts = [pad + json_text(v, width, _depth + 1) for v in value]
    return "[\n" + ",\n".join(parts) + "\n" + "  " * _depth + "]"


def exit_code(document: dict) -> int:
    """SPEC.md's exit code for an answer: 0 solved, 1 no arrangement fits."""
    return 0 if document["solutions"] else 1


def human_text(document: dict) -> str:
    """The answer for a person: a verdict line, then per solution a table and how-to lines.

    Each table cell shows the tile number and its clockwise turn in degrees;
    the lines below say the same in words, row by row.
    """
    name = "stdin" if document["input"] == "-" else document["input"]
    lines = [f"{name}: {document['rows']}x{document['cols']}, {_verdict(document)}"]
    solutions = document["solutions"]
    for n, solution in enumerate(solutions, 1):
        title = f"Solution {n} of {len(solutions)}" if len(solutions) > 1 else "Solution"
        lines += ["", f"{title} (each cell: tile, clockwise turn in degrees):"]
        lines += _table(solution["grid"])
        lines += [f"Row {r}, col {c}: tile {cell['tile']}, {_TURNS[cell['rotation']]}"
                  for r, row in enumerate(solution["grid"], 1) for c, cell in enumerate(row, 1)]
    for group in document.get("identical", []) if solutions else []:
        either = "either can take the other's place" if len(group) == 2 else "any can take another's place"
        lines.append(f"Tiles {_and(group)} are identical, so {either}.")
    reread = document.get("reinterpreted", [])
    if reread:  # the answer rests on these: the person holding the tiles can check them
        edges = "; ".join(f"tile {e['tile']} {e['side']}, {e['read']} now {e['now']}" for e in reread)
        lines += ["", f"Read again to fit, magenta on the image (check these on the tiles): {edges}."]
    return "\n".join(lines)


def _verdict(document: dict) -> str:
    count, complete, stats = document["count"], document["complete"], document["stats"]
    took = f"(searched {stats['nodes']:,} nodes in {_seconds(stats['seconds'])})"
    if count == 0:
        return f"no arrangement fits {took}" if complete else \
            f"no arrangement found before the search stopped {took}"
    found = f"{count} solution{'s' if count > 1 else ''}"
    if complete:
        return f"{found}, {'the only one' if count == 1 else 'every one there is'} {took}"
    if count == 1:
        return f"{found} {took}; --all looks for others"
    return f"{found} before the search stopped; there may be others {took}"


def _table(grid: list) -> list[str]:
    cells = [[f"{cell['tile']} {cell['rotation']:>3}°" for cell in row] for row in grid]
    width = max(len(text) for row in cells for text in row) + 2
    label = len(f"row {len(grid)}") + 1
    rule = " " * label + "+" + "+".join("-" * width for _ in grid[0]) + "+"
    header = " " * label + " " + " ".join(f"col {c}".center(width) for c in range(1, len(grid[0]) + 1))
    lines = [header.rstrip(), rule]
    for r, row in enumerate(cells, 1):
        lines.append(f"row {r}".ljust(label) + "|" + "|".join(text.rjust(width - 1) + " " for text in row) + "|")
        lines.append(rule)
    return lines


def _seconds(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.1f} s"


def _and(items: Sequence) -> str:
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _plain(code: object) -> object:
    """A code as JSON has it: numpy integers become ints."""
    return code if isinstance(code, str) else int(code)
