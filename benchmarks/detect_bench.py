"""How well and how fast `vision.detect.find_tiles` finds the tiles of rendered photos.

Run: python benchmarks/detect_bench.py [--seeds N] [--size WxH] [--no-big]
                                        [--layouts L,..] [--levels D,..]
     python benchmarks/detect_bench.py --sweep [--seeds N] [--start S] [--size WxH]

For every layout x difficulty, N photos (art sets and tables vary with the
seed; a third of them saved as phone JPEGs turned by EXIF and read back):
how many photos had every tile found (each corner within a tenth of its
side) and nothing else, and the corner error (distance to the truth
corner over the tile's side, mean and worst); each photo missed is named,
to render again with `edgematch render`, with what `problem` says of it
(a miss it lets pass is silent: a wrong answer instead of exit 3).
Then the speed on a 12 MP and a 48 MP JPEG, as ratios to a bare cv2.imread
of the same file measured in the same run (the machine is shared).

``--sweep``: hard touching blocks of every art set, seeds S to S+N-1 (the
seams a block is cut along, where art fakes them; its outline where the
mask took in the table or lost a corner): how many give their tiles, how
many end in exit 3, and how many give a wrong set silently (each named).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this tree, not whatever copy is installed

from vision.detect import find_tiles  # noqa: E402
from vision.misfits import problem  # noqa: E402
from vision.images import read_image  # noqa: E402
from vision.render import ART_SETS, LAYOUTS, LEVELS, match_tiles, render_photo, save_photo  # noqa: E402

TURNS = (0, 90, 270)


FOUND = 0.1  # a tile's worst corner off by more than this share of its side is not found


def corner_errors(truth: dict, tiles: list) -> list[float] | None:
    """Each tile's worst corner error over its side, or None unless exactly the truth tiles were found
    (each within `FOUND`)."""
    matches = match_tiles(truth, tiles)
    if len(tiles) != len(truth["tiles"]) or None in matches or len({m.tile for m in matches}) != len(tiles):
        return None
    errors = []
    for quad, match in zip(tiles, matches):
        corners = np.roll(np.float32(truth["tiles"][match.tile]["corners"]), -match.shift, axis=0)
        errors.append(float(np.linalg.norm(quad - corners, axis=1).max() / np.linalg.norm(corners[1] - corners[0])))
    return errors if max(errors) < FOUND else None


def median_seconds(repeats: int, work) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def accuracy(seeds: int, size: tuple[int, int], folder: Path, layouts=LAYOUTS, levels=LEVELS) -> None:
    arts = sorted(ART_SETS)
    print(f"{'layout':10} {'level':7} {'photos':>6} {'exact':>6} {'mean err':>9} {'worst err':>10} {'seconds':>8}")
    everything, exact_total, total, silent = [], 0, 0, 0
    missed = []
    for layout in layouts:
        for level in levels:
            exact, errors, seconds = 0, [], []
            for seed in range(seeds):
                turn = TURNS[seed % 3]
                image, truth = render_photo(seed=seed, layout=layout, difficulty=level, size=size,
                                            art=arts[seed % len(arts)], exif=turn)
                if turn:  # as a phone stores it: pixels turned back, EXIF says how to show them
                    save_photo(folder / "phone.jpg", image, truth)
                    image = read_image(folder / "phone.jpg")
                start = time.perf_counter()
                tiles = find_tiles(image)
                seconds.append(time.perf_counter() - start)
                found = corner_errors(truth, tiles)
                if found is not None:
                    exact += 1
                    errors += found
                else:
                    trouble = problem(tiles)
                    silent += trouble is None
                    missed.append(f"  missed: --layout {layout} --difficulty {level} --seed {seed}"
                                  f" --art {truth['params']['art']} --table {truth['params']['table']}"
                                  f" --exif {turn}: {len(tiles)} tiles, "
                                  + (f"exit 3: {trouble}" if trouble else "SILENT (no exit 3)"))
            everything += errors
            exact_total += exact
            total += seeds
            mean = f"{100 * np.mean(errors):8.2f}%" if errors else "       -"
            worst = f"{100 * np.max(errors):9.2f}%" if errors else "        -"
            print(f"{layout:10} {level:7} {seeds:6} {exact:6} {mean} {worst} {statistics.median(seconds):8.3f}")
    print("\n".join(missed))
    print(f"all: {exact_total}/{total} photos exact, {silent} missed without exit 3; corner error over side:"
          f" mean {100 * np.mean(everything):.2f}%, median {100 * np.median(everything):.2f}%,"
          f" 95th percentile {100 * np.percentile(everything, 95):.2f}%")


def sweep(seeds: int, size: tuple[int, int], start: int = 0) -> None:
    counts = {"exact": 0, "exit 3": 0, "silent": 0}
    for art in sorted(ART_SETS):
        for seed in range(start, start + seeds):
            image, truth = render_photo(seed=seed, art=art, layout="touching", difficulty="hard", size=size)
            tiles = find_tiles(image)
            outcome = "exact" if corner_errors(truth, tiles) else "exit 3" if problem(tiles) else "silent"
            counts[outcome] += 1
            if outcome != "exact":
                print(f"  {outcome}: --art {art} --seed {seed}: {len(tiles)} tiles")
    print(f"touching hard, {len(ART_SETS)} art sets x seeds {start}-{start + seeds - 1} at {size[0]}x{size[1]}: "
          + ", ".join(f"{count} {outcome}" for outcome, count in counts.items()))


def speed(folder: Path, sizes: list[tuple[int, int]], repeats: int = 3) -> None:
    print(f"{'photo':>12} {'imread s':>9} {'read_image':>11} {'find_tiles':>11} {'find x imread':>14} {'tiles':>6}")
    for size in sizes:
        image, truth = render_photo(seed=4, layout="loose", difficulty="normal", size=size)
        path = str(folder / f"big{size[0]}.jpg")
        cv2.imwrite(path, image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        bare = median_seconds(repeats, lambda: cv2.imread(path))
        reading = median_seconds(repeats, lambda: read_image(path))
        photo = read_image(path)
        finding = median_seconds(repeats, lambda: find_tiles(photo))
        found = corner_errors(truth, find_tiles(photo))
        label = f"{size[0] * size[1] / 1e6:.0f} MP"
        print(f"{label:>12} {bare:9.3f} {reading:11.3f} {finding:11.3f} {finding / bare:14.2f}"
              f" {'exact' if found else 'MISSED':>6}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, help="photos per layout and difficulty (6; sweep: 40)")
    parser.add_argument("--start", type=int, default=0, help="first seed of the sweep (0)")
    parser.add_argument("--size", help="size of the photos (2000x1500; sweep: 1200x900)")
    parser.add_argument("--sweep", action="store_true", help="only the touching blocks' sweep")
    parser.add_argument("--no-big", action="store_true", help="skip the 12 and 48 MP timing")
    parser.add_argument("--layouts", default=",".join(LAYOUTS), help="layouts to run, comma separated")
    parser.add_argument("--levels", default=",".join(LEVELS), help="difficulties to run, comma separated")
    options = parser.parse_args()
    size = tuple(int(side) for side in (options.size or ("1200x900" if options.sweep else "2000x1500")).split("x"))
    if options.sweep:
        sweep(options.seeds or 40, size, options.start)
        return
    render_photo(seed=0, size=(400, 300))  # imports and first-use caches
    with tempfile.TemporaryDirectory() as folder:
        accuracy(options.seeds or 6, size, Path(folder), options.layouts.split(","), options.levels.split(","))
        if not options.no_big:
            speed(Path(folder), [(4000, 3000), (8000, 6000)])


if __name__ == "__main__":
    main()
