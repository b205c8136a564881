"""`edgematch render`: a synthetic photo (or a printable sheet) with ground truth."""
from __future__ import annotations

from pathlib import Path

import click

from ..render import ART_SETS, LAYOUTS, LEVELS, TABLES
from .errors import InputError, read_puzzle


def _size(ctx: click.Context, param: click.Parameter, value: str) -> tuple:
    try:
        w, h = (int(v) for v in value.lower().split("x"))
    except ValueError:
        raise click.BadParameter(f"{value!r} is not WIDTHxHEIGHT, e.g. 4000x3000") from None
    return w, h


@click.command()
@click.argument("out", type=click.Path(dir_okay=False))
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Picks puzzle, art and scene.")
@click.option("--layout", type=click.Choice(LAYOUTS), default="scattered", show_default=True)
@click.option("--difficulty", type=click.Choice(tuple(LEVELS)), default="normal", show_default=True)
@click.option("--art", type=click.Choice(tuple(ART_SETS)), default="witches", show_default=True)
@click.option("--rows", type=click.IntRange(2, 16), default=3, show_default=True)
@click.option("--cols", type=click.IntRange(2, 16), default=3, show_default=True)
@click.option("--unique", is_flag=True, help="Only a puzzle with exactly one solution.")
@click.option("--size", default="4000x3000", show_default=True, callback=_size,
              help="Photo size WIDTHxHEIGHT as seen.")
@click.option("--table", type=click.Choice(TABLES), help="Table surface (default: by seed).")
@click.option("--exif", type=click.Choice(["0", "90", "180", "270"]), default="0", show_default=True,
              help="Store the JPEG turned, with an EXIF Orientation tag, as phones do.")
@click.option("--quality", type=click.IntRange(30, 100), help="JPEG quality (default: by difficulty).")
@click.option("--sheet", is_flag=True, help="Write a printable A4 page (PNG and PDF) instead.")
@click.option("--puzzle", "puzzle_file", type=click.Path(dir_okay=False),
              help="Draw this puzzle file (e.g. from generate), its rows and cols, not one made for --seed.")
def render(out: str, seed: int, layout: str, difficulty: str, art: str, rows: int, cols: int,
           unique: bool, size: tuple, table: str | None, exif: str, quality: int | None,
           sheet: bool, puzzle_file: str | None) -> None:
    """Render a photo of a scrambled puzzle to OUT, ground truth to OUT's .json.

    With --sheet, OUT is a printable page of the puzzle's tiles with cut
    lines, written as both .png and .pdf.
    """
    from ..render import render_photo, render_sheet, save_photo, save_sheet, save_truth

    puzzle = None if puzzle_file is None else read_puzzle(puzzle_file)
    path = Path(out)
    kinds = (".png", ".pdf") if sheet else (".jpg", ".jpeg", ".png")
    if path.suffix.lower() not in kinds:
        raise click.UsageError(f"{out}: use a {' or '.join(kinds)} file name")
    if not path.parent.is_dir():
        raise InputError(f"{out}: folder {path.parent} does not exist")
    try:
        if sheet:
            page, truth = render_sheet(seed, art, rows, cols, unique, puzzle=puzzle)
            written = save_sheet(path, page)
            save_truth(path.with_suffix(".json"), dict(truth, image=written[0].name))
            written.append(path.with_suffix(".json"))
        else:
            image, truth = render_photo(seed, layout, difficulty, art, rows, cols, size, unique,
                                        table, int(exif), puzzle=puzzle)
            written = [path, save_photo(path, image, truth, quality)]
    except ValueError as error:
        if puzzle is not None:  # a puzzle the art cannot draw: the file's fault, not the command line's
            raise InputError(f"{puzzle_file}: {error}") from None
        raise click.UsageError(str(error)) from None
    except OSError as error:
        raise InputError(f"{out}: cannot write: {error.strerror or error}") from None
    for name in written:
        click.echo(name)
