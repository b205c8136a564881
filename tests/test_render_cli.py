"""`edgematch render`: photos, sheets, and one-line errors with exit 2."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from solver import Puzzle, is_solution
from solver.formats import load_puzzle
from solver.puzzle import Placement
from vision.cli import main
from vision.render import match_tiles


def run(args: list, capsys) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as done:
        main(args)
    out, err = capsys.readouterr()
    return done.value.code, out, err


def test_render_writes_a_photo_and_its_truth(tmp_path, capsys):
    out = tmp_path / "witches-loose-easy.jpg"
    code, stdout, _ = run(["render", str(out), "--seed", "3", "--layout", "loose", "--difficulty", "easy",
                           "--size", "640x480", "--exif", "270"], capsys)
    assert code == 0
    assert stdout.split() == [str(out), str(out.with_suffix(".json"))]
    truth = json.loads(out.with_suffix(".json").read_text())
    assert cv2.imread(str(out)).shape == (480, 640, 3)
    assert truth["image"] == out.name and truth["params"]["exif"] == 270
    assert (truth["width"], truth["height"]) == (640, 480)


def test_render_sheet_writes_png_pdf_and_truth(tmp_path, capsys):
    out = tmp_path / "sheet.png"
    code, _, _ = run(["render", "--sheet", str(out), "--art", "frogs", "--seed", "2"], capsys)
    assert code == 0
    page = cv2.imread(str(out))
    assert page.shape[:2] == (3508, 2480)  # A4 at 300 dpi
    assert (tmp_path / "sheet.pdf").read_bytes()[:5] == b"%PDF-"
    truth = json.loads((tmp_path / "sheet.json").read_text())
    assert len(truth["tiles"]) == 9 and truth["params"]["sheet"] is True


@pytest.mark.parametrize("args,words", [
    (["--size", "big"], "WIDTHxHEIGHT"),
    (["--layout", "heap"], "heap"),
    (["--art", "dragons"], "dragons"),
    (["--size", "50x40"], "outside"),
    (["--rows", "1"], "rows"),
    (["--seed", "-1"], "--seed"),
])
def test_bad_options_are_one_line_exit_2(tmp_path, capsys, args, words):
    code, stdout, err = run(["render", str(tmp_path / "x.jpg"), *args], capsys)
    assert code == 2 and stdout == ""
    assert len(err.strip().splitlines()) == 1 and words in err


def test_bad_output_paths_are_one_line_exit_2(tmp_path, capsys):
    code, _, err = run(["render", str(tmp_path / "nowhere" / "x.jpg")], capsys)
    assert code == 2 and "nowhere" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(["render", str(tmp_path / "x.gif")], capsys)
    assert code == 2 and "x.gif" in err
    code, _, err = run(["render", str(tmp_path / "x.jpg"), "--exif", "90", "--size", "320x240"], capsys)
    assert code == 0
    code, _, err = run(["render", str(tmp_path / "y.png"), "--exif", "90", "--size", "320x240"], capsys)
    assert code == 2 and "y.png" in err


def test_no_traceback_from_a_fresh_process(tmp_path):
    done = subprocess.run([sys.executable, "-c", "from vision.cli import main; main()", "render",
                           str(tmp_path / "x.jpg"), "--difficulty", "impossible"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "impossible" in done.stderr


PUZZLES = Path(__file__).resolve().parents[1] / "samples" / "puzzles"


def test_a_puzzle_file_prints_as_a_sheet_that_solves_from_its_picture(tmp_path, capsys):
    """The witch puzzle (codes adding up to 9) drawn with the witches' art, then read back with no library."""
    witch = load_puzzle(PUZZLES / "witch.json")
    out = tmp_path / "witch.png"
    code, _, _ = run(["render", "--sheet", str(out), "--puzzle", str(PUZZLES / "witch.json")], capsys)
    truth = json.loads(out.with_suffix(".json").read_text())
    assert code == 0 and len(truth["tiles"]) == 9
    halves = {}  # the file's codes as the art's figure halves: one to one, partners as +k and -k
    for tile, drawn in zip(witch.tiles, truth["tiles"]):
        for code, half in zip(tile, drawn["edges"]):
            assert halves.setdefault(code, half) == half
    assert len(set(halves.values())) == len(halves) and all(halves[witch.match.partner(c)] == -h
                                                            for c, h in halves.items())
    assert is_solution(witch, _grid(truth["solution"])) and truth["count"] == 1
    code, stdout, _ = run(["solve", str(out), "--json", "--out", str(tmp_path / "answer.png")], capsys)
    answer = json.loads(stdout)
    seen = match_tiles(truth, [np.float32(t["corners"]) for t in answer["tiles"]])
    assert code == 0 and is_solution(Puzzle(tiles=tuple(m.edges for m in seen), rows=3, cols=3),
                                     _grid(answer["solutions"][0]["grid"]))


def _grid(rows: list) -> tuple:
    return tuple(tuple(Placement(cell["tile"] - 1, cell["rotation"] // 90) for cell in row) for row in rows)


@pytest.mark.parametrize("text, says", [
    ("1 2 -1 -2\n" * 3 + "5 2 -5 -2\n" + "1 3 -1 -3\n" + "1 4 -1 -4\n" * 4, "5 figures, and the art sets draw 4"),
    ("match: same\n" + "1 2 1 2\n" * 4, "code 1 fits itself")])
def test_a_puzzle_the_art_cannot_draw_is_one_line_exit_2(tmp_path, capsys, text, says):
    path = tmp_path / "mine.txt"
    path.write_text(text)
    code, stdout, err = run(["render", "--sheet", str(tmp_path / "sheet.png"), "--puzzle", str(path)], capsys)
    assert (code, stdout) == (2, "") and err.startswith(f"edgematch: {path}: {says}") and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == [path]
