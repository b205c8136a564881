"""Photo for photo: the tiles two source trees find on the same rendered photos.

A change to detection is kept only where the photos it was made for come
out right and every other photo it reaches is found as before or better.
This runs `vision.detect.find_tiles` of each tree in its own process, that
tree first on ``sys.path``, on the photos `photos_bench` renders for the
seeds (its art set and layout per seed, `photos_bench.scene` of this
tree; its size; saved as phone JPEGs and read back), and names each photo whose tile count or any tile's corner
error (the worst corner's distance from the truth over the side) differs.

Each process imports the benchmark from its own tree: `photos_bench` puts
its tree first on ``sys.path``, so a harness that imports it from another
tree silently runs that tree's code (the thirty-first session's first
sweep compared main with itself). Each process checks where its `vision`
came from. A photo rendered differently by the two trees (a renderer
change) is named apart: its corners say nothing of detection.

Run: python benchmarks/corners_diff.py OLD_TREE NEW_TREE --start S --n N [--levels hard] [--arts vintage,sports]

e.g. ``git worktree add /tmp/base main`` and, in the branch's tree,
``python benchmarks/corners_diff.py /tmp/base . --start 3568 --n 200``.
The two trees run side by side (one process each: two cores).
"""
from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trees", nargs="*", type=Path, help="the old and the new source tree")
    parser.add_argument("--start", type=int, default=3568, help="first seed")
    parser.add_argument("--n", type=int, default=20, help="seeds per difficulty")
    parser.add_argument("--levels", default="hard", help="difficulties, comma-separated")
    parser.add_argument("--arts", default="", help="only these art sets, comma-separated (default: all)")
    parser.add_argument("--worker", nargs=2, type=Path, help=argparse.SUPPRESS)  # one tree's run: TREE PHOTOS
    args = parser.parse_args()
    if args.worker:
        tree, photos = args.worker
        for record in found(tree, json.loads(photos.read_text())):
            print(json.dumps(record), flush=True)
        return
    if len(args.trees) != 2:
        parser.error("give two source trees: the old and the new")
    old, new = run_side_by_side(args.trees, scenes(args.start, args.n, args.levels.split(","),
                                                   [a for a in args.arts.split(",") if a]))
    changed, identical, rendered_apart = differences(old, new)
    for line in changed:
        print(line)
    for name in rendered_apart:
        print(f"{name}: rendered differently by the two trees, not compared")
    print(f"{len(old)} photos: {identical} identical, {len(changed)} changed, {len(rendered_apart)} rendered apart")


def scenes(start: int, n: int, levels: list[str], arts: list[str]) -> list[tuple[str, int, str, str]]:
    """The photos to compare, (difficulty, seed, art set, layout) each, as `photos_bench` renders
    seeds ``start`` to ``start + n - 1``: of ``arts`` only, when given."""
    bench = _bench(Path(__file__).resolve().parents[1])
    every = list(bench.ART_SETS)
    seeds = [(seed, *bench.scene(seed, every)) for seed in range(start, start + n)]
    return [(level, *photo) for level in levels for photo in seeds if not arts or photo[1] in arts]


def run_side_by_side(trees: list[Path], photos: list[tuple[str, int, str, str]]) -> list[list[dict]]:
    """Each tree's `found` records of ``photos`` (`scenes`), from one process per tree run at once.

    Each writes to a file, not a pipe: a pipe read only after the other
    tree's run ends fills and stalls its writer, one tree waiting on the other.
    """
    with tempfile.TemporaryDirectory() as work:
        asked = Path(work) / "photos.json"
        asked.write_text(json.dumps(photos))
        outputs = [Path(work) / f"{i}.jsonl" for i in range(len(trees))]
        workers = []
        for tree, output in zip(trees, outputs):
            with output.open("w") as out:  # the worker holds its own copy of the file
                workers.append(subprocess.Popen([sys.executable, __file__, "--worker", str(tree.resolve()), str(asked)],
                                                stdout=out))
        if any([worker.wait() for worker in workers]):
            sys.exit("corners_diff: a tree's run failed (its error is above)")
        return [[json.loads(line) for line in output.read_text().splitlines()] for output in outputs]


def found(tree: Path, photos: list):
    """One record for each of ``photos`` (`scenes`): its name, a digest of the JPEG, and per tile found the
    corner error of the true tile it matches (None where the tiles match no puzzle); run with ``tree``'s
    code."""
    sys.path.insert(0, str(tree))
    bench = _bench(tree)
    import vision
    if not Path(vision.__file__).resolve().is_relative_to(tree):
        sys.exit(f"corners_diff: vision was imported from {vision.__file__}, not from {tree}")
    from vision.detect import find_tiles
    from vision.images import read_image
    with tempfile.TemporaryDirectory() as work:
        path = Path(work) / "photo.jpg"
        for level, seed, art, layout in photos:
            image, truth = bench.render_photo(seed=seed, art=art, layout=layout, difficulty=level, size=bench.SIZE)
            bench.save_photo(path, image, truth)
            tiles = find_tiles(read_image(path))
            matches = bench.match_tiles(truth, tiles)
            errors = None if None in matches else \
                {m.tile: round(bench.corner_error(truth, [tile], [m]), 4) for tile, m in zip(tiles, matches)}
            yield {"photo": f"{level} {art} {layout} {seed}", "digest": hashlib.sha1(path.read_bytes()).hexdigest(),
                   "tiles": len(tiles), "errors": errors}


def _bench(tree: Path):
    """``tree``'s benchmarks/photos_bench.py, imported from that tree."""
    spec = importlib.util.spec_from_file_location("photos_bench", tree / "benchmarks" / "photos_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def differences(old: list[dict], new: list[dict]) -> tuple[list[str], int, list[str]]:
    """The photos whose tiles differ (a line each: worst corner and count, old -> new), how many are
    identical, and the photos the two trees rendered differently.

    >>> old = [{"photo": "hard vintage loose 1", "digest": "a", "tiles": 9, "errors": {"0": 0.03, "1": 0.068}}]
    >>> new = [{"photo": "hard vintage loose 1", "digest": "a", "tiles": 9, "errors": {"0": 0.03, "1": 0.0297}}]
    >>> differences(old, new)
    (['hard vintage loose 1: worst corner 6.8% -> 3.0%, 9 -> 9 tiles; tile 1: 6.8% -> 3.0%'], 0, [])
    """
    changed, identical, apart = [], 0, []
    for before, after in zip(old, new):
        if before["digest"] != after["digest"]:
            apart.append(before["photo"])
        elif before["tiles"] == after["tiles"] and before["errors"] == after["errors"]:
            identical += 1
        else:
            tiles = sorted(set(before["errors"] or {}) & set(after["errors"] or {}), key=int)
            moved = "; ".join(f"tile {t}: {_percent(before['errors'][t])} -> {_percent(after['errors'][t])}"
                              for t in tiles if before["errors"][t] != after["errors"][t])
            changed.append(f"{before['photo']}: worst corner {_worst(before)} -> {_worst(after)}, "
                           f"{before['tiles']} -> {after['tiles']} tiles" + (f"; {moved}" if moved else ""))
    return changed, identical, apart


def _worst(record: dict) -> str:
    """The worst tile's corner error of a record, or that its tiles make no puzzle's."""
    return _percent(max(record["errors"].values())) if record["errors"] else "no match"


def _percent(error: float) -> str:
    return f"{100 * error:.1f}%"


if __name__ == "__main__":
    main()
