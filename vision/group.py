"""Lookalike groups: which edges of one photo show the same printed half.

The 36 edges of a 3x3 puzzle show a handful of half-figures (4 figures x
2 halves on most Scramble Squares), each many times. Grouping the edges by
appearance lets a person name each group once (`edgematch label --sheet`),
and lets `vision.zerolabel` read a puzzle with no library at all.

Grouping is average-linkage agglomerative clustering
(`scipy.cluster.hierarchy`) on `vision.describe.distances`.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
from .describe import describe, distances, seam_weight

SPREAD = 1.5  # groups stay apart beyond this many times the typical nearest-lookalike distance:
# purity first, since a person names a whole group at once (0.15% of edges mixed on rendered photos)


def lookalikes(crops: Sequence[np.ndarray], groups: int | None = None,
               threshold: float | None = None) -> np.ndarray:
    """Group edge crops that show the same half-figure.

    Parameters
    ----------
    crops : sequence of ndarrays
        Edge crops of one photo, from `vision.describe.tile_crops` of
        `vision.describe.normalise`d tiles (edge ``4 * i + k`` is side ``k``
        of tile ``i``).
    groups : int, optional
        Make exactly this many groups (e.g. 8 for four figures); otherwise
        cut where groups differ by more than ``threshold``.
    threshold : float, optional
        Average `vision.describe.distances` above which groups stay apart;
        by default `SPREAD` times the median distance from an edge to its
        nearest lookalike, since how alike two prints of one half look
        depends on the photo and the art (glossy, worn, busy).

    Returns
    -------
    labels : (len(crops),) int ndarray
        Group numbers 0, 1, ..., numbered in order of first appearance.

    Examples
    --------
    >>> red, blue = np.zeros((48, 96, 3), np.uint8), np.zeros((48, 96, 3), np.uint8)
    >>> red[:24, 24:72] = (0, 0, 220); blue[:24, 24:72] = (220, 0, 0)
    >>> lookalikes([red, blue, red, blue]).tolist()
    [0, 1, 0, 1]
    """
    looks = describe(crops)
    return cluster(distances(looks, looks), groups, threshold)


def cluster(d: np.ndarray, groups: int | None = None, threshold: float | None = None) -> np.ndarray:
    """Average-linkage groups of a square distance matrix (see `lookalikes`).

    Examples
    --------
    >>> cluster(np.array([[0, 0.1, 2], [0.1, 0, 2], [2, 2, 0]])).tolist()
    [0, 0, 1]
    """
    from scipy.cluster.hierarchy import fcluster  # only label and zero-label need it

    if len(d) < 2:
        return np.zeros(len(d), int)
    symmetric = _symmetric(d)
    tree = _tree(symmetric)
    if groups is None:
        if threshold is None:
            nearest = np.where(np.eye(len(d), dtype=bool), np.inf, symmetric).min(axis=1)
            threshold = SPREAD * float(np.median(nearest))
        raw = fcluster(tree, t=threshold, criterion="distance")
    else:
        raw = fcluster(tree, t=groups, criterion="maxclust")
    _, first, inverse = np.unique(raw, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))  # renumber by first appearance
    return order[inverse]


def merge_heights(d: np.ndarray) -> np.ndarray:
    """Average-linkage distances at which ``k`` groups merge into ``k - 1``, indexed by ``k``.

    A big jump between ``heights[k + 1]`` and ``heights[k]`` says the items
    fall naturally into ``k`` groups. Entries 0 and 1, and those past the
    item count, are 0.

    Examples
    --------
    >>> merge_heights(np.array([[0, 0.1, 2], [0.1, 0, 2], [2, 2, 0]])).tolist()
    [0.0, 0.0, 2.0, 0.1]
    """
    heights = np.zeros(len(d) + 1)
    if len(d) > 1:
        heights[2:] = _tree(_symmetric(d))[::-1, 2]
    return heights


def _symmetric(d: np.ndarray) -> np.ndarray:
    """``d`` made symmetric, 0 on the diagonal."""
    symmetric = (d + d.T) / 2
    np.fill_diagonal(symmetric, 0)
    return symmetric


def _tree(symmetric: np.ndarray) -> np.ndarray:
    """scipy's average-linkage tree of a symmetric distance matrix."""
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform

    return linkage(squareform(symmetric, checks=False), method="average")


def group_name(label: int) -> str:
    """A group's name on the contact sheet: A, B, ..., Z, AA, AB, ...

    >>> group_name(0), group_name(25), group_name(26)
    ('A', 'Z', 'AA')
    """
    name = ""
    label += 1
    while label:
        label, rest = divmod(label - 1, 26)
        name = chr(65 + rest) + name
    return name


def contact_sheet(crops: Sequence[np.ndarray], labels: np.ndarray, captions: Sequence[str],
                  per_row: int = 8, scale: float = 1.5) -> np.ndarray:
    """A picture of the groups: one row per group, its name, then its crops.

    Parameters
    ----------
    crops : sequence of (h, w, 3) uint8 ndarrays
        Edge crops, seam at the top; what does not speak for the side (the
        corners, where other sides' figures reach in) is shown dimmed.
    labels : ndarray
        Group of each crop (`lookalikes`).
    captions : sequence of str
        A short caption under each crop, e.g. ``"3E"`` for tile 3's E side.
    per_row : int
        Crops shown per group; more are counted ("+5").
    scale : float
        Crop magnification, so a person can tell the halves apart.

    Returns
    -------
    sheet : (rows, cols, 3) uint8 ndarray, BGR

    Examples
    --------
    >>> crops = [np.zeros((48, 96, 3), np.uint8)] * 3
    >>> contact_sheet(crops, np.array([0, 1, 0]), ["1N", "1E", "1S"]).shape
    (212, 1396, 3)
    """
    import cv2

    h, w = (round(s * scale) for s in crops[0].shape[:2])
    gap, caption, name_w = 8, 22, 120
    row_h = h + caption + gap
    count = int(labels.max()) + 1 if len(labels) else 0
    sheet = np.full((count * row_h + gap, name_w + per_row * (w + gap) + 60, 3), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    shade = (0.3 + 0.7 * seam_weight(crops[0].shape) / seam_weight(crops[0].shape).max())[..., None]
    for group in range(count):
        top = gap + group * row_h
        cv2.putText(sheet, group_name(group), (10, top + h // 2 + 14), font, 1.3, (0, 0, 0), 3, cv2.LINE_AA)
        members = np.flatnonzero(labels == group)
        for slot, e in enumerate(members[:per_row]):
            left = name_w + slot * (w + gap)
            shown = (crops[e] * shade + 255 * (1 - shade) * 0.5).astype(np.uint8)
            sheet[top:top + h, left:left + w] = cv2.resize(shown, (w, h), interpolation=cv2.INTER_LINEAR)
            cv2.putText(sheet, captions[e], (left + 2, top + h + 17), font, 0.55, (60, 60, 60), 1, cv2.LINE_AA)
        if len(members) > per_row:
            cv2.putText(sheet, f"+{len(members) - per_row}", (name_w + per_row * (w + gap), top + h // 2 + 8),
                        font, 0.8, (0, 0, 0), 2, cv2.LINE_AA)
    return sheet
