"""3x3 seed puzzles: the pure search against CP-SAT enumerating, in CPU time.

Issue 2's target: all solutions of a 3x3 in under 1 ms of search time and
at least 200x faster than OR-Tools CP-SAT enumerating the same puzzle.
`solver_bench.py` compares wall-clock times; on a shared machine a 7 ms
CP-SAT run is often preempted while a 0.1 ms search is not, which inflates
the ratio, so this one takes the CPU time of each (``time.process_time``),
interleaved in one process, medians of many runs. It also reports what the
search time leaves out, setting up (the board, its tables, the fill orders
written out as nested loops), and the whole `solve` call.

    python benchmarks/search_3x3.py [--runs 60]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # time this tree, not whatever copy of edgematch is installed

from solver import solve  # noqa: E402
from solver.engines import solve as engine_solve  # noqa: E402
from solver.formats import load_puzzle  # noqa: E402
from solver.search import Found, _Board, _Watch  # noqa: E402


def cpu(work) -> float:
    start = time.process_time()
    work()
    return time.process_time() - start


def timings(puzzle) -> dict:
    """CPU seconds of one run of each part: setting up, searching, the whole call."""
    board = _Board(puzzle)
    found = Found(board, None)
    setup = cpu(lambda: board.compile())
    run = board.compile()
    return dict(setup=setup + cpu(lambda: _Board(puzzle)),
                search=cpu(lambda: run(found.keep, _Watch(None, None, found.choices))),
                whole=cpu(lambda: solve(puzzle, all=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=60, help="runs of the search per puzzle (CP-SAT: a tenth)")
    args = parser.parse_args()
    print("| puzzle | solutions | nodes | search | setting up | whole solve() | CP-SAT | CP-SAT / search |")
    print("|---|---|---|---|---|---|---|---|")
    for path in sorted((ROOT / "samples" / "puzzles").glob("*")):
        puzzle = load_puzzle(path)
        if puzzle.size != 9:
            continue
        runs, engine = [], []
        for i in range(args.runs):
            runs.append(timings(puzzle))
            if i % 10 == 0:
                engine.append(cpu(lambda: engine_solve(puzzle, "cp-sat", all=True)))
        ours = {part: statistics.median(r[part] for r in runs) for part in runs[0]}
        result, other = solve(puzzle, all=True), statistics.median(engine)
        print(f"| {path.stem} | {result.count} | {result.nodes} | {ours['search'] * 1e3:.3f} ms "
              f"| {ours['setup'] * 1e3:.2f} ms | {ours['whole'] * 1e3:.2f} ms | {other * 1e3:.2f} ms "
              f"| {other / ours['search']:.0f}x |")


if __name__ == "__main__":
    main()
