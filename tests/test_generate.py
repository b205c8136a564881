"""`generate`: planted puzzles are solved by their plant; generated ones have one solution."""
import json
import random

import pytest

from solver import is_solution, solve
from solver.formats import loads_puzzle
from solver.generate import BORDER, as_data, generate, planted
from vision.cli import main


@pytest.mark.parametrize("rows, cols, figures, frame", [(3, 3, 4, 0), (2, 5, 3, 0), (4, 4, 3, 2), (5, 3, 4, 3)])
def test_planted_solution_solves_its_puzzle(rows, cols, figures, frame):
    rng = random.Random(rows * 10 + cols)
    for _ in range(5):
        puzzle, grid = planted(rows, cols, figures, frame, rng)
        assert (puzzle.rows, puzzle.cols, len(puzzle.tiles)) == (rows, cols, rows * cols)
        assert is_solution(puzzle, grid)
        codes = {abs(c) for t in puzzle.tiles for c in t}
        assert codes <= set(range(frame + figures + 1))
        if frame:
            outer = sum(c == BORDER for t in puzzle.tiles for c in t)
            assert outer == 2 * (rows + cols) and puzzle.border == BORDER


@pytest.mark.parametrize("rows, cols, options", [(3, 3, {}), (2, 4, {"figures": 5}),
                                                 (4, 4, {"figures": 6, "frame": 3}),
                                                 (3, 3, {"figures": 2, "hints": 2})])
def test_generated_puzzles_have_exactly_one_solution(rows, cols, options):
    puzzle = generate(rows, cols, seed=5, **options)
    every = solve(puzzle, all=True)
    assert every.complete and every.count == 1
    assert is_solution(puzzle, every.solutions[0])
    assert len(puzzle.fixed) == options.get("hints", 0)
    assert generate(rows, cols, seed=5, **options) == puzzle  # a seed makes it again


def test_impossible_requests_say_so():
    with pytest.raises(ValueError, match="unique"):
        generate(3, 3, figures=1, tries=5)


def test_cli_writes_a_puzzle_file_that_reads_back(tmp_path, capsys):
    out = tmp_path / "new.json"
    with pytest.raises(SystemExit) as done:
        main(["generate", "3x4", "--seed", "2", "--figures", "5", "--out", str(out)])
    assert done.value.code == 0
    puzzle = loads_puzzle(out.read_text(), str(out))
    assert (puzzle.rows, puzzle.cols) == (3, 4)
    assert json.loads(out.read_text()) == as_data(puzzle)
    assert solve(puzzle, all=True).count == 1


@pytest.mark.parametrize("size, says", [("3by3", "ROWSxCOLS"), ("0x3", "outside 2x2"),
                                        ("1x1", "outside 2x2"), ("17x4", "outside 2x2")])
def test_cli_bad_size_is_one_line_exit_2(capsys, size, says):
    with pytest.raises(SystemExit) as done:
        main(["generate", size])
    err = capsys.readouterr().err
    assert done.value.code == 2 and len(err.strip().splitlines()) == 1 and says in err
