"""The pure search against a plain backtracker that shares none of its code.

The plain one lays every unused tile in every turn, cell by cell in reading
order, checks each seam with its own reading of the rules, and folds what it
finds into distinct pictures (edges per cell, whole-grid turns folded unless
a hint pins the grid). The pure search must find exactly those pictures, on
small grids of every sort: identical tiles, hints, a border, corner colours,
grids where no tile can be pinned, and grids above 3x3 when numba is absent.
"""
import random

import pytest

from solver import Fixed, Match, Puzzle, is_solution, loops, search, solve
from solver.generate import planted


def turned(edges: tuple, q: int) -> tuple:
    """A clockwise quarter turn moves the west code to the north side."""
    q %= 4
    return tuple(edges[4 - q:] + edges[:4 - q])


def sides_of(p: Puzzle, tile: tuple) -> tuple:
    """What meets across a seam: codes, or for corner colours the pair along each side."""
    return tuple((tile[k], tile[(k + 1) % 4]) for k in range(4)) if p.corners else tuple(tile)


def meet(p: Puzzle, a, b) -> bool:
    """Do side ``a`` and the side ``b`` facing it fit, read straight from SPEC.md."""
    if p.corners:
        return a == (b[1], b[0])
    rule = p.match.describe()
    if rule == "signed":
        return a == -b
    if rule == "same":
        return a == b
    return a + b == int(rule.split(":")[1])


def plain_pictures(p: Puzzle) -> set:
    """Every distinct picture of a solution, by trying every tile in every turn."""
    rows, cols = p.rows, p.cols
    hint = {(f.row, f.col): (f.tile, f.quarters) for f in p.fixed}
    laid, found = {}, set()

    def fill(i: int, used: set) -> None:
        if i == rows * cols:
            found.add(canonical(p, laid))
            return
        r, c = divmod(i, cols)
        options = [hint[r, c]] if (r, c) in hint else [
            (t, q) for t in range(len(p.tiles)) if t not in used and t not in hinted for q in range(4)]
        for t, q in options:
            edges = turned(sides_of(p, p.tiles[t]), q)
            if c and not meet(p, edges[3], laid[r, c - 1][1]):
                continue
            if r and not meet(p, edges[0], laid[r - 1, c][2]):
                continue
            outer = [side for side, out in enumerate((r == 0, c == cols - 1, r == rows - 1, c == 0)) if out]
            if p.border is not None and any(edges[side] != p.border for side in outer):
                continue
            laid[r, c] = edges
            fill(i + 1, used | {t})
            del laid[r, c]

    hinted = {t for t, _ in hint.values()}
    fill(0, set())
    return found


def canonical(p: Puzzle, laid: dict) -> tuple:
    """The picture, as the least of its whole-grid turns unless hints pin it."""
    picture, rows, cols = dict(laid), p.rows, p.cols
    turns = [tuple(sorted(picture.items()))]
    for q in range(1, 4 if not p.fixed else 1):
        # clockwise: (r, c) goes to (c, rows - 1 - r) and every tile turns a quarter
        picture, rows, cols = {(c, rows - 1 - r): turned(e, 1) for (r, c), e in picture.items()}, cols, rows
        if p.rows == p.cols or q == 2:
            turns.append(tuple(sorted(picture.items())))
    return min(turns)


def pictures_of(p: Puzzle, grids: list) -> list:
    return [canonical(p, {(r, c): turned(sides_of(p, p.tiles[cell.tile]), cell.quarters)
                          for r, row in enumerate(grid) for c, cell in enumerate(row)})
            for grid in grids]


def with_hint(p: Puzzle, grid: tuple, cell: int) -> Puzzle:
    place = grid[cell // p.cols][cell % p.cols]
    return Puzzle(p.tiles, p.rows, p.cols, p.match, p.border,
                  (Fixed(place.tile, cell // p.cols, cell % p.cols, place.quarters),))


def corner_puzzle(rng: random.Random, rows: int, cols: int, colours: int) -> Puzzle:
    """Corner colours at the grid's points; a tile shows its four, NW NE SE SW, turned at random."""
    dots = [[rng.randrange(colours) for _ in range(cols + 1)] for _ in range(rows + 1)]
    tiles = [turned((dots[r][c], dots[r][c + 1], dots[r + 1][c + 1], dots[r + 1][c]), rng.randrange(4))
             for r in range(rows) for c in range(cols)]
    rng.shuffle(tiles)
    return Puzzle(tiles=tuple(tiles), rows=rows, cols=cols, corners=True)


def puzzles() -> list:
    rng = random.Random(2)
    out = []
    for n in range(24):
        rows, cols = rng.choice([(3, 3), (3, 3), (2, 3), (3, 2), (2, 4)])
        figures = rng.choice([3, 4, 5])  # 3 figures: identical tiles and many solutions
        frame = rng.choice([0, 0, 0, 2])
        p, grid = planted(rows, cols, figures, frame, rng)
        out.append(with_hint(p, grid, rng.randrange(rows * cols)) if n % 4 == 3 else p)
    out += [corner_puzzle(rng, 3, 3, 3) for _ in range(3)]
    out.append(Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2, name="alike"))  # nothing to pin
    return out


@pytest.mark.parametrize("p", puzzles(), ids=lambda p: p.name or "corners")
def test_pure_search_finds_every_picture_the_plain_backtracker_finds(p):
    result = solve(p, all=True)
    assert result.complete
    assert all(is_solution(p, grid) for grid in result.solutions)
    found = pictures_of(p, result.solutions)
    assert len(set(found)) == len(found) == result.count  # one grid per picture
    assert set(found) == plain_pictures(p)


def test_the_draw_covers_identical_tiles_hints_border_and_unpinnable_grids():
    draw = puzzles()
    boards = [search._Board(p) for p in draw]
    assert any(len(m) > 1 for b in boards for m in b.kinds.members)
    assert any(p.fixed for p in draw) and any(p.border is not None for p in draw)
    assert any(b.pinned is None and not b.fixed for b in boards)
    assert sum(b.pinned is not None for b in boards) > len(draw) // 2


def test_pure_search_above_3x3_counts_what_the_plain_backtracker_counts(monkeypatch):
    monkeypatch.setattr(search, "_kernel", lambda board: None)  # as on a machine without numba
    for seed in range(3):
        p, _ = planted(3, 4, 5, rng=random.Random(seed))
        result = solve(p, all=True)
        assert result.complete
        assert set(pictures_of(p, result.solutions)) == plain_pictures(p)


def test_pure_search_longer_than_one_function_hands_every_tile_on(monkeypatch):
    """A 6x6 is more levels than Python lets one function nest: it runs in chunks."""
    monkeypatch.setattr(search, "_kernel", lambda board: None)
    p, grid = planted(6, 6, 10, rng=random.Random(7))
    assert min(len(levels) for levels in search._Board(p)._starts()) > loops._CHUNK
    result = solve(p, all=True)
    assert result.complete and result.count >= 1
    assert all(is_solution(p, g) for g in result.solutions)
    assert set(pictures_of(p, [grid])) <= set(pictures_of(p, result.solutions))


def test_first_solution_limit_and_timeout(monkeypatch):
    p, _ = planted(3, 3, 3, rng=random.Random(5))
    every = solve(p, all=True)
    assert every.count > 3
    first = solve(p)
    assert first.count == 1 and not first.complete and is_solution(p, first.solutions[0])
    three = solve(p, all=True, limit=3)
    assert three.count == 3 and not three.complete
    assert set(pictures_of(p, three.solutions)) < set(pictures_of(p, every.solutions))
    # two figures on 6x6 in pure Python: far more than the deadline's worth
    monkeypatch.setattr(search, "_kernel", lambda board: None)
    big, _ = planted(6, 6, 2, rng=random.Random(3))
    stopped = solve(big, all=True, timeout=0.2)
    assert not stopped.complete and not stopped.interrupted and stopped.count > 0
    assert 0.2 <= stopped.seconds < 2


def test_seed_counts_and_pinned_tile():
    """The witch puzzle: one solution; its pinned tile is unique and asymmetric."""
    tiles = ((3, 6, 6, 1), (2, 4, 8, 7), (6, 4, 4, 8), (7, 7, 1, 1), (2, 5, 5, 1),
             (3, 7, 5, 1), (2, 6, 5, 3), (8, 5, 3, 4), (2, 8, 8, 2))
    p = Puzzle(tiles=tiles, rows=3, cols=3, match=Match.parse("sum:9"))
    board = search._Board(p)
    assert board.pinned is not None and board.kinds.count[board.pinned] == 1
    result = solve(p, all=True)
    assert (result.count, result.complete) == (1, True)
    assert set(pictures_of(p, result.solutions)) == plain_pictures(p)


def test_cell_looked_up_by_four_neighbours_in_a_sparse_table():
    """Hints on all four sides of the centre, and codes enough that a list for every key would be huge."""
    p, grid = planted(3, 3, 20, rng=random.Random(4))
    hints = tuple(Fixed(grid[r][c].tile, r, c, grid[r][c].quarters) for r, c in ((0, 1), (1, 0), (1, 2), (2, 1)))
    p = Puzzle(p.tiles, 3, 3, p.match, fixed=hints)
    board = search._Board(p)
    assert any(isinstance(table, search._Sparse)
               for levels in board._starts() for _, table, _ in levels)
    result = solve(p, all=True)
    assert result.complete and result.count >= 1
    assert set(pictures_of(p, result.solutions)) == plain_pictures(p)
