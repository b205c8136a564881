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
