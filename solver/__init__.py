"""edgematch's solver: the puzzle model, file formats, search and verification.

Pure Python and numpy; it never imports OpenCV.

>>> from solver import Puzzle, solve, is_solution
>>> p = Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)
>>> r = solve(p)
>>> is_solution(p, r.solutions[0])
True
"""
from .puzzle import Fixed, Placement, Puzzle, turn
from .rules import Code, Match
from .search import Result, kinds_of, solve
from .verify import is_solution, problems

__all__ = ["Code", "Fixed", "Match", "Placement", "Puzzle", "Result", "is_solution",
           "kinds_of", "problems", "solve", "turn"]
