"""A library taught a puzzle's whole tiles reads a later photo of that puzzle as those tiles."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from solver import Puzzle, is_solution
from solver.puzzle import Placement
from vision.cli.report import human_text
from vision.describe import describe
from vision.images import read_image
from vision.library import add_edges
from vision.pipeline import photo_edges, solve_photo
from vision.read import Reading, read_edges
from vision.render import render_photo, save_photo
from vision.taught import as_taught, read_as_taught

SIZE = (1600, 1200)
# hard frogs photos where glare blows one edge, read wrong even by a library of this very puzzle;
# 4453's edge (11% seen) gives its true code nothing, and only its share seen says so
BLOWN = {3599: "touching", 4453: "scattered"}


def at_true_corners(truth: dict) -> list:
    return [np.float32(t["corners"]) for t in truth["tiles"]]


def teach(folder, seed: int):
    """A library labelled, as `edgematch label` labels, from an easy photo of frogs puzzle ``seed``."""
    image, truth = render_photo(seed=seed, art="frogs", layout="loose", difficulty="easy", size=SIZE)
    edges = photo_edges(image, corners=at_true_corners(truth))
    return add_edges(folder, edges.crops, [c for t in truth["tiles"] for c in t["edges"]],
                     [{"photo": f"frogs-{seed}.jpg", "tile": i // 4 + 1, "side": "NESW"[i % 4]}
                      for i in range(len(edges.crops))], tiles=len(truth["tiles"]))


@pytest.fixture(scope="module", params=sorted(BLOWN))
def blown(request, tmp_path_factory):
    """A hard photo, saved: its seed, path, image and truth."""
    image, truth = render_photo(seed=request.param, art="frogs", layout=BLOWN[request.param],
                                difficulty="hard", size=SIZE)
    path = tmp_path_factory.mktemp("photo") / "frogs.jpg"
    save_photo(path, image, truth)
    return request.param, path, image, truth


def test_a_blown_edge_is_told_by_the_taught_tile_it_belongs_to(blown, tmp_path):
    seed, path, image, truth = blown
    library = teach(tmp_path / "library", seed)
    true_edges = [tuple(t["edges"]) for t in truth["tiles"]]
    edges = photo_edges(read_image(path), corners=at_true_corners(truth))  # the JPEG the answer reads
    alone = read_edges(describe(edges.crops, edges.veils), library).tiles
    wrong = [(t, s) for t in range(9) for s in range(4) if alone[t][s] != true_edges[t][s]]
    assert len(wrong) == 1  # the edge the taught tiles must put right

    answer = solve_photo(path, library=tmp_path / "library", out=tmp_path / "answer.png",
                         corners=at_true_corners(truth))
    assert [tuple(t["edges"]) for t in answer["tiles"]] == true_edges
    (t, s), = wrong
    assert answer["reinterpreted"] == [{"tile": t + 1, "side": "NESW"[s], "read": alone[t][s],
                                        "now": true_edges[t][s]}]
    assert human_text(answer).splitlines()[-1] == "Read again to fit, magenta on the image (check these on the " \
        f"tiles): tile {t + 1} {'NESW'[s]}, {alone[t][s]} now {true_edges[t][s]}."
    grid = tuple(tuple(Placement(c["tile"] - 1, c["rotation"] // 90) for c in row)
                 for row in answer["solutions"][0]["grid"])
    assert is_solution(Puzzle(tiles=tuple(true_edges), rows=3, cols=3), grid)


def test_tiles_of_another_puzzle_with_the_same_figures_are_not_taken(blown, tmp_path):
    seed, _, image, truth = blown
    other = teach(tmp_path / "library", seed + 7)  # the next frogs puzzle of the bench's cycle
    edges = photo_edges(image, corners=at_true_corners(truth))
    reading = read_edges(describe(edges.crops, edges.veils), other)
    assert read_as_taught(reading, other) == (reading, [])


def test_tiles_agreeing_too_little_are_refused_without_scipy(monkeypatch):
    """No assignment keeps AGREED of the edges (each tile agrees with its best taught tile on 3 of 4):
    refused before scipy.optimize loads, half a second of a fresh process's CPU."""
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)  # importing it now fails
    taught = [(1, 2, -1, -2), (2, 1, -2, -1)]
    reading = Reading(tiles=[(1, 2, -1, 3), (2, 1, -2, 3)], confidence=[],
                      candidates=[[[(code, 0.9)] for code in tile] for tile in ((1, 2, -1, 3), (2, 1, -2, 3))])
    assert as_taught(reading, taught) is None


def test_a_clean_reading_of_the_taught_tiles_is_assigned_without_scipy(monkeypatch):
    """Each photo tile's cheapest taught tile is clearly cheapest and no two share one: that is the
    assignment, made without scipy.optimize (every sample photo with its art's library)."""
    monkeypatch.setitem(sys.modules, "scipy.optimize", None)  # importing it now fails
    taught = [(1, 2, -1, -2), (2, 1, -2, -1), (1, 1, 2, -2)]
    photo = [(1, 2, -2, 1), (-2, 1, 2, -1), (1, -2, -1, 2)]  # the taught tiles, scrambled and turned
    reading = Reading(tiles=photo, confidence=[], candidates=[[[(code, 0.9)] for code in tile] for tile in photo])
    assert as_taught(reading, taught) == (photo, 1.0)
