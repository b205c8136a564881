"""The compiled kernel against the pure search: same counts, real solutions, clean stops."""
import random
import subprocess
import sys
from collections import Counter
from functools import partial
from types import SimpleNamespace

import pytest

from solver import Fixed, Puzzle, is_solution, search, solve
from solver.puzzle import turn
from solver.generate import planted

kernel = pytest.importorskip("solver.kernel")

SHAPES = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 3), (2, 5), (4, 4)]


def random_puzzle(rng: random.Random) -> Puzzle:
    """Small planted puzzles of every sort: signed or framed, few figures, hints."""
    rows, cols = rng.choice(SHAPES)
    frame = rng.choice([0, 0, 1, 2])
    figures = rng.choice([2, 3, 4] if rows * cols <= 9 else [3, 4])
    puzzle, grid = planted(rows, cols, figures, frame, rng)
    if rng.random() < 0.3:
        cell = rng.randrange(rows * cols)
        place = grid[cell // cols][cell % cols]
        hint = Fixed(place.tile, cell // cols, cell % cols, place.quarters)
        puzzle = Puzzle(puzzle.tiles, rows, cols, puzzle.match, puzzle.border, (hint,))
    return puzzle


def run_with(monkeypatch, engine, puzzle, **options):
    monkeypatch.setattr(search, "_kernel", lambda board: engine)
    return solve(puzzle, **options)


@pytest.mark.parametrize("workers", [1, 3])
def test_kernel_counts_what_the_pure_search_counts(monkeypatch, workers):
    rng = random.Random(workers)
    compiled = SimpleNamespace(search=partial(kernel.search, workers=workers))
    kinds = set()
    for _ in range(40):
        puzzle = random_puzzle(rng)
        limit = rng.choice([None, None, 3])
        pure = run_with(monkeypatch, None, puzzle, all=True, limit=limit, timeout=20)
        fast = run_with(monkeypatch, compiled, puzzle, all=True, limit=limit, timeout=20)
        assert pure.complete or limit
        assert (fast.count, fast.complete) == (pure.count, pure.complete), puzzle
        assert all(is_solution(puzzle, grid) for grid in fast.solutions)
        assert len(set(fast.solutions)) == fast.count
        first = run_with(monkeypatch, compiled, puzzle)
        assert first.count == 1 and is_solution(puzzle, first.solutions[0])
        kinds.add((puzzle.border is not None, bool(puzzle.fixed), bool(pure.identical),
                   puzzle.rows != puzzle.cols))
    assert len(kinds) >= 8  # the draw covered border, hints, identical tiles and shapes


def test_planted_solution_is_found_among_all(monkeypatch):
    puzzle, grid = planted(4, 5, figures=6, rng=random.Random(11))
    result = run_with(monkeypatch, kernel, puzzle, all=True)
    assert result.complete and result.count >= 1
    assert all(is_solution(puzzle, g) for g in result.solutions)


def hard_puzzle() -> Puzzle:
    # two figures on 6x6: millions of solutions, far more than a second's work
    return planted(6, 6, figures=2, rng=random.Random(3))[0]


def test_timeout_progress_and_ctrl_c_stop_cleanly():
    calls = []

    def progress(nodes, depth, solutions, seconds):
        calls.append((nodes, depth, solutions, seconds))
        if len(calls) == 2:
            raise KeyboardInterrupt

    puzzle = hard_puzzle()
    stopped = solve(puzzle, all=True, progress=progress)
    assert stopped.interrupted and not stopped.complete
    assert len(calls) == 2 and calls[0][3] >= 1.0 and calls[1][0] > calls[0][0] > 0
    assert 0 < calls[0][1] <= 36
    assert stopped.count >= calls[1][2] > 0
    assert all(is_solution(puzzle, g) for g in stopped.solutions[:20])
    timed = solve(puzzle, all=True, timeout=0.3)
    assert not timed.complete and not timed.interrupted and timed.nodes > 0


def test_small_puzzles_never_import_numba():
    code = ("import sys; from solver import Puzzle, solve; "
            "p = Puzzle(tiles=((2,-2,-4,-3),(-3,-4,3,2),(-2,1,-1,-4),(-1,1,-4,3),(-3,1,-4,-2),"
            "(3,4,2,1),(-2,-3,1,4),(2,-4,-3,1),(-3,-1,2,4)), rows=3, cols=3); "
            "r = solve(p, all=True); print(r.count, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["1", "False"]


def test_slack_starts_at_twice_each_colour_of_the_inner_seams():
    puzzle, grid = planted(6, 5, figures=5, frame=3, rng=random.Random(4))
    board = search._Board(puzzle, fold=False)
    tables = kernel.Tables(board)
    shown = [[turn(puzzle.tiles[p.tile], p.quarters) for p in row] for row in grid]
    inner = range(1, puzzle.rows - 1), range(1, puzzle.cols - 1)
    seams = Counter(shown[r][c][1] for r in inner[0] for c in inner[1] if c + 1 in inner[1])
    seams += Counter(shown[r][c][2] for r in inner[0] for c in inner[1] if r + 1 in inner[0])
    width = board.any + 2
    slack = tables.slack[:width]
    assert sorted(slack[slack > 0]) == sorted(2 * n for n in seams.values())
    assert (slack >= 0).all()


@pytest.mark.parametrize("workers", [1, 3])
def test_slack_cuts_no_solution(monkeypatch, workers):
    compiled = SimpleNamespace(search=partial(kernel.search, workers=workers))
    seams = kernel._seams

    def uncut(board, outward, colour):  # every side as if it opened no inner seam
        cells, slack = seams(board, outward, colour)
        cells[:] = board.any + 2
        return cells, slack

    # framed 5x5s with hundreds and thousands of solutions, trees big enough for cores to split
    for seed, figures, hinted in ((1, 3, False), (5, 2, False), (5, 2, True)):
        puzzle, grid = planted(5, 5, figures, 2, rng=random.Random(seed))
        if hinted:  # a hint on an inner cell is laid, and counted, like any tile
            hint = Fixed(grid[2][3].tile, 2, 3, grid[2][3].quarters)
            puzzle = Puzzle(puzzle.tiles, 5, 5, puzzle.match, puzzle.border, (hint,))
        pure = run_with(monkeypatch, None, puzzle, all=True)
        cut = run_with(monkeypatch, compiled, puzzle, all=True)
        monkeypatch.setattr(kernel, "_seams", uncut)
        whole = run_with(monkeypatch, compiled, puzzle, all=True)
        monkeypatch.setattr(kernel, "_seams", seams)
        assert pure.complete and cut.complete and whole.complete
        assert cut.count == whole.count == pure.count > 1
        assert set(cut.solutions) == set(pure.solutions)
        assert 1 << 16 < cut.nodes < whole.nodes


@pytest.mark.parametrize("framed", [False, True])
def test_fill_order_looks_every_cell_up_by_north_and_west(framed):
    for rows in range(1, 8):
        for cols in range(1, 8):
            order = kernel.fill_order(rows, cols, framed).tolist()
            assert sorted(order) == list(range(rows * cols))
            laid = set()
            for cell in order:
                r, c = divmod(cell, cols)
                north, west = (r - 1, c), (r, c - 1)
                before = {(r + dr, c + dc) for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))} & laid
                assert before == {n for n in (north, west) if min(n) >= 0}, (rows, cols, cell)
                laid.add((r, c))


def test_a_board_with_no_frame_is_not_scanned_row_by_row():
    # a row scan enumerates this 7x7 in 658 M nodes (9 s): its first row is
    # looked up by one side a cell; growing shells from the corner takes 0.45 M
    puzzle, grid = planted(7, 7, figures=12, rng=random.Random(1))
    result = solve(puzzle, all=True, timeout=20)
    assert result.complete and result.count == 1 and result.nodes < 2_000_000
    assert is_solution(puzzle, result.solutions[0])
