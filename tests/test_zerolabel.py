"""vision.zerolabel: reading a photo with no library, on rendered photos with exact truth."""
import random
from pathlib import Path

import cv2
import numpy as np
import pytest

from solver import Puzzle, is_solution, solve
from solver.generate import planted
from solver.repair import repair
from vision.describe import SIZE, normalise, tile_crops
from vision.pipeline import photo_edges, solve_photo, unlabelled_reading
from vision.rectify import inset, rectify
from vision.render import LAYOUTS, match_tiles, render_photo
from vision.read import Reading
from vision.zerolabel import (LONER, SEAM_SIZE, _matchings, _moved, folds, joined_answer, likelier_count, likely_halves,
                              neighbour_groups, one_half, read_unlabelled, realigned, seam_crops, seam_profiles)

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real-dev"


def true_puzzle(truth):
    """The puzzle a rendered photo's truth holds, its tiles in truth order."""
    return Puzzle(tiles=tuple(tuple(t["edges"]) for t in truth["tiles"]), rows=3, cols=3)


def photo_at_truth(seed, art, layout):
    """Edge crops of a rendered photo cut at the truth corners, and the true puzzle."""
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=layout, size=(1600, 1200))
    tiles = normalise([rectify(image, np.float32(t["corners"]), size=SIZE) for t in truth["tiles"]])
    return tile_crops(tiles), true_puzzle(truth)


def read_and_solved(image, corners=None):
    """A photo's tiles cut at ``corners`` (found when None), read with no library, and the
    first arrangement that reading solves to, or None: ``(edges, reading, grid)``."""
    edges = photo_edges(image, corners=corners)
    reading = read_unlabelled(edges.crops, 3, 3, seams=seam_crops(image, edges.corners))
    found = solve(Puzzle(tiles=tuple(reading.tiles), rows=3, cols=3)).solutions
    return edges, reading, found[0] if found else None


def solved_end_to_end(art, seed):
    """True when a rendered photo's tiles, found and realigned as `solve` finds them, read with no library,
    solve to an arrangement the independent verifier accepts for the true codes."""
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    edges, _, grid = read_and_solved(image, realigned(image, photo_edges(image).corners))
    puzzle = Puzzle(tiles=tuple(m.edges for m in match_tiles(truth, edges.corners)), rows=3, cols=3)
    return grid is not None and is_solution(puzzle, grid)


def agreement(read, true):
    """Share of edges whose code matches the truth under the best renaming of figures."""
    read, true = np.ravel(read), np.ravel(true)
    hits = 0
    for code in set(read.tolist()):
        values, counts = np.unique(true[read == code], return_counts=True)
        hits += counts.max()
    return hits / len(read)


# four frogs that differ only in colour; two pairs of figures that share colours
@pytest.mark.parametrize("art, seed, layout", [("frogs", 3, "scan"), ("lookalikes", 3, "scan")])
def test_zero_label_reading_solves_a_rendered_photo(art, seed, layout):
    crops, puzzle = photo_at_truth(seed, art, layout)
    reading = read_unlabelled(crops, 3, 3)
    assert sorted({abs(c) for tile in reading.tiles for c in tile}) == [1, 2, 3, 4]
    assert agreement(reading.tiles, puzzle.tiles) >= 0.95
    try:
        found = solve(Puzzle(tiles=tuple(reading.tiles), rows=3, cols=3)).solutions
        grid = found[0] if found else None
    except ValueError:
        grid = None
    if grid is None:
        fix = repair(reading.candidates, 3, 3)
        grid = fix.grid if fix.fits else None
    assert grid is not None and is_solution(puzzle, grid)  # the independent verifier, true codes


# vintage's witch and cat share one palette, as do the lookalikes' teal cat and bird: only where the
# halves meet tells which go together. Read on the 96-pixel crops, the first three photos paired them
# wrongly; read past the printed border instead of at the card's cut edge, the last two.
@pytest.mark.parametrize("art, seed", [("vintage", 1), ("vintage", 10), ("lookalikes", 1), ("vintage", 16),
                                       ("vintage", 20)])
def test_halves_of_figures_sharing_colours_pair_up_by_their_seams(art, seed):
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    _, _, grid = read_and_solved(image, [t["corners"] for t in truth["tiles"]])
    assert grid is not None and is_solution(true_puzzle(truth), grid)  # the independent verifier, true codes


# every side found 1% of a side outside its card, as found corners stray: the crops' first rows show the card's
# bevel and the table, and the seams were read there (median gap to the true corners' profiles 27 and 32 before)
@pytest.mark.parametrize("art", ["lookalikes", "witches"])
def test_seams_are_read_where_the_card_begins_with_sides_found_outside_it(art):
    image, truth = render_photo(seed=1228, art=art, difficulty="normal", layout="scattered", size=(1600, 1200))
    true = [np.float32(t["corners"]) for t in truth["tiles"]]
    outside = [_moved(corners, np.full(4, 0.01)) for corners in true]
    gap = seam_profiles(seam_crops(image, outside)) - seam_profiles(seam_crops(image, true))
    assert np.median(np.linalg.norm(gap, axis=-1).mean(axis=-1)) < 8  # 27 and 32 when read at rows 1-3


# touching cards with a printed border are found at its band's inner edge, 3.3% of a side inside their cut: the crops
# then began past the border's thin line, where a figure's two halves no longer meet (lookalikes 1742, 1754, 1770,
# true pairing 3rd-10th); the seams are now read in the border's gap wherever the sides were found
@pytest.mark.parametrize("art", ["lookalikes", "witches", "vintage"])
def test_seams_are_read_in_a_printed_borders_gap_with_sides_found_inside_it(art):
    image, truth = render_photo(seed=1228, art=art, difficulty="normal", layout="scattered", size=(1600, 1200))
    true = [np.float32(t["corners"]) for t in truth["tiles"]]
    inside = [_moved(corners, np.full(4, -0.033)) for corners in true]
    gap = seam_profiles(seam_crops(image, inside)) - seam_profiles(seam_crops(image, true))
    assert np.median(np.linalg.norm(gap, axis=-1).mean(axis=-1)) < 8  # 33, 49 and 23 when read where found


# art printed to the cut has no border to line the seams up on: they are read where each side was found
def test_seams_of_art_printed_to_the_cut_are_read_where_the_sides_were_found():
    image, truth = render_photo(seed=1228, art="frogs", difficulty="normal", layout="scattered", size=(1600, 1200))
    corners = [np.float32(t["corners"]) for t in truth["tiles"]]
    plain = tile_crops([rectify(image, inset(c), size=SEAM_SIZE) for c in corners])
    assert all(np.array_equal(a, b) for a, b in zip(seam_crops(image, corners), plain))


# the groups of lookalikes 1228 are right as found, but their seams were read on the bevel and a pairing that fits
# by chance was answered: a made-up exit 0
def test_a_photo_whose_sides_are_found_outside_its_cards_pairs_its_halves_right():
    assert solved_end_to_end("lookalikes", 1228)


# vintage figures share one palette and colour favoured a top-with-top pairing that fits too: between
# plausible pairings that fit, the seams weigh twice the colour. Before, both chose a wrong pairing.
@pytest.mark.parametrize("seed", [8, 14])
def test_between_pairings_that_fit_the_seams_outweigh_a_shared_palette(seed):
    image, truth = render_photo(seed=seed, art="vintage", difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    _, _, grid = read_and_solved(image, [t["corners"] for t in truth["tiles"]])
    assert grid is not None and is_solution(true_puzzle(truth), grid)  # the independent verifier, true codes


# touching tiles found 3% of a side off: each crop's rows at the seam show the neighbour's figure
def test_halves_group_past_a_sliver_of_the_touching_tile():
    image, truth = render_photo(seed=25, art="witches", difficulty="normal", layout=LAYOUTS[25 % len(LAYOUTS)],
                                size=(1600, 1200))
    edges, _, grid = read_and_solved(image)
    puzzle = Puzzle(tiles=tuple(m.edges for m in match_tiles(truth, edges.corners)), rows=3, cols=3)
    assert grid is not None and is_solution(puzzle, grid)  # the independent verifier, true codes


# one side of every other tile found 3% of a side inside its card, as vintage-like cards are found at times: the
# figures there are cut short and move up their crops, and one edge or more joined another half (each case failed
# before an edge could be laid a row nearer its seam)
@pytest.mark.parametrize("art, seed, side", [("witches", 14, 1), ("witches", 14, 2), ("witches", 18, 1),
                                             ("lookalikes", 14, 0)])
def test_halves_group_with_sides_found_inside_their_cards(art, seed, side):
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    inside = -0.03 * np.eye(4)[side]
    off = [_moved(np.float32(t["corners"]), inside) if i % 2 == 0 else t["corners"] for i, t in enumerate(truth["tiles"])]
    _, _, grid = read_and_solved(image, realigned(image, off))
    assert grid is not None and is_solution(true_puzzle(truth), grid)  # the independent verifier, true codes


# one side of one tile found 5% of a side off, as detection finds scattered tiles at times: its edge shows the
# table and a cut figure and joined a stranger's group, and the photo was read wrong (each case failed unaligned)
@pytest.mark.parametrize("art, tile, move", [("critters", 8, (0.05, 0, 0, 0)), ("meadow", 0, (0, 0, 0, 0.05)),
                                             ("witches", 0, (0, 0, 0.05, 0))])
def test_a_tile_found_off_is_realigned_before_its_edges_are_grouped(art, tile, move):
    image, truth = render_photo(seed=20, art=art, difficulty="normal", layout="scattered", size=(1600, 1200))
    true = [np.float32(t["corners"]) for t in truth["tiles"]]
    off = true[:tile] + [_moved(true[tile], np.array(move))] + true[tile + 1:]
    corners = realigned(image, off)
    assert np.abs(corners[tile] - true[tile]).max() < np.abs(off[tile] - true[tile]).max() / 2
    _, _, grid = read_and_solved(image, corners)
    assert grid is not None and is_solution(true_puzzle(truth), grid)  # the independent verifier, true codes


# vintage 1605 (loose) as detection found it: its fifth tile's north side 6% inside its card, at the inner line of the
# brown printed frame every card shares (the old realignment left it 3.9% in). Read so, a lone edge tipped the
# groupings and the photo got a made-up answer; moved out to the cut, it is read right
VINTAGE_1605_FOUND = [
    [[401, 303], [616, 275], [634, 494], [416, 514]], [[681, 271], [920, 244], [940, 476], [696, 494]],
    [[953, 249], [1217, 226], [1237, 469], [968, 483]], [[430, 569], [651, 549], [673, 777], [448, 789]],
    [[706, 557], [952, 549], [959, 778], [709, 771]], [[977, 545], [1246, 521], [1283, 773], [1007, 787]],
    [[443, 823], [669, 831], [674, 1068], [445, 1050]], [[708, 823], [958, 828], [970, 1077], [716, 1062]],
    [[1003, 816], [1281, 822], [1298, 1082], [1015, 1064]]]


def test_a_side_found_at_the_cards_printed_frame_is_moved_out_to_its_cut():
    image, truth = render_photo(seed=1605, art="vintage", difficulty="normal", layout="loose", size=(1600, 1200))
    moved = realigned(image, VINTAGE_1605_FOUND)
    match = match_tiles(truth, [VINTAGE_1605_FOUND[4]])[0]
    true = np.roll(np.float32(truth["tiles"][match.tile]["corners"]), -match.shift, axis=0)
    side = np.linalg.norm(true[1] - true[0])
    assert np.abs(np.float32(VINTAGE_1605_FOUND[4]) - true).max() > 0.05 * side
    assert np.abs(moved[4] - true).max() < 0.015 * side
    assert all(np.array_equal(moved[i], np.float32(c)) for i, c in enumerate(VINTAGE_1605_FOUND) if i != 4)


# vintage 1650 (touching, on wood) as detection found it: the cards' brown frames meet in one band the table's colour
# and every card was found inside it, about 3.3% of a side, so no side stood out against the frame the cards seemed
# to share; the seams, read inside the cut, paired the wrong halves (exit 1). Moved out as a block, it reads right
VINTAGE_1650_FOUND = [
    [[630, 175], [859, 208], [822, 440], [590, 403]], [[869, 201], [1120, 237], [1086, 489], [829, 449]],
    [[1128, 246], [1372, 280], [1344, 519], [1097, 477]], [[587, 419], [819, 456], [781, 698], [544, 657]],
    [[836, 459], [1078, 497], [1039, 742], [798, 701]], [[1095, 500], [1342, 538], [1313, 790], [1060, 746]],
    [[541, 674], [778, 715], [738, 965], [498, 918]], [[795, 718], [1040, 761], [1005, 1012], [756, 965]],
    [[1058, 764], [1311, 808], [1280, 1070], [1022, 1021]]]


def test_a_touching_block_found_inside_the_frame_its_cards_share_is_moved_out_to_their_cuts():
    image, truth = render_photo(seed=1650, art="vintage", difficulty="normal", layout="touching", size=(1600, 1200))
    true = [np.float32(truth["tiles"][m.tile]["corners"]) for m in match_tiles(truth, VINTAGE_1650_FOUND)]

    def area(quads):  # each tile's area over its card's, the median
        return np.median([cv2.contourArea(np.float32(q)) / cv2.contourArea(t) for q, t in zip(quads, true)])

    moved = realigned(image, VINTAGE_1650_FOUND)
    assert area(VINTAGE_1650_FOUND) < 0.9 and 0.97 < area(moved) < 1.03


# art printed to the cut shares no frame: sides the frame check proposes to move there are left where the
# tiles' edges say they belong (frogs 1610 at its true corners: thirteen sides proposed, none kept)
def test_sides_of_art_with_no_printed_frame_stay_where_found():
    image, truth = render_photo(seed=1610, art="frogs", difficulty="normal", layout=LAYOUTS[1610 % len(LAYOUTS)],
                                size=(1600, 1200))
    true = [np.float32(t["corners"]) for t in truth["tiles"]]
    assert all(np.array_equal(a, b) for a, b in zip(realigned(image, true), true))


# the likeliest pairing of all came from the grouping with a stray edge, and fitted nowhere; measured against it,
# the other grouping's true pairing looked far-fetched and neither photo was solved (each fails without the rule)
@pytest.mark.parametrize("art, seed", [("sports", 56), ("vintage", 83)])
def test_a_pairing_is_weighed_against_the_likeliest_of_its_own_grouping(art, seed):
    assert solved_end_to_end(art, seed)


# both groupings fit, each with its own likeliest pairing; the one with a stray edge pairs cheaper on its own scale,
# and won on cost alone though its edges were less sure of their groups. Weighed from each grouping's likeliest, the
# surer grouping wins (read wrong before, with the rule above alone too; vintage 78, pinned here with it, reads wrong
# with or without the rule since corners._framed finds one of its nine tiles at its cut edge, eight inside the frame)
@pytest.mark.parametrize("art, seed", [("witches", 139)])
def test_pairings_of_two_groupings_are_weighed_from_each_groupings_likeliest(art, seed):
    assert solved_end_to_end(art, seed)


# one edge of a half printed once or twice sat nearer another half's group: the likeliest pairing fitted nowhere
# and a pairing 0.3 less likely that happened to fit was taken. Read again with that edge at its second-nearest
# group, the likeliest fits (both photos read wrong before `reread`)
@pytest.mark.parametrize("art, seed", [("witches", 50), ("witches", 637)])
def test_the_likeliest_pairing_fits_once_a_doubtful_edge_is_read_again(art, seed):
    assert solved_end_to_end(art, seed)


# both groupings fit with some pairing; the one with a stray edge paired a little likelier, and won before the
# edges' doubt about their groups was weighed in
@pytest.mark.parametrize("art", ["lookalikes", "vintage"])
def test_of_two_groupings_that_fit_the_one_whose_edges_sit_squarely_wins(art):
    image, truth = render_photo(seed=18, art=art, difficulty="normal", layout="touching", size=(1600, 1200))
    _, _, grid = read_and_solved(image, realigned(image, [t["corners"] for t in truth["tiles"]]))
    assert grid is not None and is_solution(true_puzzle(truth), grid)  # the independent verifier, true codes


# puzzles that use only three of their four figures (one random 3x3 in 200): read as eight halves, two of the
# six were split, and the split reading fitted with a wrong pairing (critters, frogs) or fitted nowhere
# (lookalikes); the frogs' groups lean to six less clearly, and both readings fit: the split one is more unsure.
# Lookalikes 94's eight halves now fit too, one figure's halves each split alike, and their answer fits the six
# halves' reading as well (`folds`): it is taken, and is one of the puzzle's 11 arrangements
@pytest.mark.parametrize("art, seed, halves", [("critters", 472, 6), ("lookalikes", 94, 8), ("frogs", 991, 6)])
def test_a_puzzle_of_three_figures_is_read_as_six_halves(art, seed, halves):
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    puzzle = true_puzzle(truth)
    assert len({abs(c) for tile in puzzle.tiles for c in tile}) == 3
    _, reading, grid = read_and_solved(image, [t["corners"] for t in truth["tiles"]])
    assert len({c for tile in reading.tiles for c in tile}) == halves
    assert grid is not None and is_solution(puzzle, grid)  # the independent verifier, true codes


# a figure printed once on each side of the seam (meadow 1488's figure 1): six halves fold it into a lookalike
# figure on both sides, far surer of their groups than eight (doubt 0.62 of theirs), and fit 18 arrangements, the
# first not the puzzle's; eight halves fit its 5, and their answer fits the six halves' reading too
def test_two_figures_are_not_read_as_one_when_the_answer_of_four_fits_as_well():
    image, truth = render_photo(seed=1488, art="meadow", difficulty="normal", layout=LAYOUTS[1488 % len(LAYOUTS)],
                                size=(1600, 1200))
    _, reading, grid = read_and_solved(image, [t["corners"] for t in truth["tiles"]])
    assert len({c for tile in reading.tiles for c in tile}) == 8
    assert grid is not None and is_solution(true_puzzle(truth), grid)  # the independent verifier, true codes


def test_fewer_halves_that_fold_two_figures_into_one_do_not_win_on_doubt():
    puzzle, _ = planted(3, 3, rng=random.Random(3))
    eight = Reading(tiles=list(puzzle.tiles), confidence=[(0.5,) * 4] * 9, candidates=[])
    folded = Reading(tiles=[tuple(c // 2 if abs(c) == 2 else c for c in tile) for tile in puzzle.tiles],
                     confidence=[(0.95,) * 4] * 9, candidates=[])  # figure 2 read as figure 1, far surer
    assert folds(eight, folded, 3, 3)
    assert likelier_count({6: folded, 8: eight}, 3, 3) is eight


@pytest.mark.parametrize("halves, expected", [(8, (8,)), (6, (6, 8))])
def test_the_number_of_halves_is_where_groups_stand_apart(halves, expected):
    rng = np.random.default_rng(2)
    centres = rng.normal(size=(halves, 5)) * 5
    points = centres[np.arange(36) % halves] + rng.normal(size=(36, 5)) * 0.3
    assert likely_halves(np.linalg.norm(points[:, None] - points[None], axis=-1)) == expected


# a grouping that splits one half in two pairs the parts cheaply (colours and seams agree) and can still fit;
# two halves that merely look alike (the lookalikes' teal cat and bird) stay apart more than prints of one half do
def test_a_half_split_in_two_is_no_figure():
    rng = np.random.default_rng(3)
    centres = rng.normal(size=(4, 5)) * 5
    centres[3] = centres[2] + 0.3  # two lookalike halves, nearer each other than the other halves
    points = centres[np.arange(36) % 4] + rng.normal(size=(36, 5)) * 0.1
    d = np.linalg.norm(points[:, None] - points[None], axis=-1)
    labels = np.arange(36) % 4
    labels[(labels == 0) & (np.arange(36) >= 18)] = 4  # half 0 split in two groups
    alike = one_half(d, labels)
    assert {(a, b) for a, b in zip(*np.nonzero(alike))} == {(0, 4), (4, 0)}


def test_pairings_cover_every_group_once():
    pairings = list(_matchings(list(range(8))))
    assert len(pairings) == 105  # 7 * 5 * 3
    assert len({tuple(sorted(p)) for p in pairings}) == 105
    assert all(sorted(g for pair in p for g in pair) == list(range(8)) for p in pairings)
    odd = list(_matchings(list(range(5))))
    assert len(odd) == 15 and all(len(p) == 2 for p in odd)


def test_groupings_find_planted_groups():
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(4, 5)) * 5
    points = np.repeat(centres, 6, axis=0) + rng.normal(size=(24, 5)) * 0.3
    d = np.linalg.norm(points[:, None] - points[None], axis=-1)
    truth = np.repeat(np.arange(4), 6)
    for labels in (neighbour_groups(d, 4), neighbour_groups(d, 4, LONER)):
        assert agreement(labels, truth) == 1.0 and len(set(labels.tolist())) == 4


def test_a_half_printed_once_keeps_a_group_of_its_own():
    rng = np.random.default_rng(1)
    centres = rng.normal(size=(4, 5)) * 5
    centres[3] = centres[0] + 2.5  # a half printed once, nearer one group than groups are apart
    points = np.concatenate([np.repeat(centres[:3], 6, axis=0) + rng.normal(size=(18, 5)) * 0.3, centres[3:]])
    d = np.linalg.norm(points[:, None] - points[None], axis=-1)
    truth = np.append(np.repeat(np.arange(3), 6), 3)
    assert agreement(neighbour_groups(d, 4, LONER), truth) == 1.0
    assert agreement(neighbour_groups(d, 4), truth) < 1.0  # chained to its nearest lookalike


# makers' catalogue shots that repeat tiles (real-dev/README.md): no arrangement is the answer
@pytest.mark.skipif(not REAL.is_dir(), reason="no real-dev pictures here")
@pytest.mark.parametrize("name", ["davidlewine-birds.jpg", "davidlewine-hotrods.jpg", "davidlewine-kittens.jpg",
                                  "davidlewine-skiers.jpg", "davidlewine-teapot.jpg", "davidlewine-turtles.jpg",
                                  "kkredit-puzzle.jpg"])
def test_a_shot_with_repeated_tiles_is_not_given_a_made_up_answer(name, tmp_path):
    answer = solve_photo(REAL / name, out=tmp_path / "answer.png")
    assert answer["count"] == 0 and not answer["solutions"] and "reinterpreted" not in answer
    assert (tmp_path / "answer.png").exists()  # the best partial arrangement, mismatched seams marked


# vintage 1344 (scattered) as detection found it, sides 3-7% inside their cards at the printed frame: halves grouped
# wrong (22 of 36 edges torn between groups) fitted only with a pairing less likely than the likeliest, and that
# answer was made up. The photo now gets no answer rather than a wrong one
VINTAGE_1344_FOUND = [
    [[717, 185], [844, 92], [921, 223], [795, 312]], [[530, 455], [631, 357], [718, 475], [612, 563]],
    [[851, 393], [982, 305], [1060, 440], [929, 523]], [[1178, 332], [1340, 269], [1383, 428], [1223, 486]],
    [[609, 626], [739, 653], [711, 786], [583, 756]], [[1038, 522], [1162, 611], [1065, 727], [946, 639]],
    [[1204, 627], [1346, 555], [1412, 687], [1271, 756]], [[881, 692], [984, 773], [893, 884], [791, 806]],
    [[1088, 756], [1234, 785], [1196, 920], [1054, 891]]]


def answer_from(art, seed, corners):
    """The answer to a rendered photo read with no library from tiles found at ``corners``, and its true puzzle."""
    image, truth = render_photo(seed=seed, art=art, difficulty="normal", layout=LAYOUTS[seed % len(LAYOUTS)],
                                size=(1600, 1200))
    edges, reading = unlabelled_reading(image, photo_edges(image, corners=corners))
    found = solve(Puzzle(tiles=tuple(reading.tiles), rows=3, cols=3)).solutions
    puzzle = Puzzle(tiles=tuple(m.edges for m in match_tiles(truth, edges.corners)), rows=3, cols=3)
    return found, puzzle


def not_made_up(art, seed, corners):
    """Whether a rendered photo read with no library from tiles found at ``corners`` gets no answer or a right one."""
    found, puzzle = answer_from(art, seed, corners)
    return not found or is_solution(puzzle, found[0])


def test_a_stretched_answer_from_halves_torn_between_groups_is_not_given():
    assert not_made_up("vintage", 1344, VINTAGE_1344_FOUND)


# vintage 1710 (touching) as detection found it: six edges grouped wrong left 27 of 36 torn between groups, and that
# grouping fitted with its likeliest pairing, a plain answer no stretch check held; 4 of its 12 seams were doubtful
# (`vision.joins`, one short of `REFUSE`) and it was made up. A torn reading's answer is refused at `TORN_REFUSE`
VINTAGE_1710_FOUND = [
    [[567.6, 161.3], [819.0, 206.6], [766.4, 457.7], [513.3, 407.4]],
    [[816.3, 205.6], [1069.8, 255.1], [1027.0, 511.7], [766.8, 460.8]],
    [[1069.6, 256.7], [1325.3, 303.3], [1288.5, 561.5], [1027.0, 511.4]],
    [[511.7, 403.8], [767.8, 459.9], [712.7, 722.6], [452.5, 669.8]],
    [[767.8, 461.2], [1027.1, 511.1], [982.3, 778.6], [712.7, 722.8]],
    [[1026.9, 511.4], [1288.7, 561.6], [1250.3, 833.9], [981.9, 781.0]],
    [[450.2, 669.4], [713.2, 722.7], [658.0, 1007.5], [388.4, 949.2]],
    [[712.8, 725.6], [982.5, 777.5], [933.2, 1067.2], [657.8, 1007.4]],
    [[982.6, 778.8], [1249.2, 835.7], [1209.0, 1126.9], [933.6, 1067.4]]]


def test_a_plain_answer_from_halves_torn_between_groups_must_join_at_more_seams():
    assert not_made_up("vintage", 1710, VINTAGE_1710_FOUND)


def test_a_groupings_plain_reading_is_judged_when_its_likelier_stretched_one_is_refused():
    sure, unsure = [(0.9,) * 4], [(0.4,) * 4]  # a plain reading with every edge torn between groups: in doubt
    plain, torn_plain, stretched = Reading([(1, -1, 1, -1)], sure, []), Reading([(3, -3, 3, -3)], unsure, []), \
        Reading([(2, -2, 2, -2)], sure, [])
    given_plain = lambda reading, was_stretched: not was_stretched  # noqa: E731
    assert joined_answer([(0.5, plain, False, plain), (0.4, stretched, True, plain)], given_plain) is plain
    # the refused reading's own grouping's plain reading only, and only when its edges sit in their groups
    assert joined_answer([(0.5, plain, False, plain), (0.4, stretched, True, None)], given_plain) is None
    assert joined_answer([(0.5, torn_plain, False, torn_plain), (0.4, stretched, True, torn_plain)],
                         given_plain) is None
    assert joined_answer([(0.5, plain, False, plain)], lambda reading, was_stretched: False) is None


# lookalikes 1725 (loose) as detection found it: its grouping's likeliest pairing fits as read and is right, but a
# pairing 0.009 less likely scored likelier on its seams and was refused for 3 broken seams; the photo exited 1
LOOKALIKES_1725_FOUND = [
    [[103.0, 185.8], [396.5, 166.2], [446.6, 447.8], [162.3, 473.2]],
    [[478.7, 183.8], [751.0, 147.4], [806.2, 419.0], [542.8, 460.5]],
    [[839.1, 116.1], [1095.3, 76.3], [1144.0, 342.1], [896.1, 385.6]],
    [[198.8, 574.9], [473.6, 521.2], [544.4, 779.4], [278.9, 837.2]],
    [[545.6, 523.9], [808.4, 486.4], [855.4, 740.7], [600.8, 782.3]],
    [[914.2, 476.9], [1160.1, 433.5], [1205.0, 683.3], [966.7, 731.0]],
    [[273.9, 903.9], [543.1, 867.1], [587.0, 1111.8], [325.9, 1152.3]],
    [[624.0, 879.9], [876.2, 840.4], [916.2, 1081.4], [671.1, 1124.8]],
    [[967.7, 812.9], [1205.4, 771.3], [1239.9, 1003.5], [1008.9, 1048.2]]]


def test_a_right_plain_answer_is_given_when_a_likelier_stretched_one_is_refused():
    found, puzzle = answer_from("lookalikes", 1725, LOOKALIKES_1725_FOUND)
    assert found and is_solution(puzzle, found[0])
