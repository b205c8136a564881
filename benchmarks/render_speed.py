"""How fast `vision.render.render_photo` makes a 12-megapixel photo.

Run: python benchmarks/render_speed.py [--repeats N]

The machine is shared, so besides seconds it reports each time as a ratio
to a baseline measured in the same run: decoding a 12-megapixel JPEG with
cv2.imread, the first step of every photo solve.
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

import cv2

from vision.render import render_photo

CASES = [("scattered", "normal", "witches"), ("loose", "hard", "critters"),
         ("touching", "easy", "frogs"), ("scan", "normal", "lookalikes"),
         ("scattered", "hard", "vintage")]


def median_of(repeats: int, work) -> tuple[float, float]:
    """Median wall and CPU seconds of ``work()`` (CPU time shows less of the neighbours' load)."""
    wall, cpu = [], []
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        work()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    repeats = parser.parse_args().repeats
    render_photo(seed=0, size=(400, 300))  # imports and first-use caches
    image, _ = render_photo(seed=0)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "photo.jpg")
        cv2.imwrite(path, image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        baseline, baseline_cpu = median_of(repeats, lambda: cv2.imread(path))
    print(f"baseline cv2.imread of a 4000x3000 JPEG: {baseline:.3f} s ({baseline_cpu:.3f} s CPU)")
    print(f"{'layout':10} {'level':7} {'art':11} {'seconds':>8} {'cpu s':>6} {'x imread':>9} {'cpu x':>6}")
    for layout, level, art in CASES:
        seconds, cpu = median_of(repeats, lambda: render_photo(seed=1, layout=layout, difficulty=level,
                                                               art=art))
        print(f"{layout:10} {level:7} {art:11} {seconds:8.3f} {cpu:6.3f} {seconds / baseline:9.1f}"
              f" {cpu / baseline_cpu:6.1f}")


if __name__ == "__main__":
    main()
