"""Find the tiles in a photo or scan: one quadrilateral per tile.

The way a person does it: see what is not table, take each patch of it as a
tile, or as a block of tiles laid edge to edge that the straight seams cut
into cells, then put a ruler along each side to place the corners exactly.

1. `table_mask`: the table is what the photo's border shows. Its colours
   (several, for wood grain or cloth) are learnt from a band along the border,
   with the light falling unevenly across it, and from plain patches alike
   (a cloth's checks the border missed: `_plain_patches`); whatever is far
   from all of them is tile. If that finds no puzzle, a second look takes
   the ground as plain (catalogue shots, white pages), and a third tells
   card from table by its sharp print (`texture_mask`).
2. `blocks`: each patch's outline, simplified to the smallest quadrilateral
   around it; patches that are no tile (round, plain, cut by the photo's
   edge: `_cut_off`) are dropped, and a printed sheet is looked into
   (`on_sheet`).
3. `seam_grid`, `cells`: a block is split into rows x cols square cells
   where seams run straight across it (the gap or cut line between
   touching tiles); lone tiles' size checks the count (`sized_grids`).
4. `refine`: at full resolution, each side's edge is found along the side's
   normal (the outermost line of steps running the side: `_outermost_line`)
   and a line is fitted to it (on the card's face, not the band of its cut
   side: `_face_sides`); the corners are where lines meet.
5. `shape_misfits`: the tiles check each other's shape under perspective; a
   tile that lost a strip to the table takes the shape the others give it
   where its edge is found there (`_reshaped`).
6. `problem` says, in one line, what keeps the tiles found from being a
   puzzle (missing, extra, overlapping, misshapen, out of shape).

Steps 1 to 3 run on a copy about `WORK_SIDE` pixels wide, so finding tiles
costs the same for a 1 MP scan and a 48 MP photo; only step 4 reads the full
resolution, and only along the tile sides.

Corners come as NW, NE, SE, SW in the *reading orientation*: the N side is the
side facing most upward in the image. Tiles come in reading order: centres in
rows top to bottom (rows follow the tiles' own tilt), then left to right.
"""
from __future__ import annotations

from itertools import combinations

import cv2
import numpy as np

WORK_SIDE = 1024      # long side of the working copy, pixels
MAX_CELLS = 7         # most rows or columns a block of touching tiles may have
MISFIT = 0.14         # most a tile may be stretched from the shape the others give it (`shape_misfits`)


def find_tiles(image: np.ndarray) -> list[np.ndarray]:
    """Every tile in the photo, as its four corners, in reading order.

    Parameters
    ----------
    image : (rows, cols, 3) uint8 ndarray
        The photo, BGR, as `vision.images.read_image` gives it.

    Returns
    -------
    tiles : list of (4, 2) float32 ndarrays
        Each tile's NW, NE, SE, SW corners in ``image`` pixels (x, y), N side
        facing most upward; listed in reading order, so tile id = index + 1.

    Examples
    --------
    >>> table = np.full((300, 400, 3), (40, 90, 140), np.uint8)
    >>> for x, y in ((60, 50), (240, 60)):
    ...     table[y:y + 100, x:x + 100] = (200, 60, 60)
    ...     table[y + 30:y + 70, x + 30:x + 70] = (60, 200, 200)  # a picture
    >>> [np.round(tile[0], -1).tolist() for tile in find_tiles(table)]  # NW corners
    [[60.0, 50.0], [240.0, 60.0]]
    """
    shrink = -(-max(image.shape[:2]) // WORK_SIDE)  # whole pixels average fastest
    small = image if shrink == 1 else cv2.resize(
        image, (image.shape[1] // shrink, image.shape[0] // shrink), interpolation=cv2.INTER_AREA)
    scale = small.shape[1] / image.shape[1]
    # Lightness tells tile from table less than colour does under uneven light;
    # on a plain, evenly lit ground (catalogue shots, white pages) it tells more;
    # card the table's colour (faded card on wood, white on a white desk) is
    # told by its sharp print.
    first = _tiles_seen(image, small, scale, table_mask(small))
    if problem(first) is None:
        return first
    # On a plain ground a printed border may be the table's colour too: the
    # card's edge is sought further out. (The print look's mask reaches the
    # card's edge, and its drop shadow's: not further.) Colour breaks a tile
    # up or runs tiles together, never makes them look larger than they are:
    # a later look whose tiles are far smaller than the first look's cut
    # tiles into bits (a grid of a tile's print).
    size = np.median([cv2.contourArea(tile) for tile in first]) if len(first) >= 2 else 0
    for mask, plain, reach in ((table_mask(small, plain=True), True, 0.12), (texture_mask(small), False, 0.06)):
        seen = _tiles_seen(image, small, scale, mask, plain, reach)
        if problem(seen) is None and np.median([cv2.contourArea(tile) for tile in seen]) > size / 2:
            return seen
    return first


def _tiles_seen(image: np.ndarray, small: np.ndarray, scale: float, mask: np.ndarray,
                plain: bool = False, reach: float = 0.06) -> list[np.ndarray]:
    """`find_tiles` with ``mask`` telling tile from table; a printed sheet's
    ground is looked into as ``plain`` or not (`on_sheet`); ``reach``: how
    far out of the mask, over the side, a tile's edge is sought (`refine`)."""
    found = [inner for block in blocks(mask, small) for inner in on_sheet(small, block, plain)]
    found = [block for block in found if not _cut_off(block, found, mask.shape)]
    seams = [seam_profiles(small, mask, block) for block in found]
    grids = [seam_grid(block, profiles) for block, profiles in zip(found, seams)]
    # Lone tiles' size overrules seams that the art fakes, where the seams it
    # asks for show at least faintly.
    grids = [sized if _weakest_seam(profiles, sized) > 0.6 else grid
             for grid, sized, profiles in zip(grids, sized_grids(found, grids), seams)]
    # Each pixel belongs to the nearest block: no edge is sought past the middle
    # of a gap (a neighbour's border may be missing from the mask, as may a tile's own).
    free = np.full(small.shape[:2], 255, np.uint8)
    for block in found:
        cv2.fillConvexPoly(free, np.int32(np.round(block)), 0)
    _, nearest = cv2.distanceTransformWithLabels(free, cv2.DIST_L2, 5, labelType=cv2.DIST_LABEL_CCOMP)
    nearest = nearest.astype(np.float32)
    tiles, doubtful = [], []
    for block, grid in zip(found, grids):
        x, y = np.clip(np.int32(block.mean(axis=0)), 0, np.array(free.shape[::-1]) - 1)
        outline = refine(image, (block + 0.5) / scale - 0.5, reach=reach, fence=_fence(nearest, scale, nearest[y, x]))
        kept, doubts = [], []
        for cell in cells(outline, grid):
            cover = _tile_share(mask, (cell + 0.5) * scale - 0.5)
            # Seams inside a block are placed evenly: a short refine finds the
            # real one, and cannot reach the printed border just inside it.
            cell = cell if grid == (1, 1) else refine(image, cell, 1, 0.015, outline=False)
            if cover > 0.5:
                kept.append(cell)
            elif cover > 0.2 and grid != (1, 1):
                doubts.append((cover, cell))
        tiles += kept
        doubtful += doubts if len(kept) >= 2 * len(doubts) else []  # a block of tiles, not a keyboard
    # A block's cell that is mostly table colour is a tile whose art is that
    # colour (a cream tile on white checks) when a square grid lacks it.
    tiles = [tile for tile in tiles if not _speck(tile, tiles)]
    lacking = max(9, round(np.ceil(np.sqrt(len(tiles)))) ** 2) - len(tiles)
    if 0 < lacking <= len(doubtful):
        tiles += [cell for _, cell in sorted(doubtful, key=lambda pair: pair[0])[-lacking:]]
    tiles = [orient(tile) for tile in tiles]
    return reading_order(_reshaped(image, tiles))


# --- 1. what is not table ----------------------------------------------------

def table_mask(image: np.ndarray, region: np.ndarray | None = None, plain: bool = False) -> np.ndarray:
    """Pixels that are not table: uint8 mask, 255 = tile.

    The table's colours are learnt from a band along the image border (or
    along the border of ``region``, a uint8 mask: a sheet of paper the tiles
    are printed on): a few k-means centres (wood grain, cloth patterns) in
    Lab, and smooth ramps of light across it (`_table_colours`). Lightness
    counts for less than hue (shadows, glare), and colours covering 5% of the
    band are table. A ``plain`` ground (a catalogue shot, a page) is evenly
    lit and one colour, while tiles reach into its band: lightness counts
    for more, and only colours covering a quarter of the band are table.
    """
    rows, cols = image.shape[:2]
    width = max(2, min(rows, cols) // 150)
    if region is None:
        region = np.full((rows, cols), 255, np.uint8)
    inside = cv2.erode(region, np.ones((2 * width + 1,) * 2, np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0)
    band = (region > 0) & (inside == 0)
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.5).astype(np.float32) / 255, cv2.COLOR_BGR2LAB)
    lab[..., 0] *= 0.6 if plain else 0.2
    centres, light = _table_colours(lab, band, 0.25 if plain else 0.05)
    lab -= light  # light falls unevenly and tinted: a smooth ramp per channel
    distance = _nearest(lab, centres)
    threshold = max(8.0, 2.5 * float(np.percentile(distance[band], 75)))
    mask = _cleaned((distance > threshold).astype(np.uint8) * region)
    # A table's pattern may miss the border (a checked cloth's light checks):
    # it shows as many plain patches, and is table too.
    pattern = _plain_patches(lab, mask, threshold)
    if len(pattern):
        distance = np.minimum(distance, _nearest(lab, pattern))
        mask = _cleaned((distance > threshold).astype(np.uint8) * region)
    return _fill_holes(mask)


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
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * width + 1,) * 2)
    return _fill_holes(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel))


def _cleaned(mask: np.ndarray) -> np.ndarray:
    """Off: table speckle. Close: small gaps where a tile's art matches the table."""
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    return cv2.morphologyEx(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel), cv2.MORPH_CLOSE, kernel)


def _plain_patches(lab: np.ndarray, mask: np.ndarray, near: float, least: int = 2) -> np.ndarray:
    """Colours (Lab rows) of the mask's plain patches, when the table has a pattern of them.

    Tiles carry pictures; a patch of one even colour, the size of a good part
    of a tile, is table. The table has a pattern (a cloth's checks) when at
    least ``least`` convex ones share a colour (a picture's plain sky is no
    convex shape); then every plain patch is table, also where glare or a
    tile nearby bent its outline. Colours within ``near`` count as one.
    """
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    plain, solid = [], []
    for label in 1 + np.flatnonzero(stats[1:, cv2.CC_STAT_AREA] >= (max(mask.shape) / 40) ** 2):
        x, y, w, h = stats[label, :4]
        patch = (labels[y:y + h, x:x + w] == label).astype(np.uint8)
        mean, spread = cv2.meanStdDev(lab[y:y + h, x:x + w], mask=patch)
        if np.linalg.norm(spread) < 0.5 * near:
            plain.append(mean.ravel())
            if _solid(patch):
                solid.append(mean.ravel())
    solid = np.float32(solid).reshape(-1, 3)
    if not any((np.linalg.norm(solid - colour, axis=1) < near).sum() >= least for colour in solid):
        return np.empty((0, 3), np.float32)
    colours = []
    for colour in plain:
        if all(np.linalg.norm(colour - other) >= near / 2 for other in colours):
            colours.append(colour)
    return np.float32(colours)


def _table_colours(lab: np.ndarray, band: np.ndarray, least: float, rounds: int = 2):
    """The table's colours on the band, and the light falling across it.

    Alternates k-means colours (a table's pattern) with quadratic ramps per
    channel fitted to what the colours leave over, so a checked cloth's
    pattern is not taken for light and uneven, tinted light not for pattern.
    Returns the centres covering at least ``least`` of the band (tiles may
    reach into it) and the ramps over the whole image.
    """
    rows, cols = band.shape
    y, x = np.nonzero(band)
    where = _quadratic_terms(x / cols - 0.5, y / rows - 0.5)
    seen = lab[band]
    light = np.zeros_like(seen)
    for _ in range(rounds):
        cv2.setRNGSeed(0)  # the same photo must always give the same tiles and ids
        _, labels, centres = cv2.kmeans(np.ascontiguousarray((seen - light)[::4]), 4, None,
                                        (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5),
                                        4, cv2.KMEANS_PP_CENTERS)
        nearest = np.argmin([np.linalg.norm(seen - light - c, axis=1) for c in centres], axis=0)
        fit, *_ = np.linalg.lstsq(where, seen - centres[nearest], rcond=None)
        fit[0] -= (where @ fit).mean(axis=0)  # the colours keep the mean
        light = where @ fit
    share = np.bincount(labels.ravel(), minlength=len(centres)) / len(labels)
    x = np.linspace(-0.5, 0.5, cols, endpoint=False, dtype=np.float32)[None, :, None]
    y = np.linspace(-0.5, 0.5, rows, endpoint=False, dtype=np.float32)[:, None, None]
    f = fit.astype(np.float32)
    return centres[share >= least], f[0] + f[1] * x + f[2] * y + f[3] * x * x + f[4] * x * y + f[5] * y * y


def _quadratic_terms(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1).astype(np.float32)


def _nearest(lab: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """Each pixel's distance to the nearest centre.

    |x - c|^2 = |x|^2 - 2 x.c + |c|^2: one affine transform per centre.
    """
    length = cv2.transform(np.square(lab), np.ones((1, 3), np.float32))
    nearest = np.minimum.reduce([cv2.transform(lab, np.float32([[*(-2 * c), c @ c]])) for c in centres])
    return np.sqrt(np.maximum(length + nearest, 0))


def _solid(patch: np.ndarray) -> bool:
    """Whether a patch (uint8 mask) nearly fills its convex hull."""
    contours, _ = cv2.findContours(patch, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    return cv2.contourArea(outline) > 0.9 * cv2.contourArea(cv2.convexHull(outline))


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill what the outside cannot reach: art that matches the table, inside a tile."""
    outside = np.pad(mask, 1)
    flood = np.zeros((outside.shape[0] + 2, outside.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, flood, (0, 0), 255)
    return mask | ~outside[1:-1, 1:-1]


# --- 2. patches to quadrilaterals ---------------------------------------------

def blocks(mask: np.ndarray, image: np.ndarray) -> list[np.ndarray]:
    """One quadrilateral (4, 2) float32 per patch of the mask: a tile or a block.

    Patches are cut apart where only a thin bridge joins them (a shadow in
    the gap between two tiles). A patch whose convex hull is a quadrilateral
    gives that quadrilateral (bites of table-coloured art along its sides do
    not matter). Any other patch (tiles touching at an angle, an L of tiles)
    gives its smallest enclosing rectangle, to be cut into cells and emptied
    of table. Patches whose outline does not follow their quadrilateral
    (glare, round things) or that are plain (a cloth's checks, a patch of
    light) are no tiles: tiles carry pictures.
    """
    radius = max(2, round(max(mask.shape) / 150))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))
    count, labels, boxes, _ = cv2.connectedComponentsWithStats(cv2.erode(mask, kernel))
    smallest = (max(mask.shape) / 40) ** 2
    found = []
    for label in range(1, count):
        x, y, w, h, area = boxes[label]
        if area < smallest / 2:
            continue
        x0, y0 = max(x - 2 * radius, 0), max(y - 2 * radius, 0)
        core = (labels[y0:y + h + 2 * radius, x0:x + w + 2 * radius] == label).astype(np.uint8)
        patch = cv2.dilate(core, kernel) & mask[y0:y0 + core.shape[0], x0:x0 + core.shape[1]]
        contours, _ = cv2.findContours(patch, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea) + np.int32([x0, y0]))
        quad = outline_quad(hull)
        # Not a quadrilateral, or one a tile could not look like (a side lost
        # to table-coloured art leaves opposite sides far from parallel).
        if cv2.contourArea(hull) > 1.1 * cv2.contourArea(quad) or not _parallel(quad):
            quad = np.float32(cv2.boxPoints(cv2.minAreaRect(hull)))
        box = image[y0:y0 + core.shape[0], x0:x0 + core.shape[1]]
        if _traced(quad, hull) > 0.65 and max(cv2.meanStdDev(box, mask=core)[1]) > 12:
            found.append(_clockwise(quad))
    return found


def _parallel(quad: np.ndarray, most: float = np.radians(12)) -> bool:
    """Whether opposite sides are within ``most`` of parallel (a square under perspective)."""
    along = np.roll(quad, -1, axis=0) - quad
    along /= np.linalg.norm(along, axis=1, keepdims=True)
    return all(abs(along[i][0] * along[i + 2][1] - along[i][1] * along[i + 2][0]) < np.sin(most) for i in (0, 1))


def _traced(quad: np.ndarray, hull: np.ndarray) -> float:
    """How much of the quad's outline the patch's hull follows (0 to 1).

    Tiles have straight sides: a blob of glare or a round object does not.
    """
    corners = np.float32(quad)
    side = np.sqrt(cv2.contourArea(corners))
    t = np.linspace(0, 1, 24, endpoint=False, dtype=np.float32)[:, None]
    outline = np.concatenate([a + t * (b - a) for a, b in zip(corners, np.roll(corners, -1, axis=0))])
    near = [abs(cv2.pointPolygonTest(hull, (float(x), float(y)), True)) < 0.06 * side for x, y in outline]
    return float(np.mean(near))


def on_sheet(image: np.ndarray, block: np.ndarray, plain: bool = False) -> list[np.ndarray]:
    """The blocks printed on ``block`` when it is a sheet of paper; else [block].

    A scanned or photographed printout shows as one patch: the page. Looked
    at with the page as the table, it holds several tiles or blocks.
    """
    x, y, w, h = cv2.boundingRect(np.int32(np.round(block)))
    x, y = max(x, 0), max(y, 0)
    crop = image[y:y + h, x:x + w]
    if min(crop.shape[:2]) < 32:
        return [block]
    page = np.zeros(crop.shape[:2], np.uint8)
    cv2.fillConvexPoly(page, np.int32(np.round(block - [x, y])), 255)
    page = cv2.erode(page, np.ones((5, 5), np.uint8))  # the page's edge mixes with the table
    margin = crop[(page > 0) & (cv2.erode(page, np.ones((9, 9), np.uint8)) == 0)].astype(np.int16)
    if len(margin) == 0 or np.mean(np.abs(margin - np.median(margin, axis=0)).sum(axis=1) < 30) < 0.9:
        return [block]  # a page has a plain margin; a tile's art runs to its edge
    inner = blocks(table_mask(crop, page, plain), crop)
    areas = [cv2.contourArea(quad) for quad in inner]
    if len(inner) < 2 or min(areas) < cv2.contourArea(block) / 100 or max(areas) > 4 * min(areas):
        return [block]
    return [quad + np.float32([x, y]) for quad in inner]


def outline_quad(hull: np.ndarray) -> np.ndarray:
    """The smallest quadrilateral around a convex hull lying on four of its sides.

    Sides are extended to meet, so a corner the mask lost (art the colour of
    the table cut it off) or rounded off comes back: the cut is no side of
    the smallest quadrilateral around the hull.
    """
    points = cv2.approxPolyDP(hull, 0.015 * cv2.arcLength(hull, True), True)[:, 0].astype(np.float32)
    sides = [(a, b - a) for a, b in zip(points, np.roll(points, -1, axis=0))]
    best, smallest = np.float32(cv2.boxPoints(cv2.minAreaRect(hull))), np.inf
    for chosen in combinations(sides, 4):
        corners = [_meet(chosen[i - 1], chosen[i]) for i in range(4)]
        if any(c is None for c in corners):
            continue
        quad = np.float32(corners)
        area = cv2.contourArea(quad)
        if area < smallest and cv2.isContourConvex(quad) and all(
                cv2.pointPolygonTest(quad, (float(x), float(y)), True) > -2 for x, y in points):
            best, smallest = quad, area
    return best


# --- 3. blocks to cells ---------------------------------------------------------

def seam_grid(block: np.ndarray, profiles: list[np.ndarray]) -> tuple[int, int]:
    """(rows, cols) of square cells that the seams across a block show.

    Every grid whose shape fits the block is tried against the block's seam
    profiles (`seam_profiles`): a grid is there when each inner seam scores
    above 1. Of these, the grid whose weakest seam is clearest wins.
    """
    width, height = _block_size(block)
    # A tilted square looks at most about 1.4 times as long one way as the other.
    shown = {(rows, cols): _weakest_seam(profiles, (rows, cols), floor=1)
             for rows in range(1, MAX_CELLS + 1) for cols in range(1, MAX_CELLS + 1)
             if rows * cols > 1 and 0.7 < (width / height) / (cols / rows) < 1.43}
    shown = {grid: weakest for grid, weakest in shown.items() if weakest > 1}
    if not shown:
        return (1, 1)
    # Art fakes a seam here and there, never as clearly as the real ones all
    # are; a finer grid wins only if its seams are as clear (4x4 over 2x2),
    # and squarer cells before more of them (3x3 over 3x4 sharing a seam).
    clearest = max(shown.values())
    return max((grid for grid, weakest in shown.items() if weakest >= 0.8 * clearest),
               key=lambda grid: (abs(np.log((width / height) / (grid[1] / grid[0]))) < np.log(1.2),
                                 grid[0] * grid[1]))


def _weakest_seam(profiles: list[np.ndarray], grid: tuple[int, int], floor: float = -np.inf) -> float:
    """The lowest score of the grid's inner seams (infinite for one cell).

    Stops at the first seam scoring ``floor`` or less: that grid is not there.
    """
    across, down = profiles
    rows, cols = grid
    seams = ([(across, c / cols, rows, 0.1 / cols) for c in range(1, cols)]
             + [(down, r / rows, cols, 0.1 / rows) for r in range(1, rows)])
    weakest = np.inf
    for seam in seams:
        weakest = min(weakest, _seam(*seam))
        if weakest <= floor:
            break
    return weakest


def _seam(scores: np.ndarray, where: float, cells: int, slack: float) -> float:
    """How clearly a seam runs down ``scores`` (rows along the seam) at a
    fraction ``where`` of its width, past ``cells`` cells.

    Cell by cell: the median along the seam (art crosses it here and there)
    at its best place within ``slack`` of ``where``, since tiles laid by hand
    sit a little off the even spacing, each its own way. The median over
    the cells: art fakes a seam in one cell, not all the way.

    >>> scores = np.zeros((90, 90), np.float32)
    >>> scores[:30, 31] = scores[30:60, 29] = scores[60:, 30] = 2
    >>> _seam(scores, 1 / 3, 3, 0.03), _seam(scores, 1 / 2, 3, 0.03)
    (2.0, 0.0)
    """
    length, width = scores.shape
    near = scores[:, max(0, round((where - slack) * width)):round((where + slack) * width) + 1]
    # Each cell's middle 80% (not the seams crossing this one), every other row.
    rows = (np.arange(cells)[:, None] + np.arange(0.1, 0.9, 2 * cells / length)) * length / cells
    along = np.median(near[np.int32(rows)], axis=1)  # (cells, places)
    return float(np.median(along.max(axis=1)))


def _block_size(block):
    """Mean width and height of a clockwise quadrilateral, in pixels."""
    sides = np.linalg.norm(block - np.roll(block, -1, axis=0), axis=1)
    return (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2


def seam_profiles(image: np.ndarray, mask: np.ndarray, block: np.ndarray) -> list[np.ndarray]:
    """How much each pixel of the block looks like part of a seam, both ways.

    The block is warped to a rectangle of its size, once. For seams running
    down it: each pixel's horizontal gradient over 2.5 times the block's
    usual (the median over columns of their medians), or 2 on table (a gap
    between tiles); a seam scores above 1 (`_seam` takes the median
    along it). Returns that, and the same for seams running across, turned
    so that rows run along the seams.
    """
    width, height = map(int, _block_size(block))
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(block, target)
    flat = cv2.warpPerspective(image, warp, (width, height))
    table = cv2.warpPerspective(255 - mask, warp, (width, height)).astype(np.float32) / 255
    gap = table / 0.5
    across, down = (np.max(np.abs(cv2.Sobel(flat, cv2.CV_16S, dx, 1 - dx, ksize=3)), axis=2).astype(np.float32)
                    for dx in (1, 0))
    usual = 2.5 * max(float(np.median(np.concatenate([np.median(across, axis=0), np.median(down, axis=1)]))), 12.0)
    return [np.maximum(across / usual, gap), np.maximum(down / usual, gap).T]


def sized_grids(found: list[np.ndarray], grids: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Grids made to agree with the size of the lone tiles, where there are some.

    Seams can mislead (art with a straight line through the middle, a seam
    that does not show); tile size cannot, once some blocks are single tiles.
    Under perspective, near tiles look bigger: one over the side of a tile on
    a tilted table changes linearly across the image, so that is fitted to
    the lone tiles and read off at each block's centre.
    """
    squarish = [(block, grid, np.sqrt(cv2.contourArea(block))) for block, grid in zip(found, grids)
                if 0.7 < np.divide(*_block_size(block)) < 1.4]
    typical = np.median([side for _, _, side in squarish]) if squarish else 0
    alike = [block for block, _, side in squarish if 0.75 < side / typical < 1.33]
    # Several square patches of one size lying apart are single tiles, whatever
    # seams their art shows; else the ones whose seams show none are.
    singles = alike if len(alike) >= 3 else [block for block, grid, _ in squarish if grid == (1, 1)]
    sides = [np.sqrt(cv2.contourArea(block)) for block in singles]
    singles = [block for block, side in zip(singles, sides) if 0.6 < side / np.median(sides) < 1.7]  # no crumbs
    if not singles:
        return grids
    centres = np.float32([[*block.mean(axis=0), 1] for block in singles])
    inverse = np.float32([1 / np.sqrt(cv2.contourArea(block)) for block in singles])
    if len(singles) >= 4:
        fit, *_ = np.linalg.lstsq(centres, inverse, rcond=None)
    else:
        fit = np.float32([0, 0, np.median(inverse)])
    sized = []
    for block in found:
        side = 1 / max(float(np.dot([*block.mean(axis=0), 1], fit)), 1e-6)
        width, height = _block_size(block)
        sized.append((max(1, round(height / side)), max(1, round(width / side))))
    return sized


def cells(block: np.ndarray, grid: tuple[int, int]) -> list[np.ndarray]:
    """The block's rows x cols cells, each (4, 2) clockwise, row by row."""
    rows, cols = grid
    points = np.float32([[[c / cols, r / rows] for c in range(cols + 1)] for r in range(rows + 1)])
    unit = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), block)
    points = cv2.perspectiveTransform(points.reshape(-1, 1, 2), unit).reshape(rows + 1, cols + 1, 2)
    return [np.float32([points[r, c], points[r, c + 1], points[r + 1, c + 1], points[r + 1, c]])
            for r in range(rows) for c in range(cols)]


def _cut_off(block: np.ndarray, found: list[np.ndarray], shape: tuple[int, ...]) -> bool:
    """Cut by the photo's edge and no whole number of tiles each way (the
    squarish blocks' median size): something else on the table, a keyboard.

    >>> tiles = [np.float32([[x, 10], [x + 20, 10], [x + 20, 30], [x, 30]]) for x in (10, 40, 70)]
    >>> keys = np.float32([[0, 90], [100, 90], [100, 99], [0, 99]])
    >>> _cut_off(keys, tiles + [keys], (100, 120)), _cut_off(tiles[0], tiles + [keys], (100, 120))
    (True, False)
    """
    rows, cols = shape[:2]
    edge = 0.01 * max(rows, cols)
    x, y = block[:, 0], block[:, 1]
    if edge < x.min() and edge < y.min() and x.max() < cols - 1 - edge and y.max() < rows - 1 - edge:
        return False
    squarish = [np.sqrt(cv2.contourArea(quad)) for quad in found if 0.7 < np.divide(*_block_size(quad)) < 1.43]
    if not squarish:
        return False
    counts = np.float32(_block_size(block)) / np.median(squarish)
    return bool(np.any(np.abs(counts - np.round(counts)) > 0.4) or counts.min() < 0.7)


def _tile_share(mask: np.ndarray, cell: np.ndarray) -> float:
    """How much of a cell is tile, not table (a cell of a block that is no full rectangle)."""
    inside = np.zeros_like(mask)
    cv2.fillConvexPoly(inside, np.round(cell).astype(np.int32), 255)
    return cv2.mean(mask, inside)[0] / 255


def _speck(quad: np.ndarray, quads: list[np.ndarray]) -> bool:
    """Far smaller than the typical tile: a crumb, a button, a reflection."""
    return cv2.contourArea(quad) < 0.3 * np.median([cv2.contourArea(q) for q in quads])


# --- 4. corners at full resolution ------------------------------------------------

def refine(image: np.ndarray, quad: np.ndarray, rounds: int = 2, reach: float = 0.06,
           outline: bool = True, fence=None) -> np.ndarray:
    """Corners to sub-pixel accuracy: fit a line to each side's edge, intersect.

    Along each side the image is sampled on short normals, ``reach`` times
    the side long; on each normal one strong colour step is an edge point,
    and a robust line through the points is the side. On the ``outline`` of
    a tile or block (table outside) it is the step on the outermost line of
    steps running the side (`_outermost_line`): the mask may have stopped at
    a printed border the colour of the table. On a
    seam inside a block it is the step nearest the even split: not the
    printed border just beyond it. ``fence(points)``, if given, marks points
    on other tiles: no edge is looked for beyond them. Reads only strips
    along the sides, so it works at full resolution.
    """
    quad = _clockwise(np.float32(quad))
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    reach = max(4.0, reach * side)
    for done in range(rounds):
        lines = []
        for start, end in zip(quad, np.roll(quad, -1, axis=0)):
            line = _edge_line(image, start, end, reach, outline, fence)
            rough = (end - start) / np.linalg.norm(end - start)
            # A side turned off the rough one followed art, not the tile's edge.
            turned = line and abs(line[1][0] * rough[1] - line[1][1] * rough[0]) > 0.1
            lines.append(line if line and not turned else (start, end - start))
        if outline and done == rounds - 1:  # once the sides are near
            lines = _face_sides(image, quad, lines, reach, fence)
        corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
        if any(c is None for c in corners) or np.max(np.abs(np.float32(corners) - quad)) > 2 * reach:
            return quad
        quad = np.float32(corners)
        reach = max(3.0, reach / 2)
    return quad


def _face_sides(image: np.ndarray, quad: np.ndarray, lines: list, reach: float, fence) -> list:
    """``lines`` with the sides facing down the photo moved in from the card's cut side to its face.

    Seen from in front, a card's cut side shows as a thin band below it: a
    step stronger than the outer one just inside it (`_face_edge`). A
    printed border shows such a step on every side, a cut side only on the
    sides facing the camera: a side moves in only when the one opposite
    shows no step as far in.
    """
    sides = list(zip(quad, np.roll(quad, -1, axis=0)))
    faces = [_edge_line(image, start, end, reach, True, fence, face=True) for start, end in sides]
    insets = [_apart(line, face) if face else 0.0 for line, face in zip(lines, faces)]
    moved = list(lines)
    for i, (start, end) in enumerate(sides):
        down = (start - end)[0] > 0.3 * np.linalg.norm(end - start)  # clockwise: runs leftward
        if down and insets[i] > 0.5 and insets[(i + 2) % 4] < 0.5 * insets[i]:
            moved[i] = faces[i]
    return moved


def _apart(line, other) -> float:
    """How far ``other``'s point lies from ``line`` (point, direction), in pixels."""
    (p, u), (q, _) = line, other
    u = u / np.linalg.norm(u)
    return float(abs((q[0] - p[0]) * u[1] - (q[1] - p[1]) * u[0]))


def _fence(nearest: np.ndarray, scale: float, own: float):
    """Marks full-resolution points nearer another block than ``own`` (`refine`).

    ``nearest``: for each working-scale pixel, the label of the nearest block.
    """
    def elsewhere(points: np.ndarray) -> np.ndarray:
        at = points * scale + (0.5 * scale - 0.5)
        return cv2.remap(nearest, at[..., 0], at[..., 1], cv2.INTER_NEAREST) != own
    return elsewhere


def _edge_line(image, start, end, reach, outermost, fence=None, samples=48, face=False):
    """(point, direction) of the side's edge between two rough corners, or None.

    ``face``: on an outline, the card's face edge inside a thin band of its
    cut side (`_face_edge`), where there is one.
    """
    along = end - start
    length = float(np.linalg.norm(along))
    along /= length
    inward = np.float32([-along[1], along[0]])  # corners run clockwise
    t = np.linspace(0.1, 0.9, samples, dtype=np.float32) * length
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    points = start + t[None, :, None] * along + offsets[:, None, None] * inward
    strip = cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    strip = cv2.GaussianBlur(strip, (1, 5), 1.0)  # across the side: against noise, symmetric
    step = np.diff(strip, axis=0)
    step = np.sqrt((step * step).sum(axis=2)) if step.ndim == 3 else np.abs(step)
    columns = np.arange(samples)
    peak = np.zeros(step.shape, bool)
    peak[1:-1] = (step[1:-1] >= step[:-2]) & (step[1:-1] >= step[2:])
    strong = peak & (step >= 0.4 * step.max(axis=0))
    if fence is not None:  # not beyond the next tile, when it lies within reach
        outside = fence(points)[: len(offsets) // 2 + 1][::-1]
        strong[: len(outside)] &= ~np.logical_or.accumulate(outside, axis=0)[::-1]
    if outermost:
        best = _outermost_line(strong, tilt=0.06 * length)
        if face:
            best = _face_edge(step, strong, best, 0.02 * length)
    else:
        distance = np.abs(offsets[:-1] + 0.5)[:, None]
        best = np.where(strong, distance, np.inf).argmin(axis=0)
    strength = step[best, columns]
    keep = (strength > 0.5 * np.median(strength)) & (best > 0) & (best < len(step) - 1)
    if keep.sum() < samples // 4:
        return None
    b, columns = best[keep], columns[keep]
    left, mid, right = step[b - 1, columns], step[b, columns], step[b + 1, columns]
    shift = 0.5 * (left - right) / np.minimum(left - 2 * mid + right, -1e-6)
    offset = offsets[b] + 0.5 + np.clip(shift, -0.5, 0.5)
    edge = start + t[columns, None] * along + offset[:, None] * inward
    vx, vy, x, y = cv2.fitLine(edge.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.float32([x, y]), np.float32([vx, vy])


def _outermost_line(strong: np.ndarray, tilt: float, near: float = 1.5, share: float = 0.8) -> np.ndarray:
    """On each normal (a column of ``strong``), the step on the outermost straight line of steps.

    Every line across the strip rising or falling at most ``tilt`` rows from
    end to end is scored by the normals with a strong step within ``near``
    rows of it; of the lines scoring at least ``share`` of the best, the
    outermost (lowest rows) is the card's edge: a card's edge runs the whole
    side, while a cloth's checks or a shadow beside it run part of it.
    Normals with no step on that line get row 0 (none).

    >>> strong = np.zeros((9, 30), bool)
    >>> strong[5] = True; strong[1, :12] = True  # a side's edge, and a check's corner outside it
    >>> set(_outermost_line(strong, tilt=2).tolist())
    {5}
    """
    rows, columns = strong.shape
    # Most sides: the outermost steps mostly lie on a line already (a check
    # or a crumb beside the side pushes out a few); that line, fitted to them
    # twice, leaving out the ones off it, is the outermost good line.
    first = np.argmax(strong, axis=0)
    x = np.arange(columns, dtype=np.float64)
    on = np.ones(columns, bool)
    for _ in range(2):
        dx = x[on] - x[on].mean()
        slope = dx @ (first[on] - first[on].mean()) / max(dx @ dx, 1e-9)
        straight = first[on].mean() + slope * (x - x[on].mean())
        on = np.abs(straight - first) <= max(1.0, rows / 64)
        if on.mean() < share:
            break
    else:
        hits = strong & (np.abs(np.arange(rows)[:, None] - straight) <= near)
        return np.where(hits.any(axis=0), np.argmax(hits, axis=0), 0)
    step = max(1, rows // 32)  # wide strips (big photos) are scored on a coarser set of lines
    near += (step - 1) / 2
    near_step = cv2.dilate(strong.astype(np.uint8), np.ones((2 * int(near) + 1, 1), np.uint8)) > 0
    middles = np.arange(0, rows, step, dtype=np.float32)
    rises = np.arange(-(tilt // step), tilt // step + 1, dtype=np.float32) * step
    along = np.linspace(-0.5, 0.5, columns, dtype=np.float32)
    line = np.rint(middles[:, None, None] + rises[None, :, None] * along).astype(np.intp)
    inside = (line >= 0) & (line < rows)
    score = (near_step[np.clip(line, 0, rows - 1), np.arange(columns)] & inside).sum(axis=2)  # (middle, rise)
    middle, rise = np.nonzero(score >= share * score.max())
    # The outermost ridge of good lines; on it, the line that fits best
    # (most steps near it, then most right on it).
    ridge = middle <= middle.min() + near / step
    middle, rise = middle[ridge], rise[ridge]
    on = line[middle, rise]
    exact = (strong[np.clip(on, 0, rows - 1), np.arange(columns)] & (on >= 0) & (on < rows)).sum(axis=1)
    best = np.argmax(score[middle, rise] * (columns + 1) + exact)
    hits = strong & (np.abs(np.arange(rows)[:, None] - on[best]) <= near)
    return np.where(hits.any(axis=0), np.argmax(hits, axis=0), 0)


def _face_edge(step: np.ndarray, strong: np.ndarray, outer: np.ndarray, width: float) -> np.ndarray:
    """On each normal (a column of ``step``), the step that is the card's face edge.

    A stronger step than the ``outer`` one, at most ``width`` further in, is
    the face's edge beyond a band of the card's cut side.

    >>> step = np.float32([[0], [5], [0], [9], [0], [0], [0], [8]])
    >>> _face_edge(step, step > 4, np.array([1]), 3).tolist(), _face_edge(step, step > 4, np.array([3]), 3).tolist()
    ([3], [3])
    """
    rows = np.arange(len(step))[:, None]
    inner = strong & (rows > outer) & (rows <= outer + width)
    face = np.where(inner, step, 0).argmax(axis=0)
    columns = np.arange(step.shape[1])
    return np.where(step[face, columns] > step[outer, columns], face, outer)


def _meet(first, second):
    (p, u), (q, v) = first, second
    cross = u[0] * v[1] - u[1] * v[0]
    if abs(cross) < 1e-3:
        return None
    s = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / cross
    return p + s * u


# --- is this a puzzle? -------------------------------------------------------------

def problem(tiles: list[np.ndarray], count: int | None = None) -> str | None:
    """What keeps the tiles found from being a puzzle, in one line, or None.

    Checks the count (``count`` when given, else any square grid of at
    least 2x2; another count is taken for a 3x3 that lost or gained tiles)
    and then tiles lying across each other, far from the others' size or far
    from square. `detect` and `solve` both report a photo with this line
    (exit 3).

    Parameters
    ----------
    tiles : list of (4, 2) arrays
        Corners in reading order, as `find_tiles` gives them (ids = index + 1).
    count : int, optional
        How many tiles the puzzle has (rows x cols).

    Examples
    --------
    >>> square = np.float32([[0, 0], [10, 0], [10, 10], [0, 10]])
    >>> problem([square + 20 * i for i in range(8)])
    'found 8 tiles, expected 9'
    >>> problem([square, square + 5])
    'found 2 tiles, expected 9; tiles 1 and 2 overlap'
    >>> problem([square + 20 * i for i in range(9)]) is None
    True
    """
    found = len(tiles)
    if count is None:  # any square grid; a count that is none is most likely a 3x3 short
        count = found if found >= 4 and round(found ** 0.5) ** 2 == found else max(9, round(found ** 0.5) ** 2)
    troubles = [] if found == count else [f"found {found or 'no'} tile{'' if found == 1 else 's'}, expected {count}"]
    shape = _misfit(tiles)
    return "; ".join(troubles + ([shape] if shape else [])) or None


def _misfit(tiles: list[np.ndarray]) -> str | None:
    """The first tile lying across another, far from the others' size, or far from square."""
    areas = np.float32([cv2.contourArea(np.float32(tile)) for tile in tiles])
    for (i, first), (j, second) in combinations(enumerate(tiles), 2):
        shared, _ = cv2.intersectConvexConvex(np.float32(first), np.float32(second))
        if shared > 0.1 * min(areas[i], areas[j]):
            return f"tiles {i + 1} and {j + 1} overlap"
    typical = float(np.median(areas)) if len(tiles) else 0.0
    for i, tile in enumerate(tiles):
        if not 0.4 < areas[i] / typical < 2.5:
            return f"tile {i + 1} is {areas[i] / typical:.1f} times the size of the others"
        sides = np.linalg.norm(np.float32(tile) - np.roll(tile, -1, axis=0), axis=1)
        if sides.max() > 2.0 * sides.min():
            return f"tile {i + 1} is not square (sides 1:{sides.max() / sides.min():.1f})"
    # Found right, tiles agree with each other's shape within about a tenth, under any perspective.
    misfits = shape_misfits(tiles) if len(tiles) >= 4 else np.zeros(len(tiles))
    worst = int(np.argmax(misfits)) if len(tiles) else 0
    if len(tiles) and misfits[worst] > MISFIT:
        return f"tile {worst + 1} is not the shape of the others ({100 * misfits[worst]:.0f}% off)"
    return None


def shape_misfits(tiles: list[np.ndarray]) -> np.ndarray:
    """How far each tile is from the square the others say it should be (0 = exactly).

    Square tiles lying on one table look, under perspective, like
    parallelograms that change smoothly across the photo, each turned its
    own way. ``J J^T``, with ``J`` the tile's two mean side vectors, does not
    change with the turn: it is fitted across the photo (`_expected_forms`)
    and the tile's own is compared with it. Returns, per tile, the largest
    relative stretch either way, e.g. 0.25 for a tile a quarter longer or
    shorter one way than expected.

    >>> squares = [np.float32([[0, 0], [10, 0], [10, 10], [0, 10]]) + 20 * i for i in range(6)]
    >>> squares[2][1:3, 0] += 4  # one side 1.4 times as long as it should be
    >>> np.round(shape_misfits(squares), 2).tolist()
    [0.0, 0.0, 0.4, 0.0, 0.0, 0.0]
    """
    forms = _forms(np.float32(tiles))
    return np.array([_stretch(form, expected) for form, expected in zip(forms, _expected_forms(tiles))])


def _forms(quads: np.ndarray) -> np.ndarray:
    """``J J^T`` per quad (n, 2, 2): J's columns are the mean across and down sides."""
    across = (quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]) / 2
    down = (quads[:, 3] - quads[:, 0] + quads[:, 2] - quads[:, 1]) / 2
    jacobians = np.stack([across, down], axis=2)
    return jacobians @ jacobians.transpose(0, 2, 1)


def _expected_forms(tiles: list[np.ndarray]) -> np.ndarray:
    """Each tile's form as the others give it, leaving the tile itself out.

    Under perspective one over a tile's side changes linearly across the
    photo, and its shape (the form over the side squared) smoothly: both
    are fitted linear in the centre, or taken as the others' median when
    there are few.
    """
    quads = np.float32(tiles)
    forms = _forms(quads)
    sides = np.sqrt(np.sqrt(np.maximum(np.linalg.det(forms), 1e-12)))
    seen = np.c_[1 / sides, (forms / sides[:, None, None] ** 2).reshape(-1, 4)]
    where = np.c_[quads.mean(axis=1) / np.abs(quads).max(), np.ones(len(quads))]
    expected = []
    for i in range(len(quads)):
        others = np.arange(len(quads)) != i
        if others.sum() >= 6:  # enough to fit how the view changes across the photo
            fit, *_ = np.linalg.lstsq(where[others], seen[others], rcond=None)
            inverse_side, *shape = where[i] @ fit
        else:
            inverse_side, *shape = np.median(seen[others], axis=0)
        expected.append(np.float32(shape) / max(inverse_side, 1e-6) ** 2)
    return np.float32(expected).reshape(-1, 2, 2)


def _stretch(form: np.ndarray, expected: np.ndarray) -> float:
    """The largest relative stretch either way of ``form`` from ``expected``."""
    values, vectors = np.linalg.eigh(expected)
    if values.min() <= 0:
        return np.inf
    whiten = vectors @ np.diag(values ** -0.5) @ vectors.T
    stretch = np.sqrt(np.maximum(np.linalg.eigvalsh(whiten @ form @ whiten), 1e-12))
    return float(np.expm1(np.abs(np.log(stretch)).max()))


def _reshaped(image: np.ndarray, tiles: list[np.ndarray]) -> list[np.ndarray]:
    """``tiles`` with each one far from the shape the others give it moved to that shape.

    A tile whose art runs into the table's colour (snow on a white desk)
    loses a strip along a side. The others say how long each way it should
    be; the side that moves out to that length is the one whose refined
    outline then fits best (`refine` finds the card's edge). A tile that
    cannot be made to fit is left as it was.
    """
    tiles, tried = list(tiles), set()
    rows, cols = image.shape[:2]
    while len(tiles) >= 5:
        # The worst first: a wrong tile also skews what the others are told.
        misfits = shape_misfits(tiles)
        misfits[list(tried)] = 0
        i = int(np.argmax(misfits))
        if misfits[i] <= MISFIT / 2:
            break
        tried.add(i)
        expected = _expected_forms(tiles)[i]
        best, fit = tiles[i], misfits[i]
        for candidate in _grown(_clockwise(np.float32(tiles[i])), expected):
            x, y = candidate[:, 0], candidate[:, 1]
            if not (cv2.isContourConvex(candidate) and x.min() >= 0 and y.min() >= 0
                    and x.max() < cols and y.max() < rows):
                continue  # no tile, or one the photo's edge cuts: nothing to check it by
            candidate = refine(image, candidate)
            misfit = _stretch(_forms(candidate[None])[0], expected)
            if misfit < fit:
                best, fit = candidate, misfit
        # Moved only when a card's edge is where the others say: a far better fit.
        if fit < min(misfits[i], MISFIT) / 2:
            tiles[i] = orient(best)
    return tiles


def _grown(quad: np.ndarray, expected: np.ndarray) -> list[np.ndarray]:
    """The quads with one or two sides moved along the tile's own directions so it
    is as long across and down as ``expected`` says: each way, either side."""
    across = (quad[1] - quad[0] + quad[2] - quad[3]) / 2
    down = (quad[3] - quad[0] + quad[2] - quad[1]) / 2
    u, v = across / np.linalg.norm(across), down / np.linalg.norm(down)
    # a^2 u u^T + b^2 v v^T = expected, in least squares.
    basis = np.float32([[u[0] * u[0], v[0] * v[0]], [u[0] * u[1], v[0] * v[1]], [u[1] * u[1], v[1] * v[1]]])
    squares, *_ = np.linalg.lstsq(basis, np.float32([expected[0, 0], expected[0, 1], expected[1, 1]]), rcond=None)
    a, b = np.sqrt(np.maximum(squares, 0))
    grow_across = (a - np.linalg.norm(across)) * u
    grow_down = (b - np.linalg.norm(down)) * v
    # Each way that is off by more than a few percent: either side moves. A
    # tile loses a strip, or gains a shadow; a quad far larger is no tile.
    if a < 0.75 * np.linalg.norm(across) or b < 0.75 * np.linalg.norm(down):
        return []
    moves = [[0, 1, 1, 0], [-1, 0, 0, -1]] if abs(a / np.linalg.norm(across) - 1) > 0.04 else [[0] * 4]
    downs = [[0, 0, 1, 1], [-1, -1, 0, 0]] if abs(b / np.linalg.norm(down) - 1) > 0.04 else [[0] * 4]
    return [quad + np.float32(m)[:, None] * grow_across + np.float32(d)[:, None] * grow_down
            for m in moves for d in downs if any(m) or any(d)]


# --- orientation and order ---------------------------------------------------------

def _clockwise(quad: np.ndarray) -> np.ndarray:
    """The quad's corners clockwise as seen (image y grows downward)."""
    x, y = quad[:, 0], quad[:, 1]
    turning = np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y)
    return quad if turning > 0 else quad[::-1].copy()


def orient(quad: np.ndarray) -> np.ndarray:
    """Corners NW, NE, SE, SW: clockwise, starting with the side facing most upward.

    Going clockwise, the side whose outward normal points most upward is the
    one whose direction points most to the right.

    >>> orient(np.float32([[10, 10], [10, 0], [0, 0], [0, 10]])).tolist()
    [[0.0, 0.0], [10.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
    """
    quad = _clockwise(np.float32(quad))
    along = np.roll(quad, -1, axis=0) - quad
    rightward = along[:, 0] / np.linalg.norm(along, axis=1)
    return np.roll(quad, -int(np.argmax(rightward)), axis=0)


def reading_order(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """Tiles in rows top to bottom, each row left to right.

    Rows follow the tiles' common tilt when they share one (a loose grid shot
    at an angle); a new row starts where the centres step down by more than
    half a tile.
    """
    if not tiles:
        return []
    centres = np.float32([t.mean(axis=0) for t in tiles])
    side = np.median([np.linalg.norm(t[1] - t[0]) for t in tiles])
    tilt = _common_tilt(tiles)
    turn = np.float32([[np.cos(tilt), np.sin(tilt)], [-np.sin(tilt), np.cos(tilt)]])
    level = centres @ turn.T  # centres with the tilt taken out
    by_height = np.argsort(level[:, 1], kind="stable")
    rows, row = [], [by_height[0]]
    for previous, index in zip(by_height, by_height[1:]):
        if level[index, 1] - level[previous, 1] > 0.5 * side:
            rows.append(row)
            row = []
        row.append(index)
    rows.append(row)
    return [tiles[i] for row in rows for i in sorted(row, key=lambda i: level[i, 0])]


def _common_tilt(tiles) -> float:
    """The tiles' shared angle to the image axes (radians), or 0 if they differ."""
    angles = [np.arctan2(*(t[1] - t[0])[::-1]) for t in tiles]
    quarter = np.exp(4j * np.float64(angles))  # angles modulo a quarter turn
    mean = quarter.mean()
    return float(np.angle(mean) / 4) if abs(mean) > 0.9 else 0.0
