"""Find the tiles in a photo or scan: one quadrilateral per tile.

The way a person does it: see what is not table, take each patch of it as a
tile, or as a block of tiles laid edge to edge that the straight seams cut
into cells, then put a ruler along each side to place the corners exactly.

1. `table_mask`: the table is what the photo's border shows. Its colours
   (several, for wood grain or cloth) are learnt from a band along the border,
   after flattening uneven light; whatever is far from all of them is tile.
2. `blocks`: each patch's outline, simplified to the quadrilateral covering
   most of it. Patches that are no quadrilateral (a keyboard, tiles lying
   across each other) are dropped here, and `problem` says what is missing.
3. `cells`: a block is split into rows x cols square cells where seams run
   straight across it (the gap or cut line between touching tiles).
4. `refine`: at full resolution, each side's edge is found along the side's
   normal and a line is fitted to it; the corners are where lines meet.

Steps 1 to 3 run on a copy about `WORK_SIDE` pixels wide, so finding tiles
costs the same for a 1 MP scan and a 48 MP photo; only step 4 reads the full
resolution, and only along the tile sides.

Corners come as NW, NE, SE, SW in the *reading orientation*: the N side is the
side facing most upward in the image. Tiles come in reading order: centres in
rows top to bottom (rows follow the tiles' own tilt), then left to right.
"""
from __future__ import annotations

import cv2
import numpy as np

WORK_SIDE = 1024      # long side of the working copy, pixels
MAX_CELLS = 7         # most rows or columns a block of touching tiles may have


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
    >>> table[50:150, 60:160] = (200, 60, 60)
    >>> table[60:160, 240:340] = (60, 200, 200)
    >>> [np.round(t[0]).tolist() for t in find_tiles(table)]
    [[60.0, 50.0], [240.0, 60.0]]
    """
    scale = min(1.0, WORK_SIDE / max(image.shape[:2]))
    small = image if scale == 1 else cv2.resize(image, None, fx=scale, fy=scale,
                                                interpolation=cv2.INTER_AREA)
    quads = [cell for block in blocks(table_mask(small)) for cell in cells(small, block)]
    tiles = [orient(refine(image, (quad + 0.5) / scale - 0.5)) for quad in quads]
    return reading_order(tiles)


# --- 1. what is not table ----------------------------------------------------

def table_mask(image: np.ndarray) -> np.ndarray:
    """Pixels that are not table: uint8 mask, 255 = tile.

    The table's colours are learnt from a band along the image border: a few
    k-means centres (wood grain, cloth patterns) in Lab, after a smooth
    lighting ramp fitted to the band is taken out of the lightness.
    """
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (0, 0), 1.5), cv2.COLOR_BGR2LAB).astype(np.float32)
    rows, cols = lab.shape[:2]
    band = np.zeros((rows, cols), bool)
    width = max(3, min(rows, cols) // 40)
    band[:width], band[-width:], band[:, :width], band[:, -width:] = True, True, True, True
    lab[..., 0] -= _light_ramp(lab[..., 0], band)
    lab[..., 0] *= 0.5  # light varies more over a table than colour does
    samples = lab[band][::4]
    _, _, centres = cv2.kmeans(samples, 4, None,
                               (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5),
                               2, cv2.KMEANS_PP_CENTERS)
    distance = np.min([np.linalg.norm(lab - c, axis=2) for c in centres], axis=0)
    threshold = max(8.0, 2.0 * float(np.percentile(distance[band], 90)))
    mask = (distance > threshold).astype(np.uint8) * 255
    # Off: table speckle. Close: small gaps where a tile's art matches the table.
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (5, 5))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
    return _fill_holes(mask)


def _light_ramp(lightness: np.ndarray, band: np.ndarray) -> np.ndarray:
    """A quadratic surface fitted to the band's lightness, zero mean on the band."""
    rows, cols = lightness.shape
    y, x = np.mgrid[0:rows, 0:cols].astype(np.float32)
    x, y = x / cols - 0.5, y / rows - 0.5
    terms = np.stack([np.ones_like(x), x, y, x * x, x * y, y * y], axis=-1)
    fit, *_ = np.linalg.lstsq(terms[band], lightness[band], rcond=None)
    ramp = terms @ fit.astype(np.float32)
    return ramp - ramp[band].mean()


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill what the outside cannot reach: art that matches the table, inside a tile."""
    outside = np.pad(mask, 1)
    flood = np.zeros((outside.shape[0] + 2, outside.shape[1] + 2), np.uint8)
    cv2.floodFill(outside, flood, (0, 0), 255)
    return mask | ~outside[1:-1, 1:-1]


# --- 2. patches to quadrilaterals ---------------------------------------------

def blocks(mask: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals (4, 2) float32, one per patch of the mask that is one.

    A patch is a quadrilateral when it fills nearly all of the quadrilateral
    on its outline's four longest sides.
    """
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    smallest = (max(mask.shape) / 40) ** 2
    found = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < smallest:
            continue
        hull = cv2.convexHull(contour)
        quad = outline_quad(hull)
        quad_area = cv2.contourArea(quad)
        if 0.85 * quad_area < area and cv2.contourArea(hull) < 1.1 * quad_area:
            found.append(quad)
    return found


def outline_quad(hull: np.ndarray) -> np.ndarray:
    """The quadrilateral on the four longest sides of a simplified convex hull.

    Sides are extended to meet, so a corner the mask lost (art the colour of
    the table) or rounded off comes back.
    """
    points = cv2.approxPolyDP(hull, 0.015 * cv2.arcLength(hull, True), True)[:, 0].astype(np.float32)
    if len(points) < 4:
        return np.float32(cv2.boxPoints(cv2.minAreaRect(hull)))
    lengths = np.linalg.norm(np.roll(points, -1, axis=0) - points, axis=1)
    longest = np.sort(np.argsort(lengths)[-4:])
    lines = [(points[i], points[(i + 1) % len(points)] - points[i]) for i in longest]
    corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
    if any(c is None for c in corners):
        return np.float32(cv2.boxPoints(cv2.minAreaRect(hull)))
    return np.float32(corners)


# --- 3. blocks to cells ---------------------------------------------------------

def cells(image: np.ndarray, block: np.ndarray) -> list[np.ndarray]:
    """Split a block of tiles laid edge to edge into its square cells.

    The block is warped to a rectangle once; every grid rows x cols whose
    shape fits the block is then tried against it. A grid is there when each
    of its inner seams shows as an edge along most of its length (a median
    along the seam, so art that crosses it here and there does not count)
    clearly stronger than the block's usual edges. The finest such grid wins.
    """
    block = _clockwise(block)
    sides = np.linalg.norm(block - np.roll(block, -1, axis=0), axis=1)
    width, height = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    across, down = _seam_profiles(image, block, int(width), int(height))
    usual = max(np.median(np.concatenate([across, down])), 8.0)
    best = (1, 1)
    for rows in range(1, MAX_CELLS + 1):
        for cols in range(1, MAX_CELLS + 1):
            fits = 0.6 < (width / height) / (cols / rows) < 1.65
            seams = [across[round(c * len(across) / cols)] for c in range(1, cols)]
            seams += [down[round(r * len(down) / rows)] for r in range(1, rows)]
            if fits and rows * cols > best[0] * best[1] and min(seams) > 1.6 * usual:
                best = (rows, cols)
    rows, cols = best
    grid = np.float32([[[c / cols, r / rows] for c in range(cols + 1)] for r in range(rows + 1)])
    unit = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), block)
    points = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), unit).reshape(rows + 1, cols + 1, 2)
    return [np.float32([points[r, c], points[r, c + 1], points[r + 1, c + 1], points[r + 1, c]])
            for r in range(rows) for c in range(cols)]


def _seam_profiles(image, block, width, height):
    """How strongly a straight edge runs down each column and along each row.

    The block is warped to a width x height rectangle; for each column, the
    median over rows of the horizontal gradient (its max over a few
    neighbouring columns, so a seam may wander a little), and likewise for rows.
    """
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    flat = cv2.warpPerspective(image, cv2.getPerspectiveTransform(block, target), (width, height))
    wander = max(3, min(width, height) // 100 * 2 + 1)
    profiles = []
    for dx, dy, axis in ((1, 0, 0), (0, 1, 1)):
        gradient = np.abs(cv2.Sobel(flat, cv2.CV_16S, dx, dy, ksize=3))
        strongest = np.max(gradient, axis=2).astype(np.float32)
        kernel = np.ones((1, wander) if axis == 0 else (wander, 1), np.uint8)
        profiles.append(np.median(cv2.dilate(strongest, kernel), axis=axis))
    return profiles


# --- 4. corners at full resolution ------------------------------------------------

def refine(image: np.ndarray, quad: np.ndarray, rounds: int = 2) -> np.ndarray:
    """Corners to sub-pixel accuracy: fit a line to each side's edge, intersect.

    Along each side, the image is sampled on short normals; the strongest
    step on each normal is an edge point, and a robust line through them is
    the side. Works at full resolution but reads only strips along the sides.
    """
    quad = _clockwise(np.float32(quad))
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    side = float(np.mean(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))
    reach = max(4.0, 0.04 * side)
    for _ in range(rounds):
        lines = [_edge_line(grey, quad[i], quad[(i + 1) % 4], reach) for i in range(4)]
        if any(line is None for line in lines):
            return quad
        corners = [_meet(lines[i - 1], lines[i]) for i in range(4)]
        if any(c is None for c in corners) or np.max(np.abs(np.float32(corners) - quad)) > 2 * reach:
            return quad
        quad = np.float32(corners)
        reach = max(3.0, reach / 2)
    return quad


def _edge_line(grey, start, end, reach, samples=48):
    """(point, direction) of the side's edge between two rough corners."""
    along = end - start
    length = float(np.linalg.norm(along))
    along /= length
    normal = np.float32([-along[1], along[0]])
    t = np.linspace(0.1, 0.9, samples, dtype=np.float32) * length
    offsets = np.arange(-reach, reach + 1, dtype=np.float32)
    points = start + t[None, :, None] * along + offsets[:, None, None] * normal
    strip = cv2.remap(grey, points[..., 0], points[..., 1], cv2.INTER_LINEAR,
                      borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    strip = cv2.GaussianBlur(strip, (1, 5), 1.0)  # across the side: against noise, symmetric
    step = np.abs(np.diff(strip, axis=0))
    best = step.argmax(axis=0)
    strength = step[best, np.arange(samples)]
    keep = (strength > 0.5 * np.median(strength)) & (best > 0) & (best < len(step) - 1)
    if keep.sum() < samples // 4:
        return None
    b, columns = best[keep], np.nonzero(keep)[0]
    left, mid, right = step[b - 1, columns], step[b, columns], step[b + 1, columns]
    shift = 0.5 * (left - right) / np.minimum(left - 2 * mid + right, -1e-6)
    offset = offsets[b] + 0.5 + np.clip(shift, -0.5, 0.5)
    edge = start + t[columns, None] * along + offset[:, None] * normal
    vx, vy, x, y = cv2.fitLine(edge.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.float32([x, y]), np.float32([vx, vy])


def _meet(first, second):
    (p, u), (q, v) = first, second
    cross = u[0] * v[1] - u[1] * v[0]
    if abs(cross) < 1e-3:
        return None
    s = ((q[0] - p[0]) * v[1] - (q[1] - p[1]) * v[0]) / cross
    return p + s * u


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
