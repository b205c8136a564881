"""Edge crops: seam at the top, and turning a tile only turns which side is which."""
from __future__ import annotations

import numpy as np

from vision.edges import edge_crops, edge_mask


def test_turning_a_tile_clockwise_moves_each_crop_one_side_on():
    tile = np.random.default_rng(0).integers(0, 255, (64, 64, 3), dtype=np.uint8)
    crops = edge_crops(tile)
    turned = edge_crops(np.rot90(tile, -1))  # a quarter turn clockwise: N goes to E
    for side in range(4):
        assert np.array_equal(turned[(side + 1) % 4], crops[side])


def test_each_side_mark_lands_on_the_top_row_of_its_crop():
    tile = np.zeros((64, 64), np.uint8)
    tile[0, 10], tile[10, -1], tile[-1, -11], tile[-11, 0] = 1, 2, 3, 4  # 10 px after each first corner
    for side, crop in enumerate(edge_crops(tile)):
        assert crop[0, 10] == side + 1


def test_triangles_partition_the_tile():
    """Every pixel speaks for exactly one side (ties on the diagonals aside)."""
    size = 64
    owners = np.zeros((size, size), int)
    for side in range(4):
        mask = np.zeros((size, size), bool)
        mask[: size // 2] = edge_mask((size // 2, size))
        owners += np.rot90(mask, -side)
    off_diagonal = np.abs(np.subtract.outer(np.arange(size), np.arange(size))) > 1
    off_diagonal &= np.abs(np.add.outer(np.arange(size), np.arange(size)) - (size - 1)) > 1
    assert np.all(owners[off_diagonal] == 1)
