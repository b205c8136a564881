"""Random planted puzzles: the search solves them, and counts what brute force counts.

A planted puzzle is made solved and then scrambled, so it has at least one
solution. On 2x2 grids every arrangement can be tried; the brute force here
shares no code with the solver (its own turning, fitting and grid turns).
"""
import itertools
import json
import random
from pathlib import Path

import pytest
import yaml

from solver import Fixed, Match, Puzzle, is_solution, solve
from solver.formats import load_puzzle, loads_puzzle

RULES = {
    "signed": ("signed", [1, -1, 2, -2, 3, -3], 0),
    "sum": ("sum:9", [1, 8, 2, 7, 3, 6], 0),
    "same": ("same", [1, 2, 3], 0),
    "pairs": ({"pairs": [["A", "a"], ["B", "b"], ["C", "c"]]}, ["A", "a", "B", "b", "C", "c"], "X"),
    "corners": ("signed", ["r", "g", "b", "y"], None),
}


def fits(match: dict | str, a, b) -> bool:
    """Do codes a and b face each other well, read straight from SPEC.md's rules."""
    if match == "signed":
        return a == -b
    if match == "same":
        return a == b
    if isinstance(match, str):
        return a + b == int(match.split(":")[1])
    return [a, b] in match["pairs"] or [b, a] in match["pairs"]


def turned(edges: tuple, q: int) -> tuple:
    """A clockwise quarter turn moves the west code to the north side."""
    q %= 4
    return tuple(edges[4 - q:] + edges[:4 - q])


def planted(seed: int, rows: int, cols: int, rule: str, border=False, hints=0, alphabet=None):
    """A scrambled puzzle with a known solution: (puzzle, planted grid of (tile, quarters))."""
    rng = random.Random(seed)
    spec, codes, border_code = RULES[rule]
    codes = codes[:alphabet] if alphabet else codes
    match = Match.parse(spec)
    if rule == "corners":
        dots = [[rng.choice(codes) for _ in range(cols + 1)] for _ in range(rows + 1)]
        cells = [(dots[r][c], dots[r][c + 1], dots[r + 1][c + 1], dots[r + 1][c])
                 for r in range(rows) for c in range(cols)]
    else:
        east = [[rng.choice(codes) for _ in range(cols)] for _ in range(rows)]
        south = [[rng.choice(codes) for _ in range(cols)] for _ in range(rows)]
        inner = [x for r in range(rows) for c in range(cols - 1) for x in (east[r][c], match.partner(east[r][c]))]
        inner += [x for r in range(rows - 1) for c in range(cols) for x in (south[r][c], match.partner(south[r][c]))]

        def side(_):
            """An outer edge: the border, or a code whose partner is on some tile."""
            return border_code if border else rng.choice(inner)

        cells = []
        for r in range(rows):
            for c in range(cols):
                n = match.partner(south[r - 1][c]) if r else side(None)
                w = match.partner(east[r][c - 1]) if c else side(None)
                e = east[r][c] if c < cols - 1 else side(None)
                s = south[r][c] if r < rows - 1 else side(None)
                cells.append((n, e, s, w))
    order = list(range(rows * cols))
    rng.shuffle(order)                       # tile i is the tile of cell order[i]
    spins = [rng.randrange(4) for _ in order]  # ... turned spins[i] clockwise
    tiles = tuple(turned(cells[cell], s) for cell, s in zip(order, spins))
    grid = [[None] * cols for _ in range(rows)]
    for i, (cell, s) in enumerate(zip(order, spins)):
        grid[cell // cols][cell % cols] = (i, -s % 4)
    fixed = tuple(Fixed(i, order[i] // cols, order[i] % cols, -spins[i] % 4)
                  for i in rng.sample(range(len(order)), hints))
    puzzle = Puzzle(tiles=tiles, rows=rows, cols=cols, match=match, corners=rule == "corners",
                    border=border_code if border else None, fixed=fixed, name="planted")
    return puzzle, grid


def brute_force_count(p: Puzzle, spec) -> int:
    """Distinct pictures of every arrangement that fits a 2x2 puzzle, whole-grid turns folded."""
    pictures = set()
    for tiles in itertools.permutations(range(4)):
        for quarters in itertools.product(range(4), repeat=4):
            cells = dict(zip([(0, 0), (0, 1), (1, 0), (1, 1)], zip(tiles, quarters)))
            if any(cells[f.row, f.col] != (f.tile, f.quarters) for f in p.fixed):
                continue
            shown = {rc: turned(p.tiles[t], q) for rc, (t, q) in cells.items()}
            if fits_everywhere(p, spec, shown):
                pictures.add(min(grid_turns(shown)) if not p.fixed else tuple(sorted(shown.items())))
    return len(pictures)


def fits_everywhere(p: Puzzle, spec, shown: dict) -> bool:
    if p.corners:  # NW NE SE SW: touching corners equal
        return (shown[0, 0][1] == shown[0, 1][0] and shown[0, 0][2] == shown[0, 1][3]
                and shown[1, 0][1] == shown[1, 1][0] and shown[1, 0][2] == shown[1, 1][3]
                and shown[0, 0][3] == shown[1, 0][0] and shown[0, 0][2] == shown[1, 0][1]
                and shown[0, 1][3] == shown[1, 1][0] and shown[0, 1][2] == shown[1, 1][1])
    seams = [((0, 0), 1, (0, 1), 3), ((1, 0), 1, (1, 1), 3), ((0, 0), 2, (1, 0), 0), ((0, 1), 2, (1, 1), 0)]
    if not all(fits(spec, shown[a][i], shown[b][j]) for a, i, b, j in seams):
        return False
    outer = [((0, 0), 0), ((0, 0), 3), ((0, 1), 0), ((0, 1), 1), ((1, 0), 2), ((1, 0), 3),
             ((1, 1), 1), ((1, 1), 2)]
    return p.border is None or all(shown[rc][k] == p.border for rc, k in outer)


def grid_turns(shown: dict):
    """The picture under the four whole-grid turns, each as a sorted tuple."""
    for q in range(4):
        yield tuple(sorted(shown.items()))
        # clockwise: (r, c) goes to (c, 1 - r) and every tile turns a quarter
        shown = {(c, 1 - r): turned(edges, 1) for (r, c), edges in shown.items()}


CONFIGS = [(rule, border, hints) for rule in RULES for border in (False, True) for hints in (0, 1)
           if not (border and rule == "corners")]


@pytest.mark.parametrize("rule, border, hints", CONFIGS)
@pytest.mark.parametrize("rows, cols", [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4)])
def test_planted_puzzles_are_solved(rule, border, hints, rows, cols):
    for seed in range(3):
        puzzle, grid = planted(seed, rows, cols, rule, border, hints)
        assert is_solution(puzzle, grid)
        result = solve(puzzle)
        assert result.count == 1 and len(result.solutions) == 1
        assert is_solution(puzzle, result.solutions[0])


@pytest.mark.parametrize("rule, border, hints", CONFIGS)
def test_counts_equal_brute_force_on_2x2(rule, border, hints):
    spec = RULES[rule][0]
    for seed in range(12):
        # few codes, so that many arrangements fit and tiles repeat
        puzzle, _ = planted(seed, 2, 2, rule, border, hints, alphabet=2 + seed % 3)
        result = solve(puzzle, all=True)
        assert result.complete
        assert all(is_solution(puzzle, grid) for grid in result.solutions)
        assert result.count == len(result.solutions) == brute_force_count(puzzle, spec)


def test_brute_force_is_not_trivially_one():
    """The counted puzzles include many with several solutions and identical tiles."""
    counts = [brute_force_count(planted(seed, 2, 2, "signed", alphabet=2)[0], "signed") for seed in range(12)]
    assert max(counts) > 2 and min(counts) >= 1


@pytest.mark.parametrize("rule", list(RULES))
def test_planted_puzzles_survive_every_file_format(rule):
    puzzle, grid = planted(7, 3, 4, rule, border=rule in ("signed", "pairs"), hints=1)
    data = {"name": "planted", "rows": 3, "cols": 4, "match": puzzle.match.describe(),
            "corners": puzzle.corners, "tiles": [list(t) for t in puzzle.tiles],
            "fixed": [{"tile": f.tile + 1, "row": f.row + 1, "col": f.col + 1, "rotation": 90 * f.quarters}
                      for f in puzzle.fixed]}
    if puzzle.border is not None:
        data["border"] = puzzle.border
    headers = "".join(f"{k}: {json.dumps(v)}\n" for k, v in data.items() if k != "tiles")
    texts = {"json": json.dumps(data), "yaml": yaml.safe_dump(data),
             "text": headers + "".join(" ".join(map(str, t)) + "\n" for t in puzzle.tiles)}
    for fmt, text in texts.items():
        read = loads_puzzle(text, "planted." + fmt)
        assert read == puzzle and read.fixed == puzzle.fixed, fmt
        assert is_solution(read, solve(read).solutions[0])


def test_four_squares_sample_count_equals_brute_force():
    """The seed's 2x2 four-squares puzzle (equal numbers match) by every arrangement."""
    puzzle = load_puzzle(Path(__file__).resolve().parent.parent / "samples" / "puzzles" / "four-squares.txt")
    assert solve(puzzle, all=True).count == brute_force_count(puzzle, "same") == 18
