"""Outside engines (CP-SAT, CaDiCaL, HiGHS) against the built-in search, and the exported models."""
import importlib.util
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from solver import Fixed, Puzzle, is_solution, solve
from solver.engines import ENGINES, cnf, lp
from solver.engines import solve as engine_solve
from solver.engines.model import Model
from solver.formats import load_puzzle
from solver.generate import as_data, planted
from vision.cli import main

SAMPLES = sorted((Path(__file__).resolve().parent.parent / "samples" / "puzzles").glob("*"))
# the seeds' puzzles by their own codes, for when samples/ is not there
NSA = Puzzle(tiles=((2, -2, -4, -3), (-3, -4, 3, 2), (-2, 1, -1, -4), (-1, 1, -4, 3), (-3, 1, -4, -2),
                    (3, 4, 2, 1), (-2, -3, 1, 4), (2, -4, -3, 1), (-3, -1, 2, 4)), rows=3, cols=3)


def seed_puzzles() -> list:
    return [load_puzzle(p) for p in SAMPLES] or [NSA]


def needs(engine: str) -> None:
    # find, not import: ortools and highspy cannot share a process (solver.engines.CLASH)
    package = ENGINES[engine][2].split(".")[0]
    if importlib.util.find_spec(package) is None:
        pytest.skip(f"{package} is not installed")


@pytest.mark.parametrize("engine", ["sat", "mip", "cp-sat"])
def test_engines_count_what_the_builtin_search_counts_on_the_seed_puzzles(engine):
    needs(engine)
    for puzzle in seed_puzzles():
        builtin = solve(puzzle, all=True)
        other = engine_solve(puzzle, engine, all=True)
        assert other.complete and other.count == builtin.count, puzzle.name
        assert all(is_solution(puzzle, grid) for grid in other.solutions)
        first = engine_solve(puzzle, engine)
        assert first.count == 1 and is_solution(puzzle, first.solutions[0])


def test_sat_folds_turns_identical_tiles_hints_and_border_like_the_builtin_search():
    needs("sat")
    rng = random.Random(4)
    for rows, cols, figures, frame in [(2, 3, 2, 0), (3, 3, 2, 0), (3, 3, 1, 1), (3, 4, 3, 1), (2, 2, 1, 0)]:
        puzzle, grid = planted(rows, cols, figures, frame, rng)
        hinted = Puzzle(puzzle.tiles, rows, cols, puzzle.match, puzzle.border,
                        (Fixed(grid[1][1].tile, 1, 1, grid[1][1].quarters),))
        for p in (puzzle, hinted):
            builtin = solve(p, all=True)
            other = engine_solve(p, "sat", all=True)
            assert builtin.complete and other.complete
            assert other.count == builtin.count, p


def test_dimacs_header_counts_its_clauses_and_variables():
    puzzle = seed_puzzles()[0]
    text = cnf.dimacs(Model(puzzle))
    header = re.search(r"^p cnf (\d+) (\d+)$", text, re.M)
    body = [line.split() for line in text.splitlines() if line and line[0] not in "cp"]
    assert header and int(header[2]) == len(body)
    assert all(c[-1] == "0" for c in body)
    assert max(abs(int(v)) for c in body for v in c) <= int(header[1])


READ_LP = """
import sys, highspy
from solver.engines.mip import quiet_highs
h = quiet_highs()
assert h.readModel(sys.argv[1]) == highspy.HighsStatus.kOk
h.run()
print(h.getModelStatus() == highspy.HighsModelStatus.kOptimal)
print(*[n for n, v in zip(h.getLp().col_names_, h.getSolution().col_value) if v > 0.5])
"""


def test_exported_lp_is_read_and_solved_by_highs(tmp_path):
    needs("mip")
    puzzle = seed_puzzles()[0]
    source, out = tmp_path / "puzzle.json", tmp_path / "model.lp"
    source.write_text(json.dumps(as_data(puzzle)))
    with pytest.raises(SystemExit) as done:
        main(["export", str(source), "--format", "lp", "--out", str(out)])
    assert done.value.code == 0
    # a fresh process: highspy cannot load beside ortools (solver.engines.CLASH)
    run = subprocess.run([sys.executable, "-c", READ_LP, str(out)], capture_output=True, text=True)
    optimal, on = run.stdout.splitlines()
    assert optimal == "True"
    place = {}
    for name in on.split():  # x_ROW_COL_TILE_TURN, 1-based, degrees
        r, c, t, degrees = map(int, name.split("_")[1:])
        place[r - 1, c - 1] = (t - 1, degrees // 90)
    grid = [[place[r, c] for c in range(puzzle.cols)] for r in range(puzzle.rows)]
    assert is_solution(puzzle, grid)


def test_lp_rows_match_the_text():
    model = Model(NSA)
    text = lp.lp_text(model)
    labels = re.findall(r"^ (\w+):", text, re.M)
    assert labels[1:] == [row[0] for row in lp.rows(model)]  # after "obj"
    assert text.rstrip().endswith("End")


def test_unknown_engine_is_refused():
    with pytest.raises(ValueError, match="unknown engine"):
        engine_solve(NSA, "gurobi")


def test_sat_deadline_keeps_what_was_found():
    needs("sat")
    # a huge number of solutions; small enough that the child process builds it
    # and finds some well inside the deadline even on a loaded machine
    hard = planted(4, 4, figures=1, rng=random.Random(2))[0]
    result = engine_solve(hard, "sat", all=True, timeout=3.0)
    assert not result.complete and result.count > 0
    assert all(is_solution(hard, grid) for grid in result.solutions)


@pytest.mark.parametrize("engine", ["mip", "cp-sat"])
def test_engine_answers_leave_json_output_one_document(tmp_path, engine):
    # the engines are C libraries: a banner written to file descriptor 1 (as
    # highspy 1.16's constructor does) would break scripts that parse --json
    needs(engine)
    source = tmp_path / "nsa.json"
    source.write_text(json.dumps(as_data(NSA)))
    run = subprocess.run([sys.executable, "-m", "vision.cli", "solve", str(source), "--engine", engine,
                          "--json"], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["count"] == 1
