"""solver.repair: the likeliest arrangement from uncertain readings, and the best partial one."""
import itertools
import math
import random

import pytest

from solver import Puzzle, is_solution, solve, turn
from solver.formats import load_puzzle
from solver.repair import Seam, repair, top_tiles

SAMPLES = ["samples/puzzles/nsa.json", "samples/puzzles/witch.json", "samples/puzzles/big-cats.json"]


def readings_of(puzzle, rng):
    """Confident readings of the true codes, each with two unlikely alternatives."""
    codes = sorted({c for t in puzzle.tiles for c in t}, key=repr)
    return [[[(c, 0.9)] + [(o, 0.03) for o in rng.sample([x for x in codes if x != c], 2)]
             for c in tile] for tile in puzzle.tiles]


def inner_edges(puzzle):
    """(tile, side) of every edge that meets another in the published solution."""
    grid = solve(puzzle).solutions[0]
    rows, cols = puzzle.rows, puzzle.cols
    inner = []
    for r, c in itertools.product(range(rows), range(cols)):
        tile, q = grid[r][c]
        for k, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            if 0 <= r + dr < rows and 0 <= c + dc < cols:
                inner.append((tile, (k - q) % 4))
    return inner


@pytest.mark.parametrize("path", SAMPLES)
@pytest.mark.parametrize("misreads", [1, 2])
def test_repair_finds_the_planted_arrangement_and_names_the_misread_edges(path, misreads):
    puzzle = load_puzzle(path)
    rng = random.Random(f"{path}{misreads}")
    readings = readings_of(puzzle, rng)
    misread = rng.sample(inner_edges(puzzle), misreads)
    for tile, side in misread:
        true = puzzle.tiles[tile][side]
        wrong = "smudge" if puzzle.match.kind == "pairs" else 99  # a code no tile shows
        readings[tile][side] = [(wrong, 0.6), (true, 0.35)]
    fix = repair(readings, puzzle.rows, puzzle.cols, puzzle.match)
    assert fix.fits and fix.complete
    assert is_solution(puzzle, fix.grid)  # the independent verifier, on the true codes
    assert sorted((e.tile, e.side, e.read, e.now) for e in fix.reinterpreted) == sorted(
        (t, s, 99 if puzzle.match.kind != "pairs" else "smudge", puzzle.tiles[t][s]) for t, s in misread)
    assert [tuple(t) for t in fix.tiles] == [tuple(t) for t in puzzle.tiles]


def test_repair_prefers_the_likelier_of_two_readings_that_fit():
    puzzle = load_puzzle("samples/puzzles/nsa.json")
    readings = [[[(c, 1.0)] for c in tile] for tile in puzzle.tiles]
    assert repair(readings, 3, 3).cost == 0 and not repair(readings, 3, 3).reinterpreted
    tile, side = inner_edges(puzzle)[0]
    true = puzzle.tiles[tile][side]
    readings[tile][side] = [(-true, 0.5), (true, 0.4)]  # the top reading is wrong, the second right
    fix = repair(readings, 3, 3)
    assert is_solution(puzzle, fix.grid)
    assert [(e.tile, e.side, e.now) for e in fix.reinterpreted] == [(tile, side, true)]


def test_of_two_arrangements_that_fit_the_doubtful_edge_goes_to_the_rim():
    # tile 0 can meet tile 1 with its E side (read 1, doubtful) or its W side (2, sure)
    readings = [[[(7, 1.0)], [(1, 0.5), (3, 0.5)], [(8, 1.0)], [(2, 1.0)]],
                [[(-1, 1.0)], [(7, 1.0)], [(-2, 1.0)], [(8, 1.0)]]]
    fix = repair(readings, 1, 2)
    assert fix.fits and fix.complete and not fix.reinterpreted
    (first, second), = fix.grid
    tile, q = first if first.tile == 0 else second
    facing = 1 if first.tile == 0 else 3  # tile 0's side that meets tile 1
    assert (facing - q) % 4 == 3  # its sure W side is on the seam, the doubtful E side on the rim
    assert fix.cost == 0


def test_a_seam_two_readings_fit_is_likelier_than_its_likeliest_reading_says():
    # tile 0's E side (1 or 2 alike) can meet tile 1's N side (-1 or -2 alike): it fits as either
    # figure, 0.25 + 0.25; or tile 0's W side (3) tile 1's S side (-3), which fits one way, 0.36
    readings = [[[(7, 1.0)], [(1, 0.5), (2, 0.5)], [(8, 1.0)], [(3, 0.6), (9, 0.4)]],
                [[(-1, 0.5), (-2, 0.5)], [(7, 1.0)], [(-3, 0.6), (9, 0.4)], [(8, 1.0)]]]
    fix = repair(readings, 1, 2)
    assert fix.fits and fix.complete
    (west, east), = fix.grid
    assert (west.tile, (1 - west.quarters) % 4, east.tile, (3 - east.quarters) % 4) == (0, 1, 1, 0)
    assert fix.cost == pytest.approx(-math.log(0.5))


def test_a_doubt_between_a_figures_halves_is_no_second_way_to_fit():
    # as above, but tile 0's E side and tile 1's N side are each either half of figure 1 (halves
    # alike): that seam fits one figure, the likelier way round, 0.25; the W-S seam's 0.36 wins
    readings = [[[(7, 1.0)], [(1, 0.5), (-1, 0.5)], [(8, 1.0)], [(3, 0.6), (9, 0.4)]],
                [[(-1, 0.5), (1, 0.5)], [(7, 1.0)], [(-3, 0.6), (9, 0.4)], [(8, 1.0)]]]
    fix = repair(readings, 1, 2)
    assert fix.fits and fix.complete
    assert fix.cost == pytest.approx(-math.log(0.36))


def mismatches(tiles, grid, match):
    """Seams of a 2x2 ``grid`` whose top readings do not fit (brute-force reference)."""
    side = lambda r, c, k: turn(tiles[grid[r][c][0]], grid[r][c][1])[k]
    seams = [(0, 0, 1), (1, 0, 1), (0, 0, 2), (0, 1, 2)]
    return [Seam(r, c, k) for r, c, k in seams
            if match.partner(side(r, c, k)) != side(*((r, c + 1) if k == 1 else (r + 1, c)), (k + 2) % 4)]


@pytest.mark.parametrize("seed", range(6))
def test_best_partial_matches_the_most_seams(seed):
    rng = random.Random(seed)
    tiles = [tuple(rng.choice([1, -1, 2, -2, 3]) for _ in range(4)) for _ in range(4)]
    readings = [[[(c, rng.choice([0.2, 1.0]))] for c in tile] for tile in tiles]  # a doubtful match still matches
    puzzle_match = Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2).match
    best = min(len(mismatches(tiles, [[(a, p), (b, q)], [(c, r), (d, s)]], puzzle_match))
               for a, b, c, d in itertools.permutations(range(4))
               for p, q, r, s in itertools.product(range(4), repeat=4))
    fix = repair(readings, 2, 2)
    assert fix.complete
    assert len(fix.mismatched) == best
    assert sorted(fix.mismatched) == sorted(mismatches(tiles, fix.grid, puzzle_match))
    assert fix.fits == (best == 0) and top_tiles(readings) == fix.tiles


def test_a_strip_is_repaired_though_its_tiles_have_no_corner():
    # 7 and 8 fit nothing: only one side of each tile can meet another in a 1x3 strip
    readings = [[[(7, 1.0)], [(1, 1.0)], [(8, 1.0)], [(8, 1.0)]],
                [[(7, 1.0)], [(2, 1.0)], [(8, 1.0)], [(3, 0.6), (-1, 0.4)]],   # -1 misread as 3
                [[(7, 1.0)], [(8, 1.0)], [(8, 1.0)], [(-2, 1.0)]]]
    fix = repair(readings, 1, 3)
    assert fix.fits and fix.complete
    assert [(e.tile, e.side, e.now) for e in fix.reinterpreted] == [(1, 3, -1)]


def test_repair_rejects_readings_that_do_not_fill_the_grid():
    with pytest.raises(ValueError, match="do not fill"):
        repair([[[(1, 1.0)]] * 4] * 3, 2, 2)
    with pytest.raises(ValueError, match="four edges"):
        repair([[[(1, 1.0)]] * 3] * 4, 2, 2)
