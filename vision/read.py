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
its card, at a worn card's printed rule, cuts its figure's top off. A worn
card is often found at its printed rule all round, a few hundredths of its
side inside its cut edge: its figures show cut short and magnified, so an
edge read with doubt (`DOUBT`) on a tile whose four edges lie nearer the
library as it would show found so (`library_looks`, `FRAMED`) than as
taught is compared with both, and the nearer counts. A tile with an edge
in doubt whose four edges come clearly nearer the library (`OFF`) when
its figures may sit a pixel further off (`WIDER`) was found off, a corner
5-10% of a side astray, and is read so.
An edge read with doubt under a veil deeper than `describe.unveil` takes
off (`FADED`) is compared by its template and pattern alone: the template is laid
on the library as it would show under the same veil, the colour histogram
is not, and a figure paled and greyed so fills bins no clean example
fills, so the histogram ranks the codes by chance (hard lookalikes 4826:
the true fish's body furthest of the four likeliest codes).
The template row at the card's cut edge is left out (`RIM`): there a
printed rule runs on some puzzles and not on others, worn card is rubbed,
and a tile found off or inside shows the table or the figure instead of
the rule.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from .describe import Looks, describe, distance_parts, pattern_distances
from .edges import found_inside
from .library import Library

SHARPNESS = 0.08  # distance difference that makes one code e times likelier (colour and pattern together)
SHIFT = 1  # template pixels (3% of a tile's side) a figure may sit off where corners were found off
FRAMED = 0.05  # of a side: a card found at its printed rule lies this far inside its cut edge (vintage's rule 4-5%)
INWARD = 2  # more toward its seam (9% in all): a side found inside its card, at a printed rule, cuts a figure's top off
FRAMED_INWARD = 1  # the same for the library as found at a printed rule, whose figures sit 5% nearer their seams already
DOUBT = 0.9  # an edge read less surely than this, on a tile found at a printed rule, is compared with the library
# as found so too; under a veil, by template and pattern alone
WIDER = 1  # more either way on a tile found off (`OFF`): a corner found 5-10% of a side off moves its figures so far
OFF = 0.02  # a tile whose four edges, summed, lie this share nearer the library with figures `WIDER` off is found off
RIM = 1  # template rows at the card's cut edge that do not count (3% of a side)
BLOWN = 0.9  # an edge showing less of its triangle than this (glare took the rest) is judged by its middle
FLANK = 0.35  # of a side: on such an edge, pixels this near a neighbouring side's triangle weigh less, none at it
POOLED = 0.6  # an edge showing less than this is scored by the mean of a code's stored examples, not the nearest;
# between this and `BLOWN` by a mix of the two, the mean's share falling to none at `BLOWN`
FADED = 0.1  # a doubtful edge under more veil than this (white's mean share over its template) is read without its
# colour histogram: a meadow bird's colour, under less, still told it from its lookalike (hard meadow 3849)
FLOOR = 1e-3  # candidates less likely than this are ruled out
_MOST = 6  # candidates kept per edge
VEILED = 3.0  # a veiled edge's pattern costs this many times its colours: its own copy of the stored templates, as
# they show under its veil (lookalikes' 12 MP photo: patterns 0.28 s, colours 0.10 s of thread CPU)


class Reading(NamedTuple):
    """The codes read from a photo's tiles (tiles 0-based, sides N E S W).

    tiles : list of (N, E, S, W) codes, each edge's likeliest
    confidence : list of 4-tuples of float, the likeliest code's confidence
    candidates : ``candidates[tile][side] = [(code, confidence), ...]``, best
        first, as `solver.repair` takes them
    seen : list of 4-tuples of float, optional
        The share of each edge's triangle glare left to see, 0 to 1 (`read_edges`
        judges an edge showing less than `BLOWN` by its middle, and its
        confidences spread the less of it is seen)
    """

    tiles: list
    confidence: list
    candidates: list
    seen: list | None = None


def read_edges(looks: Looks, library: Library, sharpness: float = SHARPNESS, shift: int = SHIFT,
               inward: int = INWARD, stored: Looks | None = None, framed: float = FRAMED) -> Reading:
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
        side found a little inside its card (worn vintage card, found at its
        printed rule) shows its figure cut short and moved up its crop.
    stored : Looks, optional
        ``library_looks(library, framed)``, when made already
        (`vision.pipeline` makes it on the other core while the photo's
        tiles are sought).
    framed : float
        How far inside its card a tile found at its printed rule lies, as a
        fraction of its side; the doubtful edges of a tile whose edges lie
        nearer the library as it would show so are compared with it too. 0
        compares it only as it was taught.

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
    >>> reading = read_edges(describe(crops), lib)
    >>> reading.tiles, reading.seen
    ([(1, 2, 3, 2)], [(1.0, 1.0, 1.0, 1.0)])
    """
    codes = sorted(set(library.codes), key=str)
    code_of = np.array([codes.index(c) for c in library.codes])
    stored = _off_rim(library_looks(library, framed) if stored is None else stored)
    taught, inside = _part(stored, slice(len(code_of))), _part(stored, slice(len(code_of), None))
    looks = _off_rim(looks)
    # Glare leaves part of an edge to judge by: the less of it seen, the less its distances tell.
    seen = np.clip(looks.weight.sum(axis=(1, 2)) / taught.weight.sum(axis=(1, 2)).max(), 0, 1)
    looks = _off_flanks(looks, seen < BLOWN)
    fit = _distances(looks, taught, shift, inward)
    d = fit.total()
    confidence = _confidence(d, code_of, seen, sharpness)
    # A doubtful edge under a veil: its faded colours fill histogram bins no clean example fills.
    veiled = (confidence.max(axis=1) < DOUBT) & (_veil_left(looks) > FADED)
    if veiled.any():
        looks = _without_colours(looks, veiled)
        fit.hist[veiled] = 0  # what an empty histogram counts; the templates and patterns fit as they did
        d = fit.total()
        confidence = _confidence(d, code_of, seen, sharpness)
    edges, wider = _found_off(looks, taught, fit, d, confidence.max(axis=1) < DOUBT, shift, inward)
    if len(edges):
        d[edges] = np.minimum(d[edges], wider)
        confidence = _confidence(d, code_of, seen, sharpness)
    edges, framed = _at_printed_rule(looks, inside, d, confidence.max(axis=1) < DOUBT, shift)
    if len(edges):
        d[edges] = np.minimum(d[edges], framed)
        confidence = _confidence(d, code_of, seen, sharpness)
    ranked = np.argsort(-confidence, axis=1, kind="stable")[:, :_MOST]
    candidates = [[(codes[k], float(confidence[e, k])) for k in ranked[e]
                   if k == ranked[e, 0] or confidence[e, k] >= FLOOR]
                  for e in range(len(looks))]
    per_tile = [candidates[i:i + 4] for i in range(0, len(candidates), 4)]
    return Reading(tiles=[tuple(side[0][0] for side in tile) for tile in per_tile],
                   confidence=[tuple(round(side[0][1], 4) for side in tile) for tile in per_tile],
                   candidates=per_tile, seen=[tuple(round(float(s), 3) for s in seen[i:i + 4])
                                              for i in range(0, len(seen), 4)])


def library_looks(library: Library, framed: float = FRAMED) -> Looks:
    """The looks `read_edges` compares a photo's edges with: the library's, then, with
    ``framed``, the same crops as they show on tiles found that far inside their cards.

    Examples
    --------
    >>> crops = [np.full((48, 96, 3), v, np.uint8) for v in (0, 90, 180)]
    >>> len(library_looks(Library(None, "signed", [1, 2, 3], crops, []))), len(library_looks(
    ...     Library(None, "signed", [1, 2, 3], crops, []), framed=0))
    (6, 3)
    """
    inside = [found_inside(crop, framed) for crop in library.crops] if framed else []
    return describe(list(library.crops) + inside)


class _Fit(NamedTuple):
    """Distances of edges to stored edges in their parts (`describe.distance_parts`, `describe.pattern_distances`)."""

    template: np.ndarray
    hist: np.ndarray
    pattern: np.ndarray

    def total(self) -> np.ndarray:
        """The distances: colour and pattern together."""
        return self.template + self.hist + self.pattern


def _distances(looks: Looks, stored: Looks, shift: int, inward: int, within: int | None = None) -> _Fit:
    """Colour and pattern distances of every edge in ``looks`` to every one in ``stored``, in parts
    (``within``: `describe.template_distances`).

    Worked out on both cores (numpy lets go of the GIL for most of it): the colours on this
    thread, the patterns on a helper, but for the first edges' (`_first_patterns`), which this
    thread works out once its colours are done. An edge's distances do not depend on the edges
    worked out beside it but for the pixels none of them weighs, which count for nothing: bit for
    bit the same, split or not, on 82 photos' readings.
    """
    first = _first_patterns(looks)
    with ThreadPoolExecutor(1) as pool:
        rest = pool.submit(pattern_distances, _part(looks, slice(first, None)), stored, shift=shift, inward=inward,
                           within=within)
        template, hist = distance_parts(looks, stored, shift, inward, within)
        if not first:
            return _Fit(template, hist, rest.result())
        pattern = pattern_distances(_part(looks, slice(first)), stored, shift=shift, inward=inward, within=within)
        return _Fit(template, hist, np.concatenate([pattern, rest.result()]))


def _first_patterns(looks: Looks) -> int:
    """How many of the first edges' patterns `_distances` works out beside their colours, so that
    both threads take about as long (an edge's colours and its pattern cost about as much; a
    veiled edge's pattern `VEILED` times as much).

    >>> veil = np.zeros((8, 2, 2), np.float32); veil[:6] = 0.5   # six veiled edges, two clean
    >>> [_first_patterns(Looks(np.zeros((len(v), 2, 2, 3)), None, None, v)) for v in (veil, veil[6:])]
    [2, 0]
    """
    pattern = np.where(looks.veil.any(axis=(1, 2)), VEILED, 1.0)
    done = np.concatenate([[0], np.cumsum(pattern)])  # pattern work done beside the colours, by edges taken
    return int(np.argmin(np.maximum(len(looks) + done, done[-1] - done)))


def _confidence(d: np.ndarray, code_of: np.ndarray, seen: np.ndarray, sharpness: float) -> np.ndarray:
    """Each edge's confidence in each code (columns as ``code_of`` numbers them): a softmax over
    the distance to the code's nearest stored example, softer the less of the edge is ``seen``.

    On an edge showing less than `POOLED` a code's distance is the mean over its examples: there
    every distance is mostly the glare's noise, and the nearest of a code's examples is the least
    of as many draws as the library holds of it, so a code taught from six tiles beat the true
    one taught from one (hard frogs 3277, critters 3474). Lookalike halves, told apart by the
    nearest example's shape, keep the nearest where more is seen. In between (`POOLED` to
    `BLOWN`), where glare hid a figure's middle and left the seam beside it, what shows there is
    much of it the neighbouring figures' legs, which differ from puzzle to puzzle: the nearest
    example was the one whose neighbours happened to lie alike (hard frogs 4607, 81% seen: the
    green frog's eyes nearer the green frog's examples, the seam beside the glare nearer one blue
    frog's). There the distance slides from the mean to the nearest.

    >>> d = np.array([[0.5, 0.3, 0.7, 0.6, 0.4]])   # code 0's one example, code 1's four
    >>> code_of = np.array([0, 1, 1, 1, 1])
    >>> [int(_confidence(d, code_of, np.array([s]), 0.08).argmax()) for s in (1.0, 0.3)]
    [1, 0]
    """
    codes = range(code_of.max() + 1)
    nearest = np.stack([d[:, code_of == k].min(axis=1) for k in codes], axis=1)
    pooled = np.clip((BLOWN - seen) / (BLOWN - POOLED), 0, 1)  # the mean's share in a code's distance
    if pooled.any():
        mean = np.stack([d[:, code_of == k].mean(axis=1) for k in codes], axis=1)
        nearest += pooled[:, None] * (mean - nearest)
    score = np.exp(-(nearest - nearest.min(axis=1, keepdims=True)) * seen[:, None] / sharpness)
    return score / score.sum(axis=1, keepdims=True)


def _found_off(looks: Looks, taught: Looks, fit: _Fit, d: np.ndarray, doubtful: np.ndarray, shift: int,
               inward: int) -> tuple[np.ndarray, np.ndarray]:
    """The edges of tiles found off, and their distances to the library (``taught``) with
    figures allowed `WIDER` further off (``fit``: every edge's as read first, in parts; ``d``:
    as it counts now).

    A corner found 5-10% of a side off moves and turns the figures along its sides further
    than ``shift`` lets them be laid back (a meadow bird's pink body, moved two template
    pixels along its seam, read as the blue bird's). More room lets every code fit a little
    better, and a lookalike most (a vintage shield for a car's cabin), so it is given only to
    a tile that shows it was found off: one whose four edges, summed, come `OFF` nearer the
    library with it. A tile found true fits as well within ``shift``. Only the few tiles
    with an edge in doubt are looked at again, and only at the offsets beyond ``shift``: the
    nearer ones' fits are the first reading's (each offset's fit is worked out on its own, and
    an edge's as in any batch: `_distances`), so the lesser of the two is the best over all.
    """
    edges = _edges_of_tiles(doubtful)
    if not len(edges):
        return edges, np.zeros((0, len(taught)))
    beyond = _distances(_part(looks, edges), taught, shift + WIDER, inward, within=shift)
    wider = _Fit(np.minimum(fit.template[edges], beyond.template), beyond.hist,
                 np.minimum(fit.pattern[edges], beyond.pattern)).total()
    off = _tile_sums(wider) < (1 - OFF) * _tile_sums(d[edges])
    keep = np.repeat(off, 4)
    return edges[keep], wider[keep]


def _edges_of_tiles(doubtful: np.ndarray) -> np.ndarray:
    """All four edges of every tile with a ``doubtful`` edge, tile by tile."""
    tiles = np.unique(np.flatnonzero(doubtful) // 4)
    return (tiles[:, None] * 4 + np.arange(4)).ravel()


def _tile_sums(d: np.ndarray) -> np.ndarray:
    """Per tile (edges four by four), its edges' distances to their nearest stored examples, summed."""
    return d.min(axis=1).reshape(-1, 4).sum(axis=1)


def _at_printed_rule(looks: Looks, inside: Looks, d: np.ndarray, doubtful: np.ndarray,
                     shift: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``doubtful`` edges of tiles found at their printed rule, and their distances to the
    library as it shows found so (``inside``; ``d``: every edge's to the library as taught).

    A tile is found at its printed rule all round or at its cut edge, so its four edges tell
    which together: the rule when they lie nearer the library as found so than as taught,
    summed. A doubtful edge alone has two looks of every code to fit, and on a card found at
    its cut edge the wrong code's second look often fitted better (a meadow bird's tail).
    The second look is made for the few tiles with an edge in doubt only.
    """
    edges = _edges_of_tiles(doubtful)
    if not len(inside) or not len(edges):
        return np.zeros(0, int), np.zeros((0, len(inside)))
    framed = _distances(_part(looks, edges), inside, shift, FRAMED_INWARD).total()
    keep = np.repeat(_tile_sums(framed) < _tile_sums(d[edges]), 4) & doubtful[edges]
    return edges[keep], framed[keep]


def _part(looks: Looks, which) -> Looks:
    """The looks of the edges ``which`` picks (a slice or indices)."""
    return Looks(*(field[which] for field in looks))


def _off_flanks(looks: Looks, blown: np.ndarray) -> Looks:
    """``looks`` with the ``blown`` edges' template weights fading to none toward the neighbouring sides' triangles.

    Where a lamp has blown an edge's figure out, what is left to see of its
    triangle lies mostly along its flanks, where the figures of the sides
    either side reach in. Those differ from photo to photo, and a stored
    example whose neighbours happen to look alike won with confidence (an
    orange cat beside a blown edge, read as the code whose example has an
    orange cat beside it: hard critters 2221). Such an edge is judged by
    what its middle shows, and not by its colour histogram, taken over the
    whole triangle and so mostly over its neighbours' colours (`describe.distances`
    compares an edge with an empty one by its template alone). On an edge
    seen whole the flanks keep their weight: there a figure's own legs and
    colours reach into them (frogs, critters).
    """
    if not blown.any():
        return looks
    rows, cols = looks.weight.shape[1:3]
    y, x = np.arange(rows)[:, None] + 0.5, np.arange(cols)[None, :] + 0.5
    fade = np.clip((np.minimum(x, cols - x) - y) / (FLANK * cols), 0, 1).astype(np.float32)
    weight = looks.weight.copy()
    weight[blown] *= fade
    return _without_colours(Looks(looks.lab, weight, looks.hist, looks.veil), blown)


def _without_colours(looks: Looks, which: np.ndarray) -> Looks:
    """``looks`` with the colour histograms of the edges ``which`` picks emptied: `describe.distances`
    then compares those edges by their templates alone."""
    hist = looks.hist.copy()
    hist[which] = 0
    return Looks(looks.lab, looks.weight, hist, looks.veil)


def _veil_left(looks: Looks) -> np.ndarray:
    """Each edge's veil left (`describe.normalise_veiled`), its mean over the template as weighed.

    >>> from vision.describe import Looks
    >>> veil = np.zeros((2, 4, 4), np.float32); veil[1, :2] = 0.5
    >>> _veil_left(Looks(np.zeros((2, 4, 4, 3)), np.ones((2, 4, 4)), np.zeros((2, 8)), veil)).tolist()
    [0.0, 0.25]
    """
    return (looks.veil * looks.weight).sum(axis=(1, 2)) / np.maximum(looks.weight.sum(axis=(1, 2)), 1e-9)


def _off_rim(looks: Looks) -> Looks:
    """``looks`` with their template rows at the card's cut edge (`RIM`) weighing nothing."""
    weight = looks.weight.copy()
    weight[:, :RIM] = 0
    return Looks(looks.lab, weight, looks.hist, looks.veil)
