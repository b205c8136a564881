"""Reading edges against a library: codes, confidences and ranked candidates.

Each edge of the photo is compared (`vision.describe.distances`) with every
stored edge of the library; a code's distance is that of its nearest stored
example. A softmax over the codes' distances gives each code a confidence,
so an edge reads as its nearest code, and an edge that looks like two codes
says so: its ranked candidates feed `solver.repair`, which may read it as
the second one when only that fits.
"""
from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from .describe import TRUNCATE, Looks, describe, distances
from .library import Library

SHARPNESS = 0.05  # distance difference that makes one code e times likelier
SHIFT = 1  # template pixels (3% of a tile's side) a figure may sit off where corners were found off
_FLOOR = 1e-3  # candidates less likely than this are ruled out
_MOST = 6  # candidates kept per edge
_NOISE = 3.0  # delta-E of spread within a code that is only noise: no pixel is told apart better than this
_BLUR = 1.0  # template pixels the focus is smoothed over: a figure's outline moves a little between photos
_LEAST = 0.05  # weight the least telling pixel keeps


class Reading(NamedTuple):
    """The codes read from a photo's tiles (tiles 0-based, sides N E S W).

    tiles : list of (N, E, S, W) codes, each edge's likeliest
    confidence : list of 4-tuples of float, the likeliest code's confidence
    candidates : ``candidates[tile][side] = [(code, confidence), ...]``, best
        first, as `solver.repair` takes them
    """

    tiles: list
    confidence: list
    candidates: list


def read_edges(looks: Looks, library: Library, sharpness: float = SHARPNESS, shift: int = SHIFT) -> Reading:
    """Read every edge of a photo as a library code.

    Parameters
    ----------
    looks : Looks
        `vision.describe.describe` of the photo's edge crops, 4 per tile
        (edge ``4 * i + k`` is side ``k`` of tile ``i``).
    library : Library
        From `vision.library.load_library`.
    sharpness : float
        Softmax temperature over the codes' distances.
    shift : int
        Template pixels a figure may sit off (`vision.describe.template_distances`).

    Returns
    -------
    Reading

    Examples
    --------
    >>> from vision.describe import tile_crops
    >>> tile = np.zeros((96, 96, 3), np.uint8)
    >>> tile[:20, 30:66] = (0, 0, 200); tile[76:, 30:66] = (200, 0, 0)
    >>> crops = tile_crops([tile])
    >>> lib = Library(None, "signed", [1, 2, 3], crops[:3], [])
    >>> read_edges(describe(crops), lib).tiles
    [(1, 2, 3, 2)]
    """
    codes = sorted(set(library.codes), key=str)
    stored = describe(library.crops)
    where = focus(stored, library.codes)
    d = distances(Looks(looks.lab, looks.weight * where, looks.hist),
                  Looks(stored.lab, stored.weight * where, stored.hist), shift=shift)
    code_of = np.array([codes.index(c) for c in library.codes])
    nearest = np.full((len(looks), len(codes)), np.inf)
    for k in range(len(codes)):
        nearest[:, k] = d[:, code_of == k].min(axis=1)
    score = np.exp(-(nearest - nearest.min(axis=1, keepdims=True)) / sharpness)
    confidence = score / score.sum(axis=1, keepdims=True)
    ranked = np.argsort(-confidence, axis=1, kind="stable")[:, :_MOST]
    candidates = [[(codes[k], float(confidence[e, k])) for k in ranked[e]
                   if k == ranked[e, 0] or confidence[e, k] >= _FLOOR]
                  for e in range(len(looks))]
    per_tile = [candidates[i:i + 4] for i in range(0, len(candidates), 4)]
    return Reading(tiles=[tuple(side[0][0] for side in tile) for tile in per_tile],
                   confidence=[tuple(round(side[0][1], 4) for side in tile) for tile in per_tile],
                   candidates=per_tile)


def focus(stored: Looks, codes: list) -> np.ndarray:
    """Where in an edge's template the codes of a library are told apart.

    A pixel tells codes apart when the stored edges of one code agree there
    (small spread about their code's mean) and the codes' means differ (a
    large spread of the means): the ratio, as in Fisher's discriminant,
    smoothed and scaled to a largest weight of 1. Corners where neighbouring
    sides' figures reach in differ from edge to edge of one code, and plain
    background agrees across codes: both weigh little.

    Parameters
    ----------
    stored : Looks
        The library's edges (`vision.describe.describe`).
    codes : list
        The code of each stored edge.

    Returns
    -------
    weight : (rows, cols) float32 ndarray
        Multiplies the templates' pixel weights, between `_LEAST` and 1.

    Examples
    --------
    >>> lab = np.zeros((4, 4, 12, 3), np.float32)   # 4 edges, codes 1 1 2 2
    >>> lab[2:, :, 4:8] = 50                          # the codes differ in the middle
    >>> lab[[0, 3], :, 8:] = 40                       # edges of one code differ on the right
    >>> w = focus(Looks(lab, np.ones((4, 4, 12), np.float32), None), [1, 1, 2, 2])
    >>> [round(float(w[0, x]), 2) for x in (1, 5, 10)]   # alike, told apart, noise
    [0.05, 1.0, 0.05]
    """
    lab = stored.lab.astype(np.float64)
    codes = np.asarray(codes, dtype=object)
    kinds = [codes == k for k in set(codes)]
    means = np.stack([lab[same].mean(axis=0) for same in kinds])
    within = sum(_spread(lab[same], mean).sum(axis=0) for same, mean in zip(kinds, means)) / len(lab)
    between = _spread(means, means.mean(axis=0)).mean(axis=0)
    ratio = cv2.GaussianBlur(between / (within + _NOISE), (0, 0), _BLUR)
    if ratio.max() <= 0:  # one code, or all alike: nothing to tell apart
        return np.ones(ratio.shape, np.float32)
    return np.maximum(ratio / ratio.max(), _LEAST).astype(np.float32)


def _spread(lab: np.ndarray, centre: np.ndarray) -> np.ndarray:
    """Per-pixel delta-E of templates from a centre, truncated as `distances` truncates it."""
    return np.minimum(np.linalg.norm(lab - centre, axis=-1), TRUNCATE)
