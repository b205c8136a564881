"""Zero-label reading: codes for a puzzle never seen before, from one photo.

With no library there is nothing to name the half-figures by, but a photo
holds every half several times over. So:

0. realign tiles found a little off (`realigned`): a tile whose edges look
   like no other tile's is most likely cut short or showing its neighbour,
   and a side found inside the printed frame all cards share is moved out
   to the cut when the tile's edges agree (`framed_moves`);
1. group the edges by appearance into lookalike halves (`half_distances`:
   each tile's light evened, pixels weighed by how much halves differ
   there). An edge's nearest lookalike is nearly always the same half (the
   photo holds each several times), so chains of nearest lookalikes are
   merged by average linkage (`neighbour_groups`) into eight groups, or
   six where the photo's halves stand apart in six (`likely_halves`: a
   puzzle using three figures). A half printed only once has no lookalike
   and would join some other half's chain, so a second grouping leaves an
   edge far from all others (`LONER`) a chain of its own;
2. find which groups are the two halves of one figure. Each way of pairing
   the groups up is a candidate, ranked by two cues: halves of one figure
   share colours, and the pixels along a seam continue across it (the
   figure is cut at its waist there; read on tiles cut finer,
   `seam_crops`, in a printed border's gap wherever the side was found,
   `border_lined`). Two groups as alike as prints of one half are that half
   split in two, never a figure (`one_half`);
3. let the solver judge: a pairing gives every edge a signed code (+k, -k
   for figure k), its nearest group's. Random 3x3 puzzles fit loosely, so
   a grouping with a stray edge still fits with some unlikely pairing; of
   the readings that fit as read, the likeliest wins, its pairing's cost
   over its grouping's likeliest and its edges' doubt about their groups
   weighed together (`UNSURE`: the two groupings pair alike, and the one
   whose edges sit squarely in their groups is the likelier), but only if its pairing is not much less
   likely than the likeliest pairing of its own grouping (`IMPLAUSIBLE`;
   the two groupings' costs are not on one scale): a fit that needs a
   far-fetched pairing is likelier a photo with no solution (the makers'
   shots repeat tiles) than a reading. When only a pairing clearly less
   likely than its grouping's likeliest fits, the likeliest is also tried
   with one doubtful edge read as its second-nearest group (`reread`): a
   half printed once or twice may lose an edge to another group. The
   answer's seams must then join in the photo (`vision.joins`), the more
   so when the reading was stretched to fit (a less likely pairing, an
   edge re-read); a stretched reading with a third of its edges torn
   between groups (`torn`) is refused outright: halves grouped wrong fit
   now and then with some unlikely pairing, and a plain one so torn is
   refused for fewer seams that do not join (`refusal`). When the likeliest
   fit is refused, its grouping's likeliest pairing, fitting as read, is
   judged in turn (`joined_answer`). When nothing fits, the
   reading whose best partial arrangement (`solver.repair`) matches most
   seams is returned, so the answer shows the seams to check.

Codes are then figure numbers signed by half, as SPEC.md's JSON reports
them for zero-label photos. Nothing here knows what a figure is: four
frogs that differ only in colour and two figures sharing colours are
grouped and paired by the same steps.
"""
from __future__ import annotations

import math
from typing import Sequence

import cv2
import numpy as np

from solver import Puzzle, is_solution, solve
from solver.repair import repair

from .describe import SIZE, Looks, describe, normalise, template_distances, tile_crops, to_lab
from .edges import edge_mask
from .group import cluster, merge_heights
from .joins import REFUSE, answer_joins
from .read import Reading
from .rectify import INSET, inset, rectify

SHARPNESS = 0.1  # distance difference that makes one group e times likelier
PAIRINGS = 12  # candidate pairings the solver judges per grouping
RELEARN = 3  # likeliest readings whose best partial arrangement is sought when none fits
IMPLAUSIBLE = 0.35  # pairing cost above its grouping's likeliest: more than the true pairing needed on any of 210
# rendered photos (0.28 at most), less than any made-up fit of the makers' shots needed (birds 0.41, teapot 0.46)
UNSURE = 0.2  # weight of a reading's doubt (`doubt`) against its pairing's cost: from 0.1 to 1 alike, seeds 11-30
# at true corners 130 -> 132 of 140 valid, found 123 -> 125, held-out 31-50 122 -> 123 and 112 -> 113, none lost
KINSHIP = 0.5  # weight of colour kinship beside the seam's between plausible readings that fit (`_unlikeliness`)
SEAM_SIZE = 288  # tile side seams are read at (`seam_crops`): three times the grouping's
LONER = 1.5  # an edge this many times farther than usual from its nearest lookalike is a half printed once
_SEAM_ROWS = 3  # rows of a seam crop read as the seam's profile, from where the card's face begins (`face_rows`)
_FACE = 0.02  # share of a side a seam crop's face may begin within (6 rows of `SEAM_SIZE`): a found side strays up
# to 1% past the card
OUTSIDE = 10  # Lab distance from the table's colour (`face_rows`) beyond which a seam crop's row is on the card's face
SPLIT = 0.8  # a reading of fewer halves that fits is taken over one of more when its doubt is less than this share
# of theirs, whichever was tried first (`likelier_count`): six halves read as eight left 1.4 to 3.6 times the doubt
# (3-figure puzzles past seed 50: six at 0.71 at most), eight read as six 0.95 times at least (seeds 11-30), but 0.84
# for meadow 1210 at its true corners since the pixel-edge rectify (two halves printed once; made up at 0.85)
SAME = 1.3  # groups nearer each other than this many times the typical distance within a group are one half
# split (`one_half`). On seeds 11-30 a figure's two groups stood 1.3 apart or more but once (a photo read wrong
# anyway), a split half's parts 1.0 to 2.3 apart; at 1.75 twelve critters and lookalikes photos were lost
SIDE = 0.6  # `one_half`: two groups whose seams agree running the same way in less than this share of how they
# agree across a seam are one half. A figure's halves stood 0.83 or more on 266 pairings (seeds 700-709), the
# makers' shots' pairings 0.84 or more but the serengeti shot's split giraffe neck (0.45)
ACROSS = 1.5  # `likely_halves`: two of eight groups whose seams agree across a seam this many times better than
# running alike are a figure's top and bottom. Joined in six groups on seeds 700-809 they stood 1.39 to 1.61 (the
# two above 1.5 fitted as six, made up), parts of one half of a three-figure puzzle 0.2 to 1.08 but once 1.42 (sports
# 1196, lost at 1.25)
LEAN, CLEAR = 1.2, 1.5  # `likely_halves`: the jump below six over the jump below eight that makes six worth
# trying, and worth trying first (its near misses are shown when nothing fits). Three-figure puzzles (8 seeds past
# 50, 112 photos, true and found corners) lean 0.7 to 2.2, four-figure ones on seeds 11-30 1.41 at most, the makers'
# shots 1.07 at most
INWARD_GAIN = 1.1  # `half_distances`: an edge laid a row nearer its seam counts when it fits a tenth better than as found.
# Sides are found up to 3% of a side inside their card; letting any edge move cost a true-corner photo (lookalikes 40)
_RIM = 24  # halves are grouped on a crop less its 1/_RIM nearest the seam (2 of 48 rows): where corners are
# found 3% of a side off, the touching tile shows there (seeds 11-30 end to end 116 -> 119 of 140, witches 15 -> 17)
DOUBT = 1.75  # a tile with an edge this many times farther than usual from any other tile's is realigned
_STEPS = (-0.04, -0.02, 0.02, 0.04)  # side moves tried (of the side), no more than a tile found off moves it
REREAD = 6  # doubtful edges `reread` tries, one at a time, for a grouping's likeliest pairing when it fits nowhere
MARGIN = 0.25  # ... and no pairing within this cost of it fits as read: a true pairing 0.17 over a likeliest that
# one re-read edge made fit lost to it (witches 61); a wrong one 0.34 over won against the true likeliest (witches 50)
TORN = 1 / 3  # a reading stretched to fit is refused when this share of its edges is torn between groups (`torn`).
# Found corners, seeds 1335-1384 x 7 and vintage 638-650: right answers stretched to fit had 1 such edge of 36 at
# most, those made up from halves grouped wrong 16 to 31 (vintage 1338, 1340, 1344, 1382, 638, 650, lookalikes
# 1369). Plain answers are not held to it: right ones had up to 14 (lookalikes 633), the pnikonowicz shot 27
TORN_REFUSE = 4  # doubtful seams (`vision.joins.REFUSE`, 5 otherwise) that refuse an answer whose reading is torn
# (`TORN`, `refusal`). Found corners, vintage, lookalikes and witches 1683-1730 and 335-354: right answers had 3
# doubtful seams at most, those torn (12 to 20 edges) 2; made up from six edges grouped wrong, 4 (vintage 1710)
_KEEP = 0.8  # a move is kept when it brings the tile's edges a fifth nearer the others' (seeds 11-30 found:
# tiles moved off true 13 times, nearer 24); with a tenth 65 and 30, and with any gain 119 of 140 valid, not 123
FRAME_DEPTH = 0.06  # `framed_moves`: how deep past the cut (of a side) the photo's shared frame is compared
FRAME_REACH = 0.09  # ... the farthest a side is moved out: vintage sides are found 3 to 7.4% inside their cards
FRAME_SURE = 0.7  # ... a side moved out must fit the shared frame this much better than as found
FRAME_TYPICAL = 1.5  # ... and no worse than this many times the typical side as found
FRAME_KEEP = 0.95  # `realigned` keeps a side moved out to its frame when the tile's edges come this much nearer the
# others'. Seeds 1603-1612 x 7 and eight vintage photos, found corners: below 0.95 23 moves brought a side nearer its
# cut and 4 overshot it (the worst from 0.8% out to 3.3%); from 0.95 to 1.1 19 nearer and 6 overshot
_FRAME_CUT = 0.12  # margin (of a side) tiles are cut with to read across their sides: past `FRAME_REACH`
_FRAME_SIDE = 200  # tile side in pixels sides are read across at: half a percent of a side a row
FRAME_STEP = 15  # `shared_frame_inset`: Lab step across sides (median) under which they were found inside a frame
# that runs on into the next card. Found corners, 1643-1662: touching vintage cards found 3.3% inside 7.1 to 9.5;
# sides at a card's cut facing another across the table (scanned, loose on wood) 24 to 76 on 37 photos
SLACK = 3  # `joining_gaps`: depths (rows of a `SEAM_SIZE` crop, a third of a percent of a side each) each edge's seam is
# read at to count an answer's doubtful seams (`vision.joins.REFUSE`), a seam doubtful as read and at its best depth.
# Lookalikes 1643-1682, found corners: 4 right answers refused with 5 doubtful seams (sides found 0.0% and 0.7%
# outside across them) now given; counted at the best depth alone vintage 1654 and 1662 were refused. Broken seams
# (`vision.joins.BREAK`) are still read as found: with the slack a made-up stretched answer passed (witches 1630)
BORDER_REACH = 0.12  # `seam_crops`: how far past a found side (of a side) seam crops reach to find a printed border
_LINE_UP = 14  # `border_lined`: the most rows (of a `SEAM_SIZE` crop, 4.6% of a side) a crop moves to line up with the
# others': touching cards with a printed border are found at its band's inner edge, 3.3% of a side inside the cut
_BORDER_BAND = 8  # ... rows read before that reach, where a side found inside the band still shows its last rows
_BORDER_DEPTH = 15  # ... rows past where the crops begin that the border may still reach; the face as deep again
FACING = 0.3  # `facing_gaps`: the farthest (of a side) a side faces another tile's


def read_unlabelled(crops: Sequence[np.ndarray], rows: int, cols: int,
                    looks: Looks | None = None, halves: Sequence[int] | None = None,
                    timeout: float = 0.5, seams: Sequence[np.ndarray] | None = None, slack: int = SLACK) -> Reading:
    """Read a photo's edges with no library: figure numbers signed by half.

    Parameters
    ----------
    crops : sequence of ndarrays
        Edge crops of one photo, 4 per tile, N E S W, seam at the top
        (`vision.describe.tile_crops` of normalised tiles).
    rows, cols : int
        The puzzle's grid.
    looks : Looks, optional
        `vision.describe.describe` of ``crops`` less their rows at the
        seam (`_RIM`), when already computed.
    halves : sequence of int, optional
        Numbers of lookalike groups to try: of those whose reading fits,
        the most win, unless fewer fit with far less doubt
        (`likelier_count`); by default as the photo's groups say
        (`likely_halves`): eight (four figures, as Scramble Squares
        have), or six for a puzzle
        that uses only three. Trying fewer whenever eight fit nowhere made
        up answers for the makers' shots with repeated tiles: merging two
        halves makes nearly anything fit.
    timeout : float
        Seconds the solver may spend on one candidate reading.
    seams : sequence of ndarrays, optional
        The same edges cut finer, as photographed (`seam_crops`), for
        reading where halves meet (`seam_continuation`); ``crops`` when not
        given.
    slack : int
        Depths each seam is read at to count an answer's doubtful seams
        (`joining_gaps`): 1 where the seams were lined up on a printed
        border (`seam_reading`), whose gap they are read in already.

    Returns
    -------
    Reading
        ``tiles`` hold signed figure numbers; ``candidates`` hold each
        edge's one reading, for `solver.repair`'s best partial arrangement.

    Examples
    --------
    >>> from vision.render import render_photo
    >>> from vision.pipeline import photo_edges
    >>> image, truth = render_photo(seed=1, art="frogs", size=(1200, 900))
    >>> edges = photo_edges(image)
    >>> reading = read_unlabelled(edges.crops, 3, 3)
    >>> len(reading.tiles), sorted({abs(c) for t in reading.tiles for c in t})
    (9, [1, 2, 3, 4])
    """
    looks = grouping_looks(crops) if looks is None else looks
    d = half_distances(looks)
    profiles = seam_profiles(crops if seams is None else seams)
    continuation = profile_gaps(profiles, across=True)
    joining = joining_gaps(crops if seams is None else seams, slack)  # doubtful seams counted with sides rows apart
    answers, first = {}, None  # the reading that fits and joins, by number of halves
    for count in likely_halves(d, profiles) if halves is None else halves:
        if count >= len(crops):
            continue
        fitting, tried = [], []
        for labels in (neighbour_groups(d, count, LONER), neighbour_groups(d, count)):
            near = group_distances(d, labels)
            ranked = ranked_pairings(labels, looks, continuation, d, profiles)[:PAIRINGS]
            best = min(_unlikeliness(cost, seam) for cost, seam, _ in ranked)  # groupings differ in scale
            plausible = []  # (cost, seam, reading, stretched) of the pairings that fit as read
            for rank, (cost, seam, pairing) in enumerate(ranked):
                reading = _reading(near, pairing)
                if not _fits(reading, rows, cols, timeout):
                    tried.append((cost, reading))
                elif cost <= ranked[0][0] + IMPLAUSIBLE:  # not the other grouping's: a stray edge makes pairing cheaper
                    plausible.append((cost, seam, reading, rank > 0))
            cost, seam, pairing = ranked[0]
            # Only a clearly less likely pairing fits: the likeliest may have one edge misread.
            if min((found[0] for found in plausible), default=math.inf) > cost + MARGIN:
                reading = reread(near, pairing, rows, cols, timeout)
                if reading is not None:  # its doubt counts the edge re-read at its lower confidence
                    plausible.append((cost, seam, reading, True))
            plain = next((reading for _, _, reading, stretched in plausible if not stretched), None)
            fitting += [(_unlikeliness(cost, seam) - best + UNSURE * doubt(reading), reading, stretched, plain)
                        for cost, seam, reading, stretched in plausible]
        # the likeliest fit is made up when its answer's seams do not join in the photo (`vision.joins`), held
        # to more when the reading was stretched to fit: the makers' shots' made-up fits were all stretched
        # and a stretched reading whose edges are torn between groups (`TORN`) is a guess from halves grouped wrong;
        # a plain one so torn must join at more seams (`refusal`)
        found = joined_answer(fitting, lambda reading, stretched: not (stretched and torn(reading) >= TORN) and
                              answer_joins(reading.tiles, rows, cols, continuation, timeout, stretched, joining,
                                           refusal(reading)))
        if found is not None:
            answers[count] = found
        first = tried if first is None else first
    if answers:
        return likelier_count(answers, rows, cols, timeout)
    # nothing likely fits as read: of the likeliest few readings of the likeliest count, the nearest to fitting
    first = [reading for _, reading in sorted(first, key=lambda found: found[0])]
    fixes = [(repair(r.candidates, rows, cols, timeout=timeout), r) for r in first[:RELEARN]]
    return min(fixes, key=lambda fix: len(fix[0].mismatched))[1]


def joined_answer(fitting: Sequence[tuple[float, Reading, bool, Reading | None]], joins) -> Reading | None:
    """The likeliest fitting reading if its answer is given; failing that, its grouping's plain reading, if given.

    A stretched reading (a pairing less likely than its grouping's
    likeliest, or an edge re-read) can score likelier than its grouping's
    likeliest pairing fitting as read (the plain reading) on seams that
    nearly tie, and then be refused: the pairing was wrong, not the
    grouping. The plain reading is then judged in turn, held to the
    checks a plain answer is held to, unless a third of its edges are torn
    between groups (`TORN`): then the grouping is in doubt too, and
    another grouping's plain reading or a torn one made answers up where
    the likeliest was refused (vintage 336, 350, lookalikes 346).

    Parameters
    ----------
    fitting : sequence of (unlikeliness, reading, stretched, plain)
        The readings that fit: how unlikely each is, whether it was
        stretched to fit, and its grouping's plain reading (None when that
        does not fit).
    joins : callable
        ``joins(reading, stretched)``: whether that reading's answer is
        given (its seams join, it is not torn).

    Returns
    -------
    Reading or None
        None when neither is given.

    Examples
    --------
    >>> plain = Reading([(1, -1, 1, -1)], [(0.9,) * 4], [])
    >>> stretched = Reading([(2, -2, 2, -2)], [(0.9,) * 4], [])
    >>> fitting = [(0.5, plain, False, plain), (0.4, stretched, True, plain)]
    >>> joined_answer(fitting, lambda reading, was_stretched: not was_stretched) is plain
    True
    >>> joined_answer(fitting, lambda reading, was_stretched: False) is None
    True
    """
    if not fitting:
        return None
    _, found, stretched, plain = min(fitting, key=lambda found: found[0])
    if joins(found, stretched):
        return found
    if plain is None or plain is found or torn(plain) >= TORN:
        return None
    return plain if joins(plain, False) else None


def likelier_count(answers: dict[int, Reading], rows: int, cols: int, timeout: float = 0.5) -> Reading:
    """Of readings of several numbers of halves that fit: the most halves, unless fewer are far surer (`SPLIT`).

    Scramble Squares print four figures, and merging two halves makes
    nearly anything fit; a puzzle that uses three leaves the edges of a
    half split in two torn between its two groups. So fewer halves win
    only when their edges are clearly surer of their groups, whichever
    number was tried first, and never when the most halves' answer fits
    their reading too (`folds`): then fewer halves read two figures as
    one, a half printed once or twice folded into a lookalike on both
    sides of the seam, and their reading fits more arrangements than the
    puzzle's (meadow 1488, witches 33: 18 and 13 against 5 and 2). The
    answer of the most halves fits either way.

    >>> import random
    >>> from solver.generate import planted
    >>> def read(tiles, sure):
    ...     return Reading(tiles=list(tiles), confidence=[(sure,) * 4] * len(tiles), candidates=[])
    >>> eight = read(planted(2, 2, rng=random.Random(1))[0].tiles, 0.5)
    >>> other = read(planted(2, 2, rng=random.Random(2))[0].tiles, 0.9)  # surer, and eight's answer does not fit it
    >>> folded = read([[c // 2 if abs(c) == 2 else c for c in tile] for tile in eight.tiles], 0.9)  # 2 read as 1
    >>> likelier_count({6: other, 8: eight}, 2, 2) is other, likelier_count({6: folded, 8: eight}, 2, 2) is eight
    (True, True)
    """
    most = answers[max(answers)]
    surer = [reading for reading in answers.values()
             if doubt(reading) < SPLIT * doubt(most) and not folds(most, reading, rows, cols, timeout)]
    return min(surer, key=doubt) if surer else most


def folds(finer: Reading, coarser: Reading, rows: int, cols: int, timeout: float = 0.5) -> bool:
    """Whether ``finer``'s answer also fits ``coarser``: the coarser reading is the finer with figures folded together.

    >>> tiles = [(1, -2, 2, -1)] * 4
    >>> folds(Reading(tiles, [], []), Reading([(1, -1, 1, -1)] * 4, [], []), 2, 2)
    True
    """
    grid = solve(Puzzle(tiles=tuple(map(tuple, finer.tiles)), rows=rows, cols=cols), timeout=timeout).solutions
    return bool(grid) and is_solution(Puzzle(tiles=tuple(map(tuple, coarser.tiles)), rows=rows, cols=cols), grid[0])


def _unlikeliness(cost: float, seam: float) -> float:
    """How unlikely a pairing that fits is: its seams and half its colour kinship (`KINSHIP`).

    Colour says which pairings are plausible at all (`IMPLAUSIBLE`), but
    figures of one palette share it (vintage art's witch and cat, truck
    and house): between pairings that fit, kinship favoured top with top
    and a seam's continuation, which belongs to one figure, tells better.

    >>> _unlikeliness(cost=3.0, seam=2.0)
    2.5
    """
    return seam + KINSHIP * (cost - seam)


def likely_halves(d: np.ndarray, profiles: np.ndarray | None = None) -> tuple[int, ...]:
    """How many halves to read a photo as, likeliest first: eight, and six when the groups say so.

    Scramble Squares print four figures, but a puzzle may use only three
    (one random 3x3 in 200 does). Read as eight halves, two of its six are
    split, and a split reading still fits now and then with some wrong
    pairing. Where the photo's halves fall into groups shows in how far
    apart groups are when merged (`vision.group.merge_heights` of the
    chains of nearest lookalikes): the merge that leaves fewer groups than
    the halves printed jumps. So eight are read unless the jump below six
    is clearly bigger than the jump below eight (`CLEAR` times: six first,
    then eight), or somewhat bigger (`LEAN` times: eight first, then six).
    When both fit, `likelier_count` weighs their doubt (`SPLIT`): the
    edges of a half split in two are torn between its two groups. Six are
    not read when they would join a figure's top and bottom in one group:
    two of the eight groups whose seams (``profiles``) agree clearly
    better across a seam than running the same way (`ACROSS`) meet at one
    waist from its two sides, where two parts of one half run alike.

    Parameters
    ----------
    d : (n, n) ndarray
        `half_distances` of a photo's edges.
    profiles : (n, samples, 3) ndarray, optional
        `seam_profiles` of the same edges.

    Returns
    -------
    halves : tuple of int
        Numbers of lookalike groups to read the photo as, in turn.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> centres = rng.normal(0, 10, (6, 5))  # six halves, six prints of each
    >>> points = np.repeat(centres, 6, axis=0) + rng.normal(0, 0.5, (36, 5))
    >>> likely_halves(np.linalg.norm(points[:, None] - points[None], axis=-1))
    (6, 8)
    """
    # merges never closer than two prints of one half: fewer chains than halves merge nothing
    alike = float(np.median((d + np.diag(np.full(len(d), np.inf))).min(axis=1)))
    heights = np.maximum(np.concatenate([merge_heights(_chains(d)[1]), np.zeros(10)]), alike)
    lean = (heights[6] / heights[7]) / (heights[8] / heights[9])  # jumps below six and below eight
    if lean <= LEAN or (profiles is not None and _joins_a_figure(d, profiles)):
        return (8,)
    return (6, 8) if lean > CLEAR else (8, 6)


def _joins_a_figure(d: np.ndarray, profiles: np.ndarray) -> bool:
    """Whether six groups would join two of the eight whose seams meet across one waist (see `likely_halves`)."""
    eight, six = neighbour_groups(d, 8), neighbour_groups(d, 6)
    across = _between(profile_gaps(profiles, across=False), eight) > ACROSS * _between(
        profile_gaps(profiles, across=True), eight)
    joined = six[np.array([np.flatnonzero(eight == g)[0] for g in range(eight.max() + 1)])]  # each group's six
    return bool((across & (joined[:, None] == joined[None, :])).any())


def grouping_looks(crops: Sequence[np.ndarray]) -> Looks:
    """`vision.describe.describe` of edge crops less their rows at the seam (`_RIM`)."""
    return describe([crop[len(crop) // _RIM:] for crop in crops])


def realigned(image: np.ndarray, corners: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Tiles' corners with the sides of doubtful tiles moved to where their edges look like others'.

    Every half shows on several tiles, so an edge far from every other
    tile's edges (`DOUBT` times the usual) is most likely cut off true:
    where tiles touch or lie on a busy table, corners found 3 to 5% of a
    side off show the neighbour or the table along a side and cut the
    figures short, and the edge joins a stranger's group. Each side of such
    a tile is moved in or out a little (`_STEPS`), one at a time and kept
    where its four edges come clearly nearer to the other tiles'
    (`half_distances`, `_KEEP`); the others stay as found. Each tile is cut
    once with a margin, and its sides move within that cut. Rendered
    photos read end to end came out valid on 123 of 140 instead of 120
    (seeds 11-30), 112 instead of 110 (seeds 31-50), none lost; at the
    true corners the same as before.

    Where the cards share a printed frame, a side found at its inner line
    (`framed_moves`: vintage's brown band on wood, 3 to 7% inside) is also
    moved out to where the frame says the cut is, on any tile, and kept
    where the tile's edges come nearer the others' (`FRAME_KEEP`): with
    many sides found inside, no tile stands out enough to be doubtful.
    Where nearly every side was found inside it, cards touching in a block
    whose frames meet in one band (`shared_frame_inset`), all sides are
    first moved out to the band's middle, and each may go back where the
    tile's edges say it was found at its cut.

    Parameters
    ----------
    image, corners
        The photo and its tiles' corners, as `seam_crops` takes them.

    Returns
    -------
    corners : list of (4, 2) float32 ndarrays

    Examples
    --------
    >>> from vision.render import render_photo
    >>> image, truth = render_photo(seed=20, art="critters", size=(1600, 1200))
    >>> true = [np.float32(t["corners"]) for t in truth["tiles"]]
    >>> found = list(true)
    >>> found[0] = _moved(true[0], np.array([0, 0, 0.05, 0]))  # S side found 9 px out: the table shows
    >>> round(float(np.abs(realigned(image, found)[0] - true[0]).max()))
    2
    """
    corners = [np.float32(c) for c in corners]
    profiles = frame_profiles(image, corners)
    inset = shared_frame_inset(corners, profiles)
    if inset:  # every card found inside its printed frame, as a block: moved out together, then judged as found
        corners = [_moved(c, np.full(4, inset)) for c in corners]
        profiles = frame_profiles(image, corners)
    reach = max(map(abs, _STEPS))
    wide = _cut_wide(image, corners, reach)
    moves = [np.zeros(4) for _ in corners]
    looks = grouping_looks(tile_crops([_window(tile, move) for tile, move in zip(wide, moves)]))
    near = _nearest_other(half_distances(looks))
    for t in np.flatnonzero(near.reshape(-1, 4).max(axis=1) > DOUBT * np.median(near)):
        best = near[4 * t:4 * t + 4].sum()
        for side in range(4):
            for step in _STEPS:
                move = moves[t] + np.eye(4)[side] * step
                if abs(move[side]) > reach:
                    continue
                score, trial = _moved_looks(wide, looks, t, move)
                if score < _KEEP * best:
                    best, moves[t], looks = score, move, trial
    framed = framed_moves(profiles).reshape(-1, 4)
    if not framed.any() and not inset:
        return [_moved(c, move) for c, move in zip(corners, moves)]
    # sides the cards' shared printed frame says were found inside it, kept where the edges agree: the tiles cut
    # again with room for the farthest move (the moves above stand as they were judged). Sides moved out with the
    # block (``inset``) that were found at their cut go back where the edges say so, now most tiles are at theirs
    wide = _cut_wide(image, corners, max(reach, float(framed.max()), inset))
    looks = grouping_looks(tile_crops([_window(tile, move) for tile, move in zip(wide, moves)]))
    for t in range(len(corners)) if inset else np.flatnonzero(framed.any(axis=1)):
        best = _moved_looks(wide, looks, t, moves[t])[0]
        for side, back in zip(*np.nonzero(np.stack([framed[t], np.full(4, inset)], axis=1))):
            move = moves[t].copy()
            move[side] = -inset if back else max(move[side], framed[t, side])
            score, trial = _moved_looks(wide, looks, t, move)
            if score < FRAME_KEEP * best:
                best, moves[t], looks = score, move, trial
    return [_moved(c, move) for c, move in zip(corners, moves)]


def shared_frame_inset(corners: Sequence[np.ndarray], profiles: np.ndarray) -> float:
    """How far (share of a side) every card was found inside a printed frame that runs on into the next card; 0 mostly.

    Cards laid touching with a printed frame the table's colour (vintage's
    brown band on wood) merge their frames into one band, and a block's
    cards are then all found inside it, 3 to 6% of a side, at a rule or the
    frame's inner edge. With most sides found so, the frame all cards share
    (`framed_moves`) is read inside it and nothing is moved, and the seams,
    read inside the cut, pair the wrong halves. What gives it away is that
    the tiles face each other across a narrow band (`facing_gaps`) with no
    cut at their sides: the colour runs on across them (`FRAME_STEP`),
    where a card's cut facing another across the table shows a clear step.
    The cards then meet in the band's middle, so every side is moved out by
    half its median width; the rim's sides share the frame and the inset.

    Parameters
    ----------
    corners : sequence of (4, 2) ndarrays
        The tiles' corners as found.
    profiles : (sides, rows, 3) ndarray
        `frame_profiles` of the same corners.

    Returns
    -------
    float
        The share of a side to move every side out by.

    Examples
    --------
    >>> square = np.float32([[0, 0], [100, 0], [100, 100], [0, 100]])
    >>> block = [square + np.float32([110 * col, 110 * row]) for row in range(3) for col in range(3)]
    >>> plain = np.full((36, 36, 3), 50.0)  # the colour runs on across every side
    >>> cut = plain.copy(); cut[:, 24:] = 80  # a step at every side: cards on a table
    >>> shared_frame_inset(block, plain), shared_frame_inset(block, cut)
    (0.05, 0.0)
    """
    gaps = facing_gaps(corners)
    facing = ~np.isnan(gaps)
    if facing.sum() < len(gaps) / 2:
        return 0.0
    width = float(np.median(gaps[facing]))
    if not 0.02 <= width <= 2 * FRAME_REACH:
        return 0.0
    found = round(_FRAME_CUT * _FRAME_SIDE)
    rows = round(0.02 * _FRAME_SIDE)
    step = np.linalg.norm(profiles[:, found - rows:found].mean(axis=1) - profiles[:, found:found + rows].mean(axis=1),
                          axis=-1)
    return round(width / 2, 4) if np.median(step[facing]) < FRAME_STEP else 0.0


def facing_gaps(corners: Sequence[np.ndarray]) -> np.ndarray:
    """Each side's distance (share of its length) to the side of another tile it faces, out to `FACING`; nan if none.

    >>> square = np.float32([[0, 0], [100, 0], [100, 100], [0, 100]])
    >>> facing_gaps([square, square + np.float32([108, 0])]).round(2).tolist()
    [nan, 0.08, nan, nan, nan, nan, nan, 0.08]
    """
    quads = np.float64(corners)
    ends = np.roll(quads, -1, axis=1)
    middles = ((quads + ends) / 2).reshape(-1, 2)
    lengths = np.linalg.norm(ends - quads, axis=-1).ravel()
    outward = middles - np.repeat(quads.mean(axis=1), 4, axis=0)
    outward /= np.linalg.norm(outward, axis=1, keepdims=True)
    offset = middles[None] - middles[:, None]  # from each side's middle to every other's
    along = (offset * outward[:, None]).sum(axis=-1) / lengths[:, None]
    aside = np.abs(offset[..., 0] * outward[:, None, 1] - offset[..., 1] * outward[:, None, 0]) / lengths[:, None]
    tile = np.arange(len(middles)) // 4
    faces = ((outward @ outward.T) < -0.95) & (tile[:, None] != tile[None]) & (along > -0.05) & (along < FACING) \
        & (aside < 0.25)
    nearest = np.where(faces, along, np.inf).min(axis=1)
    return np.where(np.isfinite(nearest), nearest, np.nan)


def _cut_wide(image: np.ndarray, corners: Sequence[np.ndarray], reach: float) -> list[np.ndarray]:
    """Each tile cut (`normalise`d) with a margin of ``reach`` of a side all round, for `_window` to move its sides
    within."""
    size = round(SIZE * (1 + 2 * reach))
    return normalise([rectify(image, _moved(inset(c), np.full(4, reach)), size=size) for c in corners], size=size)


def _moved_looks(wide: Sequence[np.ndarray], looks: Looks, t: int, move: np.ndarray) -> tuple[float, Looks]:
    """How far tile ``t``'s edges, its sides moved by ``move``, lie from the nearest other tile's, summed; and the
    photo's looks with that tile's edges so cut (`realigned`)."""
    mine = grouping_looks(tile_crops([_window(wide[t], move)]))
    trial = Looks(*(np.concatenate([every[:4 * t], own, every[4 * t + 4:]]) for every, own in zip(looks, mine)))
    own = half_distances(trial, edges=range(4 * t, 4 * t + 4))
    return float(own[:, np.arange(len(trial)) // 4 != t].min(axis=1).sum()), trial


def frame_profiles(image: np.ndarray, corners: Sequence[np.ndarray]) -> np.ndarray:
    """Each side's Lab colour across it, from `_FRAME_CUT` outside the side as found inward, in rows of half a
    percent of a side: the median along the middle half of the side.

    >>> image = np.full((300, 300, 3), 200, np.uint8); image[100:200, 100:200] = 50
    >>> p = frame_profiles(image, [np.float32([[100, 100], [200, 100], [200, 200], [100, 200]])])
    >>> p.shape, bool(p[0, 20, 0] > 60 > p[0, 28, 0])  # table outside the side, card inside
    ((4, 36, 3), True)
    """
    margin = round(_FRAME_CUT * _FRAME_SIDE)
    size = _FRAME_SIDE + 2 * margin
    rows = margin + round(FRAME_DEPTH * _FRAME_SIDE)
    middle = slice(margin + _FRAME_SIDE // 4, margin + 3 * _FRAME_SIDE // 4)
    profiles = []
    for c in corners:
        lab = to_lab(rectify(image, _moved(np.float32(c), np.full(4, _FRAME_CUT)), size=size))
        profiles += [np.median(np.rot90(lab, k=side)[:rows, middle], axis=1) for side in range(4)]  # side k on top
    return np.array(profiles)


def framed_moves(profiles: np.ndarray) -> np.ndarray:
    """How far (share of a side) each side seems found inside a printed frame the photo's cards share; 0 for most.

    A puzzle's cards share their printed frame (vintage cards' brown band
    and the thin line inside it), and the frame can be the table's colour,
    so a side is now and then found at its inner line, 3 to 7% inside the
    card: the figures are cut short there and the edge groups with a
    stranger or tips a near tie. The colour across the first `FRAME_DEPTH`
    of most sides as found is the frame's; a side whose colour matches it
    clearly better moved out (`FRAME_SURE`, `FRAME_TYPICAL`), by 2% to
    `FRAME_REACH`, is proposed that move. On art printed to the cut the
    colour there differs from side to side and a few moves are proposed in
    vain: `realigned` keeps a move only where the tile's edges agree.

    Parameters
    ----------
    profiles : (sides, rows, 3) ndarray
        `frame_profiles`.

    Returns
    -------
    moves : (sides,) ndarray, outward, shares of a side

    Examples
    --------
    >>> card = np.concatenate([np.full((24, 3), 20.0), np.full((4, 3), 60.0), np.full((8, 3), 90.0)])
    >>> inside = np.concatenate([card[6:], np.full((6, 3), 90.0)])  # found 6 rows (3%) in, past the frame
    >>> framed_moves(np.stack([card] * 5 + [inside])).tolist()
    [0.0, 0.0, 0.0, 0.0, 0.0, 0.03]
    """
    found = round(_FRAME_CUT * _FRAME_SIDE)
    depth, reach = round(FRAME_DEPTH * _FRAME_SIDE), round(FRAME_REACH * _FRAME_SIDE)
    frame = np.median(profiles[:, found:found + depth], axis=0)

    def gap(profile: np.ndarray, out: int) -> float:
        return float(np.linalg.norm(profile[found - out:found - out + depth] - frame, axis=-1).mean())

    as_found = np.array([gap(profile, 0) for profile in profiles])
    typical = float(np.median(as_found))
    moves = np.zeros(len(profiles))
    for i, profile in enumerate(profiles):
        gaps = [gap(profile, out) for out in range(reach + 1)]
        out = int(np.argmin(gaps))
        if out >= round(0.02 * _FRAME_SIDE) and gaps[out] < FRAME_SURE * as_found[i] and \
                gaps[out] <= FRAME_TYPICAL * typical:
            moves[i] = out / _FRAME_SIDE
    return moves


def _moved(corners: np.ndarray, move: np.ndarray) -> np.ndarray:
    """A quad with its sides N, E, S, W moved out by ``move`` (fractions of the side; in when negative).

    >>> _moved(np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]), np.array([0.1, 0, 0, -0.2])).tolist()
    [[2.0, -1.0], [10.0, -1.0], [10.0, 10.0], [2.0, 10.0]]
    """
    q = np.float32(corners)
    out = q.copy()
    centre = q.mean(axis=0)
    for side, step in enumerate(move):
        a, b = side, (side + 1) % 4
        outward = (q[a] + q[b]) / 2 - centre
        shift = outward / np.linalg.norm(outward) * step * np.linalg.norm(q[b] - q[a])
        out[a] += shift
        out[b] += shift
    return out


def _window(wide: np.ndarray, move: np.ndarray) -> np.ndarray:
    """The ``SIZE`` tile inside a tile cut with a margin, its sides N, E, S, W moved out by ``move``."""
    margin = (len(wide) - SIZE) / 2
    top, right, bottom, left = np.asarray(move) * SIZE
    x0, y0 = margin - left, margin - top
    sx, sy = SIZE / (SIZE + left + right), SIZE / (SIZE + top + bottom)
    return cv2.warpAffine(wide, np.float32([[sx, 0, -x0 * sx], [0, sy, -y0 * sy]]), (SIZE, SIZE),
                          flags=cv2.INTER_AREA)


def _nearest_other(d: np.ndarray) -> np.ndarray:
    """Each edge's distance to the nearest edge of another tile (edges 4 to a tile)."""
    tile = np.arange(len(d)) // 4
    return np.where(tile[:, None] == tile[None, :], np.inf, d).min(axis=1)


def half_distances(looks: Looks, truncate: float = 90.0, edges: Sequence[int] | None = None) -> np.ndarray:
    """Dissimilarity of edges as halves, for telling the two halves of one figure apart.

    `vision.describe.distances` weights pixels by nearness to the seam, which
    suits a library of clean examples; but at the seam the two halves of one
    figure show the same waist. Here the whole side's triangle counts, deeper
    pixels (head or feet) as much as the waist, and pixels count as much as
    the halves differ there (`telling_pixels`). Glare stays out, as there.
    Pixel differences are truncated at ``truncate`` delta-E: high enough
    that a shadowed print of one half stays nearer its own half than any
    other half. Colour histograms, which glare and shade shift, are left
    out, and so is letting templates slip a cell either way: on rendered
    photos both misgroup more edges than they save. But an edge may sit a
    cell nearer its seam than the edge it is measured to, when it fits
    clearly better so (`INWARD_GAIN`): a side found inside its card cuts the top
    of its figure off and the rest moves up the crop, so measured from such
    an edge its own half's prints stay nearest.

    Parameters
    ----------
    looks : Looks
        `grouping_looks` of one photo's edges.
    truncate : float
        Delta-E beyond which pixels differ no further.
    edges : sequence of int, optional
        The edges to measure from, all by default (`realigned` measures
        one tile's four against all).

    Returns
    -------
    d : (len(edges), n) float ndarray, 0 from an edge to itself; from row to column (`INWARD_GAIN`)
    """
    rows, cols = looks.lab.shape[1:3]
    mask = (looks.weight > 0) * edge_mask((rows, cols))
    lab = even_light(looks.lab, mask)
    weight = mask * telling_pixels(lab)
    edges = np.arange(len(lab)) if edges is None else np.asarray(edges)
    d = template_distances(lab[edges], weight[edges], lab, weight, truncate)
    # the edge's rows but the last on the other's but the first: the edge a row (3% of a side) nearer its seam
    up = template_distances(lab[edges, :-1], weight[edges, :-1], lab[:, 1:], weight[:, 1:], truncate)
    d = np.minimum(d, INWARD_GAIN * up)
    d[np.arange(len(edges)), edges] = 0
    return d


def even_light(lab: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Edge templates with each tile's lightness shifted to the photo's mean.

    A shadow or a bright reflection often covers a whole tile; its four sides
    share it, and the puzzle's tiles share their palette, so a tile whose
    sides are darker than the rest is taken as shaded.

    Parameters
    ----------
    lab : (n, rows, cols, 3) ndarray
        Lab templates, 4 per tile (edge ``4 * i + k`` is side ``k`` of tile ``i``).
    mask : (n, rows, cols) ndarray
        Where each template speaks for its side.

    Examples
    --------
    >>> lab = np.full((8, 1, 1, 3), 50.0); lab[4:, ..., 0] = 30  # tile 2 in shade
    >>> even_light(lab, np.ones((8, 1, 1)))[:, 0, 0, 0].tolist()
    [40.0, 40.0, 40.0, 40.0, 40.0, 40.0, 40.0, 40.0]
    """
    tiles = len(lab) // 4
    weight = mask.reshape(tiles, -1)
    light = (lab[..., 0].reshape(tiles, -1) * weight).sum(axis=1) / np.maximum(weight.sum(axis=1), 1e-9)
    out = lab.copy()
    out[..., 0] += np.repeat(light.mean() - light, 4)[:, None, None]
    return out


def telling_pixels(lab: np.ndarray) -> np.ndarray:
    """How much each pixel of an edge template tells halves apart, mean 1.

    What every half shares (a printed border, the background, a hat brim
    all four witches wear) says nothing about which half an edge shows,
    and drowns what does (the colour of a dress): so each pixel is weighed
    by the typical colour difference of the edges from their median there.
    On rendered photos this leaves a third fewer edges misgrouped.

    Parameters
    ----------
    lab : (n, rows, cols, 3) ndarray
        Lab templates of one photo's edges (`vision.describe.Looks.lab`).

    Returns
    -------
    weight : (rows, cols) ndarray

    Examples
    --------
    >>> lab = np.zeros((4, 2, 2, 3)); lab[:2, 0, 0] = 50  # edges differ at one pixel only
    >>> telling_pixels(lab).round(1).tolist()
    [[4.0, 0.0], [0.0, 0.0]]
    """
    spread = np.sqrt(((lab - np.median(lab, axis=0)) ** 2).sum(axis=-1).mean(axis=0))
    return spread / max(float(spread.mean()), 1e-9)


def neighbour_groups(d: np.ndarray, count: int, loner: float = math.inf) -> np.ndarray:
    """Group items by chains of nearest neighbours, merged into ``count`` groups.

    Every item is linked to its nearest neighbour, unless that is more than
    ``loner`` times the median distance from an item to its nearest
    neighbour away (a half printed once has no lookalike); the linked
    chains (nearly always one half each) are then merged by average linkage
    (`vision.group.cluster`) on their mean distances.

    Examples
    --------
    >>> d = np.array([[0, .1, .5, 2, 2], [.1, 0, .4, 2, 2], [.5, .4, 0, 2, 2],
    ...               [2, 2, 2, 0, .2], [2, 2, 2, .2, 0]])
    >>> neighbour_groups(d, 2).tolist()
    [0, 0, 0, 1, 1]
    >>> neighbour_groups(d, 3, loner=1.5).tolist()  # item 2: twice as far as most
    [0, 0, 1, 2, 2]
    """
    chain, between = _chains(d, loner)
    if len(between) <= count:
        return _first_appearance(chain)
    return _first_appearance(cluster(between, groups=count)[chain])


def _chains(d: np.ndarray, loner: float = math.inf) -> tuple[np.ndarray, np.ndarray]:
    """Chains of nearest neighbours (see `neighbour_groups`): each item's chain, and the chains' mean distances."""
    from scipy.sparse.csgraph import connected_components

    others = d + np.diag(np.full(len(d), np.inf))
    nearest = others.min(axis=1)
    linked = np.flatnonzero(nearest <= loner * np.median(nearest))
    links = np.zeros(d.shape, bool)
    links[linked, others.argmin(axis=1)[linked]] = True
    _, chain = connected_components(links, directed=False)
    between = _between(d, chain)
    np.fill_diagonal(between, 0)
    return chain, between


def _between(d: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Mean distance between the members of every two groups (the diagonal with each item's 0 to itself)."""
    count = int(labels.max()) + 1
    return np.array([[d[np.ix_(labels == a, labels == b)].mean() for b in range(count)] for a in range(count)])


def _first_appearance(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered 0, 1, ... in order of first appearance."""
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return np.argsort(np.argsort(first))[inverse]


def group_distances(d: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Mean distance from every item to the other members of every group (0 to its own if alone)."""
    count = int(labels.max()) + 1
    near = np.empty((len(d), count))
    for g in range(count):
        members = labels == g
        total = d[:, members].sum(axis=1) - np.where(members, np.diag(d), 0)
        size = members.sum() - members
        near[:, g] = total / np.maximum(size, 1)  # an edge alone in its group is 0 from it
    return near


def seam_crops(image: np.ndarray, corners: Sequence[np.ndarray], size: int = SEAM_SIZE) -> list[np.ndarray]:
    """Edge crops to read seams on: each tile cut ``size`` pixels square, colours as photographed.

    Where halves meet, a figure is cut at its waist. At the grouping's 96
    pixels the seam's profile (`_SEAM_ROWS`) reaches a tenth of a half
    deep, where head and feet already differ; cut three times finer it
    stays at the waist. Colours are left as photographed:
    the light normalisation's local contrast evening shifts the colours
    along a seam from tile to tile. Rendered photos (true corners, seeds 1
    to 30) came out valid on 197 of 210 instead of 180; normalised tiles
    of the same size paired halves right on 192. Tiles are trimmed as
    `vision.pipeline.photo_edges` trims them. Where the cards share a
    printed border, the crops are lined up on it and begin at its gap
    (`border_lined`), wherever each side was found.

    Parameters
    ----------
    image : ndarray
        The photo, BGR.
    corners : sequence of (4, 2) ndarrays
        Each tile's corners, NW NE SE SW in reading orientation.

    Returns
    -------
    crops : list of ndarrays
        4 per tile, N E S W, seam at the top (`vision.describe.tile_crops`).

    Examples
    --------
    >>> image = np.zeros((400, 400, 3), np.uint8)
    >>> crops = seam_crops(image, [np.float32([[10, 10], [110, 10], [110, 110], [10, 110]])])
    >>> len(crops), crops[0].shape
    (4, (144, 288, 3))
    """
    return seam_reading(image, corners, size)[0]


def seam_reading(image: np.ndarray, corners: Sequence[np.ndarray],
                 size: int = SEAM_SIZE) -> tuple[list[np.ndarray], int]:
    """`seam_crops`, and the depths their seams are read at to count doubtful ones (`joining_gaps`' slack).

    Lined up on a printed border (`border_lined`), the seams are read in
    its gap already: read a row or two deeper they reach its thin line, and
    a plain answer made up from halves grouped wrong passed the seam check
    (vintage 1710, 27 of 36 edges torn: 5 seams doubtful as read, 2 at the
    best depth). So they are counted as read (slack 1), `SLACK` otherwise.
    """
    wide, pad = _wide_seam_crops(image, corners, size)
    lined = border_lined(wide, pad, size)
    if lined is None:  # no printed border to line the seams up on: read where each side was found
        return tile_crops([rectify(image, inset(c), size=size) for c in corners]), SLACK
    return lined, 1


def border_lined(wide: Sequence[np.ndarray], pad: int, size: int = SEAM_SIZE) -> list[np.ndarray] | None:
    """Seam crops lined up on the printed border the cards share, cut from its gap; None with no such border.

    A printed border (witches, lookalikes, vintage) is a band at the cut
    that covers the figures, then a narrow gap where they show, then a thin
    line. At the true corners the seam is read in that gap (`_SEAM_ROWS`,
    past the trim), and a side found a row or two off reads the band or the
    line instead; touching cards are found at the band's inner edge, 3% of
    a side inside, and the seam is read past the line, where the two halves
    of a figure no longer meet. So each crop's rows beside the figure (its
    flanks) are lined up with the others' (`_line_up`), the gap is found
    in their common profile (`printed_gap`), and every crop is cut to
    begin there: the seam is read in the gap whatever the side found.

    Parameters
    ----------
    wide : sequence of ndarrays
        `_wide_seam_crops`: seam crops reaching ``pad`` rows past the
        trimmed side and as many further in.
    pad : int
        Those rows.
    size : int
        The seam crops' tile side.

    Returns
    -------
    crops : list of (size // 2, size, 3) ndarrays, or None
    """
    scale = size / SEAM_SIZE
    reach, depth, band = (round(rows * scale) for rows in (_LINE_UP, _BORDER_DEPTH, _BORDER_BAND))
    top = pad - reach - band
    shifts, common = _line_up(_flank_rows(wide, size), top, pad + 2 * depth, reach)
    gap = printed_gap(common, reach + band + depth)
    if gap is None:
        return None
    start = top + gap - 2  # the seam is read on rows 1 to 3 (`face_rows`): from the row before the gap's
    return [crop[start + shift:start + shift + size // 2] for crop, shift in zip(wide, shifts)]


def _wide_seam_crops(image: np.ndarray, corners: Sequence[np.ndarray], size: int) -> tuple[list[np.ndarray], int]:
    """Seam crops (`seam_crops`) reaching `BORDER_REACH` of a side past the trimmed side, and as far further in;
    and those rows."""
    pad = round(size * BORDER_REACH / (1 - 2 * INSET))
    crops = []
    for c in corners:
        wide = rectify(image, inset(c, INSET - BORDER_REACH), size=size + 2 * pad)
        crops += [np.rot90(wide, side)[:2 * pad + size // 2, pad:pad + size] for side in range(4)]
    return crops, pad


def _flank_rows(crops: Sequence[np.ndarray], size: int) -> np.ndarray:
    """Each crop's mean Lab colour row by row beside its figure: 8 to 15% of the side from either end."""
    flanks = np.r_[round(0.08 * size):round(0.15 * size), round(0.85 * size):round(0.92 * size)]
    return np.stack([to_lab(np.ascontiguousarray(crop[:, flanks])).mean(axis=1) for crop in crops])


def _line_up(rows: np.ndarray, start: int, stop: int, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """How far (rows, within ``reach``) each crop's ``rows`` sit from the others', and their common rows.

    Each crop's rows ``start`` to ``stop``, shifted, are matched to the
    median of all so shifted (Lab distance capped at 30), a few times over;
    the median shift is 0.
    """
    shifts = np.zeros(len(rows), int)
    for _ in range(3):
        common = np.median([one[start + shift:stop + shift] for one, shift in zip(rows, shifts)], axis=0)
        costs = np.array([[np.minimum(np.linalg.norm(one[start + s:stop + s] - common, axis=-1), 30).mean()
                           for s in range(-reach, reach + 1)] for one in rows])
        found = costs.argmin(axis=1) - reach
        found = np.clip(found - int(np.median(found)), -reach, reach)
        if (found == shifts).all():
            break
        shifts = found
    return shifts, np.median([one[start + shift:stop + shift] for one, shift in zip(rows, shifts)], axis=0)


def printed_gap(common: np.ndarray, depth: int, near: float = 20.0) -> int | None:
    """The row of the gap between a printed border's band and its thin line, in a photo's common flank rows.

    Read from the card's face inward (its colour past ``depth`` rows), a
    printed border shows as a band at least four rows unlike the face, a
    dip towards it (the gap), and a peak (the thin line) after which the
    face begins. The innermost such dip is the gap; art printed to the cut
    has none, and None is returned. Band and line must both differ from
    the face by more than ``near`` (Lab): on zero-label 1731-1770 printed
    borders' bands differ by 22-104 and their lines by 19-107, while a
    scanned sheet's paper past sports art printed to the cut mimics one at
    15-19 (every sports scan), and meadow's and critters' figures at lines
    of 12-14; seams read there lost sports 1779 and 1867 and meadow 1745.

    >>> face, band, faint = np.full(3, 90.0), np.full(3, 20.0), np.float32([73, 90, 90])
    >>> common = np.stack([band] * 8 + [face] + [band] * 2 + [face] * 21)  # band, gap, line, face
    >>> printed_gap(common, 12), printed_gap(np.stack([face] * 32), 12)
    (8, None)
    >>> printed_gap(np.stack([faint] * 8 + [face] + [faint] * 2 + [face] * 21), 12) is None  # paper, not a border
    True
    """
    gaps = np.linalg.norm(common - np.median(common[depth:], axis=0), axis=-1)
    for dip in range(depth - 1, 4, -1):  # the innermost first
        if gaps[dip] > min(gaps[dip - 1], gaps[dip + 1]):
            continue
        line = dip + 1 + int(np.argmax(gaps[dip + 1:dip + 5]))
        band = gaps[dip - 5:dip - 1].min()
        if gaps[line] > near and gaps[dip] < 0.85 * min(gaps[line], band) and band > near and \
                gaps[line + 1:line + 6].min() < max(near, 0.25 * gaps[line]):
            return dip
    return None


def seam_continuation(crops: Sequence[np.ndarray], samples: int = 24) -> np.ndarray:
    """How badly each edge's seam continues into each other's: 0 is seamless.

    Two edges meeting across a seam run in opposite directions, so one's
    colour profile along its seam is compared with the other's reversed.
    The profile is read at the card's cut edge (`_SEAM_ROWS`): a figure
    printed to the edge runs across any printed border there and is cut at
    its waist, while just past the border, where it was read before, a
    figure drawn clear of the seam (vintage, lookalikes) shows only the
    background. It starts where the card's face begins (`face_rows`), past
    any bevel or table a side found outside the card shows, and past the
    first row, which resampling blends with the table or a touching tile.
    Rendered photos, seeds 0-30, came out valid on 216 of 217 at the true
    corners instead of 208 (vintage 24 -> 31 of 31), and on 201 instead of
    197 at the found ones. Read it on `seam_crops`, cut finer than the
    grouping's.

    Examples
    --------
    >>> half = np.zeros((48, 96, 3), np.uint8); half[:, :48] = (0, 0, 255)
    >>> c = seam_continuation([half, half[:, ::-1], half])
    >>> bool(c[0, 1] < 0.05 and c[0, 2] > 0.5)
    True
    """
    return profile_gaps(seam_profiles(crops, samples), across=True)


def joining_gaps(crops: Sequence[np.ndarray], slack: int = SLACK, samples: int = 24) -> np.ndarray:
    """`seam_continuation`, each edge's seam read where the two join best: up to ``slack`` - 1 rows deeper.

    The seam check (`vision.joins.REFUSE`) asks whether an answer's two
    edges continue each other better than most others would. On art with a thin
    printed border at the cut (lookalikes, witches) the seam's first rows
    are that border's line, and sides found a row or two apart (0.7% of a
    side, within what detection gives) read one edge on the line and its
    partner on the ground inside it: a true seam then differs all along.
    Read at the depths where they join best, every pair alike, a true
    seam's partner is again among the likeliest, and a made-up one's
    colours still differ at every depth (`SLACK`). On a wide plain frame
    (vintage) many edges join well a row deeper, so `vision.joins`
    counts a seam doubtful only when it is so both ways.

    >>> half = np.zeros((48, 96, 3), np.uint8); half[:, :48] = (0, 0, 255)
    >>> deep = half.copy(); deep[:2] = 255  # the same half, its side found two rows outside
    >>> crops = [half, half[:, ::-1], deep[:, ::-1]]
    >>> c, j = seam_continuation(crops), joining_gaps(crops)
    >>> bool(c[0, 2] > 0.5 and j[0, 2] < 0.05)
    True
    """
    faces = _faces(crops)
    profiles = [_band_profiles(faces, samples, deeper) for deeper in range(slack)]
    return np.minimum.reduce([profile_gaps(one, across=True, others=other) for one in profiles for other in profiles])


def seam_profiles(crops: Sequence[np.ndarray], samples: int = 24) -> np.ndarray:
    """Each edge's Lab colour profile along its seam, ``samples`` long, read where the card's face begins (`face_rows`).

    >>> seam_profiles([np.zeros((48, 96, 3), np.uint8)]).shape
    (1, 24, 3)
    """
    return _band_profiles(_faces(crops), samples)


def _faces(crops: Sequence[np.ndarray]) -> list[np.ndarray]:
    """Each seam crop's middle (Lab, its flanks off) from the row where the card's face begins (`face_rows`)."""
    middles = [to_lab(crop[:, crop.shape[1] // 8: -(crop.shape[1] // 8)]) for crop in crops]
    return [lab[face:] for lab, face in zip(middles, face_rows(middles))]


def _band_profiles(faces: Sequence[np.ndarray], samples: int, deeper: int = 0) -> np.ndarray:
    """`seam_profiles` of the crops' ``faces`` (`_faces`), read ``deeper`` rows past where each begins."""
    band = np.stack([face[deeper:][:_SEAM_ROWS] for face in faces]).mean(axis=1)
    return np.stack([cv2.resize(profile[None], (samples, 1), interpolation=cv2.INTER_AREA)[0] for profile in band])


def face_rows(middles: Sequence[np.ndarray]) -> list[int]:
    """The first row of each seam crop (Lab, seam at the top) on the card's face: past rows the colour of the table.

    A side found a little outside its card puts the card's bevel and the
    table in the crop's first rows, and a seam read there joins nothing.
    Those rows are one colour across, the same on every crop of the photo,
    so where half the crops' first rows or more are, each crop's face
    begins at its first row (within `_FACE`) that is not: farther than
    `OUTSIDE` from that colour or from its own mean. Where the colour
    comes back further in, it is a border printed on the card (witches),
    and where the first rows differ, art printed to the cut: the seam is
    read from row 1 there, as at the true corners, where the one row
    blended with the table is left out.

    >>> lab = np.full((48, 96, 3), 80.0); lab[:3] = 20  # three rows of bevel
    >>> face_rows([lab, lab, lab[1:]])
    [3, 3, 2]
    """
    within = max(1, round(_FACE * middles[0].shape[1] * 4 / 3))  # rows: the middles are three quarters of a side
    means = [lab[:2 * within].mean(axis=1) for lab in middles]
    outside = np.median([rows[0] for rows in means], axis=0)
    table = [(np.linalg.norm(lab[:2 * within] - rows[:, None], axis=-1).mean(axis=1) < OUTSIDE)  # one colour across
             & (np.linalg.norm(rows - outside, axis=-1) < OUTSIDE) for lab, rows in zip(middles, means)]
    if np.mean([rows[0] for rows in table]) < 0.5:
        return [1] * len(middles)
    return [_face_row(rows, within) for rows in table]


def _face_row(table: np.ndarray, within: int) -> int:
    """The first row (``within`` at most) past a crop's leading rows the table's colour (``table``), 1 if that colour
    comes back further in: a border printed on the card, not the table."""
    face = within if table[:within].all() else int(np.argmin(table))
    return 1 if table[face:].any() else max(1, face)


def profile_gaps(profiles: np.ndarray, across: bool, others: np.ndarray | None = None) -> np.ndarray:
    """How badly every two seam profiles agree, 0 to 1: across a seam (one reversed), or running the same way.

    ``others``: the second edge's profiles read elsewhere (`joining_gaps`); ``profiles`` by default.

    >>> p = np.zeros((2, 4, 3)); p[0, :2] = p[1, 2:] = 60  # a profile and its mirror image
    >>> profile_gaps(p, across=True)[0, 1].item(), profile_gaps(p, across=False)[0, 1].item()
    (0.0, 1.0)
    """
    others = profiles if others is None else others
    other = others[:, ::-1] if across else others
    gap = np.sqrt(((profiles[:, None] - other[None]) ** 2).sum(axis=-1))
    return np.minimum(gap, 30).mean(axis=-1) / 30


def ranked_pairings(labels: np.ndarray, looks: Looks, continuation: np.ndarray,
                    d: np.ndarray | None = None, profiles: np.ndarray | None = None) -> list:
    """Ways to pair the groups into figures, likeliest first, as (cost, seam cost, pairs).

    A pair of groups is likelier the more their colours agree (Hellinger
    distance of their mean histograms) and the better their seams continue
    into each other. With an odd number of groups one is left unpaired.
    Given the edges' `half_distances` ``d`` (and their `seam_profiles`),
    two groups as alike as prints of one half are no figure (`one_half`):
    pairings that pair them cost infinitely much.
    """
    count = int(labels.max()) + 1
    hist = np.stack([looks.hist[labels == g].mean(axis=0) for g in range(count)]).astype(np.float64)
    kinship = np.sqrt(np.clip(1 - np.sqrt(hist) @ np.sqrt(hist).T, 0, 1))
    seam = _between(continuation, labels)
    cost = kinship + seam
    if d is not None:
        cost[one_half(d, labels, profiles)] = np.inf
    return sorted((float(sum(cost[a, b] for a, b in pairs)), float(sum(seam[a, b] for a, b in pairs)), pairs)
                  for pairs in _matchings(list(range(count))))


def one_half(d: np.ndarray, labels: np.ndarray, profiles: np.ndarray | None = None) -> np.ndarray:
    """Which groups are as alike as prints of one half: a half split in two, not two halves of a figure.

    A figure's top and bottom are different drawings, but a grouping that
    splits one half pairs its two parts cheaply (their colours and seams
    agree), and the split reading can still fit. Groups nearer each other
    than `SAME` times the typical distance within a group, and each the
    other's nearest (a split half has one other part), are taken for one
    half. So are two groups whose seams (``profiles``, `seam_profiles`)
    agree far better running the same way than across a seam (`SIDE`): a
    half and its partner show the two sides of one waist, so their seams
    run in opposite directions, while two prints of one half run alike
    (the serengeti shot's giraffe neck, split by what stood beside it).

    Examples
    --------
    >>> d = np.array([[0, .1, .12, 1], [.1, 0, .1, 1], [.12, .1, 0, 1], [1, 1, 1, 0.]])
    >>> one_half(d, np.array([0, 0, 1, 2])).astype(int).tolist()
    [[0, 1, 0], [1, 0, 0], [0, 0, 0]]
    """
    count = int(labels.max()) + 1
    between = _between(d, labels)
    within = [between[g, g] * (labels == g).sum() / ((labels == g).sum() - 1) for g in range(count)
              if (labels == g).sum() > 1]  # the diagonal's zeros left out
    np.fill_diagonal(between, np.inf)
    nearest = between.argmin(axis=1)
    mutual = nearest[nearest] == np.arange(count)
    alike = np.zeros((count, count), bool)
    for a in np.flatnonzero(mutual):
        alike[a, nearest[a]] = bool(within) and between[a, nearest[a]] < SAME * float(np.median(within))
    if profiles is not None:
        alike |= _between(profile_gaps(profiles, across=False), labels) < SIDE * _between(
            profile_gaps(profiles, across=True), labels)
        np.fill_diagonal(alike, False)
    return alike


def _matchings(groups: list):
    """Every way to split ``groups`` into pairs (one left alone when odd)."""
    if len(groups) < 2:
        yield []
        return
    if len(groups) % 2:
        for alone in groups:
            yield from _matchings([g for g in groups if g != alone])
        return
    first, rest = groups[0], groups[1:]
    for i, other in enumerate(rest):
        for pairs in _matchings(rest[:i] + rest[i + 1:]):
            yield [(first, other)] + pairs


def _confidences(near: np.ndarray, pairing: list) -> tuple[list, np.ndarray]:
    """The paired groups' codes, and each edge's confidence in each of them (softmax of `SHARPNESS`)."""
    code = {}
    for figure, (a, b) in enumerate(pairing, 1):
        code[a], code[b] = figure, -figure
    groups = sorted(code)
    score = np.exp(-(near[:, groups] - near[:, groups].min(axis=1, keepdims=True)) / SHARPNESS)
    return [code[g] for g in groups], score / score.sum(axis=1, keepdims=True)


def _reading(near: np.ndarray, pairing: list) -> Reading:
    """The signed reading that ``pairing`` gives, each edge read as its nearest group.

    Each edge's one candidate is its nearest group: with no library a
    second-nearest group is no evidence worth re-reading an edge for. Let
    `solver.repair` re-read edges between groups and it fitted the makers'
    shots with repeated tiles, which have no solution, by re-reading two to
    six of them. One edge re-read (`reread`) is tried only for a grouping's
    likeliest pairing, and only when it alone would be taken far-fetched.
    """
    codes, confidence = _confidences(near, pairing)
    nearest = confidence.argmax(axis=1)
    return _as_reading([codes[g] for g in nearest], confidence[np.arange(len(near)), nearest])


def _as_reading(codes: Sequence[int], confidence: Sequence[float]) -> Reading:
    """A `Reading` of one code per edge, edges 4 to a tile, each its own one candidate."""
    tiles = [[[(int(codes[e]), float(confidence[e]))] for e in range(i, i + 4)] for i in range(0, len(codes), 4)]
    return Reading(tiles=[tuple(side[0][0] for side in tile) for tile in tiles],
                   confidence=[tuple(round(side[0][1], 4) for side in tile) for tile in tiles],
                   candidates=tiles)


def reread(near: np.ndarray, pairing: list, rows: int, cols: int, timeout: float = 0.5) -> Reading | None:
    """``pairing``'s reading with one doubtful edge read as its second-nearest group, when that fits.

    A half printed only once or twice has few prints to gather its edges,
    and one of them, shadowed or found a little off, may sit nearer another
    half's group: then the likeliest pairing fits nowhere as read, while
    some far-fetched pairing that happens to fit is taken (witches 50: the
    true pairing 0.34 likelier). The edges likeliest to be misread, those
    whose second-nearest group is nearest (`REREAD` of them), are re-read
    one at a time; the first re-reading that fits is returned. Only one
    edge: re-reading several fitted the makers' shots with repeated tiles.

    Parameters
    ----------
    near : (n, groups) ndarray
        `group_distances` of the edges.
    pairing : list of (group, group)
        Which groups are the two halves of each figure.
    rows, cols : int
        The puzzle's grid.
    timeout : float
        Seconds the solver may spend on each re-reading.

    Returns
    -------
    Reading or None
        The re-reading, the edge at its (lower) confidence in its new group.

    Examples
    --------
    >>> import random
    >>> from solver.generate import planted
    >>> puzzle, _ = planted(3, 3, rng=random.Random(2))
    >>> codes = np.ravel(puzzle.tiles)  # figure k's halves are groups 2k - 2 (+k) and 2k - 1 (-k)
    >>> near = np.ones((36, 8)); near[range(36), 2 * abs(codes) - 2 + (codes < 0)] = 0.1
    >>> near[0, 0], near[0, 2] = 0.3, 0.2  # the first edge, a +1, a little nearer the +2s
    >>> pairing = [(0, 1), (2, 3), (4, 5), (6, 7)]
    >>> _fits(_reading(near, pairing), 3, 3, 0.5), reread(near, pairing, 3, 3).tiles == list(puzzle.tiles)
    (False, True)
    """
    codes, confidence = _confidences(near, pairing)
    order = np.argsort(-confidence, axis=1)
    read = [codes[g] for g in order[:, 0]]
    sure = confidence[np.arange(len(near)), order[:, 0]]
    second = confidence[np.arange(len(near)), order[:, 1]]
    for edge in np.argsort(-second)[:REREAD]:
        trial = _as_reading([codes[order[e, 1]] if e == edge else read[e] for e in range(len(near))],
                            np.where(np.arange(len(near)) == edge, second, sure))
        if _fits(trial, rows, cols, timeout):
            return trial
    return None


def doubt(reading: Reading) -> float:
    """How unsure a reading's edges are of their groups: -log confidence, summed over the edges.

    >>> round(doubt(Reading(tiles=[(1, -1, 2, -2)], confidence=[(1.0, 1.0, 0.5, 0.5)], candidates=[])), 3)
    1.386
    """
    return float(-np.log(np.array(reading.confidence)).sum())


def torn(reading: Reading) -> float:
    """The share of a reading's edges torn between groups: less sure of their own than of the others together.

    Where two halves of one colour share a group while another half splits
    in two, the split half's edges sit between its two parts, and the
    mixed group's members far from one another: a third of the edges or
    more end up less sure of their group than of the others. Such a
    grouping that fits only with a stretched reading (`TORN`) is a guess.

    >>> round(torn(Reading(tiles=[(1, -1, 2, -2)], confidence=[(0.9, 0.9, 0.45, 0.6)], candidates=[])), 2)
    0.25
    """
    return float(np.mean(np.array(reading.confidence) < 0.5))


def refusal(reading: Reading) -> int:
    """How many doubtful seams (`vision.joins`) refuse the answer of a reading: fewer when it is torn (`TORN`).

    Halves grouped wrong (two of one colour merged while another splits)
    leave a third of the edges or more torn between groups, and such a
    grouping now and then fits as read with its likeliest pairing: then
    the answer is not stretched, and only its seams can tell. A right
    answer whose grouping is torn as much still joins at nearly every seam
    (the pnikonowicz shot, 27 edges torn: none doubtful), so a torn
    reading's answer is refused at `TORN_REFUSE` doubtful seams, not at
    `vision.joins.REFUSE`.

    >>> sure = Reading(tiles=[(1, -1, 2, -2)], confidence=[(0.9, 0.9, 0.9, 0.6)], candidates=[])
    >>> torn_apart = Reading(tiles=[(1, -1, 2, -2)], confidence=[(0.9, 0.9, 0.45, 0.4)], candidates=[])
    >>> refusal(sure), refusal(torn_apart)
    (5, 4)
    """
    return TORN_REFUSE if torn(reading) >= TORN else REFUSE


def _fits(reading: Reading, rows: int, cols: int, timeout: float) -> bool:
    """True when the reading's first choices solve the puzzle as they are."""
    try:
        return bool(solve(Puzzle(tiles=tuple(reading.tiles), rows=rows, cols=cols), timeout=timeout).solutions)
    except ValueError:  # a code with no partner on any tile
        return False
