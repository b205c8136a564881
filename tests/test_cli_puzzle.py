"""`edgematch solve` on puzzle files, through the real command: output, JSON, exit codes."""
import io
import json
import subprocess
import sys
from pathlib import Path

import click
import pytest

from solver import is_solution
from solver.formats import load_puzzle
from vision.cli import main

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "puzzles"
WITCH = str(SAMPLES / "witch.json")
NO_WAY = "# codes pair up, tiles do not\n1 1 1 1\n-1 -1 -1 -1\n1 1 1 1\n1 1 1 1\n"


def run(args, capsys, monkeypatch, stdin: bytes = b""):
    """Run the CLI in this process: (exit code, stdout, stderr)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin)))
    with pytest.raises(SystemExit) as done:
        main(["solve", *map(str, args)])
    out, err = capsys.readouterr()
    return done.value.code, out, err


def grid_of(solution: dict) -> list:
    """A JSON grid as the verifier takes it: 0-based tiles, quarter turns."""
    return [[(cell["tile"] - 1, cell["rotation"] // 90) for cell in row] for row in solution["grid"]]


def test_json_document_follows_spec(capsys, monkeypatch):
    code, out, err = run([WITCH, "--json"], capsys, monkeypatch)
    document = json.loads(out)
    assert code == 0 and err == ""
    assert list(document) == ["input", "rows", "cols", "match", "tiles", "solutions", "count", "complete", "stats"]
    assert (document["input"], document["rows"], document["cols"], document["match"]) == (WITCH, 3, 3, "sum:9")
    assert document["tiles"][0] == {"id": 1, "edges": [3, 6, 6, 1]}
    assert [t["id"] for t in document["tiles"]] == list(range(1, 10))
    assert (document["count"], document["complete"], len(document["solutions"])) == (1, False, 1)
    assert set(document["stats"]) == {"seconds", "nodes"} and document["stats"]["nodes"] > 0
    cells = [cell for row in document["solutions"][0]["grid"] for cell in row]
    assert all(set(cell) == {"tile", "rotation"} and cell["rotation"] in (0, 90, 180, 270) for cell in cells)
    assert is_solution(load_puzzle(WITCH), grid_of(document["solutions"][0]))


@pytest.mark.parametrize("sample, count", [("witch-2.txt", 2), ("four-squares.txt", 18), ("nsa.json", 1)])
def test_all_lists_every_solution(sample, count, capsys, monkeypatch):
    code, out, _ = run([SAMPLES / sample, "--all", "--json"], capsys, monkeypatch)
    document = json.loads(out)
    assert code == 0 and (document["count"], document["complete"]) == (count, True)
    puzzle = load_puzzle(SAMPLES / sample)
    assert len(document["solutions"]) == count
    assert all(is_solution(puzzle, grid_of(s)) for s in document["solutions"])


def test_identical_tiles_are_reported(capsys, monkeypatch, tmp_path):
    path = tmp_path / "twins.txt"
    path.write_text("1 2 3 4\n1 2 3 4\n-1 -2 -3 -4\n-3 -4 -1 -2\n")
    code, out, _ = run([path, "--json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out)["identical"] == [[1, 2], [3, 4]]
    code, out, _ = run([path], capsys, monkeypatch)
    assert "Tiles 1 and 2 are identical" in out and "Tiles 3 and 4 are identical" in out


def test_human_text_has_table_and_a_line_per_cell(capsys, monkeypatch):
    _, out, _ = run([WITCH, "--json"], capsys, monkeypatch)
    grid = json.loads(out)["solutions"][0]["grid"]
    code, out, err = run([WITCH], capsys, monkeypatch)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].startswith(f"{WITCH}: 3x3, 1 solution")
    words = {0: "no turn", 90: "turn it 90° clockwise", 180: "turn it 180°", 270: "turn it 90° anticlockwise"}
    for r, row in enumerate(grid, 1):
        table_row = next(line for line in lines if line.startswith(f"row {r} "))
        assert [cell.split() for cell in table_row.split("|")[1:-1]] == \
            [[str(c["tile"]), f"{c['rotation']}°"] for c in row]
        for c, cell in enumerate(row, 1):
            assert f"Row {r}, col {c}: tile {cell['tile']}, {words[cell['rotation']]}" in lines


def test_no_arrangement_exits_1(capsys, monkeypatch, tmp_path):
    path = tmp_path / "no-way.txt"
    path.write_text(NO_WAY)
    code, out, err = run([path], capsys, monkeypatch)
    assert code == 1 and "no arrangement fits" in out and err == ""
    code, out, _ = run([path, "--json"], capsys, monkeypatch)
    document = json.loads(out)
    assert code == 1 and (document["solutions"], document["count"], document["complete"]) == ([], 0, True)


@pytest.mark.parametrize("text", [
    "match: sum:9\n3 6 6 1\n2 4 8 7\n6 4 4 8\n7 7 1 1\n2 5 5 1\n3 7 5 1\n2 6 5 3\n8 5 3 4\n2 8 8 2\n",
    Path(WITCH).read_text(),
    (SAMPLES / "witch-questions.yaml").read_text().replace("sum:10", "sum:10"),
])
def test_stdin(text, capsys, monkeypatch):
    code, out, err = run(["-", "--json"], capsys, monkeypatch, stdin=text.encode())
    document = json.loads(out)
    assert code == 0 and err == "" and document["input"] == "-" and document["count"] == 1


def test_several_inputs_give_one_json_list_and_the_worst_code(capsys, monkeypatch, tmp_path):
    (tmp_path / "no-way.txt").write_text(NO_WAY)
    nsa = SAMPLES / "nsa.json"
    code, out, err = run([WITCH, nsa, "--json"], capsys, monkeypatch)
    documents = json.loads(out)
    assert code == 0 and err == "" and [d["input"] for d in documents] == [WITCH, str(nsa)]
    code, out, _ = run([WITCH, tmp_path / "no-way.txt", "--json"], capsys, monkeypatch)
    assert code == 1 and [d["count"] for d in json.loads(out)] == [1, 0]
    code, out, err = run([tmp_path / "missing.json", WITCH, "--json"], capsys, monkeypatch)
    documents = json.loads(out)
    assert code == 2 and documents[1]["count"] == 1
    assert documents[0] == {"input": str(tmp_path / "missing.json"),
                            "error": f"{tmp_path / 'missing.json'}: no such file"}
    assert err.splitlines() == [f"edgematch: {tmp_path / 'missing.json'}: no such file"]
    code, out, _ = run([WITCH, nsa], capsys, monkeypatch)
    assert code == 0 and out.count("Row 3, col 3:") == 2


def test_out_writes_the_json_answer(capsys, monkeypatch, tmp_path):
    path = tmp_path / "answer.json"
    path.write_text("old")
    code, out, _ = run([WITCH, "--json", "--out", path], capsys, monkeypatch)
    assert code == 0 and json.loads(path.read_text()) == json.loads(out)
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind
    code, _, err = run([WITCH, "--out", tmp_path / "no" / "such" / "dir.json"], capsys, monkeypatch)
    assert code == 2 and len(err.splitlines()) == 1 and "cannot write" in err


BAD_INPUTS = {
    "malformed.json": b'{"match": "sum:9",\n "tiles": [[3, 6, 6, 1]\n [2, 4, 8, 7]]}',
    "malformed.yaml": b"match: sum:9\ntiles:\n  - [3, 6, 6, 1]\n  - [2, 4, 8, 7\n",
    "count.txt": b"rows: 3\ncols: 3\n" + b"1 2 -1 -2\n" * 8,
    "three.txt": b"1 2 -1 -2\n1 2 -1\n1 2 -1 -2\n1 2 -1 -2\n",
    "five.json": b'{"tiles": [[1, 2, -1, -2], [1, 2, -1, -2, 1], [1, 2, -1, -2], [1, 2, -1, -2]]}',
    "rule.txt": b"match: plus\n" + b"1 2 -1 -2\n" * 4,
    "partner.txt": b"1 2 -1 -2\n1 2 -1 -2\n1 2 -1 -2\n1 2 -1 5\n",
    "hints.yaml": b"fixed:\n  - {tile: 1, row: 1, col: 1}\n  - {tile: 2, row: 1, col: 1}\n"
                  b"tiles:\n" + b"  - [1, 2, -1, -2]\n" * 4,
    "empty.txt": b"",
    "junk.json": bytes(range(256)),
    "huge.txt": b"1 2 -1 -2\n" * 1600,
    "typo.json": b'{"colums": 2, "tiles": [[1, 2, -1, -2], [1, 2, -1, -2], [1, 2, -1, -2], [1, 2, -1, -2]]}',
    "outside.txt": b"fixed: [{tile: 9, row: 1, col: 1}]\n" + b"1 2 -1 -2\n" * 4,
    "scalar.yaml": b"just words",
    "deep.json": b"[" * 100000 + b"]" * 100000,
    "megabyte.txt": b"1 2 -1 -2\n" * 110000,
    "deep.yaml": b"tiles: " + b"[" * 100000 + b"]" * 100000,
}


@pytest.mark.parametrize("name", sorted(BAD_INPUTS))
def test_bad_input_is_one_line_and_exit_2(name, capsys, monkeypatch, tmp_path):
    path = tmp_path / name
    path.write_bytes(BAD_INPUTS[name])
    code, out, err = run([path], capsys, monkeypatch)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith(f"edgematch: {path}") and "Traceback" not in err
    assert "internal error" not in err


@pytest.mark.parametrize("args", [[], ["/no/such/file.json"], ["/"], [WITCH, "--engine", "quantum"],
                                  [WITCH, "--timeout", "0"], ["-", "--bogus"]])
def test_usage_errors_are_one_line_and_exit_2(args, capsys, monkeypatch):
    code, out, err = run(args, capsys, monkeypatch)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and "Traceback" not in err


def test_stdin_junk_names_stdin(capsys, monkeypatch):
    code, _, err = run(["-"], capsys, monkeypatch, stdin=b"\x00\x01\x02")
    assert code == 2 and err == "edgematch: <stdin>: binary data, not a puzzle file\n"


def test_real_command_in_a_fresh_process(tmp_path):
    """``python -m vision.cli``, not just main(): bad input, then a solve, then stdin."""
    command = [sys.executable, "-m", "vision.cli", "solve"]
    bad = tmp_path / "bad.json"
    bad.write_bytes(BAD_INPUTS["malformed.json"])
    done = subprocess.run(command + [str(bad)], capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == f"edgematch: {bad}:3: not valid JSON: Expecting ',' delimiter (column 2)\n"
    done = subprocess.run(command + ["-", "--all", "--json"], input=(SAMPLES / "big-cats.json").read_text(),
                          capture_output=True, text=True)
    assert done.returncode == 0 and json.loads(done.stdout)["count"] == 1


def test_timeout_stops_an_endless_enumeration(capsys, monkeypatch, tmp_path):
    """8x8, two signed codes: far more solutions than any search lists in half a second."""
    path = tmp_path / "endless.txt"
    path.write_text("1 1 -1 -1\n" * 64)
    code, out, _ = run([path, "--all", "--timeout", "0.5", "--json"], capsys, monkeypatch)
    document = json.loads(out)
    assert code == 0 and document["complete"] is False and document["count"] == len(document["solutions"]) >= 1


@pytest.mark.parametrize("engine", ["cp-sat", "sat", "mip"])
def test_other_engines_agree_with_the_builtin_search(engine, capsys, monkeypatch):
    pytest.importorskip("solver.engines")
    code, out, _ = run([SAMPLES / "witch-2.txt", "--all", "--json", "--engine", engine], capsys, monkeypatch)
    document = json.loads(out)
    assert code == 0 and document["count"] == 2
    puzzle = load_puzzle(SAMPLES / "witch-2.txt")
    assert all(is_solution(puzzle, grid_of(s)) for s in document["solutions"])


def test_ctrl_c_prints_what_was_found_then_exits_130(tmp_path):
    """Once the search reports progress, Ctrl-C: the answer so far on stdout, one stderr line, exit 130."""
    import signal

    import solver

    if not hasattr(solver.Result(), "interrupted"):
        pytest.skip("this search does not report interruptions")
    path = tmp_path / "endless.txt"
    path.write_text("1 1 -1 -1\n" * 64)
    command = [sys.executable, "-c", "from vision.cli import main; main()", "solve", str(path), "--all", "--json",
               "--timeout", "30"]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) as child:
        first = child.stderr.readline()  # the first progress report: the search is under way
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    document = json.loads(out)
    assert first.startswith(f"{path}: ") and "nodes" in first
    assert child.returncode == 130 and err.splitlines()[-1] == "edgematch: interrupted"
    assert document["interrupted"] is True and document["complete"] is False
    assert document["count"] == len(document["solutions"]) >= 1


def test_solving_a_photo_loads_no_hashing():
    """Only writing a library names crops by their hash: solving a photo loads no OpenSSL."""
    code = "import sys, vision.pipeline, vision.cli.solve; print('hashlib' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def loaded_when_first_called(tmp_path, module: str, function: str) -> tuple[list, int]:
    """`edgematch solve` on a sample photo in a child process: which of click, `concurrent.futures`
    and `vision.images` had loaded when ``module.function`` was first called, and the exit code."""
    samples = Path(__file__).resolve().parents[1] / "samples"
    code = (f"import sys, {module} as watched\n"
            f"real, started = watched.{function}, []\n"
            f"watched.{function} = lambda *args: started.append(sorted({{'click', 'concurrent.futures', "
            f"'vision.images'}} & set(sys.modules))) or real(*args)\n"
            "from vision.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as done:\n    print(json.dumps([started[0], done.code]))")
    photo = samples / "photos" / "witches-touching-normal.jpg"
    done = subprocess.run([sys.executable, "-c", "import json\n" + code, "solve", "--library",
                           str(samples / "library" / "witches"), str(photo), "--out", str(tmp_path / "a.png")],
                          capture_output=True, text=True, check=True)
    loaded, code = json.loads(done.stdout.splitlines()[-1])
    return loaded, code


def test_a_photo_is_decoded_while_click_and_the_solve_command_load(tmp_path):
    """`solve PHOTO` starts decoding the photo before click loads, and the command uses that decode."""
    assert loaded_when_first_called(tmp_path, "vision.images", "read_ahead") == (
        ["concurrent.futures", "vision.images"], 0)


def test_opencvs_lab_tables_start_filling_before_anything_else_loads(tmp_path):
    """The tables are the longest wait before a photo's tiles are sought (0.16 s of a core): `solve
    PHOTO` starts them as soon as OpenCV loads, before the decode's thread pool and the rest."""
    assert loaded_when_first_called(tmp_path, "vision.lab", "ready_lab") == ([], 0)


def test_the_command_flushes_a_long_answer_before_its_process_ends(tmp_path):
    """Run as the command, `main` ends its process at once (no interpreter teardown): every
    line it wrote to a pipe still arrives, and the exit code is the answer's."""
    path = tmp_path / "many.txt"
    path.write_text("1 1 -1 -1\n" * 16)  # 4x4, two signed codes: 70 solutions, a JSON longer than a pipe buffers
    command = [sys.executable, "-c", "from vision.cli import main; main()", "solve", str(path), "--all", "--json"]
    done = subprocess.run(command, capture_output=True, text=True)
    document = json.loads(done.stdout)
    assert done.returncode == 0 and len(done.stdout) > 2 ** 13 and document["count"] == len(document["solutions"]) == 70
    done = subprocess.run(command[:3] + ["solve", str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert done.returncode == 2 and done.stderr == f"edgematch: {tmp_path / 'missing.json'}: no such file\n"


def test_the_decode_ahead_skips_the_values_of_exactly_the_solve_options_that_take_one():
    """`ahead.VALUED` is written out so click need not load first; it must follow `solve`'s options."""
    from vision.cli.ahead import VALUED
    from vision.cli.solve import solve

    valued = {name for option in solve.params if isinstance(option, click.Option) and not option.is_flag
              for name in option.opts if name.startswith("--")}
    assert VALUED == valued


@pytest.mark.parametrize("args, says", [
    (["solve", "PHOTO", "--engine", "sat"], "--engine sat solves puzzle files"),
    (["export", "PHOTO", "--format", "cnf"], "PHOTO: a photo; export takes a puzzle file")])
def test_what_takes_puzzle_files_only_refuses_a_photo(args, says, capsys):
    """Before, solve ignored --engine for a photo, and export called it 'binary data, not a puzzle file'."""
    photo = str(SAMPLES.parent / "photos" / "witches-scan-easy.jpg")
    with pytest.raises(SystemExit) as done:
        main([photo if a == "PHOTO" else a for a in args])
    out, err = capsys.readouterr()
    assert done.value.code == 2 and out == "" and len(err.splitlines()) == 1
    assert says.replace("PHOTO", photo) in err
