"""Zero-label grouping: groups that show one half are never paired as a figure's two halves."""
import numpy as np

from vision.describe import to_lab
from vision.zerolabel import one_half, seam_profiles


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
