"""Finding tiles: rendered photos with exact truth, the reading rules, exit 3."""
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

import vision.detect
import vision.seek
from vision.blocks import blocks
from vision.cli import main
from vision.detect import _framed_out, _one_view, _sharp_sided, find_tiles, orient, reading_order, refine
from vision.images import read_image
from vision.misfits import problem, shape_misfits
from vision.rectify import rectify
from vision.render import load_truth, match_tiles, render_photo, save_photo
from vision.table import table_mask

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real-dev"
SIZE = (960, 720)


def corner_errors(truth, tiles):
    """Each truth tile's worst corner error over its side (detected order matched)."""
    errors = {}
    for quad, match in zip(tiles, match_tiles(truth, tiles)):
        assert match is not None, "a tile where there is none"
        corners = np.roll(np.float32(truth["tiles"][match.tile]["corners"]), -match.shift, axis=0)
        side = np.linalg.norm(corners[1] - corners[0])
        errors[match.tile] = float(np.linalg.norm(quad - corners, axis=1).max() / side)
    return errors


# One seed per layout and difficulty; benchmarks/detect_bench.py runs many.
@pytest.mark.parametrize("layout, difficulty, seed", [
    ("scattered", "easy", 0), ("scattered", "normal", 0), ("scattered", "hard", 2),
    ("loose", "easy", 3), ("loose", "normal", 0), ("loose", "hard", 3),
    ("touching", "easy", 0), ("touching", "normal", 2), ("touching", "hard", 0),
    ("scan", "easy", 0), ("scan", "normal", 1), ("scan", "hard", 0),
])
def test_every_tile_found_with_its_corners(layout, difficulty, seed):
    image, truth = render_photo(seed=seed, layout=layout, difficulty=difficulty, size=SIZE)
    tiles = find_tiles(image)
    errors = corner_errors(truth, tiles)
    assert len(tiles) == 9 and sorted(errors) == list(range(9))
    # The card's edge shows below a tile in a photo: ~1.5% of its side; on
    # hard, glare blurs a side into its halo by a few pixels more.
    assert max(errors.values()) < (0.07 if difficulty == "hard" else 0.03)
    assert problem(tiles) is None


def test_hairline_seams_split_a_block_of_frogs():
    # Four alike frogs, full-bleed, laid edge to edge a little off the even
    # spacing: each seam is a faint line that steps from tile to tile.
    image, truth = render_photo(seed=1, layout="touching", difficulty="easy", size=SIZE, art="frogs")
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.03


@pytest.mark.parametrize("seed, size", [(43, (1200, 900)), (30, (1600, 1200))])
def test_frogs_faking_a_finer_grid_across_the_seams_stay_3x3(seed, size):
    # Seed 43: the art runs straight lines at a fifth of the block, nearly as
    # clear as the seams at its thirds (5x5, silently). Seed 30: the cards
    # touch where their art is alike, and the seams score under the art's
    # lines at the quarters, though far less sharp (4x4, silently).
    image, truth = render_photo(seed=seed, layout="touching", difficulty="normal", size=size, art="frogs")
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.05


@pytest.mark.parametrize("seed", [0, 19, 23])
def test_frogs_lines_off_the_seams_do_not_cut_a_block(seed):
    # Seed 0: the seams at the thirds stand out from the card 3.7 times, the
    # art's lines at the quarters 2 times (4x4, silently). Seed 19: a block
    # seen at a slant, 1.21 times as wide as high, whose art's lines at the
    # sixths were as clear as its seams (6x6, silently). Seed 23: frogs
    # meeting at the block's halves, clearer than its seams but standing
    # out 2.7 times to their 3.4 (2x2, silently).
    image, truth = render_photo(seed=seed, layout="touching", difficulty="hard", size=(1200, 900), art="frogs")
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.07


@pytest.mark.parametrize("seed", [33, 18])
def test_a_block_a_later_look_cuts_apart_is_refused_not_cut_small(seed):
    # Frogs under glare: the colour look sees the block whole but no seams.
    # Seed 33: the plain look sees it in bits and cut them into 16 cells, a
    # third too small, filling half the block (a 4x4 puzzle, silently). Seed
    # 18: the print look cut it 5x5 where the colour look sees no seam.
    image, truth = render_photo(seed=seed, layout="touching", difficulty="hard", size=(1200, 900), art="frogs")
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.07 or problem(tiles) is not None


@pytest.mark.parametrize("seed, art, size, exif", [(48, "meadow", (1600, 1200), 0), (1, "frogs", (2000, 1500), 90)])
def test_a_block_seen_at_a_slant_keeps_its_outline(seed, art, size, exif):
    # Its sides converge more than a tile's: it was taken for a patch with
    # a side lost to the table and boxed, a tile's width too wide (a wrong
    # nine, or 16 frogs, in silence).
    image, truth = render_photo(seed=seed, layout="touching", difficulty="hard", size=size, art=art, exif=exif)
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.07


@pytest.mark.parametrize("seed, art, layout, most", [
    # Light cards on a white desk: the colour look lost a corner of the
    # block, and its outline, off by a slant, cut nine cells consistent with
    # each other but up to a quarter of a side off (a wrong nine, in
    # silence). A third of an outer side then runs over bare table; the
    # print look finds the block.
    (214, "sports", "touching", 0.03),
    # A block on a lit white desk: the colour look joined the glare to it and
    # outlined three "blocks" over bare desk; a later look cutting them into
    # the true nine along sharp card edges is taken (exit 3, found 3 tiles).
    (632, "critters", "touching", 0.03),
    # Light lookalike cards in a block on a white desk, their dark frames
    # broken by glare and a keyboard's grey: the colour look ran several
    # cards' figures together into a few tiles over bare desk, which then
    # passed for the tile size a look along the frames cut into bits
    # (exit 3, found 3 and 4 tiles).
    (689, "lookalikes", "touching", 0.05),
    # The framed look's exact nine is taken before the lost-tile search's
    # (two tiles 5-6% off) when no look's sides are twice as sharp as its.
    (913, "lookalikes", "touching", 0.03),
])
def test_hard_phone_photos_give_their_tiles(tmp_path, seed, art, layout, most):
    image, truth = render_photo(seed=seed, layout=layout, difficulty="hard", size=(1600, 1200), art=art)
    save_photo(tmp_path / "photo.jpg", image, truth)
    tiles = find_tiles(read_image(tmp_path / "photo.jpg"))
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < most


@pytest.mark.parametrize("seed, difficulty, art, layout, most", [
    # Worn vintage cards on wood, some in shadow: the colour look finds a
    # few, the rest show as specks of figure; their print shows them whole
    # (exit 3, found 3 and 7 tiles). Since the framed look sees a card whose
    # figures lie along its frame, 593's agreed tiles are based on it (eight
    # cards, one 8.7% off at its printed frame, where the print look's seven
    # were 6% at most): a tenth of a side, as 908 (solved, 36/36 edges either way).
    (593, "normal", "vintage", "scattered", 0.1),
    (908, "hard", "vintage", "loose", 0.1),
    # Two blurred cards on a light desk: their figures' few bits spread over
    # both, and a square on one holds only its share (exit 3, found 7).
    (1214, "hard", "lookalikes", "loose", 0.05),
])
def test_lost_cards_are_sought_where_their_print_shows(tmp_path, seed, difficulty, art, layout, most):
    image, truth = render_photo(seed=seed, layout=layout, difficulty=difficulty, size=(1600, 1200), art=art)
    save_photo(tmp_path / "photo.jpg", image, truth)
    tiles = find_tiles(read_image(tmp_path / "photo.jpg"))
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < most


@pytest.mark.parametrize("seed, layout, most", [(5, "scattered", 0.05), (96, "loose", 0.08)])
def test_a_slanted_card_keeps_its_four_corners_not_a_box(tmp_path, seed, layout, most):
    # Vintage cards seen at a slant on wood: a mask rounded at the corners
    # has four corners but bulges past the quadrilateral between them; the
    # smallest rectangle around it, which its outline follows on only 70-80%
    # of the way, boxed a card 10-11% off, beyond refine's reach (hard 5:
    # 9.6%, now under 1%; hard 96: 11.2%, a tile found off, now 5.2%).
    image, truth = render_photo(seed=seed, layout=layout, difficulty="hard", size=(1600, 1200), art="vintage")
    save_photo(tmp_path / "photo.jpg", image, truth)
    tiles = find_tiles(read_image(tmp_path / "photo.jpg"))
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < most


def test_framed_cards_whose_figures_lie_along_the_frame_are_found_on_checks(tmp_path):
    # Cream lookalike cards on green and white checks, frames broken by the
    # dark checks: their half-figures lie along the frame, and each figure's
    # own dark outline hid it as frame, so the cards held no figures (exit 3, found 3).
    image, truth = render_photo(seed=1375, layout="scattered", difficulty="hard", size=(1600, 1200), art="lookalikes")
    save_photo(tmp_path / "photo.jpg", image, truth)
    tiles = find_tiles(read_image(tmp_path / "photo.jpg"))
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.06


def test_a_set_the_print_completes_across_cards_is_refused(tmp_path):
    # Vintage cards on wood in shadow, one tile of the few found a slant off:
    # squares laid on the print's bits in that view lie across cards, a side
    # over card face. Exit 3, not a wrong nine (a made-up zero-label answer);
    # since detect._sound bases its agreed tiles on the sharpest looks, the nine found are right.
    image, truth = render_photo(seed=1244, layout="loose", difficulty="hard", size=(1600, 1200), art="vintage")
    save_photo(tmp_path / "photo.jpg", image, truth)
    tiles = find_tiles(read_image(tmp_path / "photo.jpg"))
    assert problem(tiles) is not None or max(corner_errors(truth, tiles).values()) < 0.1


def test_a_plain_piece_of_cloth_joined_to_a_block_is_left_out_of_it():
    # A block of art, and a check of cloth lit brighter than the border's
    # that the mask took for card, joined to its top side by a figure's tip.
    image = np.full((300, 400, 3), (40, 40, 160), np.uint8)
    image[80:230, 120:270] = np.random.default_rng(0).integers(0, 255, (150, 150, 3))
    image[56:80, 140:200] = (60, 60, 220)
    mask = np.zeros((300, 400), np.uint8)
    mask[80:230, 120:270] = mask[56:72, 140:200] = mask[72:80, 160:172] = 255
    [block] = blocks(mask, image)
    assert np.abs(np.sort(block[:, 1]) - [80, 80, 229, 229]).max() < 3


def test_lit_table_stuck_to_a_card_does_not_lose_the_card():
    # Hard meadow 1833: a lamp lights the mauve table in the gaps beside the
    # middle card lighter than the border saw, and the mask took those bits
    # for card, stuck to its side and corner, wider than the usual opening
    # takes off: no quadrilateral followed the patch and the card was lost
    # (8 tiles, exit 3). Such a patch is looked at again with a wider opening.
    image, truth = render_photo(seed=1833, art="meadow", layout="loose", difficulty="hard", size=(1600, 1200))
    small = cv2.resize(image, (800, 600), interpolation=cv2.INTER_AREA)
    found = blocks(table_mask(small), small)
    centres = [np.float32(tile["corners"]).mean(axis=0) / 2 for tile in truth["tiles"]]
    assert len(found) == 9
    assert all(sum(cv2.pointPolygonTest(block, tuple(map(float, centre)), False) > 0 for block in found) == 1
               for centre in centres)


def test_a_block_side_is_not_sought_a_block_away_on_checks():
    # A block's side is looked for within a share of a tile's side, not of
    # the block's: a light check's edge beside it ran the whole side too.
    image, truth = render_photo(seed=47, layout="touching", difficulty="easy", size=(1600, 1200), art="vintage")
    assert truth["params"]["table"] == "cloth"
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.03


# Tables that look like tiles, each failed before (HEAD of 2026-11-21):
# a checked cloth whose light checks miss the photo's border (learnt from
# the plain squares they make); white tiles on a white desk and faded card
# the colour of wood (told by their sharp print).
@pytest.mark.parametrize("table, art, seed, size, most", [
    ("cloth", "critters", 0, SIZE, 0.03),
    ("white", "lookalikes", 2, SIZE, 0.05),
    ("wood", "vintage", 5, (2000, 1500), 0.08),
])
def test_tiles_found_on_a_table_that_looks_like_them(table, art, seed, size, most):
    image, truth = render_photo(seed=seed, layout="touching", difficulty="normal", size=size, art=art)
    assert truth["params"]["table"] == table
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < most


SAMPLES = Path(__file__).resolve().parents[1] / "samples" / "photos"


@pytest.mark.parametrize("name", ["vintage-scattered-normal", "sports-loose-hard", "witches-scattered-hard-exif"])
def test_sample_photos_give_their_tiles_or_say_what_is_wrong(name):
    # Never a wrong set of nine in silence: every tile within a tenth of its
    # side of the truth, or `problem` says what is wrong (exit 3).
    tiles = find_tiles(read_image(SAMPLES / f"{name}.jpg"))
    truth = load_truth(SAMPLES / f"{name}.json")
    found = [match for match in match_tiles(truth, tiles) if match is not None]
    right = len(tiles) == len(truth["tiles"]) == len({match.tile for match in found}) and all(
        error < 0.1 for error in corner_errors(truth, tiles).values())
    assert right or problem(tiles) is not None


def test_a_missing_tile_is_not_made_up_from_a_keyboard():
    # One tile lies in deep shadow; the keyboard's keys are no stand-in for
    # it: every tile found is a real one, all nine or exit 3 with what was found.
    image, truth = render_photo(seed=0, layout="scattered", difficulty="hard", size=SIZE, art="critters")
    assert truth["params"]["table"] == "white"
    tiles = find_tiles(image)
    assert len(tiles) == 9 or problem(tiles) == "found 8 tiles, expected 9"
    assert len(corner_errors(truth, tiles)) == len(tiles)


def test_a_tile_that_lost_a_strip_to_the_table_takes_the_others_shape():
    # Snow on a white page: the mask stops short of one tile's top side. The
    # other tiles say how tall it is, and the card's edge is there.
    tiles = find_tiles(read_image(REAL / "davidlewine-skiers.jpg")) if REAL.exists() else None
    if tiles is None:
        pytest.skip("real catalogue pictures not present")
    assert problem(tiles) is None and max(shape_misfits(tiles)) < 0.1


def test_a_wrong_set_of_nine_is_not_a_puzzle():
    # Nine tiles turned each their own way on a table seen at a steep angle
    # are a puzzle; with one of them cut short by art the table's colour,
    # they are not (exit 3, not a wrong answer).
    steep = cv2.getPerspectiveTransform(np.float32([[0, 0], [300, 0], [300, 300], [0, 300]]),
                                        np.float32([[80, 0], [220, 0], [300, 200], [0, 200]]))
    tiles = [square((60 + 90 * (i % 3), 60 + 90 * (i // 3)), 60, np.radians(11 * i)) for i in range(9)]
    short = tiles[4].copy()
    short[2:] = short[1:3][::-1] + 0.6 * (short[2:] - short[1:3][::-1])  # 60 wide, 36 tall
    seen = [orient(cv2.perspectiveTransform(tile[None], steep)[0]) for tile in tiles]
    assert problem(seen) is None
    seen[4] = orient(cv2.perspectiveTransform(short[None], steep)[0])
    assert problem(seen).startswith("tile 5 is not the shape of the others")


def test_of_three_sound_tiles_one_with_a_side_on_no_cards_edge_is_left_out():
    # Three sound tiles fit any view, so cannot check each other's shape: a
    # tile stretched over the table (a side on a shadow's or a plank's line,
    # hard vintage 2336: 26% off) bends the view every lost card is sought
    # by. Its side runs along a step far fainter than theirs: the search is
    # run again from the other two. Three along card edges stay three.
    image = np.full((120, 300, 3), 60, np.uint8)
    cards = [np.float32([[x, 30], [x + 60, 30], [x + 60, 90], [x, 90]]) - 0.5 for x in (20, 120, 220)]
    for card in cards:
        image[30:90, int(card[0, 0] + 0.5):int(card[1, 0] + 0.5)] = (60, 190, 230)
    assert _sharp_sided(image, cards) is None
    stretched = cards[1] + np.float32([[0, 0], [14, 0], [14, 0], [0, 0]])  # its E side on the bare table
    two = _sharp_sided(image, [cards[0], stretched, cards[2]])
    assert two is not None and len(two) == 2 and all(np.array_equal(a, b) for a, b in zip(two, cards[::2]))


def test_a_big_tile_in_the_foreground_fits_the_view_of_the_others():
    # Hard 1708: tiles 128-226 pixels wide across a steep view, and one of
    # 284 in the near corner. A size fitted linear across the photo calls it
    # 16% off at its true corners (exit 3 though every tile was found); the
    # view of the table the other eight give puts it within 1%. Stretched a
    # fifth across, it is still no tile.
    image, truth = render_photo(seed=1708, art="witches", layout="scattered", difficulty="hard", size=(1600, 1200))
    tiles = reading_order([orient(np.float32(tile["corners"])) for tile in truth["tiles"]])
    assert problem(tiles) is None
    big = int(np.argmax([cv2.contourArea(tile) for tile in tiles]))
    stretched = tiles[big].copy()
    stretched[1:3] += 0.2 * (stretched[1:3] - stretched[[0, 3]])
    assert problem(tiles[:big] + [stretched] + tiles[big + 1:]).startswith(f"tile {big + 1} is not the shape")


def test_a_set_sought_under_a_steep_view_is_judged_by_the_view_of_the_table():
    # Hard frogs 1737: eight tiles found, the ninth (glared) sought right, but
    # the nine were refused: the size fitted linear across the photo calls
    # the big card in the foreground 11.8% off even at their true corners
    # (exit 3 though every tile was found); the view of the table the others
    # give it puts it within 1%. One stretched a fifth across still fails both.
    image, truth = render_photo(seed=1737, art="frogs", layout="scattered", difficulty="hard", size=(1600, 1200))
    tiles = reading_order([orient(np.float32(tile["corners"])) for tile in truth["tiles"]])
    assert shape_misfits(tiles, fitted=4).max() > 0.105
    assert _one_view(image, tiles, 8)
    stretched = tiles[-1].copy()
    stretched[1:3] += 0.2 * (stretched[1:3] - stretched[[0, 3]])
    assert not _one_view(image, tiles[:-1] + [stretched], 8)


def test_keyboard_on_a_white_desk_is_no_tile():
    image, truth = render_photo(seed=3, layout="loose", difficulty="hard", size=SIZE, table="white")
    assert truth["params"]["table"] == "white"
    tiles = find_tiles(image)
    assert len(tiles) == 9 and sorted(corner_errors(truth, tiles)) == list(range(9))


def test_keyboard_cut_by_the_photo_edge_is_no_tile():
    # White tiles on a white desk: only the plain second look sees them, and
    # it sees the keyboard the photo's edge cuts off too.
    image, truth = render_photo(seed=2, layout="loose", difficulty="easy", size=SIZE,
                                art="lookalikes", table="white")
    tiles = find_tiles(image)
    assert len(tiles) == 9 and sorted(corner_errors(truth, tiles)) == list(range(9))


def test_exif_turned_jpeg_gives_corners_as_the_user_sees_it(tmp_path):
    image, truth = render_photo(seed=3, layout="loose", difficulty="easy", size=SIZE, exif=90)
    save_photo(tmp_path / "phone.jpg", image, truth)
    seen = read_image(tmp_path / "phone.jpg")
    assert seen.shape[:2] == image.shape[:2]
    tiles = find_tiles(seen)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.03


def test_north_faces_up_and_corners_run_clockwise():
    image, _ = render_photo(seed=0, layout="scattered", difficulty="normal", size=SIZE)
    for tile in find_tiles(image):
        along = np.roll(tile, -1, axis=0) - tile
        upward = -along[:, 0] / np.linalg.norm(along, axis=1)  # outward normal's -y, clockwise
        assert np.argmin(upward) == 0  # side NW->NE faces most upward
        x, y = tile[:, 0], tile[:, 1]
        assert np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y) > 0  # clockwise as seen


def square(centre, side, angle=0.0):
    c, s = np.cos(angle), np.sin(angle)
    half = np.float32([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2
    return half @ np.float32([[c, s], [-s, c]]) + np.float32(centre)


def test_reading_order_follows_tilted_rows():
    # A loose 3x3 grid turned 12 degrees: the right end of row 1 sits lower
    # than the left end of row 2 would if rows were cut level.
    turn = np.radians(12)
    rotation = np.float32([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    cells = [(r, c) for r in range(3) for c in range(3)]
    centres = [rotation @ np.float32([c * 120, r * 120]) + 200 for r, c in cells]
    tiles = [orient(square(centre, 100, turn)) for centre in centres]
    shuffled = [tiles[i] for i in np.random.default_rng(0).permutation(9)]
    ordered = reading_order(shuffled)
    assert [np.allclose(a, b) for a, b in zip(ordered, tiles)] == [True] * 9


def test_orient_starts_at_the_upward_side():
    diamond = np.float32([[50, 0], [100, 50], [50, 100], [0, 50]])
    tile = orient(np.float32(square((50, 50), 60, np.radians(-30))))
    assert tile[0][1] < tile[3][1] and tile[1][1] < tile[2][1]  # N side above S side
    assert orient(diamond).shape == (4, 2)


@pytest.mark.parametrize("tiles, expected", [
    ([square((60 * i, 0), 50) for i in range(8)], "found 8 tiles, expected 9"),
    ([square((60 * i, 0), 50) for i in range(10)], "found 10 tiles, expected 9"),
    ([square((60 * i, 0), 50) for i in range(16)], None),
    ([], "found no tiles, expected 9"),
    ([square((60 * i, 0), 50) for i in range(8)] + [square((20, 0), 50)],
     "tiles 1 and 9 overlap"),
    ([square((60 * i, 0), 50) for i in range(8)] + [square((600, 0), 150)],
     "tile 9 is 9.0 times the size of the others"),
    ([square((60 * i, 0), 50) for i in range(8)] + [np.float32([[600, 0], [750, 0], [750, 50], [600, 50]])],
     "tile 9 is 3.0 times the size of the others"),
    ([square((60 * i, 0), 50) for i in range(8)] + [np.float32([[600, 0], [680, 0], [680, 30], [600, 30]])],
     "tile 9 is not square (sides 1:2.7)"),
])
def test_problem_names_what_is_wrong(tiles, expected):
    found = problem(tiles)
    assert found == expected or (expected and found.endswith(expected))


def test_problem_with_a_known_count():
    tiles = [square((60 * i, 0), 50) for i in range(9)]
    assert problem(tiles, count=16) == "found 9 tiles, expected 16"
    assert problem(tiles, count=9) is None


def test_problem_judges_the_same_corners_once_and_moved_ones_afresh(monkeypatch):
    """`find_tiles` judges the tiles it returns and `solve` asks again: the view is fitted once.
    Corners moved since, even in place, are judged as they are now."""
    import vision.misfits as misfits

    fitted = []
    real = misfits.view_misfits
    monkeypatch.setattr(misfits, "view_misfits", lambda tiles: fitted.append(1) or real(tiles))
    tiles = [square((60 * i, 200 * i), 50) for i in range(9)]
    assert problem(tiles) is None and problem(tiles, count=9) is None and len(fitted) == 1
    tiles[8][1:3, 0] += 20  # the same array, stretched: no longer the others' shape
    assert problem(tiles).startswith("tile 9 is not the shape") and len(fitted) == 2
    assert problem([np.float64(tile) for tile in tiles]).startswith("tile 9 is not the shape") and len(fitted) == 3


def test_the_first_looks_sides_are_read_once_for_all_its_checks(monkeypatch):
    """`_edgeless` and `_faint` judge the first look's tiles from one reading of each side's step."""
    import vision.detect as detect

    read = []
    real = detect.side_steps
    monkeypatch.setattr(detect, "side_steps", lambda image, tile: read.append(1) or real(image, tile))
    image, truth = render_photo(seed=0, layout="scattered", difficulty="easy", size=SIZE)
    tiles = find_tiles(image)
    assert len(tiles) == 9 and len(read) == 9


def test_seams_are_scored_with_numpys_medians():
    """`vision.blocks._middle`, which scores seams, gives `np.median`'s values exactly."""
    from vision.blocks import _middle

    values = np.random.default_rng(4).random((3, 41, 8)).astype(np.float32)
    for cut in (values, values[:, :40], values[:, :, :7]):
        for axis in (0, 1, 2):
            assert np.array_equal(_middle(cut, axis=axis), np.median(cut, axis=axis))
    assert _middle(values[0, :, 0]) == np.median(values[0, :, 0])


def test_a_patch_is_opened_by_the_disk_as_opencv_opens_it():
    """`vision.blocks.disk_opening`, which takes a block's spurs off (`_hulls`), gives OpenCV's
    opening by the ellipse pixel for pixel, for small and block-sized disks, patches at the edge too."""
    from vision.blocks import disk_opening

    rng = np.random.default_rng(11)
    for radius in (2, 3, 6, 11, 19, 33, 47):
        patch = (rng.random((90 + radius, 140)) < 0.8).astype(np.uint8) * 255
        patch = cv2.dilate(patch, np.ones((3, 3), np.uint8))  # lumps and holes of many sizes
        disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2)
        assert np.array_equal(disk_opening(patch, radius), cv2.morphologyEx(patch, cv2.MORPH_OPEN, disk))


def test_the_tables_colours_are_read_off_the_bands_pixels_with_numpys_distances():
    """`vision.table._table_colours` takes the band as its pixels' rows and columns (no whole
    mask scanned again for them) and tells each pixel's nearest colour a channel plane at a time:
    `np.linalg.norm`'s distances over the mask's pixels, exactly."""
    from vision.images import across_channels
    from vision.table import _table_colours

    lab = (np.random.default_rng(7).random((60, 80, 3)) * [20, 60, 60] - [0, 30, 30]).astype(np.float32)
    band = np.ones((60, 80), bool)
    band[5:-5, 5:-5] = False
    centres, light = _table_colours(lab, np.nonzero(band), 0.05)
    assert light.shape == lab.shape and 1 <= len(centres) <= 4
    off = (lab[band] - light[band])[:, None] - centres  # (pixels, colours, Lab)
    assert np.array_equal(np.sqrt(across_channels(np.add, np.square(off))), np.linalg.norm(off, axis=2))


def test_corners_on_the_card_face_not_its_cut_side():
    # Seen from in front, the card's cut side shows as a thin grey band
    # below its face (1.5% of its side): the corners are the face's.
    photo = np.full((320, 320, 3), 60, np.uint8)
    face = np.float32([[60, 50], [260, 62], [250, 262], [50, 250]])
    cut = cv2.convexHull(np.int32(np.vstack([face, face + [0, 3]])))
    cv2.fillConvexPoly(photo, cut, (130, 130, 130))
    cv2.fillConvexPoly(photo, np.int32(face), (230, 230, 230))
    cv2.circle(photo, (155, 155), 50, (40, 90, 200), cv2.FILLED)
    rough = face + np.float32([[4, -3], [-3, 4], [3, 5], [-4, 2]])
    assert np.abs(refine(photo, rough) - face).max() < 1.0


def test_corners_on_the_cut_edge_of_a_border_the_colour_of_the_table():
    # Worn card: a printed border a shade off the wood shows a faint step at
    # the card's edge and a strong one at its inner side, where the mask stops.
    rng = np.random.default_rng(0)
    photo = (np.full((360, 360, 3), (60, 90, 120), np.float32) + rng.normal(0, 2, (360, 360, 3))).astype(np.uint8)
    card = np.float32([[70, 60], [290, 74], [278, 296], [56, 282]])
    inner = card + 0.045 * (card.mean(axis=0) - card) / 0.5  # the border: 4.5% of the side
    cv2.fillConvexPoly(photo, np.int32(np.round(card * 4)), (35, 60, 95), cv2.LINE_AA, shift=2)
    cv2.fillConvexPoly(photo, np.int32(np.round(inner * 4)), (150, 185, 205), cv2.LINE_AA, shift=2)
    cv2.circle(photo, (170, 175), 60, (40, 90, 200), cv2.FILLED)
    assert np.abs(refine(photo, inner) - card).max() < 1.5


def test_a_side_the_mask_turned_is_found_along_the_others():
    # Art the table's colour bit the mask's corner off: the rough side runs
    # across the card, turned too far for the search along it.
    photo = np.full((360, 360, 3), (60, 90, 120), np.uint8)
    card = np.float32([[70, 60], [290, 74], [278, 296], [56, 282]])
    cv2.fillConvexPoly(photo, np.int32(np.round(card * 4)), (215, 225, 230), cv2.LINE_AA, shift=2)
    cv2.circle(photo, (170, 175), 60, (40, 90, 200), cv2.FILLED)
    rough = card + np.float32([[0, 0], [0, 0], [0, 0], [40, 8]])
    assert np.abs(refine(photo, rough) - card).max() < 1.5


# Saved as JPEG, as photos come. Light tiles on light checks: the mask lost
# corners of three tiles to the checks, leaving sides turned off the card's
# (they passed as nine tiles, silently). Grain on wood makes the mask lumpy
# along a diamond-turned tile's sides: no rectangle follows it, its four
# corners do (it was dropped: 8 tiles).
@pytest.mark.parametrize("seed, difficulty, art, most", [(4, "normal", "sports", 0.05), (6, "hard", "meadow", 0.08)])
def test_scattered_tiles_found_square(tmp_path, seed, difficulty, art, most):
    image, truth = render_photo(seed=seed, layout="scattered", difficulty=difficulty, size=(1600, 1200), art=art)
    save_photo(tmp_path / "photo.jpg", image, truth)
    tiles = find_tiles(read_image(tmp_path / "photo.jpg"))
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < most


def test_a_side_is_not_squared_onto_the_next_tile_across_a_gap():
    # Rough sides of a loose grid under hard perspective run into the gaps:
    # sought again square, they must not take the next tile's parallel edge.
    image, truth = render_photo(seed=3, layout="loose", difficulty="hard", size=(2000, 1500), art="meadow")
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.05


def test_a_loose_grid_run_into_one_block_is_not_cut_across_its_gaps():
    # Lookalikes in a loose grid on a white desk: the print look runs them
    # into one block, whose even cells take in the gaps (12-24% off, a
    # wrong answer). Every tile right, or exit 3.
    image, truth = render_photo(seed=38, layout="loose", difficulty="hard", size=(1600, 1200), art="lookalikes")
    tiles = find_tiles(image)
    assert problem(tiles) is not None or max(corner_errors(truth, tiles).values()) < 0.1


def test_vintage_card_on_cloth_its_colour_found_whole():
    image, truth = render_photo(seed=61, layout="scattered", difficulty="normal", size=(1600, 1200), art="vintage")
    tiles = find_tiles(image)
    assert len(tiles) == 9 and max(corner_errors(truth, tiles).values()) < 0.06


def test_rectify_puts_north_at_the_top():
    art = np.zeros((200, 200, 3), np.uint8)
    art[:50] = (0, 0, 255)  # red band along N
    quad = square((300, 300), 200, np.radians(30))
    warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [200, 0], [200, 200], [0, 200]]), quad)
    photo = cv2.warpPerspective(art, warp, (600, 600))
    tile = rectify(photo, quad, size=64)
    assert tile.shape == (64, 64, 3)
    assert tile[4:12, 8:56, 2].min() > 200 and tile[24:60, 8:56, 2].max() < 60


def run(capsys, *args):
    with pytest.raises(SystemExit) as done:
        main(list(args))
    out, err = capsys.readouterr()
    return done.value.code, out, err


def test_detect_command_json_matches_the_library(tmp_path, capsys):
    image, truth = render_photo(seed=0, layout="touching", difficulty="easy", size=SIZE)
    save_photo(tmp_path / "photo.png", image, truth)
    code, out, err = run(capsys, "detect", str(tmp_path / "photo.png"), "--json",
                         "--out", str(tmp_path / "found.png"))
    assert code == 0 and err == ""
    report = json.loads(out)
    tiles = find_tiles(read_image(tmp_path / "photo.png"))
    assert report["input"] == str(tmp_path / "photo.png")
    assert [t["id"] for t in report["tiles"]] == list(range(1, 10))
    assert np.allclose([t["corners"] for t in report["tiles"]], tiles, atol=0.01)
    assert read_image(tmp_path / "found.png").shape == image.shape


def test_detect_command_exit_3_says_what_was_found(tmp_path, capsys):
    table = np.full((600, 800, 3), (60, 110, 150), np.uint8)
    rng = np.random.default_rng(2)
    for i in range(8):  # eight tiles of coloured discs: one short of 3x3
        quad = square((120 + 190 * (i % 4), 170 + 260 * (i // 4)), 140, rng.uniform(-0.3, 0.3))
        art = np.full((140, 140, 3), (200, 60 + 20 * i, 220 - 20 * i), np.uint8)  # not the table's
        for _ in range(12):
            cv2.circle(art, tuple(map(int, rng.integers(0, 140, 2))), int(rng.integers(8, 40)),
                       tuple(map(int, rng.integers(0, 256, 3))), cv2.FILLED)
        warp = cv2.getPerspectiveTransform(np.float32([[0, 0], [140, 0], [140, 140], [0, 140]]), quad)
        mask = cv2.warpPerspective(np.full((140, 140), 255, np.uint8), warp, (800, 600)) > 127
        table[mask] = cv2.warpPerspective(art, warp, (800, 600))[mask]
    cv2.imwrite(str(tmp_path / "eight.png"), table)
    code, out, err = run(capsys, "detect", str(tmp_path / "eight.png"), "--out", str(tmp_path / "seen.png"))
    assert code == 3
    assert err.strip() == f"edgematch: {tmp_path / 'eight.png'}: found 8 tiles, expected 9"
    assert len(out.splitlines()) == 8 and (tmp_path / "seen.png").exists()


def test_detect_command_unreadable_photo_is_exit_2(tmp_path, capsys):
    (tmp_path / "notes.jpg").write_text("not a photo")
    code, out, err = run(capsys, "detect", str(tmp_path / "notes.jpg"))
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "notes.jpg" in err


# Known miss (docs/finding-tiles.md): tiles lying on each other at angles.
MISSES = {"kkredit-puzzle.gif"}
CATALOGUE = [pytest.param(path, marks=pytest.mark.xfail(strict=True) if path.name in MISSES else ())
             for path in sorted(REAL.glob("*.jpg")) + sorted(REAL.glob("*.gif"))]


@pytest.mark.skipif(not CATALOGUE, reason="real catalogue pictures not present")
@pytest.mark.parametrize("path", CATALOGUE, ids=lambda p: p.name)
def test_catalogue_pictures_have_nine_tiles(path):
    tiles = find_tiles(read_image(path))
    assert len(tiles) == 9 and problem(tiles) is None


def test_only_loose_tiles_are_cut_out_to_their_cut_edges(monkeypatch):
    # Touching cards' sides are not moved (the next card's border lies past them): not read either.
    image = np.full((300, 500, 3), (60, 100, 145), np.uint8)
    card = np.float32([[0, 0], [80, 0], [80, 80], [0, 80]])
    tiles = [card + [40, 40], card + [120, 40], card + [300, 60]]  # two touching, one loose
    for tile in tiles:
        cv2.fillConvexPoly(image, np.int32(tile), (170, 210, 235))
    tiles = [tile - 0.5 for tile in tiles]
    cut, cut_edges = [], vision.seek.cut_edges
    monkeypatch.setattr(vision.seek, "cut_edges",
                        lambda image, tile, *how: cut.append(tile) or cut_edges(image, tile, *how))
    assert all(np.array_equal(found, tile) for found, tile in zip(_framed_out(image, 1.0, tiles), tiles))
    assert len(cut) == 1 and np.array_equal(cut[0], tiles[2])


def test_a_look_sized_alike_by_its_largest_lone_tile_is_not_seen_again():
    # Three lone cards alike in size: sized by the largest or the median,
    # every block gets the same grid, so the look's tiles are given back
    # as seen, not refined again (1-5 s of CPU an exit 3 spent on four looks).
    table = np.full((300, 400, 3), (40, 90, 140), np.uint8)
    for x, y in ((40, 40), (160, 50), (280, 40)):
        table[y:y + 90, x:x + 90] = (200, 60, 60)
        table[y + 30:y + 60, x + 30:x + 60] = (60, 200, 200)
    mask = table_mask(table)
    seen = vision.detect._tiles_seen(table, table, 1.0, mask)
    given = seen[:1]  # not what it would see again: the very list given back
    assert len(seen) == 3 and vision.detect._tiles_seen(table, table, 1.0, mask, largest=True, seen=given) is given


def test_table_light_ramps_and_lab_are_bit_for_bit_the_plain_sums():
    # `_ramps` sums in place and `to_lab` scales in one pass, for speed: the
    # mask, and so every corner, must not move by a bit (the plain sums below).
    from vision.describe import to_lab
    from vision.table import _ramps
    rng = np.random.default_rng(0)
    fit = rng.normal(0, 20, (6, 3)).astype(np.float32)
    rows, cols = 75, 101
    x = np.linspace(-0.5, 0.5, cols, endpoint=False, dtype=np.float32)[None, :]
    y = np.linspace(-0.5, 0.5, rows, endpoint=False, dtype=np.float32)[:, None]
    plain = np.dstack([f0 + f1 * x + f2 * y + f3 * x * x + f4 * x * y + f5 * y * y
                       for f0, f1, f2, f3, f4, f5 in fit.T])
    assert np.array_equal(_ramps(fit, rows, cols), plain)
    image = rng.integers(0, 256, (rows, cols, 3), dtype=np.uint8)
    assert np.array_equal(to_lab(image), cv2.cvtColor(image.astype(np.float32) / 255, cv2.COLOR_BGR2LAB))
