"""Libraries: label --codes round trip, merging, and atomic writes."""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from vision.cli import cli
from vision.cli.errors import InputError
from vision.library import INDEX, add_edges, load_library
from vision.render import match_tiles, render_photo, save_photo
from vision.detect import find_tiles

from click.testing import CliRunner


def crop(value: int) -> np.ndarray:
    return np.full((48, 96, 3), value, np.uint8)


def test_adding_merges_and_relabelling_keeps_one_entry(tmp_path):
    add_edges(tmp_path, [crop(10), crop(20)], [1, -1], [{"tile": 1, "side": "N"}] * 2)
    lib = add_edges(tmp_path, [crop(20), crop(30)], [2, -2], [{"tile": 2, "side": "E"}] * 2)
    assert lib.codes == [1, 2, -2]
    assert len(list((tmp_path / "edges").glob("*.png"))) == 3
    assert json.loads((tmp_path / INDEX).read_text())["match"] == "signed"


def test_the_puzzle_size_is_kept_and_a_photo_of_another_size_refused(tmp_path):
    add_edges(tmp_path, [crop(10)], [1], [{"tile": 1, "side": "N"}], tiles=9)
    assert add_edges(tmp_path, [crop(20)], [-1], [{"tile": 2, "side": "N"}]).tiles == 9
    with pytest.raises(InputError, match="9 tiles, and this photo 16"):
        add_edges(tmp_path, [crop(30)], [2], [{"tile": 3, "side": "N"}], tiles=16)
    assert load_library(tmp_path).codes == [1, -1]


def test_an_interrupted_write_leaves_the_library_as_it_was(tmp_path, monkeypatch):
    add_edges(tmp_path, [crop(10)], [1], [{"tile": 1, "side": "N"}])
    before = (tmp_path / INDEX).read_bytes()

    def power_cut(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", power_cut)
    with pytest.raises(KeyboardInterrupt):
        add_edges(tmp_path, [crop(50), crop(60)], [3, -3], [{"tile": 2, "side": "S"}] * 2)
    monkeypatch.undo()
    assert (tmp_path / INDEX).read_bytes() == before
    assert load_library(tmp_path).codes == [1]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temp files left


def test_a_broken_library_is_one_line_naming_it(tmp_path):
    (tmp_path / INDEX).write_text("{not json")
    with pytest.raises(InputError, match="library.json"):
        load_library(tmp_path)
    with pytest.raises(InputError, match="not an edgematch library"):
        load_library(tmp_path / "nowhere")
    (tmp_path / INDEX).write_text(json.dumps({"format": "edgematch-library", "tiles": "nine", "edges": []}))
    with pytest.raises(InputError, match="tiles is 'nine'"):
        load_library(tmp_path)


@pytest.fixture(scope="module")
def photo(tmp_path_factory):
    folder = tmp_path_factory.mktemp("photo")
    image, truth = render_photo(seed=14, layout="scan", difficulty="normal", art="witches",
                                size=(1600, 1200), unique=True)
    path = folder / "witches.jpg"
    save_photo(path, image, truth)
    matches = match_tiles(truth, find_tiles(image))
    codes = {str(i + 1): list(m.edges) for i, m in enumerate(matches)}
    return path, codes


def test_label_codes_round_trip(photo, tmp_path):
    path, codes = photo
    (tmp_path / "codes.json").write_text(json.dumps(codes))
    run = CliRunner().invoke(cli, ["label", str(path), "--library", str(tmp_path / "lib"),
                                   "--codes", str(tmp_path / "codes.json")])
    assert run.exit_code == 0, run.output
    lib = load_library(tmp_path / "lib")
    assert lib.tiles == len(codes)
    entries = {(e["tile"], e["side"]): e["code"] for e in lib.entries}
    assert all(entries[(int(t), "NESW"[k])] == c for t, edges in codes.items() for k, c in enumerate(edges))


def test_label_sheet_then_groups(photo, tmp_path):
    path, codes = photo
    sheet = tmp_path / "groups.png"
    run = CliRunner().invoke(cli, ["label", str(path), "--library", str(tmp_path / "lib"), "--sheet", str(sheet)])
    assert run.exit_code == 0, run.output
    groups = json.loads(sheet.with_suffix(".json").read_text())
    # a person names each group by the code its members show
    for name in groups["codes"]:
        tile, side = next((t, k) for t, letters in groups["tiles"].items() for k, g in enumerate(letters) if g == name)
        groups["codes"][name] = codes[tile][side]
    sheet.with_suffix(".json").write_text(json.dumps(groups))
    run = CliRunner().invoke(cli, ["label", str(path), "--library", str(tmp_path / "lib"),
                                   "--groups", str(sheet.with_suffix(".json"))])
    assert run.exit_code == 0, run.output
    assert len(load_library(tmp_path / "lib").codes) == 36


def test_label_warns_when_the_codes_pair_under_another_rule(photo, tmp_path, capsys):
    """The witch article's codes add up to 9; typed in under the default rule (signed), none pairs."""
    from vision.cli import main

    path, codes = photo
    summed = {tile: [c if c > 0 else 9 + c for c in edges] for tile, edges in codes.items()}
    (tmp_path / "codes.json").write_text(json.dumps(summed))
    for rule, err_is in (([], "edgematch: {}: none of the 8 codes has a partner under the signed rule (1 fits -1):"
                              " if they add up to 9, label again with --match sum:9\n"),
                         (["--match", "sum:9"], "")):  # as told: the same library, now paired
        with pytest.raises(SystemExit) as done:
            main(["label", str(path), "--library", str(tmp_path / "lib"), "--codes", str(tmp_path / "codes.json"),
                  *rule])
        assert done.value.code == 0 and capsys.readouterr().err == err_is.format(tmp_path / "lib")
    assert load_library(tmp_path / "lib").match == "sum:9"


def test_label_bad_input_is_one_line_and_exit_2(photo, tmp_path, capsys):
    from vision.cli import main

    path, codes = photo
    (tmp_path / "short.json").write_text(json.dumps({"1": [1, 2, 3]}))
    for extra in (["--codes", str(tmp_path / "short.json")], ["--codes", str(tmp_path / "none.json")],
                  ["--match", "nonsense", "--codes", str(tmp_path / "short.json")]):
        with pytest.raises(SystemExit) as done:
            main(["label", str(path), "--library", str(tmp_path / "lib"), *extra])
        err = capsys.readouterr().err
        assert done.value.code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert not (tmp_path / "lib").exists()


def test_label_seeks_the_tiles_in_the_count_the_library_knows(tmp_path, monkeypatch):
    # A block cut into another grid is laid in the count (`detect.counted_cards`),
    # so a library taught a 3x3 must hand its count to the tiles' search.
    from vision.cli import main
    from vision.cli.errors import NotRecognised
    from vision.images import write_image

    add_edges(tmp_path / "lib", [crop(10)], [1], [{"tile": 1, "side": "N"}], tiles=9)
    write_image(tmp_path / "photo.png", crop(40))
    asked = []

    def photo_edges(image, count=None, name=None):
        asked.append(count)
        raise NotRecognised("found 16 tiles, expected 9")

    monkeypatch.setattr("vision.pipeline.photo_edges", photo_edges)
    (tmp_path / "codes.json").write_text(json.dumps({"1": [1, 2, 3, 4]}))
    with pytest.raises(SystemExit) as done:
        main(["label", str(tmp_path / "photo.png"), "--library", str(tmp_path / "lib"),
              "--codes", str(tmp_path / "codes.json")])
    assert asked == [9] and done.value.code == 3


def test_label_leaves_a_folder_of_other_files_alone(photo, tmp_path, capsys):
    """A mistyped --library (say, ~/Documents) is no place to write edge images into."""
    from vision.cli import main

    path, codes = photo
    folder = tmp_path / "documents"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine")
    (tmp_path / "codes.json").write_text(json.dumps(codes))
    with pytest.raises(SystemExit) as done:
        main(["label", str(path), "--library", str(folder), "--codes", str(tmp_path / "codes.json")])
    err = capsys.readouterr().err
    assert done.value.code == 2 and err == f"edgematch: {folder}: holds other files and no library.json: " \
        "give a new or empty folder for a library\n"
    assert [p.name for p in folder.iterdir()] == ["notes.txt"]
