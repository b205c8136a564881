"""A card's sides are found at its face, not at the band of its cut side below it (`vision.corners.refine`).

Seen from in front, a card's cut side shows as a thin band under the
sides facing down the photo; the band's step against the table may be
stronger than the face's against the band.
"""
import cv2
import numpy as np

from vision.corners import refine

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
