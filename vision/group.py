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
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import squareform

from .describe import describe, distances

THRESHOLD = 0.8  # average distance above which two groups are different halves


def lookalikes(crops: Sequence[np.ndarray], groups: int | None = None,
               threshold: float = THRESHOLD) -> np.ndarray:
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
    threshold : float
        Average `vision.describe.distances` above which groups stay apart.

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


def cluster(d: np.ndarray, groups: int | None = None, threshold: float = THRESHOLD) -> np.ndarray:
    """Average-linkage groups of a square distance matrix (see `lookalikes`).

    Examples
    --------
    >>> cluster(np.array([[0, 0.1, 2], [0.1, 0, 2], [2, 2, 0]])).tolist()
    [0, 0, 1]
    """
    if len(d) < 2:
        return np.zeros(len(d), int)
    symmetric = (d + d.T) / 2
    np.fill_diagonal(symmetric, 0)
    tree = linkage(squareform(symmetric, checks=False), method="average")
    if groups is None:
        raw = fcluster(tree, t=threshold, criterion="distance")
    else:
        raw = fcluster(tree, t=groups, criterion="maxclust")
    _, first, inverse = np.unique(raw, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))  # renumber by first appearance
    return order[inverse]
