"""Solver speed: edgematch against CP-SAT, CaDiCaL, HiGHS and a C -O3 backtracker.

Every engine runs on the same instances in the same run, so the ratios hold
on a shared, noisy machine even where the absolute times do not:

- the seed puzzles (samples/puzzles), all solutions (issue 2: a 3x3 in under
  1 ms of search time, at least 200x faster than CP-SAT enumerating it);
- random signed 4x4 and 5x5 (4 figures) with a planted solution, first solution;
- framed Eternity-style 6x6 (3 frame + 5 inner colours) and five 7x7 (3 + 6),
  first solution (issue 6: no slower than the C reference, median of the 7x7s).

The C reference (benchmarks/c/backtrack.c, a plain row-scan backtracker with
(left, top) candidate lists) is compiled with gcc -O3 here; it is a baseline,
never a part of edgematch. Outside engines run in their own processes (ortools
and highspy cannot share one) and stop at ``--timeout``, reported as "> T".

``--orders`` asks instead whether the cores would find a first solution
sooner racing different fill orders than splitting one row-scan tree: it
counts edgematch's nodes alone, on the framed boards and more 7x7s.
``--shells`` times edgematch alone on boards with no frame, laid in square
shells from a corner (what it does) against a row scan, in the same run.

    python benchmarks/solver_bench.py [--timeout 5] [--c-timeout 30] [--quick] [--seeds | --framed]
    python benchmarks/solver_bench.py --orders [--boards 20] [--shuffles 10] [--timeout 2]
    python benchmarks/solver_bench.py --shells [--boards 4] [--timeout 3]
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # time this tree, not whatever copy of edgematch is installed

from solver import Fixed, Puzzle, is_solution, solve
from solver.formats import load_puzzle
from solver.generate import planted
from solver.puzzle import turn
from solver.search import _Board

OUTSIDE = ("cp-sat", "sat", "mip")
LABEL = {"cp-sat": "CP-SAT", "sat": "CaDiCaL", "mip": "HiGHS"}


def instances(quick: bool, part: str | None = None,
              sevens: int | None = None) -> list[tuple[str, Puzzle, bool]]:
    """(name, puzzle, all solutions?) for the benchmark instances, or one ``part`` of them.

    ``sevens`` framed 7x7s: five unless told (two when ``quick``).
    """
    seeds = [(p.stem, load_puzzle(p), True) for p in sorted((ROOT / "samples" / "puzzles").glob("*"))]
    rng = random.Random(2026)
    signed = [("signed 4x4", planted(4, 4, 4, rng=rng)[0], False),
              ("signed 5x5", planted(5, 5, 4, rng=rng)[0], False)]
    framed = [("framed 6x6", planted(6, 6, 5, 3, rng=random.Random(2))[0], False)]
    framed += [(f"framed 7x7 #{i}", planted(7, 7, 6, 3, rng=random.Random(i))[0], False)
               for i in range(sevens or (2 if quick else 5))]
    return {"seeds": seeds, "framed": framed}.get(part, seeds + signed + framed)


def c_input(puzzle: Puzzle, every: bool) -> str:
    """The puzzle in backtrack.c's input format (codes as the built-in search numbers them)."""
    board = _Board(puzzle, fold=False)
    codes = board.any
    tiles = [_tile_codes(board, t) for t in range(len(puzzle.tiles))]
    lines = [f"{puzzle.rows} {puzzle.cols} {codes} {board.border if puzzle.border is not None else -1} "
             f"{int(every)}", " ".join(map(str, board.partner[:codes]))]
    return "\n".join(lines + [" ".join(map(str, t)) for t in tiles]) + "\n"


def _tile_codes(board: _Board, tile: int) -> list[int]:
    kind, offset = board.kinds.kind_of[tile], board.kinds.offset[tile]
    edges = board.kind_edges[kind]
    return [edges[(k - offset) % 4] for k in range(4)]


def run_c(binary: str, puzzle: Puzzle, every: bool, timeout: float) -> tuple[float | None, int]:
    """(seconds or None on timeout, nodes) of the C reference."""
    try:
        out = subprocess.run([binary], input=c_input(puzzle, every), capture_output=True,
                             text=True, timeout=timeout, check=True).stdout.split()
    except subprocess.TimeoutExpired:
        return None, 0
    return float(out[1]), int(out[0])


def run_outside(engine: str, cases: list, timeout: float, max_timeout: float) -> list[tuple]:
    """(seconds or None on timeout, count, edgematch's seconds, cap) of an engine on every case.

    edgematch runs again on each case just before the engine (best of one
    core and all cores), so that a ratio compares times taken minutes apart
    on a shared machine no more than it must. CP-SAT and CaDiCaL stop at
    120x that time (within ``timeout`` and ``max_timeout``), so a stop still
    measures the 100x target; small puzzles run without a deadline, which
    costs CaDiCaL a child process.
    """
    from solver.engines import solve as engine_solve

    cores = numba.config.NUMBA_NUM_THREADS
    _warm(cores)
    out = []
    for name, puzzle, every in cases:
        beside = min(run_builtin(puzzle, every, threads, 1)[0] for threads in sorted({1, cores}))
        cap = None if puzzle.size <= 9 else timeout if engine == "mip" else \
            min(max(timeout, 120 * beside), max_timeout)
        result = engine_solve(puzzle, engine, all=every, timeout=cap)
        done = result.complete or (not every and result.count == 1)
        assert all(is_solution(puzzle, g) for g in result.solutions), (engine, name)
        out.append((result.seconds if done else None, result.count, beside, cap))
    return out


def _warm(cores: int) -> None:
    """Load the compiled kernel (cached on disk) on one core and on all."""
    for threads in sorted({1, cores}):
        run_builtin(planted(4, 4, 4, rng=random.Random(0))[0], True, threads, 1)


def run_builtin(puzzle: Puzzle, every: bool, threads: int, repeat: int) -> tuple[float, int, int]:
    """(median search seconds, nodes, count) of edgematch on ``threads`` cores."""
    numba.set_num_threads(threads)
    runs = [solve(puzzle, all=every) for _ in range(repeat)]
    assert all(is_solution(puzzle, g) for r in runs for g in r.solutions)
    return statistics.median(r.seconds for r in runs), runs[0].nodes, runs[0].count


def shown(seconds: float | None, cap: float | None) -> str:
    if seconds is None:
        return f"> {cap:.3g} s"
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def ratio(other: float | None, ours: float, cap: float) -> str:
    if other is None:
        return f"> {cap / ours:,.0f}x"
    return f"{other / ours:,.1f}x"


def paired(row: dict, engine: str) -> str:
    """An outside engine's ratio to edgematch's run just before it, and that run's time."""
    beside = row[engine + " beside"]
    return f"{ratio(row[engine], beside, row[engine + ' cap'])} ({shown(beside, 0)})"


def mirrored(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` mirrored in its main diagonal: its row scan is the original's column scan.

    A tile ``(N, E, S, W)`` shows ``(W, S, E, N)`` in the mirror. Turning the
    board gives the same puzzle back (its tiles turn freely), so a row scan
    from any corner is one of these two trees.
    """
    return Puzzle(tuple((w, s, e, n) for n, e, s, w in puzzle.tiles), puzzle.cols, puzzle.rows,
                  puzzle.match, puzzle.border, name=puzzle.name)


def reordered(puzzle: Puzzle, seed: int) -> Puzzle:
    """``puzzle`` with its tiles listed in another order, the order the search tries them in."""
    tiles = list(puzzle.tiles)
    random.Random(seed).shuffle(tiles)
    return Puzzle(tuple(tiles), puzzle.rows, puzzle.cols, puzzle.match, puzzle.border,
                  name=puzzle.name)


def corners_first(puzzle: Puzzle) -> list[Puzzle]:
    """``puzzle`` once per corner tile, laid first at the top left, turned to fit.

    A first solution may be any turn of the answer, so the row scan's
    subtree under each corner tile holds one (turning the board gives the
    same tiles, hence the same scan, which reaches the first corner's
    subtree first). These and their `mirrored` twins are the eight places
    the board's symmetries offer to start a search at.

    >>> len(corners_first(planted(4, 4, 3, 2, rng=random.Random(0))[0]))
    4
    """
    return [Puzzle(puzzle.tiles, puzzle.rows, puzzle.cols, puzzle.match, puzzle.border,
                   (Fixed(t, 0, 0, q),), name=puzzle.name)
            for t, tile in enumerate(puzzle.tiles) for q in range(4)
            if turn(tile, q)[0] == turn(tile, q)[3] == puzzle.border]


def first_nodes(puzzle: Puzzle, threads: int, timeout: float) -> float:
    """Nodes edgematch lays to a first solution on ``threads`` cores; inf past ``timeout``."""
    numba.set_num_threads(threads)
    result = solve(puzzle, timeout=timeout)
    assert all(is_solution(puzzle, g) for g in result.solutions)
    return result.nodes if result.count else math.inf


def orders(boards: int, shuffles: int, timeout: float) -> None:
    """Nodes per core to a first solution: racing the two scans against splitting one.

    A race runs the row scan on one core and the column scan on the other,
    each over its whole tree, until one finds a solution: the fewer of the
    two. The split (what edgematch does) shares the row scan's tree out
    between the cores: its nodes over the cores. Then each scan's median
    over ``shuffles`` orders of the tiles, and the least and most of both,
    which show how heavy the tail is. Last, the eight searches the board's
    symmetries give (`corners_first` of both scans): the least of them, and
    what the eight cost interleaved on two cores, four times the least.
    """
    cores = numba.config.NUMBA_NUM_THREADS
    cases = instances(False, "framed", sevens=boards)
    _warm(cores)
    print(f"| instance | row scan | column scan | race, 2 cores | split, {cores} cores "
          f"| row scan, {shuffles} orders: median | column scan | least, most of both "
          f"| corner first, 8 ways: least | 8 ways on 2 cores |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    races, splits, eights = [], [], []
    for name, puzzle, *_ in cases:
        row, column = first_nodes(puzzle, 1, timeout), first_nodes(mirrored(puzzle), 1, timeout)
        split = first_nodes(puzzle, cores, timeout) / cores
        shuffled = [[first_nodes(p, 1, timeout) for p in (q, mirrored(q))]
                    for q in (reordered(puzzle, seed) for seed in range(shuffles))]
        rows, columns = zip(*shuffled)
        corners = [first_nodes(p, 1, timeout) for q in (puzzle, mirrored(puzzle)) for p in corners_first(q)]
        races.append(min(row, column))
        splits.append(split)
        eights.append(4 * min(corners))
        print(f"| {name} | {_mega(row)} | {_mega(column)} | {_mega(races[-1])} | {_mega(split)} "
              f"| {_mega(statistics.median(rows))} | {_mega(statistics.median(columns))} "
              f"| {_mega(min(rows + columns))}, {_mega(max(rows + columns))} "
              f"| {_mega(min(corners))} | {_mega(eights[-1])} |", flush=True)
    print(f"\n- median nodes per core to a first solution over {len(cases)} boards: race "
          f"{_mega(statistics.median(races))}, split {_mega(statistics.median(splits))}; "
          f"the race lays fewer on {sum(r < s for r, s in zip(races, splits))}; the eight ways "
          f"on 2 cores {_mega(statistics.median(eights))}, fewer on "
          f"{sum(e < s for e, s in zip(eights, splits))} (> T: not found in {timeout:g} s)")


def shells(boards: int, timeout: float) -> None:
    """Boards with no frame on one core: square shells against a row scan.

    ``boards`` planted boards per size (4x4 to 7x7) and number of figures
    (4 to 12, at most twice the side), a first solution and all of them,
    each timed with the kernel's own order (`kernel.fill_order`) and with a
    row scan. A search still running at ``timeout`` counts as ``timeout``,
    so the ratios understate what it saves there.
    """
    from solver import kernel

    numba.set_num_threads(1)
    _warm(1)
    scans = {"rows": lambda rows, cols, framed: np.arange(rows * cols), "shells": kernel.fill_order}
    own = kernel.fill_order
    print(f"| board | figures | task | row scan, median | shells, median | row scan / shells | "
          f"past {timeout:g} s (rows, shells) |")
    print("|---|---|---|---|---|---|---|")
    ratios: dict = {False: [], True: []}
    try:
        for side in range(4, 8):
            for figures in (f for f in (4, 5, 6, 8, 10, 12) if f <= 2 * side):
                puzzles = [planted(side, side, figures, rng=random.Random(100 * side + 10 * figures + b))[0]
                           for b in range(boards)]
                for every in (False, True):
                    seconds: dict = {}
                    for scan, order in scans.items():
                        kernel.fill_order = order
                        runs = [solve(p, all=every, timeout=timeout) for p in puzzles]
                        assert all(is_solution(p, g) for p, r in zip(puzzles, runs) for g in r.solutions)
                        seconds[scan] = [r.seconds if r.complete or not every and r.count else None
                                         for r in runs]
                    capped = {k: [timeout if t is None else t for t in v] for k, v in seconds.items()}
                    ratios[every] += [a / b for a, b in zip(capped["rows"], capped["shells"])]
                    print(f"| {side}x{side} | {figures} | {'all' if every else 'first'} "
                          f"| {shown(statistics.median(capped['rows']), 0)} "
                          f"| {shown(statistics.median(capped['shells']), 0)} "
                          f"| {statistics.median(capped['rows']) / statistics.median(capped['shells']):.1f}x "
                          f"| {seconds['rows'].count(None)}, {seconds['shells'].count(None)} |", flush=True)
    finally:
        kernel.fill_order = own
    for every, found in ratios.items():
        print(f"- {'all solutions' if every else 'first solution'}, {len(found)} boards: row scan / shells "
              f"median {statistics.median(found):.2f}x, geometric mean "
              f"{math.exp(statistics.mean(map(math.log, found))):.2f}x, "
              f"shells slower on {sum(r < 1 for r in found)}")


def _mega(nodes: float) -> str:
    return "> T" if nodes == math.inf else f"{nodes / 1e6:.2f} M"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds per outside engine run; CP-SAT and CaDiCaL get up to "
                             "120x edgematch's time (at most --max-timeout) so a timeout still "
                             "measures the 100x target")
    parser.add_argument("--max-timeout", type=float, default=60.0)
    parser.add_argument("--c-timeout", type=float, default=30.0, help="seconds per C run")
    parser.add_argument("--quick", action="store_true", help="two 7x7s, for a smoke run")
    part = parser.add_mutually_exclusive_group()
    part.add_argument("--seeds", action="store_const", dest="part", const="seeds",
                      help="only the seed puzzles (all solutions of each; a few seconds)")
    part.add_argument("--framed", action="store_const", dest="part", const="framed",
                      help="only the framed Eternity-style 6x6 and 7x7s")
    part.add_argument("--orders", action="store_const", dest="part", const="orders",
                      help="edgematch alone: nodes to a first solution by fill order and tile order")
    part.add_argument("--shells", action="store_const", dest="part", const="shells",
                      help="edgematch alone: boards with no frame, square shells against a row scan")
    parser.add_argument("--boards", type=int, default=None,
                        help="7x7s for --orders (20), boards per size and figures for --shells (4)")
    parser.add_argument("--shuffles", type=int, default=10,
                        help="tile orders per board for --orders (at least 1)")
    args = parser.parse_args()
    if args.part == "orders":
        orders(args.boards or 20, args.shuffles, args.timeout)
        return
    if args.part == "shells":
        shells(args.boards or 4, args.timeout if args.timeout != 5.0 else 3.0)
        return
    cases = instances(args.quick, args.part)
    cores = numba.config.NUMBA_NUM_THREADS

    with tempfile.TemporaryDirectory() as folder:
        binary = str(Path(folder) / "backtrack")
        gcc = shutil.which("gcc")
        if gcc:
            subprocess.run([gcc, "-O3", "-o", binary, str(ROOT / "benchmarks" / "c" / "backtrack.c")],
                           check=True)
        _warm(cores)
        rows = []
        for name, puzzle, every in cases:
            repeat = 20 if puzzle.size <= 9 else 1
            one, nodes, count = run_builtin(puzzle, every, 1, repeat)
            many = run_builtin(puzzle, every, cores, repeat)[0] if puzzle.size > 9 else one
            c_seconds, c_nodes = run_c(binary, puzzle, every, args.c_timeout) if gcc else (None, 0)
            rows.append(dict(name=name, size=puzzle.size, every=every, one=one, many=many, nodes=nodes, count=count,
                             c=c_seconds, c_nodes=c_nodes))
            print(f"{name}: edgematch {shown(one, 0)} on 1 core, C {shown(c_seconds, args.c_timeout)}",
                  file=sys.stderr, flush=True)
        spawn = multiprocessing.get_context("spawn")
        for engine in OUTSIDE:
            print(f"running {LABEL[engine]} ...", file=sys.stderr, flush=True)
            # a process of its own (not a daemon: the SAT engine starts children)
            with ProcessPoolExecutor(1, mp_context=spawn) as pool:
                results = pool.submit(run_outside, engine, cases, args.timeout, args.max_timeout).result()
            for row, (seconds, count, beside, cap) in zip(rows, results):
                row[engine], row[engine + " cap"], row[engine + " beside"] = seconds, cap, beside
                if seconds is not None and row["every"]:
                    assert count == row["count"], (engine, row["name"], count, row["count"])

    report(rows, cores, args)


def report(rows: list[dict], cores: int, args) -> None:
    """The markdown table and the targets, as ratios measured in this run.

    CP-SAT's and CaDiCaL's ratios divide by edgematch's time taken just
    before them (shown in brackets), the others by the first columns' best.
    """
    ct = args.c_timeout
    print(f"| instance | task | edgematch 1 core | edgematch {cores} cores | nodes/s 1 core | C -O3 "
          "| CP-SAT | CaDiCaL | HiGHS | C / edgematch | CP-SAT / edgematch (its time) "
          "| CaDiCaL / edgematch (its time) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        best = min(r["one"], r["many"])
        rate = f"{r['nodes'] / r['one'] / 1e6:.1f} M" if r["one"] > 0 else "-"
        print(f"| {r['name']} | {'all (' + str(r['count']) + ')' if r['every'] else 'first'} "
              f"| {shown(r['one'], 0)} | {shown(r['many'], 0)} | {rate} | {shown(r['c'], ct)} "
              f"| {shown(r['cp-sat'], r['cp-sat cap'])} | {shown(r['sat'], r['sat cap'])} "
              f"| {shown(r['mip'], r['mip cap'])} | {ratio(r['c'], best, ct)} "
              f"| {paired(r, 'cp-sat')} | {paired(r, 'sat')} |")
    print()
    big = [r for r in rows if r["nodes"] > 1_000_000]
    if big:
        total_nodes, total_time = sum(r["nodes"] for r in big), sum(r["one"] for r in big)
        print(f"- nodes/s on one core over the instances with > 1 M nodes: "
              f"{total_nodes / total_time / 1e6:.1f} M (target >= 30 M)")
        c_rows = [r for r in big if r["c"]]
        if c_rows:
            print(f"- C reference on the same instances: "
                  f"{sum(r['c_nodes'] for r in c_rows) / sum(r['c'] for r in c_rows) / 1e6:.1f} M nodes/s "
                  "(its own tree: no kinds, no frame deduction)")
    sevens = [r for r in rows if r["name"].startswith("framed 7x7")]
    if sevens:
        ours = statistics.median(min(r["one"], r["many"]) for r in sevens)
        ours_one = statistics.median(r["one"] for r in sevens)
        c = statistics.median(r["c"] if r["c"] is not None else float("inf") for r in sevens)
        print(f"- framed 7x7, median time to first solution: edgematch {shown(ours, 0)} "
              f"({shown(ours_one, 0)} on 1 core), C {shown(c if c != float('inf') else None, ct)} "
              f"(C / edgematch: {'> ' + format(ct / ours, ',.0f') if c == float('inf') else format(c / ours, ',.1f')}x)")
    for engine in ("cp-sat", "sat"):
        slow = [r for r in rows if r[engine] is None or r[engine] > 1]
        if slow:
            worst = min((r[engine] or r[engine + " cap"]) / r[engine + " beside"] for r in slow)
            print(f"- {LABEL[engine]} over 1 s on {len(slow)} instances; edgematch is at least "
                  f"{worst:,.0f}x faster on each (target >= 100x)")
    for r in (r for r in rows if r["every"] and r["size"] == 9):
        print(f"- {r['name']} (3x3), all {r['count']} solutions: {shown(r['one'], 0)} search time, "
              f"CP-SAT enumerating {shown(r['cp-sat'], None)}: {ratio(r['cp-sat'], r['one'], None)}")


if __name__ == "__main__":
    main()
