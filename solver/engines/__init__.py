"""Outside engines that solve the seeds' SAT and MIP formulations, for cross-checks.

Each engine enumerates assignments of the shared `model.Model` and reports
them as `solver.solve` does (same `Result`, the same folding of whole-grid
turns and identical tiles), so its count can be compared with the built-in
search's. They need the optional extras: ``pip install 'edgematch[bench]'``.

>>> from solver import Puzzle
>>> p = Puzzle(tiles=((1, 2, -1, -2),) * 4, rows=2, cols=2)
>>> solve(p, "sat", all=True).count  # doctest: +SKIP
1
"""
from __future__ import annotations

import importlib
import multiprocessing
import sys
import time

from ..puzzle import Puzzle
from ..search import Found, Result

# engine: (module, the package it needs, the module of it that it imports)
ENGINES = {"cp-sat": ("cpsat", "ortools", "ortools.sat.python.cp_model"),
           "sat": ("sat", "python-sat", "pysat.solvers"),
           "mip": ("mip", "highspy", "highspy")}
# The ortools and highspy wheels each carry their own HiGHS library, and the
# second one loaded fails on the first's symbols: such an engine runs in a
# fresh process.
CLASH = {"cp-sat": "highspy", "mip": "ortools"}


def solve(puzzle: Puzzle, engine: str, all: bool = False, timeout: float | None = None,
          limit: int | None = None) -> Result:
    """Solve ``puzzle`` with an outside engine: ``"cp-sat"``, ``"sat"`` or ``"mip"``.

    Parameters and result as `solver.solve`; ``nodes`` counts the engine's
    own branches (CP-SAT), decisions (CaDiCaL) or branch-and-bound nodes
    (HiGHS).

    Raises
    ------
    ImportError
        With a one-line message naming the extra to install.
    ValueError
        For an unknown engine.
    """
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (use {', '.join(ENGINES)})")
    if CLASH.get(engine) in sys.modules:
        with multiprocessing.get_context("spawn").Pool(1) as pool:
            return pool.apply(solve, (puzzle, engine, all, timeout, limit))
    name, package, library = ENGINES[engine]
    try:
        importlib.import_module(library)
    except ImportError:
        raise ImportError(f"engine {engine} needs {package}: pip install 'edgematch[bench]'") from None
    from .model import Model

    module = importlib.import_module(f".{name}", __name__)

    start = time.perf_counter()
    limit = limit if limit is not None else (None if all else 1)
    model = Model(puzzle)
    found = Found(model.board, limit)
    deadline = None if timeout is None else start + timeout
    # CP-SAT looks for one solution on all cores, but enumerates on one
    options = {"first": limit == 1} if engine == "cp-sat" else {}
    finished, nodes = module.search(model, lambda on: model.keep(found, on), deadline, **options)
    return found.result(finished, nodes, time.perf_counter() - start)
