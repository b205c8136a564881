"""Synthetic photos of edge-matching puzzles, with exact ground truth.

One module per step: `art` draws figures, `sets` groups them into puzzles'
art, `tiles` cuts figures at the waist onto tile edges, `puzzles` plants a
solution and scrambles it, `scene` lays tiles on a table, `camera` looks at
it and develops the photo, `sheet` makes a printable page, `truth` writes,
reads and scores against the ground truth, and `photo` ties them together.

>>> image, truth = render_photo(seed=1, size=(480, 360), layout="touching")
>>> image.shape, truth["rows"], len(truth["tiles"][0]["corners"])
((360, 480, 3), 3, 4)
"""
from .camera import LEVELS
from .photo import puzzle_tiles, render_photo, render_sheet, save_photo
from .puzzles import Planted, plant
from .scene import LAYOUTS, TABLES
from .sets import ART_SETS
from .sheet import save_sheet, sheet_page
from .tiles import draw_tile
from .truth import TileMatch, detected_solution, load_truth, match_tiles, save_truth

__all__ = ["ART_SETS", "LAYOUTS", "LEVELS", "Planted", "TABLES", "TileMatch", "detected_solution",
           "draw_tile", "load_truth", "match_tiles", "plant", "puzzle_tiles", "render_photo", "render_sheet",
           "save_photo", "save_sheet", "save_truth", "sheet_page"]
