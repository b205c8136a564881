"""Reading puzzle files: the three formats agree, keys mean what SPEC.md says."""
import random
from pathlib import Path

import pytest

from solver import Fixed, Match, Puzzle, turn
from solver.formats import PuzzleError, load_puzzle, loads_puzzle

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "puzzles"
WITCH = [(3, 6, 6, 1), (2, 4, 8, 7), (6, 4, 4, 8), (7, 7, 1, 1), (2, 5, 5, 1),
         (3, 7, 5, 1), (2, 6, 5, 3), (8, 5, 3, 4), (2, 8, 8, 2)]


def witch_as(fmt: str) -> str:
    if fmt == "json":
        return '{"match": "sum:9", "tiles": %s}' % [list(t) for t in WITCH]
    if fmt == "yaml":
        return "match: sum:9\ntiles:\n" + "".join(f"  - {list(t)}\n" for t in WITCH)
    return "# witch\nmatch: sum:9\n" + "".join(" ".join(map(str, t)) + "  # a tile\n" for t in WITCH)


@pytest.mark.parametrize("fmt", ["json", "yaml", "text"])
def test_formats_read_the_same_puzzle(fmt):
    for given in (fmt, None):  # by name and by content
        p = loads_puzzle(witch_as(fmt), "w", given)
        assert (p.tiles, p.rows, p.cols, p.match) == (tuple(WITCH), 3, 3, Match("sum", 9))


def test_samples_of_one_puzzle_in_json_and_text_agree():
    """The NSA tiles are the seed's [north, east, south, west] lists."""
    nsa = load_puzzle(SAMPLES / "nsa.json")
    assert nsa.tiles[0] == (2, -2, -4, -3) and nsa.match.kind == "signed"
    text = "\n".join(" ".join(map(str, t)) for t in nsa.tiles)
    assert loads_puzzle(text, "nsa.txt").tiles == nsa.tiles


def test_order_reorders_to_nesw():
    # Big Cats' Tile(left, top, bottom, right): first tile TF, JB, LF, TB
    cats = load_puzzle(SAMPLES / "big-cats.json")
    assert cats.tiles[0] == ("JB", "TB", "LF", "TF")
    tiles = [list(turn((1, 2, -1, -2), q)) for q in range(4)]
    p = loads_puzzle("order: wnse\n" + "\n".join(" ".join(map(str, (w, n, s, e)))
                                                 for n, e, s, w in tiles), "p.txt")
    assert p.tiles == tuple(tuple(t) for t in tiles)


def test_text_header_values():
    text = """name: hinted
rows: 2
cols: 3   # a comment
match: {pairs: [[A, a], [B, b]]}
border: X
fixed: [{tile: 2, row: 1, col: 3, rotation: 270}]
A X X X
X X a A
X X B a
b X X X
a b X X
X X X b
"""
    p = loads_puzzle(text, "h.txt")
    assert (p.name, p.rows, p.cols, p.border) == ("hinted", 2, 3, "X")
    assert loads_puzzle("match: Sum:9 \n" + "1 2 8 7\n" * 4, "w.txt").match == Match("sum", 9)
    assert p.match.partner("a") == "A" and p.match.partner("b") == "B"
    assert p.fixed == (Fixed(tile=1, row=0, col=2, quarters=3),)


def test_codes_are_ints_when_they_read_as_ints():
    p = loads_puzzle('{"tiles": [["1", "+2", " -1 ", -2]' + ', [1, 2, -1, -2]' * 3 + "]}", "p.json")
    assert p.tiles[0] == (1, 2, -1, -2)


@pytest.mark.parametrize("rows, cols, n, expect", [
    (None, None, 9, (3, 3)), (2, None, 6, (2, 3)), (None, 2, 8, (4, 2)), (3, 2, 6, (3, 2))])
def test_grid_shape_defaults(rows, cols, n, expect):
    data = {"match": "same", "tiles": [[1, 1, 1, 1]] * n}
    data.update({k: v for k, v in (("rows", rows), ("cols", cols)) if v})
    text = "\n".join(f"{k}: {v}" for k, v in data.items() if k != "tiles") + "\n" + "1 1 1 1\n" * n
    p = loads_puzzle(text, "p.txt")
    assert (p.rows, p.cols) == expect


def test_corners_and_name_default():
    p = loads_puzzle("corners: true\n" + "r g b y\n" * 4, "four/corner-4.txt")
    assert p.corners and p.name == "corner-4" and p.tiles[0] == ("r", "g", "b", "y")


@pytest.mark.parametrize("text, fmt, line, words", [
    ('{"tiles": [[1, 2, -1, -2],\n  [1, 2 -1, -2]]}', "json", 2, "not valid JSON"),
    ("tiles:\n  - [1, 2, -1, -2]\n  - [1, 2, -1, -2\n", "yaml", 4, "not valid YAML"),
    ("tiles:\n  - [1, 2, -1, -2]\n  - [1, 2, -1]\n", "yaml", 3, "tile 2 has 3 edges"),
    ('{"tiles": [[1, 2, -1, -2],\n [1, 2, -1, -2, 5]]}', "json", 2, "tile 2 has 5 edges"),
    ("1 2 -1 -2\n\n1 2 -1\n", "text", 3, "tile 2 has 3 edges"),
    ("match: sum:9\ncolums: 2\n1 8 8 1\n", "text", 2, "unknown key 'colums' (did you mean 'cols'?)"),
    ("match: sum 9\n" + "1 2 -1 -2\n" * 4, "text", 1, "unknown match rule"),
    ("rows: three\n" + "1 2 -1 -2\n" * 4, "text", 1, "'rows' must be a whole number"),
    ('{"order": "NESX", "tiles": [[1, 2, -1, -2]]}', "json", 1, "'order' must be"),
    ("fixed: [{tile: 1, row: 1, col: 1, rotation: 45}]\n" + "1 2 -1 -2\n" * 4, "text", 1,
     "rotation 45"),
])
def test_errors_name_file_and_line(text, fmt, line, words):
    with pytest.raises(PuzzleError) as caught:
        loads_puzzle(text, "bad." + fmt, fmt)
    message = str(caught.value)
    assert message.startswith(f"bad.{fmt}:{line}: ") and words in message and "\n" not in message


@pytest.mark.parametrize("text, words", [
    ("", "empty file"),
    ("# only a comment\n", "no tiles"),
    ("1 2 -1 -2\n" * 8, "8 tiles make no square grid"),
    ("rows: 3\ncols: 3\n" + "1 2 -1 -2\n" * 8, "8 tiles do not fill a 3x3 grid"),
    ("1 2 -1 -2\n" * 1600, "grid 40x40 is outside 2x2 to 16x16"),
    ("1 2 -1 -2\n" * 3 + "1 2 -1 7\n", "code 7 has no partner"),
    ("match: sum:9\n" + "1 2 8 7\n" * 3 + "1 2 8 X\n", "code 'X' has no partner"),
    ("fixed: [{tile: 1, row: 1, col: 1}, {tile: 2, row: 1, col: 1}]\n" + "1 2 -1 -2\n" * 4,
     "row 1, col 1 is fixed twice"),
    ('{"tiles": [[1, 2, -1, -2]], "tiles": []}', "key 'tiles' is given twice"),
    ("[1, 2, 3]", "expected a mapping"),
])
def test_errors_are_one_line_naming_the_file(text, words):
    with pytest.raises(PuzzleError) as caught:
        loads_puzzle(text, "bad.txt")
    assert str(caught.value).startswith("bad.txt") and words in str(caught.value)
    assert "\n" not in str(caught.value)


def test_puzzle_errors_are_value_errors_and_carry_parts():
    with pytest.raises(ValueError):
        loads_puzzle("1 2 3\n", "p.txt")
    error = PuzzleError("p.txt", "tile 1 has 3 edges,\nnot 4", 1)
    assert (error.source, error.line, str(error)) == ("p.txt", 1, "p.txt:1: tile 1 has 3 edges, not 4")


def test_files_that_are_not_puzzles(tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 4)
    latin = tmp_path / "latin.txt"
    latin.write_bytes("match: same\n\xe9 1 1 1\n".encode("latin-1"))
    for path, words in ((junk, "binary data"), (latin, "not UTF-8"), (tmp_path / "gone.json", "no such file"),
                        (tmp_path, "is a directory")):
        with pytest.raises(PuzzleError, match=words):
            load_puzzle(path)


def test_puzzle_model_limits_reach_the_reader():
    """A Puzzle the model rejects is a PuzzleError naming the file, not a bare ValueError."""
    with pytest.raises(ValueError):
        Puzzle(tiles=((1, 2, 3, 4),) * 4, rows=2, cols=2)
    with pytest.raises(PuzzleError, match=r"^p.json: code 1 has no partner"):
        loads_puzzle('{"tiles": %s}' % ([[1, 2, 3, 4]] * 4), "p.json")


def test_mangled_samples_are_read_or_rejected_in_one_line():
    """Random edits of the sample files: each gives a Puzzle or a one-line PuzzleError, never a crash."""
    rng = random.Random(5)
    samples = sorted(SAMPLES.iterdir())
    rejected = 0
    for _ in range(400):
        path = rng.choice(samples)
        chars = list(path.read_text())
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(chars))
            if rng.random() < 0.5:
                del chars[i]
            else:
                chars.insert(i, rng.choice(' \n:,-[]{}"#\'0123456789TFX&*!|>%'))
        try:
            loads_puzzle("".join(chars), path.name, rng.choice([None, path.suffix.lstrip(".").replace("txt", "text")]))
        except PuzzleError as error:
            rejected += 1
            assert "\n" not in str(error) and str(error).startswith(path.name)
    assert 50 < rejected < 400
