"""vision.rectify: a tile found in a photo, cut out square."""
import numpy as np

from vision.edges import edge_crops
from vision.rectify import rectify


def test_every_side_is_read_at_the_same_depth():
    # a 40-pixel card with a one-pixel red rim, its corners on the pixel edges round it
    photo = np.zeros((100, 100, 3), np.uint8)
    photo[20:60, 30:70] = (0, 0, 255)
    photo[21:59, 31:69] = 255
    corners = np.float32([[29.5, 19.5], [69.5, 19.5], [69.5, 59.5], [29.5, 59.5]])
    crops = edge_crops(rectify(photo, corners, size=40))
    # cut at the card's own scale, each side's first row is its rim and the next its face: before, the N and W
    # sides were read at the corner line (half table) and the E and S a row in (their rim lost)
    for crop in crops:
        assert (crop[0, 1:-1] == (0, 0, 255)).all()
        assert (crop[1, 1:-1] == 255).all()
