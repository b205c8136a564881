"""What is table and what is card, in a photo's working copy (`vision.detect`, step 1).

The table is what the photo's border shows: its colours (several, for
wood grain or cloth) are learnt from a band along the border, with the
light falling unevenly across it, and from plain patches alike (a
cloth's checks the border missed) and from a lamp's hotspot (the table's
lightest colour, clipped paler: `_glare`); whatever is far from all of them
is tile (`table_mask`), and so is what a card's dark frame rings (a light card
on a light desk: `_ringed`) or, in a later look, runs along though glare
or a dark check broke it (`_framed`). Card can also be told from table by its sharp
print (`texture_mask`), for faded card on wood or white tiles on a white desk.
"""
from __future__ import annotations

import cv2
import numpy as np

from .describe import to_lab
from .images import across_channels

LINE = 10.0  # Lab lightness a thin line is darker than either side of it: a printed frame
CLIPPED = 245  # a channel this bright may be clipped: its colour is glare's, not the table's
LAMP = 1.5     # a lamp's hotspot makes the table at most this much lighter (Lab lightness)
GAP = 1        # widths of break in a frame whose pieces still group (`_framed`)
FRAMED = 0.7   # share of a card's outline its dark frame runs along, broken by glare or a dark check


def table_mask(image: np.ndarray, region: np.ndarray | None = None, plain: bool = False,
               framed: bool = False, brightest: float | None = None) -> np.ndarray:
    """Pixels that are not table: uint8 mask, 255 = tile.

    The table's colours are learnt from a band along the image border (or
    along the border of ``region``, a uint8 mask: a sheet of paper the tiles
    are printed on): a few k-means centres (wood grain, cloth patterns) in
    Lab, and smooth ramps of light across it (`_table_colours`). Lightness
    counts for less than hue (shadows, glare), and colours covering 5% of the
    band are table; where a channel is clipped, so is the lightest of them
    washed paler (`_glare`: a lamp's hotspot). A ``plain`` ground (a
    catalogue shot, a page) is evenly lit and one colour, while tiles reach
    into its band: lightness counts for more, and only colours covering a
    quarter of the band are table.
    Else a card the table's colour is found by its dark frame or outline
    (`_dark_lines`): what the frame rings is card, figures and all (`_ringed`);
    with ``framed``, also a card whose frame dark checks or glare broke
    (`_framed`: a later look, as it costs a good part of the first), on a
    cloth or a desk. With ``brightest`` the frame's lines are told on each
    pixel's brightest channel, not its lightness (`_brightest`), as lines
    that much darker than either side: a grey frame beside a cloth's dark
    check of a strong hue is no darker than the check, but its brightest
    channel is.

    >>> desk = np.full((120, 160, 3), 225, np.uint8)
    >>> desk[30:90, 50:110] = (228, 238, 244)                         # a cream card
    >>> _ = cv2.rectangle(desk, (51, 31), (108, 88), (40, 40, 40), 2)  # its printed frame
    >>> desk[30:50, 70:90] = (40, 140, 230)                           # a half-figure
    >>> mask = table_mask(desk)
    >>> float(mask[30:90, 50:110].mean() / 255) > 0.9, int(mask[:25].max())
    (True, 0)
    """
    rows, cols = image.shape[:2]
    width = max(2, min(rows, cols) // 150)
    if region is None:
        region = np.full((rows, cols), 255, np.uint8)
    blurred = cv2.GaussianBlur(image, (0, 0), 1.5)
    lightness = 0.6 if plain else 0.2
    lab, centres, threshold, hues = _table_lab(blurred, region, width, lightness, 0.25 if plain else 0.05)
    lightest = centres[np.argmax(centres[:, 0])]
    cloth = len(hues) > 0  # colours of several hues
    distance = _nearest(lab, centres)
    mask = _cleaned((distance > threshold).astype(np.uint8) * region)
    # A table's pattern may miss the border (a checked cloth's light checks):
    # it shows as many plain patches, and is table too.
    shade, least = (lab[..., 0] / lightness, LINE) if brightest is None else (_brightest(blurred), brightest)
    lines = _dark_lines(shade, width, least) & region
    # On a cloth the border's strong colours are checks: plain patches of their
    # hue are cloth though few show a whole check (hard witches 2835: only one
    # of the red checks left apart from the cards was convex, so dim red bits
    # near the border stayed card and bent the tiles sought from).
    strong = centres[np.linalg.norm(centres[:, 1:], axis=1) >= threshold] if cloth else centres[:0]
    pattern = _plain_patches(lab, mask, threshold, lines, checks=strong)
    if len(pattern):
        distance = np.minimum(distance, _nearest(lab, pattern))
    # A lamp's hotspot clips a plain table's lightest colour toward white
    # (a pattern's light colour, a cloth's white check, is no glare).
    if not cloth:
        clipped = across_channels(np.maximum, blurred) >= CLIPPED
        distance[clipped] = np.minimum(distance[clipped], _glare(lab[clipped], lightest))
    mask = _cleaned((distance > threshold).astype(np.uint8) * region)
    if plain:  # lightness counts: a frame is card by its colour already
        return fill_holes(mask)
    ringed = _ringed(mask, lines, width)
    if not framed:
        return ringed
    thin = _dark_lines(shade, max(1, width // 2), least) & region
    return ringed | _framed(mask, lines, thin, width)


def _table_lab(blurred: np.ndarray, region: np.ndarray, width: int, lightness: float, least: float):
    """The photo in Lab (lightness weighted by ``lightness``) with the light
    falling across it taken off, the table's colours learnt along ``region``'s
    border band ``width`` pixels wide (`_table_colours`, each ``least`` of
    the band at least), how far from them
    a colour is no table's, and those of them of another hue than the lightest
    (a cloth's coloured checks; none on wood or a desk).

    Light falls unevenly and tinted: a smooth ramp per channel is taken off.
    On a cloth (colours of several hues) the band's light, and so the
    threshold, stays as it is (`_tint_as_the_band`).
    """
    inside = cv2.erode(region, np.ones((2 * width + 1,) * 2, np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0)
    # The band's pixels by their rows and columns: a few hundredths of the
    # photo, picked out each time without scanning a whole mask again.
    # `cv2.findNonZero` lists them in `np.nonzero`'s order, thirty times faster.
    x, y = cv2.findNonZero(((region > 0) & (inside == 0)).view(np.uint8)).reshape(-1, 2).T
    band = y, x
    lab = to_lab(blurred)
    lab[..., 0] *= lightness
    centres, light = _table_colours(lab, band, least)
    seen = _nearest((lab[band] - light[band])[:, None], centres)
    threshold = max(8.0, 2.5 * float(np.percentile(seen, 75)))
    lightest = centres[np.argmax(centres[:, 0])]
    hues = centres[_hue_off(centres[:, 1:], lightest[1:]) >= threshold]
    if len(hues):
        light = _tint_as_the_band(light, band)
    lab -= light  # in place: a working copy's Lab is not needed apart from its light
    return lab, centres, threshold, hues


def cloth_checks(image: np.ndarray) -> np.ndarray | None:
    """Where a checked cloth's coloured checks lie: uint8 mask, 255 = check;
    None when the table is no cloth of several hues.

    A white card on a cloth's white checks is table to `table_mask`; the
    cloth's other hues (its dark checks and the half-tone bands between)
    reach every part of the cloth within a check, but not into a block of cards.

    >>> cloth = np.full((160, 160, 3), 250, np.uint8)
    >>> for i in range(0, 160, 20):
    ...     cloth[i:i + 10] = cloth[:, i:i + 10] = (200, 60, 30)        # blue gingham
    >>> cloth[50:110, 50:110] = 245                                      # a white card
    >>> checks = cloth_checks(cloth)
    >>> int(checks[60:100, 60:100].max()), int(checks[:, 0].min())
    (0, 255)
    >>> cloth_checks(np.full((160, 160, 3), 120, np.uint8)) is None
    True
    """
    width = max(2, min(image.shape[:2]) // 150)
    region = np.full(image.shape[:2], 255, np.uint8)
    lab, _, threshold, hues = _table_lab(cv2.GaussianBlur(image, (0, 0), 1.5), region, width, 0.2, 0.05)
    return (_nearest(lab, hues) < threshold).astype(np.uint8) * 255 if len(hues) else None


def texture_mask(image: np.ndarray) -> np.ndarray:
    """Pixels that are not table by their fine detail: uint8 mask, 255 = tile.

    Printed art and a card's cut edges are sharp; a table is seen out of
    focus or is smooth. The detail (Laplacian, smoothed over a few pixels)
    is compared with the most the border band shows; thin lines of it (a
    plank's seam, a keyboard's outline) are opened away.
    """
    gray = cv2.GaussianBlur(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32), (0, 0), 1.0)
    detail = cv2.GaussianBlur(np.abs(cv2.Laplacian(gray, cv2.CV_32F)), (0, 0), max(image.shape[:2]) / 400)
    width = max(2, min(image.shape[:2]) // 150)
    band = np.ones(detail.shape, bool)
    band[width:-width, width:-width] = False
    mask = (detail > 2 * np.percentile(detail[band], 90)).astype(np.uint8) * 255
    # Close small plain parts of the art between sharp ones (big ones are
    # holes, filled below); corners stay square, gaps between tiles open.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((2 * width + 1,) * 2, np.uint8))
    kernel = _disk(2 * width)
    return fill_holes(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel))


def _brightest(image: np.ndarray) -> np.ndarray:
    """Each pixel's brightest channel of ``image`` (BGR uint8), on the scale of Lab lightness (0-100).

    A blue check is dark but bright in blue; a grey frame is dark in every channel.

    >>> _brightest(np.uint8([[[200, 60, 30], [60, 60, 60]]])).round().tolist()  # a blue check, a grey frame
    [[78.0, 24.0]]
    """
    return across_channels(np.maximum, image).astype(np.float32) * (100 / 255)


def _dark_lines(lightness: np.ndarray, width: int, least: float = LINE) -> np.ndarray:
    """Thin lines ``least`` darker than either side of them at least: uint8 mask, 255 = line.

    A card's printed frame or dark outline, and its cut edge, whatever the
    card's colour; shadows and uneven light are broad, no lines.
    """
    kernel = _disk(width)
    return (cv2.morphologyEx(lightness, cv2.MORPH_BLACKHAT, kernel) > least).astype(np.uint8) * 255


def _ringed(mask: np.ndarray, lines: np.ndarray, width: int) -> np.ndarray:
    """``mask`` with holes filled, also those that ``lines`` close, on a card's face.

    A light card on a light table shows as its figures and a ring of frame:
    what the ring holds is card, and so is the ring. Where ``lines`` and
    ``mask`` ring a hole with figures in its hull, all they hold within
    that hull, ``width`` out for the ring, is card. Table that lines and
    tiles happen to close in holds no figures (a strip of plank between two
    seams and two tiles, a cut-out tile's place on a printed sheet): it
    stays table.
    """
    both = mask | lines
    closed = fill_holes(both)
    least = (max(mask.shape) / 150) ** 2  # smaller holes are cracks and specks
    faces = np.zeros_like(mask)
    for outline in cv2.findContours(closed & ~both, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        if cv2.contourArea(outline) < least:
            continue
        hull = cv2.convexHull(outline)
        x, y, w, h = cv2.boundingRect(hull)
        inside = cv2.fillConvexPoly(np.zeros((h, w), np.uint8), hull - np.int32([x, y]), 255)
        if cv2.mean(mask[y:y + h, x:x + w], inside)[0] > 0.05 * 255:  # a face carries figures; a gap, none
            cv2.fillConvexPoly(faces, hull, 255)
    faces = cv2.dilate(faces, _disk(width))
    return fill_holes(mask) | (closed & faces)


def _framed(mask: np.ndarray, lines: np.ndarray, thin: np.ndarray, width: int) -> np.ndarray:
    """Cards whose dark frame runs along most of their outline, broken or not: uint8 mask.

    Glare on a frame, or a dark check beside it, breaks the ring `_ringed`
    needs, and the card falls apart into its figures and stretches of
    frame. Those pieces lie across each other's convex hulls (a card is
    convex): grouped so, they are a card when ``lines`` run along most of
    their hull's outline (`FRAMED`) and figures lie inside, off the frame's
    band (half-figures lie along it, each outlined dark: lines too). A gap's strip
    of table, a keyboard, a plank's seam carry no figures or no such
    outline. The card is the hull of its colour and its ``thin`` lines (a
    printed frame), not of the wide ones: a card's cut side seen at a
    slant is a dark band outside its face.
    """
    pieces = mask | lines
    groups = cv2.dilate(pieces, _disk(GAP * width))  # across a short break in the frame
    for _ in range(3):  # pieces that a grown hull now reaches join it
        hulls = np.zeros_like(mask)
        for outline in cv2.findContours(groups, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
            cv2.fillConvexPoly(hulls, cv2.convexHull(outline), 255)
        groups = hulls
    near = cv2.dilate(lines, _disk(2 * width))
    least = (max(mask.shape) / 40) ** 2  # a good part of a tile
    faces = np.zeros_like(mask)
    for group in cv2.findContours(groups, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]:
        if cv2.contourArea(group) < least:
            continue
        held = cv2.fillConvexPoly(np.zeros_like(mask), group, 255)
        outline = cv2.convexHull(cv2.findNonZero(pieces & held))  # the pieces', not grown
        rim = cv2.polylines(np.zeros_like(mask), [outline], True, 255)
        face = cv2.fillConvexPoly(np.zeros_like(mask), outline, 255)
        # Figures lie inside the frame; their own dark outlines are lines too, so only the frame's band is left out.
        inner = face & ~cv2.dilate(rim, _disk(2 * width))
        if cv2.mean(near, rim)[0] > FRAMED * 255 and cv2.mean(mask, inner)[0] > 0.02 * 255:
            cv2.fillConvexPoly(faces, cv2.convexHull(cv2.findNonZero((mask | thin) & held)), 255)
    return faces


def _disk(radius: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2)


def _cleaned(mask: np.ndarray) -> np.ndarray:
    """Off: table speckle. Close: small gaps where a tile's art matches the table."""
    kernel = _disk(2)
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel)


def _plain_patches(lab: np.ndarray, mask: np.ndarray, near: float, lines: np.ndarray,
                   least: int = 2, checks: np.ndarray | None = None) -> np.ndarray:
    """Colours (Lab rows) of the mask's plain patches, when the table has a pattern of them.

    Tiles carry pictures; a patch of one even colour, the size of a good part
    of a tile, is table; so is one far plainer inside than at its rim (a
    check's blurred rim is half the colour of those around it). The table
    has a pattern (a cloth's checks) when at least ``least`` convex ones
    share a colour (a picture's plain sky is no convex shape); then every
    plain patch of such a colour's hue, however pale or dim (a check in a
    dark corner), is table, also where glare or a tile nearby bent its
    outline. A plain patch of another hue is a card's plain face, a bit of
    it the mask split off (teal frog cards on red checks, light-blue sports
    cards on blue ones: taken for a check too, it made every card's face
    table). Colours within ``near`` count as one. A patch ringed by
    ``lines`` (a uint8 mask: a card's frame or cut edge) is a card, however
    plain (worn vintage card); a check has no outline. ``checks`` (Lab rows):
    colours known to be the cloth's already (its strong colours along the
    border), whose hue counts as a pattern's though no two convex patches
    show it (checks in the middle joined to cards, the rest cut by the
    border or bent by the light).
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    plain, solid = [], []
    for label in 1 + np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= (max(mask.shape) / 40) ** 2):
        x, y, w, h = stats[label, :4]
        patch = (labels[y:y + h, x:x + w] == label).astype(np.uint8)
        mean, spread = cv2.meanStdDev(lab[y:y + h, x:x + w], mask=patch)
        # A white check's rim, blurred half blue, looks unplain: its inside is
        # far plainer (a figure's plain part is only about as plain inside).
        inside = cv2.distanceTransform(np.pad(patch, 1), cv2.DIST_L2, 3)[1:-1, 1:-1]
        core = (inside > 0.1 * np.sqrt(stats[label, cv2.CC_STAT_AREA])).astype(np.uint8)
        core_spread = cv2.meanStdDev(lab[y:y + h, x:x + w], mask=core)[1] if core.any() else np.inf
        spread = min(np.linalg.norm(spread), 2 * np.linalg.norm(core_spread))
        rim = cv2.morphologyEx(patch, cv2.MORPH_GRADIENT, np.ones((7, 7), np.uint8)) > 0
        if spread < 0.5 * near and lines[y:y + h, x:x + w][rim].mean() < 0.1 * 255:
            plain.append(mean.ravel())
            if _solid(patch):
                solid.append(mean.ravel())
    solid = np.float32(solid).reshape(-1, 3)
    repeated = solid[[(np.linalg.norm(solid - colour, axis=1) < near).sum() >= least for colour in solid]]  # checks
    if checks is not None:
        repeated = np.concatenate([repeated, np.float32(checks).reshape(-1, 3)])
    if not len(repeated):
        return np.empty((0, 3), np.float32)
    colours = []
    for colour in plain:
        if any(_hue_off(colour[1:], check[1:]) < near for check in repeated) \
                and all(np.linalg.norm(colour - other) >= near / 2 for other in colours):
            colours.append(colour)
    return np.float32(colours)


def _table_colours(lab: np.ndarray, band: tuple, least: float, rounds: int = 2):
    """The table's colours on the band (its pixels' rows and columns, as
    `np.nonzero` gives them), and the light falling across it.

    Alternates k-means colours (a table's pattern) with quadratic ramps per
    channel fitted to what the colours leave over, so a checked cloth's
    pattern is not taken for light and uneven, tinted light not for pattern.
    Returns the centres covering at least ``least`` of the band (tiles may
    reach into it) and the ramps over the whole image.
    """
    rows, cols = lab.shape[:2]
    y, x = band
    where = _quadratic_terms(x / cols - 0.5, y / rows - 0.5)
    seen = lab[band]
    light = np.zeros_like(seen)
    for _ in range(rounds):
        cv2.setRNGSeed(0)  # the same photo must always give the same tiles and ids
        left = seen - light
        _, labels, centres = cv2.kmeans(np.ascontiguousarray(left[::4]), 4, None,
                                        (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5),
                                        4, cv2.KMEANS_PP_CENTERS)
        # each colour's distance a channel plane at a time (as `np.linalg.norm` over
        # the short last axis, the same sums in the same order, seven times faster)
        nearest = np.argmin([np.sqrt(across_channels(np.add, np.square(left - c))) for c in centres], axis=0)
        fit, *_ = np.linalg.lstsq(where, seen - centres[nearest], rcond=None)
        fit[0] -= (where @ fit).mean(axis=0)  # the colours keep the mean
        light = where @ fit
    share = np.bincount(labels.ravel(), minlength=len(centres)) / len(labels)
    return centres[share >= least], _ramps(fit.astype(np.float32), rows, cols)


def _ramps(fit: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """The quadratic ramps ``fit`` (6 terms, as `_quadratic_terms`, by 3 channels) over a
    ``rows`` x ``cols`` image: (rows, cols, 3) float32.

    Worked out a channel at a time: numpy broadcasts a short last axis
    pixel by pixel, twice as slow on a working copy; each channel's terms
    are summed in place and the three interleaved by `cv2.merge` (a third
    of the time of a sum making a new array per term and `np.dstack`: the
    same sums, in the same order, so the same values).

    >>> fit = np.zeros((6, 3), np.float32); fit[0] = 1, 2, 3; fit[1, 0] = 4  # level, and a slope across
    >>> ramps = _ramps(fit, 2, 4)
    >>> ramps.shape, ramps[0, :, 0].tolist(), ramps[1, 3].tolist()
    ((2, 4, 3), [-1.0, 0.0, 1.0, 2.0], [2.0, 2.0, 3.0])
    """
    x = np.linspace(-0.5, 0.5, cols, endpoint=False, dtype=np.float32)[None, :]
    y = np.linspace(-0.5, 0.5, rows, endpoint=False, dtype=np.float32)[:, None]
    planes = []
    for f0, f1, f2, f3, f4, f5 in fit.T:
        plane = f0 + f1 * x + f2 * y
        plane += f3 * x * x
        plane += np.multiply(f4 * x, y)
        plane += f5 * y * y
        planes.append(plane)
    return cv2.merge(planes)


def _tint_as_the_band(light: np.ndarray, band: tuple) -> np.ndarray:
    """``light`` (Lab ramps) with its tint (a, b) inside kept to what the ``band`` (its pixels'
    rows and columns) saw.

    On a cloth of several hues the tint ramps' curvature along the band
    comes from its strong colours dimming towards the corners (a vignette
    shrinks a red check's chroma, not a white one's); carried into the
    middle it tints the white checks there off the cloth's white. (On one
    colour, wood or a desk, the ramp follows that colour's own chroma and
    stands.)
    """
    seen = light[band]
    kept = light.copy()
    kept[..., 1:] = np.clip(light[..., 1:], seen[:, 1:].min(axis=0), seen[:, 1:].max(axis=0))
    return kept


def _quadratic_terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1).astype(np.float32)


def _nearest(lab: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Each pixel's distance to the nearest centre.

    |x - c|^2 = |x|^2 - 2 x.c + |c|^2: one affine transform per centre,
    each folded into the nearest so far as it comes (no stack of them all).

    >>> _nearest(np.float32([[[3, 4, 0], [0, 0, 1]]]), np.float32([[0, 0, 0], [0, 4, 0]])).tolist()
    [[3.0, 1.0]]
    """
    length = cv2.transform(np.square(lab), np.ones((1, 3), np.float32))
    nearest = None
    for c in centres:
        this = cv2.transform(lab, np.float32([[*(-2 * c), c @ c]]))
        nearest = this if nearest is None else np.minimum(nearest, this, out=nearest)
    nearest += length
    return np.sqrt(np.maximum(nearest, 0, out=nearest), out=nearest)


def _glare(lab: np.ndarray, colour: np.ndarray) -> np.ndarray:
    """Each pixel's distance in hue from ``colour`` washed toward white by glare.

    Glare makes the table lighter, up to `LAMP` times (white art on a dark
    table is no glare), and paler, but keeps half its hue at least (white
    glare on a tile's art is no tan table's); pixels no lighter or far
    lighter are at infinity.

    >>> lavender = np.float32([15, 14, -18])  # Lab, lightness weighted as in `table_mask`
    >>> pixels = np.float32([[[19, 7, -9], [19, 0, 0], [19, -7, 9], [10, 7, -9], [30, 7, -9]]])
    >>> print(_glare(pixels, lavender).round(1))  # paler, white, green, darker, far lighter
    [[ 0.  11.4 22.8  inf  inf]]
    """
    off = _hue_off(lab[..., 1:], colour[1:], kept=0.5)
    lighter = (lab[..., 0] > colour[0]) & (lab[..., 0] < LAMP * colour[0])
    return np.where(lighter, off, np.inf).astype(np.float32)


def _hue_off(ab: np.ndarray, chroma: np.ndarray, kept: float = 0.0) -> np.ndarray:
    """How far colours (a, b in the last axis) are from ``chroma`` or a paler
    one of its hue keeping ``kept`` of it: from the line between them."""
    share = np.clip(ab @ chroma / max(float(chroma @ chroma), 1e-6), kept, 1)
    return np.linalg.norm(ab - share[..., None] * chroma, axis=-1)


def _solid(patch: np.ndarray) -> bool:
    """Whether a patch (uint8 mask) nearly fills its convex hull."""
    contours, _ = cv2.findContours(patch, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    return cv2.contourArea(outline) > 0.9 * cv2.contourArea(cv2.convexHull(outline))


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill what the outside cannot reach: art that matches the table, inside a tile."""
    outside = np.pad(mask, 1)
    flood = np.zeros((outside.shape[0] + 2, outside.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, flood, (0, 0), 255)
    return mask | ~outside[1:-1, 1:-1]
