"""The drawings: right size, marks where the tiles are, nothing elsewhere."""
import numpy as np

from vision.draw import BADGE, OUTLINE, number_tiles


def square(x, y, side):
    return np.array([[x, y], [x + side, y], [x + side, y + side], [x, y + side]], np.float32)


def test_number_tiles_marks_each_tile_and_keeps_the_size():
    photo = np.full((600, 900, 3), 100, np.uint8)
    tiles = [square(50, 50, 200), square(400, 300, 250)]
    out = number_tiles(photo, tiles)
    assert out.shape == photo.shape
    assert photo.max() == 100  # the input is left as it was
    for quad in tiles:
        x, y = quad[0]
        side = quad[1, 0] - x
        mid_north = out[int(y), int(x + side / 2)]
        assert tuple(mid_north) == OUTLINE
        # the badge holding the number sits on the tile's centre
        cx, cy = quad.mean(axis=0).astype(int)
        badge = out[cy - int(side * 0.17), cx - int(side * 0.2)]
        assert tuple(badge) == BADGE
    assert (out[580, 20] == 100).all() and (out[20, 880] == 100).all()


def test_number_tiles_draws_distinct_numbers():
    photo = np.zeros((300, 600), np.uint8)
    a = number_tiles(photo, [square(20, 20, 250), square(320, 20, 250)])
    left, right = a[40:250, 40:250], a[40:250, 340:550]
    assert a.shape == (300, 600, 3)
    assert not np.array_equal(left, right)  # "1" and "2" differ
