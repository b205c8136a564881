"""Worn vintage cards are found out to their cut edge, not inside their printed border.

The cream cards have a worn brown margin, near the wood's colour, outside a
printed rule: the table mask stops at the rule, up to a tenth of a side
inside the card, further than the strip along each side reaches. Where all
but one side find a cut edge past the strip (a border runs round the card;
a shadow lies beside one or two sides), `vision.corners.refine` takes them.
"""
import cv2
import numpy as np

from vision.detect import find_tiles
from vision.render import match_tiles, render_photo


def test_vintage_tiles_are_not_found_inside_their_border():
    # Loose grid on wood (seed 17): before, four tiles were found 4-7% of
    # a side inside the card on two sides (side ratios 0.95-0.97).
    image, truth = render_photo(seed=17, art="vintage", difficulty="normal", layout="loose", size=(1600, 1200))
    tiles = find_tiles(image)
    assert len(tiles) == 9
    for quad, match in zip(tiles, match_tiles(truth, tiles)):
        card = np.float32(truth["tiles"][match.tile]["corners"])
        assert np.sqrt(cv2.contourArea(quad) / cv2.contourArea(card)) > 0.97
