"""The drawings: right size, marks where the tiles are, nothing elsewhere."""
import cv2
import numpy as np

from vision.draw import BADGE, OUTLINE, _resized, number_tiles


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


from solver.repair import Reinterpreted, Seam  # noqa: E402
from vision.draw import MISMATCH, PAPER, REREAD, annotate, backdrop  # noqa: E402

FILLS = [(200, 60, 60), (60, 200, 60), (60, 60, 200), (200, 200, 60)]


def photo_of_tiles(width=800, height=500):
    """Four solid tiles, each with a white band along its north side."""
    photo = np.full((height, width, 3), 90, np.uint8)
    quads = []
    for i, fill in enumerate(FILLS):
        x, y = 40 + i * 190, 150
        photo[y:y + 160, x:x + 160] = fill
        photo[y:y + 20, x:x + 160] = 255
        quads.append(square(x, y, 160))
    return photo, quads


def band_side(panel, fill):
    """Which side (0..3 = N, E, S, W) of the tile of colour ``fill`` the white band is on."""
    ys, xs = np.nonzero((np.abs(panel.astype(int) - fill).sum(axis=2) < 30))
    top, bottom, left, right = ys.min(), ys.max(), xs.min(), xs.max()
    white = panel.min(axis=2) > 250
    # the band lies just outside the tile's coloured part, on one side
    strips = [white[top - 8:top - 2, left:right].mean(), white[top:bottom, right + 3:right + 9].mean(),
              white[bottom + 3:bottom + 9, left:right].mean(), white[top:bottom, left - 8:left - 2].mean()]
    return int(np.argmax(strips))


def test_annotate_assembles_the_grid_from_the_photo_turned_as_solved():
    photo, quads = photo_of_tiles()
    grid = [[(2, 1), (0, 0)], [(3, 2), (1, 3)]]
    out = annotate(photo, quads, grid, size=800)
    assert out.shape[1] == 800  # a landscape photo gets the grid below it
    panel = out[np.argmax((out == PAPER).all(axis=(1, 2))):]  # the grid starts on blank paper
    for row in grid:
        for tile, quarters in row:
            assert band_side(panel, FILLS[tile]) == quarters  # the north band turned clockwise
    assert not (np.abs(out.astype(int) - MISMATCH).sum(axis=2) < 10).any()
    assert not (np.abs(out.astype(int) - REREAD).sum(axis=2) < 10).any()


def test_annotate_marks_mismatched_seams_and_reread_edges():
    photo, quads = photo_of_tiles()
    grid = [[(2, 1), (0, 0)], [(3, 2), (1, 3)]]
    out = annotate(photo, quads, grid, [Reinterpreted(1, 0, 5, 4)], [Seam(0, 0, 1)], size=800)
    red = np.abs(out.astype(int) - MISMATCH).sum(axis=2) < 10
    magenta = np.abs(out.astype(int) - REREAD).sum(axis=2) < 10
    # both on the photo (the top part) and on the assembled grid
    assert red[: out.shape[0] // 3].any() and red[out.shape[0] // 3:].any()
    assert magenta[: out.shape[0] // 3].any() and magenta[out.shape[0] // 3:].any()


def test_a_backdrop_made_ahead_draws_the_same_answer_and_is_left_as_it_was():
    photo, quads = photo_of_tiles()
    grid = [[(2, 1), (0, 0)], [(3, 2), (1, 3)]]
    ground = backdrop(photo, quads, 2, 2, size=800)
    before = ground.photo.copy()
    drawn = annotate(photo, quads, grid, [Reinterpreted(1, 0, 5, 4)], [Seam(0, 0, 1)], size=800, ground=ground)
    assert np.array_equal(drawn, annotate(photo, quads, grid, [Reinterpreted(1, 0, 5, 4)], [Seam(0, 0, 1)], size=800))
    assert np.array_equal(ground.photo, before)  # so one backdrop serves any answer


def test_annotate_puts_a_portrait_photo_beside_the_grid():
    photo, quads = photo_of_tiles()
    tall = np.ascontiguousarray(np.rot90(photo, -1))
    turned = [np.float32([[500 - 1 - y, x] for x, y in q[[3, 0, 1, 2]]]) for q in quads]
    out = annotate(tall, turned, [[(0, 0)], [(1, 0)], [(2, 0)], [(3, 0)]], size=600)
    assert out.shape[0] == 600
    assert (out[:, -3:] == PAPER).all() and not (out[:, :3] == PAPER).all()


def test_a_big_photo_shrinks_as_pixel_averaging_would():
    """The answer's photo is shrunk the fast way (linear to a whole multiple, then averaged) but looks averaged."""
    rng = np.random.default_rng(1)
    photo = cv2.GaussianBlur(rng.integers(0, 256, (1500, 2003, 3), dtype=np.uint8), (0, 0), 1.5)
    for scale in (0.47, 0.3, 0.2):  # plain linear: 46, 39, 33 dB; a pixel off: 27 dB
        shrunk = _resized(photo, scale)
        assert shrunk.shape == (round(1500 * scale), round(2003 * scale), 3)
        averaged = cv2.resize(photo, shrunk.shape[1::-1], interpolation=cv2.INTER_AREA)
        assert cv2.PSNR(shrunk, averaged) > 50


def test_a_big_puzzles_marks_stay_on_their_own_tiles():
    """36 small tiles in loose rows: each tile's marks may outgrow it a little, never reach a neighbour."""
    photo = np.full((700, 1000, 3), 90, np.uint8)
    quads = [square(40 + 160 * c, 20 + 115 * r, 60) for r in range(6) for c in range(6)]
    for quad in quads:
        x, y = quad[0].astype(int)
        photo[y:y + 60, x:x + 60] = (60, 160, 60)
    grid = [[(6 * r + c, (r + c) % 4) for c in range(6)] for r in range(6)]
    ground = backdrop(photo, quads, 6, 6, size=1000)
    drawn = annotate(photo, quads, grid, size=1000, ground=ground)[:ground.photo.shape[0]]
    changed = (drawn != ground.photo).any(axis=2)
    near = np.zeros(changed.shape, np.uint8)  # each tile and a margin of a third of its side
    for quad in ground.quads:
        centre = quad.mean(axis=0)
        cv2.fillPoly(near, [np.round(centre + (quad - centre) * 1.66).astype(np.int32)], 1)
    assert changed.any() and not changed[near == 0].any()
