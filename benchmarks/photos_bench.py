"""Photo to answer with a library, end to end, on rendered photos (issue 4 part 8).

Two parts:

* ``accuracy``: ``--n`` photos per difficulty (easy, normal, hard), art sets
  and layouts in turn, each solved by `vision.pipeline.solve_photo` (what
  ``edgematch solve PHOTO --library DIR`` runs) with a library learnt from
  one *other* photo of the same art set (another seed, scene, light and
  layout), built by `vision.library.add_edges` with the codes from that
  photo's truth (a teacher photo whose tiles were found more than 3% of a
  side off is passed over, as a person would retake it). Reported: tiles found (all 9 detected, each on a truth
  tile), edges read correctly (the codes `solve` reports, after any
  re-reading, against the truth), arrangements valid (the independent
  verifier, `solver.verify`, accepts the answer for the true codes), and
  the failures by class: tiles not found, found off (some corner more
  than a tenth of a side from the truth: both detection's), found but
  misread (some code `solve` reports is wrong), read right but no valid
  answer.
  With ``--corners truth`` the tiles are cut at their true corners instead
  of being sought: reading and solving measured apart from finding.
* ``speed``: ``--speed`` 12 MP JPEGs, each solved by the ``edgematch``
  command in a fresh process, against a fresh process that only imports
  cv2 and decodes the same file (median of 3 runs each, same run, after
  one untimed run of each). Both may write and reuse compiled bytecode (in
  a cache of the run's own), as an installed package has it from pip, even
  where PYTHONDONTWRITEBYTECODE is set: compiling edgematch's modules from
  source in every process would cost about 30 ms a user never pays. The
  ratio of CPU seconds (all threads) is reported too: it is not the target
  (the solve uses both cores), but it moves far less than wall time when
  other work loads the machine, so it tells whether a change cut work
  where wall times cannot.

Run in parts on a shared machine::

    python benchmarks/photos_bench.py --n 12 --start 0
    python benchmarks/photos_bench.py --n 12 --start 12 --speed 0
    python benchmarks/photos_bench.py --n 0 --speed 3
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from itertools import product
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from solver import Puzzle, is_solution  # noqa: E402
from solver.puzzle import Placement  # noqa: E402
from vision.cli.errors import NotRecognised  # noqa: E402
from vision.describe import describe  # noqa: E402
from vision.detect import find_tiles  # noqa: E402
from vision.images import read_image  # noqa: E402
from vision.library import add_edges, load_library  # noqa: E402
from vision.pipeline import photo_edges, solve_photo  # noqa: E402
from vision.read import read_edges  # noqa: E402
from vision.render import ART_SETS, LAYOUTS, LEVELS, match_tiles, render_photo, save_photo  # noqa: E402

SIZE = (1600, 1200)
BIG = (4000, 3000)  # 12 MP
TEACHER_SEEDS = range(10_000, 10_020)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=12, help="photos per difficulty")
    parser.add_argument("--start", type=int, default=0, help="first seed")
    parser.add_argument("--speed", type=int, default=2, help="12 MP photos to time")
    parser.add_argument("--levels", default=",".join(LEVELS), help="difficulties, comma-separated")
    parser.add_argument("--corners", choices=("detect", "truth"), default="detect",
                        help="tiles found by detection (end to end) or cut at their true corners")
    parser.add_argument("--quiet", action="store_true", help="only the summary")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep each rendered photo and its truth JSON in DIR (to look at a miss with detect)")
    parser.add_argument("--edges", action="store_true",
                        help="list each misread edge: tile, side, code read and its confidence, true code, "
                             "runner-up, code answered")
    parser.add_argument("--teacher", choices=("other", "same"), default="other",
                        help="teach each photo's library from another puzzle of its art set (the target's "
                             "measure), or from a photo of the same puzzle, as a person teaches their own "
                             "puzzle once and solves it again (`vision.taught`)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        arts = list(ART_SETS)
        needed = args.teacher == "other" or args.speed  # the timed photos use the art's library too
        libraries = {art: teach(art, work) for art in arts} if needed else {}
        if args.n:
            accuracy(args, arts, libraries, work)
        if args.speed:
            speed(args.speed, libraries, work)


def teach(art: str, work: Path, seeds=TEACHER_SEEDS, layouts=("loose",)) -> Path:
    """A library learnt from the first cleanly detected easy teacher photo of ``art``: puzzles ``seeds``, laid out so."""
    for seed, layout in product(seeds, layouts):
        image, truth = render_photo(seed=seed, art=art, layout=layout, difficulty="easy", size=SIZE)
        try:
            edges = photo_edges(image)
        except NotRecognised:
            continue
        matches = match_tiles(truth, edges.corners)
        if None in matches or len({m.tile for m in matches}) != len(truth["tiles"]) \
                or corner_error(truth, edges.corners, matches) > 0.03:
            continue  # a person would retake a photo whose tiles `detect --out` shows misplaced
        folder = work / f"library-{art}-{seed}"
        sources = [{"photo": f"{art}-{seed}", "tile": i // 4 + 1, "side": "NESW"[i % 4]}
                   for i in range(len(edges.crops))]
        add_edges(folder, edges.crops, [c for m in matches for c in m.edges], sources, match=truth["match"],
                  tiles=len(truth["tiles"]))
        return folder
    raise RuntimeError(f"no teacher photo of {art} was detected cleanly")


def corner_error(truth: dict, corners: list, matches: list) -> float:
    """The worst detected corner's distance from the truth, as a fraction of the tile side."""
    worst = 0.0
    for quad, m in zip(corners, matches):
        real = true_corners(truth, m)
        side = np.linalg.norm(real[1] - real[0])
        worst = max(worst, float(np.linalg.norm(np.float32(quad) - real, axis=1).max() / side))
    return worst


def true_corners(truth: dict, match) -> np.ndarray:
    """The true corners of the tile ``match`` names, NW NE SE SW as it was found (turned by its shift)."""
    return np.roll(np.float32(truth["tiles"][match.tile]["corners"]), -match.shift, axis=0)


def sides_inside(found: np.ndarray, real: np.ndarray) -> list[float]:
    """How far inside its card each side of a tile was found, N E S W, as a fraction of the side.

    Measured at the side's middle, along the card's inward normal; negative
    where the side was found outside the card. A worn vintage card found at
    its printed rule lies 4-6% inside: the car's cabin then loses the body
    line printed under the rule and reads as the shield's point.

    >>> real = np.float32([[0, 0], [100, 0], [100, 100], [0, 100]])
    >>> sides_inside(real + np.float32([[0, 5], [2, 5], [2, 0], [0, 0]]), real)   # N 5 px in, E 2 px out
    [0.05, -0.02, 0.0, 0.0]
    """
    found, real = np.float32(found), np.float32(real)
    centre, side = real.mean(axis=0), np.linalg.norm(real[1] - real[0])
    depths = []
    for k in range(4):
        middle, found_middle = (real[k] + real[(k + 1) % 4]) / 2, (found[k] + found[(k + 1) % 4]) / 2
        inward = (centre - middle) / np.linalg.norm(centre - middle)
        depths.append(round(float(np.dot(found_middle - middle, inward) / side), 3))
    return depths


def scene(seed: int, arts: list) -> tuple[str, str]:
    """The art set and layout photo ``seed`` is rendered with: ``arts`` in turn, then the next layout.

    >>> scene(1, ["witches", "frogs"]), scene(2, ["witches", "frogs"])
    (('frogs', 'scattered'), ('witches', 'loose'))
    """
    return arts[seed % len(arts)], LAYOUTS[(seed // len(arts)) % len(LAYOUTS)]


def accuracy(args, arts: list, libraries: dict, work: Path) -> None:
    rows = defaultdict(lambda: defaultdict(int))
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for difficulty in args.levels.split(","):
        for i in range(args.n):
            seed = args.start + i
            art, layout = scene(seed, arts)
            image, truth = render_photo(seed=seed, art=art, layout=layout, difficulty=difficulty, size=SIZE)
            path = (args.keep or work) / f"{art}-{seed}-{layout}-{difficulty}.jpg"
            save_photo(path, image, truth)
            library = teach(art, work, [seed], LAYOUTS) if args.teacher == "same" else libraries[art]
            outcome = judge(path, truth, library, truth_corners=args.corners == "truth", edges=args.edges)
            misread = outcome.pop("misread_edges", [])
            tally = rows[difficulty]
            tally["photos"] += 1
            for key, value in outcome.items():
                tally[key] += value
            if not args.quiet:
                print(difficulty, art, layout, seed, dict(outcome), flush=True)
                for line in misread:
                    print("   ", line, flush=True)
    print(f"\naccuracy: {sum(r['photos'] for r in rows.values())} photos of {SIZE[0]}x{SIZE[1]} "
          f"in {time.perf_counter() - started:.0f} s, libraries learnt from "
          f"{'other puzzles of the art' if args.teacher == 'other' else 'a photo of the same puzzle'}, "
          f"tiles {'at their true corners' if args.corners == 'truth' else 'found by detection'}")
    print(f"{'difficulty':<10} {'photos':>6} {'tiles found':>12} {'edges right':>12} {'valid':>8} "
          f"{'of found':>9} {'re-read':>8}   failures: not found / found off / misread / read right")
    for difficulty, r in rows.items():
        edges = max(r["edges"], 1)
        print(f"{difficulty:<10} {r['photos']:>6} {r['found'] / r['photos']:>12.1%} "
              f"{r['right'] / edges:>12.1%} {r['valid'] / r['photos']:>8.1%} "
              f"{r['valid'] / max(r['found'], 1):>9.1%} {r['reread']:>8}   "
              f"{r['photos'] - r['found']} / {r['off']} / {r['misread']} / "
              f"{r['found'] - r['valid'] - r['off'] - r['misread']}")


def judge(path: Path, truth: dict, library: Path, truth_corners: bool = False, edges: bool = False) -> dict:
    """found, edges, right, valid, reread for one photo; a failure's class: off or misread.

    With ``edges``, ``misread_edges`` lists the edges read or answered wrong (`misread_edges`).
    """
    outcome = {"found": 0, "edges": 4 * len(truth["tiles"]), "right": 0, "valid": 0, "reread": 0,
               "off": 0, "misread": 0}
    try:
        corners = [t["corners"] for t in truth["tiles"]] if truth_corners else None
        doc = solve_photo(path, library=library, out=path.with_suffix(".solved.png"), timeout=10, corners=corners)
    except NotRecognised:
        return outcome
    except Exception as error:  # counted as a failure, and said
        print(f"{path.name}: {type(error).__name__}: {error}", flush=True)
        return outcome
    matches = match_tiles(truth, [np.float32(t["corners"]) for t in doc["tiles"]])
    if None in matches or len({m.tile for m in matches}) != len(truth["tiles"]):
        return outcome
    outcome["found"] = 1
    outcome["right"] = sum(a == b for t, m in zip(doc["tiles"], matches) for a, b in zip(t["edges"], m.edges))
    outcome["reread"] = len(doc.get("reinterpreted", []))
    if doc["solutions"]:
        puzzle = Puzzle(tiles=tuple(m.edges for m in matches), rows=truth["rows"], cols=truth["cols"])
        grid = tuple(tuple(Placement(c["tile"] - 1, c["rotation"] // 90) for c in row)
                     for row in doc["solutions"][0]["grid"])
        outcome["valid"] = int(is_solution(puzzle, grid))
    if not outcome["valid"]:
        outcome["off"] = int(corner_error(truth, [np.float32(t["corners"]) for t in doc["tiles"]], matches) > 0.1)
        outcome["misread"] = int(not outcome["off"] and outcome["right"] < outcome["edges"])
    if edges:
        insides = [sides_inside(t["corners"], true_corners(truth, m)) for t, m in zip(doc["tiles"], matches)]
        outcome["misread_edges"] = misread_edges(path, doc, [m.edges for m in matches], library, insides)
    return outcome


def misread_edges(path: Path, doc: dict, true_edges: list, library: Path, insides: list | None = None) -> list[str]:
    """One line per edge whose top reading or answered code is not the truth.

    The photo's edges are read again at the tiles the answer names (what
    `solve_photo` read), so the line gives the reading's ranked candidates:
    ``tile 4 S: read 4 0.44, runner-up 1 0.29, true -4 0.10, answered 1, 100% seen``
    (tiles numbered as the answer numbers them, 1-based), then how much of
    the edge glare left to see (`vision.read.Reading`'s ``seen``: an edge
    blown out whole reads near flat whatever it shows) and, with
    ``insides`` (per tile, `sides_inside`), how far inside its card that
    side was found: ``, 34% seen, found 5.5% inside``.
    """
    answered = [t["edges"] for t in doc["tiles"]]
    if all(list(a) == list(b) for a, b in zip(answered, true_edges)) and not doc.get("reinterpreted"):
        return []  # every code answered is right and none was re-read: the top reading was right too
    edges = photo_edges(read_image(path), corners=[t["corners"] for t in doc["tiles"]])
    reading = read_edges(describe(edges.crops, edges.veils), load_library(library))
    lines = []
    for tile, (candidates, truth, answer, seen) in enumerate(zip(reading.candidates, true_edges, answered,
                                                                  reading.seen), 1):
        for side, (ranked, true, final) in enumerate(zip(candidates, truth, answer)):
            if ranked[0][0] == true and final == true:
                continue
            (code, confidence), runner_up = ranked[0], ranked[1] if len(ranked) > 1 else (None, 0.0)
            inside = "" if insides is None else f", found {100 * insides[tile - 1][side]:.1f}% inside"
            lines.append(f"tile {tile} {'NESW'[side]}: read {code} {confidence:.2f}, runner-up {runner_up[0]} "
                         f"{runner_up[1]:.2f}, true {true} {dict(ranked).get(true, 0.0):.2f}, answered {final}, "
                         f"{100 * seen[side]:.0f}% seen{inside}")
    return lines


def speed(count: int, libraries: dict, work: Path) -> None:
    """End-to-end `edgematch solve` on 12 MP JPEGs against a bare cv2 decode, fresh processes."""
    arts = list(libraries)
    solve_times, decode_times, solve_cpu, decode_cpu = [], [], [], []
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    for i in range(count):
        art = arts[i % len(arts)]
        image, truth = render_photo(seed=500 + i, art=art, layout=LAYOUTS[i % 3], difficulty="normal", size=BIG)
        path = work / f"big-{i}.jpg"
        save_photo(path, image, truth)
        if len(find_tiles(image)) != len(truth["tiles"]):
            print(f"speed photo {i} ({art}): detection trouble, timed anyway")
        solve = [sys.executable, "-c", "from vision.cli import main; main()", "solve", str(path), "--library", str(libraries[art]),
                 "--json", "--out", str(work / f"big-{i}.solved.png")]
        decode = [sys.executable, "-c", f"import cv2; cv2.imread({str(path)!r})"]
        for command, times, cpu in ((decode, decode_times, decode_cpu), (solve, solve_times, solve_cpu)):
            runs = [timed(command, env) for _ in range(4)][1:]
            times.append(statistics.median(wall for wall, _ in runs))
            cpu.append(statistics.median(used for _, used in runs))
        print(f"12 MP photo {i} ({art}): solve {solve_times[-1]:.2f} s, bare decode {decode_times[-1]:.2f} s, "
              f"ratio {solve_times[-1] / decode_times[-1]:.1f} (CPU {solve_cpu[-1] / decode_cpu[-1]:.1f})", flush=True)
    ratio = [s / d for s, d in zip(solve_times, decode_times)]
    cpu_ratio = [s / d for s, d in zip(solve_cpu, decode_cpu)]
    print(f"\nspeed: {count} photos of {BIG[0]}x{BIG[1]}: solve median {statistics.median(solve_times):.2f} s "
          f"(max {max(solve_times):.2f}), bare cv2 decode median {statistics.median(decode_times):.2f} s, "
          f"ratio median {statistics.median(ratio):.1f} (max {max(ratio):.1f}); "
          f"CPU seconds ratio median {statistics.median(cpu_ratio):.1f}")


def timed(command: list, env: dict) -> tuple[float, float]:
    """Wall and CPU seconds (user and system, all threads) of one run of ``command``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, capture_output=True, check=False, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


if __name__ == "__main__":
    main()
