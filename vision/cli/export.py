"""`edgematch export`: a puzzle as the seeds' SAT (DIMACS CNF) or MIP (CPLEX LP) model."""
from __future__ import annotations


import click

from solver.engines import cnf, lp
from solver.engines.model import Model

from ..files import write_atomic
from .ahead import is_photo
from .errors import InputError, read_puzzle

WRITERS = {"cnf": cnf.dimacs, "lp": lp.lp_text}


@click.command()
@click.argument("puzzle")
@click.option("--format", "fmt", type=click.Choice(sorted(WRITERS)), required=True,
              help="cnf: DIMACS for any SAT solver; lp: CPLEX LP for any MIP solver.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write here instead of stdout.")
def export(puzzle: str, fmt: str, out: str | None) -> None:
    """Write PUZZLE's placement model, so any SAT or MIP solver can check an answer.

    Variable x_ROW_COL_TILE_TURN (the CNF lists them in comments) is 1 when
    that tile lies in that cell turned that many degrees clockwise.
    """
    if is_photo(puzzle):
        raise InputError(f"{puzzle}: a photo; export takes a puzzle file (solve --json lists the codes"
                         " a photo's edges read as)")
    text = WRITERS[fmt](Model(read_puzzle(puzzle)))
    if out is None:
        click.echo(text, nl=False)
        return
    write_text(out, text)


def write_text(path: str, text: str) -> None:
    """Write ``text`` to ``path`` atomically (temp file beside it, then rename)."""
    write_atomic(path, text.encode("utf-8"))
