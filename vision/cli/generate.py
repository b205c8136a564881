"""`edgematch generate`: a new puzzle with exactly one solution, as a puzzle file."""
from __future__ import annotations

import re

import click

from solver.generate import as_data, generate as make_puzzle

from .errors import InputError
from .export import write_text
from .report import json_text


@click.command()
@click.argument("size")
@click.option("--figures", type=click.IntRange(1, 99), default=4, show_default=True,
              help="Figures (or, with --frame, inner colours).")
@click.option("--frame", type=click.IntRange(0, 99), default=0, show_default=True,
              help="Eternity style: this many frame colours and a grey border (code 0).")
@click.option("--hints", type=click.IntRange(0), default=0, help="Tiles given as fixed hints.")
@click.option("--seed", type=int, help="Make the same puzzle again.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="Time allowed to prove each candidate unique.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write the puzzle file here, not stdout.")
def generate(size: str, figures: int, frame: int, hints: int, seed: int | None,
             timeout: float | None, out: str | None) -> None:
    """Make a puzzle of SIZE, such as 4x4, with a unique solution proved by enumeration."""
    shape = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", size)
    if not shape:
        raise click.BadParameter(f"{size!r} is not ROWSxCOLS, e.g. 4x4", param_hint="SIZE")
    rows, cols = map(int, shape.groups())
    if hints > rows * cols:
        raise click.BadParameter(f"{hints} hints do not fit a {size} grid", param_hint="--hints")
    try:
        puzzle = make_puzzle(rows, cols, figures, frame, hints, seed, timeout=timeout)
    except ValueError as error:
        raise InputError(f"generate {size}: {error}") from None
    text = json_text(as_data(puzzle)) + "\n"
    if out is None:
        click.echo(text, nl=False)
    else:
        write_text(out, text)
