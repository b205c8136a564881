"""The seed puzzles as transcribed in samples/puzzles, against their published answers.

Each published arrangement is translated from the seed's own conventions,
checked by the independent verifier, and compared, up to a turn of the whole
grid, with what the search finds. Solution counts fold whole-grid turns.
"""
from pathlib import Path

import pytest

from solver import is_solution, solve, turn
from solver.formats import load_puzzle

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "puzzles"


def grid_turns(grid) -> set:
    """The grid as a tuple of (tile, quarters) under each quarter turn of the whole grid."""
    grid = [[(int(t), int(q) % 4) for t, q in row] for row in grid]
    forms = set()
    for _ in range(4):
        forms.add(tuple(map(tuple, grid)))
        # turning the grid clockwise: the left column becomes the top row, each tile turns too
        grid = [[(t, (q + 1) % 4) for t, q in col[::-1]] for col in zip(*grid)]
    return forms


def lpl_grid(placements: str) -> list:
    """The witch model's 'Place the block k at (i,j) with rotation d' lines as a grid.

    The model's rotation d counts quarter turns counterclockwise from d=1
    (unturned): its constraints read the top of block k in rotation d as
    a[d,k], the right as a[d%4+1,k] (the next side clockwise), so d=2 brings
    the right side up, a counterclockwise quarter.
    """
    grid = [[None] * 3 for _ in range(3)]
    for part in placements.split("Place the block ")[1:]:
        words = part.replace("(", " ").replace(")", " ").replace(",", " ").split()
        block, i, j, d = int(words[0]), int(words[2]), int(words[3]), int(words[6])
        grid[i - 1][j - 1] = (block - 1, -(d - 1) % 4)
    return grid


WITCH_ANSWER = ("Place the block 9 at (1,1) with rotation 2 Place the block 4 at (1,2) with rotation 1 "
                "Place the block 7 at (1,3) with rotation 2 Place the block 6 at (2,1) with rotation 2 "
                "Place the block 3 at (2,2) with rotation 4 Place the block 1 at (2,3) with rotation 2 "
                "Place the block 2 at (3,1) with rotation 3 Place the block 5 at (3,2) with rotation 2 "
                "Place the block 8 at (3,3) with rotation 1")
QUESTIONS_ANSWER = ("Place the block 8 at (1,1) with rotation 4 Place the block 2 at (1,2) with rotation 1 "
                    "Place the block 9 at (1,3) with rotation 2 Place the block 6 at (2,1) with rotation 2 "
                    "Place the block 1 at (2,2) with rotation 1 Place the block 4 at (2,3) with rotation 4 "
                    "Place the block 3 at (3,1) with rotation 1 Place the block 7 at (3,2) with rotation 4 "
                    "Place the block 5 at (3,3) with rotation 4")
# Big Cats' printed solution: each cell shows its tile's 0-based index with
# the cat halves on its four sides as they lie in the grid.
BIG_CATS_ANSWER = """
   JF       PF       LB
TF  3 LB LF  7 JB JF  2 LF
   TF       PB       TB
   TB       PF       TF
PF  4 TB TF  5 LB LF  0 JB
   LF       JF       TB
   LB       JB       TF
PB  6 PB PF  1 JF JB  8 PB
   JF       LB       PF
"""


def big_cats_grid(puzzle) -> list:
    """The printed grid as placements: each tile's turn is the one that shows the printed sides."""
    lines = BIG_CATS_ANSWER.strip("\n").splitlines()
    grid = []
    for top, middle, bottom in zip(lines[0::3], lines[1::3], lines[2::3]):
        norths, souths, words = top.split(), bottom.split(), middle.split()
        row = []
        for c in range(3):
            west, tile, east = words[3 * c: 3 * c + 3]
            shown = (norths[c], east, souths[c], west)
            turns = [q for q in range(4) if turn(puzzle.tiles[int(tile)], q) == shown]
            assert len(turns) == 1, f"tile {tile} cannot show {shown}"
            row.append((int(tile), turns[0]))
        grid.append(row)
    return grid


@pytest.mark.parametrize("sample, published", [
    ("witch.json", lambda p: lpl_grid(WITCH_ANSWER)),
    ("witch-questions.yaml", lambda p: lpl_grid(QUESTIONS_ANSWER)),
    ("big-cats.json", big_cats_grid),
])
def test_published_solutions(sample, published):
    puzzle = load_puzzle(SAMPLES / sample)
    answer = published(puzzle)
    assert is_solution(puzzle, answer)
    result = solve(puzzle, all=True)
    assert result.complete
    assert all(is_solution(puzzle, grid) for grid in result.solutions)
    assert any(grid_turns(answer) & grid_turns(grid) for grid in result.solutions)


def test_witch_rotation_is_counterclockwise():
    """Read clockwise, the seed's answer fails: the transcription of d is not a guess."""
    puzzle = load_puzzle(SAMPLES / "witch.json")
    clockwise = [[(t, -q % 4) for t, q in row] for row in lpl_grid(WITCH_ANSWER)]
    assert not is_solution(puzzle, clockwise)


@pytest.mark.parametrize("sample, count", [
    ("witch.json", 1), ("witch-2.txt", 2), ("witch-questions.yaml", 2), ("big-cats.json", 1),
    ("nsa.json", 1), ("four-squares.txt", 18)])
def test_solution_counts(sample, count):
    """NSA: "four of them will work", the four turns of one grid; four-squares is brute-forced too."""
    puzzle = load_puzzle(SAMPLES / sample)
    result = solve(puzzle, all=True)
    assert (result.count, result.complete) == (count, True)
    assert len(result.solutions) == count
    assert all(is_solution(puzzle, grid) for grid in result.solutions)
    # distinct: no two are the same grid turned
    assert len({min(grid_turns(grid)) for grid in result.solutions}) == count
