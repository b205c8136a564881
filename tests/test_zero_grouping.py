"""Zero-label grouping: groups that show one half are never a figure's two halves, and a photo's count of halves."""
import numpy as np
import pytest

from solver import Puzzle, is_solution, solve
from vision.describe import to_lab
from vision.pipeline import photo_edges
from vision.render import LAYOUTS, render_photo
from vision.zerolabel import likely_halves, neighbour_groups, one_half, read_unlabelled, seam_crops, seam_profiles


def _seam(left: tuple, right: tuple) -> np.ndarray:
    """An edge crop, seam at the top, whose seam shows ``left`` then ``right`` (BGR)."""
    crop = np.full((144, 288, 3), 128, np.uint8)
    crop[:8, :144], crop[:8, 144:] = left, right
    return crop


# The serengeti shot's giraffe neck was split in two groups by what stood beside it, and the two were paired as
# a figure, far enough apart in looks to pass for two halves. A half's seam runs the same way on every print; its
# partner's runs the other way (the two meet across the seam), so the split parts' seams give them away.
def test_groups_whose_seams_run_alike_are_one_half():
    red, blue = (0, 0, 220), (220, 0, 0)
    crops = [_seam(red, blue)] * 8 + [_seam(blue, red)] * 4 + [_seam((0, 200, 0), (0, 200, 0))] * 4
    labels = np.repeat([0, 1, 2, 3], 4)  # groups 0 and 1: one half split; group 2: its partner
    d = np.where(labels[:, None] == labels[None, :], 0.1, 1.0)  # every group as far from the others in looks
    np.fill_diagonal(d, 0)
    alike = one_half(d, labels, seam_profiles(crops))
    assert {(int(a), int(b)) for a, b in zip(*np.nonzero(alike))} == {(0, 1), (1, 0)}
    assert not one_half(d, labels).any()  # in looks alone, nothing gives the split away


def test_seam_profiles_read_the_seam_left_to_right():
    profile = seam_profiles([_seam((0, 0, 220), (220, 0, 0))])[0]
    red, blue = (to_lab(np.uint8([[[0, 0, 220], [220, 0, 0]]]))[0])
    assert np.allclose(profile[0], red, atol=1) and np.allclose(profile[-1], blue, atol=1)


# Three figures read as six halves merge the eight groups' split parts of one half; but joining a figure's top and
# bottom (critters 704 and 708: the six-half reading fitted, made up) is no half: their seams meet across one waist.
def test_six_halves_never_join_a_top_and_its_bottom():
    rng = np.random.default_rng(1)
    centres = rng.normal(0, 10, (6, 5))  # six clear groups of six prints
    points = np.repeat(centres, 6, axis=0) + rng.normal(0, 0.5, (36, 5))
    d = np.linalg.norm(points[:, None] - points[None], axis=-1)
    assert likely_halves(d) == (6, 8)
    eight, six = neighbour_groups(d, 8), neighbour_groups(d, 6)
    split = [g for g in range(6) if len(set(eight[six == g])) > 1]
    part = eight == eight[six == split[0]][0]  # one of the parts of a six group split in eight
    ramp = np.linspace(0, 80, 24)[:, None] * np.ones(3)  # a seam running dark to light
    alike = np.repeat(ramp[None], 36, axis=0)
    assert likely_halves(d, alike) == (6, 8)  # every seam runs alike: parts of one half
    met = alike.copy()
    met[part] = ramp[::-1]  # the part meets the rest of its group across a seam: a figure's other half
    assert likely_halves(d, met) == (8,)


# Eight halves, two of them printed once (a figure on one seam only): the groups leaned to six, and six halves
# (the lone prints folded into other halves) fitted with a made-up answer before the eight that fitted with about
# as much doubt. Three figures read as eight leave far more doubt than as six; here eight should stand.
@pytest.mark.parametrize("art, seed", [("lookalikes", 1210), ("meadow", 1210)])
def test_halves_printed_once_are_not_folded_into_six(art, seed):
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    puzzle = Puzzle(tiles=tuple(tuple(t["edges"]) for t in truth["tiles"]), rows=3, cols=3)
    assert sorted(np.unique(np.ravel(puzzle.tiles), return_counts=True)[1])[:2] == [1, 1]
    corners = [t["corners"] for t in truth["tiles"]]
    reading = read_unlabelled(photo_edges(image, corners=corners).crops, 3, 3, seams=seam_crops(image, corners))
    found = solve(Puzzle(tiles=tuple(reading.tiles), rows=3, cols=3)).solutions
    assert len({c for tile in reading.tiles for c in tile}) == 8
    assert found and is_solution(puzzle, found[0])  # the independent verifier, true codes
