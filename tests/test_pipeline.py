"""`edgematch solve PHOTO`: end to end, exit codes 0/1/3, SPEC JSON, real-dev checks."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from solver import Puzzle, is_solution
from solver.formats import load_puzzle
from solver.puzzle import Placement
from vision.cli import main
from vision.detect import find_tiles
from vision.images import read_image, read_photo, write_image
from vision.describe import describe
from vision.library import Library, add_edges
from vision.pipeline import photo_edges
from vision.read import read_edges
from vision.render import match_tiles, render_photo, save_photo

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real-dev"
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.fixture
def solve(capsys):
    """Run `edgematch solve` as a user would: exit code, stdout + stderr."""
    def run(*args):
        with pytest.raises(SystemExit) as done:
            main(["solve", *map(str, args)])
        seen = capsys.readouterr()
        return done.value.code, seen.out + seen.err
    return run


def test_sample_photo_solves_with_a_library_taught_from_another(tmp_path, solve):
    photo = SAMPLES / "photos" / "witches-touching-normal.jpg"  # the library learnt the scan
    out = tmp_path / "answer.png"
    code, output = solve(photo, "--library", SAMPLES / "library" / "witches", "--json", "--out", out)
    assert code == 0, output
    doc = json.loads(output)
    assert doc["count"] == 1 and doc["annotated"] == str(out) and read_image(out).size
    assert {"id", "edges", "corners", "confidence"} <= set(doc["tiles"][0])
    assert doc["stats"]["seconds"] < 1
    truth = json.loads(photo.with_suffix(".json").read_text())
    matches = match_tiles(truth, [np.float32(t["corners"]) for t in doc["tiles"]])
    puzzle = Puzzle(tiles=tuple(m.edges for m in matches), rows=3, cols=3)
    grid = tuple(tuple(Placement(c["tile"] - 1, c["rotation"] // 90) for c in row)
                 for row in doc["solutions"][0]["grid"])
    assert is_solution(puzzle, grid)


def test_a_photos_json_answer_reads_back_as_the_puzzle_it_solved(tmp_path, capsys):
    """So a photo's answer can be checked by another engine (`--engine`) or exported."""
    answer = tmp_path / "answer.json"
    with pytest.raises(SystemExit):
        main(["solve", str(SAMPLES / "photos" / "witches-scan-easy.jpg"), "--library",
              str(SAMPLES / "library" / "witches"), "--json", "--out", str(tmp_path / "answer.png")])
    answer.write_text(capsys.readouterr().out)
    doc = json.loads(answer.read_text())
    puzzle = load_puzzle(answer)
    assert puzzle.tiles == tuple(tuple(t["edges"]) for t in doc["tiles"]) and puzzle.match.describe() == "signed"
    with pytest.raises(SystemExit) as done:
        main(["solve", str(answer), "--engine", "sat", "--all", "--json"])
    again = json.loads(capsys.readouterr().out)
    assert done.value.code == 0 and again["count"] == 1
    for solution in doc["solutions"] + again["solutions"]:  # one arrangement, perhaps turned otherwise
        assert is_solution(puzzle, tuple(tuple(Placement(c["tile"] - 1, c["rotation"] // 90) for c in row)
                                         for row in solution["grid"]))


def test_a_photo_read_shrunk_gives_corners_in_its_own_pixels(tmp_path, monkeypatch, capsys):
    """Read at half size, the answer and the corners are the whole photo's; `detect` reports the same."""
    from vision import detect, images
    from vision.pipeline import solve_photo

    photo, library = SAMPLES / "photos" / "witches-touching-normal.jpg", SAMPLES / "library" / "witches"
    whole = solve_photo(photo, library=library, out=tmp_path / "whole.png")
    monkeypatch.setattr(images, "READ_SIDE", 800)  # 1600 x 1200: decoded at 800 x 600
    monkeypatch.setattr(detect, "SMALL_TILE", 60)  # its tiles there, 120-170 px, are not re-read whole
    shrunk = solve_photo(photo, library=library, out=tmp_path / "shrunk.png")
    assert [t["edges"] for t in shrunk["tiles"]] == [t["edges"] for t in whole["tiles"]]
    assert shrunk["solutions"] == whole["solutions"]
    corners = np.float32([t["corners"] for t in shrunk["tiles"]])
    truth = json.loads(photo.with_suffix(".json").read_text())
    for quad, match in zip(corners, match_tiles(truth, list(corners))):
        real = np.roll(np.float32(truth["tiles"][match.tile]["corners"]), -match.shift, axis=0)
        assert np.linalg.norm(quad - real, axis=1).max() < 0.05 * np.linalg.norm(real[1] - real[0])  # 100 px wide there
    with pytest.raises(SystemExit):
        main(["detect", str(photo), "--json"])
    detected = np.float32([t["corners"] for t in json.loads(capsys.readouterr().out)["tiles"]])
    assert np.abs(detected - corners).max() < 0.01  # `detect` rounds to hundredths


def test_tiles_found_small_in_a_photo_read_shrunk_are_found_again_whole(monkeypatch):
    from vision import detect

    photo = SAMPLES / "photos" / "witches-scan-easy.jpg"
    monkeypatch.setattr(detect, "SMALL_TILE", 1000)
    found, tiles = detect.photo_tiles(read_photo(photo, side=600), photo)
    assert found.shrink == 1 and found.image.shape == (1600, 1200, 3)
    assert np.array_equal(tiles, find_tiles(read_image(photo)))


def test_nothing_fits_is_exit_1_with_the_best_partial_drawn(tmp_path, solve):
    photo = SAMPLES / "photos" / "witches-scan-easy.jpg"
    image = read_image(photo)
    crops = photo_edges(image).crops
    # a library that reads every edge as one unpaired half: nothing can fit
    add_edges(tmp_path / "lib", crops, [1] * len(crops), [{}] * len(crops))
    code, output = solve(photo, "--library", tmp_path / "lib", "--out", tmp_path / "a.png", "--timeout", "2")
    assert code == 1, output
    assert read_image(tmp_path / "a.png").size


def test_missing_tiles_are_exit_3_and_what_was_found_is_drawn(tmp_path, solve):
    image, truth = render_photo(seed=14, layout="scan", difficulty="normal", art="witches", size=(1600, 1200))
    corners = np.int32(truth["tiles"][4]["corners"])
    blank = image.copy()
    blank[corners[:, 1].min() - 30:corners[:, 1].max() + 30, corners[:, 0].min() - 30:corners[:, 0].max() + 30] = \
        image[600, 200]  # the page's white margin
    path = tmp_path / "eight.png"
    save_photo(path, blank, truth)
    code, output = solve(path, "--library", SAMPLES / "library" / "witches", "--out", tmp_path / "a.png")
    assert code == 3 and "found 8 tiles, expected 9" in output
    assert read_image(tmp_path / "a.png").size


def test_a_square_count_is_not_a_puzzle_when_the_library_knows_its_size(tmp_path, solve):
    """Four tiles left would make a 2x2; the library was taught a 3x3, so it is exit 3."""
    image, truth = render_photo(seed=14, layout="scan", difficulty="normal", art="witches", size=(1600, 1200))
    for tile in truth["tiles"][:5]:
        corners = np.int32(tile["corners"])
        image[corners[:, 1].min() - 30:corners[:, 1].max() + 30, corners[:, 0].min() - 30:corners[:, 0].max() + 30] = \
            (255, 255, 255)  # the page
    path = tmp_path / "four.png"
    save_photo(path, image, truth)
    code, output = solve(path, "--library", SAMPLES / "library" / "witches", "--out", tmp_path / "a.png")
    assert code == 3 and "found 4 tiles, expected 9" in output


def test_unreadable_photo_is_exit_2(tmp_path, solve):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    code, output = solve(bad, "--library", SAMPLES / "library" / "witches")
    assert code == 2 and "bad.jpg" in output and "Traceback" not in output


def test_missing_photo_in_a_fresh_process_is_exit_2_and_one_line(tmp_path):
    """The process must end cleanly, not abort, while OpenCV's colour tables still fill."""
    missing = tmp_path / "gone.jpg"
    done = subprocess.run([sys.executable, "-m", "vision.cli", "solve", str(missing)],
                          capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"edgematch: {missing}: no such file\n"


@pytest.mark.parametrize("name, says", [("cut.jpg", "the file ends part way through the picture"),
                                        ("broken.png", "not an image edgematch can read")])
def test_a_broken_photo_is_one_line_on_stderr_not_the_decoders_own_words(tmp_path, name, says):
    """OpenCV's logger and libjpeg write to the process's stderr themselves (a broken PNG's
    header, a JPEG cut short): a child process shows what the user would see."""
    photo = SAMPLES / "photos" / "witches-scattered-normal.jpg"
    broken = tmp_path / name
    broken.write_bytes(photo.read_bytes()[:20000] if name.endswith(".jpg") else b"\x89PNG\r\n\x1a\nxxxx")
    done = subprocess.run([sys.executable, "-m", "vision.cli", "solve", str(broken)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"edgematch: {broken}: {says}") and len(done.stderr.splitlines()) == 1


def test_a_folder_that_is_no_library_is_exit_2_even_when_the_photo_shows_no_puzzle(tmp_path, solve):
    """The library loads while the tiles are sought; its error still comes first, as it did."""
    plain = tmp_path / "table.png"
    write_image(plain, np.full((300, 400, 3), 128, np.uint8))
    code, output = solve(plain, "--library", tmp_path, "--out", tmp_path / "a.png")
    assert code == 2 and "not an edgematch library" in output

def test_the_library_loads_while_the_photo_is_still_being_decoded(tmp_path, monkeypatch):
    """The core the decode leaves idle loads the library, not the two the tiles are sought on."""
    import threading

    from vision import pipeline

    loading = threading.Event()
    real = pipeline._library_looks
    monkeypatch.setattr(pipeline, "_library_looks", lambda library: loading.set() or real(library))
    photo = SAMPLES / "photos" / "witches-touching-normal.jpg"

    class Decoding:  # `read_ahead`'s future, answering only once the library is being loaded
        def result(self):
            assert loading.wait(10), "the library waited for the photo"
            return read_photo(photo)

    answer = pipeline.solve_photo(photo, library=SAMPLES / "library" / "witches", out=tmp_path / "a.png",
                                  decoding=Decoding())
    assert answer["count"] == 1

def test_the_answer_is_drawn_on_a_backdrop_made_while_the_edges_are_cut(tmp_path, monkeypatch):
    """The helper thread, idle once the library is loaded, makes the backdrop beside `photo_edges`."""
    import threading

    from vision import pipeline

    making = threading.Event()
    real_backdrop, real_edges = pipeline.draw.backdrop, pipeline.photo_edges
    monkeypatch.setattr(pipeline.draw, "backdrop", lambda *args: making.set() or real_backdrop(*args))

    def photo_edges(*args, **kwargs):
        assert making.wait(10), "the backdrop waited for the edges"
        return real_edges(*args, **kwargs)

    monkeypatch.setattr(pipeline, "photo_edges", photo_edges)
    photo = SAMPLES / "photos" / "witches-touching-normal.jpg"
    answer = pipeline.solve_photo(photo, library=SAMPLES / "library" / "witches", out=tmp_path / "a.png")
    assert answer["count"] == 1


@pytest.mark.skipif(not REAL.is_dir(), reason="no real-dev pictures here")
@pytest.mark.parametrize("name", ["davidlewine-hotrods.jpg", "liorsinai-scramblesquare_serengeti.jpg"])
def test_real_catalogue_repeats_read_alike(name):
    """These repeat column 2 in column 3: taught column 2, column 3 reads as its twins."""
    image = read_image(REAL / name)
    if len(find_tiles(image)) != 9:
        pytest.skip(f"detection does not find the 9 tiles of {name}")
    crops = photo_edges(image).crops
    column = {2: [1, 4, 7], 3: [2, 5, 8]}  # 0-based tiles
    taught = [4 * t + k for t in column[2] for k in range(4)]
    lib = Library(None, "signed", list(range(1, 13)), [crops[e] for e in taught], [])
    reading = read_edges(describe([crops[4 * t + k] for t in column[3] for k in range(4)]), lib)
    assert [c for tile in reading.tiles for c in tile] == list(range(1, 13))


def test_corners_given_are_cut_as_given_not_sought(tmp_path):
    """`solve_photo(corners=...)` reads the tiles where it is told (here the truth, in its own
    order), so reading can be measured apart from finding; the answer is valid for the true codes."""
    from vision.pipeline import solve_photo

    photo = SAMPLES / "photos" / "witches-scattered-hard-exif.jpg"
    truth = json.loads(photo.with_suffix(".json").read_text())
    corners = [t["corners"] for t in truth["tiles"]]
    doc = solve_photo(photo, library=SAMPLES / "library" / "witches", out=tmp_path / "a.png", corners=corners)
    assert np.allclose([t["corners"] for t in doc["tiles"]], corners, atol=0.01)
    assert [tuple(t["edges"]) for t in doc["tiles"]] == [tuple(t["edges"]) for t in truth["tiles"]]
    puzzle = Puzzle(tiles=tuple(tuple(t["edges"]) for t in truth["tiles"]), rows=3, cols=3)
    grid = tuple(tuple(Placement(c["tile"] - 1, c["rotation"] // 90) for c in row)
                 for row in doc["solutions"][0]["grid"])
    assert is_solution(puzzle, grid)


def test_a_photo_with_no_colour_is_answered_with_a_warning(tmp_path, capsys):
    """The witches' figures differ in colour: read grey, the answer may be wrong, and says so
    on stderr and in the JSON; the same photo in colour says nothing."""
    photo = SAMPLES / "photos" / "witches-scattered-normal.jpg"
    grey = tmp_path / "grey.png"
    luma = read_image(photo) @ np.float32([0.114, 0.587, 0.299])  # as a grey scan keeps it: one channel
    write_image(grey, np.round(luma).astype(np.uint8))
    for path, warned in ((photo, False), (grey, True)):
        with pytest.raises(SystemExit):
            main(["solve", str(path), "--library", str(SAMPLES / "library" / "witches"), "--json",
                  "--timeout", "1", "--out", str(tmp_path / "answer.png")])
        seen = capsys.readouterr()
        warnings = json.loads(seen.out).get("warnings", [])
        assert bool(warnings) == warned and ("no colour" in "".join(warnings) or not warned)
        assert seen.err == "".join(f"edgematch: {path}: {w}\n" for w in warnings)


def test_of_several_photos_the_one_with_no_puzzle_is_named(tmp_path, capsys):
    wall = tmp_path / "wall.png"
    write_image(wall, np.full((600, 800, 3), 200, np.uint8))
    photo = SAMPLES / "photos" / "witches-scan-easy.jpg"
    with pytest.raises(SystemExit) as done:
        main(["solve", str(wall), str(photo), "--library", str(SAMPLES / "library" / "witches")])
    seen = capsys.readouterr()
    assert done.value.code == 3 and f"{photo}: 3x3, 1 solution" in seen.out
    assert seen.err == f"edgematch: {wall}: found no tiles, expected 9 (see {tmp_path / 'wall.solved.png'})\n"
    with pytest.raises(SystemExit) as done:  # one --out image cannot hold two answers
        main(["solve", str(wall), str(photo), "--out", str(tmp_path / "answer.png")])
    seen = capsys.readouterr()
    assert done.value.code == 2 and len(seen.err.splitlines()) == 1 and "--out" in seen.err
    assert not (tmp_path / "answer.png").exists()
