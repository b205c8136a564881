"""vision.joins: whether an answer's seams join in the photo, on rendered photos with exact truth."""
from pathlib import Path

import numpy as np
import pytest

from solver import Puzzle, is_solution, solve
from vision.joins import APART, ASIDE, BREAK, REFUSE, doubtful, joins, seam_edges
from vision.pipeline import photo_edges, solve_photo, unlabelled_reading
from vision.render import LAYOUTS, match_tiles, render_photo
from vision.zerolabel import read_unlabelled, seam_continuation, seam_crops

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real-dev"


def true_answer(art, seed):
    """A rendered photo's edge continuation, read at the truth corners, and its true arrangement (truth order)."""
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", size=(1600, 1200))
    continuation = seam_continuation(seam_crops(image, [np.float32(t["corners"]) for t in truth["tiles"]]))
    grid = [[(cell["tile"] - 1, cell["rotation"] // 90) for cell in row] for row in truth["solution"]]
    return continuation, grid


def test_the_edges_across_a_seam_are_the_sides_that_face_each_other():
    # tile 0 as photographed, tile 1 turned twice beside it, tile 2 turned once below it, tile 3 three times
    grid = [[(0, 0), (1, 2)], [(2, 1), (3, 3)]]
    east, south, west, north = 1, 2, 3, 0  # of the tiles as photographed
    assert seam_edges(grid) == [(east, 4 + east), (south, 8 + west), (4 + north, 12 + east), (8 + north, 12 + north)]


@pytest.mark.parametrize("art, seed", [("frogs", 1), ("critters", 2), ("meadow", 3)])
def test_a_true_answer_joins_and_the_same_tiles_laid_at_random_do_not(art, seed):
    continuation, grid = true_answer(art, seed)
    assert joins(grid, continuation)
    cells = [cell for row in grid for cell in row]
    shuffled = [cells[i] for i in np.random.default_rng(seed).permutation(len(cells))]
    scrambled = [shuffled[3 * r:3 * r + 3] for r in range(3)]
    assert len(doubtful(scrambled, continuation)) >= REFUSE and not joins(scrambled, continuation)


# witches 603 prints its fourth figure's halves once each: with tiles cut at their pixel edges (rectify) its
# halves lean to six groups, and the six-group reading, surer of its groups than the eight (which is right), fits
# with seams that join (none doubtful). It was made up, a question of how many halves, not of seams, until the
# eight's answer, which fits the six's reading too, was taken over it (`vision.zerolabel.folds`): now right
@pytest.mark.parametrize("art, seed", [("witches", 603), ("lookalikes", 603)])
def test_a_reading_that_fits_but_whose_seams_do_not_join_is_refused(art, seed):
    # the likeliest reading that fitted laid witches on witches (lookalikes: cards) whose halves do not continue
    # each other across 6 (7) of 12 seams; `edgematch solve` answered it with exit 0. Now nothing fits: exit 1
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    edges, reading = unlabelled_reading(image, photo_edges(image))
    puzzle = Puzzle(tiles=tuple(m.edges for m in match_tiles(truth, edges.corners)), rows=3, cols=3)
    found = solve(Puzzle(tiles=tuple(reading.tiles), rows=3, cols=3)).solutions
    assert not found or is_solution(puzzle, found[0])  # no answer, or a right one


def test_a_stretched_answer_is_refused_for_a_few_broken_seams_a_plain_one_only_for_many():
    # one tile's three seams meet halves of other colours all along; its other seams and the rest join
    continuation = np.full((36, 36), 0.5)
    grid = [[(3 * r + c, 0) for c in range(3)] for r in range(3)]
    for a, b in [seam for seam in seam_edges(grid) if 4 <= seam[0] < 8 or 4 <= seam[1] < 8]:  # tile 1, top middle
        continuation[a, b] = continuation[b, a] = 0.95
    assert len(doubtful(grid, continuation, ASIDE, APART)) >= BREAK and len(doubtful(grid, continuation)) < REFUSE
    assert joins(grid, continuation) and not joins(grid, continuation, stretched=True)


def test_a_seam_is_doubtful_only_when_it_is_so_as_read_and_where_its_edges_join_best():
    # five seams doubtful as read (sides a row apart on a thin border), five others only a row deeper (where on a
    # wide plain frame many edges join as well as the partner): neither is a made-up answer's every-way mismatch
    grid = [[(3 * r + c, 0) for c in range(3)] for r in range(3)]
    as_read, deeper = np.full((36, 36), 0.5), np.full((36, 36), 0.5)
    for gaps, seams in ((as_read, seam_edges(grid)[:5]), (deeper, seam_edges(grid)[5:10])):
        for a, b in seams:
            gaps[a, b] = gaps[b, a] = 0.9
    assert not joins(grid, as_read) and not joins(grid, deeper)
    assert joins(grid, as_read, joining=deeper)


@pytest.mark.skipif(not REAL.is_dir(), reason="no real-dev pictures here")
def test_the_balloons_shot_is_not_given_a_made_up_answer(tmp_path):
    # trkoenig: the only reading that fitted re-read an edge, and laid a tile whose three seams meet halves of other
    # colours all along (a checked envelope against a chevron); `edgematch solve` answered it with exit 0
    answer = solve_photo(REAL / "trkoenig-unsolved-scramble-squares.jpg", out=tmp_path / "answer.png")
    assert answer["count"] == 0 and not answer["solutions"]


# lookalikes 1681 (scan) as detection found it, sides 0.0% to 0.8% outside their cards: a seam's first rows are the
# printed border's thin line, and across 5 of the right answer's seams one edge was read on the line, its partner on
# the ground inside it. The answer was refused with 5 doubtful seams (`REFUSE`): exit 1. Each seam read where its two
# edges join best (`vision.zerolabel.joining_gaps`), it is given
LOOKALIKES_1681_FOUND = [
    [[263, 229], [537, 210], [573, 450], [302, 479]], [[640, 219], [884, 191], [928, 418], [687, 453]],
    [[939, 209], [1163, 184], [1203, 405], [982, 437]], [[357, 558], [624, 523], [663, 758], [400, 802]],
    [[670, 513], [914, 481], [950, 706], [710, 746]], [[1000, 460], [1222, 441], [1246, 656], [1026, 683]],
    [[395, 901], [660, 861], [690, 1095], [428, 1144]], [[724, 812], [964, 776], [993, 1000], [754, 1043]],
    [[1034, 773], [1253, 740], [1280, 954], [1062, 994]]]


def test_a_right_answer_is_not_refused_for_sides_found_a_row_or_two_apart_at_a_thin_border():
    image, truth = render_photo(seed=1681, art="lookalikes", difficulty="normal", layout=LAYOUTS[1681 % len(LAYOUTS)],
                                size=(1600, 1200))
    edges = photo_edges(image, corners=LOOKALIKES_1681_FOUND)
    reading = read_unlabelled(edges.crops, 3, 3, seams=seam_crops(image, edges.corners))
    found = solve(Puzzle(tiles=tuple(reading.tiles), rows=3, cols=3)).solutions
    puzzle = Puzzle(tiles=tuple(m.edges for m in match_tiles(truth, edges.corners)), rows=3, cols=3)
    assert found and is_solution(puzzle, found[0])
