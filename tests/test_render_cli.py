"""`edgematch render`: photos, sheets, and one-line errors with exit 2."""
from __future__ import annotations

import json
import subprocess
import sys

import cv2
import pytest

from vision.cli import main


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
