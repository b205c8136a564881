"""The photo benchmark's own measures (benchmarks/photos_bench.py), which the docs' figures rest on."""
import importlib.util
from pathlib import Path

import numpy as np

_SPEC = importlib.util.spec_from_file_location(
    "photos_bench", Path(__file__).resolve().parents[1] / "benchmarks" / "photos_bench.py")
photos_bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(photos_bench)


def test_a_side_found_at_a_printed_rule_is_measured_inside_its_card():
    # a turned card (found with its S side first) whose N side, as found, lies at a rule 5% in
    real = np.float32([[210, 110], [310, 110], [310, 210], [210, 210]])
    truth = {"tiles": [{"corners": real.tolist()}]}
    match = type("Match", (), {"tile": 0, "shift": 2})()
    as_found = photos_bench.true_corners(truth, match)
    found = as_found + np.float32([[0, -5], [0, -5], [0, 0], [0, 0]])  # N found 5 px nearer the centre
    assert photos_bench.sides_inside(found, as_found) == [0.05, 0.0, 0.0, 0.0]
    assert photos_bench.sides_inside(as_found, as_found) == [0.0, 0.0, 0.0, 0.0]
