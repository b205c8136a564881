"""Reading edges against a library: codes, confidences and ranked candidates.

Each edge of the photo is compared (`vision.describe.distances`) with every
stored edge of the library; a code's distance is that of its nearest stored
example. A softmax over the codes' distances gives each code a confidence,
so an edge reads as its nearest code, and an edge that looks like two codes
says so: its ranked candidates feed `solver.repair`, which may read it as
the second one when only that fits. An edge glare half hid is judged by
the half seen: its distances count for that share only, so its
confidences spread and the code under the glare keeps a chance.
Templates are laid on each other a pixel either way and up to two more
with the photo's figure nearer its seam (`INWARD`): a side found inside
its card, at a worn card's printed rule, cuts its figure's top off.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from .describe import Looks, describe, distances, pattern_distances
from .library import Library

SHARPNESS = 0.08  # distance difference that makes one code e times likelier (colour and pattern together)
SHIFT = 1  # template pixels (3% of a tile's side) a figure may sit off where corners were found off
INWARD = 2  # more toward its seam (9% in all): a side found inside its card, at a printed rule, cuts a figure's top off
_FLOOR = 1e-3  # candidates less likely than this are ruled out
_MOST = 6  # candidates kept per edge


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


def read_edges(looks: Looks, library: Library, sharpness: float = SHARPNESS, shift: int = SHIFT,
               inward: int = INWARD, stored: Looks | None = None) -> Reading:
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
    inward : int
        Template pixels more a photo's figure may sit toward its seam: a
        tile found a little inside its card (worn vintage card, found at its
        printed rule) shows each figure cut short and moved up its crop.
    stored : Looks, optional
        ``describe(library.crops)``, when made already (`vision.pipeline`
        makes it on the other core while the photo's tiles are sought).

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
    stored = describe(library.crops) if stored is None else stored
    with ThreadPoolExecutor(1) as pool:  # the two on both cores: numpy lets go of the GIL for most of them
        pattern = pool.submit(pattern_distances, looks, stored, shift=shift, inward=inward)
        d = distances(looks, stored, shift=shift, inward=inward) + pattern.result()
    code_of = np.array([codes.index(c) for c in library.codes])
    nearest = np.full((len(looks), len(codes)), np.inf)
    for k in range(len(codes)):
        nearest[:, k] = d[:, code_of == k].min(axis=1)
    # Glare leaves part of an edge to judge by: the less of it seen, the less its distances tell.
    seen = looks.weight.sum(axis=(1, 2)) / stored.weight.sum(axis=(1, 2)).max()
    score = np.exp(-(nearest - nearest.min(axis=1, keepdims=True)) * np.clip(seen, 0, 1)[:, None] / sharpness)
    confidence = score / score.sum(axis=1, keepdims=True)
    ranked = np.argsort(-confidence, axis=1, kind="stable")[:, :_MOST]
    candidates = [[(codes[k], float(confidence[e, k])) for k in ranked[e]
                   if k == ranked[e, 0] or confidence[e, k] >= _FLOOR]
                  for e in range(len(looks))]
    per_tile = [candidates[i:i + 4] for i in range(0, len(candidates), 4)]
    return Reading(tiles=[tuple(side[0][0] for side in tile) for tile in per_tile],
                   confidence=[tuple(round(side[0][1], 4) for side in tile) for tile in per_tile],
                   candidates=per_tile)
