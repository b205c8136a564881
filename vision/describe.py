"""What an edge looks like: light-normalised tiles, and per-edge features.

Two photos of one puzzle differ in light, white balance, shading and glare;
the printed halves do not. So tiles are first normalised together
(`normalise`): the glare veil taken off (`unveil`), one grey-world white
balance for all the tiles of a photo (they share the puzzle's palette, so a
per-tile balance would shift each tile's colours by its own content), then
per tile CLAHE on lightness, with chroma scaled alongside so a shadowed tile
keeps its colours. Balance and CLAHE work on the print under a deep veil
as far as it can be told, and the veil `unveil` would leave is put back
as white: balanced with it, the lamp's white took the puzzle's opposite
tint (a teal puzzle's glare turned pink, a colour no figure has).

An edge's `Looks` are then

* a small Lab template of its triangle (`vision.edges.edge_mask`): which
  half, and which figure when colours are alike;
* a Lab colour histogram of the figure's pixels, the background of the
  puzzle (its commonest colour) weighted down: which figure;
* weights that drop blown-out pixels (glare) from both.

`distances` compares two sets of looks with a truncated colour difference,
so glare or a worn patch costs a bounded amount instead of dominating.
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

import cv2
import numpy as np

from .edges import edge_crops, edge_mask
from .images import across_channels

SIZE = 96  # normalised tile side: enough for the figures, cheap to compare
TEMPLATE = (16, 32)  # rows, cols of an edge's template
_TRUNCATE = 60.0  # delta-E beyond which two pixels are simply "different" (glare, wear)
_BINS = (4, 8, 8)  # L, a, b histogram bins
_RANGE = ((0, 100), (-64, 64), (-64, 64))
_HIST_WEIGHT = 0.5  # weight of the histogram distance against the template's
_PATTERN_TRUNCATE = 2.0  # standard deviations beyond which two pixels of a pattern simply differ
_PATTERN_FLOOR = 2.0  # Lab units added to a channel's spread: a plain patch's noise is no pattern
_SEEN = 0.9  # an edge showing less of its triangle than this (glare took the rest): pattern over the part seen
_FADE = 0.7  # weight lost from the seam to the tile's centre
_VEIL_WINDOW = 0.1  # of the tile's side: wider than a figure's ink strokes, narrower than a glare spot
_VEIL_FLOOR = 20  # percentile of a tile's darkest channel taken as its ink, under no glare
_VEIL_DEEPEST = 0.95  # deeper still there is no print to balance, only noise
_WHITE = (100.0, 0.0, 0.0)  # Lab white: what a glare veil left on a tile adds to its print
_CHUNK = 1200  # pairs of edges whose pattern is compared at once under a veil (a copy of a template each)
_VEIL_MOST = 0.6  # deeper veils are taken off only so far: dividing more blows a white's faint tint up into colour


class Looks(NamedTuple):
    """Features of n edge crops, stacked for vectorised comparison.

    lab : (n, 16, 32, 3) float32 template, CIE Lab
    weight : (n, 16, 32) float32, 0 off the side's triangle and on glare
    hist : (n, 256) float32 colour histogram of the figure, rows sum to 1
    veil : (n, 16, 32) float32, the share of each template pixel a glare veil left white
        (`normalise_veiled`), 0 to 1; 0 for crops described without their veils
    """

    lab: np.ndarray
    weight: np.ndarray
    hist: np.ndarray
    veil: np.ndarray

    def __len__(self) -> int:  # the number of edges, not of fields
        return self.lab.shape[0]


def normalise(tiles: Sequence[np.ndarray], size: int = SIZE) -> list[np.ndarray]:
    """Tiles of one photo with its light and white balance taken out.

    Parameters
    ----------
    tiles : sequence of (S, S, 3) uint8 BGR ndarrays
        Rectified tiles of one photo.
    size : int
        Side of the returned tiles.

    Returns
    -------
    tiles : list of (size, size, 3) uint8 BGR ndarrays

    Examples
    --------
    >>> warm = np.dstack([np.full((8, 8), v, np.uint8) for v in (60, 120, 200)])
    >>> warm[::2] = 0  # black ink lines
    >>> out = normalise([warm, warm // 2], size=8)
    >>> bool(np.ptp(out[0][3, 4].astype(int)) < 8)  # the cast is gone
    True
    """
    return normalise_veiled(tiles, size)[0]


def normalise_veiled(tiles: Sequence[np.ndarray], size: int = SIZE) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """`normalise`'s tiles, and on each the veil left: the share of each pixel put back as white.

    A veil deeper than `unveil` takes off (`_VEIL_MOST`) leaves a pixel part print, part
    the lamp's white. Given to `describe` with the tiles' crops, the veil left lets each
    edge be compared with the library as it would show under the same veil, not as it
    shows clean: a blue figure paled to near white under a lamp is nearer a clean pale
    figure than a clean blue one, but nearest the blue one paled alike.

    Returns
    -------
    tiles : list of (size, size, 3) uint8 BGR ndarrays, as `normalise` gives them
    veils : list of (size, size) float32 ndarrays, 0 (no veil left) to 1 (all white)

    Examples
    --------
    >>> ink = np.zeros((40, 40, 3), np.uint8); ink[::4] = (0, 0, 200)
    >>> veiled = ink.copy(); veiled[:, 20:] = 255 - (255 - ink[:, 20:]) // 10   # nine tenths glare
    >>> left = normalise_veiled([ink, ink, veiled], size=40)[1][2]
    >>> float(left[20, 2]), round(float(left[20, 37]), 2)   # (0.9 - 0.6) / (1 - 0.6) of it left
    (0.0, 0.75)
    """
    small = [cv2.resize(t, (size, size), interpolation=cv2.INTER_AREA) for t in tiles]
    veils = glare_veils(small)
    prints = unveil(small, veils, most=_VEIL_DEEPEST)
    pixels = np.concatenate([t[v < _VEIL_MOST] for t, v in zip(prints, veils)]).astype(np.float32)  # prints seen well
    unblown = pixels[across_channels(np.maximum, pixels) < 250]
    means = (unblown if len(unblown) else pixels).mean(axis=0) + 1.0
    gains = means.mean() / means
    clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(4, 4))
    out, lefts = [], []
    for tile, veil in zip(prints, veils):
        balanced = np.clip(tile * gains, 0, 255).astype(np.uint8)
        lab = cv2.cvtColor(balanced, cv2.COLOR_BGR2LAB)
        lightness = clahe.apply(lab[..., 0])
        # Chroma shrinks with light; scale it back with the lightness change.
        ratio = np.clip((lightness + 8.0) / (lab[..., 0] + 8.0), 0.5, 2.0)[..., None]
        chroma = np.clip((lab[..., 1:].astype(np.float32) - 128) * ratio + 128, 0, 255)
        lab = np.dstack([lightness, chroma.astype(np.uint8)])
        # Over a deep veil the print is a guess: the share of it seen (as `unveil` sees it), the rest white.
        left = np.clip((veil - _VEIL_MOST) / (1 - _VEIL_MOST), 0, 1)[..., None]
        out.append((cv2.cvtColor(lab, cv2.COLOR_LAB2BGR) * (1 - left) + 255 * left).astype(np.uint8))
        lefts.append(left[..., 0].astype(np.float32))
    return out, lefts


def unveil(tiles: Sequence[np.ndarray], veils: Sequence[np.ndarray] | None = None,
           most: float = _VEIL_MOST) -> list[np.ndarray]:
    """Tiles of one photo with the glare on them taken off.

    Glare on glossy card adds the lamp's light to the print: a pixel of
    colour ``c`` shows ``c (1 - g) + 255 g`` under a veil ``g``. Printed art
    has some dark ink in some channel in every patch, so a veil shows as the
    local minimum of the darkest channel rising above the tile's ink level
    (the dark-channel prior of haze removal, He, Sun and Tang 2009), and
    dividing it out restores the colours under it. The ink level is a low
    percentile of the tile's own dark channel, but no higher than the
    photo's typical tile's, so a tile veiled all over is seen as veiled
    (`glare_veils`). A deep veil is taken off only in part (dividing by a
    small ``1 - g`` would blow the faint tint of white paper up into
    colour, and the sensor's noise with it): the veil left is a paler
    print, its hue kept, and where it is total the pixel stays white, and
    `describe` drops it as glare.

    Parameters
    ----------
    tiles : sequence of (S, S, 3) uint8 BGR ndarrays
        Rectified tiles of one photo.
    veils : sequence of (S, S) ndarrays, optional
        Their `glare_veils`, when made already.
    most : float
        The deepest veil taken off; deeper ones only so far.

    Returns
    -------
    tiles : list of (S, S, 3) uint8 BGR ndarrays

    Examples
    --------
    >>> ink = np.zeros((40, 40, 3), np.uint8); ink[::4] = (0, 0, 200)   # red and black stripes
    >>> veiled = ink.copy(); veiled[:, 20:] = ink[:, 20:] // 2 + 128   # half the tile under glare
    >>> out = unveil([ink, ink, veiled])[2]
    >>> int(np.abs(out[:, 24:36].astype(int) - ink[:, 24:36]).max()) < 12
    True
    """
    out = []
    for tile, veil in zip(tiles, glare_veils(tiles) if veils is None else veils):
        veil = np.minimum(veil, most)[..., None]
        out.append(np.clip((tile - 255 * veil) / (1 - veil), 0, 255).astype(np.uint8))
    return out


def glare_veils(tiles: Sequence[np.ndarray]) -> list[np.ndarray]:
    """How deep the glare lies on each pixel of a photo's tiles: ``g`` of `unveil`, 0 to 1.

    Parameters
    ----------
    tiles : sequence of uint8 BGR ndarrays
        As for `unveil`.

    Returns
    -------
    veils : list of (S, S) float ndarrays, 0 where no glare, 1 where it is all the pixel shows

    Examples
    --------
    >>> ink = np.zeros((40, 40, 3), np.uint8); ink[::4] = (0, 0, 200)
    >>> veiled = ink.copy(); veiled[:, 20:] = 255 - (255 - ink[:, 20:]) // 10   # nine tenths glare
    >>> veil = glare_veils([ink, ink, veiled])[2]
    >>> round(float(veil[20, 2]), 1), round(float(veil[20, 37]), 1)
    (0.0, 0.9)
    """
    darks = []
    for tile in tiles:
        k = max(3, round(_VEIL_WINDOW * tile.shape[0]) | 1)
        square = cv2.getStructuringElement(cv2.MORPH_RECT, (k, k))
        dark = cv2.dilate(cv2.erode(across_channels(np.minimum, tile), square), square)  # ink's level, patch by patch
        darks.append(cv2.GaussianBlur(dark.astype(np.float32), (0, 0), k / 2))
    floors = [np.percentile(dark, _VEIL_FLOOR) for dark in darks]
    typical = np.median(floors)
    return [np.clip((dark - min(floor, typical)) / (255 - min(floor, typical)), 0, 1)
            for dark, floor in zip(darks, floors)]


def tile_crops(tiles: Sequence[np.ndarray]) -> list[np.ndarray]:
    """All edge crops of normalised tiles, tile by tile, N E S W.

    Edge ``4 * i + k`` is side ``k`` of tile ``i``.
    """
    return [crop for tile in tiles for crop in edge_crops(tile)]


def describe(crops: Sequence[np.ndarray], veils: Sequence[np.ndarray] | None = None) -> Looks:
    """Looks of edge crops (from `tile_crops` of `normalise`d tiles).

    The background is the commonest colour over all of ``crops``, so
    describe the crops of one photo (or one library) together. ``veils``,
    the veil left on each crop (`tile_crops` of `normalise_veiled`'s), is
    carried for `distances` and `pattern_distances`; without them none is.

    Examples
    --------
    >>> tile = np.zeros((SIZE, SIZE, 3), np.uint8)
    >>> looks = describe(tile_crops([tile]))
    >>> len(looks), looks.hist.shape
    (4, (4, 256))
    """
    crops = [np.ascontiguousarray(c) for c in crops]
    labs = np.stack([to_lab(c) for c in crops])  # (n, h, w, 3)
    glare = (labs[..., 0] > 95) & (np.hypot(labs[..., 1], labs[..., 2]) < 6)
    weight = seam_weight(labs.shape[1:3]) * ~glare
    figure = 1 - np.exp(-(_delta(labs, _commonest(labs[:, edge_mask(labs.shape[1:3])])) / 12) ** 2)
    hist = _histograms(labs, weight * figure)
    small = np.stack([cv2.resize(lab, TEMPLATE[::-1], interpolation=cv2.INTER_AREA) for lab in labs])
    small_weight = np.stack([cv2.resize(w.astype(np.float32), TEMPLATE[::-1], interpolation=cv2.INTER_AREA)
                             for w in weight])
    veil = np.zeros(small_weight.shape, np.float32) if veils is None else np.stack(
        [cv2.resize(np.ascontiguousarray(v, np.float32), TEMPLATE[::-1], interpolation=cv2.INTER_AREA) for v in veils])
    return Looks(small.astype(np.float32), small_weight, hist, veil)


def distances(a: Looks, b: Looks, shift: int = 0, inward: int = 0) -> np.ndarray:
    """Dissimilarity of every edge in ``a`` to every edge in ``b``.

    A weighted mean of truncated per-pixel delta-E over the templates (scaled
    to 0..1) plus the Hellinger distance of the colour histograms (0..1); an
    edge of ``a`` with an empty histogram (nothing of its figure to count) is
    compared by its template alone.
    ``shift``, ``inward``: see `template_distances`. Where an edge of ``a``
    carries a veil (`normalise_veiled`), its template is compared with each of
    ``b``'s as that would show under the same veil.

    Returns
    -------
    d : (len(a), len(b)) float ndarray, 0 for identical looks

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> crops = [rng.integers(0, 255, (SIZE // 2, SIZE, 3), dtype=np.uint8) for _ in range(3)]
    >>> d = distances(describe(crops), describe(crops))
    >>> bool(np.allclose(np.diag(d), 0, atol=1e-3)), bool(d[0, 1] > 0.1)
    (True, True)
    """
    template, hist = distance_parts(a, b, shift, inward)
    return template + hist


def distance_parts(a: Looks, b: Looks, shift: int = 0, inward: int = 0,
                   within: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """`distances` in its two parts, the templates' and the histograms' (weighed): their sum is it.

    ``within``: see `template_distances`; the histograms' part does not depend on it.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> looks = describe([rng.integers(0, 255, (SIZE // 2, SIZE, 3), dtype=np.uint8) for _ in range(3)])
    >>> template, hist = distance_parts(looks, looks, shift=1)
    >>> bool(np.array_equal(template + hist, distances(looks, looks, shift=1)))
    True
    """
    veiled = a.veil.any(axis=(1, 2))
    template = np.empty((len(a), len(b)), np.float32)
    for rows, veil in ((~veiled, None), (veiled, a.veil[veiled])):
        if rows.any():
            template[rows] = template_distances(a.lab[rows], a.weight[rows], b.lab, b.weight, _TRUNCATE, shift,
                                                inward, veil, within)
    overlap = np.sqrt(a.hist.astype(np.float64)) @ np.sqrt(b.hist.astype(np.float64)).T
    hist = np.sqrt(np.clip(1 - overlap, 0, 1)) * a.hist.any(axis=1)[:, None]  # an edge with none: template alone
    return template, _HIST_WEIGHT * hist


def pattern_distances(a: Looks, b: Looks, shift: int = 0, inward: int = 0, within: int | None = None) -> np.ndarray:
    """Dissimilarity of the edges' patterns: their templates with level and contrast taken out.

    A deep glare veil is only partly taken off (`unveil`), and what is left
    of it, like a shadow or a washed-out print, makes a figure's colours
    lighter, greyer and flatter, so its template lies far from the clean
    one in Lab. It does not move the figure's light and dark, its red and
    its green: each channel of each template, less its weighted mean and
    divided by its weighted spread, is compared instead (truncated at
    `_PATTERN_TRUNCATE` spreads, scaled to 0..1). Colour alone still tells
    figures of one shape apart, in `distances`.

    An edge glare hides in part (`_SEEN`) shows its pattern over the part
    seen, so the other edge's level and spread are taken over that part
    too: over its whole triangle they take in a ground the glare took off
    the first edge, the figure's colours sit apart from it, and shapes that
    match no longer do (a rocket's pale nose, all a lamp left of its half,
    read as a star). An edge that carries a veil (`normalise_veiled`) is
    compared with the other edges as they would show under it, their
    patterns taken so. ``within``: see `template_distances`.

    Returns
    -------
    d : (len(a), len(b)) float ndarray, 0 for identical patterns

    Examples
    --------
    >>> red, blue = np.full((2, SIZE // 2, SIZE, 3), 220, np.uint8)
    >>> red[:20, 30:60] = (0, 0, 200); blue[:20, 10:40] = (200, 0, 0)
    >>> looks, washed = describe([red, blue]), describe([red // 3 + 150, blue // 3 + 150])
    >>> distances(looks, washed).round(1).tolist()            # the veil hides which is which
    [[0.8, 1.0], [0.9, 0.8]]
    >>> pattern_distances(looks, washed).astype(float).round(1).tolist()   # the pattern does not
    [[0.1, 0.8], [0.8, 0.1]]
    """
    pattern = _pattern(a)
    partly = _partly_seen(a, b)
    again = partly | a.veil.any(axis=(1, 2))
    d = np.empty((len(a), len(b)), np.float32)
    if not again.all():
        d[~again] = template_distances(pattern[~again], a.weight[~again], _pattern(b), b.weight, _PATTERN_TRUNCATE,
                                       shift, inward, within=within)
    for rows in _chunks(np.flatnonzero(again), len(b)):
        # b as it would show under each edge's veil, its level and spread taken where the edge shows
        shows = np.where(partly[rows, None, None], a.weight[rows] > 0, True)
        over = Looks(_under(b.lab, a.veil[rows]).reshape(-1, *b.lab.shape[1:]),
                     (b.weight * shows[:, None]).reshape(-1, *b.weight.shape[1:]), b.hist, b.veil)
        d[rows] = template_distances(pattern[rows], a.weight[rows], _pattern(over).reshape(len(rows), *b.lab.shape),
                                     b.weight, _PATTERN_TRUNCATE, shift, inward, within=within)
    return d


def _chunks(rows: np.ndarray, others: int) -> list:
    """``rows`` in runs of at most `_CHUNK` pairs with ``others`` edges: each row is compared with
    its own copy of the other edges' templates (as they show under its veil)."""
    size = max(1, _CHUNK // max(others, 1))
    return [rows[i:i + size] for i in range(0, len(rows), size)]


def _under(lab: np.ndarray, veils: np.ndarray) -> np.ndarray:
    """Lab templates (m, rows, cols, 3) as each would show under each of ``veils`` (k, rows, cols):
    (k, m, rows, cols, 3), the print's share kept and the rest the lamp's white."""
    veils = veils[:, None, ..., None]
    return lab[None] * (1 - veils) + np.float32(_WHITE) * veils


def _partly_seen(a: Looks, b: Looks) -> np.ndarray:
    """Whether each edge of ``a`` shows less than ``_SEEN`` of the pixels ``b``'s edges weigh (glare took the rest)."""
    weighed = b.weight.max(axis=0) > 0
    shown = ((a.weight > 0) & weighed).sum(axis=(1, 2)) / max(weighed.sum(), 1)
    return shown < _SEEN


def _pattern(looks: Looks) -> np.ndarray:
    weight = looks.weight[..., None] / np.maximum(looks.weight.sum(axis=(1, 2))[:, None, None, None], 1e-9)
    centred = looks.lab - (looks.lab * weight).sum(axis=(1, 2), keepdims=True)
    spread = np.sqrt((centred ** 2 * weight).sum(axis=(1, 2), keepdims=True))
    return centred / (spread + _PATTERN_FLOOR)


def template_distances(lab_a: np.ndarray, weight_a: np.ndarray, lab_b: np.ndarray,
                       weight_b: np.ndarray, truncate: float, shift: int = 0, inward: int = 0,
                       veil: np.ndarray | None = None, within: int | None = None) -> np.ndarray:
    """Weighted mean of per-pixel delta-E, truncated and scaled to 0..1, for every pair.

    With ``shift``, template ``a`` is also laid on ``b`` moved by up to
    ``shift`` pixels each way, and the best fit counts: a corner found a
    little off moves the figure in its crop by a pixel or two. With
    ``inward``, ``a`` may sit that many rows more toward the seam: a side
    found inside its card cuts the top of its figure off, and the rest of
    it moves up the crop.

    Parameters
    ----------
    lab_a, lab_b : (n, rows, cols, 3) and (m, rows, cols, 3) ndarrays
        Lab templates; ``lab_b`` may be (n, m, rows, cols, 3), ``b``'s
        templates as each edge of ``a`` sees them (`_under` its veil).
    weight_a, weight_b : (n, rows, cols) and (m, rows, cols) ndarrays
        How much each pixel counts; a pair weighs a pixel by the product.
    truncate : float
        Delta-E beyond which pixels differ no further (glare, a stray speck).
    shift : int
        The largest offset tried, in pixels, along rows and along columns.
    inward : int
        Further rows ``a`` may sit up, toward the seam.
    veil : (n, rows, cols) ndarray, optional
        The veil left on ``a`` (`normalise_veiled`): each ``b`` is compared as it
        would show under it, ``b (1 - veil) + white veil``, pixel by pixel.
    within : int, optional
        The offsets ``shift=within`` (with ``inward``) lays are left out, the best of the others
        counts (inf with none left): a caller that has those already takes the lesser of the two,
        the best over all, value for value, since each offset's fit is worked out on its own.

    Returns
    -------
    d : (n, m) ndarray

    Examples
    --------
    >>> lab = np.zeros((2, 1, 2, 3)); lab[1, 0, 0] = 100
    >>> template_distances(lab, np.ones((2, 1, 2)), lab, np.ones((2, 1, 2)), 50.0).tolist()
    [[0.0, 0.5], [0.5, 0.0]]
    >>> moved = np.zeros((1, 1, 4, 3)); moved[0, 0, 1] = 100; at = np.roll(moved, 1, axis=2)
    >>> [float(template_distances(moved, np.ones((1, 1, 4)), at, np.ones((1, 1, 4)), 50.0, s)[0, 0])
    ...  for s in (0, 1)]
    [0.5, 0.0]
    >>> low = np.zeros((1, 4, 2, 3)); low[0, 2] = 100; cut = np.roll(low, -2, axis=1)  # 2 rows up
    >>> [float(template_distances(cut, np.ones((1, 4, 2)), low, np.ones((1, 4, 2)), 50.0, 0, i)[0, 0])
    ...  for i in (0, 2)]
    [0.5, 0.0]
    >>> lab, weight = np.random.default_rng(1).uniform(0, 100, (3, 6, 8, 3)), np.ones((3, 6, 8))
    >>> whole, inner, ring = (template_distances(lab, weight, lab[::-1], weight, 50.0, s, 1, within=w)
    ...                       for s, w in ((2, None), (1, None), (2, 1)))
    >>> bool(np.array_equal(np.minimum(inner, ring), whole))
    True
    >>> each = np.stack([lab[::-1]] * 3)   # b as each edge of a sees it: here alike for all three
    >>> bool(np.array_equal(template_distances(lab, weight, each, weight, 50.0, 2, 1), whole))
    True
    """
    n, m = len(lab_a), len(weight_b)
    rows, cols = lab_a.shape[1:3]
    each = lab_b.ndim == 5  # b as each edge of a sees it
    channels_a, channels_b = np.moveaxis(lab_a, -1, 0), np.moveaxis(lab_b, -1, 0)
    if each:  # a channel's pixels in a row, each offset's taken by their numbers: a mask over a slice of the
        # Lab-interleaved templates gathered 1.5 times slower (lookalikes' 12 MP photo, veiled patterns)
        channels_b = np.ascontiguousarray(channels_b).reshape(3, n, m, rows * cols)
    pixels = np.arange(rows * cols).reshape(rows, cols)
    dtype = np.result_type(lab_a, lab_b, np.float32)
    best = np.full((n, m), np.inf, dtype)
    for dy in range(-shift - inward, shift + 1):
        for dx in range(-shift, shift + 1):
            if within is not None and -within - inward <= dy <= within and abs(dx) <= within:
                continue
            a = np.s_[..., max(dy, 0):rows + min(dy, 0), max(dx, 0):cols + min(dx, 0)]
            b = np.s_[..., max(-dy, 0):rows + min(-dy, 0), max(-dx, 0):cols + min(-dx, 0)]
            wa, wb = weight_a[a].reshape(n, -1), weight_b[b].reshape(m, -1)
            seen = wa.any(axis=0) & wb.any(axis=0)  # off the sides' triangles no pair weighs a pixel: half the work
            shown = seen.reshape(weight_a[a].shape[1:])
            wa, wb = wa[:, seen], wb[:, seen]
            kept = None if veil is None else 1 - veil[a].reshape(n, -1)[:, None, seen]  # the print's share under it
            square = step = None
            for la, lb, white in zip(channels_a, channels_b, _WHITE):  # channel by channel, in two buffers
                la = la[a].reshape(n, -1)[:, None, seen]
                # each edge's own b gathered in one step: reshaping its slice first copied it whole (15% of the call)
                lb = np.take(lb, pixels[b][shown], axis=-1) if each else lb[b].reshape(m, -1)[None, :, seen]
                if kept is None:
                    step = np.subtract(la, lb, out=step)
                else:  # a - (b kept + white (1 - kept)) = (a - white) - (b - white) kept
                    step = np.multiply(lb - white, kept, out=step)
                    step -= la - white
                if square is None:
                    square = step * step  # the first channel starts the sum: no zeros to fill and add to
                else:
                    square += np.multiply(step, step, out=step)
            pixel = np.minimum(np.sqrt(square, out=square), truncate, out=square)
            pixel *= wa[:, None, :]
            total = np.einsum("nmp,mp->nm", pixel, wb) / truncate
            # not `wa @ wb.T`: OpenBLAS takes more threads for it from a 36 x 72 size on and spins them 20x the CPU
            best = np.minimum(best, total / np.maximum(np.einsum("np,mp->nm", wa, wb), 1e-6))
    return best


def seam_weight(shape: tuple) -> np.ndarray:
    """How much each pixel of an edge crop speaks for its side.

    The side's triangle (`vision.edges.edge_mask`), fading with depth: the
    figure is cut at the seam, while deep in the tile and near its corners
    other sides' figures crowd in.

    >>> w = seam_weight((4, 8))
    >>> round(float(w[0, 4]), 2), float(w[3, 0])
    (0.91, 0.0)
    """
    rows = shape[0]
    depth = (np.arange(rows)[:, None] + 0.5) / rows
    return (edge_mask(shape) * (1 - _FADE * depth)).astype(np.float32)


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """A uint8 BGR image in float Lab (L 0..100): the space every distance here is in.

    Scaled to 0..1 in one pass, cast and divided as it goes: the same
    values as casting first, without a float copy made and read again
    (the whole a fifth faster on a 12 MP photo's working copy).

    >>> to_lab(np.uint8([[[255, 255, 255], [0, 0, 0]]]))[..., 0].round(1).tolist()
    [[100.0, 0.0]]
    """
    return cv2.cvtColor(np.divide(bgr, np.float32(255), dtype=np.float32), cv2.COLOR_BGR2LAB)


def _delta(labs: np.ndarray, colour: np.ndarray) -> np.ndarray:
    return np.sqrt(across_channels(np.add, (labs - colour) ** 2))


def _commonest(pixels: np.ndarray) -> np.ndarray:
    """The mean of the fullest colour bin: the puzzle's background."""
    pixels = pixels.reshape(-1, 3)
    index = _bin_index(pixels)
    fullest = np.bincount(index).argmax()
    return pixels[index == fullest].mean(axis=0)


def _bin_index(lab: np.ndarray) -> np.ndarray:
    index = np.zeros(lab.shape[:-1], np.int64)
    for channel, (bins, (low, high)) in enumerate(zip(_BINS, _RANGE)):
        k = ((lab[..., channel] - low) * (bins / (high - low))).astype(np.int64)
        index = index * bins + np.clip(k, 0, bins - 1)
    return index


def _histograms(labs: np.ndarray, weight: np.ndarray) -> np.ndarray:
    bins = int(np.prod(_BINS))
    n = labs.shape[0]
    index = _bin_index(labs).reshape(n, -1) + bins * np.arange(n)[:, None]
    hist = np.bincount(index.ravel(), weights=weight.reshape(-1), minlength=n * bins)
    hist = hist.reshape(n, bins).astype(np.float32)
    return hist / np.maximum(hist.sum(axis=1, keepdims=True), 1e-9)
