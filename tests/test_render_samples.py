"""The committed sample photos are what their truth says, and still what render makes."""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from solver import is_solution
from vision.render import load_truth, render_photo
from vision.render.truth import truth_grid, truth_puzzle

SAMPLES = sorted((Path(__file__).parent.parent / "samples" / "photos").glob("*.jpg"))


def test_there_are_samples_of_every_layout():
    layouts = {load_truth(p)["params"]["layout"] for p in SAMPLES}
    assert layouts == {"scattered", "loose", "touching", "scan"}


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_sample_matches_its_truth_and_regenerates(path):
    truth = load_truth(path)
    assert truth["image"] == path.name
    assert is_solution(truth_puzzle(truth), truth_grid(truth))
    seen = cv2.imread(str(path))  # EXIF orientation applied
    assert seen.shape[:2] == (truth["height"], truth["width"])
    again, fresh = render_photo(**truth["params"])
    assert fresh["tiles"] == truth["tiles"] and fresh["solution"] == truth["solution"]
    # only JPEG's loss between them: the sensor noise and colour detail
    small = [cv2.resize(cv2.cvtColor(im, cv2.COLOR_BGR2GRAY), (im.shape[1] // 4, im.shape[0] // 4),
                        interpolation=cv2.INTER_AREA).astype(float) for im in (again, seen)]
    assert np.abs(small[0] - small[1]).mean() < 2
