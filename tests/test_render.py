"""Synthetic photos: the truth must describe the image exactly."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from solver import Puzzle, is_solution, solve, turn
from vision.render import (ART_SETS, LAYOUTS, detected_solution, draw_tile, load_truth, match_tiles,
                           plant, render_photo, save_photo)
from vision.render.truth import truth_grid, truth_puzzle

SMALL = (800, 600)


def rectified(image: np.ndarray, corners, side: int = 96) -> np.ndarray:
    square = np.float32([[0, 0], [side - 1, 0], [side - 1, side - 1], [0, side - 1]])
    m = cv2.getPerspectiveTransform(np.float32(corners), square)
    return cv2.warpPerspective(image, m, (side, side))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_planted_solution_verifies_and_corners_lie_in_the_image(layout):
    image, truth = render_photo(seed=11, layout=layout, size=SMALL, art="critters")
    assert is_solution(truth_puzzle(truth), truth_grid(truth))
    corners = np.array([t["corners"] for t in truth["tiles"]])
    assert corners.shape == (9, 4, 2)
    assert (corners >= 0).all() and (corners[..., 0] < SMALL[0]).all() and (corners[..., 1] < SMALL[1]).all()
    assert image.shape == (SMALL[1], SMALL[0], 3)


@pytest.mark.parametrize("layout,art", [("scattered", "witches"), ("touching", "frogs"),
                                        ("loose", "vintage"), ("scan", "lookalikes")])
def test_truth_corners_frame_each_tiles_own_art(layout, art):
    # The photo cut out at a tile's truth corners must look like that tile's
    # art the right way up, and unlike the art turned a quarter.
    image, truth = render_photo(seed=5, layout=layout, difficulty="easy", art=art, size=(1200, 900))
    for i, tile in enumerate(truth["tiles"]):
        seen = rectified(image, tile["corners"]).astype(np.float32)
        art_image = cv2.resize(draw_tile(tile["edges"], ART_SETS[art], 300, seed=5 * 1000 + i), (96, 96),
                               interpolation=cv2.INTER_AREA).astype(np.float32)
        gaps = [np.abs(seen - np.rot90(art_image, -q)).mean() for q in range(4)]
        assert gaps[0] < 30, (i, gaps)
        assert gaps[0] < 0.8 * min(gaps[1:]), (i, gaps)


def test_exif_turned_jpeg_reads_back_as_seen(tmp_path):
    from PIL import Image

    image, truth = render_photo(seed=2, layout="loose", difficulty="easy", art="lookalikes",
                                table="dark", size=SMALL, exif=90)
    path = tmp_path / "phone.jpg"
    save_photo(path, image, truth)
    stored = Image.open(path)
    assert stored.size == (SMALL[1], SMALL[0]) and stored.getexif()[0x0112] == 6
    back = cv2.imread(str(path))
    assert back.shape == image.shape
    truth = load_truth(path)
    for tile in truth["tiles"]:
        quad = np.array(tile["corners"])
        centre = quad.mean(axis=0)
        inside = back[tuple(np.round(centre[::-1] + 0.3 * (quad[0] - centre)[::-1]).astype(int))]
        outside = back[tuple(np.round(centre[::-1] + 1.25 * (quad[0] - centre)[::-1]).astype(int))]
        # cream card inside, dark table just beyond the corner
        assert inside.mean() > 150 and outside.mean() < 90, (inside, outside)


def test_rendering_is_deterministic_per_seed_and_the_puzzle_survives_a_new_scene():
    a, ta = render_photo(seed=4, layout="scattered", size=(480, 360))
    b, tb = render_photo(seed=4, layout="scattered", size=(480, 360))
    assert np.array_equal(a, b) and ta == tb
    c, tc = render_photo(seed=5, layout="scattered", size=(480, 360))
    assert not np.array_equal(a, c)
    d, td = render_photo(seed=4, layout="touching", difficulty="hard", size=(480, 360))
    assert [t["edges"] for t in td["tiles"]] == [t["edges"] for t in ta["tiles"]]
    assert td["tiles"][0]["corners"] != ta["tiles"][0]["corners"]


def test_truth_regenerates_its_image():
    image, truth = render_photo(seed=8, layout="loose", difficulty="hard", art="sports", size=(480, 360))
    again, _ = render_photo(**{k: v for k, v in truth["params"].items()})
    assert np.array_equal(image, again)


def test_unique_puzzles_have_exactly_one_solution():
    for seed in range(3):
        planted = plant(3, 3, seed=seed, unique=True)
        result = solve(planted.puzzle, all=True)
        assert result.complete and result.count == 1
        assert is_solution(planted.puzzle, planted.solution)
    _, truth = render_photo(seed=1, unique=True, size=(320, 240))
    assert truth["count"] == 1 and truth["params"]["unique"] is True


def test_any_grid_shape_is_planted():
    planted = plant(2, 4, seed=3)
    assert len(planted.puzzle.tiles) == 8 and len(planted.solution) == 2
    assert is_solution(planted.puzzle, planted.solution)


def test_matching_detected_quads_gives_a_readers_puzzle_and_answer():
    # A detector that starts every quad at another corner must still be
    # scored exactly: truth edges shifted into its order, answer turned to match.
    _, truth = render_photo(seed=3, layout="scattered", size=SMALL)
    rng = np.random.default_rng(0)
    order = rng.permutation(9)
    quads = [np.roll(np.array(truth["tiles"][i]["corners"]), -int(rng.integers(4)), axis=0)
             for i in order]
    matches = match_tiles(truth, quads + [np.array([[0, 0], [5, 0], [5, 5], [0, 5]])])
    assert matches[-1] is None
    matches = matches[:-1]
    assert [m.tile for m in matches] == list(order)
    puzzle = Puzzle(tiles=tuple(m.edges for m in matches), rows=3, cols=3)
    grid = [[(c["tile"] - 1, c["rotation"] // 90) for c in row]
            for row in detected_solution(truth, matches)]
    assert is_solution(puzzle, grid)


@pytest.mark.parametrize("art", sorted(ART_SETS))
def test_halves_meet_across_a_seam_and_differ_from_each_other(art):
    # Tile A shows +k on its south side, tile B shows -k on its north side:
    # the rows either side of the seam are one picture cut in two.
    # Printed borders and wear print over the cut on purpose; leave them off here.
    card = ART_SETS[art].card._replace(border=None, worn=False)
    plain = ART_SETS[art]._replace(card=card)
    s = 200
    cut_gaps, other_gaps = [], []
    for k in range(1, 5):
        j = k % 4 + 1  # another figure
        a = draw_tile([j, j, k, j], plain, s).astype(float)
        b = draw_tile([-k, j, j, j], plain, s).astype(float)
        c = draw_tile([-j, k, k, k], plain, s).astype(float)
        band = slice(2 * s // 5, 3 * s // 5)  # the figure, not the card around it
        cut_gaps.append(np.abs(a[-3, band] - b[2, band]).mean())
        other_gaps.append(np.abs(a[-3, band] - c[2, band]).mean())
        top, bottom = a[-s // 3:, band], np.rot90(b, 2)[-s // 3:, band]
        assert np.abs(top - bottom).mean() > 20, "top and bottom halves look alike"
    assert np.mean(cut_gaps) < 0.5 * np.mean(other_gaps), (cut_gaps, other_gaps)


def test_harder_photos_lean_more_and_shine_more():
    def depth(truth):  # near tiles look bigger than far ones under perspective
        quads = np.array([t["corners"] for t in truth["tiles"]])
        sides = np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2)
        return sides.max() / sides.min()

    def blown(image, truth):  # share of tile pixels washed out by glare
        mask = np.zeros(image.shape[:2], np.uint8)
        for t in truth["tiles"]:
            cv2.fillConvexPoly(mask, np.int32(t["corners"]), 1)
        return (image.min(axis=2)[mask > 0] > 235).mean()

    scenes = {level: render_photo(seed=6, layout="loose", difficulty=level, art="frogs", table="dark",
                                  size=(800, 600)) for level in ("easy", "hard")}
    (easy, te), (hard, th) = scenes["easy"], scenes["hard"]
    assert depth(th) > depth(te) + 0.15
    assert blown(hard, th) > 0.01 > blown(easy, te)


@pytest.mark.parametrize("art", ["critters", "frogs", "meadow"])
def test_planted_solution_assembled_shows_whole_figures_across_every_seam(art):
    # Lay the tile art out as the planted solution says: across every seam the
    # pixel rows either side continue one picture, unlike a seam of strangers.
    # A plain card: each tile's own mottling is no part of the figures.
    card = ART_SETS[art].card._replace(background=("plain", "#808080", "#808080"))
    plain = ART_SETS[art]._replace(card=card)
    s = 120
    planted = plant(3, 3, seed=9, unique=True)
    tiles = [draw_tile(t, plain, s).astype(float) for t in planted.puzzle.tiles]
    cell = [[np.rot90(tiles[p.tile], -p.quarters) for p in row] for row in planted.solution]
    band = slice(2 * s // 5, 3 * s // 5)  # corners belong to the neighbouring sides
    seams = [np.abs(cell[r][c][-2, band] - cell[r + 1][c][1, band]).mean() for r in range(2) for c in range(3)]
    seams += [np.abs(cell[r][c][band, -2] - cell[r][c + 1][band, 1]).mean() for r in range(3) for c in range(2)]
    # strangers: a south row beside a north row whose half belongs to another figure
    south = [(row[-2, band], turn(planted.puzzle.tiles[p.tile], p.quarters)[2])
             for cells, places in zip(cell, planted.solution) for row, p in zip(cells, places)]
    north = [(row[1, band], turn(planted.puzzle.tiles[p.tile], p.quarters)[0])
             for cells, places in zip(cell, planted.solution) for row, p in zip(cells, places)]
    strangers = [np.abs(a - b).mean() for a, ca in south for b, cb in north if abs(ca) != abs(cb)]
    # rows 3 px apart differ a little inside a figure too; strangers differ wholly
    assert max(seams) < 0.5 * np.mean(strangers) and np.mean(seams) < 0.35 * np.mean(strangers)
