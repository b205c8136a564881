"""A card's sides are found at its face, not at the band of its cut side below it (`vision.corners.refine`).

Seen from in front, a card's cut side shows as a thin band under the
sides facing down the photo; the band's step against the table may be
stronger than the face's against the band. A printed frame the table's
colour stops the mask at its inner edge: the card is found out at its cut edge.
"""
import cv2
import numpy as np

import vision.corners
from vision.corners import contrast, contrasts, cut_edges, refine

TABLE = (140, 60, 40)  # a blue cloth
BOARD = (120, 138, 155)  # the card's cut side: grey-brown board
FACE = (60, 200, 230)  # yellow art, its step against the board weaker than the board's against the table
CARD = np.float32([[100, 100], [300, 100], [300, 300], [100, 300]]) - 0.5


def _card(band: int, rule: int | None = None) -> np.ndarray:
    """A 200 px card at (100, 100) on a plain table, its cut side showing ``band`` px thick below it,
    and a printed rule of the board's colour ``rule`` px inside every side."""
    image = np.full((400, 400, 3), TABLE, np.float32)
    cv2.rectangle(image, (100, 300), (299, 299 + band), BOARD, -1)
    cv2.rectangle(image, (100, 100), (299, 299), FACE, -1)
    if rule is not None:
        cv2.rectangle(image, (100 + rule, 100 + rule), (299 - rule, 299 - rule), BOARD, 2)
    cv2.circle(image, (200, 200), 40, (30, 30, 160), -1)  # a figure
    image = np.clip(image + np.random.default_rng(0).normal(0, 3, image.shape), 0, 255)
    return cv2.GaussianBlur(image.astype(np.uint8), (0, 0), 0.8)


def test_the_bottom_side_is_found_at_the_face_above_its_cut_side():
    image = _card(band=3)
    found = refine(image, CARD + [[0, 0], [0, 0], [0, 3], [0, 3]])  # as a mask holding the band has it
    assert np.abs(found - CARD).max() < 0.8


def test_a_printed_rule_as_far_in_on_every_side_is_no_cut_side():
    image = _card(band=0, rule=3)
    found = refine(image, CARD + 1)
    assert np.abs(found - CARD).max() < 0.8


WOOD = (60, 100, 145)
FRAME = (30, 55, 85)  # a printed frame darker than the wood
PAPER = (170, 210, 235)
FRAMED_FACE = CARD + np.float32([[8, 8], [-8, 8], [-8, -8], [8, -8]])  # the frame's inner edge, 4% of a side in


def _framed_card() -> np.ndarray:
    """A 200 px card at (100, 100) on wood with grain along it: a printed frame 8 px wide near the
    wood's colour, rubbed off at the cut edge along 3/8 of each side; a printed rule inside it."""
    rng = np.random.default_rng(1)
    image = np.full((400, 400, 3), WOOD, np.float32)
    image += cv2.GaussianBlur(rng.normal(0, 8, (400, 1)).astype(np.float32), (1, 0), 1.0)[..., None]  # grain
    cv2.rectangle(image, (100, 100), (299, 299), FRAME, -1)
    for i in (30, 80, 130):  # worn: the cut edge shows on too few normals for `_cut_edge` (70%)
        for x, y, w, h in ((100 + i, 100, 20, 3), (100 + i, 297, 20, 3), (100, 100 + i, 3, 20), (297, 100 + i, 3, 20)):
            image[y:y + h, x:x + w] = WOOD
    cv2.rectangle(image, (108, 108), (291, 291), PAPER, -1)
    cv2.rectangle(image, (112, 112), (287, 287), (60, 60, 90), 1)
    cv2.circle(image, (200, 200), 40, (30, 30, 160), -1)  # a figure
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255)
    return cv2.GaussianBlur(image.astype(np.uint8), (0, 0), 0.8)


def test_a_frame_the_table_colour_is_crossed_to_the_cut_edge():
    # The mask stops at the frame's inner edge on every side, as on worn vintage card on wood.
    found = refine(_framed_card(), FRAMED_FACE + 1, framed=True)
    assert np.abs(found - CARD).max() < 1.0


def test_a_framed_card_sought_from_its_cut_edge_is_found_there():
    # The frame's inner edge, far stronger than the cut edge, draws the sides in; they are moved out again.
    found = refine(_framed_card(), CARD + 1, framed=True)
    assert np.abs(found - CARD).max() < 0.8


def _worn_card(shadow: bool) -> np.ndarray:
    """A 200 px card at (100, 100) on wood: a frame 8 px wide the wood's colour nearly, a paper face
    inside it, and, if ``shadow``, a drop shadow's rim 6 px past every side."""
    image = np.full((400, 400, 3), WOOD, np.float32)
    if shadow:
        cv2.rectangle(image, (94, 94), (305, 305), (40, 70, 100), -1)
    cv2.rectangle(image, (100, 100), (299, 299), FRAME, -1)
    cv2.rectangle(image, (108, 108), (291, 291), PAPER, -1)
    image = np.clip(image + np.random.default_rng(2).normal(0, 3, image.shape), 0, 255)
    return cv2.GaussianBlur(image.astype(np.uint8), (0, 0), 0.8)


def test_a_side_at_the_cut_edge_is_not_moved_onto_a_shadows_rim_when_ruled():
    # The frame's inner edge a frame's width inside tells a side found at the cut edge.
    image = _worn_card(shadow=True)
    assert np.abs(cut_edges(image, CARD) - CARD).max() > 4  # unruled, out onto the shadow's rim
    assert np.abs(cut_edges(image, CARD, ruled=True) - CARD).max() < 0.5


def test_a_side_at_the_frames_inner_edge_is_moved_out_when_ruled():
    # No step a frame's width inside it, and the frame's inner edge inside the others: the side is
    # at the frame's inner edge, the cut edge past it. Found there all round, the card shows no frame.
    moved = FRAMED_FACE.copy()
    moved[1:3, 0] = CARD[1:3, 0]  # the east side at the cut edge
    found = cut_edges(_worn_card(shadow=False), moved, ruled=True)
    assert np.abs(found - CARD).max() < 1.0
    assert np.abs(cut_edges(_worn_card(shadow=False), FRAMED_FACE, ruled=True) - FRAMED_FACE).max() < 0.5


def _rubbed_card() -> np.ndarray:
    """A 200 px card at (100, 100) on wood: a worn frame 8 px wide nearly the wood's colour, a paper
    face inside it, the east frame's inner edge rubbed into a ramp 6 px wide, and a line of the
    wood's grain 12 px past the east side."""
    worn = np.float32((48, 85, 125))
    image = np.full((400, 400, 3), WOOD, np.float32)
    cv2.line(image, (312, 60), (312, 340), (45, 80, 120), 2)
    cv2.rectangle(image, (100, 100), (299, 299), worn.tolist(), -1)
    cv2.rectangle(image, (108, 108), (291, 291), PAPER, -1)
    for i, x in enumerate(range(286, 292)):
        image[108:292, x] = np.float32(PAPER) + (i + 1) / 7 * (worn - np.float32(PAPER))
    image = np.clip(image + np.random.default_rng(2).normal(0, 3, image.shape), 0, 255)
    return cv2.GaussianBlur(image.astype(np.uint8), (0, 0), 0.8)


def test_a_side_at_a_worn_cut_edge_is_not_moved_onto_the_grain_when_ruled():
    # The east frame's rubbed inner edge, one broad step with no dip, is sharper than the worn cut
    # edge: the side is at the cut edge, not at a rule (hard vintage 2385: moved 7% out).
    assert np.abs(cut_edges(_rubbed_card(), CARD, ruled=True) - CARD).max() < 0.5


def test_a_side_at_the_frames_inner_edge_is_moved_out_across_its_frame_when_banded():
    # The band out to the cut edge is the frame, coloured as inside the other sides: the move stands.
    moved = FRAMED_FACE.copy()
    moved[1:3, 0] = CARD[1:3, 0]  # the east side at the cut edge
    found = cut_edges(_worn_card(shadow=False), moved, ruled=True, banded=True)
    assert np.abs(found - CARD).max() < 1.0


def test_a_side_at_the_frames_inner_edge_is_not_moved_across_the_next_cards_frame_when_banded():
    # Worn cards touching: no step where their frames meet, so the cut edge sought past the east side
    # is the next card's face, a frame's width past the seam (hard vintage touching 4051: 4-5% out).
    image = np.full((400, 600, 3), WOOD, np.float32)
    for x in (100, 300):
        cv2.rectangle(image, (x, 100), (x + 199, 299), FRAME, -1)
        cv2.rectangle(image, (x + 8, 108), (x + 191, 291), PAPER, -1)
    image = cv2.GaussianBlur(np.clip(image + np.random.default_rng(2).normal(0, 3, image.shape), 0, 255)
                             .astype(np.uint8), (0, 0), 0.8)
    found = CARD.copy()
    found[1:3, 0] -= 8  # the east side at its frame's inner edge
    assert np.abs(cut_edges(image, found, ruled=True) - found).max() > 12  # ruled only: past the seam
    assert np.abs(cut_edges(image, found, ruled=True, banded=True) - found).max() < 0.5


def test_a_side_moved_onto_a_shadows_rim_alone_reads_no_other_side_for_a_frame(monkeypatch):
    # Only the east side would move (a shadow's rim past it); the frame's inner edge inside it says it
    # lies at the cut edge already, so no other side needs reading to know the card is framed.
    image = np.full((400, 400, 3), WOOD, np.float32)
    cv2.rectangle(image, (100, 100), (305, 299), (40, 70, 100), -1)  # the rim, 6 px past the east side only
    cv2.rectangle(image, (100, 100), (299, 299), FRAME, -1)
    cv2.rectangle(image, (108, 108), (291, 291), PAPER, -1)
    image = cv2.GaussianBlur(np.clip(image + np.random.default_rng(2).normal(0, 3, image.shape), 0, 255)
                             .astype(np.uint8), (0, 0), 0.8)
    read = []
    framed_inside = vision.corners._framed_inside
    monkeypatch.setattr(vision.corners, "_framed_inside", lambda *args: read.append(args) or framed_inside(*args))
    assert np.abs(cut_edges(image, CARD) - CARD).max() > 4  # unruled, out onto the rim
    assert np.abs(cut_edges(image, CARD, ruled=True) - CARD).max() < 0.5
    assert len(read) == 1


def test_contrasts_read_at_once_are_each_sides_contrast():
    image = _framed_card()
    spans = [((start, end - start), start, end) for quad in (CARD, FRAMED_FACE, CARD * 1.01 + 3)
             for start, end in zip(quad, np.roll(quad, -1, axis=0))]
    for samples in (48, 24):
        assert contrasts(image, spans, samples).tolist() == [contrast(image, *span, samples) for span in spans]


def test_the_face_is_read_off_the_strips_the_sides_are_found_on(monkeypatch):
    # The last round reads each side's strip once: the face's edge (`_face_sides`, on the side
    # facing down and the one opposite) comes off the same strip as the side's edge, the same
    # corners as two reads of it gave, and two strips fewer to read (8 of 10 a tile).
    read = []
    real = vision.corners._edge_lines
    monkeypatch.setattr(vision.corners, "_edge_lines", lambda *a, **k: read.append(k.get("face")) or real(*a, **k))
    found = refine(_card(4), CARD + 6)
    assert np.abs(found - CARD).max() < 1.5
    assert len(read) == 8 and read[4:] == [True, False, True, False]


def test_a_sides_straight_line_is_numpys_least_squares_line():
    """`vision.corners._straight`, the line `_cut_edge` and `_outermost_line` lay through a side's
    steps, is `np.polyfit`'s line of degree one through the rows kept, on every normal."""
    rng = np.random.default_rng(5)
    for normals in (2, 9, 48, 77):
        rows = rng.integers(0, 40, normals)
        kept = rng.random(normals) < 0.7
        kept[:2] = True
        x = np.arange(normals)
        expected = np.polyval(np.polyfit(x[kept], rows[kept], 1), x)
        assert np.allclose(vision.corners._straight(rows, kept), expected, rtol=0, atol=1e-9)


def _fence_right(points: np.ndarray) -> np.ndarray:
    """A neighbour's gap past x = 290 (as `vision.corners.fence` marks points on other tiles)."""
    return points[..., 0] > 290


def test_a_tiles_strips_read_side_by_side_are_each_sides_strip_read_alone():
    """`vision.corners._strips` reads a tile's four sides (or `_squared`'s six tries) in one remap, blur
    and step profile: each side's steps, strong and faint peaks are those of its strip read alone."""
    image = _card(3)
    quad = CARD + np.float32([[3, -2], [-4, 1], [2, 5], [-1, -3]])
    ends = np.roll(quad, -1, axis=0)
    for fence, outermost in ((None, True), (_fence_right, True), (_fence_right, False)):
        together = vision.corners._strips(image, quad, ends, 9.5, fence, outermost)
        for k, strip in enumerate(together):
            alone = vision.corners._strips(image, quad[k:k + 1], ends[k:k + 1], 9.5, fence, outermost)[0]
            for mine, own in zip(strip, alone):
                assert np.array_equal(mine, own) if mine is not None else own is None


def test_steps_across_spans_read_at_once_are_each_spans_and_none_where_cut():
    """`vision.corners._steps_across_all`: one remap for all spans, each span's median profile as read
    alone, fenced rows flat, and None in the place of a span the photo's edge cuts."""
    image = _card(3)
    quad = CARD + np.float32([[3, -2], [-4, 1], [2, 5], [-1, -3]])
    sides = list(zip(quad, np.roll(quad, -1, axis=0))) + [(np.float32([2, 50]), np.float32([2, 150]))]
    spans = [((start, end - start), start, end) for start, end in sides]
    at = np.arange(-12, 12, 0.5, dtype=np.float32)
    together = vision.corners._steps_across_all(image, spans, at, _fence_right)
    assert together[4] is None
    for span, profile in zip(spans[:4], together):
        assert np.array_equal(profile, vision.corners._steps_across_all(image, [span], at, _fence_right)[0])


def test_a_cut_edge_is_sought_on_the_rows_near_each_moved_line_as_on_all_rows():
    """`vision.corners._cut_edge` reads only the four rows round each moved line on each normal: the
    same lines as the shares of every row within 1.5 of it (the dense reading it replaced)."""
    def dense(faint, line, width, share=0.7):
        rows = np.arange(len(faint))[:, None]
        outs = np.arange(2, int(width) + 1)[:, None, None]
        on = line > 0
        while on.sum() >= 2 and len(outs) > 2:
            straight = vision.corners._straight(line, on)
            top = int(np.clip(straight.max(), 1, len(faint) - 1))
            near = faint[1:top + 1] & (np.abs(rows[1:top + 1] - (straight - outs)) <= 1.5)
            shares = near.any(axis=1)[:, on].mean(axis=1)
            found = np.nonzero((shares >= share) & (shares >= 2 * np.median(shares)))[0]
            if not len(found):
                return line
            hits = near[found[0]]
            line, on = np.where(hits.any(axis=0), np.argmax(hits, axis=0) + 1, 0), hits.any(axis=0)
        return line

    rng = np.random.default_rng(7)
    moved = 0
    for _ in range(300):
        rows, normals = rng.integers(12, 60), rng.integers(8, 49)
        faint = rng.random((rows, normals)) < rng.uniform(0.01, 0.15)
        inner = rng.integers(rows // 2, rows - 1)
        tilt = rng.uniform(-0.1, 0.1)
        for out in rng.integers(2, inner, rng.integers(0, 3)):  # lines of faint steps outside the side
            at = np.clip(np.rint(inner - out + tilt * np.arange(normals)), 0, rows - 1).astype(int)
            faint[at, np.arange(normals)] |= rng.random(normals) < 0.9
        line = np.where(rng.random(normals) < 0.9, inner, 0)
        width = rng.uniform(3, rows)
        expected = dense(faint, line, width)
        assert np.array_equal(vision.corners._cut_edge(faint, line, width), expected)
        moved += not np.array_equal(expected, line)
    assert moved > 50  # the lines were found and moved, not only left
