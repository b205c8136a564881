"""The photo-for-photo check detection changes are kept by (benchmarks/corners_diff.py)."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_SPEC = importlib.util.spec_from_file_location("corners_diff", ROOT / "benchmarks" / "corners_diff.py")
corners_diff = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(corners_diff)


def record(photo, errors, tiles=9, digest="a"):
    return {"photo": photo, "digest": digest, "tiles": tiles, "errors": errors}


def test_only_photos_whose_tiles_differ_are_named_and_a_renderer_change_is_told_apart():
    old = [record("hard vintage loose 1", {"0": 0.02, "1": 0.05}), record("hard sports loose 2", {"0": 0.01}),
           record("hard frogs touching 3", None, tiles=4), record("easy meadow scan 4", {"0": 0.01})]
    new = [record("hard vintage loose 1", {"0": 0.02, "1": 0.05}), record("hard sports loose 2", {"0": 0.012}),
           record("hard frogs touching 3", {"0": 0.03}), record("easy meadow scan 4", {"0": 0.01}, digest="b")]
    changed, identical, apart = corners_diff.differences(old, new)
    assert identical == 1 and apart == ["easy meadow scan 4"]
    assert changed == ["hard sports loose 2: worst corner 1.0% -> 1.2%, 9 -> 9 tiles; tile 0: 1.0% -> 1.2%",
                       "hard frogs touching 3: worst corner no match -> 3.0%, 4 -> 9 tiles"]


def test_a_tree_run_against_itself_finds_every_photo_alike():
    # Each side in its own process, this tree first on its path (the check refuses another's vision).
    old, new = corners_diff.run_side_by_side([ROOT, ROOT], corners_diff.scenes(3568, 1, ["easy"], []))
    assert len(old) == len(new) == 1 and old[0]["tiles"] == 9 and old[0]["errors"] is not None
    assert corners_diff.differences(old, new)[1:] == (1, [])
