"""Patches to quadrilaterals, blocks of touching tiles to cells (`vision.detect` steps 2-3).

Each patch's outline is simplified to the smallest quadrilateral around
it (`blocks`); a printed sheet is looked into (`on_sheet`). A block is
split into rows x cols square cells where seams run straight across it
(`seam_profiles`, `seam_grid`, `cells`); lone tiles' size checks the
count (`sized_grids`). All of it runs on the working copy.
"""
from __future__ import annotations

from functools import cache
from itertools import chain, combinations, product
from typing import Callable

import cv2
import numpy as np

from .corners import clockwise, contrast, corners_of, refine, side_steps
from .describe import to_lab
from .images import across_channels
from .table import LINE, fill_holes, table_mask

MAX_CELLS = 7         # most rows or columns a block of touching tiles may have
TRACED = 0.65         # least share of its quadrilateral a patch's outline follows to be a tile (`_traced`)
BOXED = 0.9           # most share of its rectangle a lumpy patch's outline follows, for its four corners to win (`_patch_quad`)
SPUR = 1 / 16         # an opening's radius to the patch's side, that takes off a spur (`_hulls`)
WIDE_SPUR = 1 / 10    # the same, for a patch no quadrilateral follows with spurs of `SPUR` off (`blocks`)
RIDGE = 3             # least `_ridge` of a square grid's seams that outshine another grid's (`seam_grid`)
FAINT = 0.8           # least score of a glare-faded square grid's weakest seam, to outshine a grid (`seam_grid`)
ASTRAY = 0.3          # a block's side with a step this much weaker than its other sides' runs off the card (`swung`)
SWING = 0.6           # most a side's end astray moves along its neighbouring side, in tiles (`swung`)
NEAR = 0.15           # most its other end, near a right corner, moves (`swung`)
OFF_SQUARE = 0.05     # |log| of its cells' width over height a moved outline may add (`swung`, `_unsquare`)
CLEARER = 4.0         # how much sharper a side moved off no step must run, its outline then the block's (`_squared_up`)


def blocks(mask: np.ndarray, image: np.ndarray) -> list[np.ndarray]:
    """One quadrilateral (4, 2) float32 per patch of the mask: a tile or a block.

    Patches are cut apart where only a thin bridge joins them (a shadow in
    the gap between two tiles). A patch whose convex hull is a quadrilateral
    gives that quadrilateral (bites of table-coloured art along its sides do
    not matter). Any other patch (tiles touching at an angle, an L of tiles)
    gives its smallest enclosing rectangle, to be cut into cells and emptied
    of table. A plain spur (a check of cloth lit brighter than the border's,
    joined on by art of the cloth's colour) is left out where the
    quadrilateral then follows the patch better (`_hulls`). Patches whose
    outline does not follow their quadrilateral (glare, round things) or
    that are plain (a cloth's checks, a patch of light) are no tiles: tiles
    carry pictures.
    """
    radius, kernel = bridge_kernel(mask)
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
        box = image[y0:y0 + core.shape[0], x0:x0 + core.shape[1]]
        hull, quad = _best_hull(patch, box, (x0, y0), SPUR)
        if _traced(quad, hull) <= TRACED:
            # Lit table stuck to a card's side (a lamp's light in the gap between
            # cards, lighter than the border saw) can be wider than `SPUR`'s
            # opening takes off: a card that would be lost is looked at again.
            hull, quad = _best_hull(patch, box, (x0, y0), WIDE_SPUR)
        if _traced(quad, hull) > TRACED and max(cv2.meanStdDev(box, mask=core)[1]) > 12:
            found.append(clockwise(quad))
    return found


def bridge_kernel(mask: np.ndarray) -> tuple[int, np.ndarray]:
    """The radius and disk that, eroding ``mask``, cut apart patches only a thin bridge joins (`blocks`).

    >>> bridge_kernel(np.zeros((600, 800), np.uint8))[0]
    5
    """
    radius = max(2, round(max(mask.shape) / 150))
    return radius, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1))


def _best_hull(patch: np.ndarray, box: np.ndarray, origin: tuple[int, int], spur: float):
    """The hull of ``patch`` (`_hulls`, spurs ``spur`` of its side wide) whose quadrilateral
    (`_patch_quad`) it follows best, and that quadrilateral."""
    return max(((hull, _patch_quad(hull)) for hull in _hulls(patch, box, origin, spur)),
               key=lambda pair: _traced(pair[1], pair[0]))


def _patch_quad(hull: np.ndarray) -> np.ndarray:
    """The quadrilateral a patch's hull gives: its outline's, or its smallest rectangle."""
    quad = outline_quad(hull)
    # Not a quadrilateral, or one a tile could not look like (a side lost
    # to table-coloured art leaves opposite sides far from parallel, and
    # a fifth corner: a block seen at a slant has only four).
    four, parallel = len(_outline(hull)) == 4, _parallel(quad)
    if cv2.contourArea(hull) > 1.1 * cv2.contourArea(quad) or not (parallel or four):
        rect = np.float32(cv2.boxPoints(cv2.minAreaRect(hull)))
        # A lumpy mask bulges a tile's sides past its corners; seen at a
        # slant, no rectangle follows it all round, its four corners do (a
        # rectangle boxing a slanted card is beyond `refine`'s reach). A
        # rectangle the outline follows nearly all round is kept: a worn
        # card's mask, inside its frame with rounded corners, refined from
        # the rectangle reaches the card's cut edge, and from its corners not.
        lumpy = four and parallel and _traced(rect, hull) <= BOXED < _traced(quad, hull)
        quad = quad if lumpy else rect
    return quad


def _hulls(patch: np.ndarray, box: np.ndarray, origin: tuple[int, int], width: float = SPUR) -> list[np.ndarray]:
    """The patch's convex hull, and (when it has any) its hull without plain spurs.

    A spur is what an opening (a disk ``width`` of the patch's side) takes
    off outside the quadrilateral the rest gives; plain, it may be a piece of
    cloth the mask took for card (a check lit brighter than the border's),
    joined to a block along art of the cloth's colour. A tile's tip sticking
    out of a block is a spur too: the hull that `blocks` takes is the one its
    quadrilateral follows best. Spurs smaller than the disk are left on,
    unless ``width`` is wider than `SPUR`.
    """
    hulls = [patch]
    side = np.sqrt(np.count_nonzero(patch))
    radius = max(2, round(width * side))
    opened = disk_opening(patch, radius)
    if opened.any():
        inside = cv2.fillConvexPoly(np.zeros_like(patch), np.int32(np.round(_patch_quad(_hull(opened)))), 1)
        spur = (patch > 0) & (opened == 0) & (inside == 0)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(spur.astype(np.uint8))
        # A wider opening leaves crumbs of what it took off beside the rest: plain, they go too.
        least = radius ** 2 if width <= SPUR else 1
        spurs = [label for label in range(1, count) if stats[label, 4] >= least and _plain(box[labels == label], 0.8)]
        if spurs:
            hulls.append(patch * ~np.isin(labels, spurs))
    return [_hull(mask) + np.int32(origin) for mask in hulls]


def disk_opening(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` (uint8) opened by a disk of ``radius`` (OpenCV's ellipse ``2 * radius + 1`` wide):
    `cv2.morphologyEx`'s ``MORPH_OPEN`` pixel for pixel, at a third of its cost for a block's disk.

    The disk is the union of rectangles, one for each width its rows' runs
    take, as tall as the rows at least that wide (`_disk_rectangles`).
    Eroded by the disk is eroded by each of them, and each is a run along
    the rows (grown from the last one's run) then along the columns; grown
    back by the disk likewise, the runs along the columns grown one from
    another. OpenCV slides an ellipse row by row over every pixel.

    >>> mask = np.zeros((60, 70), np.uint8); mask[10:50, 5:45] = 255; mask[28:32, 45:68] = 255  # a card, a spur
    >>> disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (13, 13))
    >>> opened = disk_opening(mask, 6)
    >>> np.array_equal(opened, cv2.morphologyEx(mask, cv2.MORPH_OPEN, disk)), int(opened[30, 60])
    (True, 0)
    """
    rectangles = _disk_rectangles(radius)  # widths rising, heights falling

    def run(width: int, height: int) -> np.ndarray:
        return cv2.getStructuringElement(cv2.MORPH_RECT, (width, height))

    eroded, rows, done = None, mask, 1
    for width, height in rectangles:
        rows = cv2.erode(rows, run(width - done + 1, 1)) if width > done else rows
        done = width
        each = cv2.erode(rows, run(1, height))
        eroded = each if eroded is None else np.minimum(eroded, each, out=eroded)
    opened, columns, done = None, eroded, 1
    for width, height in reversed(rectangles):
        columns = cv2.dilate(columns, run(1, height - done + 1)) if height > done else columns
        done = height
        each = cv2.dilate(columns, run(width, 1))
        opened = each if opened is None else np.maximum(opened, each, out=opened)
    return opened


@cache
def _disk_rectangles(radius: int) -> tuple[tuple[int, int], ...]:
    """(width, height) of the rectangles whose union is OpenCV's ellipse ``2 * radius + 1`` wide, widths rising.

    >>> _disk_rectangles(2)
    ((1, 5), (5, 3))
    """
    widths = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2).sum(axis=1)  # each row's run
    return tuple((int(width), int(np.count_nonzero(widths >= width))) for width in sorted(set(widths.tolist())))


def _hull(mask: np.ndarray) -> np.ndarray:
    """The convex hull of the mask's largest patch."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.convexHull(max(contours, key=cv2.contourArea))


def _plain(pixels: np.ndarray, share: float) -> bool:
    """Whether ``share`` of the (n, 3) pixels lie near their median colour: no art."""
    pixels = pixels.astype(np.int16)
    return bool(np.mean(np.abs(pixels - np.median(pixels, axis=0)).sum(axis=1) < 30) >= share)


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
    margin = crop[(page > 0) & (cv2.erode(page, np.ones((9, 9), np.uint8)) == 0)]
    if len(margin) == 0 or not _plain(margin, 0.9):
        return [block]  # a page has a plain margin; a tile's art runs to its edge
    inner = blocks(table_mask(crop, page, plain), crop)
    areas = [cv2.contourArea(quad) for quad in inner]
    if len(inner) < 2 or min(areas) < cv2.contourArea(block) / 100 or max(areas) > 4 * min(areas):
        return [block]
    return [quad + np.float32([x, y]) for quad in inner]


def _outline(hull: np.ndarray, share: float = 0.015) -> np.ndarray:
    """The hull's corners, leaving out those that only round it off (off it by ``share`` of its length at most)."""
    return cv2.approxPolyDP(hull, share * cv2.arcLength(hull, True), True)[:, 0].astype(np.float32)


def outline_quad(hull: np.ndarray) -> np.ndarray:
    """The smallest quadrilateral around a convex hull lying on four of its sides.

    Sides are extended to meet, so a corner the mask lost (art the colour of
    the table cut it off) or rounded off comes back: the cut is no side of
    the smallest quadrilateral around the hull.
    """
    points = _outline(hull)
    sides = [(a, b - a) for a, b in zip(points, np.roll(points, -1, axis=0))]
    best, smallest = np.float32(cv2.boxPoints(cv2.minAreaRect(hull))), np.inf
    for chosen in combinations(sides, 4):
        quad = corners_of(chosen)
        if quad is None:
            continue
        area = cv2.contourArea(quad)
        if area < smallest and cv2.isContourConvex(quad) and all(
                cv2.pointPolygonTest(quad, (float(x), float(y)), True) > -2 for x, y in points):
            best, smallest = quad, area
    return best


CHECKS = 1.5   # radius, in check sides, of the disk a block's outline is opened by, so no white check stays on it
HUGE = 20      # least area of a block of cards on a cloth, in the cloth's checks


def cloth_blocks(checks: np.ndarray | None) -> list[np.ndarray]:
    """The outlines (clockwise corners) the block of cards on a checked cloth
    may have, where no coloured check reaches (``checks``, as
    `vision.table.cloth_checks` gives them, None on no such cloth): one for
    each way of sizing the checks (`_check_areas`); none on no cloth or no
    region `HUGE` checks large.

    White cards on a cloth's white checks count as table to the colour look,
    which sees only their figures; the cloth's other hues come within a
    check of every white check but not into the block. What they leave is
    the white checks, each alone, and the block with the white checks along
    its outline: opened by a disk of radius `CHECKS` checks, the block alone,
    its corners rounded; the four longest sides of that, fitted again to
    the unopened outline near them (off the photo's edge), are the block's.

    >>> cloth = np.full((400, 400, 3), 250, np.uint8)
    >>> for i in range(10, 400, 30):
    ...     cloth[i:i + 15] = cloth[:, i:i + 15] = (200, 60, 30)  # blue gingham, checks 15 wide
    >>> cloth[100:300, 120:320] = 245                                # white cards
    >>> from vision.table import cloth_checks
    >>> np.round(cloth_blocks(cloth_checks(cloth))[0]).tolist()  # within the blur's rim
    [[321.0, 98.0], [321.0, 301.0], [118.0, 301.0], [118.0, 98.0]]
    >>> cloth[:] = 250
    >>> for i in range(10, 400, 30):
    ...     cloth[i:i + 15] = cloth[:, i:i + 15] = (200, 60, 30)
    >>> cloth[40:380, 190:205] = 245  # a white strip a check wide joining white checks: no block
    >>> cloth_blocks(cloth_checks(cloth))
    []
    """
    if checks is None:
        return []
    _, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(checks))
    areas = stats[1:, cv2.CC_STAT_AREA]
    if len(areas) < 2:
        return []
    largest = 1 + int(np.argmax(areas))
    free = fill_holes((labels == largest).astype(np.uint8) * 255)
    outline = _inside(_largest_contour(free), free.shape)
    blocks = []
    for check in _check_areas(np.delete(stats[1:], largest - 1, axis=0)):
        if areas.max() < HUGE * check:
            continue
        radius = int(round(CHECKS * np.sqrt(check)))
        opened = disk_opening(free, radius)
        if not opened.any():  # nowhere as wide as the disk: white checks strung together (hard sports 2167)
            continue
        rough = _longest_sides(_largest_contour(opened))
        # Cards the darker checks' colour (purple witches on blue gingham, hard 4424) join the
        # lighter checks and bands into one net round those checks, its holes: filled, the whole
        # photo. A block of cards lies in the photo; one that runs across it is that net.
        if rough is not None and not _across_photo(rough, free.shape):
            blocks.append(_fitted_sides(clockwise(rough), outline, 0.5 * np.sqrt(check)))
    return blocks


def _across_photo(quad: np.ndarray, shape: tuple) -> bool:
    """Whether ``quad`` reaches both of two opposite edges of a photo of ``shape`` (within a
    hundredth of its long side).

    >>> quad = np.float32([[0, 0], [99, 0], [99, 50], [0, 50]])
    >>> _across_photo(quad, (80, 100)), _across_photo(quad + [5, 5], (80, 100))
    (True, False)
    """
    height, width = shape[:2]
    edge = 0.01 * max(height, width)
    x, y = quad[:, 0], quad[:, 1]
    return bool((x.min() <= edge and x.max() >= width - 1 - edge) or (y.min() <= edge and y.max() >= height - 1 - edge))


def _check_areas(stats: np.ndarray) -> list[float]:
    """The area of a cloth's white check, two ways, from the ``stats``
    (`cv2.connectedComponentsWithStats`) of the pieces the coloured checks
    leave apart from the block: the middle piece's, then the middle whole
    check's where that differs; none on no pieces.

    The middle piece is a check where the checks are small (hard 2845,
    2929, 2960: 1,560-2,120 px against whole checks of 1,690-2,550). Where
    they are large, most pieces are specks where the half-tone bands
    between checks break (hard lookalikes 3517: 227 px, the whole checks
    4,020), and the block's outline opened by so small a disk keeps the
    white checks along it: the whole checks are the pieces near square that
    fill their box.
    """
    width, height, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    pieces = area > 20
    whole = pieces & (area > 0.8 * width * height) & (np.minimum(width, height) >= 0.5 * np.maximum(width, height))
    sizes = [float(np.median(area[chosen])) for chosen in (pieces, whole) if chosen.any()]
    return list(dict.fromkeys(sizes))  # once each, in that order


def _inside(outline: np.ndarray, shape: tuple) -> np.ndarray:
    """The points of ``outline`` off the photo's edge: where checks run on past the photo, the
    region's outline follows the photo's edge, never a block's side."""
    height, width = shape[:2]
    x, y = outline[:, 0], outline[:, 1]
    return outline[(x > 1) & (y > 1) & (x < width - 2) & (y < height - 2)]


def _largest_contour(mask: np.ndarray) -> np.ndarray:
    """Every point along the outline of ``mask``'s largest patch (float32, (n, 2))."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return np.float32(max(contours, key=cv2.contourArea)[:, 0])


def _longest_sides(outline: np.ndarray) -> np.ndarray | None:
    """The quadrilateral on the four longest sides of ``outline`` simplified (rounded corners,
    bumps: short sides), in their order round it; None where two are parallel."""
    points = _outline(outline, 0.02)
    if len(points) < 4:
        return None
    sides = [(a, b - a) for a, b in zip(points, np.roll(points, -1, axis=0))]
    longest = sorted(np.argsort([-np.linalg.norm(along) for _, along in sides])[:4])
    return corners_of([sides[i] for i in longest])


def sided_quad(mask: np.ndarray) -> np.ndarray | None:
    """The quadrilateral (clockwise) on the four longest sides of ``mask``'s largest patch; None
    on no patch, or where two of them are parallel.

    The smallest quadrilateral round a patch (`outline_quad`) takes in a bump
    joined to a side (a light patch of desk glare joined to a block's side);
    the patch's four longest sides pass it by.

    >>> mask = np.zeros((100, 100), np.uint8); mask[20:80, 20:80] = 255
    >>> mask[12:20, 30:45] = 255  # a bump on the top side
    >>> np.round(sided_quad(mask)).tolist()
    [[79.0, 20.0], [79.0, 79.0], [20.0, 79.0], [20.0, 20.0]]
    """
    if not mask.any():
        return None
    rough = _longest_sides(_largest_contour(mask))
    return None if rough is None else clockwise(rough)


def _fitted_sides(quad: np.ndarray, outline: np.ndarray, near: float) -> np.ndarray:
    """``quad`` with each side fitted again (Huber) to the ``outline`` points within ``near`` of
    its middle four fifths; a side with too few keeps its place."""
    sides = []
    for a, b in zip(quad, np.roll(quad, -1, axis=0)):
        length = float(np.linalg.norm(b - a))
        along = (b - a) / length
        away = (outline - a) @ along, (outline - a) @ np.float32([-along[1], along[0]])
        close = (np.abs(away[1]) < near) & (away[0] > 0.1 * length) & (away[0] < 0.9 * length)
        if close.sum() < 10:
            sides.append((a, b - a))
            continue
        dx, dy, x, y = cv2.fitLine(outline[close], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        sides.append((np.float32([x, y]), np.float32([dx, dy])))
    fitted = corners_of(sides)
    return quad if fitted is None else fitted


# --- 3. blocks to cells ---------------------------------------------------------

def seam_grid(block: np.ndarray, profiles: list[np.ndarray]) -> tuple[int, int]:
    """(rows, cols) of square cells that the seams across a block show.

    Every grid whose shape fits the block is tried against the block's seam
    profiles (`seam_profiles`): a grid is there when each inner seam scores
    above 1. A grid that a square grid's far sharper seams (`_ridge`) cross,
    or whose own seams cut that grid's cells further, is dropped; so it is
    by such a square grid whose seams score above `FAINT` only (glare fades
    them), which is then there in its place. Of the rest, the grid whose
    weakest seam is clearest wins, or a finer one as clear whose seams the
    clearer square grids' all lie on or stand out more sharply than theirs.

    >>> art = np.full((120, 120), 0.2, np.float32)
    >>> for k in (30, 60, 90):  # the art's lines at the quarters, among more art
    ...     art[:, k - 6:k + 7], art[:, k] = 0.9, 1.05
    >>> art[:, [40, 80]] = 0.9  # the seams at the thirds, glare-faded, alone on plain card
    >>> seam_grid(np.float32([[0, 0], [120, 0], [120, 120], [0, 120]]), [art, art])
    (3, 3)
    """
    width, height = block_size(block)
    # A tilted square looks at most about 1.4 times as long one way as the other.
    scores = {(rows, cols): weakest_seam(profiles, (rows, cols), floor=FAINT)
              for rows in range(1, MAX_CELLS + 1) for cols in range(1, MAX_CELLS + 1)
              if rows * cols > 1 and 0.7 < (width / height) / (cols / rows) < 1.43}
    shown = {grid: weakest for grid, weakest in scores.items() if weakest > 1}
    if not shown:
        return (1, 1)

    def square(grid):  # a view 35 degrees off square-on shortens a square 1.22 times
        return abs(np.log((width / height) / (grid[1] / grid[0]))) < np.log(1.25)

    def crosses(other, grid):
        return square(other) and bool(grid[0] % other[0] or grid[1] % other[1])

    def coarser(grid, other):  # each of grid's cells is whole cells of other
        return not (other[0] % grid[0] or other[1] % grid[1])

    def outshines(other, grid):
        return sharp[other] > max(RIDGE, 1.5 * sharp[grid]) and square(other) and not coarser(grid, other)

    # A grid that a square grid's far sharper seams cross, or whose seams
    # cut that grid's cells further, is art's, however clear (frogs' lines
    # at a 3x3 block's quarters or sixths outshine its seams where the cards
    # touch and their art is alike on both sides). Glare over the block
    # fades its seams' steps, not how far they stand out from the card
    # beside them: a faint square grid that outshines a grid the art fakes
    # is there instead (hard frogs touching 4635: the seams at the thirds
    # score 0.96 under a lamp's glare and stand out 3.8 times; the art's
    # lines at the quarters score 1.05 and stand out 1.7 times, 4x4). Not
    # where no grid shows: a lone card's art may stand out so too (witches'
    # lines at a card's thirds).
    faint = {grid: weakest for grid, weakest in scores.items() if FAINT < weakest <= 1 and square(grid)}
    sharp = {grid: weakest_seam(profiles, grid, score=_ridge) for grid in shown | faint}
    shown |= {grid: weakest for grid, weakest in faint.items() if any(outshines(grid, other) for other in shown)}
    shown = {grid: weakest for grid, weakest in shown.items() if not any(outshines(other, grid) for other in shown)}
    # Art fakes a seam here and there, never as clearly as the real ones all
    # are; a finer grid wins only if its seams are as clear (4x4 over 2x2),
    # and squarer cells before more of them (3x3 over 3x4 sharing a seam).
    # A grid whose cells a clearer square grid's seams run through is art's
    # (5x5 frogs across a 3x3 block's seams): real seams lie on every finer
    # grid's. Unless its own seams stand out sharply, more than the clearer
    # grid's: cards' cuts (frogs meeting at a 3x3 block's halves fake a 2x2).
    def crossed(grid, weakest):
        return any(other > weakest and crosses(crossing, grid) and sharp[grid] <= max(RIDGE, sharp[crossing])
                   for crossing, other in shown.items())

    clearest = max(shown.values())
    return max((grid for grid, weakest in shown.items() if weakest >= 0.8 * clearest and not crossed(grid, weakest)),
               key=lambda grid: (square(grid), grid[0] * grid[1]))


def weakest_seam(profiles: list[np.ndarray], grid: tuple[int, int], floor: float = -np.inf,
                 score: Callable[..., float] | None = None) -> float:
    """The lowest score of the grid's inner seams (infinite for one cell).

    Seams are scored by ``score`` (`_seam` unless given, or `_ridge`).
    Stops at the first seam scoring ``floor`` or less: that grid is not there.
    """
    across, down = profiles
    rows, cols = grid
    seams = ([(across, c / cols, rows, 0.1 / cols) for c in range(1, cols)]
             + [(down, r / rows, cols, 0.1 / rows) for r in range(1, rows)])
    weakest = np.inf
    for seam in seams:
        weakest = min(weakest, (score or _seam)(*seam))
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
    return float(_middle(_along(scores, where, cells, slack).max(axis=1)))


def _ridge(scores: np.ndarray, where: float, cells: int, slack: float) -> float:
    """How sharply the seam `_seam` finds stands out from its surroundings:
    its score over the median of the places within ``slack``, the median over
    the cells. A card's cut is a thin line on quiet card; lines of art that
    happen to fall near a seam's place lie among more art.

    >>> scores = np.full((90, 90), 0.2, np.float32)
    >>> scores[:, 30] = 2
    >>> round(_ridge(scores, 1 / 3, 3, 0.03), 1)
    10.0
    """
    along = _along(scores, where, cells, slack)
    return float(_middle(along.max(axis=1) / np.maximum(_middle(along, axis=1), 0.05)))


def _along(scores, where, cells, slack):
    """Each cell's median along the seam at each place within ``slack`` of
    ``where``: (cells, places)."""
    length, width = scores.shape
    near = scores[:, max(0, round((where - slack) * width)):round((where + slack) * width) + 1]
    return _middle(near[_cell_rows(cells, length)], axis=1)


@cache
def _cell_rows(cells: int, length: int) -> np.ndarray:
    """The rows `_along` reads of a profile ``length`` rows long, cut in ``cells``: (cells, rows).

    Each cell's middle 80% (not the seams crossing this one), every other row.
    """
    rows = np.int32((np.arange(cells)[:, None] + np.arange(0.1, 0.9, 2 * cells / length)) * length / cells)
    rows.setflags(write=False)  # kept for every profile of that length
    return rows


def _middle(values: np.ndarray, axis: int = -1) -> np.ndarray:
    """The median of ``values`` (no NaN) along ``axis``: `np.median`'s values, at half its cost.

    A block's grids are scored by some 2,000 medians of a few hundred
    values each, where `np.median`'s checks cost more than finding the
    middle: this finds it the same way (a partition, then the mean of the
    middle two when there are two).

    >>> values = np.float32([[3, 1, 2, 7], [5, 4, 0, 6]])
    >>> _middle(values, axis=1).tolist(), _middle(values[:, :3], axis=1).tolist(), float(_middle(values[0]))
    ([2.5, 4.5], [2.0, 4.0], 2.5)
    """
    half = values.shape[axis] // 2
    if values.shape[axis] % 2:
        return np.take(np.partition(values, half, axis=axis), half, axis=axis)
    middle = np.take(np.partition(values, (half - 1, half), axis=axis), (half - 1, half), axis=axis)
    return np.mean(middle, axis=axis)


def side_lengths(quad: np.ndarray) -> np.ndarray:
    """The lengths of a quadrilateral's four sides, each from its corner to the next.

    >>> side_lengths(np.float32([[0, 0], [4, 0], [4, 3], [0, 3]])).tolist()
    [4.0, 3.0, 4.0, 3.0]
    """
    return np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)


def block_size(block: np.ndarray) -> tuple[float, float]:
    """Mean width and height of a clockwise quadrilateral, in pixels.

    >>> [float(x) for x in block_size(np.float32([[0, 0], [4, 0], [4, 3], [0, 3]]))]
    [4.0, 3.0]
    """
    sides = side_lengths(block)
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
    width, height = map(int, block_size(block))
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    warp = cv2.getPerspectiveTransform(block, target)
    flat = cv2.warpPerspective(image, warp, (width, height))
    table = cv2.warpPerspective(255 - mask, warp, (width, height)).astype(np.float32) / 255
    gap = table / 0.5
    across, down = (across_channels(np.maximum, np.abs(cv2.Sobel(flat, cv2.CV_16S, dx, 1 - dx, ksize=3)))
                    .astype(np.float32) for dx in (1, 0))
    usual = 2.5 * max(float(np.median(np.concatenate([np.median(across, axis=0), np.median(down, axis=1)]))), 12.0)
    return [np.maximum(across / usual, gap), np.maximum(down / usual, gap).T]


def sized_grids(found: list[np.ndarray], grids: list[tuple[int, int]],
                largest: bool = False) -> list[tuple[int, int]]:
    """Grids made to agree with the size of the lone tiles, where there are some.

    Seams can mislead (art with a straight line through the middle, a seam
    that does not show); tile size cannot, once some blocks are single tiles.
    Under perspective, near tiles look bigger: one over the side of a tile on
    a tilted table changes linearly across the image, so that is fitted to
    the lone tiles and read off at each block's centre. Where fewer than
    three lone tiles are alike, those whose seams show none are sized
    against their median, or, ``largest``, against the largest of them: a
    card's figures' boxes, seen as lone squares, may outnumber the card.

    >>> square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    >>> found = [square * 120, square * 35 + 200, square * 40 + 300, square * 150 + 400]
    >>> grids = [(1, 1), (1, 1), (1, 1), (4, 4)]  # a card, two figures' boxes, a card its art cuts 4x4
    >>> sized_grids(found, grids), sized_grids(found, grids, largest=True)
    ([(3, 3), (1, 1), (1, 1), (4, 4)], [(1, 1), (1, 1), (1, 1), (1, 1)])
    """
    squarish = [(block, grid, np.sqrt(cv2.contourArea(block))) for block, grid in zip(found, grids)
                if 0.7 < np.divide(*block_size(block)) < 1.4]
    typical = np.median([side for _, _, side in squarish]) if squarish else 0
    alike = [block for block, _, side in squarish if 0.75 < side / typical < 1.33]
    # Several square patches of one size lying apart are single tiles, whatever
    # seams their art shows; else the ones whose seams show none are.
    singles = alike if len(alike) >= 3 else [block for block, grid, _ in squarish if grid == (1, 1)]
    sides = [np.sqrt(cv2.contourArea(block)) for block in singles]
    usual = (max if largest and len(alike) < 3 else np.median)(sides) if sides else 0
    singles = [block for block, side in zip(singles, sides) if 0.6 < side / usual < 1.7]  # no crumbs
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
        width, height = block_size(block)
        sized.append((max(1, round(height / side)), max(1, round(width / side))))
    return sized


def swung(image: np.ndarray, outline: np.ndarray, grid: tuple[int, int], reach: float,
          fence=None) -> np.ndarray:
    """The block's ``outline`` with a side that runs along no step moved to
    where a clearly sharper one runs along all of it.

    The mask may take a check of cloth in with a block, or lose a corner of
    it to a light table: the outline's side then runs off the card, over the
    table or across the cards, at a slant no refining along it reaches. A
    side whose step (`vision.corners.side_steps`) is `ASTRAY` times its
    other sides' at most (`_weak_sides`) is sought again, where two sides at least run
    along a card's edge: an outline over the table nearly all round is no
    block seen whole but loose cards the mask ran together (each side's
    step then as faint as the others', and a line the search finds is one
    card's edge, the cells laid along it across them). One end slides along its
    neighbouring side up to `SWING` tiles either way (not as far as the seam
    one tile in), the other, near a right corner, up to `NEAR` (a card's
    edge stops at its corners; a cloth's check runs on, and a line far off
    at both ends may follow one), and the line along the sharpest step is refined
    (``reach`` and ``fence`` as `vision.corners.refine`'s: a line nearer
    another block is the next card's edge across a gap, as on a catalogue
    shot whose drop shadows soften a side). The outline is kept when each
    such side's step is then 1.5 times the old at least, and its cells are
    no further from square than before (a side of a column of cards found
    whole, softened by a drop shadow, may have a figure's line near it).

    An outline so moved with a side still that weak is swung once more from
    where it now lies: a patch of glare on a white desk joined to a block
    sets two sides' ends further off than one swing reaches (hard meadow
    touching 5144: the W side's ends 0.4 and 0.7 tiles out, swung to 0.24
    tiles inside at one end, still a fifth of the others' step; swung again,
    every cell within 2.1%).

    >>> image = np.zeros((200, 200, 3), np.uint8); image[20:180, 20:180] = 200  # a 2x2 block
    >>> outline = np.float32([[20, 20], [180, 20], [180, 180], [50, 180]]) - 0.5  # SW corner astray
    >>> np.round(swung(image, outline, (2, 2), 0.03)[3]).tolist()
    [20.0, 180.0]
    """
    moved = _swung_once(image, outline, grid, reach, fence)
    if moved is outline or not _weak_sides(side_steps(image, moved)):
        return moved
    return _swung_once(image, moved, grid, reach, fence)


def _swung_once(image: np.ndarray, outline: np.ndarray, grid: tuple[int, int], reach: float,
                fence=None) -> np.ndarray:
    """`swung`'s one swing: ``outline`` itself where it is kept."""
    ways = np.roll(outline, -1, axis=0) - outline
    lines = list(zip(outline, ways))
    steps = side_steps(image, outline)
    weak = _weak_sides(steps)
    if not weak or len(weak) > 2:
        return outline
    near, far = (np.linspace(-most, most, 2 * round(most / 0.05) + 1)[:, None] for most in (NEAR, SWING))
    for i in weak:
        start, end = outline[i], outline[(i + 1) % 4]
        # A tile's width along each neighbouring side (sides 0 and 2 run across the columns).
        before, after = (ways[j] / (grid[1] if j % 2 == 0 else grid[0]) for j in (i - 1, (i + 1) % 4))
        best = steps[i]
        for a, b in chain(product(start + near * before, end + far * after),
                          product(start + far * before, end + near * after)):
            if fence is not None and fence(np.float32([a + np.linspace(0, 1, 5)[:, None] * (b - a)])).any():
                continue
            sharp = contrast(image, (a, b - a), a, b)
            if sharp > best:
                best, lines[i] = sharp, (a, b - a)
    corners = corners_of(lines)
    # A line sought for one side may cross a neighbouring side's end: that side
    # shrinks to nothing (a triangle), no block's outline (normal lookalikes 2005).
    if corners is None or np.any(side_lengths(corners) < 0.5 * side_lengths(outline)):
        return outline
    fixed = refine(image, corners, 1, reach, fence=fence)
    sharper = side_steps(image, fixed)
    squarer = _unsquare(fixed, grid) <= _unsquare(outline, grid) + OFF_SQUARE \
        or _squared_up(steps, sharper, weak, fixed, grid)
    return fixed if squarer and all(sharper[i] >= 1.5 * steps[i] for i in weak) else outline


def _weak_sides(steps: list[float]) -> list[int]:
    """The sides (of four) whose step is `ASTRAY` times the median of the other sides' at most;
    where that is one side, with the opposite side when it is so to the median of the two others.

    Where the mask took in a check of cloth on one side of a block and lost
    a strip of it on the opposite side, both run off the card, and the
    fainter one pulls down the median the other is judged by (hard meadow
    touching 4276 on green gingham: steps 14, 3.5, 49 and 5.2; the 5.2 side
    passed, its cells 9-34% off).

    A side beside the weak one is not added: a corner astray makes both its
    sides faint, and swinging the weak one from its other end moves it.

    >>> _weak_sides([14.2, 3.5, 49.1, 5.2]), _weak_sides([30.0, 3.0, 40.0, 35.0]), _weak_sides([30.0, 25.0, 40.0, 35.0])
    ([1, 3], [1], [])
    >>> _weak_sides([14.2, 3.5, 49.1, 20.0])
    [1]
    """
    weak = [i for i in range(4) if steps[i] <= ASTRAY * np.median(steps[:i] + steps[i + 1:])]
    if len(weak) != 1:
        return weak
    opposite = (weak[0] + 2) % 4
    others = [step for j, step in enumerate(steps) if j not in (weak[0], opposite)]
    return weak + [opposite] if steps[opposite] <= ASTRAY * np.median(others) else weak


def _squared_up(steps: list[float], sharper: list[float], weak: list[int], fixed: np.ndarray,
                grid: tuple[int, int]) -> bool:
    """Whether an outline moved from sides on no step (``steps``, the
    old sides'; ``weak``, those sought again) now runs along a card's edge
    all round (``sharper``, its sides' steps): each such side's step `CLEARER`
    times the old at least, none `ASTRAY` times the median or less, and its
    cells within the 1.25 a view 35 degrees off square-on stretches them.

    `_unsquare` judges cells in the photo's pixels, which a steep view
    stretches: on hard meadow 2960 (red gingham) the true outline's cells
    are 0.13 off square, the outline whose corner the mask ran onto a
    check 0.05, so the true one was refused (nine tiles 14-53% off).
    A side moved from nothing onto a card's edge, the others still on
    theirs, is the block's, however the view stretches its cells; so are
    two opposite sides (hard meadow touching 4276: a strip of the W side lost, a check
    taken in on the E side, both moved onto the cards' edges, 9x and 6.6x
    as sharp; the true outline's cells 0.11 off square, the one too wide
    0.02). Not two sides beside each other, a corner moved freely (hard
    sports touching 3686: from 1.4% to 8.4% off).
    """
    return (len(weak) == 1 or abs(weak[0] - weak[1]) == 2) and all(sharper[i] >= CLEARER * steps[i] for i in weak) \
        and min(sharper) > ASTRAY * float(np.median(sharper)) and _unsquare(fixed, grid) < np.log(1.25)


def _unsquare(outline: np.ndarray, grid: tuple[int, int]) -> float:
    """How far the outline's cells are from square: |log| of their mean width over height."""
    lengths = np.linalg.norm(np.roll(outline, -1, axis=0) - outline, axis=1)
    return abs(np.log((lengths[0] + lengths[2]) / grid[1] / ((lengths[1] + lengths[3]) / grid[0])))


FRAMES = 0.04         # half the width of the dark band where two cards' printed frames meet, in cells (`framed_seams`)
FACES = (0.06, 0.12)  # where the cards' faces beside such a band are looked at, in cells from the seam
SHOWN = 0.5           # least share of a seam's length such a band runs along (art at a card's edge hides the rest)


def framed_seams(image: np.ndarray, block: np.ndarray, grid: tuple[int, int]) -> bool:
    """Whether every inner seam of ``block``'s even ``grid`` of cells (`cells`)
    runs along a dark band: `LINE` darker than the faces either side of it,
    along `SHOWN` of its length.

    Cards with dark printed frames laid edge to edge meet in a band of two
    frames, with no step where they meet: each card refined on its own
    stops at its frame's inner line, a frame's width inside (hard
    lookalikes 2929 on gingham: 3-5% of a side), but the even cells' seams
    run down the bands' middles. Seams across faces (cells of a puzzle
    seen whole in another grid, an outline off the cards) cross figures
    and plain face, no band.

    >>> image = np.full((90, 90, 3), 230, np.uint8)
    >>> image[:, 28:33] = image[:, 58:63] = image[28:33] = image[58:63] = 40  # frames meeting
    >>> block = np.float32([[0, 0], [90, 0], [90, 90], [0, 90]]) - 0.5
    >>> framed_seams(image, block, (3, 3)), framed_seams(image, block, (2, 2))
    (True, False)
    """
    rows, cols = grid
    width, height = map(int, block_size(block))
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]]) - 0.5
    flat = cv2.warpPerspective(image, cv2.getPerspectiveTransform(np.float32(block), target), (width, height))
    light = to_lab(flat)[..., 0]
    # Seams down the block, then across it (turned so that they run down too).
    for lightness, cells_across in ((light, cols), (light.T, rows)):
        cell = lightness.shape[1] / cells_across
        band, (near, far) = max(1, round(FRAMES * cell)), (max(1, round(share * cell)) for share in FACES)
        for seam in range(1, cells_across):
            x = round(seam * cell)
            middle = np.median(lightness[:, x - band:x + band + 1], axis=1)
            faces = np.minimum(np.median(lightness[:, x - far:x - near + 1], axis=1),
                               np.median(lightness[:, x + near:x + far + 1], axis=1))
            if np.mean(faces - middle >= LINE) < SHOWN:
                return False
    return True


def cells(block: np.ndarray, grid: tuple[int, int]) -> list[np.ndarray]:
    """The block's rows x cols cells, each (4, 2) clockwise, row by row."""
    rows, cols = grid
    points = np.float32([[[c / cols, r / rows] for c in range(cols + 1)] for r in range(rows + 1)])
    unit = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), block)
    points = cv2.perspectiveTransform(points.reshape(-1, 1, 2), unit).reshape(rows + 1, cols + 1, 2)
    return [np.float32([points[r, c], points[r, c + 1], points[r + 1, c + 1], points[r + 1, c]])
            for r in range(rows) for c in range(cols)]


def cut_off(block: np.ndarray, found: list[np.ndarray], shape: tuple[int, ...]) -> bool:
    """Cut by the photo's edge and no whole number of tiles each way (the
    squarish blocks' median size): something else on the table, a keyboard.

    >>> tiles = [np.float32([[x, 10], [x + 20, 10], [x + 20, 30], [x, 30]]) for x in (10, 40, 70)]
    >>> keys = np.float32([[0, 90], [100, 90], [100, 99], [0, 99]])
    >>> cut_off(keys, tiles + [keys], (100, 120)), cut_off(tiles[0], tiles + [keys], (100, 120))
    (True, False)
    """
    rows, cols = shape[:2]
    edge = 0.01 * max(rows, cols)
    x, y = block[:, 0], block[:, 1]
    if edge < x.min() and edge < y.min() and x.max() < cols - 1 - edge and y.max() < rows - 1 - edge:
        return False
    squarish = [np.sqrt(cv2.contourArea(quad)) for quad in found if 0.7 < np.divide(*block_size(quad)) < 1.43]
    if not squarish:
        return False
    counts = np.float32(block_size(block)) / np.median(squarish)
    return bool(np.any(np.abs(counts - np.round(counts)) > 0.4) or counts.min() < 0.7)


def tile_share(mask: np.ndarray, cell: np.ndarray) -> float:
    """How much of a cell is tile, not table (a cell of a block that is no full rectangle)."""
    inside = np.zeros_like(mask)
    cv2.fillConvexPoly(inside, np.round(cell).astype(np.int32), 255)
    return cv2.mean(mask, inside)[0] / 255


def speck(quad: np.ndarray, quads: list[np.ndarray]) -> bool:
    """Far smaller than the typical tile: a crumb, a button, a reflection."""
    return cv2.contourArea(quad) < 0.3 * np.median([cv2.contourArea(q) for q in quads])
